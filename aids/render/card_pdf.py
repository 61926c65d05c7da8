"""Referee cards drawn with ReportLab: a face's text as flowables at one type size, in the package fonts
(card_fit lays them into columns; card_sheet writes the PDFs)."""
from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from ..errors import AidsError, Problem
from ..localize.documents import BodyRow, CardBase, CardFace, CardItem, CardSection
from ..localize.localizer import DraftText
from ..localize.rich import Icon, Link, Rich, Span, bind_icons
from ..localize.typography import typeset
from ..model.card import Card
from ..units import PT_PER_MM
from . import colours
from .icons_pdf import flush as flush_icons
from .icons_pdf import icon_markup
from .icons_pdf import prepare as prepare_icons
from .pdf import fonts_dir

BODY, HEAD = "AidsSansCondensed", "AidsSans"
DRAFT = colours.rgb("draft")  # behind text a draft build leaves untranslated, as <mark class="draft"> on screen
STEP = 0.25  # pt: the fitting shrinks the type in steps of this size
GAP = 4 * PT_PER_MM  # between columns
BAND = 3 * PT_PER_MM  # the accent band along the top edge (it bleeds)
FOOTER = 6.5  # pt, the colophon under every face (never shrunk)


@functools.cache
def register_fonts() -> None:
    """The package's DejaVu under names of its own, as families so that <b> and <i> in paragraphs pick the faces."""
    for family, stem in ((BODY, "DejaVuSansCondensed"), (HEAD, "DejaVuSans")):
        faces = {"": "", "-Bold": "-Bold", "-Oblique": "-Oblique", "-BoldOblique": "-BoldOblique"}
        for suffix, file_suffix in faces.items():
            pdfmetrics.registerFont(TTFont(family + suffix, str(fonts_dir() / f"{stem}{file_suffix}.ttf")))
        pdfmetrics.registerFontFamily(family, normal=family, bold=family + "-Bold", italic=family + "-Oblique",
                                      boldItalic=family + "-BoldOblique")


# --- text: localized runs as ReportLab paragraph markup -----------------------------------------

_TAG = re.compile(r"(<[^>]*>)")


def markup(value: Rich | str | None) -> str:
    """Localized text as ReportLab paragraph markup: emphasis as <i>/<b>, every text escaped for
    ReportLab's parser, so a translator's "<" or "&" stays text and cannot open a tag."""
    if value is None:
        return ""
    if isinstance(value, DraftText):
        return f'<span backColor="{DRAFT}">{escape(str(value))}</span>'
    if not isinstance(value, Rich):
        return escape(str(value))
    return _markup(bind_icons(value))


def _markup(value: Rich) -> str:
    out = []
    for part in value:
        if isinstance(part, Icon):  # drawn in the line (render/icons_pdf.py), its name in the PDF's text too
            out.append(icon_markup(part, BODY))
        elif isinstance(part, Span):
            text = escape(part.text)
            text = f"<b>{text}</b>" if part.strong else text
            out.append(f"<i>{text}</i>" if part.em else text)
        elif isinstance(part, Link) and part.external:  # a web address: a link annotation on the card
            href = escape(part.href, {'"': "&quot;"})
            out.append(f'<a href="{href}">{_markup(part.parts)}</a>')
        elif getattr(part, "role", "") == "draft":
            out.append(f'<span backColor="{DRAFT}">{_markup(part.parts)}</span>')
        else:
            out.append(_markup(part.parts))
    return "".join(out)


def visible(text: str) -> str:
    """The characters a reader sees of ReportLab markup made by `markup`."""
    return html.unescape(_TAG.sub("", text))


# --- one face as flowables, at one type size ---------------------------------------------------

