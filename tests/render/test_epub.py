"""The e-books (aids/render/epub.py): every booklet and sequence of play of the samples, in every language and edition,
as EPUB 3 (tests/test_every_output.py runs EPUBCheck over every one), read back: its
language, its contents equal to its PDF's bookmarks, its cross-references leading to an id of the book, its fonts
embedded, the same bytes from a second build."""
from __future__ import annotations

import io
import re
import shutil
import zipfile
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

import lxml.etree
import pytest
from ebooklib import epub as ebooklib_epub
from pypdf import PdfReader

from aids.config import read_project
from aids.kinds.reading import read_game_aids
from aids.localize import making
from aids.pipeline import pipeline
from aids.pipeline.builder import build
from aids.pipeline.pipeline import Options
from aids.render import epub

from ..helpers import units
from ..reading import EPUBCHECK, JAVA, epubcheck, epubcheck_each
from ..test_browser import browser  # noqa: F401 (the module's fixture: Chromium, as test_browser.py starts it)

XHTML = {"x": "http://www.w3.org/1999/xhtml"}


def books(project) -> list[Path]:
    return sorted(project.output.rglob("*.epub"))


def every_book(project) -> set[str]:
    """An e-book of every booklet and sequence of the samples (reflowable), in every edition and language; a card
    and a playsheet make none."""
    return {u.path(lang, ".epub") for u in units(project) if u.reflowable for lang in project.languages}


def test_every_booklet_and_sequence_of_the_samples_is_an_epub_in_every_language(sample):
    project, _ = sample
    found = {p.relative_to(project.output).as_posix() for p in books(project)}
    assert found == every_book(project) and {u.kind for u in units(project) if u.reflowable} == {"booklet", "sequence"}


