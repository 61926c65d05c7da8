"""Aids for tournaments (docs/guide/tournaments.md), as the samples' aids.yaml asks for them: the Lwów card and the
Newbury playsheet in two languages as one, and the packet of an event, read back from the PDFs."""
import os
import re
import shutil
import subprocess
from collections import Counter

import pikepdf
import pytest
from pypdf import PdfReader

from aids.config import read_project
from aids.errors import AidsError
from aids.pipeline import builder
from aids.pipeline.pipeline import Options
from aids.source.yamlfile import read_yaml

from ..helpers import DEMO_EDITIONS_GAME, DEMO_PLAYSHEET, PT_PER_MM, REPO, edit, make_project, run, text_runs

SITE = "https://rules.example.org/aids"
PACKET = """
  - id: ostroleka-day
    game: ostroleka-1831
    event: Ostrołęka Day
    date: 2027-05-26
    languages: [en, ru]
    aids: [sequence-of-play]
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The samples' games with bilingual aids and packets, built with the samples' aids.yaml, which gets a site_url
    (for the QR codes) and a second packet, of a game released (Ostrołęka 1831, its sources those of release 1.1)."""
    root = tmp_path_factory.mktemp("tournament")
    shutil.copytree(REPO / "i18n", root / "i18n", ignore=shutil.ignore_patterns("*.mo"))
    for game in ("lwow-1920", "newbury-fast-play", "ostroleka-1831"):
        shutil.copytree(REPO / "games" / game, root / "games" / game)
    text = (REPO / "aids.yaml").read_text().replace("ui_domain: true", "ui_domain: false")
    text = re.sub(r"(?m)^site_url: .*$", f"site_url: {SITE}/", text.replace("packets:\n", "packets:" + PACKET, 1))
    text = text.replace("site:\n", "site:\n  games: [lwow-1920, newbury-fast-play, ostroleka-1831]\n", 1)
    (root / "aids.yaml").write_text(text)
    project = read_project(root)
    summary = builder.build(project, Options(games=["lwow-1920", "ostroleka-1831"], formats=["html", "pdf"]))
    assert not summary.failed, "\n".join(str(e) for e in summary.failed)
    summary = builder.build(project, Options(games=["newbury-fast-play"], editions=["cm"], formats=["html", "pdf"]))
    assert not summary.failed, "\n".join(str(e) for e in summary.failed)
    return project


def halves(page, width):
    """The text runs of a page twice a card wide: (left half's, right half's)."""
    runs = text_runs(page)
    return [r for r in runs if r[0] < width], [r for r in runs if r[0] >= width]


def body_size(runs):
    return Counter(r[2] for r in runs).most_common(1)[0][0]


def joined(runs):
    """The text of `runs`, in lower case (a back's running title is in capitals)."""
    return " ".join(r[4] for r in runs).lower()


def card_sizes(project):
    """The type size of the Lwów card in each language alone, as the build fitted it."""
    sizes = {}
    for lang in ("pl", "en", "ru"):
        record = read_yaml(project.output / ".aids-cache" / "records" / "lwow-1920" / "referee-card" / "-" / lang /
                           "pdf.json", "record").data
        sizes[lang] = record["fitted"][""]
    return sizes


@pytest.mark.parametrize("pair", [("pl", "en"), ("pl", "ru")])
def test_bilingual_card_one_language_a_half_both_in_one_size(built, pair):
    path = built.output / "lwow-1920" / "+".join(pair) / "referee-card.pdf"
    reader = PdfReader(path)
    width = 148 * PT_PER_MM
    assert len(reader.pages) == 2
    front, back = (halves(page, width) for page in reader.pages)
    for page in reader.pages:
        assert abs(float(page.mediabox.width) - 2 * width) < 0.5 and abs(float(page.mediabox.height) - 210 * PT_PER_MM) < 0.5
    titles = {"pl": "skrót zasad", "en": "rules summary", "ru": "краткие правила"}
    # the front: the first language on the left; the back mirrored (behind its own front when printed duplex)
    assert titles[pair[0]] in joined(front[0]) and titles[pair[1]] in joined(front[1])
    assert titles[pair[1]] in joined(back[0]) and titles[pair[0]] in joined(back[1])
    assert titles[pair[1]] not in joined(front[0]) and titles[pair[0]] not in joined(front[1])
    # one type size on every face of both, the smaller of the two each fits alone, never below the card's floor
    sizes = card_sizes(built)
    common = min(sizes[lang] for lang in pair)
    bodies = {body_size(side) for page in (front, back) for side in page}
    assert bodies == {common}, (bodies, sizes)
    assert common >= 8  # the card's min_font_size
    # nothing runs over its half or off the page (the colophon included)
    for left, right in (front, back):
        assert all(0 < r[0] < width and 0 < r[1] < 210 * PT_PER_MM for r in left)
        assert all(width < r[0] < 2 * width and 0 < r[1] < 210 * PT_PER_MM for r in right)


