"""`aids errata VERSION`: an errata sheet (PDF) per language for owners of the print of a version
(aids/build/errata.py)."""
from __future__ import annotations

from pathlib import Path


def add_parser(sub, version, games) -> None:
    errata = sub.add_parser("errata", help="an errata sheet (PDF) per language for owners of a printed version",
                            description="Writes build/<game>/<lang>/errata-<VERSION>.pdf: each change since that "
                            "release with the page and column where it stood in that version's PDF, and its text "
                            "now in a box as wide as the column, to cut out and paste.")
    errata.add_argument("version", type=version, help="the version printed, e.g. 1.3")
    games(errata)
    errata.add_argument("--lang", action="append", metavar="L",
                        help="only this language (repeatable; default: every language of the project)")
    errata.add_argument("--pdfs", type=Path, metavar="DIR",
                        help="the PDFs of that version, DIR/<lang>/<aid>.pdf (default: build/<game>/<VERSION>, the "
                             "site's archive)")


def errata_command(project, args) -> int:
    from ..build.errata import write_errata
    from ..build.pipeline import chosen_languages
    from ..kinds.reading import select_game_ids
    langs = chosen_languages(project, args.lang)
    for game_id in select_game_ids(project, args.game):
        game = project.read_game(game_id)
        for path in write_errata(project, game, args.version, langs, args.pdfs):
            print(f"wrote {path}")
    return 0
