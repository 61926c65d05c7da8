"""The Valmora 1809 sequence (an English source, translated into Polish and Russian) as a reader gets it:
timing, actors, mirrored steps with the roles swapped, chapters, numbering, phase rules and notes, numbers,
read back from its PDFs in both editions."""
import re
import subprocess

import pytest

from ..helpers import pdf_text

GAME = "valmora-1809"
LANGS = ["en", "pl", "ru"]
EDITIONS = ["cm", "inch"]


def text_of(project, edition: str, lang: str) -> str:
    """The PDF's text on one line, words hyphenated at a line's end joined again."""
    text = pdf_text(project.output / GAME / edition / lang / "turn-sequence.pdf")
    return re.sub(r"\s+", " ", re.sub(r"(\w)-\n(\w)", r"\1\2", text))


def lines_of(project, edition: str, lang: str) -> list[str]:
    """The PDF's lines as a reader sees them (poppler's pdftotext -layout: in the order of the page, a list's
    bullet on its item's line, where pypdf may read a heading out of place)."""
    path = project.output / GAME / edition / lang / "turn-sequence.pdf"
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in text.splitlines()]


def test_every_language_and_edition_built_from_an_english_source_without_a_fallback(sample):
    project, summary = sample
    built = [b for b in summary.built if b.game == GAME]
    assert sorted(f for b in built for f in b.files) == sorted(
        f"build/{GAME}/{ed}/{lang}/turn-sequence.{ext}" for ed in EDITIONS for lang in LANGS for ext in ("html", "pdf", "epub"))
    assert [w for b in built for w in b.warnings] == []
    assert {k: v for k, v in summary.fallbacks.items() if k[0] == GAME} == {}, "pl and ru are complete"
    assert not (project.root / "i18n" / "en" / "LC_MESSAGES" / f"{GAME}.po").exists()  # no catalog for the source


@pytest.mark.parametrize("lang, simultaneous, phasing_first, alternate", [
    ("en", "4.1 Initiative phase simultaneous", "4.2 Orders phase alternately, phasing player first",
     "4.3 Movement phase alternately"),
    ("pl", "4.1 Faza inicjatywy jednocześnie", "4.2 Faza rozkazów na przemian, najpierw gracz aktywny",
     "4.3 Faza ruchu na przemian"),
    ("ru", "4.1 Фаза инициативы одновременно", "4.2 Фаза приказов поочерёдно, сначала активный игрок",
     "4.3 Фаза движения поочерёдно"),
])
def test_timing_labels_per_language(sample, lang, simultaneous, phasing_first, alternate):
    text = text_of(sample[0], "cm", lang)
    assert simultaneous in text and phasing_first in text and alternate in text
    assert not any(label in text for label in ("Both sides", "Obie strony", "Обе стороны"))  # none declared


@pytest.mark.parametrize("lang, first, mirrored", [
    ("en", "1. Phasing player: Move your brigades; units of the non-phasing player may react.",
     "2. Non-phasing player: Move your brigades; units of the phasing player may react."),
    # the translations ask for the role's genitive ({side:non-phasing|gen}); the mirror prints the other's
    ("pl", "1. Gracz aktywny: Porusz swoje brygady; oddziały gracza nieaktywnego mogą reagować.",
     "2. Gracz nieaktywny: Porusz swoje brygady; oddziały gracza aktywnego mogą reagować."),
    ("ru", "1. Активный игрок: Передвиньте свои бригады; части пассивного игрока могут реагировать.",
     "2. Пассивный игрок: Передвиньте свои бригады; части активного игрока могут реагировать."),
])
def test_actor_lead_ins_and_a_mirrored_step_with_the_roles_swapped(sample, lang, first, mirrored):
    text = text_of(sample[0], "cm", lang)
    assert first in text and mirrored in text
    # the mirror's sub-steps are generated too, their actors and {side:...} names swapped
    actor = {"en": "Phasing player:", "pl": "Gracz aktywny:", "ru": "Активный игрок:"}[lang]
    after_mirror = text[text.index(mirrored):]
    assert actor in after_mirror.split("3.", 1)[0]


