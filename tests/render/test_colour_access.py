"""Colour and its readers: every meaning a colour carries survives a monochrome printer (the gray profile) and
the common colour-vision deficiencies. The colours are read back from the samples' PDFs (the operators of every
content stream), each is one of the palette whose cues aids/render/colours.py lists, and each cue's contrast is
computed (WCAG 2 relative luminance) as printed, in gray, and as protanopia, deuteranopia and tritanopia show it
(colorspacious: Machado et al. 2009, severity 100).

Thresholds, stated once: a mark that carries a meaning stands 3:1 against what it is printed on (WCAG 1.4.11,
non-text contrast); a mark that must also be told from the text around it stands 3:1 against the text; a fill
behind text keeps the text 4.5:1 against it (WCAG 1.4.3). The figures print with `pytest -s` (and go to
docs/guide/grayscale-and-colour-vision.md)."""
import re
import shutil
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pikepdf
import pytest
from colorspacious import cspace_convert, deltaE

from aids.config import read_project
from aids.pipeline import builder
from aids.pipeline.pipeline import Options
from aids.render import colours

MARK, PAIR, FILL = 3.0, 3.0, 4.5  # the thresholds (contrast ratios), as the module says
DEFICIENCIES = ("protanomaly", "deuteranomaly", "tritanomaly")  # at severity 100: protanopia, ...
VIEWS = ("colour", *DEFICIENCIES, "gray")
PAPER = (1.0, 1.0, 1.0)


def _rgb(value: str) -> tuple[float, ...]:
    return tuple(int(value[i:i + 2], 16) / 255 for i in (1, 3, 5))


def seen(name: str, view: str) -> tuple[float, ...]:
    """A palette colour (or the paper) as a reader sees it in `view`."""
    if name == "paper":
        return PAPER
    if view == "gray":
        return _rgb(colours.rgb(name, gray=True))
    value = _rgb(colours.rgb(name))
    if view == "colour":
        return value
    simulated = cspace_convert(value, {"name": "sRGB1+CVD", "cvd_type": view, "severity": 100}, "sRGB1")
    return tuple(min(1.0, max(0.0, float(v))) for v in simulated)


def luminance(rgb) -> float:
    """WCAG 2 relative luminance of an sRGB colour (parts 0..1)."""
    r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def figures() -> list[tuple[str, str, str, float, float]]:
    """(element, pair, view, contrast ratio, ΔE CAM02-UCS) of every cue in every view, and the threshold's
    failures."""
    rows = []
    for cue in colours.CUES:
        pairs = [(cue.colour, cue.background, MARK if cue.mark else 0.0)]
        if not cue.mark:  # a fill: the text on it
            pairs.append(("ink", cue.colour, FILL))
        if cue.against:
            pairs.append((cue.colour, cue.against, 0.0 if cue.by_cue else PAIR))
        for view in VIEWS:
            for a, b, needed in pairs:
                x, y = seen(a, view), seen(b, view)
                rows.append((cue.element, f"{a}/{b}", view, contrast(x, y), float(deltaE(x, y, input_space="sRGB1")),
                             needed))
    return rows


@pytest.mark.unit
def test_every_cue_stands_its_threshold_in_every_view():
    rows = figures()
    print(f"\n{'element':42} {'pair':15} {'view':14} {'ratio':>6} {'ΔE':>6}  needed")
    for element, pair, view, ratio, delta, needed in rows:
        print(f"{element:42} {pair:15} {view:14} {ratio:6.2f} {delta:6.1f}  {needed or '- (its cue)'}")
    failed = [r for r in rows if r[3] < r[5]]
    assert not failed, "\n".join(f"{e} {p} {v}: {r:.2f}:1 < {n}:1" for e, p, v, r, _, n in failed)
    assert len(rows) == sum((2 if not c.mark else 1) + bool(c.against) for c in colours.CUES) * len(VIEWS)


@pytest.mark.unit
def test_a_gray_is_a_gray_and_every_colour_has_one():
    assert set(colours.GRAY) == set(colours.PALETTE)
    for name in colours.PALETTE:
        value = colours.rgb(name, gray=True)
        assert value[1:3] == value[3:5] == value[5:7], name
        assert colours.reportlab(name, press=True, gray=True).cyan == 0
    assert {c.colour for c in colours.CUES} <= set(colours.PALETTE)


@pytest.mark.unit
def test_contrast_is_the_wcag_formula():
    """The figures' arithmetic, against WCAG's own examples: black on white 21:1, #767676 on white 4.54:1."""
    assert contrast((0, 0, 0), PAPER) == pytest.approx(21.0)
    assert contrast(_rgb("#767676"), PAPER) == pytest.approx(4.54, abs=0.01)
    assert contrast(_rgb("#777777"), PAPER) < 4.5


