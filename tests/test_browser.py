"""The published web site in a real browser (Debian's chromium through Selenium), served as a web server serves
it (http.server on 127.0.0.1, not file://): every link leads to a page and its anchor, the language switcher
keeps the rule, the search finds a Russian rule and leads to it, no page scrolls sideways on a phone, and
every page passes axe-core and the Nu HTML Checker. Screenshots of each kind of page are saved for review
in build/screenshots/ (the folder is printed).

The site is the session's `sample` build; one browser for the module. The tools come from `./bootstrap test`
(chromium, chromium-driver, Java; axe-core and vnu-jar from npm in .cache/web-tools/): a test whose tool is
missing is skipped, except in CI (CI=true), where it fails.
"""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urldefrag

import pytest

from .helpers import REPO

pytestmark = pytest.mark.system

CHROMIUM, JAVA = shutil.which("chromium"), shutil.which("java")
DRIVER = shutil.which("chromedriver") or shutil.which("chromium.chromedriver")  # Debian's; Ubuntu's snap
WEB_TOOLS = REPO / ".cache" / "web-tools" / "node_modules"  # ./bootstrap test installs them there (npm)
AXE = WEB_TOOLS / "axe-core" / "axe.min.js"
VNU = WEB_TOOLS / "vnu-jar" / "build" / "dist" / "vnu.jar"
CI = os.environ.get("CI") == "true"
GAME = "gcacw"  # its booklet has Russian translations
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
DESKTOP = (1280, 900)
SCREENSHOTS = REPO / "build" / "screenshots"  # kept for review until the next run (build/ is git-ignored)


def require(present: object, what: str) -> None:
    if not present:
        reason = f"{what} missing (./bootstrap test installs it)"
        if CI:
            pytest.fail(reason)
        pytest.skip(reason)


class Site:
    def __init__(self, output: Path, url: str, published: str | None = None):
        self.output, self.url = output, url
        self.published = published  # the project's site_url: where the served pages are published
        # every page of the site: the aids' and the site's own, not the search index's or the build's files
        self.pages = sorted(p for p in output.rglob("*.html")
                            if not any(part.startswith(".") or part == "pagefind" for part in p.relative_to(output).parts))

    def url_of(self, page: Path) -> str:
        return f"{self.url}/{page.relative_to(self.output).as_posix()}"


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # the server says nothing of each request
        pass


@pytest.fixture(scope="module")
def site(sample):
    output = sample[0].output
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(output)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Site(output, f"http://127.0.0.1:{server.server_address[1]}", sample[0].site_url)
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    require(CHROMIUM and DRIVER, "chromium and chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     # no network here but the page's own server: nothing of Chromium's own reaches out
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-default-apps", "--disable-extensions", "--no-first-run", "--no-proxy-server",
                     f"--window-size={DESKTOP[0]},{DESKTOP[1]}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()


def wait_for(predicate, seconds=20.0, what="a condition"):
    from selenium.common.exceptions import StaleElementReferenceException

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            value = predicate()
        except StaleElementReferenceException:  # the page or the results changed under the predicate
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def desktop(browser) -> None:
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.set_window_size(*DESKTOP)


def phone(browser) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)


def open_page(browser, url: str) -> None:
    """`url` loaded, and its search box up if it has one (its index loaded by a script of its own)."""
    browser.get(url)
    wait_for(lambda: browser.execute_script(
        "var box = document.querySelector('.aids-search');"
        "return document.readyState === 'complete' && (!box || (!box.hidden && !!box.querySelector('input')));"),
        what=f"the page and its search box: {url}")


def search(browser, words: str) -> list[str]:
    """The links of the search box's results for `words`, once they are shown."""
    from selenium.webdriver.common.by import By

    field = browser.find_element(By.CSS_SELECTOR, ".aids-search input")
    field.clear()
    field.send_keys(words)

    def links() -> list[str]:
        return [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, ".aids-search .pagefind-ui__result a")]

    def settled() -> list[str] | None:
        """The results once shown and unchanged for a second: a merged index's results may come in later."""
        first = links()
        if not first:
            return None
        time.sleep(1.0)
        return first if links() == first else None
    return wait_for(settled, what=f"search results for {words!r}")


# --- links --------------------------------------------------------------------------------------

