"""The last stage: every file of one aid written together, or none of them.

The files are first written into a staging folder inside the output folder, then a journal naming
each of them is committed with one rename, then each file is moved into place. A build stopped while
staging leaves the previous files; one stopped after the commit is completed by the next build
(`recover`), so an aid's files are never left half old, half new. Stale temporary files go too.
"""
from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path

from ..files import write_atomic

STAGING = ".aids-staging"
JOURNAL = "journal.json"  # present only once every file is staged: the commit point
FAULT = "AIDS_FAULT"  # for the tests: "stage:N" or "switch:N" ends the process before the N-th file


def write_all(outputs: dict[Path, bytes], output: Path) -> None:
    """Write every file of one aid (all inside `output`): all of them, or none."""
    staging = output / STAGING / uuid.uuid4().hex
    staging.mkdir(parents=True)
    moves = []
    for n, (path, data) in enumerate(sorted(outputs.items()), start=1):
        _fault("stage", n)
        staged = staging / str(n)
        staged.write_bytes(data)
        moves.append((str(n), str(path.relative_to(output))))
    write_atomic(staging / JOURNAL, json.dumps(moves).encode("utf-8"))
    _switch(staging, output)


def _switch(staging: Path, output: Path) -> None:
    """Move the staged files of a committed journal into place, then drop the staging folder."""
    moves = json.loads((staging / JOURNAL).read_text(encoding="utf-8"))
    for n, (name, target) in enumerate(moves, start=1):
        _fault("switch", n)
        staged, path = staging / name, output / target
        if staged.exists():  # a move done before an interruption is not done again
            path.parent.mkdir(parents=True, exist_ok=True)
            os.chmod(staged, 0o644)
            os.replace(staged, path)
    shutil.rmtree(staging)
    try:
        staging.parent.rmdir()  # the staging area goes with its last aid
    except OSError:
        pass


def recover(output: Path) -> None:
    """Before a build writes anything: finish every committed switch, discard every uncommitted staging,
    and remove the temporary files an interrupted write left behind."""
    root = output / STAGING
    if root.is_dir():
        for staging in sorted(root.iterdir()):
            if (staging / JOURNAL).is_file():
                _switch(staging, output)
            else:
                shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(root, ignore_errors=True)
    if output.is_dir():
        for stale in output.rglob(".*.tmp"):
            stale.unlink(missing_ok=True)


def _fault(step: str, n: int) -> None:
    if os.environ.get(FAULT) == f"{step}:{n}":
        os._exit(137)  # as a kill would: no cleanup, no exception handlers
