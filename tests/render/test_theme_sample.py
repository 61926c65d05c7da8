"""A house style (issue 36): the Valmora scenario book's theme (games/valmora-scenarios/theme/theme.yaml) read
back from its PDFs and pages in every language: its own font embedded as a subset, its colours drawn, its
page art under the text; the scenario's figure and caption, footnote, link and full-width table; its theme in
the digest of its outputs; a theme's errors at their line and column."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from pypdf import PdfReader

from aids.config import read_project
from aids.errors import AidsError
from aids.pipeline import builder, pipeline

from ..helpers import REPO, copy_project, text_runs

GAME = "valmora-scenarios"
LANGS = ["en", "pl", "ru"]
CAPTIONS = {"en": "The ford at Alder Mill, looking north", "pl": "Bród przy Olszowym Młynie, widok na północ",
            "ru": "Брод у Ольховой мельницы, вид на север"}
NOTES = {"en": "The Alder is knee-deep", "pl": "W czerwcu Olszanka sięga", "ru": "В июне Ольшанка у брода"}
HEADINGS = {"en": "Situation", "pl": "Sytuacja", "ru": "Обстановка"}
BANNER = (0x8C, 0x1C, 0x13)  # colours: heading in theme.yaml


def scenario_project(root: Path) -> Path:
    """The scenario game alone in a scratch project, as the samples have it."""
    shutil.copytree(REPO / "games" / GAME, root / "games" / GAME)
    for lang in ("pl", "ru"):
        (root / "i18n" / lang / "LC_MESSAGES").mkdir(parents=True)
        shutil.copy(REPO / "i18n" / lang / "LC_MESSAGES" / f"{GAME}.po", root / "i18n" / lang / "LC_MESSAGES")
    (root / "aids.yaml").write_text("languages: [pl, en, ru]\n")
    return root


@pytest.fixture(scope="module")
def built(sample):
    """The samples' build, the scenario game in it (read it; copy it to edit)."""
    project, summary = sample
    assert {k: v for k, v in summary.fallbacks.items() if k[0] == GAME} == {}
    return project


def pdf(project, lang: str) -> Path:
    return project.output / GAME / lang / "ford.pdf"


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_in_the_themes_font_embedded_as_a_subset(built, lang):
    with pikepdf.open(pdf(built, lang)) as doc:
        fonts = {}
        for page in doc.pages:
            for font in page.Resources.Font.values():
                descendant = font.DescendantFonts[0] if "/DescendantFonts" in font else font
                descriptor = descendant.FontDescriptor
                fonts[str(font.BaseFont)] = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    garamond = {name: embedded for name, embedded in fonts.items() if "Valmora-Garamond" in name}
    assert garamond and all(garamond.values()), fonts
    assert all(re.fullmatch(r"/[A-Z]{6}\+Valmora-Garamond.*", name) for name in garamond)  # a subset (XXXXXX+)
    runs = [run for page in PdfReader(pdf(built, lang)).pages for run in text_runs(page)]
    body = [run for run in runs if "Valmora-Garamond" in run[3]]
    assert len(body) > 0.8 * len(runs)  # the running heads and footers stay aids' own


@pytest.mark.parametrize("lang", LANGS)
def test_caption_link_and_a_table_across_both_columns(built, lang):
    reader = PdfReader(pdf(built, lang))
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    assert CAPTIONS[lang] in text
    uris = [a.get_object()["/A"]["/URI"] for p in reader.pages for a in p.get("/Annots", [])
            if a.get_object().get("/A", {}).get("/S") == "/URI"]
    assert set(uris) == {"https://example.org/valmora/forum"}  # one a line the link is set on
    page = reader.pages[0]
    runs = text_runs(page)
    width = float(page.mediabox.width)
    heading = next(r for r in runs if r[4].startswith(HEADINGS[lang][0]) and r[4].lower() == HEADINGS[lang].lower())
    assert heading[0] < width / 2  # the left column
    artillery = {"en": "Horse Artillery", "pl": "Artyleria konna", "ru": "Конная артиллерия"}[lang]
    row = next(r for r in runs if r[4] == artillery)
    last_cell = [r for r in runs if abs(r[1] - row[1]) < 1]
    assert min(r[0] for r in last_cell) < width * 0.25 and max(r[0] for r in last_cell) > width * 0.75, last_cell


