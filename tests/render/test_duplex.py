"""The duplex test page read back from its PDF: its scales reach as far as back_offset may go, and their
numbers, as set in each language, never overlap (render/duplex.py)."""
import io
import re

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.pdfbase import pdfmetrics

from aids.kinds.schemas import schema
from aids.localize import ui
from aids.localize.localizer import Localizer
from aids.render import duplex
from aids.render.card_pdf import BODY, register_fonts
from aids.render.card_sheet import SheetLayout
from aids.units import PT_PER_MM

CONTEXT = {"document_title": "Test", "game": {"author": "aids"}, "kind_name": "card"}


def accepted() -> tuple[float, float]:
    """The range of back_offset the card's source accepts, as its JSON Schema says it."""
    items = schema("card")["$defs"]["sheet"]["properties"]["back_offset"]["items"]
    return items["minimum"], items["maximum"]


def back_page(lang: str, paper=(841.89, 595.28)):
    register_fonts()
    lz = Localizer(lang, "en", {}, ui.ui_translations(lang))
    layout = SheetLayout(paper, 3 * PT_PER_MM, (180.0, 250.0), [(20.0, 20.0)])
    page = PdfReader(io.BytesIO(duplex.test_page(lz, CONTEXT, layout))).pages[1]
    return page, float(page.mediabox.width) / 2, float(page.mediabox.height) / 2


def label_boxes(page):
    """(text, x0, y0, x1, y1) of every text run of the page: its advance and its font's ascent and descent."""
    boxes = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            name = BODY + ("-Bold" if "Bold" in str((font or {}).get("/BaseFont", "")) else "")
            ascent, descent = pdfmetrics.getAscentDescent(name, size)
            boxes.append((text.strip(), x, y + descent, x + pdfmetrics.stringWidth(text.strip(), name, size),
                          y + ascent))
    page.extract_text(visitor_text=visit)
    return boxes


def value(label: str) -> int:
    return int(label.replace("\u2212", "-").replace("+", ""))


@pytest.mark.parametrize("lang", ["pl", "en", "ru"])
def test_the_scales_number_the_whole_accepted_range_and_no_two_numbers_overlap(lang):
    page, cx, cy = back_page(lang)
    boxes = label_boxes(page)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2]
            assert apart, f"{lang}: “{a[0]}” and “{b[0]}” overlap: {a[1:]} {b[1:]}"
    numbers = [b for b in boxes if re.fullmatch(r"[+\u2212]?\d+", b[0])]
    assert {b[0] for b in boxes} - {b[0] for b in numbers} == {"x", "y"}
    low, high = accepted()
    # the x scale, above the centre: each number centred on its tick, every second millimetre of the range
    x_scale = sorted((value(t), (x0 + x1) / 2) for t, x0, y0, x1, y1 in numbers if y0 > cy + high * PT_PER_MM)
    assert [v for v, _ in x_scale] == list(range(int(low), int(high) + 1, 2))
    assert all(at == pytest.approx(cx + v * PT_PER_MM, abs=0.01) for v, at in x_scale)
    # the y scale, right of the centre: each number level with its tick
    y_scale = sorted((value(t), (y0 + y1) / 2) for t, x0, y0, x1, y1 in numbers if x0 > cx + high * PT_PER_MM)
    assert [v for v, _ in y_scale] == list(range(int(low), int(high) + 1, 2))
    assert all(abs(at - (cy + v * PT_PER_MM)) < 1.5 for v, at in y_scale)  # the digits' middle, within 0.5 mm


def test_the_ticks_run_half_a_millimetre_apart_over_the_whole_accepted_range():
    page, cx, cy = back_page("en")
    low, high = accepted()
    ops = ContentStream(page.get_contents(), page.pdf).operations
    lines = [(*(float(v) for v in a), *(float(v) for v in b))
             for (a, op_a), (b, op_b) in zip(ops, ops[1:]) if op_a == b"m" and op_b == b"l"]
    vertical = sorted({round((x0 - cx) / PT_PER_MM, 2) for x0, y0, x1, y1 in lines if x0 == x1 and y0 > cy})
    horizontal = sorted({round((y0 - cy) / PT_PER_MM, 2) for x0, y0, x1, y1 in lines if y0 == y1 and x0 > cx})
    expected = [low + i / 2 for i in range(int(2 * (high - low)) + 1)]
    assert vertical[:1] + vertical[-1:] == [low, high] and set(expected) <= set(vertical)
    assert horizontal[:1] + horizontal[-1:] == [low, high] and set(expected) <= set(horizontal)


def test_the_scales_fit_a_small_sheet():
    page, cx, cy = back_page("ru", paper=(419.53, 595.28))  # A5, portrait
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert all(0 < x0 and x1 < width and 0 < y0 and y1 < height for _, x0, y0, x1, y1 in label_boxes(page))
