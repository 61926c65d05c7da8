"""A table in one language and edition: header and body rows of cells, numbers formatted per locale
and converted per edition."""
from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import partial

from ..config import Edition
from ..model.quantity import DISTANCE_UNITS, Measure, Quantity, Value, convert, measure_of
from ..model.table import KEEP_WHOLE, Cell, Column, Label, Row, Table
from . import rich
from .documents import BodyCell, BodyRow, HeaderCell, LocalizedTable, TableDocument
from .localizer import Localizer
from .quantity import format_value, unit_name
from .rich import Printed, Rich, item_lines


def localize_label(label: Label | None, lz: Localizer, measure: Measure) -> Rich | None:
    if label is None:
        return None

    def resolve(kind: str, name: str) -> Rich:
        return rich.text(format_value(convert(label.values[name], measure), lz))

    return lz.rich(label.text, resolve)


@dataclass(frozen=True)
class _Cells:
    """How the cells of a table read in one language and edition."""
    table: Table
    lz: Localizer
    measure: Measure

    def label(self, label: Label | None) -> Rich | None:
        return localize_label(label, self.lz, self.measure)

    def value(self, value: Value | None, column: Column | None = None) -> str:
        if value is None:
            return ""
        bare = column is not None and (column.type == "distance" or value is column.key)
        return format_value(convert(value, self.measure), self.lz, bare=bare)


def _header(text: Rich | str | None, scope: str | None = "col", span: int = 1, rows: int = 1,
            num: bool = False) -> HeaderCell:
    return {"text": text, "scope": scope, "colspan": span, "rowspan": rows, "num": num}


def localize_table(table: Table, lz: Localizer, edition: Edition | None = None) -> LocalizedTable:
    """A table as header rows and body rows of cells, numbers formatted in the language of `lz`."""
    measure = measure_of(edition)
    cells = _Cells(table, lz, measure)
    title = _title(table, lz, measure)
    head = _head(cells, cells.label(table.corner) or "")
    has_labels = any(r.label is not None or r.key is not None for r in table.rows)
    body = [_body_row(cells, row, has_labels) for row in table.rows]
    link_headers(table, head, body)
    for row in body:
        row["reading"] = row_reading(head, row)
    return {
        "id": table.id, "title": title, "form": table.form, "widths": column_widths(table),
        "whole": len(body) <= KEEP_WHOLE,
        "intro": localize_label(table.intro, lz, measure),
        "head": head, "body": body, "columns": len(table.columns),
        "notes": [localize_label(n, lz, measure) for n in table.notes],
    }


def _title(table: Table, lz: Localizer, measure: Measure) -> str:
    """The table's title, with the unit of its distances when it has any."""
    distance_units = {c.unit for c in table.columns if c.type == "distance"} | {
        c.key.unit for c in table.columns if isinstance(c.key, Quantity) and c.key.unit in DISTANCE_UNITS}
    title = lz.text(table.title)
    if distance_units:
        unit = measure.unit or sorted(u for u in distance_units if u)[0]
        title = lz.pgettext("table title followed by the unit its distances are in", "%(title)s (%(unit)s)") % {
            "title": title, "unit": unit_name(unit, lz)}
    return title


def _head(cells: _Cells, corner: Rich | str) -> list[list[HeaderCell]]:
    """The header rows: the row of column groups, if any, over the row of column headers; none for modifiers."""
    table = cells.table
    if table.form == "modifiers":
        return []
    head = [_group_row(cells, corner)] if table.groups else []
    cols = [] if table.groups else [_header(corner)]
    for column in table.columns:
        text = cells.label(column.label) if column.label else cells.value(column.key, column)
        cols.append(_header(text, num=column.key is not None))
    if table.keys_both_sides and not table.groups:
        cols.append(_header(corner))
    head.append(cols)
    return head


