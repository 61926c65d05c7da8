"""Sorting words as each language's dictionaries do (ICU's collation, CLDR's tailorings): Polish ł after l and
ż after ź, Russian ё with е, case and accents second. A back-of-book index and any list a reader looks words up in
is sorted by it, never by code points (which put Polish "łąka" after "most")."""
from __future__ import annotations

from collections.abc import Callable
from functools import cache

import icu  # PyICU, from the pyicu-wheels distribution: ICU itself in the wheel, no system library needed


@cache
def _collator(lang: str) -> icu.Collator:
    return icu.Collator.createInstance(icu.Locale(lang.replace("-", "_")))


def sort_key(lang: str) -> Callable[[str], bytes]:
    """A key that sorts texts of `lang` as its dictionaries do."""
    return _collator(lang).getSortKey
