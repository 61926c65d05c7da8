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

from ..errors import Problems
from ..source.shape import Field, Shape, ident, string, text
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
_LOCAL_URL = re.compile(r"url\(\s*#[\w.-]+\s*\)")
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
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", iid) or iid in icons:
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
    if not path.is_file():
        problems.add(where, f"icon file '{name}' not found (looked in {src.shown.rsplit('/', 1)[0]}/"
                     f"{name})", "an SVG file in the game folder")
        return None
    data = path.read_bytes()
    if len(data) > MAX_SVG:
        problems.add(where, f"icon file '{name}' has {len(data)} bytes", f"an SVG of at most {MAX_SVG} bytes")
        return None
    fault, svg = svg_fault(data)
    if fault:
        problems.add(where, f"icon file '{name}' refused: {fault}",
                     "an SVG of shapes only (path, rect, circle, g, ...), no script, style, image or outside reference")
        return None
    return svg


def svg_fault(data: bytes) -> tuple[str, str]:
    """('', the SVG as text) when `data` is an SVG drawing of shapes only; else (what is wrong, '')."""
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
    for element in root.iter():
        fault = _element_fault(element)
        if fault:
            return fault, ""
    return "", etree.tostring(root, encoding="unicode")


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
        if "url(" in value and not _LOCAL_URL.fullmatch(value.strip()):
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
