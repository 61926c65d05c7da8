"""What a proofreader of a catalog looks for, entry by entry: `aids check`.

What any catalog can get wrong (a printf placeholder, doubled or stray spaces, a text left as its source) is
translate-toolkit's tests (pofilter's, Weblate's); what only aids' texts can (their own placeholders and spans,
numbers as data, terms, quotes as the typography pairs them, budgets) is checked here.

Every check has an id; a translator silences one for an entry with a translator comment
`# aids: ignore <id> [<id> ...]`. Errors are what would print wrong (a placeholder lost, a number
that is not the source's, a term translated otherwise than the glossary); warnings are what is
often but not always wrong (a translation identical to its source, a doubled space).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import snowballstemmer
from babel.messages.plurals import get_plural
from translate.filters import checks as toolkit

from ..model.text import (
    CASES,
    PLACEHOLDER,
    SPAN_EXPECTED,
    inline_placeholders,
    placeholders,
    span_fault,
    with_form,
    without_foreign,
    without_spans,
)
from . import po
from .po import Catalog, Entry
from .typography import rules_for, unpaired_quotes

CHECKS = ("placeholders", "markup", "forms", "plurals", "terminology", "numbers", "quotes", "spaces", "identical",
          "length")
NOT_IGNORED = {"placeholders"}  # a translation that loses or invents one cannot be printed: the build refuses it
BUDGET = re.compile(r"^#\s*aids:\s*budget\s+(\d+)\s+characters\s*(?:\(([^)]*)\))?")  # aids budgets writes it
FIELD = re.compile(r"%\(\w+\)[sd]")
NUMBER = re.compile(r"(?<![\w.,])[+\-−]?\d+(?:[.,]\d+)*")


@dataclass(frozen=True)
class Finding:
    line: int
    check: str
    message: str
    expected: str
    error: bool = True


@dataclass(frozen=True)
class Term:
    """A glossary term: how the source writes it, and how this language's catalog translates it."""
    id: str
    source: str
    translation: str
    forms: tuple[str, ...] = ()  # inflected source forms the author declared


# Letters a Slavic stem changes as it inflects (bród -> brodu, droga -> dróg, ręka -> rąk, ёж -> ежа), each read as
# the other: the same length, so a match's place in the folded text is its place in the text.
_FOLD = str.maketrans("óÓąĄёЁ", "oOęĘеЕ")


def stem_spans(phrase: str, text: str, lang: str = "") -> list[tuple[int, int]]:
    """Where `text` holds `phrase` in any inflected form: its words in order, side by side (a space, a no-break
    space or a hyphen between them), each a form of the phrase's word. English words are compared by their
    Snowball stems (Porter2: army and armies, move and moving are one word; station is not statistics, ford not
    for, rout not rounded, square not squadron). Other languages: a word that starts with the phrase's word
    without its ending: a long one without its last three letters, at least four kept (Russian drops a vowel,
    уровень -> уровнем), a short one (five letters or fewer) without its last letter (очки -> очков); in a text
    folded by `folded`, so that bród is brodu and ręka rąk."""
    wanted = re.findall(r"\w+", folded(phrase))
    if not wanted:
        return []
    english = lang.split("_")[0].split("-")[0] == "en"
    same = _same_stem if english else _same_start
    stems = [_ENGLISH.stemWord(w.lower()) if english else _start(w.lower()) for w in wanted]
    words = list(re.finditer(r"\w+", folded(text)))
    found = []
    for i in range(len(words) - len(stems) + 1):
        run = words[i:i + len(stems)]
        if all(same(stem, word.group().lower()) for stem, word in zip(stems, run)) and \
                all(_JOINS.fullmatch(text[a.end():b.start()]) for a, b in zip(run, run[1:])):
            found.append((run[0].start(), run[-1].end()))
    return found


_ENGLISH = snowballstemmer.stemmer("english")
_JOINS = re.compile(r"[\s\u00a0-]+")


