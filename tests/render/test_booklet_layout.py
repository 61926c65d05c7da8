"""A booklet's layout as a publisher sets it (issue 36): a two-page scenario printed on 5 pages (a title page
that always said "RULE BOOKLET", an empty contents page because every heading is unnumbered). A booklet names
what it is (`label:`, translated), keeps or drops its title page (`title_page:`) and contents (`contents:`, by
default only when a heading is numbered), and places page and column breaks (`::: break page|column`)."""
from __future__ import annotations

import re
import zipfile

import pytest
from pypdf import PdfReader

from aids.config import read_project
from aids.pipeline import builder
from aids.pipeline.pipeline import Options

from ..model.test_booklet import BOOKLET, error_of, project
from . import lines

SCENARIO = """\
# Most na Narwi {#bridge .unnumbered}

Obie strony walczą o most.

## Rozstawienie {#setup .unnumbered}

Francuzi stoją na zachodnim brzegu.

::: break page
:::

## Zwycięstwo {#victory .unnumbered}

Kto trzyma most po ósmej turze, wygrywa.
"""


def pages_of(root, lang="pl") -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(root / f"build/demo/{lang}/rules.pdf").pages]


def build(root) -> None:
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["pdf", "html"]))
    assert not summary.failed, summary.failed
    assert [b.warnings for b in summary.built if b.aid == "rules"] == [[]]


def test_a_scenario_without_title_or_contents_page_breaks_where_its_author_says(tmp_path):
    root = project(tmp_path, one_md=SCENARIO, two_md="",
                   rules_yaml=BOOKLET.replace("files: [one.md, two.md]", "files: [one.md]\nlabel: Scenariusz\n"
                                              "title_page: false"))
    build(root)
    pages = pages_of(root)
    assert len(pages) == 2, pages  # the title and the first two sections, then the break
    assert pages[0].startswith("GRA PRÓBNA SCENARIUSZ Zasady") and "Obie strony" in pages[0]
    assert "Rozstawienie" in pages[0] and "Zwycięstwo" not in pages[0] and "Zwycięstwo" in pages[1]
    assert "Spis treści" not in " ".join(pages) and "Zasady gry" not in " ".join(pages)
    html = (root / "build/demo/pl/rules.html").read_text(encoding="utf-8")
    assert '<p class="kind">Scenariusz</p>' in html and 'class="toc"' not in html
    assert '<div class="break break-page"></div>' in html


def test_by_default_a_title_page_and_contents_only_where_a_heading_is_numbered(tmp_path):
    numbered = project(tmp_path / "a")
    build(numbered)
    pages = pages_of(numbered)
    assert "Spis treści" in pages[1] and "Spis treści" not in pages[0]  # title page, then the contents
    plain = project(tmp_path / "b", one_md=SCENARIO.replace("::: break page\n:::\n", ""), two_md="",
                    rules_yaml=BOOKLET.replace("files: [one.md, two.md]", "files: [one.md]"))
    build(plain)
    pages = pages_of(plain)
    assert len(pages) == 2 and "Spis treści" not in " ".join(pages)  # the title page, then the text
    forced = project(tmp_path / "c", one_md=SCENARIO, two_md="",
                     rules_yaml=BOOKLET.replace("files: [one.md, two.md]", "files: [one.md]\ncontents: true"))
    build(forced)
    assert "Spis treści" in " ".join(pages_of(forced))


@pytest.mark.parametrize("changes, message", [
    ({"two_md": "# A {#a}\n\n::: break sideways\n:::\n"},
     "games/demo/two.md:3:1: ::: break sideways: wrong argument (expected: ::: break page, or ::: break column)"),
    ({"rules_yaml": BOOKLET + "title_page: maybe\n"},
     "games/demo/rules.yaml:12:13: title_page must be true or false, not 'maybe' (expected: true or false)"),
    ({"rules_yaml": BOOKLET + "chapter_pages: yes please\n"}, "games/demo/rules.yaml:12:16: chapter_pages must be"),
])
@pytest.mark.unit
def test_layout_mistakes_are_reported(tmp_path, changes, message):
    assert message in error_of(tmp_path, **changes)


LEGEND = """\
# Mapa {#map .unnumbered}

Pola od pierwszego do szóstego opisuje poprzednia strona.

7. Bród przez rzekę.
8. Młyn nad brodem.
9. Most na drodze.
10. Las na grzbiecie.
11. Wieś za lasem.
"""


def test_an_ordered_list_keeps_its_first_number_in_the_pdf_as_on_the_web_and_in_the_e_book(tmp_path):
    """A legend numbered 7-11 printed 1-5 (issue 44): WeasyPrint reads an <ol>'s `start` only among the HTML
    attributes it takes as style hints, which aids leaves off."""
    root = project(tmp_path, one_md=LEGEND, two_md="", rules_yaml=BOOKLET.replace("files: [one.md, two.md]",
                                                                                   "files: [one.md]"))
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["pdf", "html", "epub"]))
    assert not summary.failed, summary.failed
    shown = [line.text for page in lines.pages(root / "build/demo/pl/rules.pdf") for block in page for line in block]
    numbered = [m.groups() for m in map(re.compile(r"(\d+)\. (Bród|Młyn|Most|Las|Wieś)").match, shown) if m]
    assert numbered == [("7", "Bród"), ("8", "Młyn"), ("9", "Most"), ("10", "Las"), ("11", "Wieś")], shown
    html = (root / "build/demo/pl/rules.html").read_text(encoding="utf-8")
    assert '<ol start="7">' in html
    with zipfile.ZipFile(root / "build/demo/pl/rules.epub") as book:
        assert any(b'<ol start="7">' in book.read(n) for n in book.namelist() if n.endswith(".xhtml"))
