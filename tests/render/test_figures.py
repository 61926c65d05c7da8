"""A booklet's figures: files of the game the page links, never their data inlined (issue: 15,887 warnings
about base64 text, a 6x slower PDF). The PDF reads them through the project's url fetcher, the web page links a
copy beside it; a path is relative to the Markdown file, and never leads outside the game folder."""
from __future__ import annotations

import os
import re
import struct
import zlib
from pathlib import Path

import pytest
from pypdf import PdfReader

from aids.commands.cli import main
from aids.config import read_project
from aids.pipeline import builder
from aids.pipeline.pipeline import Options

from ..helpers import PT_PER_MM, text_runs
from ..model.test_booklet import project


def png(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes(colour) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


FIGURES = "# Mapa {#map}\n\n![Pole bitwy o świcie](figures/field.png)\n\nTekst.\n\n![Bród na rzece](figures/ford.png)\n"


def with_figures(tmp_path, two_md: str = FIGURES) -> Path:
    root = project(tmp_path, two_md=two_md)
    (root / "games/demo/figures").mkdir()
    (root / "games/demo/figures/field.png").write_bytes(png(300, 200, (90, 120, 60)))
    (root / "games/demo/figures/ford.png").write_bytes(png(200, 100, (40, 80, 160)))
    return root


def test_two_figures_print_without_a_warning_and_the_page_links_their_copies(tmp_path):
    root = with_figures(tmp_path)
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["html", "pdf"]))
    assert not summary.failed, summary.failed
    built = next(b for b in summary.built if b.aid == "rules")
    assert built.warnings == []
    # the PDF: each figure an image XObject of a page
    reader = PdfReader(root / "build/demo/pl/rules.pdf")
    shown = {img.indirect_reference.idnum: img.image.size for page in reader.pages for img in page.images}
    assert sorted(shown.values()) == [(200, 100), (300, 200)]
    # the web page: a short address beside it, its copy the very file, its description
    html = (root / "build/demo/pl/rules.html").read_text(encoding="utf-8")
    assert "base64" not in html and "src=\"data:" not in html
    images = re.findall(r'<img src="([^"]+)" alt="([^"]*)">', html)
    assert [alt for _, alt in images] == ["Pole bitwy o\xa0świcie", "Bród na rzece"]  # set as Polish is
    for src, _ in images:
        assert re.fullmatch(r"rules-(field|ford)-[0-9a-f]{8}\.png", src)
        copy = (root / "build/demo/pl" / src).resolve()
        assert copy.is_relative_to((root / "build").resolve())
        name = "field" if "field" in src else "ford"
        assert copy.read_bytes() == (root / f"games/demo/figures/{name}.png").read_bytes()
    assert sorted(f for f in built.files if f.endswith(".png")) == sorted(f"build/demo/pl/{src}" for src, _ in images)


def test_a_figure_replaced_leaves_no_copy_of_the_old_one(tmp_path):
    root = with_figures(tmp_path)
    options = Options(langs=["pl"], formats=["html"])
    builder.build(read_project(root), options)
    before = sorted(p.name for p in (root / "build/demo/pl").glob("*.png"))
    (root / "games/demo/figures/ford.png").write_bytes(png(200, 100, (200, 0, 0)))
    builder.build(read_project(root), options)
    after = sorted(p.name for p in (root / "build/demo/pl").glob("*.png"))
    assert len(after) == 2 and after != before and before[0] in after  # the field's copy kept, the ford's new


def error_of_build(root: Path, capsys) -> str:
    capsys.readouterr()
    assert main(["--project", str(root), "build", "--lang", "pl", "--format", "html"]) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return out.out + out.err


def test_a_missing_figure_names_the_path_it_looked_for(tmp_path, capsys):
    root = with_figures(tmp_path, "# Mapa {#map}\n\n![Mapa](figures/missing.png)\n")
    assert ("games/demo/two.md:3:9: image 'figures/missing.png' not found: looked for "
            "games/demo/figures/missing.png (expected: a .png, .jpg or .svg file inside the game folder, its path "
            "relative to the Markdown file)") in error_of_build(root, capsys)


