"""Markdown sources (a booklet's rule files) parsed by markdown-it-py: CommonMark, tables and `:::` blocks."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from mdit_py_plugins.attrs import attrs_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.footnote import footnote_plugin

from .yamlfile import decode, read_bytes

# Raw HTML is parsed (not passed through) only so that it can be reported where it stands.
_MARKDOWN = MarkdownIt("commonmark", {"html": True}).enable("table")
container_plugin(_MARKDOWN, "block", validate=lambda params, *args: True)
footnote_plugin(_MARKDOWN, inline=False)  # text[^1] and [^1]: note; not ^[inline notes]
attrs_plugin(_MARKDOWN, spans=True)  # [words]{lang=en}: words in another language (model/text.py, LANGUAGE_TAG)
# markdown-it leaves a link or image to file:, data: or javascript: unparsed, as plain text that would then be
# printed; parsed, every link and image is checked (and refused where it points outside the game) by the reader.
_MARKDOWN.validateLink = lambda url: True  # type: ignore[method-assign]


@dataclass
class Markdown:
    """One parsed Markdown file: its lines (for positions) and its syntax tree."""
    path: Path
    shown: str
    lines: list[str]
    tree: SyntaxTreeNode
    unreferenced: list[str]  # the labels of footnotes defined and never referenced (markdown-it drops them)


def read_markdown(path: Path, shown: str) -> Markdown:
    """Parse `path`; bytes that are not UTF-8 are an AidsError at their line and column."""
    lines = decode(read_bytes(path, shown), shown).splitlines()
    env: dict = {}
    tree = SyntaxTreeNode(_MARKDOWN.parse("\n".join(lines), env))
    refs = env.get("footnotes", {}).get("refs", {})
    return Markdown(path, shown, lines, tree, [label[1:] for label, n in refs.items() if n == -1])
