"""The contract every aid kind fulfils, and the registry that finds the kinds.

A kind turns one source (`kind: <name>`) into a model, names its translatable texts, links it to the
game's other aids, localizes it, and says how it is printed. The built-in kinds are in `aids.kinds`;
a kind of another package registers under the `aids.kinds` entry point:

    [project.entry-points."aids.kinds"]
    hex-map = "my_package.hex_map:KIND"

The pipeline calls only what `Kind` declares; a subclass overrides what it needs.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, cast

from typing_extensions import TypeVar

from .errors import Problems
from .localize.rich import item_lines
from .model.booklet import Term
from .model.release import Item
from .model.text import Text, inline_placeholders
from .source.shape import Shape
from .source.yamlfile import Source

if TYPE_CHECKING:
    from .config import Edition, Game
    from .localize.localizer import Localizer
    from .render.printing import Profile
    from .render.rendered import Printed, Rendered

GROUP = "aids.kinds"


class Model(Protocol):
    """What every model offers the pipeline."""
    id: str
    source: Source

    @property
    def title(self) -> Text | None:
        """On its page, in the site's lists, in the links of the aids that cite it; None: untitled (a sequence may
        be), named by its kind there (`Kind.title_of`)."""
        ...

    def messages(self) -> Iterator[Text]:
        """Every translatable text, in document order."""
        ...


M = TypeVar("M", bound=Model)
# The document a kind's localize makes (aids/localize/documents.py: a TypedDict per built-in kind), which its own
# renderers are given back: Kind[Card, ArrangedCard] reads a card's keys as mypy checks them. A kind of another
# package that names its model only (Kind[CounterSheet]) makes a plain dict, as before (the default, PEP 696).
D = TypeVar("D", bound=Mapping[str, Any], default=dict[str, Any])
# What its localize makes, when its renderers are given it laid out (`lay_out`: a card's CardDocument, arranged on
# its faces as an ArrangedCard); by default the document itself.
L = TypeVar("L", bound=Mapping[str, Any], default=D)


@dataclass
class Aid:
    """A model with the kind that knows how to localize and render it."""
    kind: Kind[Any, Any]
    model: Any
    path: Path


class Printer(Protocol):
    """Prints other HTML of the aid the default way (WeasyPrint with the package's print stylesheet)."""

    def __call__(self, html: str, page_size: str, margins: Margins = None) -> Printed: ...


# A page's margins: a CSS margin ("8mm 8mm 11mm 8mm"), or facing pages (top, outer, bottom, inner) in mm,
# the inner margin on the left of a right-hand page; None for the default.
Margins = str | tuple[float, float, float, float] | None


class Kind(Generic[M, D, L]):
    """One kind of aid. `name`, `template`, `read`, `localize` and `display_name` are required.

    Generic in its model (M), in the document its renderers are given (D) and in what its `localize` makes (L, D
    unless `lay_out` makes D of it), rather than returning a union of every kind's document: a renderer of one kind
    is given that kind's document (its `render_pdf` takes a D), which a union would make it narrow again by hand;
    the pipeline, which handles every kind alike, sees a Kind[Any, Any]. The flags below (bound, reflowable, ...)
    are what the formats that apply to some kinds only ask of it (render/capabilities.py, Capabilities.kinds)."""

    name: ClassVar[str]  # as in sources: `kind: sequence`
    template: ClassVar[str]  # the Jinja2 template of its page (HTML, and the PDF unless `render_pdf` says otherwise)
    embed_template: ClassVar[str | None] = None  # its body alone, for a booklet that embeds it by id
    standalone: ClassVar[bool] = True  # False: a part (a table), built only inside the aids that embed it
    template_folder: ClassVar[Path | None] = None  # where its templates are, if not among the package's own
    bound: ClassVar[bool] = False  # its pages are bound as a booklet: `--impose` writes it imposed for stitching
    reflowable: ClassVar[bool] = False  # its text reads in any width (a sequence, a booklet): an e-book (EPUB) too
    changelog: ClassVar[bool] = False  # it prints the game's changes since its last release (every aid's)
    fitted: ClassVar[bool] = False  # its type is fitted to a fixed space (a card, a playsheet): `aids budgets`
    # the fields of its source, as its reader checks them (aids.source.shape): the JSON Schema editors use
    # (`aids schema <kind>`); a kind without one gets a schema that names its kind and accepts any fields
    shape: ClassVar[Shape | None] = None

    def read(self, src: Source, game: Game | None, problems: Problems) -> M | None:
        """The model of a parsed source; every problem is added to `problems` (None when it cannot be built)."""
        raise NotImplementedError

    def messages(self, model: M) -> Iterator[Text]:
        return model.messages()

    def link(self, model: M, aids: Mapping[str, Aid | None], problems: Problems) -> None:
        """Resolve what it takes from the game's other aids (None for an aid that failed to read)."""

    def shown_texts(self, model: M) -> list[Text]:
        """Every translatable text on its pages: its own and those of the aids it embeds (`parts`)."""
        return [*self.messages(model), *(text for part in self.parts(model) for text in part.messages())]

    def inputs(self, model: M) -> list[Path]:
        """Every file its model was read from: what a change to makes it stale (the build cache)."""
        return [model.source.path]

    def anchor_of(self, model: M, text: Text) -> str:
        """The HTML id nearest to where `text` is printed on the aid's page ('' for the top): its msgctxt
        after the aid's id, shortened until it is one of `anchors` (a step's, then its phase's)."""
        return self.anchor_at(model, text.context)

    def anchor_at(self, model: M, context: str) -> str:
        """`anchor_of` for a msgctxt."""
        path = context.split("/")[1:] if context.startswith(f"{model.id}/") else []
        known = set(self.anchors(model))
        while path and "/".join(path) not in known:
            path.pop()
        return "/".join(path)

    def release_of(self, model: M) -> tuple[str, dt.date | None]:
        """The version and publication date it carries itself (a booklet's own), or ("", None): its game's."""
        return "", None

    def glossary(self, model: M) -> list[Term]:
        """The terms it defines, which every translation of the game is held to (`aids check`)."""
        return []

    def values(self, model: M) -> Mapping[str, list[str]]:
        """The data printed with its texts (a table's cells), by the msgctxt of the item they belong to: a
        release records them, and a changed value is a changed item."""
        return {}

    def items(self, model: M) -> list[Item]:
        """Every item a release records and a change marks, in document order: its own texts grouped by
        msgctxt (their stable key) with the values of `values`, each with the anchor it is printed at."""
        texts: dict[str, list[str]] = {}
        for text in self.messages(model):
            texts.setdefault(text.context, []).append(text.msgid)
        data = self.values(model)
        keys = [*texts, *(key for key in data if key not in texts)]
        return [Item(key, self.anchor_at(model, key), tuple(texts.get(key, ())), tuple(data.get(key, ())))
                for key in keys]

    def item_texts(self, model: M, lz: Localizer, edition: Edition | None, keys: Collection[str]) -> dict[str, str]:
        """The texts of each item of `keys` (keys of `items`) as its page prints them in `lz`'s language and
        `edition`, on one line: what a changelog, an errata sheet, a feed or a history quotes of an item, now (the
        model read from the sources) or as a release printed it (its model and catalog read from its snapshot).
        The default: each text with its icons named; a kind whose texts have placeholders of their own, or whose
        items print values, says how they read."""
        return item_lines(((text.context, partial(lz.rich, text)) for text in self.messages(model)), keys)

    def citations(self, model: M) -> dict[str, list[str]]:
        """anchor -> the references printed there (`rule:4.1`, `movement/move`): the `{ref:}` and `{see:}`
        placeholders of its texts. An item that cites a changed item is marked too."""
        out: dict[str, list[str]] = {}
        for text in self.messages(model):
            for kind, target, _ in inline_placeholders(text.msgid):
                if kind in ("ref", "see"):
                    out.setdefault(self.anchor_of(model, text), []).append(target)
        return out

    def numbers(self, model: M, lz: Localizer) -> dict[str, str]:
        """anchor -> the number its item is printed and cited by in `lz`'s language (a rule's 2.4, a step's
        "3, step 2"), for a changelog; {} for a kind without numbers."""
        return {}

    def targets(self, model: M) -> dict[str, str]:
        """The references other aids make to its items, and the anchor each leads to (a booklet's
        `rule:4.1` -> the id of that rule's heading)."""
        return {}

    def parts(self, model: M) -> list[Model]:
        """The models of the game's other aids that link() put into it (a booklet's embedded sequence,
        a playsheet's tables): their texts are on its pages too."""
        return []

    def localize(self, model: M, lz: Localizer, edition: Edition | None,
                 rules: Mapping[str, str] | None = None) -> L:
        """The localized model in one language (with at least "title"): plain values, nothing laid out; `rules`
        maps rule numbers to anchors of a booklet that embeds it."""
        raise NotImplementedError

    def display_name(self, lz: Localizer) -> str:
        """What the kind is called, in the reader's language."""
        raise NotImplementedError

    def title_of(self, model: M, lz: Localizer) -> str:
        """The title of `model` in the reader's language (as `lz.shown`), or for an untitled one what its kind is
        called: what the site's lists and a packet's contents name it by."""
        return lz.shown(model.title) if model.title is not None else self.display_name(lz)

    def anchors(self, model: M) -> list[str]:
        """The HTML ids its body uses (a booklet embedding it checks them for clashes)."""
        return []

    def index_anchor(self, model: M) -> str | None:
        """The id of the section holding its back-of-book index, which the game's page links to, if it has one."""
        return None

    def page_size(self, model: M) -> str:
        return "A4"

    def margins(self, model: M) -> Margins:
        return None

    def lay_out(self, model: M, localized: L, lz: Localizer) -> D:
        """The localized document laid out as its renderers are given it, for its page and its PDFs alike (a card's
        sections on its faces, as they fit: render/card_fit.py); by default, as it is. The render stage's, called
        by the pipeline after `localize`."""
        return cast(D, localized)

    def render_pdf(self, model: M, localized: D, lz: Localizer, context: dict[str, Any], edition: Edition | None,
                   print_pdf: Printer, profile: Profile) -> dict[str, Rendered] | None:
        """Its own PDF files for the print `profile` ({suffix: Rendered}: .pdf, -sheet.pdf ..., which the formats
        name for the profile: -press.pdf, -sheet-gray.pdf), or None to print its page the default way. One hook
        for every profile: `print_pdf` prints for `profile` (in CMYK with its bleed for the press, in grays for a
        monochrome printer), and a kind that draws its PDF itself reads `profile` (a card: render/card_sheet.py)."""
        return None
