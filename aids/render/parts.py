"""A long booklet laid out in parts, in parallel, each part reused while it and its numbers are unchanged.

A booklet that declares `chapter_pages: true` begins each chapter (a level-1 heading) on a new page: its rules
(`<div class="rules" data-parts="chapters">`) are cut there into parts of several chapters, each about
PART_CHARACTERS long, the title page and contents in the first, the changelog in the last. Each part is laid out
as a document of its own (parallel.py), told the number of its first page, the booklet's page count and the pages
of the anchors of other parts it shows ("see 7.3, p. 12"); the parts agree on these numbers before any is written,
so a part's pages are laid out again only where a number's count of digits was guessed wrong. A part is laid out
on pages that begin right-hand, and turned once its first page is known to be even
(weasyprint_internals.turn_pages). The parts' PDFs are joined into one (join.py).

A part's PDF is kept in the output folder's `.aids-cache/booklet_parts/`, under the digest of all it was made
from: its HTML as cut, its stylesheet, the images it shows, the files its stylesheets name (a theme's fonts, page
art and images), the package's fonts, the numbers it was told, the versions of the libraries that render
(render/versions.py). An edit lays out its own part again, and the parts after it only if its page count changed.
A record read back is JSON and a PDF whose sha256 the record holds, under the key it names, else it is not used.
"""
from __future__ import annotations

import contextvars
import functools
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse
from xml.etree import ElementTree

from ..folder import Folder
from ..source import stylesheet
from . import prepared, versions
from .pagination import CHARACTERS_A_PAGE, Numbers
from .pdf import fonts_dir

FORMAT = 3  # of a part's record: a new one when what a part's PDF depends on changes
PART_CHARACTERS = 50_000  # of text in a part, about 16 pages: an edit lays out about that much again
KEPT = 400  # parts in the cache at most (about 60 MB), the oldest removed first
ATTRIBUTE = "data-parts"  # on the rules' <div>: "chapters" where each chapter begins a new page


@dataclass
class Part:
    """Some chapters of a booklet: what of WeasyPrint's tree it keeps, and what it was made from."""
    index: int
    last: bool
    kept: list[Any]  # the children of the rules' <div> it keeps
    characters: int
    ids: list[str] = field(default_factory=list)  # its anchors
    refs: list[str] = field(default_factory=list)  # the anchors of other parts it links to
    digest: str = ""
    css: str = ""


def chapters(rules: Any) -> list[list[Any]]:
    """The children of the rules' <div> by chapter (what comes before the first heading with the first)."""
    found: list[list[Any]] = []
    for child in rules:
        if child.tag == "h2" or not found:
            found.append([])
        found[-1].append(child)
    return found


def rules_of(root: Any) -> Any:
    main = root.find("body/main")
    if main is None:
        return None
    return next((e for e in main if e.tag == "div" and e.get(ATTRIBUTE) == "chapters"), None)


def text_length(elements: list[Any]) -> int:
    return sum(len(text) for element in elements for text in element.itertext())


