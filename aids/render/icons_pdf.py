"""Icons in a ReportLab paragraph (the card): vector drawings in the line, sized and placed as a glyph would be.

A paragraph's markup holds an icon as ReportLab's `<onDraw>` callback, which is told where in the line it stands,
followed by no-break spaces that keep its room (so the line breaks as if the icon were a word joined to what is
written next to it without a space: "10 [icon]" is one word, its space a no-break space). The callback draws the
icon's SVG, read by svglib into ReportLab shapes, once per PDF as a Form XObject, then places that form: paths,
never an image. svglib gets only the checked SVG of model/icons.py, which refers to nothing outside itself.
"""
from __future__ import annotations

import functools
import hashlib
import io
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing
from reportlab.pdfbase import pdfmetrics
from svglib.svglib import svg2rlg

from ..localize.rich import Icon

CALLBACK = "aids-icon"
HEIGHT = 1.1  # of the font size: the icon's square (its drawing has a margin inside: about a capital's height)
DROP = 0.2  # of the font size: how far below the baseline it starts (as a glyph's descent does)
GAP = 0.05  # of the font size, on each side of the drawing inside its room
_BY_ID: dict[str, Icon] = {}  # the icons the markup made, for the callback that draws them


@functools.cache
def drawing(svg: str) -> Drawing:
    """The checked SVG as ReportLab shapes."""
    found = svg2rlg(io.BytesIO(svg.encode("utf-8")))
    assert found is not None, "svglib read no drawing from a checked icon"
    return found


def room(icon: Icon, font: str) -> int:
    """How many no-break spaces of `font` keep the room of `icon` (its width and a gap each side)."""
    space = pdfmetrics.stringWidth("\u00a0", font, 1) or 0.3
    return max(2, round((HEIGHT * icon.source.ratio + 2 * GAP) / space))


def icon_markup(icon: Icon, font: str) -> str:
    """`icon` as paragraph markup: the callback that draws it, and its room."""
    key = f"{icon.id}-{hashlib.sha256(icon.source.svg.encode()).hexdigest()[:12]}"  # two games' "plane" differ
    _BY_ID[key] = icon
    # inside its no-break spaces: the callback goes to the next line with them (alone, it would stay behind)
    return "\u00a0" + f'<onDraw name="{CALLBACK}" label="{escape(key)}"/>' + "\u00a0" * (room(icon, font) - 1)


def note(canvas: Any, kind: str, label: str | None) -> None:
    """The onDraw callback: where the icon named `label` stands, in its line's font and size, kept for `flush`
    (drawn now, it would stand between a step's number and its text in the PDF's text, parting them)."""
    info = getattr(canvas, "_curr_tx_info", None)
    if label not in _BY_ID or info is None:
        return
    tx = info["tx"]
    size = tx._fontsize or info["xs"].style.fontSize
    font = tx._fontname or info["xs"].style.fontName
    canvas.__dict__.setdefault("_aids_icons", []).append((label, info["cur_x"], info["cur_y"], font, size))


def flush(canvas: Any) -> None:
    """Draws the icons `note` kept, after the text of their paragraph (in its coordinates)."""
    for label, x, y, font, size in canvas.__dict__.pop("_aids_icons", []):
        _draw(canvas, _BY_ID[label], label, x, y, font, size)


def _draw(canvas: Any, icon: Icon, label: str, x: float, y: float, font: str, size: float) -> None:
    space = pdfmetrics.stringWidth("\u00a0", font, size)
    width = room(icon, font) * space
    shape = drawing(icon.source.svg)
    height = HEIGHT * size
    scale = height / shape.height if shape.height else 1
    name = f"aids-icon-{label}"
    if name not in getattr(canvas, "_aids_icon_forms", set()):
        canvas.beginForm(name, lowerx=0, lowery=0, upperx=shape.width, uppery=shape.height)
        # ReportLab's renderer opens with a font set (Helvetica, a font the PDF would not embed): the paragraph's own
        shape.initialFontName, shape.initialFontSize = font, size
        renderPDF.draw(shape, canvas, 0, 0, showBoundary=False)
        canvas.endForm()
        canvas._aids_icon_forms = getattr(canvas, "_aids_icon_forms", set()) | {name}
    canvas.saveState()
    start = x - space  # the callback stands after the first no-break space of the room
    canvas.translate(start + (width - shape.width * scale) / 2, y - DROP * size)
    canvas.scale(scale, scale)
    canvas.doForm(name)
    canvas.restoreState()


def prepare(canvas: Any) -> None:
    """`canvas` able to draw the icons of its paragraphs."""
    canvas.setNamedCB(CALLBACK, note)
