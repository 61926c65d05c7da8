"""A rule booklet in one language: numbers, references and glossary terms resolved, embedded aids localized."""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from ..config import Edition
from ..model.booklet import Block, Booklet, Box, Cell, Heading, Image, ListBlock, Paragraph, Table, Term, Verbatim
from ..model.text import Text
from . import rich
from .localizer import Localizer
from .rich import Link, Marked, Rich, Span


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


def localize(booklet: Booklet, lz: Localizer, edition: Edition | None = None) -> dict[str, Any]:
    """The template context of `booklet` in one language: numbers, references and terms resolved."""
    used: set[str] = set()

    def ref(target: str) -> Rich:
        heading = booklet.headings[target]
        return Rich([Link(rich.text(heading.label), heading.id)])

    def resolve(kind: str, target: str, first_use: bool = True) -> Rich:
        if kind == "see":
            return lz.ui_rich("see", "see %(ref)s", ref=ref(target))
        if kind == "ref":
            return ref(target)
        term = booklet.term(target)
        assert term is not None, f"term {target} checked when read"
        name = lz.text(term.name)
        shown = Rich([Marked(rich.text(name), "term")])
        aside = beside(booklet, term, name)
        if first_use and target not in used and aside:
            shown += Rich([Span(" "), Marked(rich.text(f"({aside})"), "original")])
        if first_use:
            used.add(target)
        return shown

    def text(t: Text) -> Rich:
        return lz.rich(t, resolve)

    def cell(c: Cell) -> dict[str, Any]:
        if isinstance(c, Decimal):
            return {"text": lz.number(c), "numeric": True}
        if isinstance(c, Verbatim):
            return {"text": str(c), "numeric": False}
        return {"text": text(c) if c is not None else "", "numeric": False}

    def blocks(items: list[Block]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for b in items:
            if isinstance(b, Heading):
                out.append({"type": "heading", "id": b.id, "number": b.label, "level": b.level,
                            "text": text(b.text)})
            elif isinstance(b, Paragraph):
                out.append({"type": "paragraph", "text": text(b.text)})
            elif isinstance(b, Image):
                out.append({"type": "image", "src": b.data_uri, "alt": lz.text(b.alt) if b.alt else ""})
            elif isinstance(b, ListBlock):
                out.append({"type": "list", "ordered": b.ordered, "start": b.start,
                            "entries": [blocks(item) for item in b.items]})
            elif isinstance(b, Table):
                out.append({"type": "table", "head": [cell(c) for c in b.head], "align": b.align,
                            "rows": [[cell(c) for c in row] for row in b.rows]})
            elif isinstance(b, Box):
                out.append({"type": "box", "kind": b.kind, "label": box_label(lz, b.kind), "blocks": blocks(b.blocks)})
            elif b.name == "embed":
                kind, model = b.target
                out.append({"type": "embed", "kind": kind.name, "template": kind.embed_template,
                            "aid": kind.localize(model, lz, edition, rules)})
            elif b.name == "abbreviations":
                terms = sorted((t for t in booklet.glossary if t.abbr), key=lambda t: t.abbr.casefold())
                out.append({"type": "abbreviations", "entries": [{"abbr": t.abbr, "term": lz.text(t.name)} for t in terms]})
            else:
                out.append({"type": "glossary", "entries": [{
                    "id": t.id, "term": lz.text(t.name), "abbr": t.abbr, "original": t.original,
                    "beside": beside(booklet, t, lz.text(t.name)),
                    "definition": text(t.definition) if t.definition else ""} for t in booklet.glossary]})
        return out

    rules = {h.label: h.id for h in booklet.headings.values() if h.number}  # for embedded aids' rule: links
    body = blocks(booklet.blocks)
    toc = [{"id": h.id, "number": h.label, "level": h.level,
            "text": lz.rich(h.text, lambda k, t: resolve(k, t, first_use=False))}
           for h in booklet.headings.values() if h.number]
    return {
        "title": lz.text(booklet.title),
        "subtitle": lz.text(booklet.subtitle) if booklet.subtitle else "",
        "author": booklet.author, "translator": booklet.translator.get(lz.lang, booklet.translator.get("*", "")), "version": booklet.version,
        "published": lz.date(booklet.published) if booklet.published else "",
        "toc": toc, "blocks": body,
    }
