"""`aids budgets`: how long each translation of a fitted aid may get, measured by laying the aid out.

A card and a playsheet fit their type to a fixed space, down to a minimum size; a translation that grows past
what the space holds fails the build. For each fitted aid of a game in each translated language, this finds
by how much every text printed in it could grow at once with the aid still fitting at its minimum size: it
lengthens each text (the translation, or the source text where there is none yet) by a share of itself, in
words made of the text's own letters, and lays the aid out as the build does, halving the range of shares
until it is known to within STEP. Each entry's budget is its printed length grown by that share (the least of
the aids it prints in), written in the catalog as the project's own translator comment:

    # aids: budget 120 characters (referee-card)

which `aids check` reads (a warning, `[length]`, for a longer translation) and which a translator sees in
Poedit and Weblate. The comment is kept by GNU msgcat and msgmerge, where a custom `max-length` flag is not.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..config import Game, Project
from ..errors import AidsError
from ..kind import Aid
from ..kinds.reading import read_aids, select_game_ids
from ..localize import domains, making, po
from ..localize.checks import BUDGET
from ..localize.localizer import Localizer
from ..translating.translators import shown_texts
from . import pipeline

STEP = 0.05  # shares of growth are told apart to this much
MOST = 2.0  # no budget above twice the text's printed length: a card has only so much room to show it


@dataclass
class Measured:
    """What `aids budgets` found for one game in one language."""
    game: str
    lang: str
    shares: dict[str, float] = field(default_factory=dict)  # aid -> the share every text can grow by
    full: list[str] = field(default_factory=list)  # aids that do not fit even as they are
    budgets: int = 0  # entries given a budget
    given: dict[tuple[str, str], int] = field(default_factory=dict)  # (msgctxt, msgid) -> its budget
    written: bool = False


def budgets(project: Project, games: list[str] | None, langs: list[str] | None) -> list[Measured]:
    """Measure every fitted aid of the chosen games in the chosen languages (default: every language but each
    game's source) and write each entry's budget into its catalog."""
    langs = pipeline.chosen_languages(project, langs) if langs else None
    found = []
    for game_id in select_game_ids(project, games):
        game = project.read_game(game_id)
        aids, errors = read_aids(project, game)
        if errors:
            raise AidsError([p for e in errors for p in e.problems])
        fitted = [aid for aid in aids if aid.kind.fitted and aid.kind.standalone]
        for lang in [lang for lang in (langs or project.languages) if lang != game.source_language]:
            found.append(_language(project, game, fitted, lang))
    return found


def _language(project: Project, game: Game, fitted: list[Aid], lang: str) -> Measured:
    measured = Measured(game.id, lang)
    found = domains.read(project.catalogs, project.show, game.id, lang)
    if not fitted or not found:
        return measured
    lz = making.localizer(project, game, lang)
    allowed: dict[tuple[str, str], tuple[int, str]] = {}  # (msgctxt, msgid) -> (budget, the aid that sets it)
    for aid in fitted:
        texts = {(t.context, t.msgid): lz.shown(t) for t in shown_texts(game, aid) if t.context != "game/title"}
        share = _share(game, aid, lz, texts)
        if share is None:
            measured.full.append(aid.model.id)
            continue
        measured.shares[aid.model.id] = share
        for key, text in texts.items():
            budget = math.floor(len(text) * (1 + share))
            if key not in allowed or budget < allowed[key][0]:
                allowed[key] = (budget, aid.model.id)
    counted: set[tuple[str, str]] = set()
    for path, catalog in found:  # each catalog of the game: the entries it holds (a shared text in each)
        for entry in po.entries(catalog):
            ours = [c for c in entry.othercomments if not BUDGET.search(c)]
            given = allowed.get(po.key(entry))
            if given is not None:
                ours.append(f"# aids: budget {given[0]} characters ({given[1]})\n")
                measured.given[po.key(entry)] = given[0]
                counted.add(po.key(entry))
            entry.othercomments = ours
        measured.written |= po.save(path, catalog, project.catalogs, project.show(path))
    measured.budgets = len(counted)
    return measured


def _share(game: Game, aid: Aid, lz: Localizer, texts: dict[tuple[str, str], str]) -> float | None:
    """The share (0.15: 15 %) by which every text of `aid` can grow with the aid still fitting; None when it
    does not fit as it is."""
    if not _fits(game, aid, lz, texts, 0.0):
        return None
    if _fits(game, aid, lz, texts, MOST - 1):
        return MOST - 1
    low, high = 0.0, MOST - 1  # fits at low, not at high
    while high - low > STEP:
        middle = round((low + high) / 2, 4)
        low, high = (middle, high) if _fits(game, aid, lz, texts, middle) else (low, middle)
    return math.floor(low / STEP) * STEP


def _fits(game: Game, aid: Aid, lz: Localizer, texts: dict[tuple[str, str], str], share: float) -> bool:
    """Whether `aid` fits with each of its texts `share` longer, laid out as the build lays it out."""
    catalog = dict(lz.catalog)
    for key, text in texts.items():
        catalog[key] = (lengthened(text, share), False)
    trial = Localizer(lz.lang, lz.source_lang, catalog, lz.ui, style=lz.style, ignored=lz.ignored, icons=lz.icons)
    try:
        doc = pipeline.document(game, aid, trial, game.editions[0] if game.editions else None)
        pipeline.render(doc, ["pdf"])
    except AidsError:
        return False
    return True


def lengthened(text: str, share: float) -> str:
    """`text` with words of its own letters added at its end, `share` of its length more (placeholders, markup
    and numbers of the text kept as they are)."""
    extra = math.ceil(len(text) * share)
    if extra <= 0:
        return text
    letters = " ".join(re.findall(r"[^\W\d_]+", text)) or "x"
    words = (letters + " ") * (extra // (len(letters) + 1) + 2)
    return f"{text} {words[:extra - 1].strip() or 'x'}"
