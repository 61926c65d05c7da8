"""The part of weasyprint_internals that lays a document out from a page on, from WeasyPrint's state there, and
reads what a laid-out page carries on to the next (render/flow.py): WeasyPrint's own page loop begun at another
page, its pages before that blank stand-ins; its state at each page's start; the running strings; its tree of
bookmarks from pages written apart."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def page_states(context: Any) -> list[tuple[Any, ...]]:
    """WeasyPrint's state at the start of each page of a finished layout, and after its last: where the content
    resumes (its skip stack), the next page's break and page name, whether it is right-hand, the page counters."""
    return [tuple(entry[:4]) for entry in context.page_maker]


def fresh_remake_state() -> dict[str, Any]:
    return {"content_changed": False, "pages_wanted": False, "anchors": [], "content_lookups": []}


def page_sizes(context: Any) -> Any:
    """The sizes of the first page of a layout (its box and its area), which viewport units are of."""
    return {name: list(size) if size else None for name, size in context.style_for.initial_page_sizes.items()}


def resumed_pages(context: Any, root_box: Any, html: Any, pages: list[Any], *, start: int,
                  state: tuple[Any, ...] | None, sizes: Any, stop: Callable[[int, tuple[Any, ...]], bool]
                  ) -> Iterator[Any]:
    """WeasyPrint's make_all_pages begun at page `start`, from its `state` there (page_states) and the sizes of its
    first page (page_sizes), the pages before it blank stand-ins (never laid out, never written), until the content
    ends or `stop(index, state)` says page `index` is not to be made: WeasyPrint's own loop (layout/page.py,
    make_all_pages), from another first page."""
    import weasyprint.layout.page as page_module
    if start:
        yield from _stand_ins(context, root_box, html, pages, start, state, sizes)
    context.rendered_notes = []
    index = start
    while True:
        remake_state = context.page_maker[index][-1]
        if len(pages) <= index or remake_state["content_changed"] or remake_state["pages_wanted"]:
            remake_state.update(fresh_remake_state())
            page, resume_at = page_module.remake_page(index, context, root_box, html)
        else:
            page, resume_at = pages[index], context.page_maker[index + 1][0]
        yield page
        index += 1
        if resume_at is None or stop(index, tuple(context.page_maker[index][:4])):
            context.page_maker = context.page_maker[:index + 1]
            context.page_maker[index][-1].update(content_changed=False, pages_wanted=False)  # not a page to make
            context.broken_out_of_flow.clear()
            context.reported_footnotes.clear()
            return


def _stand_ins(context: Any, root_box: Any, html: Any, pages: list[Any], start: int, state: tuple[Any, ...] | None,
              sizes: Any) -> Iterator[Any]:
    """The pages before page `start` of a resumed layout, blank stand-ins (or those of its last layout), and
    WeasyPrint's page_maker made to begin page `start` in `state` (its first layout), with the sizes of the
    document's first page."""
    import copy
    if len(context.page_maker) == 1:
        resume_at, next_page, right_page, page_state = state  # type: ignore[misc]
        first = context.page_maker[0]
        context.page_maker = [first, *((None, next_page, right_page, copy.deepcopy(page_state), fresh_remake_state())
                                       for _ in range(start - 1)),
                              (copy.deepcopy(resume_at), dict(next_page), right_page, copy.deepcopy(page_state),
                               fresh_remake_state())]
    context.rendered_notes = []  # as make_all_pages begins, for the stand-in and again for the pages
    stand_in = _blank_page(context, root_box, html) if len(pages) < start else None
    context.style_for.initial_page_sizes.update({name: tuple(size) if size else None for name, size in sizes.items()})
    for index in range(start):
        yield pages[index] if stand_in is None else stand_in.copy_with_children(list(stand_in.children))


def _blank_page(context: Any, root_box: Any, html: Any) -> Any:
    """A blank page (no content, no margin boxes: `is_stand_in`), standing in for a page not laid out."""
    from weasyprint.layout.page import PageType, make_page, set_page_type_computed_styles
    kind = PageType("right", True, "", 0, ())
    set_page_type_computed_styles(kind, html, context.style_for)
    state: tuple[Any, ...] = ([0], {"pages": [0]}, [{"pages"}], [])
    page = make_page(context, root_box, kind, None, 1, state)[0]
    page.aids_stand_in = True
    return page


def is_stand_in(page: Any) -> bool:
    return getattr(page, "aids_stand_in", False)


def running_strings(context: Any, start: int, strings: dict[str, str]) -> None:
    """The running strings (string-set) in effect before page `start` of a resumed layout, set on the page before
    it (its stand-in)."""
    for name, value in strings.items():
        context.string_set[name][start].append(value)


def strings_set(page: Any) -> list[tuple[str, str]]:
    """The (name, value) of every running string a laid-out page sets, in order (as layout_document collects
    them)."""
    found: list[tuple[str, str]] = []
    for child in page._page_box.descendants():
        sets = child.string_set
        if sets and sets != "none":
            found.extend((name, text) for name, text in sets)
    return found


def bookmark_tree(bookmarks: list[list[Any]]) -> list[Any]:
    """WeasyPrint's tree of bookmarks (Document.make_bookmark_tree, its PDF's coordinates) of `bookmarks`:
    [page, level, label, x, y, state, page height], in the pages' order."""
    from types import SimpleNamespace

    from weasyprint.anchors import make_page_bookmark_tree
    from weasyprint.matrix import Matrix
    root: list[Any] = []
    skipped: list[int] = []
    last_by_depth = [root]
    previous = 0
    scale = 0.75  # WeasyPrint's own (a CSS px in points, zoom 1)
    for number in sorted({b[0] for b in bookmarks}):
        on_page = [b for b in bookmarks if b[0] == number]
        page = SimpleNamespace(bookmarks=[(b[1], b[2], (b[3], b[4]), b[5]) for b in on_page])
        matrix = Matrix(a=scale, d=-scale, f=on_page[0][6] * scale)
        previous = make_page_bookmark_tree(page, skipped, last_by_depth, previous, number, matrix)
    return root


def has_footnotes(page: Any) -> bool:
    """Whether a laid-out page prints footnotes."""
    from weasyprint.formatting_structure import boxes
    return any(isinstance(child, boxes.FootnoteAreaBox) and child.children for child in page._page_box.children)
