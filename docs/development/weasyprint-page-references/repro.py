"""How often WeasyPrint lays a page out when a document shows page numbers with target-counter().

    python repro.py [--sections 120]

A contents list at the front and a "see section N, p. X" in every section: each number is unknown when its
page is first laid out, and WeasyPrint lays that page out again once it is known (and again when a number's
width moves the text after it). Prints the pages, the page layouts (make_page calls) and the time.
"""
import argparse
import time

import weasyprint
import weasyprint.layout.page as page_module

PARAGRAPH = ("A unit that begins its move in an enemy zone of control may leave it only by spending an extra "
             "movement point, and may not enter another enemy zone of control directly. ")


def document(sections: int) -> str:
    toc = "".join(f'<li><a href="#s{n}">Section {n}</a></li>' for n in range(1, sections + 1))
    body = "".join(
        f'<h2 id="s{n}">Section {n}</h2><p>{PARAGRAPH * 6} See <a href="#s{(n * 7) % sections + 1}">section '
        f'{(n * 7) % sections + 1}</a>.</p><p>{PARAGRAPH * 4}</p>' for n in range(1, sections + 1))
    style = ("@page { size: A5; margin: 15mm } body { font: 10pt/1.3 serif } "
             "li a::after { content: leader('.') target-counter(attr(href), page) } "
             "p a::after { content: ', p. ' target-counter(attr(href), page) }")
    return f"<html><head><style>{style}</style></head><body><ol>{toc}</ol>{body}</body></html>"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=120)
    args = parser.parse_args()
    made = [0]
    original = page_module.make_page

    def counted(*a, **k):
        made[0] += 1
        return original(*a, **k)
    page_module.make_page = counted
    start = time.perf_counter()
    pages = weasyprint.HTML(string=document(args.sections)).render().pages
    seconds = time.perf_counter() - start
    print(f"WeasyPrint {weasyprint.__version__}: {len(pages)} pages, {made[0]} page layouts "
          f"({made[0] / len(pages):.2f} a page), {seconds:.1f} s")


if __name__ == "__main__":
    main()
