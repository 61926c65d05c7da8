"""A continuous booklet written in segments (render/flow.py, segments.py) is the booklet written whole: the same text
on every page, page numbers, references, bookmarks, links and structure tree; an edit lays out again only from the
segment where it starts until the layout meets the last build's, and gives the bytes of a cold build, whatever it
moves; a damaged record of the last build is not used."""
import json
import re
import shutil

import pytest

from aids.config import read_project
from aids.folder import Folder
from aids.kinds import reading
from aids.localize import making
from aids.pipeline import pipeline
from aids.render import flow, parts, segments

from ..helpers import booklet_benchmark
from .test_parts import facts

PAGES = 40  # about 36 pages laid out continuously: 4 or more segments
SENTENCE = ("Gracz aktywny wybiera jedną jednostkę i wykonuje nią wszystkie akcje, zanim przejdzie do następnej. "
            "Dowódca w zasięgu dowodzenia może zmienić wynik rzutu o jeden, ale tylko raz w każdej fazie walki. "
            "Kawaleria, która wykona szarżę, zostaje zdezorganizowana i do końca tury nie może się poruszać. ")


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("flow")
    booklet_benchmark().generate(root, PAGES, "varied")
    return root


@pytest.fixture(scope="module")
def two_columns(tmp_path_factory):
    """The booklet generated at 60 pages in two columns (the usual rulebook), its cold build and its cache."""
    root = tmp_path_factory.mktemp("columns")
    booklet_benchmark().generate(root, 60, "varied")
    rules = root / "games" / "big" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8") + "columns: 2\n", encoding="utf-8")
    cache = tmp_path_factory.mktemp("columns-cache")
    return root, render(root, cache), cache


@pytest.mark.parametrize("where", [0.2, 0.5, 0.6])
def test_a_two_column_booklet_edited_gives_a_cold_build(two_columns, tmp_path_factory, where):
    """Two columns: a word edited lays out a few pages again and gives a cold build's bytes (pagination's final
    layout does not depend on the layouts before it, render/pagination.py)."""
    root, cold, cache = two_columns
    warm, fresh = edited_build(root, cache, tmp_path_factory, f"columns{int(where * 100)}", where=where)
    assert note(cold)[0] >= 4 and note(warm)[2] is None and note(warm)[1] < cold.pages / 2, note(warm)
    assert warm.data == fresh.data and warm.data != cold.data


def render(root, cache=None):
    """The booklet's PDF in Polish, its segments kept in `cache`."""
    project = read_project(root)
    game = project.read_game("big")
    aid = reading.read_aids(project, game)[0][0]
    with parts.cached(Folder(cache) if cache else None):
        rendered = pipeline.render(pipeline.document(game, aid, making.localizer(project, game, "pl"), None),
                                   ["pdf"])[".pdf"]
    assert rendered.warnings == []
    return rendered


def note(rendered):
    """(segments, pages laid out, why it was laid out whole or None) of the note on its segments."""
    found = next(n for n in rendered.notes if n.startswith("written in"))
    count, laid = (int(n) for n in re.findall(r"\d+", found)[:2])
    why = re.search(r"\((.*)\)$", found)
    return count, laid, why.group(1) if why else None


def copied(source, tmp_path_factory, name):
    target = tmp_path_factory.mktemp(name)
    shutil.copytree(source, target, dirs_exist_ok=True)
    return target


@pytest.fixture(scope="module")
def whole_and_segments(generated, tmp_path_factory):
    saved = flow.WHOLE_BELOW
    flow.WHOLE_BELOW = 10**6  # written whole, as WeasyPrint writes it
    try:
        whole = render(generated)
    finally:
        flow.WHOLE_BELOW = saved
    cache = tmp_path_factory.mktemp("cache")
    cold = render(generated, cache)
    return whole, cold, cache


def test_a_booklet_in_segments_is_the_booklet_written_whole(whole_and_segments, tmp_path):
    whole, cold, _ = whole_and_segments
    assert not any(n.startswith("written in") for n in whole.notes)
    count, laid, why = note(cold)
    assert count >= 4 and laid == cold.pages == whole.pages and why is None
    expected, found = facts(whole.data, tmp_path), facts(cold.data, tmp_path)
    for name in expected:
        assert found[name] == expected[name], name


