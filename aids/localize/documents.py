"""The localized documents: what each kind's localize gives its renderers, as TypedDicts.

A localized document is the template context of one aid in one language (`aid` in a template): plain dicts,
lists, strings and runs (`Rich`), which Jinja2 reads by key, the debug dumps print and the caches keep. Typed
here, mypy checks the keys a Python reader takes from them (a card's ReportLab layout, the fitting of a
playsheet or a booklet): a key misspelled, or read and never written, is an error. A key some documents have
and others not is `NotRequired`. The renderers may add keys of their own to a copy (a card's `type_size`, a
face's `fitted`: render/card_fit.py); those are typed where they are added. tests/test_typed_documents.py holds
every sample's documents to these types at run time, so that they cannot drift from what localize makes.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal, NotRequired, TypedDict

from ..errors import Position
from .rich import Rich

# --- sequence -----------------------------------------------------------------------------------


class StepDocument(TypedDict):
    anchor: str  # its HTML id: phase/step/...
    label: str  # "b"
    marker: str  # "b)", as printed before it
    level: int  # 1 for a phase's own steps
    actor: str | None  # "Phasing player:"
    text: Rich
    bullets: list[Rich]  # its unordered list, printed after its text
    note: Rich | None
    see: Rich | None
    steps: list[StepDocument]


class PhaseDocument(TypedDict):
    anchor: str
    number: str  # "3.2"
    title: Rich | None
    side: str | None  # its side's name, "Both sides", or None
    timing: str | None  # "simultaneous", "alternately, ... first"
    mirror: Rich | None  # "Analogously to ..., with the sides swapped."
    rules: list[Rich]
    notes: list[Rich]
    notes_before: bool
    see: Rich | None
    see_text: Rich | None  # a reference in the source's own words, printed as typed where `see` prints
    steps: list[StepDocument]


class SequenceDocument(TypedDict):
    title: str  # its title, or for an untitled one what its kind is called (the document's title)
    titled: bool  # False: no heading printed
    section: str
    phases: list[PhaseDocument]
    lists: bool  # some step has an unordered list (its style is included only then)
    note_label: bool  # "Note:" before each note
    remarks: list[str]  # said under the aid in the build summary: the letters a language skips, where passed


# --- table --------------------------------------------------------------------------------------


class HeaderCell(TypedDict):
    text: Rich | str | None
    scope: str | None  # "col", "colgroup", or None for a blank over a column without a group
    colspan: int
    rowspan: int
    num: bool
    id: NotRequired[str]  # with column groups (link_headers), a header that has a text


class BodyCell(TypedDict):
    text: Rich | str | None
    num: bool  # a number: aligned right, never wrapped
    wrap: bool
    headers: NotRequired[str]  # with column groups (link_headers): the ids of its headers


class BodyRow(TypedDict):
    id: str  # table/row
    th: Rich | str | None  # its label or key; None when no row has one
    cells: list[BodyCell]
    key: str | None  # the key again on the right (keys on both sides)
    th_id: NotRequired[str | None]  # with column groups (link_headers)
    reading: NotRequired[str]  # the row as a sentence, for the search index (table.row_reading)


class LocalizedTable(TypedDict):
    """A table as header rows and body rows of cells: what a playsheet, a card or a booklet embeds."""
    id: str
    title: str
    form: str
    widths: list[float]  # percentages, the row labels' column first
    whole: bool  # short enough to be kept on one page
    intro: Rich | None
    head: list[list[HeaderCell]]
    body: list[BodyRow]
    columns: int
    notes: list[Rich | None]


class TableDocument(TypedDict):
    title: str
    table: LocalizedTable


# --- playsheet ----------------------------------------------------------------------------------


class TableBlock(TypedDict):
    type: Literal["table"]
    span: bool  # across all columns
    table: LocalizedTable


class ChecklistBlock(TypedDict):
    type: Literal["checklist"]
    span: bool
    id: str
    title: str
    items: list[Rich]


class PlaysheetDocument(TypedDict):
    title: str
    subtitle: str
    columns: int
    page_size: str
    type_size: Decimal  # pt, as designed (the PDF's fitting gives a copy its own)
    min_type: Decimal
    blocks: list[TableBlock | ChecklistBlock]


# --- card ---------------------------------------------------------------------------------------


class CardItem(TypedDict):
    id: str
    label: str | None  # a step's or a ladder's letter or number
    value: str | None  # points: "+3", "2 points"
    glyph: str | None
    term: Rich | None
    text: Rich | None


class CardSection(TypedDict):
    id: str
    kind: str  # rules, steps, text, legend, scoring, ranking, ladder, table
    title: str | None
    intro: Rich | None
    note: Rich | None
    items: list[CardItem]
    aid: TableDocument | None  # an embedded table, None when not linked (a card read on its own)


class CardFace(TypedDict):
    id: str  # "front", "back"
    name: str  # in the reader's language
    sections: list[CardSection]


class CardSize(TypedDict):
    name: str
    width: str  # mm, as a number of the language
    height: str


class Signature(TypedDict):
    role: str
    name: Rich  # a name, its language marked where it is not the page's
    face: str


class CardBase(TypedDict):
    """A card but for its faces: what its faces are is the localizing's (CardDocument) or the fitting's."""
    id: str
    title: str
    subtitle: str | None
    size: CardSize
    signature: Signature | None
    continued: str  # "(cont.)", over the part of a table continued from the column before
    # the anchors its change bars go beside: added by the renderer (render/card_sheet.py), never by localize
    changed: NotRequired[frozenset[str]]


class CardDocument(CardBase):
    faces: list[CardFace]


# --- booklet ------------------------------------------------------------------------------------


class BookletCell(TypedDict):
    text: Rich | str
    numeric: bool


class HeadingBlock(TypedDict):
    type: Literal["heading"]
    id: str
    number: str  # "4.1"; "" for an unnumbered heading
    level: int
    text: Rich


class ParagraphBlock(TypedDict):
    type: Literal["paragraph"]
    text: Rich


@dataclass(frozen=True)
class Figure:
    """Where a page finds an image of the game: never its data, and no text (the text checks pass it by).
    A PDF reads `file` (relative to the game folder: the base of its URLs), through the project's url fetcher;
    the web page links `name`, its copy written beside the page (formats.py)."""
    file: str
    name: str


class ImageBlock(TypedDict):
    type: Literal["image"]
    src: Figure  # the language's own variant of the image where it has one
    alt: str
    caption: Rich | str  # "" for none
    at: Position | None  # where its source is, for a warning about its printing (render/laid_out.py)
    width: str  # "50%" of its column (or row), "60mm"; "" as wide as the image is, up to the column


class FiguresBlock(TypedDict):
    """Figures side by side."""
    type: Literal["figures"]
    figures: list[ImageBlock]


class RuleListBlock(TypedDict):
    type: Literal["list"]
    ordered: bool
    start: int
    entries: list[list[BookletBlock]]


class RuleTableBlock(TypedDict):
    type: Literal["table"]
    head: list[BookletCell]
    align: list[str]
    label: str  # its column headers: what names it on a page
    rows: list[list[BookletCell]]


class BoxBlock(TypedDict):
    type: Literal["box"]
    kind: str
    label: str
    blocks: list[BookletBlock]


class WideBlock(TypedDict):
    """Blocks across every column of a two-column page (a table, a figure): ::: wide."""
    type: Literal["wide"]
    blocks: list[BookletBlock]


class BreakBlock(TypedDict):
    type: Literal["break"]
    kind: str  # "page" or "column": where the printed booklet continues


class EmbedBlock(TypedDict):
    type: Literal["embed"]
    kind: str
    template: str
    level: int  # of the heading before it
    aid: Mapping[str, Any]  # the embedded aid's own document, as its kind localizes it (a plugin's too)


class Abbreviation(TypedDict):
    abbr: Rich
    term: str


class AbbreviationsBlock(TypedDict):
    type: Literal["abbreviations"]
    entries: list[Abbreviation]


class GlossaryEntry(TypedDict):
    id: str
    term: str
    abbr: Rich
    original: Rich
    beside: Rich
    definition: Rich | str


class GlossaryBlock(TypedDict):
    type: Literal["glossary"]
    entries: list[GlossaryEntry]


class IndexEntry(TypedDict):
    term: str
    sections: list[Rich]  # links to the numbered sections that use the term (a PDF adds each one's page)


class IndexBlock(TypedDict):
    type: Literal["index"]
    entries: list[IndexEntry]  # sorted as the language's dictionaries sort (localize/collation.py)


BookletBlock = (HeadingBlock | ParagraphBlock | ImageBlock | FiguresBlock | RuleListBlock | RuleTableBlock | BoxBlock
                | EmbedBlock | AbbreviationsBlock | GlossaryBlock | BreakBlock | WideBlock | IndexBlock)


class TocEntry(TypedDict):
    id: str
    number: str  # "": the index's heading, listed unnumbered
    level: int
    text: Rich


class Footnote(TypedDict):
    number: str  # "1", in the order of the references
    text: Rich


class BookletDocument(TypedDict):
    title: str
    subtitle: str
    author: str
    version: str
    translator: str
    published: str
    toc: list[TocEntry]
    blocks: list[BookletBlock]
    columns: int
    binding: float
    chapter_pages: bool
    label: str  # what it is called above its title ("Scenario"); "": the kind's name
    title_page: bool  # its title on a page of its own
    contents: bool  # a contents page
    footnotes: list[Footnote]  # the notes, for the web page's list at its end (the PDF prints each at its page's foot)
    numbered: bool  # a heading is numbered (else its headings are its bookmarks)
    index_section: str  # the id of the heading over its back-of-book index ("": it has none), a bookmark


# --- what every page shows besides its aid: the game, the changes ---------------------------------


class GameDocument(TypedDict):
    title: str  # its words: a footer, a PDF's metadata
    title_runs: Rich  # its words as the page shows them, those of another language marked
    version: str
    imprint: list[str]  # "Version 1.4", "© 1984"
    colophon: list[Rich]  # "Author: ...", the imprint, "Published ...": the page's last line
    change_colour: tuple[float, ...] | None
    published: str
    published_iso: str
    author: str
    author_runs: Rich  # the author as the page shows them
    theme: NotRequired[Any]  # the game's house style: a config.theme.Theme or None (config is no stage below)
    draft: NotRequired[str]  # a draft's footer: "Draft, 80 % translated" (pipeline/pipeline.py)


class ChangelogEntry(TypedDict):
    what: str  # "new", "changed", ... in the reader's language
    text: str
    number: str
    href: str | None
    awaiting: bool  # its translation is not done yet
    lang: str


class ChangelogGroup(TypedDict):
    id: str  # the aid's
    title: str
    entries: list[ChangelogEntry]


class ChangesDocument(TypedDict):
    since: str
    changed: list[str]  # anchors
    removed_before: list[str]
    removed_after: list[str]
    bars: bool
    colour: bool
    legend: str
    log: list[ChangelogGroup] | None
    title: str

