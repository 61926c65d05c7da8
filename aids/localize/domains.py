"""Which catalogs a game keeps: one (domain `<game>`), or, with `catalogs_per: aid`, the game's own texts in
`<game>` (its title, glossary and rulings) and each aid's texts in `<game>.<aid>` (ids have no dots, so the
name is never ambiguous). GNU's layout either way: i18n/<lang>/LC_MESSAGES/<domain>.po beside
i18n/templates/<domain>.pot.

A text two aids print (same msgctxt and msgid) is in both aids' catalogs, each with its translation. A build
reads every catalog of the game as one table: where a text is in several, the game's own catalog comes first,
then the aids' in the order of their names, and the first usable translation (translated, not fuzzy) is taken.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..folder import Folder
from . import catalogs, po

if TYPE_CHECKING:
    from ..config import Project

SEPARATOR = "."
PER = ("game", "aid")


def aid_domain(game_id: str, aid_id: str) -> str:
    return f"{game_id}{SEPARATOR}{aid_id}"


def owner(game_id: str, domain: str) -> str | None:
    """The aid whose catalog `domain` is ("" for the game's own); None when it is not one of the game's."""
    if domain == game_id:
        return ""
    head, dot, aid = domain.partition(SEPARATOR)
    return aid if dot and head == game_id and aid and SEPARATOR not in aid else None


def _names(root: Path, folder: str, suffix: str, shown: str | None = None) -> list[str]:
    """The domains of the files `*<suffix>` in `folder` of the catalogs folder `root` (a link among its folders
    is refused, in one line, `root` shown as `shown`)."""
    names = Folder(root, shown).names(folder)
    return sorted(name[:-len(suffix)] for name in names if name.endswith(suffix))


def on_disk(root: Path, game_id: str, lang: str | None = None, shown: str | None = None) -> list[str]:
    """The domains of the game's catalogs in `lang` (its templates when None) there are, the game's own
    first, then its aids' by name."""
    folder, suffix = ("templates", ".pot") if lang is None else (f"{lang}/LC_MESSAGES", ".po")
    found = [d for d in _names(root, folder, suffix, shown) if owner(game_id, d) is not None]
    return sorted(found, key=lambda d: (d != game_id, d))


def of_project(project: Project, game_id: str, lang: str | None = None) -> list[str]:
    """`on_disk` in the project's catalogs folder, shown (in a refusal) as the project shows it."""
    return on_disk(project.catalogs, game_id, lang, project.show(project.catalogs))


def kept(game_id: str, per: str, domains: list[str]) -> list[str]:
    """Of `domains` (the game's on disk), those the setting `per` keeps: the game's own always, its aids'
    only per aid."""
    return [d for d in domains if d == game_id or per == "aid"]


def read(root: Path, show, game_id: str, lang: str) -> list[tuple[Path, po.Catalog]]:
    """The game's catalogs in `lang` the build reads, each with its path (`show(path)`: how a path is shown in
    messages): every one there is, whatever the setting, so that a release snapshot made with the other
    setting, or a build between a switch of the setting and the `aids update` that moves the translations,
    still finds each of them."""
    found = []
    for domain in on_disk(root, game_id, lang, show(root)):
        path = catalogs.po_path(root, lang, domain)
        found.append((path, catalogs.read_catalog(path, show(path), root)))
    return found


def table(found: list[tuple[Path, po.Catalog]]) -> tuple[dict[tuple[str, str], tuple[str, bool]],
                                                         dict[tuple[str, str], frozenset[str]]]:
    """The translations of several catalogs as one table (see the module's note), and the checks each entry's
    translator's comment ignores."""
    translations: dict[tuple[str, str], tuple[str, bool]] = {}
    ignored: dict[tuple[str, str], frozenset[str]] = {}
    for _, catalog in found:
        for key, (msgstr, fuzzy) in catalogs.translations_of(catalog).items():
            there = translations.get(key)
            if there is None or not (there[0] and not there[1]) and msgstr and not fuzzy:
                translations[key] = (msgstr, fuzzy)
        for key, checks in catalogs.ignored_of(catalog).items():
            ignored.setdefault(key, checks)
    return translations, ignored
