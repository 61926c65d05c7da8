"""What an aid's output in one language is made of, as one digest: the build cache compares them.

A digest covers the tool (aids' own code, templates, fonts and UI catalogs, the kinds of other
packages, the versions of every library aids runs on and of the system's Pango and HarfBuzz:
render/versions.py), the project file, the game file, every file the aid and the aids it embeds were
read from, the files of the game's icons its texts show, every file of its theme (its fonts, page art,
stylesheet and what the stylesheet names, template blocks), the edition and language, every catalog
entry the aid shows in that language (its text, the names of those icons) with the checks its
translator's comment ignores (which decide whether it prints), and what its page marks as changed since
the game's last release, as resolved for that language (jobs.page_marks: its changed items, those citing
a changed rule of another aid, a booklet's changelog), with the rulings it prints.

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
from importlib import resources
from pathlib import Path
from typing import Any

from ..config import Edition, Game, Project
from ..kind import Aid
from ..kinds import registry
from ..localize.localizer import Localizer
from ..model.icons import Icon
from ..model.text import inline_placeholders
from ..render import versions


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
    for name, version in (*versions.libraries(), *versions.system()):
        h.update(f"{name}={version}\0".encode())
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
        self._icons: dict[tuple[str, str], list[Icon]] = {}

    def file(self, path: Path) -> str:
        if path not in self._hashes:
            try:
                self._hashes[path] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                self._hashes[path] = "missing"
        return self._hashes[path]

    def icons(self, game: Game, aid: Aid) -> list[Icon]:
        """`icons_shown`, once an aid however many editions and languages ask."""
        key = (game.id, aid.model.id)
        if key not in self._icons:
            self._icons[key] = icons_shown(game, aid)
        return self._icons[key]

    def covered(self, project: Project) -> bool:
        """Whether every file hashed so far is one `sources_digest` covers (aids.yaml, the games, the catalogs)."""
        return all(path == project.root / "aids.yaml" or path.is_relative_to(project.games_dir)
                   or path.is_relative_to(project.catalogs)
                   or (project.theme is not None and path in project.theme.files) for path in self._hashes)

    def inputs(self, game: Game, aid: Aid) -> list[Path]:
        """The files an aid's pages are made from: the project's and game's, its own, those of the aids it embeds,
        the drawings of the icons it shows, its theme's. The other aids of its game and the release count through
        what its page marks (`digest`'s `shown`)."""
        return [self.project.root / "aids.yaml", game.source.path, *aid.kind.inputs(aid.model),
                *(part.source.path for part in aid.kind.parts(aid.model)),
                *(icon.file for icon in self.icons(game, aid)),
                *(game.theme.files if game.theme else ())]  # its house style: theme.yaml, fonts, art, CSS and what
        # it names, blocks

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
        # what the catalog holds decides what is shown and what the build reports; the checks a translator's comment
        # ignores, whether a translation is shown at all (`# aids: ignore markup`)
        for text in [game.title_text, *aid.kind.shown_texts(aid.model), *(i.name for i in self.icons(game, aid))]:
            key = (text.context, text.msgid)
            entry, ignored = lz.catalog.get(key), sorted(lz.ignored.get(key, ()))
            h.update(f"{text.context}\0{text.msgid}\0{entry!r}\0{ignored!r}\0".encode())
        return h.hexdigest()


def icons_shown(game: Game, aid: Aid) -> list[Icon]:
    """The icons of the game the aid's pages show: those its texts name (`{icon:<id>}`), which every translation
    names too (a translation that loses or invents a placeholder is not printed)."""
    named = {target for text in [game.title_text, *aid.kind.shown_texts(aid.model)] if "icon" in text.msgid
             for kind, target, _ in inline_placeholders(text.msgid) if kind == "icon"}
    return [game.icons[name] for name in sorted(named) if name in game.icons]
