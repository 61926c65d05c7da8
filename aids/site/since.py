"""The site's pages about a game's releases, for a reader who knows an older version and for a rules judge:

    <game>/[<edition>/]<lang>/since-<version>/index.html   every change since that release, by printed number
    <game>/[<edition>/]<lang>/since-<version>/<aid>.html   each aid as it is now, every change since it marked
    <game>/[<edition>/]<lang>/history/<aid>.html           each item of the aid changed by a release, with its text
                                                           as each release printed it in this language
    <game>/<lang>/changes.atom                             an Atom feed of the releases and their changes

(the first edition's aids, as the game page's changelog links them). The pages of a release are made from the
release records (games/<game>/releases/) and the sources: nothing of the build's clock, so the same sources
give the same bytes. They sit in folders of their own, so the search index (<lang>/*.html) leaves them out.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..config import Game, Project
from ..errors import AidsError
from ..kind import Aid
from ..localize.changes import changelog, changelog_title
from ..localize.localizer import Localizer
from ..model.release import Snapshot
from ..pipeline import pipeline
from ..releases import release
from ..render.html import render_template
from ..write.journal import changed as changed_files
from ..write.journal import write_all
from .feed import game_feed
from .history import aid_history
from .navigation import aid_numbers, aid_title, aid_titles, href, site_languages
from .release_pages import (
    Shown,
    aid_versions,
    feed_path,
    history_path,
    page_navigation,
    printed_aids,
    since_path,
    unpublished,
    versions_list,
)

if TYPE_CHECKING:
    from ..pipeline.jobs import Loaded
    from ..pipeline.pipeline import Unit
    from .publishing import Publishing


def game_links(project: Project, game: Game, aids: list[Aid], lz: Localizer, here: str) -> dict[str, Any] | None:
    """What a game's page links of its releases: a page of the changes since each (newest first), each aid's
    history and the feed; None for a game never released."""
    found = release.versions(game)
    shown = printed_aids(project, game, aids, lz.lang)
    if not found or not shown:
        return None
    ed = game.editions[0].id if game.editions else None
    return {"versions": [{"version": v, "href": href(here, since_path(game.id, ed, lz.lang, v))}
                         for v in reversed(found)],
            "history": [{"title": aid_title(aid, lz),
                         "href": href(here, history_path(game.id, ed, lz.lang, aid.model.id))} for aid in shown],
            "feed": href(here, feed_path(game.id, lz.lang))}


def feed_link(project: Project, game: Game, lz: Localizer, here: str) -> dict[str, str] | None:
    """The <link rel="alternate" type="application/atom+xml"> of a game's page: its feed, where it has one."""
    if not release.versions(game):
        return None
    title = lz.pgettext("web site: the title of a game's feed of releases; %(game)s is its title",
                        "%(game)s: releases and changes") % {"game": lz.plain(game.title_text)}
    return {"href": href(here, feed_path(game.id, lz.lang)), "title": title}


# --- the pages ------------------------------------------------------------------------------------

def publish(project: Project, units: Iterable[Unit], state: Loaded, publishing: Publishing,
            skipped: list[str]) -> list[str]:
    """Write the pages about the releases of every game of the plan that has any (those whose bytes changed);
    their paths as shown."""
    games: dict[str, tuple[Game, list[Aid]]] = {}
    for unit in units:
        first = unit.game.editions[0].id if unit.game.editions else None
        if (unit.edition.id if unit.edition else None) == first:
            games.setdefault(unit.game.id, (unit.game, []))[1].append(unit.aid)
    pages: dict[str, bytes] = {}
    for game, aids in games.values():
        try:
            snapshots = [release.read_release(project, game, v) for v in release.versions(game)]
        except AidsError as exc:
            skipped.append(f"site: no pages of the releases of {game.id}: {exc}")
            continue
        for lang in site_languages(project) if snapshots else []:
            pages.update(game_pages(project, game, aids, snapshots, lang, state, publishing, skipped))
    return _write(project, pages, skipped)


