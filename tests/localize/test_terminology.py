"""`aids check`'s terminology: a glossary term the source uses is in the translation as the glossary translates
it, in any inflected form, and a word that only starts like a term is not the term."""
from __future__ import annotations

import pytest
from translate.storage import pypo

from aids.localize import checks

pytestmark = pytest.mark.unit

TERMS = {
    "ford": checks.Term("ford", "ford", "bród"),
    "road": checks.Term("road", "road", "droga"),
    "square": checks.Term("square", "square", "czworobok"),
    "rout": checks.Term("rout", "rout", "ucieczka"),
    "brod": checks.Term("ford", "ford", "брод"),
    "hedgehog": checks.Term("hedgehog", "hedgehog", "ёж"),
    "dmorlze": checks.Term("dmorlze", "demoralizacja", "demoralized"),
    "army": checks.Term("army", "armia", "army"),
    "move": checks.Term("move", "ruch", "move"),
    "lose": checks.Term("lose", "tracić", "lose"),
    "station": checks.Term("station", "stacja", "station"),
    "supply": checks.Term("supply", "zaopatrzenie", "supply"),
}


def findings(source: str, translation: str, term: str, lang: str, source_lang: str = "en") -> list[str]:
    unit = pypo.pounit(source)
    unit.target = translation
    return [f.message for f in checks.check_entry(unit, lang, source_lang, [TERMS[term]])]


@pytest.mark.parametrize("source, translation, term, lang", [
    ("Cross at the ford.", "Przejdź przez brodu.", "ford", "pl"),               # bród -> brodu: ó read as o
    ("Cross at the ford.", "Przejdź w brodzie.", "ford", "pl"),
    ("South of the road junction.", "Na południe od skrzyżowania dróg.", "road", "pl"),  # droga -> dróg
    ("Cross at the ford.", "Перейдите у брода.", "brod", "ru"),
    ("A hedgehog.", "Нет ежа.", "hedgehog", "ru"),                            # ёж -> ежа
    ("Stan: demoralizacja.", "Status: demoralization.", "dmorlze", "en"),   # English drops its ending
])
def test_an_inflected_translation_of_a_term_is_the_term(source, translation, term, lang):
    assert findings(source, translation, term, lang, "pl" if term == "dmorlze" else "en") == []


@pytest.mark.parametrize("source, term", [
    ("Wait for the turn the rules called for.", "ford"),    # "for" is not "ford"
    ("Halved, rounded down.", "rout"),                       # nor "rounded" "rout"
    ("The Hussar Squadron arrives.", "square"),               # nor "Squadron" "square"
])
def test_a_word_that_only_starts_like_an_english_term_is_not_the_term(source, term):
    assert findings(source, "Cokolwiek innego.", term, "pl") == []


@pytest.mark.parametrize("source, translation, term", [
    ("Units at the fords stop.", "Oddziały na przeprawach stają.", "ford"),
    ("The squares hold.", "Kwadraty stoją.", "square"),
    ("Routed units flee.", "Pokonane oddziały uciekają.", "rout"),  # "uciekają" is not "ucieczka"
])
def test_a_term_the_translation_leaves_out_is_found(source, translation, term):
    assert findings(source, translation, term, "pl") == [
        f"the source says '{TERMS[term].source}' (glossary: {TERMS[term].id}), the translation does not say "
        f"'{TERMS[term].translation}'"]


@pytest.mark.parametrize("source, translation, term", [
    ("Armie wycofują się.", "The armies fall back.", "army"),        # army -> armies: y turns to ie
    ("Ruch piechoty.", "Moving the infantry.", "move"),              # move -> moving: e dropped
    ("Gracz traci oddział.", "The player is losing a unit.", "lose"),
    ("Zaopatrzenie dociera.", "Supplies arrive.", "supply"),
])
def test_an_english_term_is_found_in_its_forms_by_snowball(source, translation, term):
    """Words the hand-written English stemmer got wrong: it kept at least four letters of a word, so it found
    army, move and lose only where they were spelt whole."""
    assert findings(source, translation, term, "en", "pl") == []


def test_an_english_term_is_not_found_in_a_word_that_only_starts_like_it():
    """The hand-written stemmer cut station to stat-, found in statistics and state."""
    assert findings("Stacja kolejowa.", "The statistics of the state railway.", "station", "en", "pl") == [
        "the source says 'stacja' (glossary: station), the translation does not say 'station'"]