def _group_row(cells: _Cells, corner: Rich | str) -> list[HeaderCell]:
    table = cells.table
    top, col = [_header(corner, rows=2)], 0
    for group in table.groups:
        top.extend(_header("", None) for _ in range(col, group.first))
        top.append(_header(cells.label(group.label), "colgroup", span=group.span))
        col = group.first + group.span
    top.extend(_header("", None) for _ in range(col, len(table.columns)))
    if table.keys_both_sides:  # the keys again on the right, under the same header as on the left
        top.append(_header(corner, rows=2))
    return top


def _body_row(cells: _Cells, row: Row, has_labels: bool) -> BodyRow:
    table = cells.table
    th = cells.label(row.label) if row.label else cells.value(row.key)
    return {"id": f"{table.id}/{row.id}", "th": th if has_labels else None,
            "cells": [_cell(cells, column, cell) for column, cell in zip(table.columns, row.cells)],
            "key": cells.value(row.key) if table.keys_both_sides else None}


def _cell(cells: _Cells, column: Column, cell: Cell) -> BodyCell:
    if cell.text is None:  # numbers align right and never wrap; "¼ prędkości" may wrap like words
        wordy = isinstance(cell.value, Quantity) and cell.value.unit not in DISTANCE_UNITS
        return {"text": cells.value(cell.value, column), "num": True, "wrap": wordy}
    text = cells.label(cell.text)
    if cell.value is not None:
        text = cells.lz.ui_rich("a value followed by a remark, e.g. 1 move, cavalry cannot cross",
                                "%(value)s, %(remark)s", value=cells.value(cell.value, column),
                                remark=text or "")
    return {"text": text, "num": False, "wrap": True}


NOTHING = " \u00a0–—-"


def _words(text: Rich | str | None) -> str:
    return text.plain() if isinstance(text, Rich) else str(text or "")


def column_labels(head: list[list[HeaderCell]], columns: int) -> list[tuple[str, str]]:
    """(its group's label, its own label) of each data column: what a reader names a cell by."""
    if not head:
        return [("", "")] * columns
    own = head[-1][1:] if len(head) == 1 else head[-1]  # the corner heads the row labels, not a column
    groups = [""] * columns
    if len(head) == 2:
        col = 0
        for cell in head[0][1:]:
            for c in range(col, min(col + cell["colspan"], columns)):
                groups[c] = _words(cell["text"])
            col += cell["colspan"]
    return [(groups[j], _words(own[j]["text"]) if j < len(own) else "") for j in range(columns)]


def row_reading(head: list[list[HeaderCell]], row: BodyRow) -> str:
    """A row as a sentence for the search index: its label, then each cell after its column's label
    ("artillery – canister: range 0 cm to 2 → 27; 6 → 27"), where the page shows a grid of numbers."""
    cells, said_group = [], ""
    for (group, label), cell in zip(column_labels(head, len(row["cells"])), row["cells"]):
        value = _words(cell["text"])
        if not value.strip(NOTHING):  # an empty cell, a dash for "none": nothing to read
            continue
        named = " ".join(filter(None, [group if group != said_group else "", label]))  # a group's label said once
        said_group = group
        cells.append(f"{named} → {value}" if named else value)
    said = "; ".join(cells)
    label = _words(row["th"])
    return f"{label}: {said}" if label and said else label or said