def _same_stem(stem: str, word: str) -> bool:
    return _ENGLISH.stemWord(word) == stem


def _start(word: str) -> str:
    return word if len(word) <= 3 else word[:len(word) - 1] if len(word) <= 5 else word[:max(4, len(word) - 3)]


def _same_start(start: str, word: str) -> bool:
    return word.startswith(start)


def folded(text: str) -> str:
    return text.translate(_FOLD)


def _spans(text: str, phrases: list[str], lang: str = "") -> list[tuple[int, int]]:
    return [span for phrase in phrases for span in stem_spans(phrase, text, lang)]


def _found(text: str, phrases: list[str], lang: str = "") -> bool:
    return bool(_spans(text, phrases, lang))


def _plain(text: str) -> str:
    """`text` without its placeholders (numbers or words inside them are not the translator's) and without the
    attributes of its spans (`{lang=en}`)."""
    return FIELD.sub(" ", PLACEHOLDER.sub(" ", without_spans(text)))


def _worded(text: str) -> str:
    """`text` with a word for each placeholder, as it prints: „{num:2}” is a quote of one word."""
    return FIELD.sub("x", PLACEHOLDER.sub("x", text))


def _numbers(text: str) -> Counter:
    """The numbers of a text, written alike: 16 000, 16,000 and 16.000 are 16000; 2,5 is 2.5."""
    plain = re.sub(r"(?<=\d)[\s\u00a0\u202f,.](?=\d{3}(?!\d))", "", _plain(text))
    return Counter(n.replace("−", "-").replace(",", ".").lstrip("+") for n in NUMBER.findall(plain))


def check_entry(entry: Entry, lang: str, source_lang: str, terms: list[Term]) -> list[Finding]:
    """Every fault of one translated, not fuzzy entry of a catalog in `lang`."""
    texts = po.strings(entry)
    if not any(texts) or entry.isfuzzy():
        return []
    sources = [str(s) for s in entry.source.strings] if entry.hasplural() else [str(entry.source)]
    source, line = sources[0], po.line(entry)
    model = sources[-1] if entry.hasplural() else source
    found: list[Finding] = []
    for text in dict.fromkeys(t for t in texts if t):
        found += _marks(line, model, text)
        found += _stray_numbers(line, model, text)
        found += _unpaired_quotes(line, lang, text, source_lang, model)
        found += _spacing(line, model, text)
        found += _terminology(line, model, text, terms, (source_lang, lang))
    found += _over_budget(line, entry)
    # a name of one word is the same in every language; words marked as another language ([Ward]{lang=en}) are
    # kept as they are: no translation to miss
    if lang != source_lang and len(re.findall(r"[^\W\d_]{4,}", _plain(without_foreign(source)))) >= 2:
        found += _toolkit(line, "identical", ("unchanged",), source, texts[0], "a translation")
    return _unignored(found, po.ignored(entry))


_TOOLKIT = toolkit.StandardChecker()


def _toolkit(line: int, check: str, tests: tuple[str, ...], model: str, text: str, expected: str,
             error: bool = False) -> list[Finding]:
    """The first of translate-toolkit's `tests` that `text` fails, reported under aids' `check` (the id a
    translator's `# aids: ignore` names)."""
    for test in tests:
        try:
            getattr(_TOOLKIT, test)(model, text)
        except toolkit.FilterFailure as failure:
            said = str(failure)
            return [Finding(line, check, f"{said[:1].lower()}{said[1:]} (translate-toolkit: {test})", expected, error)]
    return []


def _unignored(found: list[Finding], ignored: frozenset[str]) -> list[Finding]:
    """What the translator's comment does not silence: the checks it does not name, and those it cannot (the
    build, which reads the comment alike, refuses that translation: model/text.py, placeholder_mismatch)."""
    return [f if f.check not in ignored else
            Finding(f.line, f.check, f"{f.message}; not ignored: the build cannot print this translation and prints "
                    "the source text", f.expected, f.error)
            for f in found if f.check not in ignored or f.check in NOT_IGNORED]


