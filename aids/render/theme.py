"""A game's theme (config/theme.py) as its pages use it: templates/theme.css in every page (HTML and PDF), its
faces, page art and margins in the PDF's own sheet (print.css), its template blocks rendered in a sandbox that
sees only the documented variables."""
from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlparse

from markupsafe import Markup

from ..config.theme_blocks import render_block
from ..errors import AidsError, Position, Problem
from ..folder import read_file
from ..source.stylesheet import rewritten, without_urls
from ..source.yamlfile import MAX_BYTES, decode
from . import colours, recolour, sheet

if TYPE_CHECKING:
    from ..config.theme import Theme
    from ..kind import Margins

FALLBACK = {"text": '"Aids Serif", "DejaVu Serif", serif', "headings": '"Aids Sans", "DejaVu Sans", sans-serif',
            "tables": '"Aids Sans", "DejaVu Sans", sans-serif'}


@dataclass
class View:
    """What templates/theme.css reads of a theme."""
    theme: Theme
    press: bool = False

    @property
    def colours(self) -> list[tuple[str, str]]:
        """Each colour as CSS: on screen as given; for the press, a colour given as #rrggbb in the output intent's
        CMYK (render/recolour.py: what the screen shows, as near as the press prints it), one given as CMYK as it is."""
        rgb = dict(self.theme.rgb)
        return [(name, colours.css_of(recolour.PRESS_TARGET.colour(_parts(rgb[name]), recolour.RGB, None)
                                      if self.press and name in rgb else cmyk, self.press))
                for name, cmyk in self.theme.colours]

    def has(self, name: str) -> bool:
        return self.theme.colour(name) is not None

    def _family(self, what: str) -> str | None:
        family = self.theme.font(what)
        return f'"{family}", {FALLBACK[what]}' if family else None  # letters, digits, spaces, '-' (config/theme.py)

    text_font = property(lambda self: self._family("text"))
    heading_font = property(lambda self: self._family("headings"))
    table_font = property(lambda self: self._family("tables"))
    headings = property(lambda self: self.theme.headings)
    tables = property(lambda self: self.theme.tables)
    highlight = property(lambda self: self.theme.highlight)

    def stylesheet(self, copies: Mapping[str, str] | None = None) -> Markup:
        """The theme's own stylesheet, appended after aids' (never one that could end the page's <style>), each
        url() pointing at the file of the project it names, found from the stylesheet's folder (config/theme.py):
        its file URI, which the PDF reads through the project's fetcher, or on the web page (`copies`: each file,
        by its path, -> the name of its copy beside the page) its copy."""
        if not self.theme.css:
            return Markup("")
        where = {address: (quote(copies[str(path)]) if copies is not None else path.as_uri())
                 + (f"#{urlparse(address).fragment}" if urlparse(address).fragment else "")
                 for address, path in self.theme.assets}
        text = own_css(self.theme.css, self.theme.show(self.theme.css))
        return Markup(rewritten(text, lambda address: where.get(address, address)))

    def reader_stylesheet(self) -> Markup:
        """The theme's own stylesheet for an e-reader: without what names a file by url() (the web page's paper
        tile, page art: an e-reader's page is its reader's; the theme's faces come from theme.yaml)."""
        if not self.theme.css:
            return Markup("")
        return Markup(without_urls(own_css(self.theme.css, self.theme.show(self.theme.css))))


@functools.cache
def _read_css(path: Path, stamp: float, shown: str) -> str:
    text = decode(read_file(path, shown, MAX_BYTES), shown)  # a FIFO, a file not in UTF-8: at its place
    if "</" in text or "<!--" in text:
        raise AidsError(Problem(Position(shown), "a theme stylesheet with '</' or '<!--' in it",
                                "CSS only (it is set inside the page's <style>)"))
    return text


def _parts(value: str) -> tuple[float, float, float]:
    """#rrggbb as its parts from 0 to 1."""
    return (int(value[1:3], 16) / 255, int(value[3:5], 16) / 255, int(value[5:7], 16) / 255)


def own_css(path: Path, shown: str) -> str:
    return _read_css(path, path.stat().st_mtime, shown)


def view(theme: Theme | None, press: bool = False) -> View | None:
    return View(theme, press) if theme else None


def print_context(theme: Theme | None, press: bool, page_size: str, margins: Margins,
                  bleed: float = 0, art: bool = True) -> dict[str, Any] | None:
    """What print.css adds for a theme: its faces (file URIs), its page art (unless `art` is false: the gray
    profile's pages are for a monochrome printer, and spend no toner on a paper tone), its colours for the press."""
    if theme is None:
        return None
    return {"faces": [(face.family, face.file.as_uri(), face.weight, face.style) for face in theme.faces],
            "background": background(theme.background, page_size, margins, bleed) if theme.background and art else "",
            "colours": View(theme, press).colours if press else []}


def background(art: Path, page_size: str, margins: Margins, bleed: float) -> str:
    """@page rules that lay `art` over the whole sheet (and its bleed): WeasyPrint positions a page's background
    in the page area, inside the margins, so the image is as large as the sheet and moved out by the margin of
    each side (the inner one on a right-hand page, the outer one on a left-hand page)."""
    width, height = sheet.sheet(page_size)
    url = f'url("{art.as_uri()}") no-repeat'
    size = f"background-size: {width + 2 * bleed:g}mm {height + 2 * bleed:g}mm;"
    if isinstance(margins, tuple):
        top, outer, _, inner = margins
        return "".join(f"@page :{side} {{ background: {url}; {size} background-position: -{left + bleed:g}mm "
                       f"-{top + bleed:g}mm; }}\n" for side, left in (("right", inner), ("left", outer)))
    top, _, _, left = sheet.margins_mm(margins)
    return f"@page {{ background: {url}; {size} background-position: -{left + bleed:g}mm -{top + bleed:g}mm; }}\n"


def margins(theme: Theme | None, given: Margins) -> Margins:
    """The page's margins with those the theme sets: facing pages (top, outer, bottom, inner) stay facing; a CSS
    margin "t r b l" takes the theme's top, outer as right, bottom and inner as left."""
    own = dict(theme.margins) if theme else {}
    if not own:
        return given
    if isinstance(given, tuple):
        top, outer, bottom, inner = given
        return (own.get("top", top), own.get("outer", outer), own.get("bottom", bottom), own.get("inner", inner))
    parts = (given or "14mm 14mm 16mm 14mm").split()
    parts += [parts[-1]] * (4 - len(parts)) if len(parts) < 4 else []
    for i, key in ((0, "top"), (1, "outer"), (2, "bottom"), (3, "inner")):
        if key in own:
            parts[i] = f"{own[key]:g}mm"
    return " ".join(parts)


def folders(theme: Theme | None) -> list[Path]:
    """The folders a PDF of this theme reads from (its fonts, its page art): all inside the project."""
    return sorted({path.parent for path in theme.files}) if theme else []


def block(theme: Theme | None, name: str, variables: dict[str, Any]) -> Markup:
    """A template block the theme fills (`templates:` in theme.yaml), rendered in a sandbox with only the
    documented variables (docs/guide/themes.md): lang, game_title, aid_title, label, version, published,
    author, and held to what a block may do (config/theme_blocks.py); "" when the theme leaves it to aids."""
    path = theme.block(name) if theme else None
    if theme is None or path is None:
        return Markup("")
    return render_block(path, theme.show(path), name, variables)
