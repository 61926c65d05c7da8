"""What WeasyPrint's tagged PDF (its pdf/ua-1 variant) leaves out of the structure tree, added as it is built:

- /Lang on the element of a text in another language than the page's (`lang` on a span: a text awaiting its
  translation, shown in the source language), so that a screen reader reads it with that language's voice;
- /Scope on every header cell (TH), from the cell's `scope` (row, col, rowgroup, colgroup): WeasyPrint pairs
  cells with headers (/Headers, /ID) but writes no /Scope, which checkers (pdfua's UA-15-003) ask for;
- /Alt on a figure from an SVG's `aria-label` (an inline icon), where WeasyPrint reads only its <title> or an
  image's `alt`; an element hidden from assistive technology (`aria-hidden="true"`: a decorative glyph) read as
  nothing (/ActualText empty), as a browser hides it.

Installed (`install`) once per process, as WeasyPrint makes the structure element of each box
(weasyprint_internals.hook_structure_elements)."""
from __future__ import annotations

from typing import Any

from . import weasyprint_internals

SCOPES = {"row": "/Row", "rowgroup": "/Row", "col": "/Column", "colgroup": "/Column"}
SVG = "{http://www.w3.org/2000/svg}svg"


def install() -> None:
    """Make WeasyPrint's tag tree carry /Lang, /Scope and /Alt as the HTML says (see the module's text)."""
    weasyprint_internals.hook_structure_elements(complete)


def complete(element: Any, box: Any) -> None:
    """The structure element made of `box` given what its HTML element says and WeasyPrint does not write."""
    import pydyf
    html = getattr(box, "element", None)
    if html is None or getattr(box, "element_tag", None) is None:
        return
    lang = html.get("lang")
    if lang and html.tag != "html":  # the root's language is the document's (/Lang of the catalog)
        element["Lang"] = pydyf.String(lang)
    role = element.get("S")
    if role == "/TH":
        attributes = element.setdefault("A", pydyf.Dictionary({"O": "/Table"}))
        attributes["Scope"] = SCOPES.get((html.get("scope") or "col").lower(), "/Column")
    if html.get("aria-hidden") == "true":
        element["ActualText"] = pydyf.String("")
    elif role == "/Figure" and "Alt" not in element and html.tag == SVG and html.get("aria-label"):
        element["Alt"] = pydyf.String(html.get("aria-label"))
