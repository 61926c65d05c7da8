"""The whole of aids as one pipeline: source -> model -> localized -> rendered -> written.

    plan = plan_build(project, options)                  # source/ + model/: every aid read and linked
    for unit in plan.units:                              # one aid in one edition
        docs = [document(unit, lz) for lz in ...]        # localize/: one localized document a language
        files = render(docs, formats)                    # render/: every format of every language
        write_all(files)                                 # write/: all of them, or none

Catalog commands (extract, update, compile) are `aids.translations`.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import Edition, Game, Project
from .errors import AidsError, Position, Problem
from .kind import Aid
from .localize import catalogs, ui
from .localize.game import localize_game
from .localize.localizer import Fallback, Localizer
from .reading import read_aids, select_game_ids
from .render.formats import Document, registry
from .render.rendered import Rendered
from .write.files import recover, write_all

FORMATS = ("html", "pdf")
Progress = Callable[[int], Callable[[str], None]]


@dataclass(frozen=True)
class Options:
    """What `aids build` was asked for (None: everything)."""
    games: list[str] | None = None
    langs: list[str] | None = None
    formats: Iterable[str] = FORMATS
    editions: list[str] | None = None
    strict: bool = False  # fail an aid, unwritten, when any of its text falls back to the source language
    debug: bool = False  # let an internal error (a bug of aids) through, with its traceback


@dataclass
class Built:
    game: str
    edition: str | None
    lang: str
    aid: str
    files: list[str]
    pages: int
    warnings: list[str]
    notes: list[str] = field(default_factory=list)


@dataclass
class Summary:
    built: list[Built] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[AidsError] = field(default_factory=list)
    fallbacks: dict[tuple[str, str], list[Fallback]] = field(default_factory=dict)  # (game, lang) -> ...
    catalog_problems: list[Problem] = field(default_factory=list)  # faulty entries of the UI catalogs, not used
    seconds: float = 0.0


@dataclass(frozen=True)
class Unit:
    """One aid in one edition: rendered in every language, then written whole."""
    game: Game
    edition: Edition | None
    aid: Aid


@dataclass
class Plan:
    langs: list[str]
    formats: list[str]
    units: list[Unit] = field(default_factory=list)


# --- model -> localized ------------------------------------------------------------------------

def localizer(project: Project, game: Game, lang: str) -> Localizer:
    translations = {}
    if lang != game.source_language:
        po = catalogs.po_path(project.catalogs, lang, game.id)
        if po.exists():
            translations = catalogs.translations_of(catalogs.read_catalog(po, project.show(po)))
    return Localizer(lang, game.source_language, translations, ui.ui_translations(lang))


def document(game: Game, aid: Aid, lz: Localizer, edition: Edition | None) -> Document:
    """One aid localized: the template context every format renders."""
    localized = aid.kind.localize(aid.model, lz, edition)
    game_ctx = localize_game(game, lz)
    context: dict[str, Any] = {
        "aid": localized, "game": game_ctx, "kind": aid.kind.name, "kind_name": aid.kind.display_name(lz),
        "document_title": f"{game_ctx['title']} – {localized['title']}",
    }
    return Document(game, aid.kind, aid.model, lz, edition, context)


# --- localized -> rendered ---------------------------------------------------------------------

def render(doc: Document, formats: Iterable[str]) -> dict[str, Rendered]:
    """{suffix: output} of one document in every chosen format."""
    out: dict[str, Rendered] = {}
    for name in formats:
        out.update(registry()[name].render(doc))
    return out


def render_aid(project: Project, game: Game, aid: Aid, lz: Localizer, edition: Edition | None,
               formats: Iterable[str]) -> dict[str, Rendered]:
    return render(document(game, aid, lz, edition), formats)


# --- the build ---------------------------------------------------------------------------------

def output_dir(project: Project, game: Game, edition: Edition | None, lang: str) -> Path:
    folder = project.output / game.id
    return (folder / edition.id if edition else folder) / lang


def build(project: Project, options: Options = Options(), progress: Progress | None = None) -> Summary:
    """Build every aid of the chosen games in every chosen language, edition and format.

    An aid is rendered in all its languages before anything of it is written, so an aid that
    fails leaves its previous outputs as they were; the other aids (and games) are still built.
    """
    started = time.monotonic()
    summary = Summary()
    recover(project.output)  # an earlier build stopped halfway: its aids are finished or left as they were
    plan = plan_build(project, options, summary)
    tick = progress(len(plan.units) * len(plan.langs)) if progress else (lambda label: None)
    localizers: dict[tuple[str, str], Localizer] = {}
    for unit in plan.units:
        try:
            results, outputs = build_unit(project, unit, plan, localizers, tick, options.strict)
        except AidsError as exc:
            if options.debug:
                raise
            summary.failed.append(exc)
            summary.skipped.append(f"{unit.game.id}/{unit.aid.model.id}: not written, previous outputs kept")
            continue
        except Exception as exc:  # a bug of aids: this aid fails, the others are still built
            if options.debug:
                raise
            summary.failed.append(internal_error(project, unit, exc))
            summary.skipped.append(f"{unit.game.id}/{unit.aid.model.id}: not written, previous outputs kept")
            continue
        try:
            write_all(outputs, project.output)
        except OSError as exc:  # a folder aids may not write to, a full disk: this aid stays as it was
            summary.failed.append(AidsError(Problem(
                Position(project.show(project.output)), f"cannot write the files of '{unit.aid.model.id}': "
                f"{exc.strerror or exc} ({exc.filename})", "an output folder aids may write to")))
            continue
        summary.built.extend(results)
    for (game_id, lang), lz in localizers.items():
        if lz.fallbacks:
            summary.fallbacks[(game_id, lang)] = lz.fallbacks
    summary.seconds = time.monotonic() - started
    return summary


def internal_error(project: Project, unit: Unit, exc: Exception) -> AidsError:
    what = f"internal error in aids while building '{unit.aid.model.id}': {type(exc).__name__}: {exc}"
    return AidsError(Problem(Position(project.show(unit.aid.path)), what,
                             "nothing: this is a bug of aids; please report it with the output of --debug"))


def plan_build(project: Project, options: Options, summary: Summary) -> Plan:
    """The units to build: every standalone aid of the chosen games, once per chosen edition.

    What cannot be built (a broken game.yaml, an aid with errors) is recorded in `summary` and left out.
    """
    langs = _languages(project, options.langs)
    plan = Plan(langs, [f for f in registry() if f in options.formats])
    for lang in langs:
        summary.catalog_problems.extend(ui.ui_problems(lang))
    if options.strict and summary.catalog_problems:
        raise AidsError([Problem(p.where, f"{p.message} (--strict)", p.expected) for p in summary.catalog_problems])
    editions = list(dict.fromkeys(options.editions)) if options.editions else None
    games = []
    for name in select_game_ids(project, options.games):
        try:
            games.append(project.read_game(name))
        except AidsError as exc:
            if options.debug:
                raise
            summary.failed.append(exc)
            summary.skipped.append(f"{name}: not built, its game.yaml has errors")
    _check_editions(games, editions)
    for game in games:
        chosen: list[Edition | None] = [e for e in game.editions if e.id in editions] if editions else \
            (list(game.editions) or [None])
        if not chosen:
            summary.skipped.append(f"{game.id}: no edition {', '.join(editions or [])}")
            continue
        aids, errors = read_aids(project, game)
        if options.debug and errors:
            raise errors[0]  # with its traceback, as --debug asks
        summary.failed.extend(errors)
        summary.skipped.extend(f"{game.id}: an aid with errors was not built ({e.problems[0].where.path})"
                               for e in errors)
        if not aids and not errors:
            summary.skipped.append(f"{game.id}: no aids declared")
        # parts (tables) are built inside the aids that embed them
        plan.units.extend(Unit(game, edition, aid) for edition in chosen for aid in aids if aid.kind.standalone)
    return plan


def build_unit(project: Project, unit: Unit, plan: Plan, localizers: dict[tuple[str, str], Localizer],
               tick: Callable[[str], None], strict: bool = False) -> tuple[list[Built], dict[Path, bytes]]:
    """One aid in every language: what was built, and the files to write once all of it rendered."""
    game, edition, aid = unit.game, unit.edition, unit.aid
    outputs: dict[Path, bytes] = {}
    results = []
    fell_back: list[Problem] = []
    for lang in plan.langs:
        tick(f"{game.id} {aid.model.id} {lang}")
        if (game.id, lang) not in localizers:
            localizers[(game.id, lang)] = localizer(project, game, lang)
        lz = localizers[(game.id, lang)]
        lz.recent()
        rendered = render(document(game, aid, lz, edition), plan.formats)
        where = ", ".join([lang, *([f"edition {edition.id}"] if edition else []), *plan.formats])
        fell_back.extend(Problem(fb.text.where, f"{where}: [{fb.text.context}] {fb.reason} (--strict)",
                                 "a translation in " + project.show(catalogs.po_path(project.catalogs, lang, game.id)))
                         for fb in lz.recent())
        folder = output_dir(project, game, edition, lang)
        files = []
        for suffix, item in rendered.items():
            path = folder / f"{aid.model.id}{suffix}"
            outputs[path] = item.data
            files.append(project.show(path))
        results.append(Built(
            game.id, edition.id if edition else None, lang, aid.model.id, files,
            pages=rendered[".pdf"].pages if ".pdf" in rendered else 0,
            warnings=[w for item in rendered.values() for w in item.warnings],
            notes=[n for item in rendered.values() for n in item.notes]))
    if strict and fell_back:
        raise AidsError(fell_back)
    return results, outputs


def _languages(project: Project, wanted: list[str] | None) -> list[str]:
    for lang in wanted or []:
        if lang not in project.languages:
            raise AidsError(Problem(Position("command line"), f"unknown language '{lang}'",
                                    ", ".join(project.languages)))
    return list(dict.fromkeys(wanted or project.languages))


def _check_editions(games: list[Game], wanted: list[str] | None) -> None:
    """Each edition asked for must exist in at least one of the chosen games (the others are skipped)."""
    known = sorted({e.id for g in games for e in g.editions})
    for name in wanted or []:
        if name not in known:
            raise AidsError(Problem(Position("command line"), f"unknown edition '{name}'",
                                    ", ".join(known) or "no edition: these games have a single one"))
