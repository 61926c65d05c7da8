"""Everything aids uses of WeasyPrint, and of pydyf (the PDF writer it writes with), below their public API
(`weasyprint.HTML`, `CSS`, `Document`, `URLFetcher` and their documented options), in one package (this module,
and resuming.py: a layout begun at a page of a document laid out before): the hooks it
installs once per process, and the internal structures it reads and sets, each behind a function named for what
aids does with it. tests/render/test_weasyprint_internals.py pins each against the release it was written for;
no other module of aids imports a WeasyPrint submodule (tests/test_architecture.py checks it).

What the other modules still read of a laid-out box is its geometry and content (`children`, `element`,
`element_tag`, `text`, `position_y`, `height`, ...), as `Page`s hand them over; their types, their styles and the
state of a layout are read here."""
from __future__ import annotations

import functools
import hashlib
import inspect
from collections.abc import Callable, Iterable, Iterator
from math import inf
from pathlib import Path
from typing import Any

from ...errors import AidsError
from ...folder import Folder
from .resuming import (  # noqa: F401
    bookmark_tree,
    has_footnotes,
    is_stand_in,
    page_sizes,
    page_states,
    resumed_pages,
    running_strings,
    strings_set,
)

FOOTNOTE_TOLERANCE = 1e-6  # px: far below anything drawn (a point is 1.33 px), far above a float's rounding


# --- boxes and layouts ---------------------------------------------------------------------------

def page_box(page: Any) -> Any:
    """The laid-out page box of a page of a rendered `Document` (the root of its boxes)."""
    return page._page_box


def raster_images_placed(document: Any) -> Iterator[tuple[Any, Any]]:
    """(box, RasterImage) of every raster image a box of the laid-out `document` draws (its `replacement`: an
    <img>, never a background), page by page, in the boxes' order."""
    from weasyprint.images import RasterImage

    def descendants(box: Any) -> Iterator[Any]:
        for child in getattr(box, "children", ()):
            yield child
            yield from descendants(child)
    for page in document.pages:
        for box in descendants(page_box(page)):
            image = getattr(box, "replacement", None)
            if isinstance(image, RasterImage) and image.width > 0 and image.height > 0:
                yield box, image


def raster_image_bytes(image: Any) -> bytes:
    """The bytes a RasterImage was read from."""
    return image.image_data.data


def raster_image_like(image: Any, pillow_image: Any, data: bytes) -> Any:
    """A RasterImage of other pixels (`pillow_image`, encoded as `data`) in place of `image`: its id and cache."""
    from weasyprint import DEFAULT_OPTIONS
    from weasyprint.images import RasterImage
    options = {**DEFAULT_OPTIONS, "jpeg_quality": image._jpeg_quality, "dpi": image._dpi,
               "optimize_images": image.optimize}  # as the image was read
    return RasterImage(pillow_image, image.id, data, None, image._cache, "none", options)


def replace_raster_image(box: Any, image: Any) -> None:
    """The box draws `image` from now on."""
    box.replacement = image


def font_configuration() -> Any:
    """A new FontConfiguration: the fonts of one document (its @font-face rules), copied to a folder of its own."""
    from weasyprint.text.fonts import FontConfiguration
    return FontConfiguration()


def remove_font_copies(fonts: Any) -> None:
    """Remove the copies of the fonts WeasyPrint made for one document (6.5 MB of the package's in a folder
    `weasyprint-*` of the system's temporary folder). Its FontConfiguration removes them only when it is
    garbage-collected, which never happens in a worker that ends with `os._exit` (the pool's and the booklet
    parts'): they filled the disk, a document at a time."""
    folder = getattr(fonts, "_folder", None)
    if folder:
        fonts._folder = None
        try:
            Folder(Path(folder).parent).remove(Path(folder).name)
        except (OSError, AidsError):
            pass  # not ours to fail a build for: the system's temporary folder


def is_text(box: Any) -> bool:
    from weasyprint.formatting_structure import boxes
    return isinstance(box, boxes.TextBox)


def is_line(box: Any) -> bool:
    from weasyprint.formatting_structure import boxes
    return isinstance(box, boxes.LineBox)


def is_margin(box: Any) -> bool:
    """A box of a page's margin (a running head, a footer)."""
    from weasyprint.formatting_structure import boxes
    return isinstance(box, boxes.MarginBox)


def is_flex(box: Any) -> bool:
    """A block-level flex box (not an inline one)."""
    from weasyprint.formatting_structure import boxes
    return isinstance(box, boxes.FlexBox)


