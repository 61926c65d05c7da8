"""`aids new KIND ID [--game G]`: one aid from its kind's template, in the game's source language, written to
games/<G>/<ID>.yaml (a booklet also its first chapter, <ID>/introduction.md) and added to game.yaml's `aids:`.

game.yaml keeps its comments and layout: the new file name is inserted as one more item of the list, as the
list is written (a block `- item` or a flow `[a, b]`), and the result is read back to check that only that
item was added. A playsheet embeds the first table of the game; a game without a table is refused, with the
command that makes one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedSeq

from ...errors import AidsError, Position, Problem
from ...folder import Folder
from . import CHAPTER, COMMAND_LINE, KINDS, SCHEMAS, STARTER, check_id, render, text_language, with_modeline


@dataclass
class Added:
    files: list[Path]  # written
    game_file: Path  # game.yaml, the aid added to its list
    notes: list[str]


def choose_game(project, game: str | None) -> str:
    """The game named, or the project's only game; otherwise an error listing the games."""
    known = project.game_ids()
    if game is not None:
        if game not in known:
            raise AidsError(Problem(COMMAND_LINE, f"unknown game '{game}'",
                                    ", ".join(known) or "a folder under " + project.show(project.games_dir)))
        return game
    if len(known) == 1:
        return known[0]
    if not known:
        raise AidsError(Problem(COMMAND_LINE, "the project has no game",
                                f"a folder under {project.show(project.games_dir)} with a game.yaml (aids init makes "
                                "one)"))
    raise AidsError(Problem(COMMAND_LINE, f"the project has {len(known)} games: say which one",
                            "--game " + " or --game ".join(known)))


def check_kind(kind: str) -> None:
    from ...kinds import registry
    if kind not in KINDS:
        extra = " (a kind of another package, without a template)" if kind in registry() else ""
        raise AidsError(Problem(COMMAND_LINE, f"no template for aid kind '{kind}'{extra}", ", ".join(KINDS)))


def declared(path: Path) -> tuple[str | None, str | None]:
    """(kind, id) an aid source declares, None for what it does not say or cannot be read."""
    from ...source.yamlfile import read_yaml
    try:
        data = read_yaml(path).data
    except AidsError:
        return None, None
    if not hasattr(data, "get"):
        return None, None
    kind, aid_id = data.get("kind"), data.get("id")
    return (kind if isinstance(kind, str) else None), (aid_id if isinstance(aid_id, str) else None)


def new(root: Path, kind: str, aid_id: str, game_id: str | None = None) -> Added:
    """Add the aid; an AidsError, with nothing written, when it cannot."""
    from ...config import read_project
    from ...source.yamlfile import read_yaml
    check_kind(kind)
    check_id(aid_id, "aid id")
    project = read_project(root)
    game = project.read_game(choose_game(project, game_id))
    folder, shown = game.folder, project.show
    name = f"{aid_id}.yaml"
    aids = {path: declared(path) for path in game.aids}
    for path, (_, other_id) in aids.items():
        if other_id == aid_id or path == (folder / name).resolve():
            raise AidsError(Problem(Position(shown(path)), f"an aid with id '{aid_id}' is registered already",
                                    "a new id"))
    values, notes = _values(kind, aid_id, game, aids)
    files = {folder / name: with_modeline(kind, root, folder / name, render(KINDS[kind], game.source_language, values))}
    if kind == "booklet":
        files[folder / aid_id / CHAPTER] = render(CHAPTER, game.source_language, values)
    for path in files:
        if path.exists() or path.is_symlink():
            raise AidsError(Problem(Position(shown(path)), "the file exists", "a new id (aids new overwrites nothing)"))
    game_file = folder / "game.yaml"
    listing = register(read_yaml(game_file, shown(game_file)), name)
    write(Folder(folder, shown(folder)), files, game_file, listing)
    if not (root / SCHEMAS).is_dir():
        from ...kinds import schemas
        schemas.write_schemas(root)
    return Added(list(files), game_file, notes)