@pytest.mark.parametrize("where", ["parent", "absolute", "link"])
def test_a_figure_outside_the_game_folder_is_refused(tmp_path, capsys, where):
    (tmp_path / "secret.png").write_bytes(png(10, 10, (0, 0, 0)))
    src = {"parent": "../../secret.png", "absolute": str(tmp_path / "secret.png"), "link": "figures/link.png"}[where]
    root = with_figures(tmp_path, f"# Mapa {{#map}}\n\n![Mapa]({src})\n")
    os.symlink(tmp_path / "secret.png", root / "games/demo/figures/link.png")
    message = error_of_build(root, capsys)
    assert {"parent": f"image '{src}' leads outside the game folder (looked for secret.png)",
            "absolute": f"image '{src}' is not a path relative to the Markdown file",
            "link": f"image '{src}' leads outside the game folder (looked for games/demo/figures/link.png)"}[where] \
        in message
    assert not (root / "build/demo/pl/rules.html").exists()


@pytest.mark.parametrize("markdown, message", [
    ("| a | b |\n|---|---|\n| ![x](figures/ford.png) | y |\n",
     "games/demo/two.md:5:3: an image in a table cell (expected: an image alone in its paragraph, outside the table)"),
    ("Tekst[^uwaga] bez przypisu.\n",  # a footnote without its note: left as text by markdown-it
     "games/demo/two.md:3:6: footnote '[^uwaga]' has no note (expected: [^uwaga]: the note's text, in the same file)"),
    ("![Mapa](figures/my ford.png)\n",
     "games/demo/two.md:3:1: image '![Mapa](figures/my ford.png)' cannot be read"),
])
def test_markdown_that_would_print_as_written_is_an_error(tmp_path, capsys, markdown, message):
    root = with_figures(tmp_path, "# Mapa {#map}\n\n" + markdown)
    assert message in error_of_build(root, capsys)


def test_a_path_with_a_space_in_angle_brackets_is_the_files_own_name(tmp_path):
    root = with_figures(tmp_path, "# Mapa {#map}\n\n![Bród](<figures/my ford.png>)\n")
    (root / "games/demo/figures/my ford.png").write_bytes(png(20, 10, (0, 0, 0)))
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["html", "pdf"]))
    assert not summary.failed and next(b for b in summary.built if b.aid == "rules").warnings == []
    assert {img.image.size for page in PdfReader(root / "build/demo/pl/rules.pdf").pages for img in page.images} \
        == {(20, 10)}


# --- captions, a language's own image, across the columns (issue 36) ----------------------------------------

def test_a_caption_is_translated_and_an_image_holding_text_has_a_variant_per_language(tmp_path):
    root = with_figures(tmp_path, '# Mapa {#map}\n\n![Pole bitwy](figures/field.png "Pole bitwy o świcie")\n')
    (root / "games/demo/figures/field.ru.png").write_bytes(png(300, 200, (200, 30, 30)))  # its labels in Russian
    assert main(["--project", str(root), "extract"]) == 0 and main(["--project", str(root), "update"]) == 0
    pot = (root / "i18n/templates/demo.pot").read_text(encoding="utf-8")
    assert '#. Figure caption in section 2\n#: games/demo/two.md\nmsgctxt "rules/map"\nmsgid "Pole bitwy o świcie"' in pot
    summary = builder.build(read_project(root), Options(langs=["pl", "ru"], formats=["html", "pdf"]))
    assert not summary.failed, summary.failed
    assert [b.warnings for b in summary.built if b.aid == "rules"] == [[], []]
    for lang, colour in (("pl", (90, 120, 60)), ("ru", (200, 30, 30))):
        html = (root / f"build/demo/{lang}/rules.html").read_text(encoding="utf-8")
        src = re.search(r'<figure class="figure"><img src="([^"]+)" alt="[^"]*">'
                        r'<figcaption>(<span lang="pl">)?Pole bitwy o.świcie(</span>)?</figcaption></figure>', html)
        assert src, html[html.find("<figure"):][:300]
        assert (root / f"build/demo/{lang}" / src.group(1)).read_bytes() == png(300, 200, colour)
        pdf = PdfReader(root / f"build/demo/{lang}/rules.pdf")
        pixels = {img.indirect_reference.idnum: img.image.getpixel((5, 5)) for page in pdf.pages for img in page.images}
        assert list(pixels.values()) == [colour], (lang, pixels)
        assert "Pole bitwy o świcie" in " ".join(" ".join(p.extract_text().split()) for p in pdf.pages)


