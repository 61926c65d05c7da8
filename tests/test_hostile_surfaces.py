"""Hostile input, round four (issue 46): the surfaces added last: release snapshots and their kept files, figures,
icons, themes, `aids import`, catalogs and the texts every page prints, fed as a user's project would feed them,
on a project `aids init` made.

Each class of the issue has its cases: an outside file published through a link; a figure's SVG not held to the
icon rule; a tiny input that hangs (a FIFO, /dev/zero, nested <use>s, nested loops), run in a process of its own
with a time and memory bound so that a regression fails instead of hanging; a traceback for a user's mistake; an
input accepted without a word. Each ends in one line at its place (`path:line:col: ... (expected: ...)`), exit 1,
no traceback, nothing written outside the project, or, where an input is safe, in an output read back.
"""
from __future__ import annotations

import io
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import html

from aids.commands.cli import main

from .helpers import REPO, edit, run

GAME = "mill-skirmish"
SECRET = "the sentinel's private words"
SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{}</svg>'
# 1.4 KB: eight levels of ten <use>s of the level below draw 10^8 shapes (WeasyPrint and svglib draw each)
NESTED = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><path id="a0" d="M0 0h1v1z"/>'
          + "".join(f'<g id="a{i}">' + f'<use href="#a{i - 1}"/>' * 10 + "</g>" for i in range(1, 9))
          + '</defs><use href="#a8"/></svg>')
STEP = "text: Both players roll a die;"
BIDI = "(expected: text in its own order, without U+202D or U+202E)"