def link_headers(table: Table, head: list[list[HeaderCell]], body: list[BodyRow]) -> None:
    """Ids on the headers of a table with column groups, and on each data cell the ids of its headers (its
    row's, its column's, its group's): `scope` alone does not tell a reader which group a column is in.

    The head is the group row (the corner, a group or a blank per column, the right-hand corner) over the row
    of column headers; a column without a header text has no id (it is printed as an empty cell). A table without
    groups needs none of it: its headers' scopes say it all."""
    if not table.groups or len(head) != 2:
        return
    groups: dict[int, str] = {}  # column index -> the id of its group's header
    col = 0
    for cell in head[0][1:]:
        if cell["scope"] == "colgroup":
            cell["id"] = f"{table.id}-g{col}"
            groups.update({c: cell["id"] for c in range(col, col + cell["colspan"])})
        col += cell["colspan"]
    columns = head[1]
    for j, cell in enumerate(columns):
        if cell["text"]:
            cell["id"] = f"{table.id}-c{j}"
    for i, row in enumerate(body):
        row["th_id"] = f"{table.id}-r{i}" if row["th"] is not None else None
        for j, data in enumerate(row["cells"]):
            ids = [row["th_id"], groups.get(j), columns[j].get("id")]
            data["headers"] = " ".join(filter(None, ids))


def column_widths(table: Table) -> list[float]:
    """Percentages for a fixed table layout, so that tables fit narrow print columns exactly in every language.

    Text takes more room than numbers: a row label 4 shares (6 in a list), a text column 3, a column of
    "¼ move" 2, a distance 1.4, a number 1.
    """
    def share(column: Column) -> float:
        texts = [c for r in table.rows for c in r.cells[table.columns.index(column):][:1] if c.text is not None]
        values = [r.cells[table.columns.index(column)].value for r in table.rows if r.cells]
        if texts or column.type == "text":
            return 3.0
        if any(isinstance(v, Quantity) and v.unit not in DISTANCE_UNITS for v in values):
            return 2.0
        return 1.4 if any(isinstance(v, Quantity) for v in values) else 1.0

    shares = [share(c) for c in table.columns]
    if table.keys_both_sides:
        shares.append(1.0)
    labelled = any(r.label is not None for r in table.rows)
    first = (6.0 if table.form == "modifiers" else 4.0) if labelled else 2.5 if table.corner else 1.0
    shares.insert(0, first if table.form != "bands" else 1.8)
    total = sum(shares)
    return [round(100 * s / total, 3) for s in shares]


def localize(table: Table, lz: Localizer, edition: Edition | None = None) -> TableDocument:
    return {"title": lz.text(table.title), "table": localize_table(table, lz, edition)}


def item_texts(table: Table, lz: Localizer, edition: Edition | None, keys: Collection[str]) -> dict[str, str]:
    """The texts of each item of `keys` as the table prints them in `edition`, on one line: a row as it reads
    (its label, then each cell after its column's label), a column's key as its header prints it."""
    return item_lines(_printed(table, lz, measure_of(edition)), keys)


def _printed(table: Table, lz: Localizer, measure: Measure) -> Iterator[tuple[str, Printed]]:
    """Every item of the table by its key (Kind.items: its texts' msgctxt, a row's and a column key's values),
    with what the table prints of it, made when asked for."""
    cells = _Cells(table, lz, measure)
    yield table.title.context, partial(_title, table, lz, measure)
    for label in (table.intro, table.corner, *(g.label for g in table.groups), *(c.label for c in table.columns)):
        if label is not None:
            yield label.text.context, partial(cells.label, label)
    for column in table.columns:
        if column.key is not None:
            yield f"{table.id}/{column.id}", partial(cells.value, column.key, column)
    has_labels = any(r.label is not None or r.key is not None for r in table.rows)
    head = _head(cells, cells.label(table.corner) or "")
    for row in table.rows:
        yield f"{table.id}/{row.id}", partial(_row_reading, cells, head, row, has_labels)
        for column, cell in zip(table.columns, row.cells, strict=False):
            if cell.text is not None:
                yield cell.text.text.context, partial(_cell_text, cells, column, cell)
    for note in table.notes:
        yield note.text.context, partial(cells.label, note)


def _row_reading(cells: _Cells, head: list[list[HeaderCell]], row: Row, has_labels: bool) -> str:
    return row_reading(head, _body_row(cells, row, has_labels))


def _cell_text(cells: _Cells, column: Column, cell: Cell) -> Rich | str | None:
    return _cell(cells, column, cell)["text"]
