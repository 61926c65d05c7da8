"""`aids import`: the translations of a catalog made by another tool (po4a, Sphinx, a hand-made one) for the same
text, placed in a game's catalogs (docs/guide/import.md).

A po4a catalog of LaTeX is read as aids' markup first (latex.py: the macros the project declares, LaTeX's
emphasis and typography); a macro it does not know is reported at its line and its entry left alone. Texts are
then compared after `normal` (aligning.py): spaces collapsed, typography made plain, markup and aids'
{kind:target} placeholders set aside.

- the same text: the translation is placed as translated, unless aids' text has placeholders or %(fields)s
  the translation lacks (then fuzzy: the translator puts them in);
- a close text (`CLOSE` or more alike, difflib's ratio, the measure `aids update` uses): placed as fuzzy, with
  the text it was made for as its previous msgid (`#| msgid`), which Poedit and Weblate show as a diff;
- an entry that is several of aids' joined (po4a makes one entry of a paragraph, a list or a section's body,
  aids one of each paragraph and item): its translation is split between them where their texts align sentence
  by sentence (aligning.py), fuzzy where the alignment is partial or doubted;
- an entry used by none is reported by its first words and line, with why.
An entry that has a translation (even fuzzy) is never changed. Entries are read and written by `po`
(translate-toolkit, GNU's layout).
"""
from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Game, Project
from ..errors import AidsError, Position, Problem
from ..localize import catalogs, domains, po
from ..model.text import placeholder_mismatch
from . import aligning, latex
from .aligning import CLOSE, normal

_SPACES = re.compile(r"\s+")
_MACRO = re.compile(r"\\[A-Za-z@]+")


def as_aids(text: str) -> str:
    """A translation of a catalog that is not LaTeX in aids' markup: reStructuredText's code as Markdown's, its
    lines joined (a wrapped paragraph), a no-break tie kept as a no-break space."""
    text = text.replace("``", "`").replace("~", "\u00a0")
    return _SPACES.sub(" ", text).strip()


@dataclass
class Foreign:
    """A translated entry of the other catalog, in aids' markup: its text and translation in pieces."""
    line: int
    msgid: str
    msgstr: str
    fuzzy: bool
    pieces: list[str] = field(default_factory=list)
    translated: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "line:col: what", an undeclared macro: not placed
    used: int = 0
    why: str = ""  # why it was not placed, where aligning said

    @property
    def text(self) -> str:
        return " ".join(self.pieces)

    @functools.cached_property
    def normal(self) -> str:
        return normal(self.text)

    @property
    def words(self) -> str:
        """Its first words, as a report names it."""
        words = normal(self.text).split()
        return '"' + " ".join(words[:6]) + ("…" if len(words) > 6 else "") + '"'


@dataclass
class Placed:
    catalog: str  # the aids catalog, as shown
    context: str
    msgid: str
    source: Foreign
    fuzzy: bool
    why: str  # "" for the same text; "84 % alike", or "placeholders to add"
    split: str = ""  # "sentences 2-3 of 5" for a part of a split entry


@dataclass
class Report:
    placed: list[Placed] = field(default_factory=list)
    unplaced: list[tuple[Foreign, str]] = field(default_factory=list)  # (entry, why)
    parts: list[tuple[Foreign, str]] = field(default_factory=list)  # parts of split entries left out, why
    problems: list[str] = field(default_factory=list)  # "line:col: what" of the other catalog
    written: list[str] = field(default_factory=list)

    def lines(self, shown: str, dry_run: bool) -> list[str]:
        """The report a translator acts on: one line an entry placed, a problem, a part or an entry not placed,
        then the sums."""
        said = [_placed_line(p, shown) for p in self.placed]
        said += [f"{shown}:{problem}" for problem in self.problems]
        said += [f"{shown}:{entry.line}: {entry.words}: part not placed: {why}" for entry, why in self.parts]
        said += [f"{shown}:{entry.line}: {entry.words} not placed: {why}" for entry, why in self.unplaced]
        said.append(self.sums() + (" (--dry-run: nothing written)" if dry_run else
                                   "".join(f"; updated {w}" for w in self.written)))
        return said

    def sums(self) -> str:
        exact = sum(1 for p in self.placed if not p.fuzzy and not p.split)
        split = sum(1 for p in self.placed if not p.fuzzy and p.split)
        blocks = len({id(p.source) for p in self.placed if p.split})
        fuzzy = sum(1 for p in self.placed if p.fuzzy)
        return (f"{exact} placed exactly, {split} split from {blocks} {'entry' if blocks == 1 else 'entries'}, "
                f"{fuzzy} placed fuzzy, {len(self.unplaced)} not placed")