LINKS = """return [Array.from(document.querySelectorAll('a[href], area[href], link[href]'),
                              function (e) { return e.href; }),
                   Array.from(document.querySelectorAll('[id], a[name]'), function (e) { return e.id || e.name; }),
                   performance.getEntriesByType('resource').map(function (r) { return [r.name, r.responseStatus]; })];"""


def status(url: str) -> int:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1, never through a proxy
    try:
        with opener.open(urllib.request.Request(url, method="HEAD"), timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_every_link_leads_to_a_page_and_its_anchor(site, browser):
    desktop(browser)
    home = f"{site.url}/index.html"
    assert (site.output / "index.html").is_file(), "the site has no home page: index.html in the output folder"
    ids: dict[str, set[str]] = {}
    links: list[tuple[str, str]] = []  # (page, link)
    broken, outside = [], []
    published = 0  # links at the site's published address (canonical, alternates), checked as served here
    queue, reached = [home], {home}
    while queue:  # from the home page, every page linked, and so on
        page = queue.pop(0)
        browser.get(page)
        hrefs, ids[page], loaded = browser.execute_script(LINKS)
        broken += [f"{page}: loads {name} ({code})" for name, code in loaded  # code 0: from the memory cache
                   if name != f"{site.url}/favicon.ico"  # asked for by the browser itself, not by a page
                   and (not name.startswith(site.url) or code not in (0, 200))]
        for link in hrefs:
            if site.published and link.startswith(site.published + "/"):  # a canonical or alternate page, as
                link, published = site.url + link[len(site.published):], published + 1  # published: as served
            if not link.startswith(site.url + "/"):
                outside.append(f"{page} -> {link}")
                continue
            links.append((page, link))
            target = urldefrag(link).url
            if target.endswith(".html") and target not in reached:
                reached.add(target)
                queue.append(target)
    for link in sorted({urldefrag(link).url for _, link in links}):
        if status(link) != 200:
            broken.append(f"{link}: HTTP {status(link)}")
    for page, link in links:
        target, anchor = urldefrag(link)
        if anchor and target in ids and anchor not in ids[target]:
            broken.append(f"{page} -> {link}: no element with id {anchor!r}")
    unlinked = sorted(set(map(site.url_of, site.pages)) - reached)
    assert not broken, "\n".join(broken)
    assert not unlinked, "pages no link of the site leads to:\n" + "\n".join(unlinked)
    # out of the site: only the one link to the web a source writes (the scenario's forum), never fetched
    forum = {f"{site.url}/valmora-scenarios/{lang}/ford.html -> https://example.org/valmora/forum"
             for lang in ("pl", "en", "ru")}
    assert set(outside) == forum, "links out of the site:\n" + "\n".join(sorted(set(outside) - forum))
    assert len(reached) == len(site.pages) and len(links) > len(site.pages)
    assert published >= len(site.pages)  # the samples publish a site_url: every page names its canonical address


# --- the language switcher ----------------------------------------------------------------------

def test_switching_the_language_of_a_rule_page_keeps_the_rule(site, browser):
    from selenium.webdriver.common.by import By

    desktop(browser)
    open_page(browser, f"{site.url}/{GAME}/pl/system-rules.html")
    browser.find_element(By.CSS_SELECTOR, "nav.toc a[href='#zoc']").click()  # the reader goes to a rule
    wait_for(lambda: browser.current_url.endswith("#zoc"), what="the rule's anchor")
    browser.find_element(By.CSS_SELECTOR, "a[hreflang='ru']").click()
    wait_for(lambda: browser.current_url == f"{site.url}/{GAME}/ru/system-rules.html#zoc",
             what=f"the Russian page at #zoc (at {browser.current_url})")
    assert browser.execute_script("return document.documentElement.lang") == "ru"
    top = browser.execute_script("return document.getElementById('zoc').getBoundingClientRect().top")
    assert -2 <= top < 50, f"the rule is not at the top of the window ({top} px)"


# --- search -------------------------------------------------------------------------------------

class Words(HTMLParser):
    """The words of a page's main text, under the id of the heading they follow."""

    def __init__(self):
        super().__init__()
        self.words: list[tuple[str, str | None]] = []  # (word, heading id)
        self.anchor: str | None = None
        self.depth = 0  # inside <main>, not inside a contents list (<nav>)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "main" or (self.depth and tag == "nav"):
            self.depth += 1 if tag == "main" else 100
        if re.fullmatch(r"h[1-6]", tag):
            self.anchor = attrs.get("id")

    def handle_endtag(self, tag):
        if tag == "main" or (self.depth and tag == "nav"):
            self.depth -= 1 if tag == "main" else 100

    def handle_data(self, data):
        if self.depth == 1:
            self.words += [(word.lower(), self.anchor) for word in re.findall(r"\w+", data)]


def distinctive_word(folder: Path, lang: str) -> tuple[str, str, str]:
    """(word, page, anchor): a long Russian word of a rule's text that no other rule or page of the game has."""
    where: dict[str, set[tuple[str, str | None]]] = {}
    order = []
    for page in sorted(folder.glob(f"{lang}/*.html")):
        parser = Words()
        parser.feed(page.read_text(encoding="utf-8"))
        for word, anchor in parser.words:
            where.setdefault(word, set()).add((page.name, anchor))
            order.append(word)
    said = Counter(order)
    for word in order:
        places = where[word]
        if len(word) >= 9 and re.fullmatch("[а-яё]+", word) and len(places) == 1 and said[word] >= 2:
            page, anchor = next(iter(places))  # said twice in one rule, nowhere else: its subject
            if anchor:
                return word, page, anchor
    raise AssertionError(f"no distinctive word in {folder}/{lang}")


def test_search_finds_a_russian_rule_and_leads_to_it(site, browser):
    from selenium.webdriver.common.by import By

    desktop(browser)
    word, page, anchor = distinctive_word(site.output / GAME, "ru")
    # from another page of the game: the search box of the sequence of play
    open_page(browser, f"{site.url}/{GAME}/ru/sequence-of-play.html")
    field = browser.find_element(By.CSS_SELECTOR, ".aids-search input")
    english = "Search"  # Pagefind's own words, in the page's language
    assert field.get_attribute("placeholder") not in ("", english)
    results = search(browser, word)
    target = f"{site.url}/{GAME}/ru/{page}#{anchor}"
    assert target in results, f"{word!r}: no result for #{anchor} among {results}"
    # only this game's pages, only in this language
    assert all(link.startswith(f"{site.url}/{GAME}/ru/") for link in results), results
    browser.find_element(By.CSS_SELECTOR, f".pagefind-ui__result a[href$='{page}#{anchor}']").click()
    wait_for(lambda: browser.current_url == target, what=f"{target} (at {browser.current_url})")
    top = browser.execute_script("return document.getElementById(arguments[0]).getBoundingClientRect().top", anchor)
    assert -2 <= top < 50, f"the rule is not at the top of the window ({top} px)"
    assert word in browser.find_element(By.ID, anchor).find_element(By.XPATH, "..").text.lower()


def test_a_game_page_searches_every_edition(site, browser):
    """A game's page has a search box over all its editions (one index each, merged), leading to phases."""
    desktop(browser)
    game = "valmora-1809"  # two editions, cm and inch, each its own index
    editions = sorted(p.parent.parent.name for p in (site.output / game).glob("*/ru/turn-sequence.html"))
    assert editions == ["cm", "inch"]
    parser = Words()
    parser.feed((site.output / game / "cm" / "ru" / "turn-sequence.html").read_text(encoding="utf-8"))
    word, anchor = next((w, a) for w, a in parser.words if a and len(w) >= 8 and re.fullmatch("[а-яё]+", w))
    open_page(browser, f"{site.url}/{game}/ru/index.html")
    results = search(browser, word)
    for edition in editions:  # a phase's heading in each edition's sequence, in Russian only
        assert f"{site.url}/{game}/{edition}/ru/turn-sequence.html#{anchor}" in results, (edition, word, results)
    assert all(f"/{game}/" in link and "/ru/" in link for link in results), results


# --- a phone's screen ---------------------------------------------------------------------------

SIDEWAYS = "return [document.documentElement.scrollWidth, window.innerWidth];"


def test_no_page_scrolls_sideways_on_a_phone(site, browser):
    """At 390 px, only a table's own wrapper may scroll sideways, never the page."""
    phone(browser)
    try:
        wide = []
        for page in site.pages:
            open_page(browser, site.url_of(page))
            width, window = browser.execute_script(SIDEWAYS)
            if width > window:
                wide.append(f"{site.url_of(page)}: {width} px wide in a window of {window} px")
        open_page(browser, f"{site.url}/{GAME}/ru/system-rules.html")
        search(browser, "контроля")  # the results, too
        width, window = browser.execute_script(SIDEWAYS)
        if width > window:
            wide.append(f"search results: {width} px wide in a window of {window} px")
        assert window == PHONE["width"]
        assert not wide, "\n".join(wide)
    finally:
        desktop(browser)


def kind_of_page(page: Path) -> str:
    """The kind of page this is, from its body's last class: aid-booklet, aid-card, ..., the site's own."""
    found = re.search(r'<body class="([^"]*)"', page.read_text(encoding="utf-8"))
    return found.group(1).split()[-1] if found else page.stem


def screenshot(browser, path: Path) -> None:
    """The whole page (its first 4000 px), not only the window."""
    import base64

    width, height = browser.execute_script("return [document.documentElement.scrollWidth,"
                                           " document.documentElement.scrollHeight];")
    shot = browser.execute_cdp_cmd("Page.captureScreenshot", {
        "captureBeyondViewport": True, "clip": {"x": 0, "y": 0, "width": width, "height": min(height, 4000),
                                                "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))


def test_screenshots_of_each_kind_of_page(site, browser, capsys):
    """For a person to look at: each kind of page in Russian (or the first language it has), on a desktop and on a
    phone, and the search's results, in build/screenshots/ of this repository (made again each time)."""
    folder = SCREENSHOTS
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    chosen: dict[str, str] = {}
    for page in sorted(site.pages, key=lambda p: (p.parent.name != "ru", str(p))):
        chosen.setdefault(kind_of_page(page), site.url_of(page))
    taken = []
    try:
        for size, setup in (("desktop", desktop), ("phone", phone)):
            setup(browser)
            for kind, url in chosen.items():
                open_page(browser, url)
                taken.append(folder / f"{kind}-{size}.png")
                screenshot(browser, taken[-1])
            open_page(browser, f"{site.url}/{GAME}/ru/system-rules.html")
            search(browser, "контроля")
            time.sleep(0.5)  # the results' excerpts
            taken.append(folder / f"search-{size}.png")
            screenshot(browser, taken[-1])
    finally:
        desktop(browser)
    with capsys.disabled():
        print(f"\nscreenshots of {len(chosen)} kinds of page ({', '.join(chosen)}), desktop and phone: {folder}")
    assert {"aid-booklet", "aid-sequence", "aid-card", "aid-playsheet"} <= set(chosen)
    assert all(p.stat().st_size > 5000 for p in taken)


# --- accessibility and markup -------------------------------------------------------------------

AXE_RUN = """var done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then(function (result) {
  done(result.violations.map(function (v) {
    return [v.id, v.impact, v.help, v.nodes.length, v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); })];
  }));
}, function (error) { done([['axe failed', 'error', String(error), 0, []]]); });"""


def test_axe_finds_no_accessibility_violations(site, browser):
    """Every page, and a page with the search's results shown."""
    require(AXE.is_file(), f"axe-core ({AXE})")
    desktop(browser)
    found = []

    def check(label: str) -> None:
        for rule, impact, help_text, count, targets in browser.execute_async_script(AXE_RUN):
            found.append(f"{label}: {rule} ({impact}) {help_text}: {count} element(s), e.g. {', '.join(targets)}")

    # axe put in every page as it loads, not sent through WebDriver with each: 30 s instead of 39 for 135 pages
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                    {"source": AXE.read_text(encoding="utf-8")})
    try:
        for page in site.pages:
            open_page(browser, site.url_of(page))
            check(site.url_of(page))
        open_page(browser, f"{site.url}/{GAME}/ru/system-rules.html")
        search(browser, "контроля")
        time.sleep(0.5)
        check("search results")
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
    assert not found, f"{len(found)} violation(s):\n" + "\n".join(found)


def test_the_nu_html_checker_finds_no_errors(site):
    require(JAVA and VNU.is_file(), f"Java and the Nu HTML Checker ({VNU})")
    run = subprocess.run([JAVA, "-jar", str(VNU), "--errors-only", "--format", "json", "--stdout",
                          *map(str, site.pages)], capture_output=True, text=True, timeout=600)
    assert run.stdout, run.stderr
    messages = json.loads(run.stdout)["messages"]
    errors = [f"{m.get('url', '?').split(str(site.output) + '/', 1)[-1]}:{m.get('lastLine', '?')}: {m['message']}"
              for m in messages]
    where = {m.get("url", "") for m in messages}
    assert not errors, f"{len(errors)} error(s) in {len(where)} of {len(site.pages)} pages:\n" + "\n".join(errors)