@dataclass
class Face:
    """A face being laid out: its localized sections, and which section each flowable belongs to."""
    card: Card
    localized: CardBase  # a card's document, its faces as localized or as arranged (render/card_fit.py)
    face: CardFace
    lang: str
    press: bool = False  # the colours as CMYK (the press profile), else RGB
    gray: bool = False  # the grays of the gray profile (colours.GRAY) for every colour

    def where(self, section_id: str):
        """Source position of a section, or of the card's title, subtitle or signature."""
        section = next((s for s in self.card.sections if s.id == section_id), None)
        if section:
            return section.where
        src = self.card.source
        return src.at(src.data, section_id) if section_id in src.data else src.at(src.data)


class Styles:
    def __init__(self, size: float, press: bool = False, gray: bool = False):
        self.size = size
        self.ink, self.muted, self.rule, self.shade, self.change = (
            colours.reportlab(name, press, gray) for name in ("ink", "muted", "rule", "header", "change"))
        self.draft = colours.rgb("draft", gray)  # behind untranslated text (markup() writes the RGB one)
        lead = size * 1.2
        self.body = ParagraphStyle("body", fontName=BODY, fontSize=size, leading=lead, textColor=self.ink,
                                   spaceAfter=size * 0.1, bulletFontName=BODY, bulletFontSize=size)
        self.bullet = ParagraphStyle("bullet", parent=self.body, leftIndent=size * 1.0, bulletIndent=size * 0.15)
        self.step = ParagraphStyle("step", parent=self.body, leftIndent=size * 1.5, bulletIndent=0,
                                   bulletFontName=BODY + "-Bold")
        self.cell = ParagraphStyle("cell", parent=self.body, spaceAfter=0)
        self.value = ParagraphStyle("value", parent=self.cell, fontName=BODY + "-Bold", alignment=TA_RIGHT)
        self.term = ParagraphStyle("term", parent=self.cell, fontName=BODY + "-Bold")
        self.note = ParagraphStyle("note", parent=self.body, fontName=BODY + "-Oblique", textColor=self.ink)
        # headings clearly above the body: 1.2 times its size, in capitals and bold (text is black only); in the
        # condensed face and close to their text, as a dense card needs (a long one wraps less)
        self.heading = ParagraphStyle("heading", parent=self.body, fontName=BODY + "-Bold", fontSize=size * 1.2,
                                      leading=size * 1.35, textColor=self.ink, spaceBefore=size * 0.5,
                                      spaceAfter=size * 0.2, textTransform="uppercase", keepWithNext=1)
        self.title = ParagraphStyle("title", parent=self.body, fontName=HEAD + "-Bold", fontSize=size * 2.0,
                                    leading=size * 2.3, alignment=TA_CENTER, spaceAfter=size * 0.1)
        self.subtitle = ParagraphStyle("subtitle", parent=self.body, fontName=HEAD, fontSize=size * 1.15,
                                       leading=size * 1.4, alignment=TA_CENTER, textColor=self.muted,
                                       spaceAfter=size * 0.6, textTransform="uppercase")
        self.running = ParagraphStyle("running", parent=self.subtitle, fontSize=size, leading=size * 1.25,
                                      spaceAfter=size * 0.3)
        self.signature = ParagraphStyle("signature", parent=self.body, alignment=TA_RIGHT, spaceAfter=0)
        self.number = ParagraphStyle("number", parent=self.cell, alignment=TA_RIGHT)
        self.header = ParagraphStyle("header", parent=self.cell, fontName=BODY + "-Bold")
        self.header_number = ParagraphStyle("header-number", parent=self.header, alignment=TA_RIGHT)
        self.caption = ParagraphStyle("caption", parent=self.body, fontName=BODY + "-Bold", spaceAfter=size * 0.2)


LOOKUP = ("legend", "scoring", "ranking", "ladder", "table")  # sections read as a table: kept whole in a column


