"""Figures prepared for print (render/prepared.py): each raster image in a PDF scaled to the size it prints at its
profile's resolution, in its colours, encoded by its content, and kept in the build's cache by the digest of all it
is made from. Issue 48: two figures of a 2000 x 1703 map made a booklet's PDF cost 4x the same without them."""
from __future__ import annotations

import io
import random
import struct
import zlib
from pathlib import Path

import pikepdf
import pytest

from aids.config import read_project
from aids.pipeline import builder
from aids.pipeline.pipeline import Options
from aids.render import preflight, prepared

from ..model.test_booklet import project
from .test_figures import png


def photo(width: int, height: int, seed: int = 1) -> bytes:
    """A photograph-like RGB PNG: noise over a gradient (thousands of colours)."""
    rng = random.Random(seed)
    rows = b"".join(b"\x00" + bytes(min(255, 60 + y * 150 // height + rng.randrange(60)) for _ in range(width * 3))
                    for y in range(height))
    return _png(width, height, 2, rows)


def drawing(width: int, height: int, colour: tuple[int, int, int] = (40, 80, 160)) -> bytes:
    """A drawing of two flat colours (RGBA, transparent on its left quarter)."""
    left = bytes((0, 0, 0, 0)) * (width // 4)
    rows = b"".join(b"\x00" + left + bytes((*(colour if y % 40 < 30 else (240, 230, 200)), 255)) * (width - width // 4)
                    for y in range(height))
    return _png(width, height, 6, rows)


def _png(width: int, height: int, colour_type: int, rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))


def with_images(tmp_path: Path, markdown: str) -> Path:
    root = project(tmp_path, two_md="# Mapa {#map}\n\n" + markdown + "\n\nTekst.\n")
    (root / "games/demo/figures").mkdir()
    (root / "games/demo/figures/photo.png").write_bytes(photo(1600, 1000))
    (root / "games/demo/figures/map.png").write_bytes(drawing(1800, 1200))
    return root


def images(pdf_file: Path) -> list[dict]:
    """Every image XObject of a PDF (not a soft mask) as pikepdf reads it: its pixels, colour space, filter, whether
    it has a mask."""
    with pikepdf.open(pdf_file) as pdf:
        found = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        masks = {o.SMask.objgen for o in found if "/SMask" in o}
        return [{"size": (int(o.Width), int(o.Height)), "space": str(o.ColorSpace), "filter": str(o.get("/Filter")),
                 "mask": "/SMask" in o} for o in found if o.objgen not in masks]


def placed(pdf_file: Path) -> list[preflight.Placed]:
    return preflight.placed_images(pdf_file.read_bytes())


def build(root: Path, formats: list[str], force: bool = False):
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=formats, force=force, jobs=1))
    assert not summary.failed, summary.failed
    return summary


@pytest.mark.parametrize("suffix, ppi, space", [("", 150, "/DeviceRGB"), ("-gray", 150, "/DeviceGray"),
                                                ("-press", 300, "/DeviceCMYK")])
def test_each_figure_is_prepared_at_the_size_it_prints_at_its_profiles_resolution(tmp_path, suffix, ppi, space):
    """Before: the 1600 x 1000 photograph went into every PDF whole (about 340 ppi on an A5 page), RGB until the
    gray and press passes converted it after the fact, re-encoded by WeasyPrint as PNG (Flate)."""
    root = with_images(tmp_path, "![Zdjęcie](figures/photo.png)\n\n![Mapa](figures/map.png)")
    build(root, ["pdf", "gray", "press"])
    pdf_file = root / f"build/demo/pl/rules{suffix}.pdf"
    found = {p.pixels: p for p in placed(pdf_file)}
    assert len(found) == 2
    for one in found.values():  # the pixels the printed size asks at the profile's resolution: never fewer
        assert ppi <= one.ppi < ppi + 2, one
    shown = images(pdf_file)
    photo_, map_ = sorted((i for i in shown if i["size"] in found), key=lambda i: i["filter"] != "/DCTDecode")
    assert photo_["filter"] == "/DCTDecode" and photo_["space"] == space and not photo_["mask"]  # a photograph: JPEG
    assert map_["filter"] == "/FlateDecode" and map_["mask"]  # a drawing: lossless, its transparency kept
    assert map_["space"] == ("/DeviceGray" if suffix == "-gray" else space)


def test_an_image_smaller_than_its_printed_size_asks_is_never_scaled_up(tmp_path):
    root = project(tmp_path, two_md="# Mapa {#map}\n\n![Mapa](figures/map.png)\n")
    (root / "games/demo/figures").mkdir()
    (root / "games/demo/figures/map.png").write_bytes(drawing(300, 200))
    build(root, ["pdf", "press"])
    assert [p.pixels for p in placed(root / "build/demo/pl/rules.pdf")] == [(300, 200)]
    assert [p.pixels for p in placed(root / "build/demo/pl/rules-press.pdf")] == [(300, 200)]


def test_a_second_build_reuses_the_prepared_image_and_an_edited_one_is_prepared_again(tmp_path, monkeypatch):
    root = with_images(tmp_path, "![Zdjęcie](figures/photo.png)\n\n![Mapa](figures/map.png)")
    made: list[tuple[int, int]] = []
    original = prepared.prepare

    def counted(data: bytes, size: tuple[int, int], profile: str) -> bytes:
        made.append(size)
        return original(data, size, profile)
    monkeypatch.setattr(prepared, "prepare", counted)
    build(root, ["pdf"])
    first = (root / "build/demo/pl/rules.pdf").read_bytes()
    assert len(made) == 2
    kept = sorted(p.name for p in (root / "build/.aids-cache/prepared_images").iterdir())
    assert len(kept) == 4  # each image and its record
    made.clear()
    build(root, ["pdf"], force=True)  # rendered again: both images from the cache, the same bytes
    assert made == [] and (root / "build/demo/pl/rules.pdf").read_bytes() == first
    (root / "games/demo/figures/map.png").write_bytes(drawing(1800, 1200, (160, 40, 40)))
    build(root, ["pdf"])
    assert len(made) == 1  # the edited map only
    # a prepared image whose bytes are not those its record holds is never used: made again
    for name in (root / "build/.aids-cache/prepared_images").glob("*.img"):
        name.write_bytes(name.read_bytes()[:-10] + b"0" * 10)
    made.clear()
    build(root, ["pdf"], force=True)
    assert len(made) == 2 and (root / "build/demo/pl/rules.pdf").read_bytes() != first


def test_the_drawing_and_the_photograph_are_told_apart_by_their_colours():
    from PIL import Image
    assert prepared.drawn(Image.open(io.BytesIO(drawing(400, 300))).convert("RGB"))
    assert not prepared.drawn(Image.open(io.BytesIO(photo(400, 300))))


SIZED = ("![Mapa](figures/map.png)\n\n![Mapa w połowie](figures/map.png){width=50%}\n\n"
         "![Zdjęcie](figures/photo.png \"Zdjęcie\"){width=50%} ![Mapa](figures/map.png \"Mapa\"){width=50%}\n\n"
         "![Zdjęcie w milimetrach](figures/photo.png){width=40mm}")


def test_a_figures_width_and_two_figures_side_by_side_print_where_the_source_asks(tmp_path):
    """Before: `{width=50%}` after an image, and two images in one paragraph, were errors (an image inside text)."""
    root = with_images(tmp_path, SIZED)
    summary = build(root, ["pdf", "html", "epub"])
    assert next(b for b in summary.built if b.aid == "rules").warnings == []
    full, half, left, right, mm = placed(root / "build/demo/pl/rules.pdf")
    column = full.size[0]  # a page's text column, which the first map fills
    assert half.page == full.page and half.size[0] == pytest.approx(column / 2, abs=0.3)
    assert half.at[0] + half.size[0] / 2 == pytest.approx(full.at[0] + column / 2, abs=0.3)  # centred
    assert mm.size[0] == pytest.approx(40, abs=0.3)
    # side by side, tops aligned, half the column each less the gap between them, centred as the 40 mm one is
    assert left.page == right.page == mm.page
    assert left.at[1] + left.size[1] == pytest.approx(right.at[1] + right.size[1], abs=0.3)
    for one in (left, right):
        assert one.size[0] == pytest.approx(column / 2 - 3, abs=0.3)
    assert right.at[0] - (left.at[0] + left.size[0]) == pytest.approx(3, abs=0.3)
    assert (left.at[0] + right.at[0] + right.size[0]) / 2 == pytest.approx(mm.at[0] + 20, abs=0.3)
    assert len({p.pixels for p in (full, half, right)}) == 1  # the map prepared once, for its largest placing
    html = (root / "build/demo/pl/rules.html").read_text(encoding="utf-8")
    assert html.count('<div class="figures"><figure class="figure sized" style="width: 50%">') == 1
    assert html.count('style="width: 40mm"') == 1
    import zipfile
    with zipfile.ZipFile(root / "build/demo/pl/rules.epub") as book:  # the e-book's chapters as the page has them
        chapters = "".join(book.read(n).decode() for n in book.namelist() if n.endswith(".xhtml"))
    assert chapters.count('<div class="figures"><figure class="figure sized" style="width: 50%">') == 1


@pytest.mark.parametrize("markdown, message", [
    ("![a](figures/map.png){width=0%}", "two.md:3:23: figure width '0%' is not one aids can print"),
    ("![a](figures/map.png){width=120%}", "two.md:3:23: figure width '120%' is not one aids can print"),
    ("![a](figures/map.png){width=wide}", "two.md:3:23: figure width 'wide' is not one aids can print"),
    ("![a](figures/map.png){height=3cm}", "two.md:3:23: a figure takes no attribute 'height'"),
    ("![a](figures/map.png){width=50%} ![b](figures/photo.png){width=50% x=1}",
     "two.md:3:68: a figure takes no attribute 'x'"),
])
def test_a_figure_attribute_it_cannot_take_is_an_error_at_its_place(tmp_path, markdown, message):
    from aids.kinds import reading
    root = with_images(tmp_path, markdown)
    proj = read_project(root)
    _, errors = reading.read_aids(proj, proj.read_game("demo"))
    said = "\n".join(str(e) for e in errors)
    assert message in said and "(expected: a figure's width in % of its column" in said, said


def test_an_opaque_drawing_for_the_press_stays_lossless_for_the_press_pass_to_convert(tmp_path):
    """Before this was tested, a flat-coloured figure of the press profile failed the build (cannot write mode
    CMYK as PNG)."""
    from PIL import Image
    made = prepared.prepare(png(900, 600, (40, 80, 160)), (300, 200), "press")
    with Image.open(io.BytesIO(made)) as image:
        assert (image.format, image.mode, image.size) == ("PNG", "RGB", (300, 200))
    root = project(tmp_path, two_md="# Mapa {#map}\n\n![Mapa](figures/flat.png)\n")
    (root / "games/demo/figures").mkdir()
    (root / "games/demo/figures/flat.png").write_bytes(png(2400, 1600, (40, 80, 160)))
    build(root, ["press"])
    assert [(i["space"], i["filter"]) for i in images(root / "build/demo/pl/rules-press.pdf")] == \
        [("/DeviceCMYK", "/FlateDecode")]
