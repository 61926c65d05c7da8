"""The paths of the web site and the navigation every page carries: the language switcher (to the same page in
the site's other languages, an aid page's keeping its #anchor), `<link rel="alternate" hreflang>`, which
languages are not published, and the titles and numbers a page names other aids by (aids/site/site.py makes
the pages).
"""
from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from babel import Locale

from ..config import Edition, Game, Project
from ..kind import Aid
from ..localize.localizer import PSEUDO, Localizer
from ..model.release import Change
from ..pipeline.outputs import aid_path

if TYPE_CHECKING:
    pass

Released = Callable[[Game], tuple[str | None, list[Change]]]  # a game's last release, what changed since it

# --- paths (inside the output folder, "/"-separated) -------------------------------------------

def site_languages(project: Project) -> list[str]:
    return list(project.site.languages or project.languages)


def site_games(project: Project) -> list[str]:
    return list(project.site.games or project.game_ids())


def home_path(project: Project, lang: str) -> str:
    """The home page: index.html in the site's first language, index.<lang>.html in the others."""
    langs = site_languages(project)
    return "index.html" if lang == langs[0] or lang not in langs else f"index.{lang}.html"


def game_path(game_id: str, lang: str) -> str:
    return f"{game_id}/{lang}/index.html"


def href(here: str, target: str) -> str:
    """`target` relative to the page `here`, as a URL."""
    return quote(posixpath.relpath(target, posixpath.dirname(here) or "."))


def tag(lang: str) -> str:
    """A language as HTML names it (hreflang, lang): BCP 47, pt-BR for CLDR's pt_BR."""
    return lang.replace("_", "-")


@functools.cache
def language_name(lang: str) -> str:
    """A language's name in itself, as a switcher shows it: Polski, English, Русский."""
    try:
        name = Locale.parse(lang).get_display_name(lang) or lang
    except (ValueError, TypeError):
        return lang
    return name[:1].upper() + name[1:]


def site_title(project: Project, lz: Localizer) -> str:
    own = project.site.title
    return own.get(lz.lang) or own.get("*") or lz.pgettext("web site: its default title", "Rules and aids")


def aid_title(aid: Aid, lz: Localizer) -> str:
    return aid.kind.title_of(aid.model, lz)


def aid_numbers(aids: list[Aid], lz: Localizer) -> dict[tuple[str, str], str]:
    """(aid, anchor) -> the number of the item printed there, in `lz`'s language (Kind.numbers)."""
    return {(aid.model.id, anchor): number
            for aid in aids for anchor, number in aid.kind.numbers(aid.model, lz).items()}


def aid_titles(aids: list[Aid], lz: Localizer) -> dict[str, str]:
    """id -> title in `lz`'s language of every aid and every aid they embed (a playsheet's tables)."""
    titles: dict[str, str] = {}
    for aid in aids:
        for model in [aid.model, *aid.kind.parts(aid.model)]:
            titles.setdefault(model.id, aid.kind.title_of(model, lz) if model is aid.model else lz.shown(model.title))
    return titles


# --- the navigation of a page -------------------------------------------------------------------

UNPUBLISHED, PARTLY = "unpublished", "partly"  # what a switcher says of a language: nothing, or some, not published


def notes_of(lz: Localizer) -> dict[str, str]:
    return {UNPUBLISHED: lz.pgettext("web site: a language in the switcher", "not yet published"),
            PARTLY: lz.pgettext("web site: a language in the switcher", "partly published")}


def _address(project: Project, here: str, target: str) -> str:
    """A link for <link rel=...>: absolute under site_url, else relative."""
    return f"{project.site_url}/{quote(target)}" if project.site_url else href(here, target)


def navigation(project: Project, lz: Localizer, here: str, path_in: Callable[[str], str], notes: dict[str, str],
               crumbs: list[tuple[str, str | None]], x_default: str, unlinked: Iterable[str] = ()) -> dict[str, Any]:
    """A page's navigation: `crumbs` (label, path or None for this page), a switcher to `path_in(lang)` for every
    language of the site (but those `unlinked`: the page is not there), each with its note (UNPUBLISHED or
    PARTLY), and its alternates."""
    langs = site_languages(project)
    shown = langs if lz.lang in langs else [*langs, lz.lang]
    unlinked = set(unlinked)
    words = notes_of(lz)
    switcher = [{"code": tag(lang), "name": language_name(lang), "current": lang == lz.lang,
                 "note": words.get(notes.get(lang, ""), ""),
                 "href": href(here, path_in(lang)) if lang != lz.lang and lang not in unlinked else None}
                for lang in shown]
    alternates = [{"lang": tag(lang), "href": _address(project, here, path_in(lang))}
                  for lang in shown if lang not in unlinked]
    alternates.append({"lang": "x-default", "href": _address(project, here, path_in(x_default))})
    return {"crumbs": [{"label": label, "href": href(here, path) if path else None} for label, path in crumbs],
            "languages": switcher, "alternates": alternates,
            "canonical": f"{project.site_url}/{quote(here)}" if project.site_url else None,
            "title": site_title(project, lz), "keep_hash": False, "pdf": None}


def aid_navigation(project: Project, game: Game, edition: Edition | None, aid_id: str, lz: Localizer,
                   unavailable: Iterable[str]) -> dict[str, Any] | None:
    """What an aid page shows of the site: its PDF, its game's page, the same aid in the other languages."""
    if lz.lang == PSEUDO:
        return None
    ed = edition.id if edition else None
    here = aid_path(game.id, ed, lz.lang, aid_id)
    langs = site_languages(project)
    crumbs: list[tuple[str, str | None]] = [(site_title(project, lz), home_path(project, lz.lang))]
    if game.id in site_games(project) and lz.lang in langs:
        crumbs.append((lz.plain(game.title_text), game_path(game.id, lz.lang)))
    missing = dict.fromkeys(unavailable, UNPUBLISHED)
    x_default = game.source_language if game.source_language in langs else next(
        (lang for lang in langs if lang not in missing), lz.lang)
    nav = navigation(project, lz, here, lambda lang: aid_path(game.id, ed, lang, aid_id), missing, crumbs, x_default,
                     unlinked=missing)
    return {**nav, "keep_hash": True, "pdf": href(here, aid_path(game.id, ed, lz.lang, aid_id, ".pdf"))}
