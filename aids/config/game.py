"""A game's configuration: `games/<game>/game.yaml` (its title, languages, editions, glossary), and how its
PDFs go to print."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel import Locale, UnknownLocaleError

from ..errors import AidsError, Position, Problem, Problems
from ..model.icons import ICON, Icon, read_icons
from ..model.quantity import MEASURE, read_measure
from ..model.rulings import FILE as RULINGS_FILE
from ..model.rulings import Ledger, read_rulings
from ..model.text import SPAN_EXPECTED, Text, forms_at, span_fault, text_at
from ..source.shape import ID, ID_PATTERN, Field, Shape, choice, date, ident, list_of, name_fault, string, text
from ..source.yamlfile import Source, check_map, is_text, read_yaml
from .theme import THEME_PATH, Theme, read_theme

if TYPE_CHECKING:
    from .project import Project

MAX_LINE = 200  # a game's title, version, copyright or author: printed in every footer
GAME_FILE = "game.yaml"
CATALOGS_PER = ("game", "aid")  # a catalog per game, or per aid beside the game's own


@dataclass(frozen=True)
class Edition:
    """One printing of a game's aids; `options` are read by the aid kinds that care.

    options["measure"] (model.quantity.Measure): the unit distances are printed in, scale and rounding.
    """

    id: str  # the name of its output folder
    options: dict = field(default_factory=dict)
    title: Text | None = None  # its name as readers read it (msgctxt game/edition/<id>); None: "Edition 2"


@dataclass(frozen=True)
class Print:
    """How a game's PDFs go to print (`print:` in aids.yaml): `home` (A4, RGB, crop marks on the card sheet)
    only, or `press` PDFs as well (PDF/X-4, CMYK with an output intent, bleed, marks outside it or none); and
    `gray` PDFs as well, for a monochrome printer (`profile: [home, gray]`)."""
    profile: str = "home"
    bleed: float = 3.0  # mm around the trimmed page
    marks: str = "crop"  # crop marks outside the bleed, in a slug that grows the sheet; or "none"
    gray: bool = False  # also <aid>-gray.pdf: every colour a gray (render/colours.py GRAY)

    @property
    def profiles(self) -> list[str]:
        """Every profile its PDFs are printed in: its `profile`, and `gray` when it asks for gray PDFs as well."""
        return [self.profile, *(["gray"] if self.gray else [])]


EDITION = Shape("edition", (Field("id", string(pattern=ID_PATTERN), True),
                            Field("title", text("its name as readers read it on the game's pages, in the game's "
                                                "source language, translated through its catalog: \"For inch "
                                                "rulers\" (none: \"Edition 2\", by its place)")), *MEASURE),
                doc="one printing of the game's aids")
GLOSSARY_TERM = Shape("glossary term", (Field("id", ident(), True), Field("term", text(), True),
                                        Field("forms", list_of(string()), doc="other forms of it in the source")))
LINE = {"type": ["string", "integer"], "minLength": 1, "maxLength": MAX_LINE}  # printed on every page
GAME = Shape(GAME_FILE, (
    Field("id", ident("the name of the game's folder"), True), Field("title", LINE, True),
    Field("version", LINE, doc='the version as it is printed, in quotes: "1.10" (none: no version is printed)'),
    Field("copyright", LINE, doc='what follows © where the game is named: the year, in quotes: "1984"'),
    Field("source_language", string(), True, "the language its sources are written in"),
    Field("aids", list_of(string()), True, "its aid sources, in this folder"),
    Field("published", date()), Field("author", LINE), Field("editions", list_of(EDITION)),
    Field("glossary", list_of(GLOSSARY_TERM), doc="terms every translation is held to"),
    Field("catalogs_per", choice(CATALOGS_PER), doc="this game's catalogs: one (game) or one per aid beside the "
          "game's own (aid); aids.yaml's catalogs_per unless given"),
    Field("icons", list_of(ICON), doc="the icons its texts use inline as {icon:<id>} (docs/guide/icons.md)"),
    Field("change_colour", list_of({"type": "number", "minimum": 0, "maximum": 1}, min_items=4, max_items=4),
          doc="the colour of the marks of what changed since the last release, as CMYK: [0.9, 0.55, 0, 0.1]"),
    Field("theme", string("its house style: a theme.yaml inside the project, from this folder (default: the "
                          "project's theme:, else aids' own look)", pattern=THEME_PATH)),
), doc="A game: its title and version or copyright, the language of its sources and the aids made of them.")


@dataclass
class GlossaryTerm:
    """A term of the game's own glossary: translated once, in the catalog; `aids check` holds every
    translation that says it in the source to that translation."""
    id: str
    name: Text
    forms: list[str]  # other forms of the term in the source language (inflections)


@dataclass
class Game:
    id: str
    folder: Path
    source: Source  # game.yaml, for positions
    title: str
    version: str  # "" when the game has none: its pages print no version
    published: dt.date | None
    source_language: str
    author: str
    aids: list[Path]  # source files, in declared order
    editions: list[Edition]  # [] when the game has a single, unnamed edition
    glossary: list[GlossaryTerm] = field(default_factory=list)  # terms every aid of the game may use
    printing: Print = field(default_factory=lambda: Print())  # from aids.yaml's `print:`
    change_colour: tuple[float, ...] | None = None  # CMYK of its change marks (None: the palette's "change")
    copyright: str = ""  # printed after ©: "1984"
    rulings: Ledger | None = None  # games/<game>/rulings.yaml, when it has one (model/rulings.py)
    theme: Theme | None = None  # its house style (config/theme.py): its own theme.yaml or the project's
    catalogs_per: str = "game"  # game.yaml's, else aids.yaml's: "aid" keeps a catalog per aid (localize/domains.py)
    icons: dict[str, Icon] = field(default_factory=dict)  # its icon set, by id (model/icons.py)

    def edition_texts(self) -> list[Text]:
        """The names of its editions that have one: translated as the game's other texts."""
        return [edition.title for edition in self.editions if edition.title is not None]

    @property
    def title_text(self) -> Text:
        """The title as a translatable text (msgctxt game/title)."""
        where = self.source.at(self.source.data, "title", value=True)
        return Text(self.title, "game/title", "Title of the game", where)

    def epoch(self) -> int:
        """Its publication date as a Unix time: what its PDFs are dated with (reproducible outputs)."""
        day = self.published or dt.date(2000, 1, 1)
        return int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp())





