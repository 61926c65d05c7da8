"""What aids sends a Weblate: `aids context --weblate URL` the pictures of `aids context` as screenshots, each
tied to its string, so that a translator sees where a text prints while translating it (Weblate's own feature);
`aids budgets --weblate URL` each language's budgets as `max-length` flags of that language's strings.

Through Weblate's REST API (weblate_api.py), with the token in the environment variable WEBLATE_TOKEN (never on
the command line, where other users of the machine could read it): for each game, its components in the Weblate
project given (one per catalog, `components`: the game's id, and `<game>_<aid>` per aid with `catalogs_per:
aid`); a screenshot per string, named by its key in index.json (its msgctxt, with a digest of its msgid where
several strings share the msgctxt), made or its image replaced (a second upload changes pictures, never adds
duplicates), and tied to the source string of that msgctxt and msgid.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import Project
from ..errors import AidsError, Problem
from ..kinds.reading import select_games
from ..localize import domains
from ..localize.ui import DOMAIN as UI_DOMAIN
from ..localize.ui import SOURCE_LANGUAGE as UI_SOURCE
from ..model.text import plain_text
from .weblate_api import API, TOKEN, WHERE, Weblate

__all__ = ["TOKEN", "Component", "Weblate", "components", "upload", "flag_budgets"]
UNIT = {"id": int, "context": str, "source": list}  # what aids reads of a string in the API's answers
FLAG = re.compile(r'(?:[^,"]|"(?:[^"\\]|\\.)*")+')  # one flag of a comma-separated list ("..." may hold commas)


@dataclass(frozen=True)
class Component:
    """The Weblate component of one catalog of a game (docs/translating/weblate.md): its slug (the domain, with
    `_` for the dot of `<game>.<aid>`: ids have no `_`, so no two catalogs share a slug), name and files."""
    slug: str
    name: str
    domain: str
    source_language: str
    filemask: str  # i18n/*/LC_MESSAGES/<domain>.po
    new_base: str  # i18n/templates/<domain>.pot


def components(project: Project, games: list[str] | None = None, with_ui: bool = False) -> list[Component]:
    """One component per catalog the games keep (those `aids extract` wrote templates for; the game's own when
    none is written yet), in the order of the games, each game's own catalog first; then, `with_ui` (aids' own
    tree, ui_domain), the package's words: the `aids` catalog."""
    root = project.catalogs.relative_to(project.root).as_posix() if project.catalogs.is_relative_to(project.root) \
        else project.show(project.catalogs)
    found = []
    for game in select_games(project, games):
        kept = domains.kept(game.id, game.catalogs_per, domains.of_project(project, game.id)) or [game.id]
        for domain in kept:
            aid = domains.owner(game.id, domain)
            title = plain_text(game.title)
            found.append(Component(domain.replace(domains.SEPARATOR, "_"), f"{title} – {aid}" if aid else title,
                                   domain, game.source_language,
                                   f"{root}/*/LC_MESSAGES/{domain}.po", f"{root}/templates/{domain}.pot"))
    if with_ui:
        found.append(Component(UI_DOMAIN, UI_DOMAIN, UI_DOMAIN, UI_SOURCE, f"{root}/*/LC_MESSAGES/{UI_DOMAIN}.po",
                               f"{root}/templates/{UI_DOMAIN}.pot"))
    return found


def upload(weblate: Weblate, project: str, component: str, source_lang: str, folder: Path,
           entries: dict[str, dict[str, str]]) -> int:
    """The pictures of one game (`entries`, its index.json: a picture per string, named by its key; pictures
    under `folder`) as screenshots of its component, each tied to its own source string (msgctxt and msgid,
    as Weblate tells strings apart: the paragraphs of a section share a msgctxt); the number tied."""
    units = {_key(unit): unit["id"]
             for unit in weblate.pages(f"translations/{project}/{component}/{source_lang}/units/", **UNIT)}
    known = {shot["name"]: shot for shot in weblate.pages(f"components/{project}/{component}/screenshots/",
                                                          name=str)}
    tied = 0
    for name, entry in sorted(entries.items()):
        unit = units.get((entry["msgctxt"], entry["msgid"]))
        if unit is None:
            continue  # not in Weblate yet (its catalogs not pushed): nothing to tie it to
        image = (folder / entry["image"]).read_bytes()
        shot = known.get(name)
        if shot is None:
            shot = weblate.call("POST", "screenshots/", {"name": name, "project_slug": project,
                                                         "component_slug": component, "language_code": source_lang},
                                files={"image": (Path(entry["image"]).name, image)})
        else:
            weblate.call("POST", f"screenshots/{_id(shot)}/file/", {}, files={"image": (Path(entry["image"]).name,
                                                                                     image)})
        if not isinstance(shot, dict):
            shot = {}
        if not any(str(u).rstrip("/").endswith(f"/units/{unit}") for u in shot.get("units") or []):
            weblate.call("POST", f"screenshots/{_id(shot)}/units/", {"unit_id": str(unit)})
        tied += 1
    return tied


def _key(unit: dict[str, Any]) -> tuple[str, str]:
    """A string's msgctxt and msgid, as a catalog has them (a plural: its singular)."""
    return unit["context"], str(unit["source"][0]) if unit["source"] else ""


def _id(shot: dict[str, Any]) -> str:
    """A screenshot's id: given, or the last part of its API address."""
    found = shot.get("id") or str(shot.get("url") or "").rstrip("/").rsplit("/", 1)[-1]
    if not str(found).isdigit():
        raise AidsError(Problem(WHERE, "a screenshot in Weblate's answer without its id", API))
    return str(found)


def flag_budgets(weblate: Weblate, project: str, component: str, source_lang: str,
                 budgets: dict[str, dict[tuple[str, str], int]]) -> dict[str, int]:
    """Each language's budgets (lang -> (msgctxt, msgid) -> characters) as the `max-length` flag of that
    language's string in Weblate, whose check then holds that translation, and only it, to its own budget; the
    strings' other flags kept. None on the source string (one an earlier aids put there, the least budget of
    all languages, is removed): the source text is not held to a translation's room. The number of strings
    flagged in each language. (A custom flag in the PO file would not last: GNU msgcat drops it.)"""
    budgeted = {key for given in budgets.values() for key in given}
    for unit in weblate.pages(f"translations/{project}/{component}/{source_lang}/units/", **UNIT):
        if _key(unit) in budgeted:
            _flag(weblate, unit, None)
    flagged = {}
    for lang, given in budgets.items():
        flagged[lang] = 0
        for unit in weblate.pages(f"translations/{project}/{component}/{lang}/units/", **UNIT):
            budget = given.get(_key(unit))
            if budget is not None:
                _flag(weblate, unit, budget)
                flagged[lang] += 1
    return flagged


def _flag(weblate: Weblate, unit: dict[str, Any], budget: int | None) -> None:
    """The string's flags with `max-length:<budget>` (none when `budget` is None) and its other flags as they
    were; sent only when that changes them."""
    had = unit.get("extra_flags")
    had = had if isinstance(had, str) else ""
    flags = [f.strip() for f in FLAG.findall(had) if f.strip() and not f.strip().startswith("max-length:")]
    wanted = ", ".join([*flags, *([f"max-length:{budget}"] if budget is not None else [])])
    if had != wanted:
        weblate.call("PATCH", f"units/{unit['id']}/", {"extra_flags": wanted})
