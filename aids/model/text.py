"""Translatable text as the model holds it: the source string, its stable context and where it came from."""
from __future__ import annotations

import datetime as dt
import math
import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from mdit_py_plugins.attrs import attrs_plugin
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..errors import Position, Problems
from ..source.yamlfile import Source, quoted_hint

# Inline placeholders a translator moves but must keep: {ref:target}, {see:target}, ...
PLACEHOLDER = re.compile(r"\{([a-z]+):([^{}\s]+)\}")
# Grammatical cases a placeholder may ask for after a bar: {side:non-phasing|gen}, {ref:chapter:VI|acc}
CASES = {"gen": "genitive", "dat": "dative", "acc": "accusative", "ins": "instrumental", "loc": "locative"}
# The start of one with no closing brace: `{see:rule:12.4.4` would print its braces as written.
UNCLOSED = re.compile(r"\{[a-z]+:(?![^{}\s]+\})")
# Inline Markdown that a translation must keep as much of as the source has (the words inside may change).
# A link is kept too, its address as written: a booklet's link to a web address ([text](https://...)).
INLINE = MarkdownIt("zero").enable(["emphasis", "backticks", "escape", "link", "autolink"])
# Words in another language than the text's, marked for screen readers, hyphenation and checks: [force march]{lang=en}
# (Pandoc's bracketed span). A language is a BCP 47 tag: a language code and, optionally, its region or script.
attrs_plugin(INLINE, spans=True)
LANGUAGE_TAG = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*")
_SPANS = {"em_open": "*emphasis*", "strong_open": "**strong**", "code_inline": "`code`"}


@dataclass(frozen=True)
class Text:
    msgid: str
    context: str  # the stable id path: msgctxt in catalogs
    comment: str  # where the text appears, for translators (`#.` in catalogs)
    where: Position  # source position (`#:` in catalogs)


def inline_tokens(text: str) -> list[Any]:
    """`text` as inline Markdown tokens (text, em_open, code_inline, ...), escapes read."""
    tokens = INLINE.parseInline(text)
    return list((tokens[0].children or []) if tokens else [])


def inline_placeholders(text: str) -> list[tuple[str, str, str]]:
    """(kind, target, as written) of every placeholder a reader of `text` meets: in its text runs, after
    Markdown escapes are read (`{ref\\:x}` is `{ref:x}`), never inside a code span (printed as written).
    The checks of sources and translations and the renderer all see placeholders through this one rule."""
    return [(m.group(1), m.group(2), m.group(0)) for t in inline_tokens(text) if t.type == "text"
            for m in PLACEHOLDER.finditer(t.content)]


def placeholders_at(text: str) -> list[tuple[str, str, str, int]]:
    """`inline_placeholders` with where each stands in `text` as written (an escaped one: where its target is)."""
    found, pos = [], 0
    for kind, target, whole in inline_placeholders(text):
        at = text.find(whole, pos)
        at = at if at >= 0 else max(0, text.find(target, pos) - len(kind) - 2)
        found.append((kind, target, whole, at))
        pos = at + 1
    return found


SPAN_EXPECTED = "[words]{lang=en}: a language tag, the span's only attribute"
UNREAD_SPAN = re.compile(r"\[[^\[\]]*\]\{[^{}]*=[^{}]*\}")  # what a span looks like, left as text: printed as written


def span_fault(text: str) -> str | None:
    """Why a span of `text` ([words]{lang=en}) cannot mark its words' language, or None when every one can: its
    only attribute is `lang`, a language tag."""
    for token in inline_tokens(text):
        if token.type == "text" and (unread := UNREAD_SPAN.search(token.content)):
            return f"span '{unread.group(0)}' not read"
        if token.type in ("span_open", "link_open") and (fault := attributes_fault(
                {k: str(v) for k, v in token.attrs.items() if k != "href"}, token.type == "span_open")):
            return fault
    return None


def attributes_fault(attrs: dict[str, str], span: bool = True) -> str | None:
    """Why the attributes of a span (or a link) cannot mark its words' language, or None."""
    if span and not attrs:
        return "a span with no language"
    for key, value in attrs.items():
        if key != "lang":
            return f"attribute '{key}' of a span"
        if not LANGUAGE_TAG.fullmatch(value):
            return f"language '{value}' of a span"
    return None


_SPAN_WRITTEN = re.compile(r'\[((?:[^\[\]\\]|\\.)*)\]\{\s*lang\s*=\s*"?[A-Za-z0-9-]+"?\s*\}')


def without_spans(text: str) -> str:
    """`text` with each language span's words left unmarked (`[Ward]{lang=en}` is `Ward`): marking a word's
    language changes nothing a reader reads, so no release counts it as a change of the rules."""
    return _SPAN_WRITTEN.sub(r"\1", text)


def without_foreign(text: str) -> str:
    """`text` without the words its spans mark as another language: what a translator translates."""
    return _SPAN_WRITTEN.sub(" ", text)


