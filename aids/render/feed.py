"""An Atom feed (RFC 4287) from plain data: written with ElementTree, every date given (none of the clock), so
the same data gives the same bytes."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

ATOM = "http://www.w3.org/2005/Atom"


@dataclass
class Entry:
    id: str  # an IRI that never changes (urn:uuid:...)
    title: str
    updated: str  # RFC 3339: 2026-03-05T00:00:00Z
    link: str
    content: str  # plain text


@dataclass
class Feed:
    id: str
    title: str
    lang: str  # its xml:lang
    updated: str
    author: str
    link: str  # the page it is the feed of
    self_link: str  # the feed itself
    entries: list[Entry] = field(default_factory=list)


def atom(feed: Feed) -> bytes:
    ET.register_namespace("", ATOM)
    root = ET.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": feed.lang})

    def add(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
        element = ET.SubElement(parent, f"{{{ATOM}}}{tag}", attrs)
        element.text = text
        return element

    add(root, "id", feed.id)
    add(root, "title", feed.title)
    add(root, "updated", feed.updated)
    add(add(root, "author"), "name", feed.author)
    add(root, "link", rel="alternate", type="text/html", href=feed.link)
    add(root, "link", rel="self", type="application/atom+xml", href=feed.self_link)
    add(root, "generator", "aids")
    for entry in feed.entries:
        element = add(root, "entry")
        add(element, "id", entry.id)
        add(element, "title", entry.title)
        add(element, "updated", entry.updated)
        add(element, "link", rel="alternate", type="text/html", href=entry.link)
        add(element, "content", entry.content, type="text")
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
