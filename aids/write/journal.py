"""The last stage: every file of one aid written together, or none of them (and, the same way, the catalogs of a
game between which `aids update` moves translations, the catalogs that no longer hold any removed with them).

The files are first written into a staging folder inside the output folder, then a journal naming
each of them (and each file to remove) is committed with one rename, then each file is moved into place and
each file to remove is removed. A build stopped while staging leaves the previous files; one stopped after the
commit is completed by the next build (`recover`), so an aid's files are never left half old, half new. Stale
temporary files go too.

Everything goes through a `Folder` (aids/folder.py): the output folder is not trusted ground (a CI cache, an
unpacked artifact), so a link planted in the staging area is removed, never followed, and a journal that aids
did not write (not JSON, not a list of pairs, a name leaving the folder, a staged file that is a link) is
discarded whole, with a note: it costs a rebuild of that aid, never a crash or a stuck project.
"""
from __future__ import annotations

import json
import os
import re
import stat
import uuid
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from ..errors import AidsError
from ..folder import Folder, Outside

STAGING = ".aids-staging"
CACHE = ".aids-cache"  # the build cache's folder (write/cache.py), aids' own state too
JOURNAL = "journal.json"  # present only once every file is staged: the commit point
FAULT = "AIDS_FAULT"  # for the tests: "stage:N" or "switch:N" ends the process before the N-th file
_STAGED = re.compile(r"[0-9]{1,9}")
MAX_JOURNAL = 16 << 20


def output_folder(output: Path) -> Folder:
    return Folder(output, output.name)


def changed(output: Path, pages: dict[str, bytes]) -> dict[Path, bytes]:
    """The pages (name in the output folder -> bytes) whose file does not hold these bytes: a link or a folder
    planted there counts as not holding them, and is replaced."""
    out = output_folder(output)
    found: dict[Path, bytes] = {}
    for name, data in pages.items():
        try:
            same = out.read(name) == data
        except AidsError:
            same = False
        if not same:
            found[output / name] = data
    return found


def write_all(outputs: dict[Path, bytes], output: Path, removed: Iterable[Path] = ()) -> None:
    """Write every file of one aid (all inside `output`) and remove the files `removed`: all of it, or none. A
    file that already holds these very bytes is left as it is (its time too: a reader's copy, a sync tool, a web
    server's cache see no change)."""
    folder = output_folder(output)
    names = {PurePosixPath(path.relative_to(output).as_posix()): data for path, data in outputs.items()}
    gone = [PurePosixPath(path.relative_to(output).as_posix()) for path in removed]
    for name in [*names, *gone]:  # before anything is staged: a name outside, a link or a file among its folders
        folder.exists(name)
    names = {name: data for name, data in names.items() if not _holds(folder, name, data)}
    gone = [name for name in gone if folder.lstat(name) is not None]
    if not names and not gone:
        return
    staging = folder / STAGING / uuid.uuid4().hex
    try:
        moves = []
        for n, (name, data) in enumerate(sorted(names.items()), start=1):
            _fault("stage", n)
            staging.write(str(n), data)
            moves.append((str(n), name.as_posix()))
        moves += [("", name.as_posix()) for name in gone]  # removed once every new file is in place
        staging.write(JOURNAL, json.dumps(moves).encode("utf-8"))
    except BaseException:
        folder.remove(PurePosixPath(STAGING, *staging.parts[-1:]))
        raise
    _switch(folder, staging.parts[-1], moves)


def _holds(folder: Folder, name: PurePosixPath, data: bytes) -> bool:
    found = folder.regular(name)
    if found is None or found.st_size != len(data):
        return False
    try:
        return folder.read(name) == data
    except AidsError:
        return False


def _switch(folder: Folder, name: str, moves: list[tuple[str, str]]) -> None:
    """Move the staged files of a committed journal into place and remove the files it removes, then drop the
    staging folder."""
    staging = PurePosixPath(STAGING, name)
    for n, (staged, target) in enumerate(moves, start=1):
        _fault("switch", n)
        if not staged:
            folder.remove(target)  # nothing when it is gone already (an interrupted switch that removed it)
        elif folder.lstat(staging / staged) is not None:  # a move done before an interruption is not done again
            folder.move(staging / staged, target)
    folder.remove(staging)
    folder.rmdir(STAGING)  # the staging area goes with its last aid