def test_a_booklet_in_segments_passes_pdfua_and_embeds_subsets_of_its_fonts(whole_and_segments, tmp_path):
    """The joined PDF as a screen reader's software and a print shop read it: what the pdfua checker finds in the
    whole booklet and no more; every font embedded, a subset (each segment's own)."""
    import pikepdf
    from pdfua import validate

    from .test_accessible_pdf import CRASHES
    whole, cold, _ = whole_and_segments
    found = {}
    for name, data in (("whole", whole.data), ("segments", cold.data)):
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(data)
        report = validate(str(path))
        found[name] = ({f.rule_id for f in report.findings}, {o.rule_id for o in report.skipped} - CRASHES)
    assert found["segments"] == found["whole"] == (set(), set())
    fonts = []
    with pikepdf.open(tmp_path / "segments.pdf") as pdf:
        for page in pdf.pages:
            for font in page.Resources.get("/Font", {}).values():
                descendant = font.DescendantFonts[0] if "/DescendantFonts" in font else font
                fonts.append((str(font.BaseFont), "/FontFile2" in descendant.FontDescriptor
                              or "/FontFile3" in descendant.FontDescriptor))
    assert fonts and all(embedded and re.match(r"/[A-Z]{6}\+", name) for name, embedded in fonts), fonts


RENDER_ALONE = """
import sys
from pathlib import Path
from tests.render.test_flow import render
Path(sys.argv[2]).write_bytes(render(Path(sys.argv[1]), Path(sys.argv[3])).data)
"""


def table_headers(data, tmp_path):
    """(table headers, those with a /Scope) in a PDF's structure tree."""
    import pikepdf
    path = tmp_path / "headers.pdf"
    path.write_bytes(data)
    with pikepdf.open(path) as pdf:
        headers = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/S") == "/TH"]
        return len(headers), sum(isinstance(h.get("/A"), pikepdf.Dictionary) and "/Scope" in h.A for h in headers)


def test_a_booklet_written_in_segments_by_a_process_of_its_own_is_tagged_as_the_whole(whole_and_segments, generated,
                                                                                      tmp_path):
    """A process that writes nothing but the booklet's segments (a build's worker, cold) completes their tags as
    every PDF's are (tagging.py: a table header's /Scope): the hooks are installed where a PDF is written, once."""
    import subprocess
    import sys
    from pathlib import Path
    whole, cold, _ = whole_and_segments
    alone = tmp_path / "alone.pdf"
    subprocess.run([sys.executable, "-c", RENDER_ALONE, str(generated), str(alone), str(tmp_path / "cache")],
                   check=True, cwd=Path(__file__).parents[2])
    headers, scoped = table_headers(alone.read_bytes(), tmp_path)
    assert headers > 0 and scoped == headers and (headers, scoped) == table_headers(whole.data, tmp_path)
    assert alone.read_bytes() == cold.data


def edited_build(generated, cache, tmp_path_factory, name, **edit):
    """The booklet edited (booklet.py's edit), built with a copy of `cache`, and built cold: both renders."""
    root = copied(generated, tmp_path_factory, name)
    booklet_benchmark().edit(root, **edit)
    warm = render(root, copied(cache, tmp_path_factory, f"{name}-cache"))
    fresh = render(root, tmp_path_factory.mktemp(f"{name}-fresh"))
    return warm, fresh


def test_nothing_changed_lays_nothing_out(whole_and_segments, generated, tmp_path_factory):
    _, cold, cache = whole_and_segments
    again = render(generated, copied(cache, tmp_path_factory, "again"))
    assert again.data == cold.data and note(again)[1:] == (0, None)


@pytest.mark.parametrize("where", [0.25, 0.5, 0.75])
def test_a_word_lays_out_again_only_from_its_segment_to_where_the_layout_meets_and_gives_a_cold_build(
        whole_and_segments, generated, tmp_path_factory, where):
    _, cold, cache = whole_and_segments
    warm, fresh = edited_build(generated, cache, tmp_path_factory, f"word{int(where * 100)}", where=where)
    count, laid, why = note(warm)
    assert why is None and 0 < laid < cold.pages / 2, note(warm)
    assert warm.data == fresh.data and warm.data != cold.data


