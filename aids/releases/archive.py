"""The archive of releases on the web site: every release recorded with a snapshot (aids/releases/snapshot.py) rebuilt
from it and published beside the current state.

    build/<game>/<version>/[<edition>/]<lang>/<aid>.html   an aid's page as released, with the site's navigation
    build/<game>/<version>/[<edition>/]<lang>/<aid>.pdf    its PDF as released
    build/<game>/<version>/<lang>/index.html               the release's page: its aids, their files
    build/<game>/<version>/<lang>/numbers.html             the numbers that moved in it (since the release before)

Each output is rebuilt from the snapshot by the build's own path (jobs.rendered), its change marks those of a
build right after `aids release` (none: the sources are the release). Its sha256 is compared with the one
`aids release` recorded (outputs.sha256; the page's without the site's navigation, which grows with every later
release); a difference (an upgrade of aids or of a library changed the rendering) is reported, and a file placed
at kept/<path> in the snapshot is published instead of the rebuilt one. A PDF whose current output already holds
the released bytes is copied, not rendered. What is written is cached by the digest of everything it is made of
(build/.aids-cache/archive/<game>/<version>.json), so a build with nothing new renders nothing.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import Edition, Game, Project
from ..errors import AidsError, Position, Problem
from ..folder import Folder
from ..kind import Aid
from ..localize.localizer import Localizer
from ..model.release import Change
from ..pipeline import pipeline
from ..pipeline.fingerprint import tool_digest
from ..pipeline.jobs import Loaded, rendered
from ..pipeline.outputs import aid_path
from ..site import archive_pages
from ..site.archive_pages import current_aid_versions, editions_of
from ..site.navigation import site_games
from ..site.publishing import Publishing
from ..write.journal import CACHE, write_all
from . import snapshot
from .release import check_version, versions

FORMATS = ("html", "pdf")  # what the archive keeps of each aid: its page and its PDF


class Released(Loaded):
    """A release as its snapshot makes it, for the build's own path (jobs.rendered): its game, aids and catalogs;
    its marks those of a build right after `aids release` (the sources are the release: none)."""

    def __init__(self, project: Project, game: Game, version: str):
        super().__init__(snapshot.project_of(project, game, version), "")
        self.version = version
        self.game(game.id)

    def changes(self, game: Game, since: str | None = None) -> tuple[str | None, list[Change]]:
        return self.version, []

    def standalone(self, game_id: str) -> list[Aid]:
        return [aid for aid in self.game_aids[game_id] if aid.kind.standalone]


def release_outputs(project: Project, game: Game, version: str) -> dict[str, bytes]:
    """Every output of a release as `aids release` records its digest: path in the version's folder -> bytes
    (an aid's page without the site's navigation, its PDF), in every language it is published in."""
    state = Released(project, game, version)
    snap = state.games[game.id]
    publishing = Publishing(project.min_complete, lambda g, lang: state.localizer(g, lang).catalog)
    out: dict[str, bytes] = {}
    for aid in state.standalone(game.id):
        for edition in editions_of(snap):
            for lang in project.languages:
                if not publishing.published(snap, aid, lang):
                    continue
                made = rendered(state, snap, aid, edition, state.localizer(snap, lang), list(FORMATS), None)
                for by_suffix in made.values():
                    for suffix, item in by_suffix.items():
                        out[_name_of(edition.id if edition else None, lang, aid.model.id, suffix)] = item.data
    return out


# --- the build of the archive ---------------------------------------------------------------------

@dataclass
class Outcome:
    written: list[str] = field(default_factory=list)  # paths as shown
    notes: list[str] = field(default_factory=list)  # a rebuilt output that differs from the release, ...


def publish(project: Project, games: Iterable[Game], pdf: bool = True) -> Outcome:
    """The archive of every game of the site: each release with a snapshot, its stale outputs rebuilt; its PDFs
    only with `pdf` (a build that makes no current PDF, `--format html` or the preview, makes no archived one)."""
    outcome = Outcome()
    for game in (g for g in games if g.id in site_games(project) and _built(project, g)):
        known = versions(game)
        for version in known:
            try:
                if not snapshot.recorded(game, version):
                    outcome.notes.append(f"archive: {game.id} {version} not published, recorded without a snapshot "
                                         f"(aids release {version} --game {game.id} --snapshot, while its sources "
                                         "are as released)")
                    continue
                snapshot.check(game, version)  # a link in it (kept/ -> elsewhere) is refused, never published
                _publish_release(project, game, version, outcome, pdf)
            except AidsError as exc:
                outcome.notes.append(f"archive: {game.id} {version} not published: {exc}")
    return outcome


def _built(project: Project, game: Game) -> bool:
    """Whether the game has a page built now (no archive of a game nothing of which was built: a build that
    failed writes nothing)."""
    return any(path.name != "index.html" for ed in editions_of(game) for lang in project.languages
               for path in (project.output / aid_path(game.id, ed.id if ed else None, lang, "-")).parent.glob("*.html"))


def _snapshot_digest(project: Project, game: Game, version: str) -> str:
    """What a release's pages are made from: aids, the release's snapshot (its files' digests, no link followed),
    and the project's own settings and theme as they are now (snapshot.project_of: aids.yaml's languages, print
    settings, date styles; the theme of a game that has none of its own)."""
    h = hashlib.sha256(tool_digest().encode())
    for name, digest in sorted(snapshot.digests(game, version).items()):
        h.update(name.encode() + b"\0" + bytes.fromhex(digest))
    for path in [project.root / "aids.yaml", *(project.theme.files if project.theme else ())]:
        data = path.read_bytes() if path.is_file() else b""
        h.update(f"project:{project.show(path)}".encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


class _Record:
    """The archive's cache of one release: key -> {digest, files: {path: sha256}}."""

    def __init__(self, project: Project, game_id: str, version: str):
        self.folder = Folder(project.output, project.output.name)
        self.name = f"{CACHE}/archive/{game_id}/{version}.json"
        try:
            data = json.loads(self.folder.read(self.name) or b"{}") if self.folder.is_file(self.name) else {}
        except (AidsError, ValueError):
            data = {}
        self.entries: dict[str, Any] = data if isinstance(data, dict) else {}
        self.changed = False

    def fresh(self, key: str, digest: str) -> bool:
        entry = self.entries.get(key)
        if not isinstance(entry, dict) or entry.get("digest") != digest or not isinstance(entry.get("files"), dict):
            return False
        for name, sha in entry["files"].items():
            try:
                data = self.folder.read(name) if self.folder.is_file(name) else None
            except AidsError:
                data = None
            if data is None or hashlib.sha256(data).hexdigest() != sha:
                return False
        return True

    def put(self, key: str, digest: str, files: dict[str, bytes]) -> None:
        self.entries[key] = {"digest": digest, "files": {n: hashlib.sha256(d).hexdigest() for n, d in files.items()}}
        self.changed = True

    def save(self) -> None:
        if self.changed:
            self.folder.write(self.name, json.dumps(self.entries, sort_keys=True, indent=1).encode("utf-8"))


