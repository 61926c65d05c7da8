"""Print-ready output, read back from the samples' PDFs in every language: the typography of each
language, as a reader sees it in the text layer."""
import re

import pikepdf
import pytest
from babel.dates import get_month_names
from pypdf import PdfReader
from pypdf.generic import ContentStream

from aids.commands.report import summary_text
from aids.config import Print
from aids.localize.typography import rules_for
from aids.units import PT_PER_MM

from ..helpers import REPO, claims_pdf_x, outputs, pdf_fonts, pdf_text, rgb_in, text_runs, units

NBSP = "\u00a0"


def pdfs(project, *, cards: bool = True):
    return [p for p in sorted(project.output.rglob("*.pdf"))
            if p.parent.name in ("pl", "en", "ru") and (cards or "card" not in p.name)]


def lines_of(path):
    return [line.strip() for line in text_of(path).split("\n") if line.strip()]


text_of = pdf_text


def test_no_line_ends_in_a_one_letter_word(sample):
    project, _ = sample
    checked = 0
    for path in pdfs(project):
        short = set(rules_for(path.parent.name).one_letter)
        for line in lines_of(path):
            assert line.split()[-1] not in short, f"{path.relative_to(project.output)}: “…{line[-40:]}”"
            checked += 1
    assert checked > 2000


def _months(lang):
    names = {n for c in ("format", "stand-alone") for n in get_month_names("wide", c, locale=lang).values()}
    return "|".join(sorted(names, key=len, reverse=True))


@pytest.mark.parametrize("lang", ["pl", "en", "ru"])
def test_references_dates_and_numbers_do_not_break(sample, lang):
    """WeasyPrint keeps a non-breaking space in the text layer: a plain one there is a place a line may end."""
    project, _ = sample
    breakable = {
        "reference": r"(?<!\w)(?:[Kk]rok|[Ss]tep|[Шш]аг|[Pp]atrz|[Ss]ee|см\.|p\.|s\.|с\.|[Rr]ozdział|[Cc]hapter|главу) [\dIVX]",
        "date": rf"(?<![\d.,])\d{{1,2}} (?:{_months(lang)})\b|(?:{_months(lang)}) \d{{4}}",
        "thousands": r"(?<![\d.,])\d{1,3} \d{3}(?![\d.,])",
        "number and unit": r"(?<![\d.])\d+ (?:cm|mm|in|GA|pkt\.|г\.|см|%)(?!\w)",
    }
    texts = {path: text_of(path) for path in pdfs(project, cards=False) if path.parent.name == lang}
    assert len(texts) >= 7
    for path, text in texts.items():
        for what, pattern in breakable.items():
            if what == "thousands" and "playsheet" in path.name:
                continue  # a row of number cells (80 120) reads as one line there
            found = re.findall(f".{{0,20}}(?:{pattern}).{{0,10}}", text)
            assert not found, f"{path.relative_to(project.output)}: a {what} may break: {found[:3]}"
    assert sum(t.count(NBSP) for t in texts.values()) > 300
    # a card drawn by ReportLab keeps no NBSP in its text layer: its date is read off its lines
    day = {"pl": "11 sierpnia", "en": "11 August", "ru": "11 августа"}[lang]
    lines = lines_of(project.output / "lwow-1920" / lang / "referee-card.pdf")
    assert any(day in " ".join(line.split()) for line in lines), day


def test_quotes_dashes_and_apostrophes_are_the_languages(sample):
    project, _ = sample
    for path in pdfs(project):
        text, lang = text_of(path), path.parent.name
        assert "'" not in text, f"{path}: a straight apostrophe"
        assert not re.search(r'(?<!\d)"', text), f"{path}: a straight quotation mark"
        if lang == "ru":
            assert not re.search(r"(?<=[^\W\d_]) [–-] (?=[^\W\d_])", text), f"{path}: – between clauses"
    en = text_of(project.output / "lwow-1920" / "en" / "referee-card.pdf")
    assert "commander’s" in en
    ru = text_of(project.output / "ostroleka-1831" / "ru" / "sequence-of-play.pdf")
    assert re.search(r"\S[\s\u00a0]— \S", ru)


