"""The GCACW system rules as a reader gets them in every language: contents, references, bookmarks, figures."""
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader

from aids.localize import making

from ..helpers import page_sizes_mm, pdf_fonts

LANGS = ["pl", "en", "ru"]
GAME, AID = "gcacw", "system-rules"
SECTIONS = ["1", "2", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "3", "4", "4.1", "4.2", "4.3", "4.4",
            "5", "5.1", "5.2"]
STRENGTH = [("RTG", 17), ("SIV", 8), ("OTR", 21), ("BAC", 14), ("AGA", 7), ("AIO", 16), ("HSN", 11)]
OTHERS = {"pl": "pozostałe", "en": "all others", "ru": "остальные"}
PAGE = {"pl": "s.", "en": "p.", "ru": "с."}
SEE = {"pl": "patrz", "en": "see", "ru": "см."}


def pdf_of(project, lang) -> Path:
    return project.output / GAME / lang / f"{AID}.pdf"


def pages_text(project, lang) -> list[str]:
    return [page.extract_text() for page in PdfReader(pdf_of(project, lang)).pages]


def bookmarks(project, lang) -> list[tuple[int, str, int]]:
    """(depth, title, 1-based page) of every bookmark, in order."""
    reader = PdfReader(pdf_of(project, lang))
    out = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                out.append((depth, item.title, reader.get_destination_page_number(item) + 1))
    walk(reader.outline, 0)
    return out


def contents(project, lang) -> list[tuple[str, str, int]]:
    """(number, title, page) of every line of the table of contents."""
    lines = pages_text(project, lang)[1].splitlines()
    entries = [re.match(r"(\d+(?:\.\d+)*) (.+?) ?\.{3,} ?(\d+)$", line) for line in lines]
    return [(m.group(1), m.group(2), int(m.group(3))) for m in entries if m]


def test_booklet_built_in_every_language_without_warnings_or_fallbacks(sample):
    project, summary = sample
    built = [b for b in summary.built if b.game == GAME and b.aid == AID]
    assert sorted(f for b in built for f in b.files) == sorted(
        f"build/{GAME}/{lang}/{AID}.{ext}" for lang in LANGS for ext in ("html", "pdf", "epub"))
    assert [w for b in built for w in b.warnings] == []
    assert {k: v for k, v in summary.fallbacks.items() if k[0] == GAME} == {}
    assert all(10 <= b.pages <= 14 for b in built), [b.pages for b in built]


@pytest.mark.parametrize("lang", LANGS)
def test_contents_pages_are_where_the_sections_start(sample, lang):
    project, _ = sample
    toc = contents(project, lang)
    assert [number for number, _, _ in toc] == SECTIONS  # the same numbers in every language
    texts = pages_text(project, lang)
    marks = {title.split(" ", 1)[0]: page for depth, title, page in bookmarks(project, lang)}
    for number, title, page in toc:
        assert marks[number] == page, (number, title)
        heading = re.compile(rf"^\s*{re.escape(number)}\s+{re.escape(title[:12])}", re.M)
        assert heading.search(texts[page - 1]), (number, title, page)


@pytest.mark.parametrize("lang", LANGS)
def test_bookmarks_for_every_section_nested_by_level(sample, lang):
    marks = bookmarks(sample[0], lang)
    assert [title.split(" ", 1)[0] for _, title, _ in marks] == SECTIONS
    assert [depth for depth, _, _ in marks] == [n.count(".") for n in SECTIONS]


@pytest.mark.parametrize("lang", LANGS)
def test_references_print_the_target_number_and_its_page(sample, lang):
    project, _ = sample
    text = re.sub(r"\s+", " ", "\n".join(pages_text(project, lang)))
    starts = {title.split(" ", 1)[0]: page for _, title, page in bookmarks(project, lang)}
    assert len(re.findall(rf"{re.escape(SEE[lang])} \d", text)) == 5 + 3  # the booklet's and its sequence's
    refs = re.findall(rf"(\d+(?:\.\d+)*), {re.escape(PAGE[lang])} (\d+)", text)
    assert sorted(number for number, _ in refs) == ["2.4", "2.5", "3", "4", "4.1", "4.2", "4.3", "4.4", "5.1", "5.2"]
    for number, page in refs:
        assert starts[number] == int(page), (number, page)


@pytest.mark.parametrize("lang", LANGS)
def test_strength_table_every_figure(sample, lang):
    lines = [re.sub(r"\s+", " ", line).strip() for page in pages_text(sample[0], lang) for line in page.splitlines()]
    start = next(i for i, line in enumerate(lines) if line == "RTG 17")
    assert lines[start:start + 8] == [f"{game} {value}" for game, value in STRENGTH] + [f"{OTHERS[lang]} 8"]


