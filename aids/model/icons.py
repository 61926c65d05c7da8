"""A game's icon set: `icons:` in game.yaml, each an id, an SVG file of the game folder and a name that the
catalogs translate (what a screen reader says and search finds). Sources use an icon inline as `{icon:<id>}`.

An icon's SVG is read once, as XML with no entities, DTDs or network, and kept only when it is a drawing of
shapes: the elements and attributes listed here, no script, no event attribute, no style sheet, no reference to
anything outside the file (`href` only to `#an-id` of the same file). The renderers then fetch nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from ..errors import AidsError, Problems
from ..folder import read_file
from ..source.shape import ID, Field, Shape, ident, string, text
from ..source.yamlfile import Source, check_map
from .text import Text, text_at

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
MAX_SVG = 64 * 1024  # bytes: an icon is a small drawing
# elements of a drawing of shapes (in the SVG namespace): nothing that runs, loads or embeds
ELEMENTS = frozenset({"svg", "g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "title",
                      "desc", "defs", "use", "symbol", "clipPath", "linearGradient", "radialGradient", "stop"})
ATTRIBUTES = frozenset({
    "id", "viewBox", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "d",
    "points", "transform", "fill", "fill-rule", "fill-opacity", "stroke", "stroke-width", "stroke-linecap",
    "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-opacity", "opacity", "clip-path",
    "clip-rule", "offset", "stop-color", "stop-opacity", "gradientUnits", "gradientTransform", "fx", "fy",
    "preserveAspectRatio", "version", "href", f"{{{XLINK_NS}}}href"})
_LOCAL_URL = re.compile(r"url\(\s*#([\w.-]+)\s*\)", re.IGNORECASE)  # CSS reads URL( as url(
# Elements drawn, each <use> (or url(#id)) counting all it draws: nested <use>s multiply, and 2 KB of them would
# draw a billion shapes, each drawn by WeasyPrint (20,000 in 8 s here) and svglib (2,000 in 1.7 s). The sample icons
# draw at most 6, the sample figure 25; a map of 2,000 hexes from one <symbol> of five shapes, 12,000.
MAX_DRAWN = 1_000  # an icon
MAX_RATIO = 10  # an icon's width over its height, or height over width: it stands in a line of text

ICON = Shape("icon", (
    Field("id", ident("what sources write after {icon:"), True),
    Field("file", string("its SVG file, in the game folder: icons/plane.svg"), True),
    Field("name", text("its name in the source language, translated in the catalog: what a screen reader says "
                       "and search finds"), True),
), doc="an icon the game's texts use inline as {icon:<id>}")


@dataclass(frozen=True)
class Icon:
    """One icon of a game: `svg` is its checked SVG document, as text, without an XML declaration; `view_box`
    and `inner` (its elements inside <svg>) are what an HTML page writes inline."""
    id: str
    name: Text
    svg: str
    file: Path
    view_box: str = "0 0 1 1"
    inner: str = ""

    @property
    def ratio(self) -> float:
        """Its width over its height (from the viewBox): 1 for a square icon."""
        try:
            _, _, width, height = (float(v) for v in self.view_box.replace(",", " ").split())
        except ValueError:
            return 1.0
        return width / height if width > 0 and height > 0 else 1.0


def read_icons(src: Source, raw: Any, folder: Path, problems: Problems) -> dict[str, Icon]:
    """`icons:` of game.yaml: `- {id: plane, file: icons/plane.svg, name: samolot}`, by id."""
    if not isinstance(raw, list):
        problems.add(src.at(raw), "icons must be a list", "- id: plane\n  file: icons/plane.svg\n  name: samolot")
        return {}
    icons: dict[str, Icon] = {}
    for i, node in enumerate(raw):
        if not check_map(src, node, problems, ICON, where=src.at(raw, i)):
            continue
        iid = str(node["id"])
        if not ID.match(iid) or iid in icons:
            problems.add(src.at(node, "id", value=True), f"malformed or duplicate icon id '{iid}'",
                         "unique lowercase letters, digits and '-'")
            continue
        name = text_at(src, node, "name", f"game/icons/{iid}",
                       f"Name of the icon '{iid}' ({node['file']}): read aloud in its place and found by search",
                       problems)
        svg = read_svg(folder, str(node["file"]), src, node, problems)
        if svg is not None:
            root = etree.fromstring(svg)
            inner = "".join(etree.tostring(child, encoding="unicode", with_tail=False) for child in root)
            icons[iid] = Icon(iid, name, svg, folder / str(node["file"]), root.get("viewBox"), inner)
    return icons


def read_svg(folder: Path, name: str, src: Source, node: Any, problems: Problems) -> str | None:
    """The SVG file `name` of the game folder as checked text, or None (the problem said, at `file:`)."""
    where = src.at(node, "file", value=True)
    path = (folder / name)
    if not path.resolve().is_relative_to(folder.resolve()) or path.suffix.lower() != ".svg":
        problems.add(where, f"icon file '{name}' is not an SVG file of the game folder", "icons/plane.svg")
        return None
    shown = f"{src.shown.rsplit('/', 1)[0]}/{name}"
    if not path.exists():
        problems.add(where, f"icon file '{name}' not found (looked in {shown})", "an SVG file in the game folder")
        return None
    try:
        data = read_file(path, shown, MAX_SVG)  # a FIFO or /dev/zero refused unread, a large file unread
    except AidsError as exc:
        problems.add(where, f"icon file '{name}': {exc.problems[0].message}", f"an SVG of at most {MAX_SVG} bytes")
        return None
    fault, svg = svg_fault(data, MAX_DRAWN)
    box = view_box(etree.fromstring(svg).get("viewBox")) if not fault else None
    if box and not 1 / MAX_RATIO <= box[2] / box[3] <= MAX_RATIO:  # it stands in a line of text
        fault = f"its viewBox is {box[2] / box[3]:.3g} times as wide as high, not from 1/{MAX_RATIO} to {MAX_RATIO}"
    if fault:
        problems.add(where, f"icon file '{name}' refused: {fault}",
                     "an SVG of shapes only (path, rect, circle, g, ...), no script, style, image or outside reference")
        return None
    return svg


def svg_fault(data: bytes, most: int = MAX_DRAWN) -> tuple[str, str]:
    """('', the SVG as text) when `data` is an SVG drawing of shapes only, drawing at most `most` of them with its
    references followed; else (what is wrong, '')."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                             remove_comments=True, remove_pis=True, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        return f"not well-formed XML ({exc})", ""
    if root.getroottree().docinfo.internalDTD is not None or b"<!ENTITY" in data or b"<!DOCTYPE" in data:
        return "it declares a DTD or entities", ""
    if root.tag != f"{{{SVG_NS}}}svg":
        return "its root is not an <svg> element of the SVG namespace", ""
    if not root.get("viewBox"):
        return "its <svg> has no viewBox (what scales it to the text)", ""
    if view_box(root.get("viewBox")) is None:
        return (f"its viewBox '{root.get('viewBox')}' is not four numbers of at most {MAX_COORDINATE:,.0f}, the width "
                "and height above 0"), ""
    for element in root.iter():
        fault = _element_fault(element)
        if fault:
            return fault, ""
    fault = _drawn_fault(root, most)
    if fault:
        return fault, ""
    return "", etree.tostring(root, encoding="unicode")