# --- referee cards: type that fills the face, balanced columns ------------------------------------

runs_of = text_runs


@pytest.mark.parametrize("lang", ["pl", "en", "ru"])
def test_card_faces_fill_their_columns_at_one_readable_size(sample, lang):
    project, summary = sample
    reader = PdfReader(project.output / "lwow-1920" / lang / "referee-card.pdf")
    note = next(b for b in summary.built if b.aid == "referee-card" and b.lang == lang).notes[0]
    sizes = []
    for page, face in zip(reader.pages, ("front", "back")):
        width = float(page.mediabox.width)
        foot = min(r[1] for r in runs_of(page))  # the colophon's line
        runs = [r for r in runs_of(page) if r[1] > foot + 1]  # above the colophon
        body = max({r[2] for r in runs if "Condensed" in r[3]}, key=lambda s: sum(r[2] == s for r in runs))
        assert 8 <= body <= 10, (face, body)
        sizes.append(body)
        assert note.startswith(f"type {body:g} pt")  # the summary names the size chosen
        headings = {r[2] for r in runs if "Bold" in r[3] and r[4].isupper() and len(r[4]) > 3}
        assert headings and min(headings) >= 1.15 * body  # clearly larger than the body
        columns = [[r for r in runs if (r[0] < width / 2) == (i == 0)] for i in range(2)]
        top = max(r[1] for r in runs)
        used = [top - min(r[1] for r in column) for column in columns]
        assert max(used) - min(used) <= 0.25 * max(used), (face, used)  # no column much emptier than the other
        colophon = [r for r in runs_of(page) if r[1] <= foot + 1]
        assert len(colophon) == 1 and colophon[0][0] < width / 2  # no "Front"/"Back" under the face
    assert sizes[0] == sizes[1]  # both faces at one size
    back = runs_of(reader.pages[1])
    width = float(reader.pages[1].mediabox.width)
    points = [r for r in back if re.fullmatch(r"[+−]\d+", r[4])]
    assert len(points) >= 6
    if len({r[0] < width / 2 for r in points}) > 1:  # the victory points go on in the next column: marked so
        mark = {"pl": "(cd.)", "en": "(cont.)", "ru": "(продолж.)"}[lang]
        second = [r for r in back if r[0] > width / 2]
        assert max(second, key=lambda r: r[1])[4].endswith(mark)


# --- playsheets: columns as wide as their content, nothing below the minimum size ----------------

def playsheets(project):
    return [p for p in pdfs(project) if p.name == "playsheet.pdf"]


def test_no_cell_word_is_hyphenated_in_a_playsheet(sample):
    project, _ = sample
    assert {p.relative_to(project.output).as_posix() for p in playsheets(project)} == \
        outputs(project, ".pdf", kinds={"playsheet"})
    for path in playsheets(project):
        html = path.with_suffix(".html").read_text()
        for before, after in re.findall(r"(\S*[^\W\d_])[-\u2010\u00ad]\n(\S+)", text_of(path)):
            assert f"{before}-{after}" in html, f"{path.relative_to(project.output)}: “{before}-/{after}”"


def test_every_playsheet_glyph_is_at_or_above_the_minimum_size(sample):
    project, _ = sample
    for path in playsheets(project):
        sizes = [r[2] for page in PdfReader(path).pages for r in runs_of(page)]
        assert min(sizes) >= 6.5, (path, sorted(set(sizes)))  # the sheet's min_type
        body = max(set(sizes), key=sizes.count)
        assert sizes.count(round(body * 1.15, 2)) >= 15  # every table title set apart from the body


def test_the_right_hand_key_column_has_its_header(sample):
    project, _ = sample
    for lang, corner in (("pl", "Współczynnik"), ("en", "Factor"), ("ru", "Фактор")):
        page = PdfReader(project.output / "newbury-fast-play" / "cm" / lang / "playsheet.pdf").pages[0]
        assert page.extract_text().count(corner) == 2, lang


# --- booklets and sequences laid out like printed rules ------------------------------------------

