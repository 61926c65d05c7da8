import os
from pathlib import Path

import pytest

from aids.config import read_project
from aids.pipeline import builder

from .helpers import copy_project, make_project, sample_project

pytest_plugins = ("tests.layers",)  # unit, integration, system: each test in one; the workers' shared builds


@pytest.fixture(scope="session", autouse=True)
def read_back_folder(tmp_path_factory):
    """The run's folder where tests/helpers.pdf_text keeps what it read, by digest, for every worker."""
    from . import helpers
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "read-back"
    folder.mkdir(exist_ok=True)
    helpers.READ_BACK[:] = [folder]
    yield folder
    helpers.READ_BACK.clear()
    helpers.close_pdfium()


@pytest.fixture
def demo(tmp_path) -> Path:
    """A fresh project with the small demo game (Polish source, no translations yet)."""
    return make_project(tmp_path)


def _build_samples(root: Path):
    sample_project(root)  # a project of games, as a user has it: the aids source tree (ui_domain) stays behind
    summary = builder.build(read_project(root))
    assert not summary.failed, "\n".join(str(e) for e in summary.failed)
    return summary


@pytest.fixture(scope="session")
def sample(request):
    """The real samples built once, as README command 1 builds them, into a scratch project (once for the whole
    run, however many workers): (project, summary of that build). Read it; to edit, `copy_project` it first."""
    from .layers import shared  # imported once pytest_plugins has registered it
    root, summary = shared(request, "sample", _build_samples)
    return read_project(root), summary


@pytest.fixture(scope="session")
def for_print_build(sample, request):
    """Every sample aid in every language built for the press, for a monochrome printer and imposed (both
    impositions), once, in a copy of the samples' own (home) build, as a publisher builds them after `aids
    build`: the project and the build's summary. Its files that are not the samples' own: helpers.own_files."""
    from aids.pipeline.pipeline import Options

    from .layers import shared

    def build(root: Path):
        copy_project(sample[0].root, root)  # with its build: an imposition reads the home PDF back
        summary = builder.build(read_project(root), Options(formats=["press", "gray", "imposed"]))
        assert not summary.failed, "\n".join(str(e) for e in summary.failed)
        return summary
    root, summary = shared(request, "for-print", build)
    return read_project(root), summary


@pytest.fixture(scope="session")
def for_print(for_print_build):
    """The project of `for_print_build`."""
    return for_print_build[0]
