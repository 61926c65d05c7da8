"""The referee card: a fixed-size card of typed sections on a front and a back face (drawn by render/card_pdf)."""
from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..errors import Position, Problems
from ..source.shape import Field
from ..source.yamlfile import Source, check_map
from . import table as tables
from .card_shape import (
    BACK_OFFSET,
    FACES,
    ITEMS,
    KIND,
    KINDS,
    NUMBERING,
    PAPERS,
    SECTION,
    SHAPE,
    SHEET,
    SIGNATURE,
    SIZE_PATTERN,
    SIZES,
    TABLE,
)
from .quantity import parse_number
from .text import Text, as_date, as_number, optional_text_at, placeholders_at, text_at

ID = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
MM = 72 / 25.4

SIZE = re.compile(SIZE_PATTERN.replace("$", r"\Z"))
PLACEHOLDERS = "{num:<number>} or {date:<YYYY-MM-DD>}"


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


@dataclass
class Sheet:
    paper: str
    gutter: float  # mm between cards
    bleed: float  # mm around the trimmed sheet
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm the backs are moved by, for a printer that shifts them


@dataclass
class Card:
    id: str
    title: Text
    subtitle: Text | None
    size_name: str
    width: float  # mm
    height: float  # mm
    faces: list[str]
    columns: int
    font_size: float  # pt, the designed size
    min_font_size: float  # pt, the smallest the fitting may go
    margin: float  # mm
    sheet: Sheet
    sections: list[Section]
    signature: tuple[Text, str, str] | None  # (role, name, face)
    source: Source
    kind: str = KIND
    max_font_size: float = 0.0  # pt, the largest a face may grow to fill its columns (0: the designed size)
    face_labels: bool = False  # print "Front"/"Back" under each face

    def on(self, face: str) -> list[Section]:
        return [s for s in self.sections if s.face == face]

    def messages(self) -> Iterator[Text]:
        yield self.title
        if self.subtitle:
            yield self.subtitle
        for section in self.sections:
            yield from (t for t in (section.title, section.intro) if t)
            for item in section.items:
                if item.term:
                    yield item.term
                yield item.text
            if section.note:
                yield section.note
        if self.signature:
            yield self.signature[0]


# --- reading -----------------------------------------------------------------------------------

def read(src: Source, game, problems: Problems) -> Card | None:
    data = src.data
    if not check_map(src, data, problems, SHAPE):
        return None
    card_id = str(data["id"])
    if not ID.match(card_id):
        problems.add(src.at(data, "id", value=True), f"malformed id '{card_id}'", "lowercase letters, digits and '-'")
    title = text_at(src, data, "title", f"{card_id}/title", "Title of the card", problems)
    subtitle = optional_text_at(src, data, "subtitle", f"{card_id}/subtitle", "Subtitle of the card, under its title",
                              problems)
    size = _read_size(src, data, problems)
    faces = _read_faces(src, data, problems)
    columns = _number(src, data, SHAPE["columns"], 1, problems)
    font_size = _number(src, data, SHAPE["font_size"], 9, problems)
    min_font_size = _number(src, data, SHAPE["min_font_size"], 6, problems)
    if min_font_size > font_size:
        problems.add(src.at(data, "min_font_size", value=True),
                     f"min_font_size {min_font_size} is above font_size {font_size}", f"at most {font_size}")
    # a face grows to fill its columns, by default up to a quarter above the designed size
    max_font_size = _number(src, data, SHAPE["max_font_size"], round(font_size * 1.25 * 4) / 4, problems)
    if max_font_size < font_size:
        problems.add(src.at(data, "max_font_size", value=True),
                     f"max_font_size {max_font_size} is below font_size {font_size}", f"at least {font_size}")
        max_font_size = font_size
    face_labels = data.get("face_labels", False)
    if not isinstance(face_labels, bool):
        problems.add(src.at(data, "face_labels", value=True), "face_labels must be true or false",
                     "face_labels: true")
    margin = _number(src, data, SHAPE["margin"], 5, problems)
    sheet = _read_sheet(src, data, problems)
    if size:
        _check_room(src, data, size, margin, columns, min_font_size, problems)
    sections = _read_sections(src, data, card_id, faces, problems)
    signature = _read_signature(src, data, card_id, faces, problems)
    _check_placeholders(src, data, problems)
    if not size:
        return None
    name, width, height = size
    return Card(card_id, title, subtitle, name, width, height, faces, columns, font_size, min_font_size,
                margin, sheet, sections, signature, src, max_font_size=max_font_size, face_labels=face_labels is True)



def _number(src, node, spec: Field, default, problems):
    """A number in the range its Field declares (the JSON Schema says the same)."""
    key, low, high, integer = spec.name, spec.low, spec.high, spec.integer
    if key not in node:
        return default
    value = node[key]
    wanted = "a whole number" if integer else "a number"
    if isinstance(value, bool) or not isinstance(value, int if integer else (int, float)):
        problems.add(src.at(node, key, value=True), f"{key} '{value}' is not {wanted}", wanted)
        return default
    if (low is not None and value < low) or (high is not None and value > high):
        problems.add(src.at(node, key, value=True), f"{key} {value} is out of range", f"{low:g} to {high:g}")
        return default
    return value


def _read_size(src, data, problems) -> tuple[str, float, float] | None:
    raw = str(data["size"])
    if raw in SIZES:
        return (raw, *SIZES[raw])
    m = SIZE.match(raw)
    if m and float(m.group(1)) > 0 and float(m.group(2)) > 0:
        return (f"{m.group(1)} × {m.group(2)} mm", float(m.group(1)), float(m.group(2)))
    problems.add(src.at(data, "size", value=True), f"unknown card size '{raw}'",
                 ", ".join(SIZES) + " or <width>x<height> in mm, e.g. 63x88")
    return None


