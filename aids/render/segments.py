"""The segments of a continuous booklet (flow.py): where one may begin, what it is made from (its cache key), its
PDF written from a layout, the cache of segments and of each booklet's last build.

A segment begins at a page that begins with a block of the rules' `<div>` itself (a heading, a paragraph, a box;
not inside one), with no footnote on it or on the page before, where the digest of that block is a multiple of
EVERY: a rule of the content and of the layout alone, so that a build from the cache and
a cold one cut the same segments. WeasyPrint's state at a segment's start (where the content resumes, the next
page's break, the side, the page counters) is kept as JSON, with the running strings then in effect.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from ..folder import Folder
from . import join, laid_out, parts, weasyprint_internals

FORMAT = 1  # of a segment's record and a booklet's index
SEGMENTS_FROM = 1  # the first page that may begin a segment (not the title page)
EVERY = 3  # a segment begins at one page in EVERY of those that can begin one (about 6 pages a segment)
PREFIX = join.PREFIX


def rules_of(root: Any) -> Any:
    """The continuous rules' <div> of a booklet's tree (one without chapters on pages of their own), if any."""
    main = root.find("body/main")
    if main is None:
        return None
    return next((e for e in main if e.tag == "div" and "rules" in (e.get("class") or "").split()
                 and e.get(parts.ATTRIBUTE) is None), None)


def block_digests(rules: Any, base: Path) -> list[str]:
    """The digest of each block of the rules (its markup and the images it shows)."""
    found = []
    for block in rules:
        digest = hashlib.sha256(ElementTree.tostring(block))
        for image in parts.images([block], base):
            digest.update(image)
        found.append(digest.hexdigest())
    return found


def shell_digest(root: Any, rules: Any, css: str, base: Path, tagged: bool, epoch: int) -> str:
    """Of all a booklet's layout depends on but its blocks: its head, stylesheets and the files they name, the
    attributes of its root, body and rules, what is outside the rules (title page, contents, changelog)."""
    digest = hashlib.sha256(f"{FORMAT} {parts.environment()} {tagged} {epoch}".encode())
    head = root.find("head")
    pieces = [ElementTree.tostring(head), css.encode(), repr(sorted(root.attrib.items())).encode(),
              repr(sorted(root.find("body").attrib.items())).encode(),
              repr(sorted(rules.attrib.items())).encode()]
    pieces.extend(parts.named_files([css, *(style.text or "" for style in head.iter("style"))]))
    main = root.find("body/main")
    for element in root.find("body"):
        if element is not main:
            pieces.append(ElementTree.tostring(element))
    pieces.append(repr((sorted(main.attrib.items()), main.text)).encode())
    for element in main:
        pieces.append(repr((rules.attrib, rules.text)).encode() if element is rules else ElementTree.tostring(element))
    for piece in pieces:
        digest.update(hashlib.sha256(piece).digest())
    return digest.hexdigest()




# --- where segments begin -------------------------------------------------------------------------------

@dataclass
class Start:
    """A page a segment may begin at: its index, the block it begins with, WeasyPrint's state there (as JSON),
    the running strings in effect, the block the next page begins in (what decides where the page before breaks)."""
    page: int
    block: int
    state: Any
    strings: dict[str, str]
    reach: int


def as_json(state: tuple[Any, ...]) -> Any:
    """WeasyPrint's state at a page's start as JSON (None where it cannot be: named pages, quotes open)."""
    resume_at, next_page, right_page, page_state = state
    quotes, counters, scopes, groups = page_state
    if groups or quotes != [0] or not isinstance(next_page, dict):
        return None
    counters = {k: list(v) for k, v in counters.items() if k != "pages"}
    return {"resume_at": _skip_json(resume_at), "next_page": dict(next_page), "right_page": bool(right_page),
            "counters": counters, "scopes": [sorted(s - {"pages"}) for s in scopes]}


def _skip_json(stack: Any) -> Any:
    if stack is None:
        return None
    return [[int(k), _skip_json(v)] for k, v in sorted(stack.items())]


def _skip_stack(found: Any) -> Any:
    if found is None:
        return None
    return {int(k): _skip_stack(v) for k, v in found}


def from_json(state: Any, total: int) -> tuple[Any, ...]:
    counters = {k: list(v) for k, v in state["counters"].items()}
    counters["pages"] = [total]
    scopes = [set(s) | ({"pages"} if i == 0 else set()) for i, s in enumerate(state["scopes"])]
    return (_skip_stack(state["resume_at"]), dict(state["next_page"]), state["right_page"],
            ([0], counters, scopes, []))


def block_at(state: Any, path: list[int]) -> int | None:
    """The index of the block of the rules a page begins with (its skip stack goes no deeper), else None."""
    stack = state["resume_at"] if state else None
    for index in path:
        if not stack or len(stack) != 1 or stack[0][0] != index:
            return None
        stack = stack[0][1]
    if not stack or len(stack) != 1 or stack[0][1] is not None:
        return None
    return int(stack[0][0])


def block_in(state: Any, path: list[int]) -> int | None:
    """The index of the block of the rules a page's content resumes in (at its start or inside it)."""
    stack = state["resume_at"] if state else None
    for index in path:
        if not stack or stack[0][0] != index:
            return None
        stack = stack[0][1]
    return int(stack[0][0]) if stack else None


