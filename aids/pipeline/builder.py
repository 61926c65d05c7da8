"""`aids build`: the plan's units cut into jobs, run on every core (or a Dask cluster), skipped when
nothing they are made of changed, and written an aid at a time.

    plan = pipeline.plan_build(...)          # every aid read and linked, once, in this process
    jobs = one per aid x edition x language  # each with a digest of what it is made of
    stale jobs -> executor -> results        # a worker renders one job: jobs.run_job, the one path
    an aid's results -> write_all            # when all its languages are in: those that rendered, all or none
    search.index(publications)               # then each publication's search index, if its pages changed

A job (aids/pipeline/jobs.py) names its project folder, ids and the digest of the sources it was planned from, so it
runs in a forked worker (which inherits what this process read), in a spawned one or on another machine (which
reads the project itself, and fails the job if it finds other sources).
"""
from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from ..config import Project
from ..errors import AidsError, Position, Problem
from ..localize.localizer import Fallback, Localizer
from ..model.text import Text
from ..releases import archive, release
from ..render.formats import Pdf
from ..site import since, site
from ..write import search, stamp
from ..write.cache import Cache, Record
from ..write.journal import recover, write_all
from . import cluster, outputs, pipeline, shards, tournament
from .fingerprint import Fingerprints, sources_digest, tool_digest
from .jobs import Job, Loaded, Result, held, hold, run_job
from .pipeline import Built, Options, Summary, Unit, UnitKey
from .pool import executor, slots
from .progress import Progress, Watch
from .refused import refused

WEIGHT = {"booklet": 8, "playsheet": 4, "card": 2}  # a first guess at a job's cost, before it was timed


# --- the parent side ---------------------------------------------------------------------------

def build(project: Project, options: Options = Options(), progress: Progress | None = None) -> Summary:
    """Build every aid of the chosen games in every chosen language, edition and format.

    An aid is rendered in all its stale languages before anything of it is written, so an aid that
    fails leaves its previous outputs as they were; the other aids (and games) are still built.
    """
    started = time.monotonic()
    options = replace(options, formats=pipeline.chosen_formats(project, options.formats))  # aids.yaml's, if not asked
    if options.scheduler:  # a scheduler that is not there fails before anything is read or written
        cluster.check(options.scheduler)
    summary = Summary()
    summary.repaired += recover(project.output)  # a build stopped halfway: its aids are finished or left as they were
    sources = sources_digest(project)  # before the plan reads them: a worker checks that it reads the same
    whole = whole_key(options, sources)
    done = _as_stamped(project, options, summary, whole)
    if done is None:
        done = summary
        covered = _built(project, options, progress, summary, sources)
        if covered and not summary.failed and not summary.catalog_problems and not options.partial:
            stamp.record(project.output, whole, report_of(summary))  # the next build of these sources: nothing to do
    done.seconds = time.monotonic() - started
    return done


def _built(project: Project, options: Options, progress: Progress | None, summary: Summary, sources: str) -> bool:
    """The whole way, into `summary`: every aid planned, the stale ones rendered and written, the site and index.
    Whether every file it read is one the key of the build's stamp covers (`sources`)."""
    plan = pipeline.plan_build(project, options, summary)
    for game, _, _ in plan.read if options.since else []:  # a version never released: the versions it has
        release.require_release(project, game, options.since or "")
    cache, prints = Cache(project.output), Fingerprints(project)
    units, shard = shards.select(plan.units, options.shard, shards.recorded(cache, plan.langs, WEIGHT))
    summary.skipped += [shard] if shard else []  # what this shard builds of the whole
    state = hold(project, sources)  # forked workers inherit what was read here
    for unit in units:
        state.games[unit.game.id] = unit.game
        state.aids[(unit.game.id, unit.aid.model.id)] = unit.aid
    state.game_aids.update((game.id, aids) for game, aids, _ in plan.read)  # what change marks draw on
    run = _Run(project, options, plan, units, cache, state)
    todo = [job for unit in units for lang in plan.langs if (job := run.job(unit, lang, prints, sources, summary))]
    run.render(todo, progress)
    for unit in units:
        run.merge(unit, summary)
    _conclude(project, options, plan, units, summary, cache, run.publishing, run.digests)
    return prints.covered(project)


