"""PO files as GNU gettext reads and writes them, through translate-toolkit's PO storage.

translate-toolkit (what Weblate uses) keeps every part of an entry: translator, extracted and
reference comments, flags, the previous msgctxt/msgid/msgid_plural (`#|`), obsolete entries
(`#~`, `#~|`), plural forms and the header. GNU `msgcat` then gives the file GNU's own layout, so
a save in Poedit or a run of msgcat/msgmerge changes nothing; where gettext is not installed the
file keeps translate-toolkit's layout at GNU's width (valid, but a GNU tool would rewrap it).
"""
from __future__ import annotations

import functools
import re
import shutil
import subprocess
from pathlib import Path

from translate.storage import pypo
from translate.storage.poparser import PoParseError

from ..errors import AidsError, Position, Problem, unfit
from ..folder import Folder
from ..source.yamlfile import MAX_BYTES, read_bytes

Catalog = pypo.pofile
Entry = pypo.pounit
Key = tuple[str, str]  # (msgctxt, msgid): what makes an entry unique, for GNU and for aids

WIDTH = 79  # GNU msgcat, msgmerge and Poedit
EXPECTED = "a gettext PO file"


# -- reading -------------------------------------------------------------------------------------

def read_catalog(path: Path, shown: str, within: Path | None = None) -> Catalog:
    """The catalog at `path`; a malformed one is an AidsError with its path, line and column.

    Beyond what translate-toolkit refuses, this refuses what GNU msgfmt refuses and a lenient
    reader would take for something else: bytes that are not UTF-8, a string left unclosed or
    unquoted, text after a closing quote, and a second definition of the same message.
    """
    data = _read(path, shown, within)
    problems = lint(data, shown)
    if problems:
        raise AidsError(problems)
    try:
        catalog = pypo.pofile(data, width=WIDTH)
    except (PoParseError, ValueError) as exc:
        line = getattr(getattr(exc, "parse_state", None), "lineno", 0)
        what = str(exc).split(" on line ")[0]
        raise AidsError(Problem(Position(shown, line), f"malformed catalog: {what}", EXPECTED)) from None
    problems = header_problems(catalog, shown) + duplicates(catalog, shown)
    if problems:
        raise AidsError(problems)
    return catalog


HEADER = 'a header entry first: msgid "" and msgstr "Content-Type: text/plain; charset=UTF-8\\n..."'


def header_problems(catalog: Catalog, shown: str) -> list[Problem]:
    """A catalog without its header entry, or whose header names another charset than UTF-8 (the bytes are UTF-8):
    GNU msgfmt and msgcat refuse the one and misread the other."""
    header = next((unit for unit in catalog.units if unit.isheader()), None)
    if header is None:
        return [Problem(Position(shown, 1, 1), "malformed catalog: no header entry", HEADER)]
    found = re.search(r"charset=([^\s;]+)", str(catalog.parseheader().get("Content-Type", "")))
    if found is None or found.group(1).lower().replace("_", "-") not in ("utf-8", "utf8"):
        said = f"charset={found.group(1)}" if found else "no charset"
        return [Problem(Position(shown, line(header) or 1, 1), f"malformed catalog: its header says {said}", HEADER)]
    return []



_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)(\s+)(.*)")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
# The escapes a translation needs; msgfmt also takes \a, \b, octal and hex, which only make control characters.
_ESCAPES = re.compile(r'"(?:[^"\\]|\\[ntr"\\])*"')
# The order of keywords in an entry: [msgctxt] msgid (msgstr | msgid_plural msgstr[0] msgstr[1] ...).
_NEXT = {"": {"msgctxt", "msgid"}, "msgctxt": {"msgid"}, "msgid": {"msgstr", "msgid_plural"},
         "msgid_plural": {"msgstr[]"}, "msgstr": {"msgctxt", "msgid"}, "msgstr[]": {"msgctxt", "msgid", "msgstr[]"}}


def lint(data: bytes, shown: str) -> list[Problem]:
    """What a lenient reader would misread or drop and GNU msgfmt refuses: bytes that are not UTF-8, strings
    not closed, not quoted or with an unknown escape, keywords out of order (a msgid without msgstr)."""
    return [] if _clean(data) else _account(data, shown)  # almost every catalog read is clean: found so at once


