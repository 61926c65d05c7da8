"""Typography per language, from one place: what every renderer (HTML and ReportLab alike) applies to the
texts it prints.

Authors and translators type plain spaces, straight quotes and hyphens; the reader's language decides:
- non-breaking spaces after one-letter words (Polish w, z, i, a, o, u; Russian в, к, с, у, о, и, а, я);
  between a number and the word after it, a unit, an abbreviation or what it counts (10 GA, 3 cm, 5 pkt.,
  1809 г., o 2 pola, 2 spaces: a number never ends a line before a word); between a word and the number
  after it (krok 3, p. 12, см. 4.3.3, see XIII); before a reference and inside a short one (patrz 3.2.3 Krok 2.c);
  inside a date typed in a text (26 maja 1831); between the digit groups of a number (16 000); before a
  spaced dash, so that no line starts with one;
- the dash between clauses (Russian —, Polish and English –);
- quotation marks, nested, as CLDR has them for the language (Polish „…«…»…”, Russian «…„…“…», English “…‘…’…”,
  German „…‚…‘…“, French «…«…»…»), read from ICU;
- the typographic apostrophe (players’, don’t, Napoleon’a).
Every rule replaces one character with one: positions are kept, so the runs of a text (emphasis, links)
keep their boundaries however a rule crosses them.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TypeVar

import icu
from babel import Locale, UnknownLocaleError
from babel.dates import get_month_names

from .rich import Inline, Link, Marked, Rich, Span

T = TypeVar("T")

NBSP = "\u00a0"
SHORT_REFERENCE = 25  # characters: a reference this long or shorter is kept on one line (3.2.3 Step 2.c)


@dataclass(frozen=True)
class Rules:
    one_letter: str  # words of one letter that may not end a line
    quotes: str  # outer opening, outer closing, inner opening, inner closing
    dash: str  # the spaced dash between clauses


# What CLDR does not say: the one-letter words a line may not end in, and the dash between clauses.
WORDS_AND_DASHES = {
    "pl": ("aiouwzAIOUWZ", "–"),
    "ru": ("авиксуояАВИКСУОЯ", "—"),
}
_DELIMITERS = (icu.ULocaleDataDelimiterType.QUOTATION_START, icu.ULocaleDataDelimiterType.QUOTATION_END,
               icu.ULocaleDataDelimiterType.ALT_QUOTATION_START, icu.ULocaleDataDelimiterType.ALT_QUOTATION_END)


@functools.cache
def rules_for(lang: str) -> Rules:
    """The rules of `lang` (pl, en-GB, pt_PT): its quotation marks CLDR's for the locale (ICU falls back to the
    root's “…‘…’…” for one it does not know), the rest by its language."""
    data = icu.LocaleData(lang.replace("-", "_"))
    one_letter, dash = WORDS_AND_DASHES.get(lang.replace("-", "_").split("_")[0], ("", "–"))
    return Rules(one_letter, "".join(data.getDelimiter(kind) for kind in _DELIMITERS), dash)


_WORD = r"[^\W\d_]"
_AFTER_NUMBER = re.compile(rf"(?<=[\d¼½¾⅓⅔⅛]) (?={_WORD}|[%‰°″′])")
_BEFORE_NUMBER = re.compile(rf"(?:(?<![\w.]){_WORD}{{1,8}}\.?|[§№#]) (?=[\d−+]|[IVXLCDM]+(?![\w-]))")
_GROUPS = re.compile(r"(?<=\d)[ \u202f](?=\d{3}(?!\d))")
_DASH = re.compile(r"(?<=\S) [-–—](?= )")
_APOSTROPHE = re.compile(rf"(?<=[\w.])'|'(?={_WORD})")
_OPENS_AFTER = set(" \t\n" + NBSP + "([{/–—-")


@functools.cache
def _dates(lang: str) -> re.Pattern:
    """A date typed in a text (26 maja 1831, 26 May 1831, May 26, 1831): its day, month and year."""
    try:
        locale = Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        locale = Locale.parse("en")
    names = {name for context in ("format", "stand-alone")
             for name in get_month_names("wide", context, locale=locale).values()}
    months = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\d.,])\d{{1,2}}( )(?:{months})(?!\w)|(?<!\w)(?:{months})( )(?=\d)", re.IGNORECASE)


def typeset(text: str, lang: str, references: tuple[tuple[int, int], ...] = ()) -> str:
    """`text` with the rules of `lang` applied; `references` are the (start, end) of references in it."""
    if not text:
        return text
    rules = rules_for(lang)
    fixed = _quotes(text, rules)
    chars = list(fixed)
    for at in _bound_spaces(fixed, rules, lang):
        chars[at] = NBSP
    for m in _DASH.finditer(fixed):
        chars[m.start()] = NBSP
        chars[m.start() + 1] = rules.dash
    for start, end in references:
        if start > 0 and chars[start - 1] == " ":
            chars[start - 1] = NBSP
        if end - start <= SHORT_REFERENCE:
            chars[start:end] = [NBSP if c == " " else c for c in chars[start:end]]
    return "".join(chars)


