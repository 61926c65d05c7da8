"""Output formats, registered like kinds: each renders any localized aid (a `Document`) to its files, and declares
as data (`Capabilities`) what it applies to and what it needs, which the pipeline reads instead of naming formats.

`html` renders the kind's template; `pdf` prints that page with WeasyPrint, unless the kind renders its PDF
itself (a card with ReportLab, a playsheet fitted to its page budget: the kind's one hook, `render_pdf`, for
every print profile). A format of another package registers under the `aids.formats` entry point; adding one
touches no kind and no name set: one module, one registration.
"""
from __future__ import annotations

import functools
import hashlib
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from importlib.metadata import entry_points
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Protocol

from pypdf import PdfReader

from ..errors import AidsError, Position, Problem
from ..folder import Folder
from ..localize.documents import Figure
from ..localize.typography import typeset
from . import impose, preflight, recolour
from .capabilities import Capabilities
from .html import render_template
from .pdf import RASTER, check_glyphs, figures_of, long_words
from .printing import GRAY, HOME, PRESS, Profile, print_pdf
from .rendered import Printed, Rendered

if TYPE_CHECKING:
    from ..config import Edition, Game
    from ..config.theme import Face
    from ..kind import Kind, Margins, Printer
    from ..localize.localizer import Localizer

GROUP = "aids.formats"


