"""The whole of aids as one pipeline: source -> model -> localized -> rendered -> written.

`aids build` (builder.build) runs it, in this order:

    plan = plan_build(project, options, summary)       # source/ + model/: every aid read and linked, once
    for unit in shards.select(plan.units, ...):         # one aid in one edition (all of them, or this shard's)
        for lang in plan.langs:                         # builder._Run.job:
            digest = Fingerprints.digest(...)           #   what its outputs are made of (fingerprint.py)
            Job(..., formats=stale)                     #   the formats the cache does not hold at that digest
    for job in todo, on a core or a Dask worker:        # jobs.run_job, the one path
        lz = Loaded.localizer(game, lang)               # localize/: the language (localize/making.py)
        jobs.rendered(state, game, aid, edition, lz, formats, ...):
            doc = document(game, aid, lz, edition, nav, marks, rulings)  # localize/: with the site's navigation
            render(doc, [name]) for name in formats     # render/: {suffix: output} of each format
    when every language of a unit is in (builder._finish):
        write_all(files, project.output)                # write/: the aid's files, all or none; then the cache
    then (builder._conclude): tournament.run, archive.publish, site.publish, since.publish, outputs.remove_gone,
    search.index

This module holds the plan (`plan_build`: the `Options` asked for, the `Unit`s) and one aid's way through the
stages (`document`, `render`). Catalog commands (extract, update, compile) are
`aids.translating.translations`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ..config import Edition, Game, Project
from ..errors import AidsError, Position, Problem
from ..kind import Aid
from ..kinds.reading import Broken, read_game_aids, select_game_ids
from ..localize import ui
from ..localize.documents import ChangesDocument
from ..localize.game import localize_game
from ..localize.localizer import PSEUDO, Fallback, Localizer
from ..localize.rulings import RulingsDocument
from ..model.release import REMOVED, Change
from ..render import preflight
from ..render.formats import Document, applies, paged, registry, variants
from ..render.rendered import Rendered
from ..translating.translators import complete

FORMATS = ("html", "pdf")  # what --format's help calls the default: a project's own are aids.yaml's `formats:`


@dataclass(frozen=True)
class Options:
    """What `aids build` was asked for (None: everything)."""
    games: list[str] | None = None
    langs: list[str] | None = None
    formats: Iterable[str] | None = None  # None: the project's (aids.yaml's `formats:`, else html and pdf)
    editions: list[str] | None = None
    strict: bool = False  # fail an aid, unwritten, when any of its text falls back to the source language, or when
    # a print shop's preflight flags its press PDF (render/preflight.py)
    debug: bool = False  # let an internal error (a bug of aids) through, with its traceback
    jobs: int | None = None  # worker processes (None: one a core; 1: this process only)
    shard: tuple[int, int] | None = None  # (K, N): build only the K-th of N parts of the units, of about one cost
    scheduler: str | None = None  # a Dask scheduler's address: run the jobs on its cluster
    force: bool = False  # render everything, whatever the build cache says
    min_complete: float | None = None  # an aid less translated (percent of words) is not built in that language
    draft: bool = False  # untranslated and fuzzy text marked on the page, "Draft, N % translated" in the footer
    pseudo: bool = False  # build the pseudo-locale (qps) only: every text accented and lengthened
    marks: str = "bars"  # what changed since the last release: none, bars (in the margin), colour or both
    since: str | None = None  # mark the changes since this release rather than the latest (aids build --since)
    partial: bool = False  # a first part of a build another one completes (serve: the language looked at first): its
    # aids only, no web site and no search index (the complete build writes them)


@dataclass
class Built:
    """One aid written in one edition and language."""
    game: str
    edition: str | None
    lang: str
    aid: str
    files: list[str]
    pages: int
    warnings: list[str]
    notes: list[str] = field(default_factory=list)
    fitted: dict[str, float] = field(default_factory=dict)  # the type size (pt) its PDF was fitted at, per card face
    seconds: float = 0.0  # rendering it (in its worker) and its share of writing the aid's files: an aid's sum is exact
    last_page: float | None = None  # how full the last page of its PDF is (0 to 1)
    remarks: list[str] = field(default_factory=list)  # what the summary says under the aid (render/rendered.py)

    @classmethod
    def of(cls, game: str, edition: str | None, lang: str, aid: str, made: list[dict[str, Any]],
           seconds: float) -> Built:
        """From what each format `made` (see `made`)."""
        return cls(game=game, edition=edition, lang=lang, aid=aid, files=[f for m in made for f in m["files"]],
                   pages=sum(m["pages"] for m in made), warnings=[w for m in made for w in m["warnings"]],
                   notes=[n for m in made for n in m["notes"]],
                   fitted={k: v for m in made for k, v in m["fitted"].items()}, seconds=seconds,
                   last_page=next((m["last_page"] for m in made if m.get("last_page") is not None), None),
                   remarks=[r for m in made for r in m.get("remarks", [])])


def made(files: list[str], rendered: dict[str, Rendered]) -> dict[str, Any]:
    """What one format of an aid made, as the summary and the cache keep it: its files, pages, warnings,
    notes and remarks, the type size it was fitted at, how full its last page is, what a print shop's preflight
    flags."""
    pdf = rendered.get(".pdf")
    return {"files": files, "pages": pdf.pages if pdf else 0,
            "warnings": [w for item in rendered.values() for w in item.warnings],
            "notes": [n for item in rendered.values() for n in item.notes],
            "remarks": [r for item in rendered.values() for r in item.remarks],
            "fitted": {k: v for item in rendered.values() for k, v in item.fitted.items()},
            "last_page": pdf.last_page if pdf else None,
            "preflight": [p for item in rendered.values() for p in item.preflight]}


def preflighted(source: Position, lang: str, made: Iterable[dict[str, Any]]) -> list[Problem]:
    """What a print shop's preflight flags in the press PDFs of an aid (each format's `made`), as --strict refuses
    it, at the aid's `source`."""
    expected = (f"every image at the resolution the press asks at the size it prints ({preflight.CONTONE_PPI} ppi, "
                f"line art {preflight.LINE_ART_PPI}; docs/guide/printing.md)")
    return [Problem(source, f"{lang}: {found} (--strict)", expected) for m in made for found in m.get("preflight", [])]


