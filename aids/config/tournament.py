"""What aids.yaml asks for tournaments (docs/guide/tournaments.md): aids printed in two languages as one
(`bilingual:`), and a packet per event (`packets:`).

    bilingual:
      lwow-1920: [pl+en, pl+ru]          # build/lwow-1920/pl+en/referee-card.pdf, ...
    packets:
      - id: lwow-cup-2026                # build/lwow-1920/packets/lwow-cup-2026.pdf
        game: lwow-1920
        event: Turniej „Lwów 1920”
        date: 2026-08-15
        languages: [pl, en]
        aids: [referee-card]
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import Position, Problems
from ..model.text import SPAN_EXPECTED, span_fault
from ..source.shape import ID_PATTERN, Field, Shape, date, list_of, name_fault, string
from ..source.yamlfile import Source, check_map, is_text
from .game import MAX_LINE

PAIR = r"^[A-Za-z]{2,3}\+[A-Za-z]{2,3}$"
BILINGUAL = Shape("bilingual", keys=list_of(string("two languages of the project: pl+en", pattern=PAIR),
                                            min_items=1, unique=True),
                  key_pattern=ID_PATTERN, doc="per game, the pairs of languages its cards and playsheets are "
                  "printed in side by side: {lwow-1920: [pl+en, pl+ru]}")
PACKET = Shape("packet", (
    Field("id", string("the name of its PDF: build/<game>/packets/<id>.pdf", pattern=ID_PATTERN), True),
    Field("game", string("the id of the game", pattern=ID_PATTERN), True),
    Field("event", {**string("the event's name, as its cover prints it"), "minLength": 1}, True),
    Field("date", date("the day of the event, YYYY-MM-DD"), True),
    Field("languages", list_of(string(), min_items=1, unique=True), True,
          "the languages of its aids, in this order: [pl, en]"),
    Field("aids", list_of(string(pattern=ID_PATTERN), min_items=1, unique=True), True,
          "the ids of the game's aids it holds, in this order"),
    Field("edition", string("the edition of its aids (default: the game's first)", pattern=ID_PATTERN)),
), doc="a tournament packet: one PDF with a cover and the chosen aids in the chosen languages")
PACKETS = list_of(PACKET, "tournament packets, one PDF per event (docs/guide/tournaments.md)")


@dataclass(frozen=True)
class Packet:
    """An event's packet: its cover names the game, its version, the event and its date."""
    id: str
    game: str
    event: str
    date: dt.date
    languages: tuple[str, ...]
    aids: tuple[str, ...]
    edition: str | None
    where: Position  # the packet in aids.yaml
    aids_at: tuple[Position, ...]  # each of its aids, for an error naming one the game does not have


def read_bilingual(src: Source, data: Any, languages: list[str], is_game: Callable[[str], bool],
                   problems: Problems) -> dict[str, tuple[tuple[str, str], ...]]:
    """`bilingual: {game: [pl+en, ...]}`: game id -> its pairs, two different languages of the project each."""
    node = data.get("bilingual")
    if node is None or not check_map(src, node, problems, BILINGUAL, where=src.at(data, "bilingual", value=True)):
        return {}
    found: dict[str, tuple[tuple[str, str], ...]] = {}
    for game, pairs in node.items():
        if not is_game(str(game)):
            problems.add(src.at(node, game), f"unknown game '{game}' in bilingual",
                         "the id of a game (a folder of the games holding a game.yaml)")
            continue
        if not isinstance(pairs, list) or not pairs:
            problems.add(src.at(node, game, value=True), "bilingual pairs must be a list", "[pl+en, pl+ru]")
            continue
        kept: list[tuple[str, str]] = []
        for i, pair in enumerate(pairs):
            langs = tuple(str(pair).split("+"))
            if not is_text(pair) or not re.fullmatch(PAIR, str(pair)) or langs[0] == langs[1] \
                    or not all(lang in languages for lang in langs):
                problems.add(src.at(pairs, i), f"'{pair}' is not a pair of two languages of the project",
                             f"two of {', '.join(languages)} joined by '+', e.g. {'+'.join(languages[:2])}")
            elif (langs[0], langs[1]) not in kept:
                kept.append((langs[0], langs[1]))
        found[str(game)] = tuple(kept)
    return found


