"""The lines of a PDF as a reader sees them, read back with poppler (`pdftotext -bbox-layout`: pages, blocks,
lines and words with their boxes), and the line breaks a proof-reader would mark in them:

- a line that is one word ending in a hyphen ("cep-" alone between "ex-" and "tion");
- a word split twice (a line ending in a hyphen piece, the next line one hyphen piece: "ка- / вале- / рия");
- a number parted from the word after it, what it counts or its unit ("o 2 / pola", "of 2 / spaces");
- a line far shorter than its measure, followed in the same paragraph by a lower-case continuation whose
  first unbreakable unit would have fitted on it ("which can be / activated", "в / зоне").

The measure of a line is the widest line of its block that starts where it does (up to a gap wider than a
word space: poppler reads the cells of a table row as one line), narrowed by any text beside it to the right on the same lines (a
neighbouring table cell or column). A continuation is the next line of the block when it
follows at the page's least line pitch for its size (not a new table row, which has its padding) and starts no further right
than a hanging indent. Its first unit runs over the no-break spaces of the text (read with PDFium, which
keeps them; ReportLab's PDFs draw them as spaces, so a one-letter word or a number is taken with the word
after it there, as the typography binds them).
"""
from __future__ import annotations

import re
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from ..helpers import read_back

XHTML = "{http://www.w3.org/1999/xhtml}"
LOWER = re.compile(r"^[(«„“\"'‘]?[^\W\d_A-ZĄĆĘŁŃÓŚŹŻА-ЯЁ]")
HANGING = 12.0  # pt: how far right of a line its continuation may start (a list item's hanging indent)
GAP = 4.0  # pt: the least room kept from text beside a line (a cell's padding)
SPACE = 2.5  # pt: a word space at the smallest size the samples use


@dataclass(frozen=True)
class Word:
    x0: float
    x1: float
    text: str


@dataclass(frozen=True)
class Line:
    x0: float
    x1: float
    y0: float
    y1: float
    words: tuple[Word, ...]

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


def pages(path: Path) -> list[list[list[Line]]]:
    """Every page of `path` as its blocks, each a list of lines top to bottom."""
    return [[[Line(x0, x1, y0, y1, tuple(Word(*word) for word in words)) for x0, x1, y0, y1, words in block]
             for block in page] for page in read_back(path, "poppler-lines", lambda data: _poppler_lines(path))]


def _poppler_lines(path: Path) -> list:
    xml = subprocess.run(["pdftotext", "-bbox-layout", str(path), "-"], capture_output=True, check=True,
                         text=True).stdout
    out = []
    for page in ET.fromstring(xml).iter(XHTML + "page"):
        blocks = []
        for block in page.iter(XHTML + "block"):
            lines = []
            for line in block.iter(XHTML + "line"):
                words = [(float(w.get("xMin", 0)), float(w.get("xMax", 0)), w.text or "")
                         for w in line.iter(XHTML + "word")]
                if words:
                    lines.append((float(line.get("xMin", 0)), float(line.get("xMax", 0)),
                                  float(line.get("yMin", 0)), float(line.get("yMax", 0)), words))
            if lines:
                blocks.append(lines)
        out.append(blocks)
    return out


def bound_pairs(path: Path) -> list[set[tuple[str, str]]]:
    """Per page, the pairs of words a no-break space joins in the text layer."""
    return [{(m.group(1), m.group(2)) for m in re.finditer(r"([^\s]+)\u00a0(?=([^\s]+))", text)}
            for text in read_back(path, "pdfium-text", _pdfium_texts)]


def _pdfium_texts(data: bytes) -> list[str]:
    """PDFium's text of each page (it keeps a no-break space, as pypdf does, twenty times sooner), a word it
    joined over a line's end hyphen (U+FFFE) parted again as the lines part it."""
    import pypdfium2
    document = pypdfium2.PdfDocument(data)
    try:
        return [page.get_textpage().get_text_range().replace("\ufffe", "-\n") for page in document]
    finally:
        document.close()


def _unit(words: tuple[Word, ...], bound: set[tuple[str, str]]) -> float:
    """The width of the first unit of `words` that cannot break: over no-break spaces, and a one-letter word,
    a word before a number and a number before a word taken with what follows (as the typography binds them)."""
    end = 0
    while end + 1 < len(words):
        here, there = words[end].text, words[end + 1].text
        if (here, there) in bound or len(here) == 1 and here.isalpha() or there[:1].isdigit() or \
                here[-1:].isdigit() and there[:1].isalpha():
            end += 1
        else:
            break
    return words[end].x1 - words[0].x0


