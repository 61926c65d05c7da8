"""Words in another language than the page's, marked where they stand (issue 44): `[force march]{lang=en}` in any
text (Pandoc's bracketed span), a booklet's `original_language` for its glossary's abbreviations and original names,
and a game's title, author or copyright marked the same way in game.yaml. A page marks them `lang`, so a screen
reader says them in their language and tests/test_every_output.py tells them from text left untranslated."""
from __future__ import annotations

import pikepdf
from lxml import html

from aids.config import read_project
from aids.localize.rich import Marked, parse
from aids.pipeline import builder
from aids.pipeline.pipeline import Options
from aids.render.html import to_html

from ..helpers import edit, make_project, run
from ..model.test_booklet import localized, project, read_all


def test_a_span_marks_its_words_as_its_language():
    runs = parse("ogłaszając [marsz forsowny (*force march*)]{lang=en}.", lambda kind, target: ())
    marked = [p for p in runs if isinstance(p, Marked)]
    assert [(m.role, m.lang, m.parts.plain()) for m in marked] == [("foreign", "en", "marsz forsowny (force march)")]
    assert runs.plain() == "ogłaszając marsz forsowny (force march)."
    assert '<span lang="en">' in to_html(runs) and "<em>force march</em>" in to_html(runs)


def test_a_span_with_another_attribute_or_no_language_marks_nothing():
    for source in ("[words]{class=x}", "[words]{lang=\"<b>\"}"):
        runs = parse(source, lambda kind, target: ())
        assert not any(isinstance(p, Marked) for p in runs) and runs.plain() == "words", source


def page_of(root, lang: str = "pl", aid: str = "rules"):
    summary = builder.build(read_project(root), Options(langs=[lang], formats=["html"]))
    assert not summary.failed, summary.failed
    return html.fromstring((root / f"build/demo/{lang}/{aid}.html").read_bytes())


def marked(page, lang: str) -> list[str]:
    return [" ".join(e.text_content().split()) for e in page.xpath(f"//main//*[@lang='{lang}']")]


def test_a_booklet_keeps_a_span_in_its_msgid_and_marks_it_on_the_page(tmp_path):
    root = project(tmp_path)
    edit(root / "games/demo/one.md", "Jednostka ma [](term:mp)", "Jednostka z [Standard Series Rules]{lang=en} ma [](term:mp)")
    catalog = localized(root)[0]
    assert "Standard Series Rules" in str(catalog)
    assert "Standard Series Rules" in marked(page_of(root), "en")


def test_a_span_that_cannot_mark_a_language_is_the_author_s_error_at_its_place(tmp_path):
    root = project(tmp_path)
    edit(root / "games/demo/one.md", "Jednostka ma [](term:mp)", "Jednostka z [Rules]{lang=english!} ma [](term:mp)")
    said = "\n".join(str(e) for e in read_all(root)[1])
    assert "one.md:" in said and "span '[Rules]{lang=english!}' not read" in said and "[words]{lang=en}" in said
    edit(root / "games/demo/one.md", "{lang=english!}", '{lang="english!"}')
    said = "\n".join(str(e) for e in read_all(root)[1])
    assert "one.md:" in said and "language 'english!' of a span" in said


def test_a_glossary_s_abbreviations_and_original_names_are_marked_in_the_original_language(tmp_path):
    root = project(tmp_path)
    plain = marked(page_of(root), "en")
    edit(root / "games/demo/rules.yaml", "glossary:", "original_language: en\nglossary:")
    found = marked(page_of(root), "en")
    assert plain == [] and "(ZOC)" in found and "(fatigue)" in found  # beside a term's first use


def test_a_game_title_in_another_language_is_marked_on_the_page_and_plain_where_no_markup_stands(tmp_path):
    root = make_project(tmp_path)
    edit(root / "games/demo/game.yaml", "title: Gra próbna", 'title: "[Great Campaigns]{lang=en}"')
    edit(root / "games/demo/game.yaml", "author: Ktoś", 'author: "[Ryszard Kita]{lang=pl}"')
    summary = builder.build(read_project(root), Options(langs=["ru"], formats=["html", "pdf"]))
    assert not summary.failed, summary.failed
    page = html.fromstring((root / "build/demo/ru/seq.html").read_bytes())
    assert page.findtext(".//title").startswith("Great Campaigns\u00a0— ")
    assert [e.text_content().strip() for e in page.xpath("//p[@class='game']//*[@lang='en']")] == ["Great Campaigns"]
    assert [e.text_content().strip() for e in page.xpath("//footer//*[@lang='pl']")] == ["Ryszard Kita"]
    with pikepdf.open(root / "build/demo/ru/seq.pdf") as pdf:
        assert str(pdf.docinfo["/Title"]).startswith("Great Campaigns") and "{lang" not in str(pdf.docinfo["/Title"])
        assert str(pdf.docinfo["/Author"]) == "Ryszard Kita"
        langs = {str(obj.get("/Lang")) for obj in pdf.objects if isinstance(obj, pikepdf.Dictionary) and "/Lang" in obj}
        assert {"en", "pl"} <= langs  # the tagged PDF says which words are in which language


def test_aids_check_names_a_translation_s_span_that_marks_no_language(tmp_path):
    root = make_project(tmp_path)
    code, out, err = run("--project", str(root), "extract")
    assert code == 0, err
    code, out, err = run("--project", str(root), "update")
    po = root / "i18n/en/LC_MESSAGES/demo.po"
    text = po.read_text(encoding="utf-8")
    text = text.replace('msgid "Połóż żetony."\nmsgstr ""', 'msgid "Połóż żetony."\nmsgstr "Place the [counters]{cls=x}."')
    po.write_text(text, encoding="utf-8")
    code, out, err = run("--project", str(root), "check", "--lang", "en")
    assert "attribute 'cls' of a span" in out + err and "demo.po:" in out + err


def test_words_of_another_language_keep_that_language_s_typography():
    from aids.localize.typography import typeset_rich
    runs = typeset_rich(parse('Пакет: [Turniej "Lwów 1920", Wrocław]{lang=pl} и "тест"', lambda kind, target: ()), "ru")
    assert runs.plain() == "Пакет: Turniej „Lwów\u00a01920”, Wrocław и\u00a0«тест»"


def test_the_sample_packet_s_event_is_marked_polish_on_the_russian_page(sample):
    project, _ = sample
    page = html.fromstring((project.output / "lwow-1920/ru/index.html").read_bytes())
    assert [" ".join(e.text_content().split()) for e in page.xpath("//main//*[@lang='pl']")] == \
        ["Turniej „Lwów 1920”, Wrocław"]
