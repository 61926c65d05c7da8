"""The build cache: for every file aids wrote, the digest of everything it was made from.

One JSON file per aid, `<output>/.aids-cache/<game>/<aid>.json`, maps a job and format
("edition/lang/format") to a record: the digest of its inputs, the files written with their size and
modification time, and what the build said of them (pages, warnings, fallbacks). A record is fresh
when the digest is the same and its files are still there as written; then the job is not rendered
again. Deleting the folder costs a full build and changes no output. Shards of one build write
different aids, so their output folders merge by copying, caches included.

A record is read as untrusted input (build/ may be a restored CI cache): through a `Folder`, so a link is not
followed; a record that is not as aids writes it is dropped with a note (its aid is built again); the names of
its files are checked to stay inside the output folder.
"""
from __future__ import annotations

import json
import stat
from pathlib import Path, PurePosixPath
from typing import Any

from ..errors import AidsError
from ..files import Folder
from .files import CACHE

Record = dict[str, Any]


class Cache:
    def __init__(self, output: Path):
        self.output = output
        self.folder = Folder(output, output.name)
        self._aids: dict[tuple[str, str], dict[str, Record]] = {}
        self._changed: set[tuple[str, str]] = set()
        self.notes: list[str] = []  # records found damaged and dropped, one line each

    def _records(self, game: str, aid: str) -> dict[str, Record]:
        if (game, aid) not in self._aids:
            name = PurePosixPath(CACHE, game, f"{aid}.json")
            records: Any
            try:
                data = self.folder.read(name)
                records = json.loads(data) if data is not None else {}
            except (AidsError, ValueError):
                records = None
            if not _valid(records):
                self.notes.append(f"{self.folder.show(name)}: damaged cache record (not one aids wrote): "
                                  "dropped, the aid is built again")
                records = {}
            self._aids[(game, aid)] = records
        return self._aids[(game, aid)]

    def aids(self, game: str) -> list[str]:
        """The ids of the aids of `game` it holds records of."""
        folder = self.folder / CACHE
        names = folder.names(game) if folder.is_dir(game) else []
        return sorted(n[:-5] for n in names if n.endswith(".json") and folder.is_file(f"{game}/{n}"))

    def records(self, game: str, aid: str) -> dict[str, Record]:
        """Every record of `aid` (key -> record); none when its file is damaged."""
        return dict(self._records(game, aid))

    def forget(self, game: str, aid: str) -> None:
        """Drop every record of `aid` (an aid gone from its game), its file too."""
        self._aids[(game, aid)] = {}
        self._changed.discard((game, aid))
        self.folder.remove(PurePosixPath(CACHE, game, f"{aid}.json"))

    def get(self, game: str, aid: str, key: str) -> Record | None:
        return self._records(game, aid).get(key)

    def fresh(self, game: str, aid: str, key: str, digest: str) -> Record | None:
        """The record of `key` if it was made from `digest` and its files are as it wrote them."""
        record = self.get(game, aid, key)
        if not record or record.get("digest") != digest:
            return None
        for name, (size, mtime) in record.get("outputs", {}).items():
            try:
                found = self.folder.lstat(name)
            except AidsError:  # a name leaving the output folder
                return None
            if found is None or not stat.S_ISREG(found.st_mode) or found.st_size != size or found.st_mtime_ns != mtime:
                return None
        return record

    def put(self, game: str, aid: str, key: str, record: Record, written: list[Path]) -> None:
        """Record `key` after its files were written (their size and time are taken now)."""
        outputs = {}
        for path in written:
            name = path.relative_to(self.output).as_posix()
            found = self.folder.lstat(name)
            if found is not None:
                outputs[name] = [found.st_size, found.st_mtime_ns]
        self._records(game, aid)[key] = {**record, "outputs": outputs}
        self._changed.add((game, aid))

    def save(self) -> None:
        for game, aid in sorted(self._changed):
            data = json.dumps(self._aids[(game, aid)], ensure_ascii=False, sort_keys=True, indent=1)
            self.folder.write(PurePosixPath(CACHE, game, f"{aid}.json"), data.encode("utf-8"))
        self._changed.clear()


_NUMBER = (int, float)
_FIELDS: dict[str, Any] = {  # what a record may hold, by type (checked before any of it is used)
    "digest": str, "files": list, "pages": int, "warnings": list, "notes": list, "fitted": dict,
    "last_page": (*_NUMBER, type(None)), "seconds": _NUMBER, "fallbacks": list, "outputs": dict,
    "error": (str, type(None)), "title": str, "kind": str, "source": str}  # error: why its last build failed


def _valid(records: Any) -> bool:
    """As aids writes them: {key: {"digest": str, "outputs": {name: [size, mtime]}, ...}}."""
    return isinstance(records, dict) and all(_valid_record(r) for r in records.values())


def _valid_record(record: Any) -> bool:
    if not isinstance(record, dict):
        return False
    if any(name in record and (type(record[name]) is bool or not isinstance(record[name], kind))
           for name, kind in _FIELDS.items()):
        return False
    texts = [*record.get("files", []), *record.get("warnings", []), *record.get("notes", [])]
    fitted = record.get("fitted", {})
    return (all(isinstance(t, str) for t in texts)
            and all(isinstance(k, str) and isinstance(v, _NUMBER) for k, v in fitted.items())
            and all(isinstance(fb, list) and len(fb) == 6 and isinstance(fb[0], str) and type(fb[1]) is int
                    and type(fb[2]) is int and all(isinstance(t, (str, type(None))) for t in fb[3:])
                    for fb in record.get("fallbacks", []))
            and all(isinstance(name, str) and isinstance(v, list) and len(v) == 2 and all(type(n) is int for n in v)
                    for name, v in record.get("outputs", {}).items()))