@pytest.fixture(scope="module")
def initial(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("init") / "project"
    assert main(["init", str(root)]) == 0
    return root


@pytest.fixture
def project(initial, tmp_path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(initial, root)
    return root


@pytest.fixture(scope="module")
def released(tmp_path_factory) -> Path:
    """A project with release 1.0 recorded, its snapshot and digests beside it."""
    root = tmp_path_factory.mktemp("released") / "project"
    assert main(["init", str(root)]) == 0
    assert main(["--project", str(root), "release", "1.0", "--date", "2026-11-23"]) == 0
    return root


def game(root: Path) -> Path:
    return root / "games" / GAME


def catalog(root: Path, lang: str = "pl") -> Path:
    return root / "i18n" / lang / "LC_MESSAGES" / f"{GAME}.po"


def aids(root: Path, *args: str) -> tuple[int, str]:
    """`aids --project ROOT ARGS...` in this process: its exit status and all it printed, with no traceback."""
    code, out, err = run("--project", root, *args)
    said = out + err
    assert "Traceback" not in said and "internal error" not in said, said
    return code, said


def build(root: Path, lang: str = "en", *formats: str) -> tuple[int, str]:
    return aids(root, "build", "--lang", lang, *(f for name in formats or ("html",) for f in ("--format", name)))


def refused(result: tuple[int, str], line: str) -> None:
    code, said = result
    assert code == 1 and line in said.splitlines(), said


def bounded(root: Path, *args: str, seconds: int = 60) -> tuple[int, str]:
    """`aids --project ROOT ARGS...` in a process of its own, at most `seconds` and 3 GB: an input that hangs or
    fills the memory fails the test instead of the test run."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    try:
        done = subprocess.run([sys.executable, "-m", "aids", "--project", str(root), *args], capture_output=True,
                              text=True, timeout=seconds, preexec_fn=limit, errors="replace")
    except subprocess.TimeoutExpired:
        pytest.fail(f"aids {' '.join(args)} did not end within {seconds} s")
    said = done.stdout + done.stderr
    assert "Traceback" not in said and "internal error" not in said, said
    return done.returncode, said


def page(root: Path, name: str, lang: str = "en") -> str:
    return (root / "build" / GAME / lang / name).read_text(encoding="utf-8")


def translate_title(root: Path, text: str, lang: str = "pl") -> None:
    po = catalog(root, lang)
    body = po.read_text(encoding="utf-8")
    start = body.index("msgstr", body.index('msgctxt "game/title"'))
    po.write_text(body[:start] + f'msgstr "{text}"' + body[body.index("\n", start):], encoding="utf-8")


# --- outside files published through links -------------------------------------------------------------------

def _kept(root: Path, outside: Path) -> tuple[Path, Path]:
    return game(root) / "releases/1.0/kept", outside


def _kept_language(root: Path, outside: Path) -> tuple[Path, Path]:
    (game(root) / "releases/1.0/kept").mkdir()
    return game(root) / "releases/1.0/kept/en", outside / "en"


def _snapshot(root: Path, outside: Path) -> tuple[Path, Path]:
    """The whole snapshot a link to a copy of it elsewhere, with the secret as a kept file."""
    shutil.move(game(root) / "releases/1.0", outside / "snapshot")
    (outside / "snapshot/kept/en").mkdir(parents=True)
    shutil.copy(outside / "en/sequence-of-play.html", outside / "snapshot/kept/en/sequence-of-play.html")
    return game(root) / "releases/1.0", outside / "snapshot"


@pytest.mark.parametrize("plant", [_kept, _kept_language, _snapshot], ids=["kept", "kept-en", "snapshot"])
def test_a_link_in_a_release_snapshot_publishes_nothing_from_outside(released, tmp_path, plant):
    """Before: kept/ (or a folder below it, or the snapshot itself) a link to a folder outside the project, and a
    0600 file there was published under build/<game>/1.0/ as 0644 on the first build of a fresh clone."""
    root = tmp_path / "project"
    shutil.copytree(released, root)
    outside = tmp_path / "outside"
    (outside / "en").mkdir(parents=True)
    (outside / "en/sequence-of-play.html").write_text(f"<p>{SECRET}</p>")
    (outside / "en/sequence-of-play.html").chmod(0o600)
    link, target = plant(root, outside)
    link.symlink_to(target)
    code, said = build(root)
    assert code == 0, said
    shown = link.relative_to(root).as_posix()
    assert f"archive: {GAME} 1.0 not published: {shown}: is a symbolic link, which aids does not follow" in said, said
    assert not any(SECRET.encode() in p.read_bytes() for p in (root / "build").rglob("*") if p.is_file())


def test_a_link_among_the_files_of_a_snapshot_is_refused(released, tmp_path):
    root = tmp_path / "project"
    shutil.copytree(released, root)
    outside = tmp_path / "outside.yaml"
    outside.write_text(f"# {SECRET}\n" + (game(root) / "sequence.yaml").read_text())
    source = game(root) / f"releases/1.0/{GAME}/sequence.yaml"
    source.unlink()
    source.symlink_to(outside)
    code, said = build(root)
    assert code == 0 and f"archive: {GAME} 1.0 not published: games/{GAME}/releases/1.0/{GAME}/sequence.yaml: is a " \
        "symbolic link, which aids does not follow" in said, said


def test_a_release_snapshots_what_the_outputs_are_made_of_and_nothing_else(released, tmp_path):
    """Before: `aids release` copied every file of the game folder into the snapshot, a 60 MB scan included."""
    root = tmp_path / "project"
    shutil.copytree(released, root)
    with open(game(root) / "scan.tif", "wb") as scan:
        scan.truncate(60 << 20)
    os.mkfifo(game(root) / "notes.fifo")
    code, said = aids(root, "release", "1.1", "--date", "2026-12-01")
    assert code == 0, said
    kept = {p.relative_to(game(root) / "releases/1.1").as_posix() for p in (game(root) / "releases/1.1").rglob("*")
            if p.is_file()}
    assert {f"{GAME}/{name}" for name in ("game.yaml", "sequence.yaml", "rules/play.md", "terrain.yaml")} <= kept
    assert not [name for name in kept if "scan" in name or "notes" in name]


# --- figures and icons: shapes only, nothing outside, a bounded drawing ------------------------------------------

def add_figure(root: Path, name: str, data: bytes | None) -> Path:
    (game(root) / "rules/figures").mkdir(exist_ok=True)
    path = game(root) / "rules/figures" / name
    if data is not None:
        path.write_bytes(data)
    edit(game(root) / "rules/introduction.md", "## Units {#units}", f"![A map](figures/{name})\n\n## Units {{#units}}")
    return path


FIGURE = f"games/{GAME}/rules/introduction.md:5:10: image 'figures/map.svg' refused: "
FIGURE_EXPECTED = " (expected: a .png, .jpg or .svg file inside the game folder, its path relative to the Markdown file)"


@pytest.mark.parametrize("svg, fault", [
    (SVG.format("<script>alert(1)</script>"), "element <script> (line 1) is not a shape"),
    (SVG.format('<rect width="5" height="5" onload="alert(1)"/>'), "attribute 'onload' of <rect> (line 1) is not "
     "allowed"),
    (SVG.format('<image href="https://example.org/x.png"/>'), "element <image> (line 1) is not a shape"),
    (SVG.format('<rect width="5" height="5" fill="URL(https://example.org/x)"/>'), "<rect> (line 1) refers "
     "outside the file ('URL(https://example.org/x)')"),
    (NESTED, "<use> (line 1) draws more than 20,000 shapes once its <use>s are followed"),
    (SVG.format('<g id="a"><use href="#a"/></g>'), "<use> (line 1) refers to itself"),
])
def test_a_figure_svg_is_held_to_the_icon_rule(project, svg, fault):
    """Before: a figure's SVG was copied beside the page and into the e-book as it was: its script ran when the
    page or the book was opened; its nested <use>s hung the PDF."""
    add_figure(project, "map.svg", svg.encode())
    refused(build(project, "en", "html", "epub"), FIGURE + fault + FIGURE_EXPECTED)
    assert not list((project / "build").rglob("rules*"))  # the booklet, the one aid with the figure, is not built


def icon_project(root: Path, svg: str) -> None:
    (game(root) / "icons").mkdir()
    (game(root) / "icons/die.svg").write_text(svg)
    edit(game(root) / "game.yaml", "aids:\n", "icons:\n  - {id: die, file: icons/die.svg, name: die}\naids:\n")
    edit(game(root) / "sequence.yaml", STEP, "text: Both players roll a {icon:die};")
    edit(game(root) / "referee-card.yaml", "text: a miss}", "text: a miss {icon:die}}")


ICON = f"games/{GAME}/game.yaml:11:21: icon file 'icons/die.svg' refused: "
ICON_EXPECTED = " (expected: an SVG of shapes only (path, rect, circle, g, ...), no script, style, image or outside " \
    "reference)"


@pytest.mark.parametrize("svg, fault", [
    (SVG.format('<rect width="5" height="5" fill="URL(https://example.org/x)"/>'), "<rect> (line 1) refers "
     "outside the file ('URL(https://example.org/x)')"),
    (NESTED, "<use> (line 1) draws more than 1,000 shapes once its <use>s are followed"),
    (SVG.replace("0 0 10 10", "0 0 1e308 1").format(""), "its viewBox '0 0 1e308 1' is not four numbers of at most "
     "1,000,000,000, the width and height above 0"),
    (SVG.replace("0 0 10 10", "0 0 inf 1").format(""), "its viewBox '0 0 inf 1' is not four numbers of at most "
     "1,000,000,000, the width and height above 0"),
    (SVG.replace("0 0 10 10", "0 0 1000000 1").format(""), "its viewBox is 1e+06 times as wide as high, not from "
     "1/10 to 10"),
])
def test_an_icon_that_reaches_out_or_draws_without_end_is_refused(project, svg, fault):
    """Before: fill="URL(...)" in capitals passed the icon check; a viewBox of 1e308 or inf ended the card in a
    traceback (a room of infinite no-break spaces); nested <use>s hung the PDF."""
    icon_project(project, svg)
    refused(bounded(project, "build", "--lang", "en", "--format", "pdf"), ICON + fault + ICON_EXPECTED)


# --- images that are no image, and variants that are no file -----------------------------------------------------

def png() -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 10, 10)).save(out, "PNG")
    return out.getvalue()


PNG = f"games/{GAME}/rules/introduction.md:5:10: image 'figures/map.png' "


@pytest.mark.parametrize("data, fault", [
    (png()[:60], "is a damaged PNG image (Truncated File Read)"),
    (png()[:-20], "is a damaged PNG image (Truncated File Read)"),  # its end (IEND) cut off
    (b"<html><body>not an image</body></html>", "is not a PNG image"),
    (b"\xff\xd8\xff\xe0" + b"\0" * 200, "is not a PNG image"),
])
def test_an_image_that_is_no_image_of_its_name_is_refused(project, data, fault):
    """Before: a truncated PNG was embedded broken, and an HTML file named .png dropped from the PDF, without a
    word."""
    add_figure(project, "map.png", data)
    refused(build(project), PNG + fault + FIGURE_EXPECTED)


@pytest.mark.parametrize("plant, fault", [
    (lambda path: path.symlink_to(path.with_name("map.png")), "is a symbolic link, which aids does not follow"),
    (lambda path: path.symlink_to("/dev/zero"), "is a symbolic link, which aids does not follow"),
    (lambda path: os.mkfifo(path), "is a named pipe (FIFO), not a file"),
    (lambda path: path.mkdir(), "is a folder, not a file"),
    (lambda path: path.write_bytes(png()[:60]), "is a damaged PNG image (Truncated File Read)"),
])
def test_a_language_variant_of_a_figure_that_is_no_image_is_an_error(project, plant, fault):
    """Before: map.pl.png a link, a FIFO or a device was left out, and Polish printed the English map."""
    figure = add_figure(project, "map.png", png())
    plant(figure.with_name("map.pl.png"))
    refused(bounded(project, "build", "--lang", "pl", "--format", "html"),
            PNG + "has a variant map.pl.png that " + fault + FIGURE_EXPECTED)


# --- inputs that are no file, or no end of one: refused before they are read -------------------------------------

def _fifo(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.mkfifo(path)


def _zero(path: Path) -> None:
    path.unlink(missing_ok=True)
    path.symlink_to("/dev/zero")


@pytest.mark.parametrize("where, plant, args, line", [
    ("aids.yaml", _fifo, ("build",), "aids.yaml: is a named pipe (FIFO), not a file (expected: a file)"),
    (f"games/{GAME}/game.yaml", _zero, ("build",),
     f"games/{GAME}/game.yaml: is a device, not a file (expected: a file)"),
    (f"games/{GAME}/rules/play.md", _fifo, ("build", "--format", "html"),
     f"games/{GAME}/rules/play.md: is a named pipe (FIFO), not a file (expected: a file)"),
    (f"games/{GAME}/rulings.yaml", _fifo, ("check",),
     f"games/{GAME}/rulings.yaml: is a named pipe (FIFO), not a file (expected: a file)"),
    ("x.po", _fifo, ("import", "{root}/x.po", "--game", GAME, "--lang", "pl"),
     "{root}/x.po: is a named pipe (FIFO), not a file (expected: a file)"),
    ("x.po", _zero, ("import", "/dev/zero", "--game", GAME, "--lang", "pl"),
     "/dev/zero: is a device, not a file (expected: a file)"),
    ("x.po", lambda path: path.mkdir(), ("import", "{root}/x.po", "--game", GAME, "--lang", "pl"),
     "{root}/x.po: is a folder, not a file (expected: a file)"),
])
def test_an_input_that_is_no_regular_file_is_refused_unread(project, where, plant, args, line):
    """Before: `aids import` of a FIFO waited for ever, of /dev/zero filled the memory (MemoryError after 23 s), of a
    folder ended in a traceback; aids.yaml, game.yaml or a rule file that was a FIFO or a device was "not found",
    a rulings.yaml that was one was ignored."""
    plant(project / where)
    code, said = bounded(project, *(arg.format(root=project) for arg in args), seconds=40)
    assert code == 1 and line.format(root=project) in said.splitlines(), said


# --- themes: a block is a few lines of markup, bounded and checked ------------------------------------------------

def theme_project(root: Path, block: str | bytes | None = None, css: str | bytes | None = None) -> None:
    theme = game(root) / "theme"
    (theme / "blocks").mkdir(parents=True)
    said = ""
    if block is not None:
        (theme / "blocks/colophon.html").write_bytes(block if isinstance(block, bytes) else block.encode())
        said += "templates:\n  colophon: blocks/colophon.html\n"
    if css is not None:
        (theme / "house.css").write_bytes(css if isinstance(css, bytes) else css.encode())
        said += "css: house.css\n"
    (theme / "theme.yaml").write_text(said)
    edit(game(root) / "game.yaml", "aids:\n", "theme: theme/theme.yaml\naids:\n")


BLOCK = f"games/{GAME}/theme/blocks/colophon.html"
BLOCK_EXPECTED = ("(expected: {{ variable }}, {% if %}, ~ and the filters capitalize, d, default, e, escape, first, "
                  "int, last, length, lower, string, striptags, title, trim, truncate, upper, wordcount on lang, "
                  "game_title, aid_title, label, version, published, author (docs/guide/themes.md))")


@pytest.mark.parametrize("block, fault", [
    ("{% for a in range(100000) %}{% for b in range(100000) %}x{% endfor %}{% endfor %}",
     "1:4: template block 'colophon': a loop is not allowed in a block"),
    ("<p>{{ ''.__class__ }}</p>", "1:9: template block 'colophon': an attribute is not allowed in a block"),
    ("<p>{{ lang }}</p>\n{% include 'x.html' %}", "2:4: template block 'colophon': {% include %} is not allowed in "
     "a block"),
    ("{% autoescape false %}{{ aid_title }}{% endautoescape %}", "1:4: template block 'colophon': {% autoescape %} "
     "is not allowed in a block"),
    ("<p>{{ aid_title|safe }}</p>", "1:17: template block 'colophon': the filter 'safe' is not one a block may use"),
    ("<p>{{ 'x' * 1000000000 }}</p>", "1:11: template block 'colophon': '*' is not allowed in a block"),
    ("<p>{{ secret }}</p>", "1:7: template block 'colophon': unknown variable 'secret'"),
])
def test_a_theme_block_that_could_hang_or_reach_out_is_refused_at_its_place(project, block, fault):
    """Before: nested loops hung every page; ''.__class__ and {% include %} ended in a traceback; |safe and
    {% autoescape false %} printed a translator's <script> on the page."""
    theme_project(project, block)
    code, said = bounded(project, "build", "--lang", "en", "--format", "html", seconds=40)
    assert code == 1 and f"{BLOCK}:{fault} {BLOCK_EXPECTED}" in said.splitlines(), said


@pytest.mark.parametrize("block, line", [
    ("<p>{{ lang }}</p><script>alert(1)</script>", "1:18: template block 'colophon' writes <script>"),
    ("<p onclick='alert(1)'>{{ lang }}</p>", "1:4: template block 'colophon' writes the attribute 'onclick' of <p>"),
    ("<p><a href='javascript:alert(1)'>{{ lang }}</a></p>", "1:13: template block 'colophon' writes a link to "
     "'javascript:alert(1)' in <a>"),
    ("<img src='https://example.org/x.png'>", "1:1: template block 'colophon' writes <img>"),
])
def test_a_theme_block_writes_the_markup_of_a_text_only(project, block, line):
    """Before: a block's <script> was written into every page."""
    theme_project(project, block)
    code, said = build(project)
    assert code == 1 and any(x.startswith(f"{BLOCK}:{line} (expected: the markup of a text: <a>, <abbr>")
                             for x in said.splitlines()), said


def test_a_translators_markup_stays_text_in_a_block(project):
    theme_project(project, '<p class="house">{{ game_title }} · {{ aid_title|upper }} <a href="https://example.org">'
                           "{{ label }}</a></p>")
    translate_title(project, "<script>alert(1)</script>Potyczka")
    assert build(project, "pl")[0] == 0
    tree = html.fromstring(page(project, "rules.html", "pl"))
    colophon = tree.xpath('//p[@class="house"]')[0]
    assert "<script>alert(1)</script>Potyczka" in colophon.text_content() and not tree.xpath("//script[not(@src) "
                                                                                              "and contains(., 'alert')]")


@pytest.mark.parametrize("theme, line", [
    ({"block": b"<p>Z\xb3y</p>"}, f"{BLOCK}:1:5: not UTF-8 text (expected: a file in UTF-8)"),
    ({"css": b"p { color: red } /* Z\xb3y */"}, f"games/{GAME}/theme/house.css:1:22: not UTF-8 text (expected: a "
     "file in UTF-8)"),
])
def test_a_theme_file_not_in_utf8_is_an_error_at_its_place(project, theme, line):
    """Before: a traceback (UnicodeDecodeError)."""
    theme_project(project, **theme)
    refused(build(project), line)


def test_a_font_face_out_of_its_choices_is_an_error(project):
    """Before: `weight: heavy` went into the page's @font-face as it was, a rule WeasyPrint drops."""
    theme = game(project) / "theme"
    theme.mkdir()
    for name in ("EBGaramond12-Regular.otf", "OFL.txt"):
        shutil.copy(REPO / "games/valmora-scenarios/theme/fonts" / name, theme)
    (theme / "theme.yaml").write_text("faces:\n  - {family: House, file: EBGaramond12-Regular.otf, licence: OFL.txt, "
                                      "weight: heavy}\n")
    edit(game(project) / "game.yaml", "aids:\n", "theme: theme/theme.yaml\naids:\n")
    refused(build(project), f"games/{GAME}/theme/theme.yaml:2:79: unknown weight 'heavy' (expected: normal or bold)")


# --- catalogs and texts --------------------------------------------------------------------------------------------

def test_a_catalog_without_its_header_is_refused_where_it_is_read(project, tmp_path):
    """Before: read, then "msgcat refused a catalog aids wrote" in a traceback when `aids import` wrote it."""
    po = catalog(project)
    body = po.read_text(encoding="utf-8")
    po.write_text(body[body.index("\n\n", body.index('msgid ""')) + 2:], encoding="utf-8")
    other = tmp_path / "other.po"
    other.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\nLanguage: pl\\n"\n\n'
                     'msgid "Skirmish at the Mill"\nmsgstr "Potyczka pod młynem"\n', encoding="utf-8")
    refused(aids(project, "import", str(other), "--game", GAME),
            f"i18n/pl/LC_MESSAGES/{GAME}.po:1:1: malformed catalog: no header entry (expected: a header entry "
            'first: msgid "" and msgstr "Content-Type: text/plain; charset=UTF-8\\n...")')


@pytest.mark.parametrize("text, line", [
    ("Potyczka \uffff", "U+FFFF, which is not a character (expected: printable text)"),
    ("Potyczka (\u202e1831)", "bidi override U+202E, which prints what follows it reversed " + BIDI),
    ("Potyczka \u009b2J", "control character U+009B (expected: printable text)"),
])
def test_a_translation_holding_what_no_text_holds_is_refused_at_its_place(project, text, line):
    """Before: U+FFFF in a translated title made the Atom feed invalid XML and the e-book an internal error; a bidi
    override printed the year reversed."""
    translate_title(project, text)
    lines = catalog(project).read_text(encoding="utf-8").splitlines()
    number = next(n for n, x in enumerate(lines, 1) if x == f'msgstr "{text}"')
    column = len('msgstr "Potyczka ') + (2 if "(" in text else 1)
    refused(build(project, "pl", "html", "epub"),
            f"i18n/pl/LC_MESSAGES/{GAME}.po:{number}:{column}: malformed catalog: {line}")


@pytest.mark.parametrize("text, line", [
    ("(\u202e1831)", "16:40: bidi override U+202E, which prints what follows it reversed " + BIDI),
    ("\uffff", "16:39: U+FFFF, which is not a character (expected: printable text)"),
    ('\\u202e1831', "16:15: bidi override U+202E, which prints what follows it reversed in a text " + BIDI),
])
def test_a_source_text_holding_what_no_text_holds_is_refused_at_its_place(project, text, line):
    """Before: a bidi override printed the year reversed on every page; U+FFFF was ruamel.yaml's 'unacceptable
    character' at no line ('position 638 of <unicode string>')."""
    edit(game(project) / "sequence.yaml", STEP, f'text: "Both players roll a die {text}."\n        # was:'
         if text.startswith("\\") else f"text: Both players roll a die {text};")
    refused(build(project), f"games/{GAME}/sequence.yaml:{line}")


# --- aids.yaml and game.yaml ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("file, old, new, line", [
    ("aids.yaml", "output: build", "catalogs_per: sideways\noutput: build",
     "aids.yaml:5:15: unknown catalogs_per 'sideways' (expected: game or aid)"),
    (f"games/{GAME}/game.yaml", "aids:\n", "catalogs_per: sideways\naids:\n",
     f"games/{GAME}/game.yaml:10:15: unknown catalogs_per 'sideways' (expected: game or aid)"),
    ("aids.yaml", "output: build", "site_url: https://example.org/" + "a" * 3000 + "\noutput: build",
     "aids.yaml:5:11: site_url of 3020 characters, too long for the QR code a tournament packet prints it in "
     "(expected: a web address of at most 1000 bytes)"),
])
def test_a_setting_out_of_its_choices_or_bounds_is_an_error(project, file, old, new, line):
    """Before: `catalogs_per: sideways` was read as game without a word; a site_url longer than a QR code holds
    ended a packet's cover in a traceback (segno's DataOverflowError)."""
    edit(project / file, old, new)
    refused(build(project), line)
