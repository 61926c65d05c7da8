"""The game an aid belongs to, in one language: what every page shows of it (title, version or copyright, date)."""
from __future__ import annotations

from ..config import Edition, Game
from .documents import GameDocument
from .localizer import Localizer


def localize_game(game: Game, lz: Localizer) -> GameDocument:
    return {
        "title": lz.text(game.title_text),
        "version": game.version,
        "imprint": imprint(game.version, game.copyright, lz),
        "change_colour": game.change_colour,  # CMYK of the change marks, or None for the palette's
        "published": lz.date(game.published) if game.published else "",
        "published_iso": game.published.isoformat() if game.published else "",
        "author": game.author,
        "theme": game.theme,  # its house style (config/theme.py), or None: aids' own look
    }


def imprint(version: str, copyright: str, lz: Localizer) -> list[str]:
    """What names this printing of the game in a colophon or footer: "Version 1.4", "© 1984", both or neither
    (a game without a version of its own prints none: a copyright year is not one)."""
    marks = [lz.pgettext("colophon", "Version %(version)s") % {"version": version}] if version else []
    return [*marks, f"© {copyright}"] if copyright else marks


def edition_name(game: Game, edition: Edition, lz: Localizer) -> str:
    """An edition of `game` by the name readers read (its `title`, in this language), else by its place among the
    game's editions ("Edition 2"); never its id, which names a folder."""
    if edition.title is not None:
        return lz.shown(edition.title)
    number = next((n for n, e in enumerate(game.editions, 1) if e.id == edition.id), 1)
    return lz.pgettext("web site: an edition of a game that gives it no title; %(number)s is its place among the "
                       "game's editions (1, 2, ...)", "Edition %(number)s") % {"number": lz.number(number)}
