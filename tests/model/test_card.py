"""The referee-card model: section kinds, labels and numbers per language, fitting, the sheet, bad input."""

import re

import pytest
from markupsafe import Markup
from pypdf import PdfReader

from aids.commands.cli import main
from aids.config import read_project
from aids.errors import AidsError
from aids.localize import making
from aids.pipeline import builder, jobs, pipeline
from aids.render import card_pdf, card_sheet
from aids.units import PT_PER_MM

from ..helpers import built_files, card_type_sizes, localized_demo, make_project, pdf_text, read_demo

pytestmark = pytest.mark.unit

DEMO_CARD = """\
kind: card
id: ref
title: Karta
subtitle: Dla sędziego
size: A6
font_size: 9
min_font_size: 6
sheet: {paper: A4, gutter: 4}
sections:
  - id: rules
    kind: rules
    face: front
    title: Zasady
    items:
      - id: one
        text: Jeden *żeton* na polu.
  - id: setup
    kind: steps
    face: front
    title: Przygotowanie
    items:
      - id: a
        text: Rozłóż planszę.
      - id: b
        text: Ustaw wskaźnik na {date:1920-08-11}.
  - id: turn
    kind: steps
    face: front
    numbering: upper
    items:
      - id: move
        text: Ruch o {num:2.5} pola.
      - id: fire
        text: Ostrzał.
  - id: die
    kind: legend
    face: back
    items:
      - id: star
        glyph: ★
        symbol: Gwiazda
        text: pudło
  - id: score
    kind: scoring
    face: back
    items:
      - id: win
        points: 30
        text: za zwycięstwo
      - id: loss
        points: -3
        text: za stratę
  - id: ranking
    kind: ranking
    face: back
    items:
      - id: three
        points: 3
        text: wygrana
      - id: one
        points: 1
        text: remis
      - id: none
        points: 0
        text: przegrana
  - id: ladder
    kind: ladder
    face: back
    items:
      - id: warn
        penalty: Ostrzeżenie
        text: pierwsze przewinienie
      - id: red
        penalty: Czerwona kartka
        text: wykluczenie
  - id: free
    kind: text
    face: back
    items:
      - id: p
        text: Dowolny tekst.
signature:
  role: Sędzia
  name: Jan Kowalski
"""

GAME = "id: demo\ntitle: Gra próbna\nversion: \"2.0\"\nsource_language: pl\naids:\n  - card.yaml\n"


def project_with(tmp_path, source=DEMO_CARD, files=None):
    return make_project(tmp_path, {"games/demo/game.yaml": GAME, "games/demo/card.yaml": source, **(files or {})})


read = read_demo


def localized(root, lang):
    return localized_demo(root, lang)


def error_of(tmp_path, source) -> str:
    with pytest.raises(AidsError) as info:
        read(project_with(tmp_path, source))
    return str(info.value)


def section(ctx, sid):
    return next(s for f in ctx["faces"] for s in f["sections"] if s["id"] == sid)


def test_sections_land_on_their_faces_in_order(tmp_path):
    ctx, _ = localized(project_with(tmp_path), "en")
    assert [f["id"] for f in ctx["faces"]] == ["front", "back"]
    assert [[s["id"] for s in f["sections"]] for f in ctx["faces"]] == [
        ["rules", "setup", "turn"], ["die", "score", "ranking", "ladder", "free"]]
    assert [f["name"] for f in ctx["faces"]] == ["Front", "Back"]
    assert ctx["signature"] == {"role": "Sędzia", "name": "Jan Kowalski", "face": "back"}


@pytest.mark.parametrize("lang, steps, turn, signed, ranking, date, number", [
    ("pl", ["1", "2"], ["A", "B"], ["+30", "−3"], ["3 punkty", "1 punkt", "0 punktów"], "11\u00a0sierpnia", "2,5"),
    ("en", ["1", "2"], ["A", "B"], ["+30", "−3"], ["3 points", "1 point", "0 points"], "11\u00a0August", "2.5"),  # en-GB, the default style
    ("ru", ["1", "2"], ["А", "Б"], ["+30", "−3"], ["3 очка", "1 очко", "0 очков"], "11\u00a0августа", "2,5"),
])
def test_labels_and_numbers_follow_the_language(tmp_path, lang, steps, turn, signed, ranking, date, number):
    ctx, _ = localized(project_with(tmp_path), lang)
    assert [i["label"] for i in section(ctx, "setup")["items"]] == steps
    assert [i["label"] for i in section(ctx, "turn")["items"]] == turn
    assert [i["value"] for i in section(ctx, "score")["items"]] == signed
    assert [i["value"] for i in section(ctx, "ranking")["items"]] == ranking
    assert date in section(ctx, "setup")["items"][1]["text"]
    assert f"Ruch o {number} pola." in section(ctx, "turn")["items"][0]["text"]


