"""A booklet's figures: `![description](path "caption")` alone in its paragraph, a file of the game.

The path is relative to the Markdown file and never leads outside the game folder. The description (alternative
text) and the caption are messages of the section. An image that holds text may have a variant per language
beside it, named with the language before the extension (`map.png`, `map.pl.png`, `map.ru.png`): a language with
a variant prints it, the others the image itself.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from ..errors import AidsError, Position
from ..files import Folder
from .text import Text

if TYPE_CHECKING:
    from .rules import RulesReader

IMAGES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".svg": "image/svg+xml"}
EXPECTED = "a .png, .jpg or .svg file inside the game folder, its path relative to the Markdown file"
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
    alt = reader.inline(node, para).strip()
    caption = str(node.attrs.get("title", "") or "").strip()
    return Image(*named, reader.message(alt, para, "Image description") if alt else None,
                 reader.message(caption, para, "Figure caption") if caption else None, _variants(reader, folder, path),
                 reader.at(para, "!["))


def _named(reader: RulesReader, folder: Folder, path: Path) -> tuple[str, str] | None:
    """(file, name) of an image of the game folder, read through `folder`; None where it is no regular file."""
    file = path.relative_to(reader.folder).as_posix()
    try:
        data = folder.read(file) if path.is_file() else None
    except AidsError:  # not a regular file
        data = None
    if data is None:
        return None
    reader.booklet.inputs.append(path)
    stem = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "image"
    return file, f"{reader.booklet.id}-{stem}-{hashlib.sha256(data).hexdigest()[:8]}{path.suffix.lower()}"


def _variants(reader: RulesReader, folder: Folder, path: Path) -> dict[str, tuple[str, str]]:
    """The languages' own variants of the image at `path`: `<stem>.<language><suffix>` beside it."""
    parent = path.parent.relative_to(reader.folder).as_posix()
    pattern = re.compile(rf"{re.escape(path.stem)}\.({LANGUAGE}){re.escape(path.suffix)}\Z")
    found = {}
    for name in sorted(folder.names("" if parent == "." else parent)):
        if (m := pattern.match(name)) and (named := _named(reader, folder, path.parent / name)):
            found[m.group(1).replace("_", "-")] = named
    return found
