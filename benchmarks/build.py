"""Build speed, as a user meets it: cold, parallel, no-op, one edit, start-up, fitting, a big booklet.

    .venv/bin/python benchmarks/build.py [--pages 300] [--skip-booklet] [--repeat 2]

Everything runs on a scratch copy of the samples (the repository's build/ is not touched), through the
real `aids` command. It prints:
  - a cold build (--force) with --jobs 1 and with one worker a core, best of --repeat, wall time and
    their ratio (and whether the two gave the same bytes);
  - a no-op build, and its share of the cold one;
  - edit to PDF: one msgstr of the Ostrołęka sequence changed, then `aids build --lang en`;
  - layouts per fitted output (playsheets, cards, booklets with a page goal), the type size each settled on;
  - `aids --help`, median of 11 runs;
  - peak memory (RSS) of the builds;
  - a generated booklet of about --pages pages through aids and through raw WeasyPrint on the same HTML and
    stylesheet (benchmarks/booklet.py: time, peak memory, page layouts, and its page references checked).
Figures only: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from samples import scratch  # benchmarks/samples.py (a script's own folder is on sys.path)

AIDS = [sys.executable, "-m", "aids"]



def aids(root: Path, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run([*AIDS, "--project", str(root), *args], check=True, capture_output=True)
    return time.perf_counter() - start


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and ".aids-cache" not in path.parts:
            h.update(str(path.relative_to(folder)).encode() + path.read_bytes())
    return h.hexdigest()


def builds(tmp: Path, repeat: int) -> None:
    root = scratch(tmp)
    serial = min(aids(root, "build", "--jobs", "1", "--force") for _ in range(repeat))
    serial_bytes = digest(root / "build")
    parallel = min(aids(root, "build", "--force") for _ in range(repeat))
    same = digest(root / "build") == serial_bytes
    noop = aids(root, "build")
    cores = os.cpu_count()
    print(f"cold build, --jobs 1:         {serial:6.2f} s")
    print(f"cold build, {cores} workers:       {parallel:6.2f} s   {serial / parallel:.2f}x   same bytes: {same}")
    print(f"no-op build:                  {noop:6.2f} s   {noop / serial:.1%} of the cold build")

    po = root / "i18n/en/LC_MESSAGES/ostroleka-1831.po"
    text = po.read_text(encoding="utf-8")
    at = text.index('msgstr "', text.index('\nmsgctxt "sequence-of-play"')) + len('msgstr "')  # its title
    po.write_text(text[:at] + "≈ " + text[at:], encoding="utf-8")
    pdf = root / "build/ostroleka-1831/en/sequence-of-play.pdf"
    before = pdf.stat().st_mtime_ns
    edit = aids(root, "build", "--lang", "en")
    print(f"edit to PDF (one msgstr, en): {edit:6.2f} s   PDF rewritten: {pdf.stat().st_mtime_ns != before}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory of a build:       {peak:6.0f} MB (largest process)")
    fitting(root)


def fitting(root: Path) -> None:
    from aids.config import read_project
    from aids.kinds import reading
    from aids.localize import making
    from aids.pipeline import pipeline

    project = read_project(root)
    print("layouts per fitted output:")
    for game_id in project.game_ids():
        game = project.read_game(game_id)
        aids_, _ = reading.read_aids(project, game)
        for aid in aids_:
            if aid.kind.name not in ("playsheet", "card") and not getattr(aid.model, "pages", None):
                continue  # a booklet with a page goal is fitted too
            for edition in game.editions or [None]:
                for lang in project.languages:
                    lz = making.localizer(project, game, lang)
                    rendered = pipeline.render(pipeline.document(game, aid, lz, edition), ["pdf"])
                    for suffix, item in rendered.items():
                        where = f"{game_id} {aid.model.id}{suffix} {edition.id if edition else ''} {lang}"
                        print(f"  {where:<52} {item.renders} layout(s)  {'; '.join(item.notes)}")


def help_time() -> None:
    times = []
    for _ in range(11):
        start = time.perf_counter()
        subprocess.run([*AIDS, "--help"], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    print(f"aids --help:                  {statistics.median(times):6.3f} s (median of 11)")


def booklet(pages: int) -> None:
    """The big booklet through aids and through raw WeasyPrint: benchmarks/booklet.py, which prints its figures."""
    subprocess.run([sys.executable, str(Path(__file__).with_name("booklet.py")), "--pages", str(pages)], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--skip-booklet", action="store_true")
    parser.add_argument("--repeat", type=int, default=2, help="cold builds timed, best of N (default 2)")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    help_time()
    with tempfile.TemporaryDirectory() as tmp:
        builds(Path(tmp), args.repeat)
    if not args.skip_booklet:
        booklet(args.pages)


if __name__ == "__main__":
    main()
