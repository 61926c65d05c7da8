"""The translator's toolkit: stats, check, the publishing threshold, drafts and the pseudo-locale."""
from __future__ import annotations

import json
import math
import re
import shutil
import subprocess

import pytest
from pypdf import PdfReader

from aids.commands.cli import main
from aids.config import read_project
from aids.errors import AidsError
from aids.localize import checks, po
from aids.localize.catalogs import po_path, read_catalog
from aids.localize.typography import typeset
from aids.pipeline import builder, pipeline

from .helpers import DEMO_GAME, REPO, make_project, pdf_text, sample_project, units
from .localize.test_catalogs import extract_update, translate

gettext_tools = pytest.mark.skipif(not shutil.which("msgfmt"), reason="GNU gettext is not installed")


@pytest.fixture
def samples(tmp_path):
    """The samples, catalogs and all, in a scratch project."""
    return sample_project(tmp_path / "samples")


def stats_json(root, *args):
    return main(["--project", str(root), "stats", "--format", "json", *args])


def test_stats_of_the_samples_are_complete_and_agree_with_msgfmt(samples, capsys):
    assert stats_json(samples, "--min", "100") == 0
    data = json.loads(capsys.readouterr().out)
    assert {a["complete"] for a in data["aids"]} == {100.0}
    assert {(a["game"], a["lang"]) for a in data["aids"]} >= {("gcacw", "en"), ("lwow-1920", "ru")}
    for catalog in data["catalogs"]:
        if shutil.which("msgfmt"):
            said = subprocess.run(["msgfmt", "--statistics", "-o", "/dev/null", str(samples / catalog["path"])],
                                  capture_output=True, text=True).stderr
            assert said.startswith(f"{catalog['translated']} translated messages"), (catalog, said)


def test_five_translations_removed_lower_exactly_the_aids_that_use_them(samples, capsys):
    path = po_path(samples / "i18n", "en", "ostroleka-1831")
    catalog = read_catalog(path, "po")
    removed = [e for e in po.entries(catalog) if e.getcontext().startswith("sequence-of-play/")][:5]
    words = sum(len(re.findall(r"\w+", po.msgid(e))) for e in removed)
    for entry in removed:
        entry.target = ""
    po.save(path, catalog)
    assert stats_json(samples, "--min", "100") == 1
    out, err = capsys.readouterr()
    data = json.loads(out)
    below = [a for a in data["aids"] if a["complete"] < 100]
    assert [(a["game"], a["aid"], a["lang"]) for a in below] == [("ostroleka-1831", "sequence-of-play", "en")]
    aid = below[0]
    total = aid["words_translated"] + aid["words_untranslated"] + aid["words_fuzzy"]
    assert aid["untranslated"] == 5 and aid["words_untranslated"] == words
    assert aid["complete"] == round(100 * (total - words) / total, 1)
    assert f"below 100 %: ostroleka-1831 sequence-of-play en ({100 * (total - words) / total:.1f} %)" in err
    # the text table says the same
    assert main(["--project", str(samples), "stats", "--game", "ostroleka-1831", "--lang", "en"]) == 0
    assert re.search(r"ostroleka-1831\s+sequence-of-play\s+en\s+84/89\s+0\s+5", capsys.readouterr().out)


def test_the_committed_catalogs_pass_every_check():
    found = [str(f) for f in __import__("aids.translating.translators", fromlist=["check"]).check(read_project(REPO), None, None)]
    assert found == []


def mutate(path, changes: dict[tuple[str, str], str]) -> dict[tuple[str, str], int]:
    """Set msgstr by (msgctxt, msgid), as a translator edits; the msgstr line of each entry changed."""
    catalog = read_catalog(path, "po")
    for entry in po.entries(catalog):
        if po.key(entry) in changes:
            entry.target = changes[po.key(entry)]
    po.save(path, catalog)
    lines = path.read_text(encoding="utf-8").splitlines()
    found = {}
    for entry in po.entries(read_catalog(path, "po")):
        if po.key(entry) in changes:
            at = po.line(entry)
            while not lines[at - 1].startswith("msgstr"):
                at += 1
            found[po.key(entry)] = at
    return found


