"""The parts of a booklet (parts.py) laid out in processes of their own, as many at once as there are cores.

Each part's process is forked from the one that parsed the booklet (it inherits WeasyPrint, the parsed tree) and
cuts the tree to its part. When its layout is done it tells this process its page count and anchors, and waits
(its core given back) for the numbers all parts agree on: this process answers each part the numbers the others'
counts give (parts.resolve), and a part whose guess was wrong lays the pages concerned out again and tells
again, until nothing moves (or ROUNDS); then each writes its PDF. A part whose record for these very numbers is
in the cache is not laid out at all. Messages are JSON and bytes over a pipe: nothing is unpickled.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from . import join, parts, pdf
from .pagination import Numbers
from .rendered import Rendered

ROUNDS = 8  # of agreeing on the numbers, at most


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def send(conn: Connection, message: dict[str, Any], data: bytes | None = None) -> None:
    conn.send_bytes(json.dumps(message).encode())
    if data is not None:
        conn.send_bytes(data)


def receive(conn: Connection) -> dict[str, Any]:
    message = json.loads(conn.recv_bytes())
    if not isinstance(message, dict):
        raise RuntimeError("a part's process said something else than a message")
    return message


def numbers_of(message: dict[str, Any]) -> Numbers:
    return Numbers(int(message["start"]), int(message["total"]), {str(k): int(v) for k, v in
                                                                    message["external"].items()})


def as_message(numbers: Numbers) -> dict[str, Any]:
    return {"start": numbers.start, "total": numbers.total, "external": numbers.external}


def child(page: Any, part: parts.Part, numbers: Numbers, conn: Connection, slots: Any, options: dict[str, Any]) -> None:
    """In a part's process: its part laid out and agreed on, its PDF sent."""
    parts.prune(page.etree_element, part)

    def settle(count: int, anchors: dict[str, int] | None) -> Numbers | None:
        slots.release()
        send(conn, {"pages": count, "anchors": anchors} if anchors is not None else {"stable": True})
        reply = receive(conn)
        slots.acquire()
        return None if reply.get("final") else numbers_of(reply)

    slots.acquire()
    try:
        layout = pdf.lay_out("", part.css, page=page, numbers=numbers, settle=settle, **options)
        done = layout.rendered()
        send(conn, {"done": True, "pages": done.pages, "warnings": done.warnings, "last_page": done.last_page},
             done.data)
    finally:
        slots.release()


@dataclass
class Running:
    conn: Connection
    pid: int
    numbers: Numbers
    waiting: bool = True  # for its message