def face_story(face: Face, size: float, width: float) -> list[Flowable]:
    """Every flowable of `face` at type size `size`; each carries `_aids_section` (for the layout and error
    messages) and `_aids_whole` (a table, kept whole in a column when it fits one)."""
    st = Styles(size, face.press, face.gray)
    story: list[Flowable] = []

    def add(flowable: Flowable, section: str, whole: bool = False) -> None:
        flowable._aids_section, flowable._aids_whole = section, whole
        story.append(flowable)

    changed = face.localized.get("changed", frozenset())

    def para(text: str, style, section: str, anchor: str = "", **kw) -> Flowable:
        _check_glyphs(face, text, style.fontName, section)
        made = Para(text.replace(DRAFT, st.draft) if face.gray else text, style, **kw)
        return Barred(made, st.change, size) if anchor and anchor in changed else made

    loc = face.localized
    if face.face["id"] == face.card.faces[0]:
        add(para(markup(loc["title"]), st.title, "title"), "title")
        if loc["subtitle"]:
            add(para(markup(loc["subtitle"]), st.subtitle, "subtitle"), "subtitle")
    else:
        add(para(markup(loc["title"]), st.running, "title"), "title")
    for section in face.face["sections"]:
        sid, lookup = section["id"], section["kind"] in LOOKUP
        if section["title"]:
            heading = para(markup(section["title"]), st.heading, sid, sid)
            outlined(heading, visible(markup(section["title"])), sid)
            add(keep(heading, st), sid, lookup)
        if section["intro"]:
            add(keep(para(markup(section["intro"]), st.body, sid), st), sid, lookup)
        for flowable in _items(face, section, st, width, para):
            add(flowable, sid, lookup)
        if section["note"]:
            add(para(markup(section["note"]), st.note, sid), sid, lookup)
    signature = loc["signature"]
    if signature and signature["face"] == face.face["id"]:
        line = para(f"{markup(signature['role'])}<br/><b>{markup(signature['name'])}</b>", st.signature, "signature")
        table = Table([[line]], colWidths=[min(width, 40 * size)], hAlign="RIGHT", style=TableStyle([
            ("FONTNAME", (0, 0), (-1, -1), BODY), ("TEXTCOLOR", (0, 0), (-1, -1), st.ink),
            ("LINEABOVE", (0, 0), (-1, 0), 0.5, st.ink),
            ("TOPPADDING", (0, 0), (-1, -1), size * 0.2), ("RIGHTPADDING", (0, 0), (-1, -1), 0)]))
        add(Spacer(1, size * 1.5), "signature")
        add(table, "signature")
    return story


class Para(Paragraph):
    """A paragraph that breaks its lines once per width: fitting a card lays the same story out again and again
    (each type size, split and column height tried), and breaking lines is most of the cost."""

    def breakLines(self, width: Any) -> Any:  # noqa: N802 (ReportLab's name)
        key = tuple(width) if isinstance(width, list) else width
        lines = self.__dict__.setdefault("_aids_lines", {})
        if key not in lines:
            lines[key] = super().breakLines(width)
        return lines[key]

    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:  # noqa: N802, N803
        if not getattr(canvas, "_aids_measuring", False):  # a trial layout's canvas (card_fit) is never seen
            super().drawOn(canvas, x, y, _sW)
            bookmark(canvas, getattr(self, "_aids_outline", None), x, y + self.height)

    def draw(self) -> None:
        super().draw()
        flush_icons(self.canv)  # its icons, after its text (render/icons_pdf.py)


def outlined(flowable: Flowable, title: str, key: str) -> Flowable:
    """A section's heading, a bookmark under its face's where a canvas has an outline (`outline`)."""
    inner = getattr(flowable, "inner", flowable)  # a heading beside a change bar (Barred)
    inner._aids_outline = (title, key)
    return flowable


def outline(canvas: Canvas, title: str, key: str, sections: bool = True) -> None:
    """A face's bookmark, at the top of the current page; its sections' headings, drawn next, go under it
    (not on a sheet, whose face is drawn once in a form and shown several times: `sections` false)."""
    canvas._aids_outline = key if sections else None
    canvas.bookmarkPage(key)
    canvas.addOutlineEntry(title, key, level=0)


