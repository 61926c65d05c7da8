"""`aids serve` is safe to leave running (issue 29): it answers only for this machine's loopback names, serves
nothing outside its output folder nor through a symbolic link planted in it, nor aids' own state folders,
answers malformed paths with 400 or 404 (never a traceback), and fails at once on a port it cannot take."""
from __future__ import annotations

import hashlib
import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .helpers import make_project


def tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        digest.update(str(path.relative_to(folder)).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def aids(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "aids", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"}, **kwargs)


@pytest.fixture(scope="module")
def preview(tmp_path_factory):
    base = tmp_path_factory.mktemp("serve")
    root = make_project(base / "project", languages=("pl",))
    outside = base / "outside"  # a sentinel folder beside the project, with a private file
    outside.mkdir()
    (outside / "secret.txt").write_text("not for the preview\n")
    (outside / "secret.txt").chmod(0o600)
    before = tree_digest(outside)
    process = aids("--project", str(root), "serve", "--port", "0")
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "serving build at http://127.0.0.1:" in line, line + (process.stderr.read() if process.stderr else "")
    port = int(line.split("127.0.0.1:", 1)[1].split("/", 1)[0])
    build = root / "build"
    (build / "outside-link").symlink_to(outside)
    (build / "secret-link.txt").symlink_to(outside / "secret.txt")
    (build / "bad.html").write_bytes(b"<html><body>\xff\xfe caf\xe9</body></html>")
    yield port, build
    process.terminate()
    _, errors = process.communicate(timeout=10)
    assert "Traceback" not in errors, errors
    assert tree_digest(outside) == before


def get(port: int, path: str, host: str | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
    connection.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def test_a_page_and_the_start_page_are_served(preview):
    port, _ = preview
    status, body = get(port, "/")
    assert status == 200 and b"aids preview" in body
    for host in ("localhost", f"localhost:{port}", f"[::1]:{port}"):
        assert get(port, "/", host)[0] == 200, host


@pytest.mark.parametrize("host", ["evil.example", f"evil.example:{8000}", "127.0.0.1.evil.example", "", "127.0.0.1:1"])
def test_a_foreign_host_is_refused(preview, host):
    """A DNS-rebinding page names its own host: it never reads the preview or its error panel."""
    port, _ = preview
    status, body = get(port, "/", host)
    assert status == 421 and b"aids preview" not in body
    assert get(port, "/_aids/status", host)[0] == 421


@pytest.mark.parametrize("path", ["/outside-link/secret.txt", "/secret-link.txt", "/outside-link/",
                                  "/../outside/secret.txt", "/%2e%2e/outside/secret.txt", "/.aids-cache/",
                                  "/.aids-staging/x", "/" + "a" * 300 + ".html", "/nothing.pdf"])
def test_nothing_outside_the_output_nor_through_a_link_nor_aids_own_state(preview, path):
    port, _ = preview
    status, body = get(port, path)
    assert status == 404 and b"not for the preview" not in body, (path, status)


def test_a_nul_in_the_path_is_a_bad_request_and_bad_bytes_a_page(preview):
    port, _ = preview
    assert get(port, "/x%00.html")[0] == 400
    status, body = get(port, "/bad.html")
    assert status == 200 and "caf\ufffd".encode() in body


def test_a_port_in_use_fails_at_once_before_any_build(tmp_path):
    root = make_project(tmp_path / "project", languages=("pl",))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        started = time.monotonic()
        process = aids("--project", str(root), "serve", "--port", str(taken.getsockname()[1]))
        out, errors = process.communicate(timeout=60)
    assert process.returncode == 1 and "Traceback" not in errors
    assert errors.strip().count("\n") == 0 and "cannot serve on 127.0.0.1:" in errors, errors
    assert not (root / "build").exists()  # nothing was built
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("args, message", [(["--port", "70000"], "not a port"), (["--port", "-1"], "not a port"),
                                           (["--game", "../x"], "unknown game '../x'")])
def test_a_command_line_mistake_exits_2_before_serving(tmp_path, args, message):
    root = make_project(tmp_path / "project", languages=("pl",))
    process = aids("--project", str(root), "serve", *args)
    out, errors = process.communicate(timeout=60)
    assert process.returncode == 2 and message in errors and "Traceback" not in errors, errors
    assert not (root / "build").exists()