@dataclass
class Summary:
    built: list[Built] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[AidsError] = field(default_factory=list)
    unchanged: int = 0  # aids x languages whose files were already up to date
    fallbacks: dict[tuple[str, str], list[Fallback]] = field(default_factory=dict)  # (game, lang) -> ...
    catalog_problems: list[Problem] = field(default_factory=list)  # faulty entries of the UI catalogs, not used
    site: list[str] = field(default_factory=list)  # the web site's pages written (aids/site/site.py), as shown
    tournament: list[str] = field(default_factory=list)  # bilingual aids and packets written (pipeline/tournament.py)
    repaired: list[str] = field(default_factory=list)  # damaged state in the output folder, set aside (one line each)
    removed: list[str] = field(default_factory=list)  # the files of aids gone from the sources, removed, as shown
    seconds: float = 0.0


class UnitKey(NamedTuple):
    """A unit by its ids, as a build's maps of units and of jobs (with a language) are keyed."""
    game: str
    edition: str | None
    aid: str


@dataclass(frozen=True)
class Unit:
    """One aid in one edition: rendered in every language, then written whole."""
    game: Game
    edition: Edition | None
    aid: Aid
    formats: tuple[str, ...] = ()  # the plan's, with those its game's print settings add (unit_formats)

    @property
    def key(self) -> UnitKey:
        return UnitKey(self.game.id, self.edition.id if self.edition else None, self.aid.model.id)


@dataclass
class Plan:
    langs: list[str]
    formats: list[str]
    units: list[Unit] = field(default_factory=list)
    read: list[tuple[Game, list[Aid], list[Broken]]] = field(default_factory=list)  # each game's aids, and the broken


# --- model -> localized ------------------------------------------------------------------------