def set_laid_out_text(box: Any, text: str) -> None:
    """A text box's text changed once laid out, as many characters as before, so that nothing moves: its Pango
    layout, which it is drawn from, a copy of its own with the same text (WeasyPrint sets it again)."""
    import copy
    box.text = text
    box.pango_layout = copy.copy(box.pango_layout)
    box.pango_layout.text = text


def restyle(box: Any, **values: Any) -> None:
    """Computed `values` set on `box` alone (its style a copy: siblings share theirs), e.g. hyphens="manual"."""
    box.style = box.style.copy()
    for name, value in values.items():
        box.style[name] = value


def anchors_on(context: Any, index: int) -> Iterable[str]:
    """The anchors page `index` of a layout in progress holds (its remake state)."""
    return context.page_maker[index][-1].get("anchors", ())


def lay_out_again(context: Any, index: int) -> None:
    """Page `index` of a layout in progress marked for WeasyPrint's re-pagination to lay out again."""
    context.page_maker[index][-1]["content_changed"] = True


def computed_styles(document: Any, stylesheets: list[Any]) -> Callable[..., Any]:
    """WeasyPrint's cascade of an `HTML` with user `stylesheets`: style_for(element, pseudo=None), a computed style
    (font_family, font_weight, display, content ...) or None."""
    from weasyprint.css import get_all_computed_styles
    return get_all_computed_styles(document, user_stylesheets=stylesheets)


def turn_pages(context: Any, html: Any, pages: list[Any]) -> None:
    """Every laid-out page of `pages` to the other side (right-hand to left-hand and back): a part of a booklet
    (parts.py) is laid out as if its first page were right-hand, which side it begins on known only once the parts
    before it are. Facing pages have the same page area on both sides, only the inner and outer margins swapped,
    so a page's boxes are the same on either side, moved across by the difference: each page gets the other
    side's page type, style and margins, and its boxes are moved. Its margin boxes (running heads, the page's
    footer) are made afterwards by WeasyPrint, for the side it now is."""
    from weasyprint.formatting_structure import boxes
    from weasyprint.layout.page import page_height, page_width, set_page_type_computed_styles
    from weasyprint.layout.percent import resolve_percentages
    for page in pages:
        kind = page.page_type._replace(side="left" if page.page_type.side == "right" else "right")
        set_page_type_computed_styles(kind, html, context.style_for)
        style = context.style_for(kind)
        style["overflow"] = page.style["overflow"]
        other = boxes.PageBox(kind, style)
        resolve_percentages(other, style["size"])
        other.position_x = other.position_y = 0
        page_width(other, context, style["size"][0])
        page_height(other, context, style["size"][1])
        if (other.width, other.height, other.content_box_y()) != (page.width, page.height, page.content_box_y()):
            raise ValueError("the facing pages of a booklet in parts differ in more than their side margins")
        dx = other.content_box_x() - page.content_box_x()
        for child in page.children:
            child.translate(dx, 0)
        for name in ("margin_left", "margin_right", "padding_left", "padding_right", "border_left_width",
                     "border_right_width"):
            setattr(page, name, getattr(other, name))
        page.page_type, page.style = kind, style


# --- hooks, each installed once per process ----------------------------------------------------------

@functools.cache
def hook_page_making(current: Callable[[], Any]) -> None:
    """WeasyPrint's `make_all_pages` and `make_margin_boxes` through `current()`, the Pagination of the document
    the thread renders (pagination.py), if any: its `paginate(original, context, root_box, html, pages)` makes the
    pages, and its `margin_numbers()` ((first page, page count) of a part of a document, or None) are the page
    counters its margins show. A thread rendering without one gets WeasyPrint's own."""
    import weasyprint.layout as layout
    original = layout.make_all_pages

    def make_all_pages(context: Any, root_box: Any, html: Any, pages: list[Any]) -> Iterator[Any]:
        pagination = current()
        if pagination is None:
            yield from original(context, root_box, html, pages)
        else:
            yield from pagination.paginate(original, context, root_box, html, pages)

    layout.make_all_pages = make_all_pages
    original_margins = layout.make_margin_boxes

    def make_margin_boxes(context: Any, page: Any, state: Any) -> Iterator[Any]:
        if is_stand_in(page):
            return iter(())
        pagination = current()
        numbers = pagination.margin_numbers() if pagination is not None else None
        if numbers is not None:
            start, total = numbers
            counters = dict(state[1])
            counters["page"] = [counters.get("page", [0])[0] + start - 1]
            if total is not None:
                counters["pages"] = [total]
            state = (state[0], counters, *state[2:])
        return original_margins(context, page, state)

    layout.make_margin_boxes = make_margin_boxes
    import weasyprint.layout.page as page_module
    original_remake = page_module.remake_page

    @functools.wraps(original_remake)
    def remake_page(index: int, context: Any, root_box: Any, html: Any) -> tuple[Any, Any]:
        """A page whose making its Pagination refuses (`made_again`: it ends in a word hyphenated there, or a
        paragraph on it is to be hyphenated again) is made again at once, from the state its first making started
        from, until it accepts it."""
        pagination = current()
        if pagination is None:
            return original_remake(index, context, root_box, html)
        before = _layout_state(context, index)
        made = original_remake(index, context, root_box, html)
        while pagination.made_again(index, made[0]):
            _layout_state(context, index, before)
            made = original_remake(index, context, root_box, html)
        return made

    page_module.remake_page = remake_page


