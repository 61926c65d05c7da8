"""The catalog workflow: extract, update (nothing lost), compile; the Babel extractor; GNU's layout and checks."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from aids.config import read_project
from aids.errors import AidsError, Position
from aids.localize import making, po, ui
from aids.localize.catalogs import po_path, pot_path, read_catalog, template_from, update_catalog
from aids.model.text import Text
from aids.pipeline import builder, pipeline
from aids.translating import translations

from ..helpers import DEMO_SEQUENCE, REPO

gettext_tools = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext not installed")
LONG = ("Gracz rosyjski może poruszać wszystkimi jednostkami kawalerii, które nie walczyły w poprzedniej fazie "
        "i nie są w stanie ucieczki.")


def entries(path: Path) -> dict[tuple[str, str], po.Entry]:
    return {po.key(e): e for e in po.entries(read_catalog(path, str(path)))}


def by_context(path: Path) -> dict[str, po.Entry]:
    return {po.key(e)[0]: e for e in po.entries(read_catalog(path, str(path)))}


def extract_update(root, games: list[str] | None = None):
    """`aids extract && aids update` (of `games`, default every game)."""
    project = read_project(root)
    return translations.extract(project, games), translations.update(project, games)


def translate(path: Path, table: dict[str, str]):
    """What a translator does in Poedit: fill msgstr by msgctxt, clear fuzzy, save (in GNU's layout)."""
    catalog = read_catalog(path, str(path))
    for entry in po.entries(catalog):
        if entry.getcontext() in table:
            entry.target = table[entry.getcontext()]
            entry.markfuzzy(False)
            entry.prev_source = None
    po.save(path, catalog)


def msgfmt_check(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)


def texts(*pairs, path="r.md"):
    return template_from([Text(msgid, ctx, "c", Position(path, 1)) for ctx, msgid in pairs], project="t", version="1")


def test_extract_one_message_per_text_with_context_comment_and_file(demo):
    extract_update(demo)
    pot = by_context(pot_path(demo / "i18n", "demo"))
    assert set(pot) >= {"game/title", "seq", "seq/side/red", "seq/prep", "seq/prep/place",
                        "seq/red-move/move/charge/volley", "seq/red-combat/resolve/note", "seq/blue-move"}
    volley = pot["seq/red-move/move/charge/volley"]
    assert volley.source == "Salwa ({see:rule:12.4.4})."
    assert volley.getnotes("developer") == "Step 1.b.ii of phase red-move"
    # the file without the line: msgctxt is the stable id, and a line number would churn every catalog
    assert volley.getlocations() == ["games/demo/sequence.yaml"]
    # target languages only: the source language gets no catalog
    assert po_path(demo / "i18n", "en", "demo").exists() and po_path(demo / "i18n", "ru", "demo").exists()
    assert not po_path(demo / "i18n", "pl", "demo").exists()


def test_catalogs_use_the_right_plural_forms(demo):
    extract_update(demo)
    catalog = read_catalog(po_path(demo / "i18n", "ru", "demo"), "ru.po")
    assert po.nplurals(catalog) == 3
    text = po_path(demo / "i18n", "ru", "demo").read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=3;' in text and '"Language: ru\\n"' in text


def test_rerun_on_unchanged_sources_changes_nothing(demo):
    extract_update(demo)
    before = {p: p.read_bytes() for p in (demo / "i18n").rglob("*.po*")}
    assert extract_update(demo) == ([], [])
    assert {p: p.read_bytes() for p in (demo / "i18n").rglob("*.po*")} == before


def test_update_keeps_translations_through_a_changed_source_string(demo):
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    translate(path, {"seq/prep/place": "Place the counters.", "seq/prep": "Preparation"})
    sequence = demo / "games/demo/sequence.yaml"
    sequence.write_text(DEMO_SEQUENCE.replace("Połóż żetony.", "Połóż wszystkie żetony."), encoding="utf-8")
    extract_update(demo)
    entry = by_context(path)["seq/prep/place"]
    assert entry.source == "Połóż wszystkie żetony."
    assert entry.target == "Place the counters." and entry.isfuzzy()
    assert entry.prev_source == "Połóż żetony." and not entry.prev_msgctxt
    text = path.read_text(encoding="utf-8")
    assert '#| msgid "Połóż żetony."' in text
    # a second update on the unchanged tree keeps the entry, fuzzy with its previous msgid, as it was
    assert extract_update(demo) == ([], [])
    assert path.read_text(encoding="utf-8") == text
    assert by_context(path)["seq/prep"].target == "Preparation"
    # the text changed back: the translation was made for it, so it is good again
    sequence.write_text(DEMO_SEQUENCE, encoding="utf-8")
    extract_update(demo)
    entry = by_context(path)["seq/prep/place"]
    assert entry.target == "Place the counters." and not entry.isfuzzy() and not entry.prev_msgid


@gettext_tools
def test_a_long_changed_sentence_keeps_a_previous_msgid_gnu_tools_read(demo):
    """Before: the `#|` comment of a long msgid was re-wrapped inside a string; msgfmt refused the file,
    and the next update read back a truncated previous msgid."""
    long_source = DEMO_SEQUENCE.replace("Czerwoni się ruszają.", LONG)
    (demo / "games/demo/sequence.yaml").write_text(long_source, encoding="utf-8")
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    translate(path, {"seq/red-move/move": "The Russian player may move all cavalry units that did not fight."})
    (demo / "games/demo/sequence.yaml").write_text(long_source.replace("poprzedniej", "ostatniej"), encoding="utf-8")
    extract_update(demo)
    assert msgfmt_check(path).returncode == 0, msgfmt_check(path).stderr
    assert subprocess.run(["msgcat", str(path)], capture_output=True).returncode == 0
    from translate.storage import pypo
    loaded = {u.getcontext(): u for u in pypo.pofile(path.read_bytes()).units}
    assert loaded["seq/red-move/move"].prev_source == LONG
    assert extract_update(demo) == ([], [])  # the second update reads the previous msgid back whole
    assert by_context(path)["seq/red-move/move"].prev_source == LONG


def test_removed_strings_become_obsolete_not_lost(demo):
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    translate(path, {"seq/blue-move": "Blue movement"})
    source = DEMO_SEQUENCE.split("  - id: blue-move")[0]
    (demo / "games/demo/sequence.yaml").write_text(source, encoding="utf-8")
    extract_update(demo)
    text = path.read_text(encoding="utf-8")
    assert '#~ msgctxt "seq/blue-move"' in text and '#~ msgstr "Blue movement"' in text
    # and it comes back, translated, when the text does
    (demo / "games/demo/sequence.yaml").write_text(DEMO_SEQUENCE, encoding="utf-8")
    extract_update(demo)
    assert by_context(path)["seq/blue-move"].target == "Blue movement"
    assert '#~ msgctxt "seq/blue-move"' not in path.read_text(encoding="utf-8")


def test_a_renamed_id_keeps_its_translation(demo):
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    translate(path, {"seq/prep/place": "Place the counters."})
    (demo / "games/demo/sequence.yaml").write_text(DEMO_SEQUENCE.replace("id: place", "id: set-up"), encoding="utf-8")
    extract_update(demo)
    entry = by_context(path)["seq/prep/set-up"]
    assert entry.target == "Place the counters." and not entry.isfuzzy()
    assert "seq/prep/place" not in path.read_text(encoding="utf-8")  # moved, not obsolete


def comment(path: Path, context: str, lines: list[str], flag: str = "") -> None:
    """What a translator adds to an entry in Poedit: translator comments, a flag."""
    catalog = read_catalog(path, str(path))
    for entry in po.entries(catalog):
        if entry.getcontext() == context:
            entry.othercomments = [f"# {line}\n" for line in lines]
            if flag:
                entry.settypecomment(flag)
    po.save(path, catalog)


@pytest.mark.parametrize("change", ["edited", "renamed"])
def test_a_translators_comments_and_flags_go_with_the_translation(demo, change):
    """As GNU msgmerge: an entry whose text changed or moved keeps what its translator wrote on it, the
    project's own `# aids: ignore` comments included (issue 32: they were lost with a fuzzy match)."""
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    translate(path, {"seq/prep/place": "Place the counters.", "seq/prep": "Preparation"})
    notes = ["aids: ignore terminology (the designer's word)", "checked against the 2nd edition"]
    comment(path, "seq/prep/place", notes, "no-wrap")
    source = DEMO_SEQUENCE
    if "edited" in change:
        source = source.replace("Połóż żetony.", "Połóż wszystkie żetony.")
    if "renamed" in change:
        source = source.replace("id: place", "id: set-up")
    (demo / "games/demo/sequence.yaml").write_text(source, encoding="utf-8")
    extract_update(demo)
    entry = by_context(path)["seq/prep/set-up" if "renamed" in change else "seq/prep/place"]
    assert entry.target == "Place the counters." and entry.isfuzzy() == ("edited" in change)
    assert [c.strip() for c in entry.othercomments] == [f"# {n}" for n in notes]
    assert entry.hastypecomment("no-wrap")
    assert extract_update(demo) == ([], [])  # and the next update changes nothing
    assert not by_context(path)["seq/prep"].othercomments  # nothing spread to other entries


def test_malformed_po_is_reported_with_path_and_line(demo):
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.insert(25, "this is not po syntax")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(AidsError) as info:
        making.localizer(read_project(demo), read_project(demo).read_game("demo"), "en")
    assert str(info.value).startswith("i18n/en/LC_MESSAGES/demo.po:26:1: malformed catalog")


def test_compile_writes_mo_without_fuzzy_entries(demo):
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    translate(path, {"seq/prep": "Preparation"})
    assert "i18n/en/LC_MESSAGES/demo.mo" in translations.compile(read_project(demo))
    import gettext
    with path.with_suffix(".mo").open("rb") as fp:
        mo = gettext.GNUTranslations(fp)
    assert mo.pgettext("seq/prep", "Przygotowanie") == "Preparation"
    assert mo.pgettext("seq/prep/place", "Połóż żetony.") == "Połóż żetony."  # untranslated: left out


def test_compile_refuses_a_catalog_with_faulty_entries(demo, capsys):
    """Before: `aids compile` exited 0 and wrote a lost placeholder into the .mo."""
    from aids.commands.cli import main
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    translate(path, {"seq/red-combat/resolve": "Resolve the counter-charges."})  # {ref:...} lost
    before = path.read_text(encoding="utf-8").split('msgctxt "seq/red-combat/resolve"')[0].rstrip("\n").split("\n")
    line = len(before) - before[::-1].index("") + 1  # where the entry starts: its first comment
    assert main(["--project", str(demo), "compile"]) == 1
    err = capsys.readouterr().err
    assert f"i18n/en/LC_MESSAGES/demo.po:{line}: translation loses {{ref:red-move/move/charge}}" in err
    assert "Traceback" not in err
    assert not path.with_suffix(".mo").exists()


def test_pybabel_extract_with_the_registered_extractor(demo):
    mapping = demo / "babel.cfg"
    mapping.write_text("[aids: **.yaml]\n", encoding="utf-8")
    out = demo / "plain.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", str(mapping),
                    "-o", str(out), "games"], cwd=demo, check=True, capture_output=True)
    extract_update(demo)
    assert set(entries(out)) == set(entries(pot_path(demo / "i18n", "demo")))