def catalogs_per(src: Source, data: Any, default: str, problems: Problems) -> str:
    """`catalogs_per:` of aids.yaml or game.yaml, one of CATALOGS_PER (`default` when not given)."""
    value = data.get("catalogs_per", default)
    if value not in CATALOGS_PER:
        problems.add(src.at(data, "catalogs_per", value=True), f"unknown catalogs_per '{value}'",
                     " or ".join(CATALOGS_PER))
        return default
    return str(value)


def check_language(code: str, where: Position, problems: Problems) -> None:
    try:
        Locale.parse(code)
    except (UnknownLocaleError, ValueError, TypeError):
        problems.add(where, f"unknown language '{code}'", "a CLDR language code such as pl, en, ru")


def read_game(project: Project, folder: Path) -> Game:
    shown = project.show(folder / GAME_FILE)
    src = read_yaml(folder / GAME_FILE, shown)
    data, problems = src.data, Problems()
    top = Position(shown, 1, 1)
    if not check_map(src, data, problems, GAME, where=top):
        problems.raise_if_any()
    _check_game_id(project, folder, src, problems)
    if isinstance(data.get("version"), float):  # 1.10 unquoted is the number 1.1
        problems.add(src.at(data, "version", value=True), f"version {data['version']} is read as a number "
                     "(unquoted, 1.10 would print as 1.1)", 'the version in quotes, as it is to be printed, e.g. '
                     'version: "1.10"')
    _check_lines(src, data, problems)
    source_language = str(data["source_language"])
    check_language(source_language, src.at(data, "source_language", value=True), problems)
    published = data.get("published")
    if published is not None and not isinstance(published, dt.date):
        problems.add(src.at(data, "published", value=True), "published is not a date", "YYYY-MM-DD")
        published = None
    aids = []
    listed = data["aids"]
    if not isinstance(listed, list):
        problems.add(src.at(data, "aids", value=True), "aids must be a list of source files",
                     "[sequence.yaml, ...]")
        listed = []
    for i, name in enumerate(listed):
        path = (folder / str(name)).resolve()
        if not path.is_relative_to(folder.resolve()):
            problems.add(src.at(listed, i), f"aid source '{name}' is outside the game folder")
        elif not path.exists():  # a FIFO or a folder is refused where it is read (source/yamlfile.py)
            problems.add(src.at(listed, i), f"aid source '{name}' not found", "a file in " + project.show(folder))
        else:
            aids.append(path)
    editions = _read_editions(src, data, problems)
    glossary = _read_glossary(src, data.get("glossary") or [], problems)
    colour = _change_colour(src, data, problems)
    theme = _theme(project, folder, src, data, problems)
    icons = read_icons(src, data["icons"], folder, problems) if data.get("icons") is not None else {}
    per = catalogs_per(src, data, project.catalogs_per, problems)
    problems.raise_if_any()
    rulings = _read_rulings(project, folder)
    return Game(
        id=folder.name, folder=folder, source=src, title=str(data["title"]),
        version=str(data.get("version", "")), published=published, source_language=source_language,
        author=str(data.get("author", "")), aids=aids, editions=editions, glossary=glossary,
        printing=project.print_for(folder.name), change_colour=colour, copyright=str(data.get("copyright", "")),
        rulings=rulings, theme=theme, catalogs_per=per, icons=icons,
    )


