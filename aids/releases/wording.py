"""How the items of a game read where another page quotes them (a changelog, the pages since a release, an item's
history, the feed, an errata sheet, release notes): as their aid prints them, through the kind's own localizing
(`Kind.item_texts`: sides named, quantities with their values in the edition's units, references numbered, icons
named), whether now, from the sources, or as a release printed them, from its snapshot (its sources, catalogs
and values as released).

A release recorded without a snapshot has only its record: its items' texts as they were printed, placeholders
as written (`aids release VERSION --snapshot` adds one while the sources are as released).
"""
from __future__ import annotations

from collections.abc import Collection

from ..config import Edition, Game, Project
from ..kind import Aid
from ..localize.localizer import Localizer
from ..model.release import REMOVED, Change, Snapshot
from . import snapshot


class Wording:
    """The items of `game` in `lz`'s language and `edition` (its release's edition of the same id, for a release)."""

    def __init__(self, project: Project, game: Game, aids: list[Aid], lz: Localizer, edition: Edition | None):
        self.project, self.game, self.edition = project, game, edition
        self.aids = {aid.model.id: aid for aid in aids}
        self.lz = lz.quiet()  # a text quoted here that falls back is its own aid's to report

    def now(self, aid_id: str, keys: Collection[str]) -> dict[str, str]:
        """The texts of the items of `keys` of an aid as the sources print them now."""
        aid = self.aids.get(aid_id)
        return aid.kind.item_texts(aid.model, self.lz, self.edition, keys) if aid else {}

    def released(self, record: Snapshot, aid_id: str, keys: Collection[str]) -> dict[str, str]:
        """The texts of the items of `keys` of an aid as the release `record` printed them."""
        found = self._snapshot(record.version, aid_id, keys)
        return found if found is not None else _recorded(record, aid_id, keys, self.lz.lang)

    def _snapshot(self, version: str, aid_id: str, keys: Collection[str]) -> dict[str, str] | None:
        """As `released`, from the release's snapshot; None for a release without one."""
        if not snapshot.has_snapshot(self.game, version):
            return None
        then = snapshot.released(self.project, self.game, version)
        aid = next((a for a in then.aids if a.model.id == aid_id), None)
        if aid is None:
            return {}
        editions = then.game.editions
        edition = next((e for e in editions if self.edition and e.id == self.edition.id),
                       editions[0] if editions else None)
        return aid.kind.item_texts(aid.model, then.localizer(self.lz.lang).quiet(), edition, keys)

    def change(self, change: Change, before: str, after: Snapshot | None = None) -> str:
        """The text of a change's item: a removed item as the release `before` printed it, any other as the
        sources print it now, or as the release `after` did (a change from release `before` to `after`)."""
        if change.what == REMOVED:
            found = (self._snapshot(before, change.aid, [change.key]) or {}).get(change.key)
            return found if found is not None else " ".join(change.translations.get(self.lz.lang, change.texts))
        found = (self.now(change.aid, [change.key]) if after is None else
                 self.released(after, change.aid, [change.key])).get(change.key)
        return found if found is not None else change.key.rpartition("/")[2]


def _recorded(record: Snapshot, aid_id: str, keys: Collection[str], lang: str) -> dict[str, str]:
    """Items' texts as a release record holds them (in `lang`, where it was translated)."""
    state = record.aids.get(aid_id)
    if state is None:
        return {}
    translated = state.translations.get(lang, {}) if lang != record.source_language else {}
    return {item.key: " ".join(translated.get(item.key, item.texts)) for item in state.items if item.key in keys}