def repository_catalogs() -> set[Path]:
    """What the repository's sources call for: each game and aids itself (its UI, ui_domain) a template, and a
    catalog in every language but its source language."""
    project = read_project(REPO)
    assert project.ui_domain
    sources = {ui.DOMAIN: ui.SOURCE_LANGUAGE}
    for game_id in project.game_ids():
        game = project.read_game(game_id)
        assert game.catalogs_per == "game", game_id  # a catalog per aid: its own domains (test_catalogs_per_aid)
        sources[game_id] = game.source_language
    return {pot_path(REPO / "i18n", domain) for domain in sources} | {
        po_path(REPO / "i18n", lang, domain) for domain, source in sources.items() for lang in project.languages
        if lang != source}


@gettext_tools
def test_every_catalog_in_the_repository_passes_msgfmt_check_and_is_in_gnu_layout():
    catalogs = sorted((REPO / "i18n").rglob("*.po")) + sorted((REPO / "i18n").rglob("*.pot"))
    assert set(catalogs) == repository_catalogs()
    for path in catalogs:
        if path.suffix == ".po":
            result = msgfmt_check(path)
            assert result.returncode == 0 and not result.stderr, f"{path}: {result.stderr}"
        gnu = subprocess.run(["msgcat", str(path)], capture_output=True, check=True).stdout
        assert gnu == path.read_bytes(), f"{path} is not what msgcat (and Poedit) would write"


