"""`aids serve`: a live preview. The built aids served on localhost, rebuilt as their sources change.

A watcher (watchfiles) sees a change under the games, the catalogs or aids.yaml and starts an
incremental build, in three parts (issue 30): first the games changed in the language looked at (that of
the last page or PDF requested, else the first chosen), HTML and PDF, published as soon as written; then the
same games in the other languages; then the build of everything: what else the change made stale, the site
and the search index. Each part is `aids build`'s own (builder.build): the files written are those it writes.
An aid is so written a language at a time: one that fails in another language keeps the new files of the
language looked at (as `aids build --lang L` writes them), where one `aids build` would write none of it.
The process keeps what it parsed of the sources by the digest of their text (yamlfile.keep_parsed), and
aids' own digest (fingerprint.tool_digest) until a file that is not a game's source or catalog changes.
Every open page listens on an event stream: it reloads when its own file was rewritten, and
shows the build's errors (positioned, as the command line prints them) in a panel instead of the
server stopping. Pages are served as built, with a small script added in flight (the files on disk
stay as `aids build` writes them).

Safe to leave running: nothing is served outside the output folder, nor through a symbolic link in it, nor
from aids' own state folders in it (.aids-cache, .aids-staging); a request naming another host than this
machine's loopback names is refused (421: a DNS-rebinding page cannot read the preview); a connection idle
for IDLE seconds is closed; a malformed path is answered 400 or 404, never a traceback. The port is taken
before the first build, so that a port in use fails at once.
"""
from __future__ import annotations

import html
import json
import queue
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ..config import Project, read_project
from ..errors import AidsError, Position, Problem
from ..localize.ui import load_ui
from ..pipeline import builder
from ..pipeline.fingerprint import sources_digest, tool_digest
from ..pipeline.pipeline import Options
from ..pipeline.progress import Status
from ..source.yamlfile import keep_parsed
from .report import Progress

EVENTS = "/_aids/events"
IDLE = 30  # seconds a connection may send nothing before it is closed
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
STATUS = "/_aids/status"
# Added before </body> of every page served: reload on a change of this page, errors in a panel.
CLIENT = """<script>(() => {
  const me = decodeURIComponent(location.pathname).replace(/^\\//, "");
  const panel = document.createElement("div");
  panel.id = "aids-errors";
  panel.style.cssText = "position:fixed;left:0;right:0;bottom:0;max-height:45%;overflow:auto;margin:0;" +
    "padding:.6em 1em;background:#fff3f3;color:#8a0000;border-top:3px solid #c00;font:13px/1.4 monospace;" +
    "white-space:pre-wrap;z-index:2147483647;display:none";
  document.body.appendChild(panel);
  const show = (state) => {
    panel.textContent = state.errors.join("\\n");
    panel.style.display = state.errors.length ? "block" : "none";
    document.documentElement.dataset.aidsBuild = String(state.build);
  };
  fetch("/_aids/status").then((r) => r.json()).then(show);
  const events = new EventSource("/_aids/events");
  events.onmessage = (message) => {
    const state = JSON.parse(message.data);
    show(state);
    if (state.changed.includes(me) || (me === "" && state.changed.length)) location.reload();
  };
})();</script>"""


