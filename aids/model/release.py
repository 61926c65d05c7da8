"""A released state of a game, and what changed since.

A release records every item of every aid by its stable key (the msgctxt of its texts): the source texts
and the values printed with them, the anchor it is printed at, and each language's text of it as it was
printed. Two states are compared by key, never by line or position, so an inserted rule renumbers the
rules after it without changing them:

- added, removed: a key in one state only;
- changed: the same key with other source texts or values (every language);
- moved: the same leaf id under another parent (a step into another phase), or the same key out of its
  order among the items of its parent (after the items kept in order are taken out);
- translation: the same source, another text in one language only (that language alone).
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .text import without_spans

ADDED, REMOVED, CHANGED, MOVED, TRANSLATION = "added", "removed", "changed", "moved", "translation"
WHAT = (ADDED, CHANGED, MOVED, REMOVED, TRANSLATION)  # their order in a changelog


@dataclass(frozen=True)
class Item:
    """One item of an aid as a release records it."""
    key: str  # the stable id path of its texts (their msgctxt): "turn-sequence/movement/march"
    anchor: str  # the HTML id nearest to where it is printed ("" for the top of the page)
    texts: tuple[str, ...]  # its source texts, in document order
    values: tuple[str, ...] = ()  # data printed with it (a table row's cells), as written in the source

    @property
    def parent(self) -> str:
        return self.key.rpartition("/")[0]

    @property
    def leaf(self) -> str:
        return self.key.rpartition("/")[2]


@dataclass
class AidState:
    kind: str
    items: list[Item]
    translations: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)  # lang -> key -> texts


@dataclass
class Snapshot:
    game: str
    version: str
    date: dt.date | None
    source_language: str
    aids: dict[str, AidState]


@dataclass(frozen=True)
class Change:
    aid: str
    what: str  # ADDED, REMOVED, CHANGED, MOVED or TRANSLATION
    key: str
    anchor: str  # where it is printed now (where it was, for a removed item)
    texts: tuple[str, ...]  # its source texts now (then, for a removed item)
    langs: tuple[str, ...] = ()  # the languages it concerns; () for every language
    was: str = ""  # a moved item's key before
    after: bool = False  # a removed item: `anchor` is the item it followed (it was the last of its parent)
    translations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # a removed item's, as released

    def concerns(self, lang: str) -> bool:
        return not self.langs or lang in self.langs


def compare(old: Snapshot, new: Snapshot) -> list[Change]:
    """Every change from `old` to `new`, aid by aid in `new`'s order (removed aids last), in document order."""
    changes: list[Change] = []
    for aid_id, state in [*new.aids.items(), *((a, s) for a, s in old.aids.items() if a not in new.aids)]:
        before = old.aids.get(aid_id)
        now = state if aid_id in new.aids else AidState(state.kind, [])
        changes += _compare_aid(aid_id, before or AidState(state.kind, []), now)
    return changes


def _compare_aid(aid: str, old: AidState, new: AidState) -> list[Change]:
    was = {item.key: item for item in old.items}
    now = {item.key: item for item in new.items}
    gone = [item for item in old.items if item.key not in now]
    came = [item for item in new.items if item.key not in was]
    moved_from = _moved(gone, came)
    taken = {item.key for item in moved_from.values()}
    reordered = _out_of_order(old.items, new.items)
    changes: dict[str, Change] = {}
    for item in new.items:
        change = _change(aid, item, old, new, was, moved_from, reordered)
        if change is not None:
            changes[item.key] = change
    return [*changes.values(), *(_removal(aid, item, old, now) for item in gone if item.key not in taken)]


def _moved(gone: list[Item], came: list[Item]) -> dict[str, Item]:
    """An item under another parent: the same leaf id and content, one gone, one come; each gone item matched
    to one come item only. Come item's key -> the gone item."""
    moved_from: dict[str, Item] = {}
    taken: set[str] = set()  # the gone items matched so far
    for item in came:
        match = next((g for g in gone if g.leaf == item.leaf and (read(g.texts), g.values) == (read(item.texts),
                                                                                              item.values)
                      and g.key not in taken), None)
        if match is not None:
            moved_from[item.key] = match
            taken.add(match.key)
    return moved_from


def _change(aid: str, item: Item, old: AidState, new: AidState, was: Mapping[str, Item],
            moved_from: Mapping[str, Item], reordered: set[str]) -> Change | None:
    """How an item of the new state changed since the old one, if it did."""
    if item.key in moved_from:
        return Change(aid, MOVED, item.key, item.anchor, item.texts, was=moved_from[item.key].key)
    if item.key not in was:
        return Change(aid, ADDED, item.key, item.anchor, item.texts)
    if (read(was[item.key].texts), was[item.key].values) != (read(item.texts), item.values):
        return Change(aid, CHANGED, item.key, item.anchor, item.texts)
    if item.key in reordered:
        return Change(aid, MOVED, item.key, item.anchor, item.texts, was=item.key)
    langs = tuple(lang for lang in sorted(set(old.translations) & set(new.translations))
                  if read(old.translations[lang].get(item.key)) != read(new.translations[lang].get(item.key)))
    return Change(aid, TRANSLATION, item.key, item.anchor, item.texts, langs) if langs else None


