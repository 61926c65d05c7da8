"""`aids errata`: a demonstration project (aids init) released as 1.0, its PDFs kept as the owners printed them,
then edited (a step reworded, one inserted, one removed, a table value changed, a section inserted in the
booklet); the errata sheet of each language read back: each change at the page and column where it stood in
1.0's PDF (checked against that PDF's own anchors), with its new text."""
import re
import shutil

import pypdf
import pytest

from .helpers import edit, pdf_text, reissue_demo, run
from .test_release import GAME


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """The project released as 1.0 with its PDFs kept elsewhere (en) and where the archive keeps them (pl), then
    edited."""
    root = tmp_path_factory.mktemp("errata") / "demo"
    assert run("init", root)[0] == 0
    assert run("--project", root, "release", "1.0", "--date", "2026-01-10")[0] == 0
    code, _, err = run("--project", root, "build", "--jobs", "1", "--format", "pdf", "--lang", "en", "--lang", "pl")
    assert code == 0, err
    shutil.copytree(root / "build" / GAME / "en", root.parent / "print-1.0" / "en")
    shutil.copytree(root / "build" / GAME / "pl", root / "build" / GAME / "1.0" / "pl")
    folder = root / "games" / GAME
    reissue_demo(folder)
    edit(folder / "rules" / "introduction.md", "## Units {#units}",
         "## Scale {#scale}\n\nEach hex is 100 metres across; each turn is ten minutes.\n\n## Units {#units}")
    code, out, err = run("--project", root, "errata", "1.0", "--lang", "en", "--pdfs", root.parent / "print-1.0")
    assert code == 0, err
    assert out.strip() == f"wrote build/{GAME}/en/errata-1.0.pdf"
    code, out, err = run("--project", root, "errata", "1.0", "--lang", "pl")  # from the archive's folder
    assert code == 0, err
    return root


def places(pdf) -> dict[str, tuple[int, float, float]]:
    """Anchor -> (page from 1, x, page width) in a PDF, from its named destinations."""
    reader = pypdf.PdfReader(pdf)
    return {name: (reader.get_destination_page_number(d) + 1, float(d.left), float(reader.pages[0].mediabox.width))
            for name, d in reader.named_destinations.items()}


def sheet(path, titles=("Sequence of play", "Player aid", "Rules of play")) -> dict[str, list[tuple[str, str]]]:
    """The errata sheet read back: per aid (by its title), its entries as (where · what · number, the text in its
    box, its lines joined)."""
    lines = [" ".join(line.split()) for line in pdf_text(path).replace("\xa0", " ").splitlines() if line.strip()]
    out: dict[str, list[tuple[str, str]]] = {}
    aid, entry = "", None
    for line in lines[2:]:  # after the title and the instructions
        if line in titles:
            aid, entry = line, None
        elif re.match(r"^(page|strona|стр)", line):
            entry = [line, ""]
            out.setdefault(aid, []).append(entry)
        elif entry is not None and not re.fullmatch(r"\d+ / \d+", line):
            entry[1] = f"{entry[1]} {line}".strip()
    return {aid: [tuple(e) for e in entries] for aid, entries in out.items()}


def test_each_change_is_where_it_stood_in_the_printed_copy(printed):
    old = printed.parent / "print-1.0" / "en"
    sequence, sheet_pdf, rules = (places(old / f"{aid}.pdf") for aid in ("sequence-of-play", "playsheet", "rules"))
    found = sheet(printed / "build" / GAME / "en" / "errata-1.0.pdf")
    assert list(found) == ["Sequence of play", "Player aid", "Rules of play"]
    steps = dict((text, where) for where, text in found["Sequence of play"])
    # the sequence is one column: its page alone
    assert steps["3, step 1 Each unit with a fire order fires at one enemy unit in range and in sight."] == \
        f"page {sequence['combat/fire'][0]} · replace · 3, step 1"
    assert steps["4, step 1 Each unit out of contact may rally."] == \
        f"page {sequence['end-of-turn'][0]} · insert · 4, step 1"  # after its phase's title, the item before it
    assert steps["Each player gives each of their units one order, to move or to fire."] == \
        f"page {sequence['command/orders'][0]} · strike out"
    # the playsheet has two columns: the terrain table stands in the second, right of the middle
    page, x, width = sheet_pdf["terrain/woods"]
    assert x > width / 2 and sheet_pdf["turn"][1] < width / 2
    assert found["Player aid"] == [(f"page {page}, column 2 · replace", "Woods: Movement cost → 3; Fire modifier → −2")]
    # the booklet: the table on its page, the new section where the one before it stood
    booklet = dict((text, where) for where, text in found["Rules of play"])
    assert booklet["Woods: Movement cost → 3; Fire modifier → −2"] == f"page {rules['terrain/woods'][0]} · replace"
    assert rules["terrain/woods"][0] > 1
    scale = next(text for text in booklet if "Scale" in text)
    assert booklet[scale] == f"page {rules['introduction'][0]} · insert · 1.1"


def test_the_sheet_of_each_language_is_in_that_language(printed):
    archive = printed / "build" / GAME / "1.0" / "pl"
    sequence = places(archive / "sequence-of-play.pdf")
    text = pdf_text(printed / "build" / GAME / "pl" / "errata-1.0.pdf").replace("\xa0", " ")
    assert "errata do wersji 1.0" in text
    assert f"strona {sequence['combat/fire'][0]} · zastąp · 3, krok 1" in text
    assert "skreśl" in text and "wstaw" in text


def test_the_boxes_are_as_wide_as_a_column_of_the_printed_copy(printed):
    """The playsheet (A4, two columns): a box of about 93 mm, its column less a gutter; the sequence (one column):
    the width of its text."""
    from aids.releases.errata import read_places
    old = printed.parent / "print-1.0" / "en"
    playsheet = read_places(old / "playsheet.pdf", "playsheet.pdf")
    assert playsheet.columns == 2 and 85 < playsheet.width < 100
    sequence = read_places(old / "sequence-of-play.pdf", "sequence-of-play.pdf")
    assert sequence.columns == 1 and 175 < sequence.width < 185


def test_an_unknown_version_or_no_pdfs_is_one_line(printed):
    code, _, err = run("--project", printed, "errata", "0.9")
    assert code == 1 and err.strip().endswith("(expected: one of: 1.0)") and "Traceback" not in err
    code, _, err = run("--project", printed, "errata", "1.0", "--pdfs", printed / "nowhere")
    assert code == 1 and "no PDFs of version 1.0 here" in err


def test_the_same_sources_give_the_same_sheet(printed):
    path = printed / "build" / GAME / "pl" / "errata-1.0.pdf"
    before = path.read_bytes()
    assert run("--project", printed, "errata", "1.0", "--lang", "pl")[0] == 0
    assert path.read_bytes() == before
