"""A project's configuration: `aids.yaml` at its root (languages, folders, publishing, print settings)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError

from ..errors import AidsError, Position, Problem, Problems, display_path
from ..model.site import SITE, Site, read_site
from ..source.shape import ID_PATTERN, Field, Shape, choice, flag, list_of, num, one_or_list, string
from ..source.yamlfile import Source, check_map, read_yaml
from .game import CATALOGS_PER, GAME_FILE, Game, Print, catalogs_per, check_language, read_game, theme_at
from .theme import THEME_PATH, Theme
from .tournament import BILINGUAL, PACKETS, Packet, read_bilingual, read_packets

PROJECT_FILE = "aids.yaml"
FORMATS = ("html", "pdf")  # what `aids build` makes unless aids.yaml's `formats:` or --format says otherwise
DATE_STYLES = {"en": "en_GB"}  # 26 May 1831 unless aids.yaml says `date_style: {en: en-US}` (May 26, 1831)

# -- the shapes of aids.yaml and game.yaml (aids.source.shape: what check_map accepts and the schemas say) ----
PROFILES = ("home", "press", "gray")
PRINT_FIELDS = (Field("profile", one_or_list(choice(PROFILES)),
                      doc="press: also PDFs for a print shop (PDF/X-4); gray: also PDFs for a monochrome printer; "
                          "a list for more than one: [press, gray]"),
                num("bleed", "mm around the trimmed page", 0, 10),
                Field("marks", choice(("crop", "none")), doc="crop marks outside the bleed, or none"))
PRINT_GAME = Shape("print of a game", PRINT_FIELDS)
PRINT_GAMES = Shape("print: games", keys=PRINT_GAME, key_pattern=ID_PATTERN, doc="settings of one game, by its id")
PRINT = Shape("print", (*PRINT_FIELDS, Field("games", PRINT_GAMES)), doc="how the PDFs go to print")
DATE_STYLE = Shape("date_style", keys=string("a CLDR locale of the language, e.g. en-GB or en-US"),
                   doc="the locale whose dates a language prints: {en: en-US}")
FALLBACKS = ("warn", "fail")  # what a text with no usable translation does to the build
PUBLISH = Shape("publish", (num("min_complete", "the share of an aid's words translated below which it is not "
                                "built, in %", 0, 100),))
PROJECT = Shape(PROJECT_FILE, (
    Field("languages", list_of(string(), min_items=1, unique=True), True, "the languages to publish: [pl, en, ru]"),
    Field("output", string("the output folder (default build)")),
    Field("games", string("the folder of the games, one folder each (default games)")),
    Field("catalogs", string("the folder of the catalogs (default i18n)")),
    Field("ui_domain", flag("only for the aids source tree: keep the package's own catalog too")),
    Field("catalogs_per", choice(CATALOGS_PER), doc="one catalog a game (game, the default) or one a game's "
          "texts plus one per aid (aid); a game.yaml may say otherwise for its game"),
    Field("publish", PUBLISH),
    Field("fallbacks", choice(FALLBACKS), doc="warn (the default): text a translation lacks prints in the source "
          "language and the build lists it; fail: the build fails, writing none of that aid's language (as --strict)"),
    Field("site_url", string("the address the web site is published at", pattern=r"^https?://[^\s\"<>]+$")),
    Field("site", SITE),
    Field("date_style", DATE_STYLE),
    Field("print", PRINT),
    Field("theme", string("the house style of every game: a theme.yaml inside the project (a game's own theme: "
                          "wins)", pattern=THEME_PATH)),
    Field("bilingual", BILINGUAL),
    Field("packets", PACKETS),
    Field("formats", list_of(string(), min_items=1, unique=True), doc="what `aids build` makes of each aid without "
          "--format (default [html, pdf]); `aids formats` lists them: [html, pdf, epub] adds e-books"),
), doc="An aids project: what to publish and where to write it.")
@dataclass
class Project:
    root: Path
    languages: list[str]
    output: Path
    games_dir: Path
    catalogs: Path  # i18n/
    ui_domain: bool  # this tree is aids itself and maintains the package's own catalog
    min_complete: float | None = None  # publish: {min_complete: N}: an aid below N % translated is not built
    site_url: str | None = None  # where the built HTML is published: catalogs link each text to its place
    date_styles: dict[str, str] = field(default_factory=lambda: dict(DATE_STYLES))  # language -> CLDR locale
    printing: Print = field(default_factory=Print)  # every game's, unless `print: {games: ...}` says otherwise
    printing_of: dict[str, Print] = field(default_factory=dict)  # game id -> its own
    site: Site = field(default_factory=Site)  # `site:`: the web site's title, languages and games
    theme: Theme | None = None  # `theme:`: every game's house style, unless its game.yaml names its own
    bilingual: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # game -> (lang, lang) pairs
    packets: tuple[Packet, ...] = ()  # `packets:`: a PDF per event (config/tournament.py)
    catalogs_per: str = "game"  # "aid": a catalog per aid beside the game's own (localize/domains.py)
    formats: tuple[str, ...] = FORMATS  # `formats:`: what `aids build` makes without --format
    fallbacks: str = "warn"  # `fallbacks: fail`: a text that falls back fails its aid's language, as --strict does
    formats_at: Position = field(default_factory=lambda: Position(PROJECT_FILE))  # where they are named (errors)

    def show(self, path: Path) -> str:
        return display_path(path, self.root)

    def print_for(self, game_id: str) -> Print:
        return self.printing_of.get(game_id, self.printing)

    def game_ids(self) -> list[str]:
        if not self.games_dir.is_dir():
            return []
        return sorted(p.name for p in self.games_dir.iterdir() if (p / GAME_FILE).exists())  # a FIFO: refused

    def read_game(self, game_id: str) -> Game:
        return read_game(self, self.games_dir / game_id)


def find_root(start: Path) -> Path:
    """The nearest folder at or above `start` holding aids.yaml."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / PROJECT_FILE).is_file():
            return folder
    raise AidsError(Problem(Position(str(start)), f"no {PROJECT_FILE} here or in any parent folder",
                            f"a project folder with {PROJECT_FILE}"))


