"""Accessible PDF, read back as a screen reader's software reads it: every sample PDF through the `pdfua` checker
(the machine-checkable subset of PDF/UA-1), and its structure tree through pikepdf: language, table headers with
their scope, alternative text, headings and bookmarks, the title shown (docs/guide/accessibility.md)."""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pikepdf
import pytest
from pdfua import validate
from pypdf import PdfReader

from aids.config import read_project
from aids.pipeline import builder

from ..helpers import units

# pdfua 0.1.3's heading rule raises on every /K that is an array (it asks an array for `is_integer`): it cannot
# run on WeasyPrint's tags; test_headings_are_not_empty_and_are_the_bookmarks checks what it would.
CRASHES = {"UA-14-001"}
# ReportLab writes no structure tree (the card, its sheet, its duplex test page), nor does imposing 2-up: not tagged,
# so not marked as tagged, not claiming PDF/UA; a screen-reader user reads the HTML card, the booklet's own PDF.
UNTAGGED = {"UA-01-005", "UA-01-002", "UA-28-004"}


def pdfs(project) -> list[Path]:
    return sorted(project.output.rglob("*.pdf"))


def joined(path: Path) -> bool:
    """A tournament's PDF made of others (a packet, an aid in two languages): pages joined, structure not."""
    return "packets" in path.parts or "+" in path.parent.name


def drawn_by_reportlab(path: Path) -> bool:
    return path.name.startswith("referee-card") and not joined(path)


def weasyprint_pdfs(project) -> list[Path]:
    found = [p for p in pdfs(project) if not drawn_by_reportlab(p) and not joined(p)]
    assert len(found) >= 40  # every game, kind and language, the releases' too
    return found


def lang_of(path: Path) -> str:
    return next(part for part in reversed(path.parts) if part in ("pl", "en", "ru"))


def findings(path: Path) -> tuple[set[str], set[str]]:
    report = validate(str(path))
    return ({f"{f.rule_id}: {f.message}" for f in report.findings},
            {o.rule_id for o in report.skipped})


def test_pdfua_finds_nothing_in_any_tagged_sample_pdf(sample):
    found = {}
    for path in weasyprint_pdfs(sample[0]):
        messages, skipped = findings(path)
        if messages or skipped - CRASHES:
            found[str(path.relative_to(sample[0].output))] = (sorted(messages), sorted(skipped - CRASHES))
    assert found == {}


def test_the_card_fails_only_what_an_untagged_pdf_must(sample):
    """The ReportLab PDFs: language, title and the title shown pass; only the missing structure is reported."""
    project = sample[0]
    cards = [p for p in pdfs(project) if drawn_by_reportlab(p)]
    # per language: the card, its sheet, its duplex test page, and both in gray where aids.yaml asks for gray
    assert {p.relative_to(project.output).as_posix() for p in cards} == {
        u.path(lang, suffix) for u in units(project) if u.kind == "card" for lang in project.languages
        for suffix in ("-duplex-test.pdf", *(f"{face}{gray}.pdf" for face in ("", "-sheet")
                                             for gray in ("", *(["-gray"] if project.print_for(u.game).gray else []))))}
    for path in cards:
        report = validate(str(path))
        assert {f.rule_id for f in report.findings} == UNTAGGED, path
        reader = pikepdf.open(path)
        assert reader.Root.ViewerPreferences.DisplayDocTitle is True
        assert str(reader.Root.Lang) == lang_of(path)
        assert spaced(str(reader.docinfo.Title)) == spaced(title_of_html(path.parent / "referee-card.html"))


def test_joined_pdfs_fail_only_what_an_untagged_pdf_must(sample):
    """A packet and the aids in two languages join pages, not structure trees (docs/guide/tournaments.md sends
    a screen-reader user to the HTML): their language, title and the title shown pass."""
    project = sample[0]
    found = [p for p in pdfs(project) if joined(p)]
    # each card and playsheet in each pair of languages aids.yaml asks for (bilingual:), and each packet
    assert {p.relative_to(project.output).as_posix() for p in found} == {
        u.path(f"{a}+{b}", ".pdf") for u in units(project) if u.kind in ("card", "playsheet")
        for a, b in project.bilingual.get(u.game, ())} | {f"{p.game}/packets/{p.id}.pdf" for p in project.packets}
    for path in found:
        assert {f.rule_id for f in validate(str(path)).findings} == UNTAGGED, path
        with pikepdf.open(path) as pdf:
            assert pdf.Root.ViewerPreferences.DisplayDocTitle is True
            assert str(pdf.Root.Lang) == "pl" and str(pdf.docinfo.Title)


