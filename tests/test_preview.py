"""`aids serve` rebuilds the language looked at first (issue 30): after a save, the aids of the game saved in the
language of the page last requested are built and published, then everything else; and the output folder then
holds the very bytes `aids build` writes for the same sources (pages, PDFs, the site and the search index)."""
from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from aids.commands.serve import Preview
from aids.config import read_project
from aids.localize.catalogs import po_path
from aids.pipeline import builder, pipeline
from aids.source import yamlfile
from aids.source.yamlfile import read_yaml

from .helpers import make_project
from .localize.test_catalogs import extract_update, translate


@pytest.fixture
def demo(tmp_path):
    root = make_project(tmp_path / "project")
    extract_update(root)
    translate(po_path(root / "i18n", "en", "demo"), {"seq/prep": "Preparation"})
    return root


@pytest.fixture
def kept(monkeypatch):
    """This process keeps parsed sources, as `aids serve` does (a Preview made asks it), for the test only."""
    monkeypatch.setattr(yamlfile, "_PARSED", None)
    yamlfile.keep_parsed()


def everything(output: Path) -> dict[str, bytes]:
    """Every file of an output folder but the build cache: pages, PDFs, the site's pages, the search index."""
    return {p.relative_to(output).as_posix(): p.read_bytes() for p in sorted(output.rglob("*"))
            if p.is_file() and ".aids-cache" not in p.parts}


def built_as_aids_build(root: Path, tmp_path: Path) -> dict[str, bytes]:
    """What `aids build` writes, from nothing, for the sources `root` has now."""
    reference = tmp_path / "reference"
    shutil.copytree(root, reference, ignore=shutil.ignore_patterns("build"))
    summary = builder.build(read_project(reference), pipeline.Options())
    assert not summary.failed, summary.failed
    return everything(reference / "build")


def edit(root: Path, old: str, new: str) -> Path:
    source = root / "games/demo/sequence.yaml"
    text = source.read_text(encoding="utf-8")
    assert old in text
    source.write_text(text.replace(old, new), encoding="utf-8")
    return source


def listen(preview: Preview) -> list[dict]:
    """The messages the pages will be told, as they come."""
    heard: list[dict] = []

    class Listener:
        def put(self, message: str) -> None:
            heard.append(json.loads(message))
    preview.state.listeners.append(Listener())  # type: ignore[arg-type]
    return heard


def test_a_save_builds_the_language_looked_at_first_then_the_others_as_aids_build_does(demo, tmp_path, kept):
    preview = Preview(demo, None, None)
    preview.rebuild()
    assert preview.state.errors == []
    heard = listen(preview)
    preview.look("demo/ru/seq.html")  # a page in Russian is open: the last language of the project
    source = edit(demo, "Przygotowanie", "Przygotowanie wojsk")
    preview.rebuild([source])

    first, *others = heard
    assert first["partial"] and first["errors"] == []
    assert sorted(first["changed"]) == ["demo/ru/seq.html", "demo/ru/seq.pdf"]  # ru alone, before anything else
    assert [m["partial"] for m in others] == [True, False] and all(m["errors"] == [] for m in others)
    later = [name for m in others for name in m["changed"]]
    assert {"demo/pl/seq.html", "demo/pl/seq.pdf", "demo/en/seq.html", "demo/en/seq.pdf"} <= set(later)
    assert not any(name.startswith("demo/ru/seq.") for name in later)  # not rendered twice
    output = demo / "build"
    assert (output / "demo/ru/seq.pdf").stat().st_mtime_ns <= min(
        (output / f"demo/{lang}/seq.pdf").stat().st_mtime_ns for lang in ("pl", "en"))
    assert everything(output) == built_as_aids_build(demo, tmp_path)
    assert "Przygotowanie wojsk" in (output / "demo/pl/seq.html").read_text(encoding="utf-8")


def test_a_saved_catalog_rebuilds_its_game_in_the_language_looked_at_and_then_its_own(demo, tmp_path, kept):
    preview = Preview(demo, None, None)
    preview.rebuild()
    heard = listen(preview)
    preview.look("demo/en/seq.pdf")
    po = po_path(demo / "i18n", "en", "demo")
    translate(po, {"seq/prep": "Set-up"})
    preview.rebuild([po])
    first, *others = heard
    assert first["partial"] and sorted(first["changed"]) == ["demo/en/seq.html", "demo/en/seq.pdf"]
    assert not any(name.startswith("demo/en/seq.") for m in others for name in m["changed"])
    assert not others[-1]["partial"]
    assert everything(demo / "build") == built_as_aids_build(demo, tmp_path)


