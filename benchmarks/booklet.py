"""A big rule booklet through aids and through raw WeasyPrint, side by side: time, peak memory, page layouts.

    .venv/bin/python benchmarks/booklet.py [--pages 300] [--lang pl]

Generates, deterministically, a booklet of about --pages A4 pages in aids' own format: numbered sections with
paragraphs, lists, a table and an example box each, cross-references to other sections ("see 12, p. 14"),
glossary terms and a glossary. Then, each in a process of its own (so that each peak is its own):
  - aids renders its PDF (pipeline.render: localize, HTML, print stylesheet, WeasyPrint, tagged PDF);
  - raw WeasyPrint lays out the very HTML and CSS aids produced, its page references as plain text (aids'
    placeholders, never corrected), and writes a tagged PDF.
Prints each one's time, peak resident memory and page layouts (pages WeasyPrint laid out, again or not), and
aids' ratios to raw WeasyPrint. Figures only: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PARAGRAPH = ("Jednostka, która rozpoczyna ruch w [](term:zoc) nieprzyjaciela, może ją opuścić tylko wtedy, gdy "
             "wyda dodatkowy punkt ruchu i nie wejdzie bezpośrednio do innej strefy kontroli; kawaleria płaci "
             "o jeden punkt mniej, a artyleria konna traci przy tym połowę swojej siły ognia. ")


def generate(root: Path, pages: int) -> None:
    """A project with one game and its booklet of about `pages` pages (a section fills about 1.25 pages)."""
    game = root / "games" / "big"
    game.mkdir(parents=True)
    (root / "aids.yaml").write_text("languages: [pl]\noutput: build\n", encoding="utf-8")
    (game / "game.yaml").write_text("id: big\ntitle: Wielka gra\nversion: '1'\nsource_language: pl\n"
                                    "aids: [rules.yaml]\n", encoding="utf-8")
    (game / "rules.yaml").write_text(
        "kind: booklet\nid: rules\ntitle: Zasady\nfiles: [rules.md]\n"
        "glossary:\n  - {id: zoc, abbr: ZOC, term: strefa kontroli, original: Zone of Control}\n"
        "  - {id: mp, abbr: MP, term: punkty ruchu}\n", encoding="utf-8")
    count = max(2, round(pages / 1.25))
    sections = ["# Skróty {#abbr .unnumbered}\n\n::: abbreviations\n:::\n"]
    for n in range(1, count + 1):
        cites = f"Zob. też {{see:s{(n * 7) % count + 1}}} i {{see:d{(n * 13) % count + 1}}}. "
        table = "| Teren | Koszt | Modyfikator |\n|---|---:|---:|\n" + "".join(
            f"| teren {n}.{i} | {i} | −{i % 3} |\n" for i in range(1, 5))
        sections.append(
            f"# Rozdział {n} {{#s{n}}}\n\n" + "\n\n".join(PARAGRAPH * 3 for _ in range(4)) + f"\n\n{cites}{PARAGRAPH}"
            f"\n\n::: example\nPrzykład {n}: oddział wydaje 2 [](term:mp) i wychodzi ze strefy kontroli.\n:::\n"
            f"\n## Szczegóły {n} {{#d{n}}}\n\n" + "\n".join(f"- punkt {i}: {PARAGRAPH[:80]}" for i in range(6))
            + f"\n\n{table}")
    (game / "rules.md").write_text("\n\n".join(sections) + "\n", encoding="utf-8")


def page_references(path: Path) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """The (section number, page) of every reference in the text ("12, s. 14") and every line of the contents
    of the booklet's PDF at `path`, and the page each section's heading is on (by its bookmark)."""
    from pypdf import PdfReader
    reader = PdfReader(path)
    texts = [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]
    found = [(n, int(p)) for text in texts for n, p in re.findall(r"(\d+(?:\.\d+)?), s\. (\d+)", text)]
    found += [(n, int(p)) for text in texts for n, p in re.findall(r"(\d+(?:\.\d+)?) \S+ \d+ ?\.{3,} ?(\d+)", text)]
    starts: dict[str, int] = {}

    def walk(items: list) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                starts[item.title.split(" ", 1)[0]] = reader.get_destination_page_number(item) + 1
    walk(reader.outline)
    return found, starts


def count_page_layouts() -> list[int]:
    """A counter of the pages WeasyPrint lays out (a page laid out again for target-counter() counts again)."""
    import weasyprint.layout.page as page
    counter = [0]
    make_page = page.make_page

    def counted(*args, **kwargs):
        counter[0] += 1
        return make_page(*args, **kwargs)

    page.make_page = counted
    return counter


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_aids(root: Path, lang: str) -> dict:
    """aids' PDF of the booklet; its HTML and print stylesheet saved beside the project for raw WeasyPrint."""
    from aids.build import pipeline
    from aids.config import read_project
    from aids.kinds import reading
    from aids.render.pdf import print_css
    project = read_project(root)
    game = project.read_game("big")
    aid = reading.read_aids(project, game)[0][0]
    layouts = count_page_layouts()
    start = time.perf_counter()
    lz = pipeline.localizer(project, game, lang)
    doc = pipeline.document(game, aid, lz, None)
    rendered = pipeline.render(doc, ["pdf"])[".pdf"]
    seconds = time.perf_counter() - start
    (root / "page.html").write_text(doc.html, encoding="utf-8")
    css = print_css(lz, doc.context["game"], aid.kind.page_size(aid.model), aid.kind.margins(aid.model),
                    kind=aid.kind.name)
    (root / "print.css").write_text(css, encoding="utf-8")
    (root / "aids.pdf").write_bytes(rendered.data)
    return {"seconds": seconds, "pages": rendered.pages, "layouts": layouts[0], "peak_mib": peak_mib(),
            "warnings": len(rendered.warnings)}