def test_epubcheck_finds_a_broken_book(tmp_path, sample):
    """EPUBCheck over every sample e-book (tests/test_every_output.py, one Java process for all) can fail: a book
    whose cross-reference leads nowhere has an error, and the book checked after it none."""
    if not (JAVA and EPUBCHECK.is_file()):
        pytest.skip("epubcheck or java missing")
    project, _ = sample
    source = project.output / "gcacw" / "en" / "system-rules.epub"
    broken = tmp_path / "broken.epub"
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(broken, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith("-01.xhtml"):
                data = data.replace(b'href="', b'href="nowhere-', 1)
            dst.writestr(info, data)
    found = epubcheck_each([broken, source])  # as test_every_output runs it: in one Java process, each its own
    assert found[broken][0] != "Messages: 0 fatals / 0 errors / 0 warnings" and "nowhere-" in found[broken][1]
    assert found[source][0] == "Messages: 0 fatals / 0 errors / 0 warnings", found[source][1]


# --- read back -------------------------------------------------------------------------------------------------

def nav_entries(book: zipfile.ZipFile) -> list[tuple[int, str, str]]:
    """(depth, label, href) of the navigation document's table of contents."""
    nav = lxml.etree.fromstring(book.read("EPUB/nav.xhtml"))
    found = []

    def walk(ol, depth):
        for li in ol.findall("x:li", XHTML):
            a = li.find("x:a", XHTML)
            found.append((depth, " ".join("".join(a.itertext()).split()), a.get("href")))
            for sub in li.findall("x:ol", XHTML):
                walk(sub, depth + 1)
    walk(nav.find(".//x:nav[@role='doc-toc']/x:ol", XHTML), 0)
    return found


def pdf_outline(path: Path) -> list[tuple[int, str]]:
    reader = PdfReader(path)
    found = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                found.append((depth, " ".join(item.title.split())))
    walk(reader.outline, 0)
    return found


def documents(book: zipfile.ZipFile) -> dict[str, lxml.etree._Element]:
    return {name.removeprefix("EPUB/"): lxml.etree.fromstring(book.read(name))
            for name in book.namelist() if name.endswith(".xhtml")}


def test_each_epub_has_its_language_its_pdf_s_contents_working_links_and_its_fonts(sample):
    project, _ = sample
    cross_chapter = 0
    for path in books(project):
        lang = path.parent.name
        read = ebooklib_epub.read_epub(str(path), {"ignore_ncx": True})
        assert read.get_metadata("DC", "language") == [(lang, {})], path
        assert re.fullmatch(r"urn:uuid:[0-9a-f-]{36}", read.get_metadata("DC", "identifier")[0][0])
        with zipfile.ZipFile(path) as book:
            first = book.infolist()[0]
            assert (first.filename, first.compress_type, book.read(first)) == \
                ("mimetype", zipfile.ZIP_STORED, b"application/epub+zip")
            # the contents: the PDF's bookmarks, the same numbers and headings at the same depth
            entries = nav_entries(book)
            assert [(d, label) for d, label, _ in entries] == pdf_outline(path.with_suffix(".pdf")), path
            docs = documents(book)
            ids = {name: set(doc.xpath("//@id")) for name, doc in docs.items()}
            for name, doc in docs.items():
                assert doc.get("lang") == lang
                for href in [*doc.xpath("//x:a/@href", namespaces=XHTML)]:
                    parts = urlsplit(href)
                    if parts.scheme:
                        continue
                    target = parts.path or name
                    assert target in ids, f"{path}: {name} -> {href}: no such file"
                    if parts.fragment:
                        assert unquote(parts.fragment) in ids[target], f"{path}: {name} -> {href}: no such id"
                    cross_chapter += bool(parts.path and parts.path != name and parts.fragment)
            for _, _, href in entries:
                file, _, anchor = href.partition("#")
                assert file in ids and (not anchor or unquote(anchor) in ids[file]), (path, href)
            # the fonts: DejaVu's or the theme's, subset, each named by an @font-face of the stylesheet (and each
            # drawing some text: test_every_font_of_every_sample_e_book_draws_some_of_its_text_and_no_text_lacks_one)
            css = book.read("EPUB/style/epub.css").decode()
            fonts = [n for n in book.namelist() if n.endswith((".ttf", ".otf"))]
            assert fonts and all(n.startswith("EPUB/fonts/") for n in fonts), path
            assert all(f'url("../fonts/{Path(f).name}")' in css for f in fonts)
            assert all(book.getinfo(f).file_size < 100_000 for f in fonts)  # subset: the full face is 700 kB
            assert "@page" not in css and "http" not in css and "var(" not in css
            # nothing fetched from the network: a link to a web page the reader may follow, never a resource
            assert not re.search(rb'src="https?:|<link [^>]*href="https?:|url\(["\']?https?:',
                                 b"".join(book.read(n) for n in book.namelist() if n.endswith((".xhtml", ".opf", ".css"))))
    assert cross_chapter > 20  # the booklets' references to rules of other chapters, pointed at their files


def test_a_booklet_s_rule_numbers_and_a_reference_across_chapters(sample):
    project, _ = sample
    with zipfile.ZipFile(project.output / "gcacw" / "ru" / "system-rules.epub") as book:
        entries = nav_entries(book)
        docs = documents(book)
    assert [label.split()[0] for _, label, _ in entries][:4] == ["1", "2", "2.1", "2.2"]
    assert len({href.partition("#")[0] for _, _, href in entries}) == 5  # a chapter a section at level 1
    links = [(name, href) for name, doc in docs.items() for href in doc.xpath("//x:a[@class='ref']/@href",
                                                                               namespaces=XHTML)]
    assert any(href.partition("#")[0] not in ("", name) for name, href in links)


def test_two_builds_of_an_epub_are_the_same_bytes_dated_by_the_game(sample, tmp_path):
    """Rendered again here (another process, another time) and built again into another folder: the same bytes."""
    project, _ = sample
    game = project.read_game("gcacw")
    aid = next(a for a in read_game_aids(project, game)[0] if a.model.id == "system-rules")
    lz = making.localizer(project, game, "pl")
    again = epub.book(pipeline.document(game, aid, lz, None))
    built = project.output / "gcacw" / "pl" / "system-rules.epub"
    assert again == built.read_bytes()
    with zipfile.ZipFile(built) as book:
        assert {info.date_time for info in book.infolist()} == {(2023, 4, 5, 0, 0, 0)}  # the game's publication
        assert b'<meta property="dcterms:modified">2023-04-05T00:00:00Z</meta>' in book.read("EPUB/content.opf")
    root = tmp_path / "again"
    for name in ("games", "i18n", "aids.yaml"):
        source = project.root / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, root / name)
    other = read_project(root)
    summary = build(other, Options(games=["ostroleka-1831"], langs=["ru"], formats=["epub"], jobs=1))
    assert not summary.failed
    name = Path("ostroleka-1831", "ru", "sequence-of-play.epub")
    assert (other.output / name).read_bytes() == (project.output / name).read_bytes()