def tree_path(root: Any, rules: Any) -> list[int]:
    """The indices of the boxes from the root to the rules (html > body > main > rules)."""
    body, main = root.find("body"), root.find("body/main")
    boxed = [e for e in body if e.tag != "script"]
    return [0, boxed.index(main), list(main).index(rules)]


def starts(states: list[tuple[Any, ...]], pages: list[Any], first: int, stop: int, path: list[int],
           blocks: list[Any], digests: list[str], strings: list[dict[str, str]]) -> list[Start]:
    """The pages from `first` to `stop` (exclusive) where a segment begins (see the module's text)."""
    found = []
    for index in range(max(first, SEGMENTS_FROM), min(stop, len(pages))):
        state = as_json(states[index])
        box = block_at(state, path)
        if box is None or box >= len(blocks) or blocks[box] is None:
            continue
        block = blocks[box]
        if int(digests[block][:8], 16) % EVERY or any(weasyprint_internals.has_footnotes(pages[i])
                                                       for i in (index - 1, index)):
            continue
        after = as_json(states[index + 1]) if index + 1 < len(states) else None
        inside = block_in(after, path)
        reach = (blocks[inside] if inside is not None and inside < len(blocks) and blocks[inside] is not None
                 else len(digests) - 1) if after and after["resume_at"] else len(digests) - 1
        found.append(Start(index, block, state, strings[index], reach))
    return found


# --- segments ---------------------------------------------------------------------------------------------

@dataclass
class Segment:
    """Pages [first, first + pages) of the booklet: where it begins, its PDF, what it shows and holds."""
    first: int
    pages: int
    start: Start | None  # None: the first segment (the document's own start)
    key: str = ""
    data: bytes = b""
    refs: dict[str, int] = field(default_factory=dict)  # the page numbers it shows, by anchor
    bookmarks: list[list[Any]] = field(default_factory=list)  # [page in it, level, label, x, y, state, height]
    warnings: list[str] = field(default_factory=list)
    last_page: float | None = None
    names: list[str] = field(default_factory=list)  # the anchors it shows page numbers of
    layout: Any = None  # what it is laid out in, in this build (pdf.Layout); None: the last build's


def key_of(shell: str, segment: Segment, digests: list[str], last_block: int, total: int) -> str:
    start = segment.start
    material = json.dumps({"shell": shell, "first": segment.first, "pages": segment.pages, "total": total,
                           "state": start.state if start else None, "strings": start.strings if start else None,
                           "blocks": digests[start.block if start else 0:last_block + 1], "refs": segment.refs},
                          sort_keys=True)
    return hashlib.sha256(material.encode()).hexdigest()


def written(document: Any, segment: Segment, epoch: int) -> None:
    """A segment's PDF, from the laid-out `document` (its pages at their places in the booklet): its links to other
    segments' anchors made `aids-part:` links, its bookmarks set aside (written when the segments are joined)."""
    from .pdf import written as pdf_written
    pages = document.pages[segment.first:segment.first + segment.pages]
    own = {name for page in pages for name in page.anchors}
    segment.bookmarks = []
    for number, page in enumerate(pages):
        for level, label, (x, y), state in page.bookmarks:
            segment.bookmarks.append([number, level, label, x, y, state, page.height])
        page.bookmarks = []
        page.links = [("external", PREFIX + target, *rest) if kind == "internal" and target not in own
                      else (kind, target, *rest) for kind, target, *rest in page.links]
    copy = document.copy(pages)
    segment.data, warnings = pdf_written(copy, epoch, True, "home", "pdf/ua-1")
    segment.warnings = [*laid_out.checks(copy), *warnings]