def _layout_state(context: Any, index: int, restore: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
    """What WeasyPrint's layout of page `index` changes in its context besides the next page's state (the
    footnotes waiting, the out-of-flow boxes broken over the page, the notes drawn, the page's anchors), saved,
    or put back as `restore` saved them: the page made again from where it was made the first time."""
    if restore is None:
        return (list(context.footnotes), list(context.reported_footnotes), dict(context.broken_out_of_flow),
                list(context.rendered_notes or ()))
    footnotes, reported, broken, notes = restore
    context.footnotes, context.reported_footnotes = list(footnotes), list(reported)
    context.broken_out_of_flow, context.rendered_notes = dict(broken), list(notes)
    context.page_maker[index][-1].update(anchors=[], content_lookups=[])
    return restore


@functools.cache
def hook_structure_elements(complete: Callable[[Any, Any], None]) -> None:
    """Every structure element of a tagged PDF (a pydyf dictionary with /S) given to `complete(element, box)` as
    WeasyPrint makes it of a box (tagging.py): a wrapper of weasyprint.pdf.tags._build_box_tree, whose recursive
    calls find it in the module, so every box comes through it."""
    from weasyprint.pdf import tags
    original = tags._build_box_tree

    @functools.wraps(original)
    def build_box_tree(box: Any, *args: Any) -> Any:
        for element in original(box, *args):
            complete(element, box)
            yield element

    tags._build_box_tree = build_box_tree


@functools.cache
def images_named_by_content() -> None:
    """WeasyPrint names a raster image's XObject by the md5 of its URL, an absolute file URI: the same project in
    another folder (a fresh clone, a copy) gave other bytes. Named by the md5 of the image's bytes instead: the
    same image, the same name, wherever the project is (and one XObject for one image)."""
    from weasyprint import images
    original = images.RasterImage.__init__
    if getattr(original, "_aids", False):
        return

    @functools.wraps(original)  # its signature, as inspect reads it, is WeasyPrint's (pinned in the tests)
    def by_content(self: Any, pillow_image: Any, image_id: Any, image_data: Any, *args: Any, **kwargs: Any) -> None:
        content = hashlib.md5(image_data, usedforsecurity=False).hexdigest() if image_data else image_id
        original(self, pillow_image, content, image_data, *args, **kwargs)
    by_content._aids = True  # type: ignore[attr-defined]
    images.RasterImage.__init__ = by_content


@functools.cache
def page_references_once() -> None:
    """pydyf 0.13 builds the list of every page's reference again each time the tags ask for one page's (once a
    tagged element): quadratic, 20 s of a 300-page booklet. Made to build it once for each number of pages of a
    PDF (pages are only ever appended); the same list, the same bytes."""
    import pydyf
    original = pydyf.PDF.__dict__.get("page_references")
    if not isinstance(original, property) or original.fget is None:  # another pydyf: as it is
        return
    build = original.fget

    def page_references(pdf: Any) -> tuple[bytes, ...]:
        count = len(pdf.pages["Kids"])
        cached = pdf.__dict__.get("_aids_page_references")
        if cached is None or cached[0] != count:
            cached = pdf.__dict__["_aids_page_references"] = (count, build(pdf))
        return cached[1]

    pydyf.PDF.page_references = property(page_references)


@functools.cache
def tolerant_footnote_area() -> None:
    """WeasyPrint 70.0 measures whether a page's footnotes overflow their area by comparing two sums of floats: the
    bottom of the area's last note and the bottom of the area. They are equal, but summed in another order they
    differ by 2e-13 px, and the note is then "reported" to the next page, though its page has room for it (the
    Valmora scenario's footnote, called from a set of balanced columns, printed alone on the next page). Made to
    compare with a tolerance of a millionth of a pixel: the same layout otherwise, the same bytes where no note
    was moved."""
    from weasyprint.formatting_structure import build
    from weasyprint.layout import LayoutContext, block_level_layout
    original = LayoutContext.__dict__.get("_update_footnote_area")
    if original is None or original.__code__.co_varnames[:1] != ("self",):  # another WeasyPrint: as it is
        return

    def _update_footnote_area(self: Any) -> bool:
        """WeasyPrint 70.0's own (layout/__init__.py), its last comparison made with a tolerance."""
        if self.current_footnote_area.height != "auto" and not self.in_column:
            self.page_bottom += self.current_footnote_area.margin_height()
        self.current_footnote_area.children = self.current_page_footnotes
        if self.current_footnote_area.children:
            footnote_area = build.create_anonymous_boxes(self.current_footnote_area.deepcopy())
            footnote_area = block_level_layout(self, footnote_area, -inf, None, self.current_footnote_area.page)[0]
            self.current_footnote_area.height = footnote_area.height
            if not self.in_column:
                self.page_bottom -= footnote_area.margin_height()
            last_child = footnote_area.children[-1]
            last_child_bottom = last_child.position_y + last_child.margin_height() - last_child.margin_bottom
            area_bottom = footnote_area.position_y + footnote_area.margin_height() - footnote_area.margin_bottom
            return bool(last_child_bottom > area_bottom + FOOTNOTE_TOLERANCE)
        self.current_footnote_area.height = 0
        if not self.in_column:
            self.page_bottom -= self.current_footnote_area.margin_height()
        return False

    LayoutContext._update_footnote_area = _update_footnote_area


# WeasyPrint 70.0's column balancing (layout/column.py, columns_layout): where no column's next box says how much
# taller the columns must be, it tries them 1 px taller at a time, each try a layout of every column.
COLUMN_STEPS = """\
                # Increase the column heights and render them again
                add_height = 1 if lost_space == inf else lost_space
                height += add_height
"""
COLUMN_FITS = """\
                if column_skip_stack is None:
                    # We rendered the whole content, stop
                    break
"""
COLUMN_START = "        page_is_empty = stop_rendering = balancing = False\n"


@functools.cache
def quicker_column_balancing() -> None:
    """WeasyPrint 70.0 balances a set of columns by trying them taller until the content fits: by what the next
    box of a column needs, else by 1 px at a time, a layout of every column each time (the Valmora scenario and
    rules in one language: 79 such tries). Made, where the steps are of 1 px, to take them 1, 2, 4, 8 ... px apart
    until one fits, then to halve the distance back to the last that did not, down to 1 px: the height 1 px steps
    reach (where columns that fit still fit taller), in about the logarithm of their number of layouts (every
    PDF of the samples: the same bytes). WeasyPrint's own function, those lines changed, compiled in its module's
    names; any other release: as it is."""
    from weasyprint.layout import block, column
    original = column.columns_layout
    source = inspect.getsource(original)
    if getattr(block.columns_layout, "_aids", False) or not all(
            part in source for part in (COLUMN_STEPS, COLUMN_FITS, COLUMN_START)):
        return
    source = source.replace(COLUMN_START, COLUMN_START + "        _step, _fails, _fits = 1, None, None\n")
    source = source.replace(COLUMN_FITS, """\
                if column_skip_stack is None:
                    if _fails is None or height - _fails <= 1:
                        break  # it fits, 1 px above a height that does not (or with no 1 px steps before)
                    _fits, height = height, _fails + (height - _fails) // 2  # halving back
                    continue
                if _fits is not None:  # halving: the next try between the two, or the one that fitted again
                    _fails, height = height, _fits if _fits - height <= 1 else height + (_fits - height) // 2
                    continue
""")
    source = source.replace(COLUMN_STEPS, """\
                # Increase the column heights and render them again
                if lost_space == inf:
                    _fails, add_height, _step = height, _step, 2 * _step
                else:
                    _fails, add_height = None, lost_space
                height += add_height
""")
    names = dict(vars(column))
    lines = "\n" * (original.__code__.co_firstlineno - 1)  # its lines numbered as in WeasyPrint's file
    exec(compile(lines + source, column.__file__, "exec"), names)  # WeasyPrint's own code
    quicker = names["columns_layout"]
    quicker._aids = True
    block.columns_layout = quicker
