"""What figures cost a booklet's PDF: the same booklet with its images and without them, side by side.

    .venv/bin/python benchmarks/figures.py [--rounds 5] [--lang en]

Generates, deterministically, a project with one English booklet of about five A4 pages (a ported scenario:
sections, lists, a table, a box) and three PNG figures beside its Markdown, in a folder of their own: two
photo-like ones of 1200 x 800 pixels (noise over a gradient, which compresses as badly as a photograph: about
2.8 MB each) and a small one of 160 x 120 without alt text. The twin booklet has the same text without the
three image lines. With --map, the figures are instead the map of the Valmora sample scenario
(games/valmora-scenarios/figures/alder-mill-map.png, 2000 x 1703 RGBA, as a map is exported) twice: full width in
chapter 1 and again in chapter 3, there (with --pair) side by side with a small figure, each half the column. Then,
in rounds, interleaved (A, B, then B, A: the machine is shared), each in a process of its own, aids renders the
booklet's PDF by the build's path (pipeline.document, then the pdf format), and raw WeasyPrint lays out and writes
the very HTML and stylesheet aids printed (what the figures cost WeasyPrint itself);
each run's wall and CPU time, pages and warnings are printed, then the median ratio with/without of each and its
spread (min, max). Figures only: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

SECTION = ("The attacker totals the strength of every unit taking part and compares it with the defender's, "
           "rounding in favour of the defender; terrain shifts the column one to the left for each hexside of "
           "river or ridge, and a leader stacked with the attacking units may add one to the roll. ")
FIGURES = ["![The battlefield at dawn](figures/battlefield.png)", "![Terrain of the river crossing](figures/ford.png)",
           "![](figures/marker.png)"]
MAP = Path(__file__).resolve().parent.parent / "games" / "valmora-scenarios" / "figures" / "alder-mill-map.png"
MAPS = {1: "![The ford at Alder Mill](figures/map.png \"The map of the scenario\")",
        3: "![The ford at Alder Mill, again](figures/map.png \"The map, once more\")"}
PAIR = "![The map](figures/map.png \"The map\"){width=50%} ![A marker](figures/marker.png \"A marker\"){width=50%}"


def png(width: int, height: int, seed: int) -> bytes:
    """A photo-like RGB image: noise over a gradient, rows filtered with None (it compresses as a photo does)."""
    rng = random.Random(seed)
    rows = []
    for y in range(height):
        shade = 40 + 160 * y // max(1, height - 1)
        table = bytes(min(255, shade + b // 3) for b in range(256))
        rows.append(b"\x00" + rng.randbytes(width * 3).translate(table))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 6))
            + chunk(b"IEND", b""))


def rules(figures: bool, kind: str = "photos") -> str:
    out = []
    for n in range(1, 7):
        out.append(f"# Chapter {n} {{#chapter-{n}}}\n")
        for m in range(1, 4):
            out.append(f"## Section {n}.{m} {{#section-{n}-{m}}}\n\n{SECTION * 3}\n")
        out.append("- First, the active player moves.\n- Then the other player reacts.\n")
        out.append("::: example\nAn attack of 12 against 4 is resolved on the 3-1 column.\n:::\n")
        if n == 2:
            out.append("| Odds | Result |\n|---|---|\n| 1-1 | Retreat |\n| 2-1 | Exchange |\n| 3-1 | Rout |\n")
        if figures and kind == "photos" and n <= len(FIGURES):
            out.append(FIGURES[n - 1] + "\n")
        elif figures and n in MAPS:
            out.append((PAIR if kind == "pair" and n == 3 else MAPS[n]) + "\n")
    return "\n".join(out)


def project(root: Path, figures: bool, kind: str = "photos") -> None:
    game = root / "games" / "scenario"
    (game / "rules" / "figures").mkdir(parents=True)
    (root / "aids.yaml").write_text("languages: [en]\noutput: build\n", encoding="utf-8")
    (game / "game.yaml").write_text("id: scenario\ntitle: A ported scenario\nversion: '1'\nsource_language: en\n"
                                    "aids: [scenario.yaml]\n", encoding="utf-8")
    (game / "scenario.yaml").write_text("kind: booklet\nid: scenario\ntitle: Scenario rules\nfiles: [rules/rules.md]\n",
                                        encoding="utf-8")
    (game / "rules" / "rules.md").write_text(rules(figures, kind), encoding="utf-8")
    (game / "rules" / "figures" / "map.png").write_bytes(MAP.read_bytes())
    for name, (width, height, seed) in {"battlefield": (1200, 800, 1), "ford": (1200, 800, 2),
                                        "marker": (160, 120, 3)}.items():
        (game / "rules" / "figures" / f"{name}.png").write_bytes(png(width, height, seed))


def cpu() -> float:
    return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                  resource.getrusage(resource.RUSAGE_CHILDREN)))


def run(root: Path, lang: str) -> dict:
    """The booklet's PDF by the build's path, timed from its sources read to its bytes."""
    from aids.config import read_project
    from aids.kinds import reading
    from aids.localize import making
    from aids.pipeline import pipeline
    from aids.render import pdf
    pdf.weasyprint()  # the import is not the booklet's cost
    wall, used = time.perf_counter(), cpu()
    project = read_project(root)
    game = project.read_game("scenario")
    aid = reading.read_aids(project, game)[0][0]
    doc = pipeline.document(game, aid, making.localizer(project, game, lang), None)
    rendered = pipeline.render(doc, ["pdf"])[".pdf"]
    return {"wall": time.perf_counter() - wall, "cpu": cpu() - used, "pages": rendered.pages,
            "warnings": len(rendered.warnings), "longest": max((len(w) for w in rendered.warnings), default=0),
            "bytes": len(rendered.data)}


def run_raw(root: Path, lang: str) -> dict:
    """WeasyPrint alone on the very HTML and print stylesheet aids makes of the booklet (saved by a run of aids
    beforehand): what the figures cost WeasyPrint itself, the measure of what they may cost aids."""
    import weasyprint
    html, css = (root / "page.html").read_text(encoding="utf-8"), (root / "print.css").read_text(encoding="utf-8")
    wall, used = time.perf_counter(), cpu()
    fonts = weasyprint.text.fonts.FontConfiguration()
    page = weasyprint.HTML(string=html, base_url=str(root / "games" / "scenario") + "/")
    document = page.render(stylesheets=[weasyprint.CSS(string=css, font_config=fonts)], font_config=fonts)
    data = document.write_pdf(pdf_tags=True)
    return {"wall": time.perf_counter() - wall, "cpu": cpu() - used, "pages": len(document.pages), "warnings": 0,
            "longest": 0, "bytes": len(data)}


def save_page(root: Path, lang: str) -> None:
    """The booklet's HTML and print stylesheet, as aids prints them, beside the project (for run_raw)."""
    from aids.config import read_project
    from aids.kinds import reading
    from aids.localize import making
    from aids.pipeline import pipeline
    from aids.render.pdf import print_css
    project = read_project(root)
    game = project.read_game("scenario")
    aid = reading.read_aids(project, game)[0][0]
    lz = making.localizer(project, game, lang)
    doc = pipeline.document(game, aid, lz, None)
    (root / "page.html").write_text(doc.html, encoding="utf-8")
    css = print_css(lz, doc.context["game"], aid.kind.page_size(aid.model), aid.kind.margins(aid.model),
                    kind=aid.kind.name)
    (root / "print.css").write_text(css, encoding="utf-8")


