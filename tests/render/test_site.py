"""The web site of the output folder (aids/site/site.py): the home page lists every game, a game's page in each
language lists every aid of every edition with its files, every page switches language (an aid page to the
same aid), with hreflang alternates; a language below the publishing threshold is marked, not linked; links
are relative and all work; the same sources give the same bytes; a build with nothing stale, or of HTML
alone, still gives the whole site."""
from __future__ import annotations

import shutil
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from aids.config import read_project
from aids.errors import AidsError
from aids.kinds import reading
from aids.localize import making, po
from aids.localize.catalogs import po_path, read_catalog
from aids.pipeline import builder, jobs, pipeline

from ..helpers import DEMO_GAME, DEMO_SEQUENCE, built_files, make_project
from ..localize.test_catalogs import extract_update

CARD = """\
kind: card
id: ref
title: Karta sędziego
size: A6
font_size: 9
min_font_size: 6
sections:
  - id: rules
    kind: rules
    face: front
    title: Zasady
    items:
      - {id: one, text: Jeden żeton na polu.}
  - id: turn
    kind: steps
    face: back
    title: Tura
    items:
      - {id: move, text: "Ruch o {num:2.5} pola."}
"""
CARDS_GAME = """\
id: cards
title: Karty
version: "1.1"
published: 2022-05-06
source_language: pl
editions:
  - id: cm
  - id: inch
    unit: in
aids:
  - card.yaml
"""
FILES = {
    "aids.yaml": "languages: [pl, en, ru]\noutput: build\npublish: {min_complete: 50}\n"
                 "site: {title: {pl: Pomoce, en: Aids}}\n",
    "games/cards/game.yaml": CARDS_GAME, "games/cards/card.yaml": CARD,
}
VOID = {"meta", "link", "br", "img", "hr", "input", "source", "wbr", "col", "area", "base", "embed", "track"}


class Node:
    def __init__(self, tag: str, attrs: dict, parent: Node | None):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, attrs, parent, [], ""

    def all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        found = []
        for child in self.children:
            if (tag is None or child.tag == tag) and (cls is None or cls in child.attrs.get("class", "").split()):
                found.append(child)
            found += child.all(tag, cls)
        return found

    def one(self, tag: str | None = None, cls: str | None = None) -> Node:
        (found,) = self.all(tag, cls)
        return found

    @property
    def content(self) -> str:
        return " ".join((self.text + " ".join(c.content for c in self.children)).split())


