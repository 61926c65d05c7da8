"""A table in one language and edition: header and body rows of cells, numbers formatted per locale
and converted per edition."""
from __future__ import annotations

from typing import Any

from ..config import Edition
from ..model.quantity import DISTANCE_UNITS, Measure, Quantity, Value, convert, measure_of
from ..model.table import KEEP_WHOLE, Column, Label, Table
from . import rich
from .localizer import Localizer
from .quantity import format_value, unit_name
from .rich import Rich


def localize_label(label: Label | None, lz: Localizer, measure: Measure) -> Rich | None:
    if label is None:
        return None

    def resolve(kind: str, name: str) -> Rich:
        return rich.text(format_value(convert(label.values[name], measure), lz))

    return lz.rich(label.text, resolve)


def localize_table(table: Table, lz: Localizer, edition: Edition | None = None) -> dict[str, Any]:
    """A table as header rows and body rows of cells, numbers formatted in the language of `lz`."""
    measure = measure_of(edition)
    distance_units = {c.unit for c in table.columns if c.type == "distance"} | {
        c.key.unit for c in table.columns if isinstance(c.key, Quantity) and c.key.unit in DISTANCE_UNITS}
    title = lz.text(table.title)
    if distance_units:
        unit = measure.unit or sorted(u for u in distance_units if u)[0]
        title = lz.pgettext("table title followed by the unit its distances are in", "%(title)s (%(unit)s)") % {
            "title": title, "unit": unit_name(unit, lz)}

    def value_text(value: Value | None, column: Column | None = None) -> str:
        if value is None:
            return ""
        bare = column is not None and (column.type == "distance" or value is column.key)
        return format_value(convert(value, measure), lz, bare=bare)

    def header(text: Rich | str | None, scope: str | None = "col", span: int = 1, rows: int = 1,
               num: bool = False) -> dict[str, Any]:
        return {"text": text, "scope": scope, "colspan": span, "rowspan": rows, "num": num}

    head: list[list[dict[str, Any]]] = []
    has_labels = any(r.label is not None or r.key is not None for r in table.rows)
    corner = localize_label(table.corner, lz, measure) or ""
    if table.form != "modifiers":
        if table.groups:
            top, col = [header(corner, rows=2)], 0
            for group in table.groups:
                top.extend(header("", None) for _ in range(col, group.first))
                top.append(header(localize_label(group.label, lz, measure), "colgroup", span=group.span))
                col = group.first + group.span
            top.extend(header("", None) for _ in range(col, len(table.columns)))
            if table.keys_both_sides:  # the keys again on the right, under the same header as on the left
                top.append(header(corner, rows=2))
            head.append(top)
        cols = [] if table.groups else [header(corner)]
        for column in table.columns:
            text = localize_label(column.label, lz, measure) if column.label else value_text(column.key, column)
            cols.append(header(text, num=column.key is not None))
        if table.keys_both_sides and not table.groups:
            cols.append(header(corner))
        head.append(cols)
    body = []
    for row in table.rows:
        th = localize_label(row.label, lz, measure) if row.label else value_text(row.key)
        cells: list[dict[str, Any]] = []
        for column, cell in zip(table.columns, row.cells):
            if cell.text is not None:
                text = localize_label(cell.text, lz, measure)
                if cell.value is not None:
                    text = lz.ui_rich("a value followed by a remark, e.g. 1 move, cavalry cannot cross",
                                      "%(value)s, %(remark)s", value=value_text(cell.value, column),
                                      remark=text or "")
                cells.append({"text": text, "num": False, "wrap": True})
            else:  # numbers align right and never wrap; "¼ prędkości" may wrap like words
                wordy = isinstance(cell.value, Quantity) and cell.value.unit not in DISTANCE_UNITS
                cells.append({"text": value_text(cell.value, column), "num": True, "wrap": wordy})
        body.append({"id": f"{table.id}/{row.id}", "th": th if has_labels else None, "cells": cells,
                     "key": value_text(row.key) if table.keys_both_sides else None})
    link_headers(table, head, body)
    return {
        "id": table.id, "title": title, "form": table.form, "widths": column_widths(table),
        "whole": len(body) <= KEEP_WHOLE,
        "intro": localize_label(table.intro, lz, measure),
        "head": head, "body": body, "columns": len(table.columns),
        "notes": [localize_label(n, lz, measure) for n in table.notes],
    }


def link_headers(table: Table, head: list[list[dict[str, Any]]], body: list[dict[str, Any]]) -> None:
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
        for j, cell in enumerate(row["cells"]):
            ids = [row["th_id"], groups.get(j), columns[j].get("id")]
            cell["headers"] = " ".join(filter(None, ids))


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


def localize(table: Table, lz: Localizer, edition: Edition | None = None) -> dict[str, Any]:
    return {"title": lz.text(table.title), "table": localize_table(table, lz, edition)}