def test_check_finds_each_fault_at_its_line(samples, capsys):
    path = po_path(samples / "i18n", "en", "gcacw")
    table = {po.key(e): po.strings(e)[0] for e in po.entries(read_catalog(path, "po"))}
    lost = next(k for k in table if re.fullmatch(r"[^{]*\{see:[^}]+\}[^{]*", k[1]))
    plain = next(k for k in table if "{" not in k[1] and not re.search(r"\d", k[1]) and len(k[1]) > 60
                 and "punkt" not in k[1])
    zoc = next(k for k in table if "strefę kontroli" in k[1] and "zone of control" in table[k])
    number = next(k for k in table if k not in (lost, plain, zoc) and "{" not in k[1] and not re.search(r"\d", k[1]))
    lines = mutate(path, {
        lost: re.sub(r"\{see:[^}]+\}", "", table[lost]),  # a placeholder lost
        plain: table[plain] + " {ref:nowhere}",  # one invented
        zoc: table[zoc].replace("zone of control", "control area"),  # not as the glossary says
        number: table[number] + " (12 games)",  # a number the source does not have
    })
    assert main(["--project", str(samples), "check", "--lang", "en", "--game", "gcacw"]) == 1
    out = capsys.readouterr().out
    shown = "i18n/en/LC_MESSAGES/gcacw.po"
    assert f"{shown}:{lines[lost]}: [placeholders] translation loses {{see:" in out
    assert f"{shown}:{lines[plain]}: [placeholders] translation invents {{ref:nowhere}}" in out
    assert f"{shown}:{lines[zoc]}: [terminology] the source says 'strefa kontroli' (glossary: zoc), the " \
           "translation does not say 'zone of control'" in out
    assert f"{shown}:{lines[number]}: [numbers] number(s) the source does not have: 12" in out
    assert len(out.splitlines()) == 4, out
    # silenced for one entry by a translator comment
    catalog = read_catalog(path, "po")
    next(e for e in po.entries(catalog) if po.key(e) == zoc).addnote("aids: ignore terminology", "translator")
    po.save(path, catalog)
    main(["--project", str(samples), "check", "--lang", "en", "--game", "gcacw"])
    assert "[terminology]" not in capsys.readouterr().out


def test_quotes_plurals_and_spaces_of_the_package_catalogs(tmp_path):
    """Translators type any quotation marks, straight ones too: the typography prints the language's own, so
    the check says nothing of them. What it cannot mend, a mark without its pair, is a warning."""
    source = REPO / "i18n/ru/LC_MESSAGES/aids.po"
    catalog = read_catalog(source, "ru.po")
    plural = next(e for e in po.entries(catalog) if e.hasplural())
    plural.target = po.strings(plural)[:2]  # Russian has three forms
    quoted = next(e for e in po.entries(catalog) if "«" in po.strings(e)[0])
    quoted.target = po.strings(quoted)[0].replace("«", '"').replace("»", '"')  # typed straight: fine
    unpaired = next(e for e in po.entries(catalog) if not e.hasplural() and e is not quoted and po.strings(e)[0])
    unpaired.target = "«" + po.strings(unpaired)[0]
    path = tmp_path / "aids.po"
    po.save(path, catalog)
    found = checks.check_catalog(read_catalog(path, "ru.po"), "ru", "en", [])
    assert sorted((f.check, f.error, f.line) for f in found) == sorted(
        [("plurals", True, po.line(plural)), ("quotes", False, po.line(unpaired))])
    assert any(f.message == "2 of 3 plural forms filled" for f in found)
    assert any(f.message == "1 quotation mark(s) without a pair" for f in found)
    printed = typeset(po.strings(quoted)[0], "ru")
    assert "«" in printed and "»" in printed and '"' not in printed
    pl = read_catalog(REPO / "i18n/pl/LC_MESSAGES/aids.po", "pl.po")
    entry = next(e for e in po.entries(pl) if "„" in po.strings(e)[0])
    entry.target = po.strings(entry)[0].replace("„", "“").replace("”", "”") + "  "  # English marks: printed „…”
    assert {f.check for f in checks.check_entry(entry, "pl", "en", [])} == {"spaces"}
    assert "„" in typeset(po.strings(entry)[0], "pl") and "“" not in typeset(po.strings(entry)[0], "pl")


