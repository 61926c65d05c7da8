"""Time `aids update`'s search for a similar text as the catalog grows: half of it untranslated.

    .venv/bin/python benchmarks/update_similar.py [--sizes 1000,2000,4000,8000] [--rounds 3]

Each size is a catalog whose even entries are translated and whose odd ones are not, each odd text the even
text before it with one word changed, under its own msgctxt; the template has the same keys. So merge.merge
(`aids update` without its msgcat and its write) looks for a similar text anywhere for every untranslated
entry (step 4 of aids/localize/merge.py) and finds its neighbour's, fuzzy. It compared each such text with
every translated one (quadratic: 1,000 entries 28 s, 2,000 entries 96 s, 4,000 entries 199 s on this
machine); it now compares it with the few that share most of its rarer trigrams (merge._Index). The sizes
are timed in turn within each round; it prints the median and spread of the rounds, seconds per 1,000
entries, and the ratio to the smallest size (linear work: the ratio of the sizes). Figures only.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from aids.localize import merge, po

HEADER = ('msgid ""\nmsgstr ""\n"Language: pl\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n')
WORDS = ("unit move attack hex river bridge cavalry infantry artillery fire retreat rout rally supply leader turn "
         "phase step enemy friendly adjacent zone control terrain forest town road march column line square charge "
         "melee morale check roll die result table modifier").split()


def text(i: int) -> str:
    first = random.Random(i - i % 2)
    words = first.choices(WORDS, k=first.randint(6, 14))
    if i % 2:  # the even text before it, one word changed
        edit = random.Random(i)
        words[edit.randrange(len(words))] = edit.choice(WORDS)
    return " ".join(words) + f" {i - i % 2}"


def catalog(count: int, template: bool) -> po.Catalog:
    body = "".join(f'\nmsgctxt "k{i}"\nmsgid "{text(i)}"\nmsgstr "{"" if template or i % 2 else "T " + text(i)}"\n'
                   for i in range(count))
    return po.Catalog.parsestring((HEADER + body).encode("utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,2000,4000,8000", help="entry counts, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    pairs = {n: (catalog(n, False), catalog(n, True)) for n in sizes}
    times: dict[int, list[float]] = {n: [] for n in sizes}
    fuzzy = {}
    for _ in range(args.rounds):
        for n in sizes:  # interleaved: a busy moment of the machine falls on every size
            start = time.perf_counter()
            out = merge.merge(*pairs[n])
            times[n].append(time.perf_counter() - start)
            fuzzy[n] = sum(1 for e in po.entries(out) if e.isfuzzy() and e.target)
    print(f"median s (spread) of {args.rounds} rounds; s per 1,000 entries; similar texts found (fuzzy); "
          f"ratio to {sizes[0]:,} entries (linear: {sizes[-1] / sizes[0]:g} at the largest)")
    for n in sizes:
        median = statistics.median(times[n])
        print(f"{n:>7,} entries {median:8.2f} ({max(times[n]) - min(times[n]):5.2f}) {median / n * 1000:6.3f} "
              f"{fuzzy[n]:>7,} {median / statistics.median(times[sizes[0]]):6.1f}")


if __name__ == "__main__":
    main()
