"""`aids import` (docs/guide/import.md): a po4a catalog of the same rules (LaTeX, a paragraph an entry) put into a
game's catalog: the same texts placed, close ones fuzzy with their previous msgid, nothing overwritten, and what
could not be placed reported."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from aids.commands.cli import main
from aids.commands.scaffold.project import init
from aids.config import read_project
from aids.localize import po
from aids.localize.catalogs import read_catalog
from aids.translating import translations
from aids.translating.importing import normal
from aids.translating.latex import Macros, convert

from .helpers import REPO

EXAMPLE = REPO / "contrib" / "examples" / "rules.pl.po"  # po4a's catalog of a LaTeX source, as a team has it
PL = "i18n/pl/LC_MESSAGES/mill-skirmish.po"


@pytest.fixture
def fresh(tmp_path):
    """The scaffold's project with its Polish catalog not translated yet (a team that starts with aids)."""
    root = tmp_path / "my-game"
    init(root)
    (root / PL).unlink()
    translations.update(read_project(root))
    shutil.copy(EXAMPLE, root / "rules.pl.po")
    return root


def entries(root):
    return {po.key(e)[0]: e for e in po.entries(read_catalog(root / PL, PL))}


@pytest.mark.unit
def test_markup_and_spaces_aside_the_same_text_is_the_same():
    assert normal("Open~ground") == normal("Open ground")
    assert normal("Fire \\emph{modifier}") == normal("Fire *modifier*") == "Fire modifier"
    assert normal("- Each side\n   rallies ``one`` unit") == normal("Each side rallies `one` unit")
    assert normal("A {see:movement/move} rule") == normal("A  rule")
    assert convert("z rozkazem \\textbf{ruchu},\nna", Macros()).pieces == ["z rozkazem **ruchu**, na"]


def test_a_po4a_catalog_fills_the_same_texts_and_close_ones_fuzzy(fresh, capsys, monkeypatch):
    monkeypatch.chdir(fresh)
    assert main(["import", "rules.pl.po", "--game", "mill-skirmish"]) == 0
    said = capsys.readouterr().out
    found = entries(fresh)
    # the same text, whitespace, LaTeX's tie and markup aside: translated
    assert str(found["terrain/open"].target) == "Teren otwarty" and not found["terrain/open"].isfuzzy()
    assert f"{PL}: [terrain/open] placed, from rules.pl.po:30" in said
    # a close text: fuzzy, the text its translation was made for as the previous msgid
    note = found["terrain/notes"]
    assert note.isfuzzy() and str(note.prev_source) == "The fire modifier is the one of the hex\nthe target stands in."
    assert str(note.target) == "Modyfikator ognia zależy od heksu, na którym stoi cel."  # its lines joined
    assert f"{PL}: [terrain/notes] placed fuzzy (94 % alike), from rules.pl.po:45" in said
    # markup aids' text does not have (LaTeX's \emph made Markdown): fuzzy, for the translator to settle
    assert found["terrain/column/modifier"].isfuzzy() and str(found["terrain/column/modifier"].target) == \
        "*Modyfikator* ognia"
    # fuzzy in the other catalog: fuzzy here
    assert found["sequence-of-play/combat/fire"].isfuzzy()
    # a po4a paragraph that is two steps of the sequence: split at its sentences, each its own
    assert str(found["sequence-of-play/command/orders"].target) == \
        "Każdy gracz wydaje każdej swojej jednostce jeden rozkaz, ruchu albo ognia."
    assert not found["sequence-of-play/command/initiative"].isfuzzy()
    assert f"{PL}: [sequence-of-play/command/orders] placed, split from rules.pl.po:54 (sentence 2 of 2)" in said
    assert 'rules.pl.po:82: "Designer\'s notes" not placed: no entry of the game has this text or one close to it' \
        in said
    assert said.splitlines()[-1] == f"5 placed exactly, 2 split from 1 entry, 4 placed fuzzy, 1 not placed; updated {PL}"
    if shutil.which("msgfmt"):
        done = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(fresh / PL)], capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr


def test_an_existing_translation_is_never_changed_and_a_dry_run_writes_nothing(fresh, capsys, monkeypatch):
    monkeypatch.chdir(fresh)
    catalog = read_catalog(fresh / PL, PL)
    for entry in po.entries(catalog):
        if po.key(entry)[0] == "terrain/woods":
            entry.target = "Bór"  # the team's own, already in aids
    po.save(fresh / PL, catalog)
    before = (fresh / PL).read_bytes()
    assert main(["import", "rules.pl.po", "--game", "mill-skirmish", "--dry-run"]) == 0
    said = capsys.readouterr().out
    assert (fresh / PL).read_bytes() == before
    assert said.splitlines()[-1] == \
        "4 placed exactly, 2 split from 1 entry, 4 placed fuzzy, 2 not placed (--dry-run: nothing written)"
    assert 'rules.pl.po:35: "Woods" not placed: [terrain/woods] has this text and a translation already: kept as ' \
        "it is" in said
    assert main(["import", "rules.pl.po", "--game", "mill-skirmish"]) == 0
    capsys.readouterr()
    assert str(entries(fresh)["terrain/woods"].target) == "Bór"
    after = (fresh / PL).read_bytes()
    assert main(["import", "rules.pl.po", "--game", "mill-skirmish"]) == 0  # again: everything is there already
    assert capsys.readouterr().out.splitlines()[-1].startswith("0 placed exactly, 0 split from 0 entries, 0 placed fuzzy,")
    assert (fresh / PL).read_bytes() == after


def test_a_catalog_of_no_language_of_the_game_is_refused_in_one_line(fresh, capsys, monkeypatch):
    monkeypatch.chdir(fresh)
    assert main(["import", "rules.pl.po", "--game", "mill-skirmish", "--lang", "en"]) == 1
    assert capsys.readouterr().err.strip() == \
        "--lang: 'en' is not a language mill-skirmish is translated into (expected: pl, ru)"


def test_with_a_catalog_per_aid_each_aids_catalog_is_filled(fresh, capsys, monkeypatch):
    monkeypatch.chdir(fresh)
    with open(fresh / "aids.yaml", "a", encoding="utf-8") as config:
        config.write("catalogs_per: aid\n")
    project = read_project(fresh)
    translations.extract(project), translations.update(project)
    assert main(["import", "rules.pl.po", "--game", "mill-skirmish"]) == 0
    said = capsys.readouterr().out
    terrain = "i18n/pl/LC_MESSAGES/mill-skirmish.terrain.po"
    assert f"{terrain}: [terrain/open] placed, from rules.pl.po:30" in said
    assert said.splitlines()[-1] == "5 placed exactly, 2 split from 1 entry, 4 placed fuzzy, 1 not placed; updated " \
        f"i18n/pl/LC_MESSAGES/mill-skirmish.sequence-of-play.po; updated {terrain}"
    found = {po.key(e)[0]: e for e in po.entries(read_catalog(fresh / terrain, terrain))}
    assert str(found["terrain/open"].target) == "Teren otwarty"


# --- a po4a catalog of LaTeX: blocks split between aids' entries, the book's macros as aids' markup -------------------

VALMORA = "valmora-scenarios"
VPL = f"i18n/pl/LC_MESSAGES/{VALMORA}.po"
PO4A = REPO / "tests" / "data" / "valmora-rules.pl.po"  # rules.md as a LaTeX book has it, po4a's Polish catalog
MACROS = "icon: [svg]\nterm: [gls]\nref: [pagelink]\nnote: [note]\n"  # index: on the command line


@pytest.fixture
def valmora(tmp_path):
    """The Valmora scenarios (English source) as a project of their own, their Polish catalog not translated yet
    but for one paragraph the team translated in aids already."""
    root = tmp_path / "valmora"
    shutil.copytree(REPO / "games" / VALMORA, root / "games" / VALMORA)
    (root / "aids.yaml").write_text("languages: [en, pl, ru]\noutput: build\n", encoding="utf-8")
    project = read_project(root)
    translations.extract(project), translations.update(project)
    catalog = read_catalog(root / VPL, VPL)
    for entry in po.entries(catalog):
        if po.msgid(entry).startswith("The six hexes around a unit"):
            entry.target = "Sześć heksów wokół oddziału to jego {term:zoc}, nasze tłumaczenie."
    po.save(root / VPL, catalog)
    shutil.copy(PO4A, root / "rules.pl.po")
    (root / "macros.yaml").write_text(MACROS, encoding="utf-8")
    return root


