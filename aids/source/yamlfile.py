"""YAML sources read with ruamel.yaml, keeping line and column of every key and value."""
from __future__ import annotations

import copy
import datetime as dt
import hashlib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from ..errors import AidsError, Position, Problem, unfit
from ..folder import read_file
from .shape import ID, ID_EXPECTED, MAX_ID, Field, Shape


class Source:
    """One parsed YAML file: its data and a way to point at any part of it."""

    def __init__(self, path: Path, shown: str, data: Any, text: str = ""):
        self.path = path
        self.text = text
        self.shown = shown  # the path as printed in messages
        self.data = data

    def at(self, node: Any = None, key: Any = None, *, value: bool = False) -> Position:
        """Position of `node` (a map or list), of its `key`, or of the value under `key`."""
        lc = getattr(node, "lc", None)
        if lc is None:
            return Position(self.shown)
        try:
            if key is None:
                line, col = lc.line, lc.col
            elif isinstance(node, CommentedSeq):
                line, col = lc.item(key)
            elif value:
                line, col = lc.value(key)
            else:
                line, col = lc.key(key)
        except (KeyError, IndexError, TypeError):
            line, col = lc.line, lc.col
        return Position(self.shown, line + 1, col + 1)

    def at_text(self, node: Any, key: Any, offset: int) -> Position:
        """Position of the character `offset` inside the string value `node[key]`."""
        where = self.at(node, key, value=True)
        text = node[key]
        if not where.line or "\n" in text[:offset]:
            return where
        line = self.text.splitlines()[where.line - 1]
        quoted = where.col - 1 < len(line) and line[where.col - 1] in "'\""
        return Position(where.path, where.line, where.col + offset + (1 if quoted else 0))


MAX_BYTES = 5 * 1024 * 1024  # a source or catalog file; the largest sample is under 100 kB
MAX_DEPTH = 50  # nesting of mappings and lists in a YAML source


def read_bytes(path: Path, shown: str) -> bytes:
    """A source file's bytes, refused past the size limit or when it is no regular file (a FIFO, /dev/zero): work
    is bounded whatever is fed in."""
    return read_file(path, shown, MAX_BYTES)


def read_yaml(path: Path, shown: str | None = None) -> Source:
    """Parse `path`; a syntax error becomes an AidsError at the position YAML reports."""
    shown = shown or str(path)
    return load_yaml(decode(read_bytes(path, shown), shown), path, shown)


