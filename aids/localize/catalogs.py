"""Gettext catalogs through Babel: templates (.pot) from the model, updates that lose nothing, .mo files.

Layout: i18n/templates/<domain>.pot, i18n/<lang>/LC_MESSAGES/<domain>.po (and .mo); a game's domain is its id.
"""
from __future__ import annotations

import datetime as dt
import io
import os
import re
from pathlib import Path
from typing import Iterable

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, PoFileParser, denormalize, write_po

from ..errors import AidsError, Position, Problem
from ..model.text import Text, placeholder_mismatch
from ..write.files import write_atomic

WIDTH = 76  # what Poedit and Weblate wrap to, so a translator's save is not a large diff
DATE_HEADERS = ("POT-Creation-Date", "PO-Revision-Date")
HEADER = ("# Translations of PROJECT, kept by `aids extract` and `aids update`.\n"
          "# Keep each msgctxt; keep placeholders such as {ref:...} or %(name)s.\n#")


def pot_path(catalogs: Path, domain: str) -> Path:
    return catalogs / "templates" / f"{domain}.pot"


def po_path(catalogs: Path, lang: str, domain: str) -> Path:
    return catalogs / lang / "LC_MESSAGES" / f"{domain}.po"


def now() -> dt.datetime:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc) if epoch else dt.datetime.now(dt.timezone.utc)
    return moment.replace(second=0, microsecond=0)


def template_from(texts: Iterable[Text], *, project: str, version: str, root: Path | None = None) -> Catalog:
    """A template catalog with one message per Text: msgctxt = stable id, `#.` where it appears, `#:` source line."""
    catalog = Catalog(project=project, version=version, fuzzy=False, creation_date=now(),
                      msgid_bugs_address="", copyright_holder="", header_comment=HEADER)
    for t in texts:
        catalog.add(t.msgid, context=t.context, auto_comments=[t.comment],
                    locations=[(t.where.path, t.where.line)] if t.where.line else [])
    return catalog


def read_catalog(path: Path, shown: str, lang: str | None = None) -> Catalog:
    """Parse a .po/.pot file; a malformed one is an AidsError with its path, line and column.

    Babel's reader is lenient where GNU msgfmt is not (an unterminated or unquoted string is read
    as something else, a second definition silently replaces the first), so those are caught first.
    """
    data = path.read_bytes()
    problems = lint_po(data, shown)
    if problems:
        raise AidsError(problems)
    catalog = Catalog(locale=lang)
    try:
        _StrictParser(catalog, ignore_obsolete=False, abort_invalid=True).parse(io.BytesIO(data))
    except PoFileError as exc:
        lineno = getattr(exc, "lineno", -1) + 1
        message = str(exc).rsplit(" on ", 1)[0]
        raise AidsError(Problem(Position(shown, lineno or 0), f"malformed catalog: {message}",
                                "a gettext PO file")) from None
    except (ValueError, SyntaxError) as exc:
        raise AidsError(Problem(Position(shown), f"malformed catalog: {exc}", "a gettext PO file")) from None
    previous = _previous_ids(data.decode("utf-8"))
    for message in catalog:
        # Babel's reader takes `#| msgid ...` for a translator comment "| msgid ..."
        message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
        if message.lineno in previous:
            message.previous_id = [previous[message.lineno]]
    return catalog


_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)(\s+)(.*)")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def lint_po(data: bytes, shown: str) -> list[Problem]:
    """Lines Babel would misread: bytes that are not UTF-8, strings not closed or not quoted at all."""
    problems = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            problems.append(Problem(Position(shown, number, exc.start + 1), "malformed catalog: not UTF-8 text",
                                    "a catalog in UTF-8"))
            continue
        body = line.rstrip("\r")
        indent = len(body) - len(body.lstrip())
        text = body.strip()
        if text.startswith("#~"):  # obsolete entries keep the same syntax
            indent, text = indent + 2 + (len(text[2:]) - len(text[2:].lstrip())), text[2:].lstrip()
        elif not text or text.startswith("#"):
            continue
        keyword = _KEYWORD.fullmatch(text)
        value, column = (keyword.group(3), indent + keyword.end(2) + 1) if keyword else (text, indent + 1)
        if not keyword and not text.startswith('"'):
            continue  # Babel reports unknown keywords itself
        if not _STRING.fullmatch(value):
            closed = value.startswith('"') and _STRING.match(value)
            problems.append(Problem(Position(shown, number, column),
                                    "malformed catalog: " + ("text after the closing quote" if closed else
                                    "string not closed" if value.startswith('"') else "string not quoted"),
                                    'one string in double quotes, e.g. msgstr "..."'))
    return problems


