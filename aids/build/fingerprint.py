"""What an aid's output in one language is made of, as one digest: the build cache compares them.

A digest covers the tool (aids' own code, templates, fonts and UI catalogs, the kinds of other
packages, and the versions of the libraries that render), the project file, the game file, every
file the aid and the aids it embeds were read from, the edition and language, the text of every
catalog entry the aid shows in that language, and what its page marks as changed since the game's
last release, as resolved for that language (jobs.page_marks: its changed items, those citing a
changed rule of another aid, a booklet's changelog).

Nothing else of the game counts: an entry it does not show, another language's catalog, a paragraph
of another aid it cites nothing of. So a new msgstr makes stale only the aids that print it, in its
language (and those whose marks or changelog it changes there); a booklet's paragraph, the booklet
(and an aid that cites that very rule, if its change marks it).
"""
from __future__ import annotations

import functools
import hashlib
import inspect
import json
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from ..config import Edition, Game, Project
from ..kind import Aid
from ..kinds import registry
from ..localize.localizer import Localizer

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
    themes = [*project.theme.files] if project.theme else []  # the project's theme (a game's own: in games/)
    files = [project.root / "aids.yaml", *_files(project.games_dir), *_files(project.catalogs), *themes]
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

    def covered(self, project: Project) -> bool:
        """Whether every file hashed so far is one `sources_digest` covers (aids.yaml, the games, the catalogs)."""
        return all(path == project.root / "aids.yaml" or path.is_relative_to(project.games_dir)
                   or path.is_relative_to(project.catalogs)
                   or (project.theme is not None and path in project.theme.files) for path in self._hashes)

    def inputs(self, game: Game, aid: Aid) -> list[Path]:
        """The files an aid's pages are made from: the project's and game's, its own, those of the aids it embeds.
        The other aids of its game and the release count through what its page marks (`digest`'s `shown`)."""
        return [self.project.root / "aids.yaml", game.source.path, *aid.kind.inputs(aid.model),
                *(part.source.path for part in aid.kind.parts(aid.model)),
                *(game.theme.files if game.theme else ())]  # its house style: theme.yaml, fonts, art, CSS, blocks

    def digest(self, game: Game, aid: Aid, edition: Edition | None, lz: Localizer, marks: str = "bars",
               shown: Any = None) -> str:
        """`shown`: what the page marks as changed since the last release (jobs.page_marks, plain data), or
        the error its job will fail with."""
        h = hashlib.sha256()
        h.update(tool_digest().encode())
        for path in self.inputs(game, aid):
            h.update(self.project.show(path).encode() + b"\0" + self.file(path).encode())
        h.update(f"\0{edition.id if edition else ''}\0{lz.lang}\0{'draft' if lz.draft else ''}\0{marks}\0".encode())
        h.update(json.dumps(shown, sort_keys=True, ensure_ascii=False, default=repr).encode() + b"\0")
        # what the catalog holds decides what is shown and what the build reports
        for text in [game.title_text, *aid.kind.shown_texts(aid.model)]:
            entry = lz.catalog.get((text.context, text.msgid))
            h.update(f"{text.context}\0{text.msgid}\0{entry!r}\0".encode())
        return h.hexdigest()
