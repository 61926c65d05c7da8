"""The suite's layers (tests/layers.py), tried on small suites of their own, each run by pytest in a process of its
own: every test in one layer, `-m` seeing that one, a test doing what its layer forbids failing, the tests that
share a module's fixture grouped for xdist, and what the workers share made once and never changed."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from pytest import mark

from .helpers import REPO

CONFTEST = """\
import os
import pytest

pytest_plugins = ("tests.layers",)


@pytest.fixture(scope="session")
def made(request):
    from tests.layers import shared

    def make(folder):
        (folder / "made").write_text("once")
        with open(os.environ["MADE_LOG"], "a") as log:
            log.write(os.environ.get("PYTEST_XDIST_WORKER", "alone") + "\\n")
        return 42
    return shared(request, "thing", make)
"""

LAYERED = """\
import pytest
pytestmark = pytest.mark.unit
LAYERS = ("unit", "integration", "system")


def layers(request):
    return [m.name for m in request.node.iter_markers() if m.name in LAYERS]


def test_unit_by_its_module(request):
    assert layers(request) == ["unit"]


@pytest.mark.integration
def test_integration_by_its_own(request):
    assert layers(request) == ["integration"]
"""

UNMARKED = """\
def test_integration_by_default(request):
    assert [m.name for m in request.node.iter_markers() if m.name in ("unit", "integration", "system")] == \\
        ["integration"]
"""

GUARDED = """\
import socket
import subprocess
import pytest
pytestmark = pytest.mark.unit


def test_a_process():
    subprocess.run(["true"])


def test_a_process_whose_error_is_swallowed():
    try:
        subprocess.run(["true"])
    except Exception:
        pass


def test_a_socket():
    socket.socket().bind(("127.0.0.1", 0))


def test_a_build():
    from aids.pipeline import builder
    builder.build(None)


def test_a_pdf():
    import weasyprint
    weasyprint.HTML(string="<p>x</p>").write_pdf()


def test_reading():
    assert "x".upper() == "X"


@pytest.mark.integration
def test_a_process_in_integration():
    subprocess.run(["true"], check=True)


@pytest.mark.integration
def test_a_browser_in_integration():
    subprocess.run(["chromium", "--version"])


