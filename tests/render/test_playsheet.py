"""The Newbury fast-play playsheet as a reader gets it: every casualty figure per language, pages, editions, HTML."""
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from aids.config import read_project
from aids.kinds import reading
from aids.localize import making
from aids.pipeline import builder, jobs, pipeline
from aids.translating import translations

from ..helpers import REPO, copy_project, page_sizes_mm, pdf_fonts, pdf_text

LANGS = ["pl", "en", "ru"]
EDITIONS = ["cm", "inch"]
GAME = "newbury-fast-play"
SEED = Path(__file__).parent / "data" / "newbury-casualties.txt"  # the seed's casualty table, as extracted
NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
TURN = {"pl": "Kolejność tury", "en": "Turn sequence", "ru": "Порядок хода"}
DECIMAL = {"pl": ",", "en": ".", "ru": ","}


def pdf_of(project, edition, lang) -> Path:
    return project.output / GAME / edition / lang / "playsheet.pdf"


def html_of(project, edition, lang) -> Path:
    return project.output / GAME / edition / lang / "playsheet.html"


def seed_casualties() -> list[list[str]]:
    """Header numbers, then per row its key, its figures (decimal comma) and its key again: what is printed."""
    lines = [ln for ln in SEED.read_text(encoding="utf-8").splitlines() if ln.startswith("|") and "---" not in ln]
    header, rows = lines[0], lines[1:]
    out = [[c.strip() for c in header.strip("|").split("|") if c.strip()]]
    for line in rows:
        out.append([c.strip() for c in line.strip().strip("|").split("|") if c.strip()])
    return out


@pytest.mark.unit
def test_seed_table_is_35_by_22():
    rows = seed_casualties()
    assert rows[0] == [str(n) for n in range(1, 21)] and len(rows) == 36
    assert all(r[0] == r[-1] == str(n) for n, r in enumerate(rows[1:], start=1))
    assert sum(len(r) - 2 for r in rows[1:]) == 22 * 35 - 64  # 64 blank cells in the top rows


def test_twelve_files_no_warning_no_fallback(sample):
    project, summary = sample
    built = [b for b in summary.built if b.game == GAME]
    assert sorted(f for b in built for f in b.files) == sorted(
        f"build/{GAME}/{ed}/{lang}/playsheet.{ext}" for ed in EDITIONS for lang in LANGS for ext in ("html", "pdf"))
    assert [w for b in built for w in b.warnings] == []
    assert not [k for k in summary.fallbacks if k[0] == GAME]
    assert {b.edition for b in built} == set(EDITIONS)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("lang", LANGS)
def test_within_the_page_budget_on_a4_landscape_with_package_fonts(sample, edition, lang):
    pdf = pdf_of(sample[0], edition, lang)
    assert page_sizes_mm(pdf) in ([(297.0, 210.0)], [(297.0, 210.0)] * 2)
    fonts = pdf_fonts(pdf)
    assert fonts and all(fonts.values()) and all("+Aids-" in name for name in fonts), fonts
    assert any("Condensed" in name for name in fonts)


@pytest.mark.parametrize("lang", LANGS)
def test_every_casualty_figure_in_order_and_locale_format(sample, lang):
    text = pdf_text(pdf_of(sample[0], "cm", lang))
    lines = text.splitlines()
    header = lines.index(" ".join(str(n) for n in range(1, 21)))
    end = next(i for i, line in enumerate(lines) if line.startswith(TURN[lang]))
    printed = [NUMBER.findall(line) for line in lines[header:end]]
    expected = [[cell.replace(",", DECIMAL[lang]) for cell in row] for row in seed_casualties()]
    assert printed == expected
    figures = [n for row in printed[1:] for n in row[1:-1]]
    assert len(figures) == 22 * 35 - 64 and all(("," in n) == (lang != "en") for n in figures)


class Cells(HTMLParser):
    """Rows of the casualty table from the HTML: (tag, scope, text) per cell."""

    def __init__(self, table_id):
        super().__init__()
        self.table_id, self.inside, self.rows, self.captions, self.scopes = table_id, False, [], [], []
        self.cell = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.inside = attrs.get("id") == self.table_id
        if tag == "th":
            self.scopes.append(attrs.get("scope"))
        if self.inside and tag == "tr":
            self.rows.append([])
        if self.inside and tag in ("td", "th"):
            self.cell = [tag, attrs.get("scope"), ""]
        if tag == "caption":
            self.captions.append("")

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[2] += data
        elif self.captions and self.captions[-1] == "":
            self.captions[-1] = data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(tuple(self.cell))
            self.cell = None
        if tag == "table":
            self.inside = False


