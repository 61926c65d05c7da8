"""A theme's template blocks (`templates:` in theme.yaml, docs/guide/themes.md): a few lines of markup around the
documented variables, rendered on every page in a sandbox.

A block is held to that. Its Jinja2 may print the variables, test them (`{% if %}`), join them and pass them
through filters that neither grow a text nor unescape it; nothing else (no loop, macro, call, attribute,
assignment, include or `autoescape`), so its time and output are bounded by its size, and it cannot reach past
its variables (Jinja's sandbox refuses `''.__class__` only when it is run) nor print a translator's `<script>`
(`|safe`). What it prints is then read back as HTML and kept only with the elements and attributes of a page's
text: no script, style, event attribute, image or frame of its own. Each refusal is the theme's error, at its
line and column.
"""
from __future__ import annotations

import functools
import re
import traceback
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.sandbox import SandboxedEnvironment
from lxml import etree, html
from markupsafe import Markup, escape

from ..errors import AidsError, Position, Problem
from ..folder import read_file
from ..source.yamlfile import decode, position_in

MAX_BLOCK = 64 * 1024  # bytes: a block is a few lines
VARIABLES = ("lang", "game_title", "aid_title", "label", "version", "published", "author")
# filters whose output is no longer than a few times their input, and never unescaped (no safe, format, replace,
# center, indent, urlencode or forceescape: each grows or unescapes a text, repeated without bound)
FILTERS = frozenset({"capitalize", "d", "default", "e", "escape", "first", "int", "last", "length", "lower",
                     "string", "striptags", "title", "trim", "truncate", "upper", "wordcount"})
# what a block may write: a page's text and its links, nothing that runs, loads or styles
ELEMENTS = frozenset({"a", "abbr", "b", "blockquote", "br", "cite", "div", "em", "footer", "h2", "h3", "h4",
                      "header", "hr", "i", "li", "ol", "p", "section", "small", "span", "strong", "sub", "sup",
                      "time", "ul"})
ATTRIBUTES = frozenset({"class", "id", "lang", "title", "href", "role", "datetime"})
_LINK = re.compile(r"(https?://|mailto:|#)[^\s\"'<>]*", re.IGNORECASE)
EXPECTED = ("{{ variable }}, {% if %}, ~ and the filters " + ", ".join(sorted(FILTERS)) + " on "
            + ", ".join(VARIABLES) + " (docs/guide/themes.md)")
_NODES = (nodes.Template, nodes.Output, nodes.TemplateData, nodes.Const, nodes.Name, nodes.If, nodes.CondExpr,
          nodes.And, nodes.Or, nodes.Not, nodes.Neg, nodes.Pos, nodes.Compare, nodes.Operand, nodes.Concat,
          nodes.Add, nodes.Filter, nodes.Test, nodes.Keyword, nodes.List, nodes.Tuple, nodes.FilterBlock)
# what a refused node is called in a message, and what to look for on its line for the column
_SAID = {nodes.For: ("a loop", "for"), nodes.Macro: ("a macro", "macro"), nodes.CallBlock: ("a call", "call"),
         nodes.Call: ("a call", "("), nodes.Getattr: ("an attribute", "."), nodes.Getitem: ("an index", "["),
         nodes.Include: ("{% include %}", "include"), nodes.Import: ("{% import %}", "import"),
         nodes.FromImport: ("{% from %}", "from"), nodes.Extends: ("{% extends %}", "extends"),
         nodes.Block: ("{% block %}", "block"), nodes.Assign: ("{% set %}", "set"),
         nodes.AssignBlock: ("{% set %}", "set"), nodes.With: ("{% with %}", "with"),
         nodes.ScopedEvalContextModifier: ("{% autoescape %}", "autoescape"),
         nodes.Scope: ("{% autoescape %}", "autoescape"),  # what holds the modifier of {% autoescape %}
         nodes.EvalContextModifier: ("{% autoescape %}", "autoescape"), nodes.Mul: ("'*'", "*"),
         nodes.Pow: ("'**'", "**"), nodes.Mod: ("'%'", "%"), nodes.Div: ("'/'", "/"), nodes.FloorDiv: ("'//'", "//"),
         nodes.Sub: ("'-'", "-"), nodes.Dict: ("a dict", "{"), nodes.Slice: ("a slice", ":")}


class _Environment(SandboxedEnvironment):
    """The sandbox, with the checked blocks' filters only."""

    def __init__(self) -> None:
        super().__init__(autoescape=True, undefined=jinja2.StrictUndefined)
        self.filters = {name: self.filters[name] for name in FILTERS}
        self.globals.clear()


_SANDBOX = _Environment()


def check_block(path: Path, shown: str, name: str) -> tuple[jinja2.Template, str]:
    """The block, compiled, and its text; refused (AidsError, at its line and column) when it is no file of text
    within MAX_BLOCK, does not parse, or uses what a block may not."""
    text = decode(read_file(path, shown, MAX_BLOCK), shown)  # UTF-8, no control character
    return compiled(text, shown, name), text


