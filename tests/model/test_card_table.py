"""A referee card embedding table aids of its game: locale numbers and editions in the PDF, fonts, spans,
repeated headers, fitting, the HTML table, escaping, and a bad table id with its position."""
import re
from html.parser import HTMLParser

import pytest
from pypdf import PdfReader

from aids.commands.cli import main
from aids.config import read_project
from aids.errors import AidsError
from aids.kinds import reading
from aids.localize import making
from aids.pipeline import builder, jobs
from aids.render import card_pdf

from ..helpers import (
    DEMO_BANDS,
    DEMO_EDITIONS_GAME,
    DEMO_MODS,
    DEMO_MOVE,
    STANDARD_14,
    make_project,
    pdf_fonts,
    pdf_text,
    text_runs,
)

CARD = """\
kind: card
id: ref
title: Karta
size: A6
font_size: 9
min_font_size: 6
sections:
  - {id: setup, kind: steps, face: front, title: Przygotowanie, items: [{id: one, text: Rozłóż *żetony*.}]}
  - {id: board, kind: text, face: front, items: [{id: one, text: Plansza leży między graczami.}]}
  - id: moves
    kind: table
    face: front
    title: Ruch wojsk
    table: move
  - id: firing
    kind: table
    face: front
    table: fire
  - id: modifiers
    kind: table
    face: back
    table: mods
    note: Patrz też wyniki.
  - id: results
    kind: table
    face: back
    table: bands
"""

FIRE = """\
kind: table
id: fire
title: Ostrzał
corner: Kość
row_keys: both
unit: cm
type: distance
columns:
  - {id: near, key: 10 cm}
  - {id: far, key: 20 cm}
groups:
  - {label: "Od {q:start} do", with: {start: 0 cm}, from: near, to: far}
rows:
  - {key: 1, cells: [2.5, 1]}
  - {key: 2, cells: [4, "-"]}
"""

