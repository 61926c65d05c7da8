"""Without Pango, for real (issue 35): the library hidden from the real WeasyPrint (/dev/null mounted over it, in a
mount namespace of the test's own), `aids build` says in one line what is missing and the command that installs it
on Debian or Ubuntu, Fedora and macOS, and prints nothing else (WeasyPrint's own 8-line banner included).
tests/test_cli.py simulates the same failure where this cannot run (not root, no unshare)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from .helpers import DEMO_SEQUENCE, make_project

pytestmark = [pytest.mark.system,  # a library mounted over, in a namespace of its own
              pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"),
                                 reason="mounting over a library needs root and unshare")]


def pango_files() -> list[str]:
    found = re.findall(r"=> (\S*libpango-1\.0\.so\.0)$", subprocess.run(["ldconfig", "-p"], capture_output=True,
                                                                            text=True).stdout, re.M)
    return sorted({os.path.realpath(path) for path in found})


def test_without_pango_one_line_names_the_commands_that_install_it(tmp_path):
    hidden = pango_files()
    assert hidden, "no libpango-1.0.so.0 known to ldconfig"
    root = make_project(tmp_path / "demo", {"games/demo/sequence.yaml": DEMO_SEQUENCE})
    mounts = "".join(f"mount --bind /dev/null {path} && " for path in hidden)
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                           f'{mounts}exec "$0" -m aids --project "$1" build --lang en', sys.executable, str(root)],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("WeasyPrint: cannot load libpango-1.0-0, which it needs to write PDFs (expected: ")
    for command in ("sudo apt-get install libpango-1.0-0", "sudo dnf install pango", "brew install pango"):
        assert command in line  # Debian or Ubuntu, Fedora, macOS
    assert not (root / "build" / "demo").exists()
