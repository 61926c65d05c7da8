"""A game's rulings against its rules: each must name a rule that exists (an error, with the nearest keys), and
one whose rule changed since the release it was given for is to be reviewed (a warning of `aids check`, a note
on the page). What a page prints of them is `page_rulings`."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..config import Game, Project
from ..errors import AidsError, Problem
from ..kind import Aid
from ..localize.localizer import Localizer
from ..localize.rulings import RulingsDocument, localize_rulings
from ..model.release import ADDED, CHANGED, MOVED, REMOVED, Change, Item, compare
from ..model.rulings import Ruling, needs_review, unknown_rules
from ..site import navigation
from . import release


@dataclass
class Review:
    """What `aids check` says of a game's rulings, and which are to be reviewed."""
    errors: list[Problem] = field(default_factory=list)  # a ruling naming a rule that does not exist
    warnings: list[Problem] = field(default_factory=list)  # a ruling to review, or one that cannot be compared
    since: dict[str, str] = field(default_factory=dict)  # ruling id -> the version since which its rule changed


WORDS = {ADDED: "is new", CHANGED: "changed", MOVED: "moved", REMOVED: "was removed"}


def review(project: Project, game: Game, aids: Iterable[Aid]) -> Review:
    """Every ruling of `game` against its aids as they are (`aids`, read) and its releases."""
    out = Review()
    if not game.rulings:
        return out
    items = [item for aid in aids for item in aid.kind.items(aid.model)]
    out.errors = unknown_rules(game.rulings, {item.key for item in items})
    recorded = set(release.versions(game))
    compared: dict[str, list[Change]] = {}
    for ruling in game.rulings.rulings:
        if ruling.version not in recorded:
            if ruling.version != game.version:  # the sources are that version: nothing can have changed since
                out.warnings.append(Problem(ruling.where, f"ruling {ruling.id} was given for version "
                                            f"{ruling.version}, of which no release is recorded: whether its rule "
                                            "changed since cannot be told", "one of: " + (
                                                ", ".join(sorted(recorded)) or "a version released with aids release")))
            continue
        if ruling.version not in compared:
            compared[ruling.version] = compare(release.read_release(project, game, ruling.version),
                                               release.state(project, game))
        change = needs_review(ruling, compared[ruling.version])
        if change is not None:
            out.since[ruling.id] = ruling.version
            part = "" if change.key == ruling.rule else f" (its part {change.key})"
            out.warnings.append(Problem(ruling.where, f"ruling {ruling.id} is to be reviewed: its rule {ruling.rule}"
                                        f"{part} {WORDS[change.what]} since version {ruling.version}, for which "
                                        "it was given", "the ruling confirmed for the current version "
                                        f"(version: \"{game.version}\") or withdrawn"))
    return out


def checked(project: Project, game: Game, aids: Iterable[Aid]) -> Review:
    """`review`, raising AidsError for a ruling naming a rule that does not exist (its game's pages fail)."""
    found = review(project, game, aids)
    if found.errors:
        raise AidsError(found.errors)
    return found


def page_rulings(game: Game, aid: Aid, game_aids: list[Aid], found: Review, lz: Localizer) -> RulingsDocument | None:
    """What the page of `aid` prints of the game's rulings in `lz`'s language: those on its rules and its parts'
    in the order of their rules; a booklet (which prints the game's changelog) then every other ruling of the
    game, its rule named by its aid's title and number."""
    if not game.rulings:
        return None
    items: list[tuple[str, Item]] = [(a.model.id, item) for a in game_aids for item in a.kind.items(a.model)]
    places = {item.key: (owner, item.anchor) for owner, item in items}
    order = {item.key: i for i, (_, item) in enumerate(items)}
    on_page = {aid.model.id, *(part.id for part in aid.kind.parts(aid.model))}
    shown: list[Ruling] = sorted((r for r in game.rulings.rulings if r.rule in places
                                  and (aid.kind.changelog or places[r.rule][0] in on_page)),
                                 key=lambda r: (places[r.rule][0] not in on_page, order[r.rule]))
    titles = navigation.aid_titles(game_aids, lz)
    numbers = {place: number if place[0] in on_page else f"{titles.get(place[0], place[0])}, {number}"
               for place, number in navigation.aid_numbers(game_aids, lz).items()}  # another aid's: named
    return localize_rulings(shown, lz, places, on_page, numbers, titles, lambda r: found.since.get(r.id))


def check(project: Project, games: list[str] | None) -> list[tuple[Problem, bool]]:
    """(problem, is an error) for every ruling of the chosen games that `aids check` reports: a rule that does
    not exist (an error), a rule changed since the ruling's version, or a version of which no release is
    recorded (warnings). A game whose aids do not read is left to the commands that read them."""
    from ..kinds.reading import read_aids, select_games
    found: list[tuple[Problem, bool]] = []
    for game in select_games(project, games):
        if game.rulings:
            aids, errors = read_aids(project, game)
            if not errors:
                result = review(project, game, aids)
                found += [(p, True) for p in result.errors] + [(p, False) for p in result.warnings]
    return found


def check_text(problem: Problem, error: bool) -> str:
    """A finding of `check` as `aids check` prints it: path:line:col: [warning: ][ruling] what (expected: ...)."""
    return str(Problem(problem.where, ("" if error else "warning: ") + "[ruling] " + problem.message,
                       problem.expected))
