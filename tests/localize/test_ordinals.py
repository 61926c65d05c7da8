"""Ordinals as numbers, formatted per language (issue 36: "6th", "6.", "6-й" were text in msgids): {ord:6} in a
booklet's text, its ending chosen by CLDR's ordinal category for the language and the package's catalogs."""
from __future__ import annotations

import pytest

from aids.localize import ui
from aids.localize.localizer import Localizer
from aids.localize.ordinals import ordinal

from ..model.test_booklet import error_of, localized, project

pytestmark = pytest.mark.unit


def lz(lang: str) -> Localizer:
    return Localizer(lang, "en", {}, ui.ui_translations(lang))


@pytest.mark.parametrize("lang, form, written", [
    ("en", None, "1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 23rd 101st 111th 1,000th"),
    ("en", "f", "1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 23rd 101st 111th 1,000th"),
    ("pl", None, "1. 2. 3. 4. 11. 12. 13. 21. 22. 23. 101. 111. 1\xa0000."),
    ("ru", None, "1-й 2-й 3-й 4-й 11-й 12-й 13-й 21-й 22-й 23-й 101-й 111-й 1\xa0000-й"),
    ("ru", "f", "1-я 2-я 3-я 4-я 11-я 12-я 13-я 21-я 22-я 23-я 101-я 111-я 1\xa0000-я"),
    ("ru", "n", "1-е 2-е 3-е 4-е 11-е 12-е 13-е 21-е 22-е 23-е 101-е 111-е 1\xa0000-е"),
])
def test_ordinals_in_each_language(lang, form, written):
    numbers = (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 1000)
    assert " ".join(ordinal(lz(lang), n, form) for n in numbers) == written


def test_an_ordinal_in_a_booklet_is_data(tmp_path):
    root = project(tmp_path, two_md="# A {#a}\n\nW {ord:6} turze i {ord:2|f} fazie.\n")
    html, _ = localized(root, "pl")
    assert any("W 6. turze i 2. fazie." in str(b.get("text", "")) for b in html["blocks"])
    html, _ = localized(root, "ru")  # untranslated, the text stays Polish; its numbers are the reader's
    assert any("6-й" in str(b.get("text", "")) and "2-я" in str(b.get("text", "")) for b in html["blocks"])


@pytest.mark.parametrize("bad", ["{ord:six}", "{ord:0}", "{ord:6|gen}"])
def test_a_malformed_ordinal_is_reported(tmp_path, bad):
    assert f"games/demo/two.md:3:3: ordinal '{bad}'" in error_of(tmp_path, two_md=f"# A {{#a}}\n\nW {bad} turze.\n")