def read_project(root: Path) -> Project:
    if not (root / PROJECT_FILE).exists():  # a FIFO or a folder is refused by read_yaml, at once
        raise AidsError(Problem(Position(str(root / PROJECT_FILE)), "no project here",
                                f"a project folder holding {PROJECT_FILE}"))
    src = read_yaml(root / PROJECT_FILE, PROJECT_FILE)
    data, problems = src.data, Problems()
    if not check_map(src, data, problems, PROJECT, where=Position(PROJECT_FILE, 1, 1)):
        problems.raise_if_any()
    languages = _languages(src, data, problems)
    if data.get("ui_domain") and not (root / "aids" / "__init__.py").is_file():
        # Extracting the package's own words needs its sources; an installed aids has none here.
        problems.add(src.at(data, "ui_domain"), "ui_domain is only for the aids source tree",
                     "no ui_domain in a project of games (aids ships its own catalog)")
    folders = {key: _folder(src, data, key, default, root, problems)
               for key, default in (("output", "build"), ("games", "games"), ("catalogs", "i18n"))}
    _check_output(src, data, root, folders, problems)
    min_complete = _min_complete(src, data, problems)
    site_url = _site_url(src, data, problems)
    date_styles = _date_styles(src, data, problems)
    printing, printing_of = _printing(src, data, problems)
    def is_game(name: str) -> bool:
        return (folders["games"] / name / GAME_FILE).is_file()
    site = read_site(src, data, [str(x) for x in languages], is_game, problems)
    bilingual = read_bilingual(src, data, [str(x) for x in languages], is_game, problems)
    packets = read_packets(src, data, [str(x) for x in languages], is_game, problems)
    formats = _formats(src, data, problems)
    per = catalogs_per(src, data, "game", problems)
    if str(data.get("fallbacks", FALLBACKS[0])) not in FALLBACKS:
        problems.add(src.at(data, "fallbacks", value=True), f"unknown fallbacks '{data['fallbacks']}'",
                     "warn (text a translation lacks prints in the source language), fail (the build fails)")
    problems.raise_if_any()
    project = Project(
        root=root, languages=[str(x) for x in languages],
        output=folders["output"], games_dir=folders["games"], catalogs=folders["catalogs"],
        ui_domain=bool(data.get("ui_domain", False)), min_complete=min_complete, site_url=site_url,
        date_styles=date_styles, printing=printing, printing_of=printing_of, site=site,
        bilingual=bilingual, packets=packets, catalogs_per=per,
        formats=formats, fallbacks=str(data.get("fallbacks", FALLBACKS[0])),
        formats_at=src.at(data, "formats", value=True) if "formats" in data else Position(PROJECT_FILE),
    )
    if "theme" in data:
        project.theme = theme_at(project, str(data["theme"]), root, src.at(data, "theme", value=True), problems)
        problems.raise_if_any()
    return project