@dataclass
class Document:
    """One aid localized in one language and edition: everything a format needs to render it."""
    game: Game
    kind: Kind[Any, Any]
    model: Any
    lz: Localizer
    edition: Edition | None
    context: dict[str, Any]  # the template context: aid (the localized model), game, kind, kind_name, ...
    site: dict[str, Any] | None = None  # the web site's navigation on its page (aids/site/site.py); never in a PDF
    # the PDFs of a print profile as an earlier build wrote them from the same sources, read back (suffix -> bytes),
    # else None: what an imposition then takes instead of laying the aid out again (pipeline/jobs.py)
    printed_before: Callable[[str], dict[str, bytes] | None] | None = field(default=None, repr=False)
    _printed: dict[str, dict[str, Rendered]] = field(default_factory=dict, repr=False)  # by print profile

    @functools.cached_property
    def html(self) -> str:
        """Its page, rendered once however many formats use it (the PDFs print it)."""
        folder = self.kind.template_folder
        return render_template(self.kind.template, self.lz, self.context, (str(folder),) if folder else ())

    @property
    def page(self) -> str:
        """Its HTML page: `html` with the site's navigation, its figures, its theme's fonts and the files its
        theme's stylesheet names linked to their copies beside it."""
        if not self.site and not self.figures and not self.faces and not self.assets:
            return self.html
        folder = self.kind.template_folder
        faces = [(face.family, self.model.id + suffix, face.weight, face.style) for suffix, face in self.faces.items()]
        assets = {str(path): self.model.id + suffix for suffix, path in self.assets.items()}
        return render_template(self.kind.template, self.lz, {**self.context, "site": self.site, "web": True,
                                                             "web_faces": faces, "web_assets": assets},
                               (str(folder),) if folder else ())

    @functools.cached_property
    def faces(self) -> dict[str, Face]:
        """The fonts of the game's theme by the suffix of their copies beside the web page
        (<aid>-theme-<digest>-<file>): a new version of a font, a new name."""
        theme = self.game.theme
        return {f"-theme-{hashlib.sha256(face.file.read_bytes()).hexdigest()[:8]}-{face.file.name}": face
                for face in (theme.faces if theme else ())}

    @functools.cached_property
    def assets(self) -> dict[str, Path]:
        """The files the game's theme's stylesheet names by url() (its images), by the suffix of their copies
        beside the web page (<aid>-theme-<digest>-<file>), as its fonts are."""
        theme = self.game.theme
        return {f"-theme-{hashlib.sha256(path.read_bytes()).hexdigest()[:8]}-{path.name}": path
                for path in dict.fromkeys(path for _, path in (theme.assets if theme else ()))}

    def asset_files(self) -> dict[str, Rendered]:
        """{suffix: bytes} of the copies of `assets` its web page links, beside it."""
        return {suffix: Rendered(path.read_bytes()) for suffix, path in self.assets.items()}

    @functools.cached_property
    def figures(self) -> list[Figure]:
        """The images of the game its pages show, once each, in order."""
        return list(dict.fromkeys(figures_of(self.context["aid"])))

    def figure_files(self) -> dict[str, Rendered]:
        """{suffix: bytes} of the copies of its figures its web page links, beside it (<aid>-<stem>-<digest>)."""
        game = Folder(self.game.folder, str(PurePosixPath(self.game.source.shown).parent))  # beside game.yaml
        out: dict[str, Rendered] = {}
        for figure in self.figures:
            data = game.read(figure.file)
            if data is None:
                raise AidsError(Problem(Position(game.show(figure.file)), "image removed while it was built",
                                        "the file in place, then aids build again"))
            out[figure.name.removeprefix(self.model.id)] = Rendered(data)
        for suffix, face in self.faces.items():  # inside the project (config/theme.py), read as it is
            out[suffix] = Rendered(face.file.read_bytes())
        return out


    def printed(self, profile: str = HOME) -> dict[str, Rendered]:
        """Its PDF(s) for a print `profile` (home, press, gray), printed once however many formats use them (an
        imposed booklet, say): what the kind's `render_pdf` makes for that profile, else its page printed the
        default way, each file named for the profile (.pdf, -press.pdf, -gray.pdf, -sheet-gray.pdf ...); or, where
        `printed_before` has them, those an earlier build wrote from the same sources, read back."""
        if profile not in self._printed:
            before = self.printed_before(profile) if self.printed_before else None
            if before is not None:
                self._printed[profile] = {suffix: Rendered(data, len(PdfReader(io.BytesIO(data)).pages))
                                          for suffix, data in before.items()}
                return self._printed[profile]
            made = self._press() if profile == PRESS else self._print(Profile(profile))
            self._printed[profile] = {suffix.removesuffix(".pdf") + Profile(profile).suffix + ".pdf": rendered
                                      for suffix, rendered in made.items()}
        return self._printed[profile]

    def _print(self, profile: Profile) -> dict[str, Rendered]:
        printer = Pdf.printer(self, profile)
        made = self.kind.render_pdf(self.model, self.context["aid"], self.lz, self.context, self.edition, printer,
                                    profile)
        if made is not None:
            return made
        return {".pdf": printer(self.html, self.kind.page_size(self.model), self.kind.margins(self.model)).rendered()}

    def _press(self) -> dict[str, Rendered]:
        """For the press (the game's print settings): in CMYK and gray only (render/recolour.py), its home PDF
        alone (a card's sheet is for a home printer), each checked as a print shop's preflight checks it
        (render/preflight.py)."""
        try:
            made = self._print(Profile(PRESS, self.game.printing))
        except recolour.Unconvertible as exc:
            raise AidsError(Problem(Position(str(self.model.source.shown)), f"{self.kind.name} '{self.model.id}' "
                                    f"({self.lz.lang}), its press PDF: {exc}",
                                    "colours, images and gradients a press PDF can hold in CMYK "
                                    "(docs/guide/printing.md), or no press profile")) from None
        return {".pdf": self.preflighted("-press.pdf", made[".pdf"])}

    def preflighted(self, suffix: str, rendered: Rendered) -> Rendered:
        """A press PDF with what a print shop's preflight flags in it (an image below the press's resolution)
        as warnings, which --strict makes the aid's failure."""
        found = preflight.findings(rendered.data, self.model.id + suffix, self.images)
        return replace(rendered, warnings=[*rendered.warnings, *found], preflight=found) if found else rendered

    @functools.cached_property
    def images(self) -> dict[tuple[int, int], str]:
        """The raster images of the game its pages may place (its figures, its theme's page art) by their pixels:
        how the preflight names an image it finds in a PDF."""
        from PIL import Image
        game = Folder(self.game.folder, str(PurePosixPath(self.game.source.shown).parent))
        theme = self.game.theme
        files = [(self.game.folder / figure.file, game.show(figure.file)) for figure in self.figures]
        if theme is not None and theme.background is not None:
            files.append((theme.background, theme.show(theme.background)))
        found: dict[tuple[int, int], str] = {}
        for path, shown in files:
            if path.suffix.lower() in RASTER:
                with Image.open(path) as image:
                    found.setdefault(image.size, shown)
        return found

    def locate(self, fragment: str) -> Position:
        """The source position of the text of this aid that shows `fragment` in this language (its own
        file, when the fragment is in no single text of it: a label of the package, say)."""
        for text in [self.game.title_text, *self.kind.shown_texts(self.model)]:
            if fragment in self.lz.shown(text):
                return text.where
        return Position(str(self.model.source.shown))


