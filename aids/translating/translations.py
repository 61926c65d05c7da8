"""The catalog commands: extract (sources -> .pot), update (.pot -> .po, nothing lost), compile (.po -> .mo),
and the Babel extractor that lets `pybabel extract` read game sources."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .. import __version__
from ..config import Game, Project
from ..errors import AidsError, Position, Problem, Problems
from ..kind import Aid
from ..kinds import kind_named
from ..kinds.reading import game_texts, read_aids, select_games
from ..localize import catalogs, ui
from ..model.rulings import FILE as RULINGS_FILE
from ..model.rulings import read_rulings
from ..source.yamlfile import load_yaml


def extract(project: Project, games: list[str] | None = None) -> list[str]:
    """sources -> i18n/templates/<game>.pot (and aids.pot when this tree is aids itself)."""
    changed = []
    for game in select_games(project, games):
        aids, errors = read_aids(project, game)
        if errors:
            raise AidsError([p for e in errors for p in e.problems])
        template = catalogs.template(messages(project, game, aids), project=game.title, version=game.version)
        path = catalogs.pot_path(project.catalogs, game.id)
        if catalogs.save(path, template, project.catalogs, project.show(path)):
            changed.append(project.show(path))
    if project.ui_domain:
        path = catalogs.pot_path(project.catalogs, ui.DOMAIN)
        if catalogs.save(path, ui.extract_ui(project.root, __version__), project.catalogs,
                         project.show(path)):
            changed.append(project.show(path))
    return changed


def messages(project: Project, game: Game, aids: list[Aid]) -> Iterator[catalogs.Message]:
    """Every text of a game as a template message: `#.` says where it is printed and, when the project
    has a `site_url`, the address of that place in the built HTML (in the source language)."""
    urls: dict[tuple[str, str], str] = {}
    if project.site_url:
        folder = "/".join([project.site_url, game.id, *([game.editions[0].id] if game.editions else []),
                           game.source_language])
        for aid in aids:
            if aid.kind.standalone:
                for text in aid.kind.messages(aid.model):
                    anchor = aid.kind.anchor_of(aid.model, text)
                    urls.setdefault((text.context, text.msgid),
                                    f"{folder}/{aid.model.id}.html" + (f"#{quote(anchor)}" if anchor else ""))
    for text in game_texts(game, aids):
        url = urls.get((text.context, text.msgid))
        yield catalogs.Message(text.context, text.msgid, comments=[text.comment, *([url] if url else [])],
                               locations=[text.where.path] if text.where.path else [])


def domains(project: Project, games: list[str] | None) -> list[tuple[str, list[str]]]:
    """(domain, target languages) for every catalog this project keeps."""
    out = [(g.id, [lang for lang in project.languages if lang != g.source_language])
           for g in select_games(project, games)]
    if project.ui_domain:
        out.append((ui.DOMAIN, [lang for lang in project.languages if lang != ui.SOURCE_LANGUAGE]))
    return out


def update(project: Project, games: list[str] | None = None) -> list[str]:
    """.pot -> .po for every target language, keeping every translation (fuzzy or obsolete, never dropped)."""
    changed = []
    for domain, langs in domains(project, games):
        pot = catalogs.pot_path(project.catalogs, domain)
        if not pot.exists():
            raise AidsError(Problem(Position(project.show(pot)), "no template catalog", "run `aids extract` first"))
        template = catalogs.read_catalog(pot, project.show(pot), project.catalogs)
        for lang in langs:
            po = catalogs.po_path(project.catalogs, lang, domain)
            if catalogs.update_catalog(po, project.show(po), template, lang, project.catalogs)[0]:
                changed.append(project.show(po))
    return changed


def compile(project: Project, games: list[str] | None = None) -> list[str]:
    """.po -> .mo for every catalog; a catalog with faulty entries is refused (every fault named), not compiled."""
    written, problems = [], []
    for domain, langs in domains(project, games):
        for lang in langs:
            po = catalogs.po_path(project.catalogs, lang, domain)
            if catalogs.present(project.catalogs, po, project.show(po)):
                try:
                    written.append(project.show(catalogs.compile_catalog(po, project.show(po), project.catalogs)))
                except AidsError as exc:
                    problems.extend(exc.problems)
    if problems:
        raise AidsError(problems)
    return written


def babel_extract(fileobj: Any, keywords: Any, comment_tags: Any,
                  options: Any) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Registered as `aids` under `babel.extractors`, so that `pybabel extract -F mapping.cfg` yields the
    messages `aids extract` does: (lineno, "pgettext", (msgctxt, msgid), [where it appears])."""
    name = getattr(fileobj, "name", "source.yaml")
    src = load_yaml(fileobj.read().decode("utf-8"), Path(name), str(name))
    data = src.data
    if not hasattr(data, "get"):
        return
    if Path(name).name == "game.yaml":
        if data.get("title"):
            yield src.at(data, "title", value=True).line, "pgettext", ("game/title", str(data["title"])), \
                ["Title of the game"]
        return
    if Path(name).name == RULINGS_FILE:  # a game's rulings (model/rulings.py)
        for text in read_rulings(src).texts():
            yield text.where.line, "pgettext", (text.context, text.msgid), [text.comment]
        return
    kind = kind_named(str(data.get("kind")))
    if kind is None:
        return
    problems = Problems()
    model = kind.read(src, None, problems)
    if problems or model is None:
        raise AidsError(problems.items)
    for text in kind.messages(model):
        yield text.where.line, "pgettext", (text.context, text.msgid), [text.comment]