@pytest.mark.parametrize("written", ['"+30"', "'+30'", '"30"'])
def test_scoring_points_quoted_to_keep_their_sign_are_numbers(tmp_path, written):
    source = DEMO_CARD.replace("points: 30\n", f"points: {written}\n").replace("points: -3\n", 'points: "−3"\n')
    ctx, _ = localized(project_with(tmp_path, source), "en")
    assert [i["value"] for i in section(ctx, "score")["items"]] == ["+30", "−3"]


def test_legend_ladder_and_rules_carry_their_parts(tmp_path):
    ctx, _ = localized(project_with(tmp_path), "pl")
    star = section(ctx, "die")["items"][0]
    assert (star["glyph"], star["term"], star["text"]) == ("★", "Gwiazda", "pudło")
    assert [(i["label"], i["term"]) for i in section(ctx, "ladder")["items"]] == [
        ("1", "Ostrzeżenie"), ("2", "Czerwona kartka")]
    assert section(ctx, "rules")["items"][0]["text"] == Markup("Jeden<em> żeton</em> na polu.")


def test_messages_have_stable_contexts(tmp_path):
    aid, _, _ = read(project_with(tmp_path))
    texts = {t.context: t for t in aid.model.messages()}
    assert {"ref/title", "ref/subtitle", "ref/rules/title", "ref/rules/one", "ref/die/star/symbol",
            "ref/ladder/warn/penalty", "ref/signature"} <= set(texts)
    assert texts["ref/score/loss"].msgid == "za stratę" and texts["ref/score/loss"].where.line == 52
    assert not any("Jan Kowalski" in t.msgid for t in texts.values())  # a name is not translated


def test_catalog_text_cannot_inject_markup():
    from aids.localize.rich import Marked, Rich, parse
    assert card_pdf.markup(parse("a <b>x</b> & *y* **z**", lambda kind, target: Rich())) == \
        "a &lt;b&gt;x&lt;/b&gt; &amp; <i>y</i> <b>z</b>"
    untranslated = Rich([Marked(parse("<font color=red>", lambda kind, target: Rich()), "source", "pl")])
    assert card_pdf.markup(untranslated) == "&lt;font color=red&gt;"


@pytest.mark.integration
def test_a_translators_markup_prints_as_text(tmp_path):
    root = project_with(tmp_path)
    assert main(["--project", str(root), "extract"]) == 0 and main(["--project", str(root), "update"]) == 0
    po = root / "i18n/en/LC_MESSAGES/demo.po"
    po.write_text(po.read_text(encoding="utf-8").replace(
        'msgid "Dowolny tekst."\nmsgstr ""', 'msgid "Dowolny tekst."\nmsgstr "Any <b>text</b> & <font size=40>more"'),
        encoding="utf-8")
    summary = builder.build(read_project(root), pipeline.Options(langs=["en"]))
    assert not summary.failed, summary.failed
    assert "Any <b>text</b> & <font size=40>more" in pdf_text(root / "build/demo/en/ref.pdf")
    assert "Any &lt;b&gt;text&lt;/b&gt; &amp; &lt;font size=40&gt;more" in \
        (root / "build/demo/en/ref.html").read_text(encoding="utf-8")


# --- fitting -----------------------------------------------------------------------------------

def long_text(words: int) -> str:
    return " ".join(["Bardzo długi tekst zasady, który ledwo się mieści."] * words)


def render(root, lang="pl"):
    aid, project, game = read(root)
    lz = making.localizer(project, game, lang)
    return jobs.render_aid(project, game, aid, lz, None, ["pdf"])