def _account(data: bytes, shown: str) -> list[Problem]:
    """`lint`'s findings, line by line, each with its line, column and what was expected."""
    problems: list[Problem] = []
    last, last_at = "", Position(shown)
    for number, raw in enumerate(data.split(b"\n"), start=1):
        # a line with a bad character is reported once, and still counts for the order of keywords
        body, flawed = _decoded(raw, Position(shown, number), problems)
        indent, text, previous = _unmarked(body)
        if not text or text.startswith("#"):
            continue
        keyword = _KEYWORD.fullmatch(text)
        value, column = (keyword.group(3), indent + keyword.end(2) + 1) if keyword else (text, indent + 1)
        if not keyword and not text.startswith('"'):
            problems.append(Problem(Position(shown, number, indent + 1), "malformed catalog: unknown keyword",
                                    "msgctxt, msgid, msgid_plural, msgstr or a comment starting with #"))
            continue
        if keyword and not previous:
            word = "msgstr[]" if keyword.group(1).startswith("msgstr[") else keyword.group(1)
            if word not in _NEXT[last]:
                problems.append(Problem(Position(shown, number, indent + 1), f"malformed catalog: {word.strip('[]')} "
                                        f"after {last or 'the start'}", " or ".join(sorted(_NEXT[last]))))
            last, last_at = word, Position(shown, number, indent + 1)
        if not flawed:
            problems += _string_problems(value, Position(shown, number, column))
    if last in ("msgctxt", "msgid", "msgid_plural"):
        problems.append(Problem(last_at, f"malformed catalog: {last} without msgstr", "msgstr after msgid"))
    return problems


def _clean(data: bytes) -> bool:
    """Whether `_account` finds nothing in `data`: its checks of each line without the positions and words of a
    problem, at a third of the cost (an update reads every catalog of a game, a build every catalog it uses)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if unfit(text) is not None:
        return False
    last = ""
    for body in text.split("\n"):
        if body[:1] == "#" and body[1:2] not in ("~", "|"):
            continue  # a comment
        indent, line, previous = _unmarked(body.rstrip("\r"))
        if not line or line.startswith("#"):
            continue
        keyword = _KEYWORD.fullmatch(line)
        if keyword is None:
            if not _ESCAPES.fullmatch(line):
                return False
            continue
        if not previous:
            word = "msgstr[]" if keyword.group(1).startswith("msgstr[") else keyword.group(1)
            if word not in _NEXT[last]:
                return False
            last = word
        if not _ESCAPES.fullmatch(keyword.group(3)):
            return False
    return last not in ("msgctxt", "msgid", "msgid_plural")


def _decoded(raw: bytes, at: Position, problems: list[Problem]) -> tuple[str, bool]:
    """A line of a catalog as text without its line end, and whether it is flawed (not UTF-8, or with a control
    character: reported once in `problems`)."""
    try:
        line, flawed = raw.decode("utf-8"), False
    except UnicodeDecodeError as exc:
        problems.append(Problem(Position(at.path, at.line, exc.start + 1), "malformed catalog: not UTF-8 text",
                                "a catalog in UTF-8"))
        line, flawed = raw.decode("utf-8", "replace"), True
    body = line.rstrip("\r")
    found = unfit(body)
    if found and not flawed:
        offset, what, expected = found
        problems.append(Problem(Position(at.path, at.line, offset + 1), f"malformed catalog: {what}", expected))
        flawed = True
    return body, flawed


def _unmarked(body: str) -> tuple[int, str, bool]:
    """The indent and text of a line, past the marks of an obsolete (`#~`) or previous (`#|`) entry, which keep
    the same syntax; and whether it is a previous entry's, outside the order of keywords."""
    indent = len(body) - len(body.lstrip())
    text = body.strip()
    previous = text.startswith(("#|", "#~|"))  # `#| msgid ...`: the previous text, outside the order
    if text.startswith("#~") or previous:
        rest = text[2:].lstrip("|") if text.startswith("#~") else text[2:]
        indent, text = indent + len(text) - len(rest.lstrip()), rest.lstrip()
    return indent, text, previous


def _string_problems(value: str, at: Position) -> list[Problem]:
    """A string of a catalog not closed, not quoted, with text after it or with an unknown escape."""
    if not _STRING.fullmatch(value):
        closed = value.startswith('"') and _STRING.match(value)
        return [Problem(at, "malformed catalog: " + ("text after the closing quote" if closed else
                        "string not closed" if value.startswith('"') else "string not quoted"),
                        'one string in double quotes, e.g. msgstr "..."')]
    if not _ESCAPES.fullmatch(value):
        return [Problem(at, "malformed catalog: unknown escape sequence", '\\n, \\t, \\r, \\" or \\\\')]
    return []


def key(entry: Entry) -> Key:
    return entry.getcontext() or "", msgid(entry)


def msgid(entry: Entry) -> str:
    """The msgid (the singular of a plural entry)."""
    source = entry.source
    return str(source.strings[0]) if entry.hasplural() else str(source)


IGNORE = re.compile(r"aids:\s*ignore\s+([\w\s,-]+)")


def ignored(entry: Entry) -> frozenset[str]:
    """The checks the translator's comment `# aids: ignore <id> ...` silences for the entry: `aids check` and
    the build read it alike (model/text.py, placeholder_mismatch)."""
    return frozenset(word for match in IGNORE.finditer(entry.getnotes("translator"))
                     for word in re.split(r"[\s,]+", match.group(1)) if word)


def strings(entry: Entry) -> list[str]:
    """The msgstr, or every msgstr[n] of a plural entry."""
    target = entry.target
    if entry.hasplural():
        return [str(s) for s in getattr(target, "strings", [target])]
    return [str(target or "")]


