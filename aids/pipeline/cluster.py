"""`aids build --scheduler tcp://HOST:PORT`: the build's jobs on a Dask cluster (Dask's distributed package, the
`dask` extra), or one line saying why not, within seconds, before anything is read or written."""
from __future__ import annotations

import concurrent.futures as cf
import re
from typing import NoReturn

from ..errors import AidsError, Position, Problem

COMMAND_LINE = Position("command line")
SECONDS = 10  # to connect and shake hands: an address that never answers fails in this time, not never
ADDRESS = re.compile(r"(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):([0-9]{1,5})")
EXPECTED_ADDRESS = "tcp://HOST:PORT or tls://HOST:PORT, e.g. tcp://10.0.0.5:8786"
EXPECTED_SCHEDULER = "the address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786"


def address_fault(address: str) -> str:
    """What is wrong with `address` as a scheduler's address ('' when nothing): checked before connecting."""
    found = ADDRESS.fullmatch(address)
    if not found:
        return f"'{address}' is not a Dask scheduler's address"
    if not 1 <= int(found[3]) <= 65535:
        return f"port {found[3]} of '{address}' is not from 1 to 65535"
    return ""


def check(address: str, seconds: float | None = None) -> None:
    """Fails, within `seconds`, when nothing at `address` shakes hands as a Dask scheduler: a closed port, a host
    that does not answer, or a server of another protocol (which distributed would wait on, or misread)."""
    import asyncio
    import socket
    distributed = _distributed()
    connect = distributed.comm.connect
    security = distributed.Security().get_connection_args("client")  # tls://: the certificates Client would use
    seconds = SECONDS if seconds is None else seconds
    found = ADDRESS.fullmatch(address)
    if found:  # a closed port fails at once (distributed would try it again and again until the time is up)
        try:
            socket.create_connection((found[2].strip("[]"), int(found[3])), timeout=seconds).close()
        except OSError as exc:
            _fail(address, exc.strerror or str(exc) or type(exc).__name__)

    async def shake_hands() -> None:
        comm = await connect(address, timeout=seconds, **security)
        await comm.close()

    try:
        asyncio.run(asyncio.wait_for(shake_hands(), seconds))
    except TimeoutError:
        _fail(address, f"no answer as a Dask scheduler within {seconds:g} s")
    except Exception as exc:  # whatever another server sends, distributed's reading of it may raise anything
        _fail(address, str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__)


def _fail(address: str, why: str) -> NoReturn:
    raise AidsError(Problem(COMMAND_LINE, f"no Dask scheduler at {address}: {why}", EXPECTED_SCHEDULER))


def _distributed():
    try:
        import distributed
        import distributed.comm
    except ImportError:
        raise AidsError(Problem(COMMAND_LINE, "--scheduler needs Dask's distributed package",
                                "pip install 'aids[dask]'")) from None
    return distributed


class DaskPool(cf.Executor):
    """A Dask cluster through its `concurrent.futures` executor; the client closed with the pool."""

    def __init__(self, address: str):
        Client = _distributed().Client
        try:
            self.client = Client(address, timeout=SECONDS)
        except Exception as exc:  # see check(): a scheduler gone since, or not one
            _fail(address, str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__)
        self.executor = self.client.get_executor()
        self.slots = sum(self.client.nthreads().values()) or 1  # the jobs the cluster runs at once, now

    def submit(self, fn, /, *args, **kwargs):
        return self.executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.executor.shutdown(wait=wait)
        self.client.close()