@pytest.mark.integration
def test_a_card_with_room_to_spare_grows_to_the_maximum(tmp_path):
    out = render(project_with(tmp_path))  # designed 9 pt: by default a card may grow a quarter, to 11.25 pt
    assert out[".pdf"].notes == ["type 11.25 pt (from 6 to 11.25 pt)"]  # both faces, the sections as declared
    assert out[".pdf"].fitted == {"": 11.25}
    assert out[".pdf"].warnings == [] and out[".pdf"].pages == 2


@pytest.mark.integration
def test_overlong_text_moves_sections_to_the_other_face_and_sets_both_at_one_size(tmp_path):
    source = DEMO_CARD.replace("text: Dowolny tekst.", f"text: {long_text(30)}")
    out = render(project_with(tmp_path, source))
    note = out[".pdf"].notes[0]
    size = out[".pdf"].fitted[""]
    assert 6 <= size < 11.25
    # the back's first sections went to the front, in their order, to give the long text room
    assert note.startswith(f"type {size:g} pt (from 6 to 11.25 pt), 'die', "), note
    assert note.endswith(" moved to the front"), note
    pdf = tmp_path / "ref.pdf"
    pdf.write_bytes(out[".pdf"].data)
    assert [body for body, _, _ in card_type_sizes(pdf)] == [size, size]
    ctx, _ = localized(project_with(tmp_path, source), "pl")  # the page shows the faces the PDF prints
    front, back = ([s["id"] for s in face["sections"]] for face in ctx["faces"])
    assert front[:4] == ["rules", "setup", "turn", "die"] and back[-1] == "free" and front + back == [
        "rules", "setup", "turn", "die", "score", "ranking", "ladder", "free"]


@pytest.mark.integration
def test_type_below_seven_points_is_a_warning_and_labels_only_when_asked(tmp_path):
    source = DEMO_CARD.replace("text: Dowolny tekst.", f"text: {long_text(75)}")
    out = render(project_with(tmp_path, source))
    size = out[".pdf"].fitted[""]
    assert 6 <= size < 7
    assert out[".pdf"].warnings == [
        f"card 'ref' (pl) fits only at {size:g} pt, below the 7 pt that reads at arm's length: "
        "shorten its text, or give the card more room"]
    pdf = tmp_path / "ref.pdf"
    pdf.write_bytes(out[".pdf"].data)
    assert "Tył" not in PdfReader(pdf).pages[1].extract_text()
    labelled = render(project_with(tmp_path, DEMO_CARD.replace("font_size: 9\n", "font_size: 9\nface_labels: true\n")))
    pdf.write_bytes(labelled[".pdf"].data)
    assert "Tył" in PdfReader(pdf).pages[1].extract_text()


def test_max_font_size_below_the_designed_size_is_an_error(tmp_path):
    with pytest.raises(AidsError) as info:
        render(project_with(tmp_path, DEMO_CARD.replace("font_size: 9\n", "font_size: 9\nmax_font_size: 8\n")))
    assert "games/demo/card.yaml:7:16: max_font_size 8 is below font_size 9 (expected: at least 9)" in str(info.value)


def test_text_past_the_minimum_fails_naming_card_face_language_section_and_size(tmp_path):
    source = DEMO_CARD.replace("text: Dowolny tekst.", f"text: {long_text(200)}")
    with pytest.raises(AidsError) as info:
        render(project_with(tmp_path, source), "pl")
    assert str(info.value) == ("games/demo/card.yaml:76:5: card 'ref', face back, language pl: section 'free' "
                               "does not fit even at the minimum size of 6 pt (all of it fits at 4 pt at most) (expected: "
                               "shorter text, a larger card, more columns or a smaller min_font_size)")
    with pytest.raises(AidsError) as info:  # a little too long: the size it would need is named
        render(project_with(tmp_path, source.replace("min_font_size: 6", "min_font_size: 8").replace(
            long_text(200), long_text(60))), "pl")
    assert re.fullmatch(r"games/demo/card.yaml:76:5: card 'ref', face back, language pl: section 'free' does not "
                        r"fit even at the minimum size of 8 pt \(all of it fits at [67](\.\d+)? pt at most\) "
                        r"\(expected: .*\)", str(info.value)), str(info.value)


