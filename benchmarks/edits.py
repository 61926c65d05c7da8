"""Edit to output: what one edit of the samples costs `aids build`, and how many files it rewrites.

    .venv/bin/python benchmarks/edits.py [--rounds 5] [--before OTHER/.venv/bin/python]

Two edits of Great Campaigns of the American Civil War (gcacw: a rule booklet embedding a sequence of play
whose steps cite its rules, and a release, so both print change marks):
  - msgstr: one English msgstr of the booklet's introduction (only the English booklet shows it);
  - paragraph: one paragraph of the booklet's rule 2, which the sequence does not cite.
Each runs on a scratch copy of the samples (the repository's build/ is not touched), built once first; then,
every round, the edit is made anew (another text each time) and `aids build` timed, through the real command.
With --before, the same on a second scratch copy with another installation of aids (a Python whose `aids` is,
say, the main branch's): the two are timed in pairs, edit by edit, in an order that alternates between rounds,
so that a machine busy for a while slows both alike. It prints, per edit and installation, the median time,
the spread (lowest and highest), and the files of build/ rewritten (their time changed; the build cache aside).
Figures only: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from samples import scratch  # benchmarks/samples.py (a script's own folder is on sys.path)

GAME = "gcacw"



def build(python: str, root: Path) -> float:
    start = time.perf_counter()
    # run from the project: `-m` puts the working folder first on the path, where an aids tree would win
    subprocess.run([python, "-m", "aids", "--project", str(root), "build"], check=True, capture_output=True, cwd=root)
    return time.perf_counter() - start


def times(root: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in (root / "build").rglob("*")
            if p.is_file() and ".aids-cache" not in p.parts}


def msgstr(root: Path, n: int) -> None:
    po = root / "i18n/en/LC_MESSAGES" / f"{GAME}.po"
    text = po.read_text(encoding="utf-8")
    at = text.index('msgstr "', text.index('\nmsgctxt "system-rules/intro"')) + len('msgstr "')
    po.write_text(text[:at] + f"({n}) " + text[at:], encoding="utf-8")


def paragraph(root: Path, n: int) -> None:
    md = root / "games" / GAME / "rules/basics.md"
    text, count = re.subn(r"Gra w pojedynkę( \(\d+\))? nie sprawia", f"Gra w pojedynkę ({n}) nie sprawia",
                          md.read_text(encoding="utf-8"))
    assert count == 1
    md.write_text(text, encoding="utf-8")

EDITS = {"msgstr": msgstr, "paragraph": paragraph}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", metavar="PYTHON", help="a Python of another installation of aids, timed in pairs")
    args = parser.parse_args()
    pythons = {"after": sys.executable, **({"before": args.before} if args.before else {})}
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, {args.rounds} rounds")
    with tempfile.TemporaryDirectory() as tmp:
        roots = {}
        for label, python in pythons.items():
            roots[label] = scratch(Path(tmp) / label)
            build(python, roots[label])  # the cold build every edit starts from
        found: dict[tuple[str, str], list[float]] = {}
        rewritten: dict[tuple[str, str], list[int]] = {}
        for n in range(1, args.rounds + 1):
            for edit_name, edit in EDITS.items():
                order = list(pythons) if n % 2 else list(reversed(pythons))
                for label in order:
                    root = roots[label]
                    edit(root, n)
                    before = times(root)
                    found.setdefault((edit_name, label), []).append(build(pythons[label], root))
                    after = times(root)
                    rewritten.setdefault((edit_name, label), []).append(
                        sum(1 for p, t in after.items() if before.get(p) != t))
    for (edit_name, label), seconds in found.items():
        files = rewritten[(edit_name, label)]
        print(f"{edit_name:<10} {label:<7} median {statistics.median(seconds):6.2f} s   "
              f"spread {min(seconds):6.2f} - {max(seconds):6.2f} s   files rewritten: "
              f"{statistics.median(files):g} (of {min(files)} - {max(files)})")


if __name__ == "__main__":
    main()
