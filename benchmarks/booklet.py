"""A big rule booklet through aids and through raw WeasyPrint, side by side: cold build, one paragraph edited.

    .venv/bin/python benchmarks/booklet.py [--pages 300] [--style varied|plain|both] [--rounds 3] [--lang pl]

Generates, deterministically, a booklet of about --pages A4 pages in aids' own format, each chapter on a new page
(`chapter_pages: true`, so that aids lays it out in parts, render/parts.py), in one of two styles:
  - plain: the project's first generator, every chapter alike (four long paragraphs, a list, a table, an example,
    two references);
  - varied: as real rulebooks are: chapters of 1 to 7 sections of different lengths, sub-sections, ordered and
    nested lists, tables of 3 to 14 rows, boxes of every kind, and 3 to 12 references a section, in running text,
    to anything in the booklet.
Then, in rounds, interleaved (the machine is shared: each pair is timed back to back), each in a process of its own:
  - raw: WeasyPrint lays out the very HTML and CSS aids produced as one document (its page references as plain
    text: aids' placeholders, never corrected) and writes a tagged PDF;
  - cold: aids renders the booklet's PDF (pipeline.render, parts laid out in parallel on the machine's cores),
    its cache of parts empty;
  - edit: one paragraph of a chapter in the middle of the booklet edited, aids again, with the cache of the cold
    build.
Prints each round's wall and CPU time (a process and every process it waited for), the median ratio and spread of
cold/raw and edit/cold, the pages laid out again for the edit, and whether every page reference is on its
target's page. On a machine shared with other work, the parts' processes do not get the cores to themselves: the
line "cold/raw 2 idle cores" estimates the wall time of a cold build on two free cores (this process's own CPU,
then its parts' CPU shared by two) against raw WeasyPrint's CPU. Figures only: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PARAGRAPH = ("Jednostka, która rozpoczyna ruch w [](term:zoc) nieprzyjaciela, może ją opuścić tylko wtedy, gdy "
             "wyda dodatkowy punkt ruchu i nie wejdzie bezpośrednio do innej strefy kontroli; kawaleria płaci "
             "o jeden punkt mniej, a artyleria konna traci przy tym połowę swojej siły ognia. ")
SENTENCES = [
    "Gracz aktywny wybiera jedną jednostkę i wykonuje nią wszystkie akcje, zanim przejdzie do następnej.",
    "Jeśli [](term:mp) nie wystarczy na wejście do heksu, jednostka zatrzymuje się przed nim i kończy ruch.",
    "Dowódca w zasięgu dowodzenia może zmienić wynik rzutu o jeden, ale tylko raz w każdej fazie walki.",
    "Straty zaznacza się znacznikami siły; jednostka, która straci ostatni krok, zostaje usunięta z mapy.",
    "Artyleria strzela przed ruchem piechoty, a jej ogień nie może przechodzić przez heks zajęty przez oddział.",
    "Umocnienia polowe dają obrońcy jedną kolumnę przesunięcia w lewo, chyba że atakujący ma przewagę trzy do jednego.",
    "Zmęczenie rośnie po każdym marszu forsownym i spada o jeden w fazie reorganizacji, jeśli jednostka odpoczywa.",
    "W nocy zasięg dowodzenia maleje o połowę (w dół), a żadna jednostka nie może wejść do strefy kontroli.",
    "Kawaleria, która wykona szarżę, zostaje zdezorganizowana i do końca tury nie może się poruszać.",
    "Zaopatrzenie sprawdza się na początku tury: linia nie może być dłuższa niż osiem heksów drogi.",
]
KINDS = ["example", "note", "optional", "designer", "exception"]


def project(root: Path, pages_text: str, chapter_pages: bool) -> None:
    game = root / "games" / "big"
    game.mkdir(parents=True)
    (root / "aids.yaml").write_text("languages: [pl]\noutput: build\n", encoding="utf-8")
    (game / "game.yaml").write_text("id: big\ntitle: Wielka gra\nversion: '1'\nsource_language: pl\n"
                                    "aids: [rules.yaml]\n", encoding="utf-8")
    (game / "rules.yaml").write_text(
        "kind: booklet\nid: rules\ntitle: Zasady\nfiles: [rules.md]\n"
        + ("chapter_pages: true\n" if chapter_pages else "") +
        "glossary:\n  - {id: zoc, abbr: ZOC, term: strefa kontroli, original: Zone of Control}\n"
        "  - {id: mp, abbr: MP, term: punkty ruchu}\n", encoding="utf-8")
    (game / "rules.md").write_text(pages_text, encoding="utf-8")


def generate(root: Path, pages: int, style: str = "plain", chapter_pages: bool = False) -> None:
    """A project with one game and its booklet of about `pages` pages, in `style` (plain or varied)."""
    text = varied(pages) if style == "varied" else plain(pages)
    project(root, text, chapter_pages)


def plain(pages: int) -> str:
    """Every chapter alike: about 1.25 pages each (laid out continuously)."""
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
    return "\n\n".join(sections) + "\n"


def varied(pages: int, seed: int = 30) -> str:
    """Chapters as real rulebooks have them: uneven, nested, full of references (about 3000 characters a page)."""
    rng = random.Random(seed)
    chapters: list[list[tuple[str, int]]] = []  # chapter -> its sections (id, size in sentences)
    budget = pages * 3000  # characters of running text; tables, lists and boxes take the rest
    used = 0.0
    while used < budget:
        n = len(chapters) + 1
        sections = [(f"c{n}-{s}", rng.choice([2, 4, 6, 10, 16, 24, 40])) for s in range(1, rng.randint(2, 8))]
        chapters.append(sections)
        used += sum(size for _, size in sections) * 105 + len(sections) * 900
    targets = [sid for sections in chapters for sid, _ in sections] + [f"c{n}" for n in range(1, len(chapters) + 1)]

    def sentences(count: int) -> str:
        out = []
        for _ in range(count):
            sentence = rng.choice(SENTENCES)
            if rng.random() < 0.3:
                sentence = sentence[:-1] + f" ({{see:{rng.choice(targets)}}})."
            out.append(sentence)
        return " ".join(out)

    parts = ["# Skróty {#abbr .unnumbered}\n\n::: abbreviations\n:::\n"]
    for n, sections in enumerate(chapters, 1):
        body = [f"# Rozdział {n} {{#c{n}}}\n\n{sentences(rng.randint(2, 6))}"]
        for sid, size in sections:
            body.append(f"## Zasada {sid} {{#{sid}}}")
            left = size
            while left > 0:
                chunk = min(left, rng.randint(2, 9))
                body.append(sentences(chunk))
                left -= chunk
                roll = rng.random()
                if roll < 0.15:
                    body.append("\n".join(f"{i}. {sentences(rng.randint(1, 2))}" for i in range(1, rng.randint(3, 7)))
                                + "\n   - " + sentences(1))
                elif roll < 0.25:
                    rows = rng.randint(3, 14)
                    body.append("| Teren | Ruch | Walka | Uwagi |\n|---|---:|---:|---|\n" + "".join(
                        f"| teren {n}.{i} | {i % 4 + 1} | −{i % 3} | {SENTENCES[i % 10][:rng.randint(10, 50)]} |\n"
                        for i in range(rows)))
                elif roll < 0.38:
                    body.append(f"::: {rng.choice(KINDS)}\n{sentences(rng.randint(1, 4))}\n:::")
                elif roll < 0.45:
                    body.append(f"### Szczegół {sid}.{left} {{#{sid}-{left} .unnumbered}}\n\n"
                                + sentences(rng.randint(1, 3)))
        parts.append("\n\n".join(body))
    return "\n\n".join(parts) + "\n"


def edit(root: Path, where: float = 0.5, words: str = "Zmieniono: ") -> None:
    """One paragraph edited: `words` put before the first paragraph of the chapter at `where` (0 to 1) of the
    booklet, by default a word in the middle one."""
    path = root / "games" / "big" / "rules.md"
    text = path.read_text(encoding="utf-8")
    heads = [m.start() for m in re.finditer(r"^# Rozdział", text, re.M)]
    at = heads[int(len(heads) * where)]
    for block in re.finditer(r"(?<=\n\n)[^\n]", text[at:]):
        if block.group() not in "#:|-0123456789 ":
            start = at + block.start()
            break
    path.write_text(text[:start] + words + text[start:], encoding="utf-8")


def page_references(path: Path) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """The (section number, page) of every reference in the text ("12, s. 14") and every line of the contents
    of the booklet's PDF at `path`, and the page each section's heading is on (by its bookmark)."""
    from pypdf import PdfReader
    reader = PdfReader(path)
    texts = [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]
    found = [(n, int(p)) for text in texts for n, p in re.findall(r"(\d+(?:\.\d+)?), s\. (\d+)", text)]
    found += [(n, int(p)) for text in texts for n, p in re.findall(r"(\d+(?:\.\d+)?) \S+ \S+ ?\.{3,} ?(\d+)", text)]
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
    """A counter of the pages WeasyPrint lays out in this process (a page laid out again counts again)."""
    import weasyprint.layout.page as page
    counter = [0]
    make_page = page.make_page

    def counted(*args, **kwargs):
        counter[0] += 1
        return make_page(*args, **kwargs)

    page.make_page = counted
    return counter


def cpu(who: int | None = None) -> float:
    """CPU seconds of this process and of every process it waited for (the parts' processes), or of `who`
    alone (resource.RUSAGE_SELF or RUSAGE_CHILDREN)."""
    return sum(usage.ru_utime + usage.ru_stime for usage in (
        [resource.getrusage(who)] if who is not None else
        [resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)]))


def run_aids(root: Path, lang: str) -> dict:
    """aids' PDF of the booklet (its parts kept in root/cache); its HTML and print stylesheet saved beside the
    project for raw WeasyPrint."""
    from aids.config import read_project
    from aids.folder import Folder
    from aids.kinds import reading
    from aids.localize import making
    from aids.pipeline import pipeline
    from aids.render import parts
    from aids.render.pdf import print_css
    project = read_project(root)
    game = project.read_game("big")
    aid = reading.read_aids(project, game)[0][0]
    layouts = count_page_layouts()  # in this process: a booklet laid out whole (its parts are laid out in others)
    wall, used, own = time.perf_counter(), cpu(), cpu(resource.RUSAGE_SELF)
    with parts.cached(Folder(root / "cache")):
        lz = making.localizer(project, game, lang)
        doc = pipeline.document(game, aid, lz, None)
        rendered = pipeline.render(doc, ["pdf"])[".pdf"]
    wall, used, own = time.perf_counter() - wall, cpu() - used, cpu(resource.RUSAGE_SELF) - own
    (root / "page.html").write_text(doc.html, encoding="utf-8")
    css = print_css(lz, doc.context["game"], aid.kind.page_size(aid.model), aid.kind.margins(aid.model),
                    kind=aid.kind.name)
    (root / "print.css").write_text(css, encoding="utf-8")
    (root / "aids.pdf").write_bytes(rendered.data)
    laid = next((n for n in rendered.notes if n.startswith(("laid out in", "written in"))), "")
    again = re.search(r"(\d+) pages? laid out", laid)
    return {"wall": wall, "cpu": used, "serial": own, "pages": rendered.pages, "warnings": rendered.warnings,
            "parts": laid,
            "relaid": int(again.group(1)) if again else rendered.pages, "layouts": layouts[0]}


def run_raw(root: Path) -> dict:
    """Raw WeasyPrint on aids' HTML and CSS as one document, each page reference a plain text of about its
    width: the spans aids adds to WeasyPrint's tree (render/pagination.py), with their first guesses, never
    laid out again."""
    import weasyprint

    from aids.render.pagination import Pagination
    html = (root / "page.html").read_text(encoding="utf-8")
    css = (root / "print.css").read_text(encoding="utf-8")
    layouts = count_page_layouts()
    wall, used = time.perf_counter(), cpu()
    fonts = weasyprint.text.fonts.FontConfiguration()
    page = weasyprint.HTML(string=html, base_url=str(root / "games" / "big") + "/")
    Pagination(page.etree_element)
    document = page.render(
        stylesheets=[weasyprint.CSS(string=css, base_url=str(root) + "/", font_config=fonts)], font_config=fonts)
    document.write_pdf(pdf_tags=True)
    return {"wall": time.perf_counter() - wall, "cpu": cpu() - used, "pages": len(document.pages),
            "layouts": layouts[0]}


def child(mode: str, root: Path, lang: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", mode, "--root", str(root), "--lang", lang],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} (min {min(values):.2f}, max {max(values):.2f}, n={len(values)})"


def bench(style: str, pages: int, rounds: int, lang: str, whole: bool = False) -> None:
    print(f"\n== {style} generator, about {pages} pages, {rounds} rounds"
          + (", laid out whole (chapters not on pages of their own) ==" if whole else " =="))
    ratios: dict[str, list[float]] = {"cold/raw wall": [], "cold/raw CPU": [], "edit/cold wall": [],
                                      "edit/cold CPU": [], "cold/raw 2 idle cores": []}
    with tempfile.TemporaryDirectory() as tmp:
        pristine = Path(tmp) / "pristine"
        generate(pristine, pages, style, chapter_pages=not whole)
        for n in range(rounds):
            root = Path(tmp) / f"round{n}"
            shutil.copytree(pristine, root)
            if n == 0:  # the HTML raw WeasyPrint lays out: aids' own (a first cold build, not timed)
                child("aids", root, lang)
                shutil.copy(root / "page.html", Path(tmp) / "page.html")
                shutil.copy(root / "print.css", Path(tmp) / "print.css")
                shutil.rmtree(root / "cache", ignore_errors=True)
            shutil.copy(Path(tmp) / "page.html", root / "page.html")
            shutil.copy(Path(tmp) / "print.css", root / "print.css")
            first, second = ("raw", "cold") if n % 2 == 0 else ("cold", "raw")  # A,B then B,A
            runs = {first: child(first if first == "raw" else "aids", root, lang)}
            runs[second] = child(second if second == "raw" else "aids", root, lang)
            cold_pdf = root / "cold.pdf"
            shutil.copy(root / "aids.pdf", cold_pdf)
            edit(root)
            runs["edit"] = child("aids", root, lang)
            raw, cold, edited = runs["raw"], runs["cold"], runs["edit"]
            ratios["cold/raw wall"].append(cold["wall"] / raw["wall"])
            ratios["cold/raw CPU"].append(cold["cpu"] / raw["cpu"])
            ratios["edit/cold wall"].append(edited["wall"] / cold["wall"])
            ratios["edit/cold CPU"].append(edited["cpu"] / cold["cpu"])
            # what 2 cores of its own would give: this process's CPU, then its parts' shared by 2 (an estimate)
            ratios["cold/raw 2 idle cores"].append((cold["serial"] + (cold["cpu"] - cold["serial"]) / 2) / raw["cpu"])
            print(f"round {n + 1}: raw {raw['pages']} pages {raw['wall']:.1f} s wall {raw['cpu']:.1f} s CPU "
                  f"({raw['layouts'] / raw['pages']:.2f} layouts a page) | cold {cold['pages']} pages "
                  f"{cold['wall']:.1f} s wall {cold['cpu']:.1f} s CPU"
                  + (f" ({cold['layouts'] / cold['pages']:.2f} layouts a page)" if cold["layouts"] else "")
                  + f" | edit {edited['wall']:.1f} s wall "
                  f"{edited['cpu']:.1f} s CPU, {edited['relaid']} pages laid out again ({edited['parts']})")
            if n == 0:
                references, starts = page_references(root / "aids.pdf")
                wrong = [(number, page) for number, page in references if starts.get(number) != page]
                print(f"page references in aids' PDF: {len(references)} (contents and text), "
                      + (f"{len(wrong)} NOT on their targets' pages: {wrong[:5]}" if wrong
                         else "every one on its target's page") + f"; warnings: {cold['warnings'][:3]}")
    for name, values in ratios.items():
        print(f"{name:<15} median {spread(values)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--style", choices=["varied", "plain", "both"], default="both")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--lang", default="pl")
    parser.add_argument("--whole", action="store_true", help="the booklet without chapter_pages: aids lays it out "
                        "as one document, as before parts")
    parser.add_argument("--child", choices=["aids", "raw"], help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_aids(args.root, args.lang) if args.child == "aids" else run_raw(args.root)))
        return
    for style in (["varied", "plain"] if args.style == "both" else [args.style]):
        bench(style, args.pages, args.rounds, args.lang, args.whole)


if __name__ == "__main__":
    main()
