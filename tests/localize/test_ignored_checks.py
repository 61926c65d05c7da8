"""One rule for a check a translator ignores (`# aids: ignore <check>`): what `aids check` lets through, the
build prints, and `--strict` accepts; what the build cannot print (a placeholder lost or invented), neither lets
through, whatever the comment says."""
from __future__ import annotations

import pytest

from aids.commands.cli import main
from aids.config import read_project
from aids.localize import po
from aids.localize.catalogs import po_path, read_catalog
from aids.pipeline import builder
from aids.pipeline.pipeline import Options

from .test_catalogs import comment, extract_update, translate

PLACE = "seq/prep/place"  # "Połóż żetony." in the demo game


def outcome(demo, capsys, translation: str, note: str = ""):
    """(what aids check says, the fallbacks of a build, whether a --strict build fails) for one translation."""
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    every = {e.getcontext(): po.msgid(e) for e in po.entries(read_catalog(path, str(path))) if not e.hasplural()}
    translate(path, {**every, PLACE: translation})  # the others as they are: only this entry may fall back
    if note:
        comment(path, PLACE, [note])
    capsys.readouterr()
    main(["--project", str(demo), "check", "--lang", "en", "--game", "demo"])
    checked = capsys.readouterr().out
    project = read_project(demo)
    summary = builder.build(project, Options(langs=["en"], formats=["html"]))
    fallbacks = [fb.text.context for found in summary.fallbacks.values() for fb in found]
    strict = builder.build(project, Options(langs=["en"], formats=["html"], force=True, strict=True))
    html = (demo / "build/demo/en/seq.html").read_text(encoding="utf-8")
    return checked, fallbacks, bool(strict.failed), html


def test_markup_a_translation_invents_is_refused_by_check_build_and_strict_alike(demo, capsys):
    checked, fallbacks, strict_failed, html = outcome(demo, capsys, "Place the *counters*.")
    assert "[markup] translation invents *emphasis*" in checked
    assert PLACE in fallbacks and strict_failed
    assert "Place the" not in html and "Połóż żetony." in html


def test_ignored_markup_is_used_by_the_build_and_strict_agrees(demo, capsys):
    checked, fallbacks, strict_failed, html = outcome(demo, capsys, "Place the *counters*.", "aids: ignore markup")
    assert "[markup]" not in checked
    assert PLACE not in fallbacks and not strict_failed
    assert "Place the" in html and "counters</em>." in html


def test_a_placeholder_cannot_be_ignored_by_either(demo, capsys):
    checked, fallbacks, strict_failed, html = outcome(demo, capsys, "Place the counters {ref:nowhere}.",
                                                      "aids: ignore placeholders")
    assert "[placeholders] translation invents {ref:nowhere}; not ignored: the build cannot print this " \
           "translation and prints the source text" in checked
    assert PLACE in fallbacks and strict_failed
    assert "nowhere" not in html


@pytest.fixture
def demo(tmp_path):
    from ..helpers import make_project
    return make_project(tmp_path)
