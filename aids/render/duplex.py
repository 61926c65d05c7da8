"""The duplex test page of a card's print sheet: printed on both sides of one sheet, it shows how far the
printer shifts the back, in the numbers `sheet: {back_offset: [x, y]}` takes.

The front has a cross through the sheet's centre; the back, two scales of ticks half a millimetre apart
around the same centre (the centre is where it was, however the sheet turns over). Held against the
light, the front's lines cross each scale at the number to give as back_offset: the back is drawn that
far off, and the printer's shift brings it back."""
from __future__ import annotations

import io
from typing import TYPE_CHECKING

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Frame, Paragraph

from ..localize.typography import typeset
from ..model.card import BACK_OFFSET
from ..units import PT_PER_MM
from . import colours
from .card_pdf import BODY, HEAD, markup, new_canvas, outline

if TYPE_CHECKING:
    from .card_sheet import SheetLayout

REACH = 40 * PT_PER_MM  # the front's cross, each way from the centre
NUMBERED = 2  # mm between numbered ticks; every other number is on the scale's far side, clear of the next
AXIS = 2.5 * BACK_OFFSET * PT_PER_MM  # from the centre to each scale's axis: the two scales well clear of each other
TICKS = (2 * PT_PER_MM, 3.5 * PT_PER_MM, 5 * PT_PER_MM)  # the lengths of a half-millimetre, millimetre, numbered tick
GAP = 1 * PT_PER_MM  # between a tick's end and its number
SIZE = 6  # pt, the numbers


def labels(lz) -> list[tuple[float, str, int]]:
    """(mm, number as printed, side: 1 beyond the axis, -1 before it) of every numbered tick: from
    -BACK_OFFSET to +BACK_OFFSET, the whole range back_offset accepts, 0 beyond the axis."""
    return [(float(mm), lz.signed(mm) if mm else "0", 1 if (mm // NUMBERED) % 2 == 0 else -1)
            for mm in range(-BACK_OFFSET, BACK_OFFSET + 1, NUMBERED)]


def test_page(lz, context: dict, layout: SheetLayout) -> bytes:
    """Two pages of the sheet's size: the front's cross and instructions, the back's scales."""
    buffer = io.BytesIO()
    width, height = layout.media
    canv = new_canvas(buffer, (width, height), context, lz)
    canv.setViewerPreference("Duplex", "DuplexFlipShortEdge" if layout.landscape else "DuplexFlipLongEdge")
    ink = colours.reportlab("ink")
    cx, cy = width / 2, height / 2
    title = ParagraphStyle("title", fontName=HEAD + "-Bold", fontSize=14, leading=18, textColor=ink)
    body = ParagraphStyle("body", fontName=BODY, fontSize=9, leading=12, textColor=ink, spaceBefore=4)
    steps = [lz.pgettext("duplex test page", "Print this page and the next on one sheet, on both sides, at full "
                                             "size (no fitting to the page), as you print the card sheet."),
             lz.pgettext("duplex test page", "Hold the sheet against the light. Where each line printed on this "
                                             "side crosses the scale of the other side, read the number: write "
                                             "both in the card's source as sheet: {back_offset: [x, y]}, in "
                                             "millimetres, and build again.")]
    heading = lz.pgettext("duplex test page", "Duplex test")
    outline(canv, heading, "duplex-test", sections=False)
    story = [Paragraph(markup(heading), title),
             *(Paragraph(markup(typeset(step, lz.lang)), body) for step in steps)]
    Frame(20 * PT_PER_MM, cy + REACH + 10 * PT_PER_MM, width - 40 * PT_PER_MM,
          height - cy - REACH - 30 * PT_PER_MM).addFromList(story, canv)
    canv.setStrokeColor(ink)
    canv.setLineWidth(0.3)
    canv.line(cx, cy - REACH, cx, cy + REACH)
    canv.line(cx - REACH, cy, cx + REACH, cy)
    canv.showPage()
    _scales(canv, lz, cx, cy)
    canv.showPage()
    canv.save()
    return buffer.getvalue()


def _scales(canv, lz, cx: float, cy: float) -> None:
    """The back's two scales, at true size: x, ticks across a line above the centre where the front's vertical
    line meets them; y, ticks across a line right of it, where the horizontal one does."""
    ink = colours.reportlab("ink")
    canv.setStrokeColor(ink)
    canv.setFillColor(ink)
    canv.setLineWidth(0.2)
    reach = BACK_OFFSET * PT_PER_MM
    x_axis, y_axis = cy + AXIS, cx + AXIS  # the x scale's line (horizontal), the y scale's (vertical)
    canv.line(cx - reach, x_axis, cx + reach, x_axis)
    canv.line(y_axis, cy - reach, y_axis, cy + reach)
    sides = {mm: side for mm, _, side in labels(lz)}
    for step in range(-2 * BACK_OFFSET, 2 * BACK_OFFSET + 1):  # half millimetres
        t = step / 2
        numbered = t in sides
        beyond = TICKS[2] if numbered else TICKS[1] if step % 2 == 0 else TICKS[0]
        before = TICKS[2] if numbered and sides[t] < 0 else 0
        canv.line(cx + t * PT_PER_MM, x_axis - before, cx + t * PT_PER_MM, x_axis + beyond)
        canv.line(y_axis - before, cy + t * PT_PER_MM, y_axis + beyond, cy + t * PT_PER_MM)
    canv.setFont(BODY, SIZE)
    far, cap = TICKS[2] + GAP, 0.73 * SIZE  # the digits' height
    for mm, label, side in labels(lz):
        x, y = cx + mm * PT_PER_MM, cy + mm * PT_PER_MM
        canv.drawCentredString(x, x_axis + far if side > 0 else x_axis - far - cap, label)
        if side > 0:
            canv.drawString(y_axis + far, y - cap / 2, label)
        else:
            canv.drawRightString(y_axis - far, y - cap / 2, label)
    canv.setFont(BODY + "-Bold", 9)
    canv.drawRightString(cx - reach - 3 * PT_PER_MM, x_axis - 0.73 * 9 / 2, "x")
    canv.drawCentredString(y_axis, cy - reach - 4 * PT_PER_MM - 0.73 * 9, "y")
