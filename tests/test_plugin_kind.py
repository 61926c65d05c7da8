"""A kind of aid from another package: one module and one template, registered through the `aids.kinds`
entry point, extracted, translated and built to HTML and PDF with nothing of aids edited; and an output format
of that package, registered through `aids.formats`, built by `aids build --format`."""
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from aids.localize import po
from aids.localize.catalogs import read_catalog

from .helpers import REPO, make_project, pdf_text

PLUGIN = REPO / "tests" / "plugins" / "counter-sheet"
GAME = """\
id: demo
title: Gra próbna
version: "1"
published: 2021-03-04
source_language: pl
aids: [counters.yaml]
"""
COUNTERS = """\
kind: counter-sheet
id: counters
title: Żetony
columns: 2
counters:
  - {id: guard, name: Gwardia, value: 6}
  - {id: militia, name: Pospolite ruszenie, value: 2.5}
"""


def aids(root, site, *args):
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONWARNINGS": "ignore"}
    return subprocess.run([sys.executable, "-m", "aids", *args], cwd=root, capture_output=True, text=True, env=env)


def test_a_kind_from_another_package_builds_with_catalogs(tmp_path):
    # the package as a user would have it: built as a wheel and installed (unpacked) where Python finds it
    assert sorted(str(p.relative_to(PLUGIN)) for p in PLUGIN.rglob("*") if p.is_file() and "__pycache__" not in
                  p.parts) == ["aids_counter_sheet/__init__.py", "aids_counter_sheet/counter-sheet.html",
                               "pyproject.toml"]
    source = tmp_path / "counter-sheet"  # built from a copy: setuptools writes its egg-info beside the sources
    shutil.copytree(PLUGIN, source, ignore=shutil.ignore_patterns("__pycache__"))
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)],
                   check=True, capture_output=True)
    site = tmp_path / "site"
    zipfile.ZipFile(next(wheels.glob("aids_counter_sheet-*.whl"))).extractall(site)
    root = make_project(tmp_path / "project", {"games/demo/game.yaml": GAME, "games/demo/counters.yaml": COUNTERS})
    (root / "games/demo/sequence.yaml").unlink()

    # without the package, the kind is unknown; with it, the catalogs hold its texts
    assert "unknown aid kind 'counter-sheet'" in aids(root, tmp_path / "nowhere", "extract").stderr
    assert aids(root, site, "extract").returncode == 0 and aids(root, site, "update").returncode == 0
    catalog = root / "i18n/en/LC_MESSAGES/demo.po"
    entries = read_catalog(catalog, "en.po")
    assert {po.key(e) for e in po.entries(entries)} >= {("counters/title", "Żetony"), ("counters/guard", "Gwardia"),
                                                       ("counters/militia", "Pospolite ruszenie")}
    english = {"counters/title": "Counters", "counters/guard": "Guard", "counters/militia": "Militia"}
    for entry in po.entries(entries):
        entry.target = english.get(entry.getcontext(), "")
    po.save(catalog, entries)

    done = aids(root, site, "build", "--lang", "en", "--lang", "pl")
    assert done.returncode == 0, done.stderr
    html = (root / "build/demo/en/counters.html").read_text(encoding="utf-8")
    assert '<span class="name">Militia</span> <span class="value">2.5</span>' in html
    assert '<span class="name">Pospolite ruszenie</span> <span class="value">2,5</span>' in \
        (root / "build/demo/pl/counters.html").read_text(encoding="utf-8")
    text = pdf_text(root / "build/demo/en/counters.pdf")
    assert "Counters" in text and "Guard" in text and "2.5" in text

    # a format of the package: listed, built through --format like aids' own, cached like them
    assert "text           any aid's page as plain text" in aids(root, site, "formats").stdout
    assert "invalid choice: 'text'" in aids(root, tmp_path / "nowhere", "build", "--format", "text").stderr
    done = aids(root, site, "build", "--lang", "en", "--lang", "pl", "--format", "text")
    assert done.returncode == 0 and "2 file(s) written" in done.stdout, done.stdout + done.stderr
    assert "Militia 2.5" in (root / "build/demo/en/counters.txt").read_text(encoding="utf-8").splitlines()
    assert "Pospolite ruszenie 2,5" in (root / "build/demo/pl/counters.txt").read_text(encoding="utf-8")
    again = aids(root, site, "build", "--lang", "en", "--lang", "pl", "--format", "text")
    assert "0 file(s) written, 2 up to date" in again.stdout, again.stdout


@pytest.mark.unit
def test_aids_itself_knows_nothing_of_the_kind():
    mentions = [str(p.relative_to(REPO)) for p in (REPO / "aids").rglob("*.py")
                if "counter-sheet" in p.read_text(encoding="utf-8") or "counter_sheet" in p.read_text(encoding="utf-8")]
    assert mentions == []
