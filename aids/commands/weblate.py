"""`aids context --weblate URL`: the pictures of `aids context` uploaded to a Weblate as screenshots, each tied
to its string, so that a translator sees where a text prints while translating it (Weblate's own feature).

Through Weblate's REST API, with the token in the environment variable WEBLATE_TOKEN (never on the command line,
where other users of the machine could read it): for each game pictured, its components in the Weblate project
given (one per catalog, `components`: the game's id, and `<game>_<aid>` per aid with `catalogs_per: aid`); a
screenshot named by each msgctxt, made or its image replaced (a second upload
changes pictures, never adds duplicates), and tied to the source string of that msgctxt.
"""
from __future__ import annotations

import json
import os
import secrets
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import Project
from ..errors import AidsError, Position, Problem
from ..kinds.reading import select_games
from ..localize import domains
from ..localize.ui import DOMAIN as UI_DOMAIN
from ..localize.ui import SOURCE_LANGUAGE as UI_SOURCE
from ..model.text import plain_text

TOKEN = "WEBLATE_TOKEN"
WHERE = Position("--weblate")


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


class Weblate:
    """A Weblate's REST API: token authentication, JSON, multipart for images."""

    def __init__(self, url: str, token: str | None = None):
        self.url = url.rstrip("/")
        self.token = token if token is not None else os.environ.get(TOKEN, "")
        if not self.token:
            raise AidsError(Problem(WHERE, f"no API token in {TOKEN}", f"export {TOKEN}=<your Weblate API key>"))

    def call(self, method: str, path: str, data: Any = None, files: dict[str, tuple[str, bytes]] | None = None) -> Any:
        url = path if path.startswith("http") else f"{self.url}/api/{path}"
        headers = {"Authorization": f"Token {self.token}", "Accept": "application/json"}
        body = None
        if files is not None:
            boundary = secrets.token_hex(16)
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
            body = _multipart(boundary, data or {}, files)
        elif data is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(data).encode()
        request = urllib.request.Request(url, method=method, data=body, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                answer = response.read()
        except urllib.error.HTTPError as error:
            detail = error.read().decode("utf-8", "replace")[:300].replace("\n", " ")
            raise AidsError(Problem(WHERE, f"{method} {url}: HTTP {error.code} {detail}",
                                    "a Weblate project and components named as in docs/translating/weblate.md"
                                    )) from None
        except urllib.error.URLError as error:
            raise AidsError(Problem(WHERE, f"cannot reach {self.url}: {error.reason}", "the address of a Weblate"
                                    )) from None
        return json.loads(answer) if answer else None

    def pages(self, path: str) -> list[dict[str, Any]]:
        found, url = [], path
        while url:
            page = self.call("GET", url)
            found += page["results"]
            url = page["next"]
        return found


def _multipart(boundary: str, fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> bytes:
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields.items()]
    parts += [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
              f"Content-Type: image/png\r\n\r\n".encode() + data + b"\r\n" for name, (filename, data) in files.items()]
    return b"".join(parts) + f"--{boundary}--\r\n".encode()


def upload(weblate: Weblate, project: str, component: str, source_lang: str, folder: Path,
           entries: dict[str, dict[str, str]]) -> int:
    """The pictures of one game (`entries`, its index.json, pictures under `folder`) as screenshots of its
    component, each tied to the source string of its msgctxt; the number tied."""
    units = {unit["context"]: unit["id"]
             for unit in weblate.pages(f"translations/{project}/{component}/{source_lang}/units/")}
    known = {shot["name"]: shot for shot in weblate.pages(f"components/{project}/{component}/screenshots/")}
    tied = 0
    for context, entry in sorted(entries.items()):
        unit = units.get(context)
        if unit is None:
            continue  # not in Weblate yet (its catalogs not pushed): nothing to tie it to
        image = (folder / entry["image"]).read_bytes()
        shot = known.get(context)
        if shot is None:
            shot = weblate.call("POST", "screenshots/", {"name": context, "project_slug": project,
                                                         "component_slug": component, "language_code": source_lang},
                                files={"image": (Path(entry["image"]).name, image)})
        else:
            weblate.call("POST", f"screenshots/{_id(shot)}/file/", {}, files={"image": (Path(entry["image"]).name,
                                                                                     image)})
        if not any(str(u).rstrip("/").endswith(f"/units/{unit}") for u in shot.get("units", [])):
            weblate.call("POST", f"screenshots/{_id(shot)}/units/", {"unit_id": str(unit)})
        tied += 1
    return tied


def _id(shot: dict[str, Any]) -> str:
    """A screenshot's id: given, or the last part of its API address."""
    return str(shot.get("id") or str(shot["url"]).rstrip("/").rsplit("/", 1)[-1])


def flag_budgets(weblate: Weblate, project: str, component: str, source_lang: str,
                 budgets: dict[str, int]) -> int:
    """Each budget (msgctxt -> characters, the least of the languages) as a `max-length` flag of its source
    string in Weblate, which then checks every translation of it; the source string's other flags kept. The
    number of strings flagged. (A custom flag in the PO file would not last: GNU msgcat drops it.)"""
    flagged = 0
    for unit in weblate.pages(f"translations/{project}/{component}/{source_lang}/units/"):
        budget = budgets.get(unit["context"])
        if budget is None:
            continue
        flags = [f.strip() for f in (unit.get("extra_flags") or "").split(",")
                 if f.strip() and not f.strip().startswith("max-length:")]
        wanted = ", ".join([*flags, f"max-length:{budget}"])
        if unit.get("extra_flags") != wanted:
            weblate.call("PATCH", f"units/{unit['id']}/", {"extra_flags": wanted})
        flagged += 1
    return flagged
