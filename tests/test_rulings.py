"""A game's rulings (games/<game>/rulings.yaml), read back from the product: the Valmora sample's rulings beside
their rules on its pages and in the appendix of its PDF, in each language; a booklet's appendix (a demonstration
project made by aids init); a ruling flagged for review once its rule changes after the release it was given for;
and the errors of a ruling naming no rule or missing a field, positioned in rulings.yaml."""
from __future__ import annotations

import re
import shutil
from html import unescape

import pytest

from aids.config import read_project
from aids.localize.catalogs import po_path
from aids.localize.making import localizer

from .helpers import REPO, edit, pdf_text, run

GAME = "valmora-1809"
NBSP = "\u00a0"


def valmora(root):
    """A project holding a copy of the Valmora sample and its catalogs."""
    shutil.copytree(REPO / "games" / GAME, root / "games" / GAME)
    for lang in ("pl", "ru"):
        shutil.copy(po_path(REPO / "i18n", lang, GAME), (root / "i18n" / lang / "LC_MESSAGES").mkdir(
            parents=True, exist_ok=True) or po_path(root / "i18n", lang, GAME))
    (root / "aids.yaml").write_text("languages: [pl, en, ru]\noutput: build\n", encoding="utf-8")
    return root


def words(html: str) -> str:
    """An HTML fragment's text, tags taken out, spaces as one."""
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).replace(NBSP, " ").split())


def element(html: str, tag: str, id_: str) -> str:
    found = re.search(rf'<{tag}\b[^>]*\bid="{re.escape(id_)}"[^>]*>.*?</{tag}>', html, re.S)
    assert found, (tag, id_)
    return found.group(0)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = valmora(tmp_path_factory.mktemp("rulings") / "project")
    code, _, err = run("--project", root, "build", "--edition", "cm", "--format", "html", "--format", "pdf")
    assert code == 0, err
    return root / "build" / GAME / "cm"


@pytest.mark.parametrize("lang,label,number,question", [
    ("en", "Ruling 1", "on 4.3, step 1.a", "May a unit in line wheel more than once in the same move?"),
    ("pl", "Wyjaśnienie 1", "do 4.3, krok 1.a", "Czy oddział w linii może w jednym ruchu wykonać więcej niż jeden zwrot?"),
    ("ru", "Разъяснение 1", "к 4.3, шаг 1.а",
     "Может ли часть в линии повернуться больше одного раза за одно движение?"),
])
def test_a_ruling_is_shown_beside_its_rule_and_in_the_appendix(built, lang, label, number, question):
    html = (built / lang / "turn-sequence.html").read_text(encoding="utf-8")
    step = element(html, "li", "movement/march/wheel")
    beside = re.search(r'<span class="rulings-beside"[^>]*>(.*?)</span>', step, re.S)
    assert beside and '<a href="#ruling-wheel-once">' in beside.group(1) and words(beside.group(1)) == label
    ruling = element(html, "section", "ruling-wheel-once")
    title = re.search(r"<h3\b.*?</h3>", ruling, re.S).group(0)
    assert words(title) == f"{label} {number}#"  # and a link to copy, to the ruling
    assert '<a href="#movement/march/wheel">' in title  # back to the rule, named by its printed number
    assert question in words(ruling) and "ruling-review" not in ruling
    # the appendix follows the rules, in the order of the rules; a phase's note is ruled at its phase
    order = [m.group(1) for m in re.finditer(r'<section class="ruling[^"]*" id="ruling-([a-z-]+)"', html)]
    assert order == ["wheel-once", "one-reaction", "doomed-battery", "general-defends"]
    phase = html.split('id="fire"', 1)[1].split("</h2>", 1)[1][:400]
    assert '<a href="#ruling-doomed-battery">' in phase


