"""Fitting loops: a playsheet printed within its page budget, its type made smaller step by step."""
from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import AidsError, Position, Problem
from ..model.playsheet import Page, Playsheet
from .html import render_template
from .rendered import Printed, Rendered

if TYPE_CHECKING:
    from ..config import Edition
    from ..kind import Printer
    from ..localize.localizer import Localizer

TYPE_STEP = Decimal("0.5")  # pt: how much smaller each try to fit the budget sets the type
MARGINS = "8mm 8mm 11mm 8mm"  # a reference sheet uses the page; the footer still fits below


def type_sizes(page: Page) -> list[Decimal]:
    """Every size a playsheet may be set in, largest (the designed one) first, in TYPE_STEP steps."""
    sizes, size = [], page.type
    while size >= page.min_type:
        sizes.append(size)
        size -= TYPE_STEP
    return sizes


Size = TypeVar("Size", Decimal, float)


def largest_fitting(sizes: list[Size], fits: Callable[[Size], bool]) -> Size | None:
    """The largest of `sizes` (largest first) that `fits`, trying as few as possible: the designed size
    first (it usually fits), then the smallest (if even that fails, none does), then halving the range
    between the largest that failed and the smallest that fitted (fewer pages never come with larger type)."""
    if not sizes or fits(sizes[0]):
        return sizes[0] if sizes else None
    if len(sizes) == 1 or not fits(sizes[-1]):
        return None
    failed, fitted = 0, len(sizes) - 1
    while fitted - failed > 1:
        middle = (failed + fitted) // 2
        if fits(sizes[middle]):
            fitted = middle
        else:
            failed = middle
    return sizes[fitted]


def playsheet_pdf(sheet: Playsheet, template: str, localized: dict[str, Any], lz: Localizer, context: dict[str, Any],
                  edition: Edition | None, print_pdf: Printer) -> dict[str, Rendered]:
    """The playsheet within its page budget, in the largest type that keeps it there (down to min_type),
    else an error. Each size tried is laid out once; only the one chosen is written as a PDF."""
    tried: dict[Decimal, Printed] = {}

    def fits(size: Decimal) -> bool:
        html = render_template(template, lz, {**context, "aid": {**localized, "type_size": size}})
        tried[size] = print_pdf(html, sheet.page.css_size, MARGINS)
        return tried[size].pages <= sheet.page.budget

    size = largest_fitting(type_sizes(sheet.page), fits)
    if size is not None:
        rendered = tried[size].rendered()
        # worded as a card's, so the summary reads alike for every kind that fits its type
        rendered.notes.append(f"type {size:g} pt (designed {sheet.page.type:g} pt, minimum {sheet.page.min_type:g} pt)")
        rendered.fitted = {"": float(size)}
        rendered.renders = len(tried)
        return {".pdf": rendered}
    pages = tried[min(tried)].pages if tried else 0
    edition_note = f", edition {edition.id}" if edition else ""
    raise AidsError(Problem(
        sheet.page.where or Position(sheet.source.shown),
        f"playsheet '{sheet.id}' ({lz.lang}{edition_note}) overflows its budget of {sheet.page.budget} "
        f"page{'s' if sheet.page.budget > 1 else ''} by {pages - sheet.page.budget} "
        f"(needs {pages} at the minimum type size {sheet.page.min_type}pt)",
        "a higher budget, a smaller min_type, more columns or less content"))
