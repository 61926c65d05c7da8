"""The rule-booklet model: numbering, references, segmentation, glossary, boxes, embedding, bad input."""
import hashlib
import io

import PIL.Image
import pytest

from aids.config import read_project
from aids.kinds import reading
from aids.localize import booklet as booklet_text
from aids.localize import making, ui
from aids.localize.documents import Figure
from aids.localize.localizer import Localizer
from aids.model import booklet
from aids.pipeline import builder, pipeline

from ..helpers import DEMO_SEQUENCE, as_html, make_project

pytestmark = pytest.mark.unit

BOOKLET = """\
kind: booklet
id: rules
title: Zasady
subtitle: Próba
translator: Ktoś
page_size: A5
files: [one.md, two.md]
glossary:
  - {id: zoc, term: strefa kontroli, abbr: ZOC, original: Zone of Control}
  - {id: mp, term: punkty ruchu, abbr: MP}
  - {id: fatigue, term: zmęczenie, original: fatigue, definition: Miara *wysiłku*.}
"""

ONE = """\
# Wstęp {#intro}

Tekst *ważny* i **mocny** ({see:zoc}), potem [](term:zoc) i znowu [](term:zoc).

## Strefa kontroli {#zoc}

Jednostka ma [](term:mp); patrz [](#intro)
i dalej.

::: example
Przykład z [](term:fatigue).
:::

::: note
Uwaga.
:::

::: optional
Opcja.
:::

::: designer
Komentarz.
:::

::: exception
Wyjątek.
:::

### Szczegóły {#details .unnumbered}

| Gra | Siła | Żeton |
|-----|----:|---|
| RTG | 17 | 2-4 |
| inne | 8 | |

- punkt
  - podpunkt
1. raz
2. dwa

## Dowodzenie {#command}

### Zasięg {#range}
"""

TWO = """\
# Przebieg {#play}

::: embed seq
:::

## Skróty {#abbr}

::: abbreviations
:::

::: glossary
:::
"""

GAME = """\
id: demo
title: Gra próbna
version: "2.0"
published: 2021-03-04
source_language: pl
aids:
  - sequence.yaml
  - rules.yaml
"""


def project(tmp_path, **changes):
    files = {"games/demo/game.yaml": GAME, "games/demo/rules.yaml": BOOKLET,
             "games/demo/one.md": ONE, "games/demo/two.md": TWO}
    for name, text in changes.items():
        files[f"games/demo/{name.replace('_', '.')}"] = text
    return make_project(tmp_path, files)


def read_all(root):
    proj = read_project(root)
    game = proj.read_game("demo")
    aids, errors = reading.read_aids(proj, game)
    return {a.model.id: a for a in aids}, errors, proj, game


def model(root) -> booklet.Booklet:
    aids, errors, _, _ = read_all(root)
    assert not errors, errors
    return aids["rules"].model


def localized(root, lang="pl"):
    aids, errors, proj, game = read_all(root)
    assert not errors, errors
    lz = making.localizer(proj, game, lang)
    return as_html(booklet_text.localize(aids["rules"].model, lz)), lz


def error_of(tmp_path, **changes) -> str:
    aids, errors, _, _ = read_all(project(tmp_path, **changes))
    assert errors, "expected a problem"
    return "\n".join(str(e) for e in errors)


def flat(blocks):
    for b in blocks:
        yield b
        yield from flat(b.get("blocks", []))
        for item in b.get("entries", []) if b["type"] == "list" else []:
            yield from flat(item)


# --- numbering and references ---------------------------------------------------------------------

def test_headings_numbered_from_their_position_across_files(tmp_path):
    b = model(project(tmp_path))
    assert [(h.id, h.label) for h in b.headings.values()] == [
        ("intro", "1"), ("zoc", "1.1"), ("details", ""), ("command", "1.2"), ("range", "1.2.1"),
        ("play", "2"), ("abbr", "2.1")]
    assert b.page_size == "A5" and b.version == "2.0"  # the game's version unless the booklet has its own
    assert b.translator == {"*": "Ktoś"}


