"""A build's progress (issue 35): a bar on a terminal, a line per aid written elsewhere, nothing with --quiet; on
stderr only, right in the build's own process, a pool of workers, a Dask cluster and the preview server."""
from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios
import threading

import pytest

from aids.commands import report
from aids.commands.cli import main
from aids.commands.serve import Preview
from aids.config import read_project
from aids.pipeline import builder, pipeline
from aids.pipeline.progress import Status

from .helpers import built_files
from .test_fast_builds import demo_project

UNITS = {"demo [cm] seq pl en ru", "demo [inch] seq pl en ru", "demo [cm] sheet pl en ru", "demo [inch] sheet pl en ru"}
LINE = re.compile(r"aids build: (\d+)/(\d+) (.+) written(, about \d+ (s|min) left)?")


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo game: a sequence and a playsheet, each in two editions (4 units of 3 languages: 12 jobs)."""
    return demo_project(tmp_path_factory.mktemp("progress"))


@pytest.fixture
def fresh(demo, tmp_path):
    """A copy of the demo project, never built."""
    shutil.copytree(demo, tmp_path / "project")
    return tmp_path / "project"


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.mark.unit
def test_not_on_a_terminal_a_line_per_aid_written_with_the_time_left():
    clock, log = Clock(), io.StringIO()
    progress = report.Progress(log, clock=clock)
    assert progress.mode == "lines"
    progress(Status(2, now=("g a pl",)))
    clock.now += 10
    progress(Status(2, now=("g b pl",), share=0.25))  # a quarter of the work in 10 s: 30 s to go
    progress(Status(2, written=1, last="g a pl", now=("g b pl",), share=0.25))
    clock.now += 20
    progress(Status(2, written=1, last="g a pl", share=1.0))
    progress(Status(2, written=2, last="g b pl", failed=1, share=1.0))
    assert log.getvalue() == "aids build: 1/2 g a pl written, about 30 s left\naids build: 2/2 g b pl failed\n"


@pytest.mark.unit
def test_quiet_is_silent():
    log = Terminal()
    progress = report.Progress(log, mode="quiet")
    for status in (Status(2, now=("g a pl",)), Status(2, written=1, last="g a pl", share=0.5),
                   Status(2, written=2, last="g b pl", share=1.0)):
        progress(status)
    progress.close()
    assert log.getvalue() == ""


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.unit
def test_on_a_terminal_the_bar_names_what_renders_now_and_the_time_left():
    clock, screen = Clock(), Terminal()
    progress = report.Progress(screen, clock=clock)
    assert progress.mode == "bar"
    progress(Status(3, now=("valmora-1809 [cm] turn-sequence pl", "lwow-1920 referee-card pl")))
    assert screen.getvalue().split("\r")[-1].rstrip().endswith(
        "| 0/3 aids: valmora-1809 [cm] turn-sequence pl (+1)")
    clock.now += 30
    progress(Status(3, written=1, last="valmora-1809 [cm] turn-sequence pl en ru", now=("lwow-1920 referee-card pl",),
                    share=0.6))
    assert screen.getvalue().split("\r")[-1].rstrip().endswith("| 1/3 aids, about 20 s left: lwow-1920 referee-card pl")
    clock.now += 5  # the time left counts down between two steps (a long booklet: a minute)
    assert progress.line(progress.status) == "aids, about 15 s left: lwow-1920 referee-card pl"
    progress(Status(3, written=2, last="lwow-1920 referee-card pl en ru", share=0.6))
    assert screen.getvalue().split("\r")[-1].rstrip().endswith("| 2/3 aids, about 15 s left: lwow-1920 referee-card pl en ru")
    progress(Status(3, written=3, last="valmora-1809 [inch] turn-sequence pl en ru", share=1.0))
    assert progress.bar.disable and screen.getvalue().endswith("\r")  # closed, its line cleared


def test_a_build_on_a_terminal_draws_a_bar_in_place_within_the_width(fresh):
    """A real terminal (a pty) on stderr, stdout a pipe: the bar redrawn in place, no wider than the terminal, then
    gone; stdout holds the summary only."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 60, 0, 0))  # 24 lines of 60 columns
    process = subprocess.Popen([sys.executable, "-m", "aids", "--project", str(fresh), "build", "--format", "html",
                                "--jobs", "2"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    chunks: list[bytes] = []

    def read():
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: the terminal's other end closed
                return
            if not data:
                return
            chunks.append(data)
    reader = threading.Thread(target=read)
    reader.start()
    out = process.communicate(timeout=300)[0].decode()
    reader.join(10)
    os.close(master)
    screen = b"".join(chunks).decode()
    assert process.returncode == 0, screen
    drawn = [part for part in re.split(r"[\r\n]", screen) if part.strip()]
    steps = {int(found[1]) for part in drawn if (found := re.search(r"\| (\d)/4 aids", part))}
    assert steps == {0, 1, 2, 3, 4}, drawn
    assert any(re.search(r"\d/4 aids, about \d+ s left: demo \[(cm|inch)\] (seq|sheet) (pl|en|ru)", p) for p in drawn)
    assert all(len(part.rstrip()) <= 60 for part in drawn), drawn
    assert screen.endswith("\r") and screen.split("\r")[-2].strip() == ""  # the bar's line cleared at the end
    assert "\r" not in out and "aids build:" not in out and out.splitlines()[-1].startswith("12 file(s) written")


def test_not_on_a_terminal_a_line_per_aid_on_stderr_and_the_same_files_as_quiet(fresh, tmp_path, capsys):
    quiet = tmp_path / "quiet"
    shutil.copytree(fresh, quiet)
    assert main(["--project", str(fresh), "build", "--format", "html"]) == 0
    said = capsys.readouterr()
    lines = said.err.splitlines()
    found = [LINE.fullmatch(line) for line in lines]
    assert all(found), lines
    assert [(int(f[1]), int(f[2])) for f in found if f] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert {f[3] for f in found if f} == UNITS and not found[-1][4]  # type: ignore[index]
    assert "aids build:" not in said.out
    assert main(["--project", str(quiet), "build", "--format", "html", "--quiet"]) == 0
    silent = capsys.readouterr()
    assert silent.err == "" and silent.out.splitlines()[-1].startswith("12 file(s) written")
    assert {p.relative_to(fresh): d for p, d in built_files(fresh / "build").items()} == \
        {p.relative_to(quiet): d for p, d in built_files(quiet / "build").items()}


def statuses_of(root, **options) -> list[Status]:
    seen: list[Status] = []
    summary = builder.build(read_project(root), pipeline.Options(formats=["html"], **options), progress=seen.append)
    assert not summary.failed and len(summary.built) == 12
    return seen


def consistent(seen: list[Status], slots: int) -> None:
    """Every aid written once, in steps of one; the share of the work done grows to 1; what is named as rendering
    is a job of an aid not written yet, as many as run at once."""
    jobs = {f"{' '.join(unit.split()[:3])} {lang}" for unit in UNITS for lang in ("pl", "en", "ru")}
    assert {s.total for s in seen} == {4}
    assert [s.written for s in seen] == sorted(s.written for s in seen) and seen[-1].written == 4
    assert {s.last for s in seen} - {""} == UNITS
    assert [s.share for s in seen] == sorted(s.share for s in seen) and seen[-1].share == 1.0
    assert max(len(s.now) for s in seen) == min(slots, 12) and seen[-1].now == ()
    for s in seen:
        assert set(s.now) <= jobs
        assert not any(job.startswith(" ".join(unit.split()[:3]) + " ") for job in s.now
                       for unit in [s.last] if s.written == 4)


def test_in_the_builds_own_process_what_renders_is_exactly_the_job_named(fresh):
    seen = statuses_of(fresh, jobs=1)
    consistent(seen, 1)
    # each job done (the share grew) was the one named as rendering just before
    done = [before.now[0] for before, after in zip(seen, seen[1:], strict=False) if after.share > before.share]
    assert len(done) == 12 and len(set(done)) == 12


def test_in_a_pool_of_workers(fresh):
    consistent(statuses_of(fresh, jobs=2), 2)


def test_on_a_dask_cluster(fresh):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        consistent(statuses_of(fresh, scheduler=cluster.scheduler_address), 2)


def test_the_preview_server_says_each_aid_of_a_build_of_several(fresh):
    preview = Preview(fresh, None, ["en"])
    said: list[str] = []
    preview.say = said.append
    preview.rebuild()
    steps = [line for line in said if re.fullmatch(r"  \d/4 demo \[(cm|inch)\] (seq|sheet) en written(, .*)?", line)]
    assert len(steps) == 4 and steps[-1].startswith("  4/4 "), said
    (fresh / "games/demo/sequence.yaml").write_text(
        (fresh / "games/demo/sequence.yaml").read_text(encoding="utf-8").replace("Połóż", "Postaw"), encoding="utf-8")
    said.clear()
    preview.rebuild([fresh / "games/demo/sequence.yaml"])  # the sequence in two editions: 2 units
    assert [line for line in said if " written" in line and line.startswith("  ")] != []
    assert all(" written" not in line or line.startswith("  ") for line in said)


def test_an_aid_that_fails_is_said_to_fail(fresh, capsys):
    """--strict: every aid falls back to the source language somewhere, so none is written."""
    assert main(["--project", str(fresh), "build", "--format", "html", "--strict"]) == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("aids build: ")]
    assert len(lines) == 4 and all(re.fullmatch(r"aids build: \d/4 .+ failed(, about .*)?", line) for line in lines)