# --- the colours as printed: read back from the PDFs ---------------------------------------------

def _streams(pdf: pikepdf.Pdf):
    """(content stream owner, its resources) of every page and of every form XObject drawn, and the images."""
    todo = [(page.obj, page.obj.get("/Resources", pikepdf.Dictionary())) for page in pdf.pages]
    done = set()
    while todo:
        owner, resources = todo.pop()
        if owner.objgen in done and owner.objgen != (0, 0):
            continue
        done.add(owner.objgen)
        yield owner, resources
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.get("/Subtype") == "/Form":
                todo.append((xobject, xobject.get("/Resources", resources)))
        for pattern in (resources.get("/Pattern") or {}).values():
            if pattern.get("/PatternType") == 1:
                todo.append((pattern, pattern.get("/Resources", resources)))


def pdf_colours(path: Path) -> tuple[set[tuple[str, tuple[float, ...]]], list[str]]:
    """Every colour a PDF's content streams set: (colour space, values); and the colour spaces of its images
    (each image once)."""
    found, images = set(), {}
    with pikepdf.open(path) as pdf:
        for owner, resources in _streams(pdf):
            spaces = {"fill": "/DeviceGray", "stroke": "/DeviceGray"}
            named = resources.get("/ColorSpace") or {}
            for operands, operator in pikepdf.parse_content_stream(owner):
                op = str(operator)
                values = tuple(round(float(v), 4) for v in operands if isinstance(v, (int, float, Decimal)))
                if op in ("rg", "RG"):
                    found.add(("/DeviceRGB", values))
                elif op in ("k", "K"):
                    found.add(("/DeviceCMYK", values))
                elif op in ("g", "G"):
                    found.add(("/DeviceGray", values))
                elif op in ("cs", "CS"):
                    space = named.get(str(operands[0]), operands[0])
                    spaces["fill" if op == "cs" else "stroke"] = _space_name(space)
                elif op in ("sc", "scn", "SC", "SCN") and values:
                    found.add((spaces["fill" if op in ("sc", "scn") else "stroke"], values))
            for xobject in (resources.get("/XObject") or {}).values():
                if xobject.get("/Subtype") == "/Image" and not xobject.get("/ImageMask", False):
                    images[xobject.objgen] = _space_name(xobject.get("/ColorSpace"))
    return found, list(images.values())


def _space_name(space) -> str:
    """A colour space as the name of its family (/DeviceRGB, /DeviceGray, or /ICCBased/N)."""
    if isinstance(space, pikepdf.Array):
        if space[0] == "/ICCBased":
            return f"/ICCBased/{int(space[1].get('/N'))}"
        return str(space[0])
    return str(space)


def is_gray(space: str, values: tuple[float, ...]) -> bool:
    if space in ("/DeviceGray", "/ICCBased/1"):
        return True
    if space in ("/DeviceRGB", "/ICCBased/3"):
        return max(values) - min(values) < 1e-3
    if space in ("/DeviceCMYK", "/ICCBased/4"):
        return max(values[:3]) < 1e-3
    return False  # a pattern, a separation: not a plain gray


def as_hex(space: str, values: tuple[float, ...]) -> str | None:
    if space in ("/DeviceRGB", "/ICCBased/3"):
        return "#" + "".join(f"{round(v * 255):02x}" for v in values)
    return None


@pytest.fixture(scope="module")
def gray_build(sample, tmp_path_factory):
    """The samples in gray: every aid of every game in one language (en; the card, asked for in aids.yaml, in
    every language by the samples' own build); and Valmora's sequence at home and in gray with every change
    since its release 2.0 marked both ways (bars and colour: the samples' sources are their last releases)."""
    root = tmp_path_factory.mktemp("gray")
    for name in ("games", "i18n", "aids.yaml"):
        source = sample[0].root / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, root / name)
    project = read_project(root)
    summary = builder.build(project, Options(formats=["gray"], langs=["en"], marks="both"))
    assert not summary.failed, "\n".join(str(e) for e in summary.failed)
    summary = builder.build(project, Options(games=["valmora-1809"], formats=["pdf", "gray"], langs=["en"],
                                             marks="both", since="2.0"))
    assert not summary.failed, "\n".join(str(e) for e in summary.failed)
    return project


