"""The last step of the gray profile: whatever colour a PDF still paints (a theme's banners, a figure's drawing, a
link in the browser's blue) painted as its gray, so that a monochrome printer gets what the page shows and no
driver picks the grays. aids' own marks come in their chosen grays already (colours.GRAY); raster images are made
gray as they are read (pdf.make_fetcher). Content streams are read and written by pikepdf (qpdf), never by hand.

A colour given as RGB (rg, RG, or sc/scn in DeviceRGB) becomes its luminance (ITU-R 601-2, as Pillow's "L" for
the images), a CMYK one (k, K) its share of black. A PDF with nothing to change is returned as it was."""
from __future__ import annotations

import io
from typing import Any

import pikepdf

RGB_OPERATORS = {"rg": "g", "RG": "G"}
CMYK_OPERATORS = {"k": "g", "K": "G"}
SET_SPACE = {"cs": "fill", "CS": "stroke"}
SET_COLOUR = {"sc": "fill", "scn": "fill", "SC": "stroke", "SCN": "stroke"}


def luminance(r: float, g: float, b: float) -> float:
    return round(0.299 * r + 0.587 * g + 0.114 * b, 4)


def grayed(data: bytes) -> bytes:
    """`data` (a PDF) with every colour of its pages, forms and tiling patterns a gray."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        changed = False
        for page in pdf.pages:
            new = _gray_stream(pikepdf.parse_content_stream(page))
            if new is not None:
                page.obj.Contents = pdf.make_stream(new)
                changed = True
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and (obj.get("/Subtype") == "/Form" or obj.get("/PatternType") == 1):
                new = _gray_stream(pikepdf.parse_content_stream(obj))
                if new is not None:
                    obj.write(new)
                    changed = True
        if not changed:
            return data
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.generate)
        return out.getvalue()


def _gray_stream(instructions: list[Any]) -> bytes | None:
    """The content stream with its colours gray, or None when it paints none."""
    spaces = {"fill": "", "stroke": ""}
    out: list[Any] = []
    changed = False
    for instruction in instructions:
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            out.append(instruction)
            continue
        operands, operator = list(instruction.operands), str(instruction.operator)
        gray = _gray_of(operands, operator, spaces)
        if gray is not None:
            operands, operator = gray
            changed = True
        out.append(pikepdf.ContentStreamInstruction(operands, pikepdf.Operator(operator)))
    return pikepdf.unparse_content_stream(out) if changed else None


def _gray_of(operands: list[Any], operator: str, spaces: dict[str, str]) -> tuple[list[Any], str] | None:
    """The gray instruction for one that sets a colour, None for any other."""
    if operator in RGB_OPERATORS and len(operands) == 3:
        r, g, b = (float(v) for v in operands)
        if r == g == b:
            return None  # a gray already
        return [_number(luminance(r, g, b))], RGB_OPERATORS[operator]
    if operator in CMYK_OPERATORS and len(operands) == 4:
        c, m, y, k = (float(v) for v in operands)
        return [_number(round(1 - min(1.0, 0.3 * c + 0.59 * m + 0.11 * y + k), 4))], CMYK_OPERATORS[operator]
    if operator in SET_SPACE and operands:
        spaces[SET_SPACE[operator]] = str(operands[0])
        if str(operands[0]) == "/DeviceRGB":
            return [pikepdf.Name.DeviceGray], operator
    if operator in SET_COLOUR and spaces[SET_COLOUR[operator]] == "/DeviceRGB" and len(operands) == 3:
        r, g, b = (float(v) for v in operands)
        return [_number(luminance(r, g, b))], operator
    return None


def _number(value: float) -> Any:
    return pikepdf.Object.parse(f"{value:g}".encode())
