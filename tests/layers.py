"""The suite's three layers, each test in exactly one, and each layer held to what its name says.

- unit: in this process and quick: reads sources, models, catalogs, templates; builds nothing, renders no PDF
  (WeasyPrint, ReportLab), starts no process and opens no socket. `pytest -m unit` is a developer's loop.
- integration: builds and renders, projects of its own or the samples, and may run local tools (qpdf, msgfmt,
  EPUBCheck, Pagefind) and servers on 127.0.0.1.
- system: the product against a whole outside system: a real browser, a real Weblate, a clean Debian root.

The rule that gives each test its layer: the closest `unit`, `integration` or `system` marker (the test's own,
else its class's, else its module's `pytestmark`: a module of unit tests marks itself and its few others one by
one); with none, `system` in tests/system/, else `integration`. Two on one test, class or module fail collection.
The markers it overrides are taken off, so `-m` sees the one layer. So a new test, or a new module, lands in
integration unless it says otherwise: the layer that claims least of a test.

Each claim is checked while the test runs (its set-up and its body): a unit test that builds, renders a PDF,
starts a process or opens a socket fails, and so does a unit or integration test that starts a system's program
(Chromium, Weblate and its servers, a chroot). A test in the wrong layer cannot pass unnoticed.

For pytest-xdist (`--dist loadgroup`), the tests that share a fixture of their module's (or class's) are sent to
one worker together, so that fixture is made once; the samples' builds of the session are made once for all the
workers (conftest.py, `shared`).
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

LAYERS = ("unit", "integration", "system")
# what a layer below may not do: audit events (sys.addaudithook) and the programs of a whole outside system
PROCESS_EVENTS = frozenset({"subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.exec", "os.spawn",
                            "os.system"})
SOCKET_EVENTS = frozenset({"socket.bind", "socket.connect"})
SYSTEM_PROGRAMS = frozenset({"chromium", "chromedriver", "mmdebstrap", "debootstrap", "chroot", "unshare", "initdb",
                             "pg_ctl", "postgres", "redis-server", "weblate"})
GROUPED_SCOPES = ("class", "module", "package")
SAMPLE, FOR_PRINT = "sample", "for_print_build"  # the session's builds every worker shares (conftest.py)
T = TypeVar("T")


class _Guard:
    """What the running test may do, and the first thing it did that its layer forbids."""

    def __init__(self):
        self.layer: str | None = None
        self.broken: str | None = None

    def forbid(self, what: str) -> None:
        if self.broken is None:
            self.broken = what
        raise LayerError(what)


class LayerError(Exception):
    pass


GUARD = _Guard()


def layer_of(item: pytest.Item) -> str:
    """The test's layer by the rule above."""
    for node in reversed(item.listchain()):
        found = {m.name for m in node.own_markers if m.name in LAYERS}
        if len(found) > 1:
            raise pytest.UsageError(f"{node.nodeid}: in two layers ({' and '.join(sorted(found))}): mark it one of "
                                    f"{', '.join(LAYERS)} (tests/layers.py)")
        if found:
            return found.pop()
    return "system" if "system" in Path(str(item.path)).relative_to(item.config.rootpath).parts[:2] else \
        "integration"


def shared_scope(item: pytest.Item) -> str | None:
    """The node id of the module (or class) whose fixture the test shares with others, if it uses one."""
    info = getattr(item, "_fixtureinfo", None)
    scopes = {d.scope for defs in (info.name2fixturedefs.values() if info else ()) for d in defs}
    if not scopes & set(GROUPED_SCOPES):
        return None
    return item.nodeid.split("::")[0]


