"""What a build costs, each figure against its baseline, in one run (issue 30's ratios).

    .venv/bin/python benchmarks/costs.py [--rounds 3] [--games 20] [--pages 300] [--skip-booklet] [--skip-preview]

Through the real `aids` command, on scratch copies of the samples (the repository's build/ is not touched):
  - no-op against cold on the samples: `aids build --force` (every aid rendered) and `aids build` with nothing
    changed, timed in pairs (cold, no-op, cold, no-op, ...) over --rounds rounds: the median no-op/cold ratio and
    its spread, the pairs' ratios being taken one by one, so that a machine busy for a while weighs on both;
  - the same on a catalogue of --games games (the samples' games copied under other ids, with their catalogs and
    releases);
  - one edit against cold (benchmarks/edits.py's edits of gcacw): one English msgstr, one booklet paragraph; the
    median of --rounds rounds, its ratio to the median cold build, and the files each rewrote;
  - shards: the recorded cost of each of two shards, split longest first, against an even share;
  - a big booklet (benchmarks/booklet.py): aids against raw WeasyPrint on the same HTML, cold and one paragraph
    edited;
  - the preview (benchmarks/preview.py): from a save to the new PDF of the language looked at.
Figures only: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from edits import EDITS, times  # benchmarks/*.py: a script's own folder is on sys.path
from samples import scratch

AIDS = [sys.executable, "-m", "aids"]


def aids(root: Path, *args: str) -> float:
    """`aids --project root ...`, its wall time; a failure ends the benchmark with what it said."""
    start = time.perf_counter()
    # run from the project: `-m` puts the working folder first on the path, where an aids tree would win
    run = subprocess.run([*AIDS, "--project", str(root), *args], capture_output=True, text=True, cwd=root)
    if run.returncode or " 0 aid(s) failed" not in run.stdout:
        sys.exit(f"aids {' '.join(args)} failed in {root}:\n{run.stdout}{run.stderr}")
    return time.perf_counter() - start


def spread(values: list[float]) -> str:
    return f"median {statistics.median(values):.3f} (spread {min(values):.3f} - {max(values):.3f})"


def cold_and_noop(root: Path, rounds: int) -> tuple[list[float], list[float]]:
    """`aids build --force` then `aids build`, `rounds` times: their times."""
    aids(root, "build")  # the first build: the cache of its jobs' times
    colds, noops = [], []
    for _ in range(rounds):
        colds.append(aids(root, "build", "--force"))
        noops.append(aids(root, "build"))
    return colds, noops


def catalogue(into: Path, games: int) -> Path:
    """The samples' games, copied under other ids (`<game>-2`, ...) until there are `games` of them."""
    root = scratch(into)
    samples = sorted(p.name for p in (root / "games").iterdir() if (p / "game.yaml").is_file())
    copy = 2
    while len(list((root / "games").iterdir())) < games:
        for game in samples[:games - len(list((root / "games").iterdir()))]:
            other = f"{game}-{copy}"
            shutil.copytree(root / "games" / game, root / "games" / other)
            for path in [root / "games" / other / "game.yaml", *(root / "games" / other / "releases").glob("*.yaml")]:
                path.write_text(re.sub(rf"^(id|game): {game}$", rf"\1: {other}", path.read_text(encoding="utf-8"),
                                       flags=re.M), encoding="utf-8")
            for po in (root / "i18n").glob(f"*/LC_MESSAGES/{game}.po"):
                shutil.copyfile(po, po.with_name(f"{other}.po"))
            shutil.copyfile(root / "i18n/templates" / f"{game}.pot", root / "i18n/templates" / f"{other}.pot")
        copy += 1
    return root


def report_noop(label: str, colds: list[float], noops: list[float]) -> None:
    ratios = [n / c for c, n in zip(colds, noops)]
    print(f"{label}: cold {spread(colds)} s, no-op {spread(noops)} s")
    print(f"  no-op / cold: {spread(ratios)}   (goal: under 0.05)")


def edits(root: Path, rounds: int, cold: float) -> None:
    for name, edit in EDITS.items():
        seconds, files = [], []
        for n in range(1, rounds + 1):
            edit(root, n)
            before = times(root)
            seconds.append(aids(root, "build"))
            files.append(sum(1 for p, t in times(root).items() if before.get(p) != t))
        print(f"edit {name}: {spread(seconds)} s, {statistics.median(seconds) / cold:.3f} of the median cold build; "
              f"files rewritten: median {statistics.median(files):g} ({min(files)} - {max(files)})")


def shards(root: Path) -> None:
    from aids.config import read_project
    from aids.pipeline import builder, pipeline
    from aids.pipeline import shards as split
    from aids.write.cache import Cache
    project = read_project(root)
    plan = pipeline.plan_build(project, pipeline.Options(), pipeline.Summary())
    cost = split.recorded(Cache(project.output), plan.langs, builder.WEIGHT)
    total = sum(cost(u) for u in plan.units)
    loads = [sum(cost(u) for u in part) for part in split.split(plan.units, 2, cost)]
    print(f"shards 1/2, 2/2 by recorded cost: {' / '.join(f'{load:.1f} s' for load in loads)} of {total:.1f} s; "
          f"the largest {max(loads) / (total / 2):.2f} x an even share")


def script(name: str, *args: str) -> None:
    """Another benchmark of this folder, its figures printed as they come."""
    print(f"--- benchmarks/{name} {' '.join(args)}", flush=True)
    subprocess.run([sys.executable, str(Path(__file__).parent / name), *args], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--skip-booklet", action="store_true")
    parser.add_argument("--skip-preview", action="store_true")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, {args.rounds} rounds; "
          f"load {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        root = scratch(Path(tmp) / "samples")
        colds, noops = cold_and_noop(root, args.rounds)
        report_noop("samples", colds, noops)
        shards(root)
        edits(root, args.rounds, statistics.median(colds))
        big = catalogue(Path(tmp) / "catalogue", args.games)
        report_noop(f"catalogue of {args.games} games", *cold_and_noop(big, max(2, args.rounds - 1)))
    if not args.skip_booklet:
        script("booklet.py", "--pages", str(args.pages), "--style", "varied", "--rounds", str(args.rounds))
    if not args.skip_preview and (Path(__file__).parent / "preview.py").is_file():
        script("preview.py", "--rounds", str(max(3, args.rounds)))


if __name__ == "__main__":
    main()