FILES = {
    "games/demo/game.yaml": DEMO_EDITIONS_GAME.replace("  - sheet.yaml\n", "  - card.yaml\n  - fire.yaml\n"),
    "games/demo/card.yaml": CARD, "games/demo/fire.yaml": FIRE, "games/demo/move.yaml": DEMO_MOVE,
    "games/demo/mods.yaml": DEMO_MODS, "games/demo/bands.yaml": DEMO_BANDS,
}
LANGS = ["pl", "en", "ru"]
TRANSLATED = "Far <b>away</b> & <font size=40>beyond"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The demo card built once, in both editions and every language, with one table label translated badly."""
    root = make_project(tmp_path_factory.mktemp("card-tables"), FILES)
    assert main(["--project", str(root), "extract"]) == 0 and main(["--project", str(root), "update"]) == 0
    po = root / "i18n/en/LC_MESSAGES/demo.po"
    entry = 'msgctxt "mods/far"\nmsgid "Daleko"\nmsgstr ""'
    assert entry in po.read_text(encoding="utf-8")
    po.write_text(po.read_text(encoding="utf-8").replace(entry, entry[:-2] + f'"{TRANSLATED}"'), encoding="utf-8")
    summary = builder.build(read_project(root))
    assert not summary.failed, summary.failed
    return root, summary


def out(root, edition, lang, suffix=".pdf"):
    return root / "build/demo" / edition / lang / f"ref{suffix}"


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_built_in_every_language_and_edition_without_warnings(built):
    _, summary = built
    cards = [b for b in summary.built if b.aid == "ref"]
    assert sorted((b.edition, b.lang) for b in cards) == sorted((e, lang) for e in ("cm", "inch") for lang in LANGS)
    assert all(b.warnings == [] and b.pages == 2 for b in cards)
    assert all(b.notes[0] == "type 11.25 pt (from 6 to 11.25 pt)" for b in cards)


@pytest.mark.parametrize("lang, words", [
    ("pl", ["Ruch (cm)", "Kawaleria 32 40", "Czworobok 4 –", "Piechota 20", "w promieniu 30 cm +1", "Daleko −2",
            "Każde 5% strat −1", "Straty 0,1", "Zwrot ½ ruchu", "8 i więcej uciekają", "4–7 stoją",
            "1 2,5 1 1", "2 4 – 2", "Od 0 cm do"]),
    ("en", ["Ruch (cm)", "Kawaleria 32 40", "Czworobok 4 –", "Piechota 20", "w promieniu 30 cm +1",
            "Far <b>away</b> & <font size=40>beyond −2", "Każde 5% strat −1", "Straty 0.1", "Zwrot ½ move",
            "8 and more uciekają", "1 2.5 1 1", "Od 0 cm do"]),
    ("ru", ["Ruch (см)", "Kawaleria 32 40", "Piechota 20", "w promieniu 30 см +1", "Daleko −2",
            "Każde 5 % strat −1", "Straty 0,1", "Zwrot ½ хода", "8 и более uciekają", "1 2,5 1 1", "Od 0 см do"]),
])
def test_table_sections_print_numbers_as_the_table_kind_formats_them(built, lang, words):
    text = squash(pdf_text(out(built[0], "cm", lang)))
    for word in words:
        assert word in text, word
    assert not re.search(r"(?<![\w-])-\d", text), "negative values take a true minus sign"


@pytest.mark.parametrize("lang, words", [
    ("pl", ["Kawaleria 13 16", "Czworobok 1,5 –", "w promieniu 12 cali +1", "1 1 0,5 1"]),
    ("en", ["Kawaleria 13 16", "Czworobok 1.5 –", "w promieniu 12 in +1", "1 1 0.5 1"]),
    ("ru", ["Kawaleria 13 16", "Czworobok 1,5 –", "w promieniu 12 дюйм. +1", "1 1 0,5 1"]),
])
def test_each_edition_converts_the_embedded_tables(built, lang, words):
    text = squash(pdf_text(out(built[0], "inch", lang)))
    for word in words:
        assert word in text, word


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("suffix", [".pdf", "-sheet.pdf"])
def test_only_the_package_fonts_embedded(built, lang, suffix):
    fonts = pdf_fonts(out(built[0], "cm", lang, suffix))
    assert fonts and all(fonts.values()), fonts
    assert not {name.lstrip("/").split("+")[-1] for name in fonts} & STANDARD_14
    assert all("DejaVuSans" in name for name in fonts), fonts


@pytest.mark.unit
def test_group_header_spans_its_columns():
    data, spans, blanks = card_pdf._grid([[("corner", 1, 2), ("group", 2, 1), (None, 1, 1)],
                                          [("10", 1, 1), ("20", 1, 1), ("", 1, 1)],
                                          [("1", 1, 1), ("2", 1, 1), ("3", 1, 1), ("1", 1, 1)]], 4)
    assert data == [["corner", "group", "", ""], ["", "10", "20", ""], ["1", "2", "3", "1"]]
    assert spans == [((0, 0), (0, 1)), ((1, 0), (2, 0))] and blanks == {(0, 3)}


class Tables(HTMLParser):
    """Per card section: its tables' captions, header cells (scope) and data cells (class)."""

    def __init__(self):
        super().__init__()
        self.section, self.open, self.found = None, None, {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        title = tag == "h2" and attrs.get("class") != "table-title"  # a table's own title is no section's
        if (tag == "section" or title) and attrs.get("id"):  # a section's id, on its heading if it has one
            self.section = attrs["id"]
            self.found[self.section] = {"caption": "", "th": [], "td": []}
        elif tag in ("caption", "th", "td") and self.section:
            self.open = tag
            if tag == "th":
                self.found[self.section]["th"].append(attrs.get("scope"))
            elif tag == "td":
                self.found[self.section]["td"].append(attrs.get("class"))

    def handle_endtag(self, tag):
        self.open = None if tag == self.open else self.open

    def handle_data(self, data):
        if self.open == "caption":
            self.found[self.section]["caption"] += data


def test_html_has_the_semantic_table_of_the_table_kind(built):
    html = out(built[0], "inch", "en", ".html").read_text(encoding="utf-8")
    page = Tables()
    page.feed(html)
    # the corner has no text: an empty cell, not a header; the caption ends in its link to copy (its gap a margin)
    assert page.found["moves"] == {"caption": "Ruch (inches)#", "th": ["colgroup", "col", "col", "row", "row"],
                                   "td": ["unlabelled key", "num", "num", "num", "num"]}
    assert page.found["firing"]["th"][:3] == ["colgroup", "col", "colgroup"]  # the title row (print), then the head
    assert '<th scope="colgroup" id="fire-g0" colspan="2">' in html and '<th scope="col" rowspan="2" class="key">' in html
    assert '<h2 id="moves">Ruch wojsk<a class="permalink" href="#moves"' in html and '<p class="note"><span lang="pl">Patrz też wyniki.</span></p>' in html
    assert "Far &lt;b&gt;away&lt;/b&gt; &amp; &lt;font size=40&gt;beyond" in html


# --- fitting and bad input ---------------------------------------------------------------------

def long_bands(rows: int) -> str:
    bands = "".join(f"  - {{id: b{n}, range: {n}, cells: [skutek numer {n} z długim opisem]}}\n"
                    for n in range(rows, 0, -1))
    return "kind: table\nid: bands\nform: bands\ntitle: Wyniki\ncorner: Wynik\ncolumns:\n" \
           "  - {id: result, label: Skutek}\nbands:\n" + bands


def render(root, lang="pl"):
    project = read_project(root)
    game = project.read_game("demo")
    aids, errors = reading.read_aids(project, game)
    assert not errors, errors
    card = next(a for a in aids if a.model.id == "ref")
    return jobs.render_aid(project, game, card, making.localizer(project, game, lang), game.editions[0], ["pdf"])


@pytest.mark.parametrize("lang, mark", [("pl", "(cd.)"), ("en", "(cont.)"), ("ru", "(продолж.)")])
def test_a_long_table_shrinks_the_card_and_continues_in_the_next_column_marked_so(tmp_path, lang, mark):
    source = CARD.replace("min_font_size: 6", "min_font_size: 6\ncolumns: 2").replace("size: A6", "size: A5")
    out_ = render(make_project(tmp_path, {**FILES, "games/demo/card.yaml": source,
                                          "games/demo/bands.yaml": long_bands(50)}), lang)
    size = out_[".pdf"].fitted[""]
    assert 6 <= size < 9, size
    pdf = tmp_path / "ref.pdf"
    pdf.write_bytes(out_[".pdf"].data)
    back = PdfReader(pdf).pages[1]
    text = squash(back.extract_text())
    assert text.count("Skutek") == 2  # the header row, again at the top of the second column
    assert "skutek numer 1 z" in text and "skutek numer 50 z" in text
    # the continuation, at the top of the second column, says it continues: the table's title and the mark
    width = float(back.mediabox.width)
    runs = text_runs(back)
    marked = [r for r in runs if mark in r[4]]
    assert len(marked) == 1 and marked[0][4].endswith(f"Wyniki {mark}") and marked[0][0] > width / 2, marked
    second = [r for r in runs if r[0] > width / 2]
    assert max(second, key=lambda r: r[1]) == marked[0]  # the first line of that column
    assert not [r for r in runs if mark in r[4] and r[0] < width / 2]  # nothing marked where the table starts


def test_a_table_too_narrow_for_its_words_shrinks_the_type_or_fails(tmp_path):
    two_columns = CARD.replace("min_font_size: 6", "min_font_size: 6\ncolumns: 2")
    out_ = render(make_project(tmp_path / "shrinks", {**FILES, "games/demo/card.yaml": two_columns}))
    size = out_[".pdf"].fitted[""]
    assert 6 <= size < 9  # at 9 pt "Czworobok", "normalny" and "szarża" need more than the column's width
    pdf = tmp_path / "ref.pdf"
    pdf.write_bytes(out_[".pdf"].data)
    assert "Kawaleria 32 40 Czworobok 4 –" in squash(PdfReader(pdf).pages[0].extract_text())  # no word broken
    no_room = two_columns.replace("min_font_size: 6", "min_font_size: 9")
    with pytest.raises(AidsError) as info:
        render(make_project(tmp_path / "fails", {**FILES, "games/demo/card.yaml": no_room}), "en")
    # the front took what it could hold, the back begins with the table that cannot be set at 9 pt
    assert str(info.value).startswith("games/demo/card.yaml:11:5: card 'ref', face back, language en: section "
                                      "'moves' has a table too narrow for its words even at the minimum size of 9 pt "
                                      "(all of it fits at "), str(info.value)


def test_a_table_past_the_minimum_fails_naming_card_face_language_section(tmp_path):
    root = make_project(tmp_path, {**FILES, "games/demo/bands.yaml": long_bands(300)})
    with pytest.raises(AidsError) as info:
        render(root, "ru")
    assert str(info.value) == ("games/demo/card.yaml:24:5: card 'ref', face back, language ru: section 'results' "
                               "does not fit even at the minimum size of 6 pt (not even at 4 pt) (expected: shorter "
                               "text, a larger card, more columns or a smaller min_font_size)")


def problems(root) -> list[str]:
    project = read_project(root)
    return [str(p) for e in reading.read_aids(project, project.read_game("demo"))[1] for p in e.problems]


@pytest.mark.parametrize("old, new, message", [
    ("table: mods", "table: modifiers",
     "games/demo/card.yaml:22:12: embedded table 'modifiers' does not exist (expected: bands, fire, mods, move)"),
    ("table: mods", "table: seq",
     "games/demo/card.yaml:22:12: aid 'seq' of kind 'sequence' cannot be embedded in a card "
     "(expected: a table: bands, fire, mods, move)"),
    ("    table: mods\n", "",
     "games/demo/card.yaml:19:5: table section 'modifiers' does not name a table "
     "(expected: table: <id of a table of this game>)"),
    ("    table: mods\n", "    table: mods\n    items: [{id: a, text: b}]\n",
     "games/demo/card.yaml:23:5: table section 'modifiers' has items"),
    ("kind: text, face", "kind: text, table: move, face",
     "games/demo/card.yaml:9:29: section 'board' of kind 'text' cannot name a table"),
])
@pytest.mark.unit
def test_a_bad_table_section_is_reported_at_its_position(tmp_path, old, new, message):
    assert old in CARD
    files = {**FILES, "games/demo/card.yaml": CARD.replace(old, new, 1),
             "games/demo/game.yaml": FILES["games/demo/game.yaml"] + "  - sequence.yaml\n"}
    found = problems(make_project(tmp_path, files))
    assert any(p.startswith(message) for p in found), found


@pytest.mark.unit
def test_a_card_naming_a_broken_table_does_not_call_it_unknown(tmp_path):
    found = problems(make_project(tmp_path, {**FILES, "games/demo/move.yaml": DEMO_MOVE.replace("[4, ", "[4, 5, ")}))
    assert "games/demo/card.yaml:14:12: table 'move' has errors (reported above) (expected: the table fixed first)" \
        in found
