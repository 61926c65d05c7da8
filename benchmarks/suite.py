"""What the test suite costs, as CI runs it: per layer, per module, per worker, and the CPU left idle.

    .venv/bin/python benchmarks/suite.py [--top 25] [-- PYTEST ARGS...]

Runs `pytest -q -n auto --dist loadgroup --no-loadscope-reorder` (the test command of ./bootstrap, without its
set-up, ruff and mypy) with this file as a pytest plugin: each test's start and end, worker and layer
(tests/layers.py) are written to a folder of the run, and the machine's idle CPU is read from /proc/stat before
and after. Then it prints the whole run's wall time, each layer's tests and time summed over the workers, when
each worker ended (a worker that ends long before the other is a tail to cut), the idle share of the CPU, and the
modules that took longest. Figures only: nothing here asserts a time. On a shared machine, run it when quiet.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RECORDS = "AIDS_SUITE_RECORDS"  # the folder the plugin writes each worker's tests to


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    """A test's start, end and layer, written as the test ends, a line in its worker's file."""
    start = time.time()
    try:
        return (yield)
    finally:
        from tests.layers import LAYER
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(Path(os.environ[RECORDS]) / f"{worker}.jsonl", "a", encoding="utf-8") as out:
            out.write(json.dumps({"id": item.nodeid, "layer": item.stash.get(LAYER, None), "start": start,
                                  "end": time.time()}) + "\n")


def idle_jiffies() -> tuple[int, int]:
    """(idle, total) CPU time of the machine since boot, in clock ticks (/proc/stat)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return fields[3] + fields[4], sum(fields)


def report(folder: Path, wall: float, idle: float | None, top: int) -> None:
    rows = [json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.read_text().splitlines()]
    if not rows:
        print("no test ran")
        return
    first = min(r["start"] for r in rows)
    print(f"{len(rows)} tests, {wall:.0f} s of wall time (the first test to the last: "
          f"{max(r['end'] for r in rows) - first:.0f} s)" + (f"; {idle:.0%} of the CPU idle" if idle is not None
                                                              else ""))
    layers: dict[str, list[float]] = collections.defaultdict(list)
    for r in rows:
        layers[r["layer"] or "?"].append(r["end"] - r["start"])
    for layer in ("unit", "integration", "system", "?"):
        if layer in layers:
            print(f"  {layer}: {len(layers[layer])} tests, {sum(layers[layer]):.0f} s summed over the workers")
    for path in sorted(folder.glob("*.jsonl")):
        ends = [json.loads(line)["end"] for line in path.read_text().splitlines()]
        print(f"  worker {path.stem}: {len(ends)} tests, its last ended at {max(ends) - first:.0f} s")
    modules: collections.Counter[str] = collections.Counter()
    for r in rows:
        modules[r["id"].split("::")[0]] += r["end"] - r["start"]
    print(f"the {top} longest modules (seconds summed over the workers):")
    for module, seconds in modules.most_common(top):
        print(f"  {seconds:7.1f}  {module}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=25, help="how many modules to list")
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest (after --)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="aids-suite-") as records:
        env = {**os.environ, RECORDS: records,
               "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))}
        idle0, total0 = idle_jiffies()
        start = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "auto", "--dist", "loadgroup",
                               "--no-loadscope-reorder", "-p", Path(__file__).stem, *args.pytest_args], cwd=REPO,
                              env=env)
        wall = time.monotonic() - start
        idle1, total1 = idle_jiffies()
        report(Path(records), wall, (idle1 - idle0) / max(total1 - total0, 1), args.top)
    sys.exit(done.returncode)


if __name__ == "__main__":
    main()