def bookmark(canvas: Any, entry: tuple[str, str] | None, x: float, top: float) -> None:
    face = getattr(canvas, "_aids_outline", None)
    if entry is not None and face is not None:  # not in a sheet's forms: a bookmark leads to one place
        key = f"{face}-{entry[1]}"
        canvas.bookmarkHorizontal(key, x, top)
        canvas.addOutlineEntry(entry[0], key, level=1)


class Barred(Flowable):
    """A flowable with a change bar in the margin beside it, its size and its splitting its own."""

    def __init__(self, inner: Flowable, colour: Any, size: float):
        super().__init__()
        self.inner, self.colour, self.size = inner, colour, size
        self.offset = 3.5  # pt left of the column: in the card's margin, left of a bullet or a step's number

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width, self.height = self.inner.wrap(available_width, available_height)
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        return [Barred(part, self.colour, self.size) for part in self.inner.split(available_width, available_height)]

    def getSpaceBefore(self) -> float:  # noqa: N802 (ReportLab's names)
        return self.inner.getSpaceBefore()

    def getSpaceAfter(self) -> float:  # noqa: N802
        return self.inner.getSpaceAfter()

    def draw(self) -> None:
        self.inner.drawOn(self.canv, 0, 0)
        self.canv.saveState()
        self.canv.setStrokeColor(self.colour)
        self.canv.setLineWidth(2.5)
        self.canv.line(-self.offset, 0, -self.offset, self.height)
        self.canv.restoreState()


def keep(flowable: Flowable, st: Styles) -> Flowable:
    """Mark a heading or an introduction to stay in a column with at least three lines of what follows."""
    flowable._aids_keep = 3 * st.body.leading
    return flowable


def continued(table: Flowable, title: str, face: Face, st: Styles, para, section: str) -> Flowable:
    """Mark `table` so that where it continues in the next column, a line says so: its title and "(cont.)"."""
    text = " ".join(filter(None, [title, markup(face.localized["continued"])]))
    table._aids_continued = lambda: para(text, st.caption, section)
    return table


def _items(face: Face, section: CardSection, st: Styles, width: float, para) -> list[Flowable]:
    sid, kind, items = section["id"], section["kind"], section["items"]
    if kind == "table":
        return _embedded_table(face, section, st, width, para)
    if kind == "rules":
        return [para(markup(i["text"]), st.bullet, sid, f"{sid}-{i['id']}", bulletText="•") for i in items]
    if kind == "steps":
        return [para(markup(i["text"]), st.step, sid, f"{sid}-{i['id']}", bulletText=f"{i['label']}.") for i in items]
    if kind == "text":
        return [para(markup(i["text"]), st.body, sid, f"{sid}-{i['id']}") for i in items]
    return _keyed(face, section, st, width, para)


def _key(kind: str, item: CardItem, st: Styles) -> tuple[str, ParagraphStyle]:
    """The left cell of a keyed item and its style; a glyph or a ladder's number stays on the line of the word
    after it (no-break space)."""
    if kind == "legend":
        glyph = f"{markup(item['glyph'])}\u00a0" if item["glyph"] else ""
        return f"{glyph}{markup(item['term'])}", st.term
    if kind == "ladder":
        return f"{markup(item['label'])}.\u00a0{markup(item['term'])}", st.term
    return markup(item["value"]), st.value


