"""PDF from HTML with WeasyPrint: package fonts embedded, nothing fetched from the network or outside the project."""
from __future__ import annotations

import functools
import gc
import io
import logging
import os
import re
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from ..errors import AidsError, Position, Problem
from ..localize.documents import Figure
from ..localize.rich import Rich
from ..localize.typography import typeset
from . import laid_out, prepared, sheet, tagging, tree, weasyprint_internals
from . import theme as themes
from .html import colour_functions, render_template
from .pagination import PASSES, Numbers, Pagination, Resume, Settle
from .rendered import Rendered

if TYPE_CHECKING:
    from ..config import Print
    from ..config.theme import Theme
    from ..kind import Margins
    from ..localize.localizer import Localizer

_weasyprint = None


def weasyprint():
    """Import WeasyPrint once per process (the import alone costs most of a second)."""
    global _weasyprint
    if _weasyprint is None:
        try:  # a library missing, WeasyPrint prints 8 lines of its own to stdout first: the line below says it all
            with redirect_stdout(io.StringIO()):
                import weasyprint as module
        except OSError as exc:  # WeasyPrint finds Pango, HarfBuzz and Fontconfig with ctypes when it is imported
            library = re.search(r"cannot load library '([^']+)'", str(exc))
            raise AidsError(Problem(Position("WeasyPrint"), f"cannot load {library.group(1) if library else 'Pango'}"
                                    ", which it needs to write PDFs", INSTALL_PANGO)) from None
        _weasyprint = module
    return _weasyprint


INSTALL_PANGO = ("Pango installed: on Debian or Ubuntu `sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0 "
                 "libharfbuzz-subset0`, on Fedora `sudo dnf install pango`, on macOS `brew install pango`; or "
                 "--format html")


def fonts_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "fonts"


# Families under names of their own, so that a system-wide copy of DejaVu can never stand in.
FONTS = [
    (family, file, weight, style)
    for family, stem in (("Aids Sans", "DejaVuSans"), ("Aids Sans Condensed", "DejaVuSansCondensed"),
                         ("Aids Serif", "DejaVuSerif"))
    for file, weight, style in (
        (f"{stem}.ttf", "normal", "normal"), (f"{stem}-Bold.ttf", "bold", "normal"),
        (f"{stem}-{'Italic' if stem.endswith('Serif') else 'Oblique'}.ttf", "normal", "italic"),
        (f"{stem}-Bold{'Italic' if stem.endswith('Serif') else 'Oblique'}.ttf", "bold", "italic"))
]


RASTER = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff")  # images of pixels (not SVG)


def make_fetcher(allowed: list[Path]):
    """A URL fetcher that serves data: URLs and files below `allowed` folders, and refuses the rest."""
    wp: Any = weasyprint()
    roots = [p.resolve() for p in allowed]

    class ProjectFetcher(wp.URLFetcher):
        def fetch(self, url, headers=None):
            scheme = urlparse(url).scheme.lower()
            if scheme == "data":
                return super().fetch(url, headers)
            if scheme == "file":
                path = Path(unquote(urlparse(url).path)).resolve()
                if any(path.is_relative_to(root) for root in roots):
                    return super().fetch(url, headers)
                raise ValueError(f"refused to read {path}: outside the project")
            raise ValueError(f"refused to fetch {url}: aids renders offline")

    return ProjectFetcher(allowed_protocols=("file", "data"))


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def collected_warnings():
    """Gather what WeasyPrint logs at WARNING or above, instead of letting it reach stderr."""
    logger = logging.getLogger("weasyprint")
    handler = _Collect()
    old_propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield handler.messages
    finally:
        logger.removeHandler(handler)
        logger.propagate = old_propagate


@contextmanager
def source_date(epoch: int):
    """SOURCE_DATE_EPOCH for the duration of a render, unless the caller set one: same sources, same bytes."""
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    if previous is None:
        os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)


GC_THRESHOLDS = (20_000, 20, 20)  # Python's are (700, 10, 10)