def test_a_wide_block_spans_both_columns_of_a_two_column_booklet(tmp_path):
    from ..model.test_booklet import BOOKLET
    rows = "".join(f"| {n} | tekst wiersza numer {n} | {n * 3} |\n" for n in range(1, 6))
    table = "| Lp. | Opis wyniku starcia | Straty |\n|---|---|---|\n" + rows
    two = f"# Tabela {{#tab}}\n\n{'Tekst akapitu. ' * 40}\n\n::: wide\n{table}:::\n\n{'Dalszy tekst. ' * 40}\n"
    root = with_figures(tmp_path, two)
    (root / "games/demo/rules.yaml").write_text(BOOKLET.replace("page_size: A5", "page_size: A4\ncolumns: 2"),
                                                encoding="utf-8")
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["pdf", "html"]))
    assert not summary.failed, summary.failed
    assert '<div class="wide">' in (root / "build/demo/pl/rules.html").read_text(encoding="utf-8")
    reader = PdfReader(root / "build/demo/pl/rules.pdf")
    page = next(p for p in reader.pages if "Opis wyniku starcia" in p.extract_text())
    middle, runs = float(page.mediabox.width) / 2, text_runs(page)
    table = min(y for _, y, _, _, run in runs if "Opis wyniku starcia" in run)
    above = {x < middle for x, y, _, _, run in runs if "Tekst akapitu" in run and y > table}
    below = {x < middle for x, y, _, _, run in runs if "Dalszy tekst" in run and y < table}
    # the text before the table fills both columns above it, the text after both columns below it
    assert above == {True, False} and below == {True, False}, (above, below)


@pytest.mark.unit
def test_a_wide_block_inside_a_box_is_an_error(tmp_path):
    from ..model.test_booklet import error_of
    assert "games/demo/two.md:4:1: ::: wide inside a box (note)" in error_of(
        tmp_path, two_md="# A {#a}\n\n::: note\n::: wide\nx\n:::\n:::\n")


# --- a figure taller than its column (issue 44) -----------------------------------------------------------

def image_placements(path: Path) -> list[tuple[int, float, float, float, float, tuple[int, int]]]:
    """(page, x, y, width, height, its pixels) of every image drawn, in mm from the page's lower left."""
    found = []
    for number, page in enumerate(PdfReader(path).pages):
        xobjects = {str(k): v.get_object() for k, v in (page["/Resources"].get("/XObject") or {}).items()}
        images = {name: x for name, x in xobjects.items() if x.get("/Subtype") == "/Image"}

        def visit(op, args, cm, tm, number=number, images=images):
            if op == b"Do" and args and str(args[0]) in images:
                pixels = int(images[str(args[0])]["/Width"]), int(images[str(args[0])]["/Height"])
                found.append((number, cm[4] / PT_PER_MM, cm[5] / PT_PER_MM, cm[0] / PT_PER_MM, cm[3] / PT_PER_MM, pixels))
        page.extract_text(visitor_operand_before=visit)
    return found


TALL = {  # a page size and columns -> an image (pixels) as wide as the column is and 5 mm taller than it
    "A5": ("page_size: A5", (480, 724)),  # a column 120 x 176 mm: at 120 mm wide, 181 mm tall
    "A4, two columns": ("page_size: A4\ncolumns: 2", (400, 1225)),  # a column 87.5 x 263 mm: 268 mm tall
}
PAGE_AREA = (16, 18)  # mm above and below the text of a booklet's page (kinds/__init__.py, Booklet.margins)
SECTION = "Akapit o ukształtowaniu terenu, rzekach i drogach, który poprzedza mapę. " * 6