def decode(data: bytes, shown: str) -> str:
    """A source's bytes as text; bytes that are not UTF-8, and control characters, are an AidsError at their
    line and column."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AidsError(Problem(position_in(data.decode("utf-8", "replace"), shown, len(
            data[:exc.start].decode("utf-8", "replace"))), "not UTF-8 text", "a file in UTF-8")) from None
    found = unfit(text)
    if found:
        offset, what, expected = found
        raise AidsError(Problem(position_in(text, shown, offset), what, expected))
    return text


def position_in(text: str, shown: str, offset: int) -> Position:
    """The line and column of character `offset` of `text`."""
    line = text.count("\n", 0, offset) + 1
    return Position(shown, line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def _flow_depth(text: str, shown: str) -> None:
    """Brackets nested past MAX_DEPTH are refused before the parser recurses into them."""
    depth = 0
    for i, char in enumerate(text):
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise AidsError(Problem(position_in(text, shown, i), "nested too deeply",
                                        f"at most {MAX_DEPTH} levels"))
        elif char in "]}" and depth:
            depth -= 1


INDENTATION = ("expected <block end>", "did not find expected key", "mapping values are not allowed here",
               "did not find expected '-' indicator")


def _indent_hint(text: str, line: int) -> str:
    """The indentations the open blocks above line (0-based) allow: the nearest deeper and shallower one."""
    lines = text.splitlines()
    if line >= len(lines):
        return "the same number of spaces as the lines it belongs with"
    here = len(lines[line]) - len(lines[line].lstrip(" "))
    levels = _open_levels(lines, line)
    choices = [min((lv for lv in levels if lv[0] > here), default=None),
               max((lv for lv in levels if lv[0] < here), default=None)]
    said = [f"{n} space{'s' if n != 1 else ''} like line {at}" for n, at in (c for c in choices if c)]
    return f"{' or '.join(said) or 'as many spaces as its neighbours'}, not {here}; no tabs (text pasted from a web " \
        "page may bring other indentation)"


def _open_levels(lines: list[str], line: int) -> list[tuple[int, int]]:
    """The indentations of the blocks open above line (0-based): (indent, 1-based line), innermost first."""
    levels: list[tuple[int, int]] = []
    for number in range(line - 1, -1, -1):
        content = lines[number].strip()
        if not content or content.startswith("#"):
            continue
        indent = len(lines[number]) - len(lines[number].lstrip(" "))
        item = re.match(r"-[ ]+(?=\S)", content)  # "- id: x": the item's mapping starts after the dash
        for level in ((indent + item.end(), indent) if item else (indent,)):
            if not levels or level < levels[-1][0]:
                levels.append((level, number + 1))
    return levels


# What a long-lived process (`aids serve`) keeps of the sources it parsed, once `keep_parsed` was called: the
# data of each text that parsed without a fault, keyed by the digest of that very text (and the name it is shown
# by), never by path or time. A hit is a deep copy (ruamel keeps every position), so no reader shares or changes
# what is kept; each is what parsing the same text again gives. Oldest first out past KEPT entries.
_PARSED: dict[bytes, Any] | None = None
KEPT = 1024


def keep_parsed() -> None:
    """From now on, this process parses a text it parsed before only once (load_yaml)."""
    global _PARSED
    if _PARSED is None:
        _PARSED = {}


def load_yaml(text: str, path: Path, shown: str) -> Source:
    key = hashlib.sha256(f"{shown}\0{text}".encode("utf-8", "surrogatepass")).digest() if _PARSED is not None \
        else b""
    if _PARSED is not None and key in _PARSED:
        return Source(path, shown, copy.deepcopy(_PARSED[key]), text)
    source = _parse_yaml(text, path, shown)
    if _PARSED is not None:
        _PARSED[key] = copy.deepcopy(source.data)
        while len(_PARSED) > KEPT:
            del _PARSED[next(iter(_PARSED))]
    return source


def _parse_yaml(text: str, path: Path, shown: str) -> Source:
    _flow_depth(text, shown)
    yaml = YAML(typ="rt")
    try:
        data = yaml.load(text)
    except MarkedYAMLError as exc:
        raise _malformed(exc, text, shown) from None
    except YAMLError as exc:
        raise AidsError(Problem(Position(shown), f"malformed YAML: {exc}", "valid YAML")) from None
    except RecursionError:
        raise AidsError(Problem(_deepest(text, shown), "nested too deeply", f"at most {MAX_DEPTH} levels")) from None
    except ValueError as exc:  # a scalar YAML resolves to a type it then cannot build: 2020-02-30
        raise AidsError(Problem(_unbuildable(yaml, text, shown), f"impossible value: {exc}",
                                "a real date YYYY-MM-DD, or quote the text")) from None
    source = Source(path, shown, data, text)
    _check_tree(source)
    return source


def _malformed(exc: MarkedYAMLError, text: str, shown: str) -> AidsError:
    """The parser's error, where it is; an unclosed quote is found at the end of the file: at the quote that
    opened it; a line indented unlike its neighbours, with the indentations that would do."""
    quoted = "quoted scalar" in str(exc.context or "") and exc.context_mark is not None
    mark = exc.context_mark if quoted else exc.problem_mark or exc.context_mark
    where = Position(shown, mark.line + 1, mark.column + 1) if mark else Position(shown)
    problem = "quoted text not closed" if quoted else exc.problem or exc.context or "malformed YAML"
    if not quoted and (brace := _unquoted_brace(text, shown, where)):
        return brace
    if any(sign in problem for sign in INDENTATION):  # what a line indented unlike its neighbours gives
        return AidsError(Problem(where, f"malformed YAML: {problem}: this line is indented unlike the lines "
                                 "around it", _indent_hint(text, where.line - 1 if where.line else 0)))
    return AidsError(Problem(where, f"malformed YAML: {problem}", "valid YAML"))


# a value that opens with a {placeholder} and goes on after it: YAML reads the braces as a mapping, then fails
_BRACED = re.compile(r"(\s*(?:-\s+)?(?:[^\s#'\"{][^#]*?:\s+)?)(\{[^{}]*\})[ \t]*[^\s#,}\]].*")


def _unquoted_brace(text: str, shown: str, where: Position) -> AidsError | None:
    """A text typed unquoted that begins with a placeholder (`text: {side:red} moves`): the parser blames what
    follows the braces, often as indentation; the fault is the missing quotes, where the text begins."""
    lines = text.splitlines()
    if not where.line or where.line > len(lines):
        return None
    line = lines[where.line - 1]
    found = _BRACED.fullmatch(line)
    if not found or (where.col and where.col <= found.end(2)):
        return None
    return AidsError(Problem(Position(shown, where.line, found.start(2) + 1),
                             f"a text that starts with '{{' must be quoted: YAML reads {found[2]} as a mapping",
                             quoted_hint(line[:found.start(2)].strip(), line[found.start(2):].rstrip())))


def quoted_hint(key: str, value: str) -> str:
    """What a text YAML cannot read unquoted looks like quoted: `text: "{side:red} moves"`."""
    quoted = f'"{value}"' if '"' not in value else "'" + value.replace("'", "''") + "'"
    return f"a quoted string: {key} {quoted}" if key else f"a quoted string: {quoted}"


def _deepest(text: str, shown: str) -> Position:
    """Where block nesting first passes MAX_DEPTH, by indentation: a position for the parser's RecursionError."""
    indents: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        while indents and indents[-1] >= indent:
            indents.pop()
        indents.append(indent)
        if len(indents) > MAX_DEPTH:
            return Position(shown, number, indent + 1)
    return Position(shown)


