"""The Lwów 1920 referee card as a referee gets it, in every language: page sizes, boxes, fonts, figures, HTML."""
import re
from html.parser import HTMLParser

import pytest
from pypdf import PdfReader

from aids.source.yamlfile import read_yaml

from ..helpers import PT_PER_MM, REPO, STANDARD_14, card_type_sizes, pdf_fonts, pdf_text, rerender

LANGS = ["pl", "en", "ru"]
GAME = "lwow-1920"
VICTORY_POINTS = ["+30", "+10", "+6", "+2", "+3", "+1", "\u22123", "\u22125"]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def out(project, lang, suffix):
    return project.output / GAME / lang / f"referee-card{suffix}"


def box_mm(page, name):
    return [round(float(v) / PT_PER_MM, 1) for v in page[name]]


def test_six_files_a_language_no_warning_all_translated(sample):
    """The page, the card, its sheet, the duplex test page; and the card and its sheet in gray, which the
    samples' aids.yaml asks for (tests/render/test_colour_access.py)."""
    project, summary = sample
    built = [b for b in summary.built if b.game == GAME]
    assert sorted(f for b in built for f in b.files) == sorted(
        f"build/{GAME}/{lang}/referee-card{suffix}" for lang in LANGS
        for suffix in (".html", ".pdf", "-sheet.pdf", "-duplex-test.pdf", "-gray.pdf", "-sheet-gray.pdf"))
    assert [w for b in built for w in b.warnings] == []
    assert not any(game == GAME for game, _ in summary.fallbacks)
    for b in built:  # the one type size of both faces is reported, and the sections that moved to the other face
        assert re.fullmatch(r"type [\d.]+ pt \(from 8 to 10 pt\)(, ('[a-z-]+', )*'[a-z-]+' moved to the "
                            r"(front|back))*", b.notes[0]), b.notes[0]
        assert list(b.fitted) == [""] and b.fitted[""] >= 8
        assert b.notes[1:] == ["sheet A4, 2 up", "duplex test page, backs moved by (0.0, 0.0) mm",
                               "gray: for a monochrome printer", "gray sheet A4, 2 up"]


@pytest.mark.parametrize("lang", LANGS)
def test_card_is_a5_front_and_back_with_trim_box(sample, lang):
    reader = PdfReader(out(sample[0], lang, ".pdf"))
    assert len(reader.pages) == 2
    for page in reader.pages:
        width, height = float(page.mediabox.width) / PT_PER_MM, float(page.mediabox.height) / PT_PER_MM
        assert abs(width - 148) < 0.1 and abs(height - 210) < 0.1
        assert "/TrimBox" in page and box_mm(page, "/TrimBox") == [0, 0, 148, 210]
    assert reader.trailer["/Root"]["/Lang"] == lang


@pytest.mark.parametrize("lang", LANGS)
def test_sheet_is_a4_plus_bleed_with_trim_and_bleed_boxes(sample, lang):
    reader = PdfReader(out(sample[0], lang, "-sheet.pdf"))
    assert len(reader.pages) == 2  # fronts, then backs
    for page in reader.pages:
        size = sorted([float(page.mediabox.width) / PT_PER_MM, float(page.mediabox.height) / PT_PER_MM])
        assert abs(size[0] - 216) < 0.1 and abs(size[1] - 303) < 0.1  # 210 x 297 plus 3 mm bleed all round
        trim = box_mm(page, "/TrimBox")
        assert trim[:2] == [3, 3] and sorted([round(trim[2] - 3, 1), round(trim[3] - 3, 1)]) == [210, 297]
        assert box_mm(page, "/BleedBox") == [0, 0, round(float(page.mediabox.width) / PT_PER_MM, 1),
                                              round(float(page.mediabox.height) / PT_PER_MM, 1)]
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"
    text = squash(pdf_text(out(sample[0], lang, "-sheet.pdf")))
    assert text.count("+30") == 2  # two cards to a sheet


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("suffix", [".pdf", "-sheet.pdf"])
def test_every_font_is_embedded_and_none_is_a_standard_one(sample, lang, suffix):
    fonts = pdf_fonts(out(sample[0], lang, suffix))
    assert fonts and all(fonts.values()), fonts
    assert not {name.lstrip("/").split("+")[-1] for name in fonts} & STANDARD_14
    assert all("DejaVuSans" in name for name in fonts), fonts


@pytest.mark.parametrize("lang, words", [
    ("pl", ["11 sierpnia", "3 punkty", "2 punkty", "1 punkt", "0 punktów", "0:2", "Wojciech Sieroń", "Sędzia główny"]),
    ("en", ["11 August", "3 points", "2 points", "1 point", "0 points", "0:2", "Wojciech Sieroń", "Chief referee"]),
    ("ru", ["11 августа", "3 очка", "2 очка", "1 очко", "0 очков", "0:2", "Wojciech Sieroń", "Главный судья"]),
])
def test_every_figure_in_every_language(sample, lang, words):
    text = squash(pdf_text(out(sample[0], lang, ".pdf")))
    for value in VICTORY_POINTS:
        assert re.search(rf"(?<![\d+\u2212]){re.escape(value)}(?!\d)", text), value
    assert not re.search(r"(?<!\w)-\d", text), "negative points use a true minus sign"
    for word in words:
        assert word in text, word


