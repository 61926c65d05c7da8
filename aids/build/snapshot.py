"""The snapshot of a release: everything a game's outputs are made from, kept beside its release record, so that
the site's archive rebuilds each release as it was released (aids/build/archive.py).

    games/<game>/releases/<version>.yaml                   the release record (aids/build/release.py)
    games/<game>/releases/<version>/<game>/...             the game's source files as released (game.yaml with its
                                                           version and date, its aids, their Markdown and tables)
    games/<game>/releases/<version>/i18n/<lang>/LC_MESSAGES/<game>.po   its catalog in each language
    games/<game>/releases/<version>/outputs.sha256         the sha256 of every output built from it at release
                                                           time (`sha256sum -c` reads it)
    games/<game>/releases/<version>/kept/<path>            optional: a released file published as it is, instead of
                                                           the one rebuilt (path as in outputs.sha256)

Small text files, diffable in git. `aids release` writes them with the record; `aids release VERSION --snapshot`
adds them to a release recorded without (refused unless the sources are still as released: `aids changes` empty).
"""
from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

from ..config import Game, Project
from ..errors import AidsError, Position, Problem
from ..files import Folder
from ..kind import Aid
from ..kinds.reading import read_aids
from ..localize import domains
from ..localize.localizer import Localizer
from . import pipeline

FOLDER = "releases"
DIGESTS = "outputs.sha256"
KEPT = "kept"
CATALOGS = "i18n"


def folder_of(game: Game, version: str) -> Path:
    """A release's snapshot folder (the games folder of its snapshot project)."""
    return game.folder / FOLDER / version


def has_snapshot(game: Game, version: str) -> bool:
    return (folder_of(game, version) / game.id / "game.yaml").is_file()


def project_of(project: Project, game: Game, version: str) -> Project:
    """The project as its snapshot makes it: the game and its catalogs as released; the project's own settings
    (aids.yaml: languages, print, date styles) as they are now."""
    folder = folder_of(game, version)
    return dataclasses.replace(project, games_dir=folder, catalogs=folder / CATALOGS)


def _game_files(game: Game) -> dict[str, bytes]:
    """The game's own files (not its releases), by their path in its folder."""
    found: dict[str, bytes] = {}
    for path in sorted(game.folder.rglob("*")):
        rel = path.relative_to(game.folder)
        if rel.parts[0] == FOLDER or any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
            continue
        if path.is_file() and not path.is_symlink():
            found[rel.as_posix()] = path.read_bytes()
    return found


def take(project: Project, game: Game, game_yaml: str | None = None) -> dict[str, bytes]:
    """The snapshot of a game as it is now (`game_yaml`: the text its game.yaml will have once released):
    path inside the snapshot folder -> bytes."""
    files = {f"{game.id}/{name}": data for name, data in _game_files(game).items()}
    if game_yaml is not None:
        files[f"{game.id}/{game.source.path.name}"] = game_yaml.encode("utf-8")
    for lang in project.languages:
        for domain in domains.of_project(project, game.id, lang) if lang != game.source_language else []:
            name = f"{lang}/LC_MESSAGES/{domain}.po"  # each of its catalogs (localize/domains.py), never a link
            data = Folder(project.catalogs, project.show(project.catalogs)).read(name)
            if data is not None:
                files[f"{CATALOGS}/{name}"] = data
    return files


def write(project: Project, game: Game, version: str, files: dict[str, bytes]) -> list[Path]:
    """The snapshot's files written (never over a file: a release is never rewritten)."""
    folder = Folder(game.folder, project.show(game.folder)) / FOLDER / version
    return [folder.write(name, data, new=True) for name, data in sorted(files.items())]


def same_as_now(project: Project, game: Game, version: str) -> bool:
    """Whether a release's snapshot holds the game's sources and catalogs exactly as they are now."""
    if not has_snapshot(game, version):
        return False
    folder = folder_of(game, version)
    kept = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()
            and p.relative_to(folder).parts[0] in (game.id, CATALOGS)}
    now = take(project, game)
    return kept == set(now) and all((folder / name).read_bytes() == data for name, data in now.items())


# --- a release read from its snapshot ---------------------------------------------------------------

class ReleaseRead:
    """A release as its snapshot holds it: its game, its aids (those that read), a localizer per language."""

    def __init__(self, project: Project, game: Game, version: str):
        self.project, self.version = project_of(project, game, version), version
        self.game = self.project.read_game(game.id)
        self.aids = read_aids(self.project, self.game)[0]
        self._localizers: dict[str, Localizer] = {}
        self.numbers: dict[str, dict[tuple[str, str], str]] = {}

    def localizer(self, lang: str) -> Localizer:
        if lang not in self._localizers:
            self._localizers[lang] = pipeline.localizer(self.project, self.game, lang)
        return self._localizers[lang]

    def standalone(self) -> list[Aid]:
        return [aid for aid in self.aids if aid.kind.standalone]


_RELEASES: dict[tuple[str, str, int], ReleaseRead] = {}  # a snapshot is never rewritten: read once a process


def released(project: Project, game: Game, version: str) -> ReleaseRead:
    """A release as its snapshot holds it, read once (`snapshot.has_snapshot` first)."""
    path = folder_of(game, version) / game.id / "game.yaml"
    key = (str(path), str(project.output), path.stat().st_mtime_ns)
    if key not in _RELEASES:
        _RELEASES[key] = ReleaseRead(project, game, version)
    return _RELEASES[key]


# --- the digests of the outputs as released -------------------------------------------------------

def digests_text(digests: dict[str, bytes]) -> str:
    """`sha256sum`'s format: one `<hex>  <path>` a line, sorted by path."""
    return "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(digests.items()))


def read_digests(game: Game, version: str) -> dict[str, str]:
    """path -> sha256 of each output as released ({} when none were recorded)."""
    path = folder_of(game, version) / DIGESTS
    if not path.is_file():
        return {}
    out = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        digest, _, name = line.partition("  ")
        if len(digest) != 64 or not name:
            raise AidsError(Problem(Position(str(path), n, 1), "not a line of sha256sum",
                                    "<sha256 in hex>  <path>, as `aids release` wrote it"))
        out[name] = digest
    return out


def kept_file(game: Game, version: str, name: str) -> bytes | None:
    """A released file kept as it was (kept/<name> in the snapshot), published instead of the rebuilt one."""
    path = folder_of(game, version) / KEPT / name
    return path.read_bytes() if path.is_file() and not path.is_symlink() else None
