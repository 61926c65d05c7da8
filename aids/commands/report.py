"""What `aids build` tells its user: a progress bar while it works, then a summary.

The bar (on stderr, only on a terminal) takes a step when a unit -- an aid in one edition, all its
languages -- is rendered and written, and names it: `valmora-1809 [inch] turn-sequence pl en ru`. It is
gone before the summary prints. The summary is a table, a row per aid built (its languages, files, pages,
time, and the type size a card or playsheet was fitted at), then its warnings grouped by aid, what was
skipped, the strings that fell back to the source language (a few of each game and language; all with
`-v`), and one closing line.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..build.pipeline import Built, Summary

WIDTH = 100  # characters a line of the table may take (its last column wraps)
EXAMPLES = 5  # fallbacks shown per game and language, unless verbose
HEADER = ("aid", "languages", "files", "pages", "time", "fitted (pt)")
RIGHT = {2, 4}  # right-aligned columns: files, time
LAST_PAGE = 0.25  # a last page less full than this is pointed out: a page a print run pays for, nearly empty


class Progress:
    """`progress` for `builder.build`: called with the number of units, it makes the bar and returns its tick.

    `close()` removes the bar, whether or not every unit ticked (a build that stopped on an error)."""

    def __init__(self, file: TextIO | None = None):
        self.file = file
        self.bar: Any = None
        self.done = 0

    def __call__(self, total: int) -> Callable[[str], None]:
        from tqdm import tqdm
        self.total, self.done = total, 0
        # disable=None: no bar when stderr is not a terminal; mininterval=0: every step shown with its own label
        self.bar = tqdm(total=total, unit="aid", file=self.file or sys.stderr, disable=None, leave=False,
                        mininterval=0, bar_format="{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} {desc}")
        if total == 0:
            self.close()
        return self.tick

    def tick(self, label: str) -> None:
        """One unit finished, its files written."""
        self.done += 1
        self.bar.set_description_str(label, refresh=False)
        self.bar.update(1)
        if self.done >= self.total:
            self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# --- the summary -------------------------------------------------------------------------------

def summary_text(summary: Summary, verbose: bool = False) -> str:
    """The summary of a build, as `aids build` prints it."""
    lines = table(summary.built)
    lines += warnings(summary)
    lines += [f"skipped {line}" for line in summary.skipped]
    lines += [f"repaired {line}" for line in summary.repaired]
    lines += fallbacks(summary, verbose)
    if summary.site:  # the web site's pages (aids/build/site.py) that changed
        more = ", ..." if summary.site[1:] else ""
        lines.append(f"site: {len(summary.site)} page(s) written ({summary.site[0]}{more})")
    if summary.removed:  # the files of aids no longer in their game.yaml (aids/build/outputs.py)
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
    """Each aid's warnings, each once, with the languages it was given in, and its last pages nearly empty; then
    the UI catalogs' warnings."""
    lines = []
    for (game, edition, aid), items in by_aid(summary.built).items():
        langs: dict[str, list[str]] = {}
        for item in items:
            for warning in item.warnings:
                langs.setdefault(warning, [])
                if item.lang not in langs[warning]:
                    langs[warning].append(item.lang)
        empty = [f"{item.lang} {item.last_page:.0%}" for item in items
                 if item.last_page is not None and item.last_page < LAST_PAGE and item.pages > 1]
        if langs or empty:
            lines.append(f"{aid_name(game, edition, aid)}:")
            lines += [f"  warning: {warning} ({' '.join(where)})" for warning, where in langs.items()]
        if empty:
            lines.append(f"  note: last page under {LAST_PAGE:.0%} full ({', '.join(empty)}): tighter text, or a "
                         "booklet's pages: goal, saves a page")
    return lines + [f"warning: {problem}" for problem in summary.catalog_problems]


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
