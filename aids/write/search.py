"""Full-text search of the published pages: a Pagefind index (https://pagefind.app) per publication.

A publication is a game, or one edition of a game: the folder that holds its language folders
(`<output>/<game>/` or `<output>/<game>/<edition>/`). Its index, `<publication>/pagefind/`, covers every page
of it in every language, one index a language (Pagefind reads `<html lang>`): the text of the page's
`<main data-pagefind-body>`, not the masthead, the colophon or a contents list (`nav`); each heading with an id
gives a result of its own, linking to it. `templates/search.html` puts the search box in a page; the files
aids adds to the index folder (`aids-search.js`, `aids-search.css`) start Pagefind's own UI in it. For a page opened
from disk, where Pagefind cannot fetch its index, the folder also holds `offline.<lang>.js` (the pages' sections, cut
from Pagefind's fragments), MiniSearch and `aids-offline.js`, loaded by <script> tags (docs/search.md).

The index is made again when a page of the publication changed, from all its pages (not only those this build
wrote): a digest of the pages, Pagefind's version, this module and aids' files is kept in
`.aids-cache/search/<publication>/index.json`, with the size, sha256 and stat of every file of the index, as the
build cache keeps an aid's (write/cache.py): an output folder copied, or the folders of builds of other
publications merged, index nothing again. Pagefind writes into the staging folder (nothing outside the output
folder); the new files then go into place, those `pagefind-entry.json` names before it, and the old ones it no
longer needs are removed after it, so a reader's search finds the old index or the new one. A file the same in
both is not touched. The same pages give the same bytes: Pagefind names its files by their contents; only the
order of the languages in `pagefind-entry.json` varies between runs, and it is sorted here.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Iterable, Sequence
from importlib import metadata, resources
from pathlib import Path, PurePosixPath
from typing import Any

from ..errors import AidsError, Position, Problem
from ..folder import Folder
from .cache import file_record, matches, valid_output
from .journal import CACHE, STAGING, unlinked

BUNDLE = "pagefind"  # the index folder in a publication
STATES = PurePosixPath(CACHE, "search")  # the digest of a publication's pages and its index's files: <pub>/STATE
STATE = "index.json"
LEGACY = "search.json"  # where an earlier aids kept the state of every publication: removed
ENTRY = "pagefind-entry.json"  # Pagefind's table of the index: written last
OWN = {"aids-search.js": "search.js", "aids-search.css": "search.css",  # index file -> aids' template
       "aids-offline.js": "search-offline.js", "minisearch.js": "minisearch.js",
       "LICENSE-minisearch.txt": "LICENSE-minisearch.txt"}
OFFLINE = "offline.{lang}.js"  # the sections of a language's pages, for the search from a folder on disk
FRAGMENT = b"pagefind_dcd"  # how Pagefind's gzipped fragments (a page's text, filters, headings) begin
EXCLUDE = "nav, .permalink"  # contents lists (their words are the headings' again), a heading's link to itself
UNUSED = ("pagefind-component-ui.css", "pagefind-component-ui.js", "pagefind-modular-ui.css",
          "pagefind-modular-ui.js", "pagefind-highlight.js")  # Pagefind's other UIs: not published


def index(output: Path, publications: Iterable[Path], languages: Sequence[str],
          notes: list[str] | None = None) -> list[Path]:
    """Index every publication whose pages changed since its index was made; the publications indexed. A link
    in an index folder (aids' alone) is removed, with a line in `notes`."""
    folder = Folder(output, output.name)
    done = []
    for publication in sorted(set(publications)):
        pub = folder / publication.relative_to(output).as_posix()
        found = unlinked(pub, BUNDLE)
        if notes is not None:
            notes += found
        pages = _pages(pub, languages)
        if not pages:
            continue
        state_name = PurePosixPath(STATES, publication.relative_to(output).as_posix(), STATE)
        record = _read_state(folder, state_name)
        digest = _digest(pub, pages)
        if record.get("digest") == digest and _intact(pub, record):
            if record != _read_state(folder, state_name):  # its files' stat, new (a copied output folder)
                folder.write(state_name, json.dumps(record, sort_keys=True, indent=1).encode("utf-8"))
            continue
        _make(folder, pub, pages, languages)
        folder.write(state_name, json.dumps({"digest": digest, "files": _files(pub)}, sort_keys=True,
                                            indent=1).encode("utf-8"))
        folder.remove(PurePosixPath(CACHE, LEGACY))  # the state of every publication, of an earlier aids
        done.append(publication)
    return done


def _pages(pub: Folder, languages: Sequence[str]) -> dict[str, bytes]:
    """The pages of a publication, by name (`pl/rules.html`): regular files only, never a link planted among
    them (its target is not read, nor indexed)."""
    pages = {}
    for lang in languages:
        for name in pub.names(lang) if pub.is_dir(lang) else []:
            if name.endswith(".html") and pub.is_file(f"{lang}/{name}"):
                pages[f"{lang}/{name}"] = pub.read(f"{lang}/{name}") or b""
    return dict(sorted(pages.items()))


def pagefind() -> Path:
    """Pagefind's program, from the pagefind-bin package (a dependency of aids)."""
    try:
        import pagefind_bin
        return Path(pagefind_bin.get_executable())
    except (ImportError, FileNotFoundError):
        found = shutil.which("pagefind")
        if found:
            return Path(found)
    raise AidsError(Problem(Position("aids"), "the search index needs Pagefind, which is not installed",
                            "pip install pagefind-bin (a dependency of aids: pip install aids installs it)"))


def version() -> str:
    try:
        return metadata.version("pagefind-bin")
    except metadata.PackageNotFoundError:
        return subprocess.run([pagefind(), "--version"], capture_output=True, text=True).stdout.strip()


def own_files() -> dict[str, bytes]:
    folder = resources.files("aids.templates")
    return {name: (folder / template).read_bytes() for name, template in OWN.items()}


def _digest(pub: Folder, pages: dict[str, bytes]) -> str:
    h = hashlib.sha256(f"pagefind {version()}\0".encode() + Path(__file__).read_bytes())  # and how it is run
    for name, data in sorted(own_files().items()):
        h.update(name.encode() + b"\0" + data + b"\0")
    for page, data in pages.items():
        h.update(page.encode() + b"\0" + data + b"\0")
    return h.hexdigest()


def _files(pub: Folder) -> dict[str, dict[str, Any]]:
    found = {}
    bundle = pub / BUNDLE
    for name in bundle.files() if pub.is_dir(BUNDLE) else []:
        there = file_record(bundle, name)
        if there is not None:
            found[name] = there
    return found


def _intact(pub: Folder, record: dict) -> bool:
    """The index is as it was made: the same files, of the same bytes (a file of another stat is hashed: if its
    bytes are the same, its stat now goes into `record`)."""
    files = record.get("files")
    if not pub.is_dir(BUNDLE) or not isinstance(files, dict) or set((pub / BUNDLE).files()) != set(files):
        return False
    return all(valid_output(written) and matches(pub / BUNDLE, name, written) for name, written in files.items())


def _read_state(folder: Folder, name: PurePosixPath) -> dict:
    try:
        state = json.loads(folder.read(name) or b"{}")
    except (AidsError, ValueError):  # damaged, or a link: the publication is indexed again
        return {}
    return state if isinstance(state, dict) else {}


def _make(folder: Folder, pub: Folder, pages: dict[str, bytes], languages: Sequence[str]) -> None:
    """Pagefind over a copy of the pages of one publication, in the staging folder; then its files into place."""
    name = PurePosixPath(STAGING, uuid.uuid4().hex)
    staging = folder / name
    for page, data in pages.items():  # a copy: Pagefind reads only what aids read, never a planted link
        staging.write(f"site/{page}", data)
    staging.mkdir(BUNDLE)
    made = staging / BUNDLE
    glob = f"{{{','.join(languages)}}}/*.html" if len(languages) > 1 else f"{languages[0]}/*.html"
    command = [str(pagefind()), "--site", str((staging / "site").path.resolve()), "--output-path",
               str(made.path.resolve()), "--glob", glob, "--exclude-selectors", EXCLUDE, "--silent"]
    env = {key: value for key, value in os.environ.items() if not key.startswith("PAGEFIND_")}
    try:
        # in the staging folder, which holds no pagefind.yml: only these options count
        run = subprocess.run(command, cwd=staging.path, env=env, capture_output=True, text=True, timeout=600)
        if run.returncode or not made.is_file(ENTRY):
            what = (run.stderr or run.stdout).strip().splitlines()
            raise AidsError(Problem(Position(pub.show()), "Pagefind could not index the pages: "
                                    + (what[-1] if what else f"exit status {run.returncode}"),
                                    "pages Pagefind can read; this may be a bug of aids"))
        entry = json.loads(made.read(ENTRY) or b"{}")
        made.write(ENTRY, json.dumps(entry, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode())
        for unused in UNUSED:
            made.remove(unused)
        for own, data in own_files().items():
            made.write(own, data)
        for lang, data in offline(made).items():
            made.write(OFFLINE.format(lang=lang), data)
        _switch(folder, name / BUNDLE, pub / BUNDLE)
    finally:
        folder.remove(name)
        folder.rmdir(STAGING)


def offline(bundle: Folder) -> dict[str, bytes]:
    """Each language's pages as a script (`offline.<lang>.js`) that a page opened from disk loads with a <script>
    tag, where Pagefind cannot fetch its index: a section a heading with an id, as Pagefind's own fragments
    cut the page (the same text, table rows as they read, the same filters), for MiniSearch in the browser."""
    found: dict[str, list[dict[str, Any]]] = {}
    for name in bundle.names("fragment") if bundle.is_dir("fragment") else []:
        data = bundle.read(f"fragment/{name}") or b""
        try:
            page = json.loads(gzip.decompress(data)[len(FRAGMENT):])
        except (OSError, ValueError):
            continue
        found.setdefault(name.split("_")[0], []).append(page)
    return {lang: _offline_script(sorted(pages, key=lambda p: p.get("url", ""))) for lang, pages in found.items()}


def _offline_script(pages: list[dict[str, Any]]) -> bytes:
    sections = []
    for page in pages:
        words = page.get("content", "").split()
        heads = sorted((a for a in page.get("anchors", []) if re.fullmatch(r"h\d", a.get("element", ""))
                        and a.get("text", "").strip()), key=lambda a: a["location"])
        cuts = [(0, "", "")] + [(a["location"], a["id"], a["text"]) for a in heads]
        for n, (start, anchor, heading) in enumerate(cuts):
            end = cuts[n + 1][0] if n + 1 < len(cuts) else len(words)
            text = " ".join(words[start:end])
            if text:
                meta = page.get("meta", {})
                sections.append({"url": page["url"] + (f"#{anchor}" if anchor else ""), "title": meta.get("title", ""),
                                 "game": meta.get("game", ""), "heading": heading, "text": text,
                                 "filters": page.get("filters", {})})
    data = json.dumps(sections, ensure_ascii=False, sort_keys=True, separators=(",", ":")).replace("</", "<\\/")
    return ("/* aids: the search index of a folder opened from disk (aids/write/search.py, docs/search.md) */\n"
            "(window.aidsOffline = window.aidsOffline || [])"
            f".push({{src: document.currentScript.src, sections: {data}}});\n").encode()


def _switch(folder: Folder, made: PurePosixPath, bundle: Folder) -> None:
    """The new index in place of the old: the files it adds or changes, its entry, then the old ones' removal.
    A file the same in both is not touched."""
    new = set((folder / made).files())
    target = PurePosixPath(*bundle.parts)
    for name in sorted(new - {ENTRY}) + [ENTRY]:
        if bundle.is_file(name) and bundle.read(name) == (folder / made).read(name):
            continue
        folder.move(made / name, target / name)
    old = set(bundle.files()) if bundle.is_dir() else set()
    for name in sorted(old - new):
        bundle.remove(name)
    for name in sorted({str(PurePosixPath(n).parent) for n in old - new} - {"."}, key=len, reverse=True):
        bundle.rmdir(name)
