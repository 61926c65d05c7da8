"""The reference pages of the documentation site, made from the code so that they cannot drift from it:

- the command line, from `aids`' own argument parser (every command, option and its help);
- the source files, from the JSON Schemas aids reads them with (every field, its type and meaning);
- the error messages: every message a `Problem` is made with in aids' code, found by reading the code (its
  Python syntax tree), and a set of worked examples, each a small mistake made in a fresh `aids init` project
  and the message aids really prints for it, with the fix.

docs/hooks.py (an MkDocs hook) adds these pages to the site when `mkdocs build` makes it.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import aids

from ..folder import Folder
from .parser import COMMANDS


def pages(scratch: Path) -> dict[str, str]:
    """Every reference page, by its path in the documentation; the worked examples are made in projects in
    `scratch`, an empty folder the caller gives and removes."""
    return {"reference/cli.md": cli_page(), "reference/sources.md": sources_page(),
            "reference/errors.md": errors_page(scratch)}


# --- the command line -------------------------------------------------------------------------------------------

def _subparsers(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {command.name: command.summary for command in COMMANDS}  # `aids --help` lists them by group
            for name, sub in action.choices.items():
                yield name, helps.get(name, ""), sub


def _option_row(action: argparse.Action) -> str | None:
    if action.help == argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
        return None
    if action.option_strings:
        names = ", ".join(f"`{o}`" for o in action.option_strings)
        if action.nargs != 0:
            names += f" `{action.metavar or action.dest.upper()}`"
    else:
        names = f"`{action.metavar or action.dest}`"
    text = (action.help or "").replace("%%", "%")
    if action.choices and not isinstance(action, argparse._SubParsersAction):
        text += " (one of: " + ", ".join(f"`{c}`" for c in action.choices) + ")"
    if action.default not in (None, False, argparse.SUPPRESS) and action.option_strings:
        text += f" (default: `{action.default}`)"
    return f"| {names} | {_cell(text)} |"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def cli_page() -> str:
    from .cli import make_parser
    parser = make_parser()
    out = ["# Command line", "",
           "Made from `aids`' own argument parser: what `aids COMMAND --help` prints, every command and option.", "",
           "Options of every command (before the command's name):", "", "| option | what it does |", "|---|---|"]
    out += [row for a in parser._actions if (row := _option_row(a))]
    for name, summary, sub in _subparsers(parser):
        out += ["", f"## aids {name}", "", _cell(summary or sub.description or ""), "",
                "```", sub.format_usage().strip().removeprefix("usage: "), "```"]
        rows = [row for a in sub._actions if (row := _option_row(a))]
        if rows:
            out += ["", "| option | what it does |", "|---|---|", *rows]
        if sub.epilog:
            out += ["", "```", sub.epilog.strip(), "```"]
    return "\n".join(out) + "\n"


# --- the source files -------------------------------------------------------------------------------------------

SCHEMAS = (("project", "aids.yaml"), ("game", "games/<game>/game.yaml"), ("sequence", "a sequence of play"),
           ("table", "a table"), ("playsheet", "a playsheet"), ("card", "a referee card"),
           ("booklet", "a rule booklet"))


def schema(name: str) -> dict[str, Any]:
    return json.loads(resources.files(aids).joinpath("json-schemas", f"{name}.schema.json").read_text("utf-8"))


def _type(node: dict[str, Any]) -> str:
    if "$ref" in node:
        return f"[{node['$ref'].rpartition('/')[2]}](#{node['$ref'].rpartition('/')[2]})"
    if "const" in node:
        return f"`{node['const']}`"
    if "enum" in node:
        return " \\| ".join(f"`{v}`" for v in node["enum"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            return " or ".join(_type(n) for n in node[key])
    kind = node.get("type", "")
    if kind == "array":
        return f"list of {_type(node.get('items', {}))}"
    return " or ".join(kind) if isinstance(kind, list) else (kind or "any")


def _fields(node: dict[str, Any], prefix: str = "") -> Iterator[str]:
    required = set(node.get("required", ()))
    for key, field in node.get("properties", {}).items():
        path = f"{prefix}{key}"
        mark = " (required)" if key in required else ""
        yield f"| `{path}`{mark} | {_type(field)} | {_cell(field.get('description', ''))} |"
        if field.get("type") == "object" and "properties" in field:
            yield from _fields(field, path + ".")
        items = field.get("items", {})
        if isinstance(items, dict) and items.get("type") == "object" and "properties" in items:
            yield from _fields(items, path + "[].")


def sources_page() -> str:
    out = ["# Source files", "",
           "Made from the JSON Schemas aids reads the sources with (`aids schema KIND` prints one; the first line of "
           "each source names its schema, so an editor completes and checks the fields). A field marked *text* is "
           "translated through the catalogs.", ""]
    for name, what in SCHEMAS:
        doc = schema(name)
        out += [f"## {name}", "", _cell(doc.get("description", what)), "", f"File: {what}.", "",
                "| field | type | meaning |", "|---|---|---|", *_fields(doc)]
        for ref, sub in doc.get("$defs", {}).items():
            out += ["", f"### {ref} {{#{ref}}}" if not _seen(out, ref) else f"### {ref} ({name})", "",
                    _cell(sub.get("description", "")), ""]
            rows = list(_fields(sub))
            out += ["| field | type | meaning |", "|---|---|---|", *rows] if rows else [f"A value: {_type(sub)}."]
    return "\n".join(out) + "\n"


def _seen(out: list[str], ref: str) -> bool:
    return any(line.endswith(f"{{#{ref}}}") for line in out)


# --- the error messages -----------------------------------------------------------------------------------------

PASSED_ON = re.compile(r"(\{[^{}]*\}[: ]*)+")  # a message made of another's parts: reported where it is made


@dataclass(frozen=True)
class Message:
    module: str
    line: int
    message: str
    expected: str


def _text(node: ast.expr | None) -> str:
    """A message as the code writes it: literal text, with `{...}` for what is filled in when it is reported."""
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else ast.unparse(v)
                       for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text(node.left) + _text(node.right)
    return "{" + ast.unparse(node) + "}"


def _reports(func: ast.expr) -> bool:
    """A call that reports a problem: `Problem(where, message, expected)`, or `problems.add(where, message, ...)`
    on a `Problems` (aids/errors.py), whatever the collector is named as long as its name says "problem"."""
    if isinstance(func, ast.Name):
        return func.id == "Problem"
    return isinstance(func, ast.Attribute) and func.attr == "add" and "problem" in ast.unparse(func.value).lower()


def messages() -> list[Message]:
    """Every problem aids' code reports (see `_reports`), in module order."""
    root = Path(aids.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _reports(node.func):
                args = [*node.args, *(k.value for k in node.keywords)]
                if len(args) >= 2 and not PASSED_ON.fullmatch(_text(args[1])):
                    found.append(Message(path.relative_to(root.parent).as_posix(), node.lineno, _text(args[1]),
                                         _text(args[2]) if len(args) > 2 else ""))
    return sorted(found, key=lambda m: (m.module, m.line))


REPORTED = re.compile(r"^(\S+:\d+(:\d+)?|command line): ")  # a line reporting a problem


@dataclass(frozen=True)
class Example:
    title: str
    file: str  # a file of the `aids init` project, changed as below
    old: str  # text replaced ...
    new: str  # ... by this
    command: tuple[str, ...]
    fix: str


EXAMPLES = (
    Example("A misspelled field", "games/mill-skirmish/referee-card.yaml", "font_size: 9", "font_sise: 9",
            ("extract",), "Use a field the kind knows; the message lists them. Your editor marks it as you type when "
                        "the file's first line names its schema."),
    Example("A value of the wrong type", "games/mill-skirmish/referee-card.yaml", "columns: 1", "columns: two",
            ("extract",), "Give the type the message expects (here a whole number)."),
    Example("A broken YAML file", "games/mill-skirmish/sequence.yaml", "kind: sequence", "kind: [sequence",
            ("extract",), "Close the bracket or quote; the position is where the YAML parser gave up."),
    Example("An id used twice", "games/mill-skirmish/referee-card.yaml", "- {id: sight,", "- {id: no-pass,",
            ("extract",), "Ids are the stable names translations follow: give each item its own."),
    Example("A cross-reference to nothing", "games/mill-skirmish/rules/introduction.md", "\n\n",
            "\n\nSee {see:nowhere}.\n\n", ("build", "--format", "html", "--lang", "en"),
            "Name the id of a numbered heading (`{#id}` after the heading's text)."),
    Example("An aid game.yaml does not find", "games/mill-skirmish/game.yaml", "- sequence.yaml",
            "- sequense.yaml", ("extract",), "Name an existing file of the game's folder."),
    Example("A broken catalog", "i18n/pl/LC_MESSAGES/mill-skirmish.po", "msgstr ", "msgstr_ ",
            ("check",), "Edit catalogs with a catalog editor (Poedit, Weblate), or mend the line: `msgfmt --check` "
                        "gives the same position."),
    Example("A language that is not published", "aids.yaml", "", "", ("build", "--lang", "xx"),
            "Choose one of the project's languages (`languages:` in aids.yaml)."),
    Example("A release that was never recorded", "aids.yaml", "", "", ("changes", "--since", "9.9"),
            "Name a recorded release (`games/<game>/releases/`)."),
)


def _run(args: tuple[str, ...], cwd: Path) -> tuple[int, str]:
    from .cli import main
    out = io.StringIO()
    here = Path.cwd()
    try:
        os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = main(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(here)
    return code or 0, out.getvalue()


def worked(example: Example, scratch: Path, name: str = "project") -> tuple[int, str]:
    """What aids prints for `example`, made in a fresh `aids init` project `scratch`/`name`."""
    _run(("init", name), scratch)
    project = scratch / name
    if example.old or example.new:
        folder = Folder(project)
        text = (folder.read(example.file) or b"").decode()
        if example.old not in text:
            raise ValueError(f"{example.title}: {example.old!r} is not in {example.file}")
        folder.write(example.file, text.replace(example.old, example.new, 1).encode())
    code, printed = _run(example.command, project)
    lines = [line for line in printed.splitlines() if REPORTED.match(line)]
    return code, "\n".join(lines[:3])


def errors_page(scratch: Path) -> str:
    out = ["# Error messages", "",
           "aids reports a mistake in its input as `path:line:col: what is wrong (expected: ...)`, exits with status 1 "
           "and shows no traceback (`aids --debug` shows one). Nothing is half-written: an aid that fails keeps its "
           "last good files.", "", "## Worked examples", "",
           "Each is a small mistake made in a fresh `aids init` project; the message is what aids prints for it "
           "(run when this page was built).", ""]
    for number, example in enumerate(EXAMPLES, 1):
        code, printed = worked(example, scratch, f"example-{number}")
        change = f"`{example.file}`: `{example.old.strip()}` → `{example.new.strip()}`" if example.old else "none"
        out += [f"### {example.title}", "", f"The mistake: {change}; then `aids {' '.join(example.command)}` "
                f"(exit status {code}):", "", "```", printed or "(nothing printed)", "```", "",
                f"The fix: {example.fix}", ""]
    found = messages()
    out += ["## Every message", "",
            f"The {len(found)} messages aids' code reports, read from the code; `{{...}}` is filled in when it is "
            "reported (a file name, a value, a list of what is known).", ""]
    module = ""
    for m in found:
        if m.module != module:
            module = m.module
            out += ["", f"### `{module}`", "", "| message | expected |", "|---|---|"]
        out.append(f"| {_cell(_code(m.message))} | {_cell(_code(m.expected))} |")
    return "\n".join(out) + "\n"


def _code(text: str) -> str:
    return f"`{text.replace('`', chr(39))}`" if text else ""