def pytest_itemcollected(item: pytest.Item) -> None:
    """The tests sharing a module's (or class's) fixture grouped for xdist, as each is collected: xdist names the
    groups in its own pytest_collection_modifyitems, which may run before ours (then each test was its own group,
    and every module's fixture was made once in each worker)."""
    group = shared_scope(item)
    if group:
        item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test's layer, as its own marker and in its stash; then the layer markers of its class and module off
    (each test has its own now), and the tests sharing a module's fixture grouped for xdist. In an xdist worker,
    sorted in the order they are to be handed out (_run_order)."""
    for item in items:
        item.stash[LAYER] = layer_of(item)
    for item in items:
        for node in item.listchain()[:-1]:
            node.own_markers[:] = [m for m in node.own_markers if m.name not in LAYERS]
        if not any(m.name in LAYERS for m in item.own_markers):
            item.add_marker(item.stash[LAYER])
    if hasattr(config, "workerinput"):
        items.sort(key=_run_order(items))


def _run_order(items: list[pytest.Item]) -> Callable[[pytest.Item], tuple[int, int]]:
    """The order an xdist worker is handed the tests (`--no-loadscope-reorder`): the system tests first and the
    unit tests last, so that the longest start early and the shortest fill in at the end; and the builds of the
    samples the workers share (conftest.py) made while the other worker has tests that need none, not while it
    waits for the lock: in the system layer, the tests without a shared build first (Weblate, the clean Debian
    root: minutes that need no sample), so one worker builds the samples while the other runs them; in the
    integration layer, the first module that needs the for-print build first and the others that need it last,
    so it is made while the other worker runs what needs only the samples (or nothing)."""
    def needs(item: pytest.Item, build: str) -> bool:
        return build in getattr(item, "fixturenames", ())
    for_print = [item.nodeid.split("::")[0] for item in items
                 if item.stash[LAYER] == "integration" and needs(item, FOR_PRINT)]

    def key(item: pytest.Item) -> tuple[int, int]:
        layer = item.stash[LAYER]
        if layer == "system":
            phase = int(needs(item, SAMPLE) or needs(item, FOR_PRINT))
        elif layer == "integration" and needs(item, FOR_PRINT):
            phase = 0 if item.nodeid.split("::")[0] == for_print[0] else 2
        else:
            phase = 1
        return LAYERS[::-1].index(layer), phase
    return key


LAYER = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    for name, what in (("unit", "in-process and quick: builds, renders, runs and serves nothing"),
                       ("integration", "builds and renders; local tools and servers on 127.0.0.1"),
                       ("system", "a whole outside system: a real browser, Weblate, a clean Debian root")):
        config.addinivalue_line("markers", f"{name}: {what} (tests/layers.py)")
    config.addinivalue_line("markers", "xdist_group(name): run in one pytest-xdist worker with the others of name")
    if getattr(config.option, "dist", "no") != "no" and not hasattr(config, "workerinput"):
        return  # the controller of xdist's workers runs no test
    _install()


_installed = False


def _install() -> None:
    """The checks, once per process: an audit hook for processes and sockets, wrappers for builds and renderers."""
    global _installed
    if _installed:
        return
    _installed = True
    sys.addaudithook(_audit)
    import weasyprint
    from reportlab.pdfgen import canvas

    from aids.pipeline import builder
    _wrap(weasyprint.HTML, "render", "renders a PDF (WeasyPrint)")
    _wrap(canvas.Canvas, "save", "renders a PDF (ReportLab)")
    _wrap(builder, "build", "builds a project (aids.pipeline.builder.build)")


def _wrap(owner, name: str, what: str) -> None:
    original = getattr(owner, name)

    def checked(*args, **kwargs):
        if GUARD.layer == "unit":
            GUARD.forbid(what)
        return original(*args, **kwargs)
    checked.__wrapped__ = original  # type: ignore[attr-defined]
    setattr(owner, name, checked)


def _audit(event: str, args: tuple) -> None:
    layer = getattr(GUARD, "layer", None)  # None too as the interpreter ends, its modules' names cleared
    if layer is None or layer == "system":
        return
    if event in PROCESS_EVENTS:
        program = _program(event, args)
        if layer == "unit":
            GUARD.forbid(f"starts a process ({event}{': ' + program if program else ''})")
        elif program in SYSTEM_PROGRAMS or "/.cache/weblate/" in program:
            GUARD.forbid(f"starts {program}, a system's program")
    elif event in SOCKET_EVENTS and layer == "unit":
        GUARD.forbid(f"opens a socket ({event} {args[1]!r})")


def _program(event: str, args: tuple) -> str:
    """The program a process event starts, as a name (a path's last part), or "" for a fork."""
    if event == "subprocess.Popen":
        executable, argv = args[0], args[1]
        first = executable or (argv if isinstance(argv, (str, bytes, os.PathLike)) else (list(argv) or [""])[0])
        first = os.fsdecode(first) if isinstance(first, (bytes, os.PathLike)) else str(first)
        return first if "/.cache/weblate/" in first else Path(first.split()[0] if first else "").name
    if event in ("os.exec", "os.posix_spawn", "os.spawn") and args:
        return Path(os.fsdecode(args[0])).name
    return ""


def _checked(item: pytest.Item):
    """The phase of `item` run with its layer's checks; a check broken fails it, saying so (whatever the code
    under test made of the error it got)."""
    GUARD.layer, GUARD.broken = item.stash.get(LAYER, None), None
    failed: BaseException | None = None
    try:
        yield
    except BaseException as error:
        failed = error
    broken, GUARD.layer, GUARD.broken = GUARD.broken, None, None
    if broken:
        layer = item.stash[LAYER]
        above = "system" if layer == "integration" else "integration"
        pytest.fail(f"{item.nodeid} is in the {layer} layer but {broken}: mark it @pytest.mark.{above} "
                    "(tests/layers.py)", pytrace=False)
    if failed is not None:
        raise failed


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item):
    yield from _checked(item)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    yield from _checked(item)


# --- what the workers share -------------------------------------------------------------------------------------

def shared(request: pytest.FixtureRequest, name: str, make: Callable[[Path], T]) -> tuple[Path, T]:
    """The folder `name` and what `make(folder)` returned, made once for the whole run: with pytest-xdist, by the
    first worker to ask, under a lock, while the others wait and then read what it kept. For a fixture of the
    session (`request` is its own). Tests read the folder and never change it: as the session ends it must hold the
    bytes it held when made (a test that edits copies it first, helpers.copy_project)."""
    factory: pytest.TempPathFactory = request.getfixturevalue("tmp_path_factory")
    base = factory.getbasetemp().parent if os.environ.get("PYTEST_XDIST_WORKER") else factory.getbasetemp()
    folder, kept = base / name, base / f"{name}.pickle"
    with open(base / f"{name}.lock", "wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if kept.exists():
            made = pickle.loads(kept.read_bytes())
        else:
            folder.mkdir()
            try:
                made = ("made", make(folder), tree_digest(folder))
            except Exception as error:  # the other workers fail with it at once, not after making it again
                kept.write_bytes(pickle.dumps(("failed", f"{type(error).__name__}: {error}", "")))
                raise
            kept.write_bytes(pickle.dumps(made))
    if made[0] == "failed":
        pytest.fail(f"{name}, made once for every worker, failed: {made[1]}", pytrace=False)

    def unchanged() -> None:
        assert tree_digest(folder) == made[2], f"a test changed {folder}, which every test shares: copy it first"
    request.addfinalizer(unchanged)
    return folder, made[1]


def tree_digest(folder: Path) -> str:
    """The names and bytes of every file under `folder`."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()
