"""`aids build --shard K/N` on the samples: the split by the cache's times against the former split by name.

    .venv/bin/python benchmarks/shards.py [--shards 2] [--jobs 1]

On a scratch copy of the samples (the repository's build/ is not touched), through the real `aids` command:
  - a cold build, which records each job's time in the build cache;
  - per shard, the summed recorded cost of its units, split by those times (aids/pipeline/shards.py: longest first,
    into the shard that costs least so far) and as the former split did (a unit's name hashed, modulo N);
  - each shard run for real from a copy of that output folder (`cp -r`: a restored CI cache) with --force,
    wall time, and the line it reports of its share;
  - the shards' output folders merged by copying, and a plain build of the merge: the aids it rendered (none)
    and its time (the site and the search index only).
Figures only: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from samples import scratch  # benchmarks/samples.py (a script's own folder is on sys.path)

from aids.config import read_project
from aids.pipeline import builder, pipeline, shards
from aids.write.cache import Cache

AIDS = [sys.executable, "-m", "aids"]



def aids(root: Path, *args: str) -> tuple[float, str]:
    start = time.perf_counter()
    run = subprocess.run([*AIDS, "--project", str(root), *args], check=True, capture_output=True, text=True)
    return time.perf_counter() - start, run.stdout + run.stderr


def by_name(unit: pipeline.Unit, n: int) -> int:
    """The shard (0-based) the former split gave a unit: its name hashed."""
    key = f"{unit.game.id}/{unit.edition.id if unit.edition else ''}/{unit.aid.model.id}".encode()
    return int(hashlib.sha256(key).hexdigest(), 16) % n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shards", type=int, default=2)
    parser.add_argument("--jobs", default="1", help="--jobs of each build (default 1: times add up)")
    args = parser.parse_args()
    n = args.shards
    with tempfile.TemporaryDirectory() as tmp:
        root = scratch(Path(tmp))
        cold, _ = aids(root, "build", "--jobs", args.jobs)
        print(f"cold build: {cold:.1f} s")
        project = read_project(root)
        plan = pipeline.plan_build(project, pipeline.Options(), pipeline.Summary())
        cost = shards.recorded(Cache(project.output), plan.langs, builder.WEIGHT)
        total = sum(cost(u) for u in plan.units)
        print(f"{len(plan.units)} units (an aid in an edition), {total:.1f} s of jobs recorded")
        former = [sum(cost(u) for u in plan.units if by_name(u, n) == k) for k in range(n)]
        split = [sum(cost(u) for u in part) for part in shards.split(plan.units, n, cost)]
        for label, loads in (("by name (former)", former), ("by cost", split)):
            print(f"  {label:18} " + " / ".join(f"{load:5.1f} s" for load in loads)
                  + f"   largest {max(loads) / (total / n):.2f} x an even share")
        merged = Path(tmp) / "merged"
        shutil.copytree(root, merged, ignore=shutil.ignore_patterns("build"))
        for k in range(1, n + 1):
            shard = Path(tmp) / f"shard{k}"
            shutil.copytree(root, shard, copy_function=shutil.copyfile)  # the restored cache, as `cp -r` makes it
            seconds, said = aids(shard, "build", "--shard", f"{k}/{n}", "--force", "--jobs", args.jobs)
            line = next((ln.split(": ", 1)[1] for ln in said.splitlines() if f"shard {k}/{n} builds" in ln), "")
            print(f"  shard {k}/{n} --force: {seconds:5.1f} s   {line}")
            shutil.copytree(shard / "build", merged / "build", dirs_exist_ok=True, copy_function=shutil.copyfile)
        seconds, said = aids(merged, "build", "--jobs", args.jobs)
        last = [ln for ln in said.splitlines() if "file(s) written" in ln]
        print(f"  build of the merge: {seconds:5.1f} s   {last[-1].strip() if last else ''}")


if __name__ == "__main__":
    main()
