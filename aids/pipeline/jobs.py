"""The worker side of a build: one job (an aid in one edition and language) from its sources to its bytes.

The one path from sources to rendered files: `run_job` for the build's own process, its forked workers and a
Dask cluster alike, and `render_aid` (the same path, not written) for the tests and the benchmarks. A job names
its project folder, ids and the digest of the sources it was planned from, so it runs in a forked worker (which
inherits what the build read), in a spawned one or on another machine (which reads the project itself); what a
process keeps of a project between jobs is keyed by that digest, so a long-lived worker never renders an
earlier state of the sources.
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import Edition, Game, Project, read_project
from ..errors import AidsError, DoesNotFit, Position, Problem
from ..folder import Folder
from ..kind import Aid
from ..kinds.reading import read_aids
from ..localize import making
from ..localize.changes import changelog, localize_changes
from ..localize.documents import ChangesDocument
from ..localize.localizer import Fallback, Localizer
from ..localize.rulings import RulingsDocument
from ..model.release import Change
from ..releases import release, rulings
from ..releases.wording import Wording
from ..render import parts, prepared
from ..render.printing import HOME
from ..render.rendered import Rendered
from ..site import navigation, release_pages
from ..site.publishing import Publishing
from ..translating import translators
from ..write.journal import CACHE
from . import pipeline
from .fingerprint import sources_digest
from .outputs import aid_path

PARTS = "booklet_parts"  # a booklet's parts in it (render/parts.py): no game is named so (an id has no "_")
PREPARED = "prepared_images"  # the figures prepared for print (render/prepared.py)


@dataclass(frozen=True, kw_only=True)
class Job:
    """One aid in one edition and language, in the formats that are stale (its fields named where it is made:
    several are strings, and a swapped pair would still type-check)."""
    root: str
    sources: str  # the digest of the project's sources it was planned from: what a worker keeps is keyed by it
    game: str
    edition: str | None
    aid: str
    lang: str
    formats: tuple[str, ...]
    debug: bool = False
    draft: bool = False
    site: bool = False  # its HTML page carries the web site's navigation (not in the pseudo-locale)
    unavailable: tuple[str, ...] = ()  # the languages its aid is not published in: not linked by that navigation
    marks: str = "bars"  # how it marks what changed since the game's last release (localize/changes.py)
    since: str | None = None  # the release its marks compare with (None: the latest)
    home: tuple[tuple[str, str], ...] = ()  # (suffix, sha256) of its home PDFs as the build cache has them fresh,
    # when they are not stale but another format prints from them (an imposition): read back, not laid out again

    @property
    def unit(self) -> pipeline.UnitKey:
        return pipeline.UnitKey(self.game, self.edition, self.aid)


@dataclass
class Result:
    job: Job
    files: dict[str, bytes] = field(default_factory=dict)  # path as shown (from the project root) -> bytes
    by_format: dict[str, dict[str, Any]] = field(default_factory=dict)  # format -> record of what it made
    fallbacks: list[Fallback] = field(default_factory=list)
    shown: dict[str, str] = field(default_factory=dict)  # its title and kind as its game's page shows them
    error: AidsError | None = None
    seconds: float = 0.0


# --- the worker side ---------------------------------------------------------------------------

class Loaded:
    """What one process has read of a project whose sources had the digest `sources`: games, their aids, a
    localizer per game and language."""

    def __init__(self, project: Project, sources: str):
        self.project, self.sources = project, sources
        self.games: dict[str, Game] = {}
        self.aids: dict[tuple[str, str], Aid] = {}
        self.game_aids: dict[str, list[Aid]] = {}  # game -> every aid of it that reads (parts too), in game.yaml order
        self.localizers: dict[tuple[str, str, bool], Localizer] = {}
        self.releases: dict[tuple[str, str | None], tuple[str | None, list[Change]] | AidsError] = {}
        self.reviews: dict[str, rulings.Review | AidsError] = {}  # game -> its rulings against its rules

    def game(self, game_id: str) -> Game:
        if game_id not in self.games:
            game = self.games[game_id] = self.project.read_game(game_id)
            aids, _ = read_aids(self.project, game)  # an aid with errors has no job (the plan left it out)
            self.aids.update(((game_id, aid.model.id), aid) for aid in aids)
            self.game_aids[game_id] = aids
        return self.games[game_id]

    def aid(self, game_id: str, aid_id: str) -> Aid:
        self.game(game_id)
        return self.aids[(game_id, aid_id)]

    def localizer(self, game: Game, lang: str, draft: bool = False) -> Localizer:
        if (game.id, lang, draft) not in self.localizers:
            self.localizers[(game.id, lang, draft)] = making.localizer(self.project, game, lang, draft)
        return self.localizers[(game.id, lang, draft)]

    def changes(self, game: Game, since: str | None = None) -> tuple[str | None, list[Change]]:
        """(the game's release `since` or its last, what changed since it), once per process: (None, []) if never
        released; AidsError, each time it is asked, for a damaged release or an aid in error."""
        if (game.id, since) not in self.releases:
            try:
                self.releases[(game.id, since)] = release.changes(self.project, game, since)
            except AidsError as exc:
                self.releases[(game.id, since)] = exc
        found = self.releases[(game.id, since)]
        if isinstance(found, AidsError):
            raise found
        return found

    def marks(self, game: Game, aid: Aid, lz: Localizer, mode: str, version: str | None = None,
              edition: Edition | None = None) -> ChangesDocument | None:
        """What the aid's page in `edition` marks as changed since the game's release `version` or its last
        (page_marks); raises AidsError for a game whose release or aids do not read."""
        since, changes = self.changes(game, version)
        wording = Wording(self.project, game, self.game_aids[game.id], lz, edition)
        return page_marks(aid, self.game_aids[game.id], since, changes, mode, lz,
                          lambda change: wording.change(change, since or ""))

    def rulings(self, game: Game, aid: Aid, lz: Localizer) -> RulingsDocument | None:
        """What the aid's page prints of the game's rulings (rulings.page_rulings); raises AidsError for a
        ruling naming a rule that does not exist."""
        if not game.rulings:
            return None
        if game.id not in self.reviews:
            try:
                self.reviews[game.id] = rulings.checked(self.project, game, self.game_aids[game.id])
            except AidsError as exc:
                self.reviews[game.id] = exc
        found = self.reviews[game.id]
        if isinstance(found, AidsError):
            raise found
        return rulings.page_rulings(game, aid, self.game_aids[game.id], found, lz)

    def changes_if_readable(self, game: Game) -> tuple[str | None, list[Change]]:
        """`changes`, or none for a game with a damaged release: its aids' jobs say why."""
        try:
            return self.changes(game)
        except AidsError:
            return None, []


_LOADED: dict[str, Loaded] = {}  # project root -> what this process read of it, for the digest of its sources


def page_marks(aid: Aid, game_aids: list[Aid], since: str | None, changes: list[Change], mode: str,
               lz: Localizer, said: Callable[[Change], str]) -> ChangesDocument | None:
    """What the page of `aid` marks as changed since the game's last release `since` in `lz`'s language, as
    localize_changes gives it: its own changes and its parts', the items citing a changed one, and a booklet's
    changelog (each change's item as `said` quotes it); None for a game never released. All it shows of the
    game's other aids (`game_aids`, every aid of the game) is in it: which rules it cites changed, and a
    changelog's titles, numbers and texts."""
    if not since:
        return None
    on_page = {aid.model.id, *(part.id for part in aid.kind.parts(aid.model))}
    log = changelog(changes, lz, navigation.aid_titles(game_aids, lz),
                    lambda other, anchor: f"#{anchor}" if other in on_page and anchor else None, said,
                    navigation.aid_numbers(game_aids, lz)) if aid.kind.changelog else None
    return localize_changes(since, pipeline.aid_changes(aid, changes), mode, lz, log,
                            pipeline.citing(aid, game_aids, changes, lz.lang))


def hold(project: Project, sources: str) -> Loaded:
    """A new state of `project` (its sources of digest `sources`), kept for the jobs of this process and for the
    workers it forks, which inherit it."""
    state = _LOADED[str(project.root)] = Loaded(project, sources)
    return state


def held(root: str) -> Loaded:
    """What this process holds of the project at `root` (after `hold`)."""
    return _LOADED[root]


def loaded(root: str, sources: str) -> Loaded:
    """What this process has read of the project at `root` when its sources had the digest `sources`. A process
    that read an earlier state (a long-lived Dask worker, between two builds) reads it again, and a job planned
    from other sources than those it finds fails rather than render them under the plan's digest."""
    found = _LOADED.get(root)
    if found is None or found.sources != sources:
        project = read_project(Path(root))
        now = sources_digest(project)
        if now != sources:
            raise AidsError(Problem(Position(project.show(project.root)), "the sources changed while they were "
                                    "built: this aid was not rendered from them", "aids build again"))
        found = _LOADED[root] = Loaded(project, now)
    return found


def render_aid(project: Project, game: Game, aid: Aid, lz: Localizer, edition: Edition | None,
               formats: Iterable[str]) -> dict[str, Rendered]:
    """One aid in one language as `aids build` renders it, by the build's own path (its page with the site's
    navigation and its change marks), not written: for the tests and the benchmarks."""
    state = Loaded(project, "")
    state.games[game.id] = game
    state.game_aids[game.id] = read_aids(project, game)[0]
    state.aids.update(((game.id, other.model.id), other) for other in state.game_aids[game.id])
    state.aids[(game.id, aid.model.id)] = aid
    state.localizers[(game.id, lz.lang, lz.draft)] = lz
    publishing = Publishing(project.min_complete, lambda g, lang: state.localizer(g, lang).catalog)
    found = rendered(state, game, aid, edition, lz, list(formats), publishing.unavailable(game, aid, project.languages))
    return {suffix: item for by_suffix in found.values() for suffix, item in by_suffix.items()}


def rendered(state: Loaded, game: Game, aid: Aid, edition: Edition | None, lz: Localizer, formats: list[str],
             unavailable: tuple[str, ...] | None, marks_style: str = "bars", since: str | None = None,
             printed_before: Callable[[str], dict[str, bytes] | None] | None = None) -> dict[str, dict[str, Rendered]]:
    """The one path from an aid read to its bytes: localized with its change marks, then rendered in each format
    (format -> suffix -> rendered); `unavailable`: the languages its page's navigation does not link (None: a
    page without the site's navigation)."""
    project = state.project
    nav = navigation.aid_navigation(project, game, edition, aid.model.id, lz, unavailable) if unavailable is not None \
        else None
    if nav is not None:  # the version switcher and the old numbers of the archive (aids/site/archive_pages.py)
        from ..site.archive_pages import current_aid_versions
        nav.update(current_aid_versions(project, game, edition, aid.model.id, lz, state.game_aids.get(game.id, [])))
        # the same aid since each release of its game (aids/site/since.py), and its rules' history
        nav["since_versions"] = release_pages.aid_versions(game, edition, aid.model.id, lz.lang)
        nav["history"] = release_pages.aid_history_link(game, edition, aid.model.id, lz.lang)
    marks = state.marks(game, aid, lz, marks_style, since, edition)
    doc = pipeline.document(game, aid, lz, edition, nav, marks, state.rulings(game, aid, lz), printed_before)
    return {name: pipeline.render(doc, [name]) for name in formats}


def blamed(project: Project, game: Game, aid: Aid, exc: DoesNotFit) -> AidsError:
    """A fitted aid that does not fit in a language: its translations over their budget named first (catalog and
    line, msgctxt, by how much), then where it does not fit; `exc` as it is when none is over its budget."""
    over = translators.over_budget(project, game, aid, exc.lang) if exc.lang else []
    return DoesNotFit([*over, *exc.problems], exc.lang) if over else exc


def home_read_back(project: Project, job: Job) -> Callable[[str], dict[str, bytes] | None]:
    """What reads back the job's home PDFs from the output folder (`job.home`), by their names as aids makes them
    (never a name found in build/), each only if it holds the very bytes the build cache recorded: None when one
    does not (it is printed again), or for another profile."""
    def read(profile: str) -> dict[str, bytes] | None:
        if profile != HOME or not job.home:
            return None
        folder = Folder(project.output, project.show(project.output))
        found = {}
        for suffix, sha256 in job.home:
            try:
                data = folder.read(aid_path(job.game, job.edition, job.lang, job.aid, suffix))
            except AidsError:  # a link, or no regular file
                return None
            if data is None or hashlib.sha256(data).hexdigest() != sha256:
                return None
            found[suffix] = data
        return found
    return read


def run_job(job: Job) -> Result:
    """Render one job: in this process, a worker process or a Dask worker."""
    started = time.perf_counter()
    state: Loaded | None = None
    try:
        state = loaded(job.root, job.sources)
        project = state.project
        game = state.game(job.game)
        aid = state.aid(job.game, job.aid)
        edition = next(e for e in game.editions if e.id == job.edition) if job.edition else None
        lz = state.localizer(game, job.lang, job.draft)
        lz.recent()
        output = Folder(project.output, project.show(project.output)) / CACHE
        with parts.cached(output / PARTS), prepared.cached(output / PREPARED):
            made = rendered(state, game, aid, edition, lz, list(job.formats), job.unavailable if job.site else None,
                            job.marks, job.since, home_read_back(project, job))
        result = Result(job, shown={"title": navigation.aid_title(aid, lz), "kind": aid.kind.display_name(lz)})
        folder = pipeline.output_dir(project, game, edition, job.lang)
        for name in job.formats:
            files = []
            rendered_now = made[name]
            for suffix, item in rendered_now.items():
                path = folder / f"{aid.model.id}{suffix}"
                result.files[project.show(path)] = item.data
                files.append(project.show(path))
            result.by_format[name] = pipeline.made(files, rendered_now)
        result.fallbacks = lz.recent()
    except AidsError as exc:
        if job.debug:
            raise
        result = Result(job, error=blamed(state.project, state.game(job.game), state.aid(job.game, job.aid), exc)
                        if isinstance(exc, DoesNotFit) and state is not None else exc)
    except Exception as exc:  # a bug of aids: this aid fails, the others are still built
        if job.debug or state is None:
            raise
        known = state.aids.get((job.game, job.aid))
        path = known.path if known else state.project.games_dir / job.game / job.aid
        result = Result(job, error=pipeline.internal_error(state.project, path, exc))
    result.seconds = time.perf_counter() - started
    return result