def test_a_sentence_that_moves_headings_to_other_pages_gives_a_cold_build(whole_and_segments, generated,
                                                                          tmp_path_factory):
    """Four more lines: the pages after it until the layout meets, and those that show the moved headings' page
    numbers (the contents, references), are laid out again, or the whole booklet if they are too many."""
    _, cold, cache = whole_and_segments
    warm, fresh = edited_build(generated, cache, tmp_path_factory, "sentence", where=0.25, words=SENTENCE)
    assert warm.data == fresh.data and warm.data != cold.data


def test_an_edit_that_adds_a_page_lays_the_booklet_out_whole(whole_and_segments, generated, tmp_path_factory):
    _, cold, cache = whole_and_segments
    warm, fresh = edited_build(generated, cache, tmp_path_factory, "page", where=0.9, words=SENTENCE * 30)
    assert warm.pages > cold.pages and note(warm)[1] == warm.pages
    assert warm.data == fresh.data


def test_a_paragraph_added_lays_the_booklet_out_whole(whole_and_segments, generated, tmp_path_factory):
    """A block more: the blocks after it are not where the last build's segments say (laid out whole)."""
    _, cold, cache = whole_and_segments
    warm, fresh = edited_build(generated, cache, tmp_path_factory, "paragraph", where=0.5,
                               words="Nowy akapit, dodany w tym wydaniu.\n\n")
    assert note(warm)[1:] == (warm.pages, "blocks added or removed since the last build")
    assert warm.data == fresh.data


@pytest.mark.parametrize("damage", ["index", "segment", "swapped", "shape"])
def test_a_damaged_record_of_the_last_build_is_not_used(whole_and_segments, generated, tmp_path_factory, damage):
    """The index of the last build unreadable or of another shape, a segment's PDF changed or another's: the edit
    still gives the bytes of a cold build."""
    _, cold, cache = whole_and_segments
    copy = copied(cache, tmp_path_factory, f"damaged-{damage}")
    index = next(copy.glob("flow-index-*.json"))
    records = sorted(p for p in copy.glob("flow-*.pdf"))
    if damage == "index":
        index.write_bytes(b'{"format": 1, "shell": "trunc')
    elif damage == "shape":
        found = json.loads(index.read_bytes())
        found["segments"][1]["start"] = {"page": "x"}
        index.write_text(json.dumps(found))
    elif damage == "segment":
        for victim in records:
            data = bytearray(victim.read_bytes())
            data[len(data) // 2] ^= 0x20
            victim.write_bytes(bytes(data))
    else:
        datas = [(p.read_bytes(), p.with_suffix(".json").read_bytes()) for p in records]
        for n, victim in enumerate(records):
            victim.write_bytes(datas[(n + 1) % len(records)][0])
            victim.with_suffix(".json").write_bytes(datas[(n + 1) % len(records)][1])
    root = copied(generated, tmp_path_factory, f"damaged-{damage}-root")
    booklet_benchmark().edit(root, where=0.5)
    warm = render(root, copy)
    fresh = render(root, tmp_path_factory.mktemp(f"damaged-{damage}-fresh"))
    assert warm.data == fresh.data


@pytest.mark.unit
def test_the_store_keeps_the_newest_segments_and_those_in_use(tmp_path):
    import os
    store = segments.Store(Folder(tmp_path))
    for n in range(5):
        segment = segments.Segment(0, 1, None, key=f"k{n}", data=b"%PDF-1.7 " + bytes([n]))
        store.put(segment)
        for name in (f"flow-k{n}.pdf", f"flow-k{n}.json"):
            os.utime(tmp_path / name, ns=(n * 10**9, n * 10**9))
    assert store.get("k0") is not None
    store.trim({"flow-k0"}, limit=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flow-k0.json", "flow-k0.pdf", "flow-k4.json",
                                                          "flow-k4.pdf"]
    assert store.get("k0") is not None and store.get("k1") is None
