"""What the accessible (tagged, PDF/UA-1) PDF costs against an untagged one: one aid of each kind, the same HTML.

    .venv/bin/python benchmarks/tagging.py [--rounds 5] [--lang en]

For each aid (a booklet, two sequences of play, a playsheet) it builds the HTML and print stylesheet aids
prints, then, in rounds, times in interleaved pairs (the machine is shared: each pair back to back, the order
alternating) the whole PDF through aids' own path (render/pdf.py: layout, then the PDF written): untagged
(`tagged=False`: no structure tree, no PDF/UA identification) and tagged (what aids writes for home printing:
WeasyPrint's pdf/ua-1 variant and aids' /Lang, /Scope and /Alt, render/tagging.py). A booklet is laid out
whole here, not in parts (the parts' cache would hide the cost). Prints each pair, then the median ratio
tagged/untagged and its spread per aid and over all pairs, of the wall time and of the process's CPU time (less
sensitive to the other work of a shared machine), and the PDFs' sizes (tagged/untagged). Figures only: nothing here
asserts a time.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from aids.config import read_project
from aids.kinds import reading
from aids.localize import making
from aids.pipeline import pipeline
from aids.render.pdf import lay_out, print_css

ROOT = Path(__file__).resolve().parent.parent
AIDS = [("gcacw", "system-rules"), ("gcacw", "sequence-of-play"), ("ostroleka-1831", "sequence-of-play"),
        ("newbury-fast-play", "playsheet")]


def timed(html: str, css: str, folder: Path, epoch: int, tagged: bool) -> tuple[float, float, int]:
    """Wall time, CPU time of this process (the layout and the PDF are written in it) and the PDF's size."""
    start, cpu = time.perf_counter(), time.process_time()
    rendered = lay_out(html, css, base=folder, allowed=[folder], epoch=epoch, tagged=tagged).rendered()
    return time.perf_counter() - start, time.process_time() - cpu, len(rendered.data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="aids-tagging-") as scratch:
        root = Path(scratch)
        for name in ("games", "i18n"):
            shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
        # a project of games, as a user has it: the aids source tree (ui_domain) stays behind
        (root / "aids.yaml").write_text((ROOT / "aids.yaml").read_text().replace("ui_domain: true", "ui_domain: false"))
        project = read_project(root)
        every: list[float] = []
        every_cpu: list[float] = []
        print(f"{'aid':<36} {'untagged s':>10} {'tagged s':>9} {'ratio':>6} {'CPU ratio':>9} {'bytes':>7}")
        for game_id, aid_id in AIDS:
            game = project.read_game(game_id)
            aid = next(a for a in reading.read_aids(project, game)[0] if a.model.id == aid_id)
            lz = making.localizer(project, game, args.lang)
            doc = pipeline.document(game, aid, lz, game.editions[0] if game.editions else None)
            css = print_css(lz, doc.context["game"], "A4", kind=aid.kind.name)
            timed(doc.html, css, game.folder, game.epoch(), True)  # warm: fonts, hyphenation dictionaries
            ratios, cpu_ratios = [], []
            for round_ in range(args.rounds):
                order = (False, True) if round_ % 2 == 0 else (True, False)
                times = {tagged: timed(doc.html, css, game.folder, game.epoch(), tagged) for tagged in order}
                ratio, cpu_ratio = times[True][0] / times[False][0], times[True][1] / times[False][1]
                ratios.append(ratio)
                cpu_ratios.append(cpu_ratio)
                print(f"{game_id + ' ' + aid_id:<36} {times[False][0]:10.2f} {times[True][0]:9.2f} {ratio:6.3f} "
                      f"{cpu_ratio:9.3f} {times[True][2] / times[False][2]:7.3f}")
            every += ratios
            every_cpu += cpu_ratios
            print(f"{'  median (spread)':<36} wall {spread(ratios)}, CPU {spread(cpu_ratios)}")
        print(f"all {len(every)} pairs, tagged/untagged: wall {spread(every)}, CPU {spread(every_cpu)}")


def spread(ratios: list[float]) -> str:
    return f"{statistics.median(ratios):.3f} ({min(ratios):.3f} to {max(ratios):.3f})"


if __name__ == "__main__":
    main()
