"""Page references laid out once (render/pagination.py): in a generated booklet whose references cross from one
digit to two, every reference and contents line shows its target's page, however wrong the first guess of the
number of digits was, and only the pages where a guess was wrong are laid out again."""

import pytest
from pypdf import PdfReader

from aids.config import read_project
from aids.kinds import reading
from aids.localize import making
from aids.pipeline import pipeline
from aids.render import pagination

from ..helpers import booklet_benchmark

PAGES = 16


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("booklet")
    booklet_benchmark().generate(root, PAGES)
    return root


def page_layouts(monkeypatch) -> list[int]:
    """A counter, in its one item, of the pages WeasyPrint lays out from now on (again or not)."""
    import weasyprint.layout.page as page
    made = [0]
    make_page = page.make_page

    def counted(*args, **kwargs):
        made[0] += 1
        return make_page(*args, **kwargs)

    monkeypatch.setattr(page, "make_page", counted)
    return made


def render(root, monkeypatch, tmp_path):
    """The booklet's PDF in Polish, the warnings, and how many pages WeasyPrint laid out (again or not)."""
    made = page_layouts(monkeypatch)
    project = read_project(root)
    game = project.read_game("big")
    aid = reading.read_aids(project, game)[0][0]
    rendered = pipeline.render(pipeline.document(game, aid, making.localizer(project, game, "pl"), None),
                               ["pdf"])[".pdf"]
    path = tmp_path / "booklet.pdf"
    path.write_bytes(rendered.data)
    return path, rendered.warnings, made[0]


@pytest.mark.parametrize("characters", [None, 10**7, 1], ids=["estimated", "too-few-digits", "too-many-digits"])
def test_every_page_reference_is_its_targets_page_whatever_the_first_guess(generated, monkeypatch, tmp_path,
                                                                            characters):
    if characters:  # the first guess of every forward reference: its own page (10**7 characters a page), or far on
        monkeypatch.setattr(pagination, "CHARACTERS_A_PAGE", characters)
    path, warnings, layouts = render(generated, monkeypatch, tmp_path)
    assert warnings == []
    pages = len(PdfReader(path).pages)
    assert pages >= 12
    references, start = booklet_benchmark().page_references(path)
    sections = round(PAGES / 1.25)
    assert len(references) == 4 * sections  # two in each section's text, two lines of contents for each
    assert {p for _, p in references} & set(range(1, 10)) and {p for _, p in references} & set(range(10, 100))
    for number, page in references:
        assert start[number] == page, (number, page)
    # a wrong guess costs the pages it was wrong on, not the whole booklet again
    assert pages <= layouts < 2 * pages
    if characters:
        assert layouts > pages


@pytest.fixture(scope="module")
def two_columns(tmp_path_factory):
    """A generated booklet of about 30 pages in two columns (the usual rulebook), with 3 to 12 references a
    section: its page ends, in narrow columns, often fall in a word."""
    root = tmp_path_factory.mktemp("columns")
    booklet_benchmark().generate(root, 60, "varied")
    rules = root / "games" / "big" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8") + "columns: 2\n", encoding="utf-8")
    return root


def test_the_final_layout_is_the_same_whatever_the_first_guess(two_columns, monkeypatch, tmp_path):
    """Pagination's final layout is a function of the content alone: laid out from other first guesses of the
    page numbers (so through other layouts before it, other pages made again, other paragraphs unhyphenated on
    the way), the booklet is the same PDF, byte for byte. A build from the cache (render/flow.py) relies on it.
    With a paragraph kept unhyphenated once its page ended in a hyphen in any layout, three of these guesses gave
    three PDFs; hyphenated again only when its page end moved away, two."""
    found = {}
    for characters in (pagination.CHARACTERS_A_PAGE, 10**7, 1):
        monkeypatch.setattr(pagination, "CHARACTERS_A_PAGE", characters)
        path, warnings, layouts = render(two_columns, monkeypatch, tmp_path)
        assert warnings == []
        found[characters] = (path.read_bytes(), layouts)
    assert len({pdf for pdf, _ in found.values()}) == 1
    assert len({layouts for _, layouts in found.values()}) == 3  # three ways to it


def test_the_web_page_has_no_page_numbers(sample):
    project, _ = sample
    for path in project.output.rglob("*.html"):
        assert 'class="page-number"' not in path.read_text(encoding="utf-8"), path