def test_translator_credited_per_language(tmp_path):
    root = project(tmp_path, rules_yaml=BOOKLET.replace("translator: Ktoś", "translator: {ru: Кто-то}"))
    assert localized(root, "ru")[0]["translator"] == "Кто-то" and localized(root, "pl")[0]["translator"] == ""


def test_contents_lists_numbered_headings_only(tmp_path):
    ctx, _ = localized(project(tmp_path))
    assert [(e["number"], e["level"]) for e in ctx["toc"]] == [
        ("1", 1), ("1.1", 2), ("1.2", 2), ("1.2.1", 3), ("2", 1), ("2.1", 2)]


@pytest.mark.parametrize("lang, see", [("pl", "patrz"), ("en", "see"), ("ru", "см.")])
def test_references_render_the_target_number_as_a_link(tmp_path, lang, see):
    ctx, _ = localized(project(tmp_path), lang)
    paras = [b["text"] for b in flat(ctx["blocks"]) if b["type"] == "paragraph"]
    assert f'({see}<a class="ref" href="#zoc"> 1.1</a>)' in paras[0]
    assert 'patrz<a class="ref" href="#intro"> 1</a> i dalej.' in paras[1]


# --- segmentation and placeholders ----------------------------------------------------------------

def test_one_message_per_heading_paragraph_item_cell_and_term(tmp_path):
    texts = list(model(project(tmp_path)).messages())
    by_text = {t.msgid: t for t in texts}
    assert by_text["Wstęp"].context == "rules/intro" and by_text["Wstęp"].comment == "Heading 1"
    first = by_text["Tekst *ważny* i **mocny** ({see:zoc}), potem {term:zoc} i znowu {term:zoc}."]
    assert first.context == "rules/intro"  # the section's id, not the paragraph's position
    zoc = by_text["Jednostka ma {term:mp}; patrz {ref:intro} i dalej."]
    assert zoc.context == "rules/zoc"
    assert zoc.where.line == 7 and zoc.where.path == "games/demo/one.md"
    assert by_text["Przykład z {term:fatigue}."].comment == "Paragraph of a box (example) in section 1.1"
    cells = [t.msgid for t in texts if t.comment.startswith("Table cell")]
    assert cells == ["Gra", "Siła", "Żeton", "inne"]  # RTG, 17, 8 and 2-4 are data, not messages
    items = [t.msgid for t in texts if t.comment.startswith("List item")]
    assert items == ["punkt", "podpunkt", "raz", "dwa"]
    contexts = {t.context: t for t in texts}
    assert contexts["rules/glossary/zoc"].msgid == "strefa kontroli"
    assert contexts["rules/glossary/fatigue/definition"].msgid == "Miara *wysiłku*."
    assert "rules/title" in contexts and "rules/subtitle" in contexts


def test_markdown_specials_in_text_stay_text(tmp_path):
    texts = [(t.context, t.msgid) for t in model(project(tmp_path, one_md="# A {#a}\n\nCena 2 \\* 3 i `kod`.\n")).messages()]
    assert ("rules/a", "Cena 2 \\* 3 i `kod`.") in texts


def translated(tmp_path, msgstr: str):
    root = project(tmp_path, one_md="# A {#a}\n\nJednostka ma **zawsze** [](term:zoc) ({see:a}).\n",
                   two_md="## B {#b}\n")
    aids, errors, proj, game = read_all(root)
    text = next(t for t in aids["rules"].model.messages() if t.context == "rules/a" and t.msgid != "A")
    lz = Localizer("en", "pl", {(text.context, text.msgid): (msgstr, False)}, ui.ui_translations("en"))
    para = next(b for b in as_html(booklet_text.localize(aids["rules"].model, lz))["blocks"] if b["type"] == "paragraph")
    return para["text"], [f for f in lz.fallbacks if f.text == text]


