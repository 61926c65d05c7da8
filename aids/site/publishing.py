"""Which aid is published in which language: all of them in the game's own; in a translation, those translated
at least as much as the publishing threshold (`publish: min_complete` in aids.yaml, or --min-complete)."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from ..config import Game
from ..kind import Aid
from ..translating.translators import Catalog, complete


class Publishing:
    """The publishing threshold and each aid's share translated, per language (computed once)."""

    def __init__(self, threshold: float | None, catalog: Callable[[Game, str], Catalog]):
        self.threshold, self.catalog = threshold, catalog
        self._shares: dict[tuple[str, str, str], float] = {}

    def share(self, game: Game, aid: Aid, lang: str) -> float:
        if lang == game.source_language:
            return 100.0
        key = (game.id, aid.model.id, lang)
        if key not in self._shares:
            self._shares[key] = complete(game, aid, self.catalog(game, lang))
        return self._shares[key]

    def published(self, game: Game, aid: Aid, lang: str) -> bool:
        return self.threshold is None or lang == game.source_language or self.share(game, aid, lang) >= self.threshold

    def unavailable(self, game: Game, aid: Aid, langs: Iterable[str]) -> tuple[str, ...]:
        """The languages `aid` is not built in: too little of it translated."""
        return tuple(lang for lang in langs if not self.published(game, aid, lang))
