"""What the accessible (tagged, PDF/UA-1) PDF costs against an untagged one: one aid of each kind, the same HTML.

    .venv/bin/python benchmarks/tagging.py [--rounds 5] [--lang en]

For each aid (a booklet, two sequences of play, a playsheet) it builds the HTML and print stylesheet aids
prints, then, in rounds, times in interleaved pairs (the machine is shared: each pair back to back, the order
alternating) the whole PDF through aids' own path (render/pdf.py: layout, then the PDF written): untagged
(`tagged=False`: no structure tree, no PDF/UA identification) and tagged (what aids writes for home printing:
WeasyPrint's pdf/ua-1 variant and aids' /Lang, /Scope and /Alt, render/tagging.py). A booklet is laid out
whole here, not in parts (the parts' cache would hide the cost). Prints each pair, then the median ratio
tagged/untagged and its spread per aid and over all pairs. Figures only: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from aids.build import pipeline
from aids.config import read_project
from aids.kinds import reading
from aids.render.pdf import lay_out, print_css

ROOT = Path(__file__).resolve().parent.parent
AIDS = [("gcacw", "system-rules"), ("gcacw", "sequence-of-play"), ("ostroleka-1831", "sequence-of-play"),
        ("newbury-fast-play", "playsheet")]


def timed(html: str, css: str, folder: Path, epoch: int, tagged: bool) -> tuple[float, int]:
    start = time.perf_counter()
    rendered = lay_out(html, css, base=folder, allowed=[folder], epoch=epoch, tagged=tagged).rendered()
    return time.perf_counter() - start, len(rendered.data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="aids-tagging-") as scratch:
        root = Path(scratch)
        for name in ("games", "i18n", "aids.yaml"):
            source = ROOT / name
            (shutil.copytree if source.is_dir() else shutil.copy)(source, root / name)
        project = read_project(root)
        every: list[float] = []
        print(f"{'aid':<36} {'untagged s':>10} {'tagged s':>9} {'ratio':>6} {'bytes':>7}")
        for game_id, aid_id in AIDS:
            game = project.read_game(game_id)
            aid = next(a for a in reading.read_aids(project, game)[0] if a.model.id == aid_id)
            lz = pipeline.localizer(project, game, args.lang)
            doc = pipeline.document(game, aid, lz, game.editions[0] if game.editions else None)
            css = print_css(lz, doc.context["game"], "A4", kind=aid.kind.name)
            timed(doc.html, css, game.folder, game.epoch(), True)  # warm: fonts, hyphenation dictionaries
            ratios = []
            for round_ in range(args.rounds):
                order = (False, True) if round_ % 2 == 0 else (True, False)
                times = {tagged: timed(doc.html, css, game.folder, game.epoch(), tagged) for tagged in order}
                ratio = times[True][0] / times[False][0]
                ratios.append(ratio)
                print(f"{game_id + ' ' + aid_id:<36} {times[False][0]:10.2f} {times[True][0]:9.2f} {ratio:6.3f} "
                      f"{times[True][1] / times[False][1]:7.3f}")
            every += ratios
            print(f"{'  median, spread':<36} {'':>10} {'':>9} {statistics.median(ratios):6.3f} "
                  f"({min(ratios):.3f} to {max(ratios):.3f})")
        print(f"all {len(every)} pairs: tagged/untagged median {statistics.median(every):.3f} "
              f"({min(every):.3f} to {max(every):.3f})")


if __name__ == "__main__":
    main()