@pytest.mark.integration
def test_failing_card_writes_nothing_and_keeps_previous_outputs(tmp_path, capsys):
    root = project_with(tmp_path)
    assert main(["--project", str(root), "build", "--lang", "pl"]) == 0
    assert "  11.25\n" in capsys.readouterr().out  # the summary's fitted type size, one for both faces
    before = built_files(root / "build")
    assert len(before) == 4  # html, card, sheet, duplex test page
    (root / "games/demo/card.yaml").write_text(DEMO_CARD.replace("text: Dowolny tekst.", f"text: {long_text(200)}"),
                                               encoding="utf-8")
    assert main(["--project", str(root), "build", "--lang", "pl"]) == 1
    assert "section 'free' does not fit" in capsys.readouterr().err
    assert built_files(root / "build") == before


def test_a_character_the_fonts_lack_is_refused(tmp_path):
    with pytest.raises(AidsError) as info:
        render(project_with(tmp_path, DEMO_CARD.replace("glyph: ★", "glyph: ⛭")))
    assert "section 'die': no glyph for '⛭' (U+26ED) in the card fonts" in str(info.value)
    assert str(info.value).startswith("games/demo/card.yaml:35:5: card 'ref', language pl")


# --- the print sheet ---------------------------------------------------------------------------

def layout_of(tmp_path, size, sheet):
    source = DEMO_CARD.replace("size: A6", f"size: {size}").replace("sheet: {paper: A4, gutter: 4}", f"sheet: {sheet}")
    aid, _, _ = read(project_with(tmp_path, source))
    return card_sheet.sheet_layout(aid.model)


@pytest.mark.parametrize("size, sheet, count, paper", [
    ("poker", "{paper: A4, gutter: 5}", 9, (210, 297)),      # 3 x 3 upright
    ("A6", "{paper: A4, gutter: 4}", 2, (297, 210)),          # 148 + 4 + 148 > 297 upright: the paper turns... 2 across
    ("A5", "{paper: A4, gutter: 0}", 2, (297, 210)),          # two A5 fill A4 exactly
    ("A5", "{paper: A4, gutter: 1}", 2, (297, 210)),
    ("A5", "{paper: A4, gutter: 2}", 1, (210, 297)),          # no room for a wider gutter: one card
    ("poker", "{paper: Letter, gutter: 5}", 9, (215.9, 279.4)),
])
def test_sheet_holds_as_many_cards_as_fit(tmp_path, size, sheet, count, paper):
    layout = layout_of(tmp_path, size, sheet)
    mm = PT_PER_MM
    assert len(layout.positions) == count
    assert (round(layout.paper[0] / mm, 1), round(layout.paper[1] / mm, 1)) == paper
    cw, ch = layout.card
    for x, y in layout.positions:  # every card on the paper
        assert -0.01 <= x and x + cw <= layout.paper[0] + 0.01 and -0.01 <= y and y + ch <= layout.paper[1] + 0.01
    for (x1, y1), (x2, y2) in zip(layout.positions, layout.positions[1:]):  # none overlaps the next
        assert abs(x1 - x2) >= cw - 0.01 or abs(y1 - y2) >= ch - 0.01


def test_backs_are_mirrored_for_duplex(tmp_path):
    layout = layout_of(tmp_path, "poker", "{paper: A4, gutter: 5}")
    mm = PT_PER_MM
    fronts = [(round(x / mm, 2), round(y / mm, 2)) for x, y in layout.positions]
    backs = [(round(x / mm, 2), round(y / mm, 2)) for x, y in layout.backs()]
    assert fronts[:3] == [(5.5, 197.5), (73.5, 197.5), (141.5, 197.5)]  # gutter 5 mm, block centred
    assert backs[:3] == [(141.5, 197.5), (73.5, 197.5), (5.5, 197.5)]  # the back of card 1 lies behind card 1