def _check_room(src, data, size, margin, columns, min_font_size, problems) -> None:
    """A card must hold at least one line of a dozen characters per column at the smallest size."""
    name, width, height = size
    line_mm = min_font_size * 1.25 / MM
    column_mm = (width - 2 * margin) / columns
    if height - 2 * margin < 2 * line_mm or column_mm < 12 * min_font_size * 0.5 / MM:
        need_w = 2 * margin + columns * 12 * min_font_size * 0.5 / MM
        need_h = 2 * margin + 2 * line_mm
        problems.add(src.at(data, "size", value=True),
                     f"card {name} cannot fit a single line of text at {min_font_size} pt "
                     f"within {margin} mm margins",
                     f"a card of at least {need_w:.0f} × {need_h:.0f} mm")


def _read_faces(src, data, problems) -> list[str]:
    faces = data.get("faces", list(FACES))
    if not isinstance(faces, list) or not faces or any(str(f) not in FACES for f in faces) \
            or len(set(faces)) != len(faces):
        problems.add(src.at(data, "faces", value=True), "faces must be a list of distinct faces",
                     "[front, back] or [front]")
        return list(FACES)
    return [f for f in FACES if f in faces]


def _read_sheet(src, data, problems) -> Sheet:
    node = data.get("sheet")
    if node is None:
        return Sheet("A4", 5.0, 3.0)
    if not check_map(src, node, problems, SHEET):
        return Sheet("A4", 5.0, 3.0)
    paper = str(node.get("paper", "A4"))
    if paper not in PAPERS:
        problems.add(src.at(node, "paper", value=True), f"unknown paper '{paper}'", ", ".join(PAPERS))
        paper = "A4"
    offset = node.get("back_offset", [0, 0])
    if not (isinstance(offset, list) and len(offset) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= BACK_OFFSET for v in offset)):
        problems.add(src.at(node, "back_offset", value=True), f"back_offset {offset} is not two distances in mm",
                     f"[x, y] in mm from -{BACK_OFFSET} to {BACK_OFFSET}, as the duplex test page reads them, "
                     "e.g. back_offset: [0.5, -1]")
        offset = [0, 0]
    return Sheet(paper, float(_number(src, node, SHEET["gutter"], 5, problems)),
                 float(_number(src, node, SHEET["bleed"], 3, problems)), (float(offset[0]), float(offset[1])))


def _read_sections(src, data, card_id, faces, problems) -> list[Section]:
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
        if not _check_id(src, node, problems, seen, "section"):
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
        if not _check_id(src, child, problems, seen, "item"):
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


def _check_id(src, node, problems, seen: dict, what: str) -> bool:
    value = node.get("id")
    if not ID.match(str(value)):
        problems.add(src.at(node, "id", value=True), f"malformed {what} id '{value}'",
                     "lowercase letters, digits and '-', e.g. air-movement")
        return False
    if value in seen:
        problems.add(src.at(node, "id", value=True),
                     f"duplicate {what} id '{value}' (first used on line {seen[value]})",
                     f"{what} ids unique among siblings")
        return False
    seen[value] = src.at(node, "id", value=True).line
    return True


def _read_signature(src, data, card_id, faces, problems):
    node = data.get("signature")
    if node is None:
        return None
    if not check_map(src, node, problems, SIGNATURE):
        return None
    face = str(node.get("face", faces[-1]))
    if face not in faces:
        problems.add(src.at(node, "face", value=True), f"signature on face '{face}', which this card does not have",
                     ", ".join(faces))
        return None
    role = text_at(src, node, "role", f"{card_id}/signature", "Role of the person who signs the card (before the name)",
                 problems)
    return role, str(node["name"]), face


def _check_placeholders(src, data, problems) -> None:
    """{num:..} and {date:..} are the only placeholders of a card; their values must parse."""

    def walk(node):
        if isinstance(node, CommentedMap):
            pairs = node.items()
        elif isinstance(node, CommentedSeq):
            pairs = enumerate(node)
        else:
            return
        for key, value in pairs:
            if not isinstance(value, str):
                walk(value)
                continue
            for kind, arg, whole, offset in placeholders_at(value):
                where = src.at_text(node, key, offset) if isinstance(node, CommentedMap) else src.at(node, key)
                if kind not in ("num", "date"):
                    problems.add(where, f"unknown placeholder '{whole}'", PLACEHOLDERS)
                elif kind == "num" and as_number(arg) is None:
                    problems.add(where, f"'{arg}' in {whole} is not a number", "{num:30}, {num:-3}, {num:2.5}")
                elif kind == "date" and as_date(arg) is None:
                    problems.add(where, f"'{arg}' in {whole} is not a date", "{date:1920-08-11}")

    walk(data)


def link(card: Card, models: dict, problems: Problems) -> None:
    """Each section of kind table gets the table aid it names (None in `models`: an aid that failed to read)."""
    known = ", ".join(sorted(i for i, m in models.items() if isinstance(m, tables.Table))) or "the id of a table aid"
    for section in card.sections:
        if section.table_id is None:
            continue
        target = models.get(section.table_id)
        where = section.table_where or card.source.at(card.source.data)
        if section.table_id not in models:
            problems.add(where, f"embedded table '{section.table_id}' does not exist", known)
        elif target is None:
            problems.add(where, f"table '{section.table_id}' has errors (reported above)",
                         "the table fixed first")
        elif not isinstance(target, tables.Table):
            problems.add(where, f"aid '{section.table_id}' of kind '{target.kind}' cannot be embedded "
                         "in a card", f"a table: {known}")
        else:
            section.table = target