def _marks(line: int, model: str, text: str) -> list[Finding]:
    """Placeholders and markup the translation loses or invents."""
    want, got = placeholders(model), placeholders(text)
    fault = span_fault(text)
    found = [Finding(line, "markup", fault, SPAN_EXPECTED)] if fault else []
    found += _toolkit(line, "placeholders", ("printf",), model, text, "the source's placeholders", error=True)
    for kind, items in (("placeholders", [x for x in want | got if x.startswith(("{", "%("))]),
                        ("markup", [x for x in want | got if not x.startswith(("{", "%("))])):
        lost = sorted(x for x in items if want[x] > got[x])
        invented = sorted(x for x in items if got[x] > want[x])
        if lost or invented:
            found.append(Finding(line, kind, f"translation {_loses_invents(lost, invented)}", "the source's " + kind))
    return found


def _loses_invents(lost: list[str], invented: list[str]) -> str:
    return " and ".join(p for p in ("loses " + ", ".join(lost) if lost else "",
                                    "invents " + ", ".join(invented) if invented else "") if p)


def _stray_numbers(line: int, model: str, text: str) -> list[Finding]:
    extra = _numbers(text) - _numbers(model)
    if not extra:
        return []
    return [Finding(line, "numbers", "number(s) the source does not have: " + ", ".join(sorted(extra)),
                    "numbers as the source has them (numbers are data, formatted by aids)")]


def _unpaired_quotes(line: int, lang: str, text: str, source_lang: str, model: str) -> list[Finding]:
    """Quotation marks the typography cannot pair (it turns every typed mark, straight or another language's,
    into this language's): a warning, unless the source has as many (a quote that spans two texts)."""
    unpaired = unpaired_quotes(_worded(text), lang)
    if not unpaired or unpaired <= unpaired_quotes(_worded(model), source_lang):
        return []
    return [Finding(line, "quotes", f"{unpaired} quotation mark(s) without a pair",
                    "each quote opened and closed in the text; any marks may be typed, printed as "
                    + _printed_quotes(lang), error=False)]


def _printed_quotes(lang: str) -> str:
    """The language's quotation marks as the typography prints them, whatever marks were typed."""
    marks = rules_for(lang).quotes
    return f"{marks[0]}…{marks[1]} (and {marks[2]}…{marks[3]} inside)"


def _spacing(line: int, model: str, text: str) -> list[Finding]:
    return _toolkit(line, "spaces", ("doublespacing", "startwhitespace", "endwhitespace"), model, text,
                    "spaces as the source has them: single inside, none around")


def over_budget(entry: Entry) -> tuple[int, int, str] | None:
    """(its length, its budget, the aid that sets it) when the longest translation of `entry` is longer than the
    budget `aids budgets` measured for it: the fitted aid it prints in may no longer fit its space at the minimum
    type size."""
    found = next((m for m in map(BUDGET.match, entry.othercomments) if m), None)
    longest = max((len(t) for t in po.strings(entry)), default=0)
    if found is None or longest <= int(found.group(1)):
        return None
    return longest, int(found.group(1)), found.group(2) or ""


def _over_budget(line: int, entry: Entry) -> list[Finding]:
    found = over_budget(entry)
    if found is None:
        return []
    longest, budget, aid = found
    room = f" that {aid} has room for" if aid else ""
    return [Finding(line, "length", f"{longest} characters, over the budget of {budget}{room}",
                    f"at most {budget} characters, or run the build: the aid may not fit any more "
                    "(aids budgets measures the budgets again)", error=False)]