def test_html_cells_in_their_columns_with_semantic_headers(sample):
    page = Cells("casualties")
    page.feed(html_of(sample[0], "cm", "en").read_text(encoding="utf-8"))
    title, body = page.rows[0], page.rows[3:]
    assert title == [("th", "colgroup", "Casualty table")]  # repeated, printed, where the table continues
    assert len(body) == 35 and all(len(r) == 24 for r in body)
    assert body[0][0] == ("th", "row", "1") and body[0][-1] == ("th", "row", "1")
    assert [c[2] for c in body[0][1:-1]] == [""] * 21 + ["0.1"]  # row 1: its one figure in the last column
    assert [c[2] for c in body[34][1:4]] == ["1.7", "3.4", "5.0"]
    assert None not in page.scopes and "colgroup" in page.scopes
    assert len(page.captions) == 16


@pytest.mark.parametrize("lang, movement, charge", [
    ("pl", "Ciężka kawaleria 13 19 16 25,5", "Kawaleria 3 cale"),
    ("en", "Heavy cavalry 13 19 16 25.5", "Cavalry 3 in"),
    ("ru", "Тяжёлая кавалерия 13 19 16 25,5", "Кавалерия 3 дюйм."),
])
def test_inch_edition_shows_inches_everywhere(sample, lang, movement, charge):
    cm = re.sub(r"\s+", " ", pdf_text(pdf_of(sample[0], "cm", lang)))
    inch = re.sub(r"\s+", " ", pdf_text(pdf_of(sample[0], "inch", lang)))
    assert movement in inch and charge in inch
    assert not re.search(r"\d\s?(cm|см)\b", inch) and re.search(r"\d\s?(cm|см)\b", cm)
    assert len(re.findall(r"\b12 (in|cal|дюйм)", inch)) >= 10  # every 30 cm radius, band and label


def test_one_number_changed_changes_every_language_and_no_catalog(sample, tmp_path):
    project, _ = sample
    root = copy_project(project.root, tmp_path / "copy")  # built: the edit makes the playsheet alone stale
    source = root / "games" / GAME / "tables" / "casualties.yaml"
    source.write_text(source.read_text().replace("cells: [1.7, 3.4,", "cells: [1.7, 3.9,"))
    copy = read_project(root)
    summary = builder.build(copy, pipeline.Options(games=[GAME], editions=["cm"], formats=["html"]))
    assert not summary.failed
    assert sorted((b.aid, b.lang) for b in summary.built) == [("playsheet", lang) for lang in sorted(LANGS)]
    for lang in LANGS:
        before = html_of(project, "cm", lang).read_text(encoding="utf-8")
        after = html_of(copy, "cm", lang).read_text(encoding="utf-8")
        old, new = f">3{DECIMAL[lang]}4<", f">3{DECIMAL[lang]}9<"
        assert (after.count(old), after.count(new)) == (before.count(old) - 1, before.count(new) + 1)
        assert len(after) == len(before)
    assert translations.extract(copy, [GAME]) == [] and translations.update(copy, [GAME]) == []


@pytest.mark.unit
def test_no_table_value_in_the_catalog_template():
    pot = (REPO / "i18n" / "templates" / f"{GAME}.pot").read_text(encoding="utf-8")
    msgids = re.findall(r'^msgid "(.*)"', pot, re.M)
    assert len(msgids) > 200
    assert [m for m in msgids if re.search(r"\d", m)] == []


def test_same_sources_same_bytes(sample):
    project, _ = sample
    game = project.read_game(GAME)
    aids, _ = reading.read_aids(project, game)
    sheet = next(a for a in aids if a.model.id == "playsheet")
    inch = next(e for e in game.editions if e.id == "inch")
    again = jobs.render_aid(project, game, sheet, making.localizer(project, game, "ru"), inch, ["pdf"])
    assert again[".pdf"].data == pdf_of(project, "inch", "ru").read_bytes()


def test_summary_names_the_type_size_each_sheet_fitted_at(sample):
    notes = {b.notes[0] for b in sample[1].built if b.game == GAME}
    assert notes == {"type 7.5 pt (designed 7.5 pt, minimum 6.5 pt)"}