def _theme(project: Project, folder: Path, src: Source, data: Any, problems: Problems) -> Theme | None:
    """The game's `theme:` (from its folder), else the project's (aids.yaml), else none."""
    if "theme" not in data:
        return project.theme
    return theme_at(project, str(data["theme"]), folder, src.at(data, "theme", value=True), problems)


def theme_at(project: Project, name: str, folder: Path, where: Position, problems: Problems) -> Theme | None:
    """The theme.yaml `name` names from `folder`, never outside the project."""
    path = (folder / name).resolve()
    if not path.is_relative_to(project.root.resolve()):
        problems.add(where, f"theme '{name}' is outside the project", "a theme.yaml inside the project folder")
    elif not path.exists():
        problems.add(where, f"theme '{name}' not found (looked for {project.show(path)})",
                     "a theme.yaml inside the project folder")
    else:
        return read_theme(path, project.root, project.show(path), project.languages, problems)
    return None


def _read_rulings(project: Project, folder: Path) -> Ledger | None:
    """The game's rulings (model/rulings.py), when its folder has a rulings.yaml: never one outside the folder."""
    path = folder / RULINGS_FILE
    if not (path.exists() or path.is_symlink()):
        return None
    if not path.resolve().is_relative_to(folder.resolve()):  # a FIFO or a folder: refused by read_yaml
        raise AidsError(Problem(Position(project.show(path)), f"{RULINGS_FILE} is a link to outside the game folder",
                                "a file in " + project.show(folder)))
    return read_rulings(read_yaml(path, project.show(path)))


