"""A booklet's figures: `![description](path "caption")` alone in its paragraph, a file of the game; its width
after it (`{width=50%}` of the column, or `{width=60mm}`); two or more in one paragraph, side by side (a `Row`).

The path is relative to the Markdown file and never leads outside the game folder. The description (alternative
text) and the caption are messages of the section. An image that holds text may have a variant per language
beside it, named with the language before the extension (`map.png`, `map.pl.png`, `map.ru.png`): a language with
a variant prints it, the others the image itself.
"""
from __future__ import annotations

import hashlib
import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from ..errors import AidsError, Position
from ..folder import Folder
from .icons import svg_fault
from .text import Text

if TYPE_CHECKING:
    from .rules import RulesReader

IMAGES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".svg": "image/svg+xml"}
EXPECTED = "a .png, .jpg or .svg file inside the game folder, its path relative to the Markdown file"
MAX_IMAGE = 32 * 1024 * 1024  # bytes: a map of an A3 page at 300 dpi is under 20 MB as PNG
MAX_PIXELS = 64_000_000  # an A2 page at 300 dpi is 35 million; decoded, 64 million RGBA pixels are 256 MB
MAX_FIGURE_DRAWN = 20_000  # shapes an SVG figure draws (model/icons.py: 20,000 take WeasyPrint 8 s here)
_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
LANGUAGE = r"[a-z]{2,3}(?:[-_][A-Za-z0-9]+)?"  # pl, en, ru, pt-BR: a language's variant of an image


@dataclass
class Image:
    """A figure: a file of the game that the page links, never its data inlined. A PDF reads it through the
    project's url fetcher (`file`, relative to the game folder); the web page links a copy written beside it
    (`name`: the booklet's id, the file's stem and the start of its digest, so that two files never share one)."""
    file: str  # relative to the game folder, "/" between its parts
    name: str  # e.g. rules-map-1a2b3c4d.png
    alt: Text | None
    caption: Text | None = None
    variants: dict[str, tuple[str, str]] = field(default_factory=dict)  # language -> its (file, name)
    where: Position | None = None  # its `![` in the Markdown: what a warning about its printing points at
    width: str = ""  # "50%" of its column (of its row, side by side), "60mm"; "" as wide as it is, up to the column


@dataclass
class Row:
    """Figures side by side: a paragraph of images and nothing else, each as wide as its `width`, or an equal
    share of the column."""
    images: list[Image]


WIDTH = re.compile(r"(\d+(?:\.\d+)?)(%|mm)")
EXPECTED_WIDTH = ("a figure's width in % of its column (more than 0, up to 100) or in mm, e.g. {width=50%} or "
                  "{width=60mm}")
OWN = {"src", "alt", "title"}  # an image's attributes of Markdown's own: the others are those of its {...}


def figure_nodes(children: list) -> list[tuple[Any, str]] | None:
    """(image node, the text of the attributes after it) of a paragraph of images only (spaces and line breaks
    between them), or None for any other paragraph. markdown-it's attrs plugin takes `{width=60mm}` itself, but
    leaves a bare `%` (`{width=50%}`, as Pandoc writes it) as text after the image: that text is read here."""
    found: list[tuple[Any, str]] = []
    for child in children:
        text = child.content.strip() if child.type == "text" else ""
        if child.type == "image":
            found.append((child, ""))
        elif child.type == "softbreak" or child.type == "text" and not text:
            continue
        elif child.type == "text" and found and not found[-1][1] and text.startswith("{") and text.endswith("}"):
            found[-1] = (found[-1][0], text)
        else:
            return None
    return found or None


def read_figures(reader: RulesReader, found: list[tuple[Any, str]], para) -> Image | Row | None:
    """The figure, or the figures side by side, of a paragraph of images (`figure_nodes`), each with its width."""
    images = []
    for node, attributes in found:
        image = read_image(reader, node, para)
        width = _width(reader, node, attributes, para)
        if image is not None and width is not None:
            image.width = width
            images.append(image)
    if len(images) != len(found):
        return None
    return images[0] if len(images) == 1 else Row(images)


def _width(reader: RulesReader, node, attributes: str, para) -> str | None:
    """The width an image's attributes give ("" for none), or None (and a problem) for attributes it cannot take."""
    from mdit_py_plugins.attrs.parse import ParseError, parse
    given = {k: str(v) for k, v in node.attrs.items() if k not in OWN}
    if attributes:
        try:  # a bare value with a %, as Pandoc allows, quoted for the attrs plugin's own parser
            given.update(parse(re.sub(r"=([^\s\"'}]*%)", r'="\1"', attributes))[1])
        except ParseError as exc:
            reader.problems.add(reader.at(para, attributes), f"cannot read the figure's attributes {attributes} "
                                f"({exc})", EXPECTED_WIDTH)
            return None
    for key in given:
        if key != "width":
            where = reader.at(para, f"{key}=") if key not in ("id", "class") else reader.at(para, "{")
            reader.problems.add(where, f"a figure takes no attribute '{key}'", EXPECTED_WIDTH)
            return None
    width = given.get("width", "")
    m = WIDTH.fullmatch(width.strip())
    if width and (not m or not 0 < float(m.group(1)) <= (100 if m.group(2) == "%" else 1000)):
        reader.problems.add(reader.at(para, "width"), f"figure width '{width}' is not one aids can print",
                            EXPECTED_WIDTH)
        return None
    return f"{float(m.group(1)):g}{m.group(2)}" if m else ""


