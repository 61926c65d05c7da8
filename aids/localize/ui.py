"""The package's own words ("Step", "see", "Page N of M", ...): the `aids` domain, shipped in aids/i18n."""
from __future__ import annotations

import functools
import gettext
import io
from importlib import resources
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

from ..errors import Position, Problem, display_path
from . import po
from .catalogs import Catalog, Message, faults, mo_bytes, read_catalog, template

DOMAIN = "aids"
SOURCE_LANGUAGE = "en"
# Keywords of the package's Python code besides Babel's defaults: ui_rich(context, msgid, ...)
KEYWORDS = {"ui_rich": ((1, "c"), 2), "pgettext": ((1, "c"), 2)}


def package_catalogs() -> Path:
    return Path(str(resources.files("aids.i18n")))


def catalog_path(lang: str) -> Path:
    return package_catalogs() / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def load_ui(lang: str) -> tuple[gettext.NullTranslations, tuple[Problem, ...]]:
    """The UI catalog of `lang`, and what of it is not used: a faulty or fuzzy entry is left out (the English
    shows instead)."""
    path = catalog_path(lang)
    shown = display_path(path, Path.cwd())  # the file as it is (in the source tree or the installed package)
    if lang == SOURCE_LANGUAGE or not path.is_file():
        return gettext.NullTranslations(), ()
    catalog = read_catalog(path, shown)
    found = [*faults(catalog), *((e, f"'{po.msgid(e)}' is fuzzy", "a reviewed translation (no fuzzy flag)")
                                 for e in po.entries(catalog) if e.isfuzzy() and po.translated(e))]
    for entry, _, _ in found:
        catalog.removeunit(entry)
    problems = tuple(Problem(Position(shown, po.line(e)), f"{what}: the English is used", expected)
                     for e, what, expected in found)
    return gettext.GNUTranslations(io.BytesIO(mo_bytes(catalog))), problems


def ui_translations(lang: str) -> gettext.NullTranslations:
    return load_ui(lang)[0]


def ui_problems(lang: str) -> tuple[Problem, ...]:
    return load_ui(lang)[1]


def extract_ui(root: Path, version: str) -> Catalog:
    """Template of the UI domain from the package's Python code and its Jinja2 templates (aids' own tree)."""
    sources = [
        (root / "aids", [("**.py", "python")], {}),
        (root / "templates", [("**.html", "jinja2"), ("**.css", "jinja2")],
         {"**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"},
          "**.css": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}),
    ]
    messages = []
    for folder, method_map, options in sources:
        for filename, _, message, comments, context in extract_from_dir(
                folder, method_map, options_map=options, keywords={**DEFAULT_KEYWORDS, **KEYWORDS},
                comment_tags=("Translators:",), strip_comment_tags=True):
            singular, plural = (message[0], message[1]) if isinstance(message, tuple) else (message, "")
            # File names without line numbers: editing the code must not churn every catalog.
            messages.append(Message(context or "", singular, plural, comments, [f"{folder.name}/{filename}"]))
    return template(messages, project="aids", version=version)