class Format(Protocol):
    name: str  # what `aids build --format` takes
    summary: str  # one line, for `aids formats`

    def render(self, doc: Document) -> dict[str, Rendered]:
        """{file suffix: what to write}, e.g. {".pdf": ..., "-sheet.pdf": ...}."""
        ...


def declared(fmt: Format) -> Capabilities:
    """What `fmt` declares (its `capabilities`); nothing, for a format of another package that declares none."""
    found = getattr(fmt, "capabilities", None)
    return found if isinstance(found, Capabilities) else Capabilities()


def applies(fmt: Format, kind: Kind[Any, Any]) -> bool:
    """Whether `fmt` renders aids of `kind` (else it makes no file of them)."""
    flag = declared(fmt).kinds
    return flag is None or bool(getattr(kind, flag, False))


def paged(names: Iterable[str]) -> bool:
    """Whether any of the formats `names` prints with WeasyPrint (an unknown name: no)."""
    return any(declared(registry()[name]).paged for name in names if name in registry())


def variants(names: Iterable[str], profiles: Iterable[str]) -> list[str]:
    """The formats `names` with the variants they have for print `profiles` (those a game's aids.yaml prints in)
    and for the profiles of `names` themselves (--profile press asks a booklet's press imposition too), in the
    registry's order."""
    asked = set(names)
    wanted = {*profiles, *(declared(registry()[name]).profile for name in asked if name in registry())}
    return [name for name, fmt in registry().items()
            if name in asked or (declared(fmt).of in asked and declared(fmt).profile in wanted)]


class Html:
    """The web page: the kind's template, with the site's navigation; for a screen, a phone, a search index."""
    name = "html"
    summary = "a web page (<aid>.html), with the site's navigation"
    capabilities = Capabilities()

    def render(self, doc: Document) -> dict[str, Rendered]:
        return {".html": Rendered(doc.page.encode("utf-8"), remarks=remarks_of(doc)), **doc.figure_files(),
                **doc.asset_files()}


def remarks_of(doc: Document) -> list[str]:
    """What the localized aid says of itself for the build summary (a sequence: the letters its language skips)."""
    aid = doc.context["aid"]
    return list(aid.get("remarks", [])) if isinstance(aid, dict) else []


class Pdf:
    """The PDF for printing at home or on a digital printer: the page size, RGB colours, a card's sheet."""
    name = "pdf"
    summary = "a PDF to print at home or on a digital printer (<aid>.pdf)"
    capabilities = Capabilities(paged=True)

    def render(self, doc: Document) -> dict[str, Rendered]:
        made = doc.printed(HOME)
        if remarks := remarks_of(doc):
            made = {**made, ".pdf": replace(made[".pdf"], remarks=[*made[".pdf"].remarks, *remarks])}
        return made

    @staticmethod
    def printer(doc: Document, profile: Profile) -> Printer:
        warnings: list[str] | None = None

        def printer(html: str, page_size: str, margins: Margins = None) -> Printed:
            nonlocal warnings
            if warnings is None:  # the text is checked once, however often a fitting loop prints it
                check_glyphs(doc.context, doc.locate, f"{doc.kind.name} '{doc.model.id}' ({doc.lz.lang})")
                warnings = long_words(doc.context["aid"], doc.locate)
            printed = print_pdf(doc.game, doc.lz, doc.context["game"], html, page_size, margins, profile.press,
                                doc.kind.name, profile.gray)
            return _Warned(printed, warnings, profile.gray)
        return printer


class Press:
    """The PDF for a print shop (`--profile press`, or `print: {profile: press}` in aids.yaml): PDF/X-4 in
    CMYK with the FOGRA39 output intent, bleed, crop marks outside it (or none), one card face a page."""
    name = "press"
    summary = "a PDF for a print shop (<aid>-press.pdf): PDF/X-4, CMYK, bleed, marks; --profile press"
    capabilities = Capabilities(paged=True, of=Pdf.name, profile=PRESS)

    def render(self, doc: Document) -> dict[str, Rendered]:
        return doc.printed(PRESS)


class Gray:
    """The PDF for a monochrome printer (`--profile gray`, or `print: {profile: [home, gray]}` in aids.yaml):
    the home PDF with every colour a gray of its own (render/colours.py GRAY); a card's sheet too."""
    name = "gray"
    summary = "a PDF for a monochrome printer (<aid>-gray.pdf): every colour a gray; --profile gray"
    capabilities = Capabilities(paged=True, of=Pdf.name, profile=GRAY)

    def render(self, doc: Document) -> dict[str, Rendered]:
        return doc.printed(GRAY)


