"""A card face laid out: its columns, the largest type that fits them, the columns balanced, sections kept whole.

A face is fitted to the largest size between the card's minimum and maximum at which all of it fits its
columns (no table too narrow for its words); then the columns are made as short as they can be with all of
it still fitting, so that they end level. A section (its heading, list or table, note) moves whole to the
next column when it fits there and not in what is left of this one; a section longer than a column splits,
its heading kept with three lines of what follows.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame

from ..errors import AidsError, Problem
from ..model.card import MM, Card
from . import colours
from .card_pdf import BAND, BODY, FOOTER, GAP, STEP, Face, face_story
from .fitting import largest_fitting

READABLE = 7.0  # pt: below this a card is hard to read at arm's length (a warning)
LEVEL = 1.0  # pt: how close the balancing brings the columns' height to the shortest that holds the face


@dataclass(frozen=True)
class Fitted:
    """A face's type size and the height its columns are balanced to (pt), and how full each column is."""
    size: float
    height: float
    fill: tuple[float, ...]  # used height / height, per column


def columns_of(card: Card) -> list[tuple[float, float, float, float]]:
    """The text frames of a face (x, y, width, height in pt, card origin at its lower left)."""
    margin = card.margin * MM
    bottom = margin + FOOTER * 1.6
    top = card.height * MM - max(margin, BAND + 2 * MM)
    width = (card.width * MM - 2 * margin - GAP * (card.columns - 1)) / card.columns
    return [(margin + i * (width + GAP), bottom, width, top - bottom) for i in range(card.columns)]


def fill(canv: Canvas, card: Card, story: list[Flowable], height: float | None = None,
         x: float = 0, y: float = 0) -> tuple[list[Flowable], list[float]]:
    """Lay `story` into the card's columns on `canv`, each `height` tall from the top (all of it by default),
    splitting where it can; returns what did not fit and the height used in each column."""
    story, used = list(story), []
    section = None
    for fx, fy, fw, fh in columns_of(card):
        tall = min(fh, height or fh)
        frame = Frame(x + fx, y + fy + fh - tall, fw, tall, leftPadding=0, rightPadding=0, topPadding=0,
                      bottomPadding=0)
        while story:
            head = story[0]
            starts = getattr(head, "_aids_section", None) != section
            if not frame._atTop and _block(story, fw, tall, starts) > frame._y - frame._y1p:
                break  # a section that fits a column whole, or a heading with too little under it: next column
            if frame.add(head, canv, trySplit=1):
                section = head._aids_section
                story.pop(0)
                continue
            parts = frame.split(head, canv)
            if not parts or not frame.add(parts[0], canv, trySplit=1):
                break
            for part in parts:
                part._aids_section = head._aids_section
            section = head._aids_section
            story[0:1] = parts[1:]
        used.append(tall - (frame._y - frame._y1p))
    return story, used


def _block(story: list[Flowable], width: float, column: float, starts: bool) -> float:
    """The height that must fit below the top of `story` for it to start here: its whole section, when the
    section starts here and fits a column; else its heading and introduction with three lines of what
    follows (a heading is never the last line of a column); else nothing."""
    def height(flowable: Flowable) -> float:
        return flowable.wrap(width, 10_000)[1] + flowable.getSpaceBefore() + flowable.getSpaceAfter()
    if starts:
        section = story[0]._aids_section
        whole = 0.0
        for flowable in story:
            if flowable._aids_section != section:
                break
            whole += height(flowable)
        if whole <= column:
            return whole
    total, kept = 0.0, 0.0
    for flowable in story:
        if not getattr(flowable, "_aids_keep", 0):
            return total + min(height(flowable), kept) if kept else 0.0
        total, kept = total + height(flowable), flowable._aids_keep
    return total


def fit(card: Card, localized: dict, face: dict, lang: str) -> Fitted:
    """The largest type size, from the maximum down to the minimum, at which `face` fits the card; its
    columns balanced at that size. An error names the section that does not fit at the minimum."""
    layout = Face(card, localized, face, lang)
    width = columns_of(card)[0][2]
    left: dict[float, list[Flowable]] = {}

    def lay(size: float, height: float | None = None) -> tuple[list[Flowable], list[float]]:
        canv = Canvas(io.BytesIO(), pagesize=(card.width * MM, card.height * MM), invariant=1)
        story = face_story(layout, size, width)
        # a table whose words cannot all fit its columns would break them into letters: that does not fit either
        cramped = [f for f in story if getattr(f, "_aids_cramped", False)]
        rest, used = fill(canv, card, story, height)
        return rest or cramped, used

    def fits(size: float) -> bool:
        left[size] = lay(size)[0]
        return not left[size]

    sizes = [card.max_font_size - i * STEP for i in range(int((card.max_font_size - card.min_font_size) / STEP) + 1)]
    size = largest_fitting(sizes, fits)
    if size is None:
        rest = left[card.min_font_size] if card.min_font_size in left else lay(card.min_font_size)[0]
        section = rest[0]._aids_section
        what = "has a table too narrow for its words" if getattr(rest[0], "_aids_cramped", False) else "does not fit"
        raise AidsError(Problem(layout.where(section),
                                f"card '{card.id}', face {face['id']}, language {lang}: section '{section}' "
                                f"{what} even at the minimum size of {card.min_font_size:g} pt",
                                "shorter text, a larger card, more columns or a smaller min_font_size"))
    full = columns_of(card)[0][3]
    low, high = 0.0, full  # the shortest columns that hold the face: between nothing and the whole column
    while high - low > LEVEL:
        middle = (low + high) / 2
        if lay(size, middle)[0]:
            low = middle
        else:
            high = middle
    used = lay(size, high)[1]
    return Fitted(size, high, tuple(u / high for u in used))


def draw_face(canv: Canvas, card: Card, localized: dict, face: dict, lang: str, fitted: Fitted, footer: str,
              bleed: float = 0, press: bool = False) -> None:
    """One face at the origin: the accent band (running `bleed` past the top edge), the text, the colophon
    (with the face's name only when the card asks for it); in CMYK for the press."""
    w, h = card.width * MM, card.height * MM
    canv.saveState()
    canv.setFillColor(colours.reportlab("accent", press))
    canv.rect(-bleed, h - BAND, w + 2 * bleed, BAND + bleed, stroke=0, fill=1)
    canv.setFont(BODY, FOOTER)
    canv.setFillColor(colours.reportlab("muted", press))
    margin = card.margin * MM
    canv.drawString(margin, margin, footer)
    if card.face_labels:
        canv.drawRightString(w - margin, margin, face["name"])
    canv.restoreState()
    layout = Face(card, localized, face, lang, press)
    left, _ = fill(canv, card, face_story(layout, fitted.size, columns_of(card)[0][2]), fitted.height)
    assert not left, "fit() measured this face"
