"""Time to read a catalog as it grows: 10,000, 50,000 and 100,000 entries, and the commands that read it.

    .venv/bin/python benchmarks/catalogs.py [--sizes 10000,50000,100000] [--rounds 5] [--skip-commands]

For each size it generates a catalog in a scratch folder (mostly one-line entries, every 10th a plural, every
10th fuzzy with its previous msgid, every 20th obsolete; 100,000 entries are about 4.6 MB, under the 5 MB
limit) and times, in-process:
  - read: po.read_catalog (lint, translate-toolkit's parse, duplicates);
  - faults: catalogs.faults and catalogs.translations_of (what a build and `aids stats` do after reading);
  - check: checks.check_catalog (`aids check`'s entry checks);
  - merge: merge.merge of the catalog with a template of its active keys, every 50th text moved to a new
    msgctxt (`aids update` without its msgcat and its write; every entry of the template finds its translation
    by its key or by its moved text, so merge's search for a similar text, which compares each new text with
    every translated one, is not what is timed here);
and, through the real `aids` command on a scratch project (the Ostrołęka sample, its Russian catalog grown
by the generated entries): `aids stats` and `aids check`.

The sizes are timed in turn within each round (10k, 50k, 100k, 10k, 50k, 100k, ...), so a busy moment of
this shared machine falls on all of them; it prints the median and the spread (max - min) of the rounds,
seconds per 10,000 entries, and the ratio time(largest) / time(smallest): for work linear in the number
of entries it is the ratio of the sizes (10 for 100k / 10k). Figures only: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from aids.localize import catalogs, checks, merge, po

ROOT = Path(__file__).resolve().parent.parent
AIDS = [sys.executable, "-m", "aids"]
GAME = "ostroleka-1831"
HEADER = ('msgid ""\nmsgstr ""\n"Language: ru\\n"\n"MIME-Version: 1.0\\n"\n'
          '"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n'
          '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && '
          '(n%100<10 || n%100>=20) ? 1 : 2);\\n"\n')


def entry(i: int, *, template: bool = False) -> str:
    """Entry `i` of the generated catalog (of its template: no translation, every 50th text moved)."""
    context = f"m{i}" if template and i % 50 == 25 else f"g{i}"
    if i % 10 == 7:
        forms = "".join(f'msgstr[{n}] "{"" if template else f"{n}Т{i}"}"\n' for n in range(3))
        return f'\nmsgid "u{i}"\nmsgid_plural "us{i}"\n{forms}'
    if i % 20 == 9 and not template:
        return f'\n#~ msgid "O {i}"\n#~ msgstr "О {i}"\n'
    if i % 10 == 3 and not template:
        return f'\n#, fuzzy\n#| msgid "S {i}"\nmsgid "T {i}"\nmsgstr "Т {i}"\n'
    ctxt = f'msgctxt "{context}"\n' if i % 2 and i % 10 != 3 else ""  # about half with a msgctxt
    return f'\n{ctxt}msgid "T {i}"\nmsgstr "{"" if template else f"Т {i}"}"\n'


def generated(count: int, *, template: bool = False) -> str:
    """The catalog; its template has the keys of its active entries (none for the obsolete ones)."""
    return HEADER + "".join(entry(i, template=template) for i in range(count) if not (template and i % 20 == 9))


def scratch_project(into: Path, count: int) -> Path:
    """The Ostrołęka sample alone, its Russian catalog grown by `count` generated entries."""
    root = into / f"project-{count}"
    shutil.copytree(ROOT / "games" / GAME, root / "games" / GAME)
    shutil.copytree(ROOT / "i18n" / "templates", root / "i18n" / "templates")
    target = catalogs.po_path(root / "i18n", "ru", GAME)
    target.parent.mkdir(parents=True)
    sample = catalogs.po_path(ROOT / "i18n", "ru", GAME).read_text(encoding="utf-8")
    target.write_text(sample + "".join(entry(i) for i in range(count)), encoding="utf-8")
    (root / "aids.yaml").write_text("languages: [ru]\noutput: build\ngames: games\ncatalogs: i18n\n")
    return root


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def command(root: Path, *args: str) -> Callable[[], object]:
    # exit status 1 is a finding of `aids check`, not a failure of the benchmark
    return lambda: subprocess.run([*AIDS, "--project", str(root), *args], check=False, capture_output=True)


def cases(tmp: Path, count: int, commands: bool) -> dict[str, Callable[[], object]]:
    path = tmp / f"c{count}.po"
    path.write_text(generated(count), encoding="utf-8")
    pot = tmp / f"c{count}.pot"
    pot.write_text(generated(count, template=True), encoding="utf-8")
    catalog = po.read_catalog(path, path.name)
    template = po.read_catalog(pot, pot.name)
    found = {
        "read": lambda: po.read_catalog(path, path.name),
        "faults": lambda: (catalogs.faults(catalog), catalogs.translations_of(catalog)),
        "check": lambda: checks.check_catalog(catalog, "ru", "pl", []),
        "merge": lambda: merge.merge(catalog, template),
    }
    if commands:
        root = scratch_project(tmp, count)
        found["aids stats"] = command(root, "stats")
        found["aids check"] = command(root, "check")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,50000,100000", help="entry counts, comma-separated")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--skip-commands", action="store_true", help="only the in-process timings")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        work = {n: cases(tmp, n, not args.skip_commands) for n in sizes}
        for n in sizes:
            print(f"{n:>7} entries: {(tmp / f'c{n}.po').stat().st_size / 1048576:.2f} MB")
        names = list(work[sizes[0]])
        times: dict[tuple[str, int], list[float]] = {(name, n): [] for name in names for n in sizes}
        for _ in range(args.rounds):
            for name in names:
                for n in sizes:  # the sizes interleaved within each round
                    times[name, n].append(timed(work[n][name]))

    print(f"\nmedian s (spread) of {args.rounds} rounds; s per 10,000 entries; ratio to {sizes[0]:,} entries "
          f"(linear: {sizes[-1] / sizes[0]:g} at the largest)")
    print(f"{'':<11}" + "".join(f"{n:>23,}" for n in sizes) + f"{'ratio':>8}")
    for name in names:
        medians = [statistics.median(times[name, n]) for n in sizes]
        cells = "".join(f"{m:8.2f} ({max(times[name, n]) - min(times[name, n]):5.2f}) {m / n * 10000:5.2f}"
                        for m, n in zip(medians, sizes))
        print(f"{name:<11}{cells}{medians[-1] / medians[0]:8.1f}")


if __name__ == "__main__":
    main()
