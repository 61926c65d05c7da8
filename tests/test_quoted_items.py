"""Every page that quotes an aid's items reads them as the aid prints them (aids/releases/wording.py, Kind.item_texts):
the errata sheets, the pages since a release, the rules' histories, the feeds, the release notes of `aids changes`
and a booklet's changelog. Checked on Valmora 1809 in its three languages (its sides and roles named in the case a
text asks for, quantities with their values, a chapter reference worded), where release 2.1 added and reworded
steps whose texts hold placeholders; and the errata of its role's new case forms, printed at the head of the page,
said in words rather than in boxes with nothing to paste over. Also the names of the editions on the game's pages
and the archive's."""
from __future__ import annotations

import json
import re
import shutil

import pytest
from lxml import html

from .helpers import REPO, edit, pdf_text, run

GAME = "valmora-1809"
PLACEHOLDER = re.compile(r"\{[a-z]+:[^{}\s]*\}")  # {side:phasing}, {q:range}, {ref:chapter:VI|loc}
LANGS = ("pl", "en", "ru")


@pytest.fixture(scope="module")
def valmora(tmp_path_factory):
    """Valmora 1809 (releases 2.0 and 2.1) built in pl, en and ru, with its errata to 2.0."""
    root = tmp_path_factory.mktemp("quoted") / "project"
    shutil.copytree(REPO / "games" / GAME, root / "games" / GAME)
    for lang in ("pl", "ru"):
        folder = root / "i18n" / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        shutil.copy(REPO / "i18n" / lang / "LC_MESSAGES" / f"{GAME}.po", folder)
    (root / "aids.yaml").write_text("languages: [pl, en, ru]\noutput: build\nformats: [html, pdf]\n", encoding="utf-8")
    code, _, err = run("--project", root, "build", "--jobs", "1")
    assert code == 0, err
    code, _, err = run("--project", root, "errata", "2.0")
    assert code == 0, err
    return root


def words(path) -> str:
    """A page's text as a reader reads it (no script, no style), its no-break spaces plain."""
    tree = html.parse(str(path)).getroot()
    for node in tree.xpath("//script|//style"):
        node.drop_tree()
    return " ".join(tree.text_content().replace("\xa0", " ").split())


