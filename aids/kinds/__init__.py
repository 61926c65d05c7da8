"""The built-in kinds of aid, each the `Kind` contract over its model (model/), its localizing (localize/) and its
renderers (render/): sequence, table, playsheet, card, booklet."""
from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Collection, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import Problems
from ..kind import GROUP, Aid, Kind, Margins, Model, Printer
from ..localize import booklet as booklet_text
from ..localize import card as card_text
from ..localize import playsheet as playsheet_text
from ..localize import sequence as sequence_text
from ..localize import table as table_text
from ..localize.documents import BookletDocument, CardDocument, PlaysheetDocument, SequenceDocument, TableDocument
from ..localize.localizer import PSEUDO
from ..model import booklet, card, playsheet, sequence, sequence_source, table, table_shape
from ..model.quantity import value_text
from ..source.yamlfile import Source

if TYPE_CHECKING:
    from ..config import Edition, Game
    from ..localize.localizer import Localizer
    from ..render.card_fit import ArrangedCard
    from ..render.printing import Profile
    from ..render.rendered import Rendered


def models_of(aids: Mapping[str, Aid | None]) -> dict[str, Any]:
    """id -> model (None for an aid that failed to read), as the models' own link functions take them."""
    return {aid_id: aid.model if aid is not None else None for aid_id, aid in aids.items()}


class SequenceKind(Kind[sequence.Sequence, SequenceDocument]):
    name = sequence.KIND
    shape = sequence.SHAPE
    template = "sequence.html"
    reflowable = True
    embed_template = "sequence-body.html"  # the phases alone, for a booklet that embeds the sequence

    def read(self, src: Source, game: Game | None, problems: Problems) -> sequence.Sequence | None:
        return sequence_source.read(src, game, problems)

    def localize(self, model: sequence.Sequence, lz: Localizer, edition: Edition | None,
                 rules: Mapping[str, str] | None = None) -> SequenceDocument:
        return sequence_text.localize(model, lz, edition, rules)

    def display_name(self, lz: Localizer) -> str:
        return lz.pgettext("aid kind", "Sequence of play")

    def item_texts(self, model: sequence.Sequence, lz: Localizer, edition: Edition | None,
                   keys: Collection[str]) -> dict[str, str]:
        return sequence_text.item_texts(model, lz, edition, keys)

    def anchors(self, model: sequence.Sequence) -> list[str]:
        return model.anchors()

    def numbers(self, model: sequence.Sequence, lz: Localizer) -> dict[str, str]:
        return sequence_text.numbers(model, lz)

    def glossary(self, model: sequence.Sequence) -> list[booklet.Term]:
        """Its roles: a text that names one in prose ("the phasing player" typed, not `{side:phasing}`) is held
        to the role's translation, as a glossary term is. Not its sides: a side's name is often rendered by an
        adjective ("Faza odwrotu Polaków", "Polish Retreat Phase"), which no stem of "Poles" matches."""
        return [booklet.Term(f"role:{side.id}", side.name, "", "", None) for side in model.sides if side.role]

    def citations(self, model: sequence.Sequence) -> dict[str, list[str]]:
        """Its texts' references, and each phase's and step's `see:` list."""
        out = super().citations(model)
        for node in model.nodes():
            if node.see:
                out.setdefault(sequence.path_of(node), []).extend(node.see)
        return out


class TableKind(Kind[table.Table, TableDocument]):
    name = table.KIND
    shape = table_shape.SHAPE
    template = "table.html"
    embed_template = "table-body.html"
    standalone = False  # a part: built inside the playsheets, cards and booklets that embed it

    def read(self, src: Source, game: Game | None, problems: Problems) -> table.Table | None:
        return table.read(src, game, problems)

    def localize(self, model: table.Table, lz: Localizer, edition: Edition | None,
                 rules: Mapping[str, str] | None = None) -> TableDocument:
        return table_text.localize(model, lz, edition)

    def display_name(self, lz: Localizer) -> str:
        return lz.pgettext("aid kind", "Table")

    def item_texts(self, model: table.Table, lz: Localizer, edition: Edition | None,
                   keys: Collection[str]) -> dict[str, str]:
        return table_text.item_texts(model, lz, edition, keys)

    def anchors(self, model: table.Table) -> list[str]:
        return [model.id, *(f"{model.id}/{row.id}" for row in model.rows)]

    def anchor_at(self, model: table.Table, context: str) -> str:
        """A row's (its cells' too), else the table's."""
        row = "/".join(context.split("/")[:2])
        return row if row != model.id and row in self.anchors(model) else model.id

    def values(self, model: table.Table) -> dict[str, list[str]]:
        """A column's key (a range band, a distance) and a row's key and cells, under the row's or column's key."""
        out = {f"{model.id}/{c.id}": [value_text(c.key)] for c in model.columns if c.key is not None}
        for row in model.rows:
            cells = [value_text(cell.value) for cell in row.cells]
            out[f"{model.id}/{row.id}"] = [value_text(row.key), *cells]
        return out


