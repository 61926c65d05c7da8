"""What a build refuses to write, by language of an aid: text that fell back to the source language (with
`--strict`, or aids.yaml's `fallbacks: fail`), and a press PDF a print shop's preflight flags (with `--strict`).
A fallback is named where a translator mends it: the catalog's path and line, and its msgctxt."""
from __future__ import annotations

from pathlib import Path

from ..config import Project
from ..errors import AidsError, Position, Problem
from ..localize import catalogs, po
from ..localize.domains import aid_domain
from . import pipeline
from .jobs import Result
from .pipeline import Unit


def refused(project: Project, unit: Unit, results: list[Result], strict: bool) -> dict[str, AidsError]:
    """lang -> why its files are not written; `strict`: --strict, which adds the preflight's findings to what
    aids.yaml's `fallbacks: fail` refuses."""
    if not strict and project.fallbacks != "fail":
        return {}
    why = "--strict" if strict else "fallbacks: fail"
    source = Position(project.show(unit.aid.path))
    out = {}
    for r in results:
        found = [*fallbacks(project, unit, r, why),
                 *(pipeline.preflighted(source, r.job.lang, r.by_format.values()) if strict else [])]
        if found and not r.error:
            out[r.job.lang] = AidsError(found)
    return out


def fallbacks(project: Project, unit: Unit, result: Result, why: str) -> list[Problem]:
    """Each text of `result` that fell back to the source language, at its entry in the catalog (its source's
    position when the catalog has no such entry yet: `aids extract && aids update` makes it)."""
    job = result.job
    where = ", ".join([job.lang, *([f"edition {job.edition}"] if job.edition else []), *job.formats])
    domain = aid_domain(job.game, unit.aid.model.id) if unit.game.catalogs_per == "aid" else job.game
    path = catalogs.po_path(project.catalogs, job.lang, domain)
    shown = project.show(path)
    lines = _lines(path, shown) if result.fallbacks else {}
    return [Problem(Position(shown, lines[key]) if key in lines else fb.text.where,
                    f"{where}: [{fb.text.context}] {fb.reason} ({why})",
                    f"a translation in {shown}" if key not in lines else
                    f"a usable translation of {fb.text.where} (not untranslated, fuzzy, nor losing a placeholder)")
            for fb in result.fallbacks for key in [(fb.text.context, fb.text.msgid)]]


def _lines(path: Path, shown: str) -> dict[tuple[str, str], int]:
    """(msgctxt, msgid) -> the line of its entry in the catalog at `path`; none when it cannot be read (the build
    has reported why)."""
    if not path.is_file():
        return {}
    try:
        catalog = po.read_catalog(path, shown)
    except AidsError:
        return {}
    return {po.key(entry): po.line(entry) for entry in po.entries(catalog) if po.line(entry)}