@pytest.mark.parametrize("lang", LANGS)
def test_the_footnote_at_the_foot_of_a_page(built, lang):
    reader = PdfReader(pdf(built, lang))
    found = [(n, r) for n, page in enumerate(reader.pages) for r in text_runs(page) if r[4].startswith("1.")
             and NOTES[lang] in " ".join(page.extract_text().split())]
    assert found
    number, run = found[0]
    body = [r for r in text_runs(reader.pages[number]) if "Valmora-Garamond" in r[3]]
    assert run[1] <= min(r[1] for r in body) + 1  # the lowest text of the page's own


@pytest.mark.parametrize("lang", LANGS)
def test_the_footnote_on_the_page_of_its_call(built, lang):
    """WeasyPrint 70.0 moved it alone to the next page: a float rounding in its footnote area
    (weasyprint_internals.tolerant_footnote_area)."""
    pages = [" ".join(page.extract_text().split()) for page in PdfReader(pdf(built, lang)).pages]
    assert [n for n, text in enumerate(pages) if NOTES[lang] in text] == \
        [n for n, text in enumerate(pages) if CALLED[lang] in text]  # the page of its call


def pixel_colours(path: Path, page: int = 1) -> set[tuple[int, int, int]]:
    import io
    out = subprocess.run(["pdftoppm", "-png", "-r", "40", "-f", str(page), "-l", str(page), str(path)],
                         capture_output=True, check=True).stdout
    image = Image.open(io.BytesIO(out)).convert("RGB")
    return {image.getpixel((x, y)) for x in range(image.width) for y in range(image.height)}


def near(colour, want, tolerance=6) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, want, strict=True))


@pytest.mark.parametrize("lang", LANGS)
def test_theme_colours_and_page_art_drawn(built, lang):
    colours = pixel_colours(pdf(built, lang))
    assert any(near(c, BANNER) for c in colours)  # the heading banners
    assert any(near(c, (0xD8, 0xC4, 0x9A)) for c in colours)  # the table's header cells
    assert any(near(c, (0xEF, 0xE4, 0xC8)) for c in colours)  # the highlighted first column
    assert any(near(c, (250, 244, 230), 2) for c in colours)  # the paper of theme/paper.png
    html = (built.output / GAME / lang / "ford.html").read_text()
    assert "--theme-heading: #8c1c13" in html and ".rules-table th" in html
    assert "font-variant: small-caps" in html  # theme/valmora.css, after aids' own sheets
    assert html.index("--theme-heading") > html.index(".booklet-title {")  # after aids' own sheets
    assert '<p class="house-colophon">' in html  # the colophon block of the theme
    assert "<figcaption>" in html and 'class="external"' in html and 'class="footnote-call"' in html
    assert '<div class="wide">' in html
    fonts = re.findall(r'@font-face \{ font-family: "Valmora Garamond"; src: url\("(ford-theme-[0-9a-f]{8}-[^"]+)"\)', html)
    assert sorted(f.split("-", 3)[3] for f in fonts) == ["EBGaramond12-Italic.otf", "EBGaramond12-Regular.otf"]
    for name in fonts:  # the theme's fonts beside the web page, as they are in the project
        assert (built.output / GAME / lang / name).read_bytes() == (
            REPO / "games" / GAME / "theme" / "fonts" / name.split("-", 3)[3]).read_bytes()


def test_a_theme_colour_changed_builds_the_pdf_again(sample, tmp_path):
    project = read_project(copy_project(sample[0].root, tmp_path / "project"))  # as built, its build cache with it
    again = builder.build(read_project(project.root))
    assert not [b for b in again.built if b.game == GAME], "nothing changed: nothing rendered"
    theme = project.root / "games" / GAME / "theme" / "theme.yaml"
    theme.write_text(theme.read_text().replace('heading: "#8c1c13"', 'heading: "#1c4f8c"'))
    before = pdf(project, "en").read_bytes()
    changed = builder.build(read_project(project.root))
    assert {b.aid for b in changed.built if b.game == GAME} == {"ford", "rules"}  # both in the theme
    assert pdf(project, "en").read_bytes() != before
    assert any(near(c, (0x1C, 0x4F, 0x8C)) for c in pixel_colours(pdf(project, "en")))


