"""Icon sets ({icon:<id>}, docs/guide/icons.md): declared, checked and read back from what aids makes.

A demo game declares icons and uses them in a sequence; the samples use them on the Lwów card (ReportLab)
and in Newbury's tables (WeasyPrint). Each output is read back: the localized name as the HTML's
aria-label and <title>, the drawing as vector (a Form XObject or paths, never an image), on the line of the
number written next to it; an unsafe SVG and a lost icon are reported where they are.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from aids.commands.cli import main
from aids.localize.catalogs import po_path
from aids.model.icons import svg_fault

from ..helpers import DEMO_GAME, DEMO_SEQUENCE, make_project
from ..localize.test_catalogs import extract_update, translate
from . import lines

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="9" fill="#000"/></svg>\n'
GAME = DEMO_GAME + "icons:\n  - {id: die, file: icons/die.svg, name: kostka}\n"
SEQUENCE = DEMO_SEQUENCE.replace("text: Połóż żetony.", 'text: "Rzuć {num:2} {icon:die} i połóż żetony."')
NAMES = {"pl": "kostka", "en": "die", "ru": "кубик"}


def icon_project(root: Path, game: str = GAME, svg: str = SVG, sequence: str = SEQUENCE) -> Path:
    return make_project(root, {"games/demo/game.yaml": game, "games/demo/icons/die.svg": svg,
                               "games/demo/sequence.yaml": sequence})


def translated(root: Path, en_step: str = "Roll {num:2} {icon:die} and place the counters.") -> None:
    extract_update(root)
    translate(po_path(root / "i18n", "en", "demo"), {"game/icons/die": "die", "seq/prep/place": en_step})
    translate(po_path(root / "i18n", "ru", "demo"), {"game/icons/die": "кубик",
                                                     "seq/prep/place": "Бросьте {num:2} {icon:die} и положите жетоны."})


class Icons(HTMLParser):
    """Every inline icon of a page: its aria-label, its <title>, and the text of the nobreak span around it."""

    def __init__(self):
        super().__init__()
        self.icons: list[dict] = []
        self.stack: list[str] = []
        self.nobreak: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "span" and attrs.get("class") == "nobreak":
            self.nobreak = []
        if tag == "svg" and "icon" in (attrs.get("class") or ""):
            self.icons.append({"label": attrs.get("aria-label"), "role": attrs.get("role"), "title": "",
                               "nobreak": self.nobreak is not None, "before": "".join(self.nobreak or [])})
        self.stack.append(tag)

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass
        if tag == "span":
            self.nobreak = None

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "title" and self.icons and "svg" in self.stack:
            self.icons[-1]["title"] += data
        elif self.nobreak is not None and "svg" not in self.stack:
            self.nobreak.append(data)


def html_icons(path: Path) -> list[dict]:
    parser = Icons()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.icons


# --- what an icon's SVG may be --------------------------------------------------------------------

@pytest.mark.parametrize("svg, why", [
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><script>alert(1)</script></svg>', "<script>"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" onload="alert(1)"/>', "'onload'"),
    ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink" viewBox="0 0 1 1">'
     '<use x:href="https://example.org/a.svg#b"/></svg>', "refers outside"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><image href="file:///etc/passwd"/></svg>', "<image>"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect fill="url(https://e.org/x)"/></svg>',
     "refers outside"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><style>rect{fill:red}</style></svg>', "<style>"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><foreignObject/></svg>', "<foreignObject>"),
    ('<!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" '
     'viewBox="0 0 1 1"><title>&e;</title></svg>', "DTD"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>', "viewBox"),
    ("<html/>", "not an <svg>"),
])
@pytest.mark.unit
def test_an_unsafe_svg_is_refused_saying_why(svg, why):
    fault, kept = svg_fault(svg.encode())
    assert why in fault and kept == ""


@pytest.mark.unit
def test_the_sample_icons_are_all_safe():
    icons = sorted(Path(__file__).parents[2].glob("games/*/icons/*.svg"))
    assert len(icons) >= 10
    for path in icons:
        assert svg_fault(path.read_bytes())[0] == "", path


# --- errors where they are -----------------------------------------------------------------------

def test_unsafe_svg_missing_file_and_unknown_icon_are_errors_at_their_place(tmp_path, capsys):
    root = icon_project(tmp_path / "a", svg=SVG.replace("<circle", '<script>x</script><circle'))
    assert main(["--project", str(root), "build", "--format", "html"]) == 1
    err = capsys.readouterr().err
    assert "games/demo/game.yaml:10:21: icon file 'icons/die.svg' refused: element <script> (line 1) is not a " \
           "shape" in err and "Traceback" not in err
    root = icon_project(tmp_path / "b", game=GAME.replace("icons/die.svg", "icons/gone.svg"))
    assert main(["--project", str(root), "build", "--format", "html"]) == 1
    assert "games/demo/game.yaml:10:21: icon file 'icons/gone.svg' not found (looked in games/demo/icons/gone.svg)" \
           in capsys.readouterr().err
    root = icon_project(tmp_path / "c", sequence=SEQUENCE.replace("{icon:die}", "{icon:dice}"))
    assert main(["--project", str(root), "build", "--format", "html"]) == 1
    assert "games/demo/sequence.yaml:15:29: unknown icon 'dice' (expected: die)" in capsys.readouterr().err
    root = icon_project(tmp_path / "d", game=GAME.replace("id: die", "id: Die!"))
    assert main(["--project", str(root), "build", "--format", "html"]) == 1
    assert "games/demo/game.yaml:10:10: malformed or duplicate icon id 'Die!'" in capsys.readouterr().err


def test_a_translation_that_drops_or_changes_an_icon_is_flagged_and_falls_back(tmp_path, capsys):
    root = icon_project(tmp_path)
    translated(root, en_step="Roll {num:2} dice and place the counters.")
    assert main(["--project", str(root), "check", "--lang", "en"]) == 1
    assert "translation loses {icon:die}" in capsys.readouterr().out
    translate(po_path(root / "i18n", "en", "demo"), {"seq/prep/place": "Roll {num:2} {icon:dice} and place them."})
    assert main(["--project", str(root), "check", "--lang", "en"]) == 1
    assert "translation loses {icon:die} and invents {icon:dice}" in capsys.readouterr().out
    assert main(["--project", str(root), "build", "--lang", "en", "--format", "html"]) == 0
    page = root / "build/demo/en/seq.html"
    assert [i["label"] for i in html_icons(page)] == ["die"]  # the icon of the Polish text it falls back to...
    assert "Rzuć" in page.read_text(encoding="utf-8")  # ...which is shown


# --- read back: HTML and the WeasyPrint PDF of a sequence ---------------------------------------

def test_a_sequence_step_shows_its_icon_named_in_each_language_beside_its_number(tmp_path):
    root = icon_project(tmp_path)
    translated(root)
    assert main(["--project", str(root), "build"]) == 0
    for lang, name in NAMES.items():
        icons = html_icons(root / f"build/demo/{lang}/seq.html")
        assert icons == [{"label": name, "role": "img", "title": name, "nobreak": True, "before": "\u00a02\u00a0\u2060"}]
        pdf = root / f"build/demo/{lang}/seq.pdf"
        assert_vector_icons(pdf, expected=1)
        assert_numbers_beside_icons(pdf, "2")


def image_xobjects(pdf: pikepdf.Pdf) -> list:
    found = []
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
            found.append(obj)
    return found


def assert_vector_icons(path: Path, expected: int) -> None:
    """The PDF draws `expected` icons or more as vector forms (ours, or WeasyPrint's for an inline SVG) and holds
    no image at all."""
    with pikepdf.open(path) as pdf:
        assert image_xobjects(pdf) == [], path
        forms = icon_placements(path)
        assert len(forms) >= expected, (path, len(forms))


def icon_placements(path: Path) -> list[tuple[int, float, float, float]]:
    """(page, x, y, height) of every icon drawn, in pt from the page's lower left: in the card (ReportLab) each Do
    of a Form XObject aids named aids-icon-*; in WeasyPrint's PDFs each inline SVG, the paths of a /Figure
    marked-content sequence (its extent)."""
    found = []
    for number, page in enumerate(PdfReader(path).pages):
        forms = _icon_forms(page)
        figure: list[tuple[float, float]] | None = None

        def visit(op, args, cm, tm, number=number, forms=forms):
            nonlocal figure
            if op == b"Do" and args and str(args[0]) in forms:
                bbox = forms[str(args[0])]
                found.append((number, cm[4] + bbox[0] * cm[0], cm[5] + bbox[1] * cm[3], (bbox[3] - bbox[1]) * cm[3]))
            elif op == b"BDC" and args and str(args[0]) == "/Figure":
                figure = []
            elif op == b"EMC" and figure is not None:
                if figure:
                    xs, ys = [p[0] for p in figure], [p[1] for p in figure]
                    found.append((number, min(xs), min(ys), max(ys) - min(ys)))
                figure = None
            elif figure is not None and op in (b"m", b"l", b"c", b"re"):
                pairs = [(float(args[k]), float(args[k + 1])) for k in range(0, len(args) - 1, 2)]
                if op == b"re":
                    pairs = [pairs[0], (pairs[0][0] + pairs[1][0], pairs[0][1] + pairs[1][1])]
                figure.extend((x * cm[0] + y * cm[2] + cm[4], x * cm[1] + y * cm[3] + cm[5]) for x, y in pairs)

        page.extract_text(visitor_operand_before=visit)
    return found


def _icon_forms(page) -> dict[str, list[float]]:
    """The page's Form XObjects that are aids' icons, by name: their BBox."""
    xobjects = page.get("/Resources", {}).get("/XObject", {}) or {}
    return {name: [float(v) for v in ref.get_object()["/BBox"]] for name, ref in xobjects.items()
            if "aids-icon-" in name and ref.get_object().get("/Subtype") == "/Form"}


def assert_numbers_beside_icons(path: Path, *numbers: str) -> None:
    """Each of `numbers` written next to an icon is on the icon's line (poppler's lines), the last word before it."""
    laid = lines.pages(path)
    heights = [float(page.mediabox.height) for page in PdfReader(path).pages]
    beside = []
    for page, x, y, height in icon_placements(path):
        middle = heights[page] - (y + height / 2)  # poppler measures from the top
        for line in (ln for block in laid[page] for ln in block if ln.y0 <= middle <= ln.y1):
            before = [w for w in line.words if w.x1 <= x + 0.5]
            if before and x - before[-1].x1 < 1.5 * height:
                beside.append(before[-1].text.strip("\u00a0 "))
    for number in numbers:
        assert any(re.search(rf"(^|[^\d]){re.escape(number)}$", word) for word in beside), (path, number, beside)


# --- the samples: the Lwów card (ReportLab) and Newbury's playsheet (WeasyPrint) ----------------

LWOW = {"pl": {"samolot", "kawaleria", "czarna kostka", "pole z szachownicą", "pole z gwiazdą", "bród", "pole"},
        "en": {"aircraft", "cavalry", "black die", "checkerboard space", "star space", "ford", "space"},
        "ru": {"самолёт", "кавалерия", "чёрный кубик", "поле с шахматной клеткой", "поле со звездой", "брод", "поле"}}
NEWBURY = {"pl": {"piechota", "kawaleria", "artyleria", "kostka przeciętna"},
           "en": {"infantry", "cavalry", "artillery", "average die"},
           "ru": {"пехота", "кавалерия", "артиллерия", "средний кубик"}}


@pytest.mark.parametrize("lang", ["pl", "en", "ru"])
def test_the_lwow_card_names_its_icons_in_each_language_and_draws_them_as_vector_beside_their_numbers(sample, lang):
    project = sample[0]
    folder = project.output / "lwow-1920" / lang
    icons = html_icons(folder / "referee-card.html")
    assert {i["label"] for i in icons} == LWOW[lang]
    assert all(i["role"] == "img" and i["title"] == i["label"] for i in icons)
    # "od 0 do 2 [pole]", "o 1 [pole]": each number held with its icon
    assert sorted(i["before"].strip("\u00a0\u2060 ") for i in icons if i["nobreak"]) == ["1", "2", "2"]
    card = folder / "referee-card.pdf"
    assert_vector_icons(card, expected=9)
    assert_numbers_beside_icons(card, "2", "1")
    sheet = folder / "referee-card-sheet.pdf"  # the card's pages placed on A4: its forms inside them
    with pikepdf.open(sheet) as pdf:
        assert image_xobjects(pdf) == []
        inside = [str(name) for page in pdf.pages for face in page.Resources.XObject.values()
                  for name in face.get("/Resources", {}).get("/XObject", {}).keys()]
        assert any("aids-icon-hex" in name for name in inside), inside


@pytest.mark.parametrize("lang", ["pl", "en", "ru"])
@pytest.mark.parametrize("edition", ["cm", "inch"])
def test_newbury_tables_show_their_icons_in_each_language_vector_beside_the_dice_count(sample, lang, edition):
    folder = sample[0].output / "newbury-fast-play" / edition / lang
    icons = html_icons(folder / "playsheet.html")
    assert {i["label"] for i in icons} == NEWBURY[lang]
    # ten rows of the movement table, two of the charge distances, two intros (each twice: under the table's
    # heading, and in the caption a screen reader reads with the table)
    assert len(icons) == 16
    # the intros' die follows its noun ("1 average die [die]"): a number and its icon are held together on the
    # Lwów card and in the demo's sequence; here no icon stands after a number
    assert [i["before"] for i in icons if i["nobreak"]] == []
    pdf = folder / "playsheet.pdf"
    assert_vector_icons(pdf, expected=14)


def test_search_indexes_an_icon_under_its_name(sample):
    """Pagefind reads the page's text and the attributes it is told to (data-pagefind-index-attrs): the name."""
    page = (sample[0].output / "lwow-1920" / "en" / "referee-card.html").read_text(encoding="utf-8")
    assert re.search(r'<svg class="icon"[^>]* aria-label="ford" data-pagefind-index-attrs="aria-label"', page)
