"""Save to preview: how long after a source is saved `aids serve` shows the new PDF (issue 30).

    .venv/bin/python benchmarks/preview.py [--rounds 5] [--look en] [--only]

Starts the real `aids serve` (a subprocess, on a scratch copy of the samples; the repository's build/ is not
touched), waits for its first build, and keeps an event stream open as an open page does. Then, every round,
it looks at a page (GET of the HTML page of the aid in language --look, as a browser showing it does), saves
an edit of that aid's source (another text each time) and times, from the save:
  - look: until the PDF of the language looked at has been rewritten (its bytes changed on disk);
  - all: until the PDFs of every language have been rewritten;
  - idle: until the server published its last event for the save (nothing more for QUIET seconds).
Two edits: one step of Ostrołęka 1831's sequence of play, one item of Lwów 1920's referee card (the source
language is Polish: the other languages show the new text too, untranslated). With --only, serve is started
with `--lang LOOK` (only the language looked at is built). It prints, per edit, the median and the spread
(lowest and highest) over the rounds. Figures only: nothing here asserts a time. To time another tree of aids
(say, the main branch's, checked out or `git archive`d into OTHER), run it with PYTHONPATH=OTHER: serve is
started with this Python and its environment.
"""
from __future__ import annotations

import argparse
import http.client
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from samples import scratch  # benchmarks/samples.py (a script's own folder is on sys.path)

QUIET = 2.0  # seconds without an event after which a save's rebuild is taken to be over
TIMEOUT = 120.0

# edit -> (game, aid id, source, the text edited: a pattern and its replacement for round n)
EDITS = {
    "sequence": ("ostroleka-1831", "sequence-of-play", "sequence.yaml",
                 r"Każdy z graczy kładzie( \(\d+\))? wszystkie", "Każdy z graczy kładzie ({n}) wszystkie"),
    "card": ("lwow-1920", "referee-card", "referee-card.yaml",
             r"Samolot nie cofa się( \(\d+\))?\.", "Samolot nie cofa się ({n})."),
}


class Events:
    """The server's event stream, read as an open page reads it: the time of each event."""

    def __init__(self, port: int):
        self.times: list[float] = []
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        self.connection.request("GET", "/_aids/events")
        self.response = self.connection.getresponse()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        try:
            for line in self.response:
                if line.startswith(b"data: "):
                    self.times.append(time.perf_counter())
        except OSError:
            pass

    def quiet_since(self, start: float) -> float:
        """Wait until no event came for QUIET seconds (from now on, or from the last one); the time of the last
        one after `start` (or `start`)."""
        now = time.perf_counter()
        while True:
            last = max([t for t in self.times if t >= start], default=start)
            if time.perf_counter() - max(last, now) >= QUIET:
                return last
            time.sleep(0.05)


def get(port: int, path: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path)
    connection.getresponse().read()
    connection.close()


def state(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def edit(root: Path, name: str, n: int) -> None:
    game, _, source, pattern, replacement = EDITS[name]
    path = root / "games" / game / source
    text, count = re.subn(pattern, replacement.format(n=n), path.read_text(encoding="utf-8"))
    assert count == 1, (name, count)
    path.write_text(text, encoding="utf-8")


def one(root: Path, port: int, events: Events, name: str, n: int, look: str, langs: list[str]) -> dict[str, float]:
    game, aid, *_ = EDITS[name]
    pdfs = {lang: root / "build" / game / lang / f"{aid}.pdf" for lang in langs}
    get(port, f"/{game}/{look}/{aid}.html")  # the page looked at
    before = {lang: (state(p), p.read_bytes()) for lang, p in pdfs.items()}
    start = time.perf_counter()
    edit(root, name, n)
    done: dict[str, float] = {}
    while len(done) < len(pdfs) and time.perf_counter() - start < TIMEOUT:
        for lang, path in pdfs.items():
            if lang not in done and state(path) != before[lang][0]:
                try:
                    if path.read_bytes() != before[lang][1]:
                        done[lang] = time.perf_counter() - start
                except OSError:
                    pass
        time.sleep(0.01)
    idle = events.quiet_since(start) - start
    missing = [lang for lang in langs if lang not in done]
    if missing:
        print(f"  round {n} {name}: no new PDF in {', '.join(missing)} after {TIMEOUT:g} s", file=sys.stderr)
    return {"look": done.get(look, float("nan")), "all": max(done.values(), default=float("nan")), "idle": idle}


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):6.2f} s  (min {min(values):.2f}, max {max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--look", default="en", help="the language of the page looked at (default en)")
    parser.add_argument("--only", action="store_true", help="serve --lang LOOK: only that language built")
    args = parser.parse_args()
    langs = [args.look] if args.only else ["pl", "en", "ru"]
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, {args.rounds} rounds, "
          f"looking at {args.look}{' (serve --lang ' + args.look + ')' if args.only else ''}")
    with tempfile.TemporaryDirectory() as tmp:
        root = scratch(Path(tmp))
        command = [sys.executable, "-m", "aids", "--project", str(root), "serve", "--port", "0",
                   *(["--lang", args.look] if args.only else [])]
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=root)
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            if "serving" not in line:
                raise SystemExit(f"aids serve did not start: {line!r}")
            print(f"first build and serving: {time.perf_counter() - started:.2f} s")
            port = int(line.split("127.0.0.1:", 1)[1].split("/", 1)[0])
            events = Events(port)
            time.sleep(QUIET)
            found: dict[str, dict[str, list[float]]] = {name: {} for name in EDITS}
            for n in range(1, args.rounds + 1):
                for name in EDITS:
                    for what, value in one(root, port, events, name, n, args.look, langs).items():
                        found[name].setdefault(what, []).append(value)
            for name, figures in found.items():
                for what, values in figures.items():
                    label = {"look": f"{args.look} PDF", "all": "all PDFs", "idle": "idle"}[what]
                    print(f"{name:8} edit -> {label:8}: {spread(values)}")
        finally:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
