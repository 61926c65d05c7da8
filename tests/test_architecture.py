"""The pipeline as the folders say: source -> model -> localized -> rendered -> written, imports flowing down.

A module may import its own stage and the stages before it, never a later one; the modules that tie the
stages together (the kind contract and registry, reading, the build, the catalog commands, the command
line) sit above every stage. Imports under `if TYPE_CHECKING:` name types only and are not counted.
"""
import ast
from pathlib import Path

from .helpers import REPO

PACKAGE = REPO / "aids"
RANK = {"errors": 0, "files": 0, "source": 1, "model": 2, "config": 2.5, "localize": 3, "render": 4, "write": 5}
TOP = 10  # kind, kinds, reading, pipeline, translations, cli, __main__, __init__
LIMIT = 450  # lines a module may have at most


def module_name(path: Path, root: Path = REPO) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def rank(module: str) -> float:
    parts = module.split(".")
    if parts[0] != "aids":
        return -1  # a library
    return RANK.get(parts[1], TOP) if len(parts) > 1 else TOP


def runtime_imports(path: Path, root: Path = REPO) -> list[tuple[int, str]]:
    """(line, module) of every import that runs, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for child in node.body for n in ast.walk(child))
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((node.lineno, target))
    return found


def test_imports_flow_down_the_stages():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = rank(module_name(path))
        for line, target in runtime_imports(path):
            if rank(target) > own:
                wrong.append(f"{path.relative_to(REPO)}:{line}: {module_name(path)} imports {target}")
    assert not wrong, "imports against the stages:\n" + "\n".join(wrong)


def test_the_check_sees_an_upward_import(tmp_path):
    """The rule itself: a model module importing a renderer is caught; a type-only import is not counted."""
    probe = tmp_path / "aids" / "model" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from typing import TYPE_CHECKING\nfrom ..render import html\nif TYPE_CHECKING:\n"
                     "    from ..pipeline import Options\n", encoding="utf-8")
    assert runtime_imports(probe, tmp_path) == [(1, "typing"), (2, "aids.render")]
    assert rank("aids.render") > rank(module_name(probe, tmp_path)) == rank("aids.model")


def test_no_module_is_too_long():
    long = {str(p.relative_to(REPO)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) >= LIMIT}
    assert not long, f"modules of {LIMIT} lines or more: {long}"