def child(root: Path, lang: str, mode: str = "aids") -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", str(root), "--mode", mode, "--lang", lang],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} (min {min(values):.3f}, max {max(values):.3f}, n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--map", action="store_true", help="the sample's map twice instead of three photographs")
    parser.add_argument("--pair", action="store_true", help="with --map: the second beside a small figure")
    parser.add_argument("--child")
    parser.add_argument("--mode", default="aids", choices=["aids", "raw", "save"])
    args = parser.parse_args()
    if args.child:
        if args.mode == "save":
            save_page(Path(args.child), args.lang)
            print("{}")
        else:
            print(json.dumps((run if args.mode == "aids" else run_raw)(Path(args.child), args.lang)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        roots = {"with": Path(tmp) / "with", "without": Path(tmp) / "without"}
        for name, root in roots.items():
            project(root, name == "with", ("pair" if args.pair else "map") if args.map else "photos")
        for root in roots.values():
            child(root, args.lang, "save")
        walls: dict[str, list[float]] = {f"{tool} {name}": [] for tool in ("aids", "raw") for name in roots}
        ratios: dict[str, list[float]] = {f"{tool} {what}": [] for tool in ("aids", "raw") for what in ("wall", "CPU")}
        for n in range(args.rounds):
            order = ["with", "without"] if n % 2 == 0 else ["without", "with"]
            for tool in ("aids", "raw") if n % 2 == 0 else ("raw", "aids"):
                runs = {name: child(roots[name], args.lang, tool) for name in order}
                for name in order:
                    r = runs[name]
                    walls[f"{tool} {name}"].append(r["wall"])
                    print(f"round {n + 1} {tool} {name:>7}: {r['wall']:6.2f} s wall, {r['cpu']:6.2f} s CPU, "
                          f"{r['pages']} pages, {r['warnings']} warnings (longest {r['longest']} characters), "
                          f"{r['bytes']:,} bytes")
                ratios[f"{tool} wall"].append(runs["with"]["wall"] / runs["without"]["wall"])
                ratios[f"{tool} CPU"].append(runs["with"]["cpu"] / runs["without"]["cpu"])
        print()
        for name, values in walls.items():
            print(f"{name + ' figures:':<22} {spread(values)} s wall")
        for name, values in ratios.items():
            print(f"with/without, {name + ':':<10} {spread(values)}")


if __name__ == "__main__":
    main()