def read_packets(src: Source, data: Any, languages: list[str], is_game: Callable[[str], bool],
                 problems: Problems) -> tuple[Packet, ...]:
    """`packets: [{id, game, event, date, languages, aids, edition}]`, each id once."""
    node = data.get("packets")
    if node is None:
        return ()
    if not isinstance(node, list):
        problems.add(src.at(data, "packets", value=True), "packets must be a list",
                     "- id: my-event\n  game: ...")
        return ()
    found: list[Packet] = []
    for i, item in enumerate(node):
        packet = _packet(src, item, src.at(node, i), languages, is_game, problems)
        if packet and any(p.id == packet.id for p in found):
            problems.add(src.at(item, "id", value=True), f"packet '{packet.id}' is declared twice", "each id once")
        elif packet:
            found.append(packet)
    return tuple(found)


def _packet(src: Source, item: Any, where: Position, languages: list[str], is_game: Callable[[str], bool],
            problems: Problems) -> Packet | None:
    if not check_map(src, item, problems, PACKET, where=where):
        return None
    before = len(problems.items)
    _check_names(src, item, is_game, problems)
    if not is_text(item["event"]) or "\n" in str(item["event"]).strip() or len(str(item["event"])) > MAX_LINE:
        problems.add(src.at(item, "event", value=True), f"the event is not one line of at most {MAX_LINE} characters",
                     "event: My tournament (its cover's title)")
    elif fault := span_fault(str(item["event"])):
        problems.add(src.at(item, "event", value=True), fault, SPAN_EXPECTED)
    if not isinstance(item["date"], dt.date) or isinstance(item["date"], dt.datetime):
        problems.add(src.at(item, "date", value=True), "the packet's date is not a date", "YYYY-MM-DD")
    _check_lists(src, item, languages, problems)
    if len(problems.items) > before:
        return None
    return Packet(str(item["id"]), str(item["game"]), str(item["event"]).strip(), item["date"],
                  tuple(dict.fromkeys(str(x) for x in item["languages"])),
                  tuple(dict.fromkeys(str(x) for x in item["aids"])),
                  str(item["edition"]) if item.get("edition") is not None else None, where,
                  tuple(src.at(item["aids"], i) for i in range(len(item["aids"]))))


def _check_names(src: Source, item: Any, is_game: Callable[[str], bool], problems: Problems) -> None:
    """The packet's id, game and edition: names; the game one of the project's."""
    for key in ("id", "game", "edition"):
        if key in item and (fault := name_fault(item[key], f"packet {key}")):
            problems.add(src.at(item, key, value=True), *fault)
    if "game" in item and not name_fault(item["game"], "game") and not is_game(str(item["game"])):
        problems.add(src.at(item, "game", value=True), f"unknown game '{item['game']}' in packet",
                     "the id of a game (a folder of the games holding a game.yaml)")


def _check_lists(src: Source, item: Any, languages: list[str], problems: Problems) -> None:
    """The packet's languages, each one of the project's, and its aids, each an id."""
    for key in ("languages", "aids"):
        if not isinstance(item[key], list) or not item[key]:
            problems.add(src.at(item, key, value=True), f"the packet's {key} must be a list", f"{key}: [...]")
    for i, lang in enumerate(item["languages"] if isinstance(item["languages"], list) else []):
        if lang not in languages:
            problems.add(src.at(item["languages"], i), f"unknown language '{lang}' in packet", ", ".join(languages))
    for i, aid in enumerate(item["aids"] if isinstance(item["aids"], list) else []):
        if fault := name_fault(aid, "aid id"):
            problems.add(src.at(item["aids"], i), *fault)