def read(texts: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """Texts as a release compares them: as read, without the marks of their words' languages (model/text.py)."""
    return None if texts is None else tuple(without_spans(text) for text in texts)


def _removal(aid: str, item: Item, old: AidState, now: Mapping[str, Item]) -> Change:
    anchor, after = _where_removed(item, old.items, now)
    translations = {lang: texts[item.key] for lang, texts in old.translations.items() if item.key in texts}
    return Change(aid, REMOVED, item.key, anchor, item.texts, after=after, translations=translations)


def _out_of_order(old: list[Item], new: list[Item]) -> set[str]:
    """Keys kept under the same parent whose order among that parent's kept items changed: those not in a
    longest common subsequence of the two orders."""
    kept = {item.key for item in old} & {item.key for item in new}
    out: set[str] = set()
    for parent in {item.parent for item in new if item.key in kept}:
        a = [item.key for item in old if item.key in kept and item.parent == parent]
        b = [item.key for item in new if item.key in kept and item.parent == parent]
        if a != b:
            out |= set(b) - set(_lcs(a, b))
    return out


def _lcs(a: list[str], b: list[str]) -> list[str]:
    lengths = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            lengths[i][j] = lengths[i + 1][j + 1] + 1 if a[i] == b[j] else max(lengths[i + 1][j], lengths[i][j + 1])
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            out.append(a[i])
            i, j = i + 1, j + 1
        elif lengths[i + 1][j] >= lengths[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def _where_removed(item: Item, old: list[Item], now: Mapping[str, Item]) -> tuple[str, bool]:
    """Where a removed item was: (the anchor of the next item of its parent still there, False), else (the
    previous one's, True), else (its parent's, False); ('', False) for the top of the page."""
    index = old.index(item)
    siblings = [o for o in old if o.key in now and o.parent == item.parent and o.key != item.parent]
    following = [o for o in siblings if old.index(o) > index]
    if following:
        return now[following[0].key].anchor, False
    before = [o for o in siblings if old.index(o) < index]
    if before:
        return now[before[-1].key].anchor, True
    parent = now.get(item.parent)
    return (parent.anchor, False) if parent is not None else ("", False)


# --- the release file ---------------------------------------------------------------------------

def to_data(snapshot: Snapshot) -> dict[str, Any]:
    """A snapshot as plain data for its YAML file: reviewable, in document order."""
    aids: dict[str, Any] = {}
    for aid_id, state in snapshot.aids.items():
        items = []
        for item in state.items:
            entry: dict[str, Any] = {"key": item.key, "anchor": item.anchor, "texts": list(item.texts)}
            if item.values:
                entry["values"] = list(item.values)
            translated = {lang: list(texts[item.key]) for lang, texts in state.translations.items()
                          if item.key in texts}
            if translated:
                entry["translations"] = translated
            items.append(entry)
        aids[aid_id] = {"kind": state.kind, "items": items}
    return {"game": snapshot.game, "version": snapshot.version,
            "date": snapshot.date.isoformat() if snapshot.date else None,
            "source_language": snapshot.source_language, "aids": aids}


def from_data(data: Mapping[str, Any]) -> Snapshot:
    """A snapshot read back from `to_data`'s form (its file was written by aids; a hand edit that breaks it
    raises KeyError or TypeError, which the caller reports)."""
    aids: dict[str, AidState] = {}
    for aid_id, state in data["aids"].items():
        items: list[Item] = []
        translations: dict[str, dict[str, tuple[str, ...]]] = {}
        for entry in state["items"]:
            item = Item(str(entry["key"]), str(entry["anchor"]), tuple(map(str, entry["texts"])),
                        tuple(map(str, entry.get("values") or ())))
            items.append(item)
            for lang, texts in (entry.get("translations") or {}).items():
                translations.setdefault(str(lang), {})[item.key] = tuple(map(str, texts))
        aids[str(aid_id)] = AidState(str(state["kind"]), items, translations)
    date = data.get("date")
    return Snapshot(str(data["game"]), str(data["version"]),
                    dt.date.fromisoformat(str(date)) if date else None, str(data["source_language"]), aids)


def version_key(version: str) -> tuple[Any, ...]:
    """A version's place in order: 1.10 after 1.9, 2.0 after 1.10 (numbers compared as numbers)."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.findall(r"\d+|[^\d.]+", version))


def by_aid(changes: Iterable[Change]) -> dict[str, list[Change]]:
    out: dict[str, list[Change]] = {}
    for change in changes:
        out.setdefault(change.aid, []).append(change)
    return out
