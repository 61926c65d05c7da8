"""`aids errata VERSION`: an errata sheet (PDF) per language for owners of the print of a version
(aids/releases/errata.py)."""
from __future__ import annotations


def errata_command(project, args) -> int:
    from ..kinds.reading import select_game_ids
    from ..pipeline.pipeline import chosen_languages
    from ..releases.errata import write_errata
    langs = chosen_languages(project, args.lang)
    for game_id in select_game_ids(project, args.game):
        game = project.read_game(game_id)
        for path in write_errata(project, game, args.version, langs, args.pdfs):
            print(f"wrote {path}")
    return 0
