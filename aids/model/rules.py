"""The rule text of a booklet: its Markdown files read into numbered headings, paragraphs, lists, tables,
boxes and directives, each text a message whose msgctxt is its section's id."""
from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import AidsError, Position, Problems
from ..source.markdown import read_markdown
from ..source.shape import name_fault
from ..source.yamlfile import Source
from .figures import Image, Row, figure_nodes, read_figures
from .footnotes import Footnotes
from .icons import check_icon
from .text import PLACEHOLDER, SPAN_EXPECTED, UNREAD_SPAN, Text, attributes_fault, unclosed_placeholder

if TYPE_CHECKING:
    from .booklet import Booklet

# `## Title {#stable-id}`; `{#id .unnumbered}` for a heading outside the numbered case system
HEADING_ID = re.compile(r"\s*\{#([^\s{}]*)(\s+\.unnumbered)?\}\s*\Z")
NUMBER = re.compile(r"[-\u2212]?\d+(?:\.\d+)?\Z")  # a table cell holding only a number is data
# ... and so is one holding counter ratings (2-4, 3/4-6) or a code (RTG, X+), printed as it is in every language
VERBATIM = re.compile(r"\d+(?:[/-]\d+)+\Z|[A-Z][A-Z0-9+/-]*\Z")
BOXES = ("example", "note", "optional", "designer", "exception")
DIRECTIVES = ("abbreviations", "glossary", "index", "embed", "break")
ARGUMENTS = {"embed": "::: embed <aid id>", "break": "::: break page, or ::: break column"}
PLACEHOLDERS = ("ref", "see", "term", "note", "ord")
ORDINAL = re.compile(r"[1-9]\d{0,5}(\|[fn])?\Z")  # {ord:6}, {ord:6|f}: an ordinal number (localize/ordinals.py)
_ESCAPE = re.compile(r"([\\`*_\[\]])")
FOOTNOTE = re.compile(r"\[\^[^\]\s]*\]")  # [^1] and [^1]: ..., which CommonMark leaves as text
EXTERNAL = re.compile(r"https?://[^\s]+\Z", re.IGNORECASE)  # a web address: a link that leaves the booklet
LINKS = "[](#id), [](term:id) or a web address, [text](https://...)"
UNREAD_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")  # an image markdown-it could not read, e.g. a space in its path


@dataclass
class Heading:
    id: str
    level: int  # 1 for "#", 2 for "##", ...
    number: tuple[int, ...]  # () for an unnumbered heading
    text: Text

    @property
    def label(self) -> str:
        return ".".join(str(n) for n in self.number)


@dataclass
class Paragraph:
    text: Text


@dataclass
class ListBlock:
    ordered: bool
    start: int
    items: list[list[Block]]


class Verbatim(str):
    """A table cell of counter ratings (2-4, 3/4-6) or a code (RTG): data, the same in every language."""


Cell = Text | Decimal | Verbatim | None


@dataclass
class Table:
    head: list[Cell]
    rows: list[list[Cell]]
    align: list[str]  # "left", "right", "center" or ""


@dataclass
class Box:
    kind: str  # one of BOXES
    blocks: list[Block]


@dataclass
class Directive:
    name: str  # one of DIRECTIVES
    arg: str
    where: Position
    target: tuple | None = None  # (kind, model) of an embedded aid, set when the booklet kind links it


Block = Heading | Paragraph | Image | Row | ListBlock | Table | Box | Directive


def walk(blocks: list[Block]) -> Iterator[Block]:
    """Every block in document order, boxes and list items entered."""
    for block in blocks:
        yield block
        if isinstance(block, Box):
            yield from walk(block.blocks)
        elif isinstance(block, Row):
            yield from block.images
        elif isinstance(block, ListBlock):
            for item in block.items:
                yield from walk(item)