def theme_error(tmp_path: Path, replace: tuple[str, str] = ("", ""), extra: str = "") -> str:
    root = scenario_project(tmp_path)
    theme = root / "games" / GAME / "theme" / "theme.yaml"
    theme.write_text(theme.read_text().replace(*replace) + extra)
    with pytest.raises(AidsError) as error:
        read_project(root).read_game(GAME)
    return str(error.value)


@pytest.mark.unit
def test_a_font_without_a_languages_letters_is_an_error_naming_the_font_and_letters(tmp_path):
    latin = tmp_path / "latin.otf"
    from fontTools import subset
    subset.main([str(REPO / "games" / GAME / "theme" / "fonts" / "EBGaramond12-Italic.otf"),
                 "--unicodes=U+0020-007E", f"--output-file={latin}"])
    root = scenario_project(tmp_path / "p")
    shutil.copy(latin, root / "games" / GAME / "theme" / "fonts" / "Latin.otf")
    theme = root / "games" / GAME / "theme" / "theme.yaml"
    theme.write_text(theme.read_text().replace("EBGaramond12-Italic.otf", "Latin.otf"))
    with pytest.raises(AidsError) as error:
        read_project(root).read_game(GAME)
    message = str(error.value)
    assert "games/valmora-scenarios/theme/theme.yaml:5:" in message
    assert "font 'Latin.otf' has no glyph for ą Ą ć Ć ę Ę ł Ł ń Ń ó Ó ś Ś ź Ź ż Ż (letters of pl)" in message
    assert "font 'Latin.otf' has no glyph for а А б Б в В" in message and "(letters of ru)" in message


@pytest.mark.parametrize("replace, expected", [
    (("css: valmora.css", "css: ../../../../etc/passwd.css"), "theme.yaml:25:6: '../../../../etc/passwd.css' is "
     "outside the project"),
    (("background: paper.png", "background: nowhere.png"), "theme.yaml:21:15: 'nowhere.png' not found (looked for "
     "games/valmora-scenarios/theme/nowhere.png)"),
    (("headings: banner", "headings: ribbon"), "theme.yaml:17:11: headings: 'ribbon' (expected: plain, rule, banner)"),
    (('heading: "#8c1c13"', "heading: red"), "theme.yaml:11:12: colour heading: 'red'"),
    (("  text: Valmora Garamond", "  text: Garamond"), "theme.yaml:7:9: font family 'Garamond' is not among the "
     "theme's faces"),
    (("templates:", "template:"), "theme.yaml:26:1: unknown field 'template' in theme.yaml"),
])
@pytest.mark.unit
def test_theme_errors_at_their_line_and_column(tmp_path, replace, expected):
    assert expected in theme_error(tmp_path, replace)


@pytest.mark.unit
def test_a_theme_outside_the_project_is_refused(tmp_path):
    root = scenario_project(tmp_path / "p")
    (tmp_path / "theme.yaml").write_text("headings: banner\n")
    game = root / "games" / GAME / "game.yaml"
    game.write_text(game.read_text().replace("theme: theme/theme.yaml", "theme: ../../../theme.yaml"))
    with pytest.raises(AidsError) as error:
        read_project(root).read_game(GAME)
    assert "games/valmora-scenarios/game.yaml:9:8: theme '../../../theme.yaml' is outside the project" in str(error.value)