def _check_tree(src: Source) -> None:
    """Every mapping and list once (an alias, `*name`, is refused: it could expand without bound), nested
    at most MAX_DEPTH deep, and no control character in a text (YAML's "\\a" or "\\0" escapes make them)."""
    seen: set[int] = set()
    stack: list[tuple[Any, int]] = [(src.data, 1)] if isinstance(src.data, (CommentedMap, CommentedSeq)) else []
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            raise AidsError(Problem(src.at(node), "an alias (*name) repeats this part of the file",
                                    "each part written out where it is used; aliases are not allowed"))
        seen.add(id(node))
        if depth > MAX_DEPTH:
            raise AidsError(Problem(src.at(node), "nested too deeply", f"at most {MAX_DEPTH} levels"))
        items = list(node.items()) if isinstance(node, CommentedMap) else list(enumerate(node))
        for key, value in items:
            if isinstance(value, (CommentedMap, CommentedSeq)):
                stack.append((value, depth + 1))
            elif isinstance(value, str) and (found := unfit(value)):
                raise AidsError(Problem(src.at(node, key, value=True), f"{found[1]} in a text", found[2]))


def _unbuildable(yaml: YAML, text: str, shown: str) -> Position:
    """Where the date that failed to build is: the composed node tree still has every position."""
    stack = [yaml.compose(text)]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if isinstance(node.value, list):
            stack.extend(item for pair in node.value for item in (pair if isinstance(pair, tuple) else (pair,)))
        elif str(getattr(node.tag, "value", node.tag)).endswith(":timestamp"):
            try:
                dt.date.fromisoformat(str(node.value)[:10])
            except ValueError:
                return Position(shown, node.start_mark.line + 1, node.start_mark.column + 1)
    return Position(shown)


def check_map(src: Source, node: Any, problems, shape: Shape | None = None, *, required: Iterable[str] = (),
              optional: Iterable[str] = (), where: Position | None = None, what: str | None = None) -> bool:
    """Check that `node` is a mapping with the fields `shape` requires and no others.

    Adds one problem per fault to `problems` and returns False if `node` is unusable. Without a shape (a kind
    of another package may not declare one), `required` and `optional` name the fields.
    """
    if shape is None:
        shape = Shape(what or "entry", (*(Field(k, {}, True) for k in required), *(Field(k, {}) for k in optional)))
    what = what or shape.what
    accepted = shape.names
    if not isinstance(node, CommentedMap):
        problems.add(where or src.at(node), f"{what} must be a mapping", ", ".join(accepted) or "key: value")
        return False
    if shape.keys is None:
        for key in node:
            if key not in accepted:
                problems.add(src.at(node, key), f"unknown field '{key}' in {what}", ", ".join(accepted))
    return _required(src, node, problems, shape.required, what)


def _required(src: Source, node: CommentedMap, problems, required: Iterable[str], what: str) -> bool:
    """Every required field of `node` is there and not empty: each one missing a problem."""
    ok = True
    for key in required:
        if key not in node or node[key] is None or node[key] == "":
            problems.add(src.at(node), f"missing field '{key}' in {what}", f"{key}: ...")
            ok = False
    return ok


def is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def check_id(src: Source, node: Any, key: str, problems, seen: dict | None = None, what: str = "") -> bool:
    """`node[key]` is a well-formed id, and (with `seen`, id -> line) not used before among its siblings."""
    value = node.get(key)
    if value is not None and len(str(value)) > MAX_ID:
        problems.add(src.at(node, key, value=True), f"{what + ' ' if what else ''}id of {len(str(value))} characters",
                     ID_EXPECTED)
        return False
    if value is None or not ID.match(str(value)):
        problems.add(src.at(node, key, value=True) if key in node else src.at(node),
                     f"missing or malformed {what + ' ' if what else ''}id '{value if value is not None else ''}'",
                     "lowercase letters, digits and '-', e.g. heavy-cavalry")
        return False
    if seen is not None:
        if value in seen:
            problems.add(src.at(node, key, value=True),
                         f"duplicate {what + ' ' if what else ''}id '{value}' (first used on line {seen[value]})",
                         "ids unique among siblings")
            return False
        seen[value] = src.at(node, key, value=True).line
    return True
