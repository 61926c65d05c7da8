"""The geometry of a printed page: its sheet from a CSS page size, and the page area the margins leave (in mm), for
what must fit a page whole (a theme's page art over the sheet, a figure within its column)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..kind import Margins

SIZES = {"a4": (210.0, 297.0), "a5": (148.0, 210.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}
DEFAULT_MARGINS = "14mm 14mm 16mm 14mm"  # print.css's, for a kind that names none
_MM = re.compile(r"(\d+(?:\.\d+)?)mm\Z")


def sheet(page_size: str) -> tuple[float, float]:
    """(width, height) in mm of a CSS page size: a name (A4, A5, letter, A3; A4 when unknown) and `landscape`, or
    two lengths in mm."""
    words = page_size.lower().split()
    lengths = [float(m.group(1)) for word in words if (m := _MM.match(word))]
    if len(lengths) == 2:
        return lengths[0], lengths[1]
    width, height = SIZES.get(words[0] if words else "a4", SIZES["a4"])
    return (height, width) if "landscape" in words else (width, height)


def margins_mm(margins: Margins) -> tuple[float, float, float, float]:
    """(top, right, bottom, left) in mm of a page's margins: facing pages (top, outer, bottom, inner), or a CSS
    margin in mm of one to four values (a value in another unit counts as 0)."""
    if isinstance(margins, tuple):
        top, outer, bottom, inner = margins
        return top, outer, bottom, inner
    values = [float(m.group(1)) if (m := _MM.match(p)) else 0.0 for p in (margins or DEFAULT_MARGINS).split()] or [0.0]
    order = {1: (0, 0, 0, 0), 2: (0, 1, 0, 1), 3: (0, 1, 2, 1)}.get(len(values), (0, 1, 2, 3))  # as CSS reads them
    top, right, bottom, left = (values[i] for i in order)
    return top, right, bottom, left


def area_height(page_size: str, margins: Margins) -> float:
    """The height in mm of the page area: what a column of text holds, between the running head and foot."""
    top, _, bottom, _ = margins_mm(margins)
    return sheet(page_size)[1] - top - bottom
