"""Translatable text as the model holds it: the source string, its stable context and where it came from."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from markdown_it import MarkdownIt

from ..errors import Position

# Inline placeholders a translator moves but must keep: {ref:target}, {see:target}, ...
PLACEHOLDER = re.compile(r"\{([a-z]+):([^{}\s]+)\}")
# Inline Markdown that a translation must keep as much of as the source has (the words inside may change).
INLINE = MarkdownIt("zero").enable(["emphasis", "backticks", "escape"])
_SPANS = {"em_open": "*emphasis*", "strong_open": "**strong**", "code_inline": "`code`"}


@dataclass(frozen=True)
class Text:
    msgid: str
    context: str  # the stable id path: msgctxt in catalogs
    comment: str  # where the text appears, for translators (`#.` in catalogs)
    where: Position  # source position (`#:` in catalogs)


def placeholders(text: str) -> Counter:
    """The placeholders of `text`, and its emphasis, strong and code spans, counted."""
    found = Counter(m.group(0) for m in PLACEHOLDER.finditer(text))
    tokens = INLINE.parseInline(text)
    found.update(_SPANS[t.type] for t in (tokens[0].children if tokens else []) if t.type in _SPANS)
    return found


def placeholder_mismatch(source: str, translation: str) -> str:
    """Why `translation` cannot stand for `source` ('' when its placeholders match)."""
    want, got = placeholders(source), placeholders(translation)
    if want == got:
        return ""
    lost = sorted((want - got).elements())
    invented = sorted((got - want).elements())
    parts = []
    if lost:
        parts.append("loses " + ", ".join(lost))
    if invented:
        parts.append("invents " + ", ".join(invented))
    return "translation " + " and ".join(parts)
