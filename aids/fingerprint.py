"""What an aid's output in one language is made of, as one digest: the build cache compares them.

A digest covers the tool (aids' own code, templates, fonts and UI catalogs, the kinds of other
packages, and the versions of the libraries that render), the project file, the game file, every
file the aid and the aids it embeds were read from, the edition and language, and the text of every
catalog entry the aid shows in that language. An entry it does not show changes nothing, so a new
msgstr makes stale only the aids that print it.
"""
from __future__ import annotations

import functools
import hashlib
import inspect
from importlib import metadata, resources
from pathlib import Path

from .config import Edition, Game, Project
from .kind import Aid, registry
from .localize.localizer import Localizer

# The libraries whose version can change a rendered byte.
LIBRARIES = ("weasyprint", "pydyf", "reportlab", "babel", "jinja2", "markdown-it-py", "fonttools", "pypdf")


def _files(folder: Path, pattern: str = "**/*") -> list[Path]:
    return sorted(p for p in folder.glob(pattern) if p.is_file() and "__pycache__" not in p.parts)


@functools.lru_cache(maxsize=1)
def tool_digest() -> str:
    """aids itself as it renders: once per process."""
    h = hashlib.sha256()
    folders = [(Path(str(resources.files("aids"))), "**/*"), (Path(str(resources.files("aids.templates"))), "**/*"),
               (Path(str(resources.files("aids.i18n"))), "*/LC_MESSAGES/aids.*")]
    for kind in registry().values():  # kinds of other packages: their module and templates
        module = inspect.getsourcefile(type(kind))
        if module:
            folders.append((Path(module).parent, Path(module).name))
        if kind.template_folder:
            folders.append((Path(kind.template_folder), "**/*"))
    for folder, pattern in folders:
        for path in _files(folder, pattern):
            h.update(path.name.encode() + b"\0" + path.read_bytes())
    for name in LIBRARIES:
        try:
            h.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            pass
    return h.hexdigest()


def sources_digest(project: Project) -> str:
    """Every source and catalog of the project as one digest (names and bytes): what a process that renders
    jobs keeps of a project is keyed by it (jobs.loaded), so a long-lived worker never renders an earlier
    state under a later build's digest."""
    h = hashlib.sha256()
    files = [project.root / "aids.yaml", *_files(project.games_dir), *_files(project.catalogs)]
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            data = b"\0missing"
        h.update(f"{path.relative_to(project.root) if path.is_relative_to(project.root) else path}\0".encode())
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()


class Fingerprints:
    """Digests of the jobs of one build; files are hashed once however many jobs read them."""

    def __init__(self, project: Project):
        self.project = project
        self._hashes: dict[Path, str] = {}

    def file(self, path: Path) -> str:
        if path not in self._hashes:
            try:
                self._hashes[path] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                self._hashes[path] = "missing"
        return self._hashes[path]

    def inputs(self, game: Game, aid: Aid) -> list[Path]:
        parts = aid.kind.parts(aid.model)
        releases = sorted((game.folder / "releases").glob("*.yaml"))  # what its change marks compare with
        # a booklet of a released game lists every change of the game (its changelog), and an aid citing another's
        # rules marks what cites a changed rule: all the game's sources count
        cites = any(":" in target for targets in aid.kind.citations(aid.model).values() for target in targets)
        everything = [*sorted(p for p in game.folder.rglob("*") if p.is_file()),
                      *sorted(self.project.catalogs.glob(f"*/LC_MESSAGES/{game.id}.po"))] \
            if releases and (aid.kind.changelog or cites) else []
        return [self.project.root / "aids.yaml", game.source.path, *aid.kind.inputs(aid.model),
                *(part.source.path for part in parts), *releases, *everything]

    def digest(self, game: Game, aid: Aid, edition: Edition | None, lz: Localizer, marks: str = "bars") -> str:
        h = hashlib.sha256()
        h.update(tool_digest().encode())
        for path in self.inputs(game, aid):
            h.update(self.project.show(path).encode() + b"\0" + self.file(path).encode())
        h.update(f"\0{edition.id if edition else ''}\0{lz.lang}\0{'draft' if lz.draft else ''}\0{marks}\0".encode())
        # what the catalog holds decides what is shown and what the build reports
        for text in [game.title_text, *aid.kind.shown_texts(aid.model)]:
            entry = lz.catalog.get((text.context, text.msgid))
            h.update(f"{text.context}\0{text.msgid}\0{entry!r}\0".encode())
        return h.hexdigest()
