"""The phase-sequence model: numbering, lettering per language, mirrors, references, bad input."""
import pytest

from aids.errors import AidsError
from aids.localize import making

from ..helpers import DEMO_SEQUENCE, localized_demo, make_project, read_demo

pytestmark = pytest.mark.unit

read = read_demo


def localized(root, lang):
    return localized_demo(root, lang)


def flat(steps, out=None):
    out = [] if out is None else out
    for s in steps:
        out.append(s)
        flat(s["steps"], out)
    return out


def test_phases_numbered_from_section(demo):
    ctx, _ = localized(demo, "pl")
    assert [p["number"] for p in ctx["phases"]] == ["3.2.1", "3.2.2", "3.2.3", "3.2.4"]


def test_without_section_phases_number_from_one(tmp_path):
    root = make_project(tmp_path, {"games/demo/sequence.yaml": DEMO_SEQUENCE.replace('section: "3.2"\n', "")})
    ctx, _ = localized(root, "en")
    assert [p["number"] for p in ctx["phases"]] == ["1", "2", "3", "4"]


@pytest.mark.parametrize("lang, letters", [("pl", ["a", "b"]), ("en", ["a", "b"]), ("ru", ["а", "б"])])
def test_step_labels_follow_the_language(demo, lang, letters):
    ctx, _ = localized(demo, lang)
    move = ctx["phases"][1]["steps"][0]
    assert move["label"] == "1"
    assert [s["label"] for s in move["steps"]] == letters
    assert [s["label"] for s in move["steps"][1]["steps"]] == ["i", "ii"]


def test_russian_letters_are_cyrillic(demo):
    _, lz = localized(demo, "ru")
    assert [lz.letter(n) for n in range(1, 6)] == ["а", "б", "в", "г", "д"]
    assert all("\u0430" <= ch <= "\u044f" for ch in (lz.letter(n) for n in range(1, 25)))


def test_roman_numerals():
    from aids.localize.localizer import Localizer
    assert [Localizer.roman(n) for n in (1, 2, 3, 4, 9, 14, 40)] == ["i", "ii", "iii", "iv", "ix", "xiv", "xl"]


@pytest.mark.parametrize("lang, ref, see", [
    ("pl", "3.2.2,\u00a0krok\u00a01.b", "patrz 12.4.4"),  # held together by no-break spaces
    ("en", "3.2.2,\u00a0step\u00a01.b", "see 12.4.4"),
    ("ru", "3.2.2,\u00a0шаг\u00a01.б", "см. 12.4.4"),
])
def test_references_render_localized_with_generated_numbers(demo, lang, ref, see):
    ctx, _ = localized(demo, lang)
    steps = flat(ctx["phases"][1]["steps"]) + flat(ctx["phases"][2]["steps"])
    resolve = steps[-1]
    assert f'<a class="ref" href="#red-move/move/charge"> {ref}</a>' in resolve["text"]  # its space leads it
    volley = next(s for s in steps if s["anchor"] == "red-move/move/charge/volley")
    assert see in volley["text"]
    assert "18.0" in resolve["see"] and 'href="#red-move"> 3.2.2</a>' in resolve["see"]


def test_mirror_generates_title_number_and_swapped_side(demo):
    ctx, _ = localized(demo, "en")
    mirror = ctx["phases"][3]
    assert mirror["steps"] == []
    # the title left in the source language says so (its lang), as every fallback does
    assert '“<span lang="pl">Ruch czerwonych</span>”' in mirror["mirror"] and 'href="#red-move"> 3.2.2</a>' in mirror["mirror"]
    assert ctx["phases"][1]["side"] == "Czerwoni" and mirror["side"] == "Niebiescy"
    assert ctx["phases"][0]["side"] is None  # no side declared: no label