def _publish_release(project: Project, game: Game, version: str, outcome: Outcome, pdf: bool) -> None:
    state = Released(project, game, version)
    snap = state.games[game.id]
    site = archive_pages.SiteOf(project, game, version)
    record = _Record(project, game.id, version)
    base = _snapshot_digest(project, game, version)
    expected = snapshot.read_digests(game, version)
    files: dict[str, bytes] = {}
    for aid in state.standalone(game.id):
        for edition in editions_of(snap):
            for lang in site.languages(aid):
                lz = state.localizer(snap, lang)
                nav = site.aid_nav(aid, edition, lz)
                key = f"{edition.id if edition else '-'}/{lang}/{aid.model.id}"
                digest = _digest(base, key, nav)
                if not record.fresh(key, digest):
                    made = _aid_page(project, state, game, aid, edition, lz, nav, expected, outcome)
                    record.put(key, digest, made)
                    files.update(made)
                pdf_digest = _digest(base, f"{key}/pdf", {})  # a PDF shows no navigation
                if pdf and not record.fresh(f"{key}/pdf", pdf_digest):
                    made = _aid_pdfs(project, state, game, aid, edition, lz, expected, outcome)
                    record.put(f"{key}/pdf", pdf_digest, made)
                    files.update(made)
    for name, data in site.pages().items():
        key = f"page/{name}"
        digest = hashlib.sha256(data).hexdigest()
        if not record.fresh(key, digest):
            record.put(key, digest, {name: data})
            files[name] = data
    files = {name: data for name, data in files.items() if not _holds(project, name, data)}
    if files:
        write_all({project.output / name: data for name, data in files.items()}, project.output)
        outcome.written += [project.show(project.output / name) for name in sorted(files)]
    record.save()