def test_bilingual_card_in_a_smaller_size_than_one_language_alone(built):
    """pl+ru is set in Russian's size, below Polish's own: the two read alike."""
    sizes = card_sizes(built)
    assert sizes["ru"] < sizes["pl"], sizes
    front = halves(PdfReader(built.output / "lwow-1920" / "pl+ru" / "referee-card.pdf").pages[0], 148 * PT_PER_MM)
    assert body_size(front[0]) == sizes["ru"] == body_size(front[1])


def test_bilingual_playsheet_front_and_back_in_one_size(built):
    path = built.output / "newbury-fast-play" / "cm" / "pl+en" / "playsheet.pdf"
    reader = PdfReader(path)
    alone = {lang: PdfReader(built.output / "newbury-fast-play" / "cm" / lang / "playsheet.pdf") for lang in ("pl", "en")}
    budget = 2
    assert len(alone["pl"].pages) <= budget and len(alone["en"].pages) <= budget
    assert len(reader.pages) == 2 * max(len(r.pages) for r in alone.values())  # a sheet's front and back each
    texts = [page.extract_text() for page in reader.pages]
    assert "Ściągawka do szybkiej gry napoleońskiej" in texts[0] and "Fast Play Napoleonic Playsheet" in texts[1]
    assert "Fast Play Napoleonic Playsheet" not in texts[0] and "Ściągawka" not in texts[1]
    for front, back in zip(reader.pages[0::2], reader.pages[1::2]):  # each sheet: the same page in both languages
        assert body_size(text_runs(front)) == body_size(text_runs(back))
    for page in reader.pages:  # A4 landscape, nothing off the page
        assert abs(float(page.mediabox.width) - 297 * PT_PER_MM) < 0.5
        assert all(0 <= r[0] <= 297 * PT_PER_MM and 0 <= r[1] <= 210 * PT_PER_MM for r in text_runs(page))


def test_a_bilingual_pdf_is_reproducible_and_cached(built):
    path = built.output / "lwow-1920" / "pl+en" / "referee-card.pdf"
    before = path.read_bytes()
    summary = builder.build(built, Options(games=["lwow-1920"], formats=["html", "pdf"], force=True))
    assert path.read_bytes() == before  # rendered again: the same bytes
    path.unlink()
    summary = builder.build(built, Options(games=["lwow-1920"], formats=["html", "pdf"]))
    assert path.read_bytes() == before and "lwow-1920/pl+en/referee-card.pdf" in summary.tournament


def packet(built, name):
    return built.output / name.split("/")[0] / "packets" / f"{name.split('/')[1]}.pdf"


def cover_text(path):
    return PdfReader(path).pages[0].extract_text()


def test_packet_pages_are_cover_and_aids_with_a_bookmark_each(built):
    path = packet(built, "lwow-1920/lwow-cup-2026")
    aids = [built.output / "lwow-1920" / lang / "referee-card.pdf" for lang in ("pl", "en")]
    pages = [len(PdfReader(p).pages) for p in aids]
    reader = PdfReader(path)
    assert len(reader.pages) == 2 + sum(pages)  # the cover's page, its blank back, the two cards
    # the aids' pages as they are: the same text, in order
    assert reader.pages[2].extract_text() == PdfReader(aids[0]).pages[0].extract_text()
    assert reader.pages[2 + pages[0]].extract_text() == PdfReader(aids[1]).pages[0].extract_text()
    marks = [(item.title, reader.get_destination_page_number(item)) for item in reader.outline
             if not isinstance(item, list)]  # (a list: the aid's own bookmarks, under its own)
    assert marks == [("Okładka", 0), ("Skrót zasad (Polski)", 2), ("Rules summary (English)", 2 + pages[0])]


VERSION = re.compile(r"(Wersja|Version|Версия)\s+(\d[\w.]*)")