def _languages(src: Source, data: Any, problems: Problems) -> list[Any]:
    """`languages: [pl, en, ru]`: each a language code, none twice."""
    languages = data["languages"]
    if not isinstance(languages, list) or not languages:
        problems.add(src.at(data, "languages", value=True), "languages must be a list", "[pl, en, ru]")
        return []
    for i, code in enumerate(languages):
        check_language(str(code), src.at(languages, i), problems)
    if len(set(languages)) != len(languages):
        problems.add(src.at(data, "languages", value=True), "a language is listed twice")
    return languages


def _formats(src: Source, data: Any, problems: Problems) -> tuple[str, ...]:
    """`formats: [html, pdf, epub]`: the formats `aids build` makes (their names are checked against the formats
    registered when a build plans: aids/pipeline/pipeline.py)."""
    given = data.get("formats")
    if given is None:
        return FORMATS
    if not isinstance(given, list) or not given or not all(isinstance(name, str) for name in given):
        problems.add(src.at(data, "formats", value=True), "formats must be a list of format names",
                     "formats: [html, pdf, epub]")
        return FORMATS
    return tuple(dict.fromkeys(given))


# A page's address is the site's and at most a game, a version, an edition, a language and an aid (ids of at most
# 64 characters each): with 1,000 bytes for the site's, it fits the largest QR code (2,331 bytes at level M) that a
# tournament packet's cover prints it in.
MAX_SITE_URL = 1000


def _site_url(src: Source, data: Any, problems: Problems) -> str | None:
    """The site's web address, without a trailing slash."""
    site_url = data.get("site_url")
    if site_url is not None and (not isinstance(site_url, str) or not re.fullmatch(r"https?://[^\s\"<>]+", site_url)):
        problems.add(src.at(data, "site_url", value=True), f"site_url '{site_url}' is not a web address",
                     "site_url: https://example.org/aids")
        return None
    if site_url is not None and len(site_url.encode("utf-8")) > MAX_SITE_URL:
        problems.add(src.at(data, "site_url", value=True), f"site_url of {len(site_url)} characters, too long for "
                     "the QR code a tournament packet prints it in", f"a web address of at most {MAX_SITE_URL} bytes")
        return None
    return site_url.rstrip("/") if site_url else None


def _printing(src: Source, data: Any, problems: Problems) -> tuple[Print, dict[str, Print]]:
    """`print: {profile: press, bleed: 3, marks: crop, games: {lwow-1920: {marks: none, profile: [home, gray]}}}`."""
    node = data.get("print")
    if node is None or not check_map(src, node, problems, PRINT, where=src.at(data, "print", value=True)):
        return Print(), {}
    every = _print_of(src, node, Print(), problems)
    games = node.get("games")
    if games is None:
        return every, {}
    if not check_map(src, games, problems, PRINT_GAMES, where=src.at(node, "games", value=True)):
        return every, {}
    own = {}
    for game_id, settings in games.items():
        if check_map(src, settings, problems, PRINT_GAME, what=f"print of game '{game_id}'",
                     where=src.at(games, game_id, value=True)):
            own[str(game_id)] = _print_of(src, settings, every, problems)
    return every, own