class RulesReader:
    """Walks the Markdown syntax trees of a booklet's files, numbering headings and cutting messages."""

    def __init__(self, booklet: Booklet, src: Source, folder: Path, problems: Problems, icons: dict | None = None):
        self.booklet, self.src, self.folder, self.problems = booklet, src, folder.resolve(), problems
        self.icons = icons  # the game's icon set: {icon:<id>} in the text (None: read without its game)
        self.counters: list[int] = []
        self.section = "start"  # id of the heading the next message belongs to: its msgctxt
        self.placeholders: list[tuple[str, str, Position]] = []
        self.first_line: dict[str, Position] = {}
        self.file, self.shown = folder, ""  # the Markdown file being read
        self.lines: list[str] = []
        self.context = ""  # "a table cell" while one is read: an image there is not one inside a paragraph
        self.notes = Footnotes(booklet.id, problems)
        booklet.footnotes = self.notes.texts

    def read_file(self, name: str, where: Position) -> None:
        path = (self.src.path.parent / name).resolve()
        looked = os.path.normpath(Path(self.src.shown).parent / name)  # where it looked, as the project shows it
        if not path.is_relative_to(self.folder) or not path.exists():  # a FIFO is refused unread, below
            why = "leads outside the game folder" if not path.is_relative_to(self.folder) else "not found"
            self.problems.add(where, f"Markdown file '{name}' {why} (looked for {looked})",
                              "a file of the game folder, named from the booklet source's folder")
            return
        self.shown = str(Path(self.src.shown).parent / name)
        self.file = path
        self.booklet.inputs.append(path)
        try:
            source = read_markdown(path, self.shown)
        except AidsError as exc:
            self.problems.extend(exc)
            return
        self.lines = source.lines
        self.booklet.blocks.extend(self.blocks(source.tree.children, ""))
        for label in source.unreferenced:
            line = next((n for n, text in enumerate(self.lines) if f"[^{label}]:" in text), 0)
            self.problems.add(Position(self.shown, line + 1, self.lines[line].find("[^") + 1 if self.lines else 1),
                              f"footnote '[^{label}]' is never referenced", f"text[^{label}] where the note belongs")
        self.notes.end_file()

    # -- positions -----------------------------------------------------------------------------
    def at(self, node, needle: str = "", nth: int = 0) -> Position:
        """Where `node` starts, or where `needle` first (or after `nth` others) occurs within its lines."""
        first, last = (node.map or [0, 0]) if node is not None else (0, 0)
        if needle:
            found = [Position(self.shown, n + 1, m.start() + 1) for n in range(first, max(last, first + 1))
                     if n < len(self.lines) for m in re.finditer(re.escape(needle), self.lines[n])]
            if len(found) > nth:
                return found[nth]
        col = len(self.lines[first]) - len(self.lines[first].lstrip()) if first < len(self.lines) else 0
        return Position(self.shown, first + 1, col + 1)

    def message(self, msgid: str, node, what: str) -> Text:
        """A text of the current section. Its msgctxt is the section's id, not its position, so inserting,
        deleting or moving a paragraph leaves every other entry as it was (identical texts share one)."""
        heading = self.booklet.headings.get(self.section)
        place = f"section {heading.label}" if heading and heading.number else f"section '{self.section}'"
        return Text(msgid, f"{self.booklet.id}/{self.section}", f"{what} in {place}", self.at(node))

    # -- blocks --------------------------------------------------------------------------------
    def blocks(self, nodes, context: str) -> list[Block]:
        out: list[Block] = []
        for node in nodes:
            block = self.block(node, context)
            if block is not None:
                out.append(block)
        return out

    def block(self, node, context: str) -> Block | None:
        kind = node.type
        if kind == "heading":
            if context:
                self.problems.add(self.at(node), f"a heading inside {context}", "headings at the top level only")
                return None
            return self.heading(node)
        if kind == "paragraph":
            inline = node.children[0]
            if (figures := figure_nodes(inline.children)) is not None:  # a figure, or figures side by side
                return read_figures(self, figures, node)
            what = {"": "Paragraph", "a list": "List item"}.get(context, f"Paragraph of {context}")
            return Paragraph(self.message(self.inline(inline, node), node, what))
        if kind in ("bullet_list", "ordered_list"):
            start = int(node.attrs.get("start", 1)) if kind == "ordered_list" else 1
            items = [self.blocks(item.children, "a list") for item in node.children]
            return ListBlock(kind == "ordered_list", start, items)
        if kind == "table":
            return self.table(node)
        if kind == "container_block":
            return self.container(node, context)
        if kind == "hr":
            return None
        if kind == "footnote_block":
            self.notes.read(node, self)
            return None
        if kind in ("html_block", "html_inline"):
            self.problems.add(self.at(node), "raw HTML in Markdown", "Markdown only; HTML is never passed through")
            return None
        self.problems.add(self.at(node), f"unsupported Markdown element '{kind}'",
                          "headings, paragraphs, lists, tables, images and ::: blocks")
        return None

    def heading(self, node) -> Heading | None:
        raw = node.children[0].content
        m = HEADING_ID.search(raw)
        level = int(node.tag[1])
        if not m:
            self.problems.add(self.at(node), "heading without a valid id",
                              "a stable id at its end, e.g. ## Zone of control {#zoc}")
            return None
        if fault := name_fault(m.group(1), "heading id"):
            self.problems.add(self.at(node, "{#"), *fault)
            return None
        hid = m.group(1)
        if hid in self.booklet.headings or hid in self.first_line:
            self.problems.add(self.at(node, "{#"), f"heading id '{hid}' used twice (first at {self.first_line[hid]})",
                              "ids unique within the booklet")
            return None
        self.first_line[hid] = self.at(node)
        number: tuple[int, ...] = ()
        if not m.group(2):
            if level > len(self.counters) + 1:
                self.problems.add(self.at(node), f"heading level {level} under level {len(self.counters)}",
                                  f"a heading of level {len(self.counters) + 1} or less")
                return None
            self.counters = self.counters[:level]
            if len(self.counters) < level:
                self.counters.append(0)
            self.counters[level - 1] += 1
            number = tuple(self.counters)
        self.section = hid
        heading = Heading(hid, level, number, Text("", "", "", self.at(node)))
        self.booklet.headings[hid] = heading
        label = f"Heading {heading.label}" if number else "Unnumbered heading"
        self.context = "a heading"
        heading.text = Text(HEADING_ID.sub("", self.inline(node.children[0], node)).strip(),
                            f"{self.booklet.id}/{hid}", label, self.at(node))
        self.context = ""
        return heading

    def container(self, node, context: str) -> Block | None:
        name, _, arg = node.info.strip().partition(" ")
        arg = arg.strip()
        last = (node.map or (0, 0))[1]
        if last >= len(self.lines) or not self.lines[last].strip().startswith(":::"):  # map ends before ':::'
            # unclosed, the block would swallow the rest of the file
            self.problems.add(self.at(node), f"'::: {name}' is not closed", "a line ':::' where the block ends")
            return None
        if name == "wide":  # across the columns of a two-column page
            if context:
                self.problems.add(self.at(node), f"::: wide inside {context}", "::: wide at the top, outside "
                                  "lists and boxes")
                return None
            return Box(name, self.blocks(node.children, "a wide block"))
        if name in BOXES:
            if context.startswith("a box"):
                self.problems.add(self.at(node), f"a ::: {name} block inside {context}", "boxes side by side")
                return None
            return Box(name, self.blocks(node.children, f"a box ({name})"))
        if name in DIRECTIVES:
            if node.children:
                self.problems.add(self.at(node), f"::: {name} takes no content", f"::: {name}\\n:::")
            if not (bool(arg) if name == "embed" else arg in ("page", "column") if name == "break" else not arg):
                self.problems.add(self.at(node), f"::: {name} {arg}".rstrip() + ": wrong argument",
                                  ARGUMENTS.get(name, f"::: {name} alone"))
                return None
            return Directive(name, arg, self.at(node))
        self.problems.add(self.at(node, ":::"), f"unknown block kind '{name}'",
                          ", ".join((*BOXES, "wide", *DIRECTIVES)))
        return None

    def table(self, node) -> Table:
        head, *body = [tr for part in node.children for tr in part.children]
        align = [re.sub(r"text-align:", "", str(c.attrs.get("style", ""))) for c in head.children]
        cells = [[self.cell(c, tr) for c in tr.children] for tr in [head, *body]]
        return Table(cells[0], cells[1:], align)

    def cell(self, cell, row) -> Cell:
        inline = cell.children[0] if cell.children else None
        raw = inline.content.strip() if inline is not None else ""
        if not raw:
            return None
        if NUMBER.match(raw):
            return Decimal(raw.replace("\u2212", "-"))
        if VERBATIM.match(raw):
            return Verbatim(raw)
        self.context = "a table cell"
        try:
            return self.message(self.inline(inline, row), row, "Table cell")
        finally:
            self.context = ""

    # -- inline --------------------------------------------------------------------------------
    def inline(self, node, block) -> str:
        """The msgid of an inline run: emphasis kept as Markdown, references and terms as placeholders."""
        out = []
        for child in node.children:
            kind = child.type
            if kind == "text":
                out.append(self.text_run(child.content, block))
            elif kind in ("softbreak", "hardbreak"):
                out.append(" ")
            elif kind in ("em", "strong"):
                mark = "*" if kind == "em" else "**"
                out.append(mark + self.inline(child, block) + mark)
            elif kind == "code_inline":
                out.append(f"`{child.content}`")
            elif kind == "span":
                out.append(self.span(child, block))
            elif kind == "link":
                out.append(self.link(child, block))
            elif kind == "footnote_ref":
                label = child.meta["label"]
                out.append(self.notes.reference(label, child.meta.get("subId", 0) > 0, self.section,
                                                self.at(block, f"[^{label}]", child.meta.get("subId", 0)),
                                                self.context))
            elif kind == "footnote_anchor":  # markdown-it's back link from a note to its reference
                continue
            elif kind == "html_inline":
                self.problems.add(self.at(block, child.content), f"raw HTML '{child.content}' in Markdown",
                                  "Markdown only; HTML is never passed through")
            elif kind == "image":
                self.problems.add(self.at(block, "!["), f"an image in {self.context}" if self.context else
                                  "an image inside text", "an image alone in its paragraph" +
                                  (", outside the table" if self.context else ""))
            else:
                self.problems.add(self.at(block), f"unsupported inline Markdown '{kind}'", "emphasis, links")
        return re.sub(r"\s+", " ", "".join(out))

    def span(self, node, block) -> str:
        """Words in another language as the msgid has them: [words]{lang=en}."""
        words = self.inline(node, block)
        fault = attributes_fault({k: str(v) for k, v in node.attrs.items()})
        if fault:
            self.problems.add(self.at(block, "]{"), fault, SPAN_EXPECTED)
            return words
        return f"[{words}]{{lang={node.attrs['lang']}}}"

    def text_run(self, text: str, block) -> str:
        """A run of plain text as the msgid has it: its placeholders noted, Markdown specials escaped."""
        for m in PLACEHOLDER.finditer(text):
            self.placeholders.append((m.group(1), m.group(2), self.at(block, m.group(0))))
        unclosed = unclosed_placeholder(text)
        if unclosed:
            self.problems.add(self.at(block, unclosed), f"placeholder '{unclosed}' not closed",
                              "{kind:target}, e.g. {ref:section-id}")
        self.unsupported(text, block)
        if unread := UNREAD_SPAN.search(text):
            self.problems.add(self.at(block, unread.group(0)), f"span '{unread.group(0)}' not read", SPAN_EXPECTED)
        return _ESCAPE.sub(r"\\\1", text)

    def unsupported(self, text: str, block) -> None:
        """Markdown that CommonMark leaves as text, and that would be printed as it is written."""
        for m in FOOTNOTE.finditer(text):
            self.problems.add(self.at(block, m.group(0)), f"footnote '{m.group(0)}' has no note",
                              f"{m.group(0)}: the note's text, in the same file")
        for m in UNREAD_IMAGE.finditer(text):
            self.problems.add(self.at(block, m.group(0)), f"image '{m.group(0)}' cannot be read",
                              "![description](path) with no space in the path, or ![description](<path>)")

    def link(self, node, block) -> str:
        href = str(node.attrs.get("href", ""))
        if EXTERNAL.match(href):
            return self.external(node, block, href)
        if node.markup == "autolink":  # <mailto:...>: the address is the link's text, as written
            written = node.children[0].content if node.children else href
            self.problems.add(self.at(block, f"<{written}>"), f"link to '{written}' outside the booklet",
                              LINKS)
            return ""
        where = self.at(block, f"]({href}") if href else self.at(block)
        if where.line:  # point at the link's opening bracket, not at the middle of it
            line = self.lines[where.line - 1]
            where = Position(where.path, where.line, line.rfind("[", 0, where.col - 1) + 1 or where.col)
        label = node.children[0].content if len(node.children) == 1 and node.children[0].type == "text" else ""
        if FOOTNOTE.fullmatch(f"[{label}]"):  # [^1] with its definition [^1]: ..., read as a link by CommonMark
            self.problems.add(self.at(block, f"[{label}]"), f"footnote '[{label}]' has no note",
                              f"[{label}]: the note's text, in the same file")
            return ""
        if node.children and href.startswith(("#", "term:")):
            self.problems.add(where, "a link with text of its own",
                              "[](#id) for a rule's number, [](term:id) for a glossary term")
            return ""
        if href.startswith("#"):
            kind, target = "ref", href[1:]
        elif href.startswith("term:"):
            kind, target = "term", href[5:]
        else:
            self.problems.add(where, f"link to '{href}' outside the booklet", LINKS)
            return ""
        self.placeholders.append((kind, target, where))
        return f"{{{kind}:{target}}}"

    def external(self, node, block, href: str) -> str:
        """A link to a web address, kept in the msgid as Markdown (`[text](address)`, or `<address>` where the
        address is its own text), so that a translator translates its text and keeps its address. Never fetched:
        the page links it, the PDF holds it as a link annotation."""
        text = self.inline(node, block).strip() if node.markup != "autolink" and node.children else ""
        if not text or text == href:
            return f"<{href}>"
        return f"[{text}](<{href}>)" if re.search(r"[\s()<>]", href) else f"[{text}]({href})"

    def check_references(self) -> None:
        for kind, target, where in self.placeholders:
            if kind == "icon":
                check_icon(target, where, self.icons, self.problems)
            elif kind not in PLACEHOLDERS:
                self.problems.add(where, f"unknown placeholder '{{{kind}:{target}}}'",
                                  "{ref:id}, {see:id}, {term:id} or {icon:id}")
            elif kind == "term" and self.booklet.term(target) is None:
                self.problems.add(where, f"glossary term '{target}' referenced but not defined",
                                  ", ".join(t.id for t in self.booklet.glossary) or "a term under glossary:")
            elif kind == "ord" and not ORDINAL.match(target):
                self.problems.add(where, f"ordinal '{{ord:{target}}}'", "{ord:6}, or {ord:6|f} or {ord:6|n} before a "
                                  "feminine or neuter noun")
            elif kind == "note" and target not in self.booklet.footnotes:
                self.problems.add(where, f"unknown footnote '{{note:{target}}}'", "text[^1] and [^1]: the note")
            elif kind not in ("term", "note", "ord"):
                heading = self.booklet.headings.get(target)
                if heading is None or not heading.number:
                    self.problems.add(where, f"reference to unknown id '{target}'",
                                      "the {#id} of a numbered heading")
