"""Time to read a source as it grows: a valid sequence of play of 0.5 to 4 MB, and the inputs refused.

    .venv/bin/python benchmarks/parse_source.py [--sizes 0.5,1,2,4]

For each size it generates a valid sequence source (phases of steps, every step with an id and a text,
like the samples) and times the two halves of reading it: YAML parsing with positions (ruamel.yaml, round
trip) and the sequence kind's model reading. It prints seconds, seconds per MB, and the ratio of each
size's time per MB to the smallest size's: a ratio near 1 means time proportional to size.

Then it times what the limits refuse: an alias bomb (9 levels of 9 aliases), a 20 MB file, and 20,000
nested brackets. Figures only: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from aids.config import read_project
from aids.errors import AidsError, Problems
from aids.kinds import registry
from aids.source.yamlfile import read_yaml

ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024


def sequence_source(size: int) -> str:
    """A valid sequence of about `size` bytes."""
    parts = ["kind: sequence\nid: big\ntitle: A long sequence of play\nphases:\n"]
    total, phase = len(parts[0]), 0
    while total < size:
        steps = "".join(
            f"      - id: s{step}\n"
            f"        text: Every unit of the side that holds initiative may move or fight, step {step}.\n"
            for step in range(20))
        part = f"  - id: p{phase}\n    title: Phase {phase}\n    steps:\n{steps}"
        parts.append(part)
        total += len(part)
        phase += 1
    return "".join(parts)


def alias_bomb() -> str:
    lines = ['a0: &a0 ["lol"]']
    for level in range(1, 10):
        refs = ", ".join([f"*a{level - 1}"] * 9)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "kind: sequence\nid: bomb\n" + "\n".join(lines) + "\nversion: *a9\n"


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    try:
        result: object = fn()
    except AidsError as exc:
        result = exc
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="0.5,1,2,4", help="sizes in MB, comma-separated")
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes.split(",")]

    project = read_project(ROOT)
    game = project.read_game("ostroleka-1831")
    kind = registry()["sequence"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sequence.yaml"
        print(f"{'MB':>5} {'parse s':>8} {'model s':>8} {'total s':>8} {'s/MB':>6} {'ratio':>6}")
        first = None
        for mb in sizes:
            path.write_text(sequence_source(int(mb * MB)), encoding="utf-8")
            real_mb = path.stat().st_size / MB
            parse, src = timed(lambda: read_yaml(path, "sequence.yaml"))
            assert not isinstance(src, AidsError), src
            problems = Problems()
            model, _ = timed(lambda: kind.read(src, game, problems))
            assert not problems, problems.items[:3]
            per_mb = (parse + model) / real_mb
            first = first or per_mb
            print(f"{real_mb:5.2f} {parse:8.2f} {model:8.2f} {parse + model:8.2f} {per_mb:6.2f} {per_mb / first:6.2f}")

        print("\nrefused:")
        cases = {
            "alias bomb (9 levels of 9)": alias_bomb(),
            "20 MB file": "x" * (20 * MB),
            "20,000 nested brackets": "a: " + "[" * 20000 + "]" * 20000 + "\n",
        }
        for name, text in cases.items():
            path.write_text(text, encoding="utf-8")
            seconds, result = timed(lambda: read_yaml(path, "sequence.yaml"))
            message = str(result).splitlines()[0] if isinstance(result, AidsError) else "ACCEPTED"
            print(f"  {name:<28} {seconds:6.3f} s  {message}")


if __name__ == "__main__":
    main()