NOTE = ("Uwaga:", "Note:", "Примечание:")


def body_lines(page, columns: int = 1):
    """The lines of a page's text in reading order, top to bottom, column by column (a run's x decides its
    column), without the running header and footer."""
    height, width = float(page.mediabox.height), float(page.mediabox.width)
    runs = [r for r in runs_of(page) if 18 * PT_PER_MM < r[1] < height - 14 * PT_PER_MM]
    rows: dict = {}
    for x, y, _, _, text in runs:
        rows.setdefault((columns == 2 and x > width / 2, -round(y)), []).append((x, text))
    return [" ".join(t for _, t in sorted(rows[key])) for key in sorted(rows)]


def test_no_page_starts_with_a_note_or_ends_in_a_hyphenated_word(sample):
    project, _ = sample
    checked = 0
    for path in pdfs(project, cards=False):
        if "playsheet" in path.name:
            continue
        html = " ".join(path.with_suffix(".html").read_text().split())
        pages = PdfReader(path).pages
        for number, page in enumerate(pages, 1):
            lines = body_lines(page, 2 if "rules" in path.name else 1)
            if number > 1 and lines:
                assert not lines[0].startswith(NOTE), f"{path.relative_to(project.output)} p. {number}: {lines[0]}"
            if number < len(pages) and lines:
                last = lines[-1].split()[-1]
                hyphenated = last.endswith("-") and last[-2:-1].isalpha() and last not in html
                assert not hyphenated, f"{path.relative_to(project.output)} p. {number} ends in “{last}”"
            checked += 1
    assert checked > 50


def test_the_booklet_has_two_columns_and_facing_margins_with_a_binding_margin(sample):
    project, _ = sample
    for lang in ("pl", "en", "ru"):
        pages = PdfReader(project.output / "gcacw" / lang / "system-rules.pdf").pages
        mm = PT_PER_MM
        for number, page in enumerate(pages[2:], 3):
            xs = [r[0] for r in runs_of(page) if r[1] > 20 * mm]
            width = float(page.mediabox.width)
            left = min(xs) / mm
            inner = 19 if number % 2 else 14  # a right-hand (odd) page has its binding margin on the left
            assert abs(left - inner) < 1.5, (lang, number, left)
            assert any(x > width / 2 + 2 * mm for x in xs) and any(x < width / 2 - 40 * mm for x in xs)


# --- the press profile: PDF/X-4 in CMYK, bleed and marks outside it ------------------------------

PRESS_GAMES, PRESS_LANGS = ("lwow-1920", "gcacw"), ("pl", "ru")


def pressed(project, pattern: str) -> list:
    """The files of the card and the booklet in pl and ru matching `pattern`."""
    return sorted(p for p in project.output.rglob(pattern)
                  if p.parent.name in PRESS_LANGS and p.parent.parent.name in PRESS_GAMES)


@pytest.fixture(scope="module")
def press(for_print):
    """The card and the booklet built for the press (pl, ru), beside the samples' own build."""
    return for_print, [p for p in pressed(for_print, "*-press.pdf") if not p.name.endswith("-imposed-press.pdf")]


def imposed_for_press(project):
    return pressed(project, "*-imposed-press.pdf")




def test_press_pdfs_declare_pdf_x_with_an_output_intent(press):
    project, paths = press
    assert {p.relative_to(project.output).as_posix() for p in paths} == {
        u.path(lang, "-press.pdf") for u in units(project) if u.game in PRESS_GAMES for lang in PRESS_LANGS}
    for path in paths:
        reader = PdfReader(path)
        assert path.read_bytes().startswith(b"%PDF-1.6")
        assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-4"
        xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode()
        assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
        intents = reader.trailer["/Root"]["/OutputIntents"]
        intent = intents[0].get_object()
        assert intent["/S"] == "/GTS_PDFX" and intent["/DestOutputProfile"].get_object()["/N"] == 4
        assert intent["/DestOutputProfile"].get_object().get_data()[36:40] == b"acsp"  # an ICC profile
        fonts = pdf_fonts(path)
        prefixes = [name.split("+")[0] for name in fonts]
        assert all(fonts.values()) and len(set(prefixes)) == len(prefixes), fonts  # embedded, distinct subsets


