"""Tables and playsheets: cells as data, locale formats, editions and units, bad input with its position."""
import re
from decimal import Decimal
from fractions import Fraction

import pytest

from aids.config import read_project
from aids.errors import AidsError
from aids.kinds import reading
from aids.localize import making
from aids.localize import table as table_text
from aids.localize.quantity import format_value
from aids.model.quantity import Dash, Empty, Frac, Measure, Num, Percent, Quantity, Range, parse_value
from aids.pipeline import builder, pipeline

from ..helpers import DEMO_PLAYSHEET, as_html, make_project, page_sizes_mm


@pytest.fixture
def sheet(tmp_path):
    return make_project(tmp_path, DEMO_PLAYSHEET)


def read_all(root):
    project = read_project(root)
    game = project.read_game("demo")
    aids, errors = reading.read_aids(project, game)
    return project, game, {a.model.id: a for a in aids}, errors


def problems(root) -> list[str]:
    return [str(p) for e in read_all(root)[3] for p in e.problems]


def localized_table(root, table_id, lang, edition=None):
    project, game, aids, errors = read_all(root)
    assert not errors
    ed = next((e for e in game.editions if e.id == edition), None)
    return as_html(table_text.localize_table(aids[table_id].model, making.localizer(project, game, lang), ed))


def cells(ctx):
    return [[c["text"] for c in row["cells"]] for row in ctx["body"]]


# --- cell types ---------------------------------------------------------------------------------

@pytest.mark.parametrize("written, value", [
    ("20", Num(Decimal(20))),
    ("0.1", Num(Decimal("0.1"), 1)),
    ("10.0", Num(Decimal("10.0"), 1)),
    ("+1", Num(Decimal(1), 0, True)),
    ("-2", Num(Decimal(-2), 0, True)),
    ("−10", Num(Decimal(-10), 0, True)),
    ("–1", Num(Decimal(-1), 0, True)),  # the en dash a word processor puts for a minus
    ("+0", Num(Decimal(0), 0, True)),
    ("+½", Frac(Fraction(1, 2), True)),
    ("−1½", Frac(Fraction(-3, 2), True)),
    ("-20%", Percent(Decimal(-20), True)),
    ("+5 cm", Quantity(Num(Decimal(5), 0, True), "cm")),
    ("1,5", None),  # a decimal comma: not a number as written (reported by the reader)
    ("½", Frac(Fraction(1, 2))),
    ("1¼", Frac(Fraction(5, 4))),
    ("3/8", Frac(Fraction(3, 8))),
    ("20%", Percent(Decimal(20))),
    ("4-7", Range(Num(Decimal(4)), Num(Decimal(7)))),
    ("8+", Range(Num(Decimal(8)), None)),
    ("12-", Range(None, Num(Decimal(12)))),
    ("-", Dash()),
    ("", Empty()),
    ("30 cm", Quantity(Num(Decimal(30)), "cm")),
    ("¼ move", Quantity(Frac(Fraction(1, 4)), "move")),
    ("zwykła prędkość", None),
])
@pytest.mark.unit
def test_cells_are_parsed_as_written(written, value):
    assert parse_value(written) == value


class Lz:
    """Just enough of a Localizer for formatting, with the package's real UI catalogs."""

    def __new__(cls, lang):
        import gettext

        from aids.localize import ui
        from aids.localize.localizer import Localizer
        return Localizer(lang, "pl", {}, ui.ui_translations(lang) if lang != "en" else gettext.NullTranslations())