class _StrictParser(PoFileParser):
    """Babel's parser, refusing a second definition of the same message as msgfmt does."""

    def _add_message(self) -> None:
        parts = [m.denormalize() for m in self.messages]
        msgid = tuple(parts) if len(parts) > 1 else parts[0]
        context = self.context.denormalize() if self.context else None
        key = self.catalog._key_for(msgid, context)  # Babel's own key for (msgid, msgctxt)
        defined = self.catalog.obsolete if self.obsolete else self.catalog._messages
        if msgid and key in defined:
            raise PoFileError(f"duplicate message definition of '{msgid}'", self.catalog, "", self.offset)
        super()._add_message()


def _previous_ids(text: str) -> dict[int, str]:
    """Line of each msgid -> the previous msgid in its `#| msgid` comment.

    Babel writes these comments (include_previous) but its reader drops them; without this, the
    next update of an unchanged tree would lose a fuzzy entry's previous msgid.
    """
    found, block, pending = {}, None, None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("#| msgid "):
            block = [line[len("#| msgid "):]]
        elif line.startswith('#| "') and block is not None:
            block.append(line[len("#| "):])
        else:
            if block is not None:
                pending, block = block, None
            if line.startswith("msgid ") and pending is not None:
                found[number] = denormalize("\n".join(pending))
                pending = None
    return found


def serialize(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, include_previous=True, ignore_obsolete=False, sort_output=False)
    return out.getvalue()


def _without_dates(data: bytes) -> bytes:
    return b"\n".join(line for line in data.split(b"\n")
                      if not any(line.startswith(f'"{h}:'.encode()) for h in DATE_HEADERS))


def save_catalog(path: Path, catalog: Catalog) -> bool:
    """Write `catalog` unless only its dates would change; returns whether the file changed."""
    data = serialize(catalog)
    if path.exists() and _without_dates(path.read_bytes()) == _without_dates(data):
        return False
    write_atomic(path, data)
    return True


