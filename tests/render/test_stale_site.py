"""An aid that fails does not vanish from the site (aids/pipeline/outputs.py, aids/site/site.py): its last good files
stay, listed on its game's pages and marked "not rebuilt" with the error, until it builds again; an aid gone from its
game.yaml has its files removed. Either way no file of the output folder is left that no page links."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from aids.commands import report
from aids.commands.cli import main
from aids.config import read_project
from aids.localize.catalogs import po_path
from aids.pipeline import builder, pipeline

from ..localize.test_catalogs import translate
from .test_site import CARD, CARDS_GAME, Page, broken_links, build, new_project

EDITIONS = ("cm", "inch")


def attempt(root: Path, **options) -> pipeline.Summary:
    """A build that may fail."""
    return builder.build(read_project(root), pipeline.Options(**options))


def entries(output: Path, game: str, lang: str) -> dict[str, object]:
    """(edition, aid) -> its entry on the game's page in `lang`."""
    page = Page(output / game / lang / "index.html")
    return {(section.attrs.get("id", ""), li.attrs["id"]): li for section in page.root.all("section", "site-edition")
            for li in section.all("li", "site-aid")}


def orphans(output: Path) -> list[str]:
    """Every page and PDF of a game that none of its game's pages links (nor the pages they link)."""
    linked: set[Path] = set()
    for index in output.glob("*/*/index.html"):
        for href in Page(index).hrefs:
            linked.add((index.parent / unquote(urlsplit(href).path)).resolve())
    files = [p for p in output.glob("*/**/*") if p.suffix in (".html", ".pdf") and p.name != "index.html"
             and "pagefind" not in p.parts and not any(part.startswith(".") for part in p.relative_to(output).parts)]
    return sorted(str(p.relative_to(output)) for p in files if p.resolve() not in linked)


def site_pages(output: Path) -> list[Path]:
    return sorted(p for p in output.rglob("index*.html") if "pagefind" not in p.parts)


def test_a_failing_aid_keeps_its_last_good_files_listed_and_marked_until_it_builds(tmp_path):
    root = new_project(tmp_path / "project")
    output = root / "build"
    build(root)
    card = root / "games/cards/card.yaml"
    before = {p: p.read_bytes() for p in output.glob("cards/*/*/ref*")}
    assert len(before) == 2 * 2 * 4  # cm and inch, pl and en (ru is below the threshold), 4 files each
    assert orphans(output) == []

    card.write_text(CARD.replace("font_size: 9\n", "font_size: large\n"), encoding="utf-8")
    assert main(["--project", str(root), "build"]) == 1  # the build fails, and says so
    summary = attempt(root)
    assert len(summary.failed) == 1 and "card.yaml" in str(summary.failed[0])
    assert {p: p.read_bytes() for p in output.glob("cards/*/*/ref*")} == before  # the last good files, as they were
    for lang, words in (("en", "not rebuilt: games/cards/card.yaml:"), ("pl", "nie wygenerowano ponownie: ")):
        found = entries(output, "cards", lang)
        assert list(found) == [(f"edition-{e}", f"{e}-ref") for e in EDITIONS]
        for (_, _), li in found.items():
            assert "site-stale" in li.attrs["class"].split()
            assert li.one("h3").content == "Karta sędziego"  # the title its last build recorded
            status = li.one("p", "site-status").content
            assert status.startswith(words) and "font_size" in status, status
            assert len(li.one("ul", "site-files").all("a")) == 4
    assert not Page(output / "demo/en/index.html").root.all("li", "site-stale")  # the other game is as it was
    assert orphans(output) == [] and broken_links(output, site_pages(output)) == []

    # a build of another game leaves the mark as it is
    attempt(root, games=["demo"])
    assert all("site-stale" in li.attrs["class"] for li in entries(output, "cards", "en").values())

    card.write_text(CARD, encoding="utf-8")  # fixed: the mark goes
    build(root)
    for lang in ("pl", "en"):
        for li in entries(output, "cards", lang).values():
            assert "site-stale" not in li.attrs["class"] and not li.all("p", "site-status")
    assert orphans(output) == []


def test_an_aid_failing_in_one_language_is_marked_there_only(tmp_path):
    root = new_project(tmp_path / "project")
    output = root / "build"
    build(root)
    # one translation missing: --strict fails the aid in English; the Polish files, up to date, are not stale
    translate(po_path(root / "i18n", "en", "cards"), {"ref/title": ""})
    summary = attempt(root, strict=True)
    assert summary.failed and all("--strict" in str(e) for e in summary.failed)
    english = entries(output, "cards", "en")
    assert all("not rebuilt: " in li.one("p", "site-status").content for li in english.values())
    assert not any("site-stale" in li.attrs["class"] for li in entries(output, "cards", "pl").values())
    assert orphans(output) == []
    build(root)  # without --strict the fallback is allowed: built, no mark
    assert not any("site-stale" in li.attrs["class"] for li in entries(output, "cards", "en").values())


def test_an_aid_whose_source_names_no_id_is_known_by_its_source(tmp_path):
    root = new_project(tmp_path / "project")
    output = root / "build"
    build(root)
    (root / "games/cards/card.yaml").write_text("kind: card\nsections: [\n", encoding="utf-8")  # no YAML, no id
    assert attempt(root).failed
    found = entries(output, "cards", "en")
    assert len(found) == 2 and all("site-stale" in li.attrs["class"] for li in found.values())
    assert orphans(output) == []


def test_an_aid_that_never_built_is_not_listed(tmp_path):
    root = new_project(tmp_path / "project")
    build(root)
    game = root / "games/cards/game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "  - other.yaml\n", encoding="utf-8")
    (root / "games/cards/other.yaml").write_text(CARD.replace("id: ref", "id: other").replace(
        "font_size: 9\n", "font_size: large\n"), encoding="utf-8")
    assert attempt(root).failed
    assert [key for key in entries(root / "build", "cards", "en")] == [(f"edition-{e}", f"{e}-ref") for e in EDITIONS]
    assert not list((root / "build").rglob("other*"))


def test_an_aid_gone_from_its_game_leaves_no_file_behind(tmp_path):
    root = new_project(tmp_path / "project", {"games/cards/game.yaml": CARDS_GAME + "  - other.yaml\n",
                                              "games/cards/other.yaml": CARD.replace("id: ref", "id: other")})
    output = root / "build"
    game = root / "games/cards/game.yaml"
    build(root)
    made = sorted(output.glob("cards/*/*/other*"))
    assert len(made) == 2 * 2 * 4 and (output / ".aids-cache/records/cards/other").is_dir()

    game.write_text(game.read_text(encoding="utf-8").replace("  - other.yaml\n", ""), encoding="utf-8")
    summary = build(root)
    assert summary.removed == [f"build/{p.relative_to(output).as_posix()}" for p in made]
    assert f"removed 16 file(s) of aids gone from game.yaml ({summary.removed[0]}, ...)" in report.summary_text(summary)
    assert not list(output.rglob("other*")) and not (output / ".aids-cache/records/cards/other").exists()
    assert [key for key in entries(output, "cards", "en")] == [(f"edition-{e}", f"{e}-ref") for e in EDITIONS]
    assert orphans(output) == [] and broken_links(output, site_pages(output)) == []
    assert build(root).removed == []  # once