class _Run:
    """The jobs of one build: which are stale, their results as they come, each aid written when all its
    languages are in, and what each unit adds to the summary, in plan order."""

    def __init__(self, project: Project, options: Options, plan: pipeline.Plan, units: list[Unit], cache: Cache,
                 state: Loaded):
        self.project, self.options, self.plan, self.units, self.cache, self.state = \
            project, options, plan, units, cache, state
        self.threshold = options.min_complete if options.min_complete is not None else project.min_complete
        self.publishing = site.Publishing(self.threshold,
                                          lambda game, lang: state.localizer(game, lang, options.draft).catalog)
        self.known: dict[tuple[UnitKey, str], tuple[Record, ...]] = {}  # (unit, lang) -> per format: fresh records
        self.digests: dict[tuple[UnitKey, str], str] = {}  # (unit, lang) -> what its outputs are made of
        self.below: set[tuple[UnitKey, str]] = set()  # (unit, language) not built: too little of it translated
        self.by_unit: dict[UnitKey, list[Result]] = {}
        self.parts: dict[UnitKey, Summary] = {}  # unit -> what it added to the summary, merged in plan order

    def job(self, unit: Unit, lang: str, prints: Fingerprints, sources: str, summary: Summary) -> Job | None:
        """The job of `unit` in `lang` if any of its formats is stale; None when all are up to date (or it is not
        built in `lang`: too little translated)."""
        options, cache = self.options, self.cache
        if not self.publishing.published(unit.game, unit.aid, lang):
            share = self.publishing.share(unit.game, unit.aid, lang)
            summary.skipped.append(
                f"{unit.game.id}/{unit.aid.model.id} {lang}: {share:.1f} % translated, below the threshold of "
                f"{self.threshold:g} % (not built; any earlier files of it are stale)")
            self.below.add((unit.key, lang))
            self.known[(unit.key, lang)] = ()
            return None
        # its page links the languages it is published in: a change of those is a change of the page
        unavailable = () if options.pseudo else self.publishing.unavailable(unit.game, unit.aid,
                                                                              self.project.languages)
        lz = self.state.localizer(unit.game, lang, options.draft)
        digest = prints.digest(unit.game, unit.aid, unit.edition, lz, options.marks,
                               _marks_shown(self.state, unit, lz, options.marks, options.since))
        if unavailable:
            digest = hashlib.sha256(f"{digest}\0unpublished\0{' '.join(unavailable)}".encode()).hexdigest()
        if not options.pseudo:  # its page's version switcher and old numbers (aids/site/archive_pages.py)
            digest = archive.page_digest(digest, self.project, unit, lz, self.state.game_aids.get(unit.game.id, []))
        self.digests[(unit.key, lang)] = digest
        stale = tuple(f for f in unit.formats if options.force or not cache.fresh(
            unit.game.id, unit.aid.model.id, key(unit, lang, f), digest) or self.refusable(unit, lang, f))
        self.known[(unit.key, lang)] = tuple(cache.get(unit.game.id, unit.aid.model.id, key(unit, lang, f)) or {}
                                      for f in unit.formats if f not in stale)
        if not stale:  # up to date: whatever failed in between, its files are the current ones
            outputs.mark_built(cache, unit.game.id, unit.aid.model.id, edition_of(unit), lang)
            return None
        return Job(root=str(self.project.root), sources=sources, game=unit.game.id, edition=edition_of(unit),
                   aid=unit.aid.model.id, lang=lang, formats=stale, debug=options.debug, draft=options.draft,
                   site=not options.pseudo, unavailable=unavailable, marks=options.marks, since=options.since,
                   home=() if options.force or Pdf.name in stale else outputs.fresh_files(
                       cache, unit.game.id, unit.aid.model.id, edition_of(unit), lang, key(unit, lang, Pdf.name),
                       digest))

    def refusable(self, unit: Unit, lang: str, fmt: str) -> bool:
        """Whether what an earlier build wrote is what this one refuses (text that fell back, with --strict or
        `fallbacks: fail`; a preflight's finding, with --strict): made again to be refused, not passed as up to date."""
        record = self.cache.get(unit.game.id, unit.aid.model.id, key(unit, lang, fmt)) or {}
        strict = self.options.strict
        return bool((strict or self.project.fallbacks == "fail") and record.get("fallbacks")
                    or strict and record.get("preflight"))

    def render(self, todo: list[Job], progress: Progress | None) -> None:
        """Every job run, each aid written as soon as all its languages are in."""
        units = {unit.key: unit for unit in self.units}
        waiting = Counter(job.unit for job in todo)  # unit -> its jobs not yet done
        # progress counts units (an aid in an edition, all its languages): one step when its files are written
        watch = Watch(progress, len(waiting), job_label)
        for job, result in _run(todo, self.options, self.cache, watch):
            self.by_unit.setdefault(job.unit, []).append(result)
            waiting[job.unit] -= 1
            watch.rendered(job)
            if not waiting[job.unit]:
                unit = units[job.unit]
                part = self.parts[unit.key] = self.finish(unit)
                watch.written(unit_label(unit, [lang for lang in self.plan.langs
                                                if any(r.job.lang == lang for r in self.by_unit[unit.key])]),
                              bool(part.failed))

    def finish(self, unit: Unit) -> Summary:
        """`unit` written (its stale languages), and what it adds to the summary."""
        done = sorted(self.by_unit.get(unit.key, []), key=lambda r: self.plan.langs.index(r.job.lang))
        part = Summary()
        if _finish(self.project, unit, done, self.options, part, self.cache, self.digests):
            part.unchanged += sum(1 for lang in self.plan.langs
                                  if (unit.key, lang) not in self.below and not any(r.job.lang == lang for r in done))
        return part

    def merge(self, unit: Unit, summary: Summary) -> None:
        """What `unit` adds to `summary`: written now, or before (nothing of it stale); its fallbacks, from its
        results or from the cache."""
        part = self.parts[unit.key] if unit.key in self.parts else self.finish(unit)
        summary.built += part.built
        summary.skipped += part.skipped
        summary.failed += part.failed
        summary.unchanged += part.unchanged
        done = self.by_unit.get(unit.key, [])
        for lang in self.plan.langs:
            fresh = next((r for r in done if r.job.lang == lang), None)
            known = self.known[(unit.key, lang)]
            fallbacks = fresh.fallbacks if fresh else [_fallback(f) for f in known[0].get("fallbacks", [])] \
                if known else []
            _note_fallbacks(summary, unit.game.id, lang, fallbacks)


