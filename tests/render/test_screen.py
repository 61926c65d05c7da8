"""Every sample page as a reader on a screen gets it: headings without gaps, tables a screen reader can read (scopes,
headers of grouped columns) in a focusable scrolling frame named by the table, a link to copy on every heading, the
browser's own stylesheet (which WeasyPrint never reads) with fonts a system has; in Chromium, nothing wider than a
phone but a table's frame, whose head and key columns stay in view."""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from xml.etree.ElementTree import Element

import pytest
import tinycss2
import tinyhtml5
from pypdf import PdfReader
from weasyprint.css import media_queries

from aids.source.yamlfile import read_yaml

from ..helpers import outputs

HEADINGS = {f"h{n}": n for n in range(1, 7)}
GENERIC = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "math"}
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")


@pytest.fixture(scope="module")
def built(sample) -> tuple[Path, list[str]]:
    """The samples' HTML pages as their build wrote them: one for every aid of every game, edition and language."""
    project, summary = sample
    files = sorted(f for b in summary.built for f in b.files if f.endswith(".html"))
    assert files == sorted(f"build/{path}" for path in outputs(project, ".html"))
    return project.root, files


@pytest.fixture(scope="module")
def pages(built) -> dict[str, Element]:
    root, files = built
    return {f: tinyhtml5.parse((root / f).read_text(encoding="utf-8"), namespace_html_elements=False) for f in files}


def table_sources(project) -> list:
    """The source of every table of every game (those a playsheet, card or booklet embeds)."""
    return [source for game_id in project.game_ids() for path in project.read_game(game_id).aids
            if (source := read_yaml(path, path.name)).data.get("kind") == "table"]


def text(element: Element) -> str:
    return re.sub(r"\s+", " ", "".join(element.itertext())).strip()


def classes(element: Element) -> set[str]:
    return set((element.get("class") or "").split())


def parents(tree: Element) -> dict[Element, Element]:
    return {child: parent for parent in tree.iter() for child in parent}


def reading(tree: Element) -> list[Element]:
    """The page's own parts: its masthead and main (a site's navigation and search are not the aid's)."""
    return [e for e in tree.iter() if e.tag == "main" or (e.tag == "header" and "masthead" in classes(e))]


def headings(tree: Element) -> list[Element]:
    return [h for part in reading(tree) for h in part.iter() if h.tag in HEADINGS]


def test_heading_levels_descend_one_at_a_time(pages):
    """Before: the booklet's embedded sequence had h4 phases under an h2 chapter."""
    for name, tree in pages.items():
        levels = [HEADINGS[h.tag] for h in headings(tree)]
        assert levels[0] == 1 and levels.count(1) == 1, name
        skips = [(a, b) for a, b in zip(levels, levels[1:]) if b > a + 1]
        assert not skips, f"{name}: heading levels skip {skips}"


def test_every_header_cell_has_a_scope_and_a_text(pages):
    """Before: a rule table's headers had no scope, and the casualty table's unnumbered columns empty headers."""
    for name, tree in pages.items():
        for th in tree.iter("th"):
            assert th.get("scope") in ("col", "row", "colgroup", "rowgroup"), (name, text(th))
            assert text(th), f"{name}: an empty header cell"


def test_cells_under_grouped_columns_name_their_headers(sample, pages):
    """A column group's header reaches its cells through `headers`: row, group and column (none where the column
    has no header), every id a header of the same table."""
    declared = {source.data["id"] for source in table_sources(sample[0]) if source.data.get("groups")}
    grouped, expected = set(), set()
    for name, tree in pages.items():
        for table in tree.iter("table"):
            head = table.find("thead")
            groups = [th for tr in (head if head is not None else []) if "title" not in classes(tr)
                      for th in tr.findall("th") if th.get("scope") == "colgroup"]
            expected |= {(name, table.get("id"))} if table.get("id") in declared else set()
            if not groups:
                continue
            grouped.add((name, table.get("id")))
            ids = {th.get("id") for th in table.iter("th") if th.get("id")}
            assert {g.get("id") for g in groups} <= ids
            body = table.find("tbody")
            assert body is not None
            for tr in body.iter("tr"):
                row = tr.find("th")
                assert row is not None and row.get("id") in ids
                for td in tr.findall("td"):
                    named = (td.get("headers") or "").split()  # row, group, column (a column may have none)
                    assert named[0] == row.get("id") and set(named) <= ids, (name, named)
                    assert named[1] in {g.get("id") for g in groups}, (name, named)
    assert grouped and grouped == expected, "every table whose source groups its columns, wherever it is shown"


