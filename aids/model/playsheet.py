"""The playsheet: tables, modifier lists, result bands and a checklist on a page budget, in columns."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from ..errors import Position, Problems
from ..source.shape import AnyOf, Field, Shape, choice, const, ident, list_of, num, optional_text, string, text
from ..source.yamlfile import Source, check_id, check_map
from . import table as tables
from .text import Text, optional_text_at, placeholders_at, text_at

KIND = "playsheet"
PAGE_SIZES = ("A4", "Letter", "A3")
ORIENTATIONS = ("landscape", "portrait")
_POINTS = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*pt\Z")

# -- the shape of a source (aids.source.shape: what check_map accepts and the JSON Schema says) --------------
POINTS = string("a size in points, e.g. 7.5pt", pattern=r"^[0-9]+(\.[0-9]+)?\s*pt$")
PAGE = Shape("page", (
    Field("size", choice(PAGE_SIZES)), Field("orientation", choice(ORIENTATIONS)),
    num("columns", "columns on a page", 1, 6, integer=True),
    num("budget", "the most pages it may take", 1, 6, integer=True),
    Field("type", POINTS, doc="the type size it is set at"),
    Field("min_type", POINTS, doc="the smallest it may shrink to, to keep within the budget"),
))
SPAN = choice(("column", "all"), "column: in one column; all: across the page")
TABLE_BLOCK = Shape("table block", (Field("table", ident("the id of a table of the game"), True), Field("span", SPAN)))
CHECKLIST_ITEM = Shape("checklist item", (Field("id", ident(), True), Field("text", text(), True)))
CHECKLIST = Shape("checklist", (Field("checklist", ident(), True), Field("title", text(), True),
                                Field("items", list_of(CHECKLIST_ITEM), True), Field("span", SPAN)))
SHAPE = Shape(KIND, (
    Field("kind", const(KIND), True), Field("id", ident(), True), Field("title", text(), True),
    Field("content", list_of(AnyOf((TABLE_BLOCK, CHECKLIST))), True, "its blocks: tables and checklists"),
    Field("subtitle", optional_text()), Field("page", PAGE),
), doc="A playsheet: the game's tables and checklists on a page budget, in columns.")


@dataclass
class Page:
    size: str = "A4"
    orientation: str = "landscape"
    columns: int = 3
    budget: int = 2
    type: Decimal = Decimal("8")
    min_type: Decimal = Decimal("8")
    where: Position | None = None  # of the budget, for the overflow message

    @property
    def css_size(self) -> str:
        return f"{self.size} {self.orientation}"


@dataclass
class Checklist:
    id: str
    title: Text
    items: list[Text]


@dataclass
class Block:
    where: Position
    table_id: str | None = None
    table: tables.Table | None = None  # set by link()
    checklist: Checklist | None = None
    span: bool = False  # across all columns


@dataclass
class Playsheet:
    id: str
    title: Text
    subtitle: Text | None
    page: Page
    blocks: list[Block]
    source: Source
    kind: str = KIND

    def messages(self) -> Iterator[Text]:
        # The embedded tables are aids of their own: their texts are extracted with them.
        yield self.title
        if self.subtitle:
            yield self.subtitle
        for block in self.blocks:
            if block.checklist:
                yield block.checklist.title
                yield from block.checklist.items


# --- reading -----------------------------------------------------------------------------------

def read(src: Source, game, problems: Problems) -> Playsheet | None:
    data = src.data
    if not check_map(src, data, problems, SHAPE):
        return None
    sheet_id = str(data["id"])
    check_id(src, data, "id", problems, what="playsheet")
    title = text_at(src, data, "title", sheet_id, "Title of the playsheet", problems)
    subtitle = optional_text_at(src, data, "subtitle", f"{sheet_id}/subtitle", "Subtitle of the playsheet", problems)
    page = _read_page(src, data.get("page"), data, problems)
    content = data["content"]
    if not isinstance(content, list):
        problems.add(src.at(data, "content", value=True), "content must be a list", "- table: <table id>")
        return None
    blocks = []
    for i, node in enumerate(content):
        where = src.at(content, i)
        if not hasattr(node, "get") or ("table" in node) == ("checklist" in node):
            problems.add(where, "a block is either a table or a checklist", "table: <id> or checklist: <id>")
            continue
        if "table" in node:
            if check_map(src, node, problems, TABLE_BLOCK, where=where):
                blocks.append(Block(src.at(node, "table", value=True), table_id=str(node["table"]),
                                    span=_span(src, node, problems)))
        elif check_map(src, node, problems, CHECKLIST, where=where):
            checklist = _read_checklist(src, node, sheet_id, problems)
            if checklist:
                blocks.append(Block(where, checklist=checklist, span=_span(src, node, problems)))
    return Playsheet(sheet_id, title, subtitle, page, blocks, src)


def _span(src, node, problems) -> bool:
    span = node.get("span", "column")
    if span not in ("column", "all"):
        problems.add(src.at(node, "span", value=True), f"unknown span '{span}'", "column, all")
    return span == "all"


def _read_checklist(src, node, sheet_id: str, problems) -> Checklist | None:
    cid = str(node["checklist"])
    if not check_id(src, node, "checklist", problems, what="checklist"):
        return None
    ctx = f"{sheet_id}/{cid}"
    title = text_at(src, node, "title", ctx, "Title of a checklist", problems)
    items: list[Text] = []
    seen: dict[str, int] = {}
    raw = node["items"]
    if not isinstance(raw, list):
        problems.add(src.at(node, "items", value=True), "items must be a list", "- {id: ..., text: ...}")
        return None
    for i, item in enumerate(raw, start=1):
        if not check_map(src, item, problems, CHECKLIST_ITEM, where=src.at(raw, i - 1)):
            continue
        if not check_id(src, item, "id", problems, seen, "checklist item"):
            continue
        iid = str(item["id"])
        text = text_at(src, item, "text", f"{ctx}/{iid}", f"Item {i} of checklist {cid}", problems)
        if placeholders_at(text.msgid):
            problems.add(src.at(item, "text", value=True), "a checklist item cannot hold a placeholder",
                         "plain text with inline Markdown")
        items.append(text)
    return Checklist(cid, title, items)


def points(text: str) -> Decimal | None:
    """A size in points as sources give it ("7.5pt"), or None."""
    m = _POINTS.match(text.strip())
    return Decimal(m.group(1)) if m else None


def _read_page(src, node, parent, problems) -> Page:
    page = Page()
    if node is None:
        return page
    if not check_map(src, node, problems, PAGE, where=src.at(parent, "page")):
        return page
    _read_page_choices(src, node, page, problems)
    _read_page_numbers(src, node, page, problems)
    page.where = src.at(node, "budget", value=True) if "budget" in node else src.at(parent, "page")
    _read_page_sizes(src, node, page, problems)
    if "min_type" not in node:
        page.min_type = page.type
    elif page.min_type > page.type:
        problems.add(src.at(node, "min_type", value=True), "min_type is larger than type",
                     f"at most {page.type}pt")
    return page


def _read_page_choices(src, node, page: Page, problems: Problems) -> None:
    """The page's size and orientation, each one of its choices."""
    for key, choices in (("size", PAGE_SIZES), ("orientation", ORIENTATIONS)):
        if key in node:
            if str(node[key]) not in choices:
                problems.add(src.at(node, key, value=True), f"unknown page {key} '{node[key]}'", ", ".join(choices))
            else:
                setattr(page, key, str(node[key]))


