"""What an output format can do, as data (render/formats.py): which kinds it applies to, what it needs, which
format it is a variant of and for which print profile. The pipeline reads these instead of naming formats."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Capabilities:
    """What a format applies to and what it needs (formats.py reads it: `applies`, `variants`, `paged`), so that a
    format is named in its own module only."""
    kinds: str | None = None  # the flag a kind must have for the format to apply to it (Kind.bound, Kind.reflowable)
    paged: bool = False  # it prints pages with WeasyPrint: imported, and Pango found, before anything is built
    of: str | None = None  # the format it is a variant of (press and gray: pdf; imposed-press: imposed) ...
    profile: str | None = None  # ... for this print profile: made with `of` for a game aids.yaml prints so (or
    # wherever a format of that profile is asked for)