def test_the_game_page_offers_the_epub_beside_the_pdf(sample):
    project, _ = sample
    page = (project.output / "gcacw" / "en" / "index.html").read_text(encoding="utf-8")
    assert '<a href="system-rules.epub" type="application/epub+zip">EPUB e-book</a>' in page
    polish = (project.output / "gcacw" / "pl" / "index.html").read_text(encoding="utf-8")
    assert 'href="system-rules.epub"' in polish
    lwow = (project.output / "lwow-1920" / "en" / "index.html").read_text(encoding="utf-8")
    assert ".epub" not in lwow  # a card makes no e-book


def test_formats_in_aids_yaml_choose_what_a_build_makes(tmp_path):
    from aids.errors import AidsError
    from tests.helpers import make_project
    root = make_project(tmp_path)
    text = (root / "aids.yaml").read_text(encoding="utf-8")
    (root / "aids.yaml").write_text(text + "formats: [html, epub, nope]\n", encoding="utf-8")
    with pytest.raises(AidsError, match=r"aids.yaml:\d+:\d+: unknown format 'nope'"):
        build(read_project(root))
    (root / "aids.yaml").write_text(text + "formats: [html, epub]\n", encoding="utf-8")
    summary = build(read_project(root))
    assert not summary.failed
    made = {p.suffix for p in (root / "build").rglob("*") if p.is_file() and p.parent.name in ("pl", "en")}
    assert ".epub" in made and ".html" in made and ".pdf" not in made


def test_a_booklet_s_figures_are_inside_its_epub_and_epubcheck_passes_it(tmp_path):
    from .test_figures import with_figures
    root = with_figures(tmp_path)
    summary = build(read_project(root), Options(langs=["pl"], formats=["epub"]))
    assert not summary.failed, summary.failed
    path = root / "build/demo/pl/rules.epub"
    with zipfile.ZipFile(path) as book:
        images = sorted(n for n in book.namelist() if n.endswith(".png"))
        assert [re.sub(r"-[0-9a-f]{8}", "", n) for n in images] == ["EPUB/rules-field.png", "EPUB/rules-ford.png"]
        assert book.read(images[0]) == (root / "games/demo/figures/field.png").read_bytes()
        shown = {src for doc in documents(book).values() for src in doc.xpath("//x:img/@src", namespaces=XHTML)}
        assert {"EPUB/" + unquote(src) for src in shown} == set(images)
    if JAVA and EPUBCHECK.is_file():
        counts, said = epubcheck(path)
        assert counts == "Messages: 0 fatals / 0 errors / 0 warnings", said


def test_an_icon_in_an_e_book_keeps_its_view_box_and_its_file_says_it_draws_svg(tmp_path):
    """An HTML parser wrote an icon's `viewBox` as `viewbox` (an e-reader then draws it at no size), and the
    manifest left out the `svg` property of a file with inline SVG: EPUBCheck errors on every book with icons."""
    from .test_icons import icon_project
    root = icon_project(tmp_path)
    summary = build(read_project(root), Options(langs=["pl"], formats=["epub"]))
    assert not summary.failed, summary.failed
    path = root / "build/demo/pl/seq.epub"
    with zipfile.ZipFile(path) as book:
        opf = lxml.etree.fromstring(book.read("EPUB/content.opf"))
        (item,) = [i for i in opf.iter("{http://www.idpf.org/2007/opf}item") if i.get("href") == "seq-00.xhtml"]
        (icon,) = documents(book)["seq-00.xhtml"].xpath("//s:svg", namespaces=SVG)
    assert item.get("properties") == "svg"
    assert (icon.get("viewBox"), icon.get("role"), icon.get("aria-label")) == ("0 0 24 24", "img", "kostka")
    assert icon.xpath("s:circle", namespaces=SVG)
    if JAVA and EPUBCHECK.is_file():
        counts, said = epubcheck(path)
        assert counts == "Messages: 0 fatals / 0 errors / 0 warnings", said


