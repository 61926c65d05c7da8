"""HTML from Jinja2 templates shipped in the package (autoescape on; UI words from the `aids` domain)."""
from __future__ import annotations

import functools
import re
from importlib import resources

import jinja2
from markupsafe import Markup

from ..localize.localizer import Localizer, css_string


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resources.files("aids.templates"))),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["css_string"] = lambda text: Markup(css_string(str(text)))
    env.filters["css_content"] = css_content
    return env


def ui_functions(lz: Localizer) -> dict:
    """gettext & co. for templates, returning plain strings so that autoescape escapes catalog text too.

    (The i18n extension's own newstyle callables mark translations safe; a translator's markup would pass.)
    """
    return {
        "_": lz.gettext, "gettext": lz.gettext, "pgettext": lz.pgettext, "ngettext": lz.ngettext,
        "number": lz.number, "date": lz.date,
    }


def render_template(name: str, lz: Localizer, context: dict) -> str:
    template = environment().get_template(name)
    return template.render(**ui_functions(lz), lang=lz.lang, **context)


_FIELD = re.compile(r"%\((\w+)\)s")


def css_content(text: str, **counters: str) -> Markup:
    """A translated string with %(name)s fields as a CSS `content` value, fields becoming counters.

    css_content("Page %(page)s of %(pages)s", page="page", pages="pages")
        -> "Page " counter(page) " of " counter(pages)
    A field given as a CSS function (`target-counter(attr(href url), page)`) is used as it is.
    """
    parts, pos = [], 0
    for m in _FIELD.finditer(text):
        if text[pos:m.start()]:
            parts.append(css_string(text[pos:m.start()]))
        name = counters.get(m.group(1))
        parts.append(css_string(m.group(0)) if not name else name if "(" in name else f"counter({name})")
        pos = m.end()
    if text[pos:]:
        parts.append(css_string(text[pos:]))
    return Markup(" ".join(parts) or '""')