@gettext_tools
def test_msgmerge_changes_nothing_in_any_catalog_of_the_repository(tmp_path):
    """`aids update` writes the header as GNU msgmerge does, so msgmerge after it rewrites no line (10 of the 12
    catalogs once had Babel's header: EMAIL@ADDRESS, charset=utf-8, Babel's order)."""
    catalogs = sorted((REPO / "i18n").glob("*/LC_MESSAGES/*.po"))
    assert set(catalogs) == {path for path in repository_catalogs() if path.suffix == ".po"}
    for path in catalogs:
        merged = tmp_path / path.name
        subprocess.run(["msgmerge", "-q", "--previous", str(path), str(pot_path(REPO / "i18n", path.stem)),
                        "-o", str(merged)], check=True)
        assert merged.read_bytes() == path.read_bytes(), f"msgmerge rewrites {path}"


BABEL_HEADER = """# Translations of the demo.
msgid ""
msgstr ""
"Project-Id-Version: PROJECT VERSION\\n"
"X-Generator: Poedit 3.4\\n"
"Report-Msgid-Bugs-To: EMAIL@ADDRESS\\n"
"POT-Creation-Date: 2020-01-01 00:00+0000\\n"
"PO-Revision-Date: 2020-01-02 00:00+0000\\n"
"Last-Translator: A Translator <a@example.org>\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"Language-Team: English\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Generated-By: Babel 2.18.0\\n"
"X-Poedit-Basepath: .\\n"
"""


