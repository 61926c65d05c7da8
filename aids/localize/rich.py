"""Localized text as plain values: runs of text with their emphasis, links to anchors, and marked parts
(a glossary term, its original name, text left in the source language). Each renderer makes its own
markup of them (render/html.py for HTML, render/card_pdf.py for ReportLab); nothing here is HTML."""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace

from ..model.icons import Icon as IconSource
from ..model.text import LANGUAGE_TAG, PLACEHOLDER, inline_tokens


@dataclass(frozen=True)
class Span:
    """Text in one style."""
    text: str
    em: bool = False
    strong: bool = False
    code: bool = False


@dataclass(frozen=True)
class Link:
    """A reference to an anchor of the same document (a rule, a phase, a step: `href` is its id), or, `external`,
    a link to a web address (`href`), which the page links and nothing fetches."""
    parts: Rich
    href: str
    external: bool = False


@dataclass(frozen=True)
class Marked:
    """Parts with a role of their own: "term", "original" (a term's original name), "foreign" (words its author
    or translator marked as language `lang`: [force march]{lang=en}), "source" (text left in the source language
    `lang`, untranslated), "draft" (the same, marked for a proofreader), "context" (any text, marked with its
    msgctxt in `note` and its msgid in `msgid` for `aids context`: the paragraphs of a booklet's section share a
    msgctxt, each is a string of its own)."""
    parts: Rich
    role: str
    lang: str = ""
    note: str = ""  # for "draft": the msgctxt of the text a translation is missing for; for "context": its msgctxt
    msgid: str = ""  # for "context": its msgid


@dataclass(frozen=True)
class Icon:
    """An icon of the game's set in the text ({icon:<id>}): `parts` its localized name (what a screen reader
    says, search finds, a copy of the text holds), `svg` its checked drawing (model/icons.py)."""
    parts: Rich
    source: IconSource

    @property
    def id(self) -> str:
        return self.source.id


Inline = Span | Link | Marked | Icon


class Rich(tuple[Inline, ...]):
    """A localized text: a sequence of inline parts."""

    def __new__(cls, parts: Iterable[Inline] = ()) -> Rich:
        merged: list[Inline] = []
        for part in parts:
            last = merged[-1] if merged else None
            if isinstance(part, Span) and isinstance(last, Span) and (last.em, last.strong, last.code) == \
                    (part.em, part.strong, part.code):
                merged[-1] = replace(last, text=last.text + part.text)  # one run a style: "a " + "b" is "a b"
            elif not (isinstance(part, Span) and not part.text):
                merged.append(part)
        return super().__new__(cls, tuple(merged))

    def __add__(self, other: object) -> Rich:
        if not isinstance(other, tuple):
            return NotImplemented
        return Rich((*self, *other))

    def plain(self) -> str:
        """The words alone (for a PDF bookmark, a document title)."""
        return "".join(p.text if isinstance(p, Span) else p.parts.plain() for p in self)


class DraftText(str):
    """A text marked on the page with its msgctxt: left in the source language in a draft build ("draft"), or
    any text where `aids context` looks for it ("context", with its msgid too)."""
    context: str = ""
    kind: str = "draft"
    msgid: str = ""


def draft_text(text: str, context: str, kind: str = "draft", msgid: str = "") -> DraftText:
    marked = DraftText(text)
    marked.context, marked.kind, marked.msgid = context, kind, msgid
    return marked


def text(value: str) -> Rich:
    """A text as runs; one that `aids context` looks for keeps its mark (a side's name inside a step)."""
    if isinstance(value, DraftText) and value.kind == "context" and value:
        return Rich([Marked(Rich([Span(str(value))]), "context", note=value.context, msgid=value.msgid)])
    return Rich([Span(value)]) if value else Rich()


WEB_ADDRESS = re.compile(r"https?://\S+\Z", re.IGNORECASE)
Resolve = Callable[[str, str], Rich]
Capital = Callable[[str, str], bool]
_SENTENCE_END = ".!?"
_OPENING = "\"'„“”«‘(["  # marks that may stand between a sentence's end and its first word