@pytest.mark.parametrize("written, pl, en, ru", [
    ("0.1", "0,1", "0.1", "0,1"),
    ("10.0", "10,0", "10.0", "10,0"),
    ("-2", "\u22122", "\u22122", "\u22122"),
    ("+4", "+4", "+4", "+4"),
    ("−1", "\u22121", "\u22121", "\u22121"),  # a true minus typed by the user
    ("–1", "\u22121", "\u22121", "\u22121"),
    ("+0", "0", "0", "0"),  # zero has no sign
    ("+1.5", "+1,5", "+1.5", "+1,5"),
    ("+½", "+½", "+½", "+½"),
    ("-½", "\u2212½", "\u2212½", "\u2212½"),
    ("+10%", "+10%", "+10%", "+10\u00a0%"),
    ("-20%", "\u221220%", "\u221220%", "\u221220\u00a0%"),
    ("+5 cm", "+5 cm", "+5 cm", "+5 см"),
    ("-5 cm", "\u22125 cm", "\u22125 cm", "\u22125 см"),
    ("−1 move", "\u22121 ruch", "\u22121 move", "\u22121 ход"),
    ("−½ move", "\u2212½ ruchu", "\u2212½ move", "\u2212½ хода"),
    ("½", "½", "½", "½"),
    ("20%", "20%", "20%", "20\u00a0%"),
    ("4-7", "4–7", "4–7", "4–7"),
    ("8+", "8 i więcej", "8 and more", "8 и более"),
    ("12-", "12 i mniej", "12 or less", "12 и менее"),
    ("1 move", "1 ruch", "1 move", "1 ход"),
    ("2 move", "2 ruchy", "2 moves", "2 хода"),
    ("5 move", "5 ruchów", "5 moves", "5 ходов"),
    ("½ move", "½ ruchu", "½ move", "½ хода"),
    ("¼ speed", "¼ prędkości", "¼ speed", "¼ скорости"),
    ("30 cm", "30 cm", "30 cm", "30 см"),
])
@pytest.mark.unit
def test_values_formatted_per_language(written, pl, en, ru):
    value = parse_value(written)
    assert [format_value(value, Lz(lang)) for lang in ("pl", "en", "ru")] == [pl, en, ru]


@pytest.mark.parametrize("measure, cm, expected", [
    (Measure("in", Decimal("0.4"), Decimal("0.5"), "nearest"), "32", "13"),
    (Measure("in", Decimal("0.4"), Decimal("0.5"), "nearest"), "24", "9.5"),
    (Measure("in", Decimal("0.4"), Decimal("0.5"), "down"), "32", "12.5"),
    (Measure("in", Decimal("0.4"), Decimal("1"), "up"), "24", "10"),
    (Measure("in", None, Decimal("0.1"), "nearest"), "10", "3.9"),  # the physical 2.54 cm
    (Measure(), "32", "32"),
])
@pytest.mark.unit
def test_editions_convert_distances_with_their_rounding(measure, cm, expected):
    q = measure.convert(Quantity(Num(Decimal(cm)), "cm"))
    assert str(q.amount.value) == expected and q.unit == (measure.unit or "cm")


# --- tables read from sources --------------------------------------------------------------------

@pytest.mark.unit
def test_grid_distances_per_edition_and_language(sheet):
    assert cells(localized_table(sheet, "move", "pl", "cm")) == [["32", "40"], ["4", "–"]]
    inch = localized_table(sheet, "move", "en", "inch")
    assert cells(inch) == [["13", "16"], ["1.5", "–"]]
    assert inch["title"] == "Ruch (inches)"  # untranslated title falls back; the unit is CLDR's
    assert localized_table(sheet, "move", "pl", "inch")["title"] == "Ruch (cale)"


@pytest.mark.unit
def test_modifier_list_keeps_signs_and_converts_labels(sheet):
    en = localized_table(sheet, "mods", "en", "inch")
    assert cells(en) == [["20"], ["+1"], ["\u22122"], ["\u22121"], ["0.1"], ["½ move"]]
    assert [r["th"].striptags() for r in en["body"]][1:4] == ["Jednostka w promieniu 12 in", "Daleko", "Każde 5% strat"]
    ru = localized_table(sheet, "mods", "ru", "cm")
    assert cells(ru)[4:] == [["0,1"], ["½ хода"]]
    assert ru["body"][1]["th"].striptags() == "Jednostka w promieniu 30 см"


@pytest.mark.unit
def test_bands_read_with_open_ends(sheet):
    ctx = localized_table(sheet, "bands", "pl")
    assert [r["th"] for r in ctx["body"]] == ["8 i więcej", "4–7", "3 i mniej"]


@pytest.mark.unit
def test_numbers_never_reach_the_messages(sheet):
    _, _, aids, _ = read_all(sheet)
    msgids = [t.msgid for a in aids.values() for t in a.model.messages()]
    assert "Jednostka w promieniu {q:radius}" in msgids and "Każde {q:loss} strat" in msgids
    assert not [m for m in msgids if any(ch.isdigit() for ch in m)]


