"""Saddle-stitch imposition on made-up pages whose trim and bleed are painted apart: what each sheet shows
where it will be cut, folded and left in the bleed (render/impose.py)."""
import io
import shutil
import subprocess

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject, RectangleObject

from aids.config import Print
from aids.render import impose, pdfx
from aids.units import PT_PER_MM

pytestmark = pytest.mark.unit

WIDTH, HEIGHT, BLEED = 100.0, 150.0, 3 * PT_PER_MM
TRIM_CMYK, BLEED_CMYK = "1 0 0 0", "0 1 0 0"  # each page cyan to its trim, magenta in its bleed


def made_up(pages: int, bleed: float = BLEED) -> bytes:
    """A press PDF as pdfx.finish makes it: TrimBox at the origin, BleedBox around it, the sheet grown by the
    slug; painted to the sheet's edge, its number in text at the top left of its trim."""
    writer = PdfWriter()
    room = bleed + pdfx.SLUG
    font = writer._add_object(DictionaryObject({NameObject("/Type"): NameObject("/Font"),
                                                NameObject("/Subtype"): NameObject("/Type1"),
                                                NameObject("/BaseFont"): NameObject("/Helvetica")}))
    for number in range(1, pages + 1):
        page = writer.add_blank_page(WIDTH + 2 * room, HEIGHT + 2 * room)
        page.mediabox = RectangleObject((-room, -room, WIDTH + room, HEIGHT + room))
        page.cropbox = page.mediabox
        page.trimbox = RectangleObject((0, 0, WIDTH, HEIGHT))
        page.bleedbox = RectangleObject((-bleed, -bleed, WIDTH + bleed, HEIGHT + bleed))
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject(
            {NameObject("/F1"): font})})
        content = DecodedStreamObject()
        content.set_data(f"{BLEED_CMYK} k {-room} {-room} {WIDTH + 2 * room} {HEIGHT + 2 * room} re f "
                         f"{TRIM_CMYK} k 0 0 {WIDTH} {HEIGHT} re f "
                         f"0 0 0 1 k BT /F1 10 Tf 5 {HEIGHT - 15} Td (page {number}) Tj ET".encode())
        page[NameObject("/Contents")] = writer._add_object(content)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_what_the_summary_says_of_the_blank_pages():
    assert impose.padding(8) == ""
    assert impose.padding(10) == ("10 pages padded to 12 with 2 blank pages at the end (pages 11-12) to fill the last "
                                  "sheet; a booklet's pages: {multiple: 4} saves them")
    assert impose.padding(5).startswith("5 pages padded to 8 with 3 blank pages at the end (pages 6-8)")
    assert impose.padding(11).startswith("11 pages padded to 12 with 1 blank page at the end (page 12)")


def test_the_saddle_order():
    assert impose.saddle_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert impose.saddle_order(6) == [(None, 1), (2, None), (6, 3), (4, 5)]  # padded with blanks at the end


@pytest.mark.integration
def test_a_press_sheet_abuts_its_pages_at_the_fold_and_keeps_their_outer_bleed():
    settings = Print("press", 3.0, "crop")
    data, sides = impose.saddle_stitch(made_up(8), "Booklet (imposed for the press)", impose.press_sheet(settings),
                                       1_700_000_000)
    reader = PdfReader(io.BytesIO(data))
    assert sides == len(reader.pages) == 4
    room = BLEED + pdfx.SLUG
    for side in reader.pages:
        assert [float(v) for v in side.trimbox] == pytest.approx([room, room, room + 2 * WIDTH, room + HEIGHT])
        assert [float(v) for v in side.bleedbox] == pytest.approx(
            [pdfx.SLUG, pdfx.SLUG, 2 * room + 2 * WIDTH - pdfx.SLUG, 2 * room + HEIGHT - pdfx.SLUG])
        assert [float(v) for v in side.mediabox] == pytest.approx([0, 0, 2 * room + 2 * WIDTH, 2 * room + HEIGHT])
    assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-4" and reader.metadata["/Title"].endswith("the press)")
    assert reader.trailer["/Root"]["/OutputIntents"][0].get_object()["/S"] == "/GTS_PDFX"
    # the pages in reading order: the left-hand page's text first
    assert reader.pages[1].extract_text().split() == ["page", "2", "page", "7"]
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm (poppler-utils) draws the sheet")
    pixels = render(data, 2)  # the back of the first sheet, at 1 px a pt

    def at(x: float, y: float) -> str:  # the colour at (x, y) pt from the sheet's lower left
        r, g, b = pixels[int(HEIGHT + 2 * room - y)][int(x)]
        return {(0, 255, 255): "cyan", (255, 0, 255): "magenta", (255, 255, 255): "white"}.get(
            (round(r / 255) * 255, round(g / 255) * 255, round(b / 255) * 255), f"{r} {g} {b}")

    middle, spine = room + HEIGHT / 2, room + WIDTH
    # across the sheet: slug, outer bleed, both trims meeting at the fold (no bleed of either there), bleed, slug
    assert [at(x, middle) for x in (pdfx.SLUG - 2, room - 1.5, room + 2, spine - 2, spine + 2,
                                    room + 2 * WIDTH - 2, room + 2 * WIDTH + 1.5, 2 * room + 2 * WIDTH - 1)] == \
        ["white", "magenta", "cyan", "cyan", "cyan", "cyan", "magenta", "white"]
    # above and below the fold: the bleed of both pages, then the slug
    assert [at(spine + dx, y) for dx in (-2, 2) for y in (room - 1.5, room + HEIGHT + 1.5, pdfx.SLUG - 2)] == \
        ["magenta", "magenta", "white"] * 2


