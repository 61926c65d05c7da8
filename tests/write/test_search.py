"""The search index (aids/write/search.py): one a publication, every page in every language, made again only
when a page changed, the same bytes from the same pages, written inside the output folder only; what it
holds of a page. tests/test_browser.py searches it in a browser."""
from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

from aids.config import read_project
from aids.localize.catalogs import po_path
from aids.pipeline import builder, pipeline
from aids.write import search

from ..helpers import DEMO_PLAYSHEET, DEMO_SEQUENCE, make_project
from ..localize.test_catalogs import extract_update, translate

FILES = {**DEMO_PLAYSHEET, "games/demo/sequence.yaml": DEMO_SEQUENCE,
         "games/demo/game.yaml": DEMO_PLAYSHEET["games/demo/game.yaml"].replace("aids:\n", "aids:\n  - sequence.yaml\n")}
EDITIONS = ("cm", "inch")


def build(root: Path, **options) -> pipeline.Summary:
    summary = builder.build(read_project(root), pipeline.Options(formats=["html"], jobs=1, **options))
    assert not summary.failed, "\n".join(map(str, summary.failed))
    return summary


def index_files(bundle: Path) -> dict[str, bytes]:
    return {p.relative_to(bundle).as_posix(): p.read_bytes() for p in sorted(bundle.rglob("*")) if p.is_file()}


def mtimes(bundle: Path) -> dict[str, int]:
    return {p.relative_to(bundle).as_posix(): p.stat().st_mtime_ns for p in bundle.rglob("*") if p.is_file()}


def fragments(bundle: Path, lang: str) -> list[dict]:
    """What the index holds of each page in `lang` (Pagefind's fragments: gzip, a signature, JSON)."""
    return [json.loads(gzip.decompress(p.read_bytes())[len(b"pagefind_dcd"):])
            for p in sorted((bundle / "fragment").glob(f"{lang}_*.pf_fragment"))]


def entry(bundle: Path) -> dict:
    return json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))


def test_an_index_a_publication_made_again_only_when_a_page_changed(tmp_path):
    root = make_project(tmp_path / "project", FILES)
    extract_update(root)
    outside = {p for p in tmp_path.rglob("*")}
    build(root)
    output = root / "build"
    bundles = {edition: output / "demo" / edition / "pagefind" for edition in EDITIONS}
    for bundle in bundles.values():
        # every language, every aid page of it (2: the sequence and the playsheet), Pagefind's UI and aids' loader
        assert {lang: e["page_count"] for lang, e in entry(bundle)["languages"].items()} == {"pl": 2, "en": 2, "ru": 2}
        assert {"pagefind-ui.js", "pagefind-ui.css", "pagefind.js", "aids-search.js", "aids-search.css"} <= \
            set(index_files(bundle))
    assert not (output / "demo" / "pagefind").exists()  # one a publication: an edition here, not the game
    assert (output / "demo/cm/en/seq.html").read_text(encoding="utf-8").count('src="../pagefind/aids-search.js"') == 1
    # written in the output folder only, with nothing left in the staging folder
    assert {p for p in tmp_path.rglob("*") if output not in p.parents and p != output} == outside
    assert not (output / ".aids-staging").exists()

    # nothing changed: the index is not touched
    before = {edition: mtimes(bundle) for edition, bundle in bundles.items()}
    build(root)
    assert {edition: mtimes(bundle) for edition, bundle in bundles.items()} == before

    # one English page changed, built in English only: both editions' indexes again, of all their pages
    translate(po_path(root / "i18n", "en", "demo"), {"seq/prep": "Preparation"})
    cm = index_files(bundles["cm"])
    build(root, langs=["en"])
    assert {lang: e["page_count"] for lang, e in entry(bundles["cm"])["languages"].items()} == \
        {"pl": 2, "en": 2, "ru": 2}
    assert any("Preparation" in f["content"] for f in fragments(bundles["cm"], "en"))
    changed = {name for name, data in index_files(bundles["cm"]).items() if cm.get(name) != data}
    assert "pagefind-entry.json" in changed and not any(name.startswith(("fragment/pl_", "fragment/ru_"))
                                                        for name in changed)
    assert set(cm) - set(index_files(bundles["cm"])), "the old English files are gone"
    unchanged = {name for name, t in mtimes(bundles["cm"]).items() if before["cm"].get(name) == t}
    assert "pagefind-ui.js" in unchanged  # a file the same in the new index is left as it was


