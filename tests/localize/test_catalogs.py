"""The catalog workflow: extract, update (nothing lost), compile; the Babel extractor; repo catalogs valid."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from aids import pipeline
from aids.config import read_project
from aids.errors import AidsError
from aids.localize.catalogs import po_path, pot_path, read_catalog, save_catalog

from ..helpers import DEMO_SEQUENCE, REPO


def catalog(path: Path):
    return read_catalog(path, str(path))


def extract_update(root):
    project = read_project(root)
    return pipeline.extract(project), pipeline.update(project)


def translate(po: Path, table: dict[str, str], lang: str):
    cat = read_catalog(po, str(po), lang)
    for m in cat:
        if m.id and m.context in table:
            m.string = table[m.context]
    save_catalog(po, cat)


def test_extract_one_message_per_text_with_context_comment_and_line(demo):
    extract_update(demo)
    pot = catalog(pot_path(demo / "i18n", "demo"))
    by_ctx = {m.context: m for m in pot if m.id}
    assert set(by_ctx) >= {"game/title", "seq", "seq/side/red", "seq/prep", "seq/prep/place",
                           "seq/red-move/move/charge/volley", "seq/red-combat/resolve/note", "seq/blue-move"}
    volley = by_ctx["seq/red-move/move/charge/volley"]
    assert volley.id == "Salwa ({see:rule:12.4.4})."
    assert volley.auto_comments == ["Step 1.b.ii of phase red-move"]
    assert volley.locations == [("games/demo/sequence.yaml", 31)]
    # target languages only: the source language gets no catalog
    assert po_path(demo / "i18n", "en", "demo").exists() and po_path(demo / "i18n", "ru", "demo").exists()
    assert not po_path(demo / "i18n", "pl", "demo").exists()


def test_catalogs_use_the_right_plural_forms(demo):
    extract_update(demo)
    assert catalog(po_path(demo / "i18n", "ru", "demo")).num_plurals == 3
    text = po_path(demo / "i18n", "ru", "demo").read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=3;' in text


def test_rerun_on_unchanged_sources_changes_nothing(demo):
    extract_update(demo)
    before = {p: p.read_bytes() for p in (demo / "i18n").rglob("*.po*")}
    assert extract_update(demo) == ([], [])
    assert {p: p.read_bytes() for p in (demo / "i18n").rglob("*.po*")} == before


def test_update_keeps_translations_through_a_changed_source_string(demo):
    extract_update(demo)
    po = po_path(demo / "i18n", "en", "demo")
    translate(po, {"seq/prep/place": "Place the counters.", "seq/prep": "Preparation"}, "en")
    sequence = demo / "games/demo/sequence.yaml"
    sequence.write_text(DEMO_SEQUENCE.replace("Połóż żetony.", "Połóż wszystkie żetony.")
                        .replace("      - id: place\n        text: Połóż żetony.\n", "      - id: place\n        text: Połóż wszystkie żetony.\n")
                        .replace("    title: Przygotowanie\n", "    title: Przygotowanie\n", 1), encoding="utf-8")
    extract_update(demo)
    entry = next(m for m in catalog(po) if m.context == "seq/prep/place")
    assert entry.id == "Połóż wszystkie żetony."
    assert entry.string == "Place the counters." and entry.fuzzy
    assert entry.previous_id == ["Połóż żetony."]
    text = po.read_text(encoding="utf-8")
    assert "#| msgid \"Połóż żetony.\"" in text
    # a second update on the unchanged tree keeps the entry, fuzzy with its previous msgid, as it was
    assert extract_update(demo) == ([], [])
    assert po.read_text(encoding="utf-8") == text
    assert next(m for m in catalog(po) if m.context == "seq/prep").string == "Preparation"


def test_removed_strings_become_obsolete_not_lost(demo):
    extract_update(demo)
    po = po_path(demo / "i18n", "en", "demo")
    translate(po, {"seq/blue-move": "Blue movement"}, "en")
    source = DEMO_SEQUENCE.split("  - id: blue-move")[0]
    (demo / "games/demo/sequence.yaml").write_text(source, encoding="utf-8")
    extract_update(demo)
    text = po.read_text(encoding="utf-8")
    assert '#~ msgctxt "seq/blue-move"' in text and '#~ msgstr "Blue movement"' in text


def test_malformed_po_is_reported_with_path_and_line(demo):
    extract_update(demo)
    po = po_path(demo / "i18n", "en", "demo")
    lines = po.read_text(encoding="utf-8").splitlines()
    lines.insert(25, "this is not po syntax")
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(AidsError) as info:
        pipeline.localizer(read_project(demo), read_project(demo).read_game("demo"), "en")
    assert str(info.value).startswith("i18n/en/LC_MESSAGES/demo.po:26: malformed catalog")


def test_compile_writes_mo_without_fuzzy_entries(demo):
    extract_update(demo)
    po = po_path(demo / "i18n", "en", "demo")
    translate(po, {"seq/prep": "Preparation"}, "en")
    written, problems = pipeline.compile(read_project(demo))
    assert "i18n/en/LC_MESSAGES/demo.mo" in written and problems == []
    import gettext
    with po.with_suffix(".mo").open("rb") as fp:
        mo = gettext.GNUTranslations(fp)
    assert mo.pgettext("seq/prep", "Przygotowanie") == "Preparation"
    assert mo.pgettext("seq/prep/place", "Połóż żetony.") == "Połóż żetony."  # untranslated: left out


def test_pybabel_extract_with_the_registered_extractor(demo):
    mapping = demo / "babel.cfg"
    mapping.write_text("[aids: **.yaml]\n", encoding="utf-8")
    out = demo / "plain.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", str(mapping),
                    "-o", str(out), "games"], cwd=demo, check=True, capture_output=True)
    plain = {(m.context, m.id) for m in catalog(out) if m.id}
    extract_update(demo)
    ours = {(m.context, m.id) for m in catalog(pot_path(demo / "i18n", "demo")) if m.id}
    assert plain == ours


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext not installed")
def test_every_catalog_in_the_repository_passes_msgfmt_check():
    catalogs = sorted((REPO / "i18n").rglob("*.po"))
    assert catalogs
    for po in catalogs:
        result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
        assert result.returncode == 0, f"{po}: {result.stderr}"


def test_sample_catalogs_complete_and_in_sync(tmp_path):
    """extract + update on the repository's sources changes nothing; no untranslated or fuzzy entry."""
    root = tmp_path / "copy"
    for name in ("games", "i18n"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
    (root / "aids.yaml").write_text((REPO / "aids.yaml").read_text().replace("ui_domain: true", "ui_domain: false"))
    assert extract_update(root) == ([], [])
    for po in (root / "i18n").rglob("*.po"):
        for m in catalog(po):
            if m.id:
                assert m.string and not m.fuzzy, f"{po.relative_to(root)}: {m.context} {m.id!r}"


def test_inserted_text_does_not_shift_translations_onto_its_neighbours(tmp_path):
    """Positional contexts (booklet paragraphs): a paragraph inserted before others moves them."""
    from aids.errors import Position
    from aids.localize.catalogs import template_from, update_catalog
    from aids.model.text import Text

    def texts(*ids):
        return template_from([Text(msgid, f"rules/sec/{n}", "paragraph", Position("r.md", n))
                              for n, msgid in enumerate(ids, start=1)], project="t", version="1")
    po = tmp_path / "en.po"
    update_catalog(po, "en.po", texts("Pierwszy akapit o ruchu.", "Drugi akapit o walce."), "en")
    translate(po, {"rules/sec/1": "First, on movement.", "rules/sec/2": "Second, on combat."}, "en")
    update_catalog(po, "en.po", texts("Nowy akapit na początku.", "Pierwszy akapit o ruchu.",
                                      "Drugi akapit o walce."), "en")
    got = {m.context: (m.string, m.fuzzy) for m in catalog(po) if m.id}
    assert got["rules/sec/2"] == ("First, on movement.", False)  # moved unchanged: still good
    assert got["rules/sec/3"] == ("Second, on combat.", False)
    assert got["rules/sec/1"][0] != "First, on movement."


def test_a_text_that_was_in_two_places_stays_fuzzy_when_moved(tmp_path):
    from aids.errors import Position
    from aids.localize.catalogs import template_from, update_catalog
    from aids.model.text import Text

    def texts(*pairs):
        return template_from([Text(msgid, ctx, "c", Position("r.md", 1)) for ctx, msgid in pairs],
                             project="t", version="1")
    po = tmp_path / "en.po"
    update_catalog(po, "en.po", texts(("a/1", "Ogień"), ("b/1", "Ogień")), "en")
    translate(po, {"a/1": "Fire", "b/1": "Fire!"}, "en")
    update_catalog(po, "en.po", texts(("c/1", "Ogień")), "en")
    entry = next(m for m in catalog(po) if m.context == "c/1")
    assert entry.fuzzy and entry.string in ("Fire", "Fire!")


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace('msgstr ""\n', 'msgstr "Preparation\n', 1), ":{line}:8: malformed catalog: string not closed"),
    (lambda t: t.replace('msgstr ""\n', 'msgstr Preparation\n', 1), ":{line}:8: malformed catalog: string not quoted"),
    (lambda t: t.replace('msgstr ""\n', 'msgstr "Prep" x\n', 1), ":{line}:8: malformed catalog: text after the closing quote"),
])
def test_strings_msgfmt_rejects_are_errors_with_line_and_column(demo, change, message):
    extract_update(demo)
    po = po_path(demo / "i18n", "en", "demo")
    text = po.read_text(encoding="utf-8")
    start = text.index('msgid "Gra')  # the first entry after the header
    line = text[:text.index('msgstr ""\n', start)].count("\n") + 1
    po.write_text(text[:start] + change(text[start:]), encoding="utf-8")
    with pytest.raises(AidsError) as info:
        read_catalog(po, "en.po", "en")
    assert str(info.value).startswith("en.po" + message.format(line=line))


