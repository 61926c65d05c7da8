"""The search of the published site in a real browser (the chromium of tests/test_browser.py, its fixtures): one search
across every game from the home page, `?q=` in the address, a result that leads to the section (a table's title) the
word is in, a table row's excerpt that reads as text, the results limited to the version being read, the search of a
site opened from disk (file://); and a wide table on a phone, one narrow key column kept in view (docs/search.md).
"""
from __future__ import annotations

import gzip
import json

import pytest

from . import test_browser as driven
from .test_browser import desktop, open_page, phone, search, wait_for

pytestmark = pytest.mark.system

site, browser = driven.site, driven.browser  # its fixtures: the sample site served, one chromium for the module

PLAYSHEET = "newbury-fast-play/cm/{lang}/playsheet.html"  # "canister" is in its table of fire factors


def results(browser) -> list[tuple[str, str]]:
    """(link, excerpt) of each result and sub-result shown."""
    return browser.execute_script("""return Array.from(document.querySelectorAll(
        '.pagefind-ui__result-link, .aids-offline-result a'), function (a) {
        var item = a.closest('.pagefind-ui__result-nested, .pagefind-ui__result-inner, .aids-offline-result');
        var excerpt = item && item.querySelector('.pagefind-ui__result-excerpt, .aids-offline-excerpt');
        return [a.href, excerpt ? excerpt.textContent : ''];
    });""")


def shown(browser, what: str) -> list[tuple[str, str]]:
    return wait_for(lambda: results(browser), what=what)


def test_a_word_of_a_table_leads_to_the_table_and_reads_as_text(site, browser):
    desktop(browser)
    open_page(browser, f"{site.url}/{PLAYSHEET.format(lang='en')}")
    search(browser, "canister")
    found = shown(browser, "results for canister")
    page = f"{site.url}/{PLAYSHEET.format(lang='en')}"
    sections = [link for link, _ in found if link.startswith(page + "#")]
    # the table the word is in, not the checklist before it ("Turn sequence")
    assert sections and sections[0] == f"{page}#fire-factors-title", found
    excerpt = dict(found)[sections[0]].replace("\u00a0", " ")  # a sub-result's excerpt: a dozen words
    assert "artillery – canister: Range from 0 cm to" in excerpt and ". 27. " not in excerpt, excerpt


def test_every_table_title_is_a_heading_the_index_knows(site):
    """Pagefind makes a sub-result of a heading with an id: every table of every page has one, and no row's raw
    cells are in the index (its reading is)."""
    for bundle in site.output.rglob("pagefind"):
        for fragment in (bundle / "fragment").iterdir():
            page = json.loads(gzip.decompress(fragment.read_bytes())[len(b"pagefind_dcd"):])
            tables = {a["id"] for a in page["anchors"] if a["element"] == "table"}
            headings = {a["id"] for a in page["anchors"] if a["element"].startswith("h")}
            assert {f"{t}-title" for t in tables} <= headings, (fragment, tables - headings)
            assert "27. 27. 26." not in page["content"]


def test_the_address_runs_the_search_and_follows_the_reader(site, browser):
    from selenium.webdriver.common.by import By

    desktop(browser)
    open_page(browser, f"{site.url}/{PLAYSHEET.format(lang='en')}?q=canister")
    field = browser.find_element(By.CSS_SELECTOR, ".aids-search input")
    wait_for(lambda: field.get_attribute("value") == "canister", what="the field filled from ?q=")
    assert any(link.endswith("#fire-factors-title") for link, _ in shown(browser, "results of ?q="))
    field.send_keys(" roundshot")
    wait_for(lambda: "q=canister+roundshot" in browser.current_url, what=f"the address (at {browser.current_url})")


def test_the_home_page_searches_every_game(site, browser):
    desktop(browser)
    open_page(browser, f"{site.url}/index.en.html")
    search(browser, "the")
    found = {link.removeprefix(site.url + "/").split("/")[0] for link, _ in shown(browser, "results on the home page")}
    assert len(found) >= 3, found  # Pagefind shows the first five pages
    titles, games = browser.execute_script("""return [
        Array.from(document.querySelectorAll('.pagefind-ui__result-inner > .pagefind-ui__result-title'), function (t) { return t.textContent; }),
        Array.from(document.querySelectorAll('.site-game h2'), function (t) { return t.textContent; })];""")
    games = [" ".join(game.split()) for game in games]
    assert titles and all(any(" ".join(t.split()).startswith(g + " – ") for g in games) for t in titles), (titles, games)
    # and "canister", from the home page, leads to the table
    search(browser, "canister")  # (the results of "the" are shown until those of "canister" come)
    wait_for(lambda: any(link.endswith("/en/playsheet.html#fire-factors-title") for link, _ in results(browser)),
             what="the playsheet's table among the results for canister")


def test_the_results_are_of_the_version_being_read(site, browser):
    """The page's version (<meta name="aids-version">) is a filter of the index, selected by default; the reader
    can clear it to search every version."""
    desktop(browser)
    page = site.output / "gcacw/en/system-rules.html"
    assert '<meta name="aids-version" content="1.4"' in page.read_text(encoding="utf-8")
    open_page(browser, site.url_of(page) + "?q=rules")
    shown(browser, "results")
    checked = browser.execute_script("return Array.from(document.querySelectorAll("
                                     "'.pagefind-ui__filter-checkbox:checked'), function (c) { return c.value; });")
    assert checked == ["1.4"], checked