def anchors_of(pages: list[Any], offset: int = 0) -> dict[str, int]:
    """Each anchor's page number (1-based; `pages` begin at page `offset`), its first."""
    found: dict[str, int] = {}
    for number, page in enumerate(pages):
        for name in page.anchors:
            found.setdefault(name, offset + number + 1)
    return found


# --- the cache ---------------------------------------------------------------------------------------------

class Store:
    """Segments (`flow-<key>.pdf` and `.json`) and each booklet's last build (`flow-index-<shell>.json`) in the
    parts' cache folder (parts.Cache)."""

    def __init__(self, folder: Folder) -> None:
        self.folder = folder

    def get(self, key: str) -> Segment | None:
        try:
            meta = json.loads(self.folder.read(f"flow-{key}.json") or b"null")
            data = self.folder.read(f"flow-{key}.pdf")
        except (ValueError, OSError):
            return None
        if not isinstance(meta, dict) or data is None or meta.get("key") != key or meta.get("format") != FORMAT \
                or meta.get("sha256") != hashlib.sha256(data).hexdigest() or not data.startswith(b"%PDF-"):
            return None
        try:
            return Segment(int(meta["first"]), int(meta["pages"]), None, key, data, {},
                           list(meta["bookmarks"]), [str(w) for w in meta["warnings"]], meta["last_page"])
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, segment: Segment) -> None:
        meta = {"key": segment.key, "format": FORMAT, "sha256": hashlib.sha256(segment.data).hexdigest(),
                "first": segment.first, "pages": segment.pages, "bookmarks": segment.bookmarks,
                "warnings": segment.warnings, "last_page": segment.last_page}
        self.folder.write(f"flow-{segment.key}.pdf", segment.data)
        self.folder.write(f"flow-{segment.key}.json", json.dumps(meta, sort_keys=True).encode())

    def index(self, shell: str) -> dict[str, Any] | None:
        try:
            found = json.loads(self.folder.read(f"flow-index-{shell}.json") or b"null")
        except (ValueError, OSError):
            return None
        if not isinstance(found, dict) or found.get("format") != FORMAT or found.get("shell") != shell:
            return None
        return found

    def put_index(self, shell: str, digests: list[str], total: int, anchors: dict[str, int],
                  segments: list[Segment], lasts: list[int], sizes: Any) -> None:
        found = {"format": FORMAT, "shell": shell, "digests": digests, "total": total, "anchors": anchors,
                 "sizes": sizes,
                 "segments": [{"first": s.first, "pages": s.pages, "key": s.key, "refs": s.names, "last_block": last,
                               "start": None if s.start is None else vars(s.start)}
                              for s, last in zip(segments, lasts)]}
        self.folder.write(f"flow-index-{shell}.json", json.dumps(found, sort_keys=True).encode())
        self.trim({f"flow-{s.key}" for s in segments} | {f"flow-index-{shell}"})

    def trim(self, keep: set[str], limit: int = parts.KEPT) -> None:
        """At most `limit` segments and as many booklets' indexes kept: the oldest others removed."""
        names = self.folder.names() if self.folder.is_dir() else []
        indexes = [n[:-5] for n in names if n.startswith("flow-index-") and n.endswith(".json")]
        segments = [n[:-4] for n in names if n.startswith("flow-") and n.endswith(".pdf")]
        parts.oldest_removed(self.folder, indexes, keep, limit, (".json",))
        parts.oldest_removed(self.folder, segments, keep, limit, (".pdf", ".json"))


def strings_before(pages: list[Any], start: int = 0, seed: dict[str, str] | None = None) -> list[dict[str, str]]:
    """The running strings in effect at the start of each page from `start` (`seed` at it), by name."""
    current = dict(seed or {})
    found: list[dict[str, str]] = [{} for _ in range(start)]
    for page in pages[start:]:
        found.append(dict(sorted(current.items())))
        for name, value in weasyprint_internals.strings_set(page):
            current[name] = value
    return found
