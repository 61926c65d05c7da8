"""A continuous booklet (one flow of rules, no chapter on a page of its own) written in segments, and an edit laid out
again only from the segment where it starts until the layout meets the last build's.

A cold build lays the booklet out whole (pdf.lay_out), then writes it in segments (segments.py: where one begins
is a rule of the content and the layout alone, about every 6 pages; a booklet of fewer than WHOLE_BELOW pages is
written whole, as before). Each segment's pages are written as a PDF of their own (WeasyPrint's `Document.copy`),
a link to another segment's anchor as `aids-part:<id>` and its bookmarks kept aside; join.py joins them and writes
the bookmarks as WeasyPrint writes a whole document's (weasyprint_internals.bookmark_tree).

Each segment is kept in the output folder's `.aids-cache/booklet_parts/` (`flow-<key>`) under the digest of all it
was made from: the booklet's shell (its head, stylesheets and the files they name, what is outside the rules), its
blocks from its first to the one the next segment's first page ends in (that page's content decides where its last
page breaks), WeasyPrint's state where it begins and the running strings then in effect, its first page and page
count and the document's, the page numbers it shows for anchors. With them the last build of each booklet
(`flow-index-<shell>`): its blocks' digests, its segments and where they begin, its anchors' pages.

An edit of the blocks (not of their number, nor of the shell: the contents show the headings' text):
  - the first segment whose blocks changed is laid out again (pagination.Resume) in the booklet's tree cut to it
    (the blocks before it emptied, so that selectors match as before, those AHEAD segments after the edit
    removed), from WeasyPrint's state where it began, until a page begins as a later segment of the last build
    began (the same block, page and state); the segments from there are the last build's;
  - each segment of the last build that shows a page number that moved is laid out again the same way (alone, or
    a run of them at once), until nothing moves;
  - what could make the result differ from a cold build is refused, and the booklet laid out whole instead: no page
    where the layout meets the last one (its page count changed), page numbers moved on more than MOVED of the
    pages, a segment of the last build not in the cache.
The result is the cold build's, byte for byte (tests/render/test_flow.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import join, laid_out, parts
from .pagination import Numbers, Resume
from .rendered import Rendered
from .segments import (
    Segment,
    Start,
    Store,
    anchors_of,
    as_json,
    block_digests,
    block_in,
    from_json,
    key_of,
    rules_of,
    shell_digest,
    starts,
    strings_before,
    tree_path,
    written,
)

WHOLE_BELOW = 24  # pages: a shorter booklet is written whole, as it always was
ROUNDS = 4  # of laying out again the segments that show page numbers that moved, at most
MOVED = 0.6  # of the pages showing page numbers that moved, at most, laid out again (more: the booklet laid out whole)
RUNS = 3  # runs of such segments laid out one by one, at most (more: one layout from the first to the last)
AHEAD = 3  # segments after an edit whose blocks its layout's tree keeps (all of them if it does not meet the last build
# by then)


# --- a booklet laid out --------------------------------------------------------------------------------------

@dataclass
class Flow:
    """What a continuous booklet's layout depends on, found in its tree before it is laid out."""
    page: Any  # WeasyPrint's HTML, parsed
    rules: Any
    path: list[int]
    digests: list[str]
    shell: str
    epoch: int
    store: Store | None


class FlowLayout:
    """A booklet written in segments: its pages and bytes, at once (what render/rendered.Printed asks)."""

    def __init__(self, rendered: Rendered) -> None:
        self._rendered = rendered

    @property
    def pages(self) -> int:
        return self._rendered.pages

    def rendered(self) -> Rendered:
        return self._rendered


def prepare(page: Any, css: str, base: Path, epoch: int) -> Flow | None:
    """A continuous booklet's blocks and shell, before its tree is changed by its layout; None for another."""
    root = page.etree_element
    rules = rules_of(root)
    if rules is None:
        return None
    cache = parts.current_cache()
    store = Store(cache.folder) if cache is not None else None
    return Flow(page, rules, tree_path(root, rules), block_digests(rules, base), shell_digest(
        root, rules, css, base, True, epoch), epoch, store)


def segmented(flow: Flow, layout: Any, start: int = 0, stop: int | None = None,
              first: Start | None = None) -> list[Segment]:
    """The segments of pages [start, stop) of a layout: at the starts it has (see the module's text)."""
    pagination = layout.pagination
    pages = layout.document.pages
    stop = len(pages) if stop is None else stop
    index = {id(e): i for i, e in enumerate(pagination.flow)}  # the blocks of the tree it was laid out from
    blocks = [index.get(id(e)) if e is not None else None for e in pagination.flow_blocks]
    strings = strings_before(pages, start, first.strings if first else {})
    found = starts(pagination.states, pages, start + 1 if first else 0, stop, flow.path, blocks, flow.digests,
                   strings)
    bounds = [first, *found]
    ends = [s.page for s in found] + [stop]
    return [Segment(b.page if b else 0, end - (b.page if b else 0), b, layout=layout) for b, end in zip(bounds, ends)]