@gettext_tools
def test_update_writes_a_babel_header_as_msgmerge_would(demo):
    """Babel's field order, charset name and bug address, and a missing Language: `aids update` gives what
    GNU msgmerge gives, every field another tool wrote kept in its order, so msgmerge then changes nothing; but
    no POT-Creation-Date, which aids' templates have none of (msgmerge then adds none either)."""
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    body = path.read_text(encoding="utf-8").split("\n\n", 1)[1]
    path.write_text(BABEL_HEADER + "\n" + body, encoding="utf-8")
    assert translations.update(read_project(demo)) == ["i18n/en/LC_MESSAGES/demo.po"]
    fields = [line.split(":")[0].strip('"') for line in path.read_text(encoding="utf-8").split("\n\n")[0]
              .splitlines() if line.startswith('"')]
    assert fields == ["Project-Id-Version", "Report-Msgid-Bugs-To", "PO-Revision-Date",
                      "Last-Translator", "Language-Team", "Language", "MIME-Version", "Content-Type",
                      "Content-Transfer-Encoding", "X-Generator", "Plural-Forms", "Generated-By", "X-Poedit-Basepath"]
    head = read_catalog(path, "demo.po").parseheader()
    template = read_catalog(pot_path(demo / "i18n", "demo"), "demo.pot").parseheader()
    assert head["Report-Msgid-Bugs-To"] == "" and head["Content-Type"] == "text/plain; charset=UTF-8"
    assert head["Language"] == "en" and head["Last-Translator"] == "A Translator <a@example.org>"
    assert "POT-Creation-Date" not in head and "POT-Creation-Date" not in template
    merged = demo / "merged.po"
    subprocess.run(["msgmerge", "-q", "--previous", str(path), str(pot_path(demo / "i18n", "demo")), "-o",
                    str(merged)], check=True)
    assert merged.read_bytes() == path.read_bytes()
    assert translations.update(read_project(demo)) == []


@gettext_tools
def test_a_babel_round_trip_of_previous_texts_is_repaired_by_update(demo):
    """Babel reads `#| msgid "..."` as a translator comment and writes it back as `# | msgid "..."`; `aids
    update` makes it a previous text again (what msgfmt, Poedit and Weblate show as the former source)."""
    from babel.messages.pofile import read_po, write_po
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    translate(path, {"seq/red-move/move": "Red moves.", "seq/prep": "Preparation"})
    sequence = demo / "games/demo/sequence.yaml"
    sequence.write_text(DEMO_SEQUENCE.replace("Czerwoni się ruszają.", "Czerwoni ruszają się szybko."),
                        encoding="utf-8")
    extract_update(demo)
    assert '#| msgid "Czerwoni się ruszają."' in path.read_text(encoding="utf-8")
    with path.open("rb") as file:
        babel = read_po(file, locale="en")
    with path.open("wb") as file:
        write_po(file, babel, width=76)
    assert '# | msgid "Czerwoni się ruszają."' in path.read_text(encoding="utf-8")
    translations.update(read_project(demo))
    text = path.read_text(encoding="utf-8")
    assert "# |" not in text and '#| msgid "Czerwoni się ruszają."' in text
    entry = by_context(path)["seq/red-move/move"]
    assert entry.isfuzzy() and entry.target == "Red moves." and entry.prev_source == "Czerwoni się ruszają."
    assert by_context(path)["seq/prep"].target == "Preparation" and not by_context(path)["seq/prep"].othercomments
    assert msgfmt_check(path).returncode == 0
    assert translations.update(read_project(demo)) == []