class Parallel:
    """The parts of one booklet laid out, reused from `cache` where they can be."""

    def __init__(self, page: Any, cut: list[parts.Part], cache: parts.Cache | None, options: dict[str, Any]):
        self.page, self.parts, self.cache, self.options = page, cut, cache, options
        self.facts: dict[int, tuple[int, dict[str, int]]] = {}
        self.guessed: set[int] = set()  # parts never laid out (as they are now) until one reports
        for part in cut:
            known = cache.facts(part.digest) if cache else None
            self.facts[part.index] = known or parts.estimate(part)
            if known is None:
                self.guessed.add(part.index)
        self.running: dict[int, Running] = {}
        self.held: dict[int, tuple[str, parts.Record]] = {}  # part -> (key, record) from the cache
        self.laid_out: list[int] = []  # the parts laid out, in the order they were started
        self.slots = multiprocessing.get_context("fork").Semaphore(cores())
        self.settled = True

    def key(self, part: parts.Part, numbers: Numbers) -> str:
        return parts.Cache.key(part, numbers, self.options["tagged"], self.options["epoch"])

    def start(self, part: parts.Part, numbers: Numbers) -> None:
        ours, theirs = multiprocessing.Pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the part's process
            code = 0
            try:
                ours.close()
                child(self.page, part, numbers, theirs, self.slots, self.options)
            except BaseException:
                code = 1
                try:
                    send(theirs, {"error": traceback.format_exc()})
                except Exception:
                    pass
            finally:
                pdf.release_all()
                os._exit(code)
        theirs.close()
        self.running[part.index] = Running(ours, pid, numbers)
        self.laid_out.append(part.index)

    def step(self, numbers: list[Numbers]) -> bool:
        """Each part told its `numbers`: from the cache, or started, or (laid out already) sent them if they
        changed. Whether anything may still move."""
        moved = False
        for part in sorted(self.parts, key=lambda p: (p.index not in self.guessed, -self.facts[p.index][0])):
            wanted = numbers[part.index]
            if part.index in self.running:
                run = self.running[part.index]
                if run.numbers != wanted:
                    send(run.conn, as_message(wanted))
                    run.numbers, run.waiting, moved = wanted, True, True
                continue
            if self.guessed and part.index not in self.guessed:
                moved = True  # its numbers wait for the parts laid out for the first time
                continue
            key = self.key(part, wanted)
            if part.index in self.held and self.held[part.index][0] == key:
                continue
            record = self.cache.get(key) if self.cache else None
            if record is not None:
                self.held[part.index] = (key, record)
                moved = moved or self.facts[part.index] != (record.pages, record.anchors)
                self.facts[part.index] = (record.pages, record.anchors)
            else:
                self.held.pop(part.index, None)
                self.start(part, wanted)
                moved = True
        return moved

    def collect(self) -> None:
        """The message of every part that was told something: its page count and anchors, or that it holds."""
        waiting = {run.conn: index for index, run in self.running.items() if run.waiting}
        while waiting:
            for conn in wait(list(waiting)):
                index = waiting.pop(conn)  # type: ignore[call-overload]
                message = self.message(index)
                self.running[index].waiting = False
                self.guessed.discard(index)
                if "pages" in message:
                    self.facts[index] = (int(message["pages"]), {str(k): int(v) for k, v in
                                                                 message["anchors"].items()})

    def message(self, index: int) -> dict[str, Any]:
        try:
            message = receive(self.running[index].conn)
        except EOFError:
            message = {"error": "its process ended"}
        if "error" in message:
            raise RuntimeError(f"part {index + 1} of the booklet failed: {message['error']}")
        return message

    def run(self) -> Rendered:
        try:
            for _ in range(ROUNDS):
                if not self.step(parts.resolve(self.parts, self.facts)):
                    break
                self.collect()
            else:
                self.settled = False
            return self.finish()
        finally:
            self.stop()

    def finish(self) -> Rendered:
        """Every part told its numbers are final, their PDFs (laid out or cached) joined."""
        numbers = parts.resolve(self.parts, self.facts)
        records = self.records(numbers)
        ordered = [records[part.index] for part in self.parts]
        warnings = list(dict.fromkeys(w for record in ordered for w in record.warnings))
        if not self.settled:
            warnings.append(f"the parts of the booklet did not agree on their page numbers after {ROUNDS} rounds")
        data = join.join([r.data for r in ordered], self.options["tagged"])
        laid = sum(records[index].pages for index in self.running)
        note = (f"laid out in {len(ordered)} parts: {len(self.running)} laid out ({laid} pages laid out), "
                f"{len(ordered) - len(self.running)} from the cache")
        return Rendered(data, sum(r.pages for r in ordered), warnings, [note], last_page=ordered[-1].last_page)

    def records(self, numbers: list[Numbers]) -> dict[int, parts.Record]:
        """Each part's record: those held from the cache, and those the running parts send once told their numbers
        are final (kept in the cache, which is trimmed to the parts in use and the newest others)."""
        records: dict[int, parts.Record] = {index: record for index, (_, record) in self.held.items()}
        for index, run in self.running.items():
            send(run.conn, {"final": True})
        for index, run in self.running.items():
            message = self.message(index)
            data = run.conn.recv_bytes()
            count, anchors = self.facts[index]
            record = parts.Record(data, int(message["pages"]), anchors, message["last_page"],
                                  [str(w) for w in message["warnings"]])
            self.settled = self.settled and record.pages == count and run.numbers == numbers[index]
            records[index] = record
            if self.cache:
                part = self.parts[index]
                self.cache.put(self.key(part, run.numbers), record, part.digest)
        if self.cache:
            self.cache.trim({self.key(p, numbers[p.index]) for p in self.parts} | {p.digest for p in self.parts})
        return records

    def stop(self) -> None:
        for run in self.running.values():
            run.conn.close()
            try:
                os.waitpid(run.pid, 0)
            except ChildProcessError:
                pass
        self.running.clear()


class PartsLayout:
    """A booklet laid out in parts: its pages and bytes, at once (what render/rendered.Printed asks)."""

    def __init__(self, rendered: Rendered, laid_out: list[int], count: int):
        self._rendered, self.laid_out, self.count = rendered, laid_out, count

    @property
    def pages(self) -> int:
        return self._rendered.pages

    def rendered(self) -> Rendered:
        return self._rendered


def lay_out(page: Any, warnings: list[str], css: str, *, base: Path, allowed: list[Path], epoch: int,
            tagged: bool) -> PartsLayout | None:
    """The booklet laid out in parts (`page`, WeasyPrint's HTML parsed with `warnings`: pdf.parsed), if it
    declares its chapter breaks and has more than one part; else None (laid out whole, from the same tree: it
    is cut only in the parts' own processes)."""
    cut = parts.cut(page.etree_element)
    if len(cut) < 2:
        return None
    parts.describe(page.etree_element, cut, css, base)
    options = {"base": base, "allowed": allowed, "epoch": epoch, "tagged": tagged}
    run = Parallel(page, cut, parts.current_cache(), options)
    rendered = run.run()
    rendered.warnings[:0] = list(warnings)
    return PartsLayout(rendered, sorted(run.laid_out), len(cut))
