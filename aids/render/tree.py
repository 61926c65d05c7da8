"""WeasyPrint's tree of a page, set right before it is laid out: what the printed page needs of the HTML and a
browser does not (the page written to disk is left as it is). WeasyPrint 70's stray breaks after a space that
ends a run before an element are avoided where the markup is made (render/html.py, spaces_lead), not here.

- A word joined by a hyphen in a table's cell ("Schofield-A", "built-up") kept whole: a line of a cell may
  break before it or after it, never at its hyphen, so its column's narrowest width holds the whole word.
- An ordered list numbered from its `start` ("7. ..." in Markdown), as a browser and an e-reader number it.
"""
from __future__ import annotations

import re
from typing import Any

UNBROKEN = "unbroken"  # the class of a span kept on one line (print.css)
COMPOUND = re.compile(r"[^\s\u00a0]*\w[-\u2010\u2013]\w[^\s\u00a0]*")  # a word with a hyphen or dash inside
LONGEST_COMPOUND = 30  # characters: a longer one may still break at its hyphen rather than overflow its column


def prepare(root: Any) -> None:
    keep_compounds_whole(root)
    numbered_from_start(root)


def numbered_from_start(root: Any) -> None:
    """Every `<ol start="N">` given the style WeasyPrint's own reading of the attribute gives it (its
    css/__init__.py, after CSS Lists 3's UA sheet): WeasyPrint reads `start` only among the presentational hints,
    which aids leaves off (they bring a stylesheet of HTML 4 attributes with them), so a list began at 1."""
    for ol in root.iter("ol"):
        start = (ol.get("start") or "").strip()
        if re.fullmatch(r"[+-]?\d+", start):
            own = ol.get("style")
            ol.set("style", f"counter-reset: list-item {int(start)}; counter-increment: list-item -1"
                   + (f"; {own}" if own else ""))


def keep_compounds_whole(root: Any) -> None:
    """Every word with a hyphen or dash inside, in the text of a table's cell, wrapped in a span kept on one line."""
    done: set[Any] = set()
    for cell in [e for e in root.iter() if e.tag in ("td", "th")]:
        for element in [e for e in cell.iter() if e not in done]:
            done.add(element)
            if isinstance(element.tag, str) and element.text:
                element.text, spans = _split(element, element.text)
                element[0:0] = spans
            for index, child in reversed(list(enumerate(element))):
                if child.tail:
                    child.tail, spans = _split(element, child.tail)
                    element[index + 1:index + 1] = spans


def _split(parent: Any, text: str) -> tuple[str, list[Any]]:
    """`text` as the text before its first compound, and a span for each compound holding the text after it."""
    lead, position = text, 0
    spans: list[Any] = []
    for match in COMPOUND.finditer(text):
        if len(match.group()) > LONGEST_COMPOUND:
            continue
        span = parent.makeelement("span", {"class": UNBROKEN})
        span.text = match.group()
        if spans:
            spans[-1].tail = text[position:match.start()]
        else:
            lead = text[:match.start()]
        spans.append(span)
        position = match.end()
    if spans:
        spans[-1].tail = text[position:]
    return lead, spans