class PlaysheetKind(Kind[playsheet.Playsheet, PlaysheetDocument]):
    name = playsheet.KIND
    shape = playsheet.SHAPE
    template = "playsheet.html"
    fitted = True

    def read(self, src: Source, game: Game | None, problems: Problems) -> playsheet.Playsheet | None:
        return playsheet.read(src, game, problems)

    def link(self, model: playsheet.Playsheet, aids: Mapping[str, Aid | None], problems: Problems) -> None:
        playsheet.link(model, models_of(aids), problems)

    def parts(self, model: playsheet.Playsheet) -> list[Model]:
        return [block.table for block in model.blocks if block.table is not None]

    def localize(self, model: playsheet.Playsheet, lz: Localizer, edition: Edition | None,
                 rules: Mapping[str, str] | None = None) -> PlaysheetDocument:
        return playsheet_text.localize(model, lz, edition)

    def display_name(self, lz: Localizer) -> str:
        return lz.pgettext("aid kind", "Playsheet")

    def render_pdf(self, model: playsheet.Playsheet, localized: PlaysheetDocument, lz: Localizer,
                   context: dict[str, Any], edition: Edition | None, print_pdf: Printer,
                   profile: Profile) -> dict[str, Rendered]:
        from ..render import fitting
        return fitting.playsheet_pdf(model, self.template, localized, lz, context, edition, print_pdf)


class CardKind(Kind[card.Card, "ArrangedCard", CardDocument]):  # named: card_fit is imported when a card is
    name = card.KIND
    shape = card.SHAPE
    template = "card.html"
    fitted = True

    def read(self, src: Source, game: Game | None, problems: Problems) -> card.Card | None:
        return card.read(src, game, problems)

    def link(self, model: card.Card, aids: Mapping[str, Aid | None], problems: Problems) -> None:
        card.link(model, models_of(aids), problems)

    def parts(self, model: card.Card) -> list[Model]:
        return [section.table for section in model.sections if section.table is not None]

    def localize(self, model: card.Card, lz: Localizer, edition: Edition | None,
                 rules: Mapping[str, str] | None = None) -> CardDocument:
        return card_text.localize(model, lz, edition)

    def lay_out(self, model: card.Card, localized: CardDocument, lz: Localizer) -> ArrangedCard:
        from ..render import card_fit
        # which face a section is on is for the fitting to say: its page shows the same; the pseudo-locale tests a
        # layout with longer text, and shows how small it gets rather than fail
        return card_fit.arrange(model, localized, lz.lang, card_fit.LOWEST if lz.lang == PSEUDO else None)

    def anchors(self, model: card.Card) -> list[str]:
        """Its sections' ids, and each item's: section-item, as its page prints them."""
        return [anchor for section in model.sections
                for anchor in (section.id, *(f"{section.id}-{item.id}" for item in section.items))]

    def anchor_at(self, model: card.Card, context: str) -> str:
        """An item's (any text of it), else its section's (a title, an introduction, a note)."""
        parts = context.split("/")
        section = next((s for s in model.sections if parts[1:2] == [s.id]), None) if parts[0] == model.id else None
        if section is None:
            return ""
        item = parts[2] if len(parts) > 2 else ""
        return f"{section.id}-{item}" if any(i.id == item for i in section.items) else section.id

    def display_name(self, lz: Localizer) -> str:
        return lz.pgettext("aid kind", "Referee card")

    def item_texts(self, model: card.Card, lz: Localizer, edition: Edition | None,
                   keys: Collection[str]) -> dict[str, str]:
        return card_text.item_texts(model, lz, keys)

    def render_pdf(self, model: card.Card, localized: ArrangedCard, lz: Localizer, context: dict[str, Any],
                   edition: Edition | None, print_pdf: Printer, profile: Profile) -> dict[str, Rendered]:
        from ..render import card_sheet
        return card_sheet.render(model, localized, lz, context, profile)