def duplex_sheets(path, aids):
    """The packet at `path` read back as a duplex printer prints it, its aids (language -> the PDF the build
    wrote, in the packet's order) among its pages: every page one paper size, the aids'; the cover and each aid
    starting on the front of a sheet, every face of an aid's sheets its own page as the aid has it; the PDF asking
    for duplex. Returns (the cover's pages, the version each page prints)."""
    reader = PdfReader(path)
    sizes = {(round(float(page.mediabox.width), 1), round(float(page.mediabox.height), 1)) for page in reader.pages}
    own = {(round(float(page.mediabox.width), 1), round(float(page.mediabox.height), 1))
           for aid in aids.values() for page in PdfReader(aid).pages}
    assert sizes == own and len(own) == 1, (sizes, own)  # one paper size: the aids'
    width, height = next(iter(own))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == (
        "/DuplexFlipLongEdge" if height > width else "/DuplexFlipShortEdge")
    marks = [reader.get_destination_page_number(item) for item in reader.outline if not isinstance(item, list)]
    assert marks[0] == 0 and len(marks) == 1 + len(aids)
    starts = marks[1:]
    for i, (start, aid) in enumerate(zip(starts, aids.values())):
        pages = PdfReader(aid).pages
        assert start % 2 == 0  # on the front of a sheet: its second page on the back of the same sheet
        for n, page in enumerate(pages):
            assert reader.pages[start + n].extract_text() == page.extract_text()
        end, following = start + len(pages), (starts[i + 1] if i + 1 < len(starts) else len(reader.pages))
        assert following - end == (end % 2 if i + 1 < len(starts) else 0)  # a blank back only where needed
        assert all(not reader.pages[n].extract_text().strip() for n in range(end, following))
    versions = [{m.group(2) for m in VERSION.finditer(page.extract_text())} for page in reader.pages]
    return starts[0], versions


def test_packet_prints_duplex_on_the_aids_paper_with_one_version(built):
    """A5 cards: the cover on A5 too, a blank back behind it, each card's front and back one sheet; the version
    every card's page prints is the one its cover states, in the same words, in each language."""
    aids = {lang: built.output / "lwow-1920" / lang / "referee-card.pdf" for lang in ("pl", "en")}
    cover_pages, versions = duplex_sheets(packet(built, "lwow-1920/lwow-cup-2026"), aids)
    assert cover_pages == 2 and versions == [{"1.0"}, set(), {"1.0"}, {"1.0"}, {"1.0"}, {"1.0"}]
    text = " ".join(cover_text(packet(built, "lwow-1920/lwow-cup-2026")).split())
    assert text.count("Wersja 1.0") == 1 and text.count("Version 1.0") == 1  # each block, as its card says it
    assert "No release of this version is recorded" in text  # game.yaml names 1.0; aids release never recorded it
    assert "no version" not in text and "żadna wersja" not in text
    aids = {lang: built.output / "ostroleka-1831" / lang / "sequence-of-play.pdf" for lang in ("en", "ru")}
    _, versions = duplex_sheets(packet(built, "ostroleka-1831/ostroleka-day"), aids)
    assert set().union(*versions) == {"1.1"}


def test_packet_cover_names_game_version_event_and_date_per_locale(built):
    text = " ".join(cover_text(packet(built, "lwow-1920/lwow-cup-2026")).split())
    assert "Lwów 1920" in text and "Turniej „Lwów 1920”, Wrocław" in text
    assert "15 sierpnia 2026" in text and "15 August 2026" in text  # each block dated as its language dates
    assert "Wersja 1.0" in text and "Version 1.0" in text and "The rules as they stand now on the web" in text
    text = " ".join(cover_text(packet(built, "ostroleka-1831/ostroleka-day")).split())
    assert "Ostrołęka Day" in text and "26 May 2027" in text and "26 мая 2027" in text
    assert "Version 1.1 As released, unchanged since." in text  # its sources are those of release 1.1
    assert "This release on the web, kept for good" in text
    printed = "".join(text.split())  # an address wraps where the QR code's column ends
    assert f"{SITE}/ostroleka-1831/1.1/en/" in printed and f"{SITE}/ostroleka-1831/1.1/ru/" in printed


ZBAR = pytest.mark.skipif(shutil.which("zbarimg") is None and not os.environ.get("CI"),
                          reason="no zbarimg (Debian's zbar-tools, installed by ./bootstrap test)")