def test_sample_catalogs_complete_and_in_sync(tmp_path):
    """extract + update on the repository's sources changes nothing; no untranslated or fuzzy entry."""
    root = tmp_path / "copy"
    for name in ("games", "i18n"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
    (root / "aids.yaml").write_text((REPO / "aids.yaml").read_text().replace("ui_domain: true", "ui_domain: false"))
    assert extract_update(root) == ([], [])
    for path in (root / "i18n").rglob("*.po"):
        catalog = read_catalog(path, str(path))
        assert not po.obsolete(catalog), path
        for entry in po.entries(catalog):
            assert po.translated(entry) and not entry.isfuzzy(), f"{path.relative_to(root)}: {po.key(entry)}"


@gettext_tools
def test_sample_catalogs_statistics_from_msgfmt():
    for path in sorted((REPO / "i18n").rglob("*.po")):
        stats = subprocess.run(["msgfmt", "--statistics", "-o", "/dev/null", str(path)],
                               capture_output=True, text=True).stderr
        assert "fuzzy" not in stats and "untranslated" not in stats and "translated messages" in stats, path


def test_an_inserted_paragraph_leaves_every_other_entry_untouched(tmp_path):
    """Before: booklet contexts were positional, so an inserted paragraph renumbered the rest of its section."""
    path = tmp_path / "en.po"
    update_catalog(path, "en.po", texts(("rules/sec", "Pierwszy akapit o ruchu."), ("rules/sec", "Drugi akapit o walce.")),
                   "en")
    catalog = read_catalog(path, "en.po")
    for entry, english in zip(po.entries(catalog), ["First, on movement.", "Second, on combat."]):
        entry.target = english
    po.save(path, catalog)
    before = path.read_text(encoding="utf-8")
    update_catalog(path, "en.po", texts(("rules/sec", "Nowy akapit na początku."), ("rules/sec", "Pierwszy akapit o ruchu."),
                                        ("rules/sec", "Drugi akapit o walce.")), "en")
    after = path.read_text(encoding="utf-8")
    added = '#. c\n#: r.md\nmsgctxt "rules/sec"\nmsgid "Nowy akapit na początku."\nmsgstr ""\n\n'
    assert after.replace(added, "") == before
    got = {key: (entry.target, entry.isfuzzy()) for key, entry in entries(path).items()}
    assert got[("rules/sec", "Pierwszy akapit o ruchu.")] == ("First, on movement.", False)
    assert got[("rules/sec", "Drugi akapit o walce.")] == ("Second, on combat.", False)


def test_a_paragraph_that_comes_back_is_not_both_active_and_obsolete(tmp_path):
    """Before: a text back at an old position was active and obsolete at once, a fatal duplicate for msgfmt."""
    path = tmp_path / "en.po"
    both = texts(("rules/sec", "Akapit A."), ("rules/sec", "Akapit B."))
    update_catalog(path, "en.po", both, "en")
    catalog = read_catalog(path, "en.po")
    for entry in po.entries(catalog):
        entry.target = po.msgid(entry).replace("Akapit", "Paragraph")
    po.save(path, catalog)
    update_catalog(path, "en.po", texts(("rules/sec", "Akapit B.")), "en")
    assert [po.key(e) for e in po.obsolete(read_catalog(path, "en.po"))] == [("rules/sec", "Akapit A.")]
    update_catalog(path, "en.po", both, "en")
    catalog = read_catalog(path, "en.po")
    assert not po.obsolete(catalog)
    assert {po.msgid(e): e.target for e in po.entries(catalog)} == {"Akapit A.": "Paragraph A.",
                                                                    "Akapit B.": "Paragraph B."}


def test_a_changed_paragraph_is_fuzzy_against_the_most_similar_former_text_of_its_section(tmp_path):
    path = tmp_path / "en.po"
    update_catalog(path, "en.po", texts(("rules/sec", "Jednostka porusza się o dwa pola."),
                                        ("rules/sec", "Artyleria strzela raz na turę.")), "en")
    catalog = read_catalog(path, "en.po")
    english = {"Jednostka porusza się o dwa pola.": "A unit moves two hexes.",
               "Artyleria strzela raz na turę.": "Artillery fires once a turn."}
    for entry in po.entries(catalog):
        entry.target = english[po.msgid(entry)]
    po.save(path, catalog)
    update_catalog(path, "en.po", texts(("rules/sec", "Jednostka porusza się o trzy pola."),
                                        ("rules/sec", "Artyleria strzela raz na turę.")), "en")
    entry = entries(path)[("rules/sec", "Jednostka porusza się o trzy pola.")]
    assert entry.isfuzzy() and entry.target == "A unit moves two hexes."
    assert entry.prev_source == "Jednostka porusza się o dwa pola." and not entry.prev_msgctxt
    assert not po.obsolete(read_catalog(path, "en.po"))


def test_a_text_that_was_in_two_places_stays_fuzzy_when_moved(tmp_path):
    path = tmp_path / "en.po"
    update_catalog(path, "en.po", texts(("a/1", "Ogień"), ("b/1", "Ogień")), "en")
    translate(path, {"a/1": "Fire", "b/1": "Fire!"})
    update_catalog(path, "en.po", texts(("c/1", "Ogień")), "en")
    entry = by_context(path)["c/1"]
    assert entry.isfuzzy() and entry.target in ("Fire", "Fire!")


def test_a_duplicated_text_elsewhere_gets_the_translation_as_fuzzy(tmp_path):
    path = tmp_path / "en.po"
    update_catalog(path, "en.po", texts(("a/1", "Ogień")), "en")
    translate(path, {"a/1": "Fire"})
    update_catalog(path, "en.po", texts(("a/1", "Ogień"), ("b/1", "Ogień")), "en")
    got = by_context(path)
    assert got["a/1"].target == "Fire" and not got["a/1"].isfuzzy()
    assert got["b/1"].target == "Fire" and got["b/1"].isfuzzy() and got["b/1"].prev_context == "a/1"


def test_an_obsolete_entry_meeting_an_older_one_keeps_both_translations(tmp_path):
    """A catalog from an older aids may hold a key active and obsolete; neither translation is lost."""
    path = tmp_path / "en.po"
    update_catalog(path, "en.po", texts(("a/1", "Ogień")), "en")
    translate(path, {"a/1": "Fire"})
    path.write_text(path.read_text(encoding="utf-8") + '#~ msgctxt "a/1"\n#~ msgid "Ogień"\n#~ msgstr "Shoot"\n',
                    encoding="utf-8")
    update_catalog(path, "en.po", texts(("b/1", "Woda")), "en")
    catalog = read_catalog(path, "en.po")
    [gone] = po.obsolete(catalog)
    assert gone.target == "Fire" and "earlier translation: Shoot" in gone.getnotes("translator")
    assert msgfmt_check(path).returncode == 0


@gettext_tools
@pytest.mark.parametrize("rewrap", [
    ["msgcat", "--width=79"], ["msgcat", "--no-wrap"], ["msgcat", "--width=40"], "translate-toolkit"])
def test_a_catalog_saved_by_another_tool_ends_in_gnu_layout_with_the_same_entries(demo, rewrap):
    """Before: a save by Poedit, msgcat or Weblate was rewritten by the next update, thousands of lines."""
    extract_update(demo)
    path = po_path(demo / "i18n", "ru", "demo")
    # GNU breaks this before "(", translate-toolkit after it
    translate(path, {"seq/prep/place": "Polskie jednostki, które wykonały odwrót w fazie odwrotu, nie mogą "
                                       "strzelać ({see:rule:13.3.5}).", "seq/prep": "Подготовка"})
    gnu = path.read_bytes()
    if rewrap == "translate-toolkit":
        from translate.storage import pypo
        store = pypo.pofile(gnu, width=77)
        for unit in store.units[1:]:  # Weblate writes every unit it touches in its own wrapping
            target, unit.target = unit.target, ""
            unit.target = target
        path.write_bytes(bytes(store))
    else:
        path.write_bytes(subprocess.run([*rewrap, str(path)], capture_output=True, check=True).stdout)
    assert path.read_bytes() != gnu or rewrap == ["msgcat", "--width=79"]
    saved = entries(path)
    extract_update(demo)
    assert path.read_bytes() == gnu
    assert {k: (e.target, e.isfuzzy()) for k, e in entries(path).items()} == \
        {k: (e.target, e.isfuzzy()) for k, e in saved.items()}


@gettext_tools
def test_adding_one_string_changes_only_its_own_lines(demo):
    """Before: every later `#:` line number shifted, about 170 lines of every catalog."""
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    before = path.read_text(encoding="utf-8").splitlines()
    source = DEMO_SEQUENCE.replace("        text: Połóż żetony.\n",
                                   "        text: Połóż żetony.\n      - id: shuffle\n        text: Potasuj karty.\n")
    (demo / "games/demo/sequence.yaml").write_text(source, encoding="utf-8")
    extract_update(demo)
    added = ('#. Step 2 of phase prep\n#: games/demo/sequence.yaml\nmsgctxt "seq/prep/shuffle"\n'
             'msgid "Potasuj karty."\nmsgstr ""\n\n')
    after = path.read_text(encoding="utf-8")
    assert added in after and after.replace(added, "").splitlines() == before


def test_without_gnu_gettext_catalogs_are_still_valid_and_stable(demo, monkeypatch, capsys):
    from aids.commands.cli import main
    monkeypatch.setattr(po, "msgcat", lambda: None)
    assert main(["--project", str(demo), "extract"]) == 0 and main(["--project", str(demo), "update"]) == 0
    assert "msgcat was not found" in capsys.readouterr().err
    path = po_path(demo / "i18n", "en", "demo")
    translate(path, {"seq/prep/place": "Place the counters."})
    (demo / "games/demo/sequence.yaml").write_text(DEMO_SEQUENCE.replace("Połóż żetony.", "Połóż wszystkie żetony."),
                                                   encoding="utf-8")
    extract_update(demo)
    data = path.read_bytes()
    assert extract_update(demo) == ([], []) and path.read_bytes() == data
    entry = by_context(path)["seq/prep/place"]
    assert entry.isfuzzy() and entry.prev_source == "Połóż żetony." and entry.target == "Place the counters."
    if shutil.which("msgfmt"):
        assert msgfmt_check(path).returncode == 0


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace('msgstr ""\n', 'msgstr "Preparation\n', 1), ":{line}:8: malformed catalog: string not closed"),
    (lambda t: t.replace('msgstr ""\n', 'msgstr Preparation\n', 1), ":{line}:8: malformed catalog: string not quoted"),
    (lambda t: t.replace('msgstr ""\n', 'msgstr "Prep" x\n', 1), ":{line}:8: malformed catalog: text after the closing quote"),
    (lambda t: t.replace('msgstr ""\n', 'msgstr "Prep\\q"\n', 1), ":{line}:8: malformed catalog: unknown escape sequence"),
    (lambda t: t.replace('msgstr ""\n', 'msgstr "Pr\x00ep"\n', 1), ":{line}:11: malformed catalog: control character U+0000"),
    (lambda t: t.replace('msgstr ""\n', 'msgstr "Prep\x07"\n', 1), ":{line}:13: malformed catalog: control character U+0007"),
    (lambda t: t.replace('msgstr ""\n', 'msgstr "Prep\\a"\n', 1), ":{line}:8: malformed catalog: unknown escape sequence"),
    # a lenient reader drops the entry without a word; msgfmt refuses it (at the next entry's msgctxt)
    (lambda t: t.replace('msgstr ""\n', '', 1), ":{next}:1: malformed catalog: msgctxt after msgid"),
])
def test_strings_msgfmt_rejects_are_errors_with_line_and_column(demo, change, message):
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    text = path.read_text(encoding="utf-8")
    start = text.index('msgid "Gra')  # the first entry after the header
    line = text[:text.index('msgstr ""\n', start)].count("\n") + 1
    following = text[:text.index("msgctxt", start)].count("\n")
    path.write_text(text[:start] + change(text[start:]), encoding="utf-8")
    with pytest.raises(AidsError) as info:
        read_catalog(path, "en.po")
    assert str(info.value).startswith("en.po" + message.format(line=line, next=following))


