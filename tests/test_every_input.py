"""Every input an output is made from is part of its digest: a cache that misses one lies ("up to date", the old
output kept until --force). One case a kind of input (found by reading what each kind reads, links, localizes and
renders): edit it, build, and the outputs it shows in change, to the very bytes a build from nothing gives.

The icons a text shows (their drawings, their names' translations), a translator's comment that decides whether a
translation prints, every file a theme or a figure names (a font, the page art, a file the stylesheet names by
url(), a language's own image), a booklet laid out in parts (its parts' cache), a release's archived pages (the
project's settings and theme), and the versions of the libraries aids renders with."""
from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import pytest

from aids.config import read_project
from aids.localize import po
from aids.localize.catalogs import po_path, read_catalog
from aids.pipeline import builder, fingerprint, pipeline
from aids.render import parts

from .helpers import DEMO_GAME, REPO, edit, make_project, run
from .localize.test_catalogs import extract_update, translate
from .model.test_booklet import BOOKLET, ONE, TWO
from .render.test_figures import png
from .render.test_icons import SEQUENCE, SVG

THEME = """\
faces:
  - {family: House Serif, file: fonts/house.ttf, licence: fonts/LICENSE.txt}
fonts: {text: House Serif}
colours: {heading: "#8c1c13"}
css: house.css
"""
CSS = '.phase-title::before, .rules h2::before { content: ""; display: inline-block; width: 5mm; height: 5mm; ' \
      'background: url("art/mark.png"); }\n'
FILES = {
    "games/demo/game.yaml": DEMO_GAME.replace("aids:\n", "theme: theme/theme.yaml\naids:\n  - rules.yaml\n")
    + "icons:\n  - {id: die, file: icons/die.svg, name: kostka}\n",
    "games/demo/icons/die.svg": SVG, "games/demo/sequence.yaml": SEQUENCE,
    "games/demo/rules.yaml": BOOKLET.replace("page_size: A5", "page_size: A5\nchapter_pages: true"),
    "games/demo/one.md": ONE, "games/demo/two.md": TWO + "\n# Mapa {#map}\n\n![Mapa](figures/map.png)\n",
    "games/demo/theme/theme.yaml": THEME, "games/demo/theme/house.css": CSS,
    "games/demo/theme/fonts/LICENSE.txt": "DejaVu fonts: free to embed and redistribute.\n",
}
LANGS = ("pl", "ru")
PARTS = 300  # characters of a booklet's part: each chapter of the demo booklet a part (render/parts.py)


@pytest.fixture(autouse=True, scope="module")
def in_parts():
    """The demo booklet laid out in parts, each cached (render/parts.py), as a long booklet is."""
    saved, parts.PART_CHARACTERS = parts.PART_CHARACTERS, PARTS
    yield
    parts.PART_CHARACTERS = saved


def build(root: Path, **options):
    summary = builder.build(read_project(root), pipeline.Options(langs=list(LANGS), jobs=1, **options))
    assert not summary.failed, "\n".join(map(str, summary.failed))
    return summary


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """The demo project built (its folder), and a copy of it as built to start each case from, at that folder: a
    PDF names an image by its address, so outputs are compared in the folder they were built in."""
    folder = tmp_path_factory.mktemp("inputs")
    root = make_project(folder / "project", FILES)
    fonts = root / "games/demo/theme/fonts"
    shutil.copy(REPO / "aids/fonts/DejaVuSerif.ttf", fonts / "house.ttf")
    (root / "games/demo/theme/art").mkdir()
    (root / "games/demo/theme/art/mark.png").write_bytes(png(20, 20, (0x20, 0xA0, 0x30)))
    (root / "games/demo/figures").mkdir()
    (root / "games/demo/figures/map.png").write_bytes(png(60, 40, (90, 120, 60)))
    extract_update(root)
    translate(po_path(root / "i18n", "ru", "demo"), {"game/icons/die": "кубик",
                                                     "seq/red-combat/resolve/note": "Только раз за этап."})
    summary = build(root)
    booklet = [b for b in summary.built if b.aid == "rules"]
    assert all(any(n.startswith("laid out in 3 parts") for n in b.notes) for b in booklet), booklet
    shutil.copytree(root, folder / "as-built")  # its build and build cache with it
    return root, folder / "as-built"


def outputs(root: Path) -> dict[str, bytes]:
    """Every output of the build by its path, the build cache and the site's pages aside."""
    output = root / "build"
    return {p.relative_to(output).as_posix(): p.read_bytes() for p in sorted(output.rglob("*"))
            if p.is_file() and ".aids-cache" not in p.parts and "pagefind" not in p.parts and p.name != "index.html"
            and not p.name.startswith("index.")}


def edited(built: tuple[Path, Path], change: Callable[[Path], None]) -> tuple[dict, dict]:
    """The outputs before and after `change` and a build; after, checked to be those a build from nothing gives."""
    root, as_built = built
    shutil.rmtree(root)
    shutil.copytree(as_built, root)
    before = outputs(root)
    change(root)
    build(root)
    after = outputs(root)
    build(root, force=True)
    assert outputs(root) == after, "a build from nothing gives other bytes: an output was left stale"
    return before, after


def changed(before: dict, after: dict, wanted: set[str]) -> None:
    """Each of `wanted` (an aid's output by its path, or a prefix) is new or changed."""
    differ = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    for name in wanted:
        assert any(p == name or p.startswith(name) for p in differ), (name, sorted(differ))


