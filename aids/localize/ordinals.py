"""Ordinal numbers as each language writes them in digits: English 1st, 2nd, 23rd, 11th; Polish 6.; Russian 6-й,
6-я, 6-е. The number is data ({ord:6} in a text, never "6th" in a msgid); which ending it takes is CLDR's ordinal
plural category for the language (Babel's `Locale.ordinal_form`: English one, two, few, other), and each
category's pattern is a translation, so a language's ending is its translators' (its catalog), not code."""
from __future__ import annotations

from .localizer import Localizer

FORMS = ("f", "n")  # {ord:6|f}, {ord:6|n}: a feminine or neuter noun follows (Russian 6-я, 6-е); masculine by default


def ordinal(lz: Localizer, n: int, form: str | None = None) -> str:
    """`n` as an ordinal in `lz`'s language, agreeing with a noun of `form` where the language inflects it."""
    category = lz.locale.ordinal_form(n)
    if form == "f" and category == "other":
        pattern = lz.pgettext("an ordinal number before a feminine noun (Russian 6-я), CLDR ordinal category "
                              "'other'; %(n)s is the number", "%(n)sth")
    elif form == "n" and category == "other":
        pattern = lz.pgettext("an ordinal number before a neuter noun (Russian 6-е), CLDR ordinal category "
                              "'other'; %(n)s is the number", "%(n)sth")
    else:
        pattern = {
            "one": lambda: lz.pgettext("an ordinal number, CLDR ordinal category 'one' (English 1st, 21st); "
                                       "%(n)s is the number", "%(n)sst"),
            "two": lambda: lz.pgettext("an ordinal number, CLDR ordinal category 'two' (English 2nd, 22nd); "
                                       "%(n)s is the number", "%(n)snd"),
            "few": lambda: lz.pgettext("an ordinal number, CLDR ordinal category 'few' (English 3rd, 23rd); "
                                       "%(n)s is the number", "%(n)srd"),
        }.get(category, lambda: lz.pgettext("an ordinal number, CLDR ordinal category 'other' (English 4th, 11th; "
                                             "Polish 6.; Russian 6-й); %(n)s is the number", "%(n)sth"))()
    return pattern % {"n": lz.number(n)}