def test_tables_scroll_in_a_focusable_frame_named_by_the_table(pages):
    """Before: the playsheet's frame could not be reached from the keyboard, and a rule table had none."""
    for name, tree in pages.items():
        up = parents(tree)
        labels = []
        for table in tree.iter("table"):
            if "keyed" in classes(table):  # a card's legend: two columns that wrap, never wider than the page
                continue
            frame = up[table]
            assert frame.tag == "div" and "table-scroll" in classes(frame), name
            assert frame.get("tabindex") == "0" and frame.get("role") == "region", name
            label = frame.get("aria-label") or ""
            assert label, name
            labels.append(label)
            caption = table.find("caption")
            if "data" in classes(table):
                assert caption is not None and text(caption).startswith(re.sub(r"\s+", " ", label)), (name, label)
        assert len(labels) == len(set(labels)), f"{name}: two regions of one name"


def test_every_heading_and_table_has_a_link_to_copy(pages):
    """A heading with an id, or the first heading of a section with one, links to it; so does a table's caption."""
    checked = 0
    for name, tree in pages.items():
        up = parents(tree)
        ids = {e.get("id") for e in tree.iter() if e.get("id")}
        for heading in headings(tree):
            if "table-title" in classes(heading):  # a table's title, in its caption: its link is the table's (below)
                continue
            owner = heading if heading.get("id") else up[heading]
            if not owner.get("id") or owner.tag not in ("section", *HEADINGS):
                assert heading.find(".//a[@class='permalink']") is None, name
                continue
            links = [a for a in heading.iter("a") if "permalink" in classes(a)]
            assert len(links) == 1, f"{name}: {text(heading)}"
            assert links[0].get("href") == f"#{owner.get('id')}" and owner.get("id") in ids
            assert links[0].get("aria-label"), name
            checked += 1
        for table in tree.iter("table"):
            caption = table.find("caption")
            if caption is not None:
                links = [a for a in caption.iter("a") if "permalink" in classes(a)]
                assert [a.get("href") for a in links] == [f"#{table.get('id')}"], name
    assert checked > 150


def styles(tree: Element) -> tuple[list[str], list[str]]:
    """The page's stylesheets: (those WeasyPrint reads, those only a browser reads)."""
    printed, browser = [], []
    for style in tree.iter("style"):
        media = [m.strip() for m in (style.get("media") or "all").split(",")]
        (printed if media_queries.evaluate_media_query(media, "print") else browser).append(style.text or "")
    return printed, browser


def declarations(css: str):
    """(name, value tokens) of every declaration, inside @media blocks too."""
    def walk(rules):
        for rule in rules:
            if rule.type == "qualified-rule":
                for d in tinycss2.parse_blocks_contents(rule.content, skip_whitespace=True, skip_comments=True):
                    if d.type == "declaration":
                        yield d.lower_name, [t for t in d.value if t.type not in ("whitespace", "comment")]
            elif rule.type == "at-rule" and rule.content is not None and rule.lower_at_keyword in ("media", "supports"):
                yield from walk(tinycss2.parse_rule_list(rule.content, skip_whitespace=True, skip_comments=True))
    yield from walk(tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True))


def test_the_browser_has_a_stylesheet_of_its_own_for_screen_and_print(pages):
    """The screen layout and a browser's print (sticky heads, the browser's fonts) in a <style> whose media list
    WeasyPrint never matches; the page keeps nothing only WeasyPrint reads (print.css has it)."""
    for name, tree in pages.items():
        printed, browser = styles(tree)
        assert not [css for css in printed if re.search(r"bookmark-|string-set|string\(", css)], name
        assert len(browser) == 1, name
        sheet = browser[0]
        assert "position: sticky" in sheet and "@media print" in sheet and "@media screen" in sheet
        hidden = r"@media print \{[^@]*\.permalink \{ display: none; \}"
        assert re.search(hidden, sheet) and re.search(hidden, printed[0]), name  # in a browser's print, in the PDF