def _values(kind: str, aid_id: str, game, aids: dict[Path, tuple[str | None, str | None]]
            ) -> tuple[dict[str, str], list[str]]:
    """What the aid's template is filled with (its id, the table a playsheet embeds, a booklet's first chapter),
    and the notes that tell the author what was chosen for them."""
    values = {"id": aid_id}
    notes = []
    if kind == "playsheet":
        tables = [other_id for other_kind, other_id in aids.values() if other_kind == "table" and other_id]
        if not tables:
            raise AidsError(Problem(COMMAND_LINE, f"a playsheet embeds a table, and game '{game.id}' has none",
                                    "a table first: aids new table <id>"))
        values["table"] = tables[0]
        notes.append(f"it embeds the table '{tables[0]}'")
    if kind == "booklet":
        values["files"] = f"{aid_id}/{CHAPTER}"
    if game.source_language not in STARTER:
        notes.append(f"its texts are in {text_language(game.source_language)} (the templates have none in "
                     f"{game.source_language}): rewrite them")
    return values, notes


def write(game: Folder, files: dict[Path, str], game_file: Path, listing: str) -> None:
    """The new files, then game.yaml, all inside the game's folder (never through a link in it); on a failure the
    new files are removed again."""
    done: list[str] = []
    try:
        for path, text in files.items():
            name = path.relative_to(game.root).as_posix()
            game.write(name, text.encode("utf-8"), new=True)  # new: never over a file made meanwhile
            done.append(name)
        game.write(game_file.name, listing.encode("utf-8"))
    except BaseException:
        for name in done:
            game.remove(name)
        raise


_DASH = re.compile(r"[ \t]*-[ \t]+")


def register(src, name: str) -> str:
    """game.yaml's text with `name` added at the end of its `aids:` list, comments and layout kept."""
    from ...source.yamlfile import load_yaml
    data, text = src.data, src.text
    listed = data.get("aids") if hasattr(data, "get") else None
    if not isinstance(listed, CommentedSeq):
        raise AidsError(Problem(src.at(data, "aids", value=True), "aids must be a list of source files",
                                "[sequence.yaml, ...]"))
    lines = text.splitlines(keepends=True)
    if listed.fa.flow_style() or not listed:
        changed = _into_flow(text, lines, src.at(data, "aids", value=True), name, bool(listed))
    else:
        line, col = listed.lc.item(len(listed) - 1)
        prefix = lines[line][:col]
        if not _DASH.fullmatch(prefix):
            changed = None
        else:
            end = "\r\n" if lines[line].endswith("\r\n") else "\n"
            if not lines[line].endswith("\n"):
                lines[line] += end
            lines.insert(line + 1, prefix + name + end)
            changed = "".join(lines)
    if changed is not None:
        after = load_yaml(changed, src.path, src.shown).data
        if _plain(after) == {**_plain(data), "aids": [*_plain(listed), name]}:
            return changed
    raise AidsError(Problem(src.at(data, "aids", value=True), f"cannot add {name} to this list of aids",
                            f"add `- {name}` under aids: by hand"))


def _into_flow(text: str, lines: list[str], where: Position, name: str, items: bool) -> str | None:
    """`[a, b]` -> `[a, b, name]`: inserted after the last item, before the closing bracket."""
    start = sum(len(line) for line in lines[:where.line - 1]) + where.col - 1
    if not text.startswith("[", start):
        return None
    end, quote = start + 1, ""
    while end < len(text):
        char = text[end]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "]":
            break
        end += 1
    else:
        return None
    last = len(text[:end].rstrip())
    joint = "" if not items else " " if text[last - 1] == "," else ", "
    return text[:last] + joint + name + text[last:]


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def new_command(root: Path, args) -> int:
    """`aids new KIND ID [--game G]`."""
    added = new(root, args.kind, args.id, args.game)
    from ...errors import display_path
    for path in added.files:
        print(f"wrote {display_path(path, root)}")
    print(f"added {added.files[0].name} to {display_path(added.game_file, root)}")
    for note in added.notes:
        print(f"note: {note}")
    print("next: aids build (its texts in the source language); aids extract && aids update, then translate them")
    return 0