def test_press_pages_have_trim_and_bleed_and_marks_outside_the_bleed(press):
    _, paths = press
    for path in paths:
        reader = PdfReader(path)
        for page in reader.pages:
            trim = [float(v) for v in page.trimbox]
            bleed = [float(v) for v in page.bleedbox]
            media = [float(v) for v in page.mediabox]
            assert "/TrimBox" in page and "/BleedBox" in page and "/ArtBox" not in page
            assert [round((t - b) / PT_PER_MM, 2) for t, b in zip(trim[:2], bleed[:2])] == [3.0, 3.0]
            assert [round((b - t) / PT_PER_MM, 2) for t, b in zip(trim[2:], bleed[2:])] == [3.0, 3.0]
            assert media[0] < bleed[0] - 5 * PT_PER_MM and media[3] > bleed[3] + 5 * PT_PER_MM  # the sheet grew for the marks
            last = page["/Contents"][-1].get_object()  # the marks, after the page's own content
            marks = [[float(v) for v in operands] for operands, op in ContentStream(last, reader).operations
                     if op in (b"m", b"l")]
            outside = [(x, y) for x, y in marks if not (bleed[0] <= x <= bleed[2] and bleed[1] <= y <= bleed[3])]
            assert len(outside) >= 16  # 8 marks, both ends outside the bleed
            assert all(media[0] <= x <= media[2] and media[1] <= y <= media[3] for x, y in outside)
            marks_in_bleed = [(x, y) for x, y in marks if (x < trim[0] or x > trim[2] or y < trim[1] or y > trim[3])
                              and bleed[0] <= x <= bleed[2] and bleed[1] <= y <= bleed[3]]
            assert not marks_in_bleed


def test_press_pdfs_have_no_annotations(press):
    """A preflight flags an annotation inside the bleed box; a link does nothing on paper."""
    _, paths = press
    for path in paths:
        assert all("/Annots" not in page for page in PdfReader(path).pages), path.name


def test_press_colours_are_cmyk_and_text_black_only(press):
    project, paths = press
    for path in [*paths, *imposed_for_press(project)]:
        reader = PdfReader(path)
        for page in reader.pages:
            fill, space, stack = None, None, []
            for operands, op in ContentStream(page.get_contents(), reader).operations:
                assert op not in (b"rg", b"RG", b"g", b"G"), f"{path.name}: an RGB or grey colour ({op})"
                if op == b"q":
                    stack.append((fill, space))
                elif op == b"Q" and stack:
                    fill, space = stack.pop()
                elif op == b"cs":
                    space = str(operands[0])
                elif op == b"k" or (op in (b"sc", b"scn") and space == "/DeviceCMYK"):
                    fill = tuple(round(float(v), 3) for v in operands)
                elif op in (b"Tj", b"TJ"):
                    assert fill is not None and fill[:3] == (0, 0, 0), f"{path.name}: text in {fill}"


GAMES = {"gcacw", "lwow-1920", "newbury-fast-play", "ostroleka-1831", "valmora-1809", "valmora-scenarios"}


def test_no_file_that_claims_pdf_x_holds_rgb(for_print):
    """A press file is CMYK and gray only: every press and imposed-press PDF of every game, edition and language,
    read back object by object and content stream by content stream. Before: the referee card's icons, the
    playsheets' icons and the themed scenario's figure painted in DeviceRGB, its transparency groups blended in
    DeviceRGB and its page art an RGB image, in files that claim PDF/X-4."""
    output = for_print.output
    claimed = [path for path in sorted(output.rglob("*.pdf")) if claims_pdf_x(path)]
    assert claimed == sorted(output.rglob("*-press.pdf"))  # every press file claims it, and no other file
    assert {path.relative_to(output).parts[0] for path in claimed} == GAMES
    assert {path.parent.name for path in claimed} == {"pl", "en", "ru"} and len(claimed) >= 39
    assert {"referee-card-press.pdf", "playsheet-press.pdf", "rules-press.pdf", "rules-imposed-press.pdf",
            "system-rules-imposed-press.pdf"} <= {path.name for path in claimed}
    for path in claimed:
        found = rgb_in(path)
        assert not found, f"{path.relative_to(output)}: {len(found)} RGB, {found[:3]}"


