"""A booklet laid out in parts (render/parts.py, parallel.py, join.py) is the booklet laid out whole: the same
text on every page, page numbers, references, bookmarks, links and structure tree; an edit lays out only its own
part again and gives the bytes of a cold build; a damaged record of a part is not used."""
import re

import pikepdf
import pytest
from pypdf import PdfReader

from aids.config import read_project
from aids.folder import Folder
from aids.kinds import reading
from aids.localize import making
from aids.pipeline import pipeline
from aids.render import parts

from ..helpers import booklet_benchmark

PAGES = 24
CHARACTERS = 12_000  # a part: about 4 pages, so that 24 pages make several parts


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("parts")
    booklet_benchmark().generate(root, PAGES, "varied", chapter_pages=True)
    return root


def render(root, cache=None, characters=CHARACTERS):
    """The booklet's PDF in Polish and the note on its parts, laid out in parts of `characters` (or whole)."""
    project = read_project(root)
    game = project.read_game("big")
    aid = reading.read_aids(project, game)[0][0]
    saved = parts.PART_CHARACTERS
    parts.PART_CHARACTERS = characters
    try:
        with parts.cached(Folder(cache) if cache else None):
            rendered = pipeline.render(pipeline.document(game, aid, making.localizer(project, game, "pl"), None),
                                       ["pdf"])[".pdf"]
    finally:
        parts.PART_CHARACTERS = saved
    assert rendered.warnings == []
    return rendered


def facts(data, tmp_path):
    """What a reader sees of a PDF: text per page, bookmarks and their pages, named destinations, links, page
    boxes, the structure tree (element types, pages, marked content) and its parent tree."""
    path = tmp_path / "facts.pdf"
    path.write_bytes(data)
    reader = PdfReader(path)
    outline = []

    def walk(items, depth=0):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                outline.append((depth, item.title, reader.get_destination_page_number(item)))
    walk(reader.outline)
    links = [(i, str(a.get_object().get("/Dest")), a.get_object().get("/StructParent"),
              str(a.get_object().get("/Contents")))  # what a screen reader says of the link
             for i, page in enumerate(reader.pages) for a in page.get("/Annots") or []]
    pdf = pikepdf.open(path)
    pages = {p.objgen: i for i, p in enumerate(pdf.pages)}
    structure = []

    def visit(element, depth):
        if not isinstance(element, pikepdf.Dictionary):
            structure.append((depth, int(element)))
            return
        if element.get("/Type") == "/OBJR":
            structure.append((depth, "OBJR", int(element.Obj.StructParent)))
            return
        structure.append((depth, str(element.get("/S")), pages.get(element.Pg.objgen) if "/Pg" in element else None))
        kids = element.get("/K")
        for kid in (kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []):
            visit(kid, depth + 1)
    visit(pdf.Root.StructTreeRoot.K[0], 0)
    nums = list(pdf.Root.StructTreeRoot.ParentTree.Nums)
    names = list(pdf.Root.Names.Dests.Names)
    where = [(i, [round(float(x), 2) for x in a.Rect]) for i, page in enumerate(pdf.pages)
             for a in page.obj.get("/Annots", [])]  # a part that begins left-hand was turned (weasyprint_internals.turn_pages)
    return {
        "texts": [page.extract_text() for page in reader.pages],
        "outline": outline,
        "destinations": {k: reader.get_destination_page_number(v) for k, v in reader.named_destinations.items()},
        "links": links,
        "boxes": [tuple(page.mediabox) for page in reader.pages],
        "structure": structure,
        "parent tree": [int(n) for n in nums[::2]],
        "struct parents": [int(p.obj.StructParents) for p in pdf.pages],
        "language": str(pdf.Root.Lang),
        "link rectangles": where,
        "destination positions": {str(k): [round(float(x), 2) for x in list(v)[2:]]
                                  for k, v in zip(names[::2], names[1::2])},
        "title": str(pdf.docinfo.get("/Title")),
    }


