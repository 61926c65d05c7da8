"""The installed package, not the source tree: templates, fonts and UI catalogs come from the wheel."""
import ast
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from importlib.metadata import packages_distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from .helpers import REPO, make_project


def clone(source: Path) -> Path:
    """This tree copied to `source` as a clone has it: without what is not committed at its top."""
    top = {".git", ".venv", "build", ".setuptools-build", ".cache"}

    def ignored(folder: str, names: list[str]) -> set[str]:
        here = {n for n in names if n.endswith(".egg-info") or n == "__pycache__"}
        return here | (top & set(names) if Path(folder) == REPO else set())
    shutil.copytree(REPO, source, ignore=ignored)
    return source


def test_wheel_install_builds_a_project_elsewhere(tmp_path):
    # built from a copy, as `pip install ./aids` builds a clone: setuptools' own build folder is configured
    # away from build/, the output folder
    source = clone(tmp_path / "source")
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)],
                   check=True, capture_output=True)
    assert not (source / "build").exists() and (source / ".setuptools-build").is_dir()
    wheel = next(wheels.glob("aids-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert {"aids/templates/sequence.html", "aids/templates/print.css", "aids/fonts/DejaVuSans.ttf",
            "aids/fonts/LICENSE-DejaVu.txt", "aids/i18n/ru/LC_MESSAGES/aids.po", "aids/colour/FOGRA39L-aids.icc",
            "aids/colour/LICENSE-FOGRA39L-aids.txt", "aids/json-schemas/card.schema.json",
            "aids/json-schemas/project.schema.json", "aids/commands/scaffold/texts.yaml",
            "aids/commands/scaffold/templates/card.yaml"} <= set(names)
    assert not any("ostroleka" in n for n in names), "game catalogs are the project's, not the package's"

    # A fresh environment: the wheel unpacked into its site-packages (a pure wheel installs so),
    # the third-party dependencies borrowed from this one, the source tree nowhere on the path.
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    zipfile.ZipFile(wheel).extractall(purelib)
    deps = sysconfig.get_paths()["purelib"]
    (tmp_path / "env").joinpath(purelib, "deps.pth").write_text(deps + "\n")

    project = make_project(tmp_path / "elsewhere")
    result = subprocess.run([python, "-m", "aids", "build", "--lang", "ru"], cwd=project,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    where = subprocess.run([python, "-c", "import aids; print(aids.__file__)"], capture_output=True, text=True,
                           cwd=project).stdout
    assert where.startswith(purelib)
    html = (project / "build/demo/ru/seq.html").read_text(encoding="utf-8")
    assert "Страница" not in html and "шаг" in html  # the shipped ru UI catalog was found
    assert (project / "build/demo/ru/seq.pdf").stat().st_size > 10_000
    # the schemas an editor needs, from the installed package
    printed = subprocess.run([python, "-m", "aids", "schema", "sequence"], capture_output=True, text=True, cwd=project)
    assert printed.returncode == 0 and '"title": "aids: sequence"' in printed.stdout


def test_every_library_aids_imports_is_a_declared_dependency():
    """A plain `pip install` gets what the package imports: each third-party module its code imports is
    installed by a requirement of `dependencies` (or of the extra that the importing code says to install)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    # names compared as pip does (PEP 503): a wheel may call itself pagefind_bin, a requirement pagefind-bin
    declared = {canonicalize_name(Requirement(r).name) for r in project["dependencies"]}
    extras = {canonicalize_name(Requirement(r).name) for extra in ("dask", "context")
              for r in project["optional-dependencies"][extra]}
    distributions = packages_distributions()
    missing = {}
    for path in sorted((REPO / "aids").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top == "aids":
                    continue
                dists = {canonicalize_name(d) for d in distributions.get(top, [top])}
                if not dists & (declared | extras):
                    missing[top] = str(path.relative_to(REPO))
    assert missing == {}


def test_check_and_release_of_the_samples_with_aids_installed_by_pip(tmp_path):
    """The README's install (`pip install ./aids`, not editable), then `aids check` and `aids release` in this
    repository's own tree (ui_domain: its `aids` catalogs are the tree's, i18n/<lang>/LC_MESSAGES/aids.po, while
    the build's words come from the installed package): no traceback, the tree's catalogs checked."""
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    purelib = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  check=True, capture_output=True, text=True).stdout.strip())
    (purelib / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")  # the dependencies borrowed
    source = clone(tmp_path / "source")
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                                str(source)], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    assert (purelib / "aids" / "i18n" / "pl" / "LC_MESSAGES" / "aids.po").is_file()
    # the repository as a user has it after `git clone`: its tree, with the package's sources beside the samples
    root = tmp_path / "repository"
    root.mkdir()
    for name in ("aids", "games", "i18n", "aids.yaml"):
        (shutil.copytree if (source / name).is_dir() else shutil.copy)(source / name, root / name)
    catalog = root / "i18n/ru/LC_MESSAGES/aids.po"  # a fault in the tree's catalog, not in the installed one
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(text.replace('msgstr "текущая"', 'msgstr "текущая  "', 1), encoding="utf-8")

    def aids(*args: str) -> subprocess.CompletedProcess:
        # -I: the tree's aids/ (the sources) is not on the path, the installed package is
        return subprocess.run([python, "-I", "-m", "aids", "--project", str(root), *args], capture_output=True,
                              text=True, cwd=tmp_path)
    checked = aids("check", "--lang", "ru")
    assert "Traceback" not in checked.stderr and checked.returncode == 0, checked.stderr
    assert "i18n/ru/LC_MESSAGES/aids.po:" in checked.stdout and "[spaces]" in checked.stdout, checked.stdout
    released = aids("release", "--game", "lwow-1920", "--date", "2026-01-02", "9.9")
    assert released.returncode == 0, released.stderr
    assert (root / "games/lwow-1920/releases/9.9.yaml").is_file()


def test_bootstrap_build_says_how_to_type_aids_as_the_readme_does(tmp_path):
    """Before: after `./bootstrap build`, `aids` was on no PATH though the README types bare `aids`, and nothing
    said so. Run with its tools stubbed (the packages installed, pip and the build doing nothing): its last line
    says how, and the build's exit status is kept."""
    shutil.copy(REPO / "bootstrap", tmp_path / "bootstrap")
    stubs, venv = tmp_path / "stubs", tmp_path / ".venv" / "bin"
    for folder, name, body in ((stubs, "dpkg-query", "echo 'install ok installed'"), (venv, "python", "exit 0"),
                               (venv, "aids", 'echo "aids $*"; exit 3')):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (folder / name).chmod(0o755)
    env = {"PATH": f"{stubs}:/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(["bash", "bootstrap", "build"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 3, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-2] == "aids build"
    assert lines[-1].startswith(f"bootstrap: aids is {tmp_path}/.venv/bin/aids; to type `aids` as the README does: "
                                ". .venv/bin/activate (in this shell)")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    five = readme[readme.index("## Five minutes with aids"):readme.index("aids init my-game")]
    assert ". .venv/bin/activate" in five  # the README says so where it first types `aids`