# what the sequence prints in each language where release 2.1's texts hold placeholders
PRINTED = {
    "en": ["Phasing player carries out withdrawals first.", "fires at −1.", "within 10 cm of an enemy unit",
           "(in detail, see Chapter VI)"],
    "pl": ["Gracz aktywny jako pierwszy wykonuje odwroty.", "strzela z modyfikatorem −1.", "w odległości do 10 cm",
           "(szczegółowo w Rozdziale VI)", "oddziały gracza nieaktywnego mogą reagować"],
    "ru": ["Активный игрок первым выполняет отходы.", "не далее 10 см", "(подробно см. Главу VI)",
           "части пассивного игрока могут реагировать"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_errata_quote_each_text_as_the_aid_prints_it(valmora, lang):
    text = " ".join(pdf_text(valmora / "build" / GAME / lang / "errata-2.0.pdf").replace("\xa0", " ").split())
    assert not PLACEHOLDER.findall(text)
    for printed in PRINTED[lang]:
        assert printed in text, (lang, printed)


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_since_a_release_the_histories_and_the_feed_quote_each_text_as_the_aid_prints_it(valmora, lang):
    import feedparser
    site = valmora / "build" / GAME
    since = words(site / "cm" / lang / "since-2.0" / "index.html")
    history = words(site / "cm" / lang / "history" / "turn-sequence.html")
    feed = feedparser.parse((site / lang / "changes.atom").read_bytes())
    summary = " ".join(feed.entries[0].summary.replace("\xa0", " ").split())
    for page in (since, history, summary):
        assert not PLACEHOLDER.findall(page)
    for printed in PRINTED[lang]:
        assert printed in history, (lang, printed)
    assert "10 cm" in since.replace("см", "cm") and "10 cm" in summary.replace("см", "cm")
    # what 2.0 printed, from its snapshot: the step as it was, with its value
    assert {"en": "Artillery fires first; a battery that moved fires at −1.",
            "pl": "Najpierw strzela artyleria; bateria, która się poruszyła, strzela z modyfikatorem −1.",
            "ru": "с модификатором −1"}[lang] in history


def test_release_notes_quote_each_text_as_the_aid_prints_it(valmora):
    for lang in LANGS:
        code, notes, err = run("--project", valmora, "changes", "--since", "2.0", "--lang", lang)
        assert code == 0, err
        notes = notes.replace("\xa0", " ")
        assert not PLACEHOLDER.findall(notes), lang
        assert {"en": "Phasing player carries out withdrawals first.", "pl": "Rozdziale VI",
                "ru": "Главу VI"}[lang] in notes


def test_a_booklets_changelog_quotes_each_text_as_the_aid_prints_it(tmp_path):
    """The demonstration game released, then a step of its sequence given a reference: the booklet's changelog
    prints the reference's number, as the sequence does."""
    root = tmp_path / "demo"
    assert run("init", root)[0] == 0
    assert run("--project", root, "release", "1.0", "--date", "2026-01-10")[0] == 0
    edit(root / "games" / "mill-skirmish" / "sequence.yaml", "fires at one enemy unit within range.",
         "fires at one enemy unit within range ({see:movement/move}).")
    code, _, err = run("--project", root, "build", "--jobs", "1", "--lang", "en", "--format", "html")
    assert code == 0, err
    page = html.parse(str(root / "build" / "mill-skirmish" / "en" / "rules.html")).getroot()
    log = " ".join(page.get_element_by_id("changelog").getparent().text_content().replace("\xa0", " ").split())
    assert "fires at one enemy unit within range (see 2, step 1)." in log and not PLACEHOLDER.findall(log)


@pytest.mark.parametrize("lang", LANGS)
def test_the_errata_put_no_box_where_there_is_nothing_to_paste_over(valmora, lang):
    """Every box has its page; a name's new genitive forms (printed only within the texts that use them, each in a
    box of its own) are not listed alone ("new: активного игрока" said nothing)."""
    text = pdf_text(valmora / "build" / GAME / lang / "errata-2.0.pdf").replace("\xa0", " ")
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    assert not [line for line in lines if "not found" in line or "nie znaleziono" in line or "не найдено" in line]
    forms = {"en": ["phasing player", "non-phasing player"], "pl": ["gracza aktywnego", "gracza nieaktywnego"],
             "ru": ["активного игрока", "пассивного игрока"]}[lang]
    assert not [line for line in lines if line.lstrip("• ").split(": ")[-1] in forms]
    boxes = [line for line in lines if re.match(r"^(page|strona|стр\.) \d", line)]
    assert len(boxes) == {"en": 8, "pl": 9, "ru": 9}[lang]  # the steps and the removed one; the retranslated one


def test_a_changed_title_is_said_in_words_before_the_boxes(valmora, tmp_path):
    """The title, printed at the head of the page, has no place to paste a box over: the sheet says it in words,
    under the aid's name, before the boxes."""
    root = tmp_path / "project"
    shutil.copytree(valmora, root, ignore=shutil.ignore_patterns("build"))
    edit(root / "games" / GAME / "sequence.yaml", "title: Sequence of play", "title: Sequence of play and orders")
    code, _, err = run("--project", root, "errata", "2.0", "--lang", "en")
    assert code == 0, err
    text = pdf_text(root / "build" / GAME / "en" / "errata-2.0.pdf").replace("\xa0", " ")
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    said = next(n for n, line in enumerate(lines) if line.endswith(": Sequence of play and orders"))
    assert said < next(n for n, line in enumerate(lines) if re.match(r"^page \d", line))


def test_the_game_pages_name_each_edition(valmora):
    """By its title in game.yaml, in each language: the game's page (its headings and its search's filter by
    edition) and the archive's release pages."""
    names = {"pl": ["Wydanie metryczne", "Wydanie calowe"], "en": ["Metric edition", "Inch edition"],
             "ru": ["Метрическое издание", "Дюймовое издание"]}
    for lang, expected in names.items():
        for page in (valmora / "build" / GAME / lang / "index.html", valmora / "build" / GAME / "2.0" / lang /
                     "index.html"):
            headings = html.parse(str(page)).getroot().xpath("//main//h2")
            text = [" ".join(h.text_content().split()) for h in headings]
            assert all(any(name in t for t in text) for name in expected), (page, text)
            assert not [t for t in text if re.search(r"\b(cm|inch)\b", t)], (page, text)
        box = html.parse(str(valmora / "build" / GAME / lang / "index.html")).getroot().find_class("aids-search")[0]
        filters = [*json.loads(box.get("data-filters")).values(),
                   *(value for index in json.loads(box.get("data-indexes")) for value in index["filters"].values())]
        assert filters == expected, filters
