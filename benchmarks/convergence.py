"""Where an edited continuous booklet's layout meets the previous one again: what laying out again only from
the edit (issue 48's plan, docs/development/benchmarks.md) would lay out.

    .venv/bin/python benchmarks/convergence.py [--pages 100]

Generates the varied booklet of benchmarks/booklet.py without `chapter_pages` (one continuous flow, in one
column), renders its PDF through aids, then the same with one paragraph edited at a quarter, a half and three
quarters of the booklet, by a word (11 characters added) and by a sentence repeated (287 characters, about four
lines). For each it prints the first page that differs and the first page from which every page reads as before
(each page's text with its numbers masked: a page reference to a moved target, the contents, the running foot).
Figures only.
"""
from __future__ import annotations

import argparse
import io
import re
import shutil
import tempfile
import time
from pathlib import Path

import booklet  # benchmarks/booklet.py, beside this file
from pypdf import PdfReader

EDITS = ("Zmieniono: ", "Zmieniono: " + "dłuższe zdanie wstawione na początku akapitu, " * 6)


def page_texts(root: Path) -> list[str]:
    """Each page's text of the booklet's PDF, its white space collapsed and its numbers masked."""
    from aids.config import read_project
    from aids.kinds import reading
    from aids.localize import making
    from aids.pipeline import pipeline
    project = read_project(root)
    game = project.read_game("big")
    aid = reading.read_aids(project, game)[0][0]
    lz = making.localizer(project, game, "pl")
    data = pipeline.render(pipeline.document(game, aid, lz, None), ["pdf"])[".pdf"].data
    return [re.sub(r"\d+", "#", " ".join(page.extract_text().split())) for page in PdfReader(io.BytesIO(data)).pages]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="aids-convergence-") as folder:
        base = Path(folder) / "base"
        booklet.generate(base, args.pages, "varied", chapter_pages=False)
        start = time.perf_counter()
        before = page_texts(base)
        print(f"{len(before)} pages, laid out in {time.perf_counter() - start:.0f} s")
        for where in (0.25, 0.5, 0.75):
            for words in EDITS:
                root = Path(folder) / f"edit-{where}-{len(words)}"
                shutil.copytree(base, root)
                booklet.edit(root, where, words)
                after = page_texts(root)
                first = next((i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b), None)
                meet = None if first is None or len(after) != len(before) else \
                    next((i for i in range(first, len(before)) if before[i:] == after[i:]), None)
                print(f"edit at {where:.2f} of the booklet, {len(words)} characters added: {len(after)} pages; "
                      f"the first that differs {'none' if first is None else first + 1}; the same as before from "
                      f"page {'never' if meet is None else meet + 1}"
                      + (f" ({meet - first} laid out again)" if first is not None and meet is not None else ""))


if __name__ == "__main__":
    main()
