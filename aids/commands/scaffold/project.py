"""`aids init`: a project of one game with an aid of every kind, its catalogs extracted, updated and translated,
a README and a .gitignore; it builds at once, in every language the starter texts are written in.

Everything is made in a hidden folder inside the target first (sources, schemas, catalogs), and moved into
place only when all of it is made and no file it would write is there already: nothing is overwritten, and a
failure leaves nothing behind.
"""
from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ...errors import AidsError, Problem, Problems
from ...folder import Folder
from . import CHAPTER, COMMAND_LINE, STARTER, render, text_language, translations_of, with_modeline

GAME = "mill-skirmish"
DEFAULT_LANGUAGES = "pl,en,ru"
# the game's aids: (file, kind, id, template values besides id)
AIDS = [("sequence.yaml", "sequence", "sequence-of-play", {}),
        ("terrain.yaml", "table", "terrain", {}),
        ("playsheet.yaml", "playsheet", "playsheet", {"table": "terrain"}),
        ("referee-card.yaml", "card", "referee-card", {}),
        ("rules.yaml", "booklet", "rules", {"files": f"rules/{CHAPTER}, rules/play.md"})]
CHAPTERS = [(f"rules/{CHAPTER}", CHAPTER), ("rules/play.md", "play.md")]


@dataclass
class Created:
    """What `init` made: the project folder, the files written (relative to it), and notes for the user."""
    root: Path
    files: list[str]
    notes: list[str] = field(default_factory=list)


def parse_languages(languages: str, source: str) -> list[str]:
    """The `--languages` list checked as aids.yaml's languages are, the source language among them."""
    from ...config import check_language
    codes = [code.strip() for code in languages.split(",") if code.strip()]
    problems = Problems()
    if not codes:
        problems.add(COMMAND_LINE, "no language in --languages", "a list such as pl,en,ru")
    for code in dict.fromkeys([*codes, source]):
        check_language(code, COMMAND_LINE, problems)
    if len(set(codes)) != len(codes):
        problems.add(COMMAND_LINE, f"a language is listed twice in --languages {languages}", "each language once")
    if codes and source not in codes:
        problems.add(COMMAND_LINE, f"the source language '{source}' is not among --languages {languages}",
                     f"--languages {','.join([source, *codes])}, or --source-language one of {', '.join(codes)}")
    problems.raise_if_any()
    return codes


def sources(root: Path, source: str, languages: list[str]) -> dict[str, str]:
    """relative path -> text of every file of the project before its catalogs: sources, README, .gitignore."""
    values = {"game": GAME, "source": source, "languages": ", ".join(languages),
              "published": dt.date.today().isoformat(), "aids": "".join(f"  - {name}\n" for name, *_ in AIDS),
              "table": "terrain"}
    game = f"games/{GAME}"
    files = {"aids.yaml": with_modeline("project", root, root / "aids.yaml", render("aids.yaml", source, values)),
             f"{game}/game.yaml": with_modeline("game", root, root / game / "game.yaml",
                                               render("game.yaml", source, values).rstrip("\n") + "\n")}
    for name, kind, aid_id, extra in AIDS:
        files[f"{game}/{name}"] = with_modeline(kind, root, root / game / name,
                                                render(f"{kind}.yaml", source, {**values, **extra, "id": aid_id}))
    for name, template in CHAPTERS:
        files[f"{game}/{name}"] = render(template, source, values)
    files["README.md"] = render("README.md", source, values)
    files[".gitignore"] = render("gitignore", source, values)
    return files