def test_an_edition_builds_the_games_that_have_it_and_skips_the_others(sample, tmp_path):
    project = read_project(copy_project(sample[0].root, tmp_path / "copy"))
    summary = builder.build(project, pipeline.Options(editions=["inch"], formats=["html"], force=True))
    assert not summary.failed
    editions = {game_id: [e.id for e in project.read_game(game_id).editions] for game_id in project.game_ids()}
    assert {(b.game, b.edition) for b in summary.built} == {(g, "inch") for g, ids in editions.items() if "inch" in ids}
    assert sorted(summary.skipped) == [f"{g}: no edition inch" for g, ids in sorted(editions.items())
                                       if "inch" not in ids]
    assert (GAME, "inch") in {(b.game, b.edition) for b in summary.built} and summary.skipped


class Tables(HTMLParser):
    """Each table of a page as (title, row labels): the caption before its intro, each body row's first cell."""

    def __init__(self):
        super().__init__()
        self.tables, self.field, self.depth = [], None, 0

    def handle_starttag(self, tag, attrs):
        self.depth += tag == "svg"  # inside an icon: its <title> names it, it is not printed text
        if tag == "table":
            self.tables.append(["", []])
        elif tag == "caption":
            self.field = "caption"
        elif tag in ("span", "a") and self.field == "caption":
            self.field = None  # the intro, the link to copy: not part of the title
        elif tag == "tbody":
            self.field = "body"
        elif tag == "tr" and self.field == "body":
            self.tables[-1][1].append(None)
        elif tag in ("th", "td") and self.field == "body" and self.tables[-1][1][-1] is None:
            self.tables[-1][1][-1] = ""
            self.field = "cell"

    def handle_data(self, data):
        data = "" if self.depth else data.replace("\u2060", "")
        if self.field == "caption":
            self.tables[-1][0] += data
        elif self.field == "cell":
            self.tables[-1][1][-1] += data

    def handle_endtag(self, tag):
        self.depth -= tag == "svg"
        if tag in ("caption", "tbody"):
            self.field = None
        elif tag in ("th", "td") and self.field == "cell":
            self.field = "body"


def column_texts(pdf: Path, columns: int = 3) -> list[str]:
    """The text of each print column of each page, top to bottom, whitespace collapsed.

    pypdf's layout mode places every text run at its position on a grid of characters; the page's
    longest line runs from margin to margin (the footer), so column k starts at k/columns of it.
    """
    from pypdf import PdfReader
    out = []
    for page in PdfReader(pdf).pages:
        lines = page.extract_text(extraction_mode="layout").splitlines()
        width = max(len(line) for line in lines)
        cuts = [round(k * width / columns) for k in range(columns)] + [width]
        for k in range(columns):
            text = " ".join(line[cuts[k]:cuts[k + 1]] for line in lines)
            out.append(re.sub(r"\s+", " ", text).strip())
    return out


def first_word(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().split(" ")[0]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("lang", LANGS)
def test_no_table_title_apart_from_its_first_rows_and_short_tables_whole(sample, edition, lang):
    from aids.model.table import KEEP_WHOLE
    page = Tables()
    page.feed(html_of(sample[0], edition, lang).read_text(encoding="utf-8"))
    texts = column_texts(pdf_of(sample[0], edition, lang))
    titles = [re.sub(r"\s+", " ", t).strip() for t, _ in page.tables]
    assert len(titles) == 16

    def under(title: str, column: str) -> str:
        """The text under `title` in `column`, up to the next table's title (rows beyond are another table's)."""
        after = column[column.index(title) + len(title):]
        ends = [after.index(t) for t in titles if t != title and t in after]
        return after[:min(ends)] if ends else after

    def in_order(rows: list[str], text: str) -> bool:
        return bool(re.search(".*?".join(re.escape(first_word(r)) for r in rows), text))

    for title, rows in page.tables:
        title = re.sub(r"\s+", " ", title).strip()
        fragments = [under(title, text) for text in texts if title in text]  # a continued table repeats it
        assert fragments, title
        kept = rows if len(rows) <= KEEP_WHOLE else rows[:3]
        assert in_order(kept, fragments[0]), (title, [first_word(r) for r in kept], fragments[0][:300])
        # the last fragment, under its repeated title, holds at least the last two rows
        assert in_order(rows[-2:], fragments[-1]), (title, [first_word(r) for r in rows[-2:]], fragments[-1][:300])
