"""A document's pages laid out once: page references and page-end hyphens without laying the whole document
out again.

WeasyPrint's `target-counter()` lays a page out again each time a number it shows becomes known or changes,
and a number's width moves the text after it: a 300-page booklet with cross-references cost 2.7 page layouts a
page (benchmarks/booklet.py). Here, instead:

  - every internal link gets a `<span class="page-number">` in WeasyPrint's tree (not in the HTML page), shown
    where the stylesheet shows it (a booklet's contents and references), holding as many placeholder digits as
    its target's page is expected to have (counted from the pages already laid out while the layout runs);
  - when the layout is done, the pages of every anchor are known: a page whose placeholders have the right
    number of digits is kept, and its numbers are set into the laid-out text (digits of one width, so nothing
    moves); a page where one had too few or too many digits is laid out again with the right count, through
    WeasyPrint's own re-pagination, which goes on only as far as the page breaks change;
  - a page whose last line ends in a word hyphenated there (the reader would turn the page mid-word) is laid out
    again at once, with that paragraph unhyphenated, before the next page is made (so that the pages after it
    are made once); a paragraph that began on an earlier page is set again the same way as a wrong number, from
    the page where it begins, once the layout is done;
  - such a decision is taken again on the final layout, so that it is the same whatever was guessed first (a
    build from the cache, render/flow.py, relies on it): a paragraph set unhyphenated on an earlier layout is
    hyphenated again and tried when a page it begins on is made again (WeasyPrint makes a page again only when
    where it begins or what it shows changed), and once a layout is done, when a later page of it was made
    again or its page end moved away.

A part of a longer document (render/parts.py) is laid out the same way, told its `Numbers`: the number of its
first page (its pages left or right by it), the document's page count (`counter(pages)` in a margin) and the
pages of the anchors in other parts it shows a number for (each such link a `aids-part:<id>` link until the
parts are joined). When its layout is done, `settle` tells the other parts what it found and answers the
numbers they agree on: the pages whose placeholders now have the wrong number of digits are laid out again, as
above. A part is always laid out on pages that begin right-hand; one whose first page is even is turned to begin
left-hand once its numbers are final (weasyprint_internals.turn_pages): every layout of it the same, whatever was
guessed first. What this reaches of WeasyPrint's layout (its page making, a layout's state, the boxes' types) is
reached through weasyprint_internals.
"""
from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from . import weasyprint_internals as internals

CLASS = "page-number"
CHARACTERS_A_PAGE = 3000  # text of an A4 page of rules, until pages laid out tell better
PASSES = 6  # layouts, counting the first; WeasyPrint stops at 8
DIGITS = re.compile(r"[0-9]+")
EXTERNAL = "aids-part:"  # a link to an anchor in another part of the document, until the parts are joined


@dataclass
class Numbers:
    """What a part of a document is told of the others: the number of its first page, the document's page
    count (None: its own) and the page of each anchor of another part it shows a number for."""
    start: int = 1
    total: int | None = None
    external: dict[str, int] = field(default_factory=dict)


@dataclass
class Resume:
    """A layout begun at page `start` of a document laid out before, from WeasyPrint's state there (`state`:
    where the content resumes, the next page's break and side, the page counters), with the running strings then
    in effect (`strings`) and the document's page count (`total`), made until `stop(index, state)` says the page
    `index`, which would begin in `state`, is not to be made (render/flow.py). The pages before `start` are blank
    stand-ins, never written."""
    start: int
    state: tuple[Any, ...] | None
    sizes: Any  # of its first page (weasyprint_internals.page_sizes)
    strings: dict[str, str]
    total: int
    stop: Callable[[int, tuple[Any, ...]], bool]


# a part's layout done: (its page count, the page in it of each of its anchors), or None when it found nothing new
# since it last said -> the numbers all parts agree on now, or None when they are final
Settle = Callable[[int, dict[str, int] | None], Numbers | None]


