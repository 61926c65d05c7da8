"""The rule booklet: front matter and glossary from YAML, its rules from Markdown files (`rules`)."""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from ..errors import Position, Problems
from ..source.shape import (
    ID,
    Field,
    Shape,
    choice,
    const,
    date,
    flag,
    ident,
    list_of,
    name_fault,
    num,
    optional_text,
    string,
    text,
)
from ..source.yamlfile import Source, check_map
from .playsheet import POINTS, points
from .rules import (
    BOXES,
    Block,
    Box,
    Cell,
    Directive,
    Heading,
    Image,
    ListBlock,
    Paragraph,
    Row,
    RulesReader,
    Table,
    Verbatim,
    walk,
)
from .sequence_steps import flag_at
from .text import LANGUAGE_TAG, Text, forms_at, inline_placeholders, optional_text_at, text_at

__all__ = ["BOXES", "Block", "Booklet", "Box", "Cell", "Directive", "Heading", "Image", "ListBlock", "Paragraph",
           "Row", "Table", "Term", "Verbatim", "read", "walk"]

KIND = "booklet"
PAGE_SIZES = {"A4": "A4", "A5": "A5", "Letter": "letter"}

# -- the shape of a source (aids.source.shape: what check_map accepts and the JSON Schema says) --------------
PAGES = Shape("pages", (
    num("goal", "the most pages it may take, in every language", 1, 2000, integer=True),
    num("multiple", "its page count a multiple of this (4: saddle stitched)", 2, 32, integer=True),
    Field("min_type", POINTS, doc="the smallest type it may tighten to, to meet the goal (designed: 10pt)"),
))
TERM = Shape("glossary entry", (
    Field("id", ident(), True), Field("term", text(), True),
    Field("abbr", optional_text(), doc="its abbreviation, printed as it is"),
    Field("original", optional_text(), doc="the term in the original rules"),
    Field("definition", optional_text()),
    Field("forms", list_of(string()), doc="its other forms in the source language, found in the text too"),
))
SHAPE = Shape(KIND, (
    Field("kind", const(KIND), True), Field("id", ident(), True), Field("title", text(), True),
    Field("files", list_of(string(), min_items=1), True, "its Markdown files, in order, beside this one"),
    Field("subtitle", optional_text()), Field("author", optional_text()),
    Field("label", optional_text(), doc="what it is called above its title, translated (default: Rule booklet): "
                                        "Scenario, Mission, Appendix"),
    Field("title_page", flag("the title on a page of its own (default: true)")),
    Field("contents", flag("a contents page (default: when a heading is numbered)")),
    Field("translator", {"anyOf": [{"type": ["string", "null"]}, {"type": "object", "additionalProperties":
                                                                  {"type": "string"}}]},
          doc="a name, or a name per language: {pl: Name}"),
    Field("version", optional_text(), doc="(default: the game's version)"),
    Field("published", date("(default: the game's date)")),
    Field("page_size", choice(PAGE_SIZES)),
    num("columns", "1, or 2 for a two-column page", 1, 2, integer=True),
    num("binding", "mm added to the inner margin of facing pages", 0, 30),
    Field("chapter_pages", flag("each chapter (a level-1 heading) begins a new page; a long booklet is then laid "
                                "out in parts of some chapters each, in parallel, and a part is reused while "
                                "unchanged")),
    Field("glossary", list_of(TERM)),
    Field("original_language", string("the language of the glossary's abbreviations and original names (the rules "
                                      "it translates: en), marked on the page for screen readers and hyphenation")),
    Field("pages", PAGES, doc="a page-count goal: the type tightens, down to min_type, until every language meets it"),
), doc="A rule booklet: numbered Markdown chapters with boxes, tables, a glossary and cross-references.")