def _read_editions(src: Source, data: Any, problems: Problems) -> list[Edition]:
    """`editions:` each with a unique id (the name of its output folder) and its measure."""
    editions: list[Edition] = []
    for i, ed in enumerate(data.get("editions") or []):
        if not check_map(src, ed, problems, EDITION, where=src.at(data["editions"], i)) or not is_text(ed["id"]):
            if hasattr(ed, "get") and ed.get("id") is not None and not is_text(ed["id"]):
                problems.add(src.at(ed, "id", value=True), "an edition id must be text", "id: cm")
            continue
        if fault := name_fault(ed["id"], "edition id"):  # the name of its output folder
            problems.add(src.at(ed, "id", value=True), *fault)
            continue
        if any(e.id == str(ed["id"]) for e in editions):
            problems.add(src.at(ed, "id", value=True), f"duplicate edition id '{ed['id']}'", "unique edition ids")
            continue
        title = text_at(src, ed, "title", f"game/edition/{ed['id']}", "Name of an edition of the game, on its web "
                        "pages (one printing of its aids: distances in other units, say)", problems) \
            if "title" in ed else None
        editions.append(Edition(str(ed["id"]), {"measure": read_measure(src, ed, problems)}, title))
    return editions


def _check_game_id(project: Project, folder: Path, src: Source, problems: Problems) -> None:
    """The game's id is the name of its folder, of its catalogs and of its output folder: an id, that folder's."""
    given = src.data["id"]
    if fault := name_fault(given, "game id"):
        problems.add(src.at(src.data, "id", value=True), *fault)
    elif given != folder.name:
        if fault := name_fault(folder.name, "game folder name"):
            problems.add(Position(project.show(folder)), *fault)
        else:
            problems.add(src.at(src.data, "id", value=True), f"game id '{given}' differs from its folder name",
                         f"id: {folder.name}")


def _check_lines(src: Source, data: Any, problems: Problems) -> None:
    """What every footer prints of the game: each one line of text."""
    for key in ("title", "version", "copyright", "author"):
        value = data.get(key)
        if isinstance(value, str) and (len(value) > MAX_LINE or "\n" in value.strip()):
            problems.add(src.at(data, key, value=True), f"{key} of {len(value)} characters or on several lines",
                         f"one line of at most {MAX_LINE} characters (it is printed on every page)")
        elif value is not None and (isinstance(value, bool) or not isinstance(value, str | int | float)):
            problems.add(src.at(data, key, value=True), f"{key} is not a line of text", f'{key}: "..."')
        elif isinstance(value, str) and (fault := span_fault(value)):
            problems.add(src.at(data, key, value=True), fault, SPAN_EXPECTED)


def _change_colour(src: Source, data: Any, problems: Problems) -> tuple[float, ...] | None:
    colour = data.get("change_colour")
    if colour is None:
        return None
    if not (isinstance(colour, list) and len(colour) == 4 and all(
            isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1 for v in colour)):
        problems.add(src.at(data, "change_colour", value=True), "change_colour is not a CMYK colour",
                     "four numbers from 0 to 1, cyan, magenta, yellow and black: [0.9, 0.55, 0, 0.1]")
        return None
    return tuple(float(v) for v in colour)


def _read_glossary(src: Source, raw: Any, problems: Problems) -> list[GlossaryTerm]:
    """`glossary:` in game.yaml: `- {id: zoc, term: strefa kontroli, forms: [strefy kontroli]}`."""
    if not isinstance(raw, list):
        problems.add(src.at(raw), "glossary must be a list", "- id: zoc\n  term: strefa kontroli")
        return []
    terms: list[GlossaryTerm] = []
    for i, node in enumerate(raw):
        if not check_map(src, node, problems, GLOSSARY_TERM, where=src.at(raw, i)):
            continue
        tid = str(node["id"])
        if not ID.match(tid) or any(t.id == tid for t in terms):
            problems.add(src.at(node, "id", value=True), f"malformed or duplicate term id '{tid}'",
                         "unique lowercase letters, digits and '-'")
            continue
        terms.append(GlossaryTerm(tid, text_at(src, node, "term", f"game/glossary/{tid}",
                                               "Term of the game's glossary (every translation is checked "
                                               "against yours)", problems), forms_at(src, node, problems)))
    return terms
