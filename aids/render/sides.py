"""The pages of a part of a booklet (pagination.py) turned from right-hand to left-hand and back, once laid out.

A part is laid out as if its first page were right-hand (odd): which side it really begins on is known only once
the parts before it are laid out. Facing pages of a booklet have the same width and height of page area on both
sides, only the inner and outer margins swapped, so a page's boxes are the same on either side, moved across by the
difference: each page gets the other side's page type, style and margins, and its boxes are moved. Its margin boxes
(running heads, page footer) are made afterwards by WeasyPrint, for the side it now is.
"""
from __future__ import annotations

from typing import Any


def turn(context: Any, html: Any, pages: list[Any]) -> None:
    """Every page of `pages` to the other side."""
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