class Page(HTMLParser):
    """A page as a tree, with its ids and every link."""

    def __init__(self, path: Path):
        super().__init__()
        self.path = path
        self.root = self.at = Node("#document", {}, None)
        self.feed(path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_endtag(self, tag):
        at = self.at
        while at.parent is not None and at.tag != tag:
            at = at.parent
        if at.parent is not None:
            self.at = at.parent

    def handle_data(self, data):
        self.at.text += data

    @property
    def ids(self) -> set[str]:
        return {n.attrs["id"] for n in self.root.all() if "id" in n.attrs}

    @property
    def hrefs(self) -> list[str]:
        """The links a reader follows, and the page's other languages (not the search box's scripts and styles)."""
        return [n.attrs["href"] for n in self.root.all() if "href" in n.attrs and (
            n.tag == "a" or (n.tag == "link" and n.attrs.get("rel") == "alternate"))]

    def alternates(self) -> dict[str, str]:
        return {n.attrs["hreflang"]: n.attrs["href"] for n in self.root.all("link")
                if n.attrs.get("rel") == "alternate"}

    def switcher(self) -> dict[str, Node]:
        """Language -> its item in the language switcher."""
        items = self.root.one("ul", "site-languages").all("li")
        return {(item.all("a") or item.all("span"))[0].attrs["lang"]: item for item in items}


def translate_all(path: Path) -> None:
    """Every entry of a catalog translated (as itself: placeholders kept)."""
    catalog = read_catalog(path, str(path))
    for entry in po.entries(catalog):
        entry.target = po.msgid(entry)
        entry.markfuzzy(False)
    po.save(path, catalog)


def new_project(root: Path, files: dict[str, str] | None = None) -> Path:
    make_project(root, {**FILES, **(files or {})})
    extract_update(root)
    for lang, game in (("en", "demo"), ("ru", "demo"), ("en", "cards")):
        translate_all(po_path(root / "i18n", lang, game))  # cards stays untranslated in Russian
    return root


def build(root: Path, **options) -> pipeline.Summary:
    summary = builder.build(read_project(root), pipeline.Options(**options))
    assert not summary.failed, "\n".join(map(str, summary.failed))
    return summary


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> Path:
    """The project before any build: two games, one with editions and a two-sided card."""
    return new_project(tmp_path_factory.mktemp("site") / "project")


@pytest.fixture(scope="module")
def built(sources, tmp_path_factory) -> tuple[Path, pipeline.Summary]:
    root = tmp_path_factory.mktemp("built") / "project"
    shutil.copytree(sources, root)
    return root, build(root)


SITE_PAGES = ["index.html", "index.en.html", "index.ru.html",
              *(f"{game}/{lang}/index.html" for game in ("cards", "demo") for lang in ("pl", "en", "ru"))]


def broken_links(output: Path, pages: list[Path], skip_pdf: bool = False) -> list[str]:
    """Every link of `pages` that does not lead to a file of `output`, or to an anchor of its page."""
    broken = []
    for path in pages:
        page = Page(path)
        for href in page.hrefs:
            parts = urlsplit(href)
            assert not parts.scheme and not parts.netloc and not href.startswith("/"), f"{path}: {href} not relative"
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if not target.is_relative_to(output.resolve()) or not target.is_file():
                if not (skip_pdf and target.suffix == ".pdf"):
                    broken.append(f"{path.relative_to(output)}: {href}")
            elif parts.fragment and parts.fragment not in Page(target).ids:
                broken.append(f"{path.relative_to(output)}: {href} (no such anchor)")
    return broken


def test_the_home_page_lists_every_game_with_its_page_in_each_language(built):
    root, summary = built
    output = root / "build"
    assert sorted(f for f in summary.site) == sorted(f"build/{p}" for p in SITE_PAGES)
    home = Page(output / "index.html")
    assert home.root.one("html").attrs["lang"] == "pl"
    assert home.root.one("h1").content == "Pomoce"  # site: title in aids.yaml, per language
    games = {li.attrs["id"]: li for li in home.root.all("li", "site-game")}
    assert list(games) == ["cards", "demo"]
    assert games["demo"].one("h2").content == "Gra próbna"
    assert games["demo"].one("h2").one("a").attrs["href"] == "demo/pl/index.html"
    assert [a.attrs["href"] for a in games["cards"].one("ul", "site-game-languages").all("a")] == [
        "cards/pl/index.html", "cards/en/index.html", "cards/ru/index.html"]
    english = Page(output / "index.en.html")
    assert english.root.one("h1").content == "Aids"
    assert Page(output / "index.ru.html").root.one("h1").content == "Правила и памятки к играм"  # the default title
    assert {g.one("h2").content for g in english.root.all("li", "site-game")} == {"Gra próbna", "Karty"}


def test_a_game_page_lists_every_aid_of_every_edition_with_its_files(built):
    output = built[0] / "build"
    page = Page(output / "cards/en/index.html")
    assert page.root.one("h1").content == "Karty"
    editions = page.root.all("section", "site-edition")
    assert [e.attrs["id"] for e in editions] == ["edition-cm", "edition-inch"]
    for number, (edition, name) in enumerate(zip(editions, ("cm", "inch"), strict=True), 1):
        assert edition.one("h2").content == f"Edition {number}"  # named by its place: the game gives it no title
        (aid,) = edition.all("li", "site-aid")
        assert aid.one("h3").content == "Karta sędziego"
        files = {a.content: a.attrs["href"] for a in aid.one("ul", "site-files").all("a")}
        assert files == {"Web page": f"../{name}/en/ref.html", "PDF": f"../{name}/en/ref.pdf",
                         "Card sheet": f"../{name}/en/ref-sheet.pdf", "Duplex test": f"../{name}/en/ref-duplex-test.pdf"}
        facts = aid.one("p", "site-facts").content
        assert "Referee card" in facts and "version 1.1" in facts and "6 May 2022" in facts
        assert "2 pages" in facts and "translated 100%" in facts
    polish = Page(output / "cards/pl/index.html").root.all("li", "site-aid")[0].one("p", "site-facts").content
    assert "wersja 1.1" in polish and "6 maja 2022" in polish and "2 strony" in polish and "oryginał" in polish
    demo = Page(output / "demo/ru/index.html")
    (section,) = demo.root.all("section", "site-edition")
    assert [h.parent.tag for h in section.all("h2")] == ["li"]  # no editions: no edition heading, the aid's is h2
    (aid,) = demo.root.all("li", "site-aid")
    assert aid.one("h2").content == "Kolejność czynności" and "1 страница" in aid.content
    assert [a.attrs["href"] for a in aid.one("ul", "site-files").all("a")] == ["seq.html", "seq.pdf"]


def test_every_link_of_every_page_works(built):
    output = built[0] / "build"
    pages = sorted(p for p in output.rglob("*.html") if "pagefind" not in p.parts)
    assert len(pages) == len(SITE_PAGES) + 3 + 2 * 2  # the site; demo in 3 languages, the card in 2 editions x 2
    assert broken_links(output, pages) == []


def test_an_aid_page_switches_to_the_same_aid_keeping_its_anchor(built):
    output = built[0] / "build"
    page = Page(output / "demo/en/seq.html")
    switcher = page.switcher()
    assert list(switcher) == ["pl", "en", "ru"]
    assert switcher["en"].one("span").attrs["aria-current"] == "page"
    for lang in ("pl", "ru"):
        link = switcher[lang].one("a")
        assert link.attrs["href"] == f"../{lang}/seq.html" and link.attrs["hreflang"] == lang
        assert "data-keep-hash" in link.attrs
    (script,) = [node for node in page.root.all("script") if "location.hash" in node.text]
    assert "data-keep-hash" in script.text
    assert page.alternates() == {"pl": "../pl/seq.html", "en": "seq.html", "ru": "../ru/seq.html",
                                 "x-default": "../pl/seq.html"}  # x-default: the source language
    crumbs = page.root.one("ul", "site-crumbs").all("a")
    assert [(a.content, a.attrs["href"]) for a in crumbs] == [
        ("Aids", "../../index.en.html"), ("Gra próbna", "index.html"), ("PDF", "seq.pdf")]
    # the anchors the switcher would carry are the same in every language
    assert Page(output / "demo/en/seq.html").ids == Page(output / "demo/pl/seq.html").ids


def test_a_language_below_the_threshold_is_marked_and_not_linked(built):
    output = built[0] / "build"
    assert not (output / "cards/cm/ru/ref.html").exists()  # 0 % translated: not built
    card = Page(output / "cards/cm/pl/ref.html")
    russian = card.switcher()["ru"]
    assert russian.attrs["class"] == "site-unavailable" and not russian.all("a")
    assert russian.one("small", "site-note").content == "(jeszcze nie opublikowano)"
    assert "ru" not in card.alternates() and card.alternates()["x-default"] == "ref.html"
    game = Page(output / "cards/ru/index.html")
    assert game.switcher()["ru"].one("small").content == "(ещё не опубликовано)"
    for aid in game.root.all("li", "site-aid"):
        assert not aid.all("ul", "site-files") and not aid.one("h3").all("a")
        assert aid.one("p", "site-status").content == "не опубликовано: переведено 0 %"
    home = Page(output / "index.html")
    assert home.switcher()["ru"].one("small").content == "(opublikowano częściowo)"  # demo is, cards is not
    assert home.switcher()["ru"].one("a").attrs["href"] == "index.ru.html"  # its page is there all the same


def test_the_same_sources_give_the_same_site(built, sources, tmp_path):
    again = tmp_path / "project"
    shutil.copytree(sources, again)
    build(again, jobs=1)
    first, second = built_files(built[0] / "build"), built_files(again / "build")
    assert {p.relative_to(built[0]): d for p, d in first.items()} == {p.relative_to(again): d for p, d in second.items()}


def test_a_build_with_nothing_stale_keeps_the_whole_site(built, tmp_path):
    root = tmp_path / "project"
    shutil.copytree(built[0], root)
    output = root / "build"
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in output.rglob("*.html")}
    time.sleep(0.01)
    summary = build(root)
    assert summary.built == [] and summary.site == []  # nothing rendered, no page rewritten
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in output.rglob("*.html")} == before
    # a page lost, a build of one game and language: the site is written whole, from the plan and the sources
    (output / "index.html").unlink()
    (output / "cards/en/index.html").unlink()
    summary = build(root, games=["demo"], langs=["en"])
    assert summary.built == [] and sorted(summary.site) == ["build/cards/en/index.html", "build/index.html"]
    assert {p: p.read_bytes() for p in output.rglob("*.html")} == {p: d for p, (d, _) in before.items()}