def _conclude(project: Project, options: Options, plan: pipeline.Plan, units: list[Unit], summary: Summary,
              cache: Cache, publishing: site.Publishing, digests: dict[tuple[UnitKey, str], str]) -> None:
    """After the aids: the bilingual aids and packets, the build cache saved, the web site, the files of aids gone
    removed, the search index."""
    for game, aids, broken in plan.read:  # an aid that does not read keeps its last good files, marked
        outputs.mark_broken(cache, game, broken, aids, plan.langs)
    if "pdf" in plan.formats and not options.pseudo and not options.partial and not options.shard:
        def report(written: list[str], failed: list[AidsError]) -> None:
            summary.tournament += written
            summary.failed += failed
        tournament.run(project, held(str(project.root)), cache, plan, units, digests, options, report)
    cache.save()
    summary.repaired += cache.notes
    if site.wanted(project, options, plan.formats):
        state = held(str(project.root))
        published = archive.publish(project, [game for game, _, _ in plan.read], "pdf" in plan.formats)  # archive.py
        summary.skipped += published.notes
        summary.site = site.publish(project, plan.units, lambda game, lang: state.localizer(game, lang), publishing,
                                    cache, summary.skipped, state.changes_if_readable,
                                    {game.id: broken for game, _, broken in plan.read}) + published.written
        summary.site += since.publish(project, plan.units, state, publishing, summary.skipped)
    for game, aids, broken in plan.read:  # an aid gone from its game.yaml: its files go too
        summary.removed += outputs.remove_gone(project, game, aids, broken)
    _index(project, units, options, summary)


def _index(project: Project, units: list[Unit], options: Options, summary: Summary) -> None:
    """The search index of every publication (a game or an edition) of the plan, over all its pages; not on a
    shard, which has only part of them, nor a partial build (serve's first part: the complete build makes it)."""
    if options.partial:
        return
    if options.shard:
        summary.skipped.append("search index: not made by a shard (a build of the merged output folder makes it)")
        return
    publications = {pipeline.output_dir(project, u.game, u.edition, "-").parent for u in units}
    try:
        search.index(project.output, publications, project.languages, summary.repaired)
    except AidsError as exc:
        if options.debug:
            raise
        summary.failed.append(exc)
    except OSError as exc:  # a folder aids may not write to, a full disk: the previous index stays
        summary.failed.append(AidsError(Problem(Position(project.show(project.output)), "cannot write the search "
                                                f"index: {exc.strerror or exc} ({exc.filename})",
                                                "an output folder aids may write to")))


def _marks_shown(state: Loaded, unit: Unit, lz: Localizer, mode: str, since: str | None = None) -> Any:
    """What a job's page will mark as changed (Loaded.marks, against `since` or the last release) and the rulings it
    prints (Loaded.rulings), or the error its job will fail with."""
    try:
        marks = state.marks(unit.game, unit.aid, lz, mode, since, unit.edition)
        found = state.rulings(unit.game, unit.aid, lz)
        return [marks, found] if found else marks
    except AidsError as exc:
        return f"error: {exc}"