def last_blocks(segments: list[Segment], digests: list[str]) -> list[int]:
    """The last block each segment's layout depends on: the last the next segment's first page shows."""
    return [after.start.reach if after.start else len(digests) - 1 for after in segments[1:]] + [len(digests) - 1]


def write(flow: Flow, segments: list[Segment], anchors: dict[str, int], total: int, warnings: list[str],
          laid: int, sizes: Any) -> FlowLayout:
    """The segments keyed, written from their layouts (or taken from the cache: the last build's reused),
    joined; the booklet's index kept."""
    lasts = last_blocks(segments, flow.digests)
    for segment, last in zip(segments, lasts):
        made(flow, segment, last, anchors, total, segment is segments[-1])
    if flow.store:
        flow.store.put_index(flow.shell, flow.digests, total, anchors, segments, lasts, sizes)
    data = join.join([s.data for s in segments], True, outline(segments))
    found = list(dict.fromkeys([*warnings, *(w for s in segments for w in s.warnings)]))
    note = f"written in {len(segments)} segments: {laid} pages laid out"
    return FlowLayout(Rendered(data, total, found, [note], last_page=segments[-1].last_page))


def made(flow: Flow, segment: Segment, last: int, anchors: dict[str, int], total: int, final: bool) -> None:
    """A segment keyed (`last`: the last block its layout depends on), its PDF taken from the cache or written
    from its layout (and kept)."""
    layout = segment.layout
    if layout is not None:
        segment.names = sorted(set().union(
            *(layout.pagination.page_refs[i] for i in range(segment.first, segment.first + segment.pages))))
    segment.refs = {name: anchors[name] for name in segment.names if name in anchors}
    segment.key = key_of(flow.shell, segment, flow.digests, last, total)
    kept = flow.store.get(segment.key) if flow.store else None
    if kept is not None:
        segment.data, segment.bookmarks, segment.warnings = kept.data, kept.bookmarks, kept.warnings
        segment.last_page = kept.last_page
        return
    if layout is None:
        raise Stale(f"segment at page {segment.first + 1} not in the cache")
    written(layout.document, segment, flow.epoch)
    if final:
        segment.last_page = layout.last_page()
    if flow.store:
        flow.store.put(segment)


def outline(segments: list[Segment]) -> list[list[Any]]:
    """Every segment's bookmarks, their pages in the booklet: [page, level, label, x, y, state, height]."""
    return [[segment.first + b[0], *b[1:]] for segment in segments for b in segment.bookmarks]


class Stale(Exception):
    """The last build cannot be reused as it is: the booklet laid out whole instead."""


def lay_out(flow: Flow, html: str, css: str, warnings: list[str], **options: Any) -> Any:
    """The booklet laid out from the last build where it can be (`edit`), else whole; written in segments if it
    has more than one, else the whole layout as it always was (a Layout)."""
    from . import pdf
    last = flow.store.index(flow.shell) if flow.store else None
    why = ""
    if last is not None:
        try:
            return edit(flow, last, html, css, warnings, options)
        except Stale as exc:  # its tree was cut: parsed again
            why = f" ({exc})"
            page = pdf.parsed(html, base=options["base"], allowed=options["allowed"])
            flow = Flow(page, rules_of(page.etree_element), flow.path, flow.digests, flow.shell, flow.epoch,
                        flow.store)
    layout = pdf.lay_out(html, css, page=flow.page, early_warnings=warnings, flow=flow.rules, checks=False,
                         **options)
    segments = segmented(flow, layout)
    if len(segments) < 2 or len(layout.document.pages) < WHOLE_BELOW:
        layout.warnings.extend(laid_out.checks(layout.document))
        return layout
    total = len(layout.document.pages)
    try:
        found = write(flow, segments, anchors_of(layout.document.pages), total, layout.warnings, total,
                      layout.pagination.sizes if layout.pagination else None)
        found.rendered().notes[-1] += why
        return found
    finally:
        pdf.release(layout.fonts)


def edit(flow: Flow, last: dict[str, Any], html: str, css: str, warnings: list[str],
         options: dict[str, Any]) -> FlowLayout:
    """The booklet laid out from the first segment of the last build whose blocks changed, until a page begins
    as one of its segments did; then each other segment that shows a page number that moved, alone; the others
    reused (see the module's text)."""
    from . import pdf
    built = read_last(last, len(flow.digests))
    rebuild = Rebuild(flow, built, html, css, warnings, options, list(built.olds), dict(built.anchors))
    try:
        rebuild.settle(first_run(built, flow.digests))
        found = [s for item in rebuild.segments for s in ([item] if isinstance(item, Segment) else item)]
        warned = list(dict.fromkeys(w for layout in rebuild.layouts for w in layout.warnings)) \
            if rebuild.layouts else list(warnings)
        return write(flow, found, dict(sorted(rebuild.anchors.items())), built.total, warned, rebuild.laid,
                     built.sizes)
    finally:
        for layout in rebuild.layouts:
            pdf.release(layout.fonts)


