"""The history of an aid's items across the releases of its game, in one language: for each item a release
changed (added, reworded, moved, removed, retranslated in this language), its text as each release printed it
(from its snapshot, through the aid's own localizing: aids/releases/wording.py), and what changed since the latest
release, not released yet. A rules judge asked "what did 7.3 say at the tournament in March" reads it under 7.3's
number (history/<aid>.html#<key>).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..kind import Aid
from ..localize.changes import change_words, short
from ..localize.localizer import Localizer
from ..model.release import REMOVED, Change, Snapshot, compare
from ..pipeline.outputs import aid_path
from ..render.html import render_template
from .navigation import aid_numbers, aid_title, href
from .release_pages import Shown, history_path, page_navigation, unpublished, versions_list

if TYPE_CHECKING:
    from ..pipeline.jobs import Loaded


@dataclass
class Event:
    version: str  # "" for the changes not released yet
    date: str
    what: str
    quote: Callable[[], str]  # its text as that release printed it (as the sources print it now, for "")


@dataclass
class Story:
    aid: str  # the aid it is an item of (the page's aid, or one it embeds)
    key: str
    anchor: str
    events: list[Event] = field(default_factory=list)


def words(lz: Localizer) -> dict[str, str]:
    return {**change_words(lz),
            "": lz.pgettext("the history of a rule: its text in the first release recorded", "as released")}


def stories(shown: Shown, ids: set[str], unreleased: list[Change]) -> dict[str, Story]:
    """Every item ever released of the aids `ids` (an aid and those it embeds), by key: its first text, then each
    change a release made to it in this language, then the change not released yet (`unreleased`: those since
    the latest release). Each text is quoted as its release printed it (Wording), when the page asks for it."""
    lz, snaps, wording = shown.lz, shown.snapshots, shown.wording
    said = words(lz)
    out: dict[str, Story] = {}

    def quoted(record: Snapshot, aid: str, key: str) -> Callable[[], str]:
        return lambda: wording.released(record, aid, [key]).get(key) or key.rpartition("/")[2]

    def note(snapshot: Snapshot, change_what: str, aid: str, key: str, anchor: str, then: Snapshot) -> None:
        date = lz.date(snapshot.date) if snapshot.date else ""
        story = out.setdefault(key, Story(aid, key, anchor))
        story.events.append(Event(snapshot.version, date, said[change_what], quoted(then, aid, key)))
        if change_what != REMOVED:
            story.anchor = anchor

    first = snaps[0]
    for aid_id in sorted(ids & set(first.aids)):
        for item in first.aids[aid_id].items:
            note(first, "", aid_id, item.key, item.anchor, first)
    for before, after in zip(snaps, snaps[1:], strict=False):
        for c in compare(before, after):
            if c.aid in ids and c.concerns(lz.lang):
                note(after, c.what, c.aid, c.key, c.anchor, before if c.what == REMOVED else after)
    for c in unreleased:
        if c.aid in ids and c.concerns(lz.lang):
            story = out.setdefault(c.key, Story(c.aid, c.key, c.anchor))
            story.events.append(Event("", "", said[c.what], partial(wording.change, c, snaps[-1].version)))
            if c.what != REMOVED:
                story.anchor = c.anchor
    return out


def listed(shown: Shown, aid: Aid, found: dict[str, Story], page: str) -> list[dict[str, Any]]:
    """The items of the history page: each item changed since the first release, in the aid's order now (those
    removed last), by its number as printed now, linked to its place in the aid's page (`page`)."""
    lz = shown.lz
    said, numbers = words(lz), aid_numbers(shown.game_aids, lz)
    now = {item.key: item for item in aid.kind.items(aid.model)}
    items: list[dict[str, Any]] = []
    for key in [*now, *(key for key in found if key not in now)]:
        story = found.get(key)
        if story is None or len(story.events) < 2 and story.events[0].version == shown.snapshots[0].version:
            continue  # never changed since the first release
        item = now.get(key)
        anchor = item.anchor if item else story.anchor if story.events[-1].what != said[REMOVED] else ""
        events = [{"version": e.version or lz.pgettext(
            "the history of a rule: a change made since the latest release", "not released yet"),
                   "date": e.date, "what": e.what, "text": e.quote()} for e in story.events]
        items.append({"id": key, "number": numbers.get((story.aid, anchor), "") if anchor else "",
                      "title": short(events[-1]["text"], 80), "href": f"{page}#{quote(anchor)}" if anchor else None,
                      "events": events})
    return items


def aid_history(shown: Shown, aid: Aid, state: Loaded) -> bytes:
    """The history page of `aid` in `shown`'s language: the items changed since the first release."""
    game, lz = shown.game, shown.lz
    here = history_path(game.id, shown.ed, lz.lang, aid.model.id)
    _, unreleased = state.changes(game)
    ids = {aid.model.id, *(part.id for part in aid.kind.parts(aid.model))}
    found = stories(shown, ids, unreleased)
    page = href(here, aid_path(game.id, shown.ed, lz.lang, aid.model.id))
    items = listed(shown, aid, found, page)
    title = lz.pgettext("web site: the title of an aid's history page; %(aid)s is its title",
                        "History of %(aid)s") % {"aid": aid_title(aid, lz)}
    nav = page_navigation(shown, here, lambda lang: history_path(game.id, shown.ed, lang, aid.model.id),
                          [(title, None)], unpublished(shown, aid))
    nav["keep_hash"] = True
    context = {"site": nav, "page": "history", "page_title": f"{title} – {lz.plain(game.title_text)}",
               "title": title, "items": items, "versions": versions_list(shown, here, None),
               "first": shown.snapshots[0].version}
    return render_template("site-history.html", lz, context).encode("utf-8")
