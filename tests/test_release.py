"""`aids release` and `aids changes`, and the marks a build prints: a demonstration project (aids init) released,
then edited as a designer and a translator would (a step reworded, one added, one removed, one moved into
another phase, a table value changed and a row moved, a phase title retranslated in Polish only)."""
import json
import re
import shutil

import pytest

from aids.config import read_project
from aids.localize.catalogs import po_path
from aids.model.release import compare, from_data
from aids.releases import release
from aids.source.yamlfile import load_yaml

from .helpers import REPO, edit, pdf_text, reissue_demo, run

GAME = "mill-skirmish"


def marked(html: str) -> tuple[list[str], list[str]]:
    """The ids a page marks as changed, and those it marks where something was removed."""
    start = '<style>\n:root { --change:'
    style = html.split(start, 1)[1].split("</style>", 1)[0] if start in html else ""
    def ids(rule: str) -> list[str]:
        return [re.sub(r"\\([0-9a-f]+) ", lambda m: chr(int(m.group(1), 16)), s.strip()[1:])
                for s in rule.split(",")]
    changed = re.search(r"^(#[^{\n]*?) \{\n(?:  color: var\(--change\);\n)?\}", style, re.M)  # the first rule
    removed = re.findall(r"^(#[^{\n]*?) \{ border-(?:top|bottom): 1pt dashed", style, re.M)
    return (ids(changed.group(1)) if changed else []), [i for rule in removed for i in ids(rule)]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("release") / "demo"
    assert run("init", root)[0] == 0
    code, out, err = run("--project", root, "release", "1.0", "--date", "2026-01-10")
    assert code == 0, err
    assert out.splitlines() == [f"wrote games/{GAME}/releases/1.0.yaml", f"wrote games/{GAME}/game.yaml",
                                f"wrote games/{GAME}/releases/1.0/ (its snapshot)"]
    return root


def test_a_release_records_the_state_and_sets_the_version(demo):
    game = load_yaml((demo / "games" / GAME / "game.yaml").read_text(), demo / "game.yaml", "game.yaml").data
    assert (game["version"], str(game["published"])) == ("1.0", "2026-01-10")
    assert "# yaml-language-server" in (demo / "games" / GAME / "game.yaml").read_text()  # comments kept
    recorded = (demo / "games" / GAME / "releases" / "1.0.yaml").read_text(encoding="utf-8")
    assert "key: sequence-of-play/combat/fire" in recorded and "Faza walki" in recorded  # texts and translations
    assert run("--project", demo, "changes")[1].endswith("No changes.\n")


def test_a_release_is_never_rewritten_nor_put_before_another(demo):
    code, _, err = run("--project", demo, "release", "1.0")
    assert code == 1 and "release 1.0 is already recorded" in err and "Traceback" not in err
    code, _, err = run("--project", demo, "release", "0.9")
    assert code == 1 and "release 0.9 would come before 1.0" in err


def test_a_release_is_refused_while_a_catalog_has_errors(tmp_path):
    root = tmp_path / "demo"
    run("init", root)
    catalog = po_path(root / "i18n", "pl", GAME)
    edit(catalog, 'msgstr "Faza walki"', 'msgstr "Faza walki {num:1}"')  # a placeholder the source has not
    code, _, err = run("--project", root, "release", "1.0")
    assert code == 1 and "not released:" in err and f"i18n/pl/LC_MESSAGES/{GAME}.po:" in err
    assert not (root / "games" / GAME / "releases").exists()


@pytest.fixture(scope="module")
def edited(demo, tmp_path_factory):
    root = tmp_path_factory.mktemp("edited") / "demo"
    shutil.copytree(demo, root)
    folder = root / "games" / GAME
    reissue_demo(folder)
    edit(folder / "terrain.yaml", '''  - {id: hill, label: Hill, cells: [2, -1]}
  - {id: town, label: Town, cells: [1, -3]}''', '''  - {id: town, label: Town, cells: [1, -3]}
  - {id: hill, label: Hill, cells: [2, -1]}''')
    edit(po_path(root / "i18n", "pl", GAME), 'msgstr "Faza walki"', 'msgstr "Faza starcia"')
    code, _, err = run("--project", root, "build", "--jobs", "1")
    assert code == 0, err
    return root


