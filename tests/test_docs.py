"""The documentation: the README is a front door, the MkDocs site builds with --strict (no broken link, no page
left out of the navigation), its reference pages are made from the code, and every shell command the README
and the guides show runs, as shown, on a scratch project, so the docs cannot rot."""
from __future__ import annotations

import hashlib
import os
import re
import shlex
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


def _runnable(page: Path) -> list[tuple[str, str]]:
    return [(mark, code) for mark, code in blocks(page) if not mark.startswith("skip")]


def _page_script(page: Path) -> tuple[str, bool]:
    runnable = _runnable(page)
    return "\n".join(code for _, code in runnable), any(mark == "samples" for mark, _ in runnable)


RUN = [page for page in PAGES if _page_script(page)[0]]
# shell state a block could leave besides its folder and working directory (a variable, an option, a function):
# blocks that may are never run once for two pages, whose later blocks would not find it
SHELL_STATE = re.compile(r"^\s*(export|alias|set|shopt|source|\.|function|declare|readonly|pushd)\s|^\s*[A-Za-z_]\w*=|"
                         r"^\s*[\w-]+\s*\(\)", re.M)


def shared_blocks(page: Path) -> int:
    """How many of the page's first runnable blocks another page begins with too, from the same start (an empty
    folder, or the built samples): the state they leave is made once for both (test_the_commands_of_a_page...)."""
    mine, on_samples = _runnable(page), _page_script(page)[1]
    most = 0
    for other in RUN:
        theirs = _runnable(other)
        if other == page or _page_script(other)[1] != on_samples:
            continue
        same = next((n for n, pair in enumerate(zip(mine, theirs)) if pair[0] != pair[1]), min(len(mine), len(theirs)))
        most = max(most, same)
    while most and any(SHELL_STATE.search(code) for _, code in mine[:most]):
        most -= 1
    return most


def _run_script(script: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


def _ran(page: Path, script: str, done: subprocess.CompletedProcess) -> str:
    return f"{page}:\n{script}\n--- stdout\n{done.stdout[-2000:]}\n--- stderr\n{done.stderr[-2000:]}"


def _start(work: Path, on_samples: bool, sample) -> None:
    """The folder a page's first block runs in: empty, or a copy of the built samples."""
    if on_samples:
        shutil.copytree(sample[0].root, work, symlinks=True)
    else:
        work.mkdir()


@pytest.fixture(scope="session")
def page_prefix(request, sample):
    """`made(page, count)`: the folder and working directory (from the folder) the page's first `count` runnable
    blocks leave, run in one shell as the page's test runs them, once for the whole run (tests/layers.shared):
    the pages that begin with the same blocks continue from copies of it."""
    from .layers import shared

    def made(page: Path, count: int) -> tuple[Path, str]:
        prefix, on_samples = "\n".join(code for _, code in _runnable(page)[:count]), _page_script(page)[1]

        def run(folder: Path) -> str:
            work, where = folder / "work", folder / "cwd"
            _start(work, on_samples, sample)
            done = _run_script(f'{prefix}\nprintf %s "$PWD" > {shlex.quote(str(where))}', work)
            assert done.returncode == 0, _ran(page, prefix, done)
            cwd = Path(where.read_text(encoding="utf-8")).resolve().relative_to(work.resolve()).as_posix()
            where.unlink()
            return cwd
        digest = hashlib.sha256(f"{on_samples}\0{prefix}".encode()).hexdigest()[:16]
        folder, cwd = shared(request, f"page-blocks-{digest}", run)
        return folder / "work", cwd
    return made


@pytest.mark.parametrize("page", RUN, ids=[p.relative_to(REPO).as_posix() for p in RUN])
def test_the_commands_of_a_page_run_as_shown(page, tmp_path, sample, page_prefix):
    """A page's shell blocks, in order, in one shell (a `cd` carries over), stopping at the first failure: in
    an empty folder, or in a copy of the built samples where a block is marked so. The first blocks another
    page begins with too are run once for both: this page's others run on a copy of the folder they left, in
    the directory they left the shell in (they set nothing else in it: SHELL_STATE)."""
    script, on_samples = _page_script(page)
    work, count = tmp_path / "work", shared_blocks(page)
    if count:
        made, cwd = page_prefix(page, count)
        shutil.copytree(made, work, symlinks=True)
        script = "\n".join(code for _, code in _runnable(page)[count:])
    else:
        _start(work, on_samples, sample)
        cwd = "."
    done = _run_script(script, work / cwd)
    assert done.returncode == 0, _ran(page, script, done)
