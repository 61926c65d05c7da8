"""The game an aid belongs to, in one language: what every page shows of it (title, version or copyright, date)."""
from __future__ import annotations

from ..config import Edition, Game
from ..model.text import plain_text
from . import rich
from .documents import GameDocument
from .localizer import Localizer
from .rich import Rich


def localize_game(game: Game, lz: Localizer) -> GameDocument:
    """What every page shows of the game: its title and credits as words (a PDF's metadata, a footer) and as runs
    that keep the words its author marked as another language ([Great Campaigns ...]{lang=en}) for the page."""
    published = lz.date(game.published) if game.published else ""
    author = rich.parse(game.author, lambda kind, target: Rich())
    credits = [lz.ui_rich("colophon", "Author: %(author)s", author=author)] if game.author else []
    return {
        "title": lz.plain(game.title_text, note=True),
        "title_runs": lz.rich(game.title_text),
        "version": game.version,
        "imprint": imprint(game.version, plain_text(game.copyright), lz),
        "colophon": [*credits, *(rich.parse(mark, lambda kind, target: Rich())
                                 for mark in imprint(game.version, game.copyright, lz)),
                     *([lz.ui_rich("colophon", "Published %(date)s", date=published)] if published else [])],
        "change_colour": game.change_colour,  # CMYK of the change marks, or None for the palette's
        "published": published,
        "published_iso": game.published.isoformat() if game.published else "",
        "author": plain_text(game.author),
        "author_runs": author,
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