def test_changes_names_exactly_what_changed(edited):
    code, out, err = run("--project", edited, "changes", "--format", "json")
    assert code == 0, err
    found = {(c["aid"], c["what"], c["key"], tuple(c.get("languages", ()))) for c in json.loads(out)[0]["changes"]}
    assert found == {
        ("sequence-of-play", "translation", "sequence-of-play/combat", ("pl",)),
        ("sequence-of-play", "changed", "sequence-of-play/combat/fire", ()),
        ("sequence-of-play", "added", "sequence-of-play/end-of-turn/rally", ()),
        ("sequence-of-play", "removed", "sequence-of-play/command/orders", ()),
        ("terrain", "changed", "terrain/woods", ()),
        ("terrain", "moved", "terrain/hill", ()),
    }
    # the reworded and the new step are not translated yet; the moved row and the changed value need nothing
    waiting = {c["key"]: c.get("awaiting_translation") for c in json.loads(out)[0]["changes"]}
    assert waiting["sequence-of-play/combat/fire"] == waiting["sequence-of-play/end-of-turn/rally"] == ["pl", "ru"]
    assert waiting["terrain/woods"] is None and waiting["terrain/hill"] is None
    code, notes, _ = run("--project", edited, "changes")
    notes = notes.replace("\xa0", " ")  # numbers printed as on the page: "step" and its number kept together
    assert "## Sequence of play" in notes and "- removed: [sequence-of-play/command/orders]" in notes
    assert "- changed: [3, step 1](sequence-of-play.html#combat/fire): Each unit with a fire order fires at one " \
           "enemy unit in range and in sight. (awaiting translation: pl, ru)" in notes
    assert "- translation [pl]: [3](sequence-of-play.html#combat): Combat phase" in notes


def test_changes_prints_the_numbers_and_texts_of_a_language(edited):
    """`aids changes --lang` names each change by its number as printed in that language ("3, krok 1"), as the
    changelog of the site and the booklet do, with its text and the aid's title in that language; it lists the
    corrected translations of that language only. The key stays in JSON, for scripts."""
    code, notes, err = run("--project", edited, "changes", "--lang", "pl")
    assert code == 0, err
    notes = notes.replace("\xa0", " ")
    assert "- added: [4, krok 1](sequence-of-play.html#end-of-turn/rally): Each unit out of contact may rally." \
        in notes  # untranslated yet: its source text, as the page prints it
    assert "- translation [pl]: [3](sequence-of-play.html#combat): Faza starcia" in notes
    assert "- moved: [terrain/hill](terrain.html#terrain/hill): Wzgórze" in notes
    notes = run("--project", edited, "changes", "--lang", "ru")[1].replace("\xa0", " ")
    assert "- changed: [3, шаг 1](sequence-of-play.html#combat/fire)" in notes and "translation [pl]" not in notes
    assert "- moved: [terrain/hill](terrain.html#terrain/hill): Холм" in notes and "## Влияние местности" in notes
    code, out, _ = run("--project", edited, "changes", "--lang", "pl", "--format", "json")
    changes = {c["key"]: c for c in json.loads(out)[0]["changes"]}
    assert json.loads(out)[0]["lang"] == "pl"
    assert (changes["sequence-of-play/combat/fire"]["number"], changes["sequence-of-play/combat"]["text"]) == \
        ("3,\xa0krok\xa01", "Faza starcia")
    assert run("--project", edited, "changes", "--lang", "xx")[2].strip() == \
        "command line: unknown language 'xx' (expected: pl, en, ru)"


def test_each_page_marks_exactly_the_changed_items_in_its_language(edited):
    output = edited / "build" / GAME
    for lang in ("pl", "en", "ru"):
        changed, removed = marked((output / lang / "sequence-of-play.html").read_text(encoding="utf-8"))
        # the retranslated phase title is marked in Polish alone; the step before the removed one, below
        assert changed == (["combat"] if lang == "pl" else []) + ["combat/fire", "end-of-turn/rally"], lang
        assert removed == ["command/initiative"]
        # the playsheet and the booklet embed the table: its changed and moved rows are marked there too
        for aid in ("playsheet", "rules"):
            changed, _ = marked((output / lang / f"{aid}.html").read_text(encoding="utf-8"))
            assert {"terrain/woods", "terrain/hill"} <= set(changed), (aid, lang)
        # the card embeds none of it
        assert marked((output / lang / "referee-card.html").read_text(encoding="utf-8")) == ([], [])


def test_the_pdf_of_every_language_says_what_its_marks_mean(edited):
    legends = {"pl": "Zmiany od wersji 1.0 są oznaczone kreską na marginesie.",
               "en": "Changes since version 1.0 are marked with a bar in the margin.",
               "ru": "Изменения по сравнению с версией 1.0 отмечены чертой на полях."}
    for lang, legend in legends.items():
        text = " ".join(pdf_text(edited / "build" / GAME / lang / "sequence-of-play.pdf").split())
        assert legend.replace(" ", "") in text.replace(" ", ""), lang


