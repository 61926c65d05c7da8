"""A booklet imposed for saddle stitching: its pages padded with blanks to a multiple of four, two a side of
a sheet twice as wide, in the order that reads right when the stack is folded in the middle and stapled.

Sheet s (from 0) of a booklet of n pages carries, front: n − 2s on the left, 2s + 1 on the right; back:
2s + 2 on the left, n − 2s − 1 on the right (page numbers from 1).

Two impositions: for a duplex office printer, from the home PDF (the sheet is the two pages, nothing
around them); and for the press, from the PDF/X-4 press PDF, as a printer imposes: the two pages abut on
their trim boxes at the fold, each keeps its bleed where it meets the sheet's outer edges, the sheet has
its own TrimBox and BleedBox, crop marks at its corners and fold marks at the spine, outside the bleed.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    BooleanObject,
    DecodedStreamObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    RectangleObject,
    TextStringObject,
)

from ..config import Print
from ..units import PT_PER_MM
from . import pdfx

FOLD_DASH = "[2 2] 0"  # a fold mark is dashed, a crop mark solid


@dataclass(frozen=True)
class Sheet:
    """What surrounds the pages on a side: the bleed kept on its outer edges and the slug beyond it for the
    marks (pt); `press`: a PDF/X-4 sheet with its boxes, marks and output intent (else a plain office one)."""
    bleed: float = 0.0
    slug: float = 0.0
    press: bool = False
    marks: bool = False


OFFICE = Sheet()


def press_sheet(settings: Print) -> Sheet:
    """The sheet of a press imposition: the game's bleed, and its marks (or none) in a slug like its pages'."""
    return Sheet(settings.bleed * PT_PER_MM, pdfx.slug(settings), True, settings.marks == "crop")


def saddle_order(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page numbers (1-based; None for a blank) of every side, front then back, sheet by sheet."""
    n = -(-pages // 4) * 4  # padded to a multiple of four

    def page(number: int) -> int | None:
        return number if number <= pages else None

    sides = []
    for s in range(n // 4):
        sides += [(page(n - 2 * s), page(2 * s + 1)), (page(2 * s + 2), page(n - 2 * s - 1))]
    return sides


def padding(pages: int) -> str:
    """What the imposition of a booklet of `pages` pages adds to fill its last sheet, as the build summary says it
    (empty: nothing). The blanks end the booklet, after its last page, as a booklet without a back cover of its
    own ends: moved before its last page, they would cut its text off from its end."""
    blanks = -pages % 4
    if not blanks:
        return ""
    where = f"page {pages + 1}" if blanks == 1 else f"pages {pages + 1}-{pages + blanks}"
    them = "them" if blanks > 1 else "it"
    return (f"{pages} pages padded to {pages + blanks} with {blanks} blank page{'s' if blanks > 1 else ''} at the end "
            f"({where}) to fill the last sheet; a booklet's pages: {{multiple: 4}} saves {them}")


def saddle_stitch(data: bytes, title: str, sheet: Sheet = OFFICE, epoch: int = 0) -> tuple[bytes, int]:
    """The PDF `data` imposed 2-up for saddle stitching on `sheet`, titled `title`, and its number of sides.
    Each page is placed by its TrimBox (the home PDF's is its MediaBox) and clipped to it, but for the bleed
    on the sheet's outer edges; its links are left out (they lead to pages of the unimposed booklet)."""
    reader = PdfReader(io.BytesIO(data))
    first = reader.pages[0].trimbox
    width, height = float(first.width), float(first.height)
    room = sheet.bleed + sheet.slug  # from the sheet's edge to its trim
    writer = PdfWriter()
    for left, right in saddle_order(len(reader.pages)):
        side = writer.add_blank_page(2 * width + 2 * room, height + 2 * room)
        side[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): DictionaryObject()})
        placed: list[bytes] = []
        for number, half in ((left, 0), (right, 1)):
            if number is not None:
                _place(writer, side, placed, reader.pages[number - 1], (room + half * width, room), sheet.bleed, half)
        drawn = DecodedStreamObject()
        drawn.set_data(b"\n".join(placed))
        side[NameObject("/Contents")] = writer._add_object(drawn)
        if sheet.press:
            _press_boxes(writer, side, (room, room, room + 2 * width, room + height), sheet)
    language = reader.root_object.get("/Lang")
    if language is not None:  # the booklet's language and its title in the window, as the booklet has them
        writer._root_object[NameObject("/Lang")] = TextStringObject(str(language))
    writer._root_object[NameObject("/ViewerPreferences")] = DictionaryObject(
        {NameObject("/DisplayDocTitle"): BooleanObject(True)})
    if sheet.press:
        writer.pdf_header = b"%PDF-1.6"  # PDF/X-4 is based on PDF 1.6
        pdfx.add_output_intent(writer)
        writer.add_metadata({"/Title": title, "/Creator": "aids", "/Producer": "aids"})
        pdfx.identify(writer, title, epoch)
    else:
        dates = {k: v for k, v in (reader.metadata or {}).items() if k in ("/CreationDate", "/ModDate")}
        writer.add_metadata({"/Title": title, "/Creator": "aids", "/Producer": "aids", **dates})
        writer.pdf_header = reader.pdf_header.encode() if isinstance(reader.pdf_header, str) else reader.pdf_header
        writer._ID = reader.trailer.get("/ID")  # the same sources, the same bytes
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), len(writer.pages)


