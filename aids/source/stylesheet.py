"""A theme's stylesheet as aids reads it, with tinycss2 (WeasyPrint's own CSS parser): the addresses its url()s and
@imports name, each at its line and column (config/theme.py checks them), and the same stylesheet with each url()
pointing where a page finds its file (render/theme.py: a file URI in the PDF, its copy beside the web page)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import tinycss2
from tinycss2.ast import URLToken
from tinycss2.serializer import serialize_string_value

BLOCKS = ("() block", "[] block", "{} block")


@dataclass(frozen=True)
class Named:
    """An address the stylesheet names: a url() (`imported` false) or an @import."""
    address: str
    line: int
    column: int
    imported: bool = False


def named(text: str) -> list[Named]:
    """Every url() and @import of a stylesheet, in order (an @import's url() once, as the @import)."""
    found: list[Named] = []
    values = list(_values(tinycss2.parse_component_value_list(text)))
    imported: set[int] = set()  # the url() of an @import: said with it
    for n, node in enumerate(values):
        address = _address(node)
        if address is not None and id(node) not in imported:
            found.append(Named(address, node.source_line, node.source_column))
        elif node.type == "at-keyword" and node.lower_value == "import":
            target = next((v for v in values[n + 1:] if v.type not in ("whitespace", "comment")), None)
            imported.add(id(target))
            address = (target.value if target.type == "string" else _address(target)) if target is not None else None
            found.append(Named(address or "", node.source_line, node.source_column, imported=True))
    return found


def rewritten(text: str, to: Callable[[str], str]) -> str:
    """The stylesheet with each url(address) made url(to(address)); as it is, byte for byte, when none changes."""
    nodes = tinycss2.parse_component_value_list(text, skip_comments=False)
    if not _replace(nodes, to):
        return text
    return tinycss2.serialize(nodes)


def _replace(nodes: list[Any], to: Callable[[str], str]) -> bool:
    changed = False
    for n, node in enumerate(nodes):
        address = _address(node)
        if address is not None:
            new = to(address)
            if new != address:
                nodes[n] = URLToken(node.source_line, node.source_column, new,
                                    f'url("{serialize_string_value(new)}")')
                changed = True
        elif node.type in BLOCKS:
            changed = _replace(node.content, to) or changed
        elif node.type == "function":
            changed = _replace(node.arguments, to) or changed
    return changed


def _values(nodes: list[Any]) -> Iterator[Any]:
    """Every component value, inside blocks and functions too, in the order they are written."""
    for node in nodes:
        yield node
        if node.type in BLOCKS:
            yield from _values(node.content)
        elif node.type == "function" and node.lower_name != "url":
            yield from _values(node.arguments)


def _address(node: Any) -> str | None:
    """The address of a url() token or function (`url(a.png)`, `url("a.png")`); None for anything else."""
    if node.type == "url":
        return str(node.value)
    if node.type == "function" and node.lower_name == "url":
        given = [a for a in node.arguments if a.type not in ("whitespace", "comment")]
        if len(given) == 1 and given[0].type == "string":
            return str(given[0].value)
    return None