def test_the_themes_colours_and_page_art_print_as_they_look(for_print):
    """The theme's red banners and sand table heads, given as #rrggbb, in the press's CMYK through its profile
    (what the screen shows, as near as offset prints it), and its page art a CMYK image that looks as the PNG."""
    from colorspacious import deltaE
    from PIL import Image, ImageCms

    from aids.render import recolour
    from aids.render.colours import PROFILE
    path = for_print.output / "valmora-scenarios" / "en" / "rules-press.pdf"
    with pikepdf.open(path) as pdf:
        painted = {tuple(round(float(v), 4) for v in i.operands) for i in pikepdf.parse_content_stream(pdf.pages[0])
                   if str(i.operator) == "scn" and len(i.operands) == 4}
        images = [pikepdf.PdfImage(obj) for obj in pdf.objects if isinstance(obj, pikepdf.Stream)
                  and obj.get("/Subtype") == "/Image" and obj.get("/Width") == 420]
        art = images[0].as_pil_image()
    for name, value in (("banner", "#8c1c13"), ("table head", "#d8c49a")):
        rgb = tuple(int(value[i:i + 2], 16) / 255 for i in (1, 3, 5))
        assert recolour.PRESS_TARGET.colour(rgb, recolour.RGB, None) in painted, name
    assert art.mode == "CMYK" and art.size == (420, 594)
    back = ImageCms.buildTransform(ImageCms.ImageCmsProfile(str(PROFILE)), ImageCms.createProfile("sRGB"), "CMYK",
                                   "RGB", renderingIntent=1)
    seen = ImageCms.applyTransform(art, back).resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))
    with Image.open(REPO / "games/valmora-scenarios/theme/paper.png") as png:
        given = png.convert("RGB").resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))
    assert deltaE(seen, given, input_space="sRGB255") < 2, (seen, given)  # its mean tone, within 2 ΔE (CAM02-UCS)


def test_press_pdfs_pass_qpdf_and_are_reproducible(press, tmp_path):
    import shutil
    import subprocess

    from aids.config import read_project
    from aids.pipeline import builder
    from aids.pipeline.pipeline import Options

    from ..helpers import copy_project
    project, paths = press
    imposed = pressed(project, "*-imposed*.pdf")
    assert {p.relative_to(project.output).as_posix() for p in imposed} == {  # for a duplex printer and the press
        u.path(lang, suffix) for u in units(project) if u.game in PRESS_GAMES and u.kind == "booklet"
        for lang in PRESS_LANGS for suffix in ("-imposed.pdf", "-imposed-press.pdf")}
    every = sorted(project.output.rglob("*-press.pdf"))  # every game's, converted to CMYK where it had RGB
    if shutil.which("qpdf"):
        for path in [*every, *imposed]:
            done = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
            assert done.returncode == 0 and "No syntax or stream encoding errors" in done.stdout, (path, done.stdout)
    games = ["lwow-1920", "gcacw", "valmora-scenarios"]  # a card, a booklet, a theme's page art and a figure
    before = {p.relative_to(project.root): p.read_bytes() for p in [*every, *imposed]
              if p.parent.name == "pl" and p.parts[-3] in games}
    assert {p.parts[-3] for p in before} == set(games)
    again = copy_project(project.root, tmp_path / "again")  # rendered again in a copy: the shared build stays
    builder.build(read_project(again), Options(games=games, langs=["pl"], formats=["press", "imposed"], force=True))
    assert all((again / p).read_bytes() == data for p, data in before.items())


