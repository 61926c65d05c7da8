"""An aid's page printed: through WeasyPrint with the print stylesheet (pdf.py), a booklet that declares its
chapter breaks in parts laid out in parallel (parallel.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import flow, parallel, theme
from .pdf import collected_warnings, lay_out, parsed, print_css
from .rendered import Printed

if TYPE_CHECKING:
    from ..config import Game, Print
    from ..kind import Margins
    from ..localize.localizer import Localizer

HOME, PRESS, GRAY = "home", "press", "gray"  # the print profiles (`--profile`, aids.yaml's `print: {profile:}`)


@dataclass(frozen=True)
class Profile:
    """Who prints a PDF: a home or digital printer, a print shop (with the game's print `settings`: bleed, marks),
    a monochrome printer. A kind's `render_pdf` is given it, its files named for it by the formats."""
    name: str = HOME
    settings: Print | None = None  # the press's

    @property
    def press(self) -> Print | None:
        return self.settings if self.name == PRESS else None

    @property
    def gray(self) -> bool:
        return self.name == GRAY

    @property
    def suffix(self) -> str:
        """What its files' names add before .pdf: nothing at home, -press, -gray."""
        return "" if self.name == HOME else f"-{self.name}"


def print_pdf(game: Game, lz: Localizer, game_ctx: dict[str, Any], html: str, page_size: str,
              margins: Margins = None, press: Print | None = None, kind: str = "", gray: bool = False) -> Printed:
    """`html` through WeasyPrint with print.css, reading nothing outside the game's folder (and its theme's); for
    the press profile `press`, in CMYK with its bleed, written as PDF/X-4; for the gray profile (`gray`), with the
    gray profile's colours (what still paints in colour, a figure say, is made gray after: render/recolour.py)."""
    css = print_css(lz, game_ctx, page_size, margins, press, kind, game.theme, gray)
    allowed = [game.folder, *theme.folders(game.theme)]  # and the theme's fonts and page art, inside the project
    if kind == "booklet" and press is None and not gray:  # a booklet that declares its chapter breaks: in parts
        with collected_warnings() as warnings:  # parsed once, whether it is laid out in parts or whole
            page = parsed(html, base=game.folder, allowed=allowed)
        found = parallel.lay_out(page, warnings, css, base=game.folder, allowed=allowed, epoch=game.epoch(),
                                 tagged=True)
        if found is not None:
            return found
        continuous = flow.prepare(page, css, game.folder, game.epoch())
        if continuous is not None:  # one flow of rules: written in segments, an edit laid out from where it starts
            return flow.lay_out(continuous, html, css, warnings, base=game.folder, allowed=allowed,
                                epoch=game.epoch(), tagged=True)
        return lay_out(html, css, base=game.folder, allowed=allowed, epoch=game.epoch(), page=page,
                       early_warnings=warnings)
    return lay_out(html, css, base=game.folder, allowed=allowed, epoch=game.epoch(), press=press, gray=gray)