def _placed_line(p: Placed, shown: str) -> str:
    what = ("placed fuzzy" + (f" ({p.why})" if p.why else "")) if p.fuzzy else "placed"
    origin = f"split from {shown}:{p.source.line} ({p.split})" if p.split else f"from {shown}:{p.source.line}"
    return f"{p.catalog}: [{p.context}] {what}, {origin}"


def foreign_entries(path: Path, shown: str, macros: latex.Macros | None = None) -> tuple[list[Foreign], str]:
    """The translated entries of the other catalog and its language (its header's). A catalog holding a LaTeX
    macro, or read with macros declared, is read as LaTeX."""
    catalog = po.read_catalog(path, shown)
    macros = macros or latex.Macros()
    units = [e for e in po.entries(catalog) if not e.hasplural() and po.translated(e)]
    is_latex = bool(macros.kinds) or any(_MACRO.search(po.msgid(e)) for e in units)
    lines = path.read_text(encoding="utf-8").splitlines() if is_latex else []
    found = []
    for entry in units:
        other = Foreign(po.line(entry), po.msgid(entry), po.strings(entry)[0], entry.isfuzzy())
        if entry.hastypecomment("no-wrap") or not is_latex:  # verbatim: no LaTeX in it
            other.pieces, other.translated = [as_aids(other.msgid)], [as_aids(other.msgstr)]
        else:
            _read_latex(other, macros, lines)
        found.append(other)
    return found, str(catalog.parseheader().get("Language", "") or "")


def _read_latex(other: Foreign, macros: latex.Macros, lines: list[str]) -> None:
    text, translation = latex.convert(other.msgid, macros), latex.convert(other.msgstr, macros)
    other.pieces, other.translated = text.pieces, translation.pieces
    for said in (text, translation):
        if said.unreadable:
            other.problems.append(f"{other.line}: LaTeX that cannot be read: {said.unreadable} "
                                  "(expected: a block as po4a writes it, its braces closed)")
        for name, _ in said.undeclared:
            line, col = _where(lines, other.line, name)
            other.problems.append(f"{line}:{col}: {name} is a macro not declared (expected: --macro KIND="
                                  f"{name[1:]}, KIND one of {', '.join(latex.KINDS)}, or a line of --macros FILE)")
    other.problems = list(dict.fromkeys(other.problems))


def _where(lines: list[str], start: int, name: str) -> tuple[int, int]:
    """The line and column of the macro `name` in the catalog's entry from line `start` (its msgid's)."""
    pattern = re.compile(re.escape("\\\\" + name[1:]) + r"(?![A-Za-z@])")
    for number in range(max(start, 1), len(lines) + 1):
        text = lines[number - 1]
        if not text.strip():
            break
        found = pattern.search(text)
        if found:
            return number, found.start() + 1
    return start, 1


def import_catalog(project: Project, game: Game, path: Path, lang: str | None, dry_run: bool = False,
                   macros: latex.Macros | None = None) -> Report:
    """Fill the game's untranslated entries in `lang` from the catalog at `path` (see the module's note)."""
    found, said = foreign_entries(path, str(path), macros)
    lang = lang or said
    held = _held(project, game, str(path), lang)
    report = Report(problems=[p for f in found for p in f.problems])
    usable = [f for f in found if not f.problems]
    exact: dict[str, Foreign] = {}
    for other in usable:  # the first of a text, where the other catalog has it twice
        if not other.fuzzy:
            exact.setdefault(other.normal, other)
    for target, catalog in held:
        report.placed += _fill(catalog, project.show(target), exact, usable)
    _split(held, project, usable, (game.source_language, lang), report)
    if not dry_run:
        _write(held, project, report)
    report.unplaced = _unplaced(held, found)
    return report


def _unplaced(held: list[tuple[Path, po.Catalog]], found: list[Foreign]) -> list[tuple[Foreign, str]]:
    every = [(po.key(e), normal(po.msgid(e))) for _, c in held for e in po.entries(c) if not e.hasplural()]
    return [(f, _why(f, every)) for f in found if not f.used]


def _write(held: list[tuple[Path, po.Catalog]], project: Project, report: Report) -> None:
    changed = {p.catalog for p in report.placed}
    for target, catalog in held:
        if project.show(target) in changed:
            po.save(target, catalog, project.catalogs, project.show(target))
            report.written.append(project.show(target))


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
    why = f"{round(score * 100)} % alike" if score < 1.0 else ""
    return _put(entry, shown, source, " ".join(source.translated), why, source.msgid)


