"""Tables as printed: a word of a cell never broken at its hyphen (render/tree.py), no table wider than its column."""
from collections import Counter
from html.parser import HTMLParser
from xml.etree import ElementTree

import pytest
from pypdf import PdfReader

from aids.render import pdf, tree

from ..helpers import pdf_text


class CellWords(HTMLParser):
    """The words of every cell of a page's tables (not a printed table's title row)."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.cell: list[str] | None = None
        self.title = False

    def handle_starttag(self, tag, attrs):
        self.icon = getattr(self, "icon", 0) + (tag == "svg")  # an icon's <title> names it: not printed text
        self.title = self.title or (tag == "tr" and "title" in (dict(attrs).get("class") or "").split())
        if tag in ("td", "th") and not self.title:
            self.cell = []

    def handle_endtag(self, tag):
        self.icon = getattr(self, "icon", 0) - (tag == "svg")
        if tag in ("td", "th") and self.cell is not None:
            self.words += "".join(self.cell).split()
            self.cell = None
        self.title = self.title and tag != "tr"

    def handle_data(self, data):
        if self.cell is not None and not getattr(self, "icon", 0):
            self.cell.append(data.replace("\u2060", ""))


def test_every_word_of_every_table_cell_is_printed_whole(sample):
    """In every sample and language: "Schofield-A" once printed as "Schofield-" over "A" in a column of the GCACW
    booklet (pl) while its whole width was to be had, "built-up" split in Newbury's obstacles (en)."""
    project, summary = sample
    pdfs = [project.root / f for b in summary.built for f in b.files if f.endswith(".pdf")]
    checked = 0
    for path in pdfs:
        page = path.with_suffix(".html")
        if not page.is_file():  # a card's sheet, a duplex test
            continue
        parser = CellWords()
        parser.feed(page.read_text(encoding="utf-8"))
        printed = Counter(pdf_text(path).split())
        broken = {word: n for word, n in Counter(parser.words).items() if printed[word] < n}
        assert broken == {}, path
        checked += len(parser.words)
    assert checked > 2000
    assert not [w for b in summary.built for w in b.warnings if "wider than its column" in w]


@pytest.mark.unit
def test_a_word_with_a_hyphen_in_a_cell_is_kept_on_one_line():
    root = ElementTree.fromstring("<table><tr><th>Schofield-A</th><td>Steep hills, built-up area, <em>x-y</em> "
                                  "2–4 and a-very-long-compound-of-more-than-thirty-letters</td></tr></table>")
    tree.keep_compounds_whole(root)
    assert ElementTree.tostring(root, encoding="unicode") == (
        '<table><tr><th><span class="unbroken">Schofield-A</span></th><td>Steep hills, <span class="unbroken">'
        'built-up</span> area, <em><span class="unbroken">x-y</span></em> <span class="unbroken">2–4</span> and '
        "a-very-long-compound-of-more-than-thirty-letters</td></tr></table>")


@pytest.mark.parametrize("width, kept, whole, wide", [(175, True, True, False), (175, False, False, False),
                                                   (60, True, True, True)])
def test_a_name_column_takes_the_width_another_column_can_give(tmp_path, monkeypatch, width, kept, whole, wide):
    """A table in a box: "Schofield-A" whole where another column can wrap to make room for it (and broken
    at its hyphen without render/tree.py); a table that cannot fit is reported."""
    if not kept:
        monkeypatch.setattr(tree, "keep_compounds_whole", lambda root: None)
    css = ("@page { size: A5; margin: 10mm } body { font: 10pt 'DejaVu Sans' } .box { width: WIDTHpt } "
           "td { padding: 0 2pt; border: 0.5pt solid } .unbroken { white-space: nowrap }").replace("WIDTH", str(width))
    html = ('<html lang="en"><body><div class="box"><table><tr><td>Schofield-A</td><td>Designation of the unit</td>'
            '<td>2-4</td></tr></table></div></body></html>')
    layout = pdf.lay_out(html, css, base=tmp_path, allowed=[tmp_path], epoch=0, tagged=False)
    path = tmp_path / "table.pdf"
    path.write_bytes(layout.rendered().data)
    assert ("Schofield-A" in pdf_text(path).split()) is whole
    assert [w.split(" pt ")[1] for w in layout.warnings] == (["wider than its column: “Schofield-A Designation of "
                                                              "the unit 2-4…”"] if wide else [])


CONTINUED = {"pl": "(cd.)", "en": "(cont.)", "ru": "(продолж.)"}


@pytest.mark.parametrize("lang", ["pl", "en", "ru"])
def test_a_table_continued_in_another_column_says_so_there_only(sample, lang):
    """Newbury's playsheet has tables that go on in the next column (Melee factors, in every language): the head
    repeated there carries the continued mark after the title; where a table starts, it has none."""
    project, _ = sample
    for edition in ("cm", "inch"):
        path = project.output / "newbury-fast-play" / edition / lang / "playsheet.pdf"
        lines = [" ".join(line.split()) for line in pdf_text(path).splitlines()]
        marked = [line for line in lines if line.endswith(" " + CONTINUED[lang])]
        assert marked, (edition, lang)
        for line in marked:
            title = line.removesuffix(" " + CONTINUED[lang])
            assert title in lines[:lines.index(line)], (title, edition, lang)  # the same title, unmarked, before
        assert sum(CONTINUED[lang] in line for line in lines) == len(marked)


def test_only_the_parts_of_a_table_after_its_first_show_the_mark(tmp_path):
    rows = "".join(f"<tr><td>row {n}</td><td>{n}</td></tr>" for n in range(70))
    title = '<thead><tr class="title"><th colspan="2" data-continued="(cont.)">{}</th></tr></thead>'
    html = (f'<html lang="en"><body><table>{title.format("Short")}<tbody><tr><td>1</td><td>2</td></tr></tbody>'
            f'</table><table>{title.format("Long")}<tbody>{rows}</tbody></table></body></html>')
    css = ("@page { size: A6; margin: 10mm } body { font: 9pt 'DejaVu Sans' } "
           'th[data-continued]::after { content: "\\00a0" attr(data-continued) }')
    layout = pdf.lay_out(html, css, base=tmp_path, allowed=[tmp_path], epoch=0, tagged=False)
    path = tmp_path / "long.pdf"
    path.write_bytes(layout.rendered().data)
    pages = [[" ".join(line.split()) for line in page.extract_text().splitlines()] for page in PdfReader(path).pages]
    assert len(pages) == 3
    assert pages[0][:2] == ["Short", "1 2"] and "Long" in pages[0] and "(cont.)" not in " ".join(pages[0])
    assert [page[0] for page in pages[1:]] == ["Long (cont.)"] * 2