def catalog_edit(root: Path, lang: str, context: str, change: Callable) -> None:
    path = po_path(root / "i18n", lang, "demo")
    catalog = read_catalog(path, str(path))
    [entry] = [e for e in po.entries(catalog) if e.getcontext() == context]
    change(entry)
    po.save(path, catalog)


def icon_drawing(root: Path) -> None:
    edit(root / "games/demo/icons/die.svg", '<circle cx="12" cy="12" r="9" fill="#000"/>',
         '<rect x="3" y="3" width="18" height="18" fill="#000"/>')


def icon_name(root: Path) -> None:
    translate(po_path(root / "i18n", "ru", "demo"), {"game/icons/die": "игральная кость"})


def ignored_check(root: Path) -> None:
    """`# aids: ignore markup` on a translation that drops the source's emphasis: now it prints."""
    catalog_edit(root, "ru", "seq/red-combat/resolve/note", lambda e: e.addnote("aids: ignore markup", "translator"))


def stylesheet_file(root: Path) -> None:
    (root / "games/demo/theme/art/mark.png").write_bytes(png(20, 20, (0xA0, 0x20, 0x90)))


def theme_font(root: Path) -> None:
    shutil.copy(REPO / "aids/fonts/DejaVuSerif-Italic.ttf", root / "games/demo/theme/fonts/house.ttf")


def figure_variant(root: Path) -> None:
    (root / "games/demo/figures/map.ru.png").write_bytes(png(60, 40, (200, 30, 30)))


CASES = {  # kind of input: (the edit, the outputs that change)
    "an icon's drawing": (icon_drawing, {f"demo/{lang}/seq.{s}" for lang in LANGS for s in ("html", "pdf")}),
    "an icon's name translated": (icon_name, {"demo/ru/seq.html", "demo/ru/seq.pdf"}),
    "a translator's comment ignoring a check": (ignored_check, {"demo/ru/seq.html", "demo/ru/seq.pdf"}),
    "a file the theme's stylesheet names": (stylesheet_file, {f"demo/{lang}/{aid}.pdf" for lang in LANGS
                                                              for aid in ("seq", "rules")}),
    "a theme's font, in a booklet laid out in parts": (theme_font, {f"demo/{lang}/{aid}.pdf" for lang in LANGS
                                                                   for aid in ("seq", "rules")}),
    "a language's own image": (figure_variant, {"demo/ru/rules.html", "demo/ru/rules.pdf", "demo/ru/rules-map-"}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_edited_input_is_built_again(built, case):
    change, wanted = CASES[case]
    before, after = edited(built, change)
    changed(before, after, wanted)


def test_a_releases_archived_pages_follow_the_projects_theme(tmp_path):
    """A release's pages are its snapshot rendered with the project's settings and theme as they are now: a new
    colour of the project's theme is a new archived page (its cache said "up to date")."""
    root = make_project(tmp_path / "project", {"themes/house/theme.yaml": 'colours: {heading: "#8c1c13"}\n'})
    (root / "aids.yaml").write_text("languages: [pl, en]\noutput: build\ntheme: themes/house/theme.yaml\n",
                                    encoding="utf-8")
    assert run("--project", root, "release", "2.0", "--game", "demo", "--date", "2021-03-04")[0] == 0
    assert run("--project", root, "build", "--lang", "pl", "--format", "html")[0] == 0
    page = root / "build/demo/2.0/pl/seq.html"
    assert "--theme-heading: #8c1c13" in page.read_text(encoding="utf-8")
    edit(root / "themes/house/theme.yaml", "#8c1c13", "#1c4f8c")
    assert run("--project", root, "build", "--lang", "pl", "--format", "html")[0] == 0
    assert "--theme-heading: #1c4f8c" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("library", ["pikepdf", "pyphen", "pillow", "lxml", "tinycss2", "cssselect2", "tinyhtml5",
                                     "ebooklib", "svglib", "segno", "pyicu-wheels", "translate-toolkit"])
def test_a_new_version_of_a_library_aids_renders_with_is_a_new_digest(monkeypatch, library):
    """Hyphenation (Pyphen), images (Pillow), HTML and CSS (tinyhtml5, tinycss2, cssselect2), PDF/X and parts
    (pikepdf), e-books (EbookLib, lxml), icons (svglib), QR codes (segno), collation (PyICU), catalogs
    (translate-toolkit): each changes a byte of some output."""
    before = fingerprint.tool_digest()
    real_distribution = metadata.distribution

    class Newer:
        def __init__(self, dist):
            self.version, self.requires = dist.version + ".post1", dist.requires

    def distribution(name):
        found = real_distribution(name)
        return Newer(found) if re.sub(r"[-_.]+", "-", name).lower() == library else found

    monkeypatch.setattr(metadata, "distribution", distribution)
    monkeypatch.setattr(metadata, "version", lambda name: distribution(name).version)
    try:
        assert again() != before
    finally:
        monkeypatch.undo()
        again()


def again() -> str:
    """aids' own digest worked out anew (not the one kept for the process)."""
    fingerprint.tool_digest.cache_clear()
    if "aids.render.versions" in sys.modules:
        sys.modules["aids.render.versions"].libraries.cache_clear()
    return fingerprint.tool_digest()