def test_playsheet_links_its_tables_and_tables_are_not_built_alone(sheet):
    project = read_project(sheet)
    summary = builder.build(project, pipeline.Options(langs=["pl"], formats=["html"], editions=["inch"]))
    assert not summary.failed
    assert [f for b in summary.built for f in b.files] == ["build/demo/inch/pl/sheet.html"]
    html = (sheet / "build/demo/inch/pl/sheet.html").read_text()
    assert '<th scope="col">normalny</th>' in html and '<th scope="row">Kawaleria</th>' in html
    # the title a heading (the search leads to it), a link to copy after it
    assert re.search(r'<caption><h2 class="table-title" id="[\w-]+-title">Ruch \(cale\)<a class="permalink"', html)
    assert "<thead data-pagefind-ignore>" in html


# --- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, old, new, message", [
    ("move.yaml", "cells: [32, 40]", "cells: [32, 40, 48]",
     "games/demo/move.yaml:10:44: row 'cavalry' has 3 cells, the table has 2 columns (expected: 2 cells (normal, charge))"),
    ("move.yaml", "cells: [4, ", "cells: [cztery, ",
     "games/demo/move.yaml:11:44: non-numeric value 'cztery' in numeric column 'normal'"),
    ("move.yaml", "unit: cm", "unit: furlong", "games/demo/move.yaml:4:7: unknown unit 'furlong' (expected: mm, cm, in, move, speed, °)"),
    ("bands.yaml", "range: 4-7", "range: 4-8",
     "games/demo/bands.yaml:10:22: overlapping result bands: 4-8 and 8+ share 8 (expected: a band ending at 7)"),
    ("bands.yaml", "range: 4-7", "range: 5-7",  # the bands run downwards: 3- should end at 4
     "games/demo/bands.yaml:11:22: gap between result bands: no band for 4 (expected: a band ending at 4)"),
    ("bands.yaml", "range: 3-", "range: 4-",
     "games/demo/bands.yaml:11:22: overlapping result bands: 4- and 4-7 share 4 (expected: a band ending at 3)"),
    ("bands.yaml", "range: 4-7", "range: sporo",
     "games/demo/bands.yaml:10:22: 'sporo' is not a range (expected: 4-7, 8+ (8 and more) or 12- (12 or less))"),
    ("sheet.yaml", "table: bands", "table: bandz",
     "games/demo/sheet.yaml:8:12: reference to unknown table 'bandz' (expected: bands, mods, move)"),
    ("move.yaml", "title: Ruch", "title: [a, b]", "games/demo/move.yaml:3:8: 'title' must be text, not a list"),
    ("move.yaml", "label: normalny", "label: [normalny]", "games/demo/move.yaml:7:25: 'label' must be text, not a list"),
    ("bands.yaml", "corner: Wynik", "corner: [Wynik]", "games/demo/bands.yaml:5:9: 'corner' must be text, not a list"),
    ("sheet.yaml", "title: Ściągawka", "title: {a: b}", "games/demo/sheet.yaml:3:8: 'title' must be text, not a mapping"),
    ("sheet.yaml", "title: Tura", "title: [Tura]", "games/demo/sheet.yaml:10:12: 'title' must be text, not a list"),
    ("sheet.yaml", "text: Zapisz rozkazy.", "text: [Zapisz]",
     "games/demo/sheet.yaml:12:28: 'text' must be text, not a list"),
    ("move.yaml", "cells: [4, ", "cells: ['1,5', ",
     "games/demo/move.yaml:11:44: '1,5' is not a number as a source writes it (expected: 1.5 (a decimal point; "
     "each language prints its own separator))"),
    ("move.yaml", "cells: [4, ", "cells: [.5, ",
     "games/demo/move.yaml:11:44: '.5' is not a number as a source writes it (expected: 0.5"),
    ("move.yaml", "cells: [4, ", "cells: [{text: zawsze, value: dużo}, ",
     "games/demo/move.yaml:11:66: 'dużo' is not a value (expected: a number, fraction, percentage or quantity"),
    ("move.yaml", "cells: [4, ", "cells: [+-4, ",
     "games/demo/move.yaml:11:44: non-numeric value '+-4' in numeric column 'normal'"),
    ("mods.yaml", "{q:radius}", "{q:promien}",
     "games/demo/mods.yaml:7:46: placeholder '{q:promien}' has no value (expected: with: {promien: ...})"),
])
@pytest.mark.unit
def test_bad_tables_are_reported_at_their_position(sheet, name, old, new, message):
    path = sheet / "games/demo" / name
    path.write_text(path.read_text().replace(old, new, 1))
    found = problems(sheet)
    assert found[0].startswith(message), found