def init(folder: Path, source: str = "en", languages: str = DEFAULT_LANGUAGES) -> Created:
    """Write a new project into `folder` (created if missing); an AidsError, with nothing written, when it
    cannot: bad options, or a file it would write is there already."""
    codes = parse_languages(languages, source)
    root = folder.resolve()
    if root.exists() and not root.is_dir():
        raise AidsError(Problem(COMMAND_LINE, f"{folder} is a file", "a folder for the new project"))
    for taken in ("aids.yaml", "games"):
        if (root / taken).exists():
            raise AidsError(Problem(COMMAND_LINE, f"{folder / taken} exists: a project is already there",
                                    "an empty folder, or one without aids.yaml and games/"))
    made = not root.exists()
    project = Folder(root, str(folder))
    staging = root / f".aids-init-{secrets.token_hex(8)}"
    project.mkdir(staging.name)  # a read-only folder, a full disk: one line
    try:
        notes = make(staging, source, codes)
        written = sorted(str(p.relative_to(staging)) for p in staging.rglob("*") if p.is_file())
        for name in written:
            if PurePosixPath(name).parent != PurePosixPath("."):
                project.names(PurePosixPath(name).parent)  # refuses a link among its folders
            if project.lstat(name) is not None:
                raise AidsError(Problem(COMMAND_LINE, f"{folder / name} exists", "a folder without the files of a "
                                        "new project (aids init overwrites nothing)"))
        for name in written:  # through the Folder: never into a link planted among the project's folders
            project.move(PurePosixPath(staging.name, name), name)
    except BaseException:
        project.remove(staging.name)
        if made:
            Folder(root.parent).remove(root.name)
        raise
    project.remove(staging.name)
    return Created(root, written, notes)


def make(root: Path, source: str, languages: list[str]) -> list[str]:
    """The whole project in `root`: sources, schemas, catalogs extracted, updated and translated; the notes."""
    from ...config import read_project
    from ...kinds import schemas
    from ...translating import translations
    folder = Folder(root)
    for name, text in sources(root, source, languages).items():
        folder.write(name, text.encode("utf-8"))
    schemas.write_schemas(root)
    project = read_project(root)
    translations.extract(project)
    translations.update(project)
    translate(project, source)
    notes = []
    if source not in STARTER:
        notes.append(f"the starter texts are written in {text_language(source)} (there are none in {source}): "
                     f"rewrite them in {source}, then aids extract && aids update")
    untranslated = [lang for lang in languages if lang != source and lang not in STARTER]
    if untranslated:
        catalogs = ", ".join(f"i18n/{lang}/LC_MESSAGES/{GAME}.po" for lang in untranslated)
        notes.append(f"no starter translation in {', '.join(untranslated)}: its texts are printed in the source "
                     f"language until they are translated in {catalogs}")
    return notes


def translate(project, source: str) -> None:
    """Fill every untranslated entry of the game's catalogs whose text the starter has in that language."""
    from ...localize import catalogs, po
    for lang in project.languages:
        if lang == source:
            continue
        known = translations_of(source, lang)
        path = catalogs.po_path(project.catalogs, lang, GAME)
        catalog = catalogs.read_catalog(path, project.show(path), project.catalogs)
        for entry in po.entries(catalog):
            if not po.translated(entry) and po.msgid(entry) in known:
                entry.target = known[po.msgid(entry)]
        po.save(path, catalog, project.catalogs, project.show(path))


def init_command(args) -> int:
    """`aids init [FOLDER] [--source-language L] [--languages pl,en,ru]`."""
    folder = args.folder or args.project or Path.cwd()
    created = init(Path(folder), args.source_language, args.languages)
    shown = str(folder) if args.folder or args.project else "."
    aids = ", ".join(f"{name} ({kind})" for name, kind, *_ in AIDS)
    print(f"created a project in {shown}: {len(created.files)} files")
    print(f"  games/{GAME}/: game.yaml, {aids}, rules/*.md")
    print("  i18n/: the catalogs, translated; schemas/: for your editor; README.md; .gitignore")
    for note in created.notes:
        print(f"note: {note}")
    where = f"cd {shown} && " if shown != "." else ""
    print(f"next: {where}aids build   (then aids serve, aids new; see README.md)")
    return 0
