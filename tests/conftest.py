import shutil
from pathlib import Path

import pytest

from aids.build import builder
from aids.config import read_project

from .helpers import REPO, make_project


@pytest.fixture
def demo(tmp_path) -> Path:
    """A fresh project with the small demo game (Polish source, no translations yet)."""
    return make_project(tmp_path)


@pytest.fixture(scope="session")
def sample(tmp_path_factory):
    """The real samples built once, as README command 1 builds them, into a scratch project."""
    root = tmp_path_factory.mktemp("sample")
    for name in ("games", "i18n"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
    # a project of games, as a user has it: the aids source tree (ui_domain) stays behind
    (root / "aids.yaml").write_text((REPO / "aids.yaml").read_text().replace("ui_domain: true", "ui_domain: false"))
    project = read_project(root)
    summary = builder.build(project)
    assert not summary.failed, "\n".join(str(e) for e in summary.failed)
    return project, summary


@pytest.fixture(scope="session")
def for_print_build(sample, tmp_path_factory):
    """Every sample aid in every language built for the press, for a monochrome printer and imposed (both
    impositions), once, beside the samples' own (home) build: the project and the build's summary."""
    from aids.build.pipeline import Options
    root = tmp_path_factory.mktemp("for-print")
    for name in ("games", "i18n", "aids.yaml"):
        source = sample[0].root / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, root / name)
    project = read_project(root)
    summary = builder.build(project, Options(formats=["press", "gray", "imposed"]))
    assert not summary.failed, "\n".join(str(e) for e in summary.failed)
    return project, summary


@pytest.fixture(scope="session")
def for_print(for_print_build):
    """The project of `for_print_build`."""
    return for_print_build[0]
