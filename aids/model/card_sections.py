"""A referee card's sections and their items, read from its source (model/card.py reads the card around them)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from ..errors import Position
from ..source.shape import ID, name_fault
from ..source.yamlfile import check_map
from . import table as tables
from .card_shape import (
    ITEMS,
    KINDS,
    NUMBERING,
    SECTION,
    TABLE,
)
from .quantity import parse_number
from .text import Text, optional_text_at, text_at


@dataclass
class Item:
    id: str
    text: Text
    term: Text | None = None  # legend symbol or ladder penalty
    glyph: str | None = None  # a character drawn before a legend symbol (★)
    points: int | float | Decimal | None = None


@dataclass
class Section:
    id: str
    kind: str
    face: str
    title: Text | None
    intro: Text | None
    note: Text | None
    items: list[Item]
    numbering: str
    where: Position
    table_id: str | None = None  # kind `table`: the id it names, and where
    table_where: Position | None = None
    table: tables.Table | None = None  # set by link()


def read_sections(src, data, card_id, faces, problems) -> list[Section]:
    raw = data["sections"]
    if not isinstance(raw, list):
        problems.add(src.at(data, "sections", value=True), "sections must be a list", "- id: ...\n  kind: ...")
        return []
    sections: list[Section] = []
    seen: dict[str, int] = {}
    for i, node in enumerate(raw):
        if not check_map(src, node, problems, SECTION, where=src.at(raw, i)):
            continue
        sid = str(node["id"])
        if not check_card_id(src, node, problems, seen, "section"):
            continue
        kind = str(node["kind"])
        if kind not in KINDS:
            problems.add(src.at(node, "kind", value=True), f"unknown section kind '{kind}'", ", ".join(KINDS))
            continue
        face = str(node["face"])
        if face not in faces:
            problems.add(src.at(node, "face", value=True), f"section '{sid}' is on face '{face}', "
                         "which this card does not have", ", ".join(faces))
            continue
        numbering = str(node.get("numbering", "decimal"))
        if numbering not in NUMBERING or ("numbering" in node and kind not in ("steps", "ladder")):
            problems.add(src.at(node, "numbering", value=True), f"numbering '{numbering}' does not apply here",
                         ", ".join(NUMBERING) + " on steps or ladder sections")
            numbering = "decimal"
        ctx = f"{card_id}/{sid}"

        def optional(key, what):
            return optional_text_at(src, node, key, f"{ctx}/{key}", f"{what} of section {sid} ({kind})", problems)

        table_id, table_where = _read_table_id(src, node, kind, sid, problems)
        items = _read_items(src, node, kind, ctx, sid, problems) if kind != TABLE else []
        sections.append(Section(sid, kind, face, optional("title", "Title"), optional("intro", "Introduction"),
                                optional("note", "Note at the end"), items, numbering, src.at(node),
                                table_id, table_where))
    return sections


def _read_table_id(src, node, kind, sid, problems) -> tuple[str | None, Position | None]:
    """`table: <id>` on a section of kind table (and only there); link() checks that the id is a table."""
    if kind != TABLE:
        if "table" in node:
            problems.add(src.at(node, "table"), f"section '{sid}' of kind '{kind}' cannot name a table",
                         "kind: table with table: <id>, or items")
        return None, None
    if "items" in node:
        problems.add(src.at(node, "items"), f"table section '{sid}' has items",
                     "table: <id> alone (the rows are the table's own)")
    if node.get("table") is None or not ID.match(str(node["table"])):
        problems.add(src.at(node, "table", value=True) if "table" in node else src.at(node),
                     f"table section '{sid}' does not name a table", "table: <id of a table of this game>")
        return None, None
    return str(node["table"]), src.at(node, "table", value=True)


def _read_items(src, node, kind, ctx, sid, problems) -> list[Item]:
    raw = node.get("items")
    if raw is None:
        problems.add(src.at(node), f"missing field 'items' in section '{sid}'", "items: [...]")
        return []
    if not isinstance(raw, list) or not raw:
        problems.add(src.at(node, "items", value=True), "items must be a non-empty list", "- id: ...\n  text: ...")
        return []
    items: list[Item] = []
    seen: dict[str, int] = {}
    for n, child in enumerate(raw, start=1):
        if not check_map(src, child, problems, ITEMS[kind], where=src.at(raw, n - 1)):
            continue
        if not check_card_id(src, child, problems, seen, "item"):
            continue
        iid = str(child["id"])
        where = f"item {n} of section {sid} ({kind})"
        item = Item(iid, text_at(src, child, "text", f"{ctx}/{iid}", where.capitalize(), problems))
        if "symbol" in child:
            item.term = text_at(src, child, "symbol", f"{ctx}/{iid}/symbol", f"Symbol named in {where}", problems)
        if "penalty" in child:
            item.term = text_at(src, child, "penalty", f"{ctx}/{iid}/penalty", f"Penalty of {where}", problems)
        if "glyph" in child:
            item.glyph = str(child["glyph"])
            if len(item.glyph) > 2:
                problems.add(src.at(child, "glyph", value=True), f"glyph '{item.glyph}' is not one character",
                             "a single character such as ★")
        if "points" in child:
            points = _points(child["points"])
            if points is None:
                problems.add(src.at(child, "points", value=True), f"points '{child['points']}' is not a number",
                             "a number such as 30, -3, 2.5 or \"+30\"")
                continue
            if kind == "ranking" and not isinstance(points, int):
                # gettext's plural forms are defined for whole numbers only ("3 punkty", "5 punktów")
                problems.add(src.at(child, "points", value=True), f"ranking points '{points}' are not a whole number",
                             "a whole number such as 3 or 0")
                continue
            item.points = points
        items.append(item)
    return items


def _points(raw) -> int | float | Decimal | None:
    """Points as YAML read them (30, -3, 2.5) or as text a designer quoted to keep the sign ("+30", "−3")."""
    if isinstance(raw, bool) or (isinstance(raw, float) and not math.isfinite(raw)):
        return None  # .nan and 1e400 (infinity) are no points
    if isinstance(raw, (int, float)):
        return raw
    num = parse_number(raw) if isinstance(raw, str) else None
    if num is None:
        return None
    return int(num.value) if num.places == 0 else num.value


def check_card_id(src, node, problems, seen: dict, what: str) -> bool:
    value = node.get("id")
    if fault := name_fault(value, f"{what} id"):
        problems.add(src.at(node, "id", value=True), *fault)
        return False
    if value in seen:
        problems.add(src.at(node, "id", value=True),
                     f"duplicate {what} id '{value}' (first used on line {seen[value]})",
                     f"{what} ids unique among siblings")
        return False
    seen[value] = src.at(node, "id", value=True).line
    return True