def _keyed(face: Face, section: CardSection, st: Styles, width: float, para) -> list[Flowable]:
    """Legend, scoring, ranking, ladder: a two-column table, the key on the left."""
    sid, kind, items = section["id"], section["kind"], section["items"]
    keys = [_key(kind, i, st) for i in items]
    pad = st.size * 0.3
    cells = [para(k, style, sid) for k, style in keys]
    key_width = max(pdfmetrics.stringWidth(visible(k), BODY + "-Bold", st.size) for k, _ in keys) + 2 * pad + 1
    # at most 45 % of the column, wrapping at spaces, but never narrower than its longest word
    key_width = min(key_width, max(width * 0.45, max(cell.minWidth() for cell in cells) + 2 * pad + 1))
    rows = [[cell, para(markup(i["text"]), st.cell, sid)] for cell, i in zip(cells, items)]
    return [continued(Table(rows, colWidths=[key_width, width - key_width], style=TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), BODY),  # tables default to Helvetica, a font that is never embedded
        ("TEXTCOLOR", (0, 0), (-1, -1), st.ink),  # and to RGB black
        ("FONTSIZE", (0, 0), (-1, -1), st.size),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), pad), ("RIGHTPADDING", (0, 0), (-1, -1), pad),
        ("TOPPADDING", (0, 0), (-1, -1), pad * 0.5), ("BOTTOMPADDING", (0, 0), (-1, -1), pad * 0.7),
        ("LINEBELOW", (0, 0), (-1, -2), 0.3, st.rule),
        # a changed row: its change bar on the left edge of its key
        *(("LINEBEFORE", (0, r), (0, r), 2.5, st.change) for r, i in enumerate(items)
          if f"{sid}-{i['id']}" in face.localized.get("changed", ())),
    ]), spaceAfter=st.size * 0.3), markup(section["title"]), face, st, para, sid)]


def _embedded_table(face: Face, section: CardSection, st: Styles, width: float, para) -> list[Flowable]:
    """A table aid as the table kind localizes it: its caption, header rows repeated in the next column,
    spans kept, numbers right-aligned, notes under it."""
    if section["aid"] is None:  # not linked (a card read on its own, outside a build)
        return []
    sid, t = section["id"], section["aid"]["table"]
    caption = markup(t["title"]) + (f" <i>{markup(t['intro'])}</i>" if t["intro"] else "")
    # (content, colspan, rowspan) per cell, header rows first; None is a blank cell
    head = [[(para(markup(h["text"]), st.header_number if h["num"] else st.header, sid) if h["scope"] else None,
              h["colspan"], h["rowspan"]) for h in row] for row in t["head"]]
    body = [_body_row(row, st, sid, para) for row in t["body"]]
    data, spans, blanks = _grid(head + body, len(t["widths"]))
    pad = st.size * 0.3
    style = [
        ("FONTNAME", (0, 0), (-1, -1), BODY),  # tables default to Helvetica, a font that is never embedded
        ("TEXTCOLOR", (0, 0), (-1, -1), st.ink),  # and to RGB black
        ("FONTSIZE", (0, 0), (-1, -1), st.size),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), pad), ("RIGHTPADDING", (0, 0), (-1, -1), pad),
        ("TOPPADDING", (0, 0), (-1, -1), pad * 0.4), ("BOTTOMPADDING", (0, 0), (-1, -1), pad * 0.6),
        ("GRID", (0, len(head)), (-1, -1), 0.3, st.rule),
    ]
    style += [command for r in range(len(head)) for c in range(len(t["widths"])) if (r, c) not in blanks
              for command in (("BOX", (c, r), (c, r), 0.3, st.rule), ("BACKGROUND", (c, r), (c, r), st.shade))]
    style += [("SPAN", start, end) for start, end in spans]
    widths, cramped = _column_widths(data, spans, t["widths"], width, pad)
    table = Table(data, colWidths=widths, repeatRows=len(head), style=TableStyle(style), hAlign="LEFT",
                  spaceAfter=st.size * 0.3)
    table._aids_cramped = cramped  # arrange() shrinks the type until no word breaks
    notes = [para(markup(n), st.note, sid) for n in t["notes"]]
    return [keep(para(caption, st.caption, sid), st), continued(table, markup(t["title"]), face, st, para, sid), *notes]


def _body_row(row: BodyRow, st: Styles, sid: str, para) -> list[tuple[Any, int, int]]:
    """A body row of an embedded table as (content, colspan, rowspan) cells: its label, its cells, its key
    again on the right when the table has one there."""
    cells = [(para(markup(row["th"] if row["th"] is not None else ""), st.cell, sid), 1, 1)]
    cells += [(para(markup(c["text"]), st.number if c["num"] else st.cell, sid), 1, 1) for c in row["cells"]]
    if row["key"] is not None:
        cells.append((para(markup(row["key"]), st.cell, sid), 1, 1))
    return cells


