"""Atomic file writes: a temporary file beside the target, then one rename."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fp:
            fp.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_all(outputs: dict[Path, bytes]) -> None:
    """Write every output of one aid; nothing is replaced until all of them have been rendered."""
    for path, data in outputs.items():
        write_atomic(path, data)