def parts_note(rendered):
    note = next(n for n in rendered.notes if n.startswith("laid out in"))
    return [int(n) for n in re.findall(r"\d+", note)]  # parts, laid out, pages laid out, from the cache


@pytest.fixture(scope="module")
def whole_and_parts(generated, tmp_path_factory):
    whole = render(generated, characters=10**9)
    cache = tmp_path_factory.mktemp("cache")
    cold = render(generated, cache)
    return whole, cold, cache


def test_a_booklet_in_parts_is_the_booklet_laid_out_whole(whole_and_parts, tmp_path):
    whole, cold, _ = whole_and_parts
    assert not any(n.startswith("laid out in") for n in whole.notes)
    count, laid, _, cached = parts_note(cold)
    assert count >= 4 and laid == count and cached == 0
    assert cold.pages == whole.pages
    expected, found = facts(whole.data, tmp_path), facts(cold.data, tmp_path)
    for name in expected:
        assert found[name] == expected[name], name


def test_an_edit_lays_out_its_part_again_and_gives_the_bytes_of_a_cold_build(whole_and_parts, generated,
                                                                             tmp_path_factory):
    _, cold, cache = whole_and_parts
    again = render(generated, cache)
    assert again.data == cold.data and parts_note(again)[1] == 0  # nothing laid out: every part from the cache
    edited = tmp_path_factory.mktemp("edited")
    for path in generated.rglob("*"):
        if path.is_file():
            target = edited / path.relative_to(generated)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    booklet_benchmark().edit(edited)
    warm = render(edited, cache)
    count, laid, _, cached = parts_note(warm)
    assert laid == 1 and cached == count - 1
    fresh = render(edited, tmp_path_factory.mktemp("fresh-cache"))
    assert warm.data == fresh.data
    assert warm.data != cold.data


@pytest.mark.parametrize("damage", ["pdf", "json", "swapped"])
def test_a_damaged_record_of_a_part_is_not_used(whole_and_parts, generated, tmp_path_factory, damage):
    """Every record damaged (which records a build reads depends on the digests, so on the folder the test runs
    in: damaging them all makes the test the same everywhere): every part is laid out again, to the same bytes."""
    _, cold, cache = whole_and_parts
    copy = tmp_path_factory.mktemp("damaged")
    for path in cache.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    records = sorted(p for p in copy.glob("*.pdf"))
    originals = {p: (p.read_bytes(), p.with_suffix(".json").read_bytes()) for p in records}
    for n, victim in enumerate(records):
        if damage == "pdf":  # a byte of the PDF changed: its sha256 is not the record's
            data = bytearray(victim.read_bytes())
            data[len(data) // 2] ^= 0x20
            victim.write_bytes(bytes(data))
        elif damage == "json":
            victim.with_suffix(".json").write_bytes(b'{"key": "truncated')
        else:  # another part's PDF and record under this part's name
            pdf, record = originals[records[(n + 1) % len(records)]]
            victim.write_bytes(pdf)
            victim.with_suffix(".json").write_bytes(record)
    again = render(generated, copy)
    parts, laid_out = parts_note(again)[:2]
    assert laid_out == parts and parts > 1
    assert again.data == cold.data


@pytest.mark.unit
def test_the_cache_keeps_the_newest_parts_and_those_in_use(tmp_path):
    import os
    cache = parts.Cache(Folder(tmp_path))
    for n in range(5):
        record = parts.Record(b"%PDF-1.7 " + bytes([n]), 1, {}, None, [])
        cache.put(f"k{n}", record, f"d{n}")
        for name in (f"k{n}.pdf", f"k{n}.json", f"facts-d{n}.json"):
            os.utime(tmp_path / name, ns=(n * 10**9, n * 10**9))
    assert cache.get("k0") is not None
    cache.trim({"k0", "d0"}, limit=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["facts-d0.json", "facts-d4.json", "k0.json", "k0.pdf",
                                                          "k4.json", "k4.pdf"]
    assert cache.get("k0") is not None and cache.get("k1") is None and cache.facts("d4") == (1, {})
