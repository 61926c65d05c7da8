"""One language's view of an aid: translated text with fallback, locale numbers and dates, enumerations."""
from __future__ import annotations

import datetime as dt
import gettext
import re
from dataclasses import dataclass, field, replace
from decimal import Decimal

from babel import Locale
from babel.dates import format_date, format_skeleton
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent, get_plus_sign_symbol

from ..model.icons import Icon as IconSource
from ..model.text import Text, placeholder_mismatch, plain_text, roman
from . import rich
from .rich import DraftText, Marked, Resolve, Rich, draft_text  # noqa: F401 (DraftText: where renderers import it)

NBSP = "\u00a0"

PSEUDO = "qps"  # the pseudo-locale: every text accented and lengthened, numbers formatted as in English
LOCALES = {PSEUDO: "en"}
_ACCENTS = str.maketrans("aceilnorsuyzACEILNORSUYZ", "áçéîļñöŕšüýžÁÇÉÎĻÑÖŔŠÜÝŽ")
_KEPT = re.compile(r"\{[a-z]+:[^{}\s]+\}|%\(\w+\)[sd]|%[sd]|\\.|https?://\S+")  # placeholders, fields, escapes
_VOWELS = set("áéîöüýÁÉÎÖÜÝ")


def pseudo(text: str, *, lengthen: bool = True, markdown: bool = False) -> str:
    """`text` accented (áçéîñ...), and, with `lengthen`, 40 % longer (vowels doubled, as a longer language
    would make it) between brackets that show where it starts and ends; placeholders, %(fields)s, escapes
    and numbers kept as they are."""
    budget = max(0, round(len(text) * 0.4) - 2) if lengthen else 0
    out, pos = [], 0
    for match in [*_KEPT.finditer(text), None]:
        end = match.start() if match else len(text)
        for char in text[pos:end].translate(_ACCENTS):
            out.append(char * 2 if budget and char in _VOWELS else char)
            budget -= 1 if budget and char in _VOWELS else 0
        if match:
            out.append(match.group())
            pos = match.end()
    body = "".join(out) + (" " + "·" * budget if budget else "")
    if not lengthen:
        return body
    return f"\\[{body}\\]" if markdown else f"[{body}]"


class PseudoTranslations(gettext.NullTranslations):
    """The package's own words in the pseudo-locale: accented, not lengthened (a letter list stays a list)."""

    def gettext(self, message: str) -> str:
        return pseudo(message, lengthen=False)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message, lengthen=False)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2, lengthen=False)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2, lengthen=False)


LATIN = [chr(c) for c in range(ord("a"), ord("z") + 1)]