def update_catalog(path: Path, shown: str, template: Catalog, lang: str) -> tuple[bool, Catalog]:
    """Bring the catalog at `path` in line with `template`, keeping every translation.

    A changed string keeps its translation as fuzzy with the previous msgid (`#|`); the stable
    msgctxt decides which old entry it was, before Babel's own similarity matching is consulted.
    Strings no longer in the template become obsolete (`#~`), never dropped.
    """
    if path.exists():
        catalog = read_catalog(path, shown, lang)
    else:
        locale = Locale.parse(lang)
        catalog = Catalog(locale=locale, project=template.project, version=template.version,
                          language_team=locale.english_name,
                          fuzzy=False, creation_date=template.creation_date, revision_date=now(),
                          msgid_bugs_address="", copyright_holder="", header_comment=HEADER)
    by_context = {m.context: m for m in catalog if m.id and m.context and m.string}
    previous = {(m.id, m.context): m.previous_id for m in catalog if m.id and m.fuzzy and m.previous_id}
    known_texts = {m.id for m in catalog if m.id and m.string}
    places: dict = {}  # each translated text -> the (context, fuzzy) it had, to tell a move from a copy
    for m in catalog:
        if m.id and m.string:
            places.setdefault(m.id, []).append((m.context, m.fuzzy))
    new_keys = {(m.id, m.context) for m in template if m.id}
    new_texts = {m.id for m in template if m.id}
    old_keys = {(m.id, m.context) for m in catalog if m.id}
    catalog.update(template, update_creation_date=False)
    for message in catalog:
        key = (message.id, message.context)
        moved_from = places.get(message.id, [])
        if (message.fuzzy and message.previous_id == [message.id] and len(moved_from) == 1
                and not moved_from[0][1] and (message.id, moved_from[0][0]) not in new_keys):
            # The very same text, translated once, now under another context (a paragraph
            # inserted before it renumbers the positional ones): its translation still holds.
            message.flags = set(message.flags) - {"fuzzy"}
            message.previous_id = []
            continue
        if key in previous and message.fuzzy and not message.previous_id:
            message.previous_id = previous[key]  # still fuzzy: keep showing what it was
        old = by_context.get(message.context)
        if not message.id or key in old_keys or old is None or (old.id, old.context) in new_keys:
            continue
        # An edited text keeps its context; but when this text was already translated elsewhere,
        # or the old text of this context lives on elsewhere, the text moved (a paragraph inserted
        # before it shifts positional contexts): then Babel's own match, by text, is the right one.
        if message.id in known_texts or old.id in new_texts:
            continue
        message.string = old.string
        message.previous_id = [old.id]
        message.user_comments = list(old.user_comments)
        message.flags = set(message.flags) | {"fuzzy"}
        catalog.obsolete.pop((old.id, old.context), None)
        catalog.obsolete.pop(old.id, None)
    catalog.project, catalog.version = template.project, template.version
    return save_catalog(path, catalog), catalog


def compile_catalog(po: Path, shown: str, lang: str) -> tuple[Path, list[Problem]]:
    """Write the .mo beside `po` (fuzzy entries left out); returns it with the problems found on the way."""
    catalog = read_catalog(po, shown, lang)
    problems = check_catalog(catalog, shown)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    mo = po.with_suffix(".mo")
    write_atomic(mo, out.getvalue())
    return mo, problems


_FIELD = re.compile(r"%\((\w+)\)[sd]")


def faults(catalog: Catalog) -> list[tuple[Message, str, str]]:
    """(message, what is wrong, what was expected) for every translation that cannot be used as it is.

    Babel's checkers, plus what they let through: a plural form left empty (it compiles, and
    ngettext then prints nothing or the source), a %(name)s field or a {kind:target} placeholder
    lost or invented.
    """
    found = [(message, str(error), "") for message, errors in catalog.check() for error in errors]
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue
        ids = message.id if message.pluralizable else (message.id,)
        strings = message.string if message.pluralizable else (message.string,)
        if message.pluralizable and not all(strings):
            found.append((message, f"'{ids[0]}' has {sum(1 for s in strings if s)} of {catalog.num_plurals} "
                          "plural forms", "every plural form filled"))
            continue
        want = set(_FIELD.findall(ids[-1]))
        for string in strings:
            got = set(_FIELD.findall(string))
            if got != want:
                lost, invented = sorted(want - got), sorted(got - want)
                what = " and ".join(part for part in (
                    "loses " + ", ".join(f"%({n})s" for n in lost) if lost else "",
                    "invents " + ", ".join(f"%({n})s" for n in invented) if invented else "") if part)
                found.append((message, f"translation {what} of '{ids[0]}'", "the same %(name)s fields"))
                break
        else:
            reason = "" if message.pluralizable else placeholder_mismatch(message.id, message.string)
            if reason:
                found.append((message, f"{reason} of '{message.id}'", "the same placeholders"))
    return found


def check_catalog(catalog: Catalog, shown: str) -> list[Problem]:
    return [Problem(Position(shown, message.lineno or 0), what, expected)
            for message, what, expected in faults(catalog)]


def translations_of(catalog: Catalog) -> dict[tuple[str, str], tuple[str, bool]]:
    """(msgctxt, msgid) -> (msgstr, fuzzy): what the Localizer looks up."""
    return {(m.context or "", m.id): (m.string, m.fuzzy) for m in catalog
            if m.id and isinstance(m.id, str) and isinstance(m.string, str)}
