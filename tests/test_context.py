"""`aids context`: a picture of where each text of an aid prints, for the translators (Weblate's screenshots, a
link for Poedit): every text of the catalogs pictured, outlined, linked to its place in the aid's page."""
from __future__ import annotations

import io
import json
import re

import pytest

from aids.commands.cli import main

from .helpers import make_project
from .localize.test_catalogs import extract_update
from .test_browser import CHROMIUM, DRIVER, require

MAGENTA = (0xE4, 0x00, 0x7C)


@pytest.fixture(scope="module")
def pictured(tmp_path_factory):
    require(CHROMIUM and DRIVER, "chromium and chromium-driver")
    root = make_project(tmp_path_factory.mktemp("context") / "project")
    extract_update(root)
    assert main(["--project", str(root), "context", "--lang", "pl", "--lang", "en"]) == 0
    return root


@pytest.mark.system
def test_every_text_of_the_catalogs_has_its_picture(pictured, capsys):
    from PIL import Image
    template = (pictured / "i18n/templates/demo.pot").read_text(encoding="utf-8")
    contexts = set(re.findall(r'^msgctxt "(.*)"$', template, re.M))
    assert contexts
    for lang in ("pl", "en"):
        folder = pictured / "build/context/demo" / lang
        index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
        assert set(index) == contexts, (lang, contexts ^ set(index))
        for context, entry in index.items():
            picture = folder / entry["image"]
            assert picture.suffix == ".png" and picture.is_relative_to(folder)
            image = Image.open(io.BytesIO(picture.read_bytes())).convert("RGB")
            assert 200 <= image.width <= 1000 and 30 <= image.height <= 1200, (context, image.size)
            data = image.tobytes()
            outline = sum(1 for i in range(0, len(data), 3)
                          if all(abs(a - b) < 40 for a, b in zip(data[i:i + 3], MAGENTA)))
            assert outline >= 40, f"{context}: the text is not outlined in its picture"
            assert entry["page"].startswith(f"{entry['aid']}.html")
        assert not list(folder.glob("*.html")), "the pages pictured are not left behind"
    index = json.loads((pictured / "build/context/demo/pl/index.json").read_text(encoding="utf-8"))
    step = next(key for key in index if key.count("/") == 2)  # a step: linked to its anchor in the page
    assert index[step]["page"] == f"{index[step]['aid']}.html#{step.split('/', 1)[1]}"


@pytest.mark.system
def test_a_language_the_project_lacks_is_one_line(pictured, capsys):
    assert main(["--project", str(pictured), "context", "--lang", "xx"]) == 1
    assert capsys.readouterr().err.strip() == "command line: unknown language 'xx' (expected: pl, en, ru)"


@pytest.mark.unit
def test_an_upload_without_a_token_or_a_project_is_one_line_before_any_picture(tmp_path, capsys, monkeypatch):
    root = make_project(tmp_path / "project")
    monkeypatch.delenv("WEBLATE_TOKEN", raising=False)
    args = ["--project", str(root), "context", "--weblate", "http://127.0.0.1:9/"]
    assert main([*args, "--weblate-project", "p"]) == 1
    assert capsys.readouterr().err.strip() == ("--weblate: no API token in WEBLATE_TOKEN (expected: export "
                                               "WEBLATE_TOKEN=<your Weblate API key>)")
    assert main(args) == 1
    assert capsys.readouterr().err.strip() == "--weblate: no Weblate project named (expected: --weblate-project SLUG)"
    assert not (root / "build" / "context").exists()


@pytest.fixture(scope="module")
def booklet_pictured(tmp_path_factory):
    """The demo booklet (a contents, sections of several paragraphs, lists and boxes, a reference to a heading)
    pictured in its source language."""
    from .model.test_booklet import BOOKLET, project
    require(CHROMIUM and DRIVER, "chromium and chromium-driver")
    root = project(tmp_path_factory.mktemp("booklet") / "project",
                   rules_yaml=BOOKLET.replace("files: [one.md, two.md]", "files: [one.md, two.md]\ncontents: true"))
    extract_update(root)
    assert main(["--project", str(root), "context", "--lang", "pl"]) == 0
    return root


@pytest.mark.system
def test_every_string_of_a_booklet_has_its_own_picture_outlined_where_it_prints(booklet_pictured):
    """A section's paragraphs share its msgctxt: each is a string of its own in the catalog and in Weblate, so
    each has its own picture; a heading is pictured in its section, not at its entry in the contents (nor at a
    reference to it), and its place in the page is its section."""
    from PIL import Image

    from aids.localize import catalogs, po
    template = catalogs.read_catalog(booklet_pictured / "i18n/templates/demo.pot", "demo.pot")
    strings = {po.key(e): e for e in po.entries(template)}
    folder = booklet_pictured / "build/context/demo/pl"
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    assert len(index) == len(strings), f"{len(strings) - len(index)} of {len(strings)} strings without a picture"
    pictured = {(entry["msgctxt"], entry["msgid"]): entry for entry in index.values()}
    assert set(pictured) == set(strings), set(pictured) ^ set(strings)
    shared = [key for key in strings if sum(1 for k in strings if k[0] == key[0]) > 1]
    assert len(shared) >= 10  # the paragraphs, items and boxes of a section
    images = [(folder / entry["image"]).read_bytes() for entry in index.values()]
    assert len(set(images)) == len(images), "a picture for each string, not one per msgctxt"
    for key, entry in pictured.items():
        image = Image.open(io.BytesIO((folder / entry["image"]).read_bytes())).convert("RGB")
        data = image.tobytes()
        outline = sum(1 for i in range(0, len(data), 3) if all(abs(a - b) < 40 for a, b in zip(data[i:i + 3], MAGENTA)))
        assert outline >= 40, f"{key}: the text is not outlined in its picture"
    headings = {key: entry for key, entry in pictured.items() if "heading" in strings[key].getnotes("developer").lower()}
    assert len(headings) >= 4, [strings[k].getnotes("developer") for k in strings]
    for (context, _), entry in headings.items():  # in its section: the anchor its msgctxt names
        assert entry["page"] == f"rules.html#{context.split('/')[-1]}", (context, entry)