@dataclass
class Term:
    id: str
    name: Text
    abbr: str  # the same in every language (ZOC, MP)
    original: str  # the name in the game's original language, shown beside the term on first use
    definition: Text | None
    forms: list[str] = field(default_factory=list)  # inflected forms of the term in the source (aids check)


TYPE = Decimal("10")  # pt: the booklet's designed type size (aids.css)


@dataclass
class PageGoal:
    """`pages:` of a booklet: at most `goal` pages, or a multiple of `multiple`, type tightened to `min_type`."""
    goal: int | None = None
    multiple: int | None = None
    min_type: Decimal = Decimal("9")
    where: Position | None = None

    def target(self, natural: int) -> int:
        """The page count to aim at, for a booklet of `natural` pages at its designed size."""
        target = min(natural, self.goal) if self.goal else natural
        if self.multiple:
            target -= target % self.multiple
        return max(target, 1)


@dataclass
class Booklet:
    id: str
    title: Text
    subtitle: Text | None
    author: str
    translator: dict[str, str]  # language -> name; "*" for every language
    version: str
    published: dt.date | None
    page_size: str
    blocks: list[Block]
    glossary: list[Term]
    source: Source
    kind: str = KIND
    headings: dict[str, Heading] = field(default_factory=dict)
    columns: int = 1  # of text on a printed page (the title page and chapter headings span them)
    binding: float = 5.0  # mm added to the inner margin (left on a right-hand page), for staples or glue
    inputs: list[Path] = field(default_factory=list)  # the rule files and images read, in order
    pages: PageGoal | None = None  # the page count it aims at, if it declares one
    chapter_pages: bool = False  # each chapter begins a new page (and it may be laid out in parts)
    footnotes: dict[str, Text] = field(default_factory=dict)  # {note:key} -> its text (model/footnotes.py)
    label: Text | None = None  # what it is called above its title; None: the kind's name ("Rule booklet")
    title_page: bool = True  # its title on a page of its own
    original_language: str = ""  # of its glossary's abbreviations and original names: "en" (none: unmarked)
    contents: bool | None = None  # a contents page; None: when a heading is numbered

    def term(self, term_id: str) -> Term | None:
        return next((t for t in self.glossary if t.id == term_id), None)

    @property
    def embeds(self) -> list[Directive]:
        return [b for b in walk(self.blocks) if isinstance(b, Directive) and b.name == "embed"]

    def index_section(self) -> str | None:
        """The id of the heading a `::: index` stands under, if the booklet has one."""
        section = None
        for block in walk(self.blocks):
            if isinstance(block, Heading):
                section = block.id
            elif isinstance(block, Directive) and block.name == "index":
                return section
        return None

    def term_sections(self) -> dict[str, list[str]]:
        """Each glossary term's numbered sections, by heading id, in the order the text uses the term in them
        (`{term:id}` in a heading, a paragraph, a list item, a table cell or a footnote): a back-of-book index."""
        found: dict[str, list[str]] = {}
        notes: dict[str, list[Text]] = {}  # a section's footnotes, by its msgctxt
        for note in self.footnotes.values():
            notes.setdefault(note.context, []).append(note)
        section = ""  # the numbered section the text belongs to (an unnumbered heading's text, to the one before)
        for block in walk(self.blocks):
            if isinstance(block, Heading):
                section = block.id if block.number else section
                said = [block.text, *notes.pop(f"{self.id}/{block.id}", [])]
            else:
                said = _texts(block)
            for used in (target for t in said for kind, target, _ in inline_placeholders(t.msgid) if kind == "term"):
                if section and section not in found.setdefault(used, []):
                    found[used].append(section)
        return found

    def messages(self) -> Iterator[Text]:
        yield self.title
        if self.subtitle:
            yield self.subtitle
        if self.label:
            yield self.label
        for block in walk(self.blocks):
            if isinstance(block, (Heading, Paragraph)):
                yield block.text
            elif isinstance(block, Image):
                yield from (text for text in (block.alt, block.caption) if text)
            elif isinstance(block, Table):
                yield from (c for row in [block.head, *block.rows] for c in row if isinstance(c, Text))
        yield from self.footnotes.values()
        for term in self.glossary:
            yield term.name
            if term.definition:
                yield term.definition