def test_the_gray_pdfs_hold_no_colour(sample, gray_build):
    grays = sorted(gray_build.output.rglob("*-gray.pdf")) + sorted(sample[0].output.rglob("*-gray.pdf"))
    by_game = {path.relative_to(root).parts[0] for root in (gray_build.output, sample[0].output)
               for path in grays if path.is_relative_to(root)}
    assert by_game == set(sample[0].game_ids())  # every game of the samples
    assert any(p.name.endswith("-sheet-gray.pdf") for p in grays)
    assert {p.parent.name for p in sample[0].output.rglob("referee-card-gray.pdf")} == {"pl", "en", "ru"}
    levels = set()
    for path in grays:
        found, images = pdf_colours(path)
        coloured = [(s, v) for s, v in found if not is_gray(s, v)]
        assert not coloured, f"{path.name}: colour {coloured[:3]}"
        assert all(space in ("/DeviceGray", "/ICCBased/1") for space in images), f"{path.name}: {images}"
        levels |= {v for s, v in found if s == "/DeviceRGB"}
    expected = {tuple(round(x, 4) for x in _rgb(colours.rgb(n, gray=True))) for n in ("ink", "change", "accent")}
    assert expected <= {tuple(round(x, 4) for x in v) for v in levels}


def test_every_colour_printed_is_one_of_the_palette(sample, gray_build):
    """The figures are about what prints: every colour of the samples' PDFs (home, every language; and with
    changes marked) is one of the palette's (so one the cues account for), white, or a gray."""
    palette = {colours.rgb(name): name for name in colours.PALETTE}
    # a game's theme brings the publisher's colours (docs/guide/themes.md): those it declares, and no other
    project = sample[0]
    themed = {game_id: {colours.css_of(cmyk): f"theme {name}" for name, cmyk in theme.colours}
              for game_id in project.game_ids() if (theme := project.read_game(game_id).theme) is not None}
    # and a figure is the publisher's drawing: its colours are its own (its gray in the gray profile)
    for game_id in project.game_ids():
        for svg in (project.games_dir / game_id).rglob("figures/*.svg"):
            for value in re.findall(r"#[0-9a-fA-F]{6}\b", svg.read_text(encoding="utf-8")):
                themed.setdefault(game_id, {})[value.lower()] = f"figure {svg.name}"
    used, languages = defaultdict(set), defaultdict(dict)
    marked = sorted((gray_build.output / "valmora-1809").rglob("*.pdf"))
    for path in sorted(sample[0].output.rglob("*.pdf")) + marked:
        if path.name.endswith("-gray.pdf") or path.parent.name not in ("pl", "en", "ru"):
            continue
        found, _ = pdf_colours(path)
        printed = set()
        for space, values in found:
            value = as_hex(space, values)
            assert value is not None or is_gray(space, values), f"{path.name}: {space} {values}"
            if value is not None and not is_gray(space, values):
                root = project.output if path.is_relative_to(project.output) else gray_build.output
                own = {**palette, **themed.get(path.relative_to(root).parts[0], {})}
                assert value in own, f"{path.name}: {value} is no colour of the palette (nor of its theme)"
                used[own[value]].add(path.name)
                printed.add(value)
        if path not in marked:
            languages[(path.parent.parent, path.name)][path.parent.name] = printed
    print("\n" + "\n".join(f"{name}: {len(files)} PDFs" for name, files in sorted(used.items())))
    assert {"accent", "change"} <= set(used)  # the card's band; the change bars of the samples' releases
    # the colours do not depend on the language: each aid's PDF prints the same in pl, en and ru
    for (folder, name), by_lang in languages.items():
        assert len({frozenset(v) for v in by_lang.values()}) == 1, f"{folder.name}/{name}: {by_lang}"


def test_a_figure_prints_gray_in_the_gray_profile_and_in_colour_at_home(tmp_path):
    from .test_figures import with_figures
    root = with_figures(tmp_path)
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["pdf", "gray"]))
    assert not summary.failed, summary.failed
    assert sorted(pdf_colours(root / "build/demo/pl/rules.pdf")[1]) == ["/DeviceRGB", "/DeviceRGB"]
    found, images = pdf_colours(root / "build/demo/pl/rules-gray.pdf")
    assert sorted(images) == ["/DeviceGray", "/DeviceGray"]
    assert all(is_gray(space, values) for space, values in found)


def test_the_game_page_offers_the_gray_pdfs(sample):
    """The card the samples print in gray (aids.yaml) is offered in gray on its game's page, in each language,
    beside its other files; a game printed in colour only offers none."""
    output = sample[0].output
    for lang, label in (("en", "Grayscale PDF"), ("pl", "PDF w odcieniach szarości"),
                        ("ru", "PDF в оттенках серого")):
        page = (output / "lwow-1920" / lang / "index.html").read_text(encoding="utf-8").replace("\xa0", " ")
        assert f'<a href="referee-card-gray.pdf" type="application/pdf">{label}</a>' in page
        assert 'href="referee-card-sheet-gray.pdf"' in page and 'href="referee-card.pdf"' in page
    assert "-gray.pdf" not in (output / "ostroleka-1831" / "en" / "index.html").read_text(encoding="utf-8")
    assert not list((output / "ostroleka-1831").rglob("*-gray.pdf"))