# --- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("old, new, message", [
    ("kind: legend", "kind: legends",
     "card.yaml:36:11: unknown section kind 'legends' (expected: rules, steps, legend, scoring, ranking, ladder, text, "
     "table)"),
    ("    face: back\n    items:\n      - id: star", "    face: side\n    items:\n      - id: star",
     "card.yaml:37:11: section 'die' is on face 'side', which this card does not have (expected: front, back)"),
    ("size: A6", "size: 20x12",
     "card.yaml:5:7: card 20 × 12 mm cannot fit a single line of text at 6 pt within 5 mm margins "
     "(expected: a card of at least 23 × 15 mm)"),
    ("points: -3", "points: minus trzy",
     "card.yaml:51:17: points 'minus trzy' is not a number (expected: a number such as 30, -3, 2.5 or \"+30\")"),
    ("points: 30\n", "points: trzydzieści\n",
     "card.yaml:48:17: points 'trzydzieści' is not a number (expected: a number such as 30, -3, 2.5 or \"+30\")"),
    ("points: 30\n", 'points: "+trzydzieści"\n', "card.yaml:48:17: points '+trzydzieści' is not a number"),
    ("points: 30\n", "points: .nan\n", "card.yaml:48:17: points 'nan' is not a number"),
    ("points: 30\n", "points: 1e400\n", "card.yaml:48:17: points 'inf' is not a number"),
    ("title: Karta\n", "title: [a, b]\n", "card.yaml:3:8: 'title' must be text, not a list"),
    ("subtitle: Dla sędziego", "subtitle: {a: 1}", "card.yaml:4:11: 'subtitle' must be text, not a mapping"),
    ("text: pierwsze przewinienie", "text: [a]", "card.yaml:72:15: 'text' must be text, not a list"),
    ("penalty: Ostrzeżenie", "penalty: {a: b}", "card.yaml:71:18: 'penalty' must be text, not a mapping"),
    ("    title: Zasady\n", "    title: [Zasady]\n", "card.yaml:13:12: 'title' must be text, not a list"),
    ("  role: Sędzia", "  role: [Sędzia]", "card.yaml:83:9: 'role' must be text, not a list"),
    ("points: 3\n", "points: 2.5\n", "card.yaml:58:17: ranking points '2.5' are not a whole number"),
    ("size: A6", "size: B7", "card.yaml:5:7: unknown card size 'B7' (expected: A7, A6, A5, A4, poker, bridge, tarot"),
    ("{num:2.5}", "{num:dwa}", "card.yaml:32:22: 'dwa' in {num:dwa} is not a number"),
    ("{date:1920-08-11}", "{date:1920-13-11}", "card.yaml:25:33: '1920-13-11' in {date:1920-13-11} is not a date"),
    ("{num:2.5}", "{ref:x}", "card.yaml:32:22: unknown placeholder '{ref:x}'"),
    ("      - id: b\n", "      - id: a\n", "duplicate item id 'a' (first used on line 22)"),
    ("    numbering: upper\n", "    numbering: roman\n", "numbering 'roman' does not apply here"),
    ("faces: [front, back]\n", "", ""),
])
def test_bad_input_is_reported_with_its_position(tmp_path, old, new, message):
    if not message:  # faces: a card declared with only a front
        source = DEMO_CARD.replace("size: A6", "size: A6\nfaces: [front]")
        message = "section 'die' is on face 'back', which this card does not have (expected: front)"
    else:
        assert old in DEMO_CARD
        source = DEMO_CARD.replace(old, new, 1)
    assert message in error_of(tmp_path, source)


@pytest.mark.integration
def test_bad_card_exits_non_zero_and_writes_nothing(tmp_path):
    root = project_with(tmp_path, DEMO_CARD.replace("kind: legend", "kind: legends"))
    assert main(["--project", str(root), "build"]) == 1
    assert not (root / "build").exists() or not any((root / "build").rglob("*.pdf"))


@pytest.mark.integration
def test_back_offset_is_two_distances_in_mm(tmp_path):
    source = DEMO_CARD.replace("sheet: {paper: A4, gutter: 4}", "sheet: {paper: A4, gutter: 4, back_offset: [20, x]}")
    with pytest.raises(AidsError) as info:
        render(project_with(tmp_path, source))
    assert "games/demo/card.yaml:8:44: back_offset [20, 'x'] is not two distances in mm" in str(info.value)
    fine = render(project_with(tmp_path, DEMO_CARD.replace("gutter: 4}", "gutter: 4, back_offset: [0.5, -1]}")))
    assert fine["-duplex-test.pdf"].notes == ["duplex test page, backs moved by (0.5, -1.0) mm"]