def key(unit: Unit, lang: str, fmt: str) -> str:
    return f"{unit.edition.id if unit.edition else '-'}/{lang}/{fmt}"


def edition_of(unit: Unit) -> str | None:
    return unit.edition.id if unit.edition else None


def unit_label(unit: Unit, langs: list[str]) -> str:
    """`game [edition] aid pl en ru`: a unit and the languages rendered of it, as the progress bar shows it."""
    return " ".join([unit.game.id, *([f"[{unit.edition.id}]"] if unit.edition else []), unit.aid.model.id, *langs])


def job_label(job: Job) -> str:
    """`game [edition] aid lang`: a job as progress names it while it renders."""
    return " ".join([job.game, *([f"[{job.edition}]"] if job.edition else []), job.aid, job.lang])


def _run(jobs: list[Job], options: Options, cache: Cache, watch: Watch) -> Iterator[tuple[Job, Result]]:
    """(job, result) as each job ends, the longest started first, as the last build timed them; with a pool,
    the other jobs go on rendering while the caller writes what is done. `watch` learns the order and costs."""
    def cost(job: Job) -> float:
        record = cache.get(job.game, job.aid, f"{job.edition or '-'}/{job.lang}/{job.formats[0]}") or {}
        return record.get("seconds") or WEIGHT.get(held(job.root).aid(job.game, job.aid).kind.name, 1)
    if not jobs:
        return
    costs = {job: cost(job) for job in jobs}
    jobs = sorted(jobs, key=costs.__getitem__, reverse=True)
    pool = executor(options, len(jobs))
    watch.plan({job: costs[job] for job in jobs}, slots(pool))
    if pool is None:
        for job in jobs:
            yield job, run_job(job)
        return
    with pool:
        futures = {pool.submit(run_job, job): job for job in jobs}
        for future in cf.as_completed(futures):
            yield futures[future], future.result()


def _finish(project: Project, unit: Unit, results: list[Result], options: Options, summary: Summary,
            cache: Cache, digests: dict[tuple[UnitKey, str], str]) -> bool:
    """Write one aid's new files, those of every language that rendered, all or none of them: a language that
    failed (a Russian text too long for the card), or that --strict refuses, keeps its previous files, and fails
    alone. False when its files could not be written."""
    errors = {r.job.lang: r.error for r in results if r.error}
    errors = {**refused(project, unit, results, options.strict), **errors}
    if errors:
        summary.failed.extend(dict.fromkeys(errors.values()))
        summary.skipped.append(f"{unit.game.id}/{unit.aid.model.id} {' '.join(errors)}: not written, previous "
                               "outputs kept")
        _failed(cache, unit, [r for r in results if r.job.lang in errors], errors)
        results = [r for r in results if r.job.lang not in errors]
    files = {project.root / name: data for r in results for name, data in r.files.items()}
    started = time.perf_counter()
    try:
        write_all(files, project.output)
    except AidsError as exc:  # a folder aids may not write to, a full disk, a link: this aid stays as it was
        what = f"the files of '{unit.aid.model.id}' not written"
        summary.failed.append(AidsError([Problem(p.where, f"{what}: {p.message}", p.expected) for p in exc.problems]))
        _failed(cache, unit, results, {r.job.lang: summary.failed[-1] for r in results})
        return False
    writing = (time.perf_counter() - started) / max(len(results), 1)  # shared out: the aid's sum is exact
    for r in results:
        _recorded(project, unit, r, cache, digests[(unit.key, r.job.lang)])
        summary.built.append(Built.of(unit.game.id, r.job.edition, r.job.lang, unit.aid.model.id,
                                      list(r.by_format.values()), r.seconds + writing))
    return True


def _recorded(project: Project, unit: Unit, result: Result, cache: Cache, digest: str) -> None:
    """The cache records of one language of an aid just written, one a format."""
    fallbacks = [_stored(fb) for fb in result.fallbacks]
    outputs.mark_built(cache, unit.game.id, unit.aid.model.id, edition_of(unit), result.job.lang)
    for fmt, made in result.by_format.items():
        game, aid, k = unit.game.id, unit.aid.model.id, key(unit, result.job.lang, fmt)
        # what the last build wrote and this one no longer makes (the copy of an image replaced or gone)
        held = [name for name in (cache.get(game, aid, k) or {}).get("outputs", {}) if cache.holds(game, aid, k, name)]
        cache.put(game, aid, k, {**made, "digest": digest, "fallbacks": fallbacks, "seconds": result.seconds,
                                 "source": project.show(unit.aid.path), **result.shown},
                  [project.root / name for name in made["files"]])
        for name in set(held) - set((cache.get(game, aid, k) or {}).get("outputs", {})):
            try:
                cache.folder.remove(name)  # inside build/, as this aid wrote it: never a link's target
            except AidsError:  # a file aids may not remove: left, as a file of no aid
                pass


