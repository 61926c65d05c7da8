"""A card laid out: its sections split between its faces, one type size for all of it (the largest that fits),
each face's columns balanced.

The sections are one sequence, front then back. The boundary between the faces may move earlier or later than
the sources declare it (a section is never split between two faces), to where both faces fit the largest type
between the card's minimum and maximum; of the splits that give that size, the declared one, else the one that
keeps the most whole, starts the back at a section with a title, is the most balanced. Then each face's columns
are made as short as they can be with all of it still fitting, so that they end level. A section (its heading,
list or table, note) moves whole to the next column when it fits there and not in what is left of this one;
only if the card fits its minimum size no other way may a section (a list first, then a table) split at the
foot of a column. A section longer than a column splits anyway, its heading kept with three lines of what
follows; a table's continuation is marked as continued.
"""
from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame

from ..errors import DoesNotFit, Problem
from ..localize.documents import CardBase, CardDocument, CardFace
from ..localize.typography import typeset_tree
from ..model.card import SHAPE, Card
from ..units import PT_PER_MM
from . import colours
from .card_pdf import BAND, BODY, FOOTER, GAP, STEP, Face, face_story, register_fonts
from .fitting import largest_fitting
from .icons_pdf import prepare as prepare_icons

READABLE = 7.0  # pt: below this a card is hard to read at arm's length (a warning)
LEVEL = 1.0  # pt: how close the balancing brings the columns' height to the shortest that holds the face
# What moves whole to the next column when it fits there: every section; the tables (a list of rules may split
# at the foot of a column); nothing (a table too splits, its continuation marked). The first that fits is used.
KEPT = ("sections", "tables", "nothing")
LOWEST = float(SHAPE["min_font_size"].low or 4)  # pt: how far down an error looks for the size a card would fit


@dataclass(frozen=True)
class Fitted:
    """A face's type size and the height its columns are balanced to (pt), and how full each column is."""
    size: float
    height: float
    fill: tuple[float, ...]  # used height / height, per column
    kept: str = "sections"  # what moves whole to the next column when it fits there (KEPT)


class FittedFace(CardFace):
    fitted: Fitted


class ArrangedCard(CardBase):
    """A card as arrange() fits it: what its page and its PDF print (the document of the card kind)."""
    faces: list[FittedFace]
    type_size: float  # pt, the same on every face


def columns_of(card: Card) -> list[tuple[float, float, float, float]]:
    """The text frames of a face (x, y, width, height in pt, card origin at its lower left)."""
    margin = card.margin * PT_PER_MM
    bottom = margin + FOOTER * 1.6
    top = card.height * PT_PER_MM - max(margin, BAND + 2 * PT_PER_MM)
    width = (card.width * PT_PER_MM - 2 * margin - GAP * (card.columns - 1)) / card.columns
    return [(margin + i * (width + GAP), bottom, width, top - bottom) for i in range(card.columns)]


def fill(canv: Canvas, card: Card, story: list[Flowable], height: float | None = None, kept: str = "sections",
         x: float = 0, y: float = 0) -> tuple[list[Flowable], list[float]]:
    """Lay `story` into the card's columns on `canv`, each `height` tall from the top (all of it by default),
    splitting where it can; a section that fits a column moves whole to the next column, if there is one, when
    `kept` says so (every section, the tables, nothing). Returns what did not fit and the height used in each
    column."""
    story, used = list(story), []
    section = None
    columns = columns_of(card)
    for n, (fx, fy, fw, fh) in enumerate(columns, start=1):
        last = n == len(columns)
        tall = min(fh, height or fh)
        frame = Frame(x + fx, y + fy + fh - tall, fw, tall, leftPadding=0, rightPadding=0, topPadding=0,
                      bottomPadding=0)
        while story:
            head = story[0]
            whole = kept == "sections" or kept == "tables" and getattr(head, "_aids_whole", False)
            starts = whole and not last and head._aids_section != section
            if not frame._atTop and _block(story, fw, tall, starts) > frame._y - frame._y1p:
                break  # a section that fits a column whole, or a heading with too little under it: next column
            if frame.add(head, canv, trySplit=1):
                section = head._aids_section
                story.pop(0)
                continue
            parts = frame.split(head, canv)
            if not parts or not frame.add(parts[0], canv, trySplit=1):
                break
            section = head._aids_section
            if _continue(story, parts):
                break  # a table's continuation, marked so, heads the next column
        used.append(tall - (frame._y - frame._y1p))
    return story, used


