"""The back-of-book index of a sample booklet (issue 34), read back from what the samples build: the Valmora
rules' index (games/valmora-scenarios/rules.md, `::: index`) in every language, its terms in that language's
dictionary order, each with the numbers of the sections that use the term and, in the PDF, the page each of
those sections is printed on (as the PDF's own bookmarks place them), the index a bookmark of its own; on the web
page each number a link to its section, and the game's page links the index."""
from __future__ import annotations

import re

import pytest
from lxml import html as lxml_html
from pypdf import PdfReader

from ..helpers import text_runs

GAME, AID = "valmora-scenarios", "rules"
HEADING = {"en": "Index", "pl": "Indeks", "ru": "Указатель"}
PAGE = {"en": "p.", "pl": "s.", "ru": "с."}
# each term's translation in dictionary order (Polish ł after l, ś after s; ó, ą as their letters), and the
# sections using it (rules.md)
TERMS = {
    "en": ["communication", "disorder", "ford", "hex", "leader", "line of sight", "melee", "morale check",
           "movement points", "road", "rout", "sluice", "square", "strength", "zone of control"],
    "pl": ["bród", "czworobok", "dowódca", "droga", "heks", "linia wzroku", "łączność", "nieład", "punkty ruchu",
           "siła", "strefa kontroli", "śluza", "test morale", "ucieczka", "walka wręcz"],
    "ru": ["бегство", "брод", "гекс", "дорога", "зона контроля", "каре", "командир", "линия видимости",
           "очки движения", "проверка морали", "расстройство", "рукопашная схватка", "связь", "сила", "шлюз"],
}
SECTIONS = {  # by the English term
    "communication": ["2", "7"], "disorder": ["2", "4.1", "6", "7"], "ford": ["4.2"], "hex": ["1.1"],
    "leader": ["2", "7"], "line of sight": ["5"], "melee": ["6"], "morale check": ["5", "7"],
    "movement points": ["4"], "road": ["4"], "rout": ["7"], "sluice": ["4.2"], "square": ["6"],
    "strength": ["1.1", "2"], "zone of control": ["4.1", "7"],
}
ENGLISH = dict(zip(TERMS["pl"], ["ford", "square", "leader", "road", "hex", "line of sight", "communication",
                                 "disorder", "movement points", "strength", "zone of control", "sluice",
                                 "morale check", "rout", "melee"]))
ENGLISH |= dict(zip(TERMS["ru"], ["rout", "ford", "hex", "road", "zone of control", "square", "leader",
                                  "line of sight", "movement points", "morale check", "disorder", "melee",
                                  "communication", "strength", "sluice"]))
ENGLISH |= {term: term for term in TERMS["en"]}


def printed_index(path) -> list[tuple[str, str]]:
    """(term, its entry as printed) of the index on the last page, in reading order: each column top down, an
    entry's lines joined."""
    page = PdfReader(path).pages[-1]
    runs = text_runs(page)
    top = next(y for x, y, size, font, text in runs if text in HEADING.values())
    middle = float(page.mediabox.width) / 2
    entries: list[tuple[str, str]] = []
    for column in (0, 1):
        lines: dict[float, list[tuple[float, str]]] = {}
        for x, y, _, _, text in runs:
            if y < top and 40 < y and (x >= middle) == bool(column):
                lines.setdefault(round(y), []).append((x, text))
        left = min(x for line in lines.values() for x, _ in line)
        for y in sorted(lines, reverse=True):
            line = sorted(lines[y])
            if abs(line[0][0] - left) < 1:
                entries.append((line[0][1], "".join(text for _, text in line[1:])))
            else:  # an entry's next line
                term, entry = entries[-1]
                entries[-1] = (term, entry + "".join(text for _, text in line))
    return entries


def section_pages(path) -> dict[str, int]:
    """Each numbered section's page (1-based), from the PDF's bookmarks."""
    reader = PdfReader(path)
    found = {}

    def walk(outline):
        for item in outline:
            if isinstance(item, list):
                walk(item)
            else:
                found[item.title.split()[0]] = reader.get_destination_page_number(item) + 1
    walk(reader.outline)
    return found


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_the_printed_index_lists_each_term_in_dictionary_order_with_its_sections_and_their_pages(sample, lang):
    project, _ = sample
    path = project.output / GAME / lang / f"{AID}.pdf"
    pages = section_pages(path)
    entries = printed_index(path)
    assert [term for term, _ in entries] == TERMS[lang]
    for term, entry in entries:
        expected = "; ".join(f"{number}, {PAGE[lang]} {pages[number]}" for number in SECTIONS[ENGLISH[term]])
        assert re.sub(r"\s", "", entry) == re.sub(r"\s", "", expected), term
    assert sorted(set(pages.values())) == [1, 2]  # the sections are on both pages: the pages are not all one
    assert pages[HEADING[lang]] == len(PdfReader(path).pages)  # the index is a bookmark too, at its page


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_the_web_index_links_each_section_and_the_games_page_links_the_index(sample, lang):
    project, _ = sample
    folder = project.output / GAME / lang
    page = lxml_html.fromstring((folder / f"{AID}.html").read_bytes())
    index = page.xpath("//dl[@class='index']")[0]
    assert [dt.text_content().strip() for dt in index.xpath("dt")] == TERMS[lang]
    for dt in index.xpath("dt"):
        links = dt.getnext().xpath(".//a")
        assert [a.text_content().strip() for a in links] == SECTIONS[ENGLISH[dt.text_content().strip()]]
        for a in links:  # each a link to a section of the page: its heading, with that number
            heading = page.get_element_by_id(a.get("href").removeprefix("#"))
            assert heading.tag in ("h2", "h3") and heading.text_content().split()[0] == a.text_content().strip()
    game = lxml_html.fromstring((folder / "index.html").read_bytes())
    (link,) = game.xpath(f"//li[@id='{AID}']//ul[@class='site-files']/li/a[@href='{AID}.html#index']")
    assert link.text_content() == HEADING[lang]
    assert page.get_element_by_id("index").text_content().strip().startswith(HEADING[lang])
