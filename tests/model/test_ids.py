"""One id rule in every kind of source: lowercase letters, digits and '-', at most 64 of them (an id names a file, a
folder, an anchor and a msgctxt). An id one character longer is refused where it is written, whatever holds it."""
import pytest

from aids.source import shape
from aids.source.shape import MAX_ID

from ..helpers import DEMO_SEQUENCE
from . import test_booklet, test_card

pytestmark = pytest.mark.unit

LONG = "a" * (MAX_ID + 1)
EXPECTED = f"(expected: lowercase letters, digits and '-', at most {MAX_ID} of them"


def test_the_pattern_stops_at_the_cap():
    assert shape.ID.match("a" * MAX_ID) and not shape.ID.match(LONG)


@pytest.mark.parametrize("where, change, message", [
    ("a Markdown heading's {#id}", {"two_md": test_booklet.TWO.replace("{#abbr}", "{#" + LONG + "}")},
     f"games/demo/two.md:6:11: heading id of {MAX_ID + 1} characters"),
    ("a booklet's YAML id", {"rules_yaml": test_booklet.BOOKLET.replace("id: rules", f"id: {LONG}")},
     f"games/demo/rules.yaml:2:5: id of {MAX_ID + 1} characters"),
    ("a sequence's step, in YAML", {"sequence_yaml": DEMO_SEQUENCE.replace("id: prep", f"id: {LONG}")},
     f"games/demo/sequence.yaml:11:9: phase id of {MAX_ID + 1} characters"),
])
def test_an_id_of_65_characters_is_refused_in_a_booklet_and_a_sequence(tmp_path, where, change, message):
    said = test_booklet.error_of(tmp_path, **change)
    assert f"{message} {EXPECTED}" in said, where


@pytest.mark.parametrize("where, old, message", [
    ("a card's section", "  - id: rules", f"card.yaml:10:9: section id of {MAX_ID + 1} characters"),
    ("a card's item", "      - id: one", f"card.yaml:15:13: item id of {MAX_ID + 1} characters"),
    ("a card's own id", "id: ref", f"card.yaml:2:5: id of {MAX_ID + 1} characters"),
])
def test_an_id_of_65_characters_is_refused_in_a_card(tmp_path, where, old, message):
    said = test_card.error_of(tmp_path, test_card.DEMO_CARD.replace(old, old.replace(old.split()[-1], LONG), 1))
    assert f"{message} {EXPECTED}" in said, where