def lettered(letters: list[str], n: int) -> str:
    """The `n`th letter label (1-based) of `letters`; past the last, two letters (aa, ab, ...)."""
    if n <= len(letters):
        return letters[n - 1]
    return letters[(n - 1) // len(letters) - 1] + letters[(n - 1) % len(letters)]


@dataclass
class Fallback:
    text: Text
    reason: str  # "untranslated", "fuzzy", or why a translation was rejected


@dataclass
class Localizer:
    lang: str
    source_lang: str
    catalog: dict[tuple[str, str], tuple[str, bool]]  # (context, msgid) -> (msgstr, fuzzy)
    ui: gettext.NullTranslations
    fallbacks: list[Fallback] = field(default_factory=list)
    draft: bool = False  # text that falls back is marked for a proofreader
    style: str | None = None  # the CLDR locale of the language's dates (en_GB or en_US for en), from aids.yaml
    context: bool = False  # every text marked with its msgctxt, for `aids context` to find where it prints
    # (context, msgid) -> the checks its translator's comment ignores (`# aids: ignore markup`): aids check's rule
    ignored: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    icons: dict[str, IconSource] = field(default_factory=dict)  # the game's icon set, by id ({icon:<id>})

    def __post_init__(self) -> None:
        self.locale = Locale.parse(self.style or LOCALES.get(self.lang, self.lang))
        self._seen: set[tuple[str, str]] = set()
        self._recent: dict[tuple[str, str], Fallback] = {}  # since the last `recent()`: what one render used

    def quiet(self) -> Localizer:
        """The same language with nothing noted or marked: for quoting an aid's texts on another page (a changelog,
        an errata sheet), where a text left in the source language is its own aid's to report, not that page's."""
        return replace(self, fallbacks=[], draft=False, context=False)

    # -- game text ---------------------------------------------------------------------------
    def text(self, t: Text) -> str:
        """`t` in this language, or its source text (noted as a fallback) when there is no usable translation."""
        if self.lang == PSEUDO:
            return pseudo(t.msgid)
        text, translated = self._lookup(t)
        if self.context:
            return draft_text(text, t.context, "context", t.msgid)
        return draft_text(text, t.context) if self.draft and not translated else text

    def plain(self, t: Text, note: bool = False) -> str:
        """`shown(t)` (`text(t)` if `note`) without inline Markdown: a game's title where no markup can stand (a
        bookmark, a page's <title>, a feed)."""
        text = self.text(t) if note else self.shown(t)
        words = plain_text(text)
        return draft_text(words, text.context, text.kind) if isinstance(text, DraftText) else words

    def shown(self, t: Text) -> str:
        """What `text(t)` gives, without noting a fallback: for finding which text a page shows."""
        return pseudo(t.msgid) if self.lang == PSEUDO else self._lookup(t, note=False)[0]

    def translated(self, t: Text) -> bool:
        """Whether `t` has a usable translation (not untranslated, fuzzy or broken); the source language's
        texts always have."""
        return self.lang == PSEUDO or self._lookup(t, note=False)[1]

    def _lookup(self, t: Text, note: bool = True) -> tuple[str, bool]:
        if self.lang == self.source_lang:
            return t.msgid, True
        msgstr, fuzzy = self.catalog.get((t.context, t.msgid), ("", False))
        reason = "untranslated" if not msgstr else "fuzzy" if fuzzy else placeholder_mismatch(
            t.msgid, msgstr, self.ignored.get((t.context, t.msgid), ()))
        if not reason:
            return msgstr, True
        if not note:
            return t.msgid, False
        if (t.context, t.msgid) not in self._seen:
            self._seen.add((t.context, t.msgid))
            self.fallbacks.append(Fallback(t, reason))
        self._recent.setdefault((t.context, t.msgid), Fallback(t, reason))
        return t.msgid, False

    def recent(self) -> list[Fallback]:
        """The fallbacks since the last call, each once: those of one aid in one edition (for --strict)."""
        found, self._recent = list(self._recent.values()), {}
        return found

    def rich(self, t: Text, resolve: rich.Resolve | None = None, capital: rich.Capital | None = None,
             note: bool = True) -> Rich:
        """`t` as runs: inline Markdown read, placeholders replaced by `resolve(kind, target)` (those `capital`
        names capitalized where they begin a sentence); text that fell back to the source language is marked
        as such (its `lang` differs from the page's); noted as a fallback of the aid being built unless not `note`
        (a page of the web site)."""
        resolve = self.with_icons(resolve or (lambda kind, target: Rich()))
        if self.lang == PSEUDO:
            return rich.parse(pseudo(t.msgid, markdown=True), resolve, capital)
        text, translated = self._lookup(t, note)
        runs = rich.parse(text, resolve, capital)
        if not translated and self.lang != self.source_lang:
            runs = Rich([Marked(runs, "draft" if self.draft else "source", self.source_lang,
                                t.context if self.draft else "")])
        return Rich([Marked(runs, "context", note=t.context, msgid=t.msgid)]) if self.context else runs

    def with_icons(self, resolve: Resolve) -> Resolve:
        """`resolve` that makes each {icon:<id>} of any kind's text the game's icon, named in this language."""
        def resolved(kind: str, target: str) -> Rich:
            icon = self.icons.get(target) if kind == "icon" else None
            if icon is None:
                return resolve(kind, target)
            return Rich([rich.Icon(rich.text(self.text(icon.name)), icon)])
        return resolved

    # -- the package's own words ---------------------------------------------------------------
    def gettext(self, msgid: str) -> str:
        return self.ui.gettext(msgid)

    def pgettext(self, context: str, msgid: str) -> str:
        return self.ui.pgettext(context, msgid)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.ui.ngettext(singular, plural, n)

    def npgettext(self, context: str, singular: str, plural: str, n: int | float | Decimal) -> str:
        # gettext's plural formula takes the number as given (ranking points are whole numbers)
        return self.ui.npgettext(context, singular, plural, n)  # type: ignore[arg-type]

    def ui_rich(self, context: str, msgid: str, **values: Rich | str) -> Rich:
        """A UI string with %(name)s values, each a text or runs (a link, say)."""
        return rich.fill(self.pgettext(context, msgid), values)

    # -- numbers, dates, enumerations -------------------------------------------------------------
    def number(self, value, places: int | None = None) -> str:
        """`value` in this locale with a true minus sign; `places` keeps that many decimals (1,0 stays 1,0)."""
        pattern = None if places is None else "#,##0" + ("." + "0" * places if places else "")
        return format_decimal(value, format=pattern, locale=self.locale).replace("-", "\u2212")

    def percent(self, value: float) -> str:
        """`value` (0 to 100) as this locale writes a whole percentage: 87 %, 87%."""
        return format_percent(round(value) / 100, locale=self.locale)

    def signed(self, value) -> str:
        """`value` with its sign always shown: +30, 0, −3 (the locale's plus sign, a true minus)."""
        text = self.number(value)
        return get_plus_sign_symbol(self.locale) + text if value > 0 else text

    def date(self, value: dt.date, format: str = "long") -> str:
        """`value` in the language's date style, kept on one line (11 sierpnia 1920)."""
        return format_date(value, format=format, locale=self.locale).replace(" ", NBSP)

    def day(self, value: dt.date) -> str:
        """A day of the year without its year (11 sierpnia, August 11), kept on one line."""
        return format_skeleton("MMMMd", value, locale=self.locale).replace(" ", NBSP)

    def format_list(self, items: list[Rich]) -> Rich:
        """`items` joined as the language joins a list ("a, b and c", "a, b i c")."""
        marks = [f"\ue000{i}\ue001" for i in range(len(items))]
        joined = format_list(marks, locale=self.locale)
        out: list[rich.Inline] = []
        for i, piece in enumerate(re.split("\ue000(\\d+)\ue001", joined)):
            out.extend(items[int(piece)] if i % 2 else rich.text(piece))
        return Rich(out)

    def letters(self) -> list[str]:
        """The letters that enumerate in this language, in order: those a language's documents use (Russian
        skips ё з й о ч ъ ы ь, as GOST 2.105 has it)."""
        return self.pgettext(
            "letters that enumerate sub-steps (a., b., c.), space-separated, in order",
            "a b c d e f g h i j k l m n o p q r s t u v w x y z").split()

    def letter(self, n: int) -> str:
        return lettered(self.letters(), n)

    @staticmethod
    def roman(n: int) -> str:
        return roman(n)