def test_the_same_pages_give_the_same_index(tmp_path):
    root = make_project(tmp_path / "project", FILES)
    build(root)
    first = index_files(root / "build/demo/cm/pagefind")
    shutil.rmtree(root / "build/.aids-cache")
    shutil.rmtree(root / "build/demo/cm/pagefind")
    build(root)
    assert index_files(root / "build/demo/cm/pagefind") == first


def test_a_shard_makes_no_index_and_a_failed_index_keeps_the_old_one(tmp_path, monkeypatch):
    root = make_project(tmp_path / "project", FILES)
    summary = build(root, shard=(1, 1))
    assert not list((root / "build").rglob("pagefind"))
    assert "search index: not made by a shard (a build of the merged output folder makes it)" in summary.skipped
    build(root)
    bundle = root / "build/demo/cm/pagefind"
    before = index_files(bundle)

    failing = tmp_path / "pagefind"
    failing.write_text("#!/bin/sh\necho 'Error: something went wrong' >&2\nexit 3\n")
    failing.chmod(0o755)
    monkeypatch.setattr(search, "pagefind", lambda: failing)
    source = root / "games/demo/sequence.yaml"  # a page changes: its publications are indexed again
    source.write_text(source.read_text(encoding="utf-8").replace("Połóż żetony.", "Połóż wszystkie żetony."),
                      encoding="utf-8")
    summary = builder.build(read_project(root), pipeline.Options(formats=["html"], jobs=1))
    assert [str(e) for e in summary.failed] == [
        "build/demo/cm: Pagefind could not index the pages: Error: something went wrong (expected: pages Pagefind can "
        "read; this may be a bug of aids)"]
    assert index_files(bundle) == before and not (root / "build/.aids-staging").exists()


def test_what_the_index_holds_of_a_page(sample):
    """The rules' text under their headings, each heading with an id a result of its own; not the masthead, the
    contents list, the colophon or the site's navigation."""
    output = sample[0].output
    pages = {f["url"]: f for f in fragments(output / "gcacw/pagefind", "ru")}
    rules = pages["/ru/system-rules.html"]
    headings = {a["id"]: a["text"] for a in rules["anchors"] if a["element"].startswith("h")}
    assert headings["zoc"] == "2.4 Зона контроля"  # not the heading's link to itself
    assert rules["meta"]["title"] == "Общие правила серии"
    assert "Содержание" not in rules["content"]  # the contents list
    html = (output / "gcacw/ru/system-rules.html").read_text(encoding="utf-8")
    assert "Great Campaigns" in html and "Great Campaigns" not in rules["content"]  # the masthead
    assert "Опубликовано" in html and "Опубликовано" not in rules["content"]  # the colophon
    assert "Polski" in html and "Polski" not in rules["content"]  # the language switcher
    # the two aid pages in each language, not the game's page beside them (its list of aids is no rule)
    assert {lang: e["page_count"] for lang, e in entry(output / "gcacw/pagefind")["languages"].items()} == \
        {"pl": 2, "en": 2, "ru": 2}
    assert not (output / "gcacw/pagefind/pagefind-highlight.js").exists()  # Pagefind's other UIs are not published


def test_the_index_carries_game_and_version_and_an_offline_copy(sample):
    """Each page's game (a filter and a label) and version (a filter: docs/search.md); and for a folder opened
    from disk, offline.<lang>.js: the same pages cut at their headings, with MiniSearch and its licence."""
    output = sample[0].output
    bundle = output / "gcacw/pagefind"
    rules = {f["url"]: f for f in fragments(bundle, "ru")}["/ru/system-rules.html"]
    assert rules["filters"] == {"Версия": ["1.4"]}
    assert rules["meta"]["game"] == "Great Campaigns of the American Civil War"
    script = (bundle / "offline.ru.js").read_text(encoding="utf-8")
    prefix = "(window.aidsOffline = window.aidsOffline || []).push({src: document.currentScript.src, sections: "
    line = script.splitlines()[1]
    assert line.startswith(prefix) and line.endswith("});")
    sections = json.loads(line[len(prefix):-len("});")])
    zoc = next(s for s in sections if s["url"] == "/ru/system-rules.html#zoc")
    assert zoc["heading"] == "2.4 Зона контроля" and zoc["filters"]["Версия"] == ["1.4"]
    assert zoc["text"] in rules["content"]
    assert {"offline.pl.js", "offline.en.js", "minisearch.js", "LICENSE-minisearch.txt", "aids-offline.js"} <= \
        {p.name for p in bundle.iterdir()}