@pytest.mark.parametrize("lang,expected", [
    ("en", ["Rulings", "Ruling 4 on 4.5, step 1.a", "Given 20 October 2026 for version 2.0",
            "Question: Does an attached general add his bonus when his unit defends?",
            "Source: The designers’ answer on the sample forum"]),
    ("pl", ["Wyjaśnienia zasad", "Wyjaśnienie 4 do 4.5, krok 1.a", "Udzielone 20 października 2026 dla wersji 2.0",
            "Pytanie: Czy przydzielony generał daje premię także wtedy, gdy jego oddział się broni?",
            "Źródło: Odpowiedź autorów na przykładowym forum"]),
    ("ru", ["Разъяснения правил", "Разъяснение 4 к 4.5, шаг 1.а", "Дано 20 октября 2026 г. для версии 2.0",
            "Ответ: Да. Обороняющийся бросает кубик так же, как атакующий, включая бонус за генерала."]),
])
def test_the_pdf_prints_the_rulings_in_an_appendix(built, lang, expected):
    text = pdf_text(built / lang / "turn-sequence.pdf").replace(NBSP, " ")
    appendix = text[text.index(expected[0]):]
    flat = " ".join(appendix.split())
    for line in expected[1:]:
        assert line in flat, (line, flat)
    assert text.index(expected[0]) > text.index("4.5")  # after the rules


@pytest.mark.unit
def test_the_sample_rulings_are_translated():
    project = read_project(REPO)
    game = project.read_game(GAME)
    assert game.rulings and len(game.rulings.texts()) == 10
    for lang in ("pl", "ru"):
        lz = localizer(project, game, lang)
        assert [t.context for t in game.rulings.texts() if not lz.translated(t)] == [], lang


def test_a_ruling_whose_rule_changed_is_flagged_for_review(tmp_path):
    root = valmora(tmp_path / "project")
    rulings = root / "games" / GAME / "rulings.yaml"
    assert run("--project", root, "check", "--game", GAME)[0] == 0
    sequence = root / "games" / GAME / "sequence.yaml"
    edit(sequence, "A unit in line may wheel up to {q:angle}", "A unit in line may wheel once, up to {q:angle}")
    edit(sequence, "Light troops evade by {q:evade}.", "Light troops evade by {q:evade}, once a turn.")
    code, out, err = run("--project", root, "check", "--game", GAME)
    line = rulings.read_text(encoding="utf-8").splitlines().index("  - id: wheel-once") + 1
    assert code == 0 and "0 error(s), 2 warning(s)" in err
    assert (f"games/{GAME}/rulings.yaml:{line}:9: warning: [ruling] ruling wheel-once is to be reviewed: its rule "
            "turn-sequence/movement/march/wheel changed since version 2.0, for which it was given") in out
    assert "ruling one-reaction is to be reviewed: its rule turn-sequence/movement/march/reaction (its part " \
           "turn-sequence/movement/march/reaction/evade) changed since version 2.0" in out  # a part of it changed
    assert "doomed-battery" not in out and "general-defends" not in out
    assert run("--project", root, "check", "--game", GAME, "--strict")[0] == 1
    code, _, err = run("--project", root, "build", "--edition", "cm", "--format", "html", "--lang", "pl")
    assert code == 0, err
    html = (root / "build" / GAME / "cm" / "pl" / "turn-sequence.html").read_text(encoding="utf-8")
    ruling = element(html, "section", "ruling-wheel-once")
    assert 'class="ruling ruling-review"' in ruling
    assert "Do przeglądu: zasada zmieniła się od wersji 2.0, dla której udzielono tego wyjaśnienia." in words(ruling)
    assert "(do przeglądu)" in words(element(html, "li", "movement/march/wheel").split("<ul", 1)[0])
    assert "ruling-review" not in element(html, "section", "ruling-general-defends")
    # a translation corrected leaves the rule as it was: no review
    edit(sequence, "may wheel once, up to", "may wheel up to")
    edit(sequence, "by {q:evade}, once a turn.", "by {q:evade}.")
    assert run("--project", root, "check", "--game", GAME)[2].strip().endswith("0 error(s), 0 warning(s)")


