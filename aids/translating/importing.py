"""`aids import`: the translations of a catalog made by another tool (po4a, Sphinx, a hand-made one) for the same
text, placed in a game's catalogs (docs/guide/import.md).

Texts are compared after `normal`: spaces and line breaks collapsed, typographic quotes, dashes and no-break
spaces made plain, and the markup the other tool or aids adds set aside (Markdown or reStructuredText emphasis
and code marks, LaTeX's \\textbf{...}/\\emph{...}/~, a list item's marker, aids' own {kind:target} placeholders).

- the same text: the translation is placed as translated, unless aids' text has placeholders or %(fields)s
  the translation lacks (then fuzzy: the translator puts them in);
- a close text (`CLOSE` or more alike, difflib's ratio, the measure `aids update` uses): placed as fuzzy, with
  the text it was made for as its previous msgid (`#| msgid`), which Poedit and Weblate show as a diff;
- an entry of the other catalog used by none is reported, with the aids entries it holds whole when it is
  several of them joined (po4a makes one entry of a paragraph or a list, aids one of each item): its
  translation is not split by guess, the translator splits it.
An entry that has a translation (even fuzzy) is never changed. Entries are read and written by `po`
(translate-toolkit, GNU's layout).
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Game, Project
from ..errors import AidsError, Position, Problem
from ..localize import catalogs, domains, po
from ..model.text import placeholder_mismatch

CLOSE = 0.8  # like `aids update`'s ELSEWHERE: below this, a text is not taken for a version of another
_LATEX = re.compile(r"\\(?:textbf|textit|emph|texttt|textsc|underline)\{([^{}]*)\}")
_SPACES = re.compile(r"\s+")
_MARKS = re.compile(r"(\*\*|__|\*|``|`|(?<!\w)_|_(?!\w))")
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|\\item)\s+")
_PLACEHOLDER = re.compile(r"\{[a-z]+:[^{}\s]+\}")
_PLAIN = str.maketrans({"„": '"', "“": '"', "”": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "–": "-",
                        "—": "-", "\u00a0": " ", "\u202f": " ", "~": " "})


def normal(text: str) -> str:
    """`text` as compared: markup set aside, spaces and typography made plain."""
    text = _LATEX.sub(r"\1", text)
    text = _PLACEHOLDER.sub(" ", text)
    text = _ITEM.sub("", _MARKS.sub("", text.translate(_PLAIN)))
    return _SPACES.sub(" ", text).strip()


def as_aids(text: str) -> str:
    """A translation in aids' markup: LaTeX's emphasis as Markdown's, reStructuredText's code as Markdown's, its
    lines joined (a wrapped paragraph), a no-break tie kept as a no-break space."""
    text = re.sub(r"\\(?:textbf)\{([^{}]*)\}", r"**\1**", text)
    text = re.sub(r"\\(?:textit|emph)\{([^{}]*)\}", r"*\1*", text)
    text = re.sub(r"\\texttt\{([^{}]*)\}", r"`\1`", text).replace("``", "`").replace("~", "\u00a0")
    return _SPACES.sub(" ", text).strip()


@dataclass
class Foreign:
    """A translated entry of the other catalog."""
    line: int
    msgid: str
    msgstr: str
    fuzzy: bool
    normal: str = ""
    used: int = 0


@dataclass
class Placed:
    catalog: str  # the aids catalog, as shown
    context: str
    msgid: str
    source: Foreign
    fuzzy: bool
    why: str  # "" for the same text; "84 % alike", or "placeholders to add"


@dataclass
class Report:
    placed: list[Placed] = field(default_factory=list)
    unplaced: list[tuple[Foreign, str]] = field(default_factory=list)  # (entry, why)
    written: list[str] = field(default_factory=list)


def foreign_entries(path: Path, shown: str) -> tuple[list[Foreign], str]:
    """The translated entries of the other catalog and its language (its header's)."""
    catalog = po.read_catalog(path, shown)
    found = []
    for entry in po.entries(catalog):
        if entry.hasplural() or not po.translated(entry):
            continue
        found.append(Foreign(po.line(entry), po.msgid(entry), po.strings(entry)[0], entry.isfuzzy(),
                             normal(po.msgid(entry))))
    return found, str(catalog.parseheader().get("Language", "") or "")


def import_catalog(project: Project, game: Game, path: Path, lang: str | None, dry_run: bool = False) -> Report:
    """Fill the game's untranslated entries in `lang` from the catalog at `path` (see the module's note)."""
    found, said = foreign_entries(path, str(path))
    held = _held(project, game, str(path), lang or said)
    report = Report()
    exact: dict[str, Foreign] = {}
    for other in (f for f in found if not f.fuzzy):  # the first of a text, where the other catalog has it twice
        exact.setdefault(other.normal, other)
    for target, catalog in held:
        placed = _fill(catalog, project.show(target), exact, found)
        report.placed += placed
        if placed and not dry_run:
            po.save(target, catalog, project.catalogs, project.show(target))
            report.written.append(project.show(target))
    every = [(po.key(e), normal(po.msgid(e))) for _, c in held for e in po.entries(c) if not e.hasplural()]
    report.unplaced = [(f, _why(f, every)) for f in found if not f.used]
    return report


def _held(project: Project, game: Game, shown: str, lang: str) -> list[tuple[Path, po.Catalog]]:
    """The game's catalogs in `lang`; a language it is not translated into, or none, is an AidsError."""
    if not lang:
        raise AidsError(Problem(Position(shown), "the catalog names no language (no Language: in its header)",
                                "--lang L"))
    if lang not in project.languages or lang == game.source_language:
        raise AidsError(Problem(Position("--lang"), f"'{lang}' is not a language {game.id} is translated into",
                                ", ".join(x for x in project.languages if x != game.source_language)))
    held = domains.read(project.catalogs, project.show, game.id, lang)
    if not held:
        raise AidsError(Problem(Position(project.show(catalogs.po_path(project.catalogs, lang, game.id))),
                                "no catalog", "run `aids extract && aids update` first"))
    return held


def _fill(catalog: po.Catalog, shown: str, exact: dict[str, Foreign], found: list[Foreign]) -> list[Placed]:
    """Each entry of `catalog` without a translation (never one with a translation, even fuzzy) filled if it can."""
    placed = []
    for entry in po.entries(catalog):
        if not entry.hasplural() and not po.translated(entry):
            done = _place(entry, shown, exact, found)
            placed += [done] if done else []
    return placed


def _place(entry: po.Entry, shown: str, exact: dict[str, Foreign], found: list[Foreign]) -> Placed | None:
    msgid = po.msgid(entry)
    key = normal(msgid)
    if not key:
        return None
    source, score = exact.get(key), 1.0
    if source is None:
        source, score = _closest(key, found)
    if source is None:
        return None
    translation = as_aids(source.msgstr)
    missing = placeholder_mismatch(msgid, translation, po.ignored(entry))
    fuzzy = score < 1.0 or source.fuzzy or bool(missing)
    entry.target = translation
    if fuzzy:
        entry.markfuzzy(True)
        entry.prev_context = ""
        entry.prev_source = source.msgid
    why = f"{round(score * 100)} % alike" if score < 1.0 else ("fuzzy there" if source.fuzzy else missing)
    entry.addnote(f"aids import: line {source.line} of the imported catalog" + (f" ({why})" if why else ""),
                  origin="translator")
    source.used += 1
    return Placed(shown, entry.getcontext() or "", msgid, source, fuzzy, why)


def _closest(key: str, found: list[Foreign]) -> tuple[Foreign | None, float]:
    best, score = None, 0.0
    for candidate in found:
        matcher = difflib.SequenceMatcher(None, key, candidate.normal, autojunk=False)
        if matcher.real_quick_ratio() < CLOSE or matcher.quick_ratio() < CLOSE:
            continue
        ratio = matcher.ratio()
        if ratio >= CLOSE and ratio > score:
            best, score = candidate, ratio
    return best, score


def _why(entry: Foreign, every: list[tuple[po.Key, str]]) -> str:
    """Why an entry of the other catalog was not used: the entry of its text already translated, the aids entries
    it joins, or none close enough."""
    same = [k for k, text in every if text == entry.normal]
    if same:
        return f"[{same[0][0]}] has this text and a translation already: kept as it is"
    held = [k for k, text in every if len(text) > 3 and text in entry.normal]
    if len(held) > 1:
        return (f"joins {len(held)} entries of aids, each its own there: "
                + ", ".join(f"[{context}]" for context, _ in held) + "; split its translation between them")
    if held:
        return f"holds [{held[0][0]}] and more: put the part that translates it there"
    return "no entry of the game has this text or one close to it"