def plain_text(text: str) -> str:
    """`text`'s words without their inline Markdown (a span's brackets and language, emphasis): a game's title or
    author where no markup can stand (a PDF's metadata, a page's <title>, a catalog's header)."""
    return "".join(t.content for t in inline_tokens(text) if t.type in ("text", "code_inline")) if text else ""


def unclosed_placeholder(text: str) -> str | None:
    """The first placeholder of `text`'s text runs opened and never closed, as written (None if all close)."""
    for token in inline_tokens(text):
        found = UNCLOSED.search(token.content) if token.type == "text" else None
        if found:
            return re.split(r"\s", token.content[found.start():], maxsplit=1)[0]
    return None


def as_number(text: str) -> int | float | None:
    """The number of a {num:...} placeholder: an integer or a finite decimal (NaN and infinities are not)."""
    try:
        return int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            return None
        return value if math.isfinite(value) else None


def as_date(text: str) -> dt.date | None:
    """The date of a {date:YYYY-MM-DD} placeholder."""
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def with_form(target: str) -> tuple[str, str | None]:
    """A placeholder's target and the grammatical form it asks for: `non-phasing|gen` is (non-phasing, gen)."""
    name, bar, form = target.partition("|")
    return name, form if bar else None


def placeholders(text: str) -> Counter:
    """The placeholders of `text`, and its emphasis, strong and code spans, counted. A form is each language's
    own choice: {side:x|gen} in a translation stands for {side:x} of the source."""
    found = Counter(f"{{{kind}:{with_form(target)[0]}}}" for kind, target, _ in inline_placeholders(text))
    tokens = inline_tokens(text)
    found.update(_SPANS[t.type] for t in tokens if t.type in _SPANS)
    found.update(f"{{link:{t.attrs.get('href', '')}}}" for t in tokens if t.type == "link_open")  # its address
    return found


def placeholder_mismatch(source: str, translation: str, ignored: Collection[str] = ()) -> str:
    """Why `translation` cannot stand for `source` ('' when its placeholders match). Emphasis, strong and code
    spans are markup: when the translator's comment ignores the markup check (`# aids: ignore markup`), a
    translation that has other spans is used as it is, by the build as by `aids check`. A placeholder lost or
    invented is never ignored: the build cannot print that translation (a reference to nowhere, a term lost)."""
    want, got = placeholders(source), placeholders(translation)
    if "markup" in ignored:
        want, got = (Counter({k: n for k, n in c.items() if k.startswith("{")}) for c in (want, got))
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


def text_at(src: Source, node: Any, key: Any, context: str, comment: str, problems: Problems) -> Text:
    """The translatable text under `node[key]`; a list or a mapping there is an error, not printed as Python.

    Scalars YAML reads as something else (a year, a date) are taken as the text they were written as.
    """
    value = node[key]
    where = src.at(node, key, value=True)
    if isinstance(value, dict) and len(value) == 1 and None in value.values() and ":" in str(next(iter(value))):
        braced = f"{{{next(iter(value))}}}"  # `text: {side:red}`: a placeholder YAML read as a mapping
        problems.add(where, f"a text that starts with '{{' must be quoted: YAML reads {braced} as a mapping",
                     quoted_hint(f"{key}:", braced))
        return Text("", context, comment, where)
    if isinstance(value, (CommentedMap, CommentedSeq, dict, list)) or isinstance(value, bool) or value is None:
        kind = ("a list" if isinstance(value, (CommentedSeq, list)) else "a mapping"
                if isinstance(value, (CommentedMap, dict)) else "empty" if value is None else f"'{value}'")
        problems.add(where, f"'{key}' must be text, not {kind}", f'{key}: "..." (quote text YAML would read otherwise)')
        return Text("", context, comment, where)
    text = str(value).strip()
    unclosed = unclosed_placeholder(text)
    if unclosed:
        problems.add(src.at_text(node, key, max(0, str(value).find(unclosed))), f"placeholder '{unclosed}' not closed",
                     "{kind:target}, e.g. {ref:phase-id}")
    fault = span_fault(text)
    if fault:
        problems.add(where, fault, SPAN_EXPECTED)
    return Text(text, context, comment, where)


def forms_at(src: Source, node: Any, problems: Problems) -> list[str]:
    """A glossary term's `forms:`, the other forms of it in the source language ([] if absent)."""
    forms = node.get("forms") or []
    if not isinstance(forms, list) or not all(isinstance(f, str) for f in forms):
        problems.add(src.at(node, "forms", value=True), "forms must be a list of texts",
                     "forms: [strefy kontroli, strefie kontroli]")
        return []
    return [str(f) for f in forms]


def optional_text_at(src: Source, node: Any, key: Any, context: str, comment: str, problems: Problems) -> Text | None:
    """Like text_at for an optional field: absent or blank is no text, but a list or a mapping is still an error."""
    value = node.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return text_at(src, node, key, context, comment, problems)


_ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
          (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]


def roman(n: int) -> str:
    """`n` in lower-case Roman numerals (sub-sub-steps i., ii., ...): the same in every language."""
    out = []
    for value, mark in _ROMAN:
        count, n = divmod(n, value)
        out.append(mark * count)
    return "".join(out)
