"""A print shop's preflight of a press PDF, beyond its colours (render/recolour.py makes those CMYK): the effective
resolution of every image placed on its pages, the pixels per inch it has at the size it prints, found by following
each page's transformations (pikepdf reads the content streams) into its forms and tiling patterns.

The thresholds are those of sheet-fed offset on coated paper (the shipped FOGRA39 condition): a colour or gray
image needs 300 ppi, twice the 150 lpi screen it is printed with; a 1-bit image (line art, no screen: each pixel
is an edge the eye sees) 1200 ppi. Below them a print shop's preflight flags the image: the build says which, on
which page, at what resolution, and with --strict refuses the aid."""
from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pikepdf

from ..units import MM_PER_PT
from .recolour import contents

CONTONE_PPI = 300
LINE_ART_PPI = 1200
OPERATORS = "q Q cm Do scn SCN"  # those that place an image, or change where it goes
INLINE = re.compile(rb"(?<![^\s\])>}])BI(?![^\s\[/<(%])")  # the operator that begins an inline image


@dataclass(frozen=True)
class Placed:
    """An image as a page prints it: its page (from 1), its pixels, the size it is placed at (mm) and its
    effective resolution (ppi, the lower of its two directions); where its lower left corner is (mm from the
    page's)."""
    page: int
    pixels: tuple[int, int]
    size: tuple[float, float]
    ppi: float
    line_art: bool = False
    at: tuple[float, float] = (0.0, 0.0)

    @property
    def needed(self) -> int:
        return LINE_ART_PPI if self.line_art else CONTONE_PPI


def placed_images(data: bytes) -> list[Placed]:
    """Every image of the PDF `data` each time a page places it."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [placed for number, page in enumerate(pdf.pages, 1)
                for placed in _walk(page.obj, page.obj.get("/Resources"), pikepdf.Matrix(), number, 0)]


def low_resolution(data: bytes) -> list[Placed]:
    """The images of `data` placed below the resolution the press needs."""
    return [placed for placed in placed_images(data) if placed.ppi < placed.needed]


def findings(data: bytes, file: str, known: dict[tuple[int, int], str]) -> list[str]:
    """One line per image of the press PDF `file` placed below the press's resolution: its pages, its file
    (`known` names an image file by its pixels), its size, its effective resolution."""
    by_image: dict[tuple[tuple[int, int], tuple[float, float], int, int], list[int]] = {}
    for placed in low_resolution(data):
        key = (placed.pixels, (round(placed.size[0]), round(placed.size[1])), round(placed.ppi), placed.needed)
        by_image.setdefault(key, [])
        if placed.page not in by_image[key]:
            by_image[key].append(placed.page)
    lines = []
    for (pixels, size, ppi, needed), pages in by_image.items():
        name = known.get(pixels)
        lines.append(f"{file}, page{'s' if len(pages) > 1 else ''} {_ranges(pages)}: {name or 'an image'}, "
                     f"{pixels[0]} × {pixels[1]} px at {size[0]} × {size[1]} mm, prints at {ppi} ppi (a print shop "
                     f"asks {needed} ppi)")
    return lines


def _ranges(pages: list[int]) -> str:
    """1, 3–5, 8"""
    spans: list[list[int]] = []
    for page in sorted(pages):
        if spans and page == spans[-1][1] + 1:
            spans[-1][1] = page
        else:
            spans.append([page, page])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in spans)


def _walk(owner: Any, resources: Any, base: pikepdf.Matrix, page: int, depth: int) -> Iterator[Placed]:
    """The images a content stream places, drawn with `base` as its initial transformation; into its forms and
    tiling patterns (a form that draws itself is followed a few levels deep, no more)."""
    stream = _Stream(resources, base, page, depth)
    inline = any(INLINE.search(part.read_bytes()) for part in contents(owner))
    if depth > 8 or not stream.xobjects and not stream.patterns and not inline:
        return  # nothing it could place an image with: a page of text is not parsed for nothing
    # pikepdf leaves inline images out of a parse for some operators only, five times faster on a page of text
    for instruction in pikepdf.parse_content_stream(owner, "" if inline else OPERATORS):
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            image = instruction.iimage
            yield _placed(page, image.width, image.height, image.bits_per_component == 1 or image.image_mask,
                          stream.ctm)
        else:
            yield from stream.step(str(instruction.operator), instruction.operands)


class _Stream:
    """Where a content stream draws: its transformation matrix as q, Q and cm change it."""

    def __init__(self, resources: Any, base: pikepdf.Matrix, page: int, depth: int):
        self.xobjects = (resources or {}).get("/XObject") or {}
        self.patterns = (resources or {}).get("/Pattern") or {}
        self.base, self.ctm, self.saved = base, base, [base]
        self.page, self.depth = page, depth

    def step(self, operator: str, operands: Any) -> Iterator[Placed]:
        if operator == "q":
            self.saved.append(self.ctm)
        elif operator == "Q" and len(self.saved) > 1:
            self.ctm = self.saved.pop()
        elif operator == "cm" and len(operands) == 6:
            self.ctm = pikepdf.Matrix(*(float(v) for v in operands)) @ self.ctm
        elif operator == "Do" and str(operands[0]) in self.xobjects:
            yield from _drawn(self.xobjects[str(operands[0])], self.ctm, self.page, self.depth)
        elif operator in ("scn", "SCN") and operands and str(operands[-1]) in self.patterns:
            pattern = self.patterns[str(operands[-1])]
            if pattern.get("/PatternType") == 1:  # a tiling pattern's cells, in the space the stream began in
                matrix = pikepdf.Matrix(pattern.get("/Matrix", pikepdf.Array([1, 0, 0, 1, 0, 0])))
                yield from _walk(pattern, pattern.get("/Resources"), matrix @ self.base, self.page, self.depth + 1)


def _drawn(xobject: Any, ctm: pikepdf.Matrix, page: int, depth: int) -> Iterator[Placed]:
    if xobject.get("/Subtype") == "/Image":
        line_art = int(xobject.get("/BitsPerComponent", 1)) == 1 or bool(xobject.get("/ImageMask", False))
        yield _placed(page, int(xobject.Width), int(xobject.Height), line_art, ctm)
    elif xobject.get("/Subtype") == "/Form":
        matrix = pikepdf.Matrix(xobject.get("/Matrix", pikepdf.Array([1, 0, 0, 1, 0, 0])))
        yield from _walk(xobject, xobject.get("/Resources"), matrix @ ctm, page, depth + 1)


def _placed(page: int, width: int, height: int, line_art: bool, ctm: pikepdf.Matrix) -> Placed:
    """An image of `width` × `height` pixels drawn in the unit square of `ctm`: its sides' lengths on the page."""
    across, up = (ctm.a ** 2 + ctm.b ** 2) ** 0.5, (ctm.c ** 2 + ctm.d ** 2) ** 0.5  # pt
    ppi = min(width / (across / 72) if across else float("inf"), height / (up / 72) if up else float("inf"))
    return Placed(page, (width, height), (across * MM_PER_PT, up * MM_PER_PT), ppi, line_art,
                  (ctm.e * MM_PER_PT, ctm.f * MM_PER_PT))