def document(game: Game, aid: Aid, lz: Localizer, edition: Edition | None,
             site: dict[str, Any] | None = None, changes: ChangesDocument | None = None,
             rulings: RulingsDocument | None = None,
             printed_before: Callable[[str], dict[str, bytes] | None] | None = None) -> Document:
    """One aid localized: the template context every format renders (and `site`, the web site's navigation its
    HTML page carries; `changes`, what it marks as changed since the last release: localize/changes.py;
    `rulings`, the game's rulings it prints: localize/rulings.py; `printed_before`: its PDFs an earlier build wrote
    from the same sources, by print profile, to read back rather than print again)."""
    localized = aid.kind.lay_out(aid.model, aid.kind.localize(aid.model, lz, edition), lz)  # localize/, render/
    game_ctx = localize_game(game, lz)
    if lz.draft:  # printed in the footer of every page: the share `aids stats` gives
        draft = lz.pgettext("footer of a draft; %(percent)s is a percentage", "Draft, %(percent)s translated")
        game_ctx["draft"] = draft % {"percent": lz.percent(complete(game, aid, lz.catalog))}
    context: dict[str, Any] = {
        "aid": localized, "game": game_ctx, "kind": aid.kind.name, "kind_name": aid.kind.display_name(lz),
        "document_title": f"{game_ctx['title']} – {localized['title']}",
        **({"changes": changes} if changes else {}),
        **({"rulings": rulings} if rulings else {}),
    }
    return Document(game, aid.kind, aid.model, lz, edition, context, site, printed_before)


# --- localized -> rendered ---------------------------------------------------------------------

def render(doc: Document, formats: Iterable[str]) -> dict[str, Rendered]:
    """{suffix: output} of one document in every chosen format that applies to its kind."""
    out: dict[str, Rendered] = {}
    for name in formats:
        if applies(registry()[name], doc.kind):
            out.update(registry()[name].render(doc))
    return out


def aid_changes(aid: Aid, changes: Iterable[Change]) -> list[Change]:
    """The changes an aid marks: its own and those of the aids it embeds (a playsheet's tables)."""
    ids = {aid.model.id, *(part.id for part in aid.kind.parts(aid.model))}
    return [c for c in changes if c.aid in ids]


def citing(aid: Aid, aids: Iterable[Aid], changes: Iterable[Change], lang: str) -> list[str]:
    """The anchors of `aid`'s items that cite an item changed, added or moved in `lang`: one of its own by
    its path (`{see:movement/move}`), or one of another aid by what that aid answers to (`rule:4.1`, a rule
    of a booklet)."""
    changed = {(c.aid, c.anchor) for c in changes if c.concerns(lang) and c.what != REMOVED and c.anchor}
    own = {anchor for owner, anchor in changed if owner == aid.model.id}
    elsewhere = {ref for other in aids for ref, anchor in other.kind.targets(other.model).items()
                 if (other.model.id, anchor) in changed}
    return sorted(anchor for anchor, targets in aid.kind.citations(aid.model).items()
                  if anchor and any(t in own or t in elsewhere for t in targets))


# --- the build ---------------------------------------------------------------------------------

def output_dir(project: Project, game: Game, edition: Edition | None, lang: str) -> Path:
    folder = project.output / game.id
    return (folder / edition.id if edition else folder) / lang


def internal_error(project: Project, path: Path, exc: Exception) -> AidsError:
    """A bug of aids while building the aid of `path`: reported as such, that aid failed."""
    what = f"internal error in aids while building '{path.stem}': {type(exc).__name__}: {exc}"
    return AidsError(Problem(Position(project.show(path)), what,
                             "nothing: this is a bug of aids; please report it with the output of --debug"))


