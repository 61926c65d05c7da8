"""The JSON Schemas editors use: generated from the readers' shapes, shipped, met by every sample, and saying
the same as the readers on what is accepted and what refused."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from aids.config import read_game, read_project
from aids.errors import AidsError, Problems
from aids.kinds import registry, schemas
from aids.model.rulings import read_rulings
from aids.source.shape import plain
from aids.source.yamlfile import load_yaml, read_yaml
from tests.helpers import REPO

pytestmark = pytest.mark.unit

SHIPPED = REPO / "aids" / "json-schemas"


def validator(name: str) -> Draft202012Validator:
    schema = schemas.schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_every_schema_is_valid_and_shipped_as_generated():
    names = schemas.names()
    assert names[:3] == ["project", "game", "rulings"] and {"sequence", "table", "playsheet", "card", "booklet"} <= set(names)
    for name in names:
        validator(name)
    built_in = [n for n in names if n in ("project", "game", "rulings", "theme") or registry()[n].shape is not None]
    assert sorted(p.name for p in SHIPPED.glob("*.schema.json")) == sorted(f"{n}.schema.json" for n in built_in)
    for name in built_in:  # the package's copies are the generated ones (aids schema --write --package)
        assert (SHIPPED / f"{name}.schema.json").read_text(encoding="utf-8") == schemas.dumps(name), name


def sample_sources() -> list[tuple[str, Path]]:
    found = [("project", REPO / "aids.yaml")]
    for game in sorted((REPO / "games").iterdir()):
        found.append(("game", game / "game.yaml"))
        if (game / "rulings.yaml").is_file():
            found.append(("rulings", game / "rulings.yaml"))
        found += [("theme", path) for path in sorted(game.glob("*/theme.yaml"))]
        for line in (game / "game.yaml").read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("- ") and line.strip().endswith(".yaml"):
                path = game / line.strip()[2:].split("#")[0].strip()
                found.append((str(read_yaml(path).data["kind"]), path))
    return found


@pytest.mark.parametrize("name,path", sample_sources(), ids=lambda v: str(v).replace(str(REPO) + "/", ""))
def test_every_sample_source_meets_its_schema(name, path):
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in validator(name).iter_errors(plain(read_yaml(path).data))]
    assert errors == []


def test_the_samples_cover_every_kind():
    assert {name for name, _ in sample_sources()} >= {"project", "game", "rulings", "theme", "sequence", "table",
                                                      "playsheet", "card", "booklet"}


# -- the schema and the reader agree --------------------------------------------------------------------------
# (name, source, accepted?): each case is read by the reader and validated by the schema; both must agree.
SEQUENCE = """\
kind: sequence
id: seq
title: Kolejność
sides: [{id: red, name: Czerwoni}, {id: blue, name: Niebiescy, opposite: red}]
phases:
  - id: move
    title: Ruch
    side: red
    steps:
      - id: a
        text: Ruszaj.
        actor: red
        steps: [{id: b, text: Dalej., note: Uwaga.}]
      - {id: again, repeats: move/a, other_side: true}
      - {id: m, mirror_of: move/a}
    notes: [{id: n, text: Notatka.}]
"""
TABLE = """\
kind: table
id: t
title: Ruch
unit: cm
columns: [{id: inf, label: Piechota, type: distance}, {id: cav, label: Jazda, type: distance}]
rows:
  - {id: road, label: Droga, cells: [30 cm, 60 cm]}
  - {id: field, label: {text: "Pole {q:r}", with: {r: 2 cm}}, cells: [20 cm, null]}
"""
PLAYSHEET = """\
kind: playsheet
id: p
title: Arkusz
page: {size: A4, columns: 2, type: 8pt}
content:
  - table: t
  - {checklist: c, title: Lista, items: [{id: a, text: Zrób.}], span: all}
"""
CARD = """\
kind: card
id: c
title: Karta
size: A6
font_size: 9
sections:
  - {id: r, kind: rules, face: front, items: [{id: a, text: Zasada.}]}
  - {id: l, kind: legend, face: back, items: [{id: s, symbol: X, text: Znak., glyph: ★}]}
  - {id: p, kind: scoring, face: back, items: [{id: w, points: "+30", text: Wygrana.}]}
"""
BOOKLET = """\
kind: booklet
id: rules
title: Zasady
files: [rules.md]
columns: 2
glossary: [{id: zoc, term: strefa kontroli, forms: [strefy kontroli]}]
"""
PROJECT = "languages: [pl, en, ru]\noutput: build\npublish: {min_complete: 90}\nprint: {profile: press, bleed: 3}\n"
GAME = "id: demo\ntitle: Demo\nversion: '1.0'\nsource_language: pl\naids: [seq.yaml]\n"
RULINGS = """\
rulings:
  - id: twice
    rule: seq/move/a
    date: 2026-10-02
    version: "1.0"
    question: Czy można ruszyć dwa razy?
    answer: Nie.
    source: Forum
    url: https://forum.example.org/t/1
