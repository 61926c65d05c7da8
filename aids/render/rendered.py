"""What a renderer hands the writer: the bytes of one output file and what the build summary says of it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass
class Rendered:
    data: bytes
    pages: int = 0
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # facts for the summary, e.g. the type size a card fitted at
    remarks: list[str] = field(default_factory=list)  # said under its aid in the build summary (a note: --strict
    # passes), what its user would not expect: blank pages an imposition added
    fitted: dict[str, float] = field(default_factory=dict)  # type size (pt) fitted: a card's or a playsheet's as ""
    renders: int = 1  # layouts it took (a fitting loop tries several type sizes)
    last_page: float | None = None  # how full its last page is (0 to 1), for a PDF of pages of text
    preflight: list[str] = field(default_factory=list)  # what a print shop's preflight flags (warnings too; --strict
    # fails the aid): an image of a press PDF below the press's resolution (render/preflight.py)


class Printed(Protocol):
    """A document laid out in pages: its page count at once, its bytes only when asked (a fitting loop
    lays out several type sizes and writes one)."""

    @property
    def pages(self) -> int: ...

    def rendered(self) -> Rendered: ...