ICONS = {"en": {"infantry", "cavalry", "artillery", "clear terrain", "woods", "village", "stone building", "ford"},
         "pl": {"piechota", "kawaleria", "artyleria", "teren otwarty", "las", "wieś", "budynek murowany", "bród"},
         "ru": {"пехота", "кавалерия", "артиллерия", "открытая местность", "лес", "деревня", "каменное здание", "брод"}}
SVG = {"s": "http://www.w3.org/2000/svg"}
FONT_FILES = (".ttf", ".otf", ".woff", ".woff2")


@pytest.mark.parametrize("lang", ["pl", "en", "ru"])
def test_the_scenario_books_icons_are_svg_as_svg_spells_it_named_in_the_book_s_language(sample, lang):
    """An HTML parser wrote an icon's `viewBox` as `viewbox` (an e-reader then draws it at no size), and the
    manifest left out the `svg` property of a file with inline SVG: 37 EPUBCheck errors a book (issue 44)."""
    project, _ = sample
    names, drawn = set(), 0
    for aid in ("ford", "rules"):
        with zipfile.ZipFile(project.output / "valmora-scenarios" / lang / f"{aid}.epub") as book:
            opf = lxml.etree.fromstring(book.read("EPUB/content.opf"))
            properties = {item.get("href"): (item.get("properties") or "").split()
                          for item in opf.iter("{http://www.idpf.org/2007/opf}item")}
            for name, doc in documents(book).items():
                icons = doc.xpath("//s:svg", namespaces=SVG)
                assert ("svg" in properties[name]) == bool(icons), (aid, name, properties[name])
                for icon in icons:
                    assert (icon.get("viewBox"), icon.get("viewbox"), icon.get("role")) == ("0 0 24 24", None, "img")
                    assert icon.findtext("s:title", namespaces=SVG) == icon.get("aria-label")
                    assert icon.xpath("s:path | s:rect | s:circle | s:polygon", namespaces=SVG)
                    names.add(icon.get("aria-label"))
                drawn += len(icons)
    assert names == ICONS[lang] and drawn == 15  # 7 in the scenario, 8 in the rules


# --- the fonts, as an e-reader's engine draws the chapters ---------------------------------------------------------

# What decides the face of a character in an element, as a browser matches fonts: the computed family list, weight,
# style, stretch and caps, the text transform (which may change the character drawn), the language (a system
# font's fallback may go by it), and whether the element is drawn at all (a hidden one draws nothing).
FONT_KEYS = """return Array.from(document.querySelectorAll('*'), function (e) {
  var s = getComputedStyle(e);
  return [e.nodeName, [s.fontFamily, s.fontWeight, s.fontStyle, s.fontStretch, s.fontVariantCaps, s.fontSynthesis,
          s.fontFeatureSettings, s.fontVariationSettings, s.textTransform, s.webkitLocale,
          e.getClientRects().length > 0].join('|')];
});"""


def fonts_drawing(driver, url: str, seen: set[tuple[str, str]]) -> Counter:
    """{(PostScript name, embedded): glyphs} of the fonts Chromium drew the page at `url` with (CDP's
    CSS.getPlatformFontsForNode), asked of every ::before, ::after and ::marker (whose text a counter may make) and
    of as few elements with text of their own as hold every character of the page in every font it is set in: a
    character in the same font is drawn by the same face wherever it stands. `seen`: the (font, character) pairs
    asked of already in the book, added to."""
    driver.get(url)
    driver.execute_script("return document.fonts.ready")
    keys = driver.execute_script(FONT_KEYS)
    driver.execute_cdp_cmd("DOM.enable", {})
    driver.execute_cdp_cmd("CSS.enable", {})
    pending, elements = [driver.execute_cdp_cmd("DOM.getDocument", {"depth": -1})["root"]], 0
    pseudo: list[int] = []
    texts: list[tuple[int, set[tuple[str, str]]]] = []  # (element, the (font, character) pairs of its own text)
    while pending:
        node = pending.pop()
        children = node.get("children", [])
        if node.get("pseudoType"):
            pseudo.append(node["nodeId"])
        elif node["nodeType"] == 1:  # the elements in document order, as querySelectorAll has them
            name, key = keys[elements]
            assert name == node["nodeName"], (url, elements, name, node["nodeName"])
            elements += 1
            text = {(key, c) for child in children if child["nodeType"] == 3 and child["nodeValue"].strip()
                    for c in child["nodeValue"]}
            if text:
                texts.append((node["nodeId"], text))
        pending += reversed([*node.get("pseudoElements", []), *children])  # the first on top: document order
    assert elements == len(keys), (url, elements, len(keys))
    asked = list(pseudo)
    while texts:  # the element drawing the most pairs not asked of yet, until none draws one
        node_id, text = texts.pop(max(range(len(texts)), key=lambda n: len(texts[n][1] - seen)))
        if text <= seen:
            break
        seen |= text
        asked.append(node_id)
    used: Counter = Counter()
    for node_id in asked:
        for font in driver.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node_id})["fonts"]:
            used[font["postScriptName"], font["isCustomFont"]] += font["glyphCount"]
    return used