def test_translation_may_move_placeholders(tmp_path):
    html, fallbacks = translated(tmp_path, "({see:a}) A unit **always** has a {term:zoc}.")
    assert fallbacks == []
    assert html.startswith('(see<a class="ref" href="#a"> 1</a>) A unit<strong> always</strong> has a')


@pytest.mark.parametrize("msgstr, reason", [
    ("A unit **always** has a ZOC ({see:a}).", "translation loses {term:zoc}"),
    ("A unit always has a {term:zoc} ({see:a}).", "translation loses **strong**"),
    ("A unit **always** has a {term:zoc} ({see:a}) {ref:b}.", "translation invents {ref:b}"),
])
def test_translation_losing_or_inventing_a_placeholder_falls_back(tmp_path, msgstr, reason):
    html, fallbacks = translated(tmp_path, msgstr)
    assert [f.reason for f in fallbacks] == [reason]
    assert html.startswith('<span lang="pl">Jednostka ma<strong> zawsze</strong>')


# --- glossary, abbreviations, boxes ---------------------------------------------------------------

def test_term_shows_its_original_on_first_use_only(tmp_path):
    ctx, _ = localized(project(tmp_path))
    first = next(b for b in ctx["blocks"] if b["type"] == "paragraph")["text"]
    assert first.endswith('potem<span class="term"> strefa kontroli</span><span class="original"> (ZOC)</span> '
                          'i znowu<span class="term"> strefa kontroli</span>.')
    example = next(b for b in ctx["blocks"] if b["type"] == "box")
    assert 'zmęczenie</span><span class="original"> (fatigue)</span>' in example["blocks"][0]["text"]


def test_term_shows_nothing_beside_it_when_its_name_already_says_it(tmp_path):
    root = project(tmp_path, rules_yaml=BOOKLET + "  - {id: rzoc, term: ograniczona strefa, original: Restricted ZOC}\n")
    m = model(root)
    zoc, fatigue, rzoc = m.term("zoc"), m.term("fatigue"), m.term("rzoc")
    assert booklet_text.beside(m, zoc, "strefa kontroli") == "ZOC"
    assert booklet_text.beside(m, zoc, "zone of control (ZOC)") == ""
    assert booklet_text.beside(m, fatigue, "zmęczenie") == "fatigue"
    assert booklet_text.beside(m, fatigue, "Fatigue") == ""  # an English reader reads the original already
    assert booklet_text.beside(m, rzoc, "ograniczona strefa") == "Restricted ZOC"
    assert booklet_text.beside(m, rzoc, "restricted zone of control") == ""  # ZOC spelled out by the glossary


def test_abbreviations_generated_from_the_glossary(tmp_path):
    ctx, _ = localized(project(tmp_path))
    abbreviations = next(b for b in flat(ctx["blocks"]) if b["type"] == "abbreviations")
    assert abbreviations["entries"] == [{"abbr": "MP", "term": "punkty ruchu"}, {"abbr": "ZOC", "term": "strefa kontroli"}]
    glossary = next(b for b in flat(ctx["blocks"]) if b["type"] == "glossary")
    assert [e["term"] for e in glossary["entries"]] == ["strefa kontroli", "punkty ruchu", "zmęczenie"]
    assert glossary["entries"][2]["definition"] == "Miara<em> wysiłku</em>."


@pytest.mark.parametrize("lang, labels", [
    ("en", ["Example", "Note", "Optional rule", "Designer's note", "Exception"]),
    ("pl", ["Przykład", "Uwaga", "Zasada opcjonalna", "Komentarz autora", "Wyjątek"]),
])
def test_every_box_kind_with_its_label(tmp_path, lang, labels):
    ctx, _ = localized(project(tmp_path), lang)
    boxes = [b for b in ctx["blocks"] if b["type"] == "box"]
    assert [b["kind"] for b in boxes] == list(booklet.BOXES)
    assert [b["label"] for b in boxes] == labels