def test_html_alone_gives_the_site_and_a_pdf_build_then_adds_its_files(sources, tmp_path):
    root = tmp_path / "project"
    shutil.copytree(sources, root)
    output = root / "build"
    summary = build(root, formats=["html"])
    assert not list(output.rglob("*.pdf"))
    assert sorted(summary.site) == sorted(f"build/{p}" for p in SITE_PAGES)
    aid = Page(output / "demo/pl/index.html").root.one("li", "site-aid")
    assert [a.content for a in aid.one("ul", "site-files").all("a")] == ["Strona WWW"]  # only what is there
    assert "stron" not in aid.one("p", "site-facts").content  # no PDF: no page count
    # the site's links all work; an aid page links its PDF, which a build of the PDFs makes
    assert broken_links(output, sorted(output.rglob("*.html")), skip_pdf=True) == []
    assert broken_links(output, [output / p for p in SITE_PAGES]) == []
    summary = build(root, formats=["pdf"])
    assert "build/demo/pl/index.html" in summary.site  # the site is there: a PDF build keeps it current
    aid = Page(output / "demo/pl/index.html").root.one("li", "site-aid")
    assert [a.content for a in aid.one("ul", "site-files").all("a")] == ["Strona WWW", "PDF"]
    assert "1 strona" in aid.one("p", "site-facts").content
    assert broken_links(output, sorted(output.rglob("*.html"))) == []


