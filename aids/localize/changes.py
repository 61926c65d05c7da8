"""The changes since a release as one page in one language marks them: the anchors of the items changed,
added or moved (a translation-only change in its language alone) and of the places where an item was
removed, the mode (bars in the margin, colour, or both) and the legend that says what the marks mean."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from ..errors import Position
from ..model.release import ADDED, CHANGED, MOVED, REMOVED, TRANSLATION, WHAT, Change, by_aid
from ..model.text import Text
from .documents import ChangelogEntry, ChangelogGroup, ChangesDocument
from .localizer import Localizer


def localize_changes(since: str, changes: Iterable[Change], mode: str, lz: Localizer,
                     log: list[ChangelogGroup] | None = None, citing: Iterable[str] = ()) -> ChangesDocument | None:
    """The template's `changes`: what the page marks (`changes`, its own and its parts'), with a legend, and
    the game's changelog (`log`, which a booklet prints, whatever the marks); None when there is neither.
    An item that cites a changed one (`citing`: its anchors) is marked as changed. An item printed at the
    top of the page (anchor '': a side's name, the subtitle) is in the changelog only: there is no one
    place to mark it."""
    changed, removed, removed_after = _anchors(changes, mode, lz, citing)
    title = changelog_title(since, lz)
    if not changed and not removed:
        return {"since": since, "changed": [], "removed_before": [], "removed_after": [], "bars": False,
                "colour": False, "legend": "", "log": log, "title": title} if log else None
    bars, colour = mode in ("bars", "both"), mode in ("colour", "both")
    return {"since": since, "changed": changed, "removed_before": sorted(set(removed) - set(removed_after)),
            "removed_after": removed_after, "bars": bars, "colour": colour,
            "legend": _legend(since, bars, colour, bool(removed), lz), "log": log or [], "title": title}


def _anchors(changes: Iterable[Change], mode: str, lz: Localizer,
             citing: Iterable[str]) -> tuple[list[str], list[str], list[str]]:
    """The anchors the page marks: of the items changed (or citing one), of those removed, and of those removed
    that were after their anchor; none when the mode is 'none'."""
    shown = [c for c in changes if c.concerns(lz.lang) and c.anchor] if mode != "none" else []
    changed = sorted({c.anchor for c in shown if c.what != REMOVED} | (set(citing) if mode != "none" else set()))
    removed = sorted({c.anchor for c in shown if c.what == REMOVED})
    removed_after = sorted({c.anchor for c in shown if c.what == REMOVED and c.after})
    return changed, removed, removed_after


def _legend(since: str, bars: bool, colour: bool, removed: bool, lz: Localizer) -> str:
    """What the marks of the changes mean, in `lz`'s language."""
    if bars and colour:
        legend = lz.pgettext("legend of change marks; %(version)s is a version",
                             "Changes since version %(version)s are marked with a bar in the margin and underlined.")
    elif bars:
        legend = lz.pgettext("legend of change marks; %(version)s is a version",
                             "Changes since version %(version)s are marked with a bar in the margin.")
    else:
        legend = lz.pgettext("legend of change marks; %(version)s is a version",
                             "Changes since version %(version)s are underlined.")
    legend %= {"version": since}
    if removed:
        legend += " " + lz.pgettext("legend of change marks", "A dashed line marks where text was removed.")
    return legend


def changelog_title(since: str, lz: Localizer) -> str:
    return lz.pgettext("heading of a booklet's changelog; %(version)s is a version",
                       "Changes since version %(version)s") % {"version": since}


def changelog(changes: Iterable[Change], lz: Localizer, titles: Mapping[str, str],
              link: Callable[[str, str], str | None], said: Callable[[Change], str],
              numbers: Mapping[tuple[str, str], str] | None = None) -> list[ChangelogGroup]:
    """Every change of the game in `lz`'s language, grouped by aid (titled by `titles`) in the order of
    WHAT: its kind in words, its number (`numbers`: (aid, anchor) -> number, where the item has one), its
    text as its aid prints it (`said`: as it was, for a removed item), and a link to its place,
    `link(aid, anchor)`, where there is one (None: that aid is not printed where the changelog is)."""
    numbers = numbers or {}
    words = change_words(lz)
    groups: list[ChangelogGroup] = []
    for aid, items in by_aid(changes).items():
        entries: list[ChangelogEntry] = [{"what": words[c.what], "text": short(said(c)),
                    "number": numbers.get((aid, c.anchor), "") if c.what != REMOVED else "",
                    "href": link(aid, c.anchor) if c.what != REMOVED else None,
                    "awaiting": c.what != REMOVED and not awaited(c, lz), "lang": lz.source_lang.replace("_", "-")}
                   for what in WHAT for c in items if c.what == what and c.concerns(lz.lang)]
        if entries:
            groups.append({"id": aid, "title": titles.get(aid, aid), "entries": entries})
    return groups


def change_words(lz: Localizer) -> dict[str, str]:
    """What each kind of change is called in a changelog, in `lz`'s language."""
    return {ADDED: lz.pgettext("a change in a changelog", "new"),
            CHANGED: lz.pgettext("a change in a changelog", "changed"),
            MOVED: lz.pgettext("a change in a changelog", "moved"),
            REMOVED: lz.pgettext("a change in a changelog", "removed"),
            TRANSLATION: lz.pgettext("a change in a changelog", "translation corrected")}


def text_of(key: str, msgid: str) -> Text:
    """A recorded text (its msgctxt and msgid) as the localizer looks it up."""
    return Text(msgid, key, "", Position("", 0, 0))


def awaited(change: Change, lz: Localizer) -> bool:
    """Whether every text of a changed item is translated into `lz`'s language (not awaiting its translator)."""
    return all(lz.translated(text_of(change.key, msgid)) for msgid in change.texts)


def short(text: str, limit: int = 90) -> str:
    """`text` on one line, cut with an ellipsis after `limit` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"
