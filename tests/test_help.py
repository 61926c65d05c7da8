"""`aids --help` (issue 35): the commands grouped and ordered as a newcomer meets them, each with a one-line summary;
each command's own --help with an example that runs."""
from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil

import pytest

from aids.commands.cli import main
from aids.commands.parser import COMMANDS, make_parser

from .helpers import REPO

ORDER = [("start", ["init", "new"]), ("build and preview", ["build", "serve"]),
         ("translate", ["extract", "update", "import", "compile", "check", "stats", "context", "budgets", "weblate"]),
         ("release", ["release", "changes", "errata"]), ("maintain", ["schema", "formats"])]
NOT_RUN = {"serve": "serves until stopped", "context": "needs Chromium (tests/test_context.py runs it)"}


def help_of(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        make_parser().parse_args([*args, "--help"])
    assert stop.value.code == 0
    return out.getvalue()


@pytest.mark.unit
def test_the_commands_come_by_group_in_a_newcomers_order_each_with_one_line():
    text = help_of()
    listing = text.split("\ncommands:\n")[1].split("\n\n")[0].splitlines()
    groups: list[tuple[str, list[str]]] = []
    for line in listing:
        if found := re.fullmatch(r"  (\S.*):", line):
            groups.append((found[1], []))
        else:
            found = re.fullmatch(r"    ([a-z]+) +(\S.{10,})", line)
            assert found, line  # a command and its summary, on one line
            groups[-1][1].append(found[1])
    assert groups == ORDER
    choices = make_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert list(choices) == [name for _, names in ORDER for name in names]  # none missing, none listed twice
    usage = text.splitlines()[0]
    assert usage == "usage: aids [-h] [--version] [--project PROJECT] [--debug] COMMAND ..."
    # the usage is written out (the commands' own entry is suppressed): it names every option the parser has
    assert {o for action in make_parser()._actions for o in action.option_strings if o.startswith("--")} == \
        set(re.findall(r"--[a-z-]+", usage)) | {"--help"}


def examples(name: str) -> list[str]:
    text = help_of(name)
    assert re.search(r"\nexamples?:\n", text), f"aids {name} --help has no example"
    lines = text.split("example")[-1].splitlines()[1:]
    found = [line.strip() for line in lines if line.startswith("  aids ")]
    assert found, name
    return found


@pytest.mark.parametrize("name", [name for _, names in ORDER for name in names])
@pytest.mark.unit
def test_each_command_has_an_example_the_parser_takes(name):
    for example in examples(name):
        args = make_parser().parse_args(shlex.split(example, comments=True)[1:])
        assert args.command == name, example


def test_the_examples_run_in_the_order_of_the_help(tmp_path, monkeypatch, capsys):
    """A newcomer's first hour, every example as its --help gives it, in the order `aids --help` lists them."""
    monkeypatch.chdir(tmp_path)
    ran = []
    for command in COMMANDS:
        if command.name in NOT_RUN or (command.name == "budgets" and not shutil.which("msgcat")):
            continue
        if command.name == "import":  # the catalog of another tool its example reads, as a team brings it
            shutil.copy(REPO / "contrib" / "examples" / "rules.pl.po", "rules.pl.po")
        for example in examples(command.name):
            assert main(shlex.split(example, comments=True)[1:]) == 0, (example, capsys.readouterr())
            ran.append(example)
            if command.name == "init":
                monkeypatch.chdir(tmp_path / "my-game")
    capsys.readouterr()
    assert {shlex.split(e)[1] for e in ran} >= {"init", "new", "build", "extract", "update", "import", "compile", "check", "stats",
                                           "release", "changes", "errata", "schema", "formats"}
    assert list((tmp_path / "my-game/build").rglob("*.pdf")) and (tmp_path / "my-game/games").is_dir()
