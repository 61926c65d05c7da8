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
