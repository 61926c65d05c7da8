"""A playsheet in one language and edition: its tables and checklists."""
from __future__ import annotations

from ..config import Edition
from ..model.playsheet import Playsheet
from .documents import ChecklistBlock, PlaysheetDocument, TableBlock
from .localizer import Localizer
from .table import localize_table


def localize(sheet: Playsheet, lz: Localizer, edition: Edition | None = None) -> PlaysheetDocument:
    blocks: list[TableBlock | ChecklistBlock] = []
    for block in sheet.blocks:
        if block.table:
            blocks.append({"type": "table", "span": block.span, "table": localize_table(block.table, lz, edition)})
        elif block.checklist:
            blocks.append({"type": "checklist", "span": block.span, "id": block.checklist.id,
                           "title": lz.text(block.checklist.title),
                           "items": [lz.rich(t) for t in block.checklist.items]})
    return {
        "title": lz.text(sheet.title),
        "subtitle": lz.text(sheet.subtitle) if sheet.subtitle else "",
        "columns": sheet.page.columns,
        "page_size": sheet.page.css_size,  # for a browser's print of the page (the PDF is given its own)
        "type_size": sheet.page.type,
        "min_type": sheet.page.min_type,  # nothing is printed smaller, however far the type shrinks
        "blocks": blocks,
    }
