"""A game's ledger of rulings: official answers to questions about its rules (games/<game>/rulings.yaml).

Each ruling names the rule it answers by its stable key (the msgctxt of the rule's texts, as a release records
it), the date and the version it was given for, the question and the answer (translated through the game's
catalogs, msgctxt game/rulings/<id>/...), and where it was given. A ruling whose rule changed since the version
it was given for is to be reviewed: `needs_review` says why, from the changes between that release and now.
"""
from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import Position, Problem, Problems
from ..source.shape import ID_CHARS, VERSION_CHARS, Field, Shape, date, ident, list_of, string, text
from ..source.yamlfile import Source, check_id, check_map
from .release import ADDED, CHANGED, MOVED, REMOVED, Change
from .text import Text, optional_text_at, text_at

FILE = "rulings.yaml"  # beside game.yaml
KEY_PATTERN = rf"^{ID_CHARS}(/{ID_CHARS})*$"

RULING = Shape("ruling", (
    Field("id", ident("the ruling's own id: stable (its translations follow it), unique in the game"), True),
    Field("rule", string("the stable key of the rule it answers: its aid's id, then the ids down to it, "
                         "e.g. turn-sequence/movement/march/wheel (aids changes --format json lists them)",
                         KEY_PATTERN), True),
    Field("date", date("the day it was given, YYYY-MM-DD"), True),
    Field("version", string("the version of the rules it was given for, in quotes: \"2.0\"",
                            f"^{VERSION_CHARS}$"), True),
    Field("question", text("the question, translated through the catalogs"), True),
    Field("answer", text("the answer, translated through the catalogs"), True),
    Field("source", text("where it was given, e.g. Designer's answer on the publisher's forum (translated)")),
    Field("url", string("the address of the source, printed as a link on the web site", r"^https?://\S+$")),
), doc="one ruling: a question about a rule and its official answer")
RULINGS = Shape("rulings file", (
    Field("rulings", list_of(RULING), True, "the game's rulings, in the order they are printed"),
), doc="A game's rulings and FAQ answers, each tied to the rule it answers by its stable key.")


@dataclass(frozen=True)
class Ruling:
    id: str
    rule: str  # the stable key of the rule it answers
    date: dt.date
    version: str
    question: Text
    answer: Text
    source: Text | None
    url: str
    where: Position  # of its `id:`, where a problem with it is reported
    rule_at: Position  # of its `rule:` value

    @property
    def texts(self) -> list[Text]:
        return [self.question, self.answer, *([self.source] if self.source else [])]


@dataclass
class Ledger:
    source: Source
    rulings: list[Ruling]

    def texts(self) -> list[Text]:
        return [t for ruling in self.rulings for t in ruling.texts]


def read_rulings(src: Source) -> Ledger:
    """A ledger from its source; every problem gathered, then raised together (AidsError)."""
    problems = Problems()
    data = src.data
    if not check_map(src, data, problems, RULINGS, where=Position(src.shown, 1, 1)):
        problems.raise_if_any()
    listed = data["rulings"]
    if not isinstance(listed, list):
        problems.add(src.at(data, "rulings", value=True), "rulings must be a list", "- id: ...\n  rule: ...")
        listed = []
    seen: dict[str, int] = {}
    rulings = [r for i, node in enumerate(listed) if (r := _ruling(src, node, src.at(listed, i), seen, problems))]
    problems.raise_if_any()
    return Ledger(src, rulings)


def _ruling(src: Source, node: Any, where: Position, seen: dict[str, int], problems: Problems) -> Ruling | None:
    if not check_map(src, node, problems, RULING, where=where) or not check_id(src, node, "id", problems, seen,
                                                                               "ruling"):
        return None
    rid = str(node["id"])
    fields = [_checked(src, node, key, problems) for key in ("rule", "version", "url")]
    given = node["date"]
    if not isinstance(given, dt.date) or isinstance(given, dt.datetime):
        problems.add(src.at(node, "date", value=True), "date is not a date", "YYYY-MM-DD, e.g. 2026-10-02")
    context = f"game/rulings/{rid}"
    about = f"on rule {node['rule']}"
    question = text_at(src, node, "question", f"{context}/question", f"Question of ruling {rid} ({about})", problems)
    answer = text_at(src, node, "answer", f"{context}/answer", f"Answer of ruling {rid} ({about})", problems)
    source = optional_text_at(src, node, "source", f"{context}/source", f"Where ruling {rid} was given", problems)
    if None in fields or not isinstance(given, dt.date):
        return None
    rule, version, url = (str(f) for f in fields)
    return Ruling(rid, rule, given, version, question, answer, source, url, src.at(node, "id", value=True),
                  src.at(node, "rule", value=True))


_PATTERNS = {"rule": (KEY_PATTERN, "a stable key: ids joined by '/', e.g. turn-sequence/movement/march"),
             "version": (f"^{VERSION_CHARS}$", 'a version in quotes, e.g. version: "2.0"'),
             "url": (r"^https?://\S+$", "an address beginning https:// or http://")}


def _checked(src: Source, node: Any, key: str, problems: Problems) -> str | None:
    """The text of `node[key]` when it is well formed ('' for an absent optional field), else None."""
    value = node.get(key)
    if value is None:
        return ""
    pattern, expected = _PATTERNS[key]
    if isinstance(value, float) and key == "version":
        problems.add(src.at(node, key, value=True), f"version {value} is read as a number", expected)
        return None
    if not isinstance(value, str) or not re.match(pattern, value):
        problems.add(src.at(node, key, value=True), f"malformed {key} '{value}'", expected)
        return None
    return value


# --- against the rules ------------------------------------------------------------------------------

def unknown_rules(ledger: Ledger, keys: Collection[str]) -> list[Problem]:
    """A problem for every ruling naming a rule that does not exist, with the nearest known keys."""
    problems = []
    for ruling in ledger.rulings:
        if ruling.rule not in keys:
            near = difflib.get_close_matches(ruling.rule, list(keys), n=3, cutoff=0.6)
            problems.append(Problem(ruling.rule_at, f"ruling {ruling.id} answers rule '{ruling.rule}', which "
                                    "does not exist", "one of: " + ", ".join(near) if near else
                                    "the stable key of a rule (aids changes --format json lists keys)"))
    return problems


REVIEWED = (ADDED, CHANGED, MOVED, REMOVED)  # a translation corrected leaves the rule as it was


def needs_review(ruling: Ruling, changes: Iterable[Change]) -> Change | None:
    """The change since the ruling's version that puts it in doubt: of its rule, or of a part of it (a step of
    a phase, a paragraph of a section); None when the rule reads as it did."""
    for change in changes:
        if change.what in REVIEWED and (change.key == ruling.rule or change.key.startswith(ruling.rule + "/")):
            return change
    return None

