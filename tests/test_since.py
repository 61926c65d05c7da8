"""Changes since any release: `aids build --since`, the site's "changes since the version I know" pages, the
history of every rule and the Atom feed. A demonstration project (aids init) released three times: 1.0; 1.1
with a step reworded; then, unreleased, a step removed, one added and a table value changed."""
import re
import shutil
import urllib.parse
import xml.etree.ElementTree as ET

import pytest

from .helpers import edit, pdf_text, run
from .test_release import GAME, marked


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    """The project released as 1.0 and 1.1, with later edits not released yet, built in HTML."""
    root = tmp_path_factory.mktemp("since") / "demo"
    assert run("init", root)[0] == 0
    folder = root / "games" / GAME
    assert run("--project", root, "release", "1.0", "--date", "2026-01-10")[0] == 0
    edit(folder / "sequence.yaml", "fires at one enemy unit within range.",
         "fires at one enemy unit in range and in sight.")
    code, _, err = run("--project", root, "release", "1.1", "--date", "2026-03-05")
    assert code == 0, err
    edit(folder / "sequence.yaml", '''      - id: orders
        text: "Each player gives each of their units one order, to move or to fire."
''', "")
    edit(folder / "sequence.yaml", '''      - id: advance''', '''      - id: rally
        text: "Each unit out of contact may rally."
      - id: advance''')
    edit(folder / "terrain.yaml", "{id: woods, label: Woods, cells: [2, -2]}", "{id: woods, label: Woods, cells: [3, -2]}")
    code, _, err = run("--project", root, "build", "--jobs", "1", "--format", "html")
    assert code == 0, err
    return root


def test_build_since_marks_every_change_since_that_release(released, tmp_path):
    root = tmp_path / "demo"
    shutil.copytree(released, root)
    page = root / "build" / GAME / "en" / "sequence-of-play.html"
    # since the latest release (1.1): the reworded step is not marked, it was released in 1.1
    assert marked(page.read_text(encoding="utf-8")) == (["end-of-turn/rally"], ["command/initiative"])
    code, _, err = run("--project", root, "build", "--jobs", "1", "--since", "1.0", "--lang", "en")
    assert code == 0, err
    # since 1.0: the change of 1.1 and those after it, composed by stable key
    assert marked(page.read_text(encoding="utf-8")) == (["combat/fire", "end-of-turn/rally"], ["command/initiative"])
    assert "Changes since version 1.0 are marked" in page.read_text(encoding="utf-8").replace("\xa0", " ")
    text = " ".join(pdf_text(root / "build" / GAME / "en" / "sequence-of-play.pdf").replace("\xa0", " ").split())
    assert "Changes since version 1.0 are marked with a bar in the margin." in text
    # the next build without --since marks against the latest release again (nothing reused wrongly)
    assert run("--project", root, "build", "--jobs", "1", "--format", "html", "--lang", "en")[0] == 0
    assert marked(page.read_text(encoding="utf-8"))[0] == ["end-of-turn/rally"]


def test_build_since_an_unknown_version_says_which_there_are(released):
    code, out, err = run("--project", released, "build", "--since", "0.9", "--format", "html")
    assert code == 1 and "Traceback" not in err
    assert err.strip().splitlines()[-1] == \
        f"games/{GAME}/game.yaml:1:1: game {GAME} has no release 0.9 (expected: one of: 1.0, 1.1)"


def main_of(path) -> str:
    html = path.read_text(encoding="utf-8").replace("\xa0", " ")
    return html[html.index("<main"):html.index("</main>")]


def test_the_page_of_the_changes_since_a_version_lists_them_by_printed_number(released):
    """Since 1.0: the step reworded in 1.1 and the later edits; since 1.1: the later edits only. Each by its
    number as printed in the reader's language, linked to its mark in the aid's page since that version."""
    game = released / "build" / GAME
    since_10 = main_of(game / "pl" / "since-1.0" / "index.html")
    assert "<h1>Zmiany od wersji 1.0</h1>" in since_10
    assert '<span class="change-number">3, krok 1</span> <span lang="en"><a href="sequence-of-play.html#combat/fire">' \
        in since_10  # awaiting its translation: the source text, marked so
    assert '<span class="change-number">4, krok 1</span> <span lang="en"><a href="sequence-of-play.html#end-of-turn/rally">' \
        in since_10
    since_11 = main_of(game / "pl" / "since-1.1" / "index.html")
    assert "#end-of-turn/rally" in since_11 and "#combat/fire" not in since_11
    # the pages it links: each aid as it is now, marked since 1.0
    changed, removed = marked((game / "pl" / "since-1.0" / "sequence-of-play.html").read_text(encoding="utf-8"))
    assert (changed, removed) == (["combat/fire", "end-of-turn/rally"], ["command/initiative"])
    assert marked((game / "pl" / "since-1.1" / "sequence-of-play.html").read_text(encoding="utf-8"))[0] == \
        ["end-of-turn/rally"]
    assert {"terrain/woods"} <= set(marked((game / "ru" / "since-1.0" / "playsheet.html").read_text("utf-8"))[0])


def test_the_game_page_offers_every_version_its_histories_and_its_feed(released):
    page = (released / "build" / GAME / "en" / "index.html").read_text(encoding="utf-8")
    assert '<link rel="alternate" type="application/atom+xml" href="changes.atom"' in page.split("</head>")[0]
    main = main_of(released / "build" / GAME / "en" / "index.html")
    assert main.index('href="since-1.1/index.html"') < main.index('href="since-1.0/index.html"')  # newest first
    assert '<a href="history/sequence-of-play.html">Sequence of play</a>' in main