def qr_codes(path, folder) -> list[str]:
    """The addresses of the cover's QR codes, rasterised from the PDF (poppler) and decoded (zbar)."""
    subprocess.run(["pdftoppm", "-r", "200", "-f", "1", "-l", "1", "-png", str(path), str(folder / "cover")],
                   check=True)
    image = next(folder.glob("cover*.png"))
    return subprocess.run(["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", str(image)],
                          capture_output=True, text=True, check=True).stdout.split()


@ZBAR
@pytest.mark.parametrize("name, urls", [
    ("lwow-1920/lwow-cup-2026", [f"{SITE}/lwow-1920/pl/", f"{SITE}/lwow-1920/en/"]),
    ("ostroleka-1831/ostroleka-day", [f"{SITE}/ostroleka-1831/1.1/en/", f"{SITE}/ostroleka-1831/1.1/ru/"]),
])
def test_packet_qr_codes_decode_to_the_version_pages(built, tmp_path, name, urls):
    """Each language's block of the cover leads to that language's page of the version (the release's, or for an
    unreleased state the game's current page)."""
    assert sorted(qr_codes(packet(built, name), tmp_path)) == sorted(urls)
    assert all(url in "".join(cover_text(packet(built, name)).split()) for url in urls)  # printed under it


@ZBAR
def test_the_sample_packet_leads_to_the_sample_sites_pages(sample, tmp_path):
    """The samples' own packet, as `./bootstrap build` makes it: the samples' site_url in its QR codes."""
    project, _ = sample
    path = project.output / "lwow-1920" / "packets" / "lwow-cup-2026.pdf"
    urls = [f"{project.site_url}/lwow-1920/{lang}/" for lang in ("pl", "en")]
    assert project.site_url == "https://aids.example.org/samples"
    assert sorted(qr_codes(path, tmp_path)) == sorted(urls)
    assert all(url in "".join(cover_text(path).split()) for url in urls)
    assert not re.search(r"(Strona|Page)\s1\s(z|of)\s1", cover_text(path))  # no count of its own: "1 of 1"
    aids = {lang: project.output / "lwow-1920" / lang / "referee-card.pdf" for lang in ("pl", "en")}
    cover_pages, versions = duplex_sheets(path, aids)
    assert cover_pages == 2 and set().union(*versions) == {"1.0"} and versions[0] == {"1.0"}


def test_packet_is_vector_and_reproducible(built):
    path = packet(built, "lwow-1920/lwow-cup-2026")
    with pikepdf.open(path) as pdf:  # the QR code is drawn, not an image
        assert not pdf.pages[0].get_images()
    before = path.read_bytes()
    builder.build(built, Options(games=["lwow-1920"], formats=["html", "pdf"], force=True))
    assert path.read_bytes() == before


def test_game_page_lists_bilingual_pdfs_and_the_packet(built):
    page = (built.output / "lwow-1920" / "en" / "index.html").read_text()
    assert 'href="../pl%2Ben/referee-card.pdf"' in page and 'href="../pl%2Bru/referee-card.pdf"' in page
    assert 'href="../packets/lwow-cup-2026.pdf"' in page and "Tournament packet" in page
    page = (built.output / "newbury-fast-play" / "pl" / "index.html").read_text()
    assert 'href="../cm/pl%2Ben/playsheet.pdf"' in page


def test_without_a_site_url_the_cover_says_there_is_no_qr_code(tmp_path):
    """A project that publishes no site_url: the packet is made, its cover says why it has no QR code."""
    shutil.copytree(REPO / "games" / "lwow-1920", tmp_path / "games" / "lwow-1920")
    for lang in ("en", "ru"):
        (tmp_path / "i18n" / lang / "LC_MESSAGES").mkdir(parents=True)
        shutil.copy(REPO / "i18n" / lang / "LC_MESSAGES" / "lwow-1920.po", tmp_path / "i18n" / lang / "LC_MESSAGES")
    text = (REPO / "aids.yaml").read_text().replace("ui_domain: true", "ui_domain: false")
    text = re.sub(r"(?m)^site_url: .*\n", "", text).replace("  newbury-fast-play: [pl+en]\n", "")
    (tmp_path / "aids.yaml").write_text(text)
    project = read_project(tmp_path)
    assert project.site_url is None
    summary = builder.build(project, Options(formats=["pdf"], langs=["pl", "en"]))
    assert not summary.failed, "\n".join(str(e) for e in summary.failed)
    path = project.output / "lwow-1920" / "packets" / "lwow-cup-2026.pdf"
    assert "site_url" in " ".join(cover_text(path).split())
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == 2 + 2 + 2 and not pdf.pages[0].get_images()


