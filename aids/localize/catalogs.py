"""Gettext catalogs: templates (.pot) from the model, updates that lose nothing, checks, .mo files.

Layout: i18n/templates/<domain>.pot, i18n/<lang>/LC_MESSAGES/<domain>.po (and .mo); a game's domain
is its id. Files are read and written by `po` (translate-toolkit, in GNU's layout); the update
itself is `merge`.
"""
from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Message as BabelMessage
from babel.messages.catalog import TranslationError
from babel.messages.checkers import python_format
from babel.messages.plurals import get_plural
from translate.misc.multistring import multistring
from translate.tools.pocompile import POCompile

from ..errors import AidsError, Position, Problem
from ..folder import Folder, write_atomic
from ..model.text import Text, placeholder_mismatch
from . import merge, po
from .po import Catalog, Entry, changed, read_catalog, save

__all__ = ["Catalog", "Entry", "read_catalog", "save", "changed", "pot_path", "po_path", "template_from",
           "update_catalog", "compile_catalog", "faults", "check_catalog", "translations_of", "ignored_of"]

NOTE = ("Translations of {project}, kept by `aids extract` and `aids update`.\n"
        "Keep each msgctxt; keep placeholders such as {{ref:...}} or %(name)s.")
_PYTHON_FORMAT = re.compile(r"%(?:\([\w]+\))?[#0 +-]*\d*(?:\.\d+)?[sdifr%]")


def pot_path(catalogs: Path, domain: str) -> Path:
    return catalogs / "templates" / f"{domain}.pot"


def po_path(catalogs: Path, lang: str, domain: str) -> Path:
    return catalogs / lang / "LC_MESSAGES" / f"{domain}.po"


def now() -> dt.datetime:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = dt.datetime.fromtimestamp(int(epoch), dt.UTC) if epoch else dt.datetime.now(dt.UTC)
    return moment.replace(second=0, microsecond=0)