def _continue(story: list[Flowable], parts: list[Flowable]) -> bool:
    """Put the rest of a flowable split at the foot of a column in its place at the top of `story`, headed by
    a continued mark if it is a table; whether it is."""
    head = story[0]
    mark = getattr(head, "_aids_continued", None)
    for part in parts:
        part._aids_section, part._aids_continued = head._aids_section, mark
    rest = parts[1:]
    if mark and rest:
        rest.insert(0, mark())
        rest[0]._aids_section = head._aids_section
    story[0:1] = rest
    return bool(mark and rest)


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


def _last(low: int, high: int, holds: Callable[[int], bool]) -> int:
    """The largest n from `low` to `high` that `holds`, for a test that holds up to some n and not after it
    (it holds at `low`)."""
    while low < high:
        middle = (low + high + 1) // 2
        if holds(middle):
            low = middle
        else:
            high = middle - 1
    return low


class Layouts:
    """A card's faces in one language, laid out at any type size with any split of its sections between its
    faces (the first `split` sections on the front), each at most once."""

    def __init__(self, card: Card, localized: CardDocument, lang: str):
        self.card, self.localized, self.lang = card, localized, lang
        self.kept: tuple[str, ...] = KEPT[:1]  # what may move whole to the next column, first choice first
        self.faces: list[CardFace] = localized["faces"]
        self.sections = [section for face in self.faces for section in face["sections"]]
        self.width = columns_of(card)[0][2]
        self.laid: dict[tuple[int, int, float, str], tuple[list[Flowable], list[float]]] = {}
        self.stories: dict[tuple[int, int, float], list[Flowable]] = {}  # laid out again, never changed

    def face(self, index: int, split: int) -> CardFace:
        """Face `index` with its sections when the first `split` are on the front."""
        last = len(self.faces) - 1
        return {**self.faces[index], "sections": self.sections[split if index else 0:split if index < last else None]}

    def lay(self, index: int, split: int, size: float, height: float | None = None,
            kept: str = "sections") -> tuple[list[Flowable], list[float]]:
        """What of the face does not fit its columns (`height` tall) at `size`, and the height used in each."""
        key = (index, split if len(self.faces) > 1 else 0, size, kept)
        if height is None and key in self.laid:
            return self.laid[key]
        canv = Canvas(io.BytesIO(), pagesize=(self.card.width * PT_PER_MM, self.card.height * PT_PER_MM), invariant=1)
        prepare_icons(canv)
        canv._aids_measuring = True  # only measured: its paragraphs are not drawn (card_pdf.Para)
        story = self.stories.get(key[:3])
        if story is None:
            story = self.stories[key[:3]] = face_story(Face(self.card, self.localized, self.face(index, split),
                                                            self.lang), size, self.width)
        # a table whose words cannot all fit its columns would break them into letters: that does not fit either
        cramped = [f for f in story if getattr(f, "_aids_cramped", False)]
        rest, used = fill(canv, self.card, story, height, kept)
        laid = rest or cramped, used
        if height is None:
            self.laid[key] = laid
        return laid

    def whole(self, index: int, split: int, size: float) -> str | None:
        """What of the face can be kept whole in a column with all of it fitting at `size` (of `kept`, the
        first that fits), or None when it does not fit."""
        return next((kept for kept in self.kept if not self.lay(index, split, size, kept=kept)[0]), None)

    def fits(self, index: int, split: int, size: float) -> bool:
        return self.whole(index, split, size) is not None

    def splits(self, size: float) -> range:
        """The splits at which every face fits at `size` (empty: none): the front holds the longest run of
        sections it can, the back the shortest."""
        count = len(self.sections)
        if len(self.faces) == 1:
            return range(count, count + 1) if self.fits(0, count, size) else range(0)
        if not self.fits(0, 0, size):
            return range(0)
        front = _last(0, count, lambda split: self.fits(0, split, size))
        if not self.fits(1, front, size):
            return range(0)
        return range(count - _last(count - front, count, lambda rest: self.fits(1, count - rest, size)), front + 1)

    def balanced(self, index: int, split: int, size: float) -> Fitted:
        """Face `index` at `size`, its columns as short as they can be with all of it in them (its sections
        kept whole as they were when it was fitted)."""
        kept = self.whole(index, split, size) or KEPT[-1]
        low, high = 0.0, columns_of(self.card)[0][3]  # between nothing and the whole column
        while high - low > LEVEL:
            middle = (low + high) / 2
            if self.lay(index, split, size, middle, kept)[0]:
                low = middle
            else:
                high = middle
        used = self.lay(index, split, size, high, kept)[1]
        return Fitted(size, high, tuple(u / high for u in used), kept)

    def too_full(self) -> DoesNotFit:
        """The error of a card that does not fit at its minimum size: the first section left over when the
        front takes all it holds and the back the rest, and the largest size all of it would fit at."""
        card, low = self.card, self.card.min_font_size
        count = len(self.sections)
        if len(self.faces) == 1 or not self.fits(0, 0, low):
            index, split = 0, count if len(self.faces) == 1 else 0
        else:
            index, split = 1, _last(0, count, lambda split: self.fits(0, split, low))
        rest = self.lay(index, split, low, kept=KEPT[-1])[0]
        section = rest[0]._aids_section
        what = "has a table too narrow for its words" if getattr(rest[0], "_aids_cramped", False) else "does not fit"
        below = [low - i * STEP for i in range(1, int((low - LOWEST) / STEP) + 1)]
        reached = largest_fitting(below, lambda size: bool(self.splits(size)))
        at_best = f"all of it fits at {reached:g} pt at most" if reached else f"not even at {LOWEST:g} pt"
        return DoesNotFit(Problem(Face(card, self.localized, self.faces[index], self.lang).where(section),
                                  f"card '{card.id}', face {self.faces[index]['id']}, language {self.lang}: section "
                                  f"'{section}' {what} even at the minimum size of {low:g} pt ({at_best})",
                                  "shorter text, a larger card, more columns or a smaller min_font_size"), self.lang)