@pytest.mark.unit
def test_print_settings_in_aids_yaml_per_game(tmp_path):
    from aids.config import read_project
    from aids.errors import AidsError

    from ..helpers import make_project
    root = make_project(tmp_path, {"aids.yaml": "languages: [pl, en]\nprint:\n  profile: press\n  bleed: 5\n"
                                                "  games: {demo: {marks: none}}\n"})
    project = read_project(root)
    assert project.print_for("other") == Print("press", 5.0, "crop")
    assert project.read_game("demo").printing == Print("press", 5.0, "none")
    (root / "aids.yaml").write_text("languages: [pl]\nprint: {profile: offset, bleed: -1, marks: cross}\n")
    with pytest.raises(AidsError) as info:
        read_project(root)
    text = str(info.value)
    assert ("aids.yaml:2:18: unknown print profile 'offset' (expected: home, press or gray, or a list of them: "
            "[press, gray])") in text
    assert "aids.yaml:2:33: bleed '-1' is not a width in mm" in text
    assert "aids.yaml:2:44: unknown marks 'cross' (expected: crop or none)" in text
    # more than one profile: a list (the gray one for a monochrome printer), per game too
    (root / "aids.yaml").write_text("languages: [pl]\nprint:\n  profile: [press, gray]\n"
                                    "  games: {demo: {profile: gray}}\n")
    project = read_project(root)
    assert project.print_for("other") == Print("press", 3.0, "crop", gray=True)
    assert project.read_game("demo").printing == Print("home", 3.0, "crop", gray=True)
    (root / "aids.yaml").write_text("languages: [pl]\nprint: {profile: [home, grey]}\n")
    with pytest.raises(AidsError) as info:
        read_project(root)
    assert "aids.yaml:2:18: unknown print profile 'grey'" in str(info.value)


# --- duplex and imposition -------------------------------------------------------------------

