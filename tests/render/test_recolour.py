"""The PDF's last colour pass (render/recolour.py) on a made-up page that names RGB every way a PDF can: what
the press profile makes of each (the output intent's CMYK, or black only for a gray), what the gray profile makes
of it, and what neither can convert, refused in one line."""
import io
import shutil
import subprocess
import zlib

import pikepdf
import pytest
from colorspacious import cspace_convert, deltaE
from PIL import Image, ImageCms

from aids.render import recolour
from aids.render.colours import PROFILE

from ..helpers import rgb_in

SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
PIXELS = bytes([200, 30, 20, 20, 120, 200, 240, 230, 210, 0, 0, 0])  # a red, a blue, a paper tone, black


def made_up(content: bytes, extra=None) -> bytes:
    """A page that sets colours in DeviceRGB, an ICC-based RGB space, an Indexed and an uncoloured Pattern space
    on RGB, and draws an RGB image, a gray image given in RGB, a gradient and a transparency group in RGB with a
    luminosity soft mask; `content` its content stream."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    image = pdf.make_stream(zlib.compress(PIXELS), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=2,
                            Height=2, BitsPerComponent=8, ColorSpace=pikepdf.Name.DeviceRGB,
                            Filter=pikepdf.Name.FlateDecode)
    gray = pdf.make_stream(bytes([90, 90, 90, 200, 200, 200]), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                           Width=2, Height=1, BitsPerComponent=8, ColorSpace=pikepdf.Name.DeviceRGB)
    group = pdf.make_stream(b"1 0 0 rg 0 0 10 10 re f", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                            BBox=[0, 0, 10, 10], Group=pikepdf.Dictionary(S=pikepdf.Name.Transparency,
                                                                         CS=pikepdf.Name.DeviceRGB))
    mask = pdf.make_stream(b"0.5 g 0 0 10 10 re f", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                           BBox=[0, 0, 10, 10], Group=pikepdf.Dictionary(S=pikepdf.Name.Transparency,
                                                                        CS=pikepdf.Name.DeviceRGB))
    pattern = pdf.make_stream(b"0 0 5 5 re f", PatternType=1, PaintType=2, TilingType=1, BBox=[0, 0, 5, 5], XStep=5,
                              YStep=5, Resources=pikepdf.Dictionary())
    stops = [pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], N=1, C0=[1, 0, 0], C1=[0, 0, 1]),
             pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], N=1, C0=[0, 0, 1], C1=[1, 1, 1])]
    shading = pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB, Coords=[0, 0, 100, 0],
                                 Background=[0.2, 0.4, 0.6],
                                 Function=pikepdf.Dictionary(FunctionType=3, Domain=[0, 1], Bounds=[0.5],
                                                             Encode=[0, 1, 0, 1], Functions=stops))
    page = pdf.pages[0]
    page.obj.Resources = pikepdf.Dictionary(
        ColorSpace=pikepdf.Dictionary(
            CS0=pikepdf.Array([pikepdf.Name.ICCBased, pdf.make_stream(SRGB, N=3)]),
            CS1=pikepdf.Array([pikepdf.Name.Indexed, pikepdf.Name.DeviceRGB, 1, pikepdf.String(bytes([255, 0, 0,
                                                                                                       9, 9, 9]))]),
            CS2=pikepdf.Array([pikepdf.Name.Pattern, pikepdf.Name.DeviceRGB]), **(extra or {})),
        XObject=pikepdf.Dictionary(Im0=image, Im1=gray, Fm0=group), Pattern=pikepdf.Dictionary(P0=pattern),
        Shading=pikepdf.Dictionary(Sh0=shading),
        ExtGState=pikepdf.Dictionary(GS0=pikepdf.Dictionary(SMask=pikepdf.Dictionary(
            S=pikepdf.Name.Luminosity, G=mask, BC=[0, 0, 0]))))
    page.obj.Contents = pdf.make_stream(content)
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True)  # qpdf keeps the first half of a PDF's /ID: the same one each time
    return out.getvalue()


EVERY_WAY = (b"0 0 0 rg 0.2 0.4 0.6 RG /DeviceRGB cs 0.8 0.1 0.1 sc q /CS0 cs 0.1 0.5 0.2 scn Q 0.5 0.5 0.5 sc "
             b"/CS1 CS 1 SC /CS2 cs 0.9 0.1 0.1 /P0 scn 0 0 10 10 re f /Sh0 sh q /GS0 gs /Fm0 Do Q "
             b"q 20 0 0 20 0 0 cm /Im0 Do Q q 20 0 0 10 0 50 cm /Im1 Do Q")


def colours_set(data: bytes) -> list[tuple[str, list[str]]]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [(str(i.operator), [str(o) for o in i.operands]) for i in pikepdf.parse_content_stream(pdf.pages[0])
                if str(i.operator) in ("rg", "RG", "k", "K", "g", "G", "cs", "CS", "sc", "scn", "SC", "SCN")]


def through_profile(rgb) -> tuple[float, ...]:
    pixel = Image.new("RGB", (1, 1), tuple(round(255 * v) for v in rgb))
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(str(PROFILE)), "RGB",
                                        "CMYK", renderingIntent=1, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    return tuple(round(v / 255, 4) for v in ImageCms.applyTransform(pixel, transform).getpixel((0, 0)))


def test_the_made_up_page_names_rgb_every_way(tmp_path):
    """The check the press PDFs are held to (tests/helpers.rgb_in) sees each of them."""
    path = tmp_path / "rgb.pdf"
    path.write_bytes(made_up(EVERY_WAY))
    found = "\n".join(rgb_in(path))
    for what in ("page 1: rg 0 0 0", "page 1: RG", "/Group/CS: /DeviceRGB", "ICCBased, 3 components", "/Resources"
                 "/ColorSpace/CS1[1]: /DeviceRGB", "/ColorSpace/CS2[1]", "/ColorSpace: /DeviceRGB", "object"):
        assert what in found, what


def test_the_press_leaves_no_rgb_and_each_colour_is_the_profiles(tmp_path):
    data = recolour.recoloured(made_up(EVERY_WAY), recolour.PRESS_TARGET)
    path = tmp_path / "press.pdf"
    path.write_bytes(data)
    assert rgb_in(path) == []
    if shutil.which("qpdf"):
        subprocess.run(["qpdf", "--check", str(path)], check=True, capture_output=True)
    ops = colours_set(data)
    assert ops[0] == ("k", ["0", "0", "0", "1"])  # black: black only, never four colours
    assert ops[1] == ("K", [f"{v:g}" for v in through_profile((0.2, 0.4, 0.6))])
    assert ops[2:4] == [("cs", ["/DeviceCMYK"]), ("sc", [f"{v:g}" for v in through_profile((0.8, 0.1, 0.1))])]
    assert ops[4] == ("cs", ["/CS0"])  # a space a resource names keeps its name, its resource is converted
    assert ops[5] == ("scn", [f"{v:g}" for v in through_profile((0.1, 0.5, 0.2))])
    assert ops[6] == ("sc", ["0", "0", "0", "0.5"])  # back in DeviceCMYK after Q: a gray, black only
    assert ops[7:9] == [("CS", ["/CS1"]), ("SC", ["1"])]  # an index stays an index
    assert ops[9:11] == [("cs", ["/CS2"]), ("scn", [*(f"{v:g}" for v in through_profile((0.9, 0.1, 0.1))), "/P0"])]
    with pikepdf.open(path) as pdf:
        resources = pdf.pages[0].obj.Resources
        assert resources.ColorSpace.CS0 == pikepdf.Name.DeviceCMYK
        indexed = resources.ColorSpace.CS1
        assert list(indexed[:3]) == [pikepdf.Name.Indexed, pikepdf.Name.DeviceCMYK, 1]
        assert bytes(indexed[3])[4:] == bytes([0, 0, 0, 246])  # its gray entry in black only
        assert list(resources.ColorSpace.CS2) == [pikepdf.Name.Pattern, pikepdf.Name.DeviceCMYK]
        image = resources.XObject.Im0
        assert image.ColorSpace == pikepdf.Name.DeviceCMYK and "/DecodeParms" not in image
        pixels = pikepdf.PdfImage(image).as_pil_image()
        red = tuple(round(v / 255, 4) for v in pixels.getpixel((0, 0)))
        assert red == through_profile((200 / 255, 30 / 255, 20 / 255))
        assert pixels.getpixel((1, 1))[3] > 245 and sum(pixels.getpixel((1, 1))) > 2 * 255  # black: the rich black
        gray = resources.XObject.Im1
        assert gray.ColorSpace == pikepdf.Name.DeviceGray  # a gray image prints on black alone
        assert pikepdf.PdfImage(gray).as_pil_image().getpixel((0, 0)) == 90
        assert resources.XObject.Fm0.Group.CS == pikepdf.Name.DeviceCMYK
        smask = resources.ExtGState.GS0.SMask
        assert smask.G.Group.CS == pikepdf.Name.DeviceCMYK and list(smask.BC) == [0, 0, 0, 1]
        shading = resources.Shading.Sh0
        assert shading.ColorSpace == pikepdf.Name.DeviceCMYK and len(shading.Background) == 4
        ends = [[float(v) for v in f[key]] for f in shading.Function.Functions for key in ("/C0", "/C1")]
        assert ends[0] == pytest.approx(through_profile((1, 0, 0))) and ends[3] == [0, 0, 0, 0]  # white: no ink
        form = [str(i.operator) for i in pikepdf.parse_content_stream(resources.XObject.Fm0)]
        assert "k" in form and "rg" not in form


def test_the_same_pdf_converted_twice_is_the_same_bytes():
    once = recolour.recoloured(made_up(EVERY_WAY), recolour.PRESS_TARGET)
    assert once == recolour.recoloured(made_up(EVERY_WAY), recolour.PRESS_TARGET)
    assert recolour.recoloured(once, recolour.PRESS_TARGET) == once  # nothing left to change: as it was


def test_the_gray_profile_makes_every_colour_a_gray(tmp_path):
    data = recolour.grayed(made_up(EVERY_WAY))
    ops = colours_set(data)
    assert ops[0] == ("rg", ["0", "0", "0"])  # a gray given as RGB stays as it is
    assert ops[1] == ("G", [f"{recolour.luminance(0.2, 0.4, 0.6):g}"])
    with pikepdf.open(io.BytesIO(data)) as pdf:
        resources = pdf.pages[0].obj.Resources
        assert resources.XObject.Im0.ColorSpace == pikepdf.Name.DeviceGray
        assert resources.XObject.Fm0.Group.CS == pikepdf.Name.DeviceGray
        assert len(resources.Shading.Sh0.Function.Functions[0].C0) == 1


def test_what_the_press_cannot_convert_is_refused_in_one_line():
    spot = {"CS9": pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name("/Gold"), pikepdf.Name.DeviceRGB,
                                  pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], N=1, C1=[0.8, 0.6, 0.1])])}
    with pytest.raises(recolour.Unconvertible) as info:
        recolour.recoloured(made_up(b"/CS9 cs 1 scn", spot), recolour.PRESS_TARGET)
    assert str(info.value) == "a spot colour (/Gold) whose alternate is RGB cannot be converted to DeviceCMYK"
    inline = b"q 10 0 0 10 0 0 cm BI /W 4 /H 4 /BPC 8 /CS /RGB ID " + bytes(range(48)) + b" EI Q"
    with pytest.raises(recolour.Unconvertible) as info:
        recolour.recoloured(made_up(inline), recolour.PRESS_TARGET)
    assert str(info.value) == "an inline image in RGB on page 1 cannot be converted to DeviceCMYK"
    assert "\n" not in str(info.value)
    with pikepdf.open(io.BytesIO(made_up(b"/Sh0 sh"))) as pdf:  # a gradient computed by a PostScript function
        pdf.pages[0].obj.Resources.Shading.Sh0.Function = pdf.make_stream(b"{dup dup}", FunctionType=4,
                                                                          Domain=[0, 1], Range=[0, 1] * 3)
        out = io.BytesIO()
        pdf.save(out)
    with pytest.raises(recolour.Unconvertible) as info:
        recolour.recoloured(out.getvalue(), recolour.PRESS_TARGET)
    assert str(info.value) == ("a gradient in RGB of a function of type 4 (sampled or PostScript) cannot be converted "
                               "to DeviceCMYK")
    recolour.grayed(made_up(b"/CS9 cs 1 scn " + inline, spot))  # the gray profile prints what it can of them
    recolour.grayed(out.getvalue())


SAMPLE = {"#8c1c13": "banner (theme heading)", "#d8c49a": "table head (theme)", "#efe4c8": "first column (theme)",
          "#8a6d3b": "rule (theme)", "#3b2a14": "table head text (theme)", "#f3ead2": "figure's land",
          "#4a7bb0": "figure's river", "#6f8f4e": "figure's woods", "#1f3f73": "figure's squares"}


@pytest.mark.parametrize("value", SAMPLE)
def test_an_rgb_colour_prints_as_near_to_it_as_the_press_can(value):
    """The CMYK the press gets for the samples' RGB colours (the theme's, the figure's), printed as the output
    intent says, against the RGB itself: the light and middle tones within 2 ΔE (CAM02-UCS: just noticeable side by
    side), the darkest, which offset cannot reach (FOGRA39's black is L* 9), within 8, their hue kept."""
    rgb = tuple(int(value[i:i + 2], 16) / 255 for i in (1, 3, 5))
    cmyk = recolour.PRESS_TARGET.colour(rgb, recolour.RGB, None)
    back = ImageCms.buildTransform(ImageCms.ImageCmsProfile(str(PROFILE)), ImageCms.createProfile("sRGB"), "CMYK",
                                   "RGB", renderingIntent=1)
    printed = ImageCms.applyTransform(Image.new("CMYK", (1, 1), tuple(round(255 * v) for v in cmyk)), back)
    seen = printed.getpixel((0, 0))
    difference = float(deltaE([255 * v for v in rgb], seen, input_space="sRGB255"))
    dark = max(rgb) < 0.6
    assert difference < (8 if dark else 2), (SAMPLE[value], cmyk, seen, difference)
    hues = [cspace_convert(colour, "sRGB255", "JCh")[2] for colour in ([255 * v for v in rgb], seen)]
    assert abs((hues[0] - hues[1] + 180) % 360 - 180) < 10, (SAMPLE[value], hues)


def test_a_press_pdf_that_cannot_be_converted_fails_its_aid_in_one_line(tmp_path, monkeypatch):
    """The build says which aid, which language and what, at the aid's source, and writes none of its files."""
    from aids.config import read_project
    from aids.pipeline import builder
    from aids.pipeline.pipeline import Options

    from .test_figures import with_figures
    root = with_figures(tmp_path)

    def refused(data: bytes, target) -> bytes:
        raise recolour.Unconvertible("an inline image in RGB on page 2 cannot be converted to DeviceCMYK")

    monkeypatch.setattr(recolour, "recoloured", refused)
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["press"], jobs=1))
    assert [str(e) for e in summary.failed if "rules" in str(e)] == [
        "games/demo/rules.yaml: booklet 'rules' (pl), its press PDF: an inline image in RGB on page 2 cannot be "
        "converted to DeviceCMYK (expected: colours, images and gradients a press PDF can hold in CMYK "
        "(docs/guide/printing.md), or no press profile)"]
    assert not (root / "build/demo/pl/rules-press.pdf").exists()