@dataclass
class State:
    """What the pages are told: the number of builds so far, their errors, the files the last one wrote."""
    build: int = 0
    errors: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    partial: bool = False  # the first part of a rebuild: the language looked at, the rest still to come
    listeners: list[queue.Queue[str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def publish(self, errors: list[str], changed: list[str], partial: bool = False) -> None:
        with self.lock:
            self.build += 1
            self.errors, self.changed, self.partial = errors, changed, partial
            message = self.message()
            for listener in self.listeners:
                listener.put(message)

    def message(self) -> str:
        return json.dumps({"build": self.build, "errors": self.errors, "changed": self.changed,
                           "partial": self.partial}, ensure_ascii=False)


class Preview:
    """The project's aids kept built: `rebuild()` on every change, its outcome published to the pages."""

    def __init__(self, root: Path, games: list[str] | None, langs: list[str] | None):
        self.root, self.games, self.langs = root, games, langs
        self.state = State()
        self.project: Project = read_project(root)
        self.looked_at: str | None = None  # the language of the last page or PDF requested
        self.say: Callable[[str], None] = lambda line: None  # the terminal: each rebuild, each error
        keep_parsed()  # a source saved is parsed again; the others are not (kept by the digest of their text)

    def look(self, path: str) -> None:
        """A page or PDF of the output folder was requested (its path, from the output folder): its language
        is the one looked at (a folder's name, or the site's index.<lang>.html)."""
        *folders, name = path.strip("/").split("/")
        found = [part for part in [*folders, name.removeprefix("index.").removesuffix(".html")]
                 if part in self.project.languages]
        if found:
            self.looked_at = found[-1]

    def first(self) -> str | None:
        """The language built first: the one looked at, else the first chosen."""
        chosen = self.langs or self.project.languages
        return self.looked_at if self.looked_at in chosen else (chosen[0] if chosen else None)

    def rebuild(self, paths: Iterable[Path] | None = None) -> None:
        """After a change of `paths` (None: of anything): the games they belong to in the language looked at,
        published as soon as written; then in the other languages; then the build of everything. Any error goes
        to the pages, never out of the server."""
        games = self.games_of(paths)
        if paths:
            names = sorted(self.project.show(Path(p)) for p in paths)
            self.say(f"changed: {', '.join(names[:3])}" + (f" and {len(names) - 3} more" if len(names) > 3 else ""))
        if games is None:  # not only games' sources and catalogs: a template, the package's catalog, aids.yaml
            tool_digest.cache_clear()  # (in a checkout of aids itself, where they are watched: see watched)
            load_ui.cache_clear()
        try:
            self.project = read_project(self.root)
        except AidsError as exc:
            return self.publish([str(exc)], [])
        except Exception as exc:  # a bug of aids: shown in the page; the server goes on
            return self.publish([internal(exc)], [])
        for options in self.parts(games):
            errors: list[str] = []
            started = time.monotonic()
            changed = self.build(options, errors)
            what = ", ".join(options.games or ["every game"]) + f" ({', '.join(options.langs or ['every language'])})"
            self.say(f"rebuilt {what if options.partial else 'the rest, the site and its index'}: "
                     f"{len(changed)} file(s) in {time.monotonic() - started:.2f} s"
                     + (f", {len(errors)} error(s):" if errors else ""))
            self.publish(errors, changed, partial=options.partial)

    def publish(self, errors: list[str], changed: list[str], partial: bool = False) -> None:
        """To the pages and the terminal alike: the errors of a build, each as the command line prints it."""
        for error in errors:
            self.say(error)
        self.state.publish(errors, changed, partial)

    def parts(self, games: list[str] | None) -> list[Options]:
        """The builds of a change of `games` (None: of anything), in order: the language looked at; the other
        languages of the games changed; everything (the site and the search index too)."""
        first, chosen = self.first(), self.langs or self.project.languages
        if games is not None:  # those of the games changed that are built
            games = [g for g in games if g in self.project.game_ids() and (self.games is None or g in self.games)]
        parts = []
        if first is not None and (games or (games is None and len(chosen) > 1)):
            parts.append(Options(games=games or self.games, langs=[first], jobs=1, partial=True))
        if games and len(chosen) > 1:
            parts.append(Options(games=games, langs=self.langs, jobs=1, partial=True))
        return [*parts, Options(games=self.games, langs=self.langs, jobs=1)]

    def build(self, options: Options, errors: list[str]) -> list[str]:
        """`aids build` with `options`: the files it wrote (from the output folder); its errors added to `errors`."""
        changed: list[str] = []
        try:
            summary = builder.build(self.project, options, progress=self.progress())
            errors += [str(e) for e in summary.failed]
            output = self.project.output
            changed = [(self.root / f).relative_to(output).as_posix()
                       for f in [*(f for b in summary.built for f in b.files), *summary.site]]
        except AidsError as exc:
            errors.append(str(exc))
        except Exception as exc:  # a bug of aids: shown in the page; the server goes on
            errors.append(internal(exc))
        errors[:] = list(dict.fromkeys(errors))
        return changed

    def progress(self) -> Callable[[Status], None]:
        """A line on the terminal per aid written, in a build of more than one (the first build of a project)."""
        lines = Progress(mode="lines", say=lambda text: self.say(f"  {text}"))
        return lambda status: lines(status) if status.total > 1 else None

    def games_of(self, paths: Iterable[Path] | None) -> list[str] | None:
        """The games whose sources or catalogs `paths` are; None if any is something else (or not known)."""
        if paths is None:
            return None
        games_dir, catalogs, known = self.project.games_dir.resolve(), self.project.catalogs.resolve(), \
            self.project.game_ids()
        games: set[str] = set()
        for path in (p.absolute().parent.resolve() / p.name for p in paths):  # as the watcher names it, or not
            source = path.relative_to(games_dir).parts if path.is_relative_to(games_dir) else ()
            po = path.relative_to(catalogs).parts if path.is_relative_to(catalogs) else ()
            if len(source) >= 2:  # games/<game>/...
                games.add(source[0])
            elif len(po) == 3 and po[1] == "LC_MESSAGES" and po[2][-3:] in (".po", ".mo") and \
                    po[2][:-3].split(".")[0] in known:
                games.add(po[2][:-3].split(".")[0])  # catalogs/<lang>/LC_MESSAGES/<game>.po or <game>.<aid>.po
            else:
                return None
        return sorted(games)

    def watched(self) -> list[Path]:
        """The games, the catalogs, aids.yaml, and the templates where they are part of the project (aids'
        own tree, or a kind of the project's own)."""
        from importlib import resources

        from ..kinds import registry
        folders = [Path(str(resources.files("aids.templates"))),
                   *(Path(k.template_folder) for k in registry().values() if k.template_folder)]
        root = self.root.resolve()
        return [self.project.games_dir, self.project.catalogs, self.root / "aids.yaml",
                *(f for f in folders if f.resolve().is_relative_to(root))]


class Handler(SimpleHTTPRequestHandler):
    """A request to the preview: a page (with the client script), a PDF, the start page, the event stream."""
    preview: Preview  # set by `handler`

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, directory=str(self.preview.project.output), **kwargs)

    timeout = IDLE  # socketserver: a connection that sends nothing for this long is closed

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal shows builds, not GETs
        pass

    def do_HEAD(self) -> None:
        self.send_error(HTTPStatus.METHOD_NOT_ALLOWED)

    def do_GET(self) -> None:
        if not local_host(self.headers.get("Host", ""), self.server.server_address[1]):  # type: ignore[index]
            return self.send_error(HTTPStatus.MISDIRECTED_REQUEST, "this preview answers for 127.0.0.1 only")
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path == EVENTS:
            referer = self.headers.get("Referer", "")  # the page listening: the one looked at
            self.preview.look(referer.split("://", 1)[-1].partition("/")[2].split("?", 1)[0])
            return self.events()
        if path == STATUS:
            return self.send(self.preview.state.message().encode("utf-8"), "application/json")
        if path == "/":
            return self.send(index(self.preview.project).encode("utf-8"), "text/html; charset=utf-8")
        return self.file(path)

    def file(self, path: str) -> None:
        translated = self.translate_path(path)
        if "\x00" in translated:  # no file has such a name: a probe
            return self.send_error(HTTPStatus.BAD_REQUEST)
        local = served(self.preview.project.output, translated)
        if local is None:
            return self.send_error(HTTPStatus.NOT_FOUND)
        if local.suffix in (".html", ".pdf"):
            self.preview.look(local.relative_to(self.preview.project.output.resolve()).as_posix())
        if local.suffix == ".html":
            page = local.read_bytes().decode("utf-8", errors="replace")
            return self.send(with_client(page).encode("utf-8"), "text/html; charset=utf-8")
        return self.send(local.read_bytes(), self.guess_type(str(local)))

    def send(self, body: bytes, kind: str) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        listener: queue.Queue[str] = queue.Queue()
        with self.preview.state.lock:
            self.preview.state.listeners.append(listener)
        try:
            while True:
                try:
                    message = listener.get(timeout=15)
                    self.wfile.write(f"data: {message}\n\n".encode())
                except queue.Empty:
                    self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
        except OSError:  # the page went away
            pass
        finally:
            with self.preview.state.lock:
                self.preview.state.listeners.remove(listener)


def internal(exc: Exception) -> str:
    return f"internal error in aids: {type(exc).__name__}: {exc} (please report it)"


def handler(preview: Preview) -> type[SimpleHTTPRequestHandler]:
    return type("PreviewHandler", (Handler,), {"preview": preview})


def local_host(host: str, port: int | str) -> bool:
    """Whether a request's Host header names this machine's loopback (with this port, or none)."""
    name, _, given = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not name:
        name, given = host, ""
    return name.lower() in LOCAL_HOSTS and given in ("", str(port))


def served(output: Path, local: str) -> Path | None:
    """The file a request names, if it may be served: a regular file below `output`, no part of its path a
    symbolic link or a hidden folder (aids' own state: .aids-cache, .aids-staging), its name not too long."""
    root = output.resolve()
    try:
        relative = Path(local).relative_to(Path(str(output)).absolute())
    except ValueError:
        return None
    path = root
    try:
        for part in relative.parts:
            if part.startswith(".") or len(part.encode()) > 255:
                return None
            path = path / part
            if path.is_symlink():
                return None
        if path.is_dir():
            path = path / "index.html"
            if path.is_symlink():
                return None
        return path if path.is_file() and path.resolve().is_relative_to(root) else None
    except OSError:
        return None


def with_client(page: str) -> str:
    at = page.rfind("</body>")
    return page[:at] + CLIENT + page[at:] if at >= 0 else page + CLIENT


def index(project: Project) -> str:
    """The start page: every built page and PDF, by game and language."""
    rows = []
    for path in sorted(project.output.rglob("*")):
        if path.suffix in (".html", ".pdf") and ".aids-" not in str(path):
            name = path.relative_to(project.output).as_posix()
            rows.append(f'<li><a href="/{html.escape(name)}">{html.escape(name)}</a></li>')
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>aids preview</title>"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"></head><body>"
            f"<h1>aids preview</h1><ul>{''.join(rows)}</ul></body></html>")


