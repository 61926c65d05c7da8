"""The catalog commands: extract (sources -> .pot), update (.pot -> .po, nothing lost), compile (.po -> .mo),
and the Babel extractor that lets `pybabel extract` read game sources."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from .. import __version__
from ..config import Game, Project
from ..errors import AidsError, Position, Problem, Problems
from ..folder import Folder
from ..kind import Aid
from ..kinds import kind_named
from ..kinds.reading import game_texts, read_aids, select_games
from ..localize import catalogs, domains, regroup, ui
from ..model.rulings import FILE as RULINGS_FILE
from ..model.rulings import read_rulings
from ..model.text import plain_text
from ..source.yamlfile import load_yaml
from ..write.journal import JOURNAL, STAGING, recover, write_all


def extract(project: Project, games: list[str] | None = None) -> list[str]:
    """sources -> i18n/templates/<game>.pot, and <game>.<aid>.pot per aid when the game keeps catalogs per aid
    (localize/domains.py); a template of the game's no longer kept is removed (and aids.pot when this tree is
    aids itself)."""
    changed = []
    for game in select_games(project, games):
        aids, errors = read_aids(project, game)
        if errors:
            raise AidsError([p for e in errors for p in e.problems])
        parts = split(game, messages(project, game, aids), aids)
        for domain, found in parts.items():
            template = catalogs.template(found, project=plain_text(game.title), version=game.version)
            path = catalogs.pot_path(project.catalogs, domain)
            if catalogs.save(path, template, project.catalogs, project.show(path)):
                changed.append(project.show(path))
        for domain in domains.of_project(project, game.id):
            if domain not in parts:
                changed.append(_remove(project, catalogs.pot_path(project.catalogs, domain),
                                       "the game no longer keeps this catalog"))
    if project.ui_domain:
        path = catalogs.pot_path(project.catalogs, ui.DOMAIN)
        if catalogs.save(path, ui.extract_ui(project.root, __version__), project.catalogs,
                         project.show(path)):
            changed.append(project.show(path))
    return changed


def _remove(project: Project, path: Path, why: str) -> str:
    """Remove a catalog or template of a game that no longer keeps it: what the command says of it."""
    Folder(project.catalogs, project.show(project.catalogs)).remove(path.relative_to(project.catalogs).as_posix())
    return f"removed {project.show(path)} ({why})"


def split(game: Game, found: Iterator[tuple[str, catalogs.Message]],
          aids: list[Aid]) -> dict[str, list[catalogs.Message]]:
    """The game's messages by catalog: all in the game's, or (catalogs per aid) each aid's in its own and the
    game's own texts (title, glossary, rulings) in the game's; an aid without texts has no catalog."""
    parts: dict[str, list[catalogs.Message]] = {game.id: []}
    if game.catalogs_per == "aid":
        parts.update({domains.aid_domain(game.id, aid.model.id): [] for aid in aids})
    for owner, message in found:
        domain = domains.aid_domain(game.id, owner) if owner and game.catalogs_per == "aid" else game.id
        parts[domain].append(message)
    return {domain: listed for domain, listed in parts.items() if listed or domain == game.id}


def messages(project: Project, game: Game, aids: list[Aid]) -> Iterator[tuple[str, catalogs.Message]]:
    """Every text of a game as a template message, with the aid it is a text of ("" for the game's own):
    `#.` says where it is printed and, when the project has a `site_url`, the address of that place in the
    built HTML (in the source language)."""
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
    owned = [(aid.model.id, text) for aid in aids for text in aid.kind.messages(aid.model)]
    game_own = game_texts(game, [])[1:]  # its glossary's terms and its rulings', after its title
    for owner, text in [("", game.title_text), *owned, *(("", t) for t in game_own)]:
        url = urls.get((text.context, text.msgid))
        yield owner, catalogs.Message(text.context, text.msgid, comments=[text.comment, *([url] if url else [])],
                                      locations=[text.where.path] if text.where.path else [])


def targets(project: Project, source_language: str) -> list[str]:
    return [lang for lang in project.languages if lang != source_language]


def update(project: Project, games: list[str] | None = None) -> list[str]:
    """.pot -> .po for every target language, keeping every translation (fuzzy or obsolete, never dropped);
    a game's translations move between its catalogs when its texts do (localize/regroup.py). A game's catalogs
    are written all at once or not at all (write/journal.py: staged, then a journal, then moved into place), so an
    update stopped at any point loses nothing: the next one finishes it or starts from the catalogs as they were."""
    changed = _recovered(project)
    for game in select_games(project, games):
        kept = domains.kept(game.id, game.catalogs_per, domains.of_project(project, game.id))
        pot = catalogs.pot_path(project.catalogs, game.id)
        if game.id not in kept:
            raise AidsError(Problem(Position(project.show(pot)), "no template catalog", "run `aids extract` first"))
        templates = {d: _read(project, catalogs.pot_path(project.catalogs, d)) for d in kept}
        written: dict[Path, bytes] = {}
        removed: list[Path] = []
        for lang in targets(project, game.source_language):
            olds = {d: _read(project, catalogs.po_path(project.catalogs, lang, d))
                    for d in domains.of_project(project, game.id, lang)}
            for domain, catalog in regroup.regroup(game.id, olds, templates, lang).items():
                po = catalogs.po_path(project.catalogs, lang, domain)
                data = catalogs.changed(po, catalog, project.catalogs, project.show(po))
                if data is not None:
                    written[po] = data
                    changed.append(project.show(po))
            for domain in regroup.gone(olds, templates):
                po = catalogs.po_path(project.catalogs, lang, domain)
                removed.append(po)
                changed.append(f"removed {project.show(po)} (its translations moved to the game's other catalogs)")
                if catalogs.present(project.catalogs, po.with_suffix(".mo"), project.show(po.with_suffix(".mo"))):
                    removed.append(po.with_suffix(".mo"))
                    changed.append(f"removed {project.show(po.with_suffix('.mo'))} (its catalog is gone)")
        write_all(written, project.catalogs, removed)  # the catalogs a translation moves between: together
    if project.ui_domain:
        pot = catalogs.pot_path(project.catalogs, ui.DOMAIN)
        if not pot.exists():
            raise AidsError(Problem(Position(project.show(pot)), "no template catalog", "run `aids extract` first"))
        template = _read(project, pot)
        for lang in targets(project, ui.SOURCE_LANGUAGE):
            po = catalogs.po_path(project.catalogs, lang, ui.DOMAIN)
            if catalogs.update_catalog(po, project.show(po), template, lang, project.catalogs)[0]:
                changed.append(project.show(po))
    return changed


def _recovered(project: Project) -> list[str]:
    """What an `aids update` stopped midway left (write/journal.py): finished when it had committed its catalogs,
    else dropped (its catalogs are as they were before it); what was done, for the command to say."""
    folder = Folder(project.catalogs, project.show(project.catalogs))
    if folder.lstat(STAGING) is None:
        return []
    committed = any(folder.lstat(PurePosixPath(STAGING, name, JOURNAL)) for name in folder.names(STAGING))
    notes = recover(project.catalogs)
    done = ("its catalogs, all written, moved into place" if committed else
            "its catalogs not all written: left as they were before it")
    return [f"recovered {project.show(project.catalogs / STAGING)}: an update stopped midway, {done}",
            *(f"recovered {note}" for note in notes)]


def _read(project: Project, path: Path) -> catalogs.Catalog:
    return catalogs.read_catalog(path, project.show(path), project.catalogs)


def compile(project: Project, games: list[str] | None = None) -> list[str]:
    """.po -> .mo for every catalog; a catalog with faulty entries is refused (every fault named), not compiled."""
    written, problems = [], []
    found = [(lang, d) for g in select_games(project, games) for lang in targets(project, g.source_language)
             for d in domains.kept(g.id, g.catalogs_per, domains.of_project(project, g.id, lang))]
    if project.ui_domain:
        found += [(lang, ui.DOMAIN) for lang in targets(project, ui.SOURCE_LANGUAGE)]
    for lang, domain in found:
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
    if problems or model is None:  # read alone, without its game.yaml: its icons are checked where the game is
        raise AidsError(problems.items)
    for text in kind.messages(model):
        yield text.where.line, "pgettext", (text.context, text.msgid), [text.comment]