def first_run(built: Last, digests: list[str]) -> list[tuple[int, int]]:
    """The edit's run of segments to lay out again: (the first whose layout depends on a block that changed, the
    last block that changed); none if no block changed."""
    changed = [i for i, (a, b) in enumerate(zip(built.digests, digests)) if a != b]
    if not changed:
        return []
    return [(next(i for i, block in enumerate(built.lasts) if block >= changed[0]), changed[-1])]


@dataclass
class Rebuild:
    """An edit's layouts as they go: in place of each segment of the last build, itself or those laid out
    instead; the layouts made, the anchors' pages, the pages laid out."""
    flow: Flow
    built: Last
    html: str
    css: str
    warnings: list[str]
    options: dict[str, Any]
    segments: list[Segment | list[Segment]]
    anchors: dict[str, int]
    layouts: list[Any] = field(default_factory=list)
    laid: int = 0

    def settle(self, runs: list[tuple[int, int]]) -> None:
        """Runs of segments laid out again ((the first, the last block whose layout changes), the edit's first),
        then those that show a page number that moved, for ROUNDS at most."""
        before = dict(self.anchors)
        for _ in range(ROUNDS):
            if not runs:
                return
            for first, after in runs:
                self.run(first, after)
            moved = [number for number, item in enumerate(self.segments) if isinstance(item, Segment) and any(
                before.get(name) != self.anchors.get(name) for name in item.names)]
            before = dict(self.anchors)
            runs = grouped(moved, self.built.olds, len(self.flow.digests))
            pages = sum(self.built.olds[number].pages for number in moved)
            if pages > MOVED * self.built.total:
                raise Stale(f"page numbers moved on {pages} pages")
            if len(runs) > RUNS:  # many: one layout from the first to the last
                runs = [(runs[0][0], runs[-1][1])]
        raise Stale("page numbers still moving")

    def run(self, first: int, after: int) -> None:
        """Segment `first` of the last build laid out again until the layout meets the last build's, `after`
        the last block whose layout changes; the segments it reached in its place."""
        olds = self.built.olds
        kept = [i for i, item in enumerate(self.segments) if isinstance(item, Segment)]
        told = self.warnings if not self.layouts else []
        try:
            layout, met = relay(fresh(self.flow, self.html, self.options, self.layouts), self.built, kept, first,
                                after, self.css, told, self.anchors, self.options)
        except Stale:  # the edit reaches further: its tree kept to the end
            layout, met = relay(fresh(self.flow, self.html, self.options, [None]), self.built, kept, first, after,
                                self.css, told, self.anchors, self.options, len(olds))
        self.layouts.append(layout)
        begin, end = olds[first].first, olds[met].first if met < len(olds) else self.built.total
        self.laid += end - begin
        self.anchors = {name: page for name, page in self.anchors.items() if not begin < page <= end}
        self.anchors.update(anchors_of(layout.document.pages[begin:end], begin))
        self.segments[first] = segmented(self.flow, layout, begin, end, olds[first].start)
        for number in range(first + 1, met):
            self.segments[number] = []


@dataclass
class Last:
    """A booklet's last build, as its index says: its blocks' digests, page count, segments (each with the anchors
    it shows page numbers of), the last block each one's layout depends on, its anchors' pages, its first page's
    sizes."""
    digests: list[str]
    total: int
    olds: list[Segment]
    lasts: list[int]
    anchors: dict[str, int]
    sizes: Any


def read_last(found: dict[str, Any], blocks: int) -> Last:
    """The last build of a booklet from its index, if it has its shape (else Stale)."""
    try:
        olds = [Segment(int(record["first"]), int(record["pages"]), start_of(record["start"], blocks),
                        names=[str(n) for n in record["refs"]]) for record in found["segments"]]
        built = Last([str(d) for d in found["digests"]], int(found["total"]), olds,
                     [int(r["last_block"]) for r in found["segments"]],
                     {str(k): int(v) for k, v in dict(found["anchors"]).items()},
                     {str(k): [float(x) for x in v] if v else None for k, v in dict(found["sizes"]).items()})
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise Stale(f"the last build's index unreadable: {exc!r}") from None
    if len(built.digests) != blocks:
        raise Stale("blocks added or removed since the last build")
    if not shaped(built):
        raise Stale("the last build's index unreadable")
    return built