def _holds(project: Project, name: str, data: bytes) -> bool:
    """Whether the output folder already holds these bytes at `name` (nothing to write, nor to report)."""
    folder = Folder(project.output, project.output.name)
    try:
        return folder.is_file(name) and folder.read(name) == data
    except AidsError:
        return False


def _digest(base: str, key: str, nav: dict[str, Any]) -> str:
    return hashlib.sha256(f"{base}\0{key}\0{json.dumps(nav, sort_keys=True, default=str)}".encode()).hexdigest()


def _aid_page(project: Project, state: Released, game: Game, aid: Aid, edition: Edition | None, lz: Localizer,
              nav: dict[str, Any], expected: dict[str, str], outcome: Outcome) -> dict[str, bytes]:
    """An aid of a release in one edition and language: its page with the archive's navigation, checked against
    its digest as released without the site's navigation. `game`: as it is now."""
    released = state.games[game.id]  # the game as released (`game`: as it is now, holding the snapshot)
    marks = state.marks(released, aid, lz, "bars", edition=edition)
    doc = pipeline.document(released, aid, lz, edition, nav, marks)
    # its search box searches the current version's index (the game's or edition's pagefind/)
    ed = edition.id if edition else None
    doc.context["search_root"] = "../" * (3 if ed else 2) + (f"{ed}/" if ed else "")
    page = pipeline.render(doc, ["html"])
    plain = pipeline.render(pipeline.document(released, aid, lz, edition, None, marks), ["html"])
    return _checked(project, state, game, ed, lz.lang, aid, {suffix: (item.data, plain[suffix].data)
                                                             for suffix, item in page.items()}, expected, outcome)


def _aid_pdfs(project: Project, state: Released, game: Game, aid: Aid, edition: Edition | None, lz: Localizer,
              expected: dict[str, str], outcome: Outcome) -> dict[str, bytes]:
    """An aid of a release in one edition and language: its PDFs (the current build's, when they hold the bytes
    released), each checked against its digest as released."""
    released, ed = state.games[game.id], edition.id if edition else None
    pdfs = _current_pdfs(project, released, ed, lz.lang, aid.model.id, expected)
    if pdfs is None:
        marks = state.marks(released, aid, lz, "bars", edition=edition)
        pdfs = {suffix: item.data for suffix, item in pipeline.render(
            pipeline.document(released, aid, lz, edition, None, marks), ["pdf"]).items()}
    return _checked(project, state, game, ed, lz.lang, aid, {suffix: (data, data) for suffix, data in pdfs.items()},
                    expected, outcome)


