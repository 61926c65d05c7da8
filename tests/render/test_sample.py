"""The Ostrołęka sequence of play as a reader gets it, in every language: PDF text, fonts, pages, links, HTML."""
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader

from aids.localize.catalogs import po_path, read_catalog, translations_of
from aids.source.yamlfile import read_yaml

from ..helpers import REPO, page_sizes_mm, pdf_fonts, pdf_text, rerender

LANGS = ["pl", "en", "ru"]
GAME = "ostroleka-1831"


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def pdf_of(project, lang) -> Path:
    return project.output / GAME / lang / "sequence-of-play.pdf"


def html_of(project, lang) -> Path:
    return project.output / GAME / lang / "sequence-of-play.html"


def phase_titles(lang: str) -> list[str]:
    phases = read_yaml(REPO / "games" / GAME / "sequence.yaml").data["phases"]
    if lang == "pl":
        return [str(p["title"]) for p in phases]
    catalog = translations_of(read_catalog(po_path(REPO / "i18n", lang, GAME), lang))
    return [catalog[(f"sequence-of-play/{p['id']}", str(p["title"]))][0] for p in phases]


def test_six_files_and_no_renderer_warning(sample):
    project, summary = sample
    built = [b for b in summary.built if b.game == GAME]
    assert sorted(f for b in built for f in b.files) == sorted(
        f"build/{GAME}/{lang}/sequence-of-play.{ext}" for lang in LANGS for ext in ("html", "pdf", "epub"))
    assert [w for b in built for w in b.warnings] == []
    assert {k: v for k, v in summary.fallbacks.items() if k[0] == GAME} == {}, "every string of the sample is translated"


@pytest.mark.parametrize("lang", LANGS)
def test_pdf_holds_every_phase_with_its_number(sample, lang):
    text = squash(pdf_text(pdf_of(sample[0], lang)))
    titles = phase_titles(lang)
    assert titles
    for n, title in enumerate(titles, start=1):
        assert f"3.2.{n} {title}" in text


@pytest.mark.parametrize("lang, ref, see, date", [
    ("pl", "3.2.4, krok 3", "patrz 18.0", "29 lutego 2020"),
    ("en", "3.2.4, step 3", "see 18.0", "29 February 2020"),
    ("ru", "3.2.4, шаг 3", "см. 18.0", "29 февраля 2020"),
])
def test_references_and_date_localized(sample, lang, ref, see, date):
    text = squash(pdf_text(pdf_of(sample[0], lang)))
    assert ref in text and see in text and date in text
    # a reference is never broken across lines
    lines = [squash(line) for line in pdf_text(pdf_of(sample[0], lang)).splitlines()]
    assert all(ref in line for line in lines if ref.split(",")[0] + "," in line.split()[-1:])
    assert "1.1" in text


def test_sub_step_letters_follow_the_language(sample):
    def labels(lang):
        lines = pdf_text(pdf_of(sample[0], lang)).splitlines()
        return [m.group(1) for line in lines if (m := re.match(r"\s*([a-zа-я])\. ", line))]
    ru, en = labels("ru"), labels("en")
    assert ru[:4] == ["а", "б", "в", "а"]
    assert not any("a" <= ch <= "z" for ch in ru if ch not in "ivx")  # roman i., ii. stay Latin
    assert en[:4] == ["a", "b", "c", "a"]
    assert "3.2.3, шаг 2.в" in squash(pdf_text(pdf_of(sample[0], "ru")))


@pytest.mark.parametrize("lang", LANGS)
def test_pdf_fonts_are_the_package_fonts_embedded(sample, lang):
    fonts = pdf_fonts(pdf_of(sample[0], lang))
    assert fonts and all(fonts.values()), fonts
    assert all("+Aids-" in name for name in fonts), fonts  # subset of the shipped fonts, nothing from the system


@pytest.mark.parametrize("lang, title", [
    ("pl", "Ostrołęka 26 maja 1831 – Kolejność czynności w etapie"),
    ("en", "Ostrołęka, 26 May 1831 – Game Turn Sequence of Play"),
    ("ru", "Остроленка, 26 мая 1831 года — Последовательность хода"),
])
def test_pdf_document_properties(sample, lang, title):
    reader = PdfReader(pdf_of(sample[0], lang))
    assert set(page_sizes_mm(pdf_of(sample[0], lang))) == {(210.0, 297.0)}
    assert reader.trailer["/Root"]["/Lang"] == lang
    assert reader.metadata["/CreationDate"].startswith("D:20200229")  # the game's publication date
    assert " ".join(reader.metadata.title.split()) == title  # the game and the aid, in the reader's language
    outline = reader.outline
    flat = [item for item in outline if not isinstance(item, list)] + \
           [item for sub in outline if isinstance(sub, list) for item in sub]
    assert len(flat) == 1 + len(phase_titles(lang))  # the sequence, then one bookmark per phase nested under it
    links = [a.get_object() for page in reader.pages for a in page.get("/Annots") or []
             if a.get_object().get("/Subtype") == "/Link"]
    assert len(links) >= 20 + 6  # step references and the six mirrors
    last, pages = reader.pages[-1].extract_text(), len(reader.pages)
    assert {"pl": f"Strona {pages} z {pages}", "en": f"Page {pages} of {pages}",
            "ru": f"Страница {pages} из {pages}"}[lang] in " ".join(last.split())


class Anchors(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs, self.tags, self.lang = set(), [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if tag == "html":
            self.lang = attrs.get("lang")
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href", "").startswith("#"):
            self.hrefs.append(attrs["href"][1:])


@pytest.mark.parametrize("lang", LANGS)
def test_html_structure_and_links(sample, lang):
    page = Anchors()
    page.feed(html_of(sample[0], lang).read_text(encoding="utf-8"))
    assert page.lang == lang
    # the site's own only: the language switcher's, the search box's loader, and the version switcher's note of an
    # old number with its data (aids/site/archive_pages.py)
    assert page.tags.count("script") <= 4
    assert page.tags.count("h2") == len(phase_titles(lang)) and page.tags.count("h1") == 1
    assert page.hrefs and set(page.hrefs) <= page.ids  # every reference is a working link
    assert "russian-cavalry-combat" in page.ids


def test_same_sources_same_bytes(sample):
    project, _ = sample
    again = rerender(project, GAME, "ru")
    assert again[".pdf"].data == pdf_of(project, "ru").read_bytes()
    assert again[".html"].data == html_of(project, "ru").read_bytes()


@pytest.mark.parametrize("lang", LANGS)
def test_bookmarks_read_number_and_title(sample, lang):
    outline = PdfReader(pdf_of(sample[0], lang)).outline
    phases = [item.title for item in outline[1]]
    assert phases == [f"3.2.{n} {title}" for n, title in enumerate(phase_titles(lang), start=1)]