def _put(entry: po.Entry, shown: str, source: Foreign, translation: str, why: str, previous: str,
         split: str = "") -> Placed:
    """`translation` placed in `entry`: fuzzy when `why` says it is not sure, when it was fuzzy in the other
    catalog, or lacks a placeholder of aids' text; with a note of where it came from."""
    msgid = po.msgid(entry)
    missing = placeholder_mismatch(msgid, translation, po.ignored(entry))
    why = why or ("fuzzy there" if source.fuzzy else missing)
    fuzzy = bool(why)
    entry.target = translation
    if fuzzy:
        entry.markfuzzy(True)
        entry.prev_context = ""
        entry.prev_source = previous
    where = f"line {source.line} of the imported catalog" + (f", {split}" if split else "")
    entry.addnote(f"aids import: {where}" + (f" ({why})" if why else ""), origin="translator")
    source.used += 1
    return Placed(shown, entry.getcontext() or "", msgid, source, fuzzy, why, split)


def _split(held: list[tuple[Path, po.Catalog]], project: Project, found: list[Foreign], langs: tuple[str, str],
           report: Report) -> None:
    """Each entry not placed whole that joins several of aids': its translation split between them where the
    sentences align (aligning.py); what does not, reported as a part not placed."""
    blocks = [f for f in found if not f.used and len(aligning.sentences(f.text, langs[0])) > 1]
    if not blocks:
        return
    index = aligning.Index([aligning.known((project.show(target), entry), po.msgid(entry), langs[0])
                            for target, catalog in held for entry in po.entries(catalog) if not entry.hasplural()])
    for block in blocks:
        found_in = aligning.align(block.pieces, block.translated, langs, index)
        kept = [k for span in found_in.spans for k in _place_span(block, span, found_in, index, report)]
        for at in found_in.loose if found_in.spans else []:
            report.parts.append((block, f"{_sentences(at, 1, found_in.total)} matches no entry of the game"))
        if not block.used:
            block.why = _not_split(kept, found_in)


def _not_split(kept: list[str], found_in: aligning.Alignment) -> str:
    """Why a block whose sentences aligned placed nothing: its entries translated already, or no sure cut."""
    kept = list(dict.fromkeys(kept))
    if len(kept) == 1:
        return f"{kept[0]} has this text and a translation already: kept as it is"
    if kept:
        return f"{', '.join(kept)} have its text and translations already: kept as they are"
    if not found_in.spans:
        return ""
    named = ", ".join(dict.fromkeys(f"[{s.known.ref[1].getcontext()}]" for s in found_in.spans))
    return (f"its sentences align with {len(found_in.spans)} entries of aids ({named}), but its translation could "
            "not be cut between them (above)")


def _place_span(block: Foreign, span: aligning.Span, found_in: aligning.Alignment, index: aligning.Index,
                report: Report) -> list[str]:
    """The part of `block`'s translation that `span` found placed in every untranslated entry of its text;
    the entries that have a translation already."""
    what = _sentences(span.first, span.count, found_in.total)
    if not span.translation:
        report.parts.append((block, f"{what} ([{span.known.ref[1].getcontext()}]): {span.why}"))
        return []
    why = (span.why or (f"{round(span.score * 100)} % alike" if span.score < 1.0 else "")
           or ("" if found_in.whole else "a part of an entry that aligns in part: check it"))
    kept = []
    for same in index.same[span.known.normal]:
        shown, entry = same.ref
        if po.translated(entry):
            kept.append(f"[{entry.getcontext()}]")
        else:
            report.placed.append(_put(entry, shown, block, span.translation, why, span.source, what))
    return kept


def _sentences(first: int, count: int, total: int) -> str:
    return (f"sentence {first + 1}" if count == 1 else f"sentences {first + 1}-{first + count}") + f" of {total}"


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
    """Why an entry of the other catalog was not used: its LaTeX not read, what aligning found, the entry of its
    text already translated, the aids entries it joins, or none close enough."""
    if entry.problems:
        return "its LaTeX is not read (above)"
    if entry.why:
        return entry.why
    same = [k for k, text in every if text == entry.normal]
    if same:
        return f"[{same[0][0]}] has this text and a translation already: kept as it is"
    held = [k for k, text in every if len(text.split()) > 2 and text in entry.normal]
    if len(held) > 1:
        return (f"joins {len(held)} entries of aids, each its own there: "
                + ", ".join(f"[{context}]" for context, _ in held) + "; split its translation between them")
    if held:
        return f"holds [{held[0][0]}] and more: put the part that translates it there"
    return "no entry of the game has this text or one close to it"
