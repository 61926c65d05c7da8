"""Where a build's jobs run: in the build's own process, a pool of worker processes (one a core), or a Dask
cluster's workers."""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import sys

from ..render.formats import paged
from .cluster import DaskPool
from .pipeline import Options


def executor(options: Options, count: int) -> cf.Executor | None:
    """Where jobs run: None for this process (one job, or --jobs 1), a process pool, or a Dask cluster."""
    if options.scheduler:
        return DaskPool(options.scheduler)
    workers = min(options.jobs or os.cpu_count() or 1, count)
    if workers <= 1:
        return None
    if paged(options.formats or ()):  # imported once, not in every worker
        from ..render.pdf import weasyprint
        weasyprint()
    return Pool(workers, mp_context=multiprocessing.get_context("fork"), initializer=_start_worker,
                initargs=(os.getpid(),))


class Pool(cf.ProcessPoolExecutor):
    """A pool of worker processes that says how many jobs it runs at once."""

    def __init__(self, workers: int, **kwargs):
        super().__init__(workers, **kwargs)
        self.slots = workers


def slots(pool: cf.Executor | None) -> int:
    """How many jobs run at once: 1 in the build's own process, the pool's workers, the cluster's threads."""
    return 1 if pool is None else getattr(pool, "slots", 1)


def _start_worker(parent: int) -> None:
    _die_with_parent(parent)
    from multiprocessing import util

    from ..render.pdf import release_all
    util.Finalize(None, release_all, exitpriority=10)  # run as the worker ends, before its os._exit


def _die_with_parent(parent: int) -> None:
    """A worker ends when the build that started it ends, however it ends: killed while writing, the build
    would leave its workers waiting forever on a queue whose other end they hold themselves (forked)."""
    if sys.platform == "linux":
        import ctypes
        import signal
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the build ended before the line above
            os._exit(1)