def sample_polish():
    """The sample's own Polish translations, msgid -> msgstr: what the po4a catalog's Polish was made from."""
    return {po.msgid(e): po.strings(e)[0] for e in po.entries(read_catalog(REPO / VPL, VPL))}


@pytest.mark.unit
def test_latex_typography_and_declared_macros_become_aids_text():
    from aids.translating.latex import Macros, convert
    macros = Macros(labels={"sec:morale": "morale"})
    for kind, name in (("icon", "svg"), ("ref", "pagelink"), ("note", "note"), ("index", "index")):
        macros.add(kind, name)
    said = convert("Piechota~\\svg{infantry} -- 10\\,000 --- ,,wręcz'' i <<ура>> ``fire''\\index{ogień} (zob. "
                   "\\pagelink{sec:morale}), \\emph{raz}\n\\note{Uwaga.}\n\\begin{itemize}\\item A \\textbf{b}."
                   "\\item \\hexref{0512}\\end{itemize}", macros)
    assert said.pieces == ["Piechota\u00a0{icon:infantry} – 10\u202f000 — „wręcz” i «ура» “fire” (zob. "
                           "{ref:morale}), *raz*", "Uwaga.", "A **b**.", "0512"]
    assert [name for name, _ in said.undeclared] == ["\\hexref"]


