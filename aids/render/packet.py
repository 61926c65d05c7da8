"""A tournament packet (docs/guide/tournaments.md): a cover, then the PDFs of the chosen aids in the chosen
languages, joined into one with a bookmark per aid (its own bookmarks under it).

The cover (templates/packet-cover.html) says, in each language of the packet: the game, the version of its rules
(a release, or honestly the unreleased state), the event and its date in that language's style, and a QR code
(segno, vector SVG) of the address of that version's page on the web site, printed under it.
"""
from __future__ import annotations

import io
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pikepdf
import segno
from markupsafe import Markup

from .html import render_template
from .pdf import lay_out, print_css

if TYPE_CHECKING:
    from ..config import Game
    from ..localize.localizer import Localizer

TEMPLATE = "packet-cover.html"


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
    version: str  # "Rules as released in version 1.1", or the unreleased state
    url: str | None  # the version's page on the web site, or None without a site_url
    contents: list[tuple[str, int]] = field(default_factory=list)  # (an aid's bookmark, its first page)


def qr_svg(url: str) -> Markup:
    """The QR code of `url` as inline SVG (vector, no raster), error correction M, a quiet zone of 4 modules."""
    return Markup(segno.make(url, error="m", micro=False).svg_inline(omitsize=True, border=4, dark="#000"))


def cover(game: Game, game_ctx: Any, event: str, day: Any, sides: list[Side]) -> bytes:
    """The cover's PDF: a block a language, each with its own QR code; the footer the game's (`game_ctx`, in the
    first language)."""
    first = sides[0].lz
    blocks = [{"lang": side.lz.lang, "game": side.game, "version": side.version, "url": side.url,
               "qr": qr_svg(side.url) if side.url else None, "event": event, "date": side.lz.date(day),
               "contents": [(title, side.lz.number(page)) for title, page in side.contents],
               **_labels(side.lz)} for side in sides]
    html = render_template(TEMPLATE, first, {"blocks": blocks, "document_title": f"{sides[0].game} – {event}"})
    css = print_css(first, game_ctx, "A4", "16mm 18mm 16mm 18mm", None, "packet")
    return lay_out(html, css, base=game.folder, allowed=[game.folder], epoch=game.epoch(), tagged=False).rendered().data


def _labels(lz: Localizer) -> dict[str, str]:
    return {
        "heading": lz.pgettext("tournament packet cover: its heading", "Tournament packet"),
        "date_label": lz.pgettext("tournament packet cover: before the day of the event", "Date"),
        "contents_label": lz.pgettext("tournament packet cover: the list of the aids it holds", "Contents"),
        "page_label": lz.pgettext("tournament packet cover: the column of the first page of each aid", "Page"),
        "qr_label": lz.pgettext("tournament packet cover: under the QR code, before its web address",
                                "These rules on the web:"),
        "no_qr": lz.pgettext("tournament packet cover: instead of the QR code, when the project has no web address",
                             "No QR code: the project sets no site_url for its web site."),
    }


def join(cover_pdf: bytes, parts: list[Part], cover_title: str, title: str, lang: str) -> tuple[bytes, int]:
    """The cover and `parts` as one PDF, a bookmark for the cover and for each part (its own bookmarks under it);
    written deterministically. Returns the bytes and the page count."""
    out = pikepdf.Pdf.open(io.BytesIO(cover_pdf))
    sources = [pikepdf.Pdf.open(io.BytesIO(part.data)) for part in parts]
    starts = []
    for source in sources:
        starts.append(len(out.pages))
        _append(out, source)
    for name in ("/Outlines", "/StructTreeRoot", "/MarkInfo"):
        if name in out.Root:
            del out.Root[name]
    for page in out.pages:  # no structure tree: the aids' tagged ones are not joined (render/join.py does, for parts)
        if "/StructParents" in page.obj:
            del page.obj.StructParents
    with out.open_outline() as outline:
        outline.root.append(pikepdf.OutlineItem(cover_title, 0))
        for part, source, start in zip(parts, sources, starts):
            item = pikepdf.OutlineItem(part.title, start)
            item.children.extend(_own_outline(source, start))
            outline.root.append(item)
    out.docinfo["/Title"] = title
    out.Root.Lang = pikepdf.String(lang)
    out.Root.ViewerPreferences = pikepdf.Dictionary(DisplayDocTitle=True)  # the title, not the file name
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
