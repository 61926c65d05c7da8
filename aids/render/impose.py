"""A booklet imposed for saddle stitching: its pages padded with blanks to a multiple of four, two a side of
a sheet twice as wide, in the order that reads right when the stack is folded in the middle and stapled.

Sheet s (from 0) of a booklet of n pages carries, front: n − 2s on the left, 2s + 1 on the right; back:
2s + 2 on the left, n − 2s − 1 on the right (page numbers from 1).
"""
from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter, Transformation


def saddle_order(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page numbers (1-based; None for a blank) of every side, front then back, sheet by sheet."""
    n = -(-pages // 4) * 4  # padded to a multiple of four

    def page(number: int) -> int | None:
        return number if number <= pages else None

    sides = []
    for s in range(n // 4):
        sides += [(page(n - 2 * s), page(2 * s + 1)), (page(2 * s + 2), page(n - 2 * s - 1))]
    return sides


def saddle_stitch(data: bytes) -> tuple[bytes, int]:
    """The PDF `data` imposed 2-up for saddle stitching, and its number of sides."""
    reader = PdfReader(io.BytesIO(data))
    width, height = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    writer = PdfWriter()
    for left, right in saddle_order(len(reader.pages)):
        side = writer.add_blank_page(2 * width, height)
        for number, offset in ((left, 0.0), (right, width)):
            if number is not None:
                source = reader.pages[number - 1]
                x0, y0 = float(source.mediabox.left), float(source.mediabox.bottom)
                side.merge_transformed_page(source, Transformation().translate(offset - x0, -y0))
    writer.add_metadata({k: v for k, v in (reader.metadata or {}).items() if k in ("/Title", "/Author",
                                                                                   "/CreationDate", "/ModDate")})
    writer._ID = reader.trailer.get("/ID")  # the same sources, the same bytes
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), len(writer.pages)