"""


def edit(source: str, old: str, new: str) -> str:
    assert old in source, old
    return source.replace(old, new, 1)


CASES = [
    ("sequence", SEQUENCE, True),
    ("sequence", edit(SEQUENCE, "title: Kolejność", "titel: Kolejność"), False),  # unknown field, title missing
    ("sequence", edit(SEQUENCE, "    title: Ruch\n", "    title: Ruch\n    colour: red\n"), False),
    ("sequence", edit(SEQUENCE, "text: Ruszaj.", "texts: Ruszaj."), False),  # a step without its text
    ("sequence", edit(SEQUENCE, "other_side: true", "other_side: true, steps: []"), False),  # no sub-steps
    ("sequence", edit(SEQUENCE, "{id: m, mirror_of: move/a}", "{id: m, mirror_of: move/a, text: X}"), False),
    ("sequence", edit(SEQUENCE, "text: Notatka.", "text: [Notatka]"), False),  # a list where text is
    ("sequence", SEQUENCE + "letters: greek\n", False),
    ("sequence", SEQUENCE + "letters: {ru: latin, pl: source}\nnote_label: false\ntiming_style: dash\n", True),
    ("sequence", SEQUENCE + "letters: {ru: greek}\n", False),
    ("sequence", SEQUENCE + "timing_style: dashed\n", False),
    ("sequence", edit(SEQUENCE, "title: Kolejność\n", ""), True),  # untitled
    ("sequence", edit(SEQUENCE, "    title: Ruch\n", "    title: Ruch\n    see_text: (zob. {ref:chapter:VI})\n"), True),
    ("sequence", SEQUENCE + "letters: source\nnumbering: ['1.', 'a)']\n", True),
    ("sequence", SEQUENCE + "notes_position: before\n", False),  # a phase's field at the top
    ("table", TABLE, True),
    ("table", edit(TABLE, "rows:", "row:"), False),
    ("table", edit(TABLE, "unit: cm", "unit: furlong"), False),
    ("table", edit(TABLE, "type: distance}, {id: cav", "type: length}, {id: cav"), False),
    ("table", "kind: table\nid: m\ntitle: Modyfikatory\nform: modifiers\nitems: [{id: a, label: Las, value: -1}]\n",
     True),
    ("table", "kind: table\nid: m\ntitle: Modyfikatory\nform: modifiers\n", False),  # no items
    ("table", "kind: table\nid: b\ntitle: Wyniki\nform: bands\ncolumns: [{id: r}]\n"
              "bands: [{id: lo, range: 1-3, cells: [A]}, {id: hi, range: 4+, cells: [B]}]\n", True),
    ("table", "kind: table\nid: b\ntitle: Wyniki\nform: bands\ncolumns: [{id: r}]\n"
              "bands: [{id: lo, cells: [A]}]\n", False),  # a band without its range
    ("playsheet", PLAYSHEET, True),
    ("playsheet", edit(PLAYSHEET, "columns: 2", "columns: 9"), False),
    ("playsheet", edit(PLAYSHEET, "size: A4", "size: B5"), False),
    ("playsheet", edit(PLAYSHEET, "type: 8pt", "type: 8"), False),
    ("playsheet", edit(PLAYSHEET, "span: all", "span: half"), False),
    ("playsheet", edit(PLAYSHEET, "title: Lista, ", ""), False),
    ("card", CARD, True),
    ("card", edit(CARD, "font_size: 9", "font_size: 60"), False),
    ("card", edit(CARD, "size: A6", "size: 63x88"), True),
    ("card", edit(CARD, "size: A6", "size: huge"), False),
    ("card", edit(CARD, "kind: rules", "kind: poem"), False),
    ("card", edit(CARD, "symbol: X, ", ""), False),  # a legend item without its symbol
    ("card", edit(CARD, "face: front", "face: side"), False),
    ("card", edit(CARD, "{id: a, text: Zasada.}", "{id: a, text: Zasada., points: 3}"), False),
    ("card", CARD + "sheet: {paper: Letter, back_offset: [0.5, -1]}\n", True),
    ("card", CARD + "sheet: {back_offset: [0.5, -11]}\n", False),
    ("card", CARD + "signature: {role: Sędzia, name: Jan}\n", True),
    ("card", CARD + "signature: {role: Sędzia}\n", False),
    ("booklet", BOOKLET, True),
    ("booklet", edit(BOOKLET, "columns: 2", "columns: 3"), False),
    ("booklet", edit(BOOKLET, "files: [rules.md]", "files: []"), False),
    ("booklet", BOOKLET + "page_size: B5\n", False),
    ("booklet", BOOKLET + "binding: 8\npublished: 2024-05-01\n", True),
    ("booklet", edit(BOOKLET, "term: strefa kontroli, ", ""), False),
    ("project", PROJECT, True),
    ("project", PROJECT + "theme: dark\n", False),
    ("project", "output: build\n", False),
    ("project", edit(PROJECT, "min_complete: 90", "min_complete: 120"), False),
    ("project", edit(PROJECT, "profile: press", "profile: offset"), False),
    ("project", PROJECT + "date_style: {en: en-US}\n", True),
    ("game", GAME, True),
    ("game", edit(GAME, "version: '1.0'\n", ""), True),  # a game may have no version: none is printed
    ("game", edit(GAME, "version: '1.0'\n", "copyright: 1984\n"), True),
    ("game", edit(GAME, "version: '1.0'\n", "copyright: [1984]\n"), False),
    ("game", edit(GAME, "title: Demo\n", ""), False),
    ("game", GAME + "editions: [{id: cm}, {id: inch, unit: in, scale: 0.4, rounding: {to: 0.5, mode: up}}]\n", True),
    ("game", GAME + "editions: [{id: inch, unit: in, rounding: {to: 0.5, mode: sideways}}]\n", False),
    ("game", GAME + "editions: [{id: inch, unit: yard}]\n", False),
    ("game", GAME + "publisher: Someone\n", False),
    ("rulings", RULINGS, True),
    ("rulings", edit(RULINGS, "    source: Forum\n    url: https://forum.example.org/t/1\n", ""), True),
    ("rulings", edit(RULINGS, "    answer: Nie.\n", ""), False),  # a question without its answer
    ("rulings", edit(RULINGS, "rule: seq/move/a", "rule: seq/Move a"), False),  # not a stable key
    ("rulings", edit(RULINGS, "date: 2026-10-02", "date: soon"), False),
    ("rulings", edit(RULINGS, 'version: "1.0"', "version: 1.0"), False),  # a number: quoted, it prints as given
    ("rulings", edit(RULINGS, "url: https://", "url: ftp://"), False),
    ("rulings", RULINGS + "faq: []\n", False),
]


def reader_accepts(name: str, text: str, tmp_path: Path) -> bool:
    if name in ("project", "game"):
        (tmp_path / "aids.yaml").write_text(text if name == "project" else "languages: [pl, en, ru]\n",
                                            encoding="utf-8")
        folder = tmp_path / "games" / "demo"
        folder.mkdir(parents=True)
        (folder / "seq.yaml").write_text("kind: sequence\n", encoding="utf-8")
        (folder / "game.yaml").write_text(text if name == "game" else GAME, encoding="utf-8")
        try:
            read_game(read_project(tmp_path), folder)
        except AidsError:
            return False
        return True
    if name == "rulings":
        try:
            read_rulings(load_yaml(text, tmp_path / "rulings.yaml", "rulings.yaml"))
        except AidsError:
            return False
        return True
    (tmp_path / "rules.md").write_text("# Zasady {#rules}\n\nTekst.\n", encoding="utf-8")
    src = load_yaml(text, tmp_path / f"{name}.yaml", f"{name}.yaml")
    problems = Problems()
    model = registry()[name].read(src, None, problems)
    return model is not None and not problems.items


@pytest.mark.parametrize("name,text,accepted", CASES)
def test_the_schema_and_the_reader_accept_and_refuse_the_same(name, text, accepted, tmp_path):
    data = plain(load_yaml(text, tmp_path / "x.yaml", "x.yaml").data)
    assert validator(name).is_valid(data) is accepted, list(validator(name).iter_errors(data))
    assert reader_accepts(name, textwrap.dedent(text), tmp_path) is accepted


def test_a_field_added_to_a_shape_is_known_to_both(monkeypatch):
    from aids.model import card_shape
    from aids.source.shape import Field, Shape, text
    bigger = Shape("card", (*card_shape.SHAPE.fields, Field("motto", text())), doc=card_shape.SHAPE.doc)
    monkeypatch.setattr(registry()["card"], "shape", bigger)
    assert "motto" in schemas.schema("card")["properties"]


def test_aids_schema_prints_and_writes(tmp_path, capsys):
    from aids.commands.cli import main
    assert main(["schema", "card"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == schemas.schema("card")
    (tmp_path / "aids.yaml").write_text("languages: [pl, en]\n", encoding="utf-8")
    assert main(["--project", str(tmp_path), "schema", "--write"]) == 0
    assert sorted(p.name for p in (tmp_path / "schemas").iterdir()) == sorted(
        f"{n}.schema.json" for n in schemas.names())
    assert main(["schema", "counter"]) == 2
    assert "unknown schema 'counter'" in capsys.readouterr().err