def start_of(record: Any, blocks: int) -> Start | None:
    """Where a segment of the last build began, from its record (None: the first segment)."""
    if record is None:
        return None
    strings = {str(k): str(v) for k, v in dict(record["strings"]).items()}
    start = Start(int(record["page"]), int(record["block"]), record["state"], strings, int(record["reach"]))
    from_json(start.state, 1)
    if not 0 <= start.block < blocks:
        raise ValueError(start.block)
    return start


def shaped(built: Last) -> bool:
    """Whether the last build's segments are one after another from the first page to the last, each of at least
    a page, each but the first with where it began, each with the last block its layout depends on."""
    olds = built.olds
    if not olds or olds[0].start is not None or olds[0].first != 0 or len(built.lasts) != len(olds):
        return False
    return all(a.first + a.pages == b.first and a.pages >= 1 and b.start is not None for a, b in zip(olds, olds[1:])) \
        and olds[-1].pages >= 1 and sum(s.pages for s in olds) == built.total


def grouped(numbers: list[int], olds: list[Segment], blocks: int) -> list[tuple[int, int]]:
    """Segments to lay out again as runs of consecutive ones: (the first, the block before the next segment's)."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and runs[-1][-1] == number - 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    found = []
    for run in runs:
        after = olds[run[-1] + 1].start if run[-1] + 1 < len(olds) else None
        found.append((run[0], after.block - 1 if after is not None else blocks))
    return found


def fresh(flow: Flow, html: str, options: dict[str, Any], layouts: list[Any]) -> Flow:
    """`flow` with its tree as parsed (the first layout's) or parsed again (after a layout cut it)."""
    from . import pdf
    if not layouts:
        return flow
    page = pdf.parsed(html, base=options["base"], allowed=options["allowed"])
    return replace(flow, page=page, rules=rules_of(page.etree_element))


def relay(flow: Flow, built: Last, kept: list[int], first: int, changed: int, css: str, warnings: list[str],
          anchors: dict[str, int], options: dict[str, Any], reach: int = AHEAD) -> tuple[Any, int]:
    """Segment `first` of the last build laid out again, in `flow`'s tree cut to it, from where it began until a
    page begins as a later segment of the last build began (one still `kept`, after block `changed`, the last
    that changed), or the booklet ends on its last page: the layout and that segment's index (len(olds): the
    end)."""
    from . import pdf
    olds, total = built.olds, built.total
    begin = olds[first]
    after = [s.start.reach for s in olds[first + 1:] if s.start is not None and s.start.block > changed]
    last = len(flow.digests) - 1
    keep = min(last, after[reach - 1] + 2) if len(after) >= reach else last
    meeting = Meeting(olds, first, kept, changed, keep, flow.path)
    cut(flow.rules, begin.start.block if begin.start else 0, keep)
    resume = Resume(begin.first, from_json(begin.start.state, total) if begin.start else None, built.sizes,
                    begin.start.strings if begin.start else {}, total, meeting.stop)
    layout = pdf.lay_out("", css, page=flow.page, early_warnings=warnings, flow=flow.rules, checks=False,
                         resume=resume, numbers=Numbers(external=anchors), **options)
    states = layout.pagination.states if layout.pagination is not None else []
    if not meeting.met and keep == last and len(layout.document.pages) == total and states and states[-1][0] is None:
        meeting.met.append(len(olds))  # laid out to its end, on as many pages as before
    if not meeting.met:
        pdf.release(layout.fonts)
        raise Stale("the layout did not meet the last build's")
    return layout, meeting.met[-1]


def cut(rules: Any, start: int, keep: int) -> None:
    """The rules' tree cut for a layout from block `start`: the blocks before it emptied (never laid out, but
    matched by selectors as before), those after block `keep` removed."""
    for number, element in enumerate(list(rules)):
        if number < start:
            for child in list(element):
                element.remove(child)
            element.text = None
        elif number > keep:
            rules.remove(element)


@dataclass
class Meeting:
    """Where a layout from segment `first` of the last build meets it: a page that begins as a later segment
    began (one still `kept`, after block `changed`, before block `keep`, the last its tree keeps)."""
    olds: list[Segment]
    first: int
    kept: list[int]
    changed: int
    keep: int
    path: list[int]
    met: list[int] = field(default_factory=list)  # the segment it met, once it has

    def stop(self, index: int, state: tuple[Any, ...]) -> bool:
        """Whether page `index`, which would begin in `state`, is not to be made: it begins as a segment of the
        last build began, or beyond the blocks the tree keeps (they would show the blocks it cut)."""
        found = as_json(state)
        for number, segment in enumerate(self.olds[self.first + 1:], start=self.first + 1):
            start = segment.start
            if segment.first == index and start is not None and number in self.kept and found == start.state \
                    and start.block > self.changed and start.reach < self.keep:
                self.met.append(number)
                return True
        inside = block_in(found, self.path)
        return inside is not None and inside >= self.keep - 1