def cut(root: Any, characters: int | None = None) -> list[Part]:
    """The parts of the booklet of WeasyPrint's tree `root` (none unless it declares its chapter breaks). A part
    ends after `characters` of text, at the first chapter whose id's digest is even once it has half as much: an
    edit that moves a chapter into another part moves the cuts only as far as the next such chapter."""
    rules = rules_of(root)
    if rules is None:
        return []
    characters = characters or PART_CHARACTERS
    groups: list[list[Any]] = []
    size = 0
    for chapter in chapters(rules):
        length = text_length(chapter)
        even = hashlib.sha256((chapter[0].get("id") or "").encode()).digest()[0] % 2 == 0
        if not groups or size >= characters or (size >= characters // 2 and even):
            groups.append([])
            size = 0
        groups[-1].extend(chapter)
        size += length
    return [Part(i, i == len(groups) - 1, kept, text_length(kept)) for i, kept in enumerate(groups)]


def prune(root: Any, part: Part) -> None:
    """WeasyPrint's tree `root` cut to `part`: its chapters; the title page and contents in the first part only,
    what follows the rules (the changelog, the colophon) in the last only."""
    rules = rules_of(root)
    keep = {id(e) for e in part.kept}
    for child in list(rules):
        if id(child) not in keep:
            rules.remove(child)
    body = root.find("body")
    main = body.find("main")
    after = False
    for child in list(main):
        if child is rules:
            after = True
        elif (after and not part.last) or (not after and part.index):
            main.remove(child)
    for child in list(body):
        if child is not main and (part.index and (child.tag != "footer" or not part.last)):
            body.remove(child)


def title(root: Any) -> str:
    """The booklet's title as its running head shows it (string-set of .booklet-title, print.css)."""
    found = next((e for e in root.iter("h1") if "booklet-title" in (e.get("class") or "").split()), None)
    return " ".join("".join(found.itertext()).split()) if found is not None else ""


def css_string(text: str) -> str:
    return '"' + "".join(c if c.isalnum() or c == " " else f"\\{ord(c):x} " for c in text) + '"'


def describe(root: Any, parts: list[Part], css: str, base: Path) -> None:
    """Each part's anchors, links to other parts, stylesheet and digest (of all its layout depends on)."""
    owner = _owners(parts)
    body, main, rules = root.find("body"), root.find("body/main"), rules_of(root)
    shell = [ElementTree.tostring(root.find("head")), repr(sorted(root.attrib.items())).encode(),
             repr(sorted(body.attrib.items())).encode(), repr(sorted(rules.attrib.items())).encode()]
    shell.extend(named_files([css, *(style.text or "" for style in root.find("head").iter("style"))]))
    first, last = _around(body, main, rules)
    running = title(root)
    for part in parts:
        # the running head of a part without the title page: the title, as the whole booklet carries it on
        part.css = css if part.index == 0 else css + "\n@page { @top-left { content: " + css_string(running) + "; } }\n"
        own = [*part.kept, *(first if part.index == 0 else []), *(last if part.last else [])]
        part.refs = sorted(t for t in _links(own) if t in owner and owner[t] != part.index)
        part.digest = _digest(part, own, shell, base)


def _digest(part: Part, own: list[Any], shell: list[bytes], base: Path) -> str:
    """Of all a part's layout depends on: the document's shell, its stylesheet, its place, its elements, the
    images they show."""
    digest = hashlib.sha256()
    for piece in [*shell, part.css.encode(), f"{part.index == 0} {part.last}".encode(),
                  *(ElementTree.tostring(e) for e in own), *images(own, base)]:
        digest.update(hashlib.sha256(piece).digest())
    return digest.hexdigest()


def _around(body: Any, main: Any, rules: Any) -> tuple[list[Any], list[Any]]:
    """What the first part holds besides its rules (the title page, the contents) and what the last one does (the
    changelog, the footer)."""
    children = list(main)
    at = next((i for i, child in enumerate(children) if child is rules), len(children))
    outside = [c for c in body if c is not main]
    return (children[:at] + [c for c in outside if c.tag != "footer"],
            children[at + 1:] + [c for c in outside if c.tag == "footer"])


def _owners(parts: list[Part]) -> dict[str, int]:
    """Each id -> the part that holds it (the first, for an id given twice); each part's ids noted."""
    owner: dict[str, int] = {}
    for part in parts:
        for element in part.kept:
            for e in element.iter():
                if e.get("id"):
                    owner.setdefault(e.get("id"), part.index)
                    part.ids.append(e.get("id"))
    return owner


def _links(elements: list[Any]) -> set[str]:
    """The anchors the internal links of `elements` name."""
    return {unquote(a.get("href", "")[1:]) for e in elements for a in e.iter("a") if a.get("href", "").startswith("#")}


def images(elements: list[Any], base: Path) -> Iterator[bytes]:
    """The digest of every image file the elements show (what the HTML names, not what it holds)."""
    for element in elements:
        for img in element.iter("img"):
            src = img.get("src") or ""
            if src.startswith("data:"):
                continue
            url = urlparse(src)
            path = Path(unquote(url.path)) if url.scheme == "file" else base / unquote(src)
            try:
                yield hashlib.sha256(path.read_bytes()).digest()
            except OSError:
                yield f"missing {src}".encode()


def named_files(stylesheets: list[str]) -> Iterator[bytes]:
    """The digest of every file the stylesheets name by a file URL (a theme's fonts, page art and images), but the
    package's fonts (`environment`): what a part's layout reads besides its page and its images."""
    fonts = fonts_dir().resolve()
    for text in stylesheets:
        for named in stylesheet.named(text):
            url = urlparse(named.address)
            path = Path(unquote(url.path)) if url.scheme == "file" else None
            if path is not None and not path.resolve().is_relative_to(fonts):
                try:
                    yield hashlib.sha256(path.read_bytes()).digest()
                except OSError:
                    yield f"missing {named.address}".encode()


@functools.cache
def environment() -> str:
    """What every part's PDF depends on besides its own sources: the libraries that make it, the fonts."""
    digest = hashlib.sha256(f"{FORMAT} {versions.libraries()} {versions.system()} {prepared.environment()}".encode())
    for path in sorted(fonts_dir().glob("*")):
        if path.is_file():
            digest.update(path.name.encode() + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def estimate(part: Part) -> tuple[int, dict[str, int]]:
    """A part's page count and its anchors' pages before it was ever laid out: by its length."""
    pages = max(1, -(-part.characters // CHARACTERS_A_PAGE))
    return pages, {}


def resolve(parts: list[Part], facts: dict[int, tuple[int, dict[str, int]]]) -> list[Numbers]:
    """The numbers each part is told, from each part's page count and anchors (laid out, or guessed)."""
    starts, page = [], 1
    for part in parts:
        starts.append(page)
        page += facts[part.index][0]
    total = page - 1
    where: dict[str, int] = {}
    for part in parts:
        count, anchors = facts[part.index]
        for anchor in part.ids:
            local = anchors.get(anchor)
            if local is None and not anchors:  # never laid out: its first page
                local = 1
            if local is not None:
                where.setdefault(anchor, starts[part.index] + local - 1)
    return [Numbers(starts[p.index], total, {t: where[t] for t in p.refs if t in where}) for p in parts]


# --- the cache of parts --------------------------------------------------------------------------------

@dataclass
class Record:
    """A part laid out: its PDF, page count, anchors, how full its last page is, its warnings."""
    data: bytes
    pages: int
    anchors: dict[str, int]
    last_page: float | None
    warnings: list[str]


class Cache:
    """Parts laid out, in a folder (`<output>/.aids-cache/booklet_parts`): `<key>.json` and `<key>.pdf`; and, by the
    digest of a part's sources, its latest page count and anchors (`facts-<digest>.json`), its first guess."""

    def __init__(self, folder: Folder) -> None:
        self.folder = folder

    @staticmethod
    def key(part: Part, numbers: Numbers, tagged: bool, epoch: int) -> str:
        material = json.dumps({"environment": environment(), "part": part.digest, "start": numbers.start,
                               "total": numbers.total, "external": numbers.external, "tagged": tagged,
                               "epoch": epoch}, sort_keys=True)
        return hashlib.sha256(material.encode()).hexdigest()

    def get(self, key: str) -> Record | None:
        try:
            meta = json.loads(self.folder.read(f"{key}.json") or b"null")
            data = self.folder.read(f"{key}.pdf")
        except (ValueError, OSError):
            return None
        if not isinstance(meta, dict) or data is None or meta.get("key") != key \
                or meta.get("sha256") != hashlib.sha256(data).hexdigest() or not data.startswith(b"%PDF-"):
            return None
        facts = valid_facts(meta)
        last, warnings = meta.get("last_page"), meta.get("warnings")
        if facts is None or not isinstance(last, (int, float, type(None))) or not isinstance(warnings, list) \
                or not all(isinstance(w, str) for w in warnings):
            return None
        return Record(data, facts[0], facts[1], last, warnings)

    def put(self, key: str, record: Record, digest: str) -> None:
        meta = {"key": key, "sha256": hashlib.sha256(record.data).hexdigest(), "pages": record.pages,
                "anchors": record.anchors, "last_page": record.last_page, "warnings": record.warnings}
        self.folder.write(f"{key}.pdf", record.data)
        self.folder.write(f"{key}.json", json.dumps(meta, sort_keys=True).encode())
        self.folder.write(f"facts-{digest}.json", json.dumps({"pages": record.pages, "anchors": record.anchors},
                                                             sort_keys=True).encode())

    def trim(self, keep: set[str], limit: int = KEPT) -> None:
        """At most `limit` parts kept (and as many first guesses): the oldest others removed."""
        names = self.folder.names() if self.folder.is_dir() else []
        pdfs = [n[:-4] for n in names if n.endswith(".pdf") and not n.startswith(("facts-", "flow-"))]
        guesses = [n[:-5] for n in names if n.endswith(".json") and n.startswith("facts-")]
        oldest_removed(self.folder, pdfs, keep, limit, (".pdf", ".json"))
        oldest_removed(self.folder, guesses, {f"facts-{k}" for k in keep}, limit, (".json",))

    def facts(self, digest: str) -> tuple[int, dict[str, int]] | None:
        try:
            return valid_facts(json.loads(self.folder.read(f"facts-{digest}.json") or b"null"))
        except (ValueError, OSError):
            return None


def oldest_removed(folder: Folder, found: list[str], own: set[str], limit: int, ends: tuple[str, ...]) -> None:
    """The oldest of `found` in `folder` that are not `own` removed (each with its files `ends`), down to `limit`."""
    if len(found) <= limit:
        return
    stamps = {n: getattr(folder.lstat(n + ends[0]), "st_mtime_ns", 0) for n in found}
    for name in sorted((n for n in found if n not in own), key=lambda n: (stamps[n], n))[:len(found) - limit]:
        for end in ends:
            folder.remove(name + end)


def valid_facts(meta: Any) -> tuple[int, dict[str, int]] | None:
    """(page count, anchors' pages) of a record, if it has the shape of one."""
    if not isinstance(meta, dict):
        return None
    pages, anchors = meta.get("pages"), meta.get("anchors")
    if not isinstance(pages, int) or isinstance(pages, bool) or pages < 1 or not isinstance(anchors, dict) \
            or not all(isinstance(k, str) and type(v) is int and 1 <= v <= pages for k, v in anchors.items()):
        return None
    return pages, anchors


_cache: contextvars.ContextVar[Cache | None] = contextvars.ContextVar("parts_cache", default=None)


@contextmanager
def cached(folder: Folder | None) -> Iterator[None]:
    """Parts laid out while this runs kept in `folder` (None: in no folder)."""
    token = _cache.set(Cache(folder) if folder is not None else None)
    try:
        yield
    finally:
        _cache.reset(token)


def current_cache() -> Cache | None:
    return _cache.get()