@pytest.mark.unit
def test_a_ruling_for_a_version_never_released_cannot_be_compared(tmp_path):
    root = valmora(tmp_path / "project")
    edit(root / "games" / GAME / "rulings.yaml", 'version: "2.0"', 'version: "1.9"')
    code, out, _ = run("--project", root, "check", "--game", GAME)
    assert code == 0
    assert ("warning: [ruling] ruling wheel-once was given for version 1.9, of which no release is recorded: whether "
            "its rule changed since cannot be told (expected: one of: 2.0, 2.1)") in out


def test_a_ruling_naming_no_rule_is_an_error_with_the_known_keys(tmp_path):
    root = valmora(tmp_path / "project")
    rulings = root / "games" / GAME / "rulings.yaml"
    edit(rulings, "rule: turn-sequence/movement/march/wheel", "rule: turn-sequence/movement/march/whel")
    line = next(i for i, text in enumerate(rulings.read_text(encoding="utf-8").splitlines(), 1) if "/whel" in text)
    code, out, err = run("--project", root, "check", "--game", GAME)
    assert code == 1 and "1 error(s)" in err
    assert (f"games/{GAME}/rulings.yaml:{line}:11: [ruling] ruling wheel-once answers rule "
            "'turn-sequence/movement/march/whel', which does not exist (expected: one of: "
            "turn-sequence/movement/march/wheel") in out
    code, _, err = run("--project", root, "build", "--edition", "cm", "--format", "html", "--lang", "en")
    assert code == 1 and f"games/{GAME}/rulings.yaml:{line}:11: ruling wheel-once answers rule" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("old,new,message", [
    ("    answer: No. A unit in line", "    reply: No. A unit in line", "unknown field 'reply' in ruling (expected: "
     "id, rule, date, version, question, answer, source, url)"),
    ('version: "2.0"', "version: 2.0", "version 2.0 is read as a number (expected: a version in quotes"),
    ("date: 2026-10-02", "date: early October", "date is not a date (expected: YYYY-MM-DD"),
    ("  - id: one-reaction", "  - id: wheel-once", "duplicate ruling id 'wheel-once'"),
])
@pytest.mark.unit
def test_a_malformed_ruling_is_refused_where_it_is(tmp_path, old, new, message):
    root = valmora(tmp_path / "project")
    rulings = root / "games" / GAME / "rulings.yaml"
    edit(rulings, old, new)
    code, _, err = run("--project", root, "check", "--game", GAME)
    assert code == 1 and "Traceback" not in err
    assert re.search(rf"games/{GAME}/rulings\.yaml:\d+:\d+: {re.escape(message)}", err), err


def test_rulings_are_extracted_into_the_template(tmp_path):
    root = valmora(tmp_path / "project")
    assert run("--project", root, "extract", "--game", GAME)[0] == 0
    pot = (root / "i18n" / "templates" / f"{GAME}.pot").read_text(encoding="utf-8")
    assert ('#. Question of ruling wheel-once (on rule turn-sequence/movement/march/wheel)\n'
            f'#: games/{GAME}/rulings.yaml\nmsgctxt "game/rulings/wheel-once/question"\n') in pot


