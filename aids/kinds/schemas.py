"""JSON Schemas of aids.yaml, game.yaml and every aid kind, for editors (yaml-language-server) and checks.

Each is generated from the Shapes its reader checks fields with (aids.source.shape), so a schema cannot say
other than the reader about which fields there are, which are required and what values they take. The
package ships them (aids/json-schemas/*.schema.json, kept equal to the generated ones by a test); a project gets
them in its own `schemas/` folder (`aids init`, `aids schema --write`), which the first line of every
source names: `# yaml-language-server: $schema=../../schemas/card.schema.json`.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..config import GAME, GAME_FILE, PROJECT, PROJECT_FILE
from ..config.theme import THEME, THEME_FILE
from ..folder import Folder, Unsafe
from ..model.rulings import FILE as RULINGS_FILE
from ..model.rulings import RULINGS
from ..source.shape import DRAFT, json_schema
from . import registry

FOLDER = "schemas"  # in a project: <root>/schemas/<name>.schema.json, written by `aids init` and `aids schema --write`
SHIPPED = Path(__file__).parent.parent / "json-schemas"  # the built-in ones, as the wheel ships them


def names() -> list[str]:
    """'project' (aids.yaml), 'game' (game.yaml), 'rulings' (a game's rulings.yaml), 'theme' (a theme.yaml),
    then every registered aid kind."""
    return ["project", "game", "rulings", "theme", *sorted(registry())]


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one kind of source file."""
    if name == "project":
        return json_schema(PROJECT, f"aids: {PROJECT_FILE}", PROJECT.doc)
    if name == "game":
        return json_schema(GAME, f"aids: {GAME_FILE}", GAME.doc)
    if name == "rulings":
        return json_schema(RULINGS, f"aids: {RULINGS_FILE}", RULINGS.doc)
    if name == "theme":
        return json_schema(THEME, f"aids: {THEME_FILE}", THEME.doc)
    kind = registry().get(name)
    if kind is None:
        raise KeyError(name)
    if kind.shape is None:  # a kind of another package that declares no fields: its kind, and anything else
        return {"$schema": DRAFT, "title": f"aids: {name}", "type": "object",
                "properties": {"kind": {"const": name}}, "required": ["kind"]}
    return json_schema(kind.shape, f"aids: {name}", kind.shape.doc)


def dumps(name: str) -> str:
    """The schema as its file holds it: the same bytes for the same declarations."""
    return json.dumps(schema(name), indent=2, ensure_ascii=False) + "\n"


def write_schemas(root: Path) -> list[Path]:
    """Every schema into <root>/schemas/, each file rewritten only when it changed; their paths."""
    project = Folder(root, ".")  # schemas/ is written inside the project, never through a link
    paths = []
    for name in names():
        file = f"{FOLDER}/{name}.schema.json"
        data = dumps(name).encode("utf-8")
        try:
            same = project.read(file) == data
        except Unsafe:
            same = False  # a link or not a file: replaced (the write below refuses a link among the folders)
        if not same:
            project.write(file, data)
        paths.append(root / file)
    return paths


def modeline(name: str, root: Path, source: Path) -> str:
    """The first line of a source that tells yaml-language-server (VS Code, ...) its schema, by relative path."""
    target = root / FOLDER / f"{name}.schema.json"
    relative = Path(os.path.relpath(target, source.parent)).as_posix()
    return f"# yaml-language-server: $schema={relative}"