@pytest.mark.parametrize("setting, message", [
    ("bilingual:\n  demo: [pl+de]\n", "'pl+de' is not a pair of two languages of the project"),
    ("bilingual:\n  nothing: [pl+en]\n", "unknown game 'nothing' in bilingual"),
    ("packets:\n  - {id: cup, game: demo, event: Cup, date: 2026-01-01, languages: [pl, xx], aids: [a]}\n",
     "unknown language 'xx' in packet"),
    ("packets:\n  - {id: cup, game: demo, event: Cup, date: soon, languages: [pl], aids: [a]}\n",
     "the packet's date is not a date"),
    ("packets:\n  - {id: cup, game: demo, event: '" + "Cup " * 50_000 + "', date: 2026-01-01, languages: [pl], "
     "aids: [a]}\n", "aids.yaml:4:34: the event is not one line of at most 200 characters"),  # 200 kB, refused
    ("packets:\n  - {id: cup, game: demo, event: \"Cup \\u202e1920\", date: 2026-01-01, languages: [pl], aids: [a]}\n",
     "bidi override U+202E, which prints what follows it reversed"),  # "1920" printed "0291"
])
@pytest.mark.unit
def test_bad_settings_name_their_place(demo, setting, message):
    (demo / "aids.yaml").write_text((demo / "aids.yaml").read_text() + setting)
    with pytest.raises(AidsError) as caught:
        read_project(demo)
    assert message in str(caught.value) and "aids.yaml:" in str(caught.value)


def test_a_packet_of_an_aid_the_game_lacks_fails_naming_it(demo):
    (demo / "aids.yaml").write_text((demo / "aids.yaml").read_text() + "packets:\n  - {id: cup, game: demo, event: "
                                    "Cup, date: 2026-01-01, languages: [pl], aids: [no-such-aid]}\n")
    summary = builder.build(read_project(demo), Options(formats=["pdf"]))
    assert any("packet 'cup': game 'demo' has no aid 'no-such-aid'" in str(e) for e in summary.failed)


def with_packet(root, aids, languages=("pl", "en")):
    """The project at `root` with a packet of its demo game's `aids` in `languages`."""
    (root / "aids.yaml").write_text((root / "aids.yaml").read_text() + "packets:\n  - {id: cup, game: demo, event: Cup, "
                                    f"date: 2026-01-01, languages: [{', '.join(languages)}], aids: [{', '.join(aids)}]}}\n")
    return root


def test_each_aid_of_a_packet_starts_on_the_front_of_a_sheet(demo):
    """One-page aids: a blank back behind the cover and behind the first, so that no aid is printed on the back of
    another's sheet."""
    project = read_project(with_packet(demo, ["seq"]))
    summary = builder.build(project, Options(formats=["pdf"], langs=["pl", "en"]))
    assert not summary.failed, "\n".join(str(e) for e in summary.failed)
    aids = {lang: project.output / "demo" / lang / "seq.pdf" for lang in ("pl", "en")}
    path = project.output / "demo" / "packets" / "cup.pdf"
    cover_pages, versions = duplex_sheets(path, aids)
    assert cover_pages == 2 and len(versions) == 5  # cover, blank, seq (pl), blank, seq (en)
    text = " ".join(cover_text(path).split())
    assert re.search(r"Kolejność czynności \(polski\) 3 .* Kolejność czynności \(English\) 5", text)  # pages as printed


def test_a_packet_of_aids_no_one_paper_size_holds_is_refused_naming_them(tmp_path):
    """An A4 portrait sequence and an A4 landscape playsheet: neither holds the other unturned, and turned, a
    face would print across its back's; the packet is refused, each size named with its aids, nothing written."""
    game = DEMO_EDITIONS_GAME.replace("aids:\n", "aids:\n  - sequence.yaml\n")
    root = with_packet(make_project(tmp_path, {**DEMO_PLAYSHEET, "games/demo/game.yaml": game}), ["seq", "sheet"])
    project = read_project(root)
    summary = builder.build(project, Options(formats=["pdf"], langs=["pl", "en"], editions=["cm"]))
    assert [str(e) for e in summary.failed] == [
        "aids.yaml:4:5: packet 'cup': none of its aids' paper sizes holds the others unturned (210 × 297 mm: seq "
        "(pl, en); 297 × 210 mm: sheet (pl, en)) (expected: aids whose largest page holds every other as it stands "
        "(A5 cards with A4 pages), or a packet for each size)"]
    assert not (project.output / "demo" / "packets").exists()


