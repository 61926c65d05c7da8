"""What `aids build` tells its user: its progress while it works, then a summary.

The progress (on stderr: a bar on a terminal, else a line per step; nothing with --quiet) takes a step when a
unit -- an aid in one edition, all its languages -- is rendered and written, and names it: `valmora-1809 [inch]
turn-sequence pl en ru`; on the bar, the jobs rendering now and the time left. The bar is gone before the summary
prints. The summary is a table, a row per aid built (its languages, files, pages,
time, and the type size a card or playsheet was fitted at), then its warnings grouped by aid, what was
skipped, the strings that fell back to the source language (a few of each game and language; all with
`-v`), and one closing line.
"""
from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable
from time import monotonic
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..pipeline.pipeline import Built, Summary
    from ..pipeline.progress import Status

WIDTH = 100  # characters a line of the table may take (its last column wraps)
EXAMPLES = 5  # fallbacks shown per game and language, unless verbose
HEADER = ("aid", "languages", "files", "pages", "time", "fitted (pt)")
RIGHT = {2, 4}  # right-aligned columns: files, time
LAST_PAGE = 0.25  # a last page less full than this is pointed out: a page a print run pays for, nearly empty


class Progress:
    """`progress` for `builder.build`: a Status (aids/pipeline/progress.py) in, shown on `file` (stderr).

    mode "bar" (the default when `file` is a terminal): one line redrawn in place, `2/5 aids, about 12 s left:
    valmora-1809 [cm] turn-sequence pl` (the jobs rendering now, else the aid written last), its time left counted
    down every second; "lines" (the default otherwise: a log, a pipe, CI): a line per aid written, `aids build: 2/5
    valmora-1809 [cm] turn-sequence pl en ru written, about 12 s left`; "quiet" (--quiet): nothing.
    `close()` removes the bar, whether or not every unit was written (a build that stopped on an error)."""

    def __init__(self, file: TextIO | None = None, mode: str | None = None, clock: Callable[[], float] = monotonic,
                 say: Callable[[str], None] | None = None):
        self.file = file or sys.stderr
        self.mode = mode or ("bar" if self.file.isatty() else "lines")
        self.say = say or (lambda text: print(f"aids build: {text}", file=self.file, flush=True))
        self.clock, self.started = clock, clock()
        self.status: Status | None = None
        self.end: float | None = None  # when the build should end, as of the last status
        self.bar: Any = None
        self.ticker: threading.Event | None = None

    def __call__(self, status: Status) -> None:
        if self.mode == "quiet":
            return
        now, before = self.clock(), self.status
        self.status = status
        if 0 < status.share < 1 and status.share != (before.share if before else 0):  # a job done: a new estimate
            elapsed = now - self.started
            self.end = now + elapsed * (1 - status.share) / status.share
        if self.mode == "lines":
            if status.written > (before.written if before else 0):  # a line per aid written
                failed = status.failed > (before.failed if before else 0)
                self.say(f"{status.written}/{status.total} {status.last} {'failed' if failed else 'written'}"
                         f"{self.left(', ')}")
            return
        self.draw(status)

    def left(self, before: str = "") -> str:
        """`about 12 s left`, from the share of the work done so far ('' before any estimate, and at the end)."""
        if self.end is None or not self.status or self.status.written >= self.status.total:
            return ""
        seconds = max(self.end - self.clock(), 1)
        return before + (f"about {seconds / 60:.0f} min left" if seconds >= 90 else f"about {seconds:.0f} s left")

    def line(self, status: Status) -> str:
        """The bar's text after `2/5`: the time left, then what is rendering now (else the aid written last)."""
        doing = status.now[0] + (f" (+{len(status.now) - 1})" if status.now[1:] else "") if status.now \
            else status.last
        return "aids" + self.left(", ") + (f": {doing}" if doing else "")

    def draw(self, status: Status) -> None:
        from tqdm import tqdm
        if self.bar is None:
            # disable=False: the mode says a terminal; mininterval=0: every step shown; the line cut to the width
            self.bar = tqdm(total=status.total, file=self.file, disable=False, leave=False, mininterval=0,
                            dynamic_ncols=True, bar_format="{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} {desc}")
            self.ticker = threading.Event()
            threading.Thread(target=self.tick, args=(self.ticker,), daemon=True).start()
        with self.bar.get_lock():
            self.bar.n = status.written
            self.bar.set_description_str(self.line(status), refresh=True)
        if status.written >= status.total:
            self.close()

    def tick(self, stop: threading.Event) -> None:
        """Every second, the time left counted down on the bar (a long booklet renders a minute between steps)."""
        while not stop.wait(1):
            bar, status = self.bar, self.status
            if bar is None or status is None:
                return
            with bar.get_lock():
                if not bar.disable:
                    bar.set_description_str(self.line(status), refresh=True)

    def close(self) -> None:
        if self.ticker is not None:
            self.ticker.set()
        if self.bar is not None:
            with self.bar.get_lock():
                self.bar.close()


