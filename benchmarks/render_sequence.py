"""Cost of aids over raw WeasyPrint on the same input: the Ostrołęka sequence of play, every language.

    .venv/bin/python benchmarks/render_sequence.py [--repeat N]

For each language it times (best of N) the whole aids path for one aid (localize + Jinja2 + WeasyPrint
with the package fonts and the offline fetcher) and raw WeasyPrint on the very HTML and CSS aids produced,
then prints both and their ratio. Figures only: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from aids.config import read_project
from aids.kinds import reading
from aids.localize import making
from aids.pipeline import jobs, pipeline
from aids.render.pdf import print_css, weasyprint

ROOT = Path(__file__).resolve().parent.parent
GAME = "ostroleka-1831"


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    started = time.perf_counter()
    wp = weasyprint()
    print(f"import weasyprint: {time.perf_counter() - started:.2f} s (once per process)")

    project = read_project(ROOT)
    game = project.read_game(GAME)
    aids, _ = reading.read_aids(project, game)
    aid = aids[0]
    print(f"{'lang':<5} {'aids s':>8} {'raw s':>8} {'ratio':>6} {'pages':>6}")
    for lang in project.languages:
        lz = making.localizer(project, game, lang)
        aids_time = best(lambda: jobs.render_aid(project, game, aid, lz, None, ["pdf"]), args.repeat)

        # The same HTML and print CSS aids renders, handed to WeasyPrint directly.
        doc = pipeline.document(game, aid, lz, None)
        html = doc.html
        css = print_css(lz, doc.context["game"], "A4", kind=aid.kind.name)

        def raw():
            fonts = wp.text.fonts.FontConfiguration()
            document = wp.HTML(string=html, base_url=str(game.folder)).render(
                stylesheets=[wp.CSS(string=css, font_config=fonts)], font_config=fonts)
            document.write_pdf(pdf_tags=True)  # aids writes tagged PDF too
            return document
        raw_time = best(raw, args.repeat)
        pages = len(raw().pages)
        print(f"{lang:<5} {aids_time:8.3f} {raw_time:8.3f} {aids_time / raw_time:6.2f} {pages:6d}")


if __name__ == "__main__":
    main()