@pytest.mark.parametrize("lang, victory", [("en", "Victory"), ("pl", "Zwycięstwo"), ("ru", "Победа")])
def test_a_page_break_in_two_columns_starts_the_next_page(built, lang, victory):
    """`::: break page` in a two-column booklet: WeasyPrint breaks no page inside a set of columns, so the
    template ends the columns there and begins new ones after the break (templates/booklet.html)."""
    pages = [[r[4] for r in text_runs(page)] for page in PdfReader(pdf(built, lang)).pages]
    (page,) = [n for n, runs in enumerate(pages) if victory in runs]
    assert page > 0 and pages[page][0] == victory  # the first line of its page, the running head after it


@pytest.mark.parametrize("file, text, expected", [
    ("blocks/colophon.html", "<p>{{ game.secret }}</p>\n",
     "games/valmora-scenarios/theme/blocks/colophon.html:1:11: template block 'colophon': an attribute is not "
     "allowed in a block"),
    ("blocks/colophon.html", "<p>{{ __class__.__mro__ }}</p>\n", "template block 'colophon'"),
    ("valmora.css", "p { color: red; } </style><script>alert(1)</script>\n",
     "games/valmora-scenarios/theme/valmora.css: a theme stylesheet with '</' or '<!--' in it"),
])
def test_a_block_sees_only_the_documented_variables_and_css_stays_css(tmp_path, file, text, expected):
    root = scenario_project(tmp_path)
    (root / "games" / GAME / "theme" / file).write_text(text)
    summary = builder.build(read_project(root))
    assert summary.failed and all(expected in str(e) for e in summary.failed), summary.failed


@pytest.mark.unit
def test_the_projects_theme_is_every_games_own_unless_it_names_one(tmp_path):
    from aids.pipeline.fingerprint import sources_digest
    root = scenario_project(tmp_path)
    game = root / "games" / GAME / "game.yaml"
    game.write_text(game.read_text().replace("theme: theme/theme.yaml\n", ""))
    assert read_project(root).read_game(GAME).theme is None
    shutil.copytree(root / "games" / GAME / "theme", root / "themes" / "house")  # outside the games' folder
    (root / "aids.yaml").write_text("languages: [pl, en, ru]\ntheme: themes/house/theme.yaml\n")
    project = read_project(root)
    theme = project.read_game(GAME).theme
    assert theme is not None and theme is project.theme and theme.headings == "banner"
    before = sources_digest(project)  # what a build's stamp and its workers key on
    (root / "themes" / "house" / "valmora.css").write_text("h2 { color: green; }\n")
    assert sources_digest(project) != before


CALLED = {"en": "one less strength point", "pl": "mniejszą o jeden punkt", "ru": "на одно очко меньше"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_full_stop_after_a_footnote_call_is_printed(built, lang):
    """ford.md's `point[^ford].`: the sentence's full stop was taken for the note's own (which ends in one, and
    prints at the foot of the page or in the list of notes), and dropped after the call."""
    import lxml.html
    page = lxml.html.parse(str(built.output / GAME / lang / "ford.html")).getroot()
    [call] = page.xpath("//a[@class='footnote-call']")
    note = call.getnext()
    assert "footnote" in note.get("class") and NOTES[lang] in " ".join(note.text_content().split())
    paragraph = " ".join(call.getparent().text_content().replace(note.text_content(), "").split())
    assert f"{CALLED[lang]}1." in paragraph, paragraph
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(pdf(built, lang)).pages)
    assert f"{CALLED[lang]}1." in text, text[text.find(CALLED[lang]):][:60]


# --- the files a theme's stylesheet names by url() (issue 44) ---------------------------------------------------

TILE = REPO / "games" / GAME / "theme" / "art" / "paper-tile.png"  # valmora.css: url("art/paper-tile.png")


@pytest.mark.parametrize("lang", LANGS)
def test_the_web_page_links_a_copy_of_each_file_its_themes_stylesheet_names(built, lang):
    """valmora.css (in theme/) names art/paper-tile.png: found from the stylesheet's folder, as CSS finds it (it was
    looked for from the game's folder), and copied beside each web page (it was not copied at all)."""
    for aid in ("ford", "rules"):
        html = (built.output / GAME / lang / f"{aid}.html").read_text(encoding="utf-8")
        [copy] = re.findall(r'body\.aid \{ background: #faf4e6 url\("([^"]+)"\); \}', html)
        assert re.fullmatch(rf"{aid}-theme-[0-9a-f]{{8}}-paper-tile\.png", copy), copy
        assert (built.output / GAME / lang / copy).read_bytes() == TILE.read_bytes()
        assert "art/paper-tile.png" not in html and "file:" not in html


