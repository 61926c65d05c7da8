"""The build cache: for every file aids wrote, the digest of everything it was made from, and of its own bytes.

One JSON file a record, `<output>/.aids-cache/records/<game>/<aid>/<edition>/<lang>/<format>.json` (the record of
the key "edition/lang/format"; edition `-` for a game without editions): the digest of its inputs, the files
written, each with its size, its sha256 and the stat it had when last seen, and what the build said of them
(pages, warnings, fallbacks, seconds). A record is fresh when the digest is the same and each of its files holds
the bytes it wrote: a file whose stat (size, modification and change time, inode) is the one recorded is taken as
written; any other of the recorded size is hashed, and if its bytes are the same it is still fresh (its new stat
is recorded). So an output folder copied (`cp -r`, a CI cache restore, an artifact download) builds nothing; a
file changed in place is built again, even to the same size and modification time (a change sets its ctime).
Records never share a file: the output folders of shards, or of builds of other languages, editions or formats,
merge by copying, caches included. Deleting the folder costs a full build and changes no output.

A record is read as untrusted input (build/ may be a restored CI cache): through a `Folder`, so a link is not
followed; a record that is not as aids writes it is dropped with a note (its aid is built again); the names of
its files are checked to stay inside the output folder. A cache of the earlier layout (`<game>/<aid>.json`, files
checked by size and time only) is not read: it costs one build, and goes when its game's records are saved.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path, PurePosixPath
from typing import Any

from ..errors import AidsError
from ..folder import Folder
from .journal import CACHE

Record = dict[str, Any]
RECORDS = PurePosixPath(CACHE, "records")
_HEX = frozenset("0123456789abcdef")


class Cache:
    def __init__(self, output: Path):
        self.output = output
        self.folder = Folder(output, output.name)
        self._aids: dict[tuple[str, str], dict[str, Record]] = {}
        self._changed: set[tuple[str, str, str]] = set()
        self.notes: list[str] = []  # records found damaged and dropped, one line each

    def _records(self, game: str, aid: str) -> dict[str, Record]:
        if (game, aid) not in self._aids:
            folder = self.folder / RECORDS / game / aid
            records: dict[str, Record] = {}
            names = list(folder.files()) if self.folder.is_dir(RECORDS / game / aid) else []
            for name in names:  # <edition>/<lang>/<format>.json
                parts = PurePosixPath(name).parts
                if len(parts) != 3 or not name.endswith(".json") or name.startswith("."):
                    continue
                record: Any
                try:
                    record = json.loads(folder.read(name) or b"")
                except (AidsError, ValueError):
                    record = None
                if not _valid_record(record):
                    self.notes.append(f"{folder.show(name)}: damaged cache record (not one aids wrote): dropped, "
                                      "the aid is built again")
                    continue
                records[name[:-5]] = record
            self._aids[(game, aid)] = records
        return self._aids[(game, aid)]

    def aids(self, game: str) -> list[str]:
        """The ids of the aids of `game` it holds records of."""
        folder = self.folder / RECORDS
        names = folder.names(game) if folder.is_dir(game) else []
        return sorted(n for n in names if folder.is_dir(f"{game}/{n}"))

    def records(self, game: str, aid: str) -> dict[str, Record]:
        """Every record of `aid` (key -> record); those damaged left out."""
        return dict(self._records(game, aid))

    def forget(self, game: str, aid: str) -> None:
        """Drop every record of `aid` (an aid gone from its game), its files too."""
        self._aids[(game, aid)] = {}
        self._changed = {c for c in self._changed if c[:2] != (game, aid)}
        self.folder.remove(RECORDS / game / aid)

    def get(self, game: str, aid: str, key: str) -> Record | None:
        return self._records(game, aid).get(key)

    def fresh(self, game: str, aid: str, key: str, digest: str) -> Record | None:
        """The record of `key` if it was made from `digest` and its files hold the bytes it wrote."""
        record = self.get(game, aid, key)
        if not record or record.get("digest") != digest:
            return None
        return record if all(self.holds(game, aid, key, name) for name in record.get("outputs", {})) else None

    def holds(self, game: str, aid: str, key: str, name: str) -> bool:
        """Whether the file `name` of the record of `key` is there as that record wrote it (see `matches`)."""
        written = (self.get(game, aid, key) or {}).get("outputs", {}).get(name)
        if written is None:
            return False
        before = list(written["stat"])
        if not matches(self.folder, name, written):
            return False
        if written["stat"] != before:
            self._changed.add((game, aid, key))
        return True

    def put(self, game: str, aid: str, key: str, record: Record, written: list[Path]) -> None:
        """Record `key` after its files were written (their digest and stat are taken now)."""
        outputs = {}
        for path in written:
            name = path.relative_to(self.output).as_posix()
            found = file_record(self.folder, name)
            if found is not None:
                outputs[name] = found
        self._records(game, aid)[key] = {**record, "outputs": outputs}
        self._changed.add((game, aid, key))

    def save(self) -> None:
        for game, aid, key in sorted(self._changed):
            data = json.dumps(self._aids[(game, aid)][key], ensure_ascii=False, sort_keys=True, indent=1)
            self.folder.write(RECORDS / game / aid / f"{key}.json", data.encode("utf-8"))
        for game in sorted({game for game, _, _ in self._changed}):
            _drop_legacy(self.folder, game)
        self._changed.clear()


def file_record(folder: Folder, name: str) -> dict[str, Any] | None:
    """What tells the regular file `name` as it is now: its size, sha256 and stat; None when it is not there."""
    found = folder.regular(name)
    data = folder.read(name) if found is not None else None
    if found is None or data is None:
        return None
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest(), "stat": _stamp(found)}


def matches(folder: Folder, name: str, written: dict[str, Any]) -> bool:
    """Whether the file `name` holds the bytes `written` (a `file_record`) says: the same stat (nothing rewrote,
    touched or copied it since), or else the same sha256, and then its stat now goes into `written` (the next
    look is a stat only)."""
    try:
        found = folder.lstat(name)
    except AidsError:  # a name leaving the output folder
        return False
    if found is None or not stat.S_ISREG(found.st_mode) or found.st_size != written["size"]:
        return False
    if written["stat"] == _stamp(found):
        return True
    try:
        data = folder.read(name)
    except AidsError:
        return False
    if data is None or hashlib.sha256(data).hexdigest() != written["sha256"]:
        return False
    written["stat"] = _stamp(found)
    return True


def _stamp(found: os.stat_result) -> list[int]:
    """What tells a file from another without reading it: rewriting, touching or copying it changes this."""
    return [found.st_mtime_ns, found.st_ctime_ns, found.st_ino]


def _drop_legacy(folder: Folder, game: str) -> None:
    """The records of `game` in the earlier layout (`.aids-cache/<game>/<aid>.json`), never read: removed."""
    old = folder / CACHE
    if old.is_dir(game):
        for name in old.names(game):
            if name.endswith(".json") and old.is_file(f"{game}/{name}"):
                old.remove(f"{game}/{name}")
        old.rmdir(game)


_NUMBER = (int, float)
_FIELDS: dict[str, Any] = {  # what a record may hold, by type (checked before any of it is used)
    "digest": str, "files": list, "pages": int, "warnings": list, "notes": list, "remarks": list, "fitted": dict,
    "last_page": (*_NUMBER, type(None)), "seconds": _NUMBER, "fallbacks": list, "outputs": dict,
    "error": (str, type(None)), "title": str, "kind": str, "source": str}  # error: why its last build failed


def _valid_record(record: Any) -> bool:
    """As aids writes it: {"digest": str, "outputs": {name: {"size", "sha256", "stat"}}, ...}."""
    if not isinstance(record, dict) or not _typed(record):
        return False
    texts = [*record.get("files", []), *record.get("warnings", []), *record.get("notes", []),
             *record.get("remarks", [])]
    fitted = record.get("fitted", {})
    return (all(isinstance(t, str) for t in texts)
            and all(isinstance(k, str) and isinstance(v, _NUMBER) for k, v in fitted.items())
            and all(_valid_fallback(fb) for fb in record.get("fallbacks", []))
            and all(isinstance(name, str) and valid_output(v) for name, v in record.get("outputs", {}).items()))


def _typed(record: dict) -> bool:
    """Every field of the record the type `_FIELDS` gives it (a bool is not a number)."""
    return not any(name in record and (type(record[name]) is bool or not isinstance(record[name], kind))
                   for name, kind in _FIELDS.items())


def _valid_fallback(fb: Any) -> bool:
    """A fallback as aids records it: [text, int, int, and three texts or None]."""
    return (isinstance(fb, list) and len(fb) == 6 and isinstance(fb[0], str) and type(fb[1]) is int
            and type(fb[2]) is int and all(isinstance(t, (str, type(None))) for t in fb[3:]))


def valid_output(written: Any) -> bool:
    """A `file_record` as aids writes it."""
    return (isinstance(written, dict) and set(written) == {"size", "sha256", "stat"} and type(written["size"]) is int
            and isinstance(written["sha256"], str) and len(written["sha256"]) == 64 and set(written["sha256"]) <= _HEX
            and isinstance(written["stat"], list) and len(written["stat"]) == 3
            and all(type(n) is int for n in written["stat"]))
