"""An aid printed in two languages as one (docs/guide/tournaments.md), both set in one type size, the smaller of
the two each fits alone, so that the two read alike:

- a referee card: one language a half-sheet, the two cards side by side on a page twice the card's width (two A5
  cards: one A4 sheet), a page a face; the backs mirrored left to right, so that printed duplex (flipped on the
  short edge) each language's back is behind its own front, and the sheet cut in two gives a card per language;
- a playsheet: one language on the front of each sheet, the other on its back (page 1 of the first language,
  page 1 of the second, page 2 of the first, ...): a player of either language turns the sheet over.

Each language's text is localized and set by the typography of its own language; the card's PDF names both.
"""
from __future__ import annotations

import io
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pikepdf

from ..localize import card as card_text
from ..localize.typography import typeset, typeset_tree
from ..model.card import Card
from ..model.playsheet import Playsheet
from ..units import PT_PER_MM
from . import card_fit, card_sheet
from .card_pdf import new_canvas, register_fonts
from .fitting import MARGINS
from .formats import Document, Pdf
from .html import render_template
from .printing import Profile
from .rendered import Rendered

KINDS = ("card", "playsheet")  # the kinds this module prints in two languages as one
Built = dict[str, tuple[float, bytes]]  # language -> the type size its PDF was fitted at and its bytes, when built


def fitted_size(doc: Document, built: Built | None = None) -> float:
    """The type size `doc` fits at on its own (pt): a card's `type_size`, a playsheet's fitted size (as `built`
    says, when its PDF was built)."""
    if built and doc.lz.lang in built:
        return built[doc.lz.lang][0]
    if doc.kind.name == "card":
        return float(doc.context["aid"]["type_size"])
    return doc.printed()[".pdf"].fitted[""]


def render(docs: list[Document], built: Built | None = None) -> Rendered:
    """The aid of `docs` (one a language, two of them) as one PDF, in the smaller of their two type sizes; `built`,
    what the build made of each language alone, if it did."""
    built = built or {}
    size = min(fitted_size(doc, built) for doc in docs)
    made = card(docs, size) if docs[0].kind.name == "card" else playsheet(docs, size, built)
    made.fitted = {"": size}
    made.notes.append(f"{' + '.join(doc.lz.lang for doc in docs)}: type {size:g} pt "
                      f"({', '.join(f'{doc.lz.lang} alone {fitted_size(doc, built):g}' for doc in docs)})")
    return made


def arranged_at(doc: Document, size: float) -> card_fit.ArrangedCard:
    """The card of `doc` fitted at `size` at most (it fits there: it fits its own larger size)."""
    arranged: card_fit.ArrangedCard = doc.context["aid"]
    if arranged["type_size"] <= size:
        return arranged
    model: Card = doc.model
    return card_fit.arrange(replace(model, max_font_size=size), card_text.localize(model, doc.lz, doc.edition),
                            doc.lz.lang)


def card(docs: list[Document], size: float) -> Rendered:
    """Both languages' faces side by side, a page a face (the backs mirrored for a duplex printer)."""
    register_fonts()
    model: Card = docs[0].model
    width, height = model.width * PT_PER_MM, model.height * PT_PER_MM
    faces = [(doc, card_sheet.with_marks(typeset_tree(arranged_at(doc, size), doc.lz.lang), doc.context),
              card_sheet._footer(doc.lz, doc.context)) for doc in docs]
    buffer = io.BytesIO()
    first = docs[0]
    title = " / ".join(typeset(doc.context["document_title"], doc.lz.lang) for doc in docs)
    canv = new_canvas(buffer, (2 * width, height), {**first.context, "document_title": title}, first.lz)
    canv.setViewerPreference("Duplex", "DuplexFlipShortEdge" if 2 * width > height else "DuplexFlipLongEdge")
    for index in range(len(model.faces)):
        canv.setTrimBox((0, 0, 2 * width, height))
        canv.setBleedBox((0, 0, 2 * width, height))
        for slot, (doc, arranged, footer) in enumerate(faces):
            place = slot if index == 0 else len(faces) - 1 - slot  # a back is behind its own front
            canv.saveState()
            canv.translate(place * width, 0)
            card_fit.draw_face(canv, model, arranged, arranged["faces"][index], doc.lz.lang, footer)
            canv.restoreState()
        canv.showPage()
    canv.save()
    return Rendered(buffer.getvalue(), len(model.faces))


def playsheet_at(doc: Document, size: float, built: Built) -> bytes:
    """The playsheet of `doc` printed at `size` (its own, when it fits no larger: as built, if it was)."""
    if fitted_size(doc, built) <= size:
        return built[doc.lz.lang][1] if doc.lz.lang in built else doc.printed()[".pdf"].data
    model: Playsheet = doc.model
    localized: dict[str, Any] = {**doc.context["aid"], "type_size": Decimal(str(size))}
    html = render_template(doc.kind.template, doc.lz, {**doc.context, "aid": localized})
    return Pdf.printer(doc, Profile())(html, model.page.css_size, MARGINS).rendered().data


def playsheet(docs: list[Document], size: float, built: Built) -> Rendered:
    """Each page of the first language followed by the same page of the second: front and back of a sheet."""
    sources = [pikepdf.Pdf.open(io.BytesIO(playsheet_at(doc, size, built))) for doc in docs]
    out = pikepdf.new()
    count = max(len(source.pages) for source in sources)
    for number in range(count):
        for source in sources:
            if number < len(source.pages):
                out.pages.append(source.pages[number])
            else:  # the shorter language: a blank back keeps every sheet's two sides in step
                box = source.pages[0].mediabox
                out.add_blank_page(page_size=(float(box[2]), float(box[3])))
    with out.open_outline() as outline:
        for doc, source in zip(docs, sources):
            outline.root.append(pikepdf.OutlineItem(typeset(doc.context["document_title"], doc.lz.lang),
                                                    sources.index(source)))
    for page in out.pages:  # the pages' structure (a tagged PDF's) stays behind: one PDF cannot hold both trees
        if "/StructParents" in page.obj:
            del page.obj.StructParents
    out.docinfo["/Title"] = " / ".join(typeset(doc.context["document_title"], doc.lz.lang) for doc in docs)
    out.docinfo["/Creator"] = "aids"
    out.Root.Lang = pikepdf.String(docs[0].lz.lang)
    out.Root.ViewerPreferences = pikepdf.Dictionary(DisplayDocTitle=True)  # the title, not the file name
    data = io.BytesIO()
    out.save(data, deterministic_id=True, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return Rendered(data.getvalue(), len(out.pages))