@pytest.mark.parametrize("lang, under_title, in_list, in_text", [
    ("en", "(see chapter V)", "(see chapter VII and 7.3.2)", "(see chapter VI)"),
    ("pl", "(patrz rozdział V)", "(patrz rozdział VII i 7.3.2)", "(patrz rozdział VI)"),
    ("ru", "(см. главу V)", "(см. главу VII и 7.3.2)", "(см. главу VI)"),
])
def test_chapter_and_rule_references_per_language(sample, lang, under_title, in_list, in_text):
    text = text_of(sample[0], "cm", lang)
    assert under_title in text and in_list in text and in_text in text
    assert {"en": "(see XIII)", "pl": "(patrz XIII)", "ru": "(см. XIII)"}[lang] in text


@pytest.mark.parametrize("lang, letters", [("en", ["a)", "b)"]), ("pl", ["a)", "b)"]), ("ru", ["а)", "б)"])])
def test_the_chosen_delimiters_and_the_language_s_letters(sample, lang, letters):
    lines = lines_of(sample[0], "cm", lang)
    movement = lines[next(i for i, line in enumerate(lines) if line.startswith("4.3 ")):]
    starts = [m.group(1) for line in movement if (m := re.match(r"(\d+\.|[a-zа-я]\)|\([ivx]+\)) ", line))]
    assert starts[:6] == ["1.", *letters, "(i)", "(ii)", "(iii)"]
    assert starts[6:9] == ["2.", *letters]  # the mirrored step, numbered in its place, and its sub-steps


@pytest.mark.parametrize("lang, rule, note, repeat", [
    ("en", "Orders are written down in secret", "Note: Losses are removed only after both sides have fired.",
     "4. Repeat steps 1–3. Do this only if"),
    ("pl", "Rozkazy zapisuje się w tajemnicy", "Uwaga: Straty usuwa się dopiero wtedy",
     "4. Powtórz kroki 1–3. Tylko jeśli"),
    ("ru", "Приказы записываются тайно", "Примечание: Потери снимаются только после того",
     "4. Повторите шаги 1–3. Только если"),
])
def test_phase_rules_and_notes_and_a_repeated_step(sample, lang, rule, note, repeat):
    text = text_of(sample[0], "cm", lang)
    orders = text[text.index("4.2 "):text.index("4.3 ")]
    assert orders.index(rule) < orders.index("1. ")  # notes_position: before
    fire = text[text.index("4.4 "):text.index("4.5 ")]
    assert fire.index(note) > fire.index("2. ")  # after the steps, by default
    assert repeat in text
    # the phase without a title: its number, then its first step
    assert re.search(r"4\.6 1\. \S", text)


@pytest.mark.parametrize("lang, edition, values", [
    ("en", "cm", ["within 30 cm", "45°", "½ move", "fires at −1", "lost 3 or more", "21 May 1809",
                  "after 20 May 1809."]),
    ("en", "inch", ["within 12 in", "at 6 in or less", "within 8 in"]),
    ("pl", "cm", ["promieniu 30 cm", "45°", "½ ruchu", "modyfikatorem −1", "21 maja 1809", "po 20 maja 1809."]),
    ("pl", "inch", ["promieniu 12 cali", "6 cali lub mniejszej", "do 8 cali"]),
    ("ru", "cm", ["не далее 30 см", "45°", "½ хода", "модификатором −1", "21 мая 1809 г.",
                  "после 20 мая 1809 г. 4.4 "]),  # the date's own period ends the sentence
    ("ru", "inch", ["не далее 12 дюйм.", "на 6 дюйм. или меньше"]),
])
def test_numbers_dates_and_quantities_per_language_and_edition(sample, lang, edition, values):
    text = text_of(sample[0], edition, lang)
    for value in values:
        assert value in text
    assert "г.." not in text


def html_text(project, lang: str) -> str:
    """The HTML page's words on one line (tags dropped, no-break spaces as spaces)."""
    html = (project.output / GAME / "cm" / lang / "turn-sequence.html").read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html).replace("\u00a0", " "))


