"""Inputs made to break aids, run as a user runs them on a project `aids init` made: a scheduler that is not one,
names too long for a file system, a bidi override in a game's folder, a release file that names another game or
version, an empty --since. Each ends in one line (after argparse's usage, for a mistake of the command line),
exit 1 or 2, no traceback, and nothing written."""
from __future__ import annotations

import http.server
import shutil
import socket
import threading
from pathlib import Path

import pytest

from aids.commands.cli import main
from aids.pipeline import cluster

GAME = "mill-skirmish"
BIDI = "mill\u202eskirmish"  # shown as "millhsimriks"
ID_EXPECTED = "(expected: lowercase letters, digits and '-', at most 64 of them, e.g. heavy-cavalry)"
VERSION_EXPECTED = "(expected: digits, letters, '.', '-' or '+', at most 64 of them, e.g. 1.4)"
SCHEDULER_EXPECTED = "(expected: the address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786)"


@pytest.fixture(scope="module")
def initial(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("init") / "project"
    assert main(["init", str(root)]) == 0
    assert main(["--project", str(root), "release", "1.0", "--date", "2026-11-23"]) == 0
    return root


@pytest.fixture
def project(initial, tmp_path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(initial, root)
    return root


def tree(root: Path) -> dict[str, bytes | None]:
    """Every file and folder under `root`, with what each file holds."""
    return {str(p.relative_to(root)): None if p.is_dir() else p.read_bytes() for p in sorted(root.rglob("*"))}


def run(capsys, root: Path, *args: str) -> tuple[int, list[str]]:
    """`aids --project ROOT ARGS...`: its exit status and what it printed on stderr, checked to leave the project as
    it was and to show no traceback."""
    capsys.readouterr()
    before = tree(root)
    try:
        status = main(["--project", str(root), *args])
    except SystemExit as stop:  # argparse's usage error
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert tree(root) == before, "nothing may be written"
    return status, err.splitlines()


def one_line(status: int, lines: list[str], expected: str, exit: int = 1) -> None:
    assert status == exit
    assert lines == [expected]


def usage_error(status: int, lines: list[str], expected: str) -> None:
    """argparse's usage (one or more lines, the first `usage:`), then the one line of the error."""
    assert status == 2
    assert lines[0].startswith("usage: aids ") and all(line.startswith(" ") for line in lines[1:-1])
    assert lines[-1] == "aids: error: " + expected


# --- aids build --scheduler ---------------------------------------------------------------------------------

@pytest.mark.parametrize("address, expected", [
    ("not a url", "'not a url' is not a Dask scheduler's address"),
    ("http://127.0.0.1:8786", "'http://127.0.0.1:8786' is not a Dask scheduler's address"),
    ("tcp://127.0.0.1", "'tcp://127.0.0.1' is not a Dask scheduler's address"),
    ("127.0.0.1:8786", "'127.0.0.1:8786' is not a Dask scheduler's address"),
    ("tcp://127.0.0.1:70000", "port 70000 of 'tcp://127.0.0.1:70000' is not from 1 to 65535"),
    ("tcp://\u202e1.0.0.721:8786", "'tcp://\\u202e1.0.0.721:8786' is not a Dask scheduler's address"),
])
def test_a_scheduler_address_of_another_form_is_a_usage_error(project, capsys, address, expected):
    usage_error(*run(capsys, project, "build", "--format", "html", "--scheduler", address),
                f"argument --scheduler: {expected} (expected: tcp://HOST:PORT or tls://HOST:PORT, e.g. "
                "tcp://10.0.0.5:8786)")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # nothing on stderr but aids'
        pass


@pytest.fixture
def http_port():
    """A web server on a free port of this host, answering HTTP (or waiting for a request line to answer)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_a_port_that_answers_http_is_no_scheduler(project, capsys, monkeypatch, http_port):
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "SECONDS", 1)
    address = f"tcp://127.0.0.1:{http_port}"
    one_line(*run(capsys, project, "build", "--format", "html", "--scheduler", address),
             f"command line: no Dask scheduler at {address}: no answer as a Dask scheduler within 1 s "
             + SCHEDULER_EXPECTED)


def test_a_closed_port_is_no_scheduler_at_once(project, capsys):
    pytest.importorskip("distributed")
    with socket.socket() as probe:  # a port free a moment ago: nothing listens on it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    one_line(*run(capsys, project, "build", "--format", "html", "--scheduler", address),
             f"command line: no Dask scheduler at {address}: Connection refused " + SCHEDULER_EXPECTED)


# --- names too long for a file system ---------------------------------------------------------------------

def test_a_version_too_long_for_a_file_name(project, capsys):
    usage_error(*run(capsys, project, "release", "1" * 5000),
                "argument version: version of 5000 characters " + VERSION_EXPECTED)


def test_an_aid_id_too_long_for_a_file_name(project, capsys):
    one_line(*run(capsys, project, "new", "table", "a" * 300),
             "command line: aid id of 300 characters " + ID_EXPECTED)


def test_an_id_of_64_characters_is_one(project, capsys):
    name = "a" * 64
    status, lines = run_writing(capsys, project, "new", "table", name)
    assert status == 0, lines
    assert (project / "games" / GAME / f"{name}.yaml").is_file()


def run_writing(capsys, root: Path, *args: str) -> tuple[int, list[str]]:
    capsys.readouterr()
    status = main(["--project", str(root), *args])
    return status, capsys.readouterr().err.splitlines()


def test_an_aid_id_too_long_in_its_source(project, capsys):
    source = project / "games" / GAME / "terrain.yaml"
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("\nid: terrain\n", f"\nid: {'t' * 65}\n"), encoding="utf-8")
    line = text.split("\nid: terrain\n")[0].count("\n") + 2
    status, lines = run(capsys, project, "build", "--format", "html")
    assert status == 1
    assert f"games/{GAME}/terrain.yaml:{line}:5: table id of 65 characters {ID_EXPECTED}" in lines


def test_a_game_id_too_long(project, capsys):
    long = "m" * 65
    (project / "games" / GAME).rename(project / "games" / long)
    game_yaml = project / "games" / long / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(f"id: {GAME}", f"id: {long}"), "utf-8")
    one_line(*run(capsys, project, "build", "--format", "html"),
             f"games/{long}/game.yaml:4:5: game id of 65 characters {ID_EXPECTED}")


# --- a bidi override in a name that becomes a path ----------------------------------------------------------

def rename_game(root: Path, folder: str, game_id: str) -> None:
    (root / "games" / GAME).rename(root / "games" / folder)
    game_yaml = root / "games" / folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(f"id: {GAME}", f"id: {game_id}"), "utf-8")


def test_a_game_id_and_folder_with_a_bidi_override(project, capsys):
    rename_game(project, BIDI, BIDI)  # refused as any text holding an override is, before it is read as an id
    one_line(*run(capsys, project, "build", "--format", "html"),
             "games/mill\\u202eskirmish/game.yaml:4:9: bidi override U+202E, which prints what follows it reversed "
             "(expected: text in its own order, without U+202D or U+202E)")


def test_a_game_folder_with_a_bidi_override(project, capsys):
    rename_game(project, BIDI, GAME)
    one_line(*run(capsys, project, "build", "--format", "html"),
             "games/mill\\u202eskirmish: malformed game folder name 'mill\\u202eskirmish' " + ID_EXPECTED)


def test_an_edition_id_with_a_bidi_override(project, capsys):
    game_yaml = project / "games" / GAME / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(text + "editions:\n  - id: cm\n  - id: \"h\u202ecni\"\n", "utf-8")
    line = text.count("\n") + 3
    one_line(*run(capsys, project, "build", "--format", "html"),
             f"games/{GAME}/game.yaml:{line}:11: bidi override U+202E, which prints what follows it reversed "
             "(expected: text in its own order, without U+202D or U+202E)")


def test_a_version_with_a_bidi_override(project, capsys):
    usage_error(*run(capsys, project, "release", "1.\u202e1"),
                "argument version: malformed version '1.\\u202e1' " + VERSION_EXPECTED)


def test_an_aid_id_with_a_bidi_override(project, capsys):
    one_line(*run(capsys, project, "new", "table", "a\u202eb"),
             "command line: malformed aid id 'a\\u202eb' " + ID_EXPECTED)


# --- a release file that says another game or version than its place ------------------------------------------

@pytest.mark.parametrize("old, new, expected", [
    (f"game: {GAME}\n", "game: other\n",
     "4:7: this release file records game 'other', not 'mill-skirmish' (its folder) (expected: game: "
     "'mill-skirmish', as `aids release` wrote it)"),
    ("version: '1.0'\n", "version: '2.0'\n",
     "5:10: this release file records version '2.0', not '1.0' (its file name) (expected: version: '1.0', as "
     "`aids release` wrote it)"),
])
@pytest.mark.parametrize("command", [["changes"], ["build", "--format", "html", "--quiet"]])  # no progress lines
def test_a_release_file_of_another_game_or_version(project, capsys, old, new, expected, command):
    release = project / "games" / GAME / "releases" / "1.0.yaml"
    text = release.read_text(encoding="utf-8")
    assert text.count(old) == 1
    release.write_text(text.replace(old, new), encoding="utf-8")
    status, lines = run(capsys, project, *command)
    assert status == 1
    assert lines == [f"games/{GAME}/releases/1.0.yaml:{expected}"]


# --- --since ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("since, expected", [
    ("", "an empty version " + VERSION_EXPECTED),
    ("../game", "malformed version '../game' " + VERSION_EXPECTED),
])
def test_since_names_a_version(project, capsys, since, expected):
    usage_error(*run(capsys, project, "changes", "--since", since), "argument --since: " + expected)