@pytest.mark.parametrize("lang, simultaneous, first", [
    ("en", "simultaneous", "alternately, Czerwoni first"),
    ("pl", "jednocześnie", "na przemian, najpierw Czerwoni"),
    ("ru", "одновременно", "поочерёдно, сначала Czerwoni"),
])
def test_timing_is_printed_per_language_and_swapped_in_a_mirror(tmp_path, lang, simultaneous, first):
    source = DEMO_SEQUENCE.replace("    title: Przygotowanie\n", "    title: Przygotowanie\n    timing: simultaneous\n")
    source = source.replace("    title: Ruch czerwonych\n    side: red\n",
                            "    title: Ruch czerwonych\n    side: red\n    timing: red\n")
    ctx, _ = localized(make_project(tmp_path, {"games/demo/sequence.yaml": source}), lang)
    assert ctx["phases"][0]["timing"] == simultaneous and ctx["phases"][0]["side"] is None
    assert ctx["phases"][1]["timing"] == first
    assert ctx["phases"][3]["timing"] == first.replace("Czerwoni", "Niebiescy")  # the mirror: the other side first
    assert ctx["phases"][2]["timing"] is None


def test_an_unknown_timing_names_what_is_accepted(tmp_path):
    source = DEMO_SEQUENCE.replace("    title: Przygotowanie\n", "    title: Przygotowanie\n    timing: together\n")
    with pytest.raises(AidsError, match=r"games/demo/sequence.yaml:13:13: unknown timing 'together' \(expected: "
                                        r"simultaneous, alternate, red, blue\)"):
        read(make_project(tmp_path, {"games/demo/sequence.yaml": source}))


def test_messages_carry_stable_context_and_position(demo):
    aid, _, _ = read(demo)
    texts = {t.context: t for t in aid.model.messages()}
    assert texts["seq/red-move/move/charge"].msgid.startswith("Niebiescy kontrszarżują")
    assert texts["seq/red-combat/resolve/note"].comment == "Note to step 1 of phase red-combat"
    assert texts["seq/prep"].where.line == 12
    assert "seq/blue-move" in texts and not any(c.startswith("seq/blue-move/") for c in texts)


def error_of(tmp_path, source: str) -> str:
    root = make_project(tmp_path, {"games/demo/sequence.yaml": source})
    with pytest.raises(AidsError) as info:
        read(root)
    return str(info.value)


def test_unknown_key_names_the_accepted_ones(tmp_path):
    message = error_of(tmp_path, DEMO_SEQUENCE.replace("        text: Połóż żetony.", "        txt: Połóż żetony."))
    assert "games/demo/sequence.yaml:15:9: unknown field 'txt' in step (expected: id, text, actor, with, note, see, steps, bullets)" in message


def test_missing_id(tmp_path):
    message = error_of(tmp_path, DEMO_SEQUENCE.replace("      - id: place\n", "      - text: Połóż.\n        x: 1\n", 1)
                       .replace("        text: Połóż żetony.\n", "", 1))
    assert "games/demo/sequence.yaml:14:9: missing field 'id' in step" in message


def test_duplicate_id(tmp_path):
    message = error_of(tmp_path, DEMO_SEQUENCE.replace("id: red-combat", "id: red-move"))
    assert "duplicate phase id 'red-move' (first used on line 16)" in message
    assert "sequence.yaml:32:9:" in message


def test_reference_to_unknown_id_points_at_the_placeholder(tmp_path):
    message = error_of(tmp_path, DEMO_SEQUENCE.replace("{ref:red-combat/resolve}", "{ref:red-combat/nothing}"))
    assert "games/demo/sequence.yaml:26:64: reference to unknown id 'red-combat/nothing'" in message


def test_see_entry_to_unknown_id(tmp_path):
    message = error_of(tmp_path, DEMO_SEQUENCE.replace('"red-move"]', '"red-moves"]'))
    assert "reference to unknown id 'red-moves'" in message and "sequence.yaml:38:28:" in message


def test_mirror_of_unknown_phase(tmp_path):
    message = error_of(tmp_path, DEMO_SEQUENCE.replace("mirror_of: red-move", "mirror_of: green-move"))
    assert "sequence.yaml:42:16: mirror of unknown phase 'green-move'" in message