def test_page_counts_come_from_the_pdf_without_the_cache(built, tmp_path):
    root = tmp_path / "project"
    shutil.copytree(built[0], root)
    shutil.rmtree(root / "build/.aids-cache")
    (root / "build/index.html").unlink()
    summary = build(root, formats=["html"])
    assert summary.site == ["build/index.html"]  # every other page as it was, page counts read from the PDFs


@pytest.mark.unit
def test_site_url_makes_canonical_and_alternate_links_absolute(tmp_path):
    root = make_project(tmp_path, {"aids.yaml": "languages: [pl, en]\nsite_url: https://rules.example.org/aids/\n"})
    project = read_project(root)
    game = project.read_game("demo")
    aids, _ = reading.read_aids(project, game)
    page = jobs.render_aid(project, game, aids[0], making.localizer(project, game, "en"), None, ["html"])
    (tmp_path / "seq.html").write_bytes(page[".html"].data)
    parsed = Page(tmp_path / "seq.html")
    base = "https://rules.example.org/aids/demo"
    assert parsed.alternates() == {"pl": f"{base}/pl/seq.html", "en": f"{base}/en/seq.html",
                                   "x-default": f"{base}/pl/seq.html"}
    (canonical,) = [n for n in parsed.root.all("link") if n.attrs.get("rel") == "canonical"]
    assert canonical.attrs["href"] == f"{base}/en/seq.html"
    assert parsed.switcher()["pl"].one("a").attrs["href"] == "../pl/seq.html"  # links stay relative


def test_the_site_lists_the_languages_and_games_aids_yaml_names(tmp_path):
    files = {"aids.yaml": "languages: [pl, en, ru]\nsite:\n  languages: [en, pl]\n  games: [demo]\n  title: Rules\n",
             "games/other/game.yaml": DEMO_GAME.replace("id: demo", "id: other"),
             "games/other/sequence.yaml": DEMO_SEQUENCE}
    root = make_project(tmp_path, files)
    summary = build(root, formats=["html"])
    assert sorted(summary.site) == ["build/demo/en/index.html", "build/demo/pl/index.html", "build/index.html",
                                    "build/index.pl.html"]
    home = Page(root / "build/index.html")
    assert home.root.one("html").attrs["lang"] == "en" and home.root.one("h1").content == "Rules"
    assert [li.attrs["id"] for li in home.root.all("li", "site-game")] == ["demo"]
    assert list(home.switcher()) == ["en", "pl"]
    # a page in a language the site does not list still switches to those it does
    assert list(Page(root / "build/demo/ru/seq.html").switcher()) == ["en", "pl", "ru"]
    crumbs = Page(root / "build/other/pl/seq.html").root.one("ul", "site-crumbs").all("a")
    assert [a.content for a in crumbs] == ["Rules", "PDF"]  # a game the site does not list: no link to its page