def _texts(block: Block) -> list[Text]:
    """The texts of a block that are not headings (a paragraph's, a table's cells)."""
    if isinstance(block, Paragraph):
        return [block.text]
    if isinstance(block, Table):
        return [c for row in [block.head, *block.rows] for c in row if isinstance(c, Text)]
    return []


# --- reading -----------------------------------------------------------------------------------

def read(src: Source, game, problems: Problems) -> Booklet | None:
    data = src.data
    if not check_map(src, data, problems, SHAPE):
        return None
    bid = str(data["id"])
    if fault := name_fault(bid, "id"):
        problems.add(src.at(data, "id", value=True), *fault)
    page_size = _page_size(src, data, problems)
    published = _published(src, data, problems)

    def text(key: str, comment: str) -> Text | None:
        return optional_text_at(src, data, key, f"{bid}/{key}", comment, problems)

    columns, binding = _columns(src, data, problems), _binding(src, data, problems)

    booklet = Booklet(
        bid, text_at(src, data, "title", f"{bid}/title", "Title of the rule booklet", problems),
        text("subtitle", "Subtitle of the rule booklet"),
        _plain(src, data, "author", problems), _read_translator(src, data, problems),
        _plain(src, data, "version", problems) or (game.version if game else ""),
        published or (game.published if game else None), PAGE_SIZES[page_size], [],
        _read_glossary(src, data.get("glossary") or [], bid, problems), src, columns=columns, binding=float(binding))
    if data.get("pages") is not None:
        booklet.pages = _read_pages(src, data, problems)
    booklet.chapter_pages = flag_at(src, data, "chapter_pages", problems, "true or false (default: false)")
    booklet.label = text("label", "What the booklet is called above its title (Scenario, Appendix)")
    booklet.title_page = flag_at(src, data, "title_page", problems, "true or false") if "title_page" in data else True
    booklet.original_language = _language(src, data, "original_language", problems)
    booklet.contents = flag_at(src, data, "contents", problems, "true or false") if "contents" in data else None
    reader = RulesReader(booklet, src, game.folder if game else src.path.parent, problems, getattr(game, "icons", None))
    files = data["files"]
    if not isinstance(files, list) or not files:
        problems.add(src.at(data, "files", value=True), "files must be a list of Markdown files", "- rules.md")
        return None
    for i, name in enumerate(files):
        reader.read_file(str(name), src.at(files, i))
    reader.check_references()
    return booklet


def _page_size(src: Source, data, problems: Problems) -> str:
    page_size = str(data.get("page_size", "A4"))
    if page_size not in PAGE_SIZES:
        problems.add(src.at(data, "page_size", value=True), f"unknown page size '{page_size}'", ", ".join(PAGE_SIZES))
        return "A4"
    return page_size


def _published(src: Source, data, problems: Problems) -> dt.date | None:
    published = data.get("published")
    if published is not None and not isinstance(published, dt.date):
        problems.add(src.at(data, "published", value=True), f"'{published}' is not a date", "YYYY-MM-DD")
        return None
    return published


def _columns(src: Source, data, problems: Problems) -> int:
    columns = data.get("columns", 1)
    if columns not in (1, 2) or isinstance(columns, bool):
        problems.add(src.at(data, "columns", value=True), f"columns '{columns}' is not 1 or 2", "columns: 2")
        return 1
    return columns


def _binding(src: Source, data, problems: Problems) -> int | float:
    """The binding margin in mm, within the shape's bounds."""
    binding = data.get("binding", 5)
    low, high = SHAPE["binding"].low or 0, SHAPE["binding"].high or 0
    if isinstance(binding, bool) or not isinstance(binding, (int, float)) or not low <= binding <= high:
        problems.add(src.at(data, "binding", value=True), f"binding '{binding}' is not a margin in mm",
                     f"a number of mm from {low:g} to {high:g}, e.g. binding: 5")
        return 5
    return binding


