"""A tournament packet (docs/guide/tournaments.md): a cover, then the PDFs of the chosen aids in the chosen
languages, joined into one with a bookmark per aid (its own bookmarks under it).

The cover (templates/packet-cover.html) says, in each language of the packet: the game, the version of its rules
as the aids' pages print it and whether it is released as it stands, the event and its date in that language's
style, and a QR code (segno, vector SVG) of the address of that version's page on the web site, printed under it.

Printed duplex, a packet pairs the right faces: every page is one sheet size, the largest of its aids' pages,
which holds every other unturned (the cover is laid out on it; a smaller page, an A5 card's among A4 pages, is
placed in its middle at its own size, with crop marks where there is room; aids none of whose sizes holds the
others are refused by the build), and the cover and every aid start on the front of a sheet (a blank back where
one has an odd number of pages), so a card's front and back are one sheet.
"""
from __future__ import annotations

import io
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pikepdf
import segno
from markupsafe import Markup

from ..localize import rich
from ..localize.rich import Rich
from ..model.text import plain_text
from ..units import PT_PER_MM
from . import pdfx
from .html import render_template
from .pdf import lay_out, print_css

if TYPE_CHECKING:
    from ..config import Game
    from ..localize.localizer import Localizer

TEMPLATE = "packet-cover.html"
FITS = 1.0  # pt: two sizes this close are one paper (WeasyPrint and ReportLab write A5 a few thousandths apart)


@dataclass
class Part:
    """One aid in one language: its PDF and the bookmark that leads to it."""
    title: str
    data: bytes


@dataclass
class Side:
    """What the cover says in one language."""
    lz: Localizer
    game: str  # the game's title in that language
    version: str  # "Version 1.1": what every page of its aids prints of the version (localize/game.py imprint)
    standing: str  # whether that version is released as it stands (pipeline/tournament.py standing_line)
    released: bool  # the QR code leads to the release's page in the archive, kept for good (else the current one)
    url: str | None  # the version's page on the web site, or None without a site_url
    contents: list[tuple[str, int]] = field(default_factory=list)  # (an aid's bookmark, its first page)
    heading: Rich = field(default_factory=Rich)  # the game's title as the cover shows it, other languages marked


def qr_svg(url: str) -> Markup:
    """The QR code of `url` as inline SVG (vector, no raster), error correction M, a quiet zone of 4 modules."""
    return Markup(segno.make(url, error="m", micro=False).svg_inline(omitsize=True, border=4, dark="#000"))


def cover(game: Game, game_ctx: Any, event: str, day: Any, sides: list[Side], size: tuple[float, float]) -> bytes:
    """The cover's PDF on pages of `size` (pt, the aids'): a block a language, each with its own QR code."""
    first = sides[0].lz
    # the event's name may mark its language ([Turniej „Lwów 1920”]{lang=pl}): marked on the cover, plain in its title
    blocks = [{"lang": side.lz.lang, "game": side.heading or side.game, "version": side.version,
               "standing": side.standing, "url": side.url, "qr": qr_svg(side.url) if side.url else None,
               "event": rich.parse(event, lambda kind, target: Rich()),
               "date": side.lz.date(day), "contents": [(title, side.lz.number(page)) for title, page in side.contents],
               **_labels(side.lz, side.released)} for side in sides]
    width, height = size
    # the margins and the QR code's column in proportion to the page: an A5 card's cover as an A4 sheet's
    margins = f"{height * 0.055:.1f}pt {width * 0.08:.1f}pt"
    qr = min(38 * PT_PER_MM, width * 0.21)
    title = f"{sides[0].game} – {plain_text(event)}"
    html = render_template(TEMPLATE, first, {"blocks": blocks, "document_title": title,
                                             "qr_size": f"{qr:.1f}pt", "qr_column": f"{qr * 1.3:.1f}pt"})
    css = print_css(first, game_ctx, f"{width:.4f}pt {height:.4f}pt", margins, None, "packet")
    return lay_out(html, css, base=game.folder, allowed=[game.folder], epoch=game.epoch(), tagged=False).rendered().data


def starts(cover_pages: int, counts: list[int]) -> list[int]:
    """The first page (from 0) of each part after a cover of `cover_pages`, the parts having `counts` pages: each
    on the front of a sheet printed duplex (an even index), after a blank back where the one before is odd."""
    found, at = [], cover_pages + cover_pages % 2
    for count in counts:
        found.append(at)
        at += count + count % 2
    return found


def sheet(sizes: list[tuple[float, float]]) -> tuple[float, float] | None:
    """The sheet of a packet whose pages have `sizes` (pt): the largest of them if it holds every other unturned
    (an A4 page holds an A5 card), else None."""
    for width, height in sorted(set(sizes), key=lambda size: size[0] * size[1], reverse=True):
        if all(w <= width + FITS and h <= height + FITS for w, h in sizes):
            return width, height
    return None


def page_sizes(data: bytes) -> list[tuple[float, float]]:
    """The width and height (pt) of every page of the PDF `data`, as printed (its MediaBox, turned by /Rotate)."""
    with pikepdf.Pdf.open(io.BytesIO(data)) as pdf:
        return page_sizes_of(pdf)


def page_sizes_of(pdf: pikepdf.Pdf) -> list[tuple[float, float]]:
    """`page_sizes` of an open PDF."""
    sizes = []
    for page in pdf.pages:
        box = [float(v) for v in page.mediabox]
        width, height = abs(box[2] - box[0]), abs(box[3] - box[1])
        sizes.append((height, width) if int(page.obj.get("/Rotate", 0)) % 180 else (width, height))
    return sizes


