"""The last stage: every output of one aid written, once all of it has been rendered."""
from __future__ import annotations

from pathlib import Path

from ..files import write_atomic


def write_all(outputs: dict[Path, bytes]) -> None:
    """Write every output of one aid; nothing is replaced until all of them have been rendered."""
    for path, data in outputs.items():
        write_atomic(path, data)