def test_numbers_in_tables_are_formatted_per_language(tmp_path):
    root = project(tmp_path, one_md="# A {#a}\n\n| x | y |\n|---|---|\n| a | 1.5 |\n| b | -2 |\n")
    for lang, values in (("pl", ["1,5", "\u22122"]), ("en", ["1.5", "\u22122"])):
        ctx, _ = localized(root, lang)
        table = next(b for b in ctx["blocks"] if b["type"] == "table")
        assert [row[1]["text"] for row in table["rows"]] == values


# --- embedding --------------------------------------------------------------------------------

def test_sequence_embedded_by_id(tmp_path):
    ctx, _ = localized(project(tmp_path), "en")
    embed = next(b for b in ctx["blocks"] if b["type"] == "embed")
    assert embed["kind"] == "sequence" and embed["template"] == "sequence-body.html"
    assert [p["number"] for p in embed["aid"]["phases"]] == ["3.2.1", "3.2.2", "3.2.3", "3.2.4"]
    see = embed["aid"]["phases"][2]["steps"][0]["see"]  # rule:18.0 is not in the booklet, red-move is the sequence's
    assert see == 'see 18.0 and<a class="ref" href="#red-move"> 3.2.2</a>'


def test_rule_references_of_an_embedded_sequence_link_to_the_booklet(tmp_path):
    root = project(tmp_path, sequence_yaml=DEMO_SEQUENCE.replace('"rule:18.0"', '"rule:1.1"'))
    ctx, _ = localized(root, "en")
    embed = next(b for b in ctx["blocks"] if b["type"] == "embed")
    assert embed["aid"]["phases"][2]["steps"][0]["see"].startswith('see<a class="ref" href="#zoc"> 1.1</a> and')


# --- bad input ----------------------------------------------------------------------------------

def test_raw_html_is_rejected(tmp_path):
    message = error_of(tmp_path, two_md="# A {#a}\n\nTekst <b onclick=x>gruby</b>.\n\n<div>blok</div>\n")
    assert "games/demo/two.md:3:7: raw HTML '<b onclick=x>' in Markdown" in message
    assert "games/demo/two.md:5:1: raw HTML in Markdown" in message


@pytest.mark.parametrize("src, what", [
    ("https://example.com/a.png", "is not a file of the game"),
    ("../../secret.png", "leads outside the game folder (looked for secret.png)"),
    ("missing.png", "not found: looked for games/demo/missing.png"),
])
def test_image_outside_the_game_or_on_the_network(tmp_path, src, what):
    (tmp_path / "secret.png").write_bytes(b"\x89PNG")
    message = error_of(tmp_path, two_md=f"# A {{#a}}\n\n![Mapa]({src})\n")
    assert f"games/demo/two.md:3:9: image '{src}' {what}" in message


@pytest.mark.parametrize("line, message", [
    # markdown-it leaves such addresses unparsed: they must not come out as printed text
    ("Tekst ![x](file:///etc/passwd) dalej.", "games/demo/two.md:3:7: an image inside text"),
    ("![x](file:///etc/passwd)", "games/demo/two.md:3:6: image 'file:///etc/passwd' is not a file of the game"),
    ("Tekst [](javascript:alert(1)) dalej.", "games/demo/two.md:3:7: link to 'javascript:alert(1)' outside the booklet"),
    ("Tekst i <mailto:a@example.com> dalej.", "games/demo/two.md:3:9: link to 'mailto:a@example.com' outside the booklet"),
    ("Tekst [forum](ftp://example.com/a) dalej.", "games/demo/two.md:3:7: link to 'ftp://example.com/a' outside the booklet"),
])
def test_images_and_links_with_any_address_are_checked(tmp_path, line, message):
    assert message in error_of(tmp_path, two_md=f"# A {{#a}}\n\n{line}\n")


def test_image_inside_the_game_is_embedded(tmp_path):
    root = project(tmp_path, two_md="# A {#a}\n\n![Mapa](map.png)\n")
    data = io.BytesIO()
    PIL.Image.new("RGB", (4, 3)).save(data, "PNG")
    (root / "games/demo/map.png").write_bytes(data.getvalue())
    ctx, _ = localized(root)
    image = next(b for b in ctx["blocks"] if b["type"] == "image")
    named = f"rules-map-{hashlib.sha256(data.getvalue()).hexdigest()[:8]}.png"  # named by its content, never its data
    assert image["src"] == Figure("map.png", named) and image["alt"] == "Mapa"


