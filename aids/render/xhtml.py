"""A page as an e-book's XHTML (render/epub.py): read as a browser reads HTML, written back as XML.

The page is read by an HTML5 parser (tinyhtml5, the one WeasyPrint reads it with), which puts an icon's inline
`<svg>` in the SVG namespace with its names as SVG spells them (`viewBox`, `clipPath`, `linearGradient`): lxml's
HTML parser lower-cases every name, and an e-reader then draws no icon at its size (EPUBCheck: "attribute
viewbox not allowed"). The tree is lxml's (`lxml.html` elements, the HTML ones without a namespace) for the
e-book's code to cut and relink; each chapter is written from it as XML, never parsed as HTML again.
"""
from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lxml.html import HtmlElement

XHTML_NS = "http://www.w3.org/1999/xhtml"
SVG_NS = "http://www.w3.org/2000/svg"
XMLNS_NS = "http://www.w3.org/2000/xmlns/"  # where an HTML5 parser puts an <svg>'s xmlns="..." declaration


def parsed(html: str) -> HtmlElement:
    """The page `html` as lxml elements, read by the HTML5 parser: an <svg> and its elements in its namespace."""
    import xml.etree.ElementTree as ET

    import lxml.html
    import tinyhtml5
    from lxml import etree

    source = tinyhtml5.parse(io.StringIO(html), namespace_html_elements=False)  # a str could name a file
    root = lxml.html.html_parser.makeelement(source.tag, _attributes(source))
    root.text = source.text
    pending = [(source, root)]
    while pending:  # a deep page needs no recursion
        src, dst = pending.pop()
        for child in src:
            if child.tag is ET.Comment:
                dst.append(etree.Comment(child.text))
                dst[-1].tail = child.tail
                continue
            space = _namespace(child.tag)
            el = etree.SubElement(dst, child.tag, _attributes(child),
                                  nsmap={None: space} if space and space != _namespace(dst.tag) else None)
            el.text, el.tail = child.text, child.tail
            pending.append((child, el))
    return root


def _attributes(el: Any) -> dict[str, str]:
    """An element's attributes, without the namespace declaration the parser gives as one (lxml declares it)."""
    return {name: value for name, value in el.attrib.items() if not name.startswith(f"{{{XMLNS_NS}}}")}


def _namespace(tag: str) -> str | None:
    return tag[1:].partition("}")[0] if tag.startswith("{") else None


def has_svg(elements: list[HtmlElement]) -> bool:
    """Whether `elements` hold inline SVG (an icon): its file has the `svg` property in the e-book's manifest."""
    return any(node.tag == f"{{{SVG_NS}}}svg" for el in elements for node in el.iter())


def document(shell: bytes, elements: list[HtmlElement]) -> bytes:
    """The XHTML file of a chapter: `shell` (EbookLib's, with its head) with `elements` as its body, each HTML
    element in the XHTML namespace, an SVG element in its own."""
    from copy import deepcopy

    from lxml import etree

    root = etree.fromstring(shell)
    body = root.find(f"{{{XHTML_NS}}}body")
    body.clear()
    for el in elements:
        copy = deepcopy(el)
        for node in copy.iter():
            if isinstance(node.tag, str) and not node.tag.startswith("{"):
                node.tag = f"{{{XHTML_NS}}}{node.tag}"
        body.append(copy)
    etree.cleanup_namespaces(root)
    return etree.tostring(root.getroottree(), encoding="utf-8", xml_declaration=True, doctype="<!DOCTYPE html>")