def tall_figure(tmp_path, layout: str, caption: str = "Pole bitwy o świcie, widok od północy") -> Path:
    from ..model.test_booklet import BOOKLET
    two = (f"# Mapa {{#map}}\n\n{SECTION}\n\n## Pole bitwy {{#field}}\n\n![Pole bitwy](figures/tall.png \"{caption}\")"
           f"\n\n{SECTION}\n")
    root = with_figures(tmp_path, two)
    (root / "games/demo/rules.yaml").write_text(BOOKLET.replace("page_size: A5", TALL[layout][0]), encoding="utf-8")
    (root / "games/demo/figures/tall.png").write_bytes(png(*TALL[layout][1], (90, 120, 60)))
    return root


@pytest.mark.parametrize("layout", list(TALL))
def test_a_figure_a_few_mm_taller_than_its_column_is_scaled_to_fit_it_with_its_caption(tmp_path, layout):
    """It printed alone on a page it ran past the foot of, its caption on the next page, the pages before it
    nearly blank (its heading and the section before it pushed along): scaled to its column, proportions kept."""
    root = tall_figure(tmp_path, layout)
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["pdf"]))
    assert not summary.failed, summary.failed
    assert next(b for b in summary.built if b.aid == "rules").warnings == []
    pdf = root / "build/demo/pl/rules.pdf"
    reader = PdfReader(pdf)
    height = float(reader.pages[0].mediabox.height) / PT_PER_MM
    [(page, _, y, width, drawn, pixels)] = [p for p in image_placements(pdf) if p[5] == TALL[layout][1]]
    assert abs(width / drawn - pixels[0] / pixels[1]) < 0.005, (width, drawn)  # its proportions kept
    assert y >= PAGE_AREA[1] - 0.2 and y + drawn <= height - PAGE_AREA[0] + 0.2, (y, drawn)  # inside the page area
    caption = [run for run in text_runs(reader.pages[page]) if "Pole bitwy o" in run[4]]
    assert caption and caption[0][1] / PT_PER_MM < y, (page, caption)  # under it, on its page
    for number, sheet in enumerate(reader.pages):  # no page without text of its own (its heads and feet aside)
        body = [r for r in text_runs(sheet) if PAGE_AREA[1] * PT_PER_MM < r[1] < (height - PAGE_AREA[0]) * PT_PER_MM]
        assert body or any(p[0] == number for p in image_placements(pdf)), f"page {number + 1} is blank"


def test_a_figure_whose_caption_cannot_fit_under_it_is_a_warning_at_its_source(tmp_path):
    root = tall_figure(tmp_path, "A5", "Pole bitwy o świcie, widok od północy, z brodem i młynem. " * 12)
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["pdf"]))
    assert not summary.failed, summary.failed
    assert next(b for b in summary.built if b.aid == "rules").warnings == [
        "games/demo/two.md:7:1: the figure 'figures/tall.png' and its caption do not fit one column: the caption is "
        "printed apart (expected: a figure that fits its column with its caption: a shorter caption, or a wider and "
        "lower image)"]


def test_every_figure_of_every_sample_pdf_ends_above_its_pages_foot(sample, for_print):
    """Every tagged PDF the samples make (home, gray, press; every language): each figure (its /Figure structure
    element's box, as a screen reader or a reflow tool finds it) ends above the running foot of its page (the
    lowest line of text), and no build said a figure does not fit its column."""
    import pikepdf

    from .test_lines import every_pdf
    seen = set()
    for path, output in every_pdf(sample, for_print):
        pages = PdfReader(path).pages
        with pikepdf.open(path) as pdf:
            numbers = {page.objgen: n for n, page in enumerate(pdf.pages)}
            figures = [(numbers[o.Pg.objgen], [float(v) for v in o.A.BBox]) for o in pdf.objects
                       if isinstance(o, pikepdf.Dictionary) and o.get("/S") == "/Figure" and "/A" in o
                       and "/BBox" in o.A and "/Pg" in o]
        feet: dict[int, float] = {}  # a page's foot, read once for all its figures (a playsheet's icons)
        for number, (_, bottom, _, top) in figures:
            seen.add(path.name)
            if number not in feet:
                feet[number] = min(run[1] for run in text_runs(pages[number]))
            assert bottom > feet[number], f"{path.relative_to(output)}, page {number + 1}: a figure over the page's foot"
    assert {"ford.pdf", "ford-press.pdf"} <= seen  # the scenario's map
    assert not [w for b in sample[1].built for w in b.warnings if "figure" in w]