def _terminology(line: int, source: str, text: str, terms: list[Term], langs: tuple[str, str]) -> list[Finding]:
    """A term the source uses, not inside a longer term it also uses ('punkty ruchu' in 'liczba punktów
    ruchu'), is in the translation as the glossary translates it."""
    found = []
    plain = _plain(source)
    spans = {term.id: _spans(plain, [term.source, *term.forms], langs[0]) for term in terms}
    for term in terms:
        if not term.translation or term.translation == term.source:
            continue
        alone = [(a, b) for a, b in spans[term.id]
                 if not any(c <= a and b <= d and (c, d) != (a, b) for other in terms for c, d in spans[other.id])]
        if alone and not _found(_plain(text), [term.translation], langs[1]):
            found.append(Finding(line, "terminology", f"the source says '{term.source}' (glossary: {term.id}), "
                                 f"the translation does not say '{term.translation}'",
                                 f"'{term.translation}' as the glossary translates it, in any inflected form"))
    return found


def check_plurals(catalog: Catalog, lang: str) -> list[Finding]:
    """The header's number of plural forms is CLDR's for the language, and every plural entry fills them."""
    try:
        cldr = get_plural(lang).num_plurals
    except (ValueError, LookupError):
        return []
    declared = po.nplurals(catalog)
    found = []
    if declared is not None and declared != cldr:
        found.append(Finding(1, "plurals", f"the header declares nplurals={declared}",
                             f"nplurals={cldr}, as CLDR has it for '{lang}'"))
    for entry in po.entries(catalog):
        if not entry.hasplural() or entry.isfuzzy() or not any(po.strings(entry)):
            continue
        filled = sum(1 for s in po.strings(entry)[:cldr] if s)
        if filled < cldr:
            found.append(Finding(po.line(entry), "plurals", f"{filled} of {cldr} plural forms filled",
                                 f"all {cldr} forms of '{lang}'"))
    return found


def check_forms(catalog: Catalog) -> list[Finding]:
    """Every form a translation asks for ({side:x|gen}, {ref:chapter:V|acc}) is a known case, and a side's form
    is translated in this catalog (msgctxt <aid>/side/<x>/<case>): else the name prints in the nominative."""
    given = {po.key(e)[0] for e in po.entries(catalog) if po.translated(e) and not e.isfuzzy()}
    offered = {po.key(e)[0] for e in po.entries(catalog)}
    found = []
    for entry in po.entries(catalog):
        if entry.isfuzzy() or "forms" in po.ignored(entry):
            continue
        aid = po.key(entry)[0].split("/", 1)[0]
        for kind, target, whole in (p for text in po.strings(entry) for p in inline_placeholders(text)):
            fault = _form_fault(kind, target, whole, aid, given, offered)
            if fault:
                found.append(Finding(po.line(entry), "forms", *fault))
    return found


def _form_fault(kind: str, target: str, whole: str, aid: str, given: set[str],
                offered: set[str]) -> tuple[str, str] | None:
    """What is wrong with the form one placeholder asks for (None if nothing, or it asks for none)."""
    name, form = with_form(target)
    context = f"{aid}/side/{name}/{form}"
    if form is None or form in CASES and (kind != "side" or context in given):
        return None
    if form not in CASES:
        return f"unknown form '{form}' in {whole}", ", ".join(f"{c} ({n})" for c, n in CASES.items())
    if context in offered:
        return (f"{whole}: the {CASES[form]} of '{name}' is not translated (msgctxt {context}), so the nominative "
                "prints", f"a translation of msgctxt {context}")
    return (f"{whole}: the source gives no {CASES[form]} of '{name}', so the nominative prints",
            f"{{side:{name}}}, or ask the author for forms: {{{form}: ...}} under side {name}")


def check_catalog(catalog: Catalog, lang: str, source_lang: str, terms: list[Term]) -> list[Finding]:
    found = check_plurals(catalog, lang) + check_forms(catalog)
    for entry in po.entries(catalog):
        found += check_entry(entry, lang, source_lang, terms)
    return sorted(found, key=lambda f: (f.line, CHECKS.index(f.check)))
