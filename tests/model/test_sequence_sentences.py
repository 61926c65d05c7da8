"""What a rulebook sentence needs in a sequence (docs/guide/sequence-sentences.md): bullet lists, case forms of
names, capitals only where a name begins a sentence, chapter references in a text's own words, numbering
levels. The product is checked in tests/render/test_valmora_sample.py; here, the model and the errors."""
import pytest
from translate.storage import pypo

from aids.errors import AidsError
from aids.localize import checks
from aids.localize.rich import starts_sentence

from ..helpers import make_project, read_demo

pytestmark = pytest.mark.unit

SOURCE = """\
kind: sequence
id: seq
title: Sequence
numbering: ["1.", "a)"]
sides:
  - {id: phasing, name: phasing player, role: true, forms: {gen: phasing player}}
  - {id: non-phasing, name: non-phasing player, role: true, forms: {gen: non-phasing player}}
phases:
  - id: fire
    title: Fire
    steps:
      - id: no-fire
        text: "Units may not fire if they:"
        bullets:
          - {id: fired, text: fired this turn;}
          - {id: moved, text: "moved. {side:non-phasing} decides (see {ref:chapter:VI|acc})."}
        steps:
          - id: sub
            text: the {side:phasing|gen} units wait.
"""


def localized(tmp_path, source=SOURCE, lang="pl"):  # the demo project's source language
    from ..helpers import localized_demo
    root = make_project(tmp_path, {"games/demo/sequence.yaml": source})
    return localized_demo(root, lang)[0]


def error_of(tmp_path, source: str) -> str:
    root = make_project(tmp_path, {"games/demo/sequence.yaml": source})
    with pytest.raises(AidsError) as info:
        read_demo(root)
    return str(info.value)


def test_bullets_print_as_typed_and_a_name_that_begins_a_sentence_gets_a_capital(tmp_path):
    ctx = localized(tmp_path)
    step = ctx["phases"][0]["steps"][0]
    first, second = (str(b).replace("\u00a0", " ") for b in step["bullets"])
    assert first == "fired this turn;"
    assert "moved. Non-phasing player decides (see Rozdział VI)." in second  # Polish: accusative = nominative
    assert str(step["steps"][0]["text"]).startswith("the phasing player units wait.")  # as typed: no forced capital
    assert ctx["lists"] is True


def test_bullets_and_forms_are_extracted_with_their_contexts(tmp_path):
    root = make_project(tmp_path, {"games/demo/sequence.yaml": SOURCE})
    seq = read_demo(root)[0].model
    contexts = [t.context for t in seq.messages()]
    assert "seq/side/non-phasing/gen" in contexts
    assert "seq/fire/no-fire/bullets/fired" in contexts
    form = next(t for t in seq.messages() if t.context == "seq/side/phasing/gen")
    assert "genitive" in form.comment and "{side:phasing|gen}" in form.comment


@pytest.mark.parametrize("before, starts", [
    ("", True), ("They attack. ", True), ("They attack! «", True), ("units of the ", False), ("3.", False),
    ("they attack: ", False),
])
def test_what_begins_a_sentence(before, starts):
    assert starts_sentence(before) is starts


@pytest.mark.parametrize("change, message", [
    (("{side:phasing|gen}", "{side:phasing|dat}"),
     "games/demo/sequence.yaml:19:23: {side:phasing|dat} asks for the dative of 'phasing', which its forms: do not give"
     " (expected: forms: {dat: ...} under side phasing"),
    (("{side:phasing|gen}", "{side:phasing|abl}"), "unknown form 'abl' in {side:phasing|abl} (expected: gen (genitive)"),
    (("{ref:chapter:VI|acc}", "{see:chapter:VI|acc}"),
     "a form in {see:chapter:VI|acc}: only a side's name and a chapter reference take one"),
    (('numbering: ["1.", "a)"]', 'numbering: ["I.", "1.", "a)"]'),
     "games/demo/sequence.yaml:4:12: numbering has 3 labels, but the steps go 2 level(s) deep (level 1 labels the "
     "step (1., 2., ...); level 2 labels the sub-step; level 3 labels the sub-sub-step; phases are numbered by "
     "section:, not by numbering:) (expected: one label per level of steps used, here 2: numbering: ['I.', '1.'])"),
    (("{id: fired, text: fired this turn;}", "{id: fired, txt: fired}"), "unknown field 'txt' in bullet"),
])
def test_bad_forms_and_numbering_are_reported_where_they_are(tmp_path, change, message):
    assert message in error_of(tmp_path, SOURCE.replace(*change))


CATALOG = b'''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgctxt "seq/side/phasing/gen"
msgid "phasing player"
msgstr ""

msgctxt "seq/fire/no-fire/sub"
msgid "the {side:phasing|gen} units wait."
msgstr "oddzia\xc5\x82y {side:phasing|gen} czekaj\xc4\x85."

msgctxt "seq/fire/no-fire/bullets/fired"
msgid "fired this turn;"
msgstr "{side:non-phasing|gen} i {side:phasing|abl}"
'''


def test_check_reports_a_form_the_catalog_lacks_or_the_source_does_not_give():
    found = checks.check_forms(pypo.pofile(CATALOG))
    messages = [f.message for f in found]
    assert all(f.check == "forms" and f.error for f in found)
    assert any("the genitive of 'phasing' is not translated (msgctxt seq/side/phasing/gen)" in m for m in messages)
    assert any("the source gives no genitive of 'non-phasing'" in m for m in messages)
    assert any("unknown form 'abl'" in m for m in messages)
    filled = CATALOG.replace(b'msgid "phasing player"\nmsgstr ""', b'msgid "phasing player"\nmsgstr "gracza aktywnego"'
)
    assert not [f for f in checks.check_forms(pypo.pofile(filled)) if "phasing'" in f.message
                and "non-phasing" not in f.message]


def test_a_translation_may_choose_a_form_the_source_does_not_write():
    from aids.model.text import placeholder_mismatch
    assert placeholder_mismatch("units of the {side:x}", "oddziały {side:x|gen}") == ""
    assert placeholder_mismatch("see {ref:chapter:V}", "см. {ref:chapter:V|acc}") == ""