@pytest.mark.parametrize("suffix", ["-imposed.pdf", "-imposed-press.pdf"])
def test_the_imposed_booklet_reads_in_order_when_folded(sample, press, suffix):
    project, _ = press
    for lang, word in (("pl", "Strona"), ("ru", "Страница")):
        booklet = PdfReader(sample[0].output / "gcacw" / lang / "system-rules.pdf")
        imposed = PdfReader(project.output / "gcacw" / lang / f"system-rules{suffix}")
        pages = len(booklet.pages)
        assert len(imposed.pages) == 2 * -(-pages // 4)  # padded to a multiple of four, two a side
        width = float(booklet.pages[0].mediabox.width)
        assert float(imposed.pages[0].trimbox.width) == pytest.approx(2 * width)
        spine = float(imposed.pages[0].trimbox.left) + width
        n = len(imposed.pages) * 2
        for s, side in enumerate(imposed.pages):
            sheet, back = divmod(s, 2)
            expected = (2 * sheet + 2, n - 2 * sheet - 1) if back else (n - 2 * sheet, 2 * sheet + 1)
            found = {}
            for x, _, _, _, text in runs_of(side):
                m = re.search(rf"{word}\s(\d+)", text.replace(NBSP, " "))
                if m:
                    found["left" if x < spine else "right"] = int(m.group(1))
            for half, number in zip(("left", "right"), expected):
                if number == 1 or number > pages:
                    assert half not in found  # the title page has no footer; a blank has nothing
                else:
                    assert found.get(half) == number, (lang, s, found, expected)


def test_the_summary_says_how_many_blank_pages_an_imposition_added_and_where(for_print_build):
    """The Great Campaigns' system rules have 10 pages in each language: both impositions fill the third sheet
    with two blanks after page 10, and the build summary says so under the booklet (a note: --strict passes)."""
    project, summary = for_print_build
    text = summary_text(summary)
    said = text[text.index("\ngcacw system-rules:\n"):].split("\n")
    for suffix in ("imposed", "imposed-press"):
        assert (f"  note: system-rules-{suffix}.pdf: 10 pages padded to 12 with 2 blank pages at the end (pages 11-12) "
                "to fill the last sheet; a booklet's pages: {multiple: 4} saves them (pl en ru)") in said
        for lang in ("pl", "en", "ru"):  # as the file has them: twelve pages, two a side
            assert len(PdfReader(project.output / "gcacw" / lang / f"system-rules-{suffix}.pdf").pages) == 6


def test_the_press_imposition_stays_pdf_x_with_the_sheets_boxes_and_marks(press):
    project, _ = press
    for path in imposed_for_press(project):
        reader = PdfReader(path)
        page = PdfReader(path.with_name("system-rules-press.pdf")).pages[0]
        width, height = float(page.trimbox.width), float(page.trimbox.height)
        assert path.read_bytes().startswith(b"%PDF-1.6")
        assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-4" and reader.metadata["/Trapped"] == "/False"
        title = {"pl": "(impozycja dla drukarni)", "ru": "(спуск полос для типографии)"}[path.parent.name]
        assert reader.metadata["/Title"].endswith(title)
        xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode()
        assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp and title in xmp
        intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
        assert intent["/S"] == "/GTS_PDFX" and intent["/DestOutputProfile"].get_object()["/N"] == 4
        fonts = pdf_fonts(path)
        assert all(fonts.values()) and len({n.split("+")[0] for n in fonts}) == len(fonts)
        for side in reader.pages:
            trim = [float(v) for v in side.trimbox]
            bleed = [float(v) for v in side.bleedbox]
            media = [float(v) for v in side.mediabox]
            assert [trim[2] - trim[0], trim[3] - trim[1]] == pytest.approx([2 * width, height])  # the two pages
            assert [b - t for t, b in zip(trim, bleed)] == pytest.approx([-3 * PT_PER_MM, -3 * PT_PER_MM, 3 * PT_PER_MM, 3 * PT_PER_MM])
            assert media[0] < bleed[0] - 5 * PT_PER_MM and media[3] > bleed[3] + 5 * PT_PER_MM and "/ArtBox" not in side
            assert "/Annots" not in side  # links to pages of the unimposed booklet would lead nowhere
            marks = [[float(v) for v in operands]
                     for operands, op in ContentStream(side["/Contents"][-1].get_object(), reader).operations
                     if op in (b"m", b"l")]
            assert len(marks) == 2 * (8 + 2)  # crop marks at the corners, fold marks at the spine
            assert all(not (bleed[0] <= x <= bleed[2] and bleed[1] <= y <= bleed[3]) for x, y in marks)
            assert sum(x == pytest.approx((trim[0] + trim[2]) / 2) for x, _ in marks) == 4


def test_the_office_imposition_is_plain_pdf_the_size_of_two_pages(sample, press):
    project, _ = press
    for lang in ("pl", "ru"):
        reader = PdfReader(project.output / "gcacw" / lang / "system-rules-imposed.pdf")
        home = PdfReader(sample[0].output / "gcacw" / lang / "system-rules.pdf").pages[0]
        title = {"pl": "(impozycja do druku dwustronnego)", "ru": "(спуск полос для двусторонней печати)"}[lang]
        assert reader.metadata["/Title"].endswith(title)
        assert "/OutputIntents" not in reader.trailer["/Root"] and "/GTS_PDFXVersion" not in reader.metadata
        for side in reader.pages:
            assert [float(v) for v in side.mediabox] == pytest.approx(
                [0, 0, 2 * float(home.mediabox.width), float(home.mediabox.height)])  # A3: two A4 pages
            assert side.trimbox == side.mediabox and side.bleedbox == side.mediabox and "/Annots" not in side


def test_the_duplex_test_page_and_back_offset(sample, tmp_path):
    from aids.render.card_sheet import SheetLayout
    project, _ = sample
    reader = PdfReader(project.output / "lwow-1920" / "pl" / "referee-card-duplex-test.pdf")
    assert len(reader.pages) == 2 and "Test druku dwustronnego" in reader.pages[0].extract_text()
    assert "back_offset" in reader.pages[0].extract_text()
    labels = reader.pages[1].extract_text().split()
    assert {"−4", "−2", "0", "+2", "+4", "x", "y"} <= set(labels)
    layout = SheetLayout((595.0, 842.0), 8.5, (100.0, 200.0), [(10.0, 20.0)])
    assert layout.backs() == [(485.0, 20.0)]
    assert layout.backs((1.5, -1)) == [pytest.approx((485 + 1.5 * PT_PER_MM, 20 - PT_PER_MM))]