def run_raw(root: Path) -> dict:
    """Raw WeasyPrint on aids' HTML and CSS, each page reference a plain text of about its width: the spans
    aids adds to WeasyPrint's tree (render/pagination.py), with their first guesses, never laid out again."""
    import weasyprint

    from aids.render.pagination import Pagination
    html = (root / "page.html").read_text(encoding="utf-8")
    css = (root / "print.css").read_text(encoding="utf-8")
    layouts = count_page_layouts()
    start = time.perf_counter()
    fonts = weasyprint.text.fonts.FontConfiguration()
    page = weasyprint.HTML(string=html, base_url=str(root / "games" / "big") + "/")
    Pagination(page.etree_element)
    document = page.render(
        stylesheets=[weasyprint.CSS(string=css, base_url=str(root) + "/", font_config=fonts)], font_config=fonts)
    data = document.write_pdf(pdf_tags=True)
    seconds = time.perf_counter() - start
    (root / "raw.pdf").write_bytes(data)
    return {"seconds": seconds, "pages": len(document.pages), "layouts": layouts[0], "peak_mib": peak_mib()}


def child(mode: str, root: Path, lang: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", mode, "--root", str(root), "--lang", lang],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--lang", default="pl")
    parser.add_argument("--child", choices=["aids", "raw"], help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_aids(args.root, args.lang) if args.child == "aids" else run_raw(args.root)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        generate(root, args.pages)
        ours = child("aids", root, args.lang)
        theirs = child("raw", root, args.lang)
        references, starts = page_references(root / "aids.pdf")
    wrong = [(number, page) for number, page in references if starts.get(number) != page]
    for name, r in (("aids", ours), ("raw WeasyPrint", theirs)):
        print(f"{name:<15} {r['pages']:4d} pages  {r['seconds']:6.1f} s  {r['pages'] / r['seconds']:5.1f} pages/s  "
              f"peak {r['peak_mib']:6.0f} MiB  {r['layouts']:5d} page layouts ({r['layouts'] / r['pages']:.2f} a page)")
    print(f"page references in aids' PDF: {len(references)} (contents and text), "
          + (f"{len(wrong)} NOT on their targets' pages: {wrong[:5]}" if wrong else "every one on its target's page"))
    print(f"aids / raw WeasyPrint: time {ours['seconds'] / theirs['seconds']:.2f}, "
          f"peak memory {ours['peak_mib'] / theirs['peak_mib']:.2f}")


if __name__ == "__main__":
    main()