@pytest.mark.parametrize("change, message", [
    ({"one_md": ONE.replace("patrz [](#intro)", "patrz [](#outro)")},
     "games/demo/one.md:7:33: reference to unknown id 'outro' (expected: the {#id} of a numbered heading)"),
    ({"one_md": ONE.replace("{see:zoc}", "{see:zone}")}, "games/demo/one.md:3:28: reference to unknown id 'zone'"),
    ({"one_md": ONE.replace("patrz [](#intro)", "patrz [](#details)")},  # unnumbered: it has no number to print
     "games/demo/one.md:7:33: reference to unknown id 'details'"),
    ({"two_md": TWO.replace("{#abbr}", "{#zoc}")},
     "games/demo/two.md:6:11: heading id 'zoc' used twice (first at games/demo/one.md:5:1)"),
    ({"two_md": TWO.replace(" {#abbr}", "")}, "games/demo/two.md:6:1: heading without a valid id"),
    ({"two_md": "# A {#a}\n\n### C {#c}\n"}, "games/demo/two.md:3:1: heading level 3 under level 1"),
    ({"two_md": TWO.replace("::: embed seq", "::: embed table-of-terrain")},
     "games/demo/two.md:3:1: embedded aid 'table-of-terrain' does not exist (expected: seq)"),
    ({"two_md": TWO.replace("::: embed seq", "::: embed rules")},
     "games/demo/two.md:3:1: aid 'rules' of kind 'booklet' cannot be embedded (expected: an aid of kind sequence, table)"),
    ({"two_md": TWO.replace("{#abbr}", "{#prep}")},
     "games/demo/two.md:3:1: embedded aid 'seq' has an anchor 'prep' that is also a heading id or rule number of the booklet"),
    ({"one_md": ONE.replace("[](term:mp)", "[](term:mps)")},
     "games/demo/one.md:7:14: glossary term 'mps' referenced but not defined (expected: zoc, mp, fatigue)"),
    ({"one_md": ONE.replace("::: designer", "::: sidebar")},
     "games/demo/one.md:22:1: unknown block kind 'sidebar' (expected: example, note, optional, designer, "
     "exception, wide, abbreviations, glossary, index, embed, break)"),
    ({"rules_yaml": BOOKLET.replace("page_size: A5", "page_size: B5")},
     "games/demo/rules.yaml:6:12: unknown page size 'B5' (expected: A4, A5, Letter)"),
    ({"rules_yaml": BOOKLET.replace("files: [one.md, two.md]", "files: [one.md, ../x.md]")},
     "games/demo/rules.yaml:7:17: Markdown file '../x.md' leads outside the game folder (looked for games/x.md)"),
    ({"rules_yaml": BOOKLET + "colour: red\n"},
     "games/demo/rules.yaml:12:1: unknown field 'colour' in booklet (expected: kind, id, title, files, subtitle"),
    ({"one_md": ONE + "\n```\ncode\n```\n"}, "games/demo/one.md:46:1: unsupported Markdown element 'fence'"),
    ({"one_md": ONE.replace("[](#intro)", "[tekst](#intro)")}, "games/demo/one.md:7:33: a link with text of its own"),
    ({"one_md": ONE.replace("[](#intro)", "[](file:///etc/passwd)")},
     "games/demo/one.md:7:33: link to 'file:///etc/passwd' outside the booklet"),
    ({"one_md": ONE.replace("{see:zoc}", "{sea:zoc}")}, "games/demo/one.md:3:28: unknown placeholder '{sea:zoc}'"),
    ({"rules_yaml": BOOKLET.replace("title: Zasady", "title: [a, b]")},
     "games/demo/rules.yaml:3:8: 'title' must be text, not a list"),
    ({"rules_yaml": BOOKLET.replace("subtitle: Próba", "subtitle: {a: b}")},
     "games/demo/rules.yaml:4:11: 'subtitle' must be text, not a mapping"),
    ({"rules_yaml": BOOKLET.replace("translator: Ktoś", "author: [Ktoś]")},
     "games/demo/rules.yaml:5:9: 'author' must be text, not a list"),
    ({"rules_yaml": BOOKLET.replace("term: punkty ruchu", "term: [punkty, ruchu]")},
     "games/demo/rules.yaml:10:20: 'term' must be text, not a list"),
    ({"rules_yaml": BOOKLET.replace("abbr: MP", "abbr: [MP]")},
     "games/demo/rules.yaml:10:40: 'abbr' must be text, not a list"),
    ({"rules_yaml": BOOKLET.replace("definition: Miara *wysiłku*.", "definition: {a: b}")},
     "games/demo/rules.yaml:11:67: 'definition' must be text, not a mapping"),
])
def test_bad_input_is_reported_where_it_is(tmp_path, change, message):
    assert message in error_of(tmp_path, **change)


