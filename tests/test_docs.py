"""The documentation: the README is a front door, the MkDocs site builds with --strict (no broken link, no page
left out of the navigation), its reference pages are made from the code, and every shell command the README
and the guides show runs, as shown, on a scratch project, so the docs cannot rot."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import REPO

PAGES = sorted([REPO / "README.md", *(REPO / "docs").rglob("*.md")])
BLOCK = re.compile(r"(?:^<!-- test: (?P<mark>[^\n]*?) -->\n)?^```(?P<lang>sh|bash|shell)\n(?P<code>.*?)^```", re.M | re.S)
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


def blocks(page: Path) -> list[tuple[str, str]]:
    """(mark, code) of every shell block of a page, in order; mark: "" (run), "samples" (run in a copy of the
    built samples) or "skip (why)"."""
    return [(m["mark"] or "", m["code"]) for m in BLOCK.finditer(page.read_text(encoding="utf-8"))]


@pytest.mark.unit
def test_the_readme_is_a_front_door():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    for heading in ("## Install", "## Set up this repository", "## Five minutes with aids", "## Documentation"):
        assert heading in readme
    assert readme.count("./bootstrap ") >= 2  # the two set-up commands


@pytest.mark.parametrize("page", [REPO / "README.md"], ids=["README"])
@pytest.mark.unit
def test_every_local_link_of_the_readme_leads_somewhere(page):
    for target, _ in LINK.findall(page.read_text(encoding="utf-8")):
        if "://" not in target:
            assert (page.parent / target).exists(), target


@pytest.mark.unit
def test_every_shell_block_is_run_or_says_why_not():
    for page in PAGES:
        for mark, code in blocks(page):
            assert mark in ("", "samples") or re.fullmatch(r"skip \(.{20,}\)", mark), (page, mark, code)
            if mark.startswith("skip"):
                tested = re.findall(r"tests/[\w/.-]+", mark)
                assert all((REPO / t).exists() for t in tested), (page, mark)


def test_the_documentation_site_builds_strictly(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=REPO,
                          capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert not re.search(r"^WARNING", done.stderr, re.M), done.stderr
    cli = (site / "reference/cli/index.html").read_text(encoding="utf-8")
    assert "aids build" in cli and "--marks" in cli and "--since" in cli
    sources = (site / "reference/sources/index.html").read_text(encoding="utf-8")
    assert "min_font_size" in sources and "source_language" in sources
    errors = (site / "reference/errors/index.html").read_text(encoding="utf-8")
    # a worked example's message is what aids printed, positioned
    assert "referee-card.yaml:11:1: unknown field &#39;font_sise&#39; in card" in errors \
        or "referee-card.yaml:11:1: unknown field 'font_sise' in card" in errors
    assert "(nothing printed)" not in errors and "exit status 0" not in errors
    assert "Benchmarks" in (site / "development/benchmarks/index.html").read_text(encoding="utf-8")
    for page in PAGES:
        if page.name != "README.md" and "development/weasyprint-" not in page.as_posix():
            built = site / page.relative_to(REPO / "docs").with_suffix("")
            assert (built / "index.html").exists() or (site / "index.html").exists(), page


def test_every_message_the_code_reports_is_in_the_reference():
    from aids.commands import reference
    found = reference.messages()
    assert len(found) > 250
    texts = [m.message for m in found]
    assert "unknown field '{key}' in {what}" in texts  # a Problems.add
    assert any(t.startswith("malformed catalog") for t in texts)  # a Problem


def _page_script(page: Path) -> tuple[str, bool]:
    runnable = [(mark, code) for mark, code in blocks(page) if not mark.startswith("skip")]
    return "\n".join(code for _, code in runnable), any(mark == "samples" for mark, _ in runnable)


RUN = [page for page in PAGES if _page_script(page)[0]]


@pytest.mark.parametrize("page", RUN, ids=[p.relative_to(REPO).as_posix() for p in RUN])
def test_the_commands_of_a_page_run_as_shown(page, tmp_path, sample):
    """A page's shell blocks, in order, in one shell (a `cd` carries over), stopping at the first failure: in
    an empty folder, or in a copy of the built samples where a block is marked so."""
    script, on_samples = _page_script(page)
    work = tmp_path / "work"
    if on_samples:
        shutil.copytree(sample[0].root, work, symlinks=True)
    else:
        work.mkdir()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=work, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"{page}:\n{script}\n--- stdout\n{done.stdout[-2000:]}\n--- stderr\n{done.stderr[-2000:]}"