@pytest.mark.system
def test_a_browser_in_system(tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\\nexit 0\\n")
    fake.chmod(0o755)
    subprocess.run([str(fake)], check=True)
"""

GROUPED = """\
import pytest


@pytest.fixture(scope="module")
def expensive():
    return 1


def test_sharing_its_modules_fixture(request, expensive):
    assert request.node.get_closest_marker("xdist_group").args == ("test_grouped.py",)


def test_sharing_nothing(request, tmp_path):
    assert request.node.get_closest_marker("xdist_group") is None
"""

SHARING = "".join(f"""
def test_{n}(made):
    folder, value = made
    assert value == 42 and (folder / "made").read_text() == "once"
""" for n in range(6))


def suite(root: Path, files: dict[str, str]) -> Path:
    for name, text in {"conftest.py": CONFTEST, **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def pytest(root: Path, *args: str) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "MADE_LOG": str(root / "made.log")}
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--rootdir", str(root), "-rA",
                           *args], cwd=root, env=env, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


def outcomes(said: str) -> dict[str, str]:
    return {m[2]: m[1] for m in re.finditer(r"^(PASSED|FAILED|ERROR) \S+::(\w+)", said, re.M)}


def test_each_test_is_in_one_layer_and_does_only_what_its_layer_allows(tmp_path):
    root = suite(tmp_path, {"test_layered.py": LAYERED, "test_unmarked.py": UNMARKED, "test_guarded.py": GUARDED,
                            "system/test_system.py": "def test_system_by_its_folder(request):\n"
                                                     "    assert request.node.get_closest_marker('system')\n",
                            "test_grouped.py": GROUPED})
    code, said = pytest(root)
    assert code == 1, said
    assert outcomes(said) == {
        "test_unit_by_its_module": "PASSED", "test_integration_by_its_own": "PASSED",
        "test_integration_by_default": "PASSED", "test_system_by_its_folder": "PASSED",
        "test_a_process": "FAILED", "test_a_process_whose_error_is_swallowed": "FAILED", "test_a_socket": "FAILED",
        "test_a_build": "FAILED", "test_a_pdf": "FAILED", "test_reading": "PASSED",
        "test_a_process_in_integration": "PASSED", "test_a_browser_in_integration": "FAILED",
        "test_a_browser_in_system": "PASSED",
        "test_sharing_its_modules_fixture": "PASSED", "test_sharing_nothing": "PASSED"}, said
    assert ("test_guarded.py::test_a_process_whose_error_is_swallowed is in the unit layer but starts a process "
            "(subprocess.Popen: true): mark it @pytest.mark.integration (tests/layers.py)") in said
    assert "is in the unit layer but builds a project (aids.pipeline.builder.build)" in said
    assert "is in the unit layer but renders a PDF (WeasyPrint)" in said
    assert "is in the unit layer but opens a socket" in said
    assert ("test_guarded.py::test_a_browser_in_integration is in the integration layer but starts chromium, a "
            "system's program: mark it @pytest.mark.system") in said
    code, said = pytest(root, "--collect-only", "-q", "-m", "unit")
    assert code == 0 and re.findall(r"^\S+::\w+", said, re.M) == [
        "test_guarded.py::test_a_process", "test_guarded.py::test_a_process_whose_error_is_swallowed",
        "test_guarded.py::test_a_socket", "test_guarded.py::test_a_build", "test_guarded.py::test_a_pdf",
        "test_guarded.py::test_reading", "test_layered.py::test_unit_by_its_module"], said


def test_a_test_in_two_layers_stops_the_collection(tmp_path):
    root = suite(tmp_path, {"test_two.py": "import pytest\n\n\n@pytest.mark.unit\n@pytest.mark.system\n"
                                           "def test_both():\n    pass\n"})
    code, said = pytest(root, "--collect-only")
    assert code == 4 and ("test_two.py::test_both: in two layers (system and unit): mark it one of unit, "
                          "integration, system (tests/layers.py)") in said, said


def test_what_the_workers_share_is_made_once_and_a_change_to_it_fails_the_run(tmp_path):
    root = suite(tmp_path / "shared", {"test_sharing.py": SHARING})
    code, said = pytest(root, "-n", "2", "--dist", "loadgroup", "-v")
    assert code == 0 and {"[gw0]", "[gw1]"} <= set(re.findall(r"\[gw\d\]", said)), said  # both workers ran tests
    assert (root / "made.log").read_text() in ("gw0\n", "gw1\n")  # made once, by one of them
    root = suite(tmp_path / "changed", {"test_changing.py": "def test_writing(made):\n"
                                                            "    (made[0] / 'made').write_text('twice')\n"})
    code, said = pytest(root)
    assert code == 1 and "a test changed" in said and "which every test shares: copy it first" in said, said


def test_the_tests_sharing_a_modules_fixture_run_in_one_worker(tmp_path):
    """xdist's loadgroup sends a module whose tests share a fixture to one worker (with pytest 9.2 it could not name
    the groups, and every module's fixture was made in each worker, its ordered tests split between them)."""
    body = "import os\nimport pytest\n\n\n@pytest.fixture(scope='module')\ndef made():\n    return 1\n\n\n" + "".join(
        f"def test_{n}(made):\n    print('worker', os.environ['PYTEST_XDIST_WORKER'])\n\n\n" for n in range(8))
    root = suite(tmp_path, {"test_grouped.py": body})
    code, said = pytest(root, "-n", "2", "--dist", "loadgroup", "-v")
    assert code == 0 and len(set(re.findall(r"\[(gw\d)\] .*PASSED", said))) == 1, said


@mark.unit
def test_a_worker_is_handed_what_needs_no_shared_build_while_the_other_makes_it():
    """With 2 workers the first two scopes start at once: a Weblate module (minutes, no samples) beside the first
    test that needs the samples, which builds them; not two tests that need them, one waiting on the lock. The
    for-print build is made by the first module that needs it, at the head of the integration layer, while the
    other worker runs what needs no more than the samples; the other modules that need it come last."""
    from .layers import LAYER, _run_order

    class Item:  # what the order reads of a pytest item
        def __init__(self, nodeid: str, layer: str, *fixtures: str):
            self.nodeid, self.stash, self.fixturenames = nodeid, {LAYER: layer}, fixtures
    items = [Item("tests/render/test_card.py::t", "integration", "for_print_build", "sample"),
             Item("tests/render/test_epub.py::t", "system", "sample"),
             Item("tests/render/test_lines.py::t", "integration", "for_print_build", "sample"),
             Item("tests/system/test_weblate.py::t", "system"),
             Item("tests/test_digests.py::t", "integration", "sample"),
             Item("tests/test_layers.py::t", "unit"),
             Item("tests/test_noop.py::t", "integration")]
    assert [item.nodeid.split("::")[0].rpartition("/")[2] for item in sorted(items, key=_run_order(items))] == [
        "test_weblate.py", "test_epub.py", "test_card.py", "test_digests.py", "test_noop.py", "test_lines.py",
        "test_layers.py"]
