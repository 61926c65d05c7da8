"""Two states of a game compared by stable key: added, removed, changed, moved, and translation-only changes."""
import datetime as dt

import pytest

from aids.model.quantity import Dash, Num, Quantity, Range, value_text
from aids.model.release import (
    ADDED,
    CHANGED,
    MOVED,
    REMOVED,
    TRANSLATION,
    AidState,
    Item,
    Snapshot,
    compare,
    from_data,
    to_data,
    version_key,
)

pytestmark = pytest.mark.unit


def state(*items: tuple, translations=None) -> Snapshot:
    """A one-aid snapshot of (key, texts) or (key, texts, values) items, anchored at their key."""
    made = [Item(key, key, tuple(texts), tuple(values[0]) if values else ()) for key, texts, *values in items]
    return Snapshot("g", "1", dt.date(2026, 1, 1), "en", {"seq": AidState("sequence", made, translations or {})})


def found(old: Snapshot, new: Snapshot) -> list[tuple[str, str]]:
    return [(c.what, c.key) for c in compare(old, new)]


RULES = [("seq/a", ["A"]), ("seq/a/1", ["one"]), ("seq/a/2", ["two"]), ("seq/a/3", ["three"]), ("seq/b", ["B"]),
         ("seq/b/1", ["b one"])]


def test_the_same_state_has_no_changes():
    assert found(state(*RULES), state(*RULES)) == []


def test_an_inserted_item_renumbers_nothing():
    """A step inserted before others: it is added, and the steps after it (renumbered on the page) are not."""
    inserted = [*RULES[:1], ("seq/a/0", ["zero"]), *RULES[1:]]
    assert found(state(*RULES), state(*inserted)) == [(ADDED, "seq/a/0")]


def test_reworded_removed_and_added():
    new = [RULES[0], ("seq/a/1", ["one, reworded"]), RULES[3], RULES[4], RULES[5], ("seq/b/2", ["b two"])]
    changes = compare(state(*RULES), state(*new))
    assert [(c.what, c.key) for c in changes] == [(CHANGED, "seq/a/1"), (ADDED, "seq/b/2"), (REMOVED, "seq/a/2")]
    removed = changes[-1]
    assert removed.anchor == "seq/a/3" and removed.texts == ("two",)  # marked where it was: before seq/a/3


def test_a_removed_last_item_is_marked_at_its_parent():
    changes = compare(state(*RULES), state(*RULES[:5]))
    assert [(c.what, c.key, c.anchor, c.after) for c in changes] == [(REMOVED, "seq/b/1", "seq/b", False)]


def test_an_item_under_another_parent_is_moved_not_removed_and_added():
    new = [RULES[0], RULES[1], RULES[2], RULES[4], ("seq/b/3", ["three"]), RULES[5]]
    changes = compare(state(*RULES), state(*new))
    assert [(c.what, c.key, c.was) for c in changes] == [(MOVED, "seq/b/3", "seq/a/3")]


def test_an_item_out_of_order_among_its_siblings_is_moved():
    new = [RULES[0], RULES[3], RULES[1], RULES[2], RULES[4], RULES[5]]  # three before one and two
    assert found(state(*RULES), state(*new)) == [(MOVED, "seq/a/3")]


def test_a_moved_and_reworded_item_is_a_removal_and_an_addition():
    new = [RULES[0], RULES[1], RULES[2], RULES[4], ("seq/b/3", ["three, reworded"]), RULES[5]]
    assert found(state(*RULES), state(*new)) == [(ADDED, "seq/b/3"), (REMOVED, "seq/a/3")]


def test_a_changed_value_is_a_changed_item():
    old = state(("t/row", ["Woods"], ["num 2", "num -2 signed"]))
    new = state(("t/row", ["Woods"], ["num 3", "num -2 signed"]))
    assert found(old, new) == [(CHANGED, "t/row")]


def test_a_translation_only_change_concerns_its_language_alone():
    old = state(*RULES, translations={"pl": {"seq/a": ("A-pl",)}, "ru": {"seq/a": ("A-ru",)}})
    new = state(*RULES, translations={"pl": {"seq/a": ("A-pl, poprawione",)}, "ru": {"seq/a": ("A-ru",)}})
    (change,) = compare(old, new)
    assert (change.what, change.key, change.langs) == (TRANSLATION, "seq/a", ("pl",))
    assert change.concerns("pl") and not change.concerns("ru")


def test_a_source_change_concerns_every_language():
    new = [RULES[0], ("seq/a/1", ["one, reworded"]), *RULES[2:]]
    (change,) = compare(state(*RULES, translations={"pl": {}}), state(*new, translations={"pl": {}}))
    assert change.what == CHANGED and change.langs == () and change.concerns("pl") and change.concerns("ru")


def test_a_release_file_reads_back_as_it_was_written():
    snapshot = state(("t/row", ["Woods"], ["num 2"]), *RULES, translations={"pl": {"seq/a": ("A-pl",)}})
    again = from_data(to_data(snapshot))
    assert again == snapshot and compare(snapshot, again) == []


def test_versions_compare_as_numbers():
    assert sorted(["1.10", "1.9", "2.0", "1.4", "1.4.1"], key=version_key) == ["1.4", "1.4.1", "1.9", "1.10", "2.0"]


def test_values_are_recorded_by_what_they_are():
    from decimal import Decimal
    assert value_text(Num(Decimal("0.1"), 1)) == "num 0.1"
    assert value_text(Num(Decimal("1"), 0, True)) == "num 1 signed"
    assert value_text(Range(Num(Decimal("4")), None)) == "range num 4 -"
    assert value_text(Quantity(Num(Decimal("12")), "cm")) == "quantity num 12 cm"
    assert value_text(Dash()) == "dash" and value_text(None) == ""


def test_one_removed_item_is_moved_once():
    """Two new items like one removed: the first is where it moved, the second is new."""
    old = state(("seq/a", ["A"]), ("seq/a/x", ["same"]), ("seq/b", ["B"]), ("seq/c", ["C"]))
    new = state(("seq/a", ["A"]), ("seq/b", ["B"]), ("seq/b/x", ["same"]), ("seq/c", ["C"]), ("seq/c/x", ["same"]))
    assert found(old, new) == [(MOVED, "seq/b/x"), (ADDED, "seq/c/x")]