def _read_page_numbers(src, node, page: Page, problems: Problems) -> None:
    """The page's columns and budget, whole numbers within the shape's bounds."""
    for key in ("columns", "budget"):
        if key in node:
            value = node[key]
            low, high = PAGE[key].low, PAGE[key].high
            if not isinstance(value, int) or isinstance(value, bool) or not (low or 0) <= value <= (high or 0):
                problems.add(src.at(node, key, value=True),
                             f"{key} '{value}' is not a whole number from {low:g} to {high:g}", f"{key}: 2")
            else:
                setattr(page, key, value)


def _read_page_sizes(src, node, page: Page, problems: Problems) -> None:
    """The page's type and min_type, sizes in points."""
    for key in ("type", "min_type"):
        if key in node:
            size = points(str(node[key]))
            if size is not None:
                setattr(page, key, size)
            else:
                problems.add(src.at(node, key, value=True), f"{key} '{node[key]}' is not a size in points", "7.5pt")


def link(sheet: Playsheet, models: dict, problems: Problems) -> None:
    """Each `table:` block gets the table aid it names (None in `models`: an aid that failed to read)."""
    known = sorted(i for i, m in models.items() if isinstance(m, tables.Table))
    for block in sheet.blocks:
        if block.table_id is None:
            continue
        target = models.get(block.table_id)
        if block.table_id in models and target is None:
            problems.add(block.where, f"table '{block.table_id}' has errors (reported above)",
                         "the table fixed first")
        elif not isinstance(target, tables.Table):
            problems.add(block.where, f"reference to unknown table '{block.table_id}'",
                         ", ".join(known) or "a table aid")
        else:
            block.table = target
