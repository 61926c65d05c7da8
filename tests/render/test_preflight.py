"""The press PDF's preflight (render/preflight.py): every image's effective resolution at the size a page places it
(through forms, tiling patterns, rotations, inline images), and what the build says of one below the press's."""
import io

import pikepdf
import pytest

from aids.commands.cli import main
from aids.config import read_project
from aids.pipeline import builder
from aids.pipeline.pipeline import Options
from aids.render import preflight

from .test_figures import with_figures


def placed(content: bytes, bits: int = 8) -> list[preflight.Placed]:
    """The images a made-up page places: Im0 of 600 × 600 px (`bits` a component), drawn by `content`, directly,
    through Fm0 (a form that doubles what it draws) and through P0 (a tiling pattern that halves it)."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(612, 792))
    image = pdf.make_stream(bytes(600 * 600 * (3 if bits == 8 else 1) // (1 if bits == 8 else 8)),
                            Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=600, Height=600,
                            BitsPerComponent=bits, ColorSpace=pikepdf.Name.DeviceRGB if bits == 8 else
                            pikepdf.Name.DeviceGray)
    form = pdf.make_stream(b"q 75.6 0 0 75.6 0 0 cm /Im0 Do Q", Type=pikepdf.Name.XObject,
                           Subtype=pikepdf.Name.Form, BBox=[0, 0, 100, 100], Matrix=[2, 0, 0, 2, 0, 0],
                           Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image)))
    pattern = pdf.make_stream(b"q 72 0 0 72 0 0 cm /Im0 Do Q", PatternType=1, PaintType=1, TilingType=1,
                              BBox=[0, 0, 72, 72], XStep=72, YStep=72, Matrix=[0.5, 0, 0, 0.5, 0, 0],
                              Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image)))
    pdf.pages[0].obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image, Fm0=form),
                                                    Pattern=pikepdf.Dictionary(P0=pattern))
    pdf.pages[0].obj.Contents = pdf.make_stream(content)
    out = io.BytesIO()
    pdf.save(out)
    return preflight.placed_images(out.getvalue())


def test_the_effective_resolution_follows_every_transformation():
    two_inches = placed(b"q 144 0 0 144 0 0 cm /Im0 Do Q")
    assert [(p.page, p.pixels, p.ppi) for p in two_inches] == [(1, (600, 600), pytest.approx(300))]
    assert two_inches[0].size == pytest.approx((50.8, 50.8))
    assert placed(b"q 0 144 -144 0 300 0 cm /Im0 Do Q")[0].ppi == pytest.approx(300)  # turned a quarter
    assert placed(b"q 1 0 0 1 10 10 cm 144 0 0 72 0 0 cm /Im0 Do Q")[0].ppi == pytest.approx(300)  # the lower
    assert placed(b"q 0.5 0 0 0.5 0 0 cm /Fm0 Do Q")[0].ppi == pytest.approx(600 / 1.05)  # half of the form's 2 x
    assert placed(b"/Pattern cs /P0 scn 0 0 200 200 re f")[0].ppi == pytest.approx(1200)  # in the pattern's space
    inline = placed(b"q 72 0 0 36 0 0 cm BI /W 4 /H 4 /BPC 8 /CS /G ID " + bytes(16) + b" EI Q")
    assert [(p.pixels, p.ppi) for p in inline] == [((4, 4), 4)]
    assert placed(b"q 72 0 0 72 0 0 cm Q") == []


def test_only_what_is_below_the_press_resolution_is_flagged():
    assert placed(b"q 144 0 0 144 0 0 cm /Im0 Do Q")[0].ppi >= preflight.CONTONE_PPI  # 300 ppi: enough
    below = placed(b"q 151.2 0 0 151.2 0 0 cm /Im0 Do Q")[0]
    assert round(below.ppi) == 286 and below.ppi < below.needed == 300
    line_art = placed(b"q 144 0 0 144 0 0 cm /Im0 Do Q", bits=1)[0]  # 1-bit: no screen, each pixel an edge
    assert line_art.line_art and line_art.needed == 1200 and line_art.ppi < line_art.needed


def test_an_image_below_the_press_resolution_is_named_with_its_pages_and_resolution(tmp_path, capsys):
    """Before: a 96 ppi figure (a 49 ppi page art) went into the press PDF without a word."""
    root = with_figures(tmp_path)
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["press"]))
    assert not summary.failed, summary.failed
    built = next(b for b in summary.built if b.aid == "rules")
    assert built.warnings == [
        "rules-press.pdf, page 4: games/demo/figures/field.png, 300 × 200 px at 79 × 53 mm, prints at 96 ppi (a "
        "print shop asks 300 ppi)",
        "rules-press.pdf, page 4: games/demo/figures/ford.png, 200 × 100 px at 53 × 26 mm, prints at 96 ppi (a "
        "print shop asks 300 ppi)"]
    # the home PDF has no such needs; --strict refuses the aid, as a print shop would, and writes none of it
    assert next(b for b in builder.build(read_project(root), Options(langs=["pl"], formats=["pdf"])).built
                if b.aid == "rules").warnings == []
    (root / "build/demo/pl/rules-press.pdf").unlink()
    capsys.readouterr()
    assert main(["--project", str(root), "build", "--lang", "pl", "--format", "press", "--strict"]) == 1
    err = capsys.readouterr().err
    assert ("games/demo/rules.yaml: pl: rules-press.pdf, page 4: games/demo/figures/field.png, 300 × 200 px at "
            "79 × 53 mm, prints at 96 ppi (a print shop asks 300 ppi) (--strict) (expected: every image at the "
            "resolution the press asks at the size it prints (300 ppi, line art 1200; docs/guide/printing.md))"
            ) in err
    assert not (root / "build/demo/pl/rules-press.pdf").exists()
