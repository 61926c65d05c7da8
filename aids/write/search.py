"""Full-text search of the published pages: a Pagefind index (https://pagefind.app) per publication.

A publication is a game, or one edition of a game: the folder that holds its language folders
(`<output>/<game>/` or `<output>/<game>/<edition>/`). Its index, `<publication>/pagefind/`, covers every page
of it in every language, one index a language (Pagefind reads `<html lang>`): the text of the page's
`<main data-pagefind-body>`, not the masthead, the colophon or a contents list (`nav`); each heading with an id
gives a result of its own, linking to it. `templates/search.html` puts the search box in a page; the files
aids adds to the index folder (`aids-search.js`, `aids-search.css`) start Pagefind's own UI in it.

The index is made again when a page of the publication changed, from all its pages (not only those this build
wrote): a digest of the pages, Pagefind's version, this module and aids' files is kept in
`.aids-cache/search.json`, with the size and time of every file of the index, as the build cache keeps an
aid's. Pagefind writes into the staging folder (nothing outside the output folder); the new files then go into
place, those `pagefind-entry.json` names before it, and the old ones it no longer needs are removed after it,
so a reader's search finds the old index or the new one. A file the same in both is not touched. The same
pages give the same bytes: Pagefind names its files by their contents; only the order of the languages in
`pagefind-entry.json` varies between runs, and it is sorted here.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterable, Sequence
from importlib import metadata, resources
from pathlib import Path

from ..errors import AidsError, Position, Problem
from ..files import write_atomic
from .cache import CACHE
from .files import STAGING

BUNDLE = "pagefind"  # the index folder in a publication
STATE = "search.json"  # in the build cache: per publication, the digest of its pages and the index's files
ENTRY = "pagefind-entry.json"  # Pagefind's table of the index: written last
OWN = {"aids-search.js": "search.js", "aids-search.css": "search.css"}  # index file -> aids' template
EXCLUDE = "nav, .permalink"  # contents lists (their words are the headings' again), a heading's link to itself
UNUSED = ("pagefind-component-ui.css", "pagefind-component-ui.js", "pagefind-modular-ui.css",
          "pagefind-modular-ui.js", "pagefind-highlight.js")  # Pagefind's other UIs: not published


def index(output: Path, publications: Iterable[Path], languages: Sequence[str]) -> list[Path]:
    """Index every publication whose pages changed since its index was made; the publications indexed."""
    state_path = output / CACHE / STATE
    state = _read_state(state_path)
    done = []
    try:
        for folder in sorted(set(publications)):
            pages = sorted(p for lang in languages for p in (folder / lang).glob("*.html"))
            if not pages:
                continue
            key = folder.relative_to(output).as_posix()
            digest = _digest(folder, pages)
            record = state.get(key)
            if isinstance(record, dict) and record.get("digest") == digest and _intact(folder / BUNDLE, record):
                continue
            _make(output, folder, languages)
            state[key] = {"digest": digest, "files": _files(folder / BUNDLE)}
            done.append(folder)
    finally:
        if done:
            write_atomic(state_path, json.dumps(state, sort_keys=True, indent=1).encode("utf-8"))
    return done


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


def _digest(folder: Path, pages: list[Path]) -> str:
    h = hashlib.sha256(f"pagefind {version()}\0".encode() + Path(__file__).read_bytes())  # and how it is run
    for name, data in sorted(own_files().items()):
        h.update(name.encode() + b"\0" + data + b"\0")
    for page in pages:
        h.update(page.relative_to(folder).as_posix().encode() + b"\0" + page.read_bytes() + b"\0")
    return h.hexdigest()


def _files(bundle: Path) -> dict[str, list[int]]:
    found = {}
    for path in sorted(bundle.rglob("*")):
        if path.is_file():
            stat = path.stat()
            found[path.relative_to(bundle).as_posix()] = [stat.st_size, stat.st_mtime_ns]
    return found


def _intact(bundle: Path, record: dict) -> bool:
    """The index is as it was made: the same files, of the same size and time."""
    return bundle.is_dir() and _files(bundle) == record.get("files")


def _read_state(path: Path) -> dict:
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # none yet, or damaged: every publication is indexed again
        return {}
    return state if isinstance(state, dict) else {}


def _make(output: Path, folder: Path, languages: Sequence[str]) -> None:
    """Pagefind over the pages of one publication, into the staging folder; then its files into place."""
    staging = output / STAGING / uuid.uuid4().hex
    staging.mkdir(parents=True)
    made = staging / BUNDLE
    glob = f"{{{','.join(languages)}}}/*.html" if len(languages) > 1 else f"{languages[0]}/*.html"
    command = [str(pagefind()), "--site", str(folder.resolve()), "--output-path", str(made), "--glob", glob,
               "--exclude-selectors", EXCLUDE, "--silent"]
    env = {name: value for name, value in os.environ.items() if not name.startswith("PAGEFIND_")}
    try:
        # in the staging folder, which holds no pagefind.yml: only these options count
        run = subprocess.run(command, cwd=staging, env=env, capture_output=True, text=True, timeout=600)
        if run.returncode or not (made / ENTRY).is_file():
            what = (run.stderr or run.stdout).strip().splitlines()
            shown = (Path(output.name) / folder.relative_to(output)).as_posix()  # build/<game>[/<edition>]
            raise AidsError(Problem(Position(shown), "Pagefind could not index the pages: "
                                    + (what[-1] if what else f"exit status {run.returncode}"),
                                    "pages Pagefind can read; this may be a bug of aids"))
        entry = json.loads((made / ENTRY).read_text(encoding="utf-8"))
        (made / ENTRY).write_text(json.dumps(entry, ensure_ascii=False, sort_keys=True, separators=(",", ":")),
                                  encoding="utf-8")
        for name in UNUSED:
            (made / name).unlink(missing_ok=True)
        for name, data in own_files().items():
            (made / name).write_bytes(data)
        _switch(made, folder / BUNDLE)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        try:
            staging.parent.rmdir()
        except OSError:
            pass


def _switch(made: Path, bundle: Path) -> None:
    """The new index in place of the old: the files it adds or changes, its entry, then the old ones' removal.
    A file the same in both is not touched."""
    new = {p.relative_to(made).as_posix() for p in made.rglob("*") if p.is_file()}
    for name in sorted(new - {ENTRY}) + [ENTRY]:
        source, target = made / name, bundle / name
        if target.is_file() and target.read_bytes() == source.read_bytes():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(source, 0o644)
        os.replace(source, target)
    if bundle.is_dir():
        for path in sorted(bundle.rglob("*"), reverse=True):  # files before their folders
            name = path.relative_to(bundle).as_posix()
            if path.is_file() and name not in new:
                path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