_active = threading.local()  # the Pagination of the document this thread is rendering, if any


def _current() -> Pagination | None:
    """The Pagination of the document this thread renders, if any."""
    return getattr(_active, "pagination", None)


def digits(page: int) -> int:
    return len(str(max(page, 1)))


class Pagination:
    """The page numbers of one document (WeasyPrint's tree of its HTML) and the state of its layout."""

    def __init__(self, root: Any, characters_a_page: int | None = None, numbers: Numbers | None = None,
                 settle: Settle | None = None, resume: Resume | None = None, flow: Any = None) -> None:
        self.numbers, self.settle, self.resume = numbers or Numbers(), settle, resume
        self.flow = flow  # the element whose children are the blocks a continuous document is cut at (flow.py)
        self.flow_blocks: list[Any] = []  # the element of each of its boxes' children (None: an anonymous box)
        self.states: list[tuple[Any, ...]] = []  # page index -> WeasyPrint's state where it began, once laid out
        self.page_refs: list[set[str]] = []  # page index -> the anchors whose page numbers it shows
        self.sizes: Any = None  # of its first page, which viewport units are of
        self.characters_a_page = characters_a_page or CHARACTERS_A_PAGE
        self.offset: dict[Any, int] = {}  # element -> characters of text before it: where it may fall
        ids: dict[str, Any] = {}
        count = 0
        for element in root.iter():
            self.offset[element] = count
            count += len(element.text or "") + len(element.tail or "")
            if element.get("id"):
                ids.setdefault(element.get("id"), element)
        self.target: dict[Any, str] = {}  # span -> id of the element whose page it shows
        self.ids = ids
        for link in root.iter("a"):
            self.add_number(link)
        self.passes = 0
        self.root_box: Any = None
        self.texts: dict[Any, list[Any]] = {}  # span -> its text boxes in the box tree WeasyPrint lays out
        self.boxes: dict[Any, Any] = {}  # element -> its (first) box in that tree
        self.on_page: list[list[Any]] = []  # page index -> the laid-out text boxes of spans on it
        self.first_last: list[tuple[Any, Any]] = []  # page index -> its first and last line boxes
        self.laid: list[Any] = []  # the pages laid out, in order
        self.pending: dict[Any, None] = {}  # spans shown and not laid out yet, in the order of the page
        self.known: dict[str, int] = {}  # anchor -> its page, as the first layout goes
        self.unhyphenated: set[Any] = set()
        self.styles: dict[Any, list[tuple[Any, Any]]] = {}  # paragraph unhyphenated -> its text boxes' styles before
        self.made: list[int] = []  # page index -> the layout (0: the first) that last made it
        # paragraph unhyphenated -> what it was decided on: (its first page, the layout of its pages, the page it
        # ended in a hyphen); a page not made again since began as it did then, and was laid out the same
        self.decided: dict[Any, tuple[int, int, int]] = {}
        self.line_elements: list[set[Any]] = []  # page index -> the elements of its lines
        self.unsettled = 0  # pages still moving after PASSES layouts
        self.unprinted: set[str] = set()  # anchors a page number is shown for, never laid out

    def add_number(self, link: Any) -> None:
        """A span for the page number of a link's target, if it is an anchor of the document (or of another part
        of it), its placeholder as many digits as the page it is guessed on (or told, laid out elsewhere)."""
        href = link.get("href") or ""
        target = unquote(href[1:]) if href.startswith("#") else None
        if target is None or (target not in self.ids and target not in self.numbers.external):
            return
        told = self.numbers.external.get(target)
        span = link.makeelement("span", {"class": CLASS})
        span.text = "0" * digits(told if told is not None and (self.resume is not None or target not in self.ids)
                                 else self.estimate(self.ids[target], 1, 0, 0) + self.numbers.start - 1)
        link.append(span)
        self.offset[span] = self.offset[link]
        self.target[span] = target
        if target not in self.ids:
            link.set("href", EXTERNAL + target)

    def estimate(self, target: Any, page: int, offset: int, pages: int) -> int:
        """The page `target` (an element) will probably fall on, while the layout is at `offset` on `page`
        after `pages` complete pages."""
        rate = offset / pages if pages and offset > self.characters_a_page else self.characters_a_page
        return max(page, page + round((self.offset[target] - offset) / max(rate, 1)))

    def margin_numbers(self) -> tuple[int, int | None] | None:
        """For a part of a document: the number of its first page and the document's page count (None: its own),
        which its margins show; None for a whole document."""
        if self.resume is not None:
            return 1, self.resume.total
        return (self.numbers.start, self.numbers.total) if self.settle is not None else None

    @contextmanager
    def installed(self) -> Iterator[None]:
        """WeasyPrint's pagination of what this thread renders goes through `paginate` below."""
        internals.hook_page_making(_current)
        _active.pagination = self
        try:
            yield
        finally:
            _active.pagination = None
            self.root_box, self.texts, self.boxes, self.on_page, self.first_last = None, {}, {}, [], []  # freed
            self.line_elements, self.styles = [], {}
            self.pending, self.known, self.laid = {}, {}, []

    def paginate(self, original: Any, context: Any, root_box: Any, html: Any, pages: list[Any]) -> Iterator[Any]:
        if self.root_box is None:
            self.index_boxes(root_box)
        count = 0
        if self.resume is not None:
            resume = self.resume
            original = functools.partial(internals.resumed_pages, start=resume.start, state=resume.state,
                                         sizes=resume.sizes, stop=resume.stop)
        for index, page in enumerate(original(context, root_box, html, pages)):
            if index >= len(pages) or page is not pages[index]:
                self.read(index, page)
                self.made[len(self.made):] = [self.passes] * (index + 1 - len(self.made))
                self.made[index] = self.passes
            del self.laid[index:]
            self.laid.append(page)
            if self.passes == 0:
                self.guess(context, index)
            count = index + 1
            yield page
        self.passes += 1
        del self.on_page[count:], self.first_last[count:]
        self.laid_out(context, html, count)

    def laid_out(self, context: Any, html: Any, count: int) -> None:
        """A layout done, of `count` pages: the pages to lay out again marked, or, when none is, its numbers set
        and what the layout found kept."""
        again = self.check(context, count)
        if not again and self.passes < PASSES:
            again = self.stale_unhyphenated(count)
        if self.settle is not None and (not again or self.passes >= PASSES):
            again = self.agree(context, count)
        if again and self.passes < PASSES:
            for index in again:
                internals.lay_out_again(context, index)
        else:
            self.unsettled = len(again)
            if self.numbers.start % 2 == 0:  # a part that begins on a left-hand page: laid out on right-hand ones
                internals.turn_pages(context, html, self.laid)
            self.patch(context, count)
            self.states = internals.page_states(context)
            self.sizes = internals.page_sizes(context)
            self.page_refs = [{self.target[box.element] for box in found} for found in self.on_page]
            if self.resume is not None:
                internals.running_strings(context, self.resume.start, self.resume.strings)

    def index_boxes(self, root_box: Any) -> None:
        """The document's box tree, once: its page numbers' text boxes and each element's box, by element."""
        self.root_box = root_box
        for box in root_box.descendants():
            if internals.is_text(box):
                if self.is_number(box):
                    self.texts.setdefault(box.element, []).append(box)
            else:
                self.boxes.setdefault(box.element, box)
        if self.flow is not None and self.flow in self.boxes:
            own = set(self.flow)
            self.flow_blocks = [child.element if child.element in own else None
                                for child in self.boxes[self.flow].children]
        self.pending = dict.fromkeys(span for span in self.target if span in self.texts)

    def agree(self, context: Any, count: int) -> set[int]:
        """The numbers of the other parts, until all parts agree on them: the pages to lay out again for them,
        or none once they are final."""
        assert self.settle is not None
        found: dict[str, int] | None = self.anchors(context, count)
        while True:
            numbers = self.settle(count, found)
            if numbers is None:
                return set()
            found, self.numbers = None, numbers
            again = self.check(context, count)
            if again and self.passes < PASSES:
                return again

    def page(self, target: str, pages: dict[str, int]) -> int | None:
        """The page number of anchor `target`, from its page in this part's layout (`pages`) or another part's."""
        if target in pages:
            return pages[target] + self.numbers.start - 1
        return self.numbers.external.get(target)

    def is_number(self, box: Any) -> bool:
        """Whether a text box is a span's number (not the ", p. " of its ::before or ::after)."""
        return box.element in self.target and "::" not in box.element_tag

    def read(self, index: int, page: Any) -> None:
        """The spans' text boxes laid out on a page, and its first and last lines (a line in a line, as in an
        inline block, is part of that line)."""
        while len(self.on_page) <= index:
            self.on_page.append([])
            self.first_last.append((None, None))
        while len(self.line_elements) <= index:
            self.line_elements.append(set())
        found: list[Any] = []
        lines: list[Any] = []

        def walk(box: Any, in_line: bool) -> None:
            if internals.is_text(box):
                if self.is_number(box):
                    found.append(box)
                return
            if internals.is_line(box) and not in_line:
                lines.append(box)
                in_line = True
            for child in getattr(box, "children", ()):
                walk(child, in_line)

        walk(page, False)
        for box in found:
            self.pending.pop(box.element, None)
        self.on_page[index] = found
        self.first_last[index] = (lines[0], lines[-1]) if lines else (None, None)
        self.line_elements[index] = {line.element for line in lines}

    def anchors(self, context: Any, count: int) -> dict[str, int]:
        """Each anchor's page (1-based) as laid out: the first page a box of it is on."""
        pages: dict[str, int] = {}
        for index in range(count):
            for anchor in internals.anchors_on(context, index):
                pages.setdefault(anchor, index + 1)
        return pages

    def guess(self, context: Any, index: int) -> None:
        """While the first layout runs, after each page: the placeholders of the spans not laid out yet, as many
        digits as their target's page has (laid out already) or probably will have (at the rate so far)."""
        anchors = [a for a in internals.anchors_on(context, index) if a in self.ids]
        for anchor in anchors:
            self.known.setdefault(anchor, index + 1)
        if index and not anchors:
            return
        offset = max((self.offset[self.ids[a]] for a in anchors), default=0)
        for span in self.pending:
            target = self.target[span]
            if target not in self.ids:
                continue
            page = self.known.get(target) or (self.numbers.external.get(target) if self.resume is not None else None) \
                or self.estimate(self.ids[target], index + 1, offset, index + 1)
            self.set_placeholder(span, digits(page + self.numbers.start - 1))

    def set_placeholder(self, span: Any, count: int) -> None:
        for box in self.texts.get(span, ()):
            if len(box.text) != count:
                box.text = "0" * count

    def check(self, context: Any, count: int) -> set[int]:
        """The pages to lay out again: a placeholder with the wrong number of digits, a word hyphenated across
        the page's end."""
        pages = self.anchors(context, count)
        again = set()
        for index, found in enumerate(self.on_page):
            for box in found:
                page = self.page(self.target[box.element], pages)
                if page is not None and DIGITS.fullmatch(box.text) and len(box.text) != digits(page):
                    self.set_placeholder(box.element, digits(page))
                    again.add(index)
        for index in range(count - 1):
            paragraph = self.hyphenated_at_end(index)
            if paragraph is not None and paragraph not in self.unhyphenated:
                start = index
                while start > 0 and self.first_last[start][0] is not None \
                        and self.first_last[start][0].element is paragraph:
                    start -= 1
                self.unhyphenate(paragraph, (start, self.passes, index))
                again.update(range(start, index + 1))  # the paragraph set again, from where it begins
        return again

    def made_again(self, index: int, page: Any) -> bool:
        """Whether page `index`, just made, is to be made again at once: a paragraph that begins on it was set
        unhyphenated on an earlier layout, which has changed since, as the page is made again (hyphenated again,
        to be decided on this layout); or its last line ends in a word hyphenated there, in a paragraph that begins
        on it (set unhyphenated now). One that began on an earlier page, made already, waits for the end of the
        layout (`check`)."""
        self.read(index, page)
        first = self.first_last[index][0]
        begun = first.element if first is not None else None
        stale = sorted((p for p in self.line_elements[index] & self.unhyphenated
                        if p is not begun and self.decided[p][1] < self.passes), key=lambda p: self.offset.get(p, 0))
        for paragraph in stale:
            self.hyphenate(paragraph)
        if stale:
            return True
        paragraph = self.hyphenated_at_end(index)
        if paragraph is None or paragraph in self.unhyphenated or paragraph is begun:
            return False
        self.unhyphenate(paragraph, (index, self.passes, index))
        return True

    def hyphenated_at_end(self, index: int) -> Any:
        """The element whose line ends the page, if that line ends in a word hyphenated there (a hyphen the
        text has not)."""
        last = self.first_last[index][1]
        if last is None or last.element is None:
            return None
        words = "".join(box.text for box in last.descendants() if internals.is_text(box)).split()
        if words and words[-1].endswith("-") and words[-1] not in "".join(last.element.itertext()):
            return last.element
        return None

    def unhyphenate(self, paragraph: Any, decided: tuple[int, int, int]) -> None:
        """`hyphens: manual` on every text of `paragraph` in the box tree (each text box's style a copy, since
        siblings share theirs), decided on the layouts `decided` (see `self.decided`)."""
        self.unhyphenated.add(paragraph)
        self.decided[paragraph] = decided
        saved = self.styles.setdefault(paragraph, [])
        for text in self.boxes[paragraph].descendants() if paragraph in self.boxes else ():
            if internals.is_text(text):
                saved.append((text, text.style))
                internals.restyle(text, hyphens="manual")

    def hyphenate(self, paragraph: Any) -> None:
        """A paragraph unhyphenated hyphenated again: its text boxes' styles as they were."""
        for text, style in self.styles.pop(paragraph, []):
            text.style = style
        self.unhyphenated.discard(paragraph)

    def stale_unhyphenated(self, count: int) -> set[int]:
        """Paragraphs set unhyphenated on a layout that has changed since (a page of theirs made again later, other
        than by their own unhyphenation: `made_again` sees those that begin on it), or whose page end has moved away:
        hyphenated again, so that the final layout is the one a layout with the final page breaks before them
        makes, whatever the layouts before it were; the pages they begin on, to lay out again (where a page of
        theirs ends in a hyphen again, they are unhyphenated again, decided on that layout)."""
        ending = {last.element for _, last in self.first_last[:count] if last is not None}
        again = set()
        for paragraph in sorted(self.unhyphenated, key=lambda p: self.offset.get(p, 0)):
            first_page, during, end = self.decided[paragraph]
            changed = any(made > during for made in self.made[first_page:end + 1])
            if paragraph in ending and not changed:
                continue
            first = next((i for i, found in enumerate(self.line_elements[:count]) if paragraph in found), None)
            if first is None:
                continue
            self.hyphenate(paragraph)
            again.add(first)
        return again

    def patch(self, context: Any, count: int) -> None:
        """Every page number into the laid-out text: as many digits as the placeholder, so no box moves."""
        pages = self.anchors(context, count)
        for found in self.on_page:
            for box in found:
                page = self.page(self.target[box.element], pages)
                if page is None:
                    self.unprinted.add(self.target[box.element])
                elif DIGITS.fullmatch(box.text):
                    internals.set_laid_out_text(box, str(page))