def test_the_search_works_from_a_folder_on_disk(site, browser):
    """file://: Pagefind cannot fetch its index; the offline search (MiniSearch, by <script> tags) answers ?q=,
    limited to the page's version, and its result leads to the table."""
    from selenium.webdriver.common.by import By

    desktop(browser)
    page = (site.output / PLAYSHEET.format(lang="en")).resolve()
    open_page(browser, page.as_uri() + "?q=canister")
    found = shown(browser, "offline results")
    target = page.as_uri() + "#fire-factors-title"
    assert found[0][0] == target, found
    assert "canister: Range from 0 cm to 2 → 27" in found[0][1].replace("\u00a0", " ")
    browser.find_element(By.CSS_SELECTOR, f".aids-offline-result a[href='{target}']").click()
    wait_for(lambda: browser.current_url == target, what=f"{target} (at {browser.current_url})")
    # the home page from disk: every game
    open_page(browser, (site.output / "index.en.html").resolve().as_uri() + "?q=the")
    games = {link.split("/build/")[-1].split("/")[0] for link, _ in shown(browser, "offline results, home")}
    assert len(games) >= 3, games
    # the version: a box, ticked, the results of version 1.4 only
    open_page(browser, (site.output / "gcacw/en/system-rules.html").resolve().as_uri() + "?q=rules")
    assert browser.find_element(By.ID, "aids-offline-version").is_selected()
    assert shown(browser, "offline results, gcacw")


def test_a_wide_table_on_a_phone_keeps_one_narrow_key_column(site, browser):
    """At 390 px the Polish playsheet's casualty table (22 data columns, keys on both sides, a long corner
    label) shows at least 6 data columns beside one sticky key column of under a quarter of its frame."""
    phone(browser)
    try:
        open_page(browser, f"{site.url}/{PLAYSHEET.format(lang='pl')}")
        frame, left, right, seen = browser.execute_script("""
            var t = document.getElementById('casualties'), f = t.closest('.table-scroll').getBoundingClientRect();
            var row = t.tBodies[0].rows[0], left = f.left, right = f.right;
            Array.from(row.cells).forEach(function (c) {
              if (c.tagName !== 'TH' || getComputedStyle(c).position !== 'sticky') { return; }
              var r = c.getBoundingClientRect();
              if (c.classList.contains('key-right')) { right = Math.min(right, r.left); } else { left = Math.max(left, r.right); }
            });
            var seen = Array.from(row.cells).filter(function (c) {
              var r = c.getBoundingClientRect();
              return c.tagName === 'TD' && r.left >= left - 0.5 && r.right <= right + 0.5; });
            return [f.width, left - f.left, f.right - right, seen.length];""")
        assert right == 0, f"the right key column is kept in view ({right} px)"
        assert left < frame / 4, f"the key column takes {left} of {frame} px"
        assert seen >= 6, f"{seen} data columns in view"
    finally:
        desktop(browser)


def test_a_search_across_versions_is_limited_to_the_version_being_read(site, browser, tmp_path):
    """An archive's release, as aids/releases/archive.py publishes it (docs/search.md): its pages under
    <game>/<version>/<lang>/ carry their version, its own index; the current page merges it. The results are of the page's version until the
    reader clears its filter, online and from disk."""
    import functools
    import shutil
    import threading
    from http.server import ThreadingHTTPServer

    from selenium.webdriver.common.by import By

    from aids.write import search as indexing

    output = tmp_path / "site"
    shutil.copytree(site.output / "gcacw", output / "gcacw", ignore=shutil.ignore_patterns("*.pdf"))
    old = output / "gcacw/1.3"
    for lang in ("pl", "en", "ru"):
        (old / lang).mkdir(parents=True)
        page = (output / "gcacw" / lang / "system-rules.html").read_text(encoding="utf-8")
        (old / lang / "system-rules.html").write_text(
            page.replace('name="aids-version" content="1.4"', 'name="aids-version" content="1.3"'), encoding="utf-8")
    indexing.index(output, [old], ["pl", "en", "ru"])
    current = output / "gcacw/en/system-rules.html"
    current.write_text(current.read_text(encoding="utf-8").replace(
        '<div class="aids-search"', '<div class="aids-search" data-indexes=\'[{"bundle": "../1.3/pagefind/"}]\''),
        encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(driven.Quiet, directory=str(output)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        desktop(browser)
        url = f"http://127.0.0.1:{server.server_address[1]}/gcacw/en/system-rules.html?q=zone"
        open_page(browser, url)
        links = [link for link, _ in shown(browser, "results of 1.4")]
        assert links and not any("/1.3/" in link for link in links), links
        browser.find_element(By.CSS_SELECTOR, ".pagefind-ui__filter-checkbox:checked").click()  # every version
        links = wait_for(lambda: [link for link, _ in results(browser) if "/1.3/" in link], what="results of 1.3")
        assert all(link.split("#")[0].endswith("/gcacw/1.3/en/system-rules.html") for link in links), links
        # from disk: the same, with the offline box
        open_page(browser, current.resolve().as_uri() + "?q=zone")
        links = [link for link, _ in shown(browser, "offline results of 1.4")]
        assert links and not any("/1.3/" in link for link in links), links
        browser.find_element(By.ID, "aids-offline-version").click()
        wait_for(lambda: any("/1.3/" in link for link, _ in results(browser)), what="offline results of 1.3")
    finally:
        server.shutdown()
        server.server_close()