def watch(preview: Preview, stop: threading.Event, on_build: Callable[[], None] = lambda: None,
          armed: threading.Event | None = None, built: str | None = None) -> None:
    """Rebuild on every batch of changes until `stop` is set. Once the watch is in place, `armed` is set, and if
    the sources are no longer those of digest `built` (taken before the first build: an edit made while it ran,
    or before the watch was in place, which no event reports) they are built again."""
    from watchfiles import watch as changes

    for found in changes(*[p for p in preview.watched() if p.exists()], stop_event=stop, debounce=200, step=50,
                         yield_on_timeout=True, rust_timeout=250):
        missed = False
        if armed is not None and not armed.is_set():
            armed.set()
            missed = sources_digest(preview.project) != built
        if found or missed:
            preview.rebuild(None if missed else {Path(name) for _, name in found})
            on_build()


def serve(root: Path, games: list[str] | None, langs: list[str] | None, port: int,
          ready: Callable[[str], None] = print) -> None:
    """Build, serve on 127.0.0.1:`port`, rebuild on change, until interrupted."""
    preview = Preview(root, games, langs)
    try:  # the port first: one in use fails now, not after the first build
        server = ThreadingHTTPServer(("127.0.0.1", port), handler(preview))
    except OSError as exc:
        raise AidsError(Problem(Position(f"--port {port}"), f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}",
                                "a free port, or --port 0 for any")) from None
    server.daemon_threads = True
    built = sources_digest(preview.project)  # before the first build: an edit while it runs is built after it
    preview.rebuild()
    stop, armed = threading.Event(), threading.Event()
    watcher = threading.Thread(target=watch, args=(preview, stop), kwargs={"armed": armed, "built": built},
                               daemon=True)
    watcher.start()
    armed.wait(10)  # "serving" means an edit from now on is seen
    ready(f"serving {preview.project.show(preview.project.output)} at http://127.0.0.1:{server.server_port}/ "
          f"(Ctrl-C to stop); errors: {len(preview.state.errors)}")
    for error in preview.state.errors:  # what the pages show
        ready(error)
    preview.say = ready  # from now on, each rebuild and its errors
    try:
        server.serve_forever()
    finally:
        stop.set()
        server.server_close()