def test_a_second_definition_and_bytes_not_utf8_are_errors(demo):
    extract_update(demo)
    path = po_path(demo / "i18n", "en", "demo")
    text = path.read_text(encoding="utf-8")
    lines = text.count("\n")
    path.write_text(text + '\nmsgctxt "game/title"\nmsgid "Gra próbna"\nmsgstr "Again"\n', encoding="utf-8")
    with pytest.raises(AidsError, match=rf"en.po:{lines + 2}: malformed catalog: duplicate message definition"):
        read_catalog(path, "en.po")
    path.write_bytes(text.encode() + b'\n# Zaj\xeaczkowski\n')
    with pytest.raises(AidsError, match=rf"en.po:{lines + 2}:6: malformed catalog: not UTF-8 text"):
        read_catalog(path, "en.po")


def ui_catalog(tmp_path, monkeypatch, change):
    from aids.localize import ui
    folder = tmp_path / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    text = change((REPO / "i18n/ru/LC_MESSAGES/aids.po").read_text(encoding="utf-8"))
    (folder / "aids.po").write_text(text, encoding="utf-8")
    monkeypatch.setattr(ui, "package_catalogs", lambda: tmp_path)
    ui.load_ui.cache_clear()
    return ui


@pytest.mark.unit
def test_faulty_ui_entries_are_left_out_and_reported(tmp_path, monkeypatch):
    """A translator's slip in the package's own catalog: the English shows, and the build says where."""
    def slip(text):
        assert 'msgstr "Страница %(page)s из %(pages)s"' in text
        return text.replace('msgstr "Страница %(page)s из %(pages)s"', 'msgstr "Страница %(page)s"')
    ui = ui_catalog(tmp_path, monkeypatch, slip)
    try:
        translations, problems = ui.load_ui("ru")
        assert translations.pgettext("page footer; %(page)s and %(pages)s are numbers",
                                     "Page %(page)s of %(pages)s") == "Page %(page)s of %(pages)s"
        assert translations.pgettext("see", "see %(ref)s") == "см. %(ref)s"
        assert [p.message for p in problems] == [
            "translation loses %(pages)s of 'Page %(page)s of %(pages)s': the English is used"]
        assert Path(problems[0].where.path) == tmp_path / "ru/LC_MESSAGES/aids.po"  # a file that exists
        assert problems[0].where.line > 1
    finally:
        ui.load_ui.cache_clear()