@pytest.mark.parametrize("lang, version, date, footer, years", [
    ("pl", "Wersja 1.4", "5 kwietnia 2023", "Strona 1 z ", "1863 i 1864"),
    ("en", "Version 1.4", "5 April 2023", "Page 1 of ", "1863 and 1864"),
    ("ru", "Версия 1.4", "5 апреля 2023", "Страница 1 из ", "1863 и 1864"),
])
def test_title_page_version_date_and_running_footer(sample, lang, version, date, footer, years):
    texts = [" ".join(t.split()) for t in pages_text(sample[0], lang)]  # non-breaking spaces read as spaces
    assert version in texts[0] and date in texts[0]
    assert ("Tłumaczenie: Michał Pielaszkiewicz" in texts[0]) == (lang == "pl")  # credited where it is his text
    assert footer not in texts[0]  # the title page has no header or footer
    assert f"{footer.replace(' 1 ', ' 3 ')}{len(texts)}" in texts[2]
    abbreviations = re.sub(r"\s+", " ", "\n".join(texts))
    assert "OTA" not in abbreviations and "1963" not in abbreviations and "1964" not in abbreviations
    assert years in abbreviations  # the seed's slip (1963/1964) is fixed, in this language's words


@pytest.mark.parametrize("lang, allowance, restricted", [
    ("pl", "Jej liczba punktów ruchu (MA) zależy", "ograniczona strefa kontroli (Restricted ZOC)"),
    ("en", "Its movement allowance (MA) depends", "restricted zone of control."),
    ("ru", "Её запас движения (MA) зависит", "ограниченная зона контроля (Restricted ZOC)"),
])
def test_terms_on_first_use_say_only_what_their_name_does_not(sample, lang, allowance, restricted):
    html = (sample[0].output / GAME / lang / f"{AID}.html").read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert allowance in text and "movement allowance)" not in text
    assert restricted in text


@pytest.mark.parametrize("lang", LANGS)
def test_pdf_fonts_embedded_page_size_and_words_rejoined(sample, lang):
    path = pdf_of(sample[0], lang)
    fonts = pdf_fonts(path)
    assert fonts and all(fonts.values()) and all("+Aids-" in name for name in fonts), fonts
    assert any("Serif" in name for name in fonts)
    assert set(page_sizes_mm(path)) == {(210.0, 297.0)}
    assert PdfReader(path).trailer["/Root"]["/Lang"] == lang
    assert "\u2010" not in "".join(pages_text(sample[0], lang))  # hyphenate-character "-", not U+2010
    reader = PdfReader(path)
    links = [a.get_object() for page in reader.pages for a in page.get("/Annots") or []
             if a.get_object().get("/Subtype") == "/Link"]
    assert len(links) >= len(SECTIONS) + 10  # every contents entry and every reference is a link
    assert all("/Dest" in link or "/A" in link for link in links)


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs, self.tags, self.classes = [], [], [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        self.classes.extend((attrs.get("class") or "").split())
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "a" and (attrs.get("href") or "").startswith("#"):
            self.hrefs.append(attrs["href"][1:])


@pytest.mark.parametrize("lang", LANGS)
def test_html_contents_anchors_and_boxes(sample, lang):
    page = Page()
    page.feed((sample[0].output / GAME / lang / f"{AID}.html").read_text(encoding="utf-8"))
    # the site's own only: the language switcher's, the search box's loader, and the version switcher's note of an
    # old number with its data (aids/site/archive_pages.py)
    assert page.tags.count("script") <= 4
    assert len(page.ids) == len(set(page.ids)), "every anchor unique"
    assert set(SECTIONS) <= set(page.ids) and {"zoc", "march", "leader-activation"} <= set(page.ids)
    assert set(page.hrefs) <= set(page.ids)
    assert page.hrefs.count("zoc") >= 2  # the contents and a reference
    for kind in ("example", "note", "optional", "designer", "exception"):
        assert f"box-{kind}" in page.classes
    assert "abbreviations" in page.classes and "embed-sequence" in page.classes


@pytest.mark.parametrize("lang, title", [("pl", "Zasady systemowe"), ("en", "Standard Series Rules"),
                                         ("ru", "Общие правила серии")])
def test_running_header_names_the_booklet_and_the_current_section(sample, lang, title):
    texts = pages_text(sample[0], lang)
    starts = [(page, title_.split(" ", 1)[0]) for _, title_, page in bookmarks(sample[0], lang)]
    for page in range(3, len(texts) + 1):
        on_page = [number for start, number in starts if start == page]
        current = on_page[0] if on_page else [number for start, number in starts if start < page][-1]
        header = re.compile(rf"{re.escape(title)} {re.escape(current)} \S")
        assert header.search(re.sub(r"\s+", " ", texts[page - 1])), (page, current)


def test_same_sources_same_bytes(sample):
    from aids.kinds import reading
    from aids.pipeline import jobs
    project, _ = sample
    game = project.read_game(GAME)
    aids, _ = reading.read_aids(project, game)
    booklet = next(aid for aid in aids if aid.model.id == AID)
    again = jobs.render_aid(project, game, booklet, making.localizer(project, game, "ru"), None, ["html", "pdf"])
    assert again[".pdf"].data == pdf_of(project, "ru").read_bytes()
    assert again[".html"].data == (project.output / GAME / "ru" / f"{AID}.html").read_bytes()