def starts_sentence(before: str) -> bool:
    """Whether what follows `before` begins a sentence: at the start of a text, or after `. `, `! `, `? `
    (opening quotes and brackets between them)."""
    stripped = before.rstrip().rstrip(_OPENING).rstrip()
    return not stripped or stripped[-1] in _SENTENCE_END and stripped != before


def capitalized(value: str) -> str:
    """`value` with its first letter in upper case, the rest as it is ("«внефазовый» игрок" -> "«Внефазовый» игрок")."""
    for i, char in enumerate(value):
        if char.isalpha():
            out = value[:i] + char.upper() + value[i + 1:]
            return draft_text(out, value.context, value.kind, value.msgid) if isinstance(value, DraftText) else out
    return value


def capitalize(runs: Rich) -> Rich:
    """`runs` with their first letter in upper case, inside links and marked parts too."""
    out: list[Inline] = []
    done = False
    for part in runs:
        if not done and isinstance(part, Span) and any(c.isalpha() for c in part.text):
            part, done = replace(part, text=capitalized(part.text)), True
        elif not done and isinstance(part, Link | Marked) and any(c.isalpha() for c in part.parts.plain()):
            part, done = replace(part, parts=capitalize(part.parts)), True
        out.append(part)
    return Rich(out)


def parse(source: str, resolve: Resolve, capital: Capital | None = None) -> Rich:
    """Inline Markdown (emphasis, strong, code spans, backslash escapes) into runs; each placeholder
    ({ref:x}, {see:x}, ...) replaced by what `resolve(kind, target)` makes of it, and, where
    `capital(kind, target)` says so, with its first letter in upper case when it begins a sentence. Markup
    typed into the text (<b>) stays text: no raw HTML is parsed."""
    out: list[Inline] = []
    em = strong = False
    links: list[tuple[list[Inline], str]] = []  # the runs before each open link, and its address
    spans: list[tuple[list[Inline], str]] = []  # the runs before each open span, and the language it marks
    for token in inline_tokens(source):
        if token.type == "link_open":
            links.append((out, str(token.attrs.get("href", ""))))
            out = []
        elif token.type == "link_close" and links:
            inside, (out, href) = Rich(out), links.pop()
            # only a web address is a link; any other (a translator's javascript:) is its text alone
            out.extend([Link(inside, href, external=True)] if WEB_ADDRESS.match(href) else inside)
        elif token.type == "span_open":
            lang = str(token.attrs.get("lang", ""))
            spans.append((out, lang if LANGUAGE_TAG.fullmatch(lang) else ""))
            out = []
        elif token.type == "span_close" and spans:
            inside, (out, lang) = Rich(out), spans.pop()
            out.extend([Marked(inside, "foreign", lang)] if lang else inside)
        elif token.type in ("em_open", "em_close"):
            em = token.type == "em_open"
        elif token.type in ("strong_open", "strong_close"):
            strong = token.type == "strong_open"
        elif token.type == "text":  # placeholders as model.text.inline_placeholders sees them
            out.extend(_placeholders(token.content, Span("", em=em, strong=strong), resolve, capital,
                                     Rich(out).plain()))
        elif token.type == "code_inline":
            out.append(Span(token.content, em=em, strong=strong, code=True))
    return Rich(out)


def _placeholders(content: str, style: Span, resolve: Resolve, capital: Capital | None = None,
                  before: str = "") -> list[Inline]:
    out: list[Inline] = []
    pos = 0
    for m in PLACEHOLDER.finditer(content):
        if m.start() > pos:
            out.append(replace(style, text=content[pos:m.start()]))
        value = styled(resolve(m.group(1), m.group(2)), style)
        if capital and capital(m.group(1), m.group(2)) and starts_sentence(before + Rich(out).plain()):
            value = capitalize(value)
        out.extend(value)
        pos = m.end()
        if ends_in_period(value) and content[pos:pos + 1] == ".":
            pos += 1  # "20 мая 1809 г." ending a sentence: its period is the full stop

    if pos < len(content):
        out.append(replace(style, text=content[pos:]))
    return out