def game_pages(project: Project, game: Game, aids: list[Aid], snapshots: list[Snapshot], lang: str, state: Loaded,
               publishing: Publishing, skipped: list[str]) -> dict[str, bytes]:
    """The pages about the releases of one game in one language."""
    shown = [aid for aid in printed_aids(project, game, aids, lang) if publishing.published(game, aid, lang)]
    if not shown:
        return {}
    context = Shown(project, game, game.editions[0] if game.editions else None, shown,
                    state.game_aids.get(game.id) or shown, snapshots, state.localizer(game, lang))
    try:
        pages = since_pages(context, state)
        pages.update({history_path(game.id, context.ed, lang, aid.model.id): aid_history(context, aid, state)
                      for aid in shown})
        pages[feed_path(game.id, lang)] = game_feed(context)
    except AidsError as exc:  # an aid in error: its jobs say why
        skipped.append(f"site: no pages of the releases of {game.id} in {lang}: {exc}")
        return {}
    return pages


def _write(project: Project, pages: dict[str, bytes], skipped: list[str]) -> list[str]:
    changed = changed_files(project.output, pages)
    try:
        write_all(changed, project.output)
    except AidsError as exc:
        skipped.append(f"site: the pages of the releases not written, {exc}")
        return []
    return [project.show(path) for path in sorted(changed)]


def since_pages(shown: Shown, state: Loaded) -> dict[str, bytes]:
    """For each release: the page of the changes since it, and every aid with those changes marked."""
    out: dict[str, bytes] = {}
    for snapshot in shown.snapshots:
        version = snapshot.version
        since, changes = state.changes(shown.game, version)
        out[since_path(shown.game.id, shown.ed, shown.lz.lang, version)] = changes_page(shown, version, changes)
        for aid in shown.aids:
            out[since_path(shown.game.id, shown.ed, shown.lz.lang, version, aid.model.id)] = \
                marked_aid(shown, state, aid, version)
    return out


def marked_aid(shown: Shown, state: Loaded, aid: Aid, version: str) -> bytes:
    """An aid's page as it is now, with every change since `version` marked, among the pages since it."""
    game, lz = shown.game, shown.lz
    here = since_path(game.id, shown.ed, lz.lang, version, aid.model.id)
    title = changelog_title(version, lz)
    nav = page_navigation(shown, here, lambda lang: since_path(game.id, shown.ed, lang, version, aid.model.id),
                          [(title, since_path(game.id, shown.ed, lz.lang, version)), (aid_title(aid, lz), None)],
                          unpublished(shown, aid))
    nav["keep_hash"] = True
    nav["since_versions"] = aid_versions(game, shown.edition, aid.model.id, lz.lang, version)
    nav["history"] = href(here, history_path(game.id, shown.ed, lz.lang, aid.model.id))
    marks = state.marks(game, aid, lz, "bars", version, shown.edition)
    doc = pipeline.document(game, aid, lz, shown.edition, nav, marks)
    doc.context["search_root"] = href(here, "/".join([game.id, *([shown.ed] if shown.ed else [])])) + "/"
    return pipeline.render(doc, ["html"])[".html"].data


def changes_page(shown: Shown, version: str, changes: list[Any]) -> bytes:
    """The changes since `version`, by aid, each by its printed number and linked to its mark in the aid's page
    since that version; the other releases to choose from; each aid since it, and its history."""
    game, lz = shown.game, shown.lz
    here = since_path(game.id, shown.ed, lz.lang, version)
    pages = {aid.model.id for aid in shown.aids}

    def link(aid_id: str, anchor: str) -> str | None:
        if aid_id not in pages:
            return None
        target = href(here, since_path(game.id, shown.ed, lz.lang, version, aid_id))
        return target + (f"#{quote(anchor)}" if anchor else "")

    log = changelog(changes, lz, aid_titles(shown.game_aids, lz), link,
                    lambda change: shown.wording.change(change, version), aid_numbers(shown.game_aids, lz))
    title = changelog_title(version, lz)
    nav = page_navigation(shown, here, lambda lang: since_path(game.id, shown.ed, lang, version), [(title, None)])
    aids = [{"title": aid_title(aid, lz),
             "href": href(here, since_path(game.id, shown.ed, lz.lang, version, aid.model.id)),
             "history": href(here, history_path(game.id, shown.ed, lz.lang, aid.model.id))} for aid in shown.aids]
    context = {"site": nav, "page": "since", "page_title": f"{title} – {lz.plain(game.title_text)}", "title": title,
               "log": log, "versions": versions_list(shown, here, version), "aids": aids, "version": version}
    return render_template("site-since.html", lz, context).encode("utf-8")
