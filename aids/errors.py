"""Problems in a user's input, reported compiler-style: `path:line:col: message (expected ...)`."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Position:
    path: str
    line: int = 0  # 1-based; 0 when unknown
    col: int = 0  # 1-based; 0 when unknown

    def __str__(self) -> str:
        if self.line and self.col:
            return f"{self.path}:{self.line}:{self.col}"
        if self.line:
            return f"{self.path}:{self.line}"
        return self.path


@dataclass(frozen=True)
class Problem:
    where: Position
    message: str
    expected: str = ""

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}"
        return visible(f"{text} (expected: {self.expected})" if self.expected else text)


# Control characters print as nothing or garble a terminal: never part of a text (tab and line ends are fine;
# C1's U+009B is a terminal's escape as ESC [ is), nor, in a message, a bidi embedding, override or isolate,
# which reorders what follows it on the line.
UNSHOWN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# What a text never holds: a control character, a bidi override (U+202D, U+202E), which prints what follows it
# reversed ("1831" as "1381", whatever the language: embeddings and isolates, which right-to-left text uses,
# reorder no digits); U+FFFE and U+FFFF, which are no characters (XML, so Atom and EPUB, refuse them); half of a
# surrogate pair (a YAML escape "\ud800" makes one, which no file can hold).
UNFIT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202d\u202e\ufffe\uffff\ud800-\udfff]")


def unfit(text: str) -> tuple[int, str, str] | None:
    """The first character `text` may not hold (UNFIT), as (its offset, what it is, what is expected); None."""
    found = UNFIT.search(text)
    if found is None:
        return None
    char, code = found.group(), f"U+{ord(found.group()):04X}"
    if char in "\u202d\u202e":
        what = f"bidi override {code}, which prints what follows it reversed"
        return found.start(), what, "text in its own order, without U+202D or U+202E"
    if char in "\ufffe\uffff":
        return found.start(), f"{code}, which is not a character", "printable text"
    if "\ud800" <= char <= "\udfff":
        return found.start(), f"half a character ({code}, a lone surrogate)", "printable text"
    return found.start(), f"control character {code}", "printable text"


def visible(text: str) -> str:
    """`text` with every control character written as an escape (\\x1b, \\u202e), so a message cannot drive a
    terminal or reorder its line."""
    return UNSHOWN.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                       text)


class AidsError(Exception):
    """One or more problems in the input; the message lists them all, one a line."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):  # back from a worker process with its problems, not just its text
        return type(self), (self.problems,)


class DoesNotFit(AidsError):
    """An aid fitted to a fixed space (a card, a playsheet) that does not fit it at its minimum type size in the
    language `lang`: the build then names the translations over their budget (`aids budgets`), if any."""

    def __init__(self, problems: list[Problem] | Problem, lang: str = ""):
        super().__init__(problems)
        self.lang = lang

    def __reduce__(self):
        return type(self), (self.problems, self.lang)


class Problems:
    """Collects problems so that every one is reported before stopping (MkDocs-style)."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, where: Position, message: str, expected: str = "") -> None:
        self.items.append(Problem(where, message, expected))

    def extend(self, error: AidsError) -> None:
        self.items.extend(error.problems)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise AidsError(self.items)


def display_path(path: Path | str, root: Path | None = None) -> str:
    """A path as the user would type it: relative to the project root when inside it."""
    path = Path(path)
    if root is not None:
        for inside, base in ((path, root), (path.absolute(), root.absolute()), (path.resolve(), root.resolve())):
            try:  # as written first: a link in the path is shown where it is, not where it leads
                return str(inside.relative_to(base))
            except ValueError:
                pass
    return str(path)