def test_a_stylesheets_url_is_found_from_its_folder_in_the_pdf_too(tmp_path):
    """A url() the PDF prints (a mark beside every chapter's heading): from the stylesheet's folder, read through
    the project's fetcher; before, from the game folder, where it is not (a warning, nothing drawn)."""
    from .test_figures import png
    root = scenario_project(tmp_path)
    theme = root / "games" / GAME / "theme"
    (theme / "art" / "mark.png").write_bytes(png(40, 40, (0x20, 0xA0, 0x30)))
    with (theme / "valmora.css").open("a") as css:
        css.write('.rules h2::before { content: ""; display: inline-block; width: 6mm; height: 6mm; '
                  'background: url("art/mark.png"); }\n')
    summary = builder.build(read_project(root), pipeline.Options(langs=["en"], formats=["pdf"], games=[GAME]))
    assert not summary.failed and [b.warnings for b in summary.built] == [[], []], summary.built
    assert any(near(c, (0x20, 0xA0, 0x30), 2) for c in pixel_colours(root / "build" / GAME / "en" / "ford.pdf"))


@pytest.mark.parametrize("rule, expected", [
    ('.a { background: url("../../../../secret.png"); }', "valmora.css:10:18: url(../../../../secret.png) is outside "
     "the project (expected: an image or font file inside the project, its path relative to the stylesheet)"),
    (".a { background: url(https://example.org/x.png); }", "valmora.css:10:18: url(https://example.org/x.png) is not "
     "a file of the project (aids renders offline)"),
    (".a { background: url(/etc/x.png); }", "valmora.css:10:18: url(/etc/x.png) is not a path relative to the "
     "stylesheet"),
    (".a { background: url(nowhere.png); }", "valmora.css:10:18: url(nowhere.png) not found (looked for "
     "games/valmora-scenarios/theme/nowhere.png)"),
    ('@import "other.css";', "valmora.css:10:1: @import 'other.css' in a theme stylesheet (expected: the rules of one "
     "stylesheet, css: in theme.yaml)"),
    (".a { background: url(blocks/colophon.html); }", "valmora.css:10:18: url(blocks/colophon.html) is not an image "
     "or a font"),
])
def test_what_a_stylesheet_names_is_a_file_of_the_project_or_an_error_at_its_line(tmp_path, rule, expected):
    (tmp_path / "secret.png").write_bytes(b"\x89PNG")
    root = scenario_project(tmp_path / "p")
    with (root / "games" / GAME / "theme" / "valmora.css").open("a") as css:
        css.write(rule + "\n")
    with pytest.raises(AidsError) as error:
        read_project(root).read_game(GAME)
    assert f"games/valmora-scenarios/theme/{expected}" in str(error.value)


def test_a_stylesheet_whose_urls_are_rewritten_keeps_every_escape_as_written(tmp_path):
    """Pointing its url()s at their files changes nothing else of it: an escape that reads `</` stays an escape,
    never a `</style>` ending the page's <style> (a stylesheet re-serialized whole would write it so)."""
    import lxml.html
    root = scenario_project(tmp_path)
    with (root / "games" / GAME / "theme" / "valmora.css").open("a") as css:
        css.write('.subtitle::after { content: "\\3c/style><script>alert(1)\\3c/script>"; }\n')
    summary = builder.build(read_project(root), pipeline.Options(langs=["en"], formats=["html"], games=[GAME]))
    assert not summary.failed, summary.failed
    html = (root / "build" / GAME / "en" / "ford.html").read_text(encoding="utf-8")
    assert 'content: "\\3c/style><script>alert(1)\\3c/script>"' in html and 'url("ford-theme-' in html
    assert not [s for s in lxml.html.fromstring(html).iter("script") if "alert" in (s.text or "")]
