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