class _Relaxed:
    """The renders of this process under few_collections, and Python's thresholds before the first of them."""
    lock = threading.Lock()
    renders = 0
    before: tuple[int, int, int] = GC_THRESHOLDS


@contextmanager
def few_collections() -> Iterator[None]:
    """Python's cyclic garbage collector run less often while WeasyPrint lays out and writes: its millions of boxes,
    styles and PDF objects made Python collect about 1,400 times for a 60-page booklet, 17 % of the build's CPU
    (docs/development/benchmarks.md), for no lower peak of memory than with GC_THRESHOLDS. The thresholds are the
    process's: the first of the renders running at once sets them, the last puts Python's back."""
    with _Relaxed.lock:
        if not _Relaxed.renders:
            _Relaxed.before = gc.get_threshold()
            gc.set_threshold(*GC_THRESHOLDS)
        _Relaxed.renders += 1
    try:
        yield
    finally:
        with _Relaxed.lock:
            _Relaxed.renders -= 1
            if not _Relaxed.renders:
                gc.set_threshold(*_Relaxed.before)


class Layout:
    """WeasyPrint's document laid out; the PDF written once, on the first call of `rendered()`."""

    def __init__(self, document: Any, warnings: list[str], epoch: int, tagged: bool, press: Print | None = None,
                 fonts: Any = None, gray: bool = False):
        self.document, self.warnings, self.epoch, self.tagged = document, warnings, epoch, tagged
        self.profile = "press" if press else "gray" if gray else "home"  # what its figures are prepared for
        self.fonts = fonts  # the FontConfiguration whose copies of the fonts the PDF is written from
        self.press = press  # written as PDF/X-4 and finished for a print shop (render/pdfx.py)
        self._rendered: Rendered | None = None
        self.pagination: Pagination | None = None  # how its pages were made (flow.py reads its states)

    @property
    def pages(self) -> int:
        return len(self.document.pages)

    def rendered(self) -> Rendered:
        if self._rendered is None:
            if self.pages >= COLLECT_FROM:  # the layout's garbage (cycles in WeasyPrint's boxes) freed first, so
                gc.collect()                # that it and the PDF being written do not add up: -7 % peak, 300 pages
            try:
                data, warnings = written(self.document, self.epoch, self.tagged, self.profile, self.variant())
            finally:
                release(self.fonts)
            if self.press:
                from . import pdfx
                data = pdfx.finish(data, self.press, self.epoch)
            self._rendered = Rendered(data, self.pages, [*self.warnings, *warnings], last_page=self.last_page())
        return self._rendered

    def variant(self) -> str | None:
        """PDF/X-4 for a print shop (tagged, without claiming PDF/UA: its links are taken out, render/pdfx.py);
        a tagged home PDF identified as PDF/UA-1 (docs/guide/accessibility.md)."""
        if self.press:
            return "pdf/x-4"
        return "pdf/ua-1" if self.tagged else None

    def last_page(self) -> float:
        """How full the last page is: the foot of its lowest line (or image, rule, box) below the top of the
        page area, as a share of the page area's height (the running header and footer aside)."""
        page = weasyprint_internals.page_box(self.document.pages[-1])
        top, height = page.content_box_y(), page.height

        def feet(box: Any) -> Iterator[float]:
            if weasyprint_internals.is_margin(box):
                return
            children = getattr(box, "children", None)
            if weasyprint_internals.is_line(box) or not children:
                if box.height:
                    yield box.position_y + box.margin_height()
                return
            for child in children:
                yield from feet(child)

        lowest = max(feet(page), default=top)
        return round(max(0.0, min(1.0, (lowest - top) / height)), 3) if height else 1.0


COLLECT_FROM = 50  # pages; a collection costs about 2 s after 300 pages


