"""What a renderer hands the writer: the bytes of one output file and what the build summary says of it."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Rendered:
    data: bytes
    pages: int = 0
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # facts for the summary, e.g. the type size a card fitted at