def _failed(cache: Cache, unit: Unit, results: list[Result], errors: dict[str, AidsError]) -> None:
    """Each language of a unit not written: its last good files are kept, marked with its error."""
    for r in results:
        outputs.mark_failed(cache, unit.game.id, unit.aid.model.id, edition_of(unit), r.job.lang,
                            outputs.one_line(errors[r.job.lang]))


def _note_fallbacks(summary: Summary, game: str, lang: str, fallbacks: Iterable[Fallback]) -> None:
    seen = summary.fallbacks.setdefault((game, lang), [])
    keys = {(fb.text.context, fb.text.msgid) for fb in seen}
    for fb in fallbacks:
        if (fb.text.context, fb.text.msgid) not in keys:
            keys.add((fb.text.context, fb.text.msgid))
            seen.append(fb)
    if not seen:
        del summary.fallbacks[(game, lang)]


def _stored(fb: Fallback) -> list[Any]:
    w = fb.text.where
    return [w.path, w.line, w.col, fb.text.context, fb.text.msgid, fb.reason]


def _stored_right(stored: Any) -> bool:
    """A fallback as `_stored` writes it."""
    return (isinstance(stored, list) and len(stored) == 6 and isinstance(stored[0], str) and type(stored[1]) is int
            and type(stored[2]) is int and all(isinstance(t, str) for t in stored[3:]))


def _fallback(stored: list[Any]) -> Fallback:
    path, line, col, context, msgid, reason = stored
    return Fallback(Text(msgid, context, "", Position(path, line, col)), reason)


def _as_stamped(project: Project, options: Options, summary: Summary, whole: str) -> Summary | None:
    """The summary of the very build the output folder's stamp records (write/stamp.py), when this one is it:
    nothing to do. Otherwise the stamp goes, before anything is written."""
    if not summary.repaired and not options.force and (same := replayed(stamp.unchanged(project.output, whole))):
        return same
    stamp.forget(project.output)
    return None


def whole_key(options: Options, sources: str) -> str:
    """What a whole build is made of: the tool, every source and catalog (`sources`), and what it was asked for
    (how it runs aside: jobs, a scheduler, --debug)."""
    asked = {"games": options.games, "langs": options.langs, "formats": list(options.formats or ()),
             "editions": options.editions, "strict": options.strict, "shard": options.shard,
             "min_complete": options.min_complete, "draft": options.draft, "pseudo": options.pseudo,
             "marks": options.marks, "partial": options.partial,
             **({"since": options.since} if options.since else {})}
    return hashlib.sha256(f"{tool_digest()}\0{sources}\0{json.dumps(asked, sort_keys=True)}".encode()).hexdigest()


def report_of(summary: Summary) -> dict[str, Any]:
    """What the build that ended with `summary` reports again when asked once more with nothing changed."""
    return {"unchanged": summary.unchanged + len(summary.built), "skipped": list(summary.skipped),
            "fallbacks": [[game, lang, [_stored(fb) for fb in found]]
                          for (game, lang), found in sorted(summary.fallbacks.items())]}


def replayed(report: Any) -> Summary | None:
    """The summary of a build with nothing to do, from its stamp's `report_of` (None: not one aids wrote)."""
    try:
        if not isinstance(report, dict) or type(report["unchanged"]) is not int:
            return None
        skipped = [line for line in report["skipped"] if isinstance(line, str)]
        if len(skipped) != len(report["skipped"]) or not all(
                isinstance(game, str) and isinstance(lang, str) and all(map(_stored_right, found))
                for game, lang, found in report["fallbacks"]):
            return None
        fallbacks = {(game, lang): [_fallback(fb) for fb in found] for game, lang, found in report["fallbacks"]}
    except (KeyError, TypeError, ValueError):
        return None
    return Summary(skipped=skipped, fallbacks=fallbacks, unchanged=report["unchanged"])


def parse_shard(text: str) -> tuple[int, int]:
    """`K/N` with 1 <= K <= N."""
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError:
        k = n = 0
    if not 1 <= k <= n:
        raise AidsError(Problem(Position("command line"), f"--shard {text}", "K/N with 1 <= K <= N, e.g. 2/4"))
    return k, n