def _labels(lz: Localizer, released: bool) -> dict[str, str]:
    return {
        "heading": lz.pgettext("tournament packet cover: its heading", "Tournament packet"),
        "date_label": lz.pgettext("tournament packet cover: before the day of the event", "Date"),
        "contents_label": lz.pgettext("tournament packet cover: the list of the aids it holds", "Contents"),
        "page_label": lz.pgettext("tournament packet cover: the column of the first page of each aid", "Page"),
        "qr_label": lz.pgettext("tournament packet cover: under the QR code of a release's page in the web "
                                "site's archive, before its address", "This release on the web, kept for good:")
        if released else lz.pgettext("tournament packet cover: under the QR code of the rules' current page on the "
                                     "web site (not released as they stand), before its address",
                                     "The rules as they stand now on the web:"),
        "no_qr": lz.pgettext("tournament packet cover: instead of the QR code, when the project has no web address",
                             "No QR code: the project sets no site_url for its web site."),
    }


def join(cover_pdf: bytes, parts: list[Part], cover_title: str, title: str, lang: str) -> tuple[bytes, int]:
    """The cover and `parts` as one PDF, each starting on the front of a sheet (`starts`: a blank page of the
    cover's size before it where needed), a bookmark for the cover and for each part (its own bookmarks under it);
    asking to be printed duplex, flipped on the long edge of a portrait page, the short edge of a landscape one;
    written deterministically. Returns the bytes and the page count."""
    out = pikepdf.Pdf.open(io.BytesIO(cover_pdf))
    width, height = page_sizes(cover_pdf)[0]
    sources = [pikepdf.Pdf.open(io.BytesIO(part.data)) for part in parts]
    first = starts(len(out.pages), [len(source.pages) for source in sources])
    for source, start in zip(sources, first):
        while len(out.pages) < start:
            out.add_blank_page(page_size=(width, height))
        _append(out, _on_sheet(source, (width, height)))
    for name in ("/Outlines", "/StructTreeRoot", "/MarkInfo"):
        if name in out.Root:
            del out.Root[name]
    for page in out.pages:  # no structure tree: the aids' tagged ones are not joined (render/join.py does, for parts)
        if "/StructParents" in page.obj:
            del page.obj.StructParents
    with out.open_outline() as outline:
        outline.root.append(pikepdf.OutlineItem(cover_title, 0))
        for part, source, start in zip(parts, sources, first):
            item = pikepdf.OutlineItem(part.title, start)
            item.children.extend(_own_outline(source, start))
            outline.root.append(item)
    out.docinfo["/Title"] = title
    out.Root.Lang = pikepdf.String(lang)
    duplex = pikepdf.Name.DuplexFlipShortEdge if width > height else pikepdf.Name.DuplexFlipLongEdge
    out.Root.ViewerPreferences = pikepdf.Dictionary(DisplayDocTitle=True, Duplex=duplex)  # the title, not the name
    data = io.BytesIO()
    out.save(data, deterministic_id=True, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return data.getvalue(), len(out.pages)


def _append(out: pikepdf.Pdf, source: pikepdf.Pdf) -> None:
    """`source`'s pages after `out`'s, with the named destinations their links lead to (renamed where two parts
    have the same: the same aid in two languages); the bookmarks are made by `join`."""
    if hasattr(out, "add_pages_from"):  # pikepdf 10.18 and later
        out.add_pages_from(source, outlines="ignore")
        return
    with warnings.catch_warnings():  # an older pikepdf: a link to a named destination of a part may not resolve
        warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
        out.pages.extend(source.pages)


def _on_sheet(source: pikepdf.Pdf, size: tuple[float, float]) -> pikepdf.Pdf:
    """`source`, or where its pages are smaller than the sheet `size`, each placed in the sheet's middle at its own
    size (front and back behind each other however the sheet is flipped), crop marks at its corners where the sheet
    has room for them; its links are left out (they would lead from where the page was)."""
    width, height = size
    sizes = page_sizes_of(source)
    if all(abs(w - width) <= FITS and abs(h - height) <= FITS for w, h in sizes):
        return source
    placed = pikepdf.new()
    for page, (w, h) in zip(source.pages, sizes):
        x, y = (width - w) / 2, (height - h) / 2
        sheet_page = placed.add_blank_page(page_size=size)
        sheet_page.add_overlay(page, pikepdf.Rectangle(x, y, x + w, y + h))
        marks = [line for line in pdfx.crop_marks((x, y, x + w, y + h), 0)
                 if all(0 < v < width for v in line[0::2]) and all(0 < v < height for v in line[1::2])]
        if marks:
            sheet_page.contents_add(placed.make_stream(pdfx.marks_stream(marks)))
    return placed


def _own_outline(source: pikepdf.Pdf, start: int) -> list[pikepdf.OutlineItem]:
    """A part's own bookmarks, their pages moved by `start` (those whose page cannot be found lead to its first)."""
    pages: dict[Any, int] = {page.objgen: n for n, page in enumerate(source.pages)}

    def copy(item: Any) -> pikepdf.OutlineItem:
        destination = item.destination
        if destination is None and item.action is not None and "/D" in item.action:
            destination = item.action.D
        page = 0
        if isinstance(destination, pikepdf.Array) and len(destination) and destination[0].is_indirect:
            page = pages.get(destination[0].objgen, 0)
        made = pikepdf.OutlineItem(str(item.title), start + page)
        made.children.extend(copy(child) for child in item.children)
        return made
    with source.open_outline() as outline:
        return [copy(item) for item in outline.root]
