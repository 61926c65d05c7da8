"""A sequence as its author writes it (issue 48, "Sequences as written"; docs/guide/sequences.md): a text that
begins with a placeholder, and what the guide says each sequence may say in its source's own way."""
import lxml.html
import pytest

from aids.commands.cli import main
from aids.config import read_project
from aids.errors import AidsError
from aids.kinds import reading
from aids.localize import making
from aids.localize.typography import typeset_rich

from ..helpers import DEMO_SEQUENCE, make_project, read_demo, run

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("typed, message", [
    ("text: {side:red} kładzie żetony.",
     "games/demo/sequence.yaml:15:15: a text that starts with '{' must be quoted: YAML reads {side:red} as a mapping "
     "(expected: a quoted string: text: \"{side:red} kładzie żetony.\")"),
    ("text: {side:red}",
     "games/demo/sequence.yaml:15:15: a text that starts with '{' must be quoted: YAML reads {side:red} as a mapping "
     "(expected: a quoted string: text: \"{side:red}\")"),
])
def test_a_text_that_starts_with_a_placeholder_unquoted_is_reported_as_such(tmp_path, capsys, typed, message):
    """Before: "malformed YAML: expected <block end>, but found '<scalar>': this line is indented unlike the lines
    around it (expected: 6 spaces like line 14, not 8 ...)", blaming the indentation."""
    root = make_project(tmp_path, {"games/demo/sequence.yaml": DEMO_SEQUENCE.replace("text: Połóż żetony.", typed)})
    with pytest.raises(AidsError) as info:
        read_demo(root)
    assert str(info.value) == message


@pytest.mark.integration
def test_the_build_says_it_in_one_line_and_exits_1(tmp_path, capsys):
    root = make_project(tmp_path, {"games/demo/sequence.yaml": DEMO_SEQUENCE.replace("text: Połóż żetony.",
                                                                                     "text: {side:red} kładzie.")})
    assert main(["--project", str(root), "build", "--format", "html"]) == 1
    err = capsys.readouterr().err
    assert "games/demo/sequence.yaml:15:15: a text that starts with '{' must be quoted" in err
    assert "Traceback" not in err and "indented" not in err


# A Russian source as its authors set it: no title, "Title – timing" headings, a chapter reference in its own words,
# notes without a label, Latin step letters a-h in Russian too (`letters: {ru: latin}`).
GAME = """\
id: demo
title: Битва
version: "1"
source_language: ru
aids: [turn.yaml, lettered.yaml]
"""
TURN = """\
kind: sequence
id: turn
section: "4"
letters: {ru: latin}
note_label: false
timing_style: dash
sides:
  - {id: red, name: красные}
  - {id: blue, name: синие}
phases:
  - id: fire
    title: Фаза огня
    timing: simultaneous
    see_text: (подробно см. {ref:chapter:VI|acc})
    steps:
      - id: shoot
        text: Стреляют все части.
        note: Только один раз за ход.
        steps:
""" + "".join(f"          - {{id: s{n}, text: Подшаг {n}.}}\n" for n in range(1, 9))
LETTERED = """\
kind: sequence
id: lettered
title: Порядок хода
phases:
  - id: move
    title: Фаза движения
    steps:
      - id: march
        text: Части движутся.
        steps:
""" + "".join(f"          - {{id: s{n}, text: Подшаг {n}.}}\n" for n in range(1, 10))


def russian(tmp_path, **changed):
    files = {"games/demo/game.yaml": GAME, "games/demo/turn.yaml": TURN, "games/demo/lettered.yaml": LETTERED}
    return make_project(tmp_path, {**files, **changed})


def localized(root, aid: int, lang: str):
    project = read_project(root)
    game = project.read_game("demo")
    found = reading.read_aid(project, game, game.aids[aid])
    return found.kind.localize(found.model, making.localizer(project, game, lang), None)


