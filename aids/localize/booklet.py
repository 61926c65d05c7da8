"""A rule booklet in one language: numbers, references and glossary terms resolved, embedded aids localized."""
from __future__ import annotations

import re
from collections.abc import Collection
from decimal import Decimal
from functools import partial

from ..config import Edition
from ..model.booklet import (
    Block,
    Booklet,
    Box,
    Cell,
    Directive,
    Heading,
    Image,
    ListBlock,
    Paragraph,
    Row,
    Table,
    Term,
    Verbatim,
)
from ..model.text import Text, with_form
from . import rich
from .collation import sort_key
from .documents import (
    AbbreviationsBlock,
    BookletBlock,
    BookletCell,
    BookletDocument,
    BreakBlock,
    EmbedBlock,
    Figure,
    Footnote,
    GlossaryBlock,
    ImageBlock,
    IndexBlock,
    IndexEntry,
    RuleTableBlock,
    TocEntry,
)
from .localizer import Localizer
from .ordinals import ordinal
from .rich import Link, Marked, Rich, Span, item_lines


def box_label(lz: Localizer, kind: str) -> str:
    return {
        "example": lz.pgettext("box in a rule booklet", "Example"),
        "note": lz.pgettext("box in a rule booklet", "Note"),
        "optional": lz.pgettext("box in a rule booklet", "Optional rule"),
        "designer": lz.pgettext("box in a rule booklet", "Designer's note"),
        "exception": lz.pgettext("box in a rule booklet", "Exception"),
    }[kind]


def beside(booklet: Booklet, term: Term, name: str) -> str:
    """What a term's printed `name` is followed by in brackets: its abbreviation, else its original name;
    nothing when the name already says it (English "zone of control" needs no "(Zone of Control)", nor
    "restricted zone of control" a "(Restricted ZOC)": abbreviations of the glossary are read spelled out)."""
    aside = term.abbr or term.original
    said = name.casefold()
    if not aside or aside.casefold() in said:
        return ""
    spelled = aside
    for other in booklet.glossary:
        if other.abbr and other.original and other is not term:
            spelled = re.sub(rf"\b{re.escape(other.abbr)}\b", other.original, spelled)
    return "" if spelled.casefold() in said else aside