class Imposed:
    """A bound aid (a rule booklet) imposed for saddle stitching on a duplex office printer (`aids build
    --impose`): its home PDF padded to a multiple of four pages, two a side of a sheet twice as wide, nothing
    around them, in the order that reads right when folded (render/impose.py)."""
    name = "imposed"
    summary = "a booklet imposed 2-up for a duplex printer (<aid>-imposed.pdf); --impose"
    capabilities = Capabilities(kinds="bound", paged=True)

    def render(self, doc: Document) -> dict[str, Rendered]:
        title = doc.lz.pgettext("the title of a booklet imposed for a duplex printer, in its PDF; %(title)s is "
                                "the booklet's", "%(title)s (imposed for a duplex printer)")
        home = doc.printed(HOME)[".pdf"]
        data, sides = impose.saddle_stitch(home.data, _titled(doc, title))
        note = f"imposed for a duplex printer: {sides // 2} sheets, saddle-stitched"
        remarks = _padded(doc, "-imposed.pdf", home.pages)
        return {"-imposed.pdf": Rendered(data, sides, notes=[note], remarks=remarks)}


class ImposedPress:
    """A bound aid imposed for saddle stitching at a print shop (`aids build --impose --profile press`, or
    `--impose` for a game aids.yaml prints for the press): its press PDF imposed as a printer does, still
    PDF/X-4, each sheet with its trim, its outer bleed, crop and fold marks (render/impose.py)."""
    name = "imposed-press"
    summary = "a booklet imposed for the press (<aid>-imposed-press.pdf); --impose --profile press"
    capabilities = Capabilities(kinds="bound", paged=True, of=Imposed.name, profile=PRESS)

    def render(self, doc: Document) -> dict[str, Rendered]:
        title = doc.lz.pgettext("the title of a booklet imposed for a print shop, in its PDF; %(title)s is the "
                                "booklet's", "%(title)s (imposed for the press)")
        settings = doc.game.printing
        press = doc.printed(PRESS)["-press.pdf"]
        data, sides = impose.saddle_stitch(press.data, _titled(doc, title), impose.press_sheet(settings),
                                           doc.game.epoch())
        note = (f"imposed for the press: {sides // 2} sheets, saddle-stitched, bleed {settings.bleed:g} mm, "
                f"marks {settings.marks}")
        remarks = _padded(doc, "-imposed-press.pdf", press.pages)
        return {"-imposed-press.pdf": doc.preflighted("-imposed-press.pdf",
                                                       Rendered(data, sides, notes=[note], remarks=remarks))}


def _padded(doc: Document, suffix: str, pages: int) -> list[str]:
    """What the build summary says of the blank pages an imposition of the booklet's `pages` added (impose.padding)."""
    said = impose.padding(pages)
    return [f"{doc.model.id}{suffix}: {said}"] if said else []


def _titled(doc: Document, pattern: str) -> str:
    """The document's title in `pattern` (its %(title)s), set by the typography of its language."""
    return typeset(pattern % {"title": doc.context["document_title"]}, doc.lz.lang)


class _Warned:
    """A printed document with the warnings of its text (long words) added to the renderer's; for the gray profile,
    what still paints in colour (a figure, a theme's art) made gray (render/recolour.py)."""

    def __init__(self, printed: Printed, warnings: list[str], gray: bool = False):
        self.printed, self.warnings, self.gray = printed, warnings, gray

    @property
    def pages(self) -> int:
        return self.printed.pages

    def rendered(self) -> Rendered:
        done = self.printed.rendered()
        return replace(done, data=recolour.grayed(done.data) if self.gray else done.data,
                       warnings=[*done.warnings, *self.warnings], notes=list(done.notes), fitted=dict(done.fitted))


@functools.lru_cache(maxsize=1)
def registry() -> dict[str, Format]:
    """Every output format by name, in the order they are built: html, pdf, press, gray, imposed, imposed-press,
    epub, then other packages'."""
    from .epub import Epub
    found: dict[str, Format] = {f.name: f for f in (Html(), Pdf(), Press(), Gray(), Imposed(), ImposedPress(),
                                                    Epub())}
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        loaded = point.load()
        found.setdefault(point.name, loaded() if isinstance(loaded, type) else loaded)
    return found
