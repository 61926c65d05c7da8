"""The build's stamp: what the last whole build was made from, and the output folder as it left it, so that the
same build asked again does nothing, without parsing a source.

`<output>/.aids-cache/build.json` holds
  - `key`: the digest of the tool, of every source and catalog of the project (names and bytes) and of the
    options the build was given (builder.whole_key);
  - `files`: every entry of the output folder but the stamp, each a `file_record` (size, sha256, stat);
  - `report`: what that build would report again if it had nothing to do (builder.report_of).

A build whose key is the stamp's, and whose output folder holds exactly those entries, each with the bytes
recorded (the same stat, or else the same sha256: a copied folder is still a no-op), has nothing to do: its
report is replayed. Anything else (another key, an entry added, missing or changed, a link) and the build goes
the whole way: the stamp is removed before anything is written, and made again only by a build that ended with
no failure. So a build stopped half-way, or one that failed, never leaves a stamp behind.

Read as untrusted input (build/ may be a restored CI cache): through a `Folder`, never following a link; a stamp
that is not as aids writes it is ignored (a whole build, which replaces it). Nothing named in it is opened
outside the output folder.
"""
from __future__ import annotations

import json
import stat
from pathlib import Path, PurePosixPath
from typing import Any

from ..errors import AidsError
from ..folder import Folder
from .cache import file_record, matches, valid_output
from .journal import CACHE, output_folder

STAMP = PurePosixPath(CACHE, "build.json")
LIMIT = 256 << 20  # a stamp larger than this is not one aids wrote


def _entries(folder: Folder) -> list[tuple[str, Any]]:
    """Every entry of the output folder but the stamp, with its own stat (the build cache's records too: a record
    damaged or gone costs the whole way, where the cache notices it)."""
    return [(name, info) for name, info in folder.entries() if name != STAMP.as_posix()]


def unchanged(output: Path, key: str) -> dict[str, Any] | None:
    """The report of the stamp when it was made from `key` and the output folder is as that build left it."""
    folder = output_folder(output)
    try:
        if not folder.is_dir():
            return None
        stamp = json.loads(folder.read(STAMP, LIMIT) or b"")
    except (AidsError, ValueError, RecursionError):
        return None
    if not _valid(stamp) or stamp["key"] != key:
        return None
    files, before = stamp["files"], json.dumps(stamp["files"], sort_keys=True)
    try:
        found = _entries(folder)
        if {name for name, _ in found} != set(files):
            return None
        if not all(stat.S_ISREG(info.st_mode) and matches(folder, name, files[name]) for name, info in found):
            return None
        if json.dumps(files, sort_keys=True) != before:  # a copied folder: its files' new stat, for the next look
            folder.write(STAMP, _encoded(stamp))
    except AidsError:
        return None
    report: dict[str, Any] = stamp["report"]
    return report


def forget(output: Path) -> None:
    """No stamp: the build that begins may change the output folder."""
    folder = output_folder(output)
    if folder.is_dir() and folder.exists(STAMP):
        folder.remove(STAMP)


def record(output: Path, key: str, report: dict[str, Any]) -> None:
    """The stamp of a build that ended well: made from `key`, the output folder as it is now, `report`. Not made
    when the folder holds anything but regular files and folders (a link: the next build goes the whole way)."""
    folder = output_folder(output)
    files = {}
    for name, info in _entries(folder):
        written = file_record(folder, name) if stat.S_ISREG(info.st_mode) else None
        if written is None:
            return
        files[name] = written
    folder.write(STAMP, _encoded({"key": key, "files": files, "report": report}))


def _encoded(stamp: dict[str, Any]) -> bytes:
    return json.dumps(stamp, ensure_ascii=False, sort_keys=True, indent=0).encode("utf-8")


def _valid(stamp: Any) -> bool:
    return (isinstance(stamp, dict) and set(stamp) == {"key", "files", "report"} and isinstance(stamp["key"], str)
            and isinstance(stamp["report"], dict) and isinstance(stamp["files"], dict)
            and all(isinstance(name, str) and valid_output(v) for name, v in stamp["files"].items()))
