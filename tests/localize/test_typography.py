"""The typography of each language, applied at render time to plain text as translators type it."""
import pytest

from aids.localize.rich import Link, Rich, Span
from aids.localize.typography import NBSP, typeset, typeset_rich, typeset_tree

pytestmark = pytest.mark.unit

_ = NBSP


@pytest.mark.parametrize("lang, typed, wanted", [
    # Polish one-letter words never end a line
    ("pl", "Ruch w lesie i na drodze", f"Ruch w{_}lesie i{_}na drodze"),
    ("pl", "Wojsko a także konnica (w ataku)", f"Wojsko a{_}także konnica (w{_}ataku)"),
    # Russian short prepositions and conjunctions
    ("ru", "Отряд в лесу и у реки", f"Отряд в{_}лесу и{_}у{_}реки"),
    ("en", "a unit in a wood", "a unit in a wood"),  # English has no such rule
    # a number and its unit or abbreviation; a word and its number; the groups of a number
    ("pl", "ruch o 3 cm, 16 000 ludzi, 5 pkt. za cel", f"ruch o{_}3{_}cm, 16{_}000{_}ludzi, 5{_}pkt. za cel"),
    ("pl", "krok 3, potem zasada 7.3.2", f"krok{_}3, potem zasada{_}7.3.2"),
    # a number and what it counts never part
    ("pl", "dodatkowy ruch o 2 pola", f"dodatkowy ruch o{_}2{_}pola"),
    ("en", "a move of 2 spaces, ½ move", f"a move of{_}2{_}spaces, ½{_}move"),
    ("ru", "на 2 поля", f"на{_}2{_}поля"),
    ("ru", "(см. 4.3.3) в 1809 г.", f"(см.{_}4.3.3) в{_}1809{_}г."),
    ("en", "Step 2.c, p. 12 (see XIII)", f"Step{_}2.c, p.{_}12 (see{_}XIII)"),
    ("pl", "„10 GA”", f"„10{_}GA”"),
    ("en", "„10 GA”", f"“10{_}GA”"),
    # a date typed in a text stays on one line
    ("pl", "Ostrołęka 26 maja 1831", f"Ostrołęka 26{_}maja{_}1831"),
    ("en", "on 26 May 1831 or May 26, 1831", f"on{_}26{_}May{_}1831{_}or May{_}26, 1831"),
    # dashes between clauses: Russian em dash; no line starts with a dash
    ("ru", "Это - тест – и всё", f"Это{_}— тест{_}— и{_}всё"),
    ("pl", "Tak - i nie", f"Tak{_}– i{_}nie"),
    ("ru", "1–3 км", f"1–3{_}км"),
    # quotation marks of the language, nested
    ("pl", 'Rozkaz "Naprzód "teraz" już"', "Rozkaz „Naprzód «teraz» już”"),
    ("ru", 'Приказ "Вперёд "сейчас" же"', "Приказ «Вперёд „сейчас“ же»"),
    ("ru", "Приказ «Вперёд «сейчас» же»", "Приказ «Вперёд „сейчас“ же»"),
    ("en", 'The "Hold \'em" order', "The “Hold ‘em” order"),
    # apostrophes; inches stay
    ("en", "the players' turn, don't", "the players’ turn, don’t"),
    ("en", 'a 12" ruler', f'a{_}12" ruler'),
])
def test_rules_of_each_language(lang, typed, wanted):
    assert typeset(typed, lang) == wanted


@pytest.mark.parametrize("lang, typed, wanted", [
    # a language aids has no rule of its own for: CLDR's quotation marks, nested (ICU's data), typed straight or not
    ("de", 'Der Befehl "Vorwärts "jetzt" sofort"', "Der Befehl „Vorwärts ‚jetzt‘ sofort“"),
    ("de", "Der Befehl „Vorwärts“", "Der Befehl „Vorwärts“"),
    ("fr", 'L\'ordre "En avant "vite" là"', "L’ordre «En avant «vite» là»"),
    ("cs", 'Rozkaz "Vpřed "hned" teď"', "Rozkaz „Vpřed ‚hned‘ teď“"),
    ("it", 'L\'ordine "Avanti "ora" qui"', "L’ordine «Avanti “ora” qui»"),
    # the region's own where CLDR has one: Portugal's «…» against Brazil's “…”
    ("pt-PT", 'A ordem "Avançar"', "A ordem «Avançar»"),
    ("pt", 'A ordem "Avançar"', "A ordem “Avançar”"),
])
def test_a_fourth_language_gets_its_own_quotation_marks(lang, typed, wanted):
    assert typeset(typed, lang) == wanted


def test_a_rule_applies_across_runs_and_links_keep_their_bounds():
    ref = Link(Rich([Span("3.2.3 Krok 2.c")]), "step-3-2-3-2c")
    text = Rich([Span("Ruch w "), Span("lesie", em=True), Span(" (patrz "), ref, Span(").")])
    done = typeset_rich(text, "pl")
    assert done.plain() == f"Ruch w{_}lesie (patrz{_}3.2.3{_}Krok{_}2.c)."
    assert [type(p) for p in done] == [Span, Span, Span, Link, Span]
    assert done[1].em and done[3].href == "step-3-2-3-2c"


def test_a_long_reference_may_still_break_inside():
    ref = Link(Rich([Span("Rule 7.3.2 The Very Long Title of a Rule")]), "r")
    done = typeset_rich(Rich([Span("see "), ref]), "en")
    assert done.plain() == f"see{_}Rule{_}7.3.2{_}The Very Long Title of a Rule"


def test_typeset_tree_keeps_names_and_marked_texts():
    from aids.localize.localizer import draft_text
    marked = draft_text("w lesie", "ctx")
    tree = {"id": "a-b", "kind": "table", "text": "w lesie", "items": [marked, Rich([Span("i tak")])]}
    done = typeset_tree(tree, "pl")
    assert done["id"] == "a-b" and done["text"] == f"w{_}lesie"
    assert type(done["items"][0]) is type(marked) and done["items"][0].context == "ctx"
    assert done["items"][1].plain() == f"i{_}tak"


def test_the_date_style_of_english_is_chosen_in_aids_yaml(tmp_path):
    import datetime as dt

    from aids.config import read_project
    from aids.errors import AidsError
    from aids.localize.making import localizer

    from ..helpers import make_project
    day = dt.date(1831, 5, 26)
    root = make_project(tmp_path)
    project = read_project(root)
    assert localizer(project, project.read_game("demo"), "en").date(day) == f"26{_}May{_}1831"  # en-GB by default
    (root / "aids.yaml").write_text("languages: [pl, en, ru]\ndate_style: {en: en-US}\n")
    project = read_project(root)
    assert localizer(project, project.read_game("demo"), "en").date(day) == f"May{_}26,{_}1831"
    (root / "aids.yaml").write_text("languages: [pl, en, ru]\ndate_style: {en: pl-PL, ru: xx}\n")
    with pytest.raises(AidsError) as info:
        read_project(root)
    assert "aids.yaml:2:18: date style 'pl-PL' is not a locale of 'en' (expected: en-XX, e.g. en-GB for en)" in str(info.value)
    assert "aids.yaml:2:29: unknown date style 'xx'" in str(info.value)