def written(document: Any, epoch: int, tagged: bool, profile: str, variant: str | None) -> tuple[bytes, list[str]]:
    """A laid-out document (or a copy of some of its pages, render/segments.py) written as a PDF, and WeasyPrint's
    warnings: its tags completed (tagging.py), its figures prepared for `profile`, dated SOURCE_DATE_EPOCH."""
    weasyprint_internals.page_references_once()
    tagging.install()
    prepared.replace_images(document, profile)  # each figure at the size it prints
    with collected_warnings() as warnings, source_date(epoch), few_collections():
        data = document.write_pdf(pdf_tags=tagged, pdf_variant=variant)
    return data, warnings


def parsed(html: str, *, base: Path, allowed: list[Path]) -> Any:
    """WeasyPrint's HTML of `html`, reading only below `allowed` (and the package's fonts), its tree prepared for
    print (tree.py)."""
    weasyprint_internals.images_named_by_content()
    page = weasyprint().HTML(string=html, base_url=str(base) + "/",
                             url_fetcher=make_fetcher([fonts_dir(), *allowed]))
    tree.prepare(page.etree_element)
    return page


def lay_out(html: str, css: str, *, base: Path, allowed: list[Path], epoch: int, tagged: bool = True,
            press: Print | None = None, page: Any = None, numbers: Numbers | None = None,
            settle: Settle | None = None, gray: bool = False, early_warnings: list[str] | None = None,
            resume: Resume | None = None, flow: Any = None, checks: bool = True) -> Layout:
    """Lay out `html` in pages with the extra print stylesheet `css`, reading only below `allowed` (and the
    package's fonts); page numbers of references and page-end hyphens settled in one layout (pagination.py).
    A part of a document (parts.py) comes parsed (`page`, its tree cut to the part), told its `numbers` and
    how to `settle` them with the other parts; a whole document may come parsed too, with the `early_warnings` of
    its parsing. A continuous booklet (flow.py) says the element its segments are cut in (`flow`), may be laid out
    from a page on (`resume`), and checks its pages segment by segment (`checks` False)."""
    wp = weasyprint()
    weasyprint_internals.tolerant_footnote_area()  # a note that fits its page stays on it
    weasyprint_internals.quicker_column_balancing()  # balanced columns in fewer layouts, the same heights
    weasyprint_internals.images_named_by_content()  # the same image, the same bytes, wherever the project is
    fetcher = make_fetcher([fonts_dir(), *allowed])
    fonts = weasyprint_internals.font_configuration()
    _FONTS.add(fonts)
    try:
        with collected_warnings() as warnings, source_date(epoch), few_collections():
            stylesheet = wp.CSS(string=css, base_url=str(fonts_dir()) + "/", url_fetcher=fetcher, font_config=fonts)
            page = page if page is not None else parsed(html, base=base, allowed=allowed)
            pagination = Pagination(page.etree_element, numbers=numbers, settle=settle, resume=resume, flow=flow)
            with pagination.installed():
                document = page.render(stylesheets=[stylesheet], font_config=fonts)
    except BaseException:
        release(fonts)
        raise
    warnings[:0] = early_warnings or []
    if pagination.unsettled:
        warnings.append(f"page numbers or page-end hyphens still moving after {PASSES} layouts, on "
                        f"{pagination.unsettled} page(s)")
    warnings.extend(f"a page number is shown for #{anchor}, which is not printed" for anchor in
                    sorted(pagination.unprinted))
    laid_out.finish(document)
    if checks:
        warnings.extend(laid_out.checks(document))
    layout = Layout(document, warnings, epoch, tagged, press, fonts, gray)
    layout.pagination = pagination
    return layout


_FONTS: weakref.WeakSet[Any] = weakref.WeakSet()  # every FontConfiguration of this process not yet collected


def release_all() -> None:
    """Release the fonts of every layout of this process: what a worker does before it ends."""
    for fonts in list(_FONTS):
        release(fonts)


def release(fonts: Any) -> None:
    """The copies of the package fonts WeasyPrint made for one document removed (weasyprint_internals)."""
    weasyprint_internals.remove_font_copies(fonts)


