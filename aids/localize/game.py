"""The game an aid belongs to, in one language: what every page shows of it (title, version, date)."""
from __future__ import annotations

from typing import Any

from ..config import Game
from .localizer import Localizer


def localize_game(game: Game, lz: Localizer) -> dict[str, Any]:
    return {
        "title": lz.text(game.title_text),
        "version": game.version,
        "change_colour": game.change_colour,  # CMYK of the change marks, or None for the palette's
        "published": lz.date(game.published) if game.published else "",
        "published_iso": game.published.isoformat() if game.published else "",
        "author": game.author,
    }