@pytest.mark.integration
def test_bad_booklet_is_not_built_and_leaves_its_outputs(tmp_path):
    root = project(tmp_path)
    proj = read_project(root)
    first = builder.build(proj, pipeline.Options(langs=["pl"], formats=["html"]))
    assert not first.failed
    page = root / "build/demo/pl/rules.html"
    before = page.read_bytes()
    (root / "games/demo/one.md").write_text(ONE.replace("[](#intro)", "[](#outro)"), encoding="utf-8")
    again = builder.build(proj, pipeline.Options(langs=["pl"], formats=["html"]))
    assert again.failed and "outro" in str(again.failed[0])
    assert page.read_bytes() == before


@pytest.mark.integration
def test_command_reports_a_broken_booklet_without_traceback(tmp_path):
    from ..test_cli import aids
    root = project(tmp_path, two_md=TWO.replace("::: embed seq", "::: embed nothing") + "\n<script>x</script>\n")
    result = aids(root, "build", "--format", "html")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "games/demo/two.md:14:1: raw HTML in Markdown" in result.stderr
    assert not (root / "build/demo/pl/rules.html").exists() and (root / "build/demo/pl/seq.html").exists()


@pytest.mark.integration
def test_small_booklet_prints_on_its_page_size_without_warnings(tmp_path):
    from pypdf import PdfReader

    from ..helpers import page_sizes_mm
    root = project(tmp_path)
    summary = builder.build(read_project(root), pipeline.Options(langs=["en"], formats=["pdf"]))
    rules = next(b for b in summary.built if b.aid == "rules")
    assert not summary.failed and rules.warnings == []
    path = root / "build/demo/en/rules.pdf"
    assert set(page_sizes_mm(path)) == {(148.0, 210.0)}  # A5
    titles = [item.title for item in PdfReader(path).outline if not isinstance(item, list)]
    assert titles == ["1 Wstęp", "2 Przebieg"]


def test_a_placeholder_in_a_code_span_is_printed_as_written(tmp_path):
    """Before: `{ref:nope}` inside a code span passed the reference check and crashed the renderer."""
    root = project(tmp_path, one_md="# A {#a}\n\nWrite `{ref:nope}` or `{see:a}` to refer to a rule.\n")
    ctx, _ = localized(root)
    para = next(b for b in flat(ctx["blocks"]) if b["type"] == "paragraph")
    assert para["text"] == "Write<code> {ref:nope}</code> or<code> {see:a}</code> to refer to a rule."


def test_an_unclosed_block_is_reported_where_it_opens(tmp_path):
    """Before: an unclosed `::: note` swallowed the rest of the file with no word."""
    message = error_of(tmp_path, one_md="# A {#a}\n\n::: note\nUwaga bez końca.\n\n## B {#b}\n\nTekst.\n")
    assert "games/demo/one.md:3:1: '::: note' is not closed (expected: a line ':::' where the block ends)" in message
