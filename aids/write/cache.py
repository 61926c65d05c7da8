"""The build cache: for every file aids wrote, the digest of everything it was made from.

One JSON file per aid, `<output>/.aids-cache/<game>/<aid>.json`, maps a job and format
("edition/lang/format") to a record: the digest of its inputs, the files written with their size and
modification time, and what the build said of them (pages, warnings, fallbacks). A record is fresh
when the digest is the same and its files are still there as written; then the job is not rendered
again. Deleting the folder costs a full build and changes no output. Shards of one build write
different aids, so their output folders merge by copying, caches included.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..files import write_atomic

CACHE = ".aids-cache"
Record = dict[str, Any]


class Cache:
    def __init__(self, output: Path):
        self.output = output
        self._aids: dict[tuple[str, str], dict[str, Record]] = {}
        self._changed: set[tuple[str, str]] = set()

    def _records(self, game: str, aid: str) -> dict[str, Record]:
        if (game, aid) not in self._aids:
            path = self.output / CACHE / game / f"{aid}.json"
            try:
                records = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):  # none yet, or damaged: the aid is built again
                records = {}
            self._aids[(game, aid)] = records if isinstance(records, dict) else {}
        return self._aids[(game, aid)]

    def get(self, game: str, aid: str, key: str) -> Record | None:
        return self._records(game, aid).get(key)

    def fresh(self, game: str, aid: str, key: str, digest: str) -> Record | None:
        """The record of `key` if it was made from `digest` and its files are as it wrote them."""
        record = self.get(game, aid, key)
        if not record or record.get("digest") != digest:
            return None
        for name, (size, mtime) in record.get("outputs", {}).items():
            try:
                stat = (self.output / name).stat()
            except OSError:
                return None
            if stat.st_size != size or stat.st_mtime_ns != mtime:
                return None
        return record

    def put(self, game: str, aid: str, key: str, record: Record, written: list[Path]) -> None:
        """Record `key` after its files were written (their size and time are taken now)."""
        outputs = {}
        for path in written:
            stat = path.stat()
            outputs[path.relative_to(self.output).as_posix()] = [stat.st_size, stat.st_mtime_ns]
        self._records(game, aid)[key] = {**record, "outputs": outputs}
        self._changed.add((game, aid))

    def save(self) -> None:
        for game, aid in sorted(self._changed):
            data = json.dumps(self._aids[(game, aid)], ensure_ascii=False, sort_keys=True, indent=1)
            path = self.output / CACHE / game / f"{aid}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, data.encode("utf-8"))
        self._changed.clear()
