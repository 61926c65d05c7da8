"""Links to web addresses in a booklet (issue 36): a publisher links the game's site, a forum, a video. The text
of a link is translated, its address kept (a translation that changes or loses it falls back, and `aids check`
says why); the page links it, the PDF holds it as a link annotation, the press PDF prints the address; nothing
is fetched while building."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from aids.commands.cli import main
from aids.config import read_project
from aids.localize import po
from aids.localize.catalogs import read_catalog
from aids.pipeline import builder
from aids.pipeline.pipeline import Options

from ..model.test_booklet import localized, project

TEXT = "# Linki {#links}\n\nZobacz [forum *gry*](https://example.org/forum?t=1&p=2) oraz <https://example.org/faq>.\n"


def with_links(tmp_path, msgstr: str):
    root = project(tmp_path, two_md=TEXT)
    assert main(["--project", str(root), "extract"]) == 0
    assert main(["--project", str(root), "update"]) == 0
    path = root / "i18n/en/LC_MESSAGES/demo.po"  # as a translator does it in Poedit (the heading stays untranslated)
    catalog = read_catalog(path, str(path))
    entry = next(e for e in po.entries(catalog) if e.source.startswith("Zobacz"))
    entry.target = msgstr
    po.save(path, catalog)
    return root


def links_fallen(summary) -> list[str]:
    return [fb.reason for found in summary.fallbacks.values() for fb in found if fb.text.msgid.startswith("Zobacz")]


def uris(path) -> list[str]:
    return [annot.get_object()["/A"]["/URI"] for page in PdfReader(path).pages for annot in page.get("/Annots", [])
            if annot.get_object().get("/A", {}).get("/S") == "/URI"]


@pytest.mark.unit
def test_a_link_keeps_its_text_in_the_msgid_and_prints_as_a_link(tmp_path):
    html, _ = localized(project(tmp_path, two_md=TEXT))
    para = next(b for b in html["blocks"] if b["type"] == "paragraph" and "Zobacz" in b["text"])["text"]
    # (a space between words starts the next run: render/html.py's cure of WeasyPrint's stray line breaks)
    assert para == ('Zobacz<a class="external" href="https://example.org/forum?t=1&amp;p=2"> forum<em> gry</em></a> '
                    'oraz<a class="external address" href="https://example.org/faq"> https://example.org/faq</a>.')


def test_translated_links_in_the_page_the_pdf_and_the_press_pdf(tmp_path):
    root = with_links(tmp_path, "See [the game's *forum*](https://example.org/forum?t=1&p=2) and "
                                "<https://example.org/faq>.")
    summary = builder.build(read_project(root), Options(langs=["en"], formats=["html", "pdf", "press"]))
    assert not summary.failed, summary.failed
    built = next(b for b in summary.built if b.aid == "rules")
    assert built.warnings == [] and not links_fallen(summary)
    page = (root / "build/demo/en/rules.html").read_text(encoding="utf-8")
    assert '<a class="external" href="https://example.org/forum?t=1&amp;p=2"> the game’s<em> forum</em></a>' in page
    # a link over two lines has two areas
    assert list(dict.fromkeys(uris(root / "build/demo/en/rules.pdf"))) == ["https://example.org/forum?t=1&p=2",
                                                                           "https://example.org/faq"]
    home = " ".join(PdfReader(root / "build/demo/en/rules.pdf").pages[-1].extract_text().split())
    press = " ".join(p.extract_text() for p in PdfReader(root / "build/demo/en/rules-press.pdf").pages)
    assert "(https://example.org/forum?t=1&p=2)" not in home
    assert "(https://example.org/forum?t=1&p=2)" in " ".join(press.split())
    assert "(https://example.org/faq)" not in " ".join(press.split())  # an address is not printed twice


@pytest.mark.parametrize("msgstr, reason", [
    ("See [the *forum*](https://example.com/elsewhere) and <https://example.org/faq>.",
     "loses {link:https://example.org/forum?t=1&p=2} and invents {link:https://example.com/elsewhere}"),
    ("See the *forum* and <https://example.org/faq>.", "loses {link:https://example.org/forum?t=1&p=2}"),
])
def test_a_translation_that_changes_an_address_falls_back_and_check_says_why(tmp_path, capsys, msgstr, reason):
    root = with_links(tmp_path, msgstr)
    assert main(["--project", str(root), "check", "--lang", "en"]) == 1
    assert reason in capsys.readouterr().out
    summary = builder.build(read_project(root), Options(langs=["en"], formats=["html"]))
    page = (root / "build/demo/en/rules.html").read_text(encoding="utf-8")
    assert "example.com" not in page and 'href="https://example.org/forum?t=1&amp;p=2"> forum<em> gry</em></a>' in page
    assert links_fallen(summary) == ["translation " + reason]
