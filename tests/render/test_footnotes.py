"""Footnotes in a booklet (issue 36): `text[^1]` and `[^1]: note` were printed literally. A note is a message of
its reference's section, its reference a placeholder translators keep; the PDF prints each note at the foot of
the page of its reference, numbered in order, and the web page links each call to a list of the notes."""
from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from aids.commands.cli import main
from aids.config import read_project
from aids.localize import po
from aids.localize.catalogs import read_catalog
from aids.pipeline import builder
from aids.pipeline.pipeline import Options

from ..helpers import text_runs
from ..model.test_booklet import error_of, model, project

NOTES = """\
# Przypisy {#notes}

Tekst z przypisem[^1] i drugim[^a].

- punkt z przypisem[^b]

[^1]: Pierwszy *przypis* ({see:notes}).

[^a]: Drugi.

[^b]: Trzeci.
"""


@pytest.mark.unit
def test_a_note_is_a_message_of_its_section_and_its_reference_a_placeholder(tmp_path):
    booklet = model(project(tmp_path, two_md=NOTES))
    texts = {t.msgid: t for t in booklet.messages() if t.context == "rules/notes"}
    assert "Tekst z przypisem{note:notes-1} i drugim{note:notes-a}." in texts
    assert "punkt z przypisem{note:notes-b}" in texts
    note = texts["Pierwszy *przypis* ({see:notes})."]
    assert note.comment == "Footnote in section 2" and str(note.where) == "games/demo/two.md:7:1"
    assert {"Drugi.", "Trzeci."} <= set(texts)


@pytest.mark.parametrize("text, message", [
    ("Tekst[^z].\n", "games/demo/two.md:3:6: footnote '[^z]' has no note (expected: [^z]: the note's text, in the same file)"),
    ("Tekst.\n\n[^z]: Nikt.\n", "games/demo/two.md:5:1: footnote '[^z]' is never referenced"),
    ("Raz[^1], dwa[^1].\n\n[^1]: Przypis.\n", "games/demo/two.md:3:13: footnote '[^1]' referenced again (first at "
                                              "games/demo/two.md:3:4)"),
    ("## Tytuł[^1] {#t}\n\nTekst.\n\n[^1]: Przypis.\n", "games/demo/two.md:3:9: footnote '[^1]' in a heading"),
    ("Tekst[^1].\n\n[^1]: Jeden.\n\n    Dwa.\n", "footnote '[^1]' of 2 paragraphs (expected: a note of one paragraph)"),
    ("Tekst[^1].\n\n[^1]: Z przypisem[^2].\n\n[^2]: Nie.\n", "footnote '[^2]' in a footnote"),
    ("Tekst {note:x}.\n", "games/demo/two.md:3:7: unknown footnote '{note:x}'"),
])
@pytest.mark.unit
def test_footnote_mistakes_are_reported_where_they_are(tmp_path, text, message):
    assert message in error_of(tmp_path, two_md=f"# A {{#a}}\n\n{text}")


def translate_notes(root, table: dict[str, str]):
    assert main(["--project", str(root), "extract"]) == 0 and main(["--project", str(root), "update"]) == 0
    path = root / "i18n/en/LC_MESSAGES/demo.po"
    catalog = read_catalog(path, str(path))
    for entry in po.entries(catalog):
        if entry.source in table:
            entry.target = table[entry.source]
    po.save(path, catalog)


EN = {"Tekst z przypisem{note:notes-1} i drugim{note:notes-a}.": "A text with a note{note:notes-1} and another{note:notes-a}.",
      "punkt z przypisem{note:notes-b}": "an item with a note{note:notes-b}",
      "Pierwszy *przypis* ({see:notes}).": "The first *note* ({see:notes}).", "Drugi.": "The second.",
      "Trzeci.": "The third.", "Przypisy": "Notes"}


def test_the_pdf_prints_each_note_at_the_foot_of_its_page_and_the_page_lists_them(tmp_path):
    root = project(tmp_path, two_md=NOTES)
    translate_notes(root, EN)
    summary = builder.build(read_project(root), Options(langs=["pl", "en"], formats=["html", "pdf"]))
    assert not summary.failed, summary.failed
    assert [b.warnings for b in summary.built if b.aid == "rules"] == [[], []]
    for lang, call, notes in (("pl", "Tekst z przypisem1 i drugim2", ["1. Pierwszy przypis (patrz 2, s. 4).",
                                                                        "2. Drugi.", "3. Trzeci."]),
                              ("en", "A text with a note1 and another2", ["1. The first note (see 2, p. 4).",
                                                                         "2. The second.", "3. The third."])):
        reader = PdfReader(root / f"build/demo/{lang}/rules.pdf")
        page = next(p for p in reader.pages if call in " ".join(p.extract_text().split()))
        text = " ".join(page.extract_text().split())
        assert all(note in text for note in notes), (lang, text)  # each note on the page of its reference
        runs = text_runs(page)
        called = min(y for _, y, _, _, run in runs if call.split()[0] in run)
        foot = [(y, size) for _, y, size, _, run in runs if run.startswith(("Drugi", "The second", "Trzeci", "The third"))]
        body = max(size for _, _, size, _, run in runs if call.split()[0] in run)
        assert len(foot) == 2 and all(y < called and size < body for y, size in foot), (lang, foot, called)
        html = (root / f"build/demo/{lang}/rules.html").read_text(encoding="utf-8")
        calls = re.findall(r'<a class="footnote-call" id="fnref-(\d)" href="#fn-(\d)" role="doc-noteref">(\d)</a>', html)
        assert calls == [("1", "1", "1"), ("2", "2", "2"), ("3", "3", "3")]
        listed = re.findall(r'<li id="fn-(\d)" value="\d">', html)
        assert listed == ["1", "2", "3"] and html.count('role="doc-backlink"') == 3


def test_a_translation_that_loses_a_note_falls_back(tmp_path):
    root = project(tmp_path, two_md=NOTES)
    translate_notes(root, {**EN, "Tekst z przypisem{note:notes-1} i drugim{note:notes-a}.": "A text with notes."})
    summary = builder.build(read_project(root), Options(langs=["en"], formats=["html"]))
    reasons = [fb.reason for found in summary.fallbacks.values() for fb in found if "przypisem{note" in fb.text.msgid]
    assert reasons == ["translation loses {note:notes-1}, {note:notes-a}"]
