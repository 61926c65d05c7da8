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
from ..model.card import MM
from . import colours
from .card_pdf import BODY, HEAD, markup

if TYPE_CHECKING:
    from .card_sheet import SheetLayout

REACH = 40 * MM  # the front's cross, each way from the centre
SCALE = 5  # mm each way: the ticks run from -SCALE to +SCALE


def test_page(lz, context: dict, layout: SheetLayout) -> bytes:
    """Two pages of the sheet's size: the front's cross and instructions, the back's scales."""
    from .card_sheet import new_canvas
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
    story = [Paragraph(markup(lz.pgettext("duplex test page", "Duplex test")), title),
             *(Paragraph(markup(typeset(step, lz.lang)), body) for step in steps)]
    Frame(20 * MM, cy + REACH + 10 * MM, width - 40 * MM, height - cy - REACH - 30 * MM).addFromList(story, canv)
    canv.setStrokeColor(ink)
    canv.setLineWidth(0.3)
    canv.line(cx, cy - REACH, cx, cy + REACH)
    canv.line(cx - REACH, cy, cx + REACH, cy)
    canv.showPage()
    canv.setStrokeColor(ink)
    canv.setFillColor(ink)
    canv.setLineWidth(0.2)
    canv.setFont(BODY, 6)
    for step in range(-2 * SCALE, 2 * SCALE + 1):  # half millimetres
        t = step / 2
        long = step % 2 == 0
        canv.line(cx + t * MM, cy + 5 * MM, cx + t * MM, cy + (12 if long else 9) * MM)  # x: where the | meets
        canv.line(cx + 5 * MM, cy + t * MM, cx + (12 if long else 9) * MM, cy + t * MM)  # y: where the - meets
        if long and step % 4 == 0:
            label = lz.signed(int(t)) if t else "0"
            canv.drawCentredString(cx + t * MM, cy + 13.5 * MM, label)
            canv.drawString(cx + 13.5 * MM, cy + t * MM - 2, label)
    canv.setFont(BODY + "-Bold", 9)
    canv.drawRightString(cx - (SCALE + 2) * MM, cy + 8 * MM, "x")
    canv.drawCentredString(cx + 8 * MM, cy - (SCALE + 4) * MM, "y")
    canv.showPage()
    canv.save()
    return buffer.getvalue()
