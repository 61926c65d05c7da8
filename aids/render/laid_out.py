"""WeasyPrint's pages once laid out: what is finished or checked in them before the PDF is written.

- A table that goes on in another column or page says so: its head, repeated there, shows the "continued" mark
  after its title (table.css, from the title's data-continued), which the first part of the table, where it
  starts, does not show.
- A table wider than the column or box it is in is a warning.
- A figure that does not print whole with its caption under it, inside its page's area (an image the print sheet
  scales to its column, but with a caption too long to fit beside it), is a warning at its source.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

from ..units import MM_PER_PX
from . import weasyprint_internals

CONTINUED = "data-continued"  # the attribute of a table's title whose ::after is the mark
SOURCE = "data-source"  # the attribute of a printed figure: where its source is (path:line:col)


def boxes(document: Any) -> Iterator[tuple[Any, Any]]:
    """Every laid-out box of every page, in order (columns left to right), with its parent."""
    def visit(box: Any, parent: Any) -> Iterator[tuple[Any, Any]]:
        yield box, parent
        for child in getattr(box, "children", ()):
            yield from visit(child, box)

    for page in document.pages:
        yield from visit(weasyprint_internals.page_box(page), None)


def finish(document: Any) -> None:
    """The "continued" marks taken out of the first part of every table (only its continuations keep theirs)."""
    seen: set[Any] = set()
    first: Any = None  # the first part of the table being walked, if it is one
    for box, parent in boxes(document):
        if box.element_tag == "table" and not box.is_table_wrapper and box.element is not None:
            first = box if box.element not in seen else None
            seen.add(box.element)
        elif first is not None and is_mark(box):
            parent.children = [child for child in parent.children if child is not box]


def is_mark(box: Any) -> bool:
    return (box.element_tag or "").endswith("::after") and box.element.get(CONTINUED) is not None


def checks(document: Any) -> list[str]:
    """What a laid-out document's pages say is wrong: tables too wide, text lost, figures apart from their
    captions."""
    return [*wide_tables(document), *lost_text(document), *figures_apart(document)]


def wide_tables(document: Any) -> list[str]:
    """A table wider than the column or box it is in (its cells' narrowest widths add up to more: a word kept
    whole, tree.py), once each, as a warning naming its first cell."""
    found: dict[str, float] = {}
    for box, parent in boxes(document):
        if box.is_table_wrapper and parent is not None:
            over = box.position_x + box.margin_width() - (parent.content_box_x() + parent.width)
            if over > 0.5:  # CSS px
                cells = (" ".join("".join(e.itertext()).split()) for e in box.element.iter() if e.tag in ("td", "th"))
                found.setdefault(" ".join(cells)[:40], over * 0.75)
    return [f"a table is {over:.1f} pt wider than its column: “{words}…”" for words, over in found.items()]


def lost_text(document: Any) -> list[str]:
    """A flex box (a heading's number and title side by side) laid out at a page's end but with its items
    nowhere, once each, as a warning naming the element: WeasyPrint 70 starts a flex box it must break, then
    drops what it could not place, printing an empty banner and losing the heading's words."""
    placed: dict[Any, bool] = {}  # a flex element: whether any of its boxes holds text
    for box, _ in boxes(document):
        if weasyprint_internals.is_flex(box) and box.element is not None and "".join(box.element.itertext()).strip():
            placed[box.element] = placed.get(box.element, False) or any(
                (getattr(inner, "text", "") or "").strip() for inner, _ in _descendants(box))
    return [f"the text of <{element.tag}{_id(element)}> “{_words(element)}” is lost at a page break (WeasyPrint "
            f"cannot break a flex box)" for element, ok in placed.items() if not ok]


def _descendants(box: Any) -> Iterator[tuple[Any, Any]]:
    for child in getattr(box, "children", ()):
        yield child, box
        yield from _descendants(child)


def _words(element: Any) -> str:
    """An element's words as printed: not its permalink ("#") nor a page number pagination.py added."""
    hidden = {"permalink", "page-number"}
    said = [element.text or ""] + [("" if hidden & set((child.get("class") or "").split()) else
                                    "".join(child.itertext())) + (child.tail or "") for child in element]
    return " ".join("".join(said).split())[:40]


def _id(element: Any) -> str:
    return f' id="{element.get("id")}"' if element.get("id") else ""


def figures_apart(document: Any) -> list[str]:
    """A figure whose image runs past the foot of its page's area, or whose caption is not under it (on another
    page, or atop the next column), once each, as a warning at its source (its `data-source`)."""
    placed: dict[Any, tuple[int, float]] = {}  # figure -> the page its image is on, the foot of the image
    faults: dict[Any, str] = {}
    for number, page in enumerate(document.pages):
        area = weasyprint_internals.page_box(page)
        foot = area.content_box_y() + area.height
        for figure, _ in _descendants(area):
            if figure.element_tag != "figure" or figure.element.get(SOURCE) is None or figure.element in faults:
                continue
            element = figure.element
            for box, _ in _descendants(figure):
                if box.element_tag == "img" and element not in placed:
                    placed[element] = (number, box.position_y + box.margin_height())
                    if placed[element][1] - foot > 0.5:  # CSS px
                        past = (placed[element][1] - foot) * MM_PER_PX
                        faults[element] = f"runs {past:.1f} mm past the foot of its page"
                elif box.element_tag == "figcaption" and element in placed and (
                        placed[element][0] != number or box.position_y < placed[element][1] - 0.5):
                    faults.setdefault(element, "and its caption do not fit one column: the caption is printed apart")
    return [f"{element.get(SOURCE)}: the figure '{_image(element)}' {what} (expected: a figure that fits its column "
            "with its caption: a shorter caption, or a wider and lower image)" for element, what in faults.items()]


def _image(figure: Any) -> str:
    img = figure.find("img")
    return unquote(img.get("src", "")) if img is not None else ""