@pytest.mark.parametrize("site, message", [
    ("site: {languages: [pl, de]}", "aids.yaml:3:24: unknown language 'de' in site languages (expected: pl, en)"),
    ("site: {games: [demo, nowhere]}", "aids.yaml:3:22: unknown game 'nowhere' in site games"),
    ("site: {games: [demo, demo]}", "aids.yaml:3:22: game 'demo' is listed twice in site games (expected: each once)"),
    ("site: {title: {de: Regeln}}", "aids.yaml:3:16: site title in 'de', which is not a language of the project"),
    ("site: {colour: red}", "aids.yaml:3:8: unknown field 'colour' in site (expected: title, languages, games)"),
])
@pytest.mark.unit
def test_a_wrong_site_is_an_error_at_its_place(tmp_path, site, message):
    root = make_project(tmp_path, {"aids.yaml": f"languages: [pl, en]\noutput: build\n{site}\n"})
    with pytest.raises(AidsError) as error:
        read_project(root)
    assert message in str(error.value)


@pytest.mark.parametrize("site, accepted", [
    ("site: {title: Rules, languages: [en], games: [demo]}", True),
    ("site: {title: {pl: Zasady, en: Rules}}", True),
    ("site: {title: ''}", False),
    ("site: {languages: []}", False),
    ("site: {games: [Demo]}", False),
    ("site: {theme: dark}", False),
])
@pytest.mark.unit
def test_the_schema_and_the_reader_agree_on_site(tmp_path, site, accepted):
    from jsonschema import Draft202012Validator

    from aids.kinds import schemas
    from aids.source.shape import plain
    from aids.source.yamlfile import load_yaml
    text = f"languages: [pl, en]\n{site}\n"
    data = plain(load_yaml(text, tmp_path / "aids.yaml", "aids.yaml").data)
    assert Draft202012Validator(schemas.schema("project")).is_valid(data) is accepted
    root = make_project(tmp_path, {"aids.yaml": text})
    try:
        read_project(root)
    except AidsError:
        assert not accepted
    else:
        assert accepted


def test_a_translation_cannot_put_markup_into_a_site_page(tmp_path):
    root = make_project(tmp_path, {"aids.yaml": "languages: [pl, en]\n"})
    extract_update(root)
    catalog = po_path(root / "i18n", "en", "demo")
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(text.replace('msgid "Gra próbna"\nmsgstr ""', 'msgid "Gra próbna"\nmsgstr "<b>Bold</b>"'),
                       encoding="utf-8")
    build(root, formats=["html"])
    for name in ("index.en.html", "demo/en/index.html", "demo/en/seq.html"):
        page = (root / "build" / name).read_text(encoding="utf-8")
        assert "&lt;b&gt;Bold&lt;/b&gt;" in page and "<b>" not in page, name


def test_the_pseudo_locale_has_no_site(tmp_path):
    root = make_project(tmp_path, {"aids.yaml": "languages: [pl, en]\n"})
    summary = build(root, pseudo=True, formats=["html"])
    assert summary.site == [] and not (root / "build/index.html").exists()
    assert "site-nav" not in (root / "build/demo/qps/seq.html").read_text(encoding="utf-8")


def test_the_nav_is_on_the_page_never_in_the_pdf(built):
    from ..helpers import pdf_text
    output = built[0] / "build"
    assert "Gra próbna" in pdf_text(output / "demo/en/seq.pdf")
    assert "Aids" not in pdf_text(output / "demo/en/seq.pdf").split()  # the site's title, in the nav only


@pytest.mark.unit
def test_the_guide_documents_the_site():
    section = (Path(__file__).resolve().parents[2] / "docs/guide/web.md").read_text(encoding="utf-8")
    for needle in ("build/index.html", "index.<lang>.html", "build/<game>/<lang>/index.html", "site:",
                   "python3 -m http.server -d build", "min_complete", "hreflang"):
        assert needle in section, needle


@pytest.mark.unit
def test_the_two_impositions_of_a_booklet_are_named_apart_in_every_language():
    from aids.localize import ui
    from aids.localize.localizer import Localizer
    from aids.site import site
    names = {lang: dict(site.file_labels(Localizer(lang, "en", {}, ui.ui_translations(lang))))
             for lang in ("pl", "en", "ru")}
    assert [names[lang]["-imposed.pdf"] for lang in names] == [
        "Broszura do druku dwustronnego", "Booklet for a duplex printer", "Буклет для двусторонней печати"]
    assert [names[lang]["-imposed-press.pdf"] for lang in names] == [
        "Broszura z impozycją dla drukarni", "Imposed booklet for the press", "Буклет со спуском полос для типографии"]