def arrange(card: Card, localized: CardDocument, lang: str, floor: float | None = None) -> ArrangedCard:
    """The localized card with its sections split between its faces as they fit the largest type, each face
    with its `fitted` (Fitted) and the card with its `type_size`. Sections stay whole in a column if that fits
    the minimum size; if not, they may split at the foot of one. An error names the section that does not fit
    at the minimum size: the card's min_font_size, or `floor` (the pseudo-locale's, which shows how small its
    longer text would have to be rather than fail)."""
    register_fonts()
    layouts = Layouts(card, typeset_tree(localized, lang), lang)  # measured as printed
    low = card.min_font_size if floor is None else min(floor, card.min_font_size)
    steps = int((card.max_font_size - low) / STEP)
    sizes = [card.max_font_size - i * STEP for i in range(steps + 1)]
    size = largest_fitting(sizes, lambda size: bool(layouts.splits(size)))
    if size is None:  # then a section, or else a table, may split at the foot of a column
        layouts.kept = KEPT
        size = largest_fitting(sizes, lambda size: bool(layouts.splits(size)))
    if size is None:
        raise layouts.too_full()
    split = _best_split(layouts, size, len(localized["faces"][0]["sections"]))
    shown = Layouts(card, localized, lang)  # the same split of the sections as the page shows them
    faces: list[FittedFace] = [{**shown.face(index, split), "fitted": layouts.balanced(index, split, size)}
             for index in range(len(layouts.faces))]
    return {**localized, "faces": faces, "type_size": size}


def _best_split(layouts: Layouts, size: float, declared: int) -> int:
    """Of the splits that fit `size`, the declared one; else the one that keeps the most whole in the columns,
    then that starts the back at a section with a title (an untitled one reads on from the section before it),
    the most balanced, the nearest the declared."""
    candidates = layouts.splits(size)
    if declared in candidates:
        return declared

    def kept(index: int, split: int) -> str:
        return layouts.whole(index, split, size) or KEPT[-1]

    def content(index: int, split: int) -> float:
        return sum(layouts.lay(index, split, size, kept=kept(index, split))[1])

    def rank(split: int) -> tuple[int, bool, float, int]:
        untitled = split < len(layouts.sections) and not layouts.sections[split]["title"]
        return (sum(KEPT.index(kept(index, split)) for index in (0, 1)), untitled,
                abs(content(0, split) - content(1, split)), abs(split - declared))
    return min(candidates, key=rank)


def draw_face(canv: Canvas, card: Card, localized: ArrangedCard, face: FittedFace, lang: str, footer: str,
              bleed: float = 0, press: bool = False, gray: bool = False) -> None:
    """One face at the origin, as arrange() fitted it: the accent band (running `bleed` past the top edge),
    the text, the colophon (with the face's name only when the card asks for it); in CMYK for the press, in
    grays for the gray profile."""
    w, h = card.width * PT_PER_MM, card.height * PT_PER_MM
    canv.saveState()
    canv.setFillColor(colours.reportlab("accent", press, gray))
    canv.rect(-bleed, h - BAND, w + 2 * bleed, BAND + bleed, stroke=0, fill=1)
    canv.setFont(BODY, FOOTER)
    canv.setFillColor(colours.reportlab("muted", press, gray))
    margin = card.margin * PT_PER_MM
    canv.drawString(margin, margin, footer)
    if card.face_labels:
        canv.drawRightString(w - margin, margin, face["name"])
    canv.restoreState()
    layout = Face(card, localized, face, lang, press, gray)
    fitted: Fitted = face["fitted"]
    left, _ = fill(canv, card, face_story(layout, fitted.size, columns_of(card)[0][2]), fitted.height, fitted.kept)
    assert not left, "arrange() measured this face"