def test_documents_laid_out_at_once_in_threads_keep_their_own_page_numbers(tmp_path):
    """Two documents rendered at the same time in two threads (a Dask worker's threads, say) come out as when
    rendered alone: each one's pagination sees only its own pages."""
    import threading

    from aids.render.pdf import lay_out

    def html(filler: int) -> str:
        sections = "".join(f'<h1 id="s{n}">Section {n}</h1>' + "<p>Text of the rules. </p>" * 12
                           + '<div class="filler"></div>' * filler for n in range(1, 13))
        contents = "".join(f'<li><a href="#s{n}">Section {n}</a></li>' for n in range(1, 13))
        return f'<html lang="en"><body><ol class="toc">{contents}</ol>{sections}</body></html>'

    css = ("@page { size: A6; margin: 10mm } h1 { break-before: page } .filler { break-after: page; height: 1em } "
           ".page-number { display: none } .toc a > .page-number { display: inline } "
           '.toc a > .page-number::before { content: " ... " }')

    def render(filler: int) -> bytes:
        layout = lay_out(html(filler), css, base=tmp_path, allowed=[tmp_path], epoch=0)
        assert layout.warnings == []
        return layout.rendered().data

    alone = {filler: render(filler) for filler in (0, 1)}
    together: dict[int, bytes] = {}
    threads = [threading.Thread(target=lambda f=filler: together.__setitem__(f, render(f))) for filler in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == alone
    path = tmp_path / "one.pdf"
    path.write_bytes(alone[1])
    texts = [page.extract_text() for page in PdfReader(path).pages]
    for n in range(1, 13):  # Section n on page 2n (a page left blank after each one), 10 to 24 in two digits
        assert f"Section {n} ... {2 * n}" in texts[0] + texts[1], n
        assert texts[2 * n - 1].startswith(f"Section {n}")


RULE = ("Jednostka, która rozpoczyna ruch w strefie kontroli nieprzyjaciela, może ją opuścić tylko wtedy, gdy wyda "
        "dodatkowy punkt ruchu i nie wejdzie bezpośrednio do innej strefy kontroli; kawaleria płaci o jeden punkt "
        "mniej, a artyleria konna traci przy tym połowę swojej siły ognia. ")


def test_a_page_that_ends_in_a_hyphenated_word_is_made_again_at_once_not_with_every_page_after_it(tmp_path,
                                                                                                   monkeypatch):
    """A page whose last line ends in a word hyphenated there is laid out again as soon as it is made, its
    paragraph unhyphenated: one layout more, not one more for every page after it, as when it was found only
    once the whole document was laid out (WeasyPrint then lays out again every page whose start moved). Here
    the page's paragraph set without hyphens moves a line to the next page, and so every page after it."""
    from aids.render.pdf import lay_out
    made = page_layouts(monkeypatch)
    body = f"<p>{RULE * 2}</p>" * 8
    html = (f'<html lang="pl"><style>@page {{ size: 105mm 96mm; margin: 10mm }} body {{ font: 10pt "Aids Sans" }}'
            " p { hyphens: auto; hyphenate-character: '-'; margin: 0 0 6pt; orphans: 1; widows: 1 }"
            f"</style><body>{body}</body></html>")
    layout = lay_out(html, "", base=tmp_path, allowed=[tmp_path], epoch=0)
    assert layout.warnings == []
    path = tmp_path / "hyphens.pdf"
    path.write_bytes(layout.rendered().data)
    ends = [page.extract_text().split("\n")[-1].strip() for page in PdfReader(path).pages]
    assert not [end for end in ends[:-1] if end.endswith("-")], ends
    assert made[0] == len(ends) + 1, (made[0], len(ends))


def test_weasyprint_lays_out_and_writes_with_few_garbage_collections_and_puts_pythons_back(tmp_path, monkeypatch):
    """Python's cyclic garbage collector runs less often while a document is laid out and written (its
    thresholds raised: the boxes of a booklet made it collect 1,400 times in 60 pages, 17 % of the CPU), and
    its own thresholds are back once the PDF is written."""
    import gc

    import weasyprint.layout.page as page

    from aids.render import pdf
    seen = []
    make_page = page.make_page

    def watched(*args, **kwargs):
        seen.append(gc.get_threshold())
        return make_page(*args, **kwargs)

    monkeypatch.setattr(page, "make_page", watched)
    before = gc.get_threshold()
    layout = pdf.lay_out(f"<p>{RULE}</p>" * 20, "@page { size: A6 }", base=tmp_path, allowed=[tmp_path], epoch=0)
    assert gc.get_threshold() == before
    layout.rendered()
    assert gc.get_threshold() == before
    assert len(seen) >= 2 and all(threshold[0] >= 10_000 for threshold in seen), seen