def _checked(project: Project, state: Released, home: Game, ed: str | None, lang: str, aid: Aid,
             made: dict[str, tuple[bytes, bytes]], expected: dict[str, str], outcome: Outcome) -> dict[str, bytes]:
    """{path in the archive: bytes} of `made` (suffix -> (bytes, the bytes checked against the release's
    digest)): a file kept in the snapshot published instead, and a note for one that is not the file released."""
    version = state.version
    out: dict[str, bytes] = {}
    for suffix, (data, checked) in made.items():
        name = _name_of(ed, lang, aid.model.id, suffix)
        kept = snapshot.kept_file(home, version, name)
        if kept is not None:
            data = kept
        elif name in expected and hashlib.sha256(checked).hexdigest() != expected[name]:
            outcome.notes.append(
                f"archive: {home.id} {version} {name} rebuilt is not the file released (its sha256 differs from "
                f"outputs.sha256): published as rebuilt; to publish the released file, place it at "
                f"{project.show(snapshot.folder_of(home, version) / snapshot.KEPT / name)}")
        out[archive_pages.archived_path(home.id, version, ed, lang, aid.model.id, suffix)] = data
    return out


def _current_pdfs(project: Project, game: Game, ed: str | None, lang: str, aid_id: str,
                  expected: dict[str, str]) -> dict[str, bytes] | None:
    """The current build's PDFs of the aid, if each holds the bytes released (nothing changed since): no need
    to render them again. None otherwise."""
    prefix = _name_of(ed, lang, aid_id, "")
    wanted = {name[len(prefix):]: digest for name, digest in expected.items()
              if name.startswith(prefix) and name.endswith(".pdf") and "/" not in name[len(prefix):]}
    out = {}
    output = Folder(project.output, project.output.name)  # never through a link planted in build/
    for suffix, digest in wanted.items():
        try:
            data = output.read(aid_path(game.id, ed, lang, aid_id, suffix).lstrip("/")) or b""
        except AidsError:
            data = b""
        if hashlib.sha256(data).hexdigest() != digest:
            return None
        out[suffix] = data
    return out or None


def _name_of(ed: str | None, lang: str, aid_id: str, suffix: str) -> str:
    """An output's path inside its version's folder (as outputs.sha256 names it)."""
    return aid_path("", ed, lang, aid_id, suffix).lstrip("/")


def record_digests(project: Project, game: Game, version: str) -> Path:
    """outputs.sha256 written into a release's snapshot."""
    text = snapshot.digests_text(release_outputs(project, game, version))
    folder = Folder(game.folder, project.show(game.folder)) / snapshot.FOLDER / version
    return folder.write(snapshot.DIGESTS, text.encode("utf-8"), new=True)


def page_digest(digest: str, project: Project, unit: Any, lz: Localizer, game_aids: list[Aid]) -> str:
    """A current aid page's digest with what its navigation shows of the archive (its version switcher and the
    old numbers of its items): a new release changes the page."""
    shown = current_aid_versions(project, unit.game, unit.edition, unit.aid.model.id, lz, game_aids)
    if not shown:
        return digest
    return hashlib.sha256(f"{digest}\0archive\0{json.dumps(shown, sort_keys=True)}".encode()).hexdigest()


def record(project: Project, game_id: str, version: str, existing: bool = False) -> Path:
    """`aids release`: the release's snapshot and the digests of its outputs, written after its record; with
    `existing` (`--snapshot`), for a release recorded without one, only while the sources are as released."""
    from .release import compare, read_release, state
    game = project.read_game(game_id)
    if existing:
        check_version(version)
        if snapshot.recorded(game, version):
            raise AidsError(Problem(Position(project.show(snapshot.folder_of(game, version))), f"release {version} "
                                    "already has its snapshot", "a release recorded without one (a snapshot is "
                                    "never rewritten)"))
        found = compare(read_release(project, game, version), state(project, game, version))
        if found or game.version != version:
            raise AidsError(Problem(Position(project.show(game.source.path), 1, 1), f"the sources are no longer as "
                                    f"released in {version} ({len(found)} changes: aids changes --since {version}; "
                                    f"game.yaml says version {game.version})", "the sources as released, to "
                                    "snapshot them"))
    snapshot.write(project, game, version, snapshot.take(project, game))
    record_digests(project, game, version)
    return snapshot.folder_of(game, version)