def test_mirror_of_a_mirror(tmp_path):
    source = DEMO_SEQUENCE + "  - id: again\n    title: Znowu\n    mirror_of: blue-move\n"
    message = error_of(tmp_path, source)
    assert "sequence.yaml:45:16: mirror of a mirror: 'blue-move' is itself a mirror" in message


def test_every_problem_reported_at_once(tmp_path):
    source = DEMO_SEQUENCE.replace("mirror_of: red-move", "mirror_of: nowhere").replace(
        "{ref:red-combat/resolve}", "{ref:nope}")
    message = error_of(tmp_path, source)
    assert "nowhere" in message and "nope" in message


def test_text_must_be_text_not_a_list_or_mapping(tmp_path):
    message = error_of(tmp_path, DEMO_SEQUENCE.replace("title: Przygotowanie", "title: {a: 1}")
                       .replace("text: Połóż żetony.", "text: [a, b]"))
    assert "sequence.yaml:12:12: 'title' must be text, not a mapping" in message
    assert "sequence.yaml:15:15: 'text' must be text, not a list" in message


def test_steps_that_are_not_a_list_are_an_error_not_a_crash(tmp_path):
    source = DEMO_SEQUENCE.replace("    steps:\n      - id: place\n        text: Połóż żetony.\n", "    steps: 5\n")
    assert source != DEMO_SEQUENCE
    assert "games/demo/sequence.yaml:13:12: steps must be a list" in error_of(tmp_path, source)


@pytest.mark.parametrize("lang, angle, date", [
    ("pl", "Obrót o 45,5°", "26\u00a0maja\u00a01831"), ("en", "Obrót o 45.5°", "26\u00a0May\u00a01831"),
    ("ru", "Obrót o 45,5°", "26\u00a0мая\u00a01831"),
])
def test_numbers_and_dates_in_steps_are_data(tmp_path, lang, angle, date):
    """Numbers stay out of the msgid: {num:} and {date:} are formatted in the reader's language."""
    source = DEMO_SEQUENCE.replace("Połóż żetony.", "Obrót o {num:45.5}° do {date:1831-05-26}.")
    root = make_project(tmp_path, {"games/demo/sequence.yaml": source})
    ctx, _ = localized(root, lang)
    text = str(ctx["phases"][0]["steps"][0]["text"])
    assert angle in text and date in text


@pytest.mark.parametrize("placeholder, message", [
    ("{num:.nan}", "'.nan' in {num:.nan} is not a number (expected: {num:45}, {num:-3}, {num:2.5})"),
    ("{num:inf}", "'inf' in {num:inf} is not a number"),
    ("{date:1831-02-30}", "'1831-02-30' in {date:1831-02-30} is not a date (expected: {date:1831-05-26})"),
    ("{q:radius}", "placeholder '{q:radius}' has no value (expected: with: {radius: ...})"),
    ("{x:radius}", "unknown placeholder '{x:radius}' (expected: {ref:target}, {see:target}, {num:number}, "
                   "{date:YYYY-MM-DD}, {side:id}, {q:name} with a with: value)"),
])
def test_a_bad_number_or_date_is_refused_where_it_is(tmp_path, placeholder, message):
    source = DEMO_SEQUENCE.replace("Połóż żetony.", f"Połóż {placeholder} żetony.")
    with pytest.raises(AidsError) as info:
        read(make_project(tmp_path, {"games/demo/sequence.yaml": source}))
    assert str(info.value).startswith(f"games/demo/sequence.yaml:15:21: {message}")


