"""An aid is written whole or not at all: a build killed at any file leaves the old or the new set."""
import os
import shutil
import subprocess
import sys

import pytest

from aids.write.journal import FAULT, STAGING, recover

from ..helpers import built_files, make_project

LANGS = ("pl", "en", "ru")


def build(root, fault: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    env.pop(FAULT, None)
    if fault:
        env[FAULT] = fault
    return subprocess.run([sys.executable, "-m", "aids", "build", "--format", "html"], cwd=root,
                          capture_output=True, text=True, env=env)


def outputs(root) -> dict[str, bytes]:
    return {str(p.relative_to(root / "build")): data for p, data in built_files(root / "build").items()}


@pytest.fixture(scope="module")
def sets(tmp_path_factory):
    """The demo built at version 2.0 (the old set) and at 3.0 (the new one): every file differs."""
    root = make_project(tmp_path_factory.mktemp("sets"))
    assert build(root).returncode == 0
    old = outputs(root)
    game = root / "games/demo/game.yaml"
    game.write_text(game.read_text().replace('version: "2.0"', 'version: "3.0"'))
    assert build(root).returncode == 0
    new = outputs(root)
    assert set(old) == set(new) and len(old) == 3 and all(old[k] != new[k] for k in old)
    return old, new


@pytest.mark.parametrize("fault", ["stage:1", "stage:2", "stage:3", "switch:1", "switch:2", "switch:3"])
def test_a_build_killed_at_any_file_leaves_the_old_or_the_new_aid(tmp_path, sets, fault):
    old, new = sets
    root = make_project(tmp_path)
    assert build(root).returncode == 0 and outputs(root) == old
    game = root / "games/demo/game.yaml"
    game.write_text(game.read_text().replace('version: "2.0"', 'version: "3.0"'))
    killed = build(root, fault)
    assert killed.returncode == 137  # ended as a kill would end it, in the middle of writing
    # whatever runs next finds the aid whole: an uncommitted staging is dropped, a committed one finished
    recover(root / "build")
    after = outputs(root)
    assert after == (old if fault.startswith("stage") else new)
    assert not (root / "build" / STAGING).exists()
    assert build(root).returncode == 0 and outputs(root) == new


def test_stale_temporary_files_are_removed_by_the_next_build(tmp_path):
    root = make_project(tmp_path)
    stale = root / "build/demo/pl/.seq.html.x1y2.tmp"
    stale.parent.mkdir(parents=True)
    stale.write_text("left by a killed write")
    staging = root / "build" / STAGING / "abc"
    staging.mkdir(parents=True)
    (staging / "1").write_text("staged, never committed")
    assert build(root).returncode == 0
    assert not stale.exists() and not (root / "build" / STAGING).exists()
    shutil.rmtree(root / "build")
