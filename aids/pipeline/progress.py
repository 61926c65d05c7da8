"""What a build tells whoever watches it while it works: a `Status` after every event of its jobs.

A build counts units -- an aid in one edition, all its stale languages -- and a unit is done when its files are
written. Between two units written, the jobs rendering now (an aid in one language) and the share of the work
done, each job weighed by its cost (its time in the last build, else a guess by its kind), tell the watcher what
is under way and how much is left. The builder says which jobs are running as far as it knows: in its own process
exactly (one at a time); in a pool or on a Dask cluster, the first jobs not yet done in the order they were
submitted, as many as the pool has workers (both start jobs in that order).

The watcher (`aids build`'s bar or lines, aids/commands/report.py; `aids serve`'s lines) only reads a Status: it
goes to the terminal (stderr), never into a file the build writes.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Status:
    total: int  # units to write
    written: int = 0  # units done so far
    last: str = ""  # the unit done last: `game [edition] aid pl en ru` ('' before the first)
    failed: int = 0  # units that failed so far (counted in `written`: done, their previous files kept)
    now: tuple[str, ...] = ()  # the jobs rendering now, as far as the builder knows: `game [edition] aid lang`
    share: float = 0.0  # the share of the work done (0 to 1), by the jobs' costs


Progress = Callable[[Status], None]


class Watch:
    """The builder's side: events of its jobs in, a Status out to `progress` (None: no one watches)."""

    def __init__(self, progress: Progress | None, total: int, label: Callable[[Any], str]):
        self.progress, self.label = progress, label
        self.status = Status(total)
        self.costs: dict[object, float] = {}
        self.pending: list[object] = []  # the jobs not done yet, in the order they were submitted
        self.slots = 1
        self.done = 0.0

    def plan(self, costs: dict[object, float], slots: int) -> None:
        """The jobs as submitted (dict order) with their costs; `slots`: how many run at once (1 in the build's own
        process, where the first job not done is exactly the one running)."""
        self.costs, self.pending, self.slots = costs, list(costs), max(slots, 1)
        self._tell(now=self._running())

    def rendered(self, job: object) -> None:
        """`job` is done (its files not written yet: its unit may wait for its other languages)."""
        if job in self.pending:
            self.pending.remove(job)
        self.done += self.costs.get(job, 0.0)
        whole = sum(self.costs.values())
        self._tell(now=self._running(), share=min(self.done / whole, 1.0) if whole else 1.0)

    def written(self, label: str, failed: bool = False) -> None:
        """A unit's files are written (`failed`: it failed, nothing of it written)."""
        self._tell(written=self.status.written + 1, last=label, failed=self.status.failed + failed)

    def _running(self) -> tuple[str, ...]:
        return tuple(self.label(job) for job in self.pending[:self.slots])

    def _tell(self, **changed) -> None:
        self.status = Status(**{**vars(self.status), **changed})
        if self.progress is not None and self.status.total:
            self.progress(self.status)