def postscript_name(data: bytes) -> str:
    from fontTools.ttLib import TTFont
    with TTFont(io.BytesIO(data)) as font:
        return font["name"].getDebugName(6)


@pytest.mark.system
def test_every_font_of_every_sample_e_book_draws_some_of_its_text_and_no_text_lacks_one(sample, browser, tmp_path):  # noqa: F811
    """The e-book shipped every face its stylesheet named, 8 DejaVu files a booklet, and the scenario books the
    theme's own 300 kB besides, unused (issue 44). Chromium, the engine of many reading systems, draws each
    chapter: every font file of the book is named by an @font-face of its stylesheet and draws some of the text,
    and no text falls to a font of the system (a character its subset lacks)."""
    project, _ = sample
    themed = 0
    for path in books(project):
        folder = tmp_path / path.relative_to(project.output).with_suffix("")
        with zipfile.ZipFile(path) as book:
            book.extractall(folder)
            css = book.read("EPUB/style/epub.css").decode()
            fonts = {postscript_name(book.read(n)): n for n in book.namelist() if n.endswith(FONT_FILES)}
            chapters = [n for n in book.namelist() if re.fullmatch(r"EPUB/.*-\d\d\.xhtml", n)]
        assert all(f'url("../{n.removeprefix("EPUB/")}")' in css for n in fonts.values()), (path, fonts)
        used, seen = Counter(), set()
        for chapter in chapters:
            used.update(fonts_drawing(browser, (folder / chapter).as_uri(), seen))
        assert {name for name, embedded in used if embedded} == set(fonts), (path, used, fonts)
        assert not [name for name, embedded in used if not embedded], (path, used)
        themed += any("Garamond" in name for name in fonts)
    assert themed == 6  # the scenario and the rules of the Valmora scenario books, in pl, en and ru


@pytest.mark.system
def test_the_scenario_e_book_wears_its_theme_as_far_as_an_e_reader_shows_one(sample, browser, tmp_path):  # noqa: F811
    """The e-book ignored the game's theme (issue 44): the theme's face sets the text and the headings, its
    colours the heading banners and table heads, its own sheet its touches (small capitals); the paper tone and
    the margins of its printed page are not the e-reader's, whose page is its reader's (night mode, margins)."""
    project, _ = sample
    with zipfile.ZipFile(project.output / "valmora-scenarios" / "en" / "ford.epub") as book:
        book.extractall(tmp_path)
    browser.get((tmp_path / "EPUB" / "ford-00.xhtml").as_uri())
    browser.execute_script("return document.fonts.ready")
    look = browser.execute_script("""
        const style = (selector, property) => getComputedStyle(document.querySelector(selector))[property];
        return [style('.rules h2', 'fontFamily'), style('.rules h2', 'backgroundColor'), style('.rules h2', 'color'),
                style('.rules h2', 'fontVariantCaps'), style('.rules p', 'fontFamily'),
                style('.rules-table th', 'backgroundColor'), style('html', 'backgroundImage'),
                style('body', 'backgroundImage')];""")
    assert look[0].startswith('"Valmora Garamond"') and look[4].startswith('"Valmora Garamond"'), look
    assert look[1:4] == ["rgb(140, 28, 19)", "rgb(255, 250, 240)", "small-caps"], look  # theme.yaml, valmora.css
    assert look[5] == "rgb(216, 196, 154)" and look[6:] == ["none", "none"], look
