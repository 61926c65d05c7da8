"""A card's print sheet: as many cards as fit the paper, with bleed, crop marks and mirrored backs for duplex."""
from __future__ import annotations

import datetime as dt
import io
import math
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ..config import Print
from ..errors import AidsError, Problem
from ..localize.typography import typeset, typeset_tree
from ..model.card import PAPERS, Card
from ..units import PT_PER_MM
from . import duplex, pdfx
from .card_fit import READABLE, ArrangedCard, draw_face
from .card_pdf import new_canvas, outline, register_fonts
from .printing import Profile
from .rendered import Rendered


@dataclass
class SheetLayout:
    paper: tuple[float, float]  # trimmed sheet, pt
    bleed: float  # pt
    card: tuple[float, float]  # pt
    positions: list[tuple[float, float]]  # lower-left corners of the cards on the trimmed sheet (fronts)

    @property
    def landscape(self) -> bool:
        return self.paper[0] > self.paper[1]

    @property
    def media(self) -> tuple[float, float]:
        return self.paper[0] + 2 * self.bleed, self.paper[1] + 2 * self.bleed

    def backs(self, offset: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
        """Back positions: mirrored left to right, so that a duplex print puts each back behind its front;
        moved by `offset` (mm) for a printer that shifts its backs (read off the duplex test page)."""
        dx, dy = offset[0] * PT_PER_MM, offset[1] * PT_PER_MM
        return [(self.paper[0] - x - self.card[0] + dx, y + dy) for x, y in self.positions]


def sheet_layout(card: Card) -> SheetLayout:
    """As many cards as fit the paper, upright or the paper turned, a gutter between them, the block centred."""
    paper_mm = PAPERS[card.sheet.paper]
    gutter = card.sheet.gutter
    best = None
    for pw, ph in (paper_mm, paper_mm[::-1]):
        cols = math.floor((pw + gutter) / (card.width + gutter) + 1e-9)
        rows = math.floor((ph + gutter) / (card.height + gutter) + 1e-9)
        if best is None or cols * rows > best[2] * best[3]:
            best = (pw, ph, cols, rows)
    assert best is not None  # the loop ran twice
    pw, ph, cols, rows = best
    if cols * rows == 0:
        raise AidsError(Problem(card.source.at(card.source.data, "size", value=True),
                                f"card {card.size_name} is larger than {card.sheet.paper} paper",
                                f"a card that fits {card.sheet.paper}, or another sheet paper"))
    x0 = (pw - cols * card.width - (cols - 1) * gutter) / 2
    y0 = (ph - rows * card.height - (rows - 1) * gutter) / 2
    positions = [((x0 + c * (card.width + gutter)) * PT_PER_MM,
                  (y0 + (rows - 1 - r) * (card.height + gutter)) * PT_PER_MM)
                 for r in range(rows) for c in range(cols)]
    return SheetLayout((pw * PT_PER_MM, ph * PT_PER_MM), card.sheet.bleed * PT_PER_MM,
                       (card.width * PT_PER_MM, card.height * PT_PER_MM), positions)


def draw_crop_marks(canv: Canvas, layout: SheetLayout, positions: list[tuple[float, float]]) -> None:
    """Marks along every cut line, outside the block of cards, from the media edge to 1 mm short of the cards."""
    b = layout.bleed
    cw, ch = layout.card
    xs = sorted({x + dx for x, _ in positions for dx in (0, cw)})
    ys = sorted({y + dy for _, y in positions for dy in (0, ch)})
    left, right = min(xs), max(xs)
    bottom, top = min(ys), max(ys)
    mw, mh = layout.media
    clear = 1 * PT_PER_MM
    lines = [(b + x, 0, b + x, b + bottom - clear) for x in xs] + [(b + x, b + top + clear, b + x, mh) for x in xs] \
        + [(0, b + y, b + left - clear, b + y) for y in ys] + [(b + right + clear, b + y, mw, b + y) for y in ys]
    canv.saveState()
    # A white edge under each black mark keeps it visible where it crosses artwork that bleeds.
    for colour, width in ((colors.white, 1.0), (colors.black, 0.25)):
        canv.setStrokeColor(colour)
        canv.setLineWidth(width)
        canv.lines(lines)
    canv.restoreState()


def render_card(card: Card, localized: ArrangedCard, lz, context: dict, footer: str, gray: bool = False) -> bytes:
    """One face a page, each page exactly the card's size (trim = bleed = media); in grays for the gray profile."""
    buffer = io.BytesIO()
    box = (0, 0, card.width * PT_PER_MM, card.height * PT_PER_MM)
    canv = new_canvas(buffer, box[2:], context, lz)
    for face in localized["faces"]:
        canv.setTrimBox(box)
        canv.setBleedBox(box)
        outline(canv, face["name"], f"face-{face['id']}")
        draw_face(canv, card, localized, face, lz.lang, footer, gray=gray)
        canv.showPage()
    canv.save()
    return buffer.getvalue()


def render_sheet(card: Card, localized: ArrangedCard, lz, context: dict, footer: str, layout: SheetLayout,
                 gray: bool = False) -> bytes:
    """The n-up sheet: one page a face, the paper plus bleed; TrimBox the paper, BleedBox the whole page; in
    grays for the gray profile."""
    buffer = io.BytesIO()
    mw, mh = layout.media
    canv = new_canvas(buffer, (mw, mh), context, lz)
    b = layout.bleed
    # Backs are mirrored left to right: the sheet turns over its vertical axis (short edge when landscape).
    canv.setViewerPreference("Duplex", "DuplexFlipShortEdge" if layout.landscape else "DuplexFlipLongEdge")
    cw, ch = layout.card
    for face in localized["faces"]:
        name = f"face-{face['id']}"
        canv.beginForm(name, -b, -b, cw + b, ch + b)
        draw_face(canv, card, localized, face, lz.lang, footer, bleed=b, gray=gray)
        canv.endForm()
        positions = layout.positions if face["id"] == card.faces[0] else layout.backs(card.sheet.back_offset)
        canv.setTrimBox((b, b, b + layout.paper[0], b + layout.paper[1]))
        canv.setBleedBox((0, 0, mw, mh))
        outline(canv, face["name"], name, sections=False)
        for x, y in positions:
            canv.saveState()
            canv.translate(b + x, b + y)
            canv.doForm(name)
            canv.restoreState()
        draw_crop_marks(canv, layout, positions)
        canv.showPage()
    canv.save()
    return buffer.getvalue()


def render_press(card: Card, localized: ArrangedCard, lz, context: dict, settings: Print) -> dict:
    """For a print shop: one face a page at the card's size (the TrimBox), the band bleeding past its edge,
    in CMYK, finished as PDF/X-4 with the bleed and the marks outside it (render/pdfx.py); fitted as the home
    PDF is (card_fit.arrange, when the card was localized)."""
    register_fonts()
    localized = with_marks(typeset_tree(localized, lz.lang), context)
    buffer = io.BytesIO()
    box = (0, 0, card.width * PT_PER_MM, card.height * PT_PER_MM)
    canv = new_canvas(buffer, box[2:], context, lz)
    for face in localized["faces"]:
        canv.setTrimBox(box)
        outline(canv, face["name"], f"face-{face['id']}")
        draw_face(canv, card, localized, face, lz.lang, _footer(lz, context), bleed=settings.bleed * PT_PER_MM,
                  press=True)
        canv.showPage()
    canv.save()
    published = context["game"].get("published_iso") or "2000-01-01"
    epoch = int(dt.datetime.fromisoformat(published).replace(tzinfo=dt.UTC).timestamp())
    data = pdfx.finish(buffer.getvalue(), settings, epoch)
    note = f"press: PDF/X-4, bleed {settings.bleed:g} mm, marks {settings.marks}"
    return {".pdf": Rendered(data, len(localized["faces"]), notes=[note])}


def render_gray(card: Card, localized: ArrangedCard, lz, context: dict) -> dict:
    """For a monochrome printer (the gray profile): the card and its sheet as the home PDFs, every colour a
    gray (colours.GRAY), fitted as they are (card_fit.arrange, when the card was localized)."""
    register_fonts()
    localized = with_marks(typeset_tree(localized, lz.lang), context)
    footer, faces = _footer(lz, context), len(localized["faces"])
    layout = sheet_layout(card)
    return {".pdf": Rendered(render_card(card, localized, lz, context, footer, gray=True), faces,
                             notes=["gray: for a monochrome printer"]),
            "-sheet.pdf": Rendered(render_sheet(card, localized, lz, context, footer, layout, gray=True), faces,
                                   notes=[f"gray sheet {card.sheet.paper}, {len(layout.positions)} up"])}


def _footer(lz, context: dict) -> str:
    game = context["game"]
    return typeset(" · ".join([game["title"], *game["imprint"], *filter(None, [game.get("draft")])]),
                   lz.lang)


def with_marks(localized: ArrangedCard, context: dict) -> ArrangedCard:
    """The localized card with the anchors its change bars go beside (`--marks` bars or both), if any."""
    changes = context.get("changes") or {}
    return {**localized, "changed": frozenset(changes.get("changed", ())) if changes.get("bars") else frozenset()}


def render(card: Card, localized: ArrangedCard, lz, context: dict, profile: Profile | None = None) -> dict:
    """The card's PDFs for `profile` (named as at home: the formats name them for the profile): at home, the card
    (one face a page, at its own size) and its print sheet, as card_fit.arrange fitted it."""
    if profile is not None and profile.press is not None:
        return render_press(card, localized, lz, context, profile.press)
    if profile is not None and profile.gray:
        return render_gray(card, localized, lz, context)
    register_fonts()
    size = localized["type_size"]
    localized = with_marks(typeset_tree(localized, lz.lang), context)
    footer = _footer(lz, context)
    layout = sheet_layout(card)
    faces = len(localized["faces"])
    declared = {s.id: s.face for s in card.sections}
    moved = [f"{', '.join(ids)} moved to the {face['id']}" for face in localized["faces"]
             if (ids := [f"'{s['id']}'" for s in face["sections"] if declared[s["id"]] != face["id"]])]
    note = ", ".join([f"type {size:g} pt (from {card.min_font_size:g} to {card.max_font_size:g} pt)", *moved])
    small = [f"card '{card.id}' ({lz.lang}) fits only at {size:g} pt, below the {READABLE:g} pt that reads at "
             "arm's length: shorten its text, or give the card more room"] if size < READABLE else []
    if size < card.min_font_size:  # the pseudo-locale only (arrange() fails a language below the floor)
        small.append(f"card '{card.id}' ({lz.lang}) fits only at {size:g} pt, below its min_font_size of "
                     f"{card.min_font_size:g} pt: a translation this long would fail the build")
    made = {
        ".pdf": Rendered(render_card(card, localized, lz, context, footer), faces, small, notes=[note],
                         fitted={"": size}),
        "-sheet.pdf": Rendered(render_sheet(card, localized, lz, context, footer, layout), faces,
                               notes=[f"sheet {card.sheet.paper}, {len(layout.positions)} up"]),
    }
    if len(card.faces) == 2:  # a two-sided card: a test page to align the backs of a duplex printer
        made["-duplex-test.pdf"] = Rendered(duplex.test_page(lz, context, layout), 2,
                                            notes=[f"duplex test page, backs moved by {card.sheet.back_offset} mm"])
    return made
