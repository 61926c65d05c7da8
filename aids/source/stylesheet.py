"""A theme's stylesheet as aids reads it, with tinycss2 (WeasyPrint's own CSS parser): the addresses its url()s and
@imports name, each at its line and column (config/theme.py checks them), and the same stylesheet with each url()
pointing where a page finds its file (render/theme.py: a file URI in the PDF, its copy beside the web page)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import tinycss2
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
    """The stylesheet with each url(address) made url("to(address)"), every other character as written (an escape
    stays an escape: `\\3c/` is never made `</`); as it is when no address changes."""
    text = normalized(text)
    starts = [0] + [n + 1 for n, char in enumerate(text) if char == "\n"]  # where each line begins
    out, at = [], 0
    for node in _values(tinycss2.parse_component_value_list(text)):
        address = _address(node)
        new = to(address) if address is not None else None
        if new is not None and new != address:
            start = starts[node.source_line - 1] + node.source_column - 1
            out += [text[at:start], f'url("{serialize_string_value(new)}")']
            at = _url_end(text, start)
    return "".join(out) + text[at:] if out else text


def without_urls(text: str) -> str:
    """The stylesheet without a declaration that names a file by url() (an @font-face that does: without the rule),
    inside @media and @supports too: for a reader that gets none of the files (the e-book)."""
    kept = [rule for rule in tinycss2.parse_stylesheet(normalized(text), skip_comments=True, skip_whitespace=True)
            if _without_urls(rule)]
    return "\n".join(tinycss2.serialize([rule]).strip() for rule in kept) + "\n"


def _without_urls(rule: Any) -> bool:
    """Takes what names a file out of `rule`; False when nothing of it is left."""
    if rule.type == "qualified-rule":
        declarations = [d for d in tinycss2.parse_blocks_contents(rule.content, True, True)
                        if d.type == "declaration" and not _names_url(d.value)]
        rule.content = tinycss2.parse_component_value_list("".join(tinycss2.serialize([d]) for d in declarations))
        return bool(declarations)
    if rule.type != "at-rule":
        return True
    if rule.content is not None and rule.lower_at_keyword in ("media", "supports"):
        inside = without_urls(tinycss2.serialize(rule.content))
        rule.content = tinycss2.parse_component_value_list(inside)
        return bool(inside.strip())
    return not _names_url(rule.prelude) and not (rule.content is not None and _names_url(rule.content))


def _names_url(nodes: list[Any]) -> bool:
    return any(_address(node) is not None for node in _values(nodes))


def normalized(text: str) -> str:
    """`text` with its line ends as tinycss2 counts lines and columns (CR LF, CR and FF read as LF)."""
    return text.replace("\0", "\uFFFD").replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n")


def _url_end(text: str, start: int) -> int:
    """Where the url() token or function that begins at `start` ends: after its `)` (CSS Syntax: an unquoted
    address ends at an unescaped `)`, a quoted one at its closing quote)."""
    at = text.index("(", start) + 1
    while at < len(text) and text[at] in " \t\n":
        at += 1
    quote = text[at] if at < len(text) and text[at] in "\"'" else ""
    at += bool(quote)
    while at < len(text) and text[at] != (quote or ")"):
        at += 2 if text[at] == "\\" else 1
    if quote:
        at = text.find(")", at)
        at = len(text) - 1 if at < 0 else at
    return min(at + 1, len(text))


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