def _print_of(src: Source, node: Any, base: Print, problems: Problems) -> Print:
    bleed, marks = node.get("bleed", base.bleed), node.get("marks", base.marks)
    profile, gray = base.profile, base.gray
    if "profile" in node:
        given = node["profile"] if isinstance(node["profile"], list) else [node["profile"]]
        unknown = [p for p in given if p not in PROFILES]
        if unknown:
            problems.add(src.at(node, "profile", value=True), f"unknown print profile '{unknown[0]}'",
                         "home, press or gray, or a list of them: [press, gray]")
        else:
            profile, gray = "press" if "press" in given else "home", "gray" in given
    low, high = PRINT["bleed"].low or 0, PRINT["bleed"].high or 0
    if isinstance(bleed, bool) or not isinstance(bleed, (int, float)) or not low <= bleed <= high:
        problems.add(src.at(node, "bleed", value=True), f"bleed '{bleed}' is not a width in mm",
                     f"a number of mm from {low:g} to {high:g}, e.g. bleed: 3")
        bleed = base.bleed
    if marks not in ("crop", "none"):
        problems.add(src.at(node, "marks", value=True), f"unknown marks '{marks}'", "crop or none")
        marks = base.marks
    return Print(str(profile), float(bleed), str(marks), gray)


def _date_styles(src: Source, data: Any, problems: Problems) -> dict[str, str]:
    """`date_style: {en: en-US}`: the CLDR locale whose dates a language prints (its own language's)."""
    styles = dict(DATE_STYLES)
    given = data.get("date_style")
    if given is None or not check_map(src, given, problems, DATE_STYLE,
                                                          where=src.at(data, "date_style", value=True)):
        return styles
    for lang, style in given.items():
        where = src.at(given, lang, value=True)
        try:
            locale = Locale.parse(str(style).replace("-", "_"))
        except (UnknownLocaleError, ValueError, TypeError):
            problems.add(where, f"unknown date style '{style}'", f"a CLDR locale of {lang}, e.g. en-GB or en-US")
            continue
        if locale.language != str(lang):
            problems.add(where, f"date style '{style}' is not a locale of '{lang}'", f"{lang}-XX, e.g. en-GB for en")
            continue
        styles[str(lang)] = str(locale)
    return styles


def _min_complete(src: Source, data: Any, problems: Problems) -> float | None:
    """`publish: {min_complete: 90}`: the percentage of an aid's words translated below which it is not built."""
    publish = data.get("publish")
    if publish is None:
        return None
    if not check_map(src, publish, problems, PUBLISH):
        return None
    value = publish.get("min_complete")
    low, high = PUBLISH["min_complete"].low or 0, PUBLISH["min_complete"].high or 0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        problems.add(src.at(publish, "min_complete", value=True), f"min_complete '{value}' is not a percentage",
                     "a number from 0 to 100, e.g. min_complete: 90")
        return None
    return float(value)


def _folder(src: Source, data: Any, key: str, default: str, root: Path, problems: Problems) -> Path:
    """A folder of the project named in aids.yaml: a relative path inside the project (symlinks resolved)."""
    value = data.get(key, default)
    if not isinstance(value, str) or not value.strip():
        kind = "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else "empty" \
            if value is None or not str(value).strip() else f"'{value}'"
        problems.add(src.at(data, key, value=True), f"'{key}' must be a folder name, not {kind}", f"{key}: {default}")
        return root / default
    path = (root / value).resolve()
    if Path(value).is_absolute() or not path.is_relative_to(root.resolve()):
        problems.add(src.at(data, key, value=True), f"'{key}' is outside the project: {value}",
                     f"a folder inside the project, e.g. {key}: {default}")
        return root / default
    return root / value


def _check_output(src: Source, data: Any, root: Path, folders: dict[str, Path], problems: Problems) -> None:
    """The output folder holds nothing else: not the project itself, its sources, catalogs or templates."""
    output = folders["output"].resolve()
    if "output" not in data:
        return
    where = src.at(data, "output", value=True)
    if output == root.resolve():
        problems.add(where, "the output folder cannot be the project folder", "output: build")
        return
    others = {"games": folders["games"], "catalogs": folders["catalogs"], "templates": root / "templates",
              "package": root / "aids"}
    for name, other in others.items():
        other = other.resolve()
        if output == other or output.is_relative_to(other) or other.is_relative_to(output):
            problems.add(where, f"the output folder overlaps the {name} folder ({other.relative_to(root.resolve())})",
                         "a folder of its own, e.g. output: build")
            return
    if output.exists() and not output.is_dir():
        problems.add(where, f"'{data['output']}' is a file, not a folder", "a folder, e.g. output: build")