MAX_COORDINATE = 1e9


def view_box(value: str | None) -> tuple[float, float, float, float] | None:
    """A viewBox's four numbers, each finite and of at most MAX_COORDINATE, the width and height above 0; None."""
    try:
        numbers = tuple(float(v) for v in (value or "").replace(",", " ").split())
    except ValueError:
        return None
    if len(numbers) != 4 or not all(abs(v) <= MAX_COORDINATE for v in numbers) or min(numbers[2:]) <= 0:
        return None  # abs(nan) <= x is false: NaN is refused with infinity
    return numbers


def _drawn_fault(root: Any, most: int) -> str:
    """Why the drawing is too large once its references are followed (each <use>, each url(#id) draws what it
    names), or refers in a circle; '' when it is not."""
    ids = {element.get("id"): element for element in root.iter() if element.get("id")}
    drawn: dict[Any, int] = {}
    try:
        for element in reversed(list(root.iter())):  # children before their parents
            if _count(element, ids, drawn, [], most) > most:
                return (f"<{etree.QName(element).localname}> (line {element.sourceline}) draws more than {most:,} "
                        "shapes once its <use>s are followed")
    except _Nested as exc:
        return str(exc)
    return ""


class _Nested(Exception):
    """References in a circle, or nested past MAX_NESTED."""


MAX_NESTED = 100  # elements and references open at once while counting


def _count(element: Any, ids: dict[str, Any], drawn: dict[Any, int], path: list[Any], most: int) -> int:
    """How many elements `element` draws, its children's and what it refers to counted (memoized in `drawn`), up
    to one past `most`."""
    if element in drawn:
        return drawn[element]
    if element in path:
        raise _Nested(f"<{etree.QName(element).localname}> (line {element.sourceline}) refers to itself")
    if len(path) > MAX_NESTED:
        raise _Nested(f"<{etree.QName(element).localname}> (line {element.sourceline}) is nested more than "
                      f"{MAX_NESTED} deep, its references followed")
    path.append(element)
    total = 1 + sum(_count(child, ids, drawn, path, most) for child in element)
    for name in _references(element):
        if name in ids and total <= most:
            total += _count(ids[name], ids, drawn, path, most)
    path.pop()
    drawn[element] = min(total, most + 1)
    return drawn[element]


def _references(element: Any) -> list[str]:
    """The ids an element refers to: href="#id", and url(#id) in a fill, a stroke or a clip-path."""
    found = []
    for attr, value in element.attrib.items():
        if attr.endswith("href") and value.startswith("#"):
            found.append(value[1:])
        found += _LOCAL_URL.findall(value)
    return found


def _element_fault(element: Any) -> str:
    if not isinstance(element.tag, str):
        return "it holds something other than elements and text"
    namespace, _, local = element.tag[1:].partition("}")
    if namespace != SVG_NS or local not in ELEMENTS:
        return f"element <{local or element.tag}> (line {element.sourceline}) is not a shape"
    for attr, value in element.attrib.items():
        if attr not in ATTRIBUTES:
            return f"attribute '{attr}' of <{local}> (line {element.sourceline}) is not allowed"
        if attr.endswith("href") and not value.startswith("#"):
            return f"<{local}> (line {element.sourceline}) refers outside the file ('{value}')"
        if "url(" in value.lower() and not _LOCAL_URL.fullmatch(value.strip()):
            return f"<{local}> (line {element.sourceline}) refers outside the file ('{value}')"
    return ""


def check_icon(target: str, where: Any, icons: dict[str, Icon] | None, problems: Problems) -> None:
    """Reports `{icon:<target>}` at `where` when it names no icon of the game. `icons` is None for a file read
    without its game (pybabel's extractor): its icon set is unknown there, and checked where the game is read."""
    if icons is None:
        return
    fault = icon_fault(target, icons)
    if fault:
        problems.add(where, *fault)


def icon_fault(target: str, icons: dict[str, Icon]) -> tuple[str, str] | None:
    """Why `{icon:<target>}` names no icon of the game (None when it does): message and expected."""
    if target in icons:
        return None
    return f"unknown icon '{target}'", ", ".join(sorted(icons)) or "an icon declared under icons: in game.yaml"