def test_a_booklet_prints_every_ruling_of_its_game_in_an_appendix(tmp_path):
    root = tmp_path / "demo"
    assert run("init", root)[0] == 0
    game = root / "games" / "mill-skirmish"
    (game / "rulings.yaml").write_text(
        "rulings:\n"
        "  - id: zoc-rivers\n    rule: rules/units\n    date: 2026-02-01\n    version: \"1.0\"\n"
        "    question: Does a zone of control cross a stream?\n    answer: Yes, unless the rules say otherwise.\n"
        "  - id: move-twice\n    rule: sequence-of-play/movement/move\n    date: 2026-02-03\n    version: \"1.0\"\n"
        "    question: May a unit move twice in one turn?\n    answer: No.\n", encoding="utf-8")
    code, _, err = run("--project", root, "build", "--lang", "en", "--format", "html", "--format", "pdf")
    assert code == 0, err
    text = " ".join(pdf_text(root / "build" / "mill-skirmish" / "en" / "rules.pdf").split())
    appendix = text[text.rindex("Rulings"):]
    assert "Ruling 1 on 1.1" in appendix and "Question: Does a zone of control cross a stream?" in appendix
    assert "Answer: Yes, unless the rules say otherwise." in appendix
    assert "Ruling 2 on Sequence of play, 2, step 1" in appendix  # another aid's rule: named by its title too
    assert "Question: May a unit move twice in one turn?" in appendix
    html = (root / "build" / "mill-skirmish" / "en" / "rules.html").read_text(encoding="utf-8")
    after = html.split('id="units"', 1)[1].split("</h", 1)[1][:300]
    assert '<a href="#ruling-zoc-rivers">' in after and "Ruling 1" in words(after)  # beside the rule's heading
    sequence = (root / "build" / "mill-skirmish" / "en" / "sequence-of-play.html").read_text(encoding="utf-8")
    assert "ruling-move-twice" in sequence and "ruling-zoc-rivers" not in sequence  # its own rulings only


@pytest.mark.unit
def test_a_rulings_file_outside_the_game_folder_is_refused(tmp_path):
    root = valmora(tmp_path / "project")
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("rulings: []\n", encoding="utf-8")
    rulings = root / "games" / GAME / "rulings.yaml"
    rulings.unlink()
    rulings.symlink_to(outside)
    code, _, err = run("--project", root, "check", "--game", GAME)
    assert code == 1 and f"games/{GAME}/rulings.yaml: rulings.yaml is a link to outside the game folder" in err


def test_a_page_is_rebuilt_when_its_rulings_change_and_only_then(tmp_path):
    root = valmora(tmp_path / "project")
    build = ("--project", root, "build", "--edition", "cm", "--format", "html", "--lang", "en")
    assert run(*build)[0] == 0
    assert "0 file(s) written, 1 up to date" in "".join(run(*build)[1:])
    edit(root / "games" / GAME / "rulings.yaml", "wheels once in each move", "wheels only once in each move")
    code, out, err = run(*build)
    assert code == 0 and "1 file(s) written" in out + err
    html = (root / "build" / GAME / "cm" / "en" / "turn-sequence.html").read_text(encoding="utf-8")
    assert "wheels only once in each move" in html


def test_pybabel_extracts_the_rulings_as_aids_extract_does(tmp_path):
    import subprocess
    import sys
    root = valmora(tmp_path / "project")
    (root / "babel.cfg").write_text("[aids: **.yaml]\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg", "-o", "plain.pot",
                    "games"], cwd=root, check=True, capture_output=True)
    assert run("--project", root, "extract", "--game", GAME)[0] == 0
    def rulings(path):
        return sorted(re.findall(r'msgctxt "(game/rulings/[^"]+)"', path.read_text(encoding="utf-8")))
    assert rulings(root / "plain.pot") == rulings(root / "i18n" / "templates" / f"{GAME}.pot") != []


def test_a_ruling_s_source_links_to_its_address(tmp_path):
    """The samples link nothing outside the site (tests/test_browser.py): a url is tried on a copy."""
    root = valmora(tmp_path / "project")
    edit(root / "games" / GAME / "rulings.yaml", "    source: The designers' answer on the sample forum\n",
         "    source: The designers' answer on the sample forum\n    url: https://forum.example.org/t/7\n")
    code, _, err = run("--project", root, "build", "--edition", "cm", "--format", "html", "--lang", "ru")
    assert code == 0, err
    html = (root / "build" / GAME / "cm" / "ru" / "turn-sequence.html").read_text(encoding="utf-8")
    source = re.search(r'<p class="ruling-source">.*?</p>', element(html, "section", "ruling-wheel-once"), re.S)
    assert source and '<a href="https://forum.example.org/t/7">Ответ авторов на учебном форуме</a>' in source.group(0)