def translated(entry: Entry) -> bool:
    return any(strings(entry))


def entries(catalog: Catalog) -> list[Entry]:
    """The catalog's messages, header and obsolete entries left out."""
    return [u for u in catalog.units if not u.isheader() and not u.isobsolete()]


def obsolete(catalog: Catalog) -> list[Entry]:
    return [u for u in catalog.units if u.isobsolete()]


def line(entry: Entry) -> int:
    return entry.line_number or 0


def duplicates(catalog: Catalog, shown: str) -> list[Problem]:
    """A message defined twice (among the active, or among the obsolete entries), as msgfmt refuses it."""
    seen: dict[tuple[bool, Key], int] = {}
    problems = []
    for unit in catalog.units:
        if unit.isheader():
            continue
        where = (unit.isobsolete(), key(unit))
        if where in seen:
            problems.append(Problem(Position(shown, line(unit)),
                                    f"malformed catalog: duplicate message definition of '{where[1][1]}'"
                                    f" (first defined on line {seen[where]})", "each msgctxt and msgid once"))
        else:
            seen[where] = line(unit)
    return problems


def nplurals(catalog: Catalog) -> int | None:
    count = catalog.getheaderplural()[0]
    return int(count) if count and str(count).isdigit() else None


# -- writing -------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def msgcat() -> str | None:
    return shutil.which("msgcat")


def layout(catalog: Catalog) -> bytes:
    """The catalog as GNU gettext writes it (msgcat's own output), or translate-toolkit's where gettext is missing."""
    data = bytes(catalog)
    tool = msgcat()
    if tool is None:
        return data
    done = subprocess.run([tool, f"--width={WIDTH}", "-"], input=data, capture_output=True, check=False,
                          env={"LC_ALL": "C.UTF-8"})
    if done.returncode != 0:  # a bug of ours, not the user's input: say what GNU said
        raise RuntimeError("msgcat refused a catalog aids wrote:\n" + done.stderr.decode("utf-8", "replace"))
    return done.stdout


def _read(path: Path, shown: str, within: Path | None) -> bytes:
    """A catalog's bytes; inside `within` (the catalogs folder), never through a link: a catalog is aids' to
    write, and one that is a link to /etc/passwd is not read."""
    if within is None:
        return read_bytes(path, shown)
    folder, name = Folder.holding(within, path, shown)
    data = folder.read(name, MAX_BYTES + 1)  # a link is refused there, in one line
    if data is None:
        raise AidsError(Problem(Position(shown), "file not found"))
    if len(data) > MAX_BYTES:
        raise AidsError(Problem(Position(shown), "file larger than the limit", f"at most {MAX_BYTES // 1048576} MB"))
    return data


def save(path: Path, catalog: Catalog, within: Path | None = None, shown: str | None = None) -> bool:
    """Write `catalog` in GNU's layout unless the file already holds those bytes; returns whether it changed
    (no date is written that would change on its own: catalogs.template). `within`: the folder it is written in
    (the catalogs folder), never through a link inside it."""
    data = changed(path, catalog, within, shown)
    if data is None:
        return False
    folder, name = Folder.holding(within if within is not None else path.parent, path, shown)
    folder.write(name, data)
    return True


def changed(path: Path, catalog: Catalog, within: Path | None = None, shown: str | None = None) -> bytes | None:
    """What `save` would write (`catalog` in GNU's layout); None when the file holds those bytes already."""
    data = layout(catalog)
    folder, name = Folder.holding(within if within is not None else path.parent, path, shown)
    try:
        there = folder.read(name)
    except AidsError:  # a link, or not a file: written anew (never through a link among its folders)
        there = None
    return None if there == data else data


_MANGLED = re.compile(r'^# \| (?:(msgctxt|msgid|msgid_plural) )?("(?:[^"\\]|\\.)*")\s*$')


def repair_previous(catalog: Catalog) -> int:
    """Undo what a Babel round trip does to the previous texts of fuzzy entries (`#| msgid "..."`): Babel reads
    them as translator comments and writes them back as `# | msgid "..."`, which then stayed for good. They
    become previous texts again on a fuzzy entry that has none, and are dropped elsewhere (as msgmerge drops
    `#|` from an entry that is not fuzzy). The number of entries repaired."""
    repaired = 0
    for unit in catalog.units:
        kept: list[str] = []
        previous: dict[str, list[str]] = {"msgctxt": [], "msgid": [], "msgid_plural": []}
        field = "msgid"
        for comment in unit.othercomments:
            found = _MANGLED.match(comment)
            if found is None:
                kept.append(comment)
                continue
            field = found.group(1) or field
            previous[field].append(found.group(2))
        if len(kept) == len(unit.othercomments):
            continue
        repaired += 1
        unit.othercomments = kept
        if unit.isfuzzy() and not unit.prev_msgid and previous["msgid"]:
            unit.prev_msgctxt, unit.prev_msgid = previous["msgctxt"], previous["msgid"]
            unit.prev_msgid_plural = previous["msgid_plural"]
    return repaired