def _column_widths(data: list[list], spans: list[tuple], shares: list[float], width: float,
                   pad: float) -> tuple[list[float], bool]:
    """The table kind's shares of `width`, except that every column keeps room for its widest word (a narrow
    card column would break "normalny" into letters), taken from the columns with room to spare; and
    whether some word cannot have that room at this type size."""
    widths = [width * share / 100 for share in shares]
    wide = {start for start, end in spans if end[0] > start[0]}  # (col, row) of cells across several columns
    least = [max([cell.minWidth() + 2 * pad for r, row in enumerate(data) if isinstance(cell := row[c], Paragraph)
                  and (c, r) not in wide] or [0]) for c in range(len(widths))]
    if sum(least) > width:  # some word would break into letters: the type must shrink
        return [width * low / sum(least) for low in least], True
    raised = [max(w, low) for w, low in zip(widths, least)]
    excess = sum(raised) - width
    if excess <= 0:
        return widths, False
    surplus = [r - low for r, low in zip(raised, least)]  # room above the widest word: mostly the row labels
    return [r - excess * room / sum(surplus) for r, room in zip(raised, surplus)], False


def _grid(rows: list[list[tuple]], columns: int) -> tuple[list[list], list[tuple], set]:
    """Cells with row and column spans placed as HTML places them: the data matrix, SPAN ranges, blank cells."""
    taken: set[tuple[int, int]] = set()
    data = [["" for _ in range(columns)] for _ in rows]
    spans, blanks = [], set()
    for r, row in enumerate(rows):
        c = 0
        for content, colspan, rowspan in row:
            while (r, c) in taken:
                c += 1
            data[r][c] = "" if content is None else content
            if content is None:
                blanks.add((r, c))
            taken.update((r + dr, c + dc) for dr in range(rowspan) for dc in range(colspan))
            if colspan > 1 or rowspan > 1:
                spans.append(((c, r), (c + colspan - 1, r + rowspan - 1)))
            c += colspan
    return data, spans, blanks


@functools.cache
def coverage(family: str) -> frozenset[int]:
    """Code points every face of `family` can draw (a <b> or <i> inside a paragraph switches face)."""
    faces = [_char_map(family + suffix) for suffix in ("", "-Bold", "-Oblique", "-BoldOblique")]
    return frozenset.intersection(*(frozenset(face) for face in faces))


def _char_map(name: str) -> dict:
    return pdfmetrics.getFont(name).face.charToGlyph


def _check_glyphs(face: Face, text: str, font: str, section: str) -> None:
    """A character the package's fonts lack would print as an empty box: refuse it, naming where it is."""
    covered = coverage(font.split("-")[0])
    missing = sorted({ch for ch in visible(text) if ord(ch) >= 32 and ord(ch) not in covered})
    if missing:
        chars = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
        raise AidsError(Problem(face.where(section),
                                f"card '{face.card.id}', language {face.lang}, section '{section}': no glyph for "
                                f"{chars} in the card fonts",
                                "characters of DejaVu Sans"))


def new_canvas(buffer, size, context: dict, lz) -> Canvas:
    # The initial font goes into every page's preamble: left to ReportLab, it is Helvetica (not embedded).
    canv = Canvas(buffer, pagesize=size, invariant=1, lang=lz.lang, pageCompression=1,
                  initialFontName=BODY, initialFontSize=FOOTER)
    canv.setTitle(typeset(context["document_title"], lz.lang))  # as the web page's <title> and WeasyPrint's PDFs
    canv.setViewerPreference("DisplayDocTitle", "true")  # the title in the window, not the file's name
    canv.setAuthor(context["game"]["author"])
    canv.setSubject(context["kind_name"])
    canv.setCreator("aids")
    prepare_icons(canv)
    return canv
