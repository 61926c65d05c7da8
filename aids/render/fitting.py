"""Fitting loops: a playsheet printed within its page budget, its type made smaller step by step."""
from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ..errors import AidsError, Position, Problem
from ..model.playsheet import Page, Playsheet
from .html import render_template
from .rendered import Rendered

if TYPE_CHECKING:
    from ..config import Edition
    from ..kind import Printer
    from ..localize.localizer import Localizer

TYPE_STEP = Decimal("0.5")  # pt: how much smaller each try to fit the budget sets the type
MARGINS = "8mm 8mm 11mm 8mm"  # a reference sheet uses the page; the footer still fits below


def type_sizes(page: Page) -> Iterator[Decimal]:
    size = page.type
    while size >= page.min_type:
        yield size
        size -= TYPE_STEP


def playsheet_pdf(sheet: Playsheet, template: str, localized: dict[str, Any], lz: Localizer, context: dict[str, Any],
                  edition: Edition | None, print_pdf: Printer) -> dict[str, Rendered]:
    """The playsheet within its page budget: type made smaller step by step down to min_type, else an error."""
    pages = 0
    for size in type_sizes(sheet.page):
        html = render_template(template, lz, {**context, "aid": {**localized, "type_size": size}})
        rendered = print_pdf(html, sheet.page.css_size, MARGINS)
        pages = rendered.pages
        if pages <= sheet.page.budget:
            # worded as a card's, so the summary reads alike for every kind that fits its type
            rendered.notes.append(
                f"type {size:g} pt (designed {sheet.page.type:g} pt, minimum {sheet.page.min_type:g} pt)")
            return {".pdf": rendered}
    edition_note = f", edition {edition.id}" if edition else ""
    raise AidsError(Problem(
        sheet.page.where or Position(sheet.source.shown),
        f"playsheet '{sheet.id}' ({lz.lang}{edition_note}) overflows its budget of {sheet.page.budget} "
        f"page{'s' if sheet.page.budget > 1 else ''} by {pages - sheet.page.budget} "
        f"(needs {pages} at the minimum type size {sheet.page.min_type}pt)",
        "a higher budget, a smaller min_type, more columns or less content"))