def _place(writer: PdfWriter, side, placed: list[bytes], page, at: tuple[float, float], bleed: float,
           half: int) -> None:
    """`page` drawn on `side` with its trim's lower left corner at `at`, clipped to its trim plus the bleed on
    every edge but the spine (the right edge of a left-hand page, the left edge of a right-hand one): the page as a
    form XObject of that box, its content stream copied as it is (never parsed), its links left out; the operators
    that draw it added to `placed`."""
    x0, y0, x1, y1 = (float(v) for v in page.trimbox)
    clip = (x0 - bleed, y0 - bleed, x1, y1 + bleed) if half == 0 else (x0, y0 - bleed, x1 + bleed, y1 + bleed)
    name = f"/Page{half}"
    side[NameObject("/Resources")][NameObject("/XObject")][NameObject(name)] = _form(writer, page, clip)
    placed.append(f"q 1 0 0 1 {_number(at[0] - x0)} {_number(at[1] - y0)} cm {name} Do Q".encode())


def _form(writer: PdfWriter, page, box: tuple[float, float, float, float]) -> IndirectObject:
    """The page `page` as a form XObject in `writer`, clipped to `box`: its content as it is (one stream: its
    encoded bytes; several: joined), its resources copied into the writer."""
    contents = page.get("/Contents")
    streams = contents.get_object() if contents is not None else None
    if isinstance(streams, ArrayObject):
        form = DecodedStreamObject()
        form.set_data(b"\n".join(part.get_object().get_data() for part in streams))
    elif streams is not None:
        form = streams.clone(writer, ignore_fields=("/Length",))
    else:
        form = DecodedStreamObject()
    for key in [k for k in form if k not in ("/Filter", "/DecodeParms")]:
        del form[key]
    form.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
                 NameObject("/BBox"): RectangleObject(box)})
    resources = page.get("/Resources")
    if resources is not None:
        form[NameObject("/Resources")] = resources.get_object().clone(writer)
    return writer._add_object(form)


def _number(value: float) -> str:
    """A coordinate as a content stream writes it: at most 4 decimals, no trailing zeros."""
    return f"{value:.4f}".rstrip("0").rstrip(".") or "0"


def _press_boxes(writer: PdfWriter, side, trim: tuple[float, float, float, float], sheet: Sheet) -> None:
    """A press side's TrimBox (both pages), BleedBox (its bleed around them), and its marks outside the bleed:
    crop marks at the four corners, fold marks at the spine."""
    x0, y0, x1, y1 = trim
    side.trimbox = RectangleObject(trim)
    side.bleedbox = RectangleObject((x0 - sheet.bleed, y0 - sheet.bleed, x1 + sheet.bleed, y1 + sheet.bleed))
    side.cropbox = side.mediabox
    if sheet.marks:
        crop = pdfx.marks_stream(pdfx.crop_marks(trim, sheet.bleed))
        fold = pdfx.marks_stream(fold_marks(trim, sheet.bleed), FOLD_DASH)
        stream = DecodedStreamObject()
        stream.set_data(crop + b"\n" + fold)
        pdfx.append_content(writer, side, stream)


def fold_marks(trim: tuple[float, float, float, float], bleed: float) -> list[tuple[float, float, float, float]]:
    """Lines (x0, y0, x1, y1) on the fold (the middle of the trim), above and below it, outside the bleed."""
    x0, y0, x1, y1 = trim
    middle, near, far = (x0 + x1) / 2, bleed + pdfx.MARK_GAP, bleed + pdfx.MARK_GAP + pdfx.MARK_LENGTH
    return [(middle, y0 - near, middle, y0 - far), (middle, y1 + near, middle, y1 + far)]