# --- the summary -------------------------------------------------------------------------------

def summary_text(summary: Summary, verbose: bool = False) -> str:
    """The summary of a build, as `aids build` prints it."""
    lines = table(summary.built)
    lines += warnings(summary)
    lines += [f"skipped {line}" for line in summary.skipped]
    lines += [f"repaired {line}" for line in summary.repaired]
    lines += fallbacks(summary, verbose)
    if summary.site:  # the web site's pages (aids/site/site.py) that changed
        more = ", ..." if summary.site[1:] else ""
        lines.append(f"site: {len(summary.site)} page(s) written ({summary.site[0]}{more})")
    if summary.tournament:  # bilingual aids and packets (aids/pipeline/tournament.py)
        more = ", ..." if summary.tournament[1:] else ""
        lines.append(f"tournaments: {len(summary.tournament)} file(s) written ({summary.tournament[0]}{more})")
    if summary.removed:  # the files of aids no longer in their game.yaml (aids/pipeline/outputs.py)
        more = ", ..." if summary.removed[1:] else ""
        lines.append(f"removed {len(summary.removed)} file(s) of aids gone from game.yaml ({summary.removed[0]}{more})")
    files = sum(len(b.files) for b in summary.built)
    unchanged = f", {summary.unchanged} up to date" if summary.unchanged else ""
    lines.append(f"{files} file(s) written{unchanged}, {len(summary.failed)} aid(s) failed, in {summary.seconds:.1f} s")
    return "\n".join(lines)


def by_aid(built: Iterable[Built]) -> dict[tuple[str, str | None, str], list[Built]]:
    """(game, edition, aid) -> its languages built, in the order built (the plan's)."""
    rows: dict[tuple[str, str | None, str], list[Built]] = {}
    for item in built:
        rows.setdefault((item.game, item.edition, item.aid), []).append(item)
    return rows


def aid_name(game: str, edition: str | None, aid: str) -> str:
    return " ".join([game, *([f"[{edition}]"] if edition else []), aid])


def per_language(items: list[Built], value: Callable[[Built], str]) -> str:
    """One value when every language has it, else each language's: `pl 3, en 2, ru 3` (blank: none)."""
    values = [value(item) for item in items]
    if len(set(values)) == 1:
        return values[0]
    return ", ".join(f"{item.lang} {v or '-'}" for item, v in zip(items, values, strict=True))


def sizes(item: Built) -> str:
    """The type size each face (or the whole page) was fitted at, in points: `7.5`, `8.5/7.5`."""
    return "/".join(f"{size:g}" for size in item.fitted.values())


def fitted(items: list[Built]) -> str:
    """The type size fitted: `7.5` (a playsheet or a card, both faces at one size), `pl 8.25, en 8.5` (each
    language its own); for a kind that fits its faces apart, `front 8.5, back 7.5` or `pl 8.5/7.5, en 8.75/7.75
    (front/back)`."""
    faces = [face for face in items[0].fitted if face]
    if len(faces) < 2:
        return per_language(items, sizes)
    if all(item.fitted == items[0].fitted for item in items):
        return ", ".join(f"{face} {size:g}" for face, size in items[0].fitted.items())
    return f"{per_language(items, sizes)} ({'/'.join(faces)})"