def test_marks_none_prints_no_marks(edited, tmp_path):
    root = tmp_path / "demo"
    shutil.copytree(edited, root)
    assert run("--project", root, "build", "--jobs", "1", "--marks", "none", "--format", "html")[0] == 0
    page = (root / "build" / GAME / "pl" / "sequence-of-play.html").read_text(encoding="utf-8")
    assert "changes-legend" not in page and marked(page) == ([], [])


@pytest.mark.parametrize("game_id", read_project(REPO).game_ids())  # every game of the samples
def test_a_release_of_a_sample_reproduces_it(game_id):
    """What `aids release` would write for a sample, read back, shows no change: a build since it marks nothing."""
    project = read_project(REPO)
    game = project.read_game(game_id)
    now = release.state(project, game)
    written = load_yaml(release.dump(now), game.source.path, "release.yaml").data
    assert compare(from_data(written), now) == []
    assert sum(len(state.items) for state in now.aids.values()) > 10


def test_the_booklet_prints_the_changelog_in_its_language(edited):
    """Every change of the game, grouped by aid, in the booklet's language; a retranslation in Polish alone."""
    words = {"pl": ("Zmiany od wersji 1.0", "nowe:", "zmienione:", "przeniesione:", "usunięte:", "Wpływ terenu"),
             "en": ("Changes since version 1.0", "new:", "changed:", "moved:", "removed:", "Terrain effects"),
             "ru": ("Изменения по сравнению с версией 1.0", "новое:", "изменено:", "перенесено:", "удалено:",
                    "Влияние местности")}
    for lang, expected in words.items():
        text = " ".join(pdf_text(edited / "build" / GAME / lang / "rules.pdf").split())
        log = text[text.index(expected[0] + " "):]
        for word in expected:
            assert word in log, (lang, word)
        assert log.count(expected[1]) == 1 and log.count(expected[2]) == 2 and log.count(expected[4]) == 1, lang
        assert ("poprawione tłumaczenie: 3 Faza starcia" in log) == (lang == "pl")
        # each change by its number as the sequence prints it in this language: the reworded step 3.1, the new 4.1
        step = {"pl": "{}, krok 1", "en": "{}, step 1", "ru": "{}, шаг 1"}[lang]
        assert f"{expected[2]} {step.format(3)} " in log and f"{expected[1]} {step.format(4)} " in log, lang
        awaiting = {"pl": "(czeka na tłumaczenie)", "en": "(awaiting translation)", "ru": "(ожидает перевода)"}
        assert log.count(awaiting[lang]) == (0 if lang == "en" else 2), lang  # the reworded step, the new one
    page = (edited / "build" / GAME / "en" / "rules.html").read_text(encoding="utf-8")
    # linked where it is printed in the booklet (the table it embeds), not where it is not (the sequence)
    assert '<a href="#terrain/woods">Woods: Movement cost → 3; Fire modifier → \u22122</a>' in page  # as it reads
    assert '</span> Each unit out of contact may rally.' in page


def test_the_game_page_lists_the_changes_linked_to_their_place(edited):
    page = (edited / "build" / GAME / "ru" / "index.html").read_text(encoding="utf-8").replace("\xa0", " ")
    log = page[page.index('<section class="site-changes">'):]
    assert '<h2 id="changelog">Изменения по сравнению с версией 1.0</h2>' in log
    assert '<a href="sequence-of-play.html#end-of-turn/rally">' in log  # into the aid's page
    assert "(ожидает перевода)" in log and "исправлен перевод" not in log  # the Polish retranslation: not here
    assert "Changes since" not in (edited / "build" / GAME / "en" / "index.html").read_text().split("<main>")[0]


def test_an_item_citing_a_changed_one_is_marked(demo, tmp_path):
    root = tmp_path / "demo"
    shutil.copytree(demo, root)
    edit(root / "games" / GAME / "sequence.yaml", "paying the cost of the terrain they enter.",
         "paying the cost of each hex they enter.")
    assert run("--project", root, "build", "--jobs", "1", "--format", "html", "--lang", "en")[0] == 0
    changed, _ = marked((root / "build" / GAME / "en" / "sequence-of-play.html").read_text(encoding="utf-8"))
    # the step itself, its mirror for the other player (the same text), and the step whose note cites it
    assert {"movement/move", "combat/losses"} <= set(changed) and "combat/fire" not in changed