def test_the_marks_of_a_press_sheet_are_outside_its_bleed():
    settings = Print("press", 3.0, "crop")
    data, _ = impose.saddle_stitch(made_up(4), "t", impose.press_sheet(settings), 0)
    side = PdfReader(io.BytesIO(data)).pages[0]
    x0, y0, x1, y1 = (float(v) for v in side.bleedbox)
    marks = side["/Contents"][-1].get_object().get_data().decode()
    lines = [[float(v) for v in line.split()[:2] + line.split()[3:5]] for line in marks.splitlines()
             if line.endswith(" l S")]
    assert len(lines) == 8 + 2  # a crop mark each side of every corner, a fold mark above and below
    for a, b, c, d in lines:
        assert not (x0 <= a <= x1 and y0 <= b <= y1) and not (x0 <= c <= x1 and y0 <= d <= y1)
    fold = [line for line in lines if line[0] == line[2] == pytest.approx((x0 + x1) / 2)]
    assert len(fold) == 2 and "[2 2] 0 d" in marks
    none, _ = impose.saddle_stitch(made_up(4), "t", impose.press_sheet(Print("press", 3.0, "none")), 0)
    bare = PdfReader(io.BytesIO(none)).pages[0]
    assert float(bare.mediabox.width) == pytest.approx(2 * WIDTH + 2 * BLEED)  # no slug without marks


def test_an_office_sheet_is_the_two_pages_and_nothing_else():
    home = made_up(4, bleed=0)
    reader = PdfReader(io.BytesIO(home))
    writer = PdfWriter(clone_from=reader)
    for page in writer.pages:  # the home PDF: the page is its trim, nothing around it
        page.mediabox = page.trimbox
        page.cropbox = page.trimbox
    out = io.BytesIO()
    writer.write(out)
    data, sides = impose.saddle_stitch(out.getvalue(), "Booklet (imposed for a duplex printer)")
    imposed = PdfReader(io.BytesIO(data))
    assert sides == 2 and imposed.metadata["/Title"] == "Booklet (imposed for a duplex printer)"
    assert "/OutputIntents" not in imposed.trailer["/Root"] and "/GTS_PDFXVersion" not in imposed.metadata
    for side in imposed.pages:
        assert [float(v) for v in side.mediabox] == pytest.approx([0, 0, 2 * WIDTH, HEIGHT])
        assert [float(v) for v in side.trimbox] == [float(v) for v in side.mediabox]
    assert impose.saddle_stitch(out.getvalue(), "Booklet (imposed for a duplex printer)")[0] == data


def render(data: bytes, page: int) -> list[list[tuple[int, int, int]]]:
    """Page `page` (from 1) drawn at 72 dpi: rows of RGB pixels, top first."""
    ppm = subprocess.run(["pdftoppm", "-r", "72", "-f", str(page), "-l", str(page), "-aa", "no", "-aaVector", "no"],
                         input=data, capture_output=True, check=True).stdout
    header, rest = ppm.split(b"\n", 1)
    size, rest = rest.split(b"\n", 1)
    _, rest = rest.split(b"\n", 1)  # the maximum value, 255
    width, height = (int(v) for v in size.split())
    assert header == b"P6"
    return [[tuple(rest[3 * (y * width + x): 3 * (y * width + x) + 3]) for x in range(width)] for y in range(height)]


def test_the_press_imposition_is_made_where_a_booklet_is_both_imposed_and_printed_for_the_press():
    from types import SimpleNamespace

    from aids.pipeline.pipeline import unit_formats
    home, press = SimpleNamespace(printing=Print()), SimpleNamespace(printing=Print("press"))
    assert unit_formats(["html", "pdf", "imposed"], home) == ("html", "pdf", "imposed")
    assert unit_formats(["pdf", "imposed", "press"], home) == ("pdf", "press", "imposed", "imposed-press")
    assert unit_formats(["html", "pdf", "imposed"], press) == ("html", "pdf", "press", "imposed", "imposed-press")
    assert unit_formats(["html", "pdf"], press) == ("html", "pdf", "press")
    assert unit_formats(["imposed"], press) == ("imposed", "imposed-press")
