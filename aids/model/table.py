"""Tables stored once with their numbers as data: grids, modifier lists and result bands, embedded by playsheets."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import Position, Problems
from ..source.yamlfile import Source, check_id, check_map, is_text
from .icons import check_icon
from .quantity import (
    DISTANCE_UNITS,
    QUANTITY,
    UNITS,
    Empty,
    Num,
    Quantity,
    Range,
    Value,
    check_bands,
    misspelt_at,
    value_at,
    values_at,
)
from .table_shape import BAND, CELL, COLUMN, FORMS, GROUP, ITEM, KIND, LABEL_WITH, ROW, SHAPE, TYPES
from .text import Text, placeholders_at, text_at

# A table of at most this many rows prints whole in one column; a longer one may continue in the next,
# but keeps its title with its first rows and never leaves its last row alone (see table.css).
KEEP_WHOLE = 10


@dataclass
class Label:
    """Translatable text with `{q:name}` values kept as data (30 cm, ¼ move) outside the msgid."""
    text: Text
    values: dict[str, Value] = field(default_factory=dict)


@dataclass
class Column:
    id: str
    label: Label | None
    key: Value | None  # a header that is data (2 cm, 1, 2, ...)
    type: str
    unit: str | None


@dataclass
class Cell:
    value: Value | None  # None: a text cell
    text: Label | None = None


@dataclass
class Row:
    id: str
    label: Label | None
    key: Value | None  # a row header that is data (1 ... 35, or a band's range)
    cells: list[Cell]


@dataclass
class Group:
    """A header spanning the columns first .. first+span-1."""
    label: Label
    first: int
    span: int


@dataclass
class Table:
    id: str
    title: Text
    form: str
    columns: list[Column]
    rows: list[Row]
    source: Source
    intro: Label | None = None
    corner: Label | None = None
    unit: str | None = None
    groups: list[Group] = field(default_factory=list)
    notes: list[Label] = field(default_factory=list)
    keys_both_sides: bool = False
    kind: str = KIND

    def messages(self) -> Iterator[Text]:
        yield self.title
        for label in (self.intro, self.corner, *(g.label for g in self.groups),
                      *(c.label for c in self.columns)):
            if label:
                yield label.text
        for row in self.rows:
            if row.label:
                yield row.label.text
            for cell in row.cells:
                if cell.text:
                    yield cell.text.text
        for note in self.notes:
            yield note.text


# --- reading -----------------------------------------------------------------------------------

class Reader:
    """Reads one table source, adding every problem found to `problems`."""

    def __init__(self, src: Source, problems: Problems, table_id: str, icons: dict | None = None):
        self.src, self.problems, self.id = src, problems, table_id
        self.icons = icons  # the game's icon set: {icon:<id>} in a label (None: read without its game)
        self.unit_reported = False  # the table's unit is unknown: its columns have none, already said

    def label(self, node, key: str, context: str, comment: str) -> Label | None:
        """node[key] as a Label; its `{q:name}` values come from the `with:` map beside it."""
        value = node.get(key)
        if value is None:
            return None
        if hasattr(value, "get"):  # {text: ..., with: {...}}: a label with values of its own
            if not check_map(self.src, value, self.problems, LABEL_WITH, what=key,
                             where=self.src.at(node, key, value=True)):
                return None
            return self.label(value, "text", context, comment)
        if isinstance(value, str) and not value.strip():
            self.problems.add(self.src.at(node, key, value=True), f"{key} must be text", f"{key}: ...")
            return None
        text = text_at(self.src, node, key, context, comment, self.problems)
        if not text.msgid:  # a list or a mapping, reported by text_at
            return None
        return Label(text, self.values_of(node, key, str(value), node.get("with")))

    def values_of(self, node, key, text: str, raw) -> dict[str, Value]:
        """The values of `with:` (`raw`) for the `{q:name}` placeholders of `text` (node[key]); no other kind."""
        for kind, target, whole, offset in placeholders_at(text):
            if kind == "icon":
                check_icon(target, self.src.at_text(node, key, offset), self.icons, self.problems)
            elif kind != QUANTITY:
                self.problems.add(self.src.at_text(node, key, offset), f"unknown placeholder '{whole}'",
                                  "{q:name} with name under with:, or {icon:id}")
        return values_at(self.src, node, [key], raw, self.problems)

    def value(self, node, key, unit: str | None) -> Value | None:
        return value_at(self.src, node, key, unit)

    def misspelt(self, node, key) -> bool:
        return misspelt_at(self.src, node, key, self.problems)

    def ident(self, node, seen: dict, what: str) -> str | None:
        return str(node["id"]) if check_id(self.src, node, "id", self.problems, seen, what) else None

    def cell(self, node, index: int | str, column: Column, row_id: str) -> Cell | None:
        raw = node[index]
        context = f"{self.id}/{row_id}/{column.id}"
        comment = f"Cell of table {self.id}, row {row_id}, column {column.id}"
        where = self.src.at(node, index)
        if hasattr(raw, "get"):
            return self._map_cell(raw, column, where, context, comment)
        value = self.value(node, index, column.unit if column.type == "distance" else None)
        if value is None and column.type != "text" and self.misspelt(node, index):
            return None
        if column.type == "text" or (value is None and column.type == "any"):
            return self._text_cell(node, index, where, context, comment)
        return self._number_cell(raw, value, column, where)

    def _map_cell(self, raw, column: Column, where: Position, context: str, comment: str) -> Cell | None:
        """A cell written as a map: a value with a remark (`text:`), or a text alone."""
        if not check_map(self.src, raw, self.problems, CELL, where=where):
            return None
        value = self.value(raw, "value", column.unit) if "value" in raw else None
        if "value" in raw and (value is None or isinstance(value, Empty)):
            if not self.misspelt(raw, "value"):
                self.problems.add(self.src.at(raw, "value", value=True), f"'{raw['value']}' is not a value",
                                  "a number, fraction, percentage or quantity such as 1 move")
            return None
        if column.type in ("number", "distance") and "value" not in raw:
            self.problems.add(where, f"text in numeric column '{column.id}'", "a number, or - for none")
        return Cell(value, self.label(raw, "text", context, comment))

    def _text_cell(self, node, index: int | str, where: Position, context: str, comment: str) -> Cell | None:
        raw = node[index]
        if raw is None:
            return Cell(Empty())
        if not is_text(raw) or isinstance(raw, bool):
            self.problems.add(where, f"'{raw}' is not text", "text, or - for none")
            return None
        text = str(raw).strip()
        return Cell(None, Label(Text(text, context, comment, where), self.values_of(node, index, text, None)))

    def _number_cell(self, raw, value: Value | None, column: Column, where: Position) -> Cell | None:
        if value is None or isinstance(value, Range):
            self.problems.add(where, f"non-numeric value '{raw}' in numeric column '{column.id}'",
                              "a number, fraction, signed modifier, percentage or - for none")
            return None
        if column.type == "distance" and isinstance(value, Quantity) and value.unit not in DISTANCE_UNITS:
            self.problems.add(where, f"'{raw}' is not a distance in column '{column.id}'",
                              "a number of " + (column.unit or "a unit"))
            return None
        return Cell(value)


def read(src: Source, game, problems: Problems) -> Table | None:
    data = src.data
    if not check_map(src, data, problems, SHAPE):
        return None
    table_id = str(data["id"])
    check_id(src, data, "id", problems, what="table")
    r = Reader(src, problems, table_id, getattr(game, "icons", None))
    form = str(data.get("form", "grid"))
    if form not in FORMS:
        problems.add(src.at(data, "form", value=True), f"unknown table form '{form}'", ", ".join(FORMS))
        return None
    unit = data.get("unit")
    if unit is not None and str(unit) not in UNITS:
        problems.add(src.at(data, "unit", value=True), f"unknown unit '{unit}'", ", ".join(UNITS))
        unit = None
        r.unit_reported = True
    title = text_at(src, data, "title", table_id, f"Title of table {table_id}", problems)
    table = Table(table_id, title, form, [], [], src, unit=str(unit) if unit else None,
                  intro=r.label(data, "intro", f"{table_id}/intro", f"Text before table {table_id}"),
                  corner=r.label(data, "corner", f"{table_id}/corner",
                                 f"Header above the row labels of table {table_id}"),
                  keys_both_sides=str(data.get("row_keys", "left")) == "both")
    if str(data.get("row_keys", "left")) not in ("left", "both"):
        problems.add(src.at(data, "row_keys", value=True), f"unknown row_keys '{data['row_keys']}'", "left, both")
    default_type = str(data.get("type", "any"))
    if default_type not in TYPES:
        problems.add(src.at(data, "type", value=True), f"unknown column type '{default_type}'", ", ".join(TYPES))
        default_type = "any"
    if form == "modifiers":
        table.columns = [Column("value", None, None, "number", table.unit)]
        _read_items(r, data, table)
    else:
        table.columns = _read_columns(r, data, table, default_type)
        if form == "bands":
            _read_bands(r, data, table)
        else:
            _read_rows(r, data, table)
        table.groups = _read_groups(r, data, table)
    for i, note in enumerate(_as_list(r, data, "notes")):
        if not is_text(note):
            problems.add(src.at(data["notes"], i), "a note must be text", "- ...")
            continue
        table.notes.append(Label(Text(str(note).strip(), f"{table_id}/notes", f"Note under table {table_id}",
                                      src.at(data["notes"], i))))
    return table


def _as_list(r: Reader, node, key: str, required: bool = False) -> list:
    value = node.get(key)
    if value is None:
        if required:
            r.problems.add(r.src.at(node), f"missing field '{key}'", f"{key}:\n  - ...")
        return []
    if not isinstance(value, list):
        r.problems.add(r.src.at(node, key, value=True), f"{key} must be a list", f"{key}:\n  - ...")
        return []
    return value


def _read_columns(r: Reader, data, table: Table, default_type: str) -> list[Column]:
    columns: list[Column] = []
    seen: dict[str, int] = {}
    for i, node in enumerate(_as_list(r, data, "columns", required=True)):
        if not check_map(r.src, node, r.problems, COLUMN, where=r.src.at(data["columns"], i)):
            continue
        cid = r.ident(node, seen, "column")
        if cid is None:
            continue
        ctype = str(node.get("type", default_type))
        if ctype not in TYPES:
            r.problems.add(r.src.at(node, "type", value=True), f"unknown column type '{ctype}'", ", ".join(TYPES))
            ctype = "any"
        unit = _column_unit(r, node, table, cid, ctype)
        key = _column_key(r, node, unit if ctype == "distance" else None) if "key" in node else None
        label = r.label(node, "label", f"{table.id}/column/{cid}", f"Column header of table {table.id}")
        columns.append(Column(cid, label, key, ctype, unit))
    return columns


def _column_unit(r: Reader, node, table: Table, cid: str, ctype: str) -> str | None:
    """A column's unit, its own or the table's; a distance column needs a distance unit."""
    unit = str(node.get("unit") or table.unit or "") or None
    reported = r.unit_reported and node.get("unit") is None
    if unit is not None and unit not in UNITS:
        r.problems.add(r.src.at(node, "unit", value=True), f"unknown unit '{unit}'", ", ".join(UNITS))
        unit, reported = None, True
    if ctype == "distance" and unit not in DISTANCE_UNITS and not reported:  # not the same mistake again
        r.problems.add(r.src.at(node), f"distance column '{cid}' without a distance unit",
                       "unit: cm (on the column or the table)")
    return unit


def _column_key(r: Reader, node, unit: str | None) -> Value | None:
    key = r.value(node, "key", unit)
    if key is None or isinstance(key, Empty):
        r.problems.add(r.src.at(node, "key", value=True), f"column key '{node['key']}' is not a value",
                       "a number, range or quantity; or label: for text")
    return key


def _read_rows(r: Reader, data, table: Table) -> None:
    seen: dict = {}
    for i, node in enumerate(_as_list(r, data, "rows", required=True)):
        where = r.src.at(data["rows"], i)
        if not check_map(r.src, node, r.problems, ROW, where=where):
            continue
        key = None
        if "key" in node:
            key = r.value(node, "key", None)
            if key is None or isinstance(key, Empty):
                r.problems.add(r.src.at(node, "key", value=True), f"row key '{node['key']}' is not a value",
                               "a number or range; or label: for text")
        if "id" in node:
            rid = r.ident(node, seen, "row")
        elif key is not None and "label" not in node:
            rid = f"row-{i + 1}"  # a row named by data alone has no text, so no msgctxt to keep stable
        else:
            r.problems.add(where, "a row with a label needs an id", "id: ... (the stable name translations follow)")
            rid = None
        if rid is None:
            continue
        label = r.label(node, "label", f"{table.id}/{rid}", f"Row label of table {table.id}")
        table.rows.append(Row(rid, label, key, _read_cells(r, node, table, rid)))


def _read_cells(r: Reader, node, table: Table, rid: str) -> list[Cell]:
    cells = node.get("cells")
    if not isinstance(cells, list):
        r.problems.add(r.src.at(node, "cells", value=True), "cells must be a list", "[1, 2, ...]")
        return []
    if len(cells) != len(table.columns):
        r.problems.add(r.src.at(node, "cells", value=True),
                       f"row '{rid}' has {len(cells)} cells, the table has {len(table.columns)} columns",
                       f"{len(table.columns)} cells ({', '.join(c.id for c in table.columns)})")
        return []
    out = [r.cell(cells, j, column, rid) for j, column in enumerate(table.columns)]
    return [c for c in out if c is not None] if all(out) else []


def _read_items(r: Reader, data, table: Table) -> None:
    seen: dict = {}
    for i, node in enumerate(_as_list(r, data, "items", required=True)):
        if not check_map(r.src, node, r.problems, ITEM, where=r.src.at(data["items"], i)):
            continue
        rid = r.ident(node, seen, "item")
        if rid is None:
            continue
        label = r.label(node, "label", f"{table.id}/{rid}", f"Item of the list {table.id}")
        cells = [Cell(Empty())]
        if "value" in node:
            cell = r.cell(node, "value", table.columns[0], rid)
            cells = [cell] if cell else []
        table.rows.append(Row(rid, label, None, cells))


def _read_bands(r: Reader, data, table: Table) -> None:
    seen: dict = {}
    placed: list[tuple[Range, Any, str]] = []
    broken = False
    for i, node in enumerate(_as_list(r, data, "bands", required=True)):
        where = r.src.at(data["bands"], i)
        if not check_map(r.src, node, r.problems, BAND, where=where):
            continue
        rid = r.ident(node, seen, "band")
        key = r.value(node, "range", None)
        if isinstance(key, Num):
            key = Range(key, key)
        if not isinstance(key, Range):
            r.problems.add(r.src.at(node, "range", value=True), f"'{node['range']}' is not a range",
                           "4-7, 8+ (8 and more) or 12- (12 or less)")
            broken = True
            continue
        if rid is None:
            continue
        placed.append((key, r.src.at(node, "range", value=True), str(node["range"])))
        table.rows.append(Row(rid, None, key, _read_cells(r, node, table, rid)))
    if not broken:  # with a band unreadable, gaps and overlaps would only echo that problem
        check_bands(placed, r.problems)


def _read_groups(r: Reader, data, table: Table) -> list[Group]:
    groups = []
    ids = [c.id for c in table.columns]
    for i, node in enumerate(_as_list(r, data, "groups")):
        if not check_map(r.src, node, r.problems, GROUP, where=r.src.at(data["groups"], i)):
            continue
        ends = []
        for key in ("from", "to"):
            if str(node[key]) not in ids:
                r.problems.add(r.src.at(node, key, value=True), f"unknown column '{node[key]}'", ", ".join(ids))
            else:
                ends.append(ids.index(str(node[key])))
        if len(ends) < 2:
            continue
        if ends[1] < ends[0]:
            r.problems.add(r.src.at(node, "to", value=True), "group ends before it starts", "to: a later column")
            continue
        label = r.label(node, "label", f"{table.id}/group/{node['from']}",
                        f"Header over several columns of table {table.id}")
        if label:
            groups.append(Group(label, ends[0], ends[1] - ends[0] + 1))
    return groups