@pytest.mark.parametrize("lang, opening, items", [
    ("en", "4. A unit may not fire if it:",
     ["moved more than half its move this turn;", "is in contact with an enemy unit;", "is disordered"]),
    ("pl", "4. Oddział nie może strzelać, jeśli:",
     ["w tej turze przebył więcej niż połowę swojego ruchu;", "styka się z oddziałem nieprzyjaciela;",
      "jest w nieładzie"]),
    ("ru", "4. Часть не может стрелять, если она:",
     ["в текущем ходу прошла больше половины своей дистанции движения;", "соприкасается с частью противника;",
      "расстроена"]),
])
def test_a_bulleted_list_inside_a_step_continues_its_sentence_in_lower_case(sample, lang, opening, items):
    """bullets: an unordered list, unnumbered, its items printed as typed (no capital forced)."""
    project = sample[0]
    html = (project.output / GAME / "cm" / lang / "turn-sequence.html").read_text(encoding="utf-8")
    listed = re.search(r'<ul class="bullets">(.*?)</ul>', html, re.S)
    assert listed and [re.sub(r"<[^>]+>", "", i).replace("\u00a0", " ") for i in
                       re.findall(r"<li>(.*?)</li>", listed.group(1))][:2] == items[:2]
    assert "ol.steps ul.bullets" in html  # its style, included only where a list is
    lines = lines_of(project, "cm", lang)
    at = next(i for i, line in enumerate(lines) if line.startswith(opening))
    assert [line.startswith("• ") for line in lines[at + 1:at + 4]] == [True] * 3
    text = text_of(project, "cm", lang)
    for item in items:
        assert item in text and item[:1].upper() + item[1:] not in text


@pytest.mark.parametrize("lang, sentence", [
    ("en", "Both players reveal their orders. Phasing player carries out withdrawals first."),
    ("pl", "Obaj gracze odkrywają rozkazy. Gracz aktywny jako pierwszy wykonuje odwroty."),
    ("ru", "Оба игрока открывают приказы. Активный игрок первым выполняет отходы."),
])
def test_a_role_that_begins_a_sentence_is_capitalized(sample, lang, sentence):
    assert sentence in text_of(sample[0], "cm", lang)
    assert sentence in html_text(sample[0], lang)


@pytest.mark.parametrize("lang, words", [
    ("en", "is disordered (in detail, see Chapter VI)."),
    ("pl", "jest w nieładzie (szczegółowo w Rozdziale VI)."),
    ("ru", "расстроена (подробно см. Главу VI)."),
])
def test_own_words_around_a_chapter_reference_in_the_case_the_catalog_gives(sample, lang, words):
    assert words in text_of(sample[0], "cm", lang)
    assert words in html_text(sample[0], lang)


def test_a_phase_its_source_does_not_name_prints_its_number_beside_its_text(sample):
    """The end of turn has a number (4.6) and no title, as its source means (docs/guide/sequences.md): it printed
    as a heading line holding "4.6" alone, in every language and edition, PDF, HTML and EPUB. Its number now stands
    beside its first line and its text under it, as a step's label does: in the PDF read back, on the web page and
    in the e-book by the same markup and stylesheet (templates/aids.css)."""
    import zipfile

    import lxml.html
    project = sample[0]
    for edition in EDITIONS:
        for lang in LANGS:
            lines = lines_of(project, edition, lang)
            assert not [line for line in lines if re.fullmatch(r"\d+(\.\d+)+", line)], (edition, lang)
            assert [line for line in lines if re.match(r"4\.6\s+1\.\s+\S", line)], (edition, lang)
            folder = project.output / GAME / edition / lang
            page = lxml.html.parse(str(folder / "turn-sequence.html")).getroot()
            with zipfile.ZipFile(folder / "turn-sequence.epub") as book:
                chapter = next(book.read(n) for n in book.namelist() if b'id="end-of-turn"' in book.read(n))
                sheet = book.read(next(n for n in book.namelist() if n.endswith(".css"))).decode()
            for root, css in ((page, "".join(page.xpath("//style/text()"))),
                              (lxml.html.fromstring(chapter), sheet)):
                [heading] = root.xpath("//*[@id='end-of-turn']")
                assert "".join(heading.itertext()).strip("#\xa0 ") == "4.6"
                assert "untitled" in heading.getparent().get("class", "").split()
                # in a grid column of its own, drawn (and extracted) before the text it numbers
                assert re.search(r"\.phase\.untitled > \.phase-title \{[^}]*grid-column: 1;", css)