class BookletKind(Kind[booklet.Booklet, BookletDocument]):
    name = booklet.KIND
    shape = booklet.SHAPE
    template = "booklet.html"
    changelog = True  # "Changes since version ..." after the rules: every aid's changes, linked where printed
    bound = True
    reflowable = True

    def read(self, src: Source, game: Game | None, problems: Problems) -> booklet.Booklet | None:
        return booklet.read(src, game, problems)

    def release_of(self, model: booklet.Booklet) -> tuple[str, dt.date | None]:
        return model.version, model.published

    def glossary(self, model: booklet.Booklet) -> list[booklet.Term]:
        return model.glossary

    def link(self, model: booklet.Booklet, aids: Mapping[str, Aid | None], problems: Problems) -> None:
        """Resolve every `::: embed <id>` to another aid of the game whose kind can be embedded."""
        embeddable = sorted(k.name for k in BUILT_IN if k.embed_template)
        own = set(model.headings) | {h.label for h in model.headings.values() if h.number}
        for directive in model.embeds:
            target = aids.get(directive.arg)
            if target is None and directive.arg in aids:
                problems.add(directive.where, f"embedded aid '{directive.arg}' has errors (reported above)",
                             "that aid fixed first")
            elif target is None:
                others = sorted(i for i in aids if i != model.id)
                problems.add(directive.where, f"embedded aid '{directive.arg}' does not exist",
                             ", ".join(others) or "the id of another aid of this game")
            elif not target.kind.embed_template:
                problems.add(directive.where, f"aid '{directive.arg}' of kind '{target.kind.name}' cannot be "
                             "embedded", "an aid of kind " + ", ".join(embeddable))
            else:
                directive.target = (target.kind, target.model)
                # the embedded aid's anchors share the booklet's page: a clash would break its links
                for anchor in sorted(set(target.kind.anchors(target.model)) & own):
                    problems.add(directive.where, f"embedded aid '{directive.arg}' has an anchor '{anchor}' that "
                                 "is also a heading id or rule number of the booklet", "distinct ids")

    def anchors(self, model: booklet.Booklet) -> list[str]:
        return list(model.headings)

    def index_anchor(self, model: booklet.Booklet) -> str | None:
        return model.index_section()

    def numbers(self, model: booklet.Booklet, lz: Localizer) -> dict[str, str]:
        return {heading_id: heading.label for heading_id, heading in model.headings.items() if heading.number}

    def targets(self, model: booklet.Booklet) -> dict[str, str]:
        return {f"rule:{heading.label}": heading_id for heading_id, heading in model.headings.items()
                if heading.number}

    def inputs(self, model: booklet.Booklet) -> list[Path]:
        return [model.source.path, *model.inputs]

    def parts(self, model: booklet.Booklet) -> list[Model]:
        """Embedded aids, and what they embed in turn (a playsheet's tables)."""
        found: list[Model] = []
        for directive in model.embeds:
            if directive.target is not None:
                kind, part = directive.target
                found += [part, *kind.parts(part)]
        return found

    def localize(self, model: booklet.Booklet, lz: Localizer, edition: Edition | None,
                 rules: Mapping[str, str] | None = None) -> BookletDocument:
        return booklet_text.localize(model, lz, edition)

    def display_name(self, lz: Localizer) -> str:
        return lz.pgettext("aid kind", "Rule booklet")

    def item_texts(self, model: booklet.Booklet, lz: Localizer, edition: Edition | None,
                   keys: Collection[str]) -> dict[str, str]:
        return booklet_text.item_texts(model, lz, edition, keys)

    def page_size(self, model: booklet.Booklet) -> str:
        return model.page_size

    def margins(self, model: booklet.Booklet) -> Margins:
        """Facing pages: 16 mm at the top, 14 outside, 18 at the foot, 14 plus the binding inside."""
        return (16.0, 14.0, 18.0, 14.0 + model.binding)

    def render_pdf(self, model: booklet.Booklet, localized: BookletDocument, lz: Localizer, context: dict[str, Any],
                   edition: Edition | None, print_pdf: Printer, profile: Profile) -> dict[str, Rendered] | None:
        """With a page goal (`pages:`), the type tightened to meet it; else printed the default way."""
        if model.pages is None:
            return None
        from ..render import fitting
        return fitting.booklet_pdf(model, self.template, localized, lz, context, print_pdf, self.margins(model))


BUILT_IN: list[Kind[Any, Any]] = [SequenceKind(), TableKind(), PlaysheetKind(), CardKind(), BookletKind()]


@functools.lru_cache(maxsize=1)
def registry() -> dict[str, Kind[Any, Any]]:
    """Every kind by name: the built-in ones and those registered under the `aids.kinds` entry point."""
    found: dict[str, Kind[Any, Any]] = {k.name: k for k in BUILT_IN}
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        loaded = point.load()
        kind = loaded() if isinstance(loaded, type) else loaded
        if not isinstance(kind, Kind):
            raise TypeError(f"entry point {point.name} = {point.value} is not an aids Kind")
        found.setdefault(kind.name, kind)
    return found


def kind_named(name: str) -> Kind[Any, Any] | None:
    return registry().get(name)