def test_a_second_definition_and_bytes_not_utf8_are_errors(demo):
    extract_update(demo)
    po = po_path(demo / "i18n", "en", "demo")
    text = po.read_text(encoding="utf-8")
    lines = text.count("\n")
    po.write_text(text + '\nmsgctxt "game/title"\nmsgid "Gra próbna"\nmsgstr "Again"\n', encoding="utf-8")
    with pytest.raises(AidsError, match=rf"en.po:{lines + 3}: malformed catalog: duplicate message definition"):
        read_catalog(po, "en.po", "en")
    po.write_bytes(text.encode() + b'\n# Zaj\xeaczkowski\n')
    with pytest.raises(AidsError, match=rf"en.po:{lines + 2}:6: malformed catalog: not UTF-8 text"):
        read_catalog(po, "en.po", "en")


def test_faulty_ui_entries_are_left_out_and_reported(tmp_path, monkeypatch):
    """A translator's slip in the package's own catalog: the English shows, and the build says where."""
    from aids.localize import ui
    folder = tmp_path / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    text = (REPO / "i18n/ru/LC_MESSAGES/aids.po").read_text(encoding="utf-8")
    text = text.replace('msgstr "Страница %(page)s из %(pages)s"', 'msgstr "Страница %(page)s"')
    assert 'msgstr "Страница %(page)s"' in text
    (folder / "aids.po").write_text(text, encoding="utf-8")
    monkeypatch.setattr(ui, "package_catalogs", lambda: tmp_path)
    ui.load_ui.cache_clear()
    try:
        translations, problems = ui.load_ui("ru")
        assert translations.pgettext("page footer; %(page)s and %(pages)s are numbers",
                                     "Page %(page)s of %(pages)s") == "Page %(page)s of %(pages)s"
        assert translations.pgettext("see", "see %(ref)s") == "см. %(ref)s"
        assert [p.message for p in problems] == [
            "translation loses %(pages)s of 'Page %(page)s of %(pages)s': the English is used"]
        assert problems[0].where.path == "aids/i18n/ru/LC_MESSAGES/aids.po" and problems[0].where.line > 1
    finally:
        ui.load_ui.cache_clear()


def test_empty_plural_form_and_invented_field_are_faults():
    from babel.messages.catalog import Catalog
    from aids.localize.catalogs import faults
    cat = Catalog(locale="ru")
    cat.add(("%(n)s point", "%(n)s points"), ("%(n)s очко", "", "%(n)s очков"), context="pts")
    cat.add("Page %(page)s", "Страница %(page)s %(foo)s", context="page")
    cat.add("ok %(x)s", "хорошо %(x)s", context="ok")
    assert sorted(what for _, what, _ in faults(cat)) == [
        "'%(n)s point' has 2 of 3 plural forms",
        "translation invents %(foo)s of 'Page %(page)s'",
        "unknown named placeholder 'foo'"]  # Babel's own checker agrees
