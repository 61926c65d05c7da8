"""The one place a game's `Localizer` in a language is made: from the game's catalogs in the project (one, or one
per aid: domains.py), the package's own words (ui.py) and the project's date style; the pseudo-locale makes up its
own text. Every stage and tier above asks here, so a language reads the same wherever it is printed."""
from __future__ import annotations

from ..config import Game, Project
from . import domains, ui
from .localizer import PSEUDO, Localizer, PseudoTranslations


def localizer(project: Project, game: Game, lang: str, draft: bool = False) -> Localizer:
    """`lang`'s view of a game: its catalog (none for the pseudo-locale, which makes up its own text)."""
    if lang == PSEUDO:
        return Localizer(lang, game.source_language, {}, PseudoTranslations(), style=project.date_styles.get("en"),
                         icons=game.icons)
    # the game's catalogs, one or one per aid (localize/domains.py)
    found = domains.read(project.catalogs, project.show, game.id, lang) if lang != game.source_language else []
    translations, ignored = domains.table(found)
    return Localizer(lang, game.source_language, translations, ui.ui_translations(lang), draft=draft,
                     style=project.date_styles.get(lang), ignored=ignored, icons=game.icons)