def ends_in_period(value: Rich) -> bool:
    """Whether `value` ends in a period printed where it stands (an abbreviated date's "г."): not a footnote's
    call, whose text (which ends a sentence of its own) prints at the foot of the page or in the notes' list."""
    last = value[-1] if value else None
    return not (isinstance(last, Marked) and last.role == "footnote") and value.plain().endswith(".")


def styled(rich: Rich, style: Span) -> Rich:
    """`rich` inside the emphasis of `style` (a reference inside an italic note stays italic)."""
    def one(part: Inline) -> Inline:
        if isinstance(part, Span):
            return replace(part, em=part.em or style.em, strong=part.strong or style.strong,
                           code=part.code or style.code)
        return replace(part, parts=styled(part.parts, style))
    return Rich(one(p) for p in rich)


# a number as a locale writes it (1 000, 2,5, −3, the 2 of 0–2) at the end or the start of a run, one space beside it
_NUMBER_BEFORE = re.compile(r"(?<![\w.,])([−+-]?\d(?:[\d  .,]*\d)?)[  ]?\Z")
_NUMBER_AFTER = re.compile(r"\A[  ]?([−+-]?\d(?:[\d  .,]*\d)?)(?=[\s.,;:!?)]|\Z)")
NBSP = " "


def bind_icons(value: Rich) -> Rich:
    """`value` with each icon and the number written next to it ("10 {icon:gold}", "{icon:die} 6") held in one
    part marked "nobreak", the space between them a no-break space: a line never ends between them."""
    out: list[Inline] = []
    parts = [replace(p, parts=bind_icons(p.parts))
             if isinstance(p, Link | Marked) and getattr(p, "role", "") != "nobreak" else p for p in value]
    i = 0
    while i < len(parts):
        part = parts[i]
        if not isinstance(part, Icon):
            out.append(part)
            i += 1
            continue
        group: list[Inline] = [part]
        last = out[-1] if out else None
        if isinstance(last, Span) and (m := _NUMBER_BEFORE.search(last.text)):
            out[-1] = replace(last, text=last.text[:m.start()])
            group.insert(0, replace(last, text=m.group(1) + NBSP))
        after = parts[i + 1] if i + 1 < len(parts) else None
        if isinstance(after, Span) and (m := _NUMBER_AFTER.match(after.text)):
            group.append(replace(after, text=NBSP + m.group(1)))
            parts[i + 1] = replace(after, text=after.text[m.end():])
        out.append(Marked(Rich(group), "nobreak") if len(group) > 1 else part)
        i += 1
    return Rich(out)


_FIELD = re.compile(r"%\((\w+)\)s")


def fill(template: str, values: dict[str, Rich | str]) -> Rich:
    """A translated UI string with %(name)s fields, each replaced by its value (text or runs)."""
    out: list[Inline] = []
    pos = 0
    for m in _FIELD.finditer(template):
        if m.start() > pos:
            out.append(Span(template[pos:m.start()]))
        value = values.get(m.group(1), m.group(0))
        out.extend(value if isinstance(value, Rich) else text(str(value)))
        pos = m.end()
    if pos < len(template):
        out.append(Span(template[pos:]))
    return Rich(out)


Printed = Callable[[], "Rich | str | None"]  # what a page prints of one text (None: nothing), made when asked for


def item_lines(printed: Iterable[tuple[str, Printed]], keys: Collection[str]) -> dict[str, str]:
    """The texts of each item of `keys` (their msgctxt) as one line of words, as a changelog, an errata sheet or a
    feed quotes them: `printed` gives every text of an aid, by the key of its item, with what its page prints of
    it; only those of `keys` are made."""
    out: dict[str, list[str]] = {}
    for key, made in printed:
        if key in keys:
            value = made()
            out.setdefault(key, []).append(value.plain() if isinstance(value, Rich) else str(value or ""))
    return {key: " ".join(part for part in parts if part) for key, parts in out.items()}