def _read_translator(src: Source, data, problems: Problems) -> dict[str, str]:
    """`translator: Name` credits every language; `translator: {pl: Name}` only the languages named."""
    raw = data.get("translator")
    if raw is None or isinstance(raw, str):
        return {"*": raw} if raw else {}
    if not hasattr(raw, "items") or not all(isinstance(v, str) for v in raw.values()):
        problems.add(src.at(data, "translator", value=True), "translator must be a name or a map of names",
                     "translator: Name, or translator: {pl: Name}")
        return {}
    return {str(k): v for k, v in raw.items()}


def _read_glossary(src: Source, raw, bid: str, problems: Problems) -> list[Term]:
    terms: list[Term] = []
    if not isinstance(raw, list):
        problems.add(src.at(raw), "glossary must be a list", "- id: ...\n  term: ...")
        return terms
    for i, node in enumerate(raw):
        if not check_map(src, node, problems, TERM, where=src.at(raw, i)):
            continue
        tid = str(node["id"])
        if not ID.match(tid) or any(t.id == tid for t in terms):
            problems.add(src.at(node, "id", value=True), f"malformed or duplicate term id '{tid}'",
                         "unique lowercase letters, digits and '-'")
            continue
        definition = optional_text_at(src, node, "definition", f"{bid}/glossary/{tid}/definition",
                                    f"Definition of the glossary term {tid}", problems)
        abbr_text, original_text = (_plain(src, node, key, problems) for key in ("abbr", "original"))
        terms.append(Term(tid, text_at(src, node, "term", f"{bid}/glossary/{tid}",
                                       "Glossary term" + (f" (abbreviation {abbr_text})" if abbr_text else ""),
                                       problems),
                          abbr_text, original_text, definition, forms_at(src, node, problems)))
    return terms



def _language(src: Source, data, key: str, problems: Problems) -> str:
    """A language tag (en, pt-BR), '' if absent."""
    value = data.get(key)
    if value is None:
        return ""
    if not isinstance(value, str) or not LANGUAGE_TAG.fullmatch(value):
        problems.add(src.at(data, key, value=True), f"{key} '{value}' is not a language", "a language code: en, pl, ru")
        return ""
    return value


def _plain(src: Source, node, key: str, problems: Problems) -> str:
    """A text printed as it is in every language (an author, an abbreviation): '' if absent, an error if not text."""
    text = optional_text_at(src, node, key, "", "", problems)
    return text.msgid if text else ""


def _read_pages(src: Source, data: dict, problems: Problems) -> PageGoal | None:
    node = data["pages"]
    if not check_map(src, node, problems, PAGES, where=src.at(data, "pages")):
        return None
    goal = PageGoal(where=src.at(data, "pages"))
    for key in ("goal", "multiple"):
        value = node.get(key)
        low, high = PAGES[key].low or 0, PAGES[key].high or 0
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            problems.add(src.at(node, key, value=True), f"{key} '{value}' is not a whole number from {low:g} to "
                         f"{high:g}", f"{key}: {4 if key == 'multiple' else 12}")
        else:
            setattr(goal, key, value)
    if "min_type" in node:
        size = points(str(node["min_type"]))
        if size is None or not 5 <= size <= TYPE:
            problems.add(src.at(node, "min_type", value=True), f"min_type '{node['min_type']}' is not a size in "
                         f"points from 5 to {TYPE}", "min_type: 9pt")
        else:
            goal.min_type = size
    if goal.goal is None and goal.multiple is None:
        problems.add(src.at(data, "pages"), "pages: declares no goal", "goal: 12, or multiple: 4")
        return None
    return goal