def test_phase_notes_see_and_a_phase_without_a_title(tmp_path):
    source = DEMO_SEQUENCE.replace(
        "  - id: prep\n    title: Przygotowanie\n",
        "  - id: prep\n    see: [\"rule:18.0\"]\n    notes_position: before\n"
        "    notes:\n      - id: once\n        text: Tylko {num:1} raz na grę.\n")
    root = make_project(tmp_path, {"games/demo/sequence.yaml": source})
    aid, _, _ = read(root)
    texts = {t.context: t for t in aid.model.messages()}
    assert texts["seq/prep/notes/once"].msgid == "Tylko {num:1} raz na grę." and "seq/prep" not in texts
    ctx, _ = localized(root, "en")
    prep = ctx["phases"][0]
    assert prep["title"] is None and prep["notes_before"]
    assert "Tylko 1 raz na grę." in str(prep["notes"][0]) and "see 18.0" in str(prep["see"])
    from aids.config import read_project
    from aids.pipeline import jobs
    project = read_project(root)
    game = project.read_game("demo")
    html = jobs.render_aid(project, game, aid, making.localizer(project, game, "en"), None, ["html"])
    page = html[".html"].data.decode()
    assert '<span class="num">3.2.1</span> <span class="side">' not in page  # no side declared
    assert 'data-bookmark="3.2.1"' in page and page.index("Tylko\u00a01\u00a0raz") < page.index("Połóż żetony")


@pytest.mark.parametrize("change, message", [
    ("    notes: {a: 1}\n", "games/demo/sequence.yaml:13:12: notes must be a list"),
    ("    notes_position: middle\n", "games/demo/sequence.yaml:13:21: unknown notes_position 'middle' (expected: "
                                   "before, after)"),
    ("    see: [\"nowhere\"]\n", "games/demo/sequence.yaml:13:11: reference to unknown id 'nowhere'"),
])
def test_bad_phase_notes_and_see_are_positioned(tmp_path, change, message):
    source = DEMO_SEQUENCE.replace("    title: Przygotowanie\n", "    title: Przygotowanie\n" + change)
    with pytest.raises(AidsError) as info:
        read(make_project(tmp_path, {"games/demo/sequence.yaml": source}))
    assert str(info.value).startswith(message)


@pytest.mark.parametrize("lang, alone, after_see", [
    ("en", "Chapter\u00a0V", "see chapter\u00a0XIII"),
    ("pl", "Rozdział\u00a0V", "patrz rozdział\u00a0XIII"),
    ("ru", "Глава\u00a0V", "см. главу\u00a0XIII"),
])
def test_chapters_and_roman_rules_are_referenced_per_language(tmp_path, lang, alone, after_see):
    source = DEMO_SEQUENCE.replace("Połóż żetony.", "Połóż żetony ({ref:chapter:V}; {see:chapter:XIII}).")
    source = source.replace('see: ["rule:18.0", "red-move"]', 'see: ["rule:XIII", "rule:7.3.2", "chapter:13"]')
    ctx, _ = localized(make_project(tmp_path, {"games/demo/sequence.yaml": source}), lang)
    place = str(ctx["phases"][0]["steps"][0]["text"])
    assert alone in place and after_see in place
    resolve = str(flat(ctx["phases"][2]["steps"])[0]["see"])
    # in a list after "see", the chapter in the form it takes there: "см. XIII, 7.3.2 и главу 13"
    assert "XIII, 7.3.2" in resolve and after_see.split(" ", 1)[1].replace("XIII", "13") in resolve


@pytest.mark.parametrize("target, message", [
    ("chapter:IIII", "'IIII' in chapter:IIII is not a chapter number (expected: a roman numeral such as V or XIII, "
                     "or a number, e.g. chapter:V)"),
    ("chapter:", "'' in chapter: is not a chapter number"),
    ("rule:XIIV", "malformed rule reference 'rule:XIIV' (expected: rule:<section number>, e.g. rule:18.0, "
                  "rule:7.3.2, rule:XIII)"),
])
def test_an_invalid_numeral_is_refused_where_it_is(tmp_path, target, message):
    source = DEMO_SEQUENCE.replace('see: ["rule:18.0", "red-move"]', f'see: ["{target}"]')
    with pytest.raises(AidsError) as info:
        read(make_project(tmp_path, {"games/demo/sequence.yaml": source}))
    assert str(info.value).startswith(f"games/demo/sequence.yaml:38:15: {message}")


