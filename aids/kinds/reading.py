"""Source -> model for a project: the chosen games, and every aid of a game read and linked."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..config import Game, Project
from ..errors import AidsError, Position, Problem, Problems
from ..folder import read_file
from ..kind import Aid
from ..model.text import Text
from ..source.shape import ID_CHARS
from ..source.yamlfile import MAX_BYTES, read_yaml
from . import registry

_ID_LINE = re.compile(rf"^id:[ \t]*['\"]?({ID_CHARS})['\"]?[ \t]*(?:#.*)?$", re.MULTILINE)


def read_aid(project: Project, game: Game, path: Path) -> Aid:
    src = read_yaml(path, project.show(path))
    if src.data is None or src.data == {}:
        raise AidsError(Problem(Position(src.shown, 1, 1), "the source is empty",
                                f"kind: one of {', '.join(sorted(registry()))}, then the fields of that kind"))
    problems = Problems()
    kind_name = src.data.get("kind") if hasattr(src.data, "get") else None
    kind = registry().get(str(kind_name))
    if kind is None:
        where = src.at(src.data, "kind", value=True) if kind_name is not None else Position(src.shown, 1, 1)
        raise AidsError(Problem(where, f"unknown aid kind '{kind_name or ''}'", ", ".join(sorted(registry()))))
    model = kind.read(src, game, problems)
    problems.raise_if_any()
    assert model is not None, f"kind {kind.name} read no model and reported no problem"
    return Aid(kind, model, path)


@dataclass(frozen=True)
class Broken:
    """An aid of game.yaml that does not read or link: its source, the id it declares (None: none found), why."""
    path: Path
    id: str | None
    error: AidsError


def read_aids(project: Project, game: Game) -> tuple[list[Aid], list[AidsError]]:
    """Every aid of `game` that reads cleanly, and the errors of those that do not."""
    aids, broken = read_game_aids(project, game)
    return aids, [b.error for b in broken]


def read_game_aids(project: Project, game: Game) -> tuple[list[Aid], list[Broken]]:
    """Every aid of `game` that reads cleanly, and those that do not, each with its error.

    After all are read, each kind links what it embeds from the game's other aids (a booklet
    embedding a table, say); an aid that failed to read is there as None, so that what embeds it
    can say so rather than call it unknown.
    """
    aids: list[Aid] = []
    failed: list[Broken] = []
    ids: dict[str, str] = {}
    broken: dict[str, Aid | None] = {}
    for path in game.aids:
        try:
            aid = read_aid(project, game, path)
        except AidsError as exc:
            declared = _declared_id(path)
            failed.append(Broken(path, declared, exc))
            if declared:
                broken[declared] = None
            continue
        if aid.model.id in ids:
            failed.append(Broken(path, aid.model.id, AidsError(Problem(
                aid.model.source.at(aid.model.source.data, "id", value=True),
                f"duplicate aid id '{aid.model.id}' (also in {ids[aid.model.id]})", "aid ids unique within a game"))))
            continue
        ids[aid.model.id] = project.show(path)
        aids.append(aid)
    by_id: dict[str, Aid | None] = {**broken, **{aid.model.id: aid for aid in aids}}
    linked = []
    for aid in aids:
        problems = Problems()
        aid.kind.link(aid.model, by_id, problems)
        if problems:
            failed.append(Broken(aid.path, aid.model.id, AidsError(problems.items)))
        else:
            linked.append(aid)
    return linked, failed


def _declared_id(path: Path) -> str | None:
    """The id an aid that failed to read declares, so that what embeds it says it has errors: from its
    YAML, or, when that does not parse, from a top-level `id:` line."""
    try:
        data = read_yaml(path).data
    except AidsError:
        try:
            found = _ID_LINE.search(read_file(path, str(path), MAX_BYTES).decode("utf-8", "replace"))
        except (OSError, AidsError):  # no regular file, or one too large: its own error says so
            return None
        return found.group(1) if found else None
    value = data.get("id") if hasattr(data, "get") else None
    return value if isinstance(value, str) else None


def game_texts(game: Game, aids: Iterable[Aid]) -> list[Text]:
    """Every translatable text of a game: its title, its editions' names, its aids', its glossary's terms, its icons'
    names, its rulings'."""
    texts = [game.title_text, *game.edition_texts()]
    for aid in aids:
        texts.extend(aid.kind.messages(aid.model))
    return (texts + [term.name for term in game.glossary] + [icon.name for icon in game.icons.values()]
            + (game.rulings.texts() if game.rulings else []))


def select_game_ids(project: Project, names: list[str] | None) -> list[str]:
    known = project.game_ids()
    for name in names or []:
        if name not in known:
            raise AidsError(Problem(Position("command line"), f"unknown game '{name}'",
                                    ", ".join(known) or "a folder under " + project.show(project.games_dir)))
    return list(dict.fromkeys(names or known))


def select_games(project: Project, names: list[str] | None) -> list[Game]:
    return [project.read_game(g) for g in select_game_ids(project, names)]