@pytest.mark.parametrize("lang, typed, printed", [
    ("pl", 'Gracz mówi "stop".', "Gracz mówi „stop”."),
    ("en", 'The player says "stop".', "The player says “stop”."),
    ("ru", 'Игрок говорит "стоп".', "Игрок говорит «стоп»."),
    ("pl", 'Nazwa "Armia "Kraków"".', "Nazwa „Armia «Kraków»”."),
])
@pytest.mark.unit
def test_straight_quotes_pass_the_check_and_print_as_the_language_wants(lang, typed, printed):
    """What the README tells translators (type straight quotes, the typography converts them), the check and
    the release gate agree with: no finding, and the printed text has the language's marks."""
    entry = po.Entry("source")
    entry.setcontext("x")
    entry.target = typed
    assert checks.check_entry(entry, lang, "en", []) == []
    assert typeset(typed, lang) == printed


@pytest.mark.parametrize("lang, marks", [("de", "„…“ (and ‚…‘ inside)"), ("fr", "«…» (and «…» inside)"),
                                         ("pl", "„…” (and «…» inside)")])
@pytest.mark.unit
def test_an_unpaired_quote_is_told_with_the_languages_own_marks(lang, marks):
    entry = po.Entry("Say stop.")
    entry.setcontext("x")
    entry.target = 'Say "stop.'
    [found] = checks.check_entry(entry, lang, "en", [])
    assert found.check == "quotes" and found.expected.endswith("printed as " + marks)


