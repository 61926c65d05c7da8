"""A house style: `theme.yaml`, named by a game (`theme:` in game.yaml) or by the project for every game
(`theme:` in aids.yaml). Its fonts (checked for the letters of every language the project publishes), colours,
heading and table styles, page art and margins, a stylesheet appended after aids' own, and the documented
template blocks it may fill (docs/guide/themes.md). Every file it names is inside the project, and so is every
file its stylesheet names by url(), found from the stylesheet's folder as CSS finds it."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from ..errors import AidsError, Position, Problems, display_path
from ..folder import read_file
from ..model.figures import MAX_IMAGE, image_fault
from ..source import stylesheet
from ..source.shape import Field, Shape, choice, list_of, num, string
from ..source.yamlfile import MAX_BYTES, Source, check_map, decode, read_yaml
from .theme_blocks import check_block

THEME_FILE = "theme.yaml"
THEME_PATH = r"\.ya?ml$"  # `theme:` names a YAML file (theme.yaml, or house.yaml)
FONT_TYPES = (".ttf", ".otf")
IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".svg")
NAMED = "an image or font file inside the project, its path relative to the stylesheet"  # what a url() of its CSS is
# the largest file of each type a theme may name (others: MAX_BYTES); Noto Sans CJK, among the largest fonts, is 16 MB
LIMITS = {".ttf": 64 * 1024 * 1024, ".otf": 64 * 1024 * 1024, **{t: MAX_IMAGE for t in IMAGE_TYPES}}
COLOUR = {"anyOf": [{"type": "string", "pattern": r"^#[0-9a-fA-F]{6}$"},
                    {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1},
                     "minItems": 4, "maxItems": 4}],
          "description": 'a colour: "#7b2d26", or CMYK as [0, 0.63, 0.69, 0.52] (what the press prints)'}
# The colours a theme may set; each a CSS variable of the page (--theme-<name>), for a theme's own CSS too.
COLOURS = {"heading": "headings' text (or their banner's background)",
           "heading_text": "the text on a heading banner",
           "table_header": "behind a table's header cells",
           "table_header_text": "the text of a table's header cells",
           "table_highlight": "behind a table's highlighted cells (tables: highlight)",
           "rule": "rules: under headings, around table cells, above footnotes"}
# The template blocks a theme may fill (templates/base.html calls them; the variables they are given are
# listed in docs/guide/themes.md and kept across aids versions).
BLOCKS = {"before_title": "above the game's name, at the top of the page",
          "after_content": "after the aid's text, before the colophon",
          "colophon": "the colophon line at the end of the page, in place of aids' own"}
STYLES = {"headings": ("plain", "rule", "banner"), "tables": ("grid", "lines"),
          "highlight": ("none", "first-column", "stripes")}
DEFAULT_STYLES = {"headings": "rule", "tables": "grid", "highlight": "none"}  # aids' own look
FAMILY = r"^[A-Za-z0-9][A-Za-z0-9 _-]*$"  # a family name CSS reads in quotes as it is
FACE_CHOICES = {"weight": ("normal", "bold"), "style": ("normal", "italic")}
FONT = Shape("theme font", (
    Field("family", string("the name the theme's CSS and its fonts: fields use", pattern=FAMILY), True),
    Field("file", string("a TrueType or OpenType file (.ttf, .otf), from the theme's folder"), True),
    Field("licence", string("the font's licence text, a file from the theme's folder (e.g. OFL.txt)"), True),
    *(Field(key, choice(choices)) for key, choices in FACE_CHOICES.items())))
FONTS_USED = Shape("theme fonts:", (Field("text", string("the family of the text")),
                                    Field("headings", string("the family of headings and titles")),
                                    Field("tables", string("the family of table cells"))))
COLOURS_SHAPE = Shape("theme colours", tuple(Field(name, COLOUR, doc=doc) for name, doc in COLOURS.items()))
PAGE = Shape("theme page", (
    Field("background", string("an image (.png, .jpg, .svg) under every printed page, filling it")),
    num("top", "mm above the text", 5, 60), num("bottom", "mm below the text", 5, 60),
    num("inner", "mm on the binding side (with the booklet's binding added)", 5, 60),
    num("outer", "mm on the outer side", 5, 60)))
TEMPLATES = Shape("theme templates", tuple(Field(name, string("a Jinja2 file: " + doc))
                                           for name, doc in BLOCKS.items()))
THEME = Shape(THEME_FILE, (
    Field("faces", list_of(FONT), doc="the font files the theme ships, each with its licence"),
    Field("fonts", FONTS_USED, doc="which family sets what (default: aids' own)"),
    Field("colours", COLOURS_SHAPE),
    Field("headings", choice(STYLES["headings"]), doc="headings as aids sets them (rule), without their "
          "rule (plain), or in a coloured band (banner)"),
    Field("tables", choice(STYLES["tables"]), doc="rules around every cell (grid) or between rows only (lines)"),
    Field("highlight", choice(STYLES["highlight"]), doc="table cells on the highlight colour"),
    Field("page", PAGE), Field("css", string("a stylesheet appended after aids' own, from the theme's folder")),
    Field("templates", TEMPLATES, doc="documented template blocks filled by the theme"),
), doc="A house style: fonts, colours, heading and table styles, page art and margins, CSS and template blocks.")


@dataclass(frozen=True)
class Face:
    family: str
    file: Path
    weight: str = "normal"
    style: str = "normal"


@dataclass(frozen=True)
class Theme:
    """A theme as read: absolute paths, all inside the project; `files` is every file it is made of."""
    path: Path  # theme.yaml
    faces: tuple[Face, ...] = ()
    fonts: tuple[tuple[str, str], ...] = ()  # ("text", family), ("headings", family), ("tables", family)
    colours: tuple[tuple[str, tuple[float, ...]], ...] = ()  # name -> CMYK
    headings: str = "rule"
    tables: str = "grid"
    highlight: str = "none"
    background: Path | None = None
    margins: tuple[tuple[str, float], ...] = ()  # top, bottom, inner, outer (mm), those it sets
    css: Path | None = None
    assets: tuple[tuple[str, Path], ...] = ()  # what the stylesheet's url()s name: each address, as written -> file
    templates: tuple[tuple[str, Path], ...] = ()
    files: tuple[Path, ...] = field(default=())
    root: Path | None = None  # the project's folder: what its paths are shown from in a message
    rgb: tuple[tuple[str, str], ...] = ()  # name -> "#rrggbb" of the colours given so: what the press converts
    # through its profile (render/theme.py), where `colours` has the naive CMYK that turns back into it on screen

    def show(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix() if self.root and path.is_relative_to(self.root) else str(path)

    def font(self, what: str) -> str | None:
        return dict(self.fonts).get(what)

    def colour(self, name: str) -> tuple[float, ...] | None:
        return dict(self.colours).get(name)

    def block(self, name: str) -> Path | None:
        return dict(self.templates).get(name)


def read_theme(path: Path, root: Path, shown: str, languages: list[str], problems: Problems) -> Theme | None:
    """The theme of `path` (a theme.yaml inside `root`), its problems added to `problems`."""
    src = read_yaml(path, shown)
    data = src.data
    if not check_map(src, data, problems, THEME, where=Position(shown, 1, 1)):
        return None
    reader = _Reader(src, path.parent, root, problems)
    faces = tuple(face for node in reader.listed(data, "faces") if (face := reader.face(node, languages)))
    fonts = reader.fonts(data, {face.family for face in faces})
    colours = {key: reader.colour(data["colours"], key) for key in reader.mapping(data, "colours", COLOURS_SHAPE)}
    page = reader.mapping(data, "page", PAGE)
    background = reader.file(data["page"], "background", IMAGE_TYPES) if "background" in page else None
    css, assets = reader.own_css(data)
    blocks = reader.mapping(data, "templates", TEMPLATES)
    templates = tuple((key, p) for key in blocks if (p := reader.block(data["templates"], key)))
    styles = reader.styles(data)
    rgb = tuple((k, str(data["colours"][k])) for k, v in colours.items() if v and isinstance(data["colours"][k], str))
    return Theme(path, faces, tuple(fonts.items()), tuple((k, v) for k, v in colours.items() if v),
                 styles["headings"], styles["tables"], styles["highlight"], background, reader.margins(data, page),
                 css, assets, templates, tuple(dict.fromkeys(reader.read)), root.resolve(), rgb)


class _Reader:
    """Reads the values of one theme.yaml, adding a problem at the line and column of each that is wrong."""

    def __init__(self, src: Source, folder: Path, root: Path, problems: Problems):
        self.src, self.folder, self.root, self.problems = src, folder, root.resolve(), problems
        self.read: list[Path] = [src.path]

    def listed(self, data, key: str) -> list:
        value = data.get(key) or []
        if not isinstance(value, list):
            self.problems.add(self.src.at(data, key, value=True), f"{key} must be a list", f"{key}: [...]")
            return []
        return [item for item in value if check_map(self.src, item, self.problems, FONT, where=self.src.at(value))]

    def mapping(self, data, key: str, shape: Shape) -> dict:
        value = data.get(key)
        if value is None or not check_map(self.src, value, self.problems, shape,
                                          where=self.src.at(data, key, value=True)):
            return {}
        return {k: v for k, v in value.items() if k in shape.names}

    def fonts(self, data, families: set[str]) -> dict:
        """`fonts:`, each a family of the theme's faces."""
        fonts = self.mapping(data, "fonts", FONTS_USED)
        for key, family in fonts.items():
            if family not in families:
                self.problems.add(self.src.at(data["fonts"], key, value=True), f"font family '{family}' is not "
                                  "among the theme's faces", ", ".join(sorted(families)) or "a family of faces:")
        return fonts

    def margins(self, data, page: dict) -> tuple[tuple[str, float], ...]:
        """The margins `page:` sets, in mm."""
        found = []
        for key in ("top", "bottom", "inner", "outer"):
            value = page.get(key)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 5 <= value <= 60:
                self.problems.add(self.src.at(data["page"], key, value=True), f"margin {key} of {value}",
                                  "5 to 60 (mm)")
            else:
                found.append((key, float(value)))
        return tuple(found)

    def styles(self, data) -> dict[str, str]:
        """`headings:`, `tables:` and `highlight:`, each one of its styles."""
        styles = {key: str(data.get(key, default)) for key, default in DEFAULT_STYLES.items()}
        for key, value in styles.items():
            if value not in STYLES[key]:
                self.problems.add(self.src.at(data, key, value=True), f"{key}: '{value}'", ", ".join(STYLES[key]))
        return styles

    def file(self, node, key: str, types: tuple[str, ...]) -> Path | None:
        """A file the theme names, from its folder: inside the project, of one of `types`, there."""
        name, where = str(node[key]), self.src.at(node, key, value=True)
        path = (self.folder / name).resolve()
        if not path.is_relative_to(self.root):
            self.problems.add(where, f"'{name}' is outside the project", "a file inside the project folder")
        elif path.suffix.lower() not in types:
            self.problems.add(where, f"'{name}' is not a {' or '.join(types)} file",
                              "a file of type " + ", ".join(types))
        elif not path.exists():
            self.problems.add(where, f"'{name}' not found (looked for {path.relative_to(self.root)})",
                              "a file beside " + self.src.shown)
        elif fault := self._fault(path):
            self.problems.add(where, f"'{name}' {fault}", "a file beside " + self.src.shown)
        else:
            self.read.append(path)
            return path
        return None

    def own_css(self, data) -> tuple[Path | None, tuple[tuple[str, Path], ...]]:
        """The theme's own stylesheet (`css:`), if it names one, and the files its url()s name."""
        css = self.file(data, "css", (".css",)) if "css" in data else None
        return css, (self.stylesheet(css) if css else ())

    def stylesheet(self, css: Path) -> tuple[tuple[str, Path], ...]:
        """The files the stylesheet names by url(), each found from the stylesheet's folder (as CSS finds it): an
        image or a font inside the project; an @import, an address of the network or outside the project refused,
        at its line and column. A url() of data or of a fragment (#id) names no file."""
        shown = css.relative_to(self.root).as_posix()
        try:  # a FIFO, a file too large or not in UTF-8: refused at its place
            named = stylesheet.named(decode(read_file(css, shown, MAX_BYTES), shown))
        except AidsError as exc:
            self.problems.extend(exc)
            return ()
        found = []
        for item in named:
            where, address = Position(shown, item.line, item.column), item.address
            if item.imported:
                self.problems.add(where, f"@import '{address}' in a theme stylesheet",
                                  "the rules of one stylesheet, css: in theme.yaml")
            elif address and not address.startswith("#") and not address.lower().startswith("data:"):
                path = self.named(where, address, css.parent)
                if path is not None:
                    self.read.append(path)
                    found.append((address, path))
        return tuple(found)

    def named(self, where: Position, address: str, folder: Path) -> Path | None:
        """The file of the project a stylesheet's url(address) names, from the stylesheet's `folder`; None (and a
        problem) where it names none."""
        url = urlparse(address)
        name = unquote(url.path)
        path = (folder / name).resolve()
        if url.scheme or url.netloc:
            self.problems.add(where, f"url({address}) is not a file of the project (aids renders offline)", NAMED)
        elif not name or name.startswith(("/", "\\")) or Path(name).is_absolute():
            self.problems.add(where, f"url({address}) is not a path relative to the stylesheet", NAMED)
        elif not path.is_relative_to(self.root):
            self.problems.add(where, f"url({address}) is outside the project", NAMED)
        elif path.suffix.lower() not in IMAGE_TYPES + FONT_TYPES:
            self.problems.add(where, f"url({address}) is not an image or a font", NAMED)
        elif not path.is_file():
            self.problems.add(where, f"url({address}) not found (looked for {path.relative_to(self.root).as_posix()})",
                              NAMED)
        else:
            return path
        return None

    def _fault(self, path: Path) -> str:
        """What is wrong with the file at `path` (not a regular file, too large, a damaged image), read once."""
        suffix = path.suffix.lower()
        try:
            data = read_file(path, display_path(path, self.root), LIMITS.get(suffix, MAX_BYTES))
        except AidsError as exc:  # a FIFO, a folder, a device: refused unread
            return exc.problems[0].message.removeprefix("file ")
        return image_fault(data, suffix) if suffix in IMAGE_TYPES else ""

    def block(self, node, key: str) -> Path | None:
        """A template block, checked to be one (config/theme_blocks.py): its error at its own line and column."""
        path = self.file(node, key, (".html",))
        if path is not None:
            try:
                check_block(path, display_path(path, self.root), key)
            except AidsError as exc:
                self.problems.extend(exc)
                return None
        return path

    def face(self, node, languages: list[str]) -> Face | None:
        self.file(node, "licence", (".txt", ".md", "")) if "licence" in node else None
        path = self.file(node, "file", FONT_TYPES)
        if path is None:
            return None
        try:
            missing = {lang: gone for lang in languages if (gone := missing_letters(path, lang))}
        except Exception:  # fontTools raises what a broken file makes it raise (TTLibError, struct.error, ...)
            self.problems.add(self.src.at(node, "file", value=True), f"'{path.name}' is not a font fontTools can read",
                              "a TrueType or OpenType font file")
            return None
        for lang, gone in missing.items():
            self.problems.add(self.src.at(node, "file", value=True),
                              f"font '{path.name}' has no glyph for {' '.join(gone)} (letters of {lang})",
                              f"a font that covers every letter of {', '.join(languages)}")
        if not re.fullmatch(FAMILY, str(node["family"])):
            self.problems.add(self.src.at(node, "family", value=True), f"font family '{node['family']}'",
                              "letters, digits, spaces, '-' and '_': Valmora Garamond")
            return None
        weight, style = (self.chosen(node, key, choices) for key, choices in FACE_CHOICES.items())
        return Face(str(node["family"]), path, weight, style) if weight and style else None

    def chosen(self, node, key: str, choices: tuple[str, ...]) -> str | None:
        """`key` of `node`, one of `choices` (the first when not given): what @font-face is written with."""
        value = node.get(key, choices[0])
        if value not in choices:
            self.problems.add(self.src.at(node, key, value=True), f"unknown {key} '{value}'", " or ".join(choices))
            return None
        return str(value)

    def colour(self, node, key: str) -> tuple[float, ...] | None:
        value = node[key]
        if isinstance(value, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", value):
            return cmyk_of_rgb(value)
        if (isinstance(value, list) and len(value) == 4
                and all(isinstance(v, (int, float)) and 0 <= v <= 1 for v in value)):
            return tuple(float(v) for v in value)
        self.problems.add(self.src.at(node, key, value=True), f"colour {key}: {value!r}",
                          '"#rrggbb" or CMYK [c, m, y, k] from 0 to 1')
        return None


def cmyk_of_rgb(value: str) -> tuple[float, ...]:
    """#rrggbb as the CMYK the palette's naive conversion turns back into it (render/colours.css_of)."""
    r, g, b = (int(value[i:i + 2], 16) / 255 for i in (1, 3, 5))
    k = 1 - max(r, g, b)
    if k >= 1:
        return (0.0, 0.0, 0.0, 1.0)
    return tuple(round((1 - part - k) / (1 - k), 4) for part in (r, g, b)) + (round(k, 4),)


@functools.cache
def letters(lang: str) -> frozenset[str]:
    """The letters of a language as CLDR lists them (ICU's standard exemplar set), in both cases."""
    import icu
    found: set[str] = set()
    for item in icu.LocaleData(lang).getExemplarSet(0, icu.ULocaleDataExemplarSetType.ES_STANDARD):
        found.update(item)
    return frozenset(found | {ch.upper() for ch in found if len(ch.upper()) == 1})


@functools.cache
def _cmap(path: Path, stamp: float) -> frozenset[int]:
    from fontTools.ttLib import TTFont  # WeasyPrint's own font library
    with TTFont(path, lazy=True) as font:
        return frozenset(font.getBestCmap())


def missing_letters(path: Path, lang: str) -> list[str]:
    """The letters of `lang` the font of `path` has no glyph for, in the language's alphabetical order."""
    import icu
    cmap = _cmap(path, path.stat().st_mtime)
    collator = icu.Collator.createInstance(icu.Locale(lang))
    return sorted((ch for ch in letters(lang) if ord(ch) not in cmap), key=collator.getSortKey)