def test_a_phase_heading_keeps_the_sources_own_reference_and_its_title_dash_timing_form(tmp_path):
    """Before: `see:` printed aids' wording only ("(см. главу VI)"); the timing only as a label beside the title;
    and see_text, timing_style were unknown fields."""
    phase = localized(russian(tmp_path), 0, "ru")["phases"][0]
    assert phase["see_text"].plain() == "(подробно см. Главу\u00a0VI)"
    assert phase["title"].plain() == "Фаза огня – одновременно" and phase["timing"] is None
    assert typeset_rich(phase["title"], "ru").plain() == "Фаза огня\u00a0— одновременно"  # Russian's spaced dash
    polish = localized(russian(tmp_path), 0, "pl")["phases"][0]["title"]  # title untranslated, timing Polish
    assert typeset_rich(polish, "pl").plain() == "Фаза огня\u00a0– jednocześnie"


def test_latin_letters_in_a_russian_edition_and_the_russian_letters_skips_said(tmp_path):
    """Before: `letters:` took language or source only (both Russian letters in a Russian source), and nothing
    said that the Russian letters skip з and й (ж) is followed by и))."""
    root = russian(tmp_path)
    latin = localized(root, 0, "ru")
    assert [s["label"] for s in latin["phases"][0]["steps"][0]["steps"]] == list("abcdefgh")
    assert latin["remarks"] == []
    own = localized(root, 1, "ru")
    assert [s["label"] for s in own["phases"][0]["steps"][0]["steps"]] == "а б в г д е ж и к".split()
    assert own["remarks"] == ["step letters skip з, й, as documents in this language do (the package catalog's "
                              "letters; letters: latin for a, b, c)"]


def test_an_untitled_sequence_is_named_by_its_kind_and_notes_may_go_without_a_label(tmp_path):
    """Before: "missing field 'title' in sequence"; every note after "Note:"."""
    doc = localized(russian(tmp_path), 0, "ru")
    assert doc["titled"] is False and doc["title"] == "Последовательность хода"
    assert doc["note_label"] is False
    assert localized(russian(tmp_path), 1, "ru")["titled"] is True


@pytest.mark.parametrize("change, message", [
    (("letters: {ru: latin}", "letters: {ru: greek}"),
     "games/demo/turn.yaml:4:15: unknown letters 'greek' (expected: language, source, latin, or {ru: latin}: per "
     "language)"),
    (("timing_style: dash", "timing_style: dashed"),
     "games/demo/turn.yaml:6:15: unknown timing_style 'dashed' (expected: label, dash)"),
    (("note_label: false", "note_label: no-label"), "games/demo/turn.yaml:5:13: note_label must be true or false"),
])
def test_a_bad_setting_is_reported_where_it_is(tmp_path, change, message):
    root = russian(tmp_path, **{"games/demo/turn.yaml": TURN.replace(*change)})
    with pytest.raises(AidsError) as info:
        localized(root, 0, "ru")
    assert message in str(info.value)


@pytest.mark.integration
def test_the_page_prints_them_so(tmp_path):
    root = russian(tmp_path)
    code, out, err = run("--project", root, "build", "--format", "html", "--lang", "ru")
    assert code == 0, err
    page = lxml.html.parse(root / "build/demo/ru/turn.html").getroot()
    assert not page.findall(".//h1") and page.findtext(".//title") == "Битва\u00a0— Последовательность хода"
    heading = page.xpath('//*[contains(@class, "phase-title")]')[0]
    assert heading.xpath('string(.//*[@class="title"])').startswith("Фаза огня\u00a0— одновременно")
    assert not heading.xpath('.//*[@class="timing"]')
    assert page.xpath('string(//*[@class="phase-see"])') == "(подробно см. Главу\u00a0VI)"
    assert [n.text_content() for n in page.xpath('//p[@class="note"]')] == ["Только один раз за ход."]
    labels = page.xpath('//ol[contains(@class, "level-2")]/li/span[@class="label"]/text()')
    assert labels == [f"{c}." for c in "abcdefgh"]
    assert "note: step letters skip з, й, as documents in this language do" in out
    other = lxml.html.parse(root / "build/demo/ru/lettered.html").getroot()
    assert other.xpath("string(//h1)") == "Порядок хода"