def test_a_language_below_the_threshold_is_not_built_and_said_so(tmp_path, capsys):
    root = make_project(tmp_path)
    extract_update(root)
    path = po_path(root / "i18n", "en", "demo")
    catalog = read_catalog(path, "po")
    for entry in po.entries(catalog):  # everything translated but one step
        if entry.getcontext() != "seq/prep/place":
            entry.target = "EN " + po.msgid(entry)
    po.save(path, catalog)
    (root / "aids.yaml").write_text("languages: [pl, en]\noutput: build\npublish: {min_complete: 100}\n")
    assert main(["--project", str(root), "build", "--format", "html"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"skipped demo/seq en: 9\d\.\d % translated, below the threshold of 100 % \(not built", out)
    assert (root / "build/demo/pl/seq.html").exists() and not (root / "build/demo/en/seq.html").exists()
    assert "not published" in (root / "build/demo/en/index.html").read_text(encoding="utf-8")  # the game's page says so
    assert main(["--project", str(root), "build", "--format", "html", "--min-complete", "90"]) == 0
    assert (root / "build/demo/en/seq.html").exists()


def test_a_draft_marks_what_is_not_translated(tmp_path):
    root = make_project(tmp_path, languages=("pl", "en"))
    extract_update(root)
    translate(po_path(root / "i18n", "en", "demo"), {"seq/prep": "Preparation", "seq": "Order of play"})
    summary = builder.build(read_project(root), pipeline.Options(draft=True))
    assert not summary.failed
    html = (root / "build/demo/en/seq.html").read_text(encoding="utf-8")
    assert '<mark class="draft" lang="pl" title="seq/prep/place">Połóż żetony.</mark>' in html
    assert "Preparation" in html and '<mark class="draft" lang="pl" title="game/title">Gra próbna</mark>' in html
    # in an attribute, the text alone: the mark would break the page
    assert 'data-bookmark="3.2.2 Ruch czerwonych"' in html and '"&gt;' not in html
    text = pdf_text(root / "build/demo/en/seq.pdf")
    assert re.search(r"Draft, \d+% translated", text)
    # the highlight is drawn in the PDF: the draft colour is among its fill colours
    content = b"".join(page.get_contents().get_data() for page in PdfReader(root / "build/demo/en/seq.pdf").pages)
    assert b"1 0.94902 0.501961 rg" in content  # the palette's draft colour (#fff280) in RGB
    # a build without --draft renders the same aid again, unmarked
    builder.build(read_project(root), pipeline.Options())
    assert "<mark" not in (root / "build/demo/en/seq.html").read_text(encoding="utf-8")


def test_every_sample_builds_in_the_pseudo_locale(samples):
    summary = builder.build(read_project(samples), pipeline.Options(pseudo=True))
    assert not summary.failed, "\n".join(map(str, summary.failed))
    assert sorted((b.game, b.edition or "", b.aid) for b in summary.built if b.lang == "qps") == \
        sorted((u.game, u.edition, u.aid) for u in units(read_project(samples)))  # every aid, in qps alone
    assert {b.lang for b in summary.built} == {"qps"}
    # the card's longer text fits below its floor of 8 pt: said, not failed (the pseudo-locale tests a layout)
    (card,) = [b for b in summary.built if b.aid == "referee-card"]
    assert card.fitted[""] < 8 and any("below its min_font_size of 8 pt" in w for w in card.warnings), card.warnings
    text = pdf_text(samples / "build/ostroleka-1831/qps/sequence-of-play.pdf")
    assert "[" in text and "ŕ" in text.lower() and "á" in text
    html = (samples / "build/gcacw/qps/system-rules.html").read_text(encoding="utf-8")
    assert 'lang="qps"' in html and "{ref:" not in html and "%(" not in html


def test_with_a_site_url_each_entry_links_to_its_place(tmp_path):
    root = make_project(tmp_path)
    (root / "aids.yaml").write_text("languages: [pl, en]\noutput: build\nsite_url: https://example.org/aids/\n")
    extract_update(root)
    pot = (root / "i18n/templates/demo.pot").read_text(encoding="utf-8")
    assert "#. Step 1.b of phase red-move\n#. https://example.org/aids/demo/pl/seq.html#red-move/move/charge\n" \
           "#: games/demo/sequence.yaml\nmsgctxt \"seq/red-move/move/charge\"" in pot
    assert "#. https://example.org/aids/demo/pl/seq.html#prep\n" in pot  # a phase title: its section
    assert "#. https://example.org/aids/demo/pl/seq.html\n#: games/demo/sequence.yaml\nmsgctxt \"seq\"\n" in pot
    # the page has those anchors
    builder.build(read_project(root), pipeline.Options(formats=["html"], langs=["pl"]))
    html = (root / "build/demo/pl/seq.html").read_text(encoding="utf-8")
    assert 'id="red-move/move/charge"' in html and 'id="prep"' in html


@pytest.mark.parametrize("source, translation, check, error", [
    ("Tylko *raz* na etap.", "Only once per stage.", "markup", True),
    ("Rzut **dwiema** kośćmi.", "Roll **two dice.", "markup", True),
    ("Połóż żetony na planszy.", "Połóż żetony na planszy.", "identical", False),
    ("Salwa ({see:rule:12.4.4}).", "Volley {see:rule:12.4.4}.", None, None),
    ("Ruch o {num:2.5} pola.", "Move {num:2.5} hexes.", None, None),
    ("Zasięg 16 000 kroków.", "Range 16,000 paces.", None, None),
])
@pytest.mark.unit
def test_markup_identical_and_what_passes(source, translation, check, error):
    from translate.storage.pypo import pounit
    entry = pounit(source)
    entry.target = translation
    found = checks.check_entry(entry, "en", "pl", [])
    assert [(f.check, f.error) for f in found] == ([(check, error)] if check else [])


@pytest.mark.parametrize("source, translation, check, test", [
    ("Strona %(page)s z %(pages)s", "Page %(page)s", "placeholders", "printf"),
    ("Strona %(page)s", "Page %(page)s of %(pages)s", "placeholders", "printf"),
    ("Połóż żetony na planszy.", "Place the  counters on the map.", "spaces", "doublespacing"),
    ("Połóż żetony na planszy.", " Place the counters on the map.", "spaces", "startwhitespace"),
    ("Połóż żetony na planszy.", "Place the counters on the map. ", "spaces", "endwhitespace"),
    ("Połóż żetony na planszy.", "połóż żetony na planszy.", "identical", "unchanged"),
])
@pytest.mark.unit
def test_a_generic_fault_is_found_by_translate_toolkit(source, translation, check, test):
    """What any catalog can get wrong is translate-toolkit's test (pofilter's, Weblate's), told in aids' form
    under aids' check id, which a translator's `# aids: ignore` names."""
    from translate.storage.pypo import pounit
    entry = pounit(source)
    entry.target = translation
    found = checks.check_entry(entry, "en", "pl", [])
    assert [(f.check, f.message.endswith(f"(translate-toolkit: {test})")) for f in found] == [(check, True)]


def test_a_game_glossary_is_translated_once_and_held_to(tmp_path, capsys):
    game = DEMO_GAME + "glossary:\n  - id: counter\n    term: żeton\n    forms: [żetony]\n"
    root = make_project(tmp_path, {"games/demo/game.yaml": game}, languages=("pl", "en"))
    extract_update(root)
    pot = (root / "i18n/templates/demo.pot").read_text(encoding="utf-8")
    assert 'msgctxt "game/glossary/counter"\nmsgid "żeton"' in pot
    path = po_path(root / "i18n", "en", "demo")
    translate(path, {"game/glossary/counter": "counter", "seq/prep/place": "Place the tokens."})
    assert main(["--project", str(root), "check"]) == 1
    out = capsys.readouterr().out
    assert "[terminology] the source says 'żeton' (glossary: counter), the translation does not say 'counter'" in out
    translate(path, {"seq/prep/place": "Place the counters."})
    assert main(["--project", str(root), "check"]) == 0


@pytest.mark.parametrize("glossary, message", [
    ("glossary: {a: 1}\n", "games/demo/game.yaml:9:11: glossary must be a list"),
    ("glossary:\n  - {id: Bad Id, term: x}\n", "games/demo/game.yaml:10:10: malformed or duplicate term id 'Bad Id'"),
    ("glossary:\n  - {id: x, term: x, forms: y}\n", "games/demo/game.yaml:10:29: forms must be a list of texts"),
])
@pytest.mark.unit
def test_a_bad_game_glossary_is_positioned(tmp_path, glossary, message):
    root = make_project(tmp_path, {"games/demo/game.yaml": DEMO_GAME + glossary})
    with pytest.raises(AidsError) as info:
        read_project(root).read_game("demo")
    assert str(info.value).startswith(message)


def test_a_role_named_in_prose_is_held_to_its_translation(samples, capsys):
    """A text that names a role in prose ("the phasing player", not `{side:phasing}`) must use the role's
    translation, in any inflected form, as a glossary term must."""
    sequence = samples / "games/valmora-1809/sequence.yaml"
    sequence.write_text(sequence.read_text(encoding="utf-8").replace(
        "text: Orders are written down in secret",
        "text: The phasing player writes orders down in secret; they are"), encoding="utf-8")
    extract_update(samples, ["valmora-1809"])  # the game changed, the one checked
    path = po_path(samples / "i18n", "pl", "valmora-1809")
    context = "turn-sequence/orders/rules/hidden"
    translate(path, {context: "Gracz fazowy zapisuje rozkazy w tajemnicy; ujawnia się je na końcu fazy."})
    assert main(["--project", str(samples), "check", "--lang", "pl", "--game", "valmora-1809"]) == 1
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 and re.match(
        r"i18n/pl/LC_MESSAGES/valmora-1809\.po:\d+: \[terminology\] the source says 'phasing player' \(glossary: "
        r"role:phasing\), the translation does not say 'gracz aktywny'", out), out
    translate(path, {context: "Rozkazy gracza aktywnego zapisuje się w tajemnicy; ujawnia się je na końcu fazy."})
    assert main(["--project", str(samples), "check", "--lang", "pl", "--game", "valmora-1809"]) == 0


def test_stats_says_plainly_when_texts_are_not_in_the_catalogs_yet(tmp_path, capsys):
    """Right after `aids new`, the new aid's texts are in no catalog: stats counts them untranslated (what a
    build would print) and says why, and what to run; the catalogs' own totals cannot show them."""
    root = tmp_path / "project"
    assert main(["init", str(root)]) == 0
    assert main(["--project", str(root), "new", "card", "quick-ref"]) == 0
    capsys.readouterr()
    assert main(["--project", str(root), "stats"]) == 0
    out = capsys.readouterr().out
    note = re.search(r"^(\d+) text\(s\) of (\S+)/quick-ref are not in the catalogs of pl, ru yet \(counted as "
                     r"untranslated\): run `aids extract && aids update`$", out, re.M)
    assert note, out
    row = next(line for line in out.splitlines() if " quick-ref " in line and " pl " in line).split()
    assert row[5] == note.group(1)  # the untranslated column holds exactly those texts
    assert main(["--project", str(root), "stats", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)["not_in_catalogs"]
    assert listed == [{"game": note.group(2), "aid": "quick-ref", "texts": int(note.group(1)), "langs": ["pl", "ru"]}]
    assert main(["--project", str(root), "extract"]) == 0 and main(["--project", str(root), "update"]) == 0
    capsys.readouterr()
    assert main(["--project", str(root), "stats"]) == 0
    assert "not in the catalogs" not in capsys.readouterr().out


@pytest.mark.parametrize("game_id, aid_id", [("lwow-1920", "referee-card")])
def test_budgets_are_measured_written_and_checked(samples, capsys, game_id, aid_id):
    """`aids budgets` lays the card out with every text longer, writes each entry's budget as the project's
    translator comment (GNU tools and `aids update` keep it), and `aids check` warns on a translation made 30 %
    longer than its budget allows; a second run changes nothing."""
    assert main(["--project", str(samples), "budgets", "--game", game_id]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"^{game_id} en: (\d+) budget\(s\); {aid_id}: every text may grow by (\d+) %( \(catalog unchanged\))?$", out, re.M), out
    path = po_path(samples / "i18n", "en", game_id)
    catalog = read_catalog(path, "po")
    budgeted = {po.key(e): e for e in po.entries(catalog)
                if any(c.startswith("# aids: budget ") and c.rstrip().endswith(f"characters ({aid_id})")
                       for c in e.othercomments)}
    assert len(budgeted) >= 90
    gnu = subprocess.run(["msgcat", str(path)], capture_output=True, check=True).stdout
    assert gnu == path.read_bytes() and b"# aids: budget " in gnu  # GNU's layout keeps it, as msgmerge does
    before = path.read_bytes()
    assert main(["--project", str(samples), "budgets", "--game", game_id, "--lang", "en"]) == 0
    assert path.read_bytes() == before  # measured again: the same budgets
    assert main(["--project", str(samples), "check", "--game", game_id, "--lang", "en"]) == 0
    capsys.readouterr()
    key, entry = next((k, e) for k, e in budgeted.items() if len(po.strings(e)[0]) > 40)
    budget = int(re.search(r"budget (\d+)", "".join(entry.othercomments)).group(1))
    longer = po.strings(entry)[0] + " " + "and so on " * 10
    entry.target = longer[:math.ceil(len(po.strings(entry)[0]) * 1.3)]
    po.save(path, catalog)
    assert main(["--project", str(samples), "check", "--game", game_id, "--lang", "en"]) == 0  # a warning
    found = capsys.readouterr().out
    assert f"[length] {len(entry.target)} characters, over the budget of {budget} that {aid_id} has room for" \
        in found, found
    assert main(["--project", str(samples), "check", "--game", game_id, "--lang", "en", "--strict"]) == 1
    capsys.readouterr()
    extract_update(samples, [game_id])  # kept by an update of its game
    assert f"# aids: budget {budget} characters ({aid_id})" in path.read_text(encoding="utf-8")