def test_the_games_a_save_concerns(demo, kept):
    preview = Preview(demo, None, None)
    games, i18n = demo / "games", demo / "i18n"
    assert preview.games_of([games / "demo/sequence.yaml", i18n / "en/LC_MESSAGES/demo.po"]) == ["demo"]
    assert preview.games_of([games / "demo/releases/1.0.yaml"]) == ["demo"]
    # anything else may concern every game: aids.yaml, the UI's catalog, a file beside the games, unknown
    for other in (demo / "aids.yaml", i18n / "en/LC_MESSAGES/aids.po", games / "notes.txt", i18n / "en/notes.po"):
        assert preview.games_of([games / "demo/sequence.yaml", other]) is None
    assert preview.games_of(None) is None
    preview.look("demo/cm/en/seq.html")  # an edition's page
    assert preview.first() == "en"
    preview.look("index.html")  # the site's start page names no language: the last one stays
    assert preview.first() == "en"
    preview.look("index.ru.html")
    assert preview.first() == "ru"
    assert Preview(demo, None, ["ru", "en"]).first() == "ru"  # none looked at: the first chosen


@pytest.mark.unit
def test_a_source_parsed_again_is_the_same_and_never_shared(tmp_path, kept):
    path = tmp_path / "a.yaml"
    path.write_text("items:\n  - id: one\n    text: One\n", encoding="utf-8")
    first = read_yaml(path, "a.yaml")
    first.data["items"].append("changed by a reader")
    again = read_yaml(path, "a.yaml")
    assert again.data == {"items": [{"id": "one", "text": "One"}]}
    assert again.at(again.data["items"][0], "text", value=True).line == 3  # positions kept
    path.write_text("items:\n  - id: two\n", encoding="utf-8")  # a new text: parsed anew
    assert read_yaml(path, "a.yaml").data == {"items": [{"id": "two"}]}
    path.write_text("items: [unclosed\n", encoding="utf-8")  # a fault is found every time
    for _ in range(2):
        with pytest.raises(Exception, match="malformed YAML"):
            read_yaml(path, "a.yaml")


def test_the_served_preview_rebuilds_the_page_looked_at_first_and_ends_as_aids_build(demo, tmp_path):
    """Through the real server: a page requested tells it the language; its event stream says what was written."""
    serve = subprocess.Popen([sys.executable, "-m", "aids", "--project", str(demo), "serve", "--port", "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env={**os.environ, "PYTHONWARNINGS": "ignore"})
    try:
        assert serve.stdout is not None
        line = serve.stdout.readline()
        assert "serving build at http://127.0.0.1:" in line, line
        port = int(line.split("127.0.0.1:", 1)[1].split("/", 1)[0])
        page = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        page.request("GET", "/demo/en/seq.html")
        assert page.getresponse().status == 200
        events = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        events.request("GET", "/_aids/events")
        stream = events.getresponse()
        heard: list[dict] = []
        threading.Thread(target=lambda: heard.extend(json.loads(raw[6:]) for raw in stream
                                                     if raw.startswith(b"data: ")), daemon=True).start()
        edit(demo, "Przygotowanie", "Przygotowanie wojsk")
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not any(not m["partial"] for m in heard):
            time.sleep(0.2)
        first = heard[0]
        assert first["partial"] and sorted(first["changed"]) == ["demo/en/seq.html", "demo/en/seq.pdf"]
        final = next(n for n, m in enumerate(heard) if not m["partial"])
        assert {"demo/pl/seq.pdf", "demo/ru/seq.pdf"} <= {name for m in heard[:final + 1] for name in m["changed"]}
        assert heard[final]["errors"] == []
        assert everything(demo / "build") == built_as_aids_build(demo, tmp_path)
    finally:
        serve.terminate()
        serve.wait(10)
        if serve.stdout:
            serve.stdout.close()


def test_the_parts_of_a_rebuild_and_when_aids_own_digest_is_made_again(demo, monkeypatch, kept):
    """A game's source or catalog: its game in the language looked at, then in every language, then everything,
    aids' own digest kept (aids does not change under a running server); anything else (aids.yaml, a template
    or the UI catalog in a checkout of aids itself, a change the watcher could not name): the digest made again,
    and the language looked at first over every game."""
    from aids.commands import serve

    preview = Preview(demo, None, None)
    preview.look("demo/ru/seq.pdf")
    cleared: list[int] = []
    asked: list[tuple] = []
    monkeypatch.setattr(serve.tool_digest, "cache_clear", lambda: cleared.append(1))
    monkeypatch.setattr(builder, "build", lambda project, options, **_: asked.append(
        (options.games, options.langs, options.partial)) or pipeline.Summary())
    preview.rebuild([demo / "games/demo/sequence.yaml"])
    assert asked == [(["demo"], ["ru"], True), (["demo"], None, True), (None, None, False)] and cleared == []
    asked.clear()
    preview.rebuild([demo / "aids.yaml"])
    assert asked == [(None, ["ru"], True), (None, None, False)] and cleared == [1]
    preview.rebuild(None)
    assert cleared == [1, 1]
    asked.clear()
    Preview(demo, None, ["en"]).rebuild([demo / "games/demo/sequence.yaml"])  # one language: no second part
    assert asked == [(["demo"], ["en"], True), (None, ["en"], False)]
