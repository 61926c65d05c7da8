"""Minimal reproduction: a text run that ends in a space or no-break space right before an inline element is
cut to its first word or hyphen piece (WeasyPrint 70.0, Pango 1.50). Only WeasyPrint is needed:

    python repro.py            # plain WeasyPrint: how many of 100 widths break a line wrongly, per case
    python repro.py --patched  # the same with line_break.patch applied in memory

A case breaks wrongly at a width when its lines differ from those of the same words as plain text (no element):
the markup around "3.2.7" does not change the font, so it must not change where lines break.
"""
import sys
from pathlib import Path

import weasyprint
from weasyprint.layout import inline, preferred
from weasyprint.text import line_break

BASE = "the exception is fire at the counter-charging cavalry unit attacking it, which is resolved"
CASES = {  # name: (the markup, the same words as plain text)
    "no-break space before <a>": (BASE + ' in\u00a0<a href="#x">3.2.7,\u00a0step\u00a03.a</a> now.',
                                  BASE + ' in\u00a03.2.7,\u00a0step\u00a03.a now.'),
    "space before <a>": (BASE + ' in <a href="#x">3.2.7,\u00a0step\u00a03.a</a> now.',
                         BASE + ' in 3.2.7,\u00a0step\u00a03.a now.'),
    "no-break space inside <a>": (BASE + ' in<a href="#x">\u00a03.2.7,\u00a0step\u00a03.a</a> now.',
                                  BASE + ' in\u00a03.2.7,\u00a0step\u00a03.a now.'),
    "space ending <span>": (BASE + ' <span>in </span>the rules of war in 3.2.7 now.',
                            BASE + ' in the rules of war in 3.2.7 now.'),
}


def lines(html: str, width: int) -> list[str]:
    page = weasyprint.HTML(string=(
        "<html lang='en'><style>@page { size: 400pt 800pt; margin: 10pt } "
        f"p {{ font: 10pt 'DejaVu Sans'; width: {width}pt; hyphens: auto }}</style><p>{html}</p></html>")
    ).render().pages[0]
    out: list[str] = []

    def walk(box) -> None:
        if type(box).__name__ == "LineBox":
            out.append("".join(b.text for b in box.descendants() if type(b).__name__ == "TextBox"))
            return
        for child in getattr(box, "children", []):
            walk(child)

    walk(page._page_box)
    return out


def main() -> None:
    if "--patched" in sys.argv:
        patched = Path(__file__).with_name("line_break.py")
        if not patched.exists():
            sys.exit(f"apply line_break.patch to a copy of weasyprint/text/line_break.py as {patched} first")
        exec(compile(patched.read_text(), line_break.__file__, "exec"), line_break.__dict__)
        inline.split_first_line = preferred.split_first_line = line_break.split_first_line
    widths = range(80, 280, 2)
    for name, (html, plain) in CASES.items():
        wrong = [w for w in widths if lines(html, w) != lines(plain, w)]
        print(f"{name}: {len(wrong)} of {len(widths)} widths break wrongly", f"(e.g. {wrong[0]} pt)" if wrong else "")


if __name__ == "__main__":
    main()
