"""The snapshot of a release: everything a game's outputs are made from, kept beside its release record, so that
the site's archive rebuilds each release as it was released (aids/releases/archive.py).

    games/<game>/releases/<version>.yaml                   the release record (aids/releases/release.py)
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
import stat
from pathlib import Path, PurePosixPath

from ..config import Game, Project
from ..errors import AidsError, Position, Problem
from ..folder import Folder, Unsafe, not_regular
from ..kind import Aid
from ..kinds.reading import read_aids
from ..localize import domains, making
from ..localize.localizer import Localizer
from ..model.rulings import FILE as RULINGS_FILE
from ..source.yamlfile import MAX_BYTES, decode

FOLDER = "releases"
DIGESTS = "outputs.sha256"
KEPT = "kept"
CATALOGS = "i18n"
MAX_KEPT = 512 * 1024 * 1024  # a released file published as it was: a PDF booklet with its figures
SOUND = "a snapshot as `aids release` wrote it: folders and regular files, no link"


def folder_of(game: Game, version: str) -> Path:
    """A release's snapshot folder (the games folder of its snapshot project)."""
    return game.folder / FOLDER / version


def _folder(game: Game, version: str) -> Folder:
    """The snapshot folder as the file layer reads it: no link followed on the way to it or inside it."""
    return Folder(game.folder, str(PurePosixPath(game.source.shown).parent)) / FOLDER / version


def recorded(game: Game, version: str) -> bool:
    """Whether the release has a snapshot (its game.yaml); a link on the way to it is refused (Unsafe)."""
    return _folder(game, version).exists(f"{game.id}/game.yaml")


def check(game: Game, version: str) -> None:
    """Refuses (Unsafe, naming it) a snapshot with anything in it that `aids release` does not write: a link (to
    a file outside the project, which the archive would publish), a FIFO, a device. Every reader of a snapshot
    reads it after this check (`has_snapshot`), never through a link."""
    folder = _folder(game, version)
    for name, info in folder.entries():
        if not stat.S_ISREG(info.st_mode):
            said = "is a symbolic link, which aids does not follow" if stat.S_ISLNK(info.st_mode) \
                else not_regular(info.st_mode)
            raise Unsafe(Problem(Position(folder.show(name)), said, SOUND))


def has_snapshot(game: Game, version: str) -> bool:
    """Whether the release has a snapshot that is sound (`check`): one that is not is no snapshot to read."""
    try:
        if not recorded(game, version):
            return False
        check(game, version)
    except AidsError:
        return False
    return True


def project_of(project: Project, game: Game, version: str) -> Project:
    """The project as its snapshot makes it: the game and its catalogs as released; the project's own settings
    (aids.yaml: languages, print, date styles) as they are now."""
    folder = folder_of(game, version)
    return dataclasses.replace(project, games_dir=folder, catalogs=folder / CATALOGS)


def _game_files(project: Project, game: Game) -> dict[str, bytes]:
    """The files of the game its outputs are made from (game.yaml, its rulings, icons and theme in its folder, each
    aid's sources, rule files and figures), by their path in its folder, read through the file layer: a scan or
    notes kept beside them are no part of a release."""
    from ..kinds.reading import read_aids
    aids, _ = read_aids(project, game)
    paths = {game.source.path, *(icon.file for icon in game.icons.values()), *(game.theme.files if game.theme else ())}
    paths |= {game.folder / RULINGS_FILE} if game.rulings else set()
    for aid in aids:
        paths.update([*aid.kind.inputs(aid.model), *(part.source.path for part in aid.kind.parts(aid.model))])
    root = game.folder.resolve()
    folder = Folder(root, project.show(game.folder))
    found: dict[str, bytes] = {}
    for path in sorted(p.resolve() for p in paths):
        if path.is_relative_to(root):  # the project's theme, outside the game, is the project's
            name = path.relative_to(root).as_posix()
            data = folder.read(name, MAX_KEPT + 1)
            if data is None or len(data) > MAX_KEPT:
                said = "gone while it was released" if data is None else "larger than the limit of a released file"
                raise AidsError(Problem(Position(folder.show(name)), said, "the file as the build read it"))
            found[name] = data
    return found


def take(project: Project, game: Game, game_yaml: str | None = None) -> dict[str, bytes]:
    """The snapshot of a game as it is now (`game_yaml`: the text its game.yaml will have once released):
    path inside the snapshot folder -> bytes."""
    files = {f"{game.id}/{name}": data for name, data in _game_files(project, game).items()}
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


def digests(game: Game, version: str) -> dict[str, str]:
    """The sha256 of every file of a snapshot, by its path in it (`check` first: no link is followed)."""
    folder = _folder(game, version)
    return {name: hashlib.sha256(folder.read(name, MAX_KEPT) or b"").hexdigest() for name, _ in folder.entries()}


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
            self._localizers[lang] = making.localizer(self.project, self.game, lang)
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
    folder = _folder(game, version)
    data = folder.read(DIGESTS, MAX_BYTES + 1)
    if data is None:
        return {}
    shown = folder.show(DIGESTS)
    if len(data) > MAX_BYTES:
        raise AidsError(Problem(Position(shown), "file larger than the limit", f"at most {MAX_BYTES // 1048576} MB"))
    out = {}
    for n, line in enumerate(decode(data, shown).splitlines(), 1):
        digest, _, name = line.partition("  ")
        if len(digest) != 64 or not name:
            raise AidsError(Problem(Position(shown, n, 1), "not a line of sha256sum",
                                    "<sha256 in hex>  <path>, as `aids release` wrote it"))
        out[name] = digest
    return out


def kept_file(game: Game, version: str, name: str) -> bytes | None:
    """A released file kept as it was (kept/<name> in the snapshot), published instead of the rebuilt one; read
    through the file layer, a link anywhere on its way refused (Unsafe)."""
    folder = _folder(game, version)
    data = folder.read(f"{KEPT}/{name}", MAX_KEPT + 1)
    if data is not None and len(data) > MAX_KEPT:
        raise AidsError(Problem(Position(folder.show(f"{KEPT}/{name}")), "file larger than the limit",
                                f"at most {MAX_KEPT // 1048576} MB"))
    return data