def test_the_card_has_a_bookmark_per_face_and_section(sample):
    for lang in ("pl", "en", "ru"):
        folder = sample[0].output / "lwow-1920" / lang
        html = (folder / "referee-card.html").read_text()
        sections = [re.sub(r"<[^>]+>", "", h).strip().removesuffix("#").strip()
                    for h in re.findall(r"<h2 id=[^>]*>(.*?)</h2>", html)]
        with pikepdf.open(folder / "referee-card.pdf") as pdf, pdf.open_outline() as outline:
            faces = outline.root
            assert len(faces) == 2
            assert [str(item.title) for face in faces for item in face.children] == sections
        with pikepdf.open(folder / "referee-card-sheet.pdf") as pdf, pdf.open_outline() as outline:
            assert [str(item.title) for item in outline.root] == [str(face.title) for face in faces]


def spaced(text: str) -> str:
    return " ".join(text.split())


def title_of_html(path: Path) -> str:
    import html
    return html.unescape(re.search(r"<title>(.*?)</title>", path.read_text(), re.S).group(1).strip())


def elements(root) -> list:
    """Every structure element below `root`, in the tree's order."""
    out, todo = [], [root]
    while todo:
        element = todo.pop()
        if not isinstance(element, pikepdf.Dictionary):
            continue
        if "/S" in element:
            out.append(element)
        kids = element.get("/K")
        kids = list(kids) if isinstance(kids, pikepdf.Array) else [kids]
        todo.extend(reversed(kids))
    return out


def test_structure_tree_language_title_and_marks(sample):
    for path in weasyprint_pdfs(sample[0]):
        with pikepdf.open(path) as pdf:
            root = pdf.Root
            assert "/StructTreeRoot" in root, path
            assert root.MarkInfo.Marked is True
            assert str(root.Lang) == lang_of(path)
            assert root.ViewerPreferences.DisplayDocTitle is True
            assert str(pdf.docinfo.Title) == title_of_html(path.with_suffix(".html")), path
            with pdf.open_metadata() as xmp:
                assert xmp.get("pdfuaid:part") == "1", path
            tree = elements(root.StructTreeRoot)
            headers = [e for e in tree if e.S == "/TH"]
            assert all(str(e.A.Scope) in ("/Row", "/Column") for e in headers), path
            if path.stem == "playsheet":  # tables with headers of rows and columns
                assert {str(e.A.Scope) for e in headers} == {"/Row", "/Column"}, path
            figures = [e for e in tree if e.S == "/Figure"]
            assert all(str(e.get("/Alt", "")).strip() for e in figures), path


def test_table_headers_keep_their_scope_from_the_html(sample):
    """A row's header (scope="row" in the HTML) is a /Row header in the PDF, a column's a /Column one."""
    path = sample[0].output / "newbury-fast-play" / "cm" / "en" / "playsheet.pdf"
    html = path.with_suffix(".html").read_text()
    with pikepdf.open(path) as pdf:
        scopes = [str(e.A.Scope) for e in elements(pdf.Root.StructTreeRoot) if e.S == "/TH"]
    assert scopes.count("/Row") >= html.count('scope="row"') > 0


def marked_texts(path: Path) -> dict[tuple[int, int], str]:
    """The text of each marked-content sequence: (page index, MCID) -> text."""
    texts: dict[tuple[int, int], str] = defaultdict(str)
    for index, page in enumerate(PdfReader(path).pages):
        stack: list[int | None] = []

        def before(operator, operands, cm, tm, stack=stack):
            if operator == b"BDC":
                properties = operands[1] if len(operands) > 1 else {}
                stack.append(properties.get("/MCID") if hasattr(properties, "get") else None)
            elif operator == b"BMC":
                stack.append(None)
            elif operator == b"EMC" and stack:
                stack.pop()

        def text(value, cm, tm, font, size, stack=stack, index=index):
            mcid = next((m for m in reversed(stack) if m is not None), None)
            if mcid is not None:
                texts[(index, int(mcid))] += value

        page.extract_text(visitor_operand_before=before, visitor_text=text)
    return texts


def text_of(element, pages: dict, texts: dict) -> str:
    out = []
    for kid in elements(element):
        page = pages.get(kid.Pg.objgen) if "/Pg" in kid else None
        kids = kid.get("/K")
        for mcid in (list(kids) if isinstance(kids, pikepdf.Array) else [kids]):
            if isinstance(mcid, int) and page is not None:
                out.append(texts.get((page, mcid), ""))
    return "".join(out)


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.replace("\u00ad", ""))


@pytest.mark.parametrize("aid", ["gcacw/en/system-rules.pdf", "gcacw/pl/sequence-of-play.pdf",
                                 "ostroleka-1831/ru/sequence-of-play.pdf", "newbury-fast-play/inch/pl/playsheet.pdf",
                                 "valmora-1809/cm/en/turn-sequence.pdf"])