def row(items: list[Built]) -> list[str]:
    first = items[0]
    return [aid_name(first.game, first.edition, first.aid), " ".join(item.lang for item in items),
            str(sum(len(item.files) for item in items)), per_language(items, lambda b: str(b.pages or "")),
            f"{sum(item.seconds for item in items):.1f} s", fitted(items)]


def table(built: list[Built]) -> list[str]:
    """A row per aid built, the columns aligned; a last cell too long for WIDTH goes on below, at ', '."""
    rows = [row(items) for items in by_aid(built).values()]
    if not rows:
        return []
    cells = [list(HEADER), *rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(HEADER) - 1)]
    indent = sum(widths) + 2 * len(widths)
    lines = []
    for r in cells:
        head = "  ".join(c.rjust(w) if i in RIGHT else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
        for n, part in enumerate(wrapped(r[-1], max(WIDTH - indent, 20))):
            lines.append(((head if n == 0 else " " * len(head)) + "  " + part).rstrip())
    return lines


def wrapped(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` (a piece longer than that has a line of its own), broken after ', '."""
    lines = [""]
    for piece in text.split(", "):
        joined = f"{lines[-1]}, {piece}" if lines[-1] else piece
        if len(joined) + 1 <= width or not lines[-1]:  # + 1: room for the comma of a line that goes on
            lines[-1] = joined
        else:
            lines[-1] += ","
            lines.append(piece)
    return lines


def warnings(summary: Summary) -> list[str]:
    """Each aid's warnings and remarks (blank pages an imposition added), each once, with the languages it was
    given in, and its last pages nearly empty; then the UI catalogs' warnings."""
    lines = []
    for (game, edition, aid), items in by_aid(summary.built).items():
        langs, remarks = _languages(items, lambda item: item.warnings), _languages(items, lambda item: item.remarks)
        empty = [f"{item.lang} {item.last_page:.0%}" for item in items
                 if item.last_page is not None and item.last_page < LAST_PAGE and item.pages > 1]
        if langs or remarks or empty:
            lines.append(f"{aid_name(game, edition, aid)}:")
            lines += [f"  warning: {warning} ({' '.join(where)})" for warning, where in langs.items()]
            lines += [f"  note: {remark} ({' '.join(where)})" for remark, where in remarks.items()]
        if empty:
            lines.append(f"  note: last page under {LAST_PAGE:.0%} full ({', '.join(empty)}): tighter text, or a "
                         "booklet's pages: goal, saves a page")
    return lines + [f"warning: {problem}" for problem in summary.catalog_problems]


def _languages(items: list[Built], said: Callable[[Built], list[str]]) -> dict[str, list[str]]:
    """Each thing `said` of an aid in some language, once, with the languages it was said in."""
    langs: dict[str, list[str]] = {}
    for item in items:
        for text in said(item):
            if item.lang not in langs.setdefault(text, []):
                langs[text].append(item.lang)
    return langs


def fallbacks(summary: Summary, verbose: bool = False) -> list[str]:
    """Per game and language, how many strings fell back to the source language, and which (a few, or all):
    a rejected translation first, then a fuzzy one, then an untranslated string, each in the order found."""
    lines = []
    for (game, lang), found in sorted(summary.fallbacks.items()):
        lines.append(f"{game} {lang}: {len(found)} string(s) fell back to the source language:")
        found = sorted(found, key=lambda fb: {"fuzzy": 1, "untranslated": 2}.get(fb.reason, 0))
        shown = found if verbose else found[:EXAMPLES]
        lines += [f"  {fb.text.where}: [{fb.text.context}] {fb.reason}" for fb in shown]
        if len(found) > len(shown):
            lines.append(f"  ... {len(found) - len(shown)} more (aids build -v lists them all)")
    return lines