@pytest.mark.parametrize("old, new, message", [
    ("unit: cm", "unit: furlong", "4:7: unknown unit 'furlong' (expected: mm, cm, in, move, speed, °)"),
    ("{id: normal, label: normalny}", "{id: normal, label: normalny, unit: furlong}",
     "7:41: unknown unit 'furlong' (expected: mm, cm, in, move, speed, °)"),
])
@pytest.mark.unit
def test_an_unknown_unit_is_reported_once_not_again_for_each_distance_column(sheet, old, new, message):
    path = sheet / "games/demo/move.yaml"
    path.write_text(path.read_text().replace(old, new))
    assert [p for p in problems(sheet) if "move.yaml" in p] == [f"games/demo/move.yaml:{message}"]


@pytest.mark.parametrize("old, new, message", [
    ("range: 4-7", "range: 4-8", "11:23: overlapping result bands: 8+ and 4-8 share 8 (expected: a band starting at 9)"),
    ("range: 4-7", "range: 5-7", "10:22: gap between result bands: no band for 4 (expected: a band starting at 4)"),
    ("range: 4-7", "range: 6-7", "10:22: gap between result bands: no band for 4-5 (expected: a band starting at 4)"),
])
@pytest.mark.unit
def test_bands_written_upwards_are_checked_upwards(sheet, old, new, message):
    path = sheet / "games/demo/bands.yaml"
    head, bands = path.read_text().split("bands:\n")
    path.write_text(head + "bands:\n" + "".join(reversed(bands.splitlines(keepends=True))).replace(old, new))
    assert problems(sheet)[0] == f"games/demo/bands.yaml:{message}"


@pytest.mark.unit
def test_unknown_unit_of_an_edition_is_reported_at_its_position(sheet):
    path = sheet / "games/demo/game.yaml"
    path.write_text(path.read_text().replace("unit: in", "unit: yard"))
    with pytest.raises(AidsError) as exc:
        read_project(sheet).read_game("demo")
    assert str(exc.value) == "games/demo/game.yaml:8:11: unknown unit 'yard' (expected: mm, cm, in)"


def test_unknown_edition_is_an_error(sheet):
    with pytest.raises(AidsError, match="command line: unknown edition 'imperial' .expected: cm, inch."):
        builder.build(read_project(sheet), pipeline.Options(editions=["imperial"]))


# --- the page budget ------------------------------------------------------------------------------

def test_an_oversized_playsheet_fails_naming_sheet_language_and_overflow(sheet):
    rows = "".join(f"  - {{id: r{i}, label: Wiersz, cells: [{i}, {i}]}}\n" for i in range(1, 200))
    (sheet / "games/demo/move.yaml").write_text(DEMO_PLAYSHEET["games/demo/move.yaml"] + rows)
    summary = builder.build(read_project(sheet), pipeline.Options(langs=["en"], editions=["cm"]))
    messages = [str(p) for e in summary.failed for p in e.problems]
    assert len(messages) == 1
    assert messages[0].startswith("games/demo/sheet.yaml:4:16: playsheet 'sheet' (en, edition cm) overflows its "
                                  "budget of 1 page by ")
    assert "at the minimum type size 7pt" in messages[0]
    assert not (sheet / "build").exists()


def test_type_shrinks_within_its_minimum_to_fit(sheet):
    rows = "".join(f"  - {{id: r{i}, label: Wiersz, cells: [{i}, {i}]}}\n" for i in range(1, 100))
    (sheet / "games/demo/move.yaml").write_text(DEMO_PLAYSHEET["games/demo/move.yaml"] + rows)
    path = sheet / "games/demo/sheet.yaml"
    path.write_text(path.read_text().replace("type: 8pt, min_type: 7pt", "type: 12pt, min_type: 12pt"))
    summary = builder.build(read_project(sheet), pipeline.Options(langs=["pl"], editions=["cm"], formats=["pdf"]))
    assert "by 1 (needs 2 at the minimum type size 12pt)" in str(summary.failed[0])
    path.write_text(path.read_text().replace("min_type: 12pt", "min_type: 6pt"))
    summary = builder.build(read_project(sheet), pipeline.Options(langs=["pl"], editions=["cm"], formats=["pdf"]))
    assert not summary.failed and [b.pages for b in summary.built] == [1]


