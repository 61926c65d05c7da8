"""A referee card in one language: its faces and sections, numbers, dates and labels made per locale."""
from __future__ import annotations

from collections.abc import Collection
from functools import partial

from ..config import Edition
from ..model.card import Card
from ..model.card_sections import Item, Section
from ..model.text import Text, as_date, as_number
from . import rich
from .documents import CardDocument, CardSection, Signature
from .localizer import Localizer
from .rich import Rich, item_lines
from .table import localize as localize_table


def resolver(lz: Localizer) -> rich.Resolve:
    """What a card's placeholders print: {num:} a number, {date:} a day of the year, in the reader's style."""
    def resolve(kind: str, arg: str) -> Rich:
        if kind == "num":
            return rich.text(lz.number(as_number(arg)))
        day = as_date(arg)
        assert day is not None  # the model checked it
        return rich.text(lz.day(day))
    return resolve


def item_texts(card: Card, lz: Localizer, keys: Collection[str]) -> dict[str, str]:
    """The texts of each item of `keys` as the card prints them, on one line (its numbers and days per locale)."""
    resolve = resolver(lz)
    return item_lines(((text.context, partial(lz.rich, text, resolve)) for text in card.messages()), keys)


def localize(card: Card, lz: Localizer, edition: Edition | None = None) -> CardDocument:
    """The card in the language of `lz`: text as runs, numbers and labels made per locale."""
    resolve = resolver(lz)

    def runs(text: Text | None) -> Rich | None:
        return lz.rich(text, resolve) if text else None

    def label(section: Section, n: int) -> str | None:
        if section.kind not in ("steps", "ladder"):
            return None
        if section.numbering == "decimal":
            return lz.number(n)
        letter = lz.letter(n)
        return letter.upper() if section.numbering == "upper" else letter

    def value(section: Section, item: Item) -> str | None:
        points = item.points
        if points is None:
            return None
        if section.kind == "scoring":
            return lz.signed(points)
        return lz.npgettext("points awarded, e.g. in a tournament ranking", "%(points)s point", "%(points)s points",
                            -points if points < 0 else points) % {"points": lz.number(points)}

    def section(s: Section) -> CardSection:
        return {
            "id": s.id, "kind": s.kind, "title": lz.text(s.title) if s.title else None,
            "intro": runs(s.intro), "note": runs(s.note),
            "items": [{"id": i.id, "label": label(s, n), "value": value(s, i), "glyph": i.glyph,
                       "term": runs(i.term), "text": runs(i.text)} for n, i in enumerate(s.items, start=1)],
            # an embedded table, as the table kind localizes it (numbers per language and edition)
            "aid": localize_table(s.table, lz, edition) if s.table else None,
        }

    face_names = {"front": lz.pgettext("face of a card", "Front"), "back": lz.pgettext("face of a card", "Back")}
    signature: Signature | None = None
    if card.signature:
        role, name, face = card.signature
        signature = {"role": lz.text(role), "name": rich.parse(name, lambda kind, target: Rich()), "face": face}
    return {
        "id": card.id,
        "title": lz.text(card.title),
        "subtitle": lz.text(card.subtitle) if card.subtitle else None,
        "size": {"name": card.size_name, "width": lz.number(card.width), "height": lz.number(card.height)},
        "faces": [{"id": f, "name": face_names[f], "sections": [section(s) for s in card.on(f)]}
                  for f in card.faces],
        "signature": signature,
        # over the part of a table that continues from the column before
        "continued": lz.pgettext("a table of a card continued from the column before", "(cont.)"),
    }
