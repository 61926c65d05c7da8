"""An errata sheet as a PDF (templates/errata.html): for owners of a printed version, each change with the page
and column where it stood, its new text in a box as wide as that column, to cut out and paste over the old."""
from __future__ import annotations

from typing import Any

from ..localize.localizer import Localizer
from .html import render_template
from .pdf import FONTS, fonts_dir, make_fetcher, source_date, weasyprint


def render_errata(context: dict[str, Any], lz: Localizer, epoch: int) -> bytes:
    """The sheet of `context` (title, intro, aids with their entries) in `lz`'s language; `epoch` dates the PDF
    (SOURCE_DATE_EPOCH): the same context gives the same bytes."""
    fonts = [(family, (fonts_dir() / file).as_uri(), weight, style) for family, file, weight, style in FONTS]
    html = render_template("errata.html", lz, {**context, "fonts": fonts})
    wp = weasyprint()
    with source_date(epoch):
        return wp.HTML(string=html, base_url=str(fonts_dir()) + "/",
                       url_fetcher=make_fetcher([fonts_dir()])).write_pdf()
