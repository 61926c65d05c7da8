"""A back-of-book index (issue 34): `::: index` lists the glossary terms the text uses, sorted as each language's
dictionaries sort (ICU collation: Polish ł after l, ż after ź; Russian ё with е), each with the numbers of the
sections using it, and in the PDF the page of each."""
from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from aids.config import read_project
from aids.localize.collation import sort_key
from aids.pipeline import builder
from aids.pipeline.pipeline import Options

from ..model.test_booklet import localized, project

BOOKLET = """\
kind: booklet
id: rules
title: Zasady
page_size: A5
files: [one.md]
glossary:
  - {id: most, term: most}
  - {id: laka, term: łąka}
  - {id: las, term: las}
  - {id: zaba, term: żaba}
  - {id: zebra, term: zebra}
  - {id: unused, term: nieużywany}
"""

ONE = """\
# Teren {#terrain}

Rzeka ma [](term:most), a obok [](term:las).

## Łąki {#meadows}

Na [](term:laka) i [](term:zebra) w tabeli:

| Teren | Koszt |
|---|---|
| [](term:las) | 2 |

## Wody {#water}

Przy brzegu [](term:zaba)[^1].

[^1]: Także [](term:most).

# Indeks {#index .unnumbered}

::: index
:::
"""


@pytest.mark.parametrize("lang, words, ordered", [
    ("pl", ["most", "łąka", "las", "lód", "żaba", "zebra", "źdźbło"], ["las", "lód", "łąka", "most", "zebra", "źdźbło", "żaba"]),
    ("ru", ["ящик", "ель", "ёж", "ад"], ["ад", "ёж", "ель", "ящик"]),
    ("en", ["zone", "ZOC", "Abbey", "apple"], ["Abbey", "apple", "ZOC", "zone"]),
])
@pytest.mark.unit
def test_words_sort_as_the_language_sorts_them(lang, words, ordered):
    assert sorted(words, key=sort_key(lang)) == ordered


@pytest.mark.unit
def test_the_index_lists_used_terms_in_dictionary_order_with_their_sections(tmp_path):
    root = project(tmp_path, rules_yaml=BOOKLET, one_md=ONE)
    html, _ = localized(root)
    index = next(b for b in html["blocks"] if b["type"] == "index")
    assert [(e["term"], [str(s) for s in e["sections"]]) for e in index["entries"]] == [
        ("las", ['<a class="ref" href="#terrain">1</a>', '<a class="ref" href="#meadows">1.1</a>']),
        ("łąka", ['<a class="ref" href="#meadows">1.1</a>']),
        ("most", ['<a class="ref" href="#terrain">1</a>', '<a class="ref" href="#water">1.2</a>']),  # a note's too
        ("zebra", ['<a class="ref" href="#meadows">1.1</a>']),
        ("żaba", ['<a class="ref" href="#water">1.2</a>']),
    ]  # "nieużywany" is used nowhere: not listed


def test_the_printed_index_gives_each_section_its_page(tmp_path):
    root = project(tmp_path, rules_yaml=BOOKLET,
                   one_md=ONE.replace("## Wody {#water}", "::: break page\n:::\n\n## Wody {#water}"))
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["pdf"]))
    assert not summary.failed, summary.failed
    assert [b.warnings for b in summary.built if b.aid == "rules"] == [[]]
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(root / "build/demo/pl/rules.pdf").pages]
    water = next(n for n, text in enumerate(pages, 1) if "Przy brzegu" in text)
    terrain = next(n for n, text in enumerate(pages, 1) if "Rzeka ma" in text)
    index = next(text for text in pages if text.startswith("Zasady Indeks") or " Indeks las " in text)
    assert f"most 1, s. {terrain}; 1.2, s. {water}" in index, index
    assert index.index(" las ") < index.index(" łąka ") < index.index(" most ") < index.index(" zebra ") \
        < index.index(" żaba ")


def test_the_contents_and_the_bookmarks_list_the_index_with_its_page(tmp_path):
    """The index is unnumbered, yet a reader finds it as in a book: on the contents page, after the numbered
    sections and with its page, and among the PDF's bookmarks (the e-book's contents is held to them, test_epub)."""
    root = project(tmp_path, rules_yaml=BOOKLET,
                   one_md=ONE.replace("# Indeks", "::: break page\n:::\n\n# Indeks"))
    summary = builder.build(read_project(root), Options(langs=["pl"], formats=["html", "pdf"]))
    assert not summary.failed, summary.failed
    reader = PdfReader(root / "build/demo/pl/rules.pdf")
    last = len(reader.pages)
    assert [(o.title, reader.get_destination_page_number(o) + 1) for o in reader.outline if not isinstance(o, list)][
        -1] == ("Indeks", last)
    contents = " ".join(reader.pages[1].extract_text().split())  # the title page, then the contents
    assert re.search(rf"1 Teren\W+{last - 1}.*Indeks\W+{last}", contents), contents
    page = (root / "build/demo/pl/rules.html").read_text(encoding="utf-8")
    assert '<a href="#index"><span class="num"></span> <span class="toc-text">Indeks</span>' in page
