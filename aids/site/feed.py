"""A game's feed of releases in one language (<game>/<lang>/changes.atom): an entry per release, newest first,
dated by the release and listing what it changed since the one before, each change by its number as printed
now in this language. Its ids are name-based UUIDs of the game, the language and the version: the same for
every build."""
from __future__ import annotations

import uuid

from ..localize.changes import changelog
from ..model.release import Change, Snapshot, compare
from ..model.text import plain_text
from ..render.feed import Entry, Feed, atom
from .navigation import aid_numbers, aid_titles, game_path, href, tag
from .release_pages import Shown, feed_path, since_path


def _iri(*parts: str) -> str:
    return uuid.uuid5(uuid.NAMESPACE_URL, "aids:" + "/".join(parts)).urn


def _stamp(snapshot: Snapshot) -> str:
    return f"{snapshot.date.isoformat()}T00:00:00Z" if snapshot.date else "1970-01-01T00:00:00Z"


def summary(shown: Shown, changes: list[Change], before: Snapshot, after: Snapshot) -> str:
    """The changes of a release (`after`) since the one `before` as lines of text, by aid: what, number, text (as
    that release printed it; a removed item as the one before did)."""
    lz = shown.lz
    log = changelog(changes, lz, aid_titles(shown.game_aids, lz), lambda aid, anchor: None,
                    lambda change: shown.wording.change(change, before.version, after),
                    aid_numbers(shown.game_aids, lz))
    lines: list[str] = []
    for group in log:
        lines.append(group["title"])
        lines += [f"– {e['what']}: {e['number'] + ' ' if e['number'] else ''}{e['text']}" for e in group["entries"]]
    return "\n".join(lines)


def game_feed(shown: Shown) -> bytes:
    game, lz, project = shown.game, shown.lz, shown.project
    here = feed_path(game.id, lz.lang)

    def address(target: str) -> str:
        return f"{project.site_url}/{target}" if project.site_url else href(here, target)

    entries = []
    snaps = shown.snapshots
    for n, snapshot in enumerate(snaps):
        before = snaps[n - 1] if n else None
        text = summary(shown, [c for c in compare(before, snapshot) if c.concerns(lz.lang)], before, snapshot) \
            if before else \
            lz.pgettext("the feed of a game's releases: the entry of its first release", "The first release.")
        link = since_path(game.id, shown.ed, lz.lang, before.version) if before else game_path(game.id, lz.lang)
        entries.append(Entry(_iri(game.id, lz.lang, snapshot.version),
                             lz.pgettext("the feed of a game's releases: an entry; %(version)s is a version",
                                         "Version %(version)s") % {"version": snapshot.version},
                             _stamp(snapshot), address(link),
                             text or lz.pgettext("the feed of a game's releases: a release that changed nothing "
                                                 "in this language", "No changes.")))
    title = lz.pgettext("web site: the title of a game's feed of releases; %(game)s is its title",
                        "%(game)s: releases and changes") % {"game": lz.plain(game.title_text)}
    author = plain_text(game.author) or lz.plain(game.title_text)
    feed = Feed(_iri(game.id, lz.lang, "changes.atom"), title, tag(lz.lang), max(e.updated for e in entries), author,
                address(game_path(game.id, lz.lang)), address(here), list(reversed(entries)))
    return atom(feed)