def test_a_fuzzy_ui_entry_is_reported_and_fails_strict(tmp_path, monkeypatch, demo):
    """Before: a fuzzy entry of aids.po fell back to English with no report, even under --strict."""
    def fuzzy(text):
        return text.replace('msgctxt "see"\n', '#, fuzzy\nmsgctxt "see"\n', 1)
    ui = ui_catalog(tmp_path, monkeypatch, fuzzy)
    try:
        translations, problems = ui.load_ui("ru")
        assert translations.pgettext("see", "see %(ref)s") == "see %(ref)s"
        assert [p.message for p in problems] == ["'see %(ref)s' is fuzzy: the English is used"]
        extract_update(demo)
        with pytest.raises(AidsError, match=r"ru/LC_MESSAGES/aids.po:\d+: 'see %\(ref\)s' is fuzzy"):
            builder.build(read_project(demo), pipeline.Options(langs=["ru"], formats=["html"], strict=True))
    finally:
        ui.load_ui.cache_clear()


@pytest.mark.unit
def test_empty_plural_form_and_invented_field_are_faults():
    from aids.localize.catalogs import faults
    catalog = po.Catalog(b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                         b'"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && '
                         b'(n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
                         b'#, python-format\nmsgctxt "pts"\nmsgid "%(n)s point"\nmsgid_plural "%(n)s points"\n'
                         b'msgstr[0] "%(n)s \xd0\xbe\xd1\x87\xd0\xba\xd0\xbe"\nmsgstr[1] ""\nmsgstr[2] "%(n)s"\n\n'
                         b'#, python-format\nmsgctxt "page"\nmsgid "Page %(page)s"\nmsgstr "S %(page)s %(foo)s"\n\n'
                         b'#, python-format\nmsgctxt "ok"\nmsgid "ok %(x)s"\nmsgstr "ok %(x)s"\n\n'
                         b'#, python-format\nmsgctxt "pos"\nmsgid "%s of %s"\nmsgstr "%s"\n')
    assert sorted(what for _, what, _ in faults(catalog)) == [
        "'%(n)s point' has 2 of 3 plural forms",
        "positional format placeholders are unbalanced in '%s of %s'",  # Babel's own checker
        "translation invents %(foo)s of 'Page %(page)s'"]


