"""The phase-sequence model: numbering, lettering per language, mirrors, references, bad input."""
import pytest

from aids.errors import AidsError

from ..helpers import DEMO_SEQUENCE, localized_demo, make_project, read_demo

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
    assert f'<a class="ref" href="#red-move/move/charge">{ref}</a>' in resolve["text"]
    volley = next(s for s in steps if s["anchor"] == "red-move/move/charge/volley")
    assert see in volley["text"]
    assert "18.0" in resolve["see"] and 'href="#red-move">3.2.2</a>' in resolve["see"]


def test_mirror_generates_title_number_and_swapped_side(demo):
    ctx, _ = localized(demo, "en")
    mirror = ctx["phases"][3]
    assert mirror["steps"] == []
    assert "“Ruch czerwonych”" in mirror["mirror"] and 'href="#red-move">3.2.2</a>' in mirror["mirror"]
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
    assert "games/demo/sequence.yaml:15:9: unknown field 'txt' in step (expected: id, text, note, see, steps)" in message


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
    ("pl", "Obrót o 45,5°", "26 maja 1831"), ("en", "Obrót o 45.5°", "May 26, 1831"), ("ru", "Obrót o 45,5°", "26 мая 1831"),
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
    ("{q:radius}", "unknown placeholder '{q:radius}' (expected: {ref:target}, {see:target}, {num:number} or "
                   "{date:YYYY-MM-DD})"),
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
    from aids import pipeline
    from aids.config import read_project
    project = read_project(root)
    game = project.read_game("demo")
    html = pipeline.render_aid(project, game, aid, pipeline.localizer(project, game, "en"), None, ["html"])
    page = html[".html"].data.decode()
    assert '<span class="num">3.2.1</span> <span class="side">' not in page  # no side declared
    assert 'data-bookmark="3.2.1"' in page and page.index("Tylko 1 raz") < page.index("Połóż żetony")


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