def test_every_font_stack_ends_in_a_generic_family(pages):
    """Before: a browser printed the playsheet's tables in a serif face: "Aids Sans Condensed" alone, a family
    only the PDF embeds."""
    stacks = 0
    for name, tree in pages.items():
        for css in (*styles(tree)[0], *styles(tree)[1]):
            for prop, tokens in declarations(css):
                if prop == "font-family":
                    stacks += 1
                    assert tokens[-1].type == "ident" and tokens[-1].lower_value in GENERIC, (name, tokens)
    assert stacks > 24


def test_links_to_copy_are_not_printed_in_the_pdf(sample):
    """The sequence's PDF keeps its phase bookmarks (print.css names them) and shows no link to copy."""
    project, summary = sample
    (built,) = [b for b in summary.built if (b.game, b.edition, b.lang, b.aid) == ("valmora-1809", "cm", "en",
                                                                                "turn-sequence")]
    assert "build/valmora-1809/cm/en/turn-sequence.pdf" in built.files and built.warnings == []
    reader = PdfReader(project.output / "valmora-1809/cm/en/turn-sequence.pdf")
    assert "#" not in "".join(page.extract_text() for page in reader.pages)
    titles: list[str] = []

    def walk(items):
        for item in items:
            walk(item) if isinstance(item, list) else titles.append(item.title)
    walk(reader.outline)
    assert titles[0] == "4 Sequence of play" and len(titles) > 3, titles
    assert titles[-1] == "Rulings"  # the appendix of the game's rulings (docs/guide/rulings.md): one bookmark
    assert all(re.fullmatch(r"4\.\d+( [^#]+)?", t) for t in titles[1:-1]), titles  # 4.6 has no title


# --- in Chromium -------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and DRIVER):
        pytest.skip("chromium and chromium-driver (installed by ./bootstrap test) are missing")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--hide-scrollbars"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


@pytest.mark.system
def test_on_a_phone_nothing_scrolls_sideways_but_a_table(built, browser):
    root, files = built
    browser.set_window_size(390, 844)
    for name in files:
        browser.get((root / name).as_uri())
        wide = browser.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], f"{name}: {wide[0]} px wide at {wide[1]}"
        if "system-rules" in name:  # rules read in one column, ragged, hyphenated where the browser can
            style = browser.execute_script(
                "const s = getComputedStyle(document.querySelector('.rules p'));"
                "return [s.textAlign, s.hyphens, s.columnCount, document.documentElement.lang]")
            assert style[0] in ("start", "left") and style[1] == "auto" and style[2] == "auto", (name, style)
            assert style[3] == name.split("/")[-2]


@pytest.mark.system
def test_a_wide_table_scrolls_in_its_frame_its_head_and_keys_in_view(built, browser):
    root, _ = built
    page = (root / "build/newbury-fast-play/cm/en/playsheet.html").as_uri()
    frame = "document.querySelector('#casualties').parentElement"
    browser.set_window_size(390, 700)
    browser.get(page)
    scrolls = browser.execute_script(f"const f = {frame}; return [f.scrollWidth > f.clientWidth,"
                                     "f.scrollHeight > f.clientHeight]")
    assert scrolls == [True, True]
    # scrolled to its far right and bottom: the row keys on both sides and the head are where they were
    places = browser.execute_script(f"""
        const f = {frame}, t = f.querySelector('table'), row = t.tBodies[0].rows[34];
        const at = e => e.getBoundingClientRect();
        f.scrollLeft = f.scrollWidth; f.scrollTop = f.scrollHeight;
        return [at(f).left, at(f).right, at(f).top, at(row.cells[0]).left, at(row.cells[row.cells.length - 1]).right,
                at(t.tHead).top, row.cells[0].textContent, getComputedStyle(row.cells[0]).backgroundColor]""")
    left, right, top, key_left, key_right, head_top, key, background = places
    assert abs(key_left - left) <= 2 and abs(key_right - right) <= 2 and abs(head_top - top) <= 2, places
    assert key == "35" and background not in ("rgba(0, 0, 0, 0)", "transparent")  # opaque over the figures
    # at a desktop's width the whole table shows: row 1 has its one figure, in column 22
    browser.set_window_size(1280, 900)
    browser.get(page)
    fits = browser.execute_script(f"const f = {frame}; return f.scrollWidth <= f.clientWidth")
    assert fits