@pytest.mark.parametrize("lang, steps, turns", [
    ("pl", "1. 2. 3. 4. 5. 6. 7.", "A. B. C."),
    ("en", "1. 2. 3. 4. 5. 6. 7.", "A. B. C."),
    ("ru", "1. 2. 3. 4. 5. 6. 7.", "А. Б. В."),
])
def test_set_up_steps_and_turn_phases_are_labelled(sample, lang, steps, turns):
    lines = pdf_text(out(sample[0], lang, ".pdf")).splitlines()
    labels = [m.group(1) for line in lines if (m := re.match(r"\s*(\d\.|[A-ZА-Я]\.)\s", line))]
    numbers = [label for label in labels if label[0].isdigit()]
    letters = [label for label in labels if not label[0].isdigit()]
    assert " ".join(numbers[:7]) == steps  # set-up 1-7 (the fair-play ladder follows with 1-4)
    assert letters == turns.split()[:2] + turns.split()  # Bolshevik turn A, B; Polish turn A, B, C


class Structure(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.sections, self.lang = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if tag == "html":
            self.lang = attrs.get("lang")
        if (tag == "section" or tag == "h2") and attrs.get("id"):  # a section's id, on its heading if it has one
            self.sections.append(attrs["id"])


@pytest.mark.parametrize("lang", LANGS)
def test_html_has_the_same_sections_in_the_same_order(sample, lang):
    page = Structure()
    page.feed(out(sample[0], lang, ".html").read_text(encoding="utf-8"))
    source = read_yaml(REPO / "games" / GAME / "referee-card.yaml").data
    assert page.lang == lang and page.tags.count("script") <= 2  # the language switcher's, the search loader
    assert page.sections == [str(s["id"]) for s in source["sections"]]
    assert page.tags.count("article") == 2 and page.tags.count("table") == 5
    assert page.tags.count("h2") == sum(1 for s in source["sections"] if "title" in s)


@pytest.mark.parametrize("lang", LANGS)
def test_both_faces_are_set_at_one_size_of_8_pt_or_more_in_every_pdf(sample, for_print, lang):
    """Read back from what a printer gets: every face of the card, of its sheet (two cards a page) and of its
    press PDF has the same body size, nothing above the colophon below 8 pt, the colophon at 6.5 pt or more."""
    project, summary = sample
    size = next(b for b in summary.built if b.game == GAME and b.lang == lang).fitted[""]
    paths = [out(project, lang, ".pdf"), out(project, lang, "-sheet.pdf"), out(for_print, lang, "-press.pdf")]
    for path in paths:
        faces = card_type_sizes(path)
        assert len(faces) == 2, path
        for body, smallest, colophon in faces:
            assert body == size >= 8 and smallest >= 8 and colophon >= 6.5, (path.name, body, smallest, colophon)


def test_same_sources_same_bytes(sample):
    project, _ = sample
    again = rerender(project, GAME, "ru")
    for suffix in (".pdf", "-sheet.pdf", ".html"):
        assert again[suffix].data == out(project, "ru", suffix).read_bytes()


def test_a_translation_over_its_budget_fails_its_language_alone_and_is_named(tmp_path):
    """One Russian text grown far past its budget (`aids budgets`): the card fails in Russian only, its Polish
    source and its English are written as ever (their PDFs read back), and the error names the entry (its catalog
    and the line of its msgstr, its msgctxt) and by how much it is over, before the section that no longer fits."""
    import shutil

    from aids.config import read_project
    from aids.pipeline import builder
    from aids.pipeline.pipeline import Options

    root = tmp_path / "samples"
    for name in ("games", "i18n"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
    (root / "aids.yaml").write_text((REPO / "aids.yaml").read_text().replace("ui_domain: true", "ui_domain: false"))
    catalog = root / f"i18n/ru/LC_MESSAGES/{GAME}.po"
    lines = catalog.read_text(encoding="utf-8").split("\n")
    at = lines.index('msgctxt "referee-card/air-movement/one-per-field"')
    msgstr = next(n for n in range(at, len(lines)) if lines[n].startswith("msgstr"))
    budget = int(re.search(r"budget (\d+) characters", "\n".join(lines[at - 5:at])).group(1))
    lines[msgstr + 1] = lines[msgstr + 1][:-1] + " Это правило действует и ночью, и в тумане." * 30 + '"'
    catalog.write_text("\n".join(lines), encoding="utf-8")
    length = len("".join(re.findall(r'"(.*)"', "\n".join(lines[msgstr:msgstr + 3]))))

    summary = builder.build(read_project(root), Options(games=[GAME], formats=["pdf"]))
    card = root / "build" / GAME
    assert sorted(p.parent.name for p in card.glob("*/referee-card.pdf")) == ["en", "pl", "pl+en"]
    assert "Na polu może stać tylko jeden żeton samolotu." in squash(pdf_text(card / "pl/referee-card.pdf"))
    assert "Only one aircraft counter may stand in a space." in squash(pdf_text(card / "en/referee-card.pdf"))
    assert f"{GAME}/referee-card ru: not written, previous outputs kept" in summary.skipped
    errors = [str(e) for e in summary.failed]
    assert errors[0].split("\n")[0] == (
        f"i18n/ru/LC_MESSAGES/{GAME}.po:{msgstr + 1}: msgctxt 'referee-card/air-movement/one-per-field': {length} "
        f"characters, {length - budget} over its budget of {budget} (expected: at most {budget} characters, the "
        "room referee-card has for it (aids budgets measures the budgets again))")
    assert "language ru: section" in errors[0].split("\n")[1] and len(errors) == 2  # and the pl+ru card's
    assert errors[1].startswith(f"i18n/ru/LC_MESSAGES/{GAME}.po:{msgstr + 1}: pl+ru referee-card: msgctxt ")