def stray_breaks(path: Path) -> list[str]:
    """The stray line breaks of `path`, each as "p. N: “…line” / “next…” (what is wrong)"."""
    found = []
    for number, (blocks, bound) in enumerate(zip(pages(path), bound_pairs(path), strict=True), 1):
        every = [line for block in blocks for line in block]
        leading = _leading(blocks)
        for block in blocks:
            for line, after in zip(block, block[1:]):
                widest = max(_first_cell(other).x1 for other in block if abs(other.x0 - line.x0) <= HANGING)
                if after.y0 - line.y0 > leading.get(_size(line), 0) + 0.3:
                    continue  # not the next line of a paragraph: a table's next row, a new paragraph
                what = _wrong(line, after, widest, every, bound)
                if what:
                    found.append(f"p. {number}: “…{line.text[-40:]}” / “{after.text[:40]}…” ({what})")
    return found


def _size(line: Line) -> float:
    return round(line.y1 - line.y0, 1)


def _leading(blocks: list[list[Line]]) -> dict[float, float]:
    """The line pitch of the page's paragraphs, per size of type: the least distance between two lines of a
    block, one under the other (a table's rows are further apart by their padding)."""
    pitch: dict[float, float] = {}
    for block in blocks:
        for line, after in zip(block, block[1:]):
            step = after.y0 - line.y0
            if step > (line.y1 - line.y0) * 0.5 and _size(line) == _size(after):
                pitch[_size(line)] = min(step, pitch.get(_size(line), step))
    return pitch


def _first_cell(line: Line) -> Line:
    """`line` up to its first gap wider than a stretched word space (0.45 em; a plain one is 0.32): poppler takes the cells of a
    table row for one line when their baselines meet ("Difference in" + "Lower score")."""
    em = (line.y1 - line.y0) / 1.16  # DejaVu's ascent and descent make a line's box 1.16 em tall
    for i, (a, b) in enumerate(zip(line.words, line.words[1:]), 1):
        # no cell begins with closing punctuation: such a gap is an icon drawn in the text ("2 [hex]." reads "2 .")
        if b.x0 - a.x1 > 0.45 * em and not CLOSING.match(b.text):
            return Line(line.x0, a.x1, line.y0, line.y1, line.words[:i])
    return line


NUMBER = re.compile(r"^[(\[]?[\d¼½¾⅓⅔⅛]+(?:[.,]\d+)?$")
CLOSING = re.compile(r"^[.,;:!?)\]»”…]")


def _wrong(line: Line, after: Line, widest: float, every: list[Line], bound: set[tuple[str, str]]) -> str:
    if not line.x0 - 2 * HANGING <= after.x0 <= line.x0 + HANGING:
        return ""  # not where the line's paragraph goes on: another column or cell
    last = line.words[-1].text
    number = _first_cell(line).words[-1]  # not a number of the next cell of a table's row
    if NUMBER.match(number.text) and LOWER.match(after.words[0].text) and number.x0 > after.words[0].x1:
        return "a number parted from the word after it"
    if last.endswith("-") and last[-2:-1].isalpha():
        if len(line.words) == 1:
            return "a line of one hyphenated word piece"
        if len(after.words) == 1 and after.words[0].text.endswith("-"):
            return "a word split twice"
    if not LOWER.match(after.words[0].text) or (_term_beside(line, every) and _term_beside(after, every)):
        return ""  # a capital begins a sentence; or each line is an entry of a list of terms, its term beside it
    whole, line = line, _first_cell(line)
    beside = [other.x0 - GAP for other in every
              if other.x0 > line.x1 + 1 and line.y0 - 2 < other.y1 and other.y0 < after.y1 + 2]
    beside += [word.x0 - GAP for word in whole.words[len(line.words):]]
    measure = min([widest, *beside])
    if line.x1 + SPACE + _unit(after.words, bound) < measure - 1:
        return "the next word fits on this line"
    return ""


def _term_beside(line: Line, every: list[Line]) -> Line | None:
    """The term a line of a list of terms stands beside (a glossary's "Art  артиллерия", which poppler reads as
    two columns): a line of a few words on the same baseline, ending more than 2 em before it."""
    em = (line.y1 - line.y0) / 1.16
    return next((other for other in every if abs(other.y0 - line.y0) < 1 and len(other.words) <= 3
                 and other.x1 < line.x0 - 2 * em), None)


def widest_word_space(path: Path) -> list[float]:
    """Per page, the widest word space of a line of running text, in ems of its type (DejaVu Sans's own space is
    0.32 em). A line's word space is the median of its gaps between two words (a word ending in a letter, the
    next starting with one: not a list's label and its text), for a line with three such gaps at least:
    justification stretches every space of a line alike, while poppler reads the cells of a table's row as
    one line with a few wide gaps (and gaps wider than 2 em are never word spaces)."""
    widest = []
    for blocks in pages(path):
        spaces = [0.0]
        for block in blocks:
            for line in block:
                em = (line.y1 - line.y0) / 1.16
                gaps = sorted(gap for a, b in zip(line.words, line.words[1:])
                              if a.text[-1:].isalpha() and b.text[:1].isalpha() and (gap := (b.x0 - a.x1) / em) < 2)
                if len(gaps) >= 3:
                    spaces.append(gaps[len(gaps) // 2])
        widest.append(round(max(spaces), 2))
    return widest