class _Localizing:
    """One booklet in one language: terms shown with their original name on first use only."""

    def __init__(self, booklet: Booklet, lz: Localizer, edition: Edition | None):
        self.booklet, self.lz, self.edition = booklet, lz, edition
        self.used: set[str] = set()
        self.level = 0  # of the last heading: an embedded aid's headings come a level under it
        self.rules = {h.label: h.id for h in booklet.headings.values() if h.number}  # for embedded aids' rule: links
        self.footnotes: dict[str, Footnote] = {}  # in the order of their references: numbered 1, 2, ...

    def ref(self, target: str) -> Rich:
        heading = self.booklet.headings[target]
        return Rich([Link(rich.text(heading.label), heading.id)])

    def note(self, key: str) -> Rich:
        """A footnote where it is referenced: its number and its text, which the page shows at its foot."""
        if key not in self.footnotes:
            number = str(len(self.footnotes) + 1)
            self.footnotes[key] = {"number": number, "text": self.text(self.booklet.footnotes[key])}
        note = self.footnotes[key]
        return Rich([Marked(note["text"], "footnote", note=note["number"])])

    def resolve(self, kind: str, target: str, first_use: bool = True) -> Rich:
        if kind == "note":
            return self.note(target)
        if kind == "ord":
            number, form = with_form(target)
            return rich.text(ordinal(self.lz, int(number), form))
        if kind == "see":
            return self.lz.ui_rich("see", "see %(ref)s", ref=self.ref(target))
        if kind == "ref":
            return self.ref(target)
        term = self.booklet.term(target)
        assert term is not None, f"term {target} checked when read"
        name = self.lz.text(term.name)
        shown = Rich([Marked(rich.text(name), "term")])
        aside = beside(self.booklet, term, name)
        if first_use and target not in self.used and aside:
            shown += Rich([Span(" "), Marked(rich.text(f"({aside})"), "original", self.booklet.original_language)])
        if first_use:
            self.used.add(target)
        return shown

    def text(self, t: Text) -> Rich:
        return self.lz.rich(t, self.resolve)

    def original(self, words: str) -> Rich:
        """Words of the rules the booklet translates (an abbreviation, an original name), marked as their language
        where the booklet says which it is (original_language)."""
        lang = self.booklet.original_language
        return Rich([Marked(rich.text(words), "foreign", lang)]) if words and lang else rich.text(words)

    def cell(self, c: Cell) -> BookletCell:
        if isinstance(c, Decimal):
            return {"text": self.lz.number(c), "numeric": True}
        if isinstance(c, Verbatim):
            return {"text": str(c), "numeric": False}
        return {"text": self.text(c) if c is not None else "", "numeric": False}

    def blocks(self, items: list[Block]) -> list[BookletBlock]:
        return [self.block(b) for b in items]

    def block(self, b: Block) -> BookletBlock:
        lz = self.lz
        if isinstance(b, Heading):
            self.level = b.level
            return {"type": "heading", "id": b.id, "number": b.label, "level": b.level, "text": self.text(b.text)}
        if isinstance(b, Paragraph):
            return {"type": "paragraph", "text": self.text(b.text)}
        if isinstance(b, Image):
            return self.image(b)
        if isinstance(b, Row):  # side by side: each its own width, or an equal share of the column
            return {"type": "figures", "figures": [self.image(i, i.width or f"{100 / len(b.images):g}%")
                                                   for i in b.images]}
        if isinstance(b, ListBlock):
            return {"type": "list", "ordered": b.ordered, "start": b.start,
                    "entries": [self.blocks(item) for item in b.items]}
        if isinstance(b, Table):
            return self.table(b)
        if isinstance(b, Box) and b.kind == "wide":
            return {"type": "wide", "blocks": self.blocks(b.blocks)}
        if isinstance(b, Box):
            return {"type": "box", "kind": b.kind, "label": box_label(lz, b.kind), "blocks": self.blocks(b.blocks)}
        return self.directive(b)

    def index(self) -> IndexBlock:
        """A back-of-book index: every glossary term the text uses, in the language's dictionary order, with the
        numbers of the sections that use it (each a link; the PDF adds its page)."""
        used = self.booklet.term_sections()
        entries: list[IndexEntry] = [
            {"term": self.lz.text(t.name), "sections": [self.ref(h) for h in used[t.id]]}
            for t in self.booklet.glossary if used.get(t.id)]
        key = sort_key(self.lz.lang)
        return {"type": "index", "entries": sorted(entries, key=lambda e: key(e["term"]))}

    def image(self, b: Image, width: str = "") -> ImageBlock:
        """A figure in this language: its own variant of the image where it has one, its description, its caption,
        its width (or `width`)."""
        file, name = b.variants.get(self.lz.lang, (b.file, b.name))
        return {"type": "image", "src": Figure(file, name), "alt": self.lz.text(b.alt) if b.alt else "",
                "caption": self.text(b.caption) if b.caption else "", "at": b.where, "width": b.width or width}

    def table(self, b: Table) -> RuleTableBlock:
        head = [self.cell(c) for c in b.head]
        # what names the table on a page (a rule table has no title): its column headers
        label = ", ".join(str(h["text"].plain() if isinstance(h["text"], Rich) else h["text"]) for h in head)
        return {"type": "table", "head": head, "align": b.align, "label": label,
                "rows": [[self.cell(c) for c in row] for row in b.rows]}

    def directive(self, b: Directive) -> EmbedBlock | AbbreviationsBlock | GlossaryBlock | BreakBlock | IndexBlock:
        lz, booklet = self.lz, self.booklet
        if b.name == "break":
            return {"type": "break", "kind": b.arg}
        if b.name == "index":
            return self.index()
        if b.name == "embed":
            assert b.target is not None, "linked before it is localized"
            kind, model = b.target
            return {"type": "embed", "kind": kind.name, "template": kind.embed_template, "level": self.level,
                    "aid": kind.localize(model, lz, self.edition, self.rules)}
        if b.name == "abbreviations":
            terms = sorted((t for t in booklet.glossary if t.abbr), key=lambda t: (t.abbr or "").casefold())
            return {"type": "abbreviations", "entries": [{"abbr": self.original(t.abbr), "term": lz.text(t.name)}
                                                         for t in terms]}
        return {"type": "glossary", "entries": [{
            "id": t.id, "term": lz.text(t.name), "abbr": self.original(t.abbr), "original": self.original(t.original),
            "beside": self.original(beside(booklet, t, lz.text(t.name))),
            "definition": self.text(t.definition) if t.definition else ""} for t in booklet.glossary]}


def localize(booklet: Booklet, lz: Localizer, edition: Edition | None = None) -> BookletDocument:
    """The template context of `booklet` in one language: numbers, references and terms resolved."""
    doing = _Localizing(booklet, lz, edition)
    body = doing.blocks(booklet.blocks)
    index = booklet.index_section()
    toc: list[TocEntry] = [{"id": h.id, "number": h.label if h.number else "", "level": h.level,
                            "text": lz.rich(h.text, lambda k, t: doing.resolve(k, t, first_use=False))}
                           for h in booklet.headings.values() if h.number or h.id == index]  # and the index's
    numbered = any(entry["number"] for entry in toc)
    return {
        "title": lz.text(booklet.title),
        "subtitle": lz.text(booklet.subtitle) if booklet.subtitle else "",
        "author": booklet.author, "version": booklet.version,
        "translator": booklet.translator.get(lz.lang, booklet.translator.get("*", "")),
        "published": lz.date(booklet.published) if booklet.published else "",
        "toc": toc, "blocks": body, "columns": booklet.columns, "binding": booklet.binding,
        "chapter_pages": booklet.chapter_pages, "footnotes": list(doing.footnotes.values()),
        "label": lz.text(booklet.label) if booklet.label else "", "title_page": booklet.title_page,
        "contents": booklet.contents if booklet.contents is not None else numbered, "numbered": numbered,
        "index_section": index or "",
    }


def item_texts(booklet: Booklet, lz: Localizer, edition: Edition | None, keys: Collection[str]) -> dict[str, str]:
    """The texts of each item of `keys` as the booklet prints them, on one line: references by their numbers,
    terms by their names (without the original name of a first use), a footnote's call left out (the footnote is
    an item of its own)."""
    doing = _Localizing(booklet, lz, edition)

    def resolve(kind: str, target: str) -> Rich:
        return Rich() if kind == "note" else doing.resolve(kind, target, first_use=False)
    return item_lines(((text.context, partial(lz.rich, text, resolve)) for text in booklet.messages()), keys)
