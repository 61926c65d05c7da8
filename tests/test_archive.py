"""The archive of releases on the web site (aids/releases/archive.py, snapshot.py, aids/site/archive_pages.py):
`aids release` keeps a snapshot and the digests of the outputs; `aids build` publishes every release beside the current
state, byte-identical to what was released, with a version switcher, a page of the numbers that moved, and old
numbers that still lead to their item. Checked on Valmora 1809 (a release copied from the samples, released once
more) and on the samples' own build, whose every internal link in every version is followed."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from aids.config import read_project
from aids.pipeline import builder
from aids.pipeline.pipeline import Options
from aids.releases import archive, snapshot
from aids.site import archive_pages

from .helpers import REPO, pdf_text, run

GAME = "valmora-1809"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(scope="module")
def valmora(tmp_path_factory):
    """Valmora 1809 alone (English and Polish), with its releases 2.0 and 2.1, built once."""
    root = tmp_path_factory.mktemp("archive") / "project"
    # without its rulings, given since 2.1 (their appendix is not in the release): the current state is 2.1 as released
    shutil.copytree(REPO / "games" / GAME, root / "games" / GAME, ignore=shutil.ignore_patterns("rulings.yaml"))
    for lang in ("pl",):
        folder = root / "i18n" / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        shutil.copy(REPO / "i18n" / lang / "LC_MESSAGES" / f"{GAME}.po", folder)
    (root / "aids.yaml").write_text("languages: [en, pl]\noutput: build\n", encoding="utf-8")
    project = read_project(root)
    summary = builder.build(project)
    assert not summary.failed, "\n".join(map(str, summary.failed))
    return project, summary


def test_every_release_is_published_beside_the_current_state_byte_identical_to_its_release(valmora):
    project, summary = valmora
    game = project.read_game(GAME)
    assert archive_pages.archived_versions(game) == ["2.0", "2.1"]
    for version in ("2.0", "2.1"):
        recorded = snapshot.read_digests(game, version)
        assert {name.split("/")[1] for name in recorded} >= {"en", "pl"}
        for name, digest in recorded.items():
            if name.startswith("ru/") or "/ru/" in name:
                continue  # this project publishes en and pl
            published = project.output / GAME / version / name
            if name.endswith(".pdf"):
                assert sha(published.read_bytes()) == digest, f"{version}/{name} is not the PDF released"
            else:  # the page as released, inside the site's navigation
                assert published.is_file()
    assert f"build/{GAME}/2.0/cm/en/turn-sequence.pdf" in summary.site  # the build says what it wrote
    # nothing reported: every rebuilt output is the one released
    assert not [line for line in summary.skipped if line.startswith("archive:")]
    # the versions differ where the errata of 2.1 do: the old PDF has the old step, the new one the new step
    old = pdf_text(project.output / GAME / "2.0" / "cm" / "en" / "turn-sequence.pdf")
    new = pdf_text(project.output / GAME / "2.1" / "cm" / "en" / "turn-sequence.pdf")
    assert "Remove every fire and melee marker." in old and "Remove every fire" not in new
    assert "skirmish volley" in new and "skirmish volley" not in old
    # the sources changed nothing a reader reads since 2.1 (game.yaml marks the author's language since: the tagged
    # PDF says it, the text is the same)
    current = project.output / GAME / "cm" / "en" / "turn-sequence.pdf"
    assert pdf_text(current) == pdf_text(project.output / GAME / "2.1" / "cm" / "en" / "turn-sequence.pdf")


def test_an_archived_page_says_its_version_and_links_the_current_one_and_every_other(valmora):
    project, _ = valmora
    page = (project.output / GAME / "2.0" / "inch" / "pl" / "turn-sequence.html").read_text(encoding="utf-8")
    assert "Wersja 2.0 z 14 września 2026, w wydanym brzmieniu." in page.replace("\u00a0", " ")
    assert '<a href="../../../inch/pl/turn-sequence.html" data-keep-hash>Wersja bieżąca</a>' in page
    switcher = page.split('<ul class="site-versions"', 1)[1].split("</ul>", 1)[0]
    assert re.findall(r'<li>(?:<a href="([^"]+)" data-keep-hash>|<span aria-current="page">)([^<]+)<', switcher) == [
        ("../../../inch/pl/turn-sequence.html", "bieżąca"), ("../../../2.1/inch/pl/turn-sequence.html", "2.1"),
        ("", "2.0")]
    current = (project.output / GAME / "cm" / "en" / "turn-sequence.html").read_text(encoding="utf-8")
    assert '<a href="../../2.0/cm/en/turn-sequence.html" data-keep-hash>2.0</a>' in current
    assert 'class="site-archived"' not in current
    game_page = (project.output / GAME / "en" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../2.1/en/index.html">2.1</a>' in game_page


def test_each_release_has_a_page_of_the_numbers_that_moved(valmora):
    project, _ = valmora
    page = (project.output / GAME / "2.1" / "en" / "numbers.html").read_text(encoding="utf-8")
    rows = [[re.sub(r"<[^>]+>", "", cell).replace("\u00a0", " ") for cell in re.findall(r"<td>(.*?)</td>", row)]
            for row in re.findall(r"<tr><td>.*?</tr>", page)]
    assert ["4.4, step 2", "4.4, step 3"] in rows  # musketry, after the skirmish step inserted before it
    assert ["new", "4.4, step 2"] in rows  # the skirmish step
    assert ["4.6, step 2", "4.6, step 1"] in rows  # the turn marker, after the step removed before it
    assert ["4.6, step 1", "removed"] in rows
    assert 'href="../../2.0/cm/en/turn-sequence.html#fire/musketry"' in page
    assert 'href="../cm/en/turn-sequence.html#fire/musketry"' in page
    polish = (project.output / GAME / "2.1" / "pl" / "numbers.html").read_text(encoding="utf-8")
    polish = polish.replace("\u00a0", " ")
    assert "Numery zmienione w wersji 2.1" in polish and "4.4, krok 3" in polish
    first = (project.output / GAME / "2.0" / "en" / "numbers.html").read_text(encoding="utf-8")
    assert "The first version in the archive" in first


def test_a_current_page_knows_the_old_numbers_of_its_items(valmora):
    project, _ = valmora
    page = (project.output / GAME / "cm" / "en" / "turn-sequence.html").read_text(encoding="utf-8")
    moved = json.loads(page.split('<script type="application/json" id="aids-moved">', 1)[1].split("</script>", 1)[0])
    assert moved["4.4,step2"] == ["fire/musketry", "2.0", "4.4,\u00a0step\u00a03", "4.4,\u00a0step\u00a02"]
    assert moved["4.6,step1"][:3] == ["end-of-turn/markers", "2.0", ""]


def test_a_build_with_nothing_new_renders_nothing_of_the_archive(valmora):
    project, _ = valmora
    game = project.read_game(GAME)
    assert archive.publish(project, [game]).written == []
    page = project.output / GAME / "2.0" / "cm" / "en" / "turn-sequence.html"
    page.write_text("damaged", encoding="utf-8")
    again = archive.publish(project, [game])
    assert again.written == [f"build/{GAME}/2.0/cm/en/turn-sequence.html"] and again.notes == []
    assert "site-versions" in page.read_text(encoding="utf-8")


def test_a_build_of_the_html_alone_publishes_the_archives_pages_and_a_build_with_pdfs_its_pdfs(valmora, tmp_path):
    """As for the current state: `--format html` (and the preview) makes no PDF of the archive either; the errata
    of a release still find its PDFs, made from its snapshot; the next build with PDFs adds them, as released."""
    project, _ = valmora
    root = tmp_path / "project"
    shutil.copytree(project.root, root, ignore=shutil.ignore_patterns("build"))
    other = read_project(root)
    summary = builder.build(other, Options(formats=["html"]))
    assert not summary.failed, summary.failed
    archived = root / "build" / GAME / "2.0"
    assert (archived / "cm" / "en" / "turn-sequence.html").is_file()
    assert not list(archived.rglob("*.pdf")) and not list((root / "build").rglob("*.pdf"))
    code, out, err = run("--project", root, "errata", "2.0", "--lang", "en")
    assert code == 0, err
    assert "Remove every fire and melee marker." in pdf_text(root / "build" / GAME / "en" / "errata-2.0.pdf")
    summary = builder.build(other)
    assert not summary.failed and not [line for line in summary.skipped if line.startswith("archive:")]
    recorded = {name: digest for name, digest in snapshot.read_digests(other.read_game(GAME), "2.0").items()
                if name.endswith(".pdf") and "/ru/" not in name}
    assert recorded and {name: sha((archived / name).read_bytes()) for name in recorded} == recorded


def test_a_rendering_that_changed_is_reported_and_a_kept_file_is_published_instead(valmora, tmp_path):
    project, _ = valmora
    root = tmp_path / "project"
    shutil.copytree(project.root, root)
    other = read_project(root)
    game = other.read_game(GAME)
    digests = snapshot.folder_of(game, "2.0") / snapshot.DIGESTS
    name = "cm/en/turn-sequence.pdf"
    digests.write_text(re.sub(rf"^\w+  {re.escape(name)}$", f"{'0' * 64}  {name}",
                              digests.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    outcome = archive.publish(other, [game])
    assert [n for n in outcome.notes if name in n] == [
        f"archive: {GAME} 2.0 {name} rebuilt is not the file released (its sha256 differs from outputs.sha256): "
        f"published as rebuilt; to publish the released file, place it at "
        f"games/{GAME}/releases/2.0/kept/{name}"]
    kept = snapshot.folder_of(game, "2.0") / snapshot.KEPT / name
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"%PDF-1.7 the file as released\n")
    assert archive.publish(other, [game]).notes == []
    assert (root / "build" / GAME / "2.0" / name).read_bytes() == b"%PDF-1.7 the file as released\n"


def test_a_release_keeps_its_snapshot_and_a_release_without_one_still_builds(valmora, tmp_path):
    project, _ = valmora
    root = tmp_path / "project"
    shutil.copytree(project.root, root)  # with its build: the archive is published beside a current build
    sequence = root / "games" / GAME / "sequence.yaml"
    sequence.write_text(sequence.read_text(encoding="utf-8").replace(
        "Each side rallies one disordered unit", "Each side rallies two disordered units"), encoding="utf-8")
    code, out, err = run("--project", root, "release", "2.2", "--game", GAME, "--date", "2026-12-01")
    assert code == 0, err
    folder = root / "games" / GAME / "releases" / "2.2"
    assert out.splitlines()[-1] == f"wrote games/{GAME}/releases/2.2/ (its snapshot)"
    assert "rallies two disordered units" in (folder / GAME / "sequence.yaml").read_text(encoding="utf-8")
    assert 'version: "2.2"' in (folder / GAME / "game.yaml").read_text(encoding="utf-8")
    assert (folder / "i18n" / "pl" / "LC_MESSAGES" / f"{GAME}.po").is_file()
    lines = (folder / snapshot.DIGESTS).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8 and all(re.fullmatch(r"[0-9a-f]{64}  (cm|inch)/(en|pl)/turn-sequence\.(html|pdf)", x)
                                   for x in lines)
    # a snapshot is only ever added to a release recorded without one, while the sources are as released
    code, _, err = run("--project", root, "release", "2.2", "--game", GAME, "--snapshot")
    assert code == 1 and "release 2.2 already has its snapshot" in err
    shutil.rmtree(folder)
    sequence.write_text(sequence.read_text(encoding="utf-8").replace("two disordered", "three disordered"))
    code, _, err = run("--project", root, "release", "2.2", "--game", GAME, "--snapshot")
    assert code == 1 and "the sources are no longer as released in 2.2 (1 changes: aids changes --since 2.2" in err
    # without its snapshot, 2.2 is left out of the archive, said so; the others are published
    other = read_project(root)
    outcome = archive.publish(other, [other.read_game(GAME)])
    assert outcome.notes == [f"archive: {GAME} 2.2 not published, recorded without a snapshot (aids release 2.2 "
                             f"--game {GAME} --snapshot, while its sources are as released)"]
    assert (root / "build" / GAME / "2.1" / "cm" / "pl" / "turn-sequence.html").is_file()


# --- the whole site, every version: every internal link leads to a file and its anchor ----------------------------

class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.moved: dict[str, list[str]] = {}
        self._json = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("href", "src"):
            if attrs.get(name) is not None and tag != "base":
                self.links.append(attrs[name])
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        self._json = tag == "script" and attrs.get("id") == "aids-moved"

    def handle_data(self, data):
        if self._json:
            self.moved = json.loads(data)
            self._json = False


def broken_links(output: Path) -> tuple[int, list[str]]:
    pages = sorted(p for p in output.rglob("*.html")
                   if not any(part.startswith(".") or part == "pagefind" for part in p.relative_to(output).parts))
    parsed: dict[Path, Links] = {}
    for page in pages:
        parsed[page] = Links()
        parsed[page].feed(page.read_text(encoding="utf-8"))
    broken = []
    for page, links in parsed.items():
        for link in links.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue  # the samples have none: test_browser says so
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.is_file():
                broken.append(f"{page.relative_to(output)} -> {link}: no such file")
                continue
            anchor = unquote(parts.fragment)
            if anchor and target.suffix == ".html":
                there = parsed.get(target) or Links()
                if target not in parsed:
                    there.feed(target.read_text(encoding="utf-8"))
                # an old number is a documented redirect anchor: the page's script leads it to its item
                if anchor not in there.ids and re.sub(r"\s+", "", anchor).lower() not in there.moved:
                    broken.append(f"{page.relative_to(output)} -> {link}: no element with id {anchor!r}")
    return len(pages), broken


def test_no_internal_link_of_the_whole_site_is_broken_in_any_version(sample):
    project, _ = sample
    count, broken = broken_links(project.output)
    assert not broken, "\n".join(broken)
    archived = list(project.output.glob("*/[0-9]*/**/*.html"))
    assert count > 60 and len(archived) > 30  # the releases of gcacw, ostroleka-1831 and valmora-1809 are there
    for game, version in (("gcacw", "1.4"), ("ostroleka-1831", "1.1"), ("valmora-1809", "2.0"), ("valmora-1809", "2.1")):
        assert (project.output / game / version / "en" / "index.html").is_file(), (game, version)
    assert not (project.output / "newbury-fast-play" / "1.0").exists()  # never released: no history made up


@pytest.mark.unit
def test_the_link_check_finds_a_broken_link_and_a_missing_anchor(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<a href="../b.html#x">b</a> <a href="nope.html">n</a>'
                                               '<a href="../b.html#4.4,%20step%202">old</a>', encoding="utf-8")
    (tmp_path / "b.html").write_text('<p id="y"></p><script type="application/json" id="aids-moved">'
                                     '{"4.4,step2": ["fire/musketry", "2.0", "4.4, step 3", "4.4, step 2"]}</script>',
                                     encoding="utf-8")
    assert broken_links(tmp_path)[1] == ["a/index.html -> ../b.html#x: no element with id 'x'",
                                         "a/index.html -> nope.html: no such file"]
