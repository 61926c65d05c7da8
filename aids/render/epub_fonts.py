"""The fonts of an e-book (render/epub.py): which embedded face draws each character of its chapters, and each
face that draws one subset to those characters. A face that draws nothing is not in the book.

The faces are aids' own (DejaVu as "Aids Sans" and "Aids Serif") and the theme's. Which face draws a character
is what CSS says of it: WeasyPrint's cascade (the engine that prints the PDFs) gives each element its computed
family list, weight, style and text transform over the e-book's own stylesheet, for a screen; the character
goes to the first family of the list that embeds it, in that family's face of the weight and style (its
regular face when it has no other: an e-reader emboldens or slants it), as a browser's font matching does.
What a stylesheet adds (a box's mark, an arrow) is counted with the element it is added to.
"""
from __future__ import annotations

import functools
import io
import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import weasyprint_internals
from .pdf import FONTS, fonts_dir, weasyprint

if TYPE_CHECKING:
    from ..config.theme import Theme

# drawn by a face beside its text: the numbers of a list, a line's hyphen (an e-reader's `hyphens: auto`)
BESIDE = string.digits + ".-\u2010"
UNDRAWN = frozenset(" \t\n\r\f\u00ad\u200b\u200c\u200d\u2060\ufeff")  # space and the marks that draw no glyph
MEDIA = {".ttf": "font/ttf", ".otf": "font/otf"}


@dataclass(frozen=True)
class Face:
    """A font file the book may embed: its @font-face family, weight and style."""
    family: str
    path: Path
    weight: str = "normal"  # normal | bold
    style: str = "normal"  # normal | italic

    @property
    def name(self) -> str:
        """Its file in the book (beside its stylesheet's folder)."""
        return f"fonts/{self.path.name}"

    @property
    def media_type(self) -> str:
        return MEDIA[self.path.suffix.lower()]


def available(theme: Theme | None) -> list[Face]:
    """Every face an e-book's stylesheet may name: aids' own, then its theme's."""
    own = [Face(family, fonts_dir() / file, weight, style) for family, file, weight, style in FONTS]
    return own + [Face(f.family, f.file, f.weight, f.style) for f in (theme.faces if theme else ())]


@functools.cache
def _cmap(path: Path, stamp: float) -> frozenset[str]:
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True) as font:
        return frozenset(chr(code) for code in font.getBestCmap())


def characters(face: Face) -> frozenset[str]:
    """The characters `face` has a glyph for."""
    return _cmap(face.path, face.path.stat().st_mtime)


def drawn(pages: Iterable[str], css: str, faces: list[Face]) -> dict[Face, set[str]]:
    """{face: the characters it draws} over the HTML `pages` set in the stylesheet `css` (its @font-face rules
    left out: the cascade needs no font), for every face that draws one."""
    wp = weasyprint()
    sheet = wp.CSS(string=css, url_fetcher=_refused)
    families: dict[str, list[Face]] = {}
    for face in faces:
        families.setdefault(face.family.lower(), []).append(face)
    out: dict[Face, set[str]] = {}
    for html in pages:
        document = wp.HTML(string=html, media_type="screen", url_fetcher=_refused)
        style_for = weasyprint_internals.computed_styles(document, [sheet])
        for style, text in _runs(document.etree_element, style_for):
            for char in set(text):
                drawing = _face_of(char, style, families)
                if drawing is not None:
                    out.setdefault(drawing, set()).add(char)
    # a face that draws only spaces is none of the book's (a reader sets them in its neighbour's face); in the
    # order of `faces`, whatever the order the text met them in
    return {face: out[face] | {c for c in BESIDE if c in characters(face)} for face in faces
            if out.get(face, set()) - UNDRAWN}


def _refused(url: str, *args: Any, **kwargs: Any) -> Any:
    raise ValueError(f"an e-book's stylesheet fetches nothing ({url})")


def _runs(root: Any, style_for: Any) -> Iterator[tuple[Any, str]]:
    """(computed style, text as drawn) of every shown element's own text and of what its ::before and ::after
    add; nothing of an element not displayed, nor of an SVG drawing (its title is no text on the page)."""
    pending = [root]
    while pending:
        el = pending.pop()
        style = style_for(el)
        if not isinstance(el.tag, str) or el.tag.startswith("{") or style is None or style["display"] == ("none",):
            continue
        own = (el.text or "") + "".join(child.tail or "" for child in el)
        yield style, _transformed(own, style)
        for pseudo in ("before", "after"):
            added = style_for(el, pseudo)
            if added is not None and isinstance(added["content"], (list, tuple)):
                yield added, _transformed("".join(v for kind, v in added["content"] if kind == "string"), added)
        pending.extend(el)


def _transformed(text: str, style: Any) -> str:
    """`text` with the letters its style draws: capitals too where small capitals may be made of them."""
    transform = style["text_transform"]
    if transform == "uppercase" or style["font_variant_caps"] != "normal":
        return text + text.upper()
    if transform == "lowercase":
        return text.lower()
    return text + text.upper() if transform == "capitalize" else text


def _face_of(char: str, style: Any, families: dict[str, list[Face]]) -> Face | None:
    """The embedded face that draws `char` in `style`: in the first family of its list that has one; None when a
    family not embedded (the reader's own) comes first."""
    bold = style["font_weight"] >= 600
    italic = style["font_style"] != "normal"
    for family in style["font_family"]:
        faces = families.get(family.lower())
        if not faces:
            return None
        face = min(faces, key=lambda f: ((f.style == "italic") != italic, (f.weight == "bold") != bold))
        if char in characters(face):
            return face
    return None


def subset(face: Face, chars: Iterable[str]) -> bytes:
    """`face` with the glyphs of `chars` only (and what draws them: ligatures, small capitals, kerning)."""
    from fontTools import subset as subsetting

    options = subsetting.Options()
    options.name_IDs = ["*"]  # the font's names and its licence, as DejaVu's and the OFL ask
    options.notdef_outline = True
    options.layout_features += ["smcp", "c2sc", "onum", "lnum"]  # a theme's small capitals and figures
    options.drop_tables += ["FFTM"]  # FontForge's timestamps, which no reader needs
    options.hinting = False  # an e-reader draws outlines unhinted: two fifths of the size saved
    font = subsetting.load_font(io.BytesIO(face.path.read_bytes()), options)  # no file left open
    font.recalcTimestamp = False  # its head table keeps the font's own date: the same bytes every build
    subsetter = subsetting.Subsetter(options)
    subsetter.populate(text="".join(sorted(set(chars))))
    subsetter.subset(font)
    data = io.BytesIO()
    subsetting.save_font(font, data, options)
    font.close()
    return data.getvalue()