@pytest.mark.unit
def test_the_package_catalogs_hold_every_ui_string_of_the_code():
    """The words of aids itself: what the code and templates ask for is in aids.pot and translated in pl and ru."""
    from aids.localize import ui
    wanted = {po.key(e) for e in po.entries(ui.extract_ui(REPO, "0"))}
    assert wanted == set(entries(REPO / "i18n/templates/aids.pot"))
    for lang in ("pl", "ru"):
        catalog = read_catalog(po_path(REPO / "i18n", lang, "aids"), lang)
        assert not po.obsolete(catalog)
        assert {po.key(e) for e in po.entries(catalog) if po.translated(e) and not e.isfuzzy()} == wanted, lang


@pytest.mark.unit
def test_lints_quick_verdict_is_its_line_by_line_account():
    """`po.lint` takes a catalog its quick pass finds clean (`_clean`) without the account of each line
    (`_account`): on a catalog of the samples and on a hundred copies broken at random (a quote, a backslash, a
    keyword, a control character, a line end, a #~ or #| mark added), the quick pass finds a catalog clean exactly
    when the account finds no problem in it."""
    import random
    rng = random.Random(47)
    original = (REPO / "i18n/en/LC_MESSAGES/gcacw.po").read_bytes()
    pieces = [b'"', b"\\", b"\\q", b"\n", b"\r", b"x", b"#", b"#~ ", b"#| ", b"msgid ", b"msgstr[1] ", b"\x01",
              b"\xff", b"\xe2\x80\xae", b"  ", b""]
    verdicts = []
    ends = [b'msgctxt "x"\n', b'msgctxt "x"\nmsgid "y"\n', b'msgid "y"\nmsgid_plural "z"\n', b'msgstr "y"\n',
            b'#| msgid "y"\n', b'#~ msgid "y"\n#~ msgstr "z"\r\n']  # an entry left without its msgstr, or not
    for n in range(150):
        data = bytearray(original + (ends[n] if n < len(ends) else b""))
        for _ in range(n % 3):  # a third of them left whole; the edits of some others leave it valid
            at = rng.randrange(len(data))
            data[at:at + rng.randint(0, 2)] = rng.choice(pieces)
        account = po._account(bytes(data), "x.po")
        assert po._clean(bytes(data)) == (not account), (n, account[:2])
        verdicts.append(not account)
    assert verdicts.count(True) > 50 and verdicts.count(False) > 40  # both verdicts, many times
