"""The package's own words ("Step", "see", "Page N of M", ...): the `aids` domain, shipped in aids/i18n."""
from __future__ import annotations

import functools
import gettext
import io
from importlib import resources
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.support import Translations

from ..errors import Position, Problem
from .catalogs import faults, read_catalog, template_from

DOMAIN = "aids"
SOURCE_LANGUAGE = "en"
# Keywords of the package's Python code besides Babel's defaults: ui_markup(context, msgid, ...)
KEYWORDS = {"ui_markup": ((1, "c"), 2), "pgettext": ((1, "c"), 2)}


def package_catalogs() -> Path:
    return Path(str(resources.files("aids.i18n")))


@functools.lru_cache(maxsize=None)
def load_ui(lang: str) -> tuple[gettext.NullTranslations, tuple[Problem, ...]]:
    """The UI catalog of `lang`, and its faults: a faulty or fuzzy entry is left out, so the English shows."""
    shown = f"aids/i18n/{lang}/LC_MESSAGES/{DOMAIN}.po"
    po = package_catalogs() / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == SOURCE_LANGUAGE or not po.is_file():
        return gettext.NullTranslations(), ()
    catalog = read_catalog(po, shown, lang)
    found = faults(catalog)
    for message, _, _ in found:
        catalog.delete(message.id, message.context)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    problems = tuple(Problem(Position(shown, m.lineno or 0), f"{what}: the English is used", expected)
                     for m, what, expected in found)
    return Translations(buf, domain=DOMAIN), problems


def ui_translations(lang: str) -> gettext.NullTranslations:
    return load_ui(lang)[0]


def ui_problems(lang: str) -> tuple[Problem, ...]:
    return load_ui(lang)[1]


def extract_ui(root: Path, version: str) -> Catalog:
    """Template of the UI domain from the package's Python code and its Jinja2 templates (aids' own tree)."""
    catalog = template_from([], project="aids", version=version)
    sources = [
        (root / "aids", [("**.py", "python")], {}),
        (root / "templates", [("**.html", "jinja2"), ("**.css", "jinja2")],
         {"**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"},
          "**.css": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}),
    ]
    for folder, method_map, options in sources:
        for filename, lineno, message, comments, context in extract_from_dir(
                folder, method_map, options_map=options, keywords={**DEFAULT_KEYWORDS, **KEYWORDS},
                comment_tags=("Translators:",), strip_comment_tags=True):
            # File names without line numbers: editing the code must not churn every catalog.
            path = f"{folder.name}/{filename}"
            catalog.add(message, locations=[(path, None)], auto_comments=comments, context=context)
    return catalog
