"""A booklet's footnotes, as its Markdown writes them (`text[^1]` and, anywhere in the same file, `[^1]: note`).

A note is a message of the section it is referenced in (msgctxt `<booklet>/<section id>`, as the paragraph
around its reference), and the reference a placeholder in that paragraph's msgid, `{note:<section>-<label>}`:
unique in the booklet, stable while the section keeps its id, and checked in translations like every other
placeholder. The notes are numbered in the order of their references when the booklet is localized.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import Position, Problems
from .text import Text

if TYPE_CHECKING:
    from .rules import RulesReader

LABEL = re.compile(r"[^a-z0-9]+")
ONE_PER_NOTE = "one reference to each footnote (give another note a label of its own)"


def key(section: str, label: str) -> str:
    """The booklet-wide name of footnote `label` referenced in `section`."""
    return f"{section}-{LABEL.sub('-', label.lower()).strip('-') or 'note'}"


@dataclass
class Footnotes:
    """The footnotes of the file being read: where each label is referenced (section, position)."""
    booklet_id: str
    problems: Problems
    texts: dict[str, Text] = field(default_factory=dict)  # key -> the note's text (the booklet's footnotes)
    referenced: dict[str, tuple[str, Position]] = field(default_factory=dict)  # label -> (section, where)

    def reference(self, label: str, again: bool, section: str, where: Position, context: str) -> str:
        """The placeholder a reference to `label` stands as in its paragraph's msgid ("" when refused)."""
        if context in ("a heading", "a footnote"):
            self.problems.add(where, f"footnote '[^{label}]' in {context}",
                              "footnotes in running text, lists and tables")
            return ""
        if again or label in self.referenced:
            first = self.referenced[label][1] if label in self.referenced else where
            self.problems.add(where, f"footnote '[^{label}]' referenced again (first at {first})", ONE_PER_NOTE)
            return ""
        self.referenced[label] = (section, where)
        return f"{{note:{key(section, label)}}}"

    def read(self, node, reader: RulesReader) -> None:
        """The notes of a file (markdown-it gathers them at its end), each a message of its reference's section."""
        for note in node.children:
            label, paragraphs = note.meta["label"], [c for c in note.children if c.type == "paragraph"]
            where = reader.at(paragraphs[0] if paragraphs else note, f"[^{label}]:")
            reader.context, section = "a footnote", reader.section
            reader.section = self.referenced.get(label, (section, where))[0]
            heading = reader.booklet.headings.get(reader.section)
            msgid = reader.inline(paragraphs[0].children[0], paragraphs[0]) if paragraphs else ""
            place = f"section {heading.label}" if heading and heading.number else f"section '{reader.section}'"
            self.define(label, msgid, where, len(note.children), place)
            reader.context, reader.section = "", section

    def define(self, label: str, msgid: str, where: Position, paragraphs: int, place: str) -> None:
        """The note `label` of the file, its text `msgid` read from its one paragraph."""
        if paragraphs != 1:
            self.problems.add(where, f"footnote '[^{label}]' of {paragraphs} paragraphs", "a note of one paragraph")
            return
        section, _ = self.referenced.get(label, ("", where))
        name = key(section, label)
        if name in self.texts:
            self.problems.add(where, f"footnote '[^{label}]' defined twice", "one definition of each label a file")
            return
        self.texts[name] = Text(msgid, f"{self.booklet_id}/{section}", f"Footnote in {place}", where)

    def end_file(self) -> None:
        """A file read: its labels are its own (another file may use [^1] again)."""
        self.referenced.clear()