def test_headings_are_not_empty_and_are_the_bookmarks(sample, aid):
    """Every heading element marks text (what pdfua's UA-14-001 would check), and every bookmark is the text of
    a heading, in the order of the headings."""
    path = sample[0].output / aid
    texts = marked_texts(path)
    with pikepdf.open(path) as pdf:
        pages = {page.objgen: index for index, page in enumerate(pdf.pages)}
        headings = [words(text_of(e, pages, texts)) for e in elements(pdf.Root.StructTreeRoot)
                    if re.fullmatch(r"/H[1-6]", str(e.S))]
        with pdf.open_outline() as outline:
            def flat(items):
                for item in items:
                    yield str(item.title)
                    yield from flat(item.children)
            bookmarks = [words(title) for title in flat(outline.root)]
    assert headings and all(headings)
    assert bookmarks
    remaining = iter(headings)
    for bookmark in bookmarks:  # each bookmark's words are those of the next heading that holds them all
        assert any(all(w in heading for w in bookmark) for heading in remaining), (aid, bookmark)


def test_text_in_another_language_carries_its_language(demo):
    """The demo game has no translations yet: its English PDF shows the Polish source, marked as Polish."""
    project = read_project(demo)
    summary = builder.build(project)
    assert not summary.failed
    path = project.output / "demo" / "en" / "seq.pdf"
    with pikepdf.open(path) as pdf:
        assert str(pdf.Root.Lang) == "en"
        marked = [e for e in elements(pdf.Root.StructTreeRoot) if "/Lang" in e]
        assert marked and {str(e.Lang) for e in marked} == {"pl"}
        assert pdfua_clean(path)


def pdfua_clean(path: Path) -> bool:
    messages, skipped = findings(path)
    return not messages and not skipped - CRASHES


def test_figures_of_a_booklet_carry_their_description(tmp_path):
    from aids.pipeline.pipeline import Options

    from .test_figures import with_figures
    root = with_figures(tmp_path)
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["pdf"]))
    assert not summary.failed
    path = root / "build/demo/pl/rules.pdf"
    with pikepdf.open(path) as pdf:
        alts = [str(e.Alt) for e in elements(pdf.Root.StructTreeRoot) if e.S == "/Figure"]
    assert alts == ["Pole bitwy o\xa0świcie", "Bród na rzece"]
    assert pdfua_clean(path)


SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10" {}>'
       '<rect width="10" height="10"/></svg>')


def test_an_icon_is_described_by_its_label_and_a_hidden_glyph_reads_as_nothing(tmp_path):
    """An inline SVG icon (aria-label, no <title>: WeasyPrint alone leaves it without /Alt), a decorative one
    (aria-hidden), a glyph hidden from screen readers, and a header cell of each scope."""
    from aids.render.pdf import lay_out
    icon, decoration = SVG.format('role="img" aria-label="Cavalry"'), SVG.format('aria-hidden="true"')
    html = ('<html lang="en"><head><title>T</title></head><body><h1>Icons</h1>'
            f'<p>Cavalry {icon} moves. {decoration} <span aria-hidden="true">\u2694</span></p>'
            '<table><thead><tr><th scope="col">Die</th><th scope="col">Result</th></tr></thead>'
            '<tbody><tr><th scope="row">1</th><td>Miss</td></tr></tbody></table></body></html>')
    rendered = lay_out(html, "", base=tmp_path, allowed=[tmp_path], epoch=0).rendered()
    path = tmp_path / "icons.pdf"
    path.write_bytes(rendered.data)
    with pikepdf.open(path) as pdf:
        tree = elements(pdf.Root.StructTreeRoot)
        figures = [e for e in tree if e.S == "/Figure"]
        assert [str(e.get("/Alt", "")) for e in figures] == ["Cavalry", ""]
        assert str(figures[1].ActualText) == ""
        assert any(e.S == "/Span" and "/ActualText" in e for e in tree)
        assert [str(e.A.Scope) for e in tree if e.S == "/TH"] == ["/Column", "/Column", "/Row"]
    assert pdfua_clean(path)


def test_an_imposed_booklet_keeps_its_language_and_shows_its_title(tmp_path):
    """Imposed 2-up, the pages lose their structure tree (pdfua: untagged), not their language or title."""
    from aids.render import impose
    from aids.render.pdf import lay_out
    html = '<html lang="ru"><head><title>Т</title></head><body>' + "<p>Ход.</p>" * 3 + "</body></html>"
    data = lay_out(html, "@page { size: A5 }", base=tmp_path, allowed=[tmp_path], epoch=0).rendered().data
    path = tmp_path / "imposed.pdf"
    path.write_bytes(impose.saddle_stitch(data, "Правила")[0])
    with pikepdf.open(path) as pdf:
        assert str(pdf.Root.Lang) == "ru" and pdf.Root.ViewerPreferences.DisplayDocTitle is True
        assert str(pdf.docinfo.Title) == "Правила"
    assert {f.rule_id for f in validate(str(path)).findings} == UNTAGGED  # untagged, as a card is
