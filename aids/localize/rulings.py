"""A game's rulings as one page in one language prints them: an appendix of every ruling on a rule the page
prints (every ruling of the game in a booklet), each numbered, with its rule's printed number linked, its date
and version, question, answer and source, and a note when it is to be reviewed; and beside each rule, links to
its rulings (`at`: the rule's anchor -> its entries)."""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TypedDict

from ..model.rulings import Ruling
from .localizer import Localizer
from .rich import Rich


class RulingEntry(TypedDict):
    id: str  # the HTML id of the ruling in the appendix: ruling-<id>
    label: str  # "Ruling 3", in the page's language
    rule: str  # the rule's number as printed ("4.3, krok 1.a"), or its aid's title when it has none
    rule_href: str | None  # a link to the rule on this page; None where it is printed elsewhere
    given: str  # "Given 2 October 2026 for version 2.0"
    question: Rich
    answer: Rich
    source: Rich | None
    url: str
    review: str  # why it is to be reviewed ("" when its rule reads as it did)


class RulingsDocument(TypedDict):
    title: str  # the appendix's heading
    labels: dict[str, str]  # the words before a question, an answer and a source
    beside: str  # how the links beside a rule are named for a screen reader
    entries: list[RulingEntry]
    at: dict[str, list[RulingEntry]]  # a rule's anchor on this page -> the entries of its rulings


Place = tuple[str, str]  # (aid, anchor) where a rule is printed


def localize_rulings(rulings: list[Ruling], lz: Localizer, places: Mapping[str, Place], on_page: Collection[str],
                     numbers: Mapping[Place, str], titles: Mapping[str, str],
                     review: Callable[[Ruling], str | None]) -> RulingsDocument | None:
    """The template's `rulings` for `rulings` (in the order printed) in `lz`'s language: each rule named by
    `numbers` (or its aid's title, `titles`), linked where its aid is `on_page`; `review(ruling)` gives the
    version since which its rule changed, if it did. None when there is none."""
    if not rulings:
        return None
    entries: list[RulingEntry] = []
    at: dict[str, list[RulingEntry]] = {}
    for n, ruling in enumerate(rulings, 1):
        aid, anchor = places[ruling.rule]
        since = review(ruling)
        entry: RulingEntry = {
            "id": f"ruling-{ruling.id}",
            "label": lz.pgettext("a ruling, numbered in its appendix; %(number)s is its number",
                                 "Ruling %(number)s") % {"number": lz.number(n)},
            "rule": numbers.get((aid, anchor)) or titles.get(aid, aid),
            "rule_href": f"#{anchor}" if aid in on_page and anchor else None,
            "given": lz.pgettext("a ruling; %(date)s is a date, %(version)s a version of the rules",
                                 "Given %(date)s for version %(version)s")
            % {"date": lz.date(ruling.date), "version": ruling.version},
            "question": lz.rich(ruling.question), "answer": lz.rich(ruling.answer),
            "source": lz.rich(ruling.source) if ruling.source else None, "url": ruling.url,
            "review": lz.pgettext("a ruling whose rule changed; %(version)s is the version it was given for",
                                  "To be reviewed: the rule has changed since version %(version)s, for which this "
                                  "ruling was given.") % {"version": since} if since else "",
        }
        entries.append(entry)
        if entry["rule_href"]:
            at.setdefault(anchor, []).append(entry)
    return {"title": lz.pgettext("heading of the appendix of rulings", "Rulings"),
            "labels": {"question": lz.pgettext("a ruling", "Question:"), "answer": lz.pgettext("a ruling", "Answer:"),
                       "source": lz.pgettext("a ruling", "Source:"), "on": lz.pgettext("a ruling", "on"),
                       "review": lz.pgettext("beside a rule: a ruling whose rule changed", "to be reviewed")},
            "beside": lz.pgettext("links beside a rule to its rulings, for a screen reader", "Rulings on this rule"),
            "entries": entries, "at": at}
