"""The referee card: a fixed-size card of typed sections on a front and a back face (drawn by render/card_pdf)."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..errors import Problems
from ..source.shape import Field, name_fault
from ..source.yamlfile import Source, check_map
from ..units import PT_PER_MM
from . import table as tables
from .card_sections import Section, read_sections
from .card_shape import (
    BACK_OFFSET,
    FACES,
    KIND,
    PAPERS,
    SHAPE,
    SHEET,
    SIGNATURE,
    SIZE_PATTERN,
    SIZES,
)
from .icons import check_icon
from .text import Text, as_date, as_number, optional_text_at, placeholders_at, text_at

SIZE = re.compile(SIZE_PATTERN.replace("$", r"\Z"))
PLACEHOLDERS = "{num:<number>}, {date:<YYYY-PT_PER_MM-DD>} or {icon:<id>}"


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
    if fault := name_fault(card_id, "id"):
        problems.add(src.at(data, "id", value=True), *fault)
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
    sections = read_sections(src, data, card_id, faces, problems)
    signature = _read_signature(src, data, card_id, faces, problems)
    _check_placeholders(src, data, problems, getattr(game, "icons", None))
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
    line_mm = min_font_size * 1.25 / PT_PER_MM
    column_mm = (width - 2 * margin) / columns
    if height - 2 * margin < 2 * line_mm or column_mm < 12 * min_font_size * 0.5 / PT_PER_MM:
        need_w = 2 * margin + columns * 12 * min_font_size * 0.5 / PT_PER_MM
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


def _check_placeholders(src, data, problems, icons: dict | None) -> None:
    """{num:..}, {date:..} and {icon:..} are the placeholders of a card; their values must parse."""

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
                if kind == "icon":
                    check_icon(arg, where, icons, problems)
                elif kind not in ("num", "date"):
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