def test_letter_portrait_page(sheet):
    path = sheet / "games/demo/sheet.yaml"
    path.write_text(path.read_text().replace("page: {budget: 1,", "page: {size: Letter, orientation: portrait, budget: 1,"))
    builder.build(read_project(sheet), pipeline.Options(langs=["en"], editions=["cm"], formats=["pdf"]))
    assert page_sizes_mm(sheet / "build/demo/cm/en/sheet.pdf") == [(215.9, 279.4)]


@pytest.mark.parametrize("old, new, message", [
    ("mode: nearest", "mode: sideways", "games/demo/game.yaml:10:31: unknown rounding mode 'sideways' (expected: nearest, down, up)"),
    ("scale: 0.4", "scale: -1", "games/demo/game.yaml:9:12: scale '-1' is not a positive number"),
    ("  - id: cm\n", "  - id: cm\n    units: cm\n", "games/demo/game.yaml:7:5: unknown field 'units' in edition (expected: id, title, unit, scale, rounding)"),
])
@pytest.mark.unit
def test_edition_options_checked_at_their_position(sheet, old, new, message):
    path = sheet / "games/demo/game.yaml"
    path.write_text(path.read_text().replace(old, new))
    with pytest.raises(AidsError) as exc:
        read_project(sheet).read_game("demo")
    assert str(exc.value).startswith(message)


@pytest.mark.unit
def test_placeholder_in_a_plain_text_cell_needs_a_value(sheet):
    path = sheet / "games/demo/bands.yaml"
    path.write_text(path.read_text().replace("cells: [stoją]", "cells: [\"stoją {q:ile}\"]"))
    assert problems(sheet)[0].startswith(
        "games/demo/bands.yaml:10:42: placeholder '{q:ile}' has no value (expected: with: {ile: ...})")


@pytest.mark.unit
def test_a_broken_table_is_not_called_unknown(sheet):
    path = sheet / "games/demo/move.yaml"
    path.write_text(path.read_text().replace("cells: [32, 40]", "cells: [32]"))
    assert problems(sheet)[1] == ("games/demo/sheet.yaml:6:12: table 'move' has errors (reported above) "
                                  "(expected: the table fixed first)")


def test_a_rule_booklet_embeds_a_table_by_id(sheet):
    game = sheet / "games/demo/game.yaml"
    game.write_text(game.read_text() + "  - rules.yaml\n")
    (sheet / "games/demo/rules.yaml").write_text(
        "kind: booklet\nid: rules\ntitle: Zasady\nfiles: [rules.md]\n", encoding="utf-8")
    (sheet / "games/demo/rules.md").write_text(
        "# Ruch {#movement}\n\nOdległości podaje tabela.\n\n::: embed move\n:::\n", encoding="utf-8")
    summary = builder.build(read_project(sheet), pipeline.Options(langs=["en"], formats=["html"], editions=["inch"]))
    assert not summary.failed, summary.failed
    html = (sheet / "build/demo/inch/en/rules.html").read_text(encoding="utf-8")
    assert '<table class="data form-grid whole" id="move">' in html and '<caption><h3 class="table-title" id="move-title">Ruch (inches)<a' in html
    assert '<td class="num">13</td><td class="num">16</td>' in html


# --- a row as the search reads it -----------------------------------------------------------------

@pytest.mark.unit
def test_a_row_reads_as_text_for_the_search():
    """Its label, then each cell after its column's label, a group's label said once; nothing for an empty cell or
    a dash (docs/search.md)."""
    def head(text, scope="col", span=1, rows=1):
        return {"text": text, "scope": scope, "colspan": span, "rowspan": rows, "num": False}

    def row(label, *values):
        return {"id": "t/r", "th": label, "key": None,
                "cells": [{"text": v, "num": True, "wrap": False} for v in values]}

    grouped = [[head("Weapon", rows=2), head("Range from 0 cm to", "colgroup", span=3)],
               [head("2"), head("6"), head("12")]]
    assert table_text.row_reading(grouped, row("artillery – canister", "27", "26", "–")) == \
        "artillery – canister: Range from 0 cm to 2 → 27; 6 → 26"
    plain = [[head("Terrain"), head("Infantry"), head("Cavalry")]]
    assert table_text.row_reading(plain, row("wood", "½", "")) == "wood: Infantry → ½"
    assert table_text.row_reading([], row("Firing in open order", "+1")) == "Firing in open order: +1"
    assert table_text.row_reading([], row(None, "–")) == ""
