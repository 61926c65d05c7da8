"""Fitting loops: a playsheet printed within its page budget, its type made smaller step by step; a booklet
tightened to its page goal."""
from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import DoesNotFit, Position, Problem
from ..localize.documents import BookletDocument, PlaysheetDocument
from ..model.booklet import TYPE, Booklet
from ..model.playsheet import Page, Playsheet
from .html import render_template
from .rendered import Printed, Rendered

if TYPE_CHECKING:
    from ..config import Edition
    from ..kind import Margins, Printer
    from ..localize.localizer import Localizer

TYPE_STEP = Decimal("0.5")  # pt: how much smaller each try to fit the budget sets the type
MARGINS = "8mm 8mm 11mm 8mm"  # a reference sheet uses the page; the footer still fits below
LEADING, LEADING_SPAN = Decimal("1.35"), Decimal("0.1")  # a booklet's line height (aids.css), and how much it
# tightens by the time its type reaches min_type


def type_sizes(page: Page) -> list[Decimal]:
    """Every size a playsheet may be set in, largest (the designed one) first, in TYPE_STEP steps."""
    sizes, size = [], page.type
    while size >= page.min_type:
        sizes.append(size)
        size -= TYPE_STEP
    return sizes


Size = TypeVar("Size", Decimal, float)


def largest_fitting(sizes: list[Size], fits: Callable[[Size], bool], guess: int | None = None) -> Size | None:
    """The largest of `sizes` (largest first) that `fits`, trying as few as possible: the designed size
    first (it usually fits), then the smallest (if even that fails, none does), then halving the range
    between the largest that failed and the smallest that fitted (fewer pages never come with larger type).
    With a `guess` (the index of the size likely to be the answer), from there instead: one step at a time,
    doubling, toward the sizes that fit or that fail until the answer is between the two, then halving: two
    layouts where the guess is right, a few more where it is near."""
    if not sizes or fits(sizes[0]):
        return sizes[0] if sizes else None
    if guess is not None and 0 < guess < len(sizes):
        failed, fitted = _bracket(len(sizes), fits_at=lambda i: fits(sizes[i]), guess=guess)
        if fitted is None:
            return None
    else:
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


def _bracket(count: int, fits_at: Callable[[int], bool], guess: int) -> tuple[int, int | None]:
    """(an index that fails, a larger one that fits, or None if even the last fails), found by steps of 1, 2,
    4 ... from `guess`: up toward index 0 (which failed) while the sizes fit, down toward the last while they
    fail."""
    step = 1
    if fits_at(guess):
        fitted = guess
        while fitted > 1:
            probe = max(fitted - step, 1)
            if not fits_at(probe):
                return probe, fitted
            fitted, step = probe, step * 2
        return 0, fitted
    failed = guess
    while failed < count - 1:
        probe = min(failed + step, count - 1)
        if fits_at(probe):
            return failed, probe
        failed, step = probe, step * 2
    return failed, None


def _page_goal_guess(sizes: list[Decimal], natural: int, target: int, leading: Callable[[Decimal], Decimal]) -> int:
    """The index of the largest size whose pages, reckoned from the designed size's (a page holds as many
    characters as the square of the type's size and its line height allow), meet `target`: where the search
    starts."""
    for index, size in enumerate(sizes):
        if natural * (size / TYPE) ** 2 * (leading(size) / LEADING) <= target:
            return index
    return len(sizes) - 1


def playsheet_pdf(sheet: Playsheet, template: str, localized: PlaysheetDocument, lz: Localizer, context: dict[str, Any],
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
    raise DoesNotFit(Problem(
        sheet.page.where or Position(sheet.source.shown),
        f"playsheet '{sheet.id}' ({lz.lang}{edition_note}) overflows its budget of {sheet.page.budget} "
        f"page{'s' if sheet.page.budget > 1 else ''} by {pages - sheet.page.budget} "
        f"(needs {pages} at the minimum type size {sheet.page.min_type}pt)",
        "a higher budget, a smaller min_type, more columns or less content"), lz.lang)


def booklet_pdf(booklet: Booklet, template: str, localized: BookletDocument, lz: Localizer,
                context: dict[str, Any], print_pdf: Printer, margins: Margins) -> dict[str, Rendered]:
    """A booklet that declares a page goal (`pages:`): laid out at its designed type; if it has more pages than
    the goal, at the largest type down to `min_type` (the leading tightening with it) that meets the goal.
    If none does, the designed layout, with a warning saying by how many pages it misses."""
    goal = booklet.pages
    assert goal is not None
    tried: dict[Decimal, Printed] = {}

    def leading(size: Decimal) -> Decimal:
        span = TYPE - goal.min_type
        tight = (TYPE - size) / span if span else Decimal(0)
        return round(LEADING - LEADING_SPAN * tight, 3)

    def layout(size: Decimal) -> Printed:
        if size not in tried:
            aid = {**localized, "type_size": size, "leading": leading(size)}
            tried[size] = print_pdf(render_template(template, lz, {**context, "aid": aid}), booklet.page_size, margins)
        return tried[size]

    natural = layout(TYPE).pages
    target = goal.target(natural)
    sizes = [TYPE - TYPE_STEP / 2 * i for i in range(int((TYPE - goal.min_type) / (TYPE_STEP / 2)) + 1)]
    size = largest_fitting(sizes, lambda s: layout(s).pages <= target,
                           guess=_page_goal_guess(sizes, natural, target, leading))
    chosen = layout(size if size is not None else TYPE)
    rendered = chosen.rendered()
    rendered.renders = len(tried)
    if size is not None:
        if size != TYPE:
            rendered.notes.append(f"type {float(size):g} pt to meet {target} pages ({natural} at {TYPE:g} pt)")
        rendered.fitted = {"": float(size)}
    elif size is None:
        tightest = layout(goal.min_type).pages
        rendered.warnings.append(
            f"{tightest} pages even at the smallest type {goal.min_type:g} pt, {tightest - target} more than its "
            f"goal of {target} ({natural} at {TYPE:g} pt): a smaller min_type, a larger goal or less text")
    return {".pdf": rendered}