def test_a_po4a_latex_catalog_is_split_between_aids_entries_with_its_macros_as_aids_markup(valmora, capsys,
                                                                                            monkeypatch):
    monkeypatch.chdir(valmora)
    assert main(["import", "rules.pl.po", "--game", VALMORA, "--macros", "macros.yaml", "--macro", "index=index"]) == 0
    said = capsys.readouterr().out.splitlines()
    # 21 of the catalog's 25 entries placed: 18 whole (17 exactly; the headings "Zone of control" and "Melee" also
    # filled the glossary's "zone of control" and "melee", fuzzy), 3 split between 9 of aids' entries (2 fuzzy)
    assert said[-1] == f"17 placed exactly, 7 split from 3 entries, 5 placed fuzzy, 4 not placed; updated {VPL}"
    found = {po.msgid(e): e for e in po.entries(read_catalog(valmora / VPL, VPL))}
    polish = sample_polish()

    def imported(start):
        entry = next(e for msgid, e in found.items() if msgid.startswith(start))
        return entry, str(entry.target)
    # a po4a paragraph that is two of aids' (5 sentences): cut after the third, each part as the sample has it
    for start in ("A unit is a battalion", "A {term:leader} has no strength"):
        entry, text = imported(start)
        assert text.replace("\u00a0", " ") == polish[po.msgid(entry)] and not entry.isfuzzy()
    assert "(zob. {ref:morale})" in imported("A unit is a battalion")[1]  # \pagelink{morale}
    # a paragraph, an enumerate's items and a \note in one block: six entries of aids, each its own
    for start in ("The player who moves first", "The first player", "The second player", "No melee is fought",
                  "Both players resolve melee"):
        entry, text = imported(start)
        assert text.replace("\u00a0", " ") == polish[po.msgid(entry)] and not entry.isfuzzy(), start
    assert f"{VPL}: [rules/sequence] placed, split from rules.pl.po:97 (sentence 5 of 6)" in said
    # the book's macros and LaTeX's typography as aids writes them: icons, terms, a tie as a no-break space, ---
    movement = imported("A unit spends {term:mp}")[1]
    assert "Piechota\u00a0{icon:infantry} i\u00a0artyleria\u00a0{icon:artillery}" in movement and "\\" not in movement
    entry, text = imported("A {term:morale-check} is one die")
    assert text == polish[po.msgid(entry)] and "ucieczki — jego" in text  # ---, and \index dropped
    assert "\\index" not in imported("These rules are shared")[1]
    # a block that aligns in part (a sentence aids has not): its parts placed fuzzy, the sentence reported
    entry, text = imported("In the third phase")
    assert entry.isfuzzy() and text.replace("\u00a0", " ") == polish[po.msgid(entry)]
    assert str(entry.prev_source).startswith("In the third phase, a unit next to an enemy unit may attack it in")
    assert 'rules.pl.po:209: "In the third phase, a unit…": part not placed: sentence 6 of 6 matches no entry of ' \
        "the game" in said
    # a block whose translation joined two sentences: not cut by guess
    assert not po.translated(imported("A unit may fire at one enemy")[0])
    assert 'rules.pl.po:184: "A unit may fire at one…": part not placed: sentences 1-2 of 4 ([rules/fire]): 4 ' \
        "sentences in the text, 3 in its translation: not split" in said
    # a macro nobody declared: reported where it stands, its entry left alone
    assert "rules.pl.po:169:51: \\marginpar is a macro not declared (expected: --macro KIND=marginpar, KIND one " \
        "of icon, ref, see, term, note, index, drop, or a line of --macros FILE)" in said
    assert 'rules.pl.po:164: "A river can be crossed only…" not placed: its LaTeX is not read (above)' in said
    assert not po.translated(imported("A river can be crossed")[0])
    # the team's translation in aids kept as it is; a verbatim block aids has not; fuzzy there, fuzzy here
    assert imported("The six hexes around")[1] == "Sześć heksów wokół oddziału to jego {term:zoc}, nasze tłumaczenie."
    assert 'rules.pl.po:147: "The six hexes around a unit…" not placed: [rules/zoc] has this text and a translation ' \
        "already: kept as it is" in said
    assert 'rules.pl.po:264: "Turn Valmora Duchy 1 2nd Light…" not placed: no entry of the game has this text or ' \
        "one close to it" in said
    assert imported("Index")[0].isfuzzy()
    # a catalog GNU's tools take, in their layout
    if shutil.which("msgfmt"):
        done = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", VPL], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert subprocess.run(["msgcat", VPL], capture_output=True).stdout == (valmora / VPL).read_bytes()


@pytest.mark.parametrize("args, files, error", [
    (["--macro", "icon"], {}, "--macro: 'icon' is no declaration of a macro (expected: KIND=NAME[,NAME], KIND one "
                              "of icon, ref, see, term, note, index, drop)"),
    (["--macros", "macros.yaml"], {"macros.yaml": "icon: [svg]\nicons: [svg]\n"},
     "macros.yaml:2:1: 'icons' is no kind of macro or holds no list of names (expected: a map of icon, ref, see, "
     "term, note, index, drop to lists of macro names, and labels: a map of labels to ids)"),
    (["--macros", "macros.yaml"], {"rules.pl.po": "\\section{Rules}\n"},
     "rules.pl.po:1:1: malformed catalog: unknown keyword (expected: msgctxt, msgid, msgid_plural, msgstr or a "
     "comment starting with #)"),
    (["--macros", "macros.yaml"], {"rules.pl.po": 'msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-2'
                                                  '\\nLanguage: pl\\n"\n'},
     'rules.pl.po:1:1: malformed catalog: its header says charset=ISO-8859-2 (expected: a header entry first: '
     'msgid "" and msgstr "Content-Type: text/plain; charset=UTF-8\\n...")'),
])
def test_a_bad_declaration_or_catalog_is_one_line_at_its_place(valmora, capsys, monkeypatch, args, files, error):
    monkeypatch.chdir(valmora)
    for name, text in files.items():
        (valmora / name).write_text(text, encoding="utf-8")
    before = (valmora / VPL).read_bytes()
    assert main(["import", "rules.pl.po", "--game", VALMORA, *args]) == 1
    assert capsys.readouterr().err.strip() == error
    assert (valmora / VPL).read_bytes() == before