def recover(output: Path) -> list[str]:
    """Before a build writes anything: finish every committed switch, discard every uncommitted staging,
    and remove the temporary files an interrupted write left behind. What was found damaged and set aside,
    one line each."""
    folder = output_folder(output)
    notes: list[str] = []
    if not folder.is_dir():
        return notes
    area = folder.lstat(STAGING)
    if area is not None and not stat.S_ISDIR(area.st_mode):
        folder.remove(STAGING)
        notes.append(f"{folder.show(STAGING)}: not a folder aids made (a link or a file): removed, not followed")
    for name in folder.names(STAGING) if area is not None and stat.S_ISDIR(area.st_mode) else []:
        moves = _journal(folder, name, notes)
        try:
            if moves is not None:
                _switch(folder, name, moves)
        except AidsError as exc:  # a link made on the way since it was committed: its aid is built again
            notes.append(f"{folder.show(PurePosixPath(STAGING, name))}: not finished ({exc}): discarded, "
                         "its aid is built again")
        folder.remove(PurePosixPath(STAGING, name))
    folder.remove(STAGING)
    notes += unlinked(folder, CACHE)
    for stale in list(folder.files()):
        if PurePosixPath(stale).name.startswith(".") and stale.endswith(".tmp"):
            folder.remove(stale)
    return notes


def unlinked(folder: Folder, name: str) -> list[str]:
    """Remove every link in aids' own state folder `name` (and the folder itself if it is a link or a file):
    what is there is aids' alone, and a link in it would turn a later write or read outside."""
    found = folder.lstat(name)
    if found is None:
        return []
    if not stat.S_ISDIR(found.st_mode):
        folder.remove(name)
        return [f"{folder.show(name)}: not a folder aids made (a link or a file): removed, not followed"]
    notes = []
    with folder.descriptor(name) as fd:
        links = [PurePosixPath(top, leaf).as_posix() for top, dirs, files, top_fd in os.fwalk(".", dir_fd=fd)
                 for leaf in dirs + files if stat.S_ISLNK(os.stat(leaf, dir_fd=top_fd, follow_symlinks=False).st_mode)]
    for link in links:
        (folder / name).remove(link)
        notes.append(f"{folder.show(name)}/{link}: a link in aids' own state: removed, not followed")
    return notes


def _journal(folder: Folder, name: str, notes: list[str]) -> list[tuple[str, str]] | None:
    """The moves of a committed staging folder; None when it is not committed, or not as aids commits it."""
    staging = PurePosixPath(STAGING, name)
    found = folder.lstat(staging)
    if found is None or not stat.S_ISDIR(found.st_mode):
        notes.append(f"{folder.show(staging)}: not a folder aids made (a link or a file): removed, not followed")
        return None
    try:
        data = folder.read(staging / JOURNAL, MAX_JOURNAL + 1)
    except AidsError:
        data = b"\0"  # a link or not a file: damaged
    if data is None:
        return None  # not committed: its aid keeps its previous files
    try:
        return _moves(folder, staging, data)
    except (ValueError, TypeError, UnicodeDecodeError, Outside):
        notes.append(f"{folder.show(staging / JOURNAL)}: damaged journal (not one aids wrote): discarded, "
                     "any file it had moved is built again")
        return None


def _moves(folder: Folder, staging: PurePosixPath, data: bytes) -> list[tuple[str, str]]:
    """The moves a journal lists, each from a file staged to a place in the folder; ValueError (or TypeError,
    UnicodeDecodeError, Outside) when it is not as aids writes it."""
    moves = json.loads(data.decode("utf-8"))
    if len(data) > MAX_JOURNAL or not isinstance(moves, list):
        raise ValueError
    pairs = _pairs(moves)
    for staged, target in pairs:
        removed = folder.lstat(target)  # Outside when it leaves the folder
        there = folder.lstat(staging / staged) if staged else removed  # a file to remove: a file, never a folder
        if (there is not None and not stat.S_ISREG(there.st_mode)) or PurePosixPath(target).parts[0] in (
                STAGING, ".aids-cache"):
            raise ValueError
    return pairs


def _pairs(moves: list) -> list[tuple[str, str]]:
    """A journal's list of moves as (staged file, target) pairs; ValueError where one is not a pair of names."""
    pairs = [(m[0], m[1]) for m in moves
             if isinstance(m, list) and len(m) == 2 and all(isinstance(part, str) for part in m)]
    if len(pairs) != len(moves) or not all(_STAGED.fullmatch(a) or not a for a, _ in pairs):
        raise ValueError
    return pairs


def _fault(step: str, n: int) -> None:
    if os.environ.get(FAULT) == f"{step}:{n}":
        os._exit(137)  # as a kill would: no cleanup, no exception handlers