def _bound_spaces(text: str, rules: Rules, lang: str) -> Iterator[int]:
    """Where a space of `text` becomes a no-break one: after a one-letter word, beside a number or a unit,
    inside a date."""
    if rules.one_letter:
        for m in re.finditer(rf"(?<![\w.’'\-])[{rules.one_letter}] ", text):
            yield m.end() - 1
    for pattern in (_AFTER_NUMBER, _GROUPS):
        for m in pattern.finditer(text):
            yield m.start()
    for m in _BEFORE_NUMBER.finditer(text):
        yield m.end() - 1
    for m in _dates(lang).finditer(text):
        yield m.start(1) if m.group(1) else m.start(2)


_MARKS = '"„“”«»'  # the quotation marks a text may be typed with


def _quotes(text: str, rules: Rules) -> str:
    """Quotation marks of the language, nested by depth; apostrophes made typographic."""
    return _paired(_apostrophes(text, rules), rules)[0]


def unpaired_quotes(text: str, lang: str) -> int:
    """How many quotation marks of `text` the typography cannot pair: a closing mark with no quote open, or a
    quote still open at the end. Any mark may be typed (straight ones too): these are what it cannot mend."""
    return _paired(text, rules_for(lang))[1]


def _paired(text: str, rules: Rules) -> tuple[str, int]:
    if not any(q in text for q in _MARKS):
        return text, 0
    out: list[str] = []
    depth = unpaired = 0
    for i, char in enumerate(text):
        if char not in _MARKS:
            out.append(char)
            continue
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        if char == '"' and before.isdigit() and not depth:
            out.append(char)  # 12" is inches
        elif _opens(char, before, after, out, rules):
            depth += 1
            out.append(rules.quotes[0 if depth % 2 else 2])
        else:
            out.append(rules.quotes[1 if depth % 2 or not depth else 3])
            unpaired += not depth
            depth = max(0, depth - 1)
    return "".join(out), unpaired + depth


def _apostrophes(text: str, rules: Rules) -> str:
    """Apostrophes made typographic: one after a letter or a full stop closes, any other opens."""
    opening = "‘" if rules.quotes[2] == "‘" else "'"  # a single opening quote is English's inner one
    return _APOSTROPHE.sub(lambda m: "’" if m.start() and (text[m.start() - 1].isalnum()
                                                          or text[m.start() - 1] == ".") else opening, text)


def _opens(char: str, before: str, after: str, out: list[str], rules: Rules) -> bool:
    """Whether a quotation mark opens a quote: „ and « always, » never, any other after a space or a mark that
    opens, and before a letter."""
    return char in "„«" or (char != "»" and (before in _OPENS_AFTER or bool(out) and out[-1] in rules.quotes[::2])
                            and not after.isspace())


def typeset_rich(value: Rich, lang: str) -> Rich:
    """`value` with the rules of `lang` applied across its runs (a rule may join "krok " and a link "3"); words
    marked as another language (a span, text left in the source language) set by that language's rules: a Polish
    name keeps its „quotes” in a Russian sentence."""
    pieces: list[str] = []
    references: list[tuple[int, int]] = []
    others: list[tuple[int, int, str]] = []  # (start, end, language) of the parts in another language

    def collect(rich: Rich) -> None:
        for part in rich:
            if isinstance(part, Span):
                pieces.append(part.text)
                continue
            start = sum(map(len, pieces))
            collect(part.parts)
            if isinstance(part, Link) and not part.external:
                references.append((start, sum(map(len, pieces))))
            elif isinstance(part, Marked) and part.lang and part.lang.split("-")[0] != lang:
                others.append((start, sum(map(len, pieces)), part.lang.split("-")[0]))

    collect(value)
    whole = "".join(pieces)
    done = typeset(whole, lang, tuple(references))
    for start, end, other in others:  # typesetting changes characters, never the length: each part in place
        done = done[:start] + typeset(whole[start:end], other) + done[end:]
    if done == whole:
        return value
    position = 0

    def rebuild(rich: Rich) -> Rich:
        nonlocal position
        parts: list[Inline] = []
        for part in rich:
            if isinstance(part, Span):
                parts.append(replace(part, text=done[position:position + len(part.text)]))
                position += len(part.text)
            else:
                parts.append(replace(part, parts=rebuild(part.parts)))
        return Rich(parts)

    return rebuild(value)


def typeset_tree(value: T, lang: str) -> T:
    """Every text of a localized aid (runs, and strings with a space: a name or an id has none) typeset,
    however nested in dicts and lists: for a renderer that reads the localized model itself (ReportLab). A copy
    of the same shape: a card's document stays one."""
    return _typeset_tree(value, lang)


def _typeset_tree(value, lang: str):
    if isinstance(value, Rich):
        return typeset_rich(value, lang)
    if isinstance(value, str):
        if " " not in value:
            return value
        done = typeset(value, lang)
        if type(value) is not str:  # a marked text (a draft's untranslated title) stays marked
            marked = type(value)(done)
            marked.__dict__.update(value.__dict__)
            return marked
        return done
    if isinstance(value, dict):
        return {key: _typeset_tree(item, lang) for key, item in value.items()}
    if isinstance(value, list):
        return [_typeset_tree(item, lang) for item in value]
    return value