def test_a_card_marks_its_changed_item_in_its_page(demo, tmp_path):
    root = tmp_path / "demo"
    shutil.copytree(demo, root)
    edit(root / "games" / GAME / "referee-card.yaml", "Woods and towns block the line of sight; hills do not.",
         "Woods and towns block the line of sight; hills block it too.")
    assert run("--project", root, "build", "--jobs", "1", "--lang", "en")[0] == 0
    page = (root / "build" / GAME / "en" / "referee-card.html").read_text(encoding="utf-8")
    assert marked(page) == (["reminders-sight"], []) and 'id="reminders-sight"' in page
    # its PDF (ReportLab) draws the bar in the change colour on the front, where the item is; the back has none
    from pypdf import PdfReader

    from aids.render.colours import rgb
    stroke = " ".join(f"{int(rgb('change')[i:i + 2], 16) / 255:.6f}".lstrip("0") for i in (1, 3, 5)) + " RG\n2.5 w"
    front, back = (p.get_contents().get_data().decode("latin-1")
                   for p in PdfReader(root / "build" / GAME / "en" / "referee-card.pdf").pages)
    assert stroke in front and stroke not in back


@pytest.mark.unit
def test_a_step_citing_a_changed_rule_of_the_booklet_is_marked():
    from aids.kinds.reading import read_aids
    from aids.model.release import CHANGED, Change
    from aids.pipeline.pipeline import citing
    project = read_project(REPO)
    aids, _ = read_aids(project, project.read_game("gcacw"))
    sequence, booklet = (next(a for a in aids if a.model.id == name) for name in ("sequence-of-play", "system-rules"))
    rule = booklet.kind.targets(booklet.model)["rule:4.1"]
    change = Change("system-rules", CHANGED, f"system-rules/{rule}", rule, ("...",))
    cited = citing(sequence, aids, [change], "ru")
    assert cited and all("rule:4.1" in sequence.kind.citations(sequence.model)[a] for a in cited)
    assert citing(sequence, aids, [Change("system-rules", CHANGED, "x", rule, (), ("pl",))], "ru") == []


def test_stats_names_the_changed_items_awaiting_translation(edited):
    code, out, _ = run("--project", edited, "stats", "--format", "json")
    waiting = {(w["lang"], w["since"]): w["keys"] for w in json.loads(out)["changed_untranslated"]}
    assert waiting == {(lang, "1.0"): ["sequence-of-play/combat/fire", "sequence-of-play/end-of-turn/rally"]
                       for lang in ("pl", "ru")}
    code, out, _ = run("--project", edited, "stats", "--lang", "ru")
    assert f"{GAME} ru: 2 item(s) new or changed since 1.0 await translation: sequence-of-play/combat/fire" in out


def test_a_rule_inserted_before_others_renumbers_them_without_changing_them(demo, tmp_path):
    """A new section 1.1 makes "Units" 1.2 and so on: it alone is new; the rules after it are not changed."""
    root = tmp_path / "demo"
    shutil.copytree(demo, root)
    edit(root / "games" / GAME / "rules" / "introduction.md", "## Units {#units}",
         "## Scale {#scale}\n\nEach hex is 100 metres across; each turn is ten minutes.\n\n## Units {#units}")
    code, out, err = run("--project", root, "changes", "--format", "json")
    assert code == 0, err
    assert [(c["what"], c["key"]) for c in json.loads(out)[0]["changes"]] == [("added", "rules/scale")]
    assert run("--project", root, "build", "--jobs", "1", "--format", "html", "--lang", "en")[0] == 0
    page = (root / "build" / GAME / "en" / "rules.html").read_text(encoding="utf-8")
    assert marked(page) == (["scale"], []) and '<span class="num">1.2</span> Units' in page


def test_the_game_chooses_the_colour_of_its_marks(edited, tmp_path):
    root = tmp_path / "demo"
    shutil.copytree(edited, root)
    game = root / "games" / GAME / "game.yaml"
    edit(game, "source_language: en\n", "source_language: en\nchange_colour: [0, 1, 1, 0]   # red\n")
    code, _, err = run("--project", root, "build", "--jobs", "1", "--format", "html", "--lang", "en", "--marks", "both")
    assert code == 0, err
    page = (root / "build" / GAME / "en" / "sequence-of-play.html").read_text(encoding="utf-8")
    assert "<style>\n:root { --change: #ff0000; }" in page and "color: var(--change);" in page
    assert "marked with a bar in the margin and underlined." in page
    edit(game, "change_colour: [0, 1, 1, 0]", "change_colour: [0, 1, 1]")
    code, _, err = run("--project", root, "build", "--jobs", "1", "--format", "html")
    assert code == 1 and f"games/{GAME}/game.yaml:" in err and "(expected: four numbers from 0 to 1" in err