def plan_build(project: Project, options: Options, summary: Summary) -> Plan:
    """The units to build: every standalone aid of the chosen games, once per chosen edition.

    What cannot be built (a broken game.yaml, an aid with errors) is recorded in `summary` and left out.
    """
    langs = [PSEUDO] if options.pseudo else chosen_languages(project, options.langs)
    plan = Plan(langs, [f for f in registry() if f in chosen_formats(project, options.formats)])
    _can_print(plan.formats)
    _ui_problems(langs, options, summary)
    editions = list(dict.fromkeys(options.editions)) if options.editions else None
    games = _games(project, options, summary)
    _check_editions(games, editions)
    for game in games:
        chosen: list[Edition | None] = [e for e in game.editions if e.id in editions] if editions else \
            (list(game.editions) or [None])
        if not chosen:
            summary.skipped.append(f"{game.id}: no edition {', '.join(editions or [])}")
            continue
        aids = _game_aids(project, game, options, summary, plan)
        # parts (tables) are built inside the aids that embed them
        formats = unit_formats(plan.formats, game)
        plan.units.extend(Unit(game, edition, aid, formats) for edition in chosen for aid in aids
                          if aid.kind.standalone)
    return plan


def chosen_formats(project: Project, asked: Iterable[str] | None) -> list[str]:
    """The formats asked for (--format), else the project's (`formats:` in aids.yaml): one not registered there
    is an error, where it is named."""
    if asked is not None:
        return list(asked)
    unknown = [name for name in project.formats if name not in registry()]
    if unknown:
        raise AidsError(Problem(project.formats_at, f"unknown format '{unknown[0]}'", ", ".join(registry())))
    return list(project.formats)


def _can_print(formats: list[str]) -> None:
    """WeasyPrint imported, if a format needs it: on a machine without Pango, one line before anything is built."""
    if paged(formats):
        from ..render.pdf import weasyprint
        weasyprint()


def _ui_problems(langs: list[str], options: Options, summary: Summary) -> None:
    """The faults of the package's own catalogs in `langs`: warnings, or with --strict the build's failure."""
    for lang in langs:
        summary.catalog_problems.extend(ui.ui_problems(lang))
    if options.strict and summary.catalog_problems:
        raise AidsError([Problem(p.where, f"{p.message} (--strict)", p.expected) for p in summary.catalog_problems])


def _games(project: Project, options: Options, summary: Summary) -> list[Game]:
    """The chosen games that read; one whose game.yaml has errors is a failure of the build, the others go on."""
    if not project.game_ids():
        raise AidsError(Problem(Position(project.show(project.games_dir)), "no games to build: no folder here holds "
                                "a game.yaml", f"a folder per game, e.g. {project.show(project.games_dir)}/my-game/"
                                "game.yaml listing its aids"))
    games = []
    for name in select_game_ids(project, options.games):
        try:
            games.append(project.read_game(name))
        except AidsError as exc:
            if options.debug:
                raise
            summary.failed.append(exc)
            summary.skipped.append(f"{name}: not built, its game.yaml has errors")
    return games


def _game_aids(project: Project, game: Game, options: Options, summary: Summary, plan: Plan) -> list[Aid]:
    """The aids of `game` that read (recorded in the plan with those that do not: their errors go to `summary`)."""
    aids, broken = read_game_aids(project, game)
    plan.read.append((game, aids, broken))
    errors = [b.error for b in broken]
    if options.debug and errors:
        raise errors[0]  # with its traceback, as --debug asks
    summary.failed.extend(errors)
    summary.skipped.extend(f"{game.id}: an aid with errors was not built ({e.problems[0].where.path})"
                           for e in errors)
    if not aids and not errors:
        summary.skipped.append(f"{game.id}: no aids declared")
    elif aids and not any(aid.kind.standalone for aid in aids):
        summary.skipped.append(f"{game.id}: no aid to build on its own (a table is printed inside the "
                               "playsheet, card or booklet that embeds it: add one to game.yaml)")
    return aids


def unit_formats(formats: list[str], game: Game) -> tuple[str, ...]:
    """The formats of a game's aids: those asked for, and the variants of them for the print profiles its aids.yaml
    prints in (the press PDF with the PDF for a game printed for the press, the gray one for a monochrome printer;
    a booklet's press imposition with its imposition, there or wherever the press is asked for): as the formats
    declare them (render/formats.py, `variants`)."""
    return tuple(variants(formats, game.printing.profiles))


def chosen_languages(project: Project, wanted: list[str] | None) -> list[str]:
    """The languages named on the command line (each once), else the project's; an unknown one is an error."""
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