def po_date(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M%z")


# -- templates -----------------------------------------------------------------------------------

@dataclass
class Message:
    """One message of a template: what aids extracts, before it is a PO entry."""
    context: str
    msgid: str
    plural: str = ""
    comments: list[str] = field(default_factory=list)  # `#.`: where it appears
    locations: list[str] = field(default_factory=list)  # `#:`: the file, without a line


def new_catalog(fields: list[tuple[str, str]], note: str) -> Catalog:
    """An empty catalog with this header (fields in this order) and this translator comment above it."""
    header = "".join(f"# {line}\n" if line else "#\n" for line in note.split("\n"))
    header += 'msgid ""\nmsgstr ""\n' + "".join(f'"{name}: {value}\\n"\n' for name, value in fields)
    return Catalog(header.encode("utf-8"), width=po.WIDTH)


def template(messages: Iterable[Message], *, project: str, version: str) -> Catalog:
    """The template of a domain: one entry per (msgctxt, msgid), the places of a repeated text joined. No
    POT-Creation-Date: a date that changes with every extract would change every catalog's header beside the
    PO-Revision-Date Weblate writes, and a developer's update and a translator's commit would conflict in git
    whatever entries each edited (docs/translating/weblate.md); the same sources give the same bytes."""
    catalog = new_catalog([
        ("Project-Id-Version", f"{project} {version}".strip()),
        ("Report-Msgid-Bugs-To", ""),
        ("PO-Revision-Date", "YEAR-MO-DA HO:MI+ZONE"),
        ("Last-Translator", "FULL NAME <EMAIL@ADDRESS>"),
        ("Language-Team", "LANGUAGE <LL@li.org>"),
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain; charset=UTF-8"),
        ("Content-Transfer-Encoding", "8bit"),
    ], "\n".join([NOTE.format(project=project), ""]))
    by_key: dict[po.Key, Entry] = {}
    for message in messages:
        entry = by_key.get((message.context, message.msgid))
        if entry is None:
            entry = Entry(multistring([message.msgid, message.plural]) if message.plural else message.msgid)
            if message.plural:
                entry.target = multistring(["", ""])  # msgstr[0] and msgstr[1], as xgettext writes them
            entry.setcontext(message.context)
            if _PYTHON_FORMAT.search(message.msgid):
                entry.settypecomment("python-format")
            catalog.addunit(entry)
            by_key[(message.context, message.msgid)] = entry
        known_comments = entry.getnotes("developer").split("\n")
        for comment in message.comments:
            if comment and comment not in known_comments:
                entry.addnote(comment, origin="developer")
        for location in message.locations:
            if location not in entry.getlocations():
                entry.addlocation(location)
    return catalog


def template_from(texts: Iterable[Text], *, project: str, version: str) -> Catalog:
    """The template of a game: msgctxt = the stable id, `#.` where the text appears, `#:` its file."""
    return template((Message(t.context, t.msgid, comments=[t.comment], locations=[t.where.path] if t.where.path else [])
                     for t in texts), project=project, version=version)


# -- updates -------------------------------------------------------------------------------------

def catalog_for(template_catalog: Catalog, lang: str) -> Catalog:
    """A new, empty catalog of `lang` for this template (header filled in as msginit would, without the
    template's date: see `template`)."""
    locale = Locale.parse(lang)
    head = template_catalog.parseheader()
    return new_catalog([
        ("Project-Id-Version", head.get("Project-Id-Version", "")),
        ("Report-Msgid-Bugs-To", head.get("Report-Msgid-Bugs-To", "")),
        ("PO-Revision-Date", po_date(now())),
        ("Last-Translator", ""),
        ("Language-Team", locale.english_name or lang),
        ("Language", lang),
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain; charset=UTF-8"),
        ("Content-Transfer-Encoding", "8bit"),
        ("Plural-Forms", get_plural(lang).plural_forms),
    ], template_catalog.header().getnotes("translator").rstrip("\n"))


def present(within: Path, path: Path, shown: str | None = None) -> bool:
    """Whether the catalog `path` of the catalogs folder `within` is there; a link among its folders is an
    AidsError (one line), not taken for absence, so nothing is read or written through it."""
    folder, name = Folder.holding(within, path, shown)
    return folder.exists(name)


def update_catalog(path: Path, shown: str, template_catalog: Catalog, lang: str,
                   within: Path | None = None) -> tuple[bool, Catalog]:
    """Bring the catalog at `path` in line with the template, keeping every translation (see `merge`)."""
    there = present(within, path, shown) if within is not None else path.exists()
    old = read_catalog(path, shown, within) if there else catalog_for(template_catalog, lang)
    catalog = merge.merge(old, template_catalog, lang)
    return save(path, catalog, within, shown), catalog


# -- checks and .mo files ------------------------------------------------------------------------

_FIELD = re.compile(r"%\((\w+)\)[sd]")


def faults(catalog: Catalog) -> list[tuple[Entry, str, str]]:
    """(entry, what is wrong, what was expected) for every translation that cannot be used as it is.

    Babel's python-format checker, plus what it lets through: a plural form left empty (it compiles,
    and ngettext then prints nothing or the source), a %(name)s field or a {kind:target}
    placeholder lost or invented.
    """
    found = []
    count = po.nplurals(catalog) or 2
    for entry in po.entries(catalog):
        texts = po.strings(entry)
        if not any(texts) or entry.isfuzzy():
            continue
        ids = [str(s) for s in entry.source.strings] if entry.hasplural() else [str(entry.source)]
        problem = _fault(entry, ids, texts, count)
        if problem:
            found.append((entry, *problem))
    return found


def _fault(entry: Entry, ids: list[str], texts: list[str], count: int) -> tuple[str, str] | None:
    if entry.hasplural() and (len(texts) < count or not all(texts[:count])):
        return (f"'{ids[0]}' has {sum(1 for s in texts[:count] if s)} of {count} plural forms",
                "every plural form filled")
    fields = _field_fault(ids, texts)
    if fields:
        return fields
    if entry.hastypecomment("python-format"):
        try:
            python_format(None, BabelMessage(tuple(ids) if len(ids) > 1 else ids[0],
                                             tuple(texts) if len(ids) > 1 else texts[0], flags={"python-format"}))
        except TranslationError as exc:
            return f"{exc} in '{ids[0]}'", "the same % fields"
    reason = "" if entry.hasplural() else placeholder_mismatch(ids[0], texts[0], po.ignored(entry))
    return (f"{reason} of '{ids[0]}'", "the same placeholders") if reason else None


def _field_fault(ids: list[str], texts: list[str]) -> tuple[str, str] | None:
    """A translation that loses or invents a %(name)s field of its source."""
    want = set(_FIELD.findall(ids[-1]))
    for text in texts:
        got = set(_FIELD.findall(text))
        if got != want:
            lost, invented = sorted(want - got), sorted(got - want)
            what = " and ".join(part for part in (
                "loses " + ", ".join(f"%({n})s" for n in lost) if lost else "",
                "invents " + ", ".join(f"%({n})s" for n in invented) if invented else "") if part)
            return f"translation {what} of '{ids[0]}'", "the same %(name)s fields"
    return None


def check_catalog(catalog: Catalog, shown: str) -> list[Problem]:
    return [Problem(Position(shown, po.line(entry)), what, expected) for entry, what, expected in faults(catalog)]


def mo_bytes(catalog: Catalog) -> bytes:
    """The .mo of the catalog: translated entries only (fuzzy and obsolete ones left out, as msgfmt does)."""
    return bytes(POCompile().convertstore(catalog, includefuzzy=False))


def compile_catalog(path: Path, shown: str, within: Path | None = None) -> Path:
    """Write the .mo beside the .po; a catalog with faulty entries is refused, every fault named."""
    catalog = read_catalog(path, shown, within)
    problems = check_catalog(catalog, shown)
    if problems:
        raise AidsError(problems)
    mo = path.with_suffix(".mo")
    write_atomic(mo, mo_bytes(catalog), within, shown[:-3] + ".mo" if shown.endswith(".po") else None)
    return mo


def translations_of(catalog: Catalog) -> dict[tuple[str, str], tuple[str, bool]]:
    """(msgctxt, msgid) -> (msgstr, fuzzy): what the Localizer looks up."""
    return {po.key(e): (po.strings(e)[0], e.isfuzzy()) for e in po.entries(catalog) if not e.hasplural()}


def ignored_of(catalog: Catalog) -> dict[tuple[str, str], frozenset[str]]:
    """(msgctxt, msgid) -> the checks its translator's comment ignores, for the entries that ignore some: what
    the Localizer lets through as `aids check` does (model/text.py, placeholder_mismatch)."""
    return {po.key(e): found for e in po.entries(catalog) if not e.hasplural() and (found := po.ignored(e))}
