"""WeasyPrint 70.0 measures whether a page's footnotes overflow their area by comparing two sums of floats:
the bottom of the area's last note and the bottom of the area. They are equal, but summed in another order they
differ by 2e-13 px, and the note is then "reported" to the next page, though its page has room for it (the Valmora
scenario's footnote, called from a set of balanced columns, printed alone on the next page). Made, once per process,
to compare with a tolerance of a millionth of a pixel: the same layout otherwise, the same bytes where no note
was moved."""
from __future__ import annotations

import functools
from math import inf
from typing import Any

TOLERANCE = 1e-6  # px: far below anything drawn (a point is 1.33 px), far above a float's rounding


@functools.cache
def tolerant_once() -> None:
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
            return bool(last_child_bottom > area_bottom + TOLERANCE)
        self.current_footnote_area.height = 0
        if not self.in_column:
            self.page_bottom -= self.current_footnote_area.margin_height()
        return False

    LayoutContext._update_footnote_area = _update_footnote_area