# --- roles, actors, mirrored and repeated steps, numbering (an English source) ----------------------

ROLES_GAME = DEMO_GAME_EN = """\
id: demo
title: Trial game
version: "1"
source_language: en
aids:
  - sequence.yaml
"""

ROLES = """\
kind: sequence
id: seq
title: Turn
numbering: ["1)", "(a)", "I."]
sides:
  - {id: red, name: Reds}
  - {id: blue, name: Blues}
  - {id: phasing, name: phasing player, role: true}
  - {id: non-phasing, name: non-phasing player, role: true}
phases:
  - id: move
    title: Movement
    timing: phasing
    steps:
      - id: march
        actor: phasing
        text: "{side:non-phasing} may react to {q:angle} wheels."
        with: {angle: 45°}
        steps:
          - id: react
            actor: non-phasing
            text: React to the {side:phasing}.
            steps:
              - id: volley
                text: Fire {num:1.5} volleys.
      - id: counter
        mirror_of: move/march
      - id: again
        repeats: [move/march, move/counter]
        other_side: true
"""


def roles_project(tmp_path, source=ROLES):
    return make_project(tmp_path, {"games/demo/game.yaml": ROLES_GAME, "games/demo/sequence.yaml": source})


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_actors_roles_and_a_generated_mirror_with_the_roles_swapped(tmp_path, lang):
    ctx, _ = localized(roles_project(tmp_path), lang)
    march, counter, again = ctx["phases"][0]["steps"]
    assert march["actor"] == "Phasing player:" and counter["actor"] == "Non-phasing player:"
    # {side:...} at the start of a sentence is capitalized; in the mirror it names the other role
    assert "Non-phasing player may react to 45° wheels." in str(march["text"])
    assert "Phasing player may react to 45° wheels." in str(counter["text"])
    assert "React to the phasing player." in str(march["steps"][0]["text"])
    assert "React to the non-phasing player." in str(counter["steps"][0]["text"])
    assert counter["steps"][0]["actor"] == "Phasing player:"
    assert counter["steps"][0]["anchor"] == "move/counter/react"  # generated sub-steps can be referenced
    volley = counter["steps"][0]["steps"][0]
    assert volley["marker"] == "I." and volley["anchor"] == "move/counter/react/volley"
    number = {"en": "1.5", "pl": "1,5", "ru": "1,5"}[lang]
    assert f"Fire {number} volleys." in str(volley["text"])


@pytest.mark.parametrize("lang, timing, repeat", [
    ("en", "alternately, phasing player first", 'Repeat steps<a class="ref" href="#move/march"> 1</a> and'
                                                '<a class="ref" href="#move/counter"> 2</a> for the other side.'),
    ("pl", "na przemian, najpierw phasing player", "Powtórz kroki<a "),
    ("ru", "поочерёдно, сначала phasing player", "Повторите шаги<a "),
])
def test_timing_by_role_and_a_repeated_step(tmp_path, lang, timing, repeat):
    ctx, _ = localized(roles_project(tmp_path), lang)
    phase = ctx["phases"][0]
    assert phase["timing"] == timing  # the role's name untranslated: the demo has no catalog
    assert repeat in str(phase["steps"][2]["text"])


@pytest.mark.parametrize("lang, markers", [("en", ["1)", "(a)", "I."]), ("ru", ["1)", "(а)", "I."])])
def test_numbering_per_level_with_the_language_s_letters(tmp_path, lang, markers):
    ctx, _ = localized(roles_project(tmp_path), lang)
    march = ctx["phases"][0]["steps"][0]
    assert [march["marker"], march["steps"][0]["marker"], march["steps"][0]["steps"][0]["marker"]] == markers