def read_image(reader: RulesReader, node, para) -> Image | None:
    """An image alone in its paragraph; None (and a problem) where it is not a file of the game."""
    src = unquote(str(node.attrs.get("src", "")))  # markdown-it's %20 for <a b.png>: the file's own name
    where = reader.at(para, src or "![")
    if urlparse(src).scheme or src.startswith("//"):
        reader.problems.add(where, f"image '{src}' is not a file of the game", EXPECTED)
        return None
    if not src or os.path.isabs(src) or src.startswith(("/", "\\")):
        reader.problems.add(where, f"image '{src}' is not a path relative to the Markdown file", EXPECTED)
        return None
    looked = os.path.normpath(Path(reader.shown).parent / src)  # as the user sees it, from the project
    path = (reader.file.parent / src).resolve()  # every link followed: where it really leads
    if not path.is_relative_to(reader.folder):
        reader.problems.add(where, f"image '{src}' leads outside the game folder (looked for {looked})", EXPECTED)
        return None
    if path.suffix.lower() not in IMAGES:
        reader.problems.add(where, f"image '{src}' is not a .png, .jpg or .svg file", EXPECTED)
        return None
    folder = Folder(reader.folder, str(Path(reader.shown).parent))
    named = _named(reader, folder, path)
    if named is None:
        reader.problems.add(where, f"image '{src}' not found: looked for {looked}", EXPECTED)
        return None
    if isinstance(named, str):
        reader.problems.add(where, f"image '{src}' {named}", EXPECTED)
        return None
    alt = reader.inline(node, para).strip()
    caption = str(node.attrs.get("title", "") or "").strip()
    variants = _variants(reader, folder, path, where, src)
    return Image(*named, reader.message(alt, para, "Image description") if alt else None,
                 reader.message(caption, para, "Figure caption") if caption else None, variants,
                 reader.at(para, "!["))


def _named(reader: RulesReader, folder: Folder, path: Path) -> tuple[str, str] | str | None:
    """(file, name) of an image of the game folder, read through `folder` (never through a link); None where
    there is none; what is wrong with it (a folder, a FIFO, a link, a damaged image, one too large) as a message
    says it after the image's name."""
    file = path.relative_to(reader.folder).as_posix()
    try:
        data = folder.read(file, MAX_IMAGE + 1)
    except AidsError as exc:  # not a regular file, or a link on the way
        return exc.problems[0].message
    if data is None:
        return None
    fault = f"is larger than the limit of {MAX_IMAGE // 1048576} MB" if len(data) > MAX_IMAGE else \
        image_fault(data, path.suffix.lower())
    if fault:
        return fault
    reader.booklet.inputs.append(path)
    stem = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "image"
    return file, f"{reader.booklet.id}-{stem}-{hashlib.sha256(data).hexdigest()[:8]}{path.suffix.lower()}"


def _variants(reader: RulesReader, folder: Folder, path: Path, where: Position, src: str) -> dict[str, tuple[str, str]]:
    """The languages' own variants of the image at `path`: `<stem>.<language><suffix>` beside it; one that is no
    image (a link, a FIFO, a damaged file) is a problem at `where`, never a variant skipped without a word."""
    parent = path.parent.relative_to(reader.folder).as_posix()
    pattern = re.compile(rf"{re.escape(path.stem)}\.({LANGUAGE}){re.escape(path.suffix)}\Z")
    found = {}
    for name in sorted(folder.names("" if parent == "." else parent)):
        if not (m := pattern.match(name)):
            continue
        named = _named(reader, folder, path.parent / name)
        if isinstance(named, tuple):
            found[m.group(1).replace("_", "-")] = named
        else:
            reader.problems.add(where, f"image '{src}' has a variant {name} that {named or 'is gone'}", EXPECTED)
    return found


def image_fault(data: bytes, suffix: str) -> str:
    """Why `data` is no image of its type (`suffix`: .png, .jpg, .jpeg, .svg) that a renderer draws whole: an SVG
    as an icon is checked (shapes only, nothing outside it: model/icons.py), a PNG or JPEG read to its end by
    Pillow (a truncated file, another format under the name, too many pixels); '' when it is one."""
    if suffix == ".svg":
        fault = svg_fault(data, MAX_FIGURE_DRAWN)[0]
        return f"refused: {fault}" if fault else ""
    import warnings

    from PIL import Image as Pillow
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Pillow.DecompressionBombWarning)
            with Pillow.open(io.BytesIO(data), formats=list(dict.fromkeys(_FORMATS.values()))) as image:
                if image.format != _FORMATS[suffix]:
                    return f"is a {image.format} image, not a {_FORMATS[suffix]} one (its name says {suffix})"
                if image.width * image.height > MAX_PIXELS:
                    return f"has {image.width} x {image.height} pixels, more than {MAX_PIXELS:,}"
                if image.format == "JPEG":  # a scaled-down decoding reads every byte: a truncated file is found
                    image.draft("RGB", (max(1, image.width // 8), max(1, image.height // 8)))
                    image.load()
                else:
                    image.verify()  # every chunk and its checksum, to the end: a truncated PNG is found
    except Pillow.UnidentifiedImageError:
        return f"is not a {_FORMATS[suffix]} image"
    except (OSError, SyntaxError, ValueError, Pillow.DecompressionBombError, Pillow.DecompressionBombWarning) as exc:
        return f"is a damaged {_FORMATS[suffix]} image ({exc})"
    return ""