@functools.cache
def coverage() -> frozenset[int]:
    """The characters every face of the package fonts has: what a printed page can show in any style."""
    from fontTools.ttLib import TTFont  # WeasyPrint's own font library

    def characters(file: str) -> frozenset[int]:
        with TTFont(fonts_dir() / file, lazy=True) as font:
            return frozenset(font.getBestCmap())

    return frozenset.intersection(*(characters(file) for _, file, _, _ in FONTS))


def leaves(value: Any) -> Iterator[Any]:
    """Every value of a localized context that is not a dict, list or tuple (runs, Rich, count as one)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, (list, tuple)) and not isinstance(value, Rich):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def figures_of(value: Any) -> Iterator[Figure]:
    """Every image in a localized context, however nested."""
    return (leaf for leaf in leaves(value) if isinstance(leaf, Figure))


def texts_of(value: Any) -> Iterator[str]:
    """Every text in a localized context (strings, runs), however nested; never an image's address (a Figure
    is no text: its file name is not a word to check)."""
    for leaf in leaves(value):
        if isinstance(leaf, Rich):
            yield leaf.plain()
        elif isinstance(leaf, str):
            yield leaf


def check_glyphs(localized: Mapping[str, object], locate: Callable[[str], Position], what: str) -> None:
    """A character the package fonts lack would print as an empty box: refuse it, naming it and where its
    text is (`locate` gives the source position of the text showing a fragment)."""
    covered = coverage()
    for text in texts_of(localized):
        missing = sorted({ch for ch in text if ord(ch) >= 32 and ord(ch) not in covered})
        if missing:
            chars = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
            shown = text if len(text) <= 60 else text[:57] + "..."
            raise AidsError(Problem(locate(missing[0]), f"{what}: no glyph for {chars} in the package fonts, "
                                    f"in “{shown}”",
                                    "characters of Latin, Greek or Cyrillic text, or a symbol the fonts have"))


LONGEST_WORD = 40  # letters: no word of pl, en or ru is longer; a longer one would run off its column


def long_words(localized: Mapping[str, object], locate: Callable[[str], Position]) -> list[str]:
    """Words that cannot be broken to fit a column (nor hyphenated by the dictionary): warnings to print,
    each at the source position of its text."""
    found: dict[str, str] = {}
    for text in texts_of(localized):
        for word in re.split(r"[\s/\u2013\u2014-]+", text):
            if len(word) > LONGEST_WORD and word not in found:
                found[word] = f"{locate(word)}: a word of {len(word)} letters cannot fit a column: “{word[:30]}…”"
    return list(found.values())


def print_css(lz: Localizer, game_ctx: dict[str, Any], page_size: str, margins: Margins = None,
              press: Print | None = None, kind: str = "", theme: Theme | None = None, gray: bool = False) -> str:
    """The PDF's own stylesheet (print.css): package fonts, page size and margins, footer with the version or
    copyright, and what only WeasyPrint reads (bookmarks; a booklet's running heads, for `kind` booklet); a
    game's `theme`: its faces, page art, margins and press colours (render/theme.py); for the gray profile
    (`gray`), every colour a gray and the cues that stand in for colour."""
    margins = themes.margins(theme, margins)
    return render_template("print.css", lz, {
        "theme": themes.print_context(theme, press is not None, page_size, margins, press.bleed if press else 0,
                                      art=not gray),
        "fonts": [(fam, (fonts_dir() / f).as_uri(), w, s) for fam, f, w, s in FONTS],
        "page_size": page_size,
        "figure_room": sheet.area_height(page_size, margins),
        "margins": margins if isinstance(margins, str) else sheet.DEFAULT_MARGINS,
        "facing": margins if isinstance(margins, tuple) else None,
        "press": {"bleed": press.bleed} if press else None,
        "kind": kind,
        "gray": gray,
        "change_colour": game_ctx.get("change_colour"),
        **colour_functions(press is not None, gray),
        "footer": typeset(" · ".join([game_ctx["title"], *game_ctx["imprint"], *filter(None, [game_ctx.get("draft")])]),
                          lz.lang),
    })