def test_letters_of_the_source_kept_in_every_language_and_in_references(tmp_path):
    source = ROLES.replace('numbering: ["1)", "(a)", "I."]', 'numbering: ["A.", "a)"]\nletters: source')
    source = source.replace("Fire {num:1.5} volleys.", "Fire, then see {ref:move/march/react}.")
    ctx, _ = localized(roles_project(tmp_path, source), "ru")
    march = ctx["phases"][0]["steps"][0]
    assert march["marker"] == "A." and march["steps"][0]["marker"] == "a)"  # Latin in Russian too
    assert "1,\u00a0шаг\u00a0A.a" in str(march["steps"][0]["steps"][0]["text"])


def test_a_mirror_s_texts_are_translated_once(tmp_path):
    aid, _, _ = read(roles_project(tmp_path))
    contexts = [t.context for t in aid.model.messages()]
    assert len(contexts) == len(set(contexts))
    assert "seq/move/march" in contexts and not any(c.startswith("seq/move/counter") for c in contexts)
    march = next(t for t in aid.model.messages() if t.context == "seq/move/march")
    assert "printed again as step 2 of phase move with the sides swapped" in march.comment


@pytest.mark.parametrize("change, message", [
    (("actor: phasing", "actor: attacker"),
     "16:16: unknown actor 'attacker' (expected: red, blue, phasing, non-phasing)"),
    (("timing: phasing", "timing: defender"),
     "13:13: unknown timing 'defender' (expected: simultaneous, alternate, red, blue, phasing, non-phasing)"),
    (("React to the {side:phasing}.", "React to the {side:attacker}."),
     "22:32: unknown side 'attacker' in {side:attacker} (expected: {side:red}, {side:blue}, {side:phasing}, "
     "{side:non-phasing})"),
    (("mirror_of: move/march", "mirror_of: move/march/react/volley\n        text: Own text."),
     "28:9: a mirrored step has no 'text' of its own (expected: only id and mirror_of: its text, actor and "
     "steps are the other step's, sides swapped)"),
    (("mirror_of: move/march", "mirror_of: move"),
     "27:20: 'move' is a phase, not a step (expected: phase-id/step-id (a phase mirrors a phase"),
    (("mirror_of: move/march", "mirror_of: move/nowhere"), "27:20: mirror of unknown step 'move/nowhere'"),
    (("        other_side: true\n", "        other_side: true\n  - id: fire\n    steps:\n      - id: volley\n"
      "        text: Volley.\n        steps:\n          - id: deep\n            mirror_of: move/march\n"),
     "37:24: 'move/march' has 2 level(s) of sub-steps: mirrored at level 2 they would be nested deeper than 3 "
     "levels (expected: a step with at most 1 level(s) of sub-steps, or a mirror placed higher)"),
    (("repeats: [move/march, move/counter]", "repeats: [move/march, move/later]"),
     "29:31: repeat of unknown phase or step 'move/later'"),
    (("repeats: [move/march, move/counter]", "repeats: [move/again]"),
     "29:19: 'move/again' does not come before step 'move/again' (expected: an earlier phase or step"),
    (('numbering: ["1)", "(a)", "I."]', 'numbering: ["1)", "a-"]'),
     "4:19: unknown numbering 'a-' (expected: 1. 1) (1) a. a) (a) A. A) (A) i. i) (i) I. I) (I)"),
    (("{id: phasing, name: phasing player, role: true}", "{id: phasing, name: phasing player, role: yes please}"),
     "8:47: role must be true or false, not 'yes please'"),
    (("{id: phasing, name: phasing player, role: true}", "{id: phasing, name: phasing player, opposite: x}"),
     "8:51: unknown opposite 'x' (expected: red, blue, non-phasing)"),
])
def test_bad_roles_mirrors_repeats_and_numbering_are_positioned(tmp_path, change, message):
    old, new = change
    assert old in ROLES
    with pytest.raises(AidsError) as info:
        read(roles_project(tmp_path, ROLES.replace(old, new)))
    assert f"games/demo/sequence.yaml:{message}" in str(info.value)
