"""What the site's pages about a game's releases share (aids/site/since.py, history.py, feed.py): where each
is, the game in one language they draw on, their navigation and the list of releases to choose from."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..config import Edition, Game, Project
from ..kind import Aid
from ..localize.localizer import Localizer
from ..model.release import Snapshot
from ..pipeline.outputs import aid_path
from ..releases import release
from ..releases.wording import Wording
from . import navigation
from .navigation import game_path, home_path, href, site_languages, site_title


def folder_of(game_id: str, edition: str | None, lang: str) -> str:
    return "/".join([game_id, *([edition] if edition else []), lang])


def since_path(game_id: str, edition: str | None, lang: str, version: str, page: str = "index") -> str:
    return f"{folder_of(game_id, edition, lang)}/since-{version}/{page}.html"


def history_path(game_id: str, edition: str | None, lang: str, aid_id: str) -> str:
    return f"{folder_of(game_id, edition, lang)}/history/{aid_id}.html"


def feed_path(game_id: str, lang: str) -> str:
    return f"{game_id}/{lang}/changes.atom"


@dataclass
class Shown:
    """A game on the site in one language, with what the pages about its releases draw on."""
    project: Project
    game: Game
    edition: Edition | None
    aids: list[Aid]  # its standalone aids with a page in this language (first edition)
    game_aids: list[Aid]  # every aid of the game (parts too): the titles and numbers of a changelog
    snapshots: list[Snapshot]  # its releases, oldest first
    lz: Localizer

    @property
    def ed(self) -> str | None:
        return self.edition.id if self.edition else None

    @cached_property
    def wording(self) -> Wording:
        """How its items read, now and in each release, in this language and edition."""
        return Wording(self.project, self.game, self.game_aids, self.lz, self.edition)


def printed_aids(project: Project, game: Game, aids: Iterable[Aid], lang: str) -> list[Aid]:
    """The aids of `game` whose page is in the output folder in `lang` (the first edition's)."""
    ed = game.editions[0].id if game.editions else None
    return [aid for aid in aids if (project.output / aid_path(game.id, ed, lang, aid.model.id)).is_file()]


def page_navigation(shown: Shown, here: str, path_in: Any, crumbs: list[tuple[str, str | None]],
                    unlinked: Iterable[str] = ()) -> dict[str, Any]:
    """A page's navigation: the site, the game, then `crumbs`; the switcher to `path_in(lang)`."""
    lz, project = shown.lz, shown.project
    langs = site_languages(project)
    return navigation.navigation(
        project, lz, here, path_in, {},
        [(site_title(project, lz), home_path(project, lz.lang)),
         (lz.plain(shown.game.title_text), game_path(shown.game.id, lz.lang)), *crumbs],
        shown.game.source_language if shown.game.source_language in langs else langs[0], unlinked)


def unpublished(shown: Shown, aid: Aid) -> list[str]:
    """The languages of the site `aid` has no page in: their switcher entry is not linked."""
    return [lang for lang in site_languages(shown.project)
            if not printed_aids(shown.project, shown.game, [aid], lang)]


def versions_list(shown: Shown, here: str, current: str | None) -> list[dict[str, Any]]:
    """Every release, newest first, each linked to the page of the changes since it (but `current`)."""
    lz = shown.lz
    return [{"version": s.version, "date": lz.date(s.date) if s.date else "",
             "href": None if s.version == current else
             href(here, since_path(shown.game.id, shown.ed, lz.lang, s.version))}
            for s in reversed(shown.snapshots)]


def aid_versions(game: Game, edition: Edition | None, aid_id: str, lang: str,
                 current: str | None = None) -> list[dict[str, Any]]:
    """What an aid page (the first edition's) links of its game's releases: the same aid with every change since
    each marked, newest first (`current`: the release the page itself marks since, not linked)."""
    if edition is not None and edition != game.editions[0]:
        return []
    ed = edition.id if edition else None
    here = since_path(game.id, ed, lang, current, aid_id) if current else aid_path(game.id, ed, lang, aid_id)
    return [{"version": v, "href": None if v == current else href(here, since_path(game.id, ed, lang, v, aid_id))}
            for v in reversed(release.versions(game))]


def aid_history_link(game: Game, edition: Edition | None, aid_id: str, lang: str) -> str | None:
    """The history page of an aid (the first edition's), from its page; None for a game never released."""
    if (edition is not None and edition != game.editions[0]) or not release.versions(game):
        return None
    ed = edition.id if edition else None
    return href(aid_path(game.id, ed, lang, aid_id), history_path(game.id, ed, lang, aid_id))