def test_the_cover_says_the_pages_version_and_whether_it_is_released_as_it_stands(demo):
    """game.yaml's version is what every page prints and what the cover says; the release records say whether it
    is released as it stands: not recorded, released (its QR code the archive's), changed since."""
    root = with_packet(demo, ["seq"], ["en"])
    (root / "aids.yaml").write_text((root / "aids.yaml").read_text() + "site_url: https://example.org/aids\n")
    path = root / "build" / "demo" / "packets" / "cup.pdf"

    def cover():
        summary = builder.build(read_project(root), Options(formats=["pdf"], langs=["en"]))
        assert not summary.failed, "\n".join(str(e) for e in summary.failed)
        pages = [{m.group(2) for m in VERSION.finditer(page.extract_text())} for page in PdfReader(path).pages]
        assert set().union(*pages) == {"2.0"} and pages[0] == {"2.0"}  # the cover and the pages: one version
        return " ".join(cover_text(path).split())

    assert "Version 2.0 No release of this version is recorded: its rules may still change." in cover()
    assert run("--project", root, "release", "2.0", "--game", "demo", "--date", "2026-01-10")[0] == 0
    text = cover()
    assert "Version 2.0 As released, unchanged since." in text and "kept for good" in text
    assert "example.org/aids/demo/2.0/en/" in "".join(text.split())
    edit(root / "games" / "demo" / "sequence.yaml", "Tylko *raz* na etap.", "Tylko raz na etap.")
    text = cover()
    assert "Version 2.0 Changed since its release: the changes are not released yet." in text
    assert "example.org/aids/demo/en/" in "".join(text.split())


def words(path, page):
    """(word, x, y) of every word of a page (from 1), from its top left in pt, as poppler reads it (through the
    form a placed page is drawn in)."""
    xml = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(path), "-"],
                         capture_output=True, text=True, check=True).stdout
    return [(m[3], float(m[1]), float(m[2])) for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)<', xml)]


def test_a_smaller_card_is_placed_in_the_middle_of_the_packets_sheet_with_crop_marks(tmp_path):
    """A new project's A6 referee card and its A4 sequence of play: every page of the packet A4, the card's two
    faces one sheet, each in the middle at its own size (front and back behind each other), crop marks at its
    corners; the cover on A4."""
    root = tmp_path / "club"
    assert run("init", root)[0] == 0
    (root / "aids.yaml").write_text((root / "aids.yaml").read_text() + "packets:\n  - {id: day, game: mill-skirmish, "
                                    "event: Club day, date: 2026-12-06, languages: [en], aids: [referee-card, "
                                    "sequence-of-play]}\n")
    project = read_project(root)
    summary = builder.build(project, Options(formats=["pdf"], langs=["en"]))
    assert not summary.failed, "\n".join(str(e) for e in summary.failed)
    card, path = project.output / "mill-skirmish" / "en" / "referee-card.pdf", project.output / "mill-skirmish" / \
        "packets" / "day.pdf"
    reader, own = PdfReader(path), PdfReader(card)
    a4, a6 = (round(210 * PT_PER_MM, 1), round(297 * PT_PER_MM, 1)), (round(105 * PT_PER_MM, 1), round(148 * PT_PER_MM, 1))
    assert {(round(float(p.mediabox.width), 1), round(float(p.mediabox.height), 1)) for p in own.pages} == {a6}
    assert [(round(float(p.mediabox.width), 1), round(float(p.mediabox.height), 1)) for p in reader.pages] == [a4] * 5
    starts = [reader.get_destination_page_number(item) for item in reader.outline if not isinstance(item, list)]
    assert starts == [0, 2, 4]  # the cover, its blank back; the card's front and back; the sequence
    dx, dy = (a4[0] - a6[0]) / 2, (a4[1] - a6[1]) / 2
    for face in (1, 2):
        alone, placed = words(card, face), words(path, 2 + face)
        assert [w for w, _, _ in placed] == [w for w, _, _ in alone] and alone
        assert all(abs(x - (x0 + dx)) < 0.1 and abs(y - (y0 + dy)) < 0.1
                   for (_, x, y), (_, x0, y0) in zip(placed, alone))
        with pikepdf.open(path) as pdf:  # a crop mark each way at each corner, off the card: 8 lines
            lines = [op for _, op in pikepdf.parse_content_stream(pdf.pages[1 + face]) if str(op) == "l"]
        assert len(lines) == 8
