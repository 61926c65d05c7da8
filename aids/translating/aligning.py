"""A block of another tool's catalog (po4a's paragraph, list or section body: one entry) aligned sentence by
sentence onto aids' entries, for `aids import` to split its translation between them (docs/guide/import.md).

The block's text and its translation come in pieces (paragraphs, list items, a note's text: latex.py), each cut
into sentences by ICU's sentence break rules for its language (PyICU's BreakIterator, with CLDR's exceptions for
abbreviations, `@ss=standard`). aids' entries are found in the block's sentences in order, each as the same text
or a close one (difflib's ratio, as `aids update` measures it). A part of the translation goes to an entry only
where the cut is sure: the entry's pieces whole, or, inside a piece, where the piece's text and its translation
have as many sentences. What does not align is said, never guessed.
"""
from __future__ import annotations

import difflib
import functools
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import icu  # PyICU, from the pyicu-wheels distribution

CLOSE = 0.8  # like `aids update`'s ELSEWHERE: below this, a text is not taken for a version of another
LENGTHS = 2.0  # a sentence's translation this many times longer or shorter than the block's is doubted

_LATEX = re.compile(r"\\(?:textbf|textit|emph|texttt|textsc|underline)\{([^{}]*)\}")
_SPACES = re.compile(r"\s+")
_MARKS = re.compile(r"(\*\*|__|\*|``|`|(?<!\w)_|_(?!\w))")
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|\\item)\s+")
_PLACEHOLDER = re.compile(r"\{[a-z]+:[^{}\s]+\}")
_PLAIN = str.maketrans({"„": '"', "“": '"', "”": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "–": "-",
                        "—": "-", "\u00a0": " ", "\u202f": " ", "~": " "})


def normal(text: str) -> str:
    """`text` as compared: markup set aside, spaces and typography made plain."""
    text = _LATEX.sub(r"\1", text)
    text = _PLACEHOLDER.sub(" ", text)
    text = _ITEM.sub("", _MARKS.sub("", text.translate(_PLAIN)))
    return _SPACES.sub(" ", text).strip()


@functools.lru_cache(maxsize=8)
def _breaker(lang: str) -> Any:
    return icu.BreakIterator.createSentenceInstance(icu.Locale(f"{lang}@ss=standard"))


def sentences(text: str, lang: str) -> list[str]:
    """The sentences of `text` in `lang` (ICU's offsets count UTF-16 units: cut the text as ICU holds it)."""
    held = icu.UnicodeString(text)
    breaker = _breaker(lang)
    breaker.setText(held)
    bounds = [0, *breaker]
    return [s for s in (str(held[a:b]).strip() for a, b in zip(bounds, bounds[1:])) if s]


@dataclass
class Known:
    """An entry of aids as the alignment sees it."""
    ref: Any  # what the caller places the translation in
    normal: str
    count: int  # its sentences
    first: str  # its first sentence, as compared


def known(ref: Any, text: str, lang: str) -> Known:
    said = sentences(text, lang) or [""]
    return Known(ref, normal(text), len(said), normal(said[0]))


class Index:
    """aids' entries by the first sentence of their text."""

    def __init__(self, entries: list[Known]):
        self.all = [k for k in entries if k.normal]
        self.by_first: dict[str, list[Known]] = defaultdict(list)
        self.same: dict[str, list[Known]] = defaultdict(list)  # the entries of one text (in several sections)
        for k in self.all:
            self.same[k.normal].append(k)
            self.by_first[k.first].append(k)


@dataclass
class Span:
    """Sentences `first`..`first + count` of the block, found as an entry of aids."""
    known: Known
    first: int
    count: int
    score: float
    source: str = ""  # those sentences
    translation: str = ""  # their part of the translation, where the cut is sure
    why: str = ""  # why there is none, or why it is doubted


@dataclass
class Alignment:
    spans: list[Span] = field(default_factory=list)
    loose: list[int] = field(default_factory=list)  # sentences no entry of aids holds
    total: int = 0

    @property
    def whole(self) -> bool:
        """Every sentence found as a part, every part's translation cut (a part only close, or doubted, is fuzzy
        on its own)."""
        return not self.loose and all(s.translation for s in self.spans)


def align(source: list[str], target: list[str], langs: tuple[str, str], index: Index) -> Alignment:
    """The block's pieces `source` (in aids' markup) found as entries of `index`, and the pieces of its
    translation `target` cut for each (langs: the source's language, the translation's)."""
    said = [sentences(piece, langs[0]) for piece in source]
    flat = [s for piece in said for s in piece]
    found = Alignment(total=len(flat))
    at = 0
    while at < len(flat):
        span = _match(flat, at, index)
        if span is None:
            found.loose.append(at)
            at += 1
            continue
        span.source = " ".join(flat[at:at + span.count])
        found.spans.append(span)
        at += span.count
    told = [sentences(piece, langs[1]) for piece in target]
    for span in found.spans:
        _cut(span, said, told, target)
    return found


def _match(flat: list[str], at: int, index: Index) -> Span | None:
    """The entry of aids whose text starts the block at sentence `at`: the same text (the longest), else the
    closest at least CLOSE alike."""
    same = [k for k in index.by_first.get(normal(flat[at]), [])
            if normal(" ".join(flat[at:at + k.count])) == k.normal]
    if same:
        known = max(same, key=lambda k: k.count)
        return Span(known, at, known.count, 1.0)
    best: Span | None = None
    for known in index.all:
        text = normal(" ".join(flat[at:at + known.count]))
        matcher = difflib.SequenceMatcher(None, text, known.normal, autojunk=False)
        if matcher.real_quick_ratio() < CLOSE or matcher.quick_ratio() < CLOSE:
            continue
        ratio = matcher.ratio()
        if ratio >= CLOSE and (best is None or ratio > best.score):
            best = Span(known, at, known.count, ratio)
    return best


def _cut(span: Span, said: list[list[str]], told: list[list[str]], target: list[str]) -> None:
    """The part of the translation that is `span`'s, where the cut is sure; else why not."""
    if len(said) != len(told):
        span.why = f"its text has {len(said)} parts (paragraphs, items, notes), its translation {len(told)}"
        return
    starts = [sum(len(p) for p in said[:n]) for n in range(len(said))]
    pieces = [n for n in range(len(said)) if starts[n] < span.first + span.count and
              span.first < starts[n] + len(said[n])]
    end = starts[pieces[-1]] + len(said[pieces[-1]])
    if span.first == starts[pieces[0]] and span.first + span.count == end:  # whole pieces: no cut inside one
        span.translation = " ".join(target[n] for n in pieces)
        return
    for n in pieces:
        if len(said[n]) != len(told[n]):
            span.why = f"{len(said[n])} sentences in the text, {len(told[n])} in its translation: not split"
            return
    parts = [s for n in pieces for s in told[n][max(span.first - starts[n], 0):span.first + span.count - starts[n]]]
    span.translation = " ".join(parts)
    span.why = _lengths(span, said, target)


def _lengths(span: Span, said: list[list[str]], target: list[str]) -> str:
    """A doubt on a cut inside a piece: the part's translation far longer or shorter than the block's ratio."""
    block = sum(map(len, target)) / max(sum(len(s) for p in said for s in p), 1)
    ratio = len(span.translation) / max(len(span.source), 1) / max(block, 0.01)
    return "" if 1 / LENGTHS <= ratio <= LENGTHS else "its translation's length is not its text's: check the cut"