def test_the_history_of_a_rule_gives_its_text_as_each_release_printed_it(released):
    """What did step 3.1 say in 1.0, in Polish: the Polish text recorded by release 1.0; its reworded text
    since 1.1 (not translated yet: the source text); a step added since, not released yet; one removed."""
    history = main_of(released / "build" / GAME / "pl" / "history" / "sequence-of-play.html")
    fire = history[history.index('id="sequence-of-play/combat/fire"'):]
    fire = fire[:fire.index("</section>")]
    assert '<span class="change-number">3, krok 1</span>' in fire
    assert "1.0</span> <small>(10 stycznia 2026)</small>: wydane</dt>" in fire
    assert "1.1</span> <small>(5 marca 2026)</small>: zmienione</dt>\n<dd>Each unit with a fire order fires at " \
           "one enemy unit in range and in sight.</dd>" in fire
    first = fire[fire.index("<dd>") + 4:fire.index("</dd>")]
    assert first.startswith("Każda") and "in sight" not in first  # the Polish of 1.0
    rally = history[history.index('id="sequence-of-play/end-of-turn/rally"'):]
    assert "jeszcze niewydane</span>: nowe</dt>" in rally[:rally.index("</section>")]
    assert 'id="sequence-of-play/command/orders"' in history and "usunięte</dt>" in history
    assert 'id="sequence-of-play/command/move"' not in history  # never changed: not listed
    # a table the playsheet embeds: its row as it reads in each release, with that release's values
    sheet = main_of(released / "build" / GAME / "en" / "history" / "playsheet.html")
    woods = sheet[sheet.index('id="terrain/woods"'):]
    assert "<dd>Woods: Movement cost → 2; Fire modifier → \u22122</dd>" in woods
    assert "not released yet</span>: changed</dt>\n<dd>Woods: Movement cost → 3; Fire modifier → \u22122" in woods


def test_the_feed_is_valid_atom_dated_by_the_releases(released):
    import feedparser
    data = (released / "build" / GAME / "pl" / "changes.atom").read_bytes()
    feed = feedparser.parse(data)
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10" and feed.feed.language == "pl"
    assert [e.title for e in feed.entries] == ["Wersja 1.1", "Wersja 1.0"]
    assert [e.updated for e in feed.entries] == ["2026-03-05T00:00:00Z", "2026-01-10T00:00:00Z"]
    assert feed.feed.updated == "2026-03-05T00:00:00Z"
    assert "3, krok 1" in feed.entries[0].summary.replace("\xa0", " ")
    assert all(e.id.startswith("urn:uuid:") for e in feed.entries) and len({e.id for e in feed.entries}) == 2
    root = ET.fromstring(data)  # RFC 4287's required elements
    atom = "{http://www.w3.org/2005/Atom}"
    for element in ("id", "title", "updated", "author"):
        assert root.find(atom + element) is not None, element


def test_the_pages_of_the_releases_link_only_what_is_there(released):
    output = released / "build"
    ours = [p for p in output.rglob("*.html") if re.search(r"/(since-[^/]+|history)/", p.relative_to(output).as_posix())]
    assert len(ours) == 3 * (2 * 5 + 4)  # per language: 2 versions x (4 aids + the list), 4 histories
    for page in output.rglob("*.html"):
        for link in re.findall(r'(?:href|src)="([^"#:]+)(?:#[^"]*)?"', page.read_text(encoding="utf-8")):
            if not link.endswith(".pdf"):  # a build of the HTML alone: the PDFs an aid page links are not made
                assert (page.parent / urllib.parse.unquote(link)).resolve().exists(), (page, link)


def test_the_pages_of_the_releases_are_the_same_for_the_same_sources(released, tmp_path):
    root = tmp_path / "demo"
    shutil.copytree(released, root)
    shutil.rmtree(root / "build")
    assert run("--project", root, "build", "--jobs", "1", "--format", "html")[0] == 0
    for page in (released / "build").rglob("*"):
        if page.is_file() and re.search(r"/(since-[^/]+|history)/|\.atom$", page.relative_to(released).as_posix()):
            assert page.read_bytes() == (root / page.relative_to(released)).read_bytes(), page


def test_an_aid_page_links_itself_since_each_release(released):
    page = (released / "build" / GAME / "ru" / "sequence-of-play.html").read_text(encoding="utf-8")
    nav = page[page.index('<ul class="site-since"'):page.index("</nav>")]
    assert nav.index('href="since-1.1/sequence-of-play.html"') < nav.index('href="since-1.0/sequence-of-play.html"')
    assert "после версии 1.0" in nav.replace("\xa0", " ") and "data-keep-hash" in nav
    since = (released / "build" / GAME / "ru" / "since-1.0" / "sequence-of-play.html").read_text(encoding="utf-8")
    nav = since[since.index('<ul class="site-since"'):since.index("</nav>")]
    assert 'href="../since-1.1/sequence-of-play.html"' in nav and '<span aria-current="page">' in nav


def test_an_aid_page_links_its_history(released):
    page = (released / "build" / GAME / "pl" / "rules.html").read_text(encoding="utf-8")
    assert '<li class="site-history-link"><a href="history/rules.html">historia</a></li>' in page
    since = (released / "build" / GAME / "pl" / "since-1.0" / "rules.html").read_text(encoding="utf-8")
    assert '<a href="../history/rules.html">historia</a>' in since
