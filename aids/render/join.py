"""The PDFs of a booklet's parts (parallel.py) joined into one, as WeasyPrint would have written the whole:

- pages in order, each with its annotations; a link to another part (`aids-part:<id>`, pagination.py) made the
  internal link WeasyPrint makes (a named destination, its text the anchor's name);
- the named destinations of every part in one sorted name tree; the outlines (bookmarks) one after the other;
- the catalog, document information and metadata of the first part (every part has the same: title, language,
  dates from SOURCE_DATE_EPOCH);
- a tagged PDF's structure: every part's elements under the first part's Document element, in order, and the
  parent tree numbered as WeasyPrint numbers it (the pages first, then the annotations);
- written deterministically: the same parts, the same bytes.

What differs from a whole layout: each part embeds its own subsets of the fonts (the file is larger, the text
the same).
"""
from __future__ import annotations

import io
import warnings
from typing import Any

import pikepdf

from . import weasyprint_internals

PREFIX = "aids-part:"


def join(datas: list[bytes], tagged: bool, bookmarks: list[list[Any]] | None = None) -> bytes:
    """The PDFs `datas` as one; with `bookmarks` ([page, level, label, x, y, state, page height], flow.py), their
    outline written as WeasyPrint writes a whole document's, in place of the parts' own."""
    out = pikepdf.Pdf.open(io.BytesIO(datas[0]))
    sources = [out, *(pikepdf.Pdf.open(io.BytesIO(data)) for data in datas[1:])]
    counts = [len(source.pages) for source in sources]
    with warnings.catch_warnings():  # named destinations: joined below
        warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
        for source in sources[1:]:
            out.pages.extend(source.pages)
    names: list[tuple[bytes, pikepdf.Object]] = []
    outlines: list[Any] = []
    structures: list[Any] = []
    for number, source in enumerate(sources):
        def own(obj: pikepdf.Object | None, number: int = number) -> pikepdf.Object | None:
            if obj is None or number == 0:
                return obj
            return out.copy_foreign(obj if obj.is_indirect else sources[number].make_indirect(obj))
        dests = own(source.Root.Names.get("/Dests")) if "/Names" in source.Root else None
        if dests is not None:
            items = list(dests.Names)
            names.extend((bytes(items[i]), items[i + 1]) for i in range(0, len(items), 2))
        outline = own(source.Root.get("/Outlines"))
        if outline is not None:
            outlines.append(outline)
        structures.append(own(source.Root.get("/StructTreeRoot")))
    if names:
        flat: list[Any] = []
        for name, destination in sorted(names, key=lambda item: item[0]):
            flat += [pikepdf.String(name), destination]
        out.Root.Names.Dests = out.make_indirect(pikepdf.Dictionary(Names=pikepdf.Array(flat)))
    if bookmarks is None:
        join_outlines(out, outlines)
    else:
        write_outline(out, weasyprint_internals.bookmark_tree(bookmarks))
    internal_links(out)
    if tagged and all(s is not None for s in structures):
        join_structures(out, structures, counts)
    data = io.BytesIO()
    out.save(data, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return data.getvalue()


def join_outlines(out: pikepdf.Pdf, outlines: list[Any]) -> None:
    """Every part's top-level bookmarks, in order, under the first's outline root."""
    found = [o for o in outlines if "/First" in o]
    if not found:
        return
    if "/Outlines" not in out.Root:
        out.Root.Outlines = out.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Outlines))
    root = out.Root.Outlines
    items = []
    count = 0
    for outline in found:
        item = outline.First
        while True:
            items.append(item)
            if "/Next" not in item:
                break
            item = item.Next
        count += int(outline.get("/Count", 0))
    for previous, item in zip([None, *items], items):
        item.Parent = root
        if previous is None:
            if "/Prev" in item:
                del item.Prev
        else:
            item.Prev = previous
            previous.Next = item
    if "/Next" in items[-1]:
        del items[-1].Next
    root.First, root.Last, root.Count = items[0], items[-1], count


def write_outline(out: pikepdf.Pdf, tree: list[Any]) -> None:
    """An outline of WeasyPrint's bookmark tree, as WeasyPrint writes it (weasyprint/pdf/anchors.py, add_outlines)."""
    if "/Outlines" in out.Root:
        del out.Root.Outlines
    pages = list(out.pages)

    def add(items: list[Any], parent: Any) -> tuple[list[Any], int]:
        count = len(items)
        made: list[Any] = []
        for title, (page, x, y), children, state in items:
            item = out.make_indirect(pikepdf.Dictionary(
                Title=pikepdf.String(title), Dest=pikepdf.Array([pages[page].obj, pikepdf.Name.XYZ, x, y, 0])))
            below, below_count = add(children, item)
            item.Count = -below_count if state == "closed" else below_count
            if state != "closed":
                count += below_count
            if made:
                item.Prev = made[-1]
                made[-1].Next = item
            if below:
                item.First, item.Last = below[0], below[-1]
            if parent is not None:
                item.Parent = parent
            made.append(item)
        return made, count

    if not tree:
        return
    root = out.make_indirect(pikepdf.Dictionary())
    made, count = add(tree, root)
    root.Count, root.First, root.Last = count, made[0], made[-1]
    out.Root.Outlines = root


def internal_links(out: pikepdf.Pdf) -> None:
    """A part's link to another part's anchor: the named destination a whole layout links to, and its text (the
    tagged PDF's /Contents) the anchor's name, not the `aids-part:` address."""
    for page in out.pages:
        for annotation in page.obj.get("/Annots", []):
            action = annotation.get("/A")
            uri = action.get("/URI") if action is not None else None
            if uri is not None and str(uri).startswith(PREFIX):
                name = pikepdf.String(str(uri)[len(PREFIX):])
                del annotation.A
                annotation.Dest = name
                if "/Contents" in annotation:  # a tagged link's text, which a screen reader says: its target's name,
                    annotation.Contents = name  # as WeasyPrint writes it


def join_structures(out: pikepdf.Pdf, roots: list[Any], counts: list[int]) -> None:
    """Every part's structure elements under the first part's Document element; the parent tree numbered as
    WeasyPrint numbers a whole document: page i under key i, then every link annotation, in order."""
    document = roots[0].K[0]
    total = sum(counts)
    pages_entries: list[Any] = []
    annotations: list[tuple[Any, Any]] = []  # (annotation, its entry)
    first = 0
    kids: list[Any] = []
    every_page = list(out.pages)
    for number, (root, count) in enumerate(zip(roots, counts)):
        found = list(root.ParentTree.Nums)
        entries = {int(found[i]): found[i + 1] for i in range(0, len(found), 2)}
        pages = every_page[first:first + count]
        for local, page in enumerate(pages):
            pages_entries.append(entries[int(page.obj.StructParents)])
            page.obj.StructParents = first + local
        for page in pages:
            for annotation in page.obj.get("/Annots", []):
                if "/StructParent" in annotation:
                    annotations.append((annotation, entries[int(annotation.StructParent)]))
        for kid in root.K[0].K:
            if number:
                kid.P = document
            kids.append(kid)
        first += count
    document.K = pikepdf.Array(kids)
    nums: list[Any] = []
    for key, entry in enumerate(pages_entries):
        nums += [key, entry]
    for key, (annotation, entry) in enumerate(annotations, start=total):
        annotation.StructParent = key
        nums += [key, entry]
    roots[0].ParentTree = out.make_indirect(pikepdf.Dictionary(Nums=pikepdf.Array(nums)))
    if "/ParentTreeNextKey" in roots[0]:
        roots[0].ParentTreeNextKey = total + len(annotations)
