"""Where a build's jobs run: in the build's own process, a pool of worker processes (one a core), or a Dask
cluster's workers."""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import sys

from .errors import AidsError, Position, Problem
from .pipeline import Options


def executor(options: Options, count: int) -> cf.Executor | None:
    """Where jobs run: None for this process (one job, or --jobs 1), a process pool, or a Dask cluster."""
    if options.scheduler:
        return DaskPool(options.scheduler)
    workers = min(options.jobs or os.cpu_count() or 1, count)
    if workers <= 1:
        return None
    if {"pdf", "press", "imposed", "imposed-press"} & set(options.formats):  # imported once, not in every worker
        from .render.pdf import weasyprint
        weasyprint()
    return cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=_die_with_parent,
                                  initargs=(os.getpid(),))


def _die_with_parent(parent: int) -> None:
    """A worker ends when the build that started it ends, however it ends: killed while writing, the build
    would leave its workers waiting forever on a queue whose other end they hold themselves (forked)."""
    if sys.platform == "linux":
        import ctypes
        import signal
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the build ended before the line above
            os._exit(1)


class DaskPool(cf.Executor):
    """A Dask cluster through its `concurrent.futures` executor; the client closed with the pool."""

    def __init__(self, address: str):
        try:
            from distributed import Client
        except ImportError:
            raise AidsError(Problem(Position("command line"), "--scheduler needs Dask's distributed package",
                                    "pip install 'aids[dask]'")) from None
        try:
            self.client = Client(address, timeout=10)
        except OSError as exc:
            raise AidsError(Problem(Position("command line"), f"no Dask scheduler at {address}: {exc}",
                                    "the address of a running scheduler, e.g. tcp://10.0.0.5:8786")) from None
        self.executor = self.client.get_executor()

    def submit(self, fn, /, *args, **kwargs):
        return self.executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.executor.shutdown(wait=wait)
        self.client.close()