def render_block(path: Path, shown: str, name: str, variables: dict[str, Any]) -> Markup:
    """The block rendered with `variables`, as the HTML its page gets (checked, then written again by lxml)."""
    template, text = check_block(path, shown, name)
    try:
        out = template.render(**variables)
    except Exception as exc:  # what the block does to its values: 'a' + 1, a test of a number by 0
        line = next((frame.lineno for frame in reversed(traceback.extract_tb(exc.__traceback__))
                     if frame.filename == "<template>"), 0)
        raise AidsError(Problem(Position(shown, line or 0, 1 if line else 0), f"template block '{name}' fails: "
                                f"{type(exc).__name__}: {exc}", EXPECTED)) from None
    return Markup(_checked_html(out, text, shown, name))


@functools.lru_cache(maxsize=64)
def compiled(text: str, shown: str, name: str) -> jinja2.Template:
    """The block of `text`, compiled once however many pages print it."""
    try:
        tree = _SANDBOX.parse(text)
    except jinja2.TemplateSyntaxError as exc:
        raise AidsError(Problem(Position(shown, exc.lineno or 1, 1), f"template block '{name}': {exc.message}",
                                EXPECTED)) from None
    for node in tree.find_all(nodes.Node):
        fault = _fault(node)
        if fault:
            said, token = fault
            raise AidsError(Problem(_at(text, shown, node.lineno, token), f"template block '{name}': {said}",
                                    EXPECTED))
    return _SANDBOX.from_string(tree)


def _fault(node: nodes.Node) -> tuple[str, str] | None:
    """(what is refused in `node`, what to look for on its line), or None when a block may hold it."""
    if isinstance(node, nodes.Name) and (node.ctx != "load" or node.name not in VARIABLES):
        return f"unknown variable '{node.name}'", node.name
    if isinstance(node, nodes.Filter) and node.name not in FILTERS:
        return f"the filter '{node.name}' is not one a block may use", node.name
    if isinstance(node, _NODES):
        return None
    said, token = _SAID.get(type(node), (f"'{type(node).__name__}'", ""))
    return f"{said} is not allowed in a block", token


def _at(text: str, shown: str, line: int | None, token: str) -> Position:
    """The position of `token` on `line` (1-based) of `text`, inside a Jinja tag if it can be found there (on any
    line when the parser gave none)."""
    lines = text.splitlines()
    if not line and token and token in text:
        return position_in(text, shown, text.index(token))
    if not line or not 0 < line <= len(lines):
        return Position(shown, line or 1, 1)
    here = lines[line - 1]
    start = min((m.start() for m in re.finditer(r"\{[{%]", here)), default=0)
    column = here.find(token, start) if token else -1
    offset = sum(len(x) + 1 for x in lines[:line - 1]) + (column if column >= 0 else start)
    return position_in(text, shown, offset)


def _checked_html(out: str, text: str, shown: str, name: str) -> str:
    """`out` read as HTML, refused with an element or attribute a page's text does not have (at the first place
    in the block's `text` that writes it), and written again from what was read: what the page gets is what was
    checked."""
    try:
        holder = html.fragment_fromstring(out, create_parent="div")
    except etree.ParserError:
        return ""
    for element in holder.iterdescendants():
        fault, token = _element_fault(element)
        if fault:
            found = re.search(re.escape(token), text, re.IGNORECASE)
            raise AidsError(Problem(position_in(text, shown, found.start()) if found else Position(shown),
                                    f"template block '{name}' writes {fault}",
                                    "the markup of a text: " + ", ".join(f"<{e}>" for e in sorted(ELEMENTS))
                                    + "; links to https:, mailto: or #"))
    _spaces_lead(holder)
    return str(escape(holder.text or "")) + "".join(
        html.tostring(child, encoding="unicode", method="html") for child in holder)


INLINE = {"a", "abbr", "b", "cite", "code", "em", "i", "q", "small", "span", "strong", "sub", "sup", "time"}


def _spaces_lead(holder: Any) -> None:
    """A space the block writes before an inline element moves inside it, as aids writes its own runs
    (render/html.py, spaces_lead): no run ends in a space where an element begins."""
    for element in holder.iterdescendants():
        if not isinstance(element.tag, str) or element.tag not in INLINE:
            continue
        before = element.getprevious()
        text = (before.tail if before is not None else element.getparent().text) or ""
        kept = text.rstrip()
        if kept == text or not kept:
            continue
        if before is not None:
            before.tail = kept
        else:
            element.getparent().text = kept
        element.text = text[len(kept):] + (element.text or "")


def _element_fault(element: Any) -> tuple[str, str]:
    """(what is refused in `element`, what writes it in the block), or ('', '')."""
    if not isinstance(element.tag, str):
        return ("", "") if isinstance(element, etree._Comment) else ("markup that is not an element", "<?")
    if element.tag not in ELEMENTS:
        return f"<{element.tag}>", f"<{element.tag}"
    for attr, value in element.attrib.items():
        if attr not in ATTRIBUTES and not attr.startswith("aria-"):
            return f"the attribute '{attr}' of <{element.tag}>", attr
        if attr == "href" and not _LINK.fullmatch(value.strip()):
            return f"a link to '{value}' in <{element.tag}>", value
    return "", ""
