"""What the output folder holds of each aid: its files by name, their labels, the page count of its PDF; which
of them are stale, an earlier build's, because the aid failed since; and the files of an aid gone from the
sources, removed.

    build/<game>/[<edition>/]<lang>/<aid>.html, <aid>.pdf, <aid>-sheet.pdf, ...   an aid's files (aid_path)

An aid that fails keeps its last good files (nothing of it is written), and the site keeps listing them, marked
"not rebuilt" with the error: the build cache records the failure of each edition and language (the key
`<edition>/<lang>/failed`), until the aid is built there again (or found up to date); an aid that does not read
at all is known by the id its source declares, or else by the source the cache's records name. An aid no longer
in its game.yaml has the files the cache recorded of it removed, and its cache with them: no file of the output
folder is left that no page links.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from io import BytesIO
from typing import Any

from ..config import Game, Project
from ..errors import AidsError
from ..kind import Aid
from ..kinds.reading import Broken
from ..localize.localizer import Localizer
from ..write.cache import Cache

FAILED = "failed"  # in a cache key, in place of a format: why the aid's last build there failed
ERROR_LENGTH = 300  # characters of an error a site page shows at most


def aid_path(game_id: str, edition: str | None, lang: str, aid_id: str, suffix: str = ".html") -> str:
    return "/".join([game_id, *([edition] if edition else []), lang, aid_id + suffix])


SUFFIX = re.compile(r"(?:-[a-z]+)*\.[a-z]+")  # what follows an aid's id in the name of each of its files


def fresh_files(cache: Cache, game: str, aid: str, edition: str | None, lang: str, key: str,
                digest: str) -> tuple[tuple[str, str], ...]:
    """(suffix, sha256) of each file of the record `key` of `aid` in `lang`, when it is fresh (made from `digest`,
    its files holding the bytes recorded): what a job may read back rather than render again (an imposition, the
    home PDFs). Nothing when it is not, or when a recorded name is not one aid_path gives."""
    record = cache.fresh(game, aid, key, digest)
    prefix = aid_path(game, edition, lang, aid, "")
    found = []
    for name, written in (record or {}).get("outputs", {}).items():
        suffix = name.removeprefix(prefix)
        if suffix == name or not SUFFIX.fullmatch(suffix):
            return ()
        found.append((suffix, written["sha256"]))
    return tuple(sorted(found))


def file_labels(lz: Localizer) -> list[tuple[str, str]]:
    """The files of an aid a site page links, by suffix, as it names them."""
    return [(".html", lz.pgettext("web site: a file of an aid", "Web page")),
            (".pdf", lz.pgettext("web site: a file of an aid", "PDF")),
            (".epub", lz.pgettext("web site: a file of an aid", "EPUB e-book")),
            ("-sheet.pdf", lz.pgettext("web site: a file of an aid", "Card sheet")),
            ("-duplex-test.pdf", lz.pgettext("web site: a file of an aid", "Duplex test")),
            ("-press.pdf", lz.pgettext("web site: a file of an aid", "PDF for the press")),
            ("-gray.pdf", lz.pgettext("web site: a file of an aid", "Grayscale PDF")),
            ("-sheet-gray.pdf", lz.pgettext("web site: a file of an aid", "Grayscale card sheet")),
            ("-imposed.pdf", lz.pgettext("web site: a file of an aid", "Booklet for a duplex printer")),
            ("-imposed-press.pdf", lz.pgettext("web site: a file of an aid", "Imposed booklet for the press"))]


class Pages:
    """Page counts of the PDFs in the output folder: the build cache's, or read from the file."""

    def __init__(self, project: Project, cache: Cache):
        self.project, self.cache = project, cache

    def count(self, game: str, edition: str | None, lang: str, aid: str) -> int | None:
        path = aid_path(game, edition, lang, aid, ".pdf")
        key = f"{edition or '-'}/{lang}/pdf"
        record = self.cache.get(game, aid, key) or {}
        if self.cache.folder.regular(path) is None:  # never a link's target
            return None
        if record.get("pages") and self.cache.holds(game, aid, key, path):
            return int(record["pages"])
        try:
            from pypdf import PdfReader
            return len(PdfReader(BytesIO(self.cache.folder.read(path) or b"")).pages)
        except Exception:  # not a PDF pypdf can read: no count shown
            return None


# --- the failures of an aid ---------------------------------------------------------------------

def failed_key(edition: str | None, lang: str) -> str:
    return f"{edition or '-'}/{lang}/{FAILED}"


def one_line(error: AidsError) -> str:
    """The first problem of `error`, on one line (the others follow in the build's output)."""
    text = " ".join(str(error.problems[0] if error.problems else error).split())
    more = len(error.problems) - 1
    text += f" (+{more})" if more > 0 else ""
    return text if len(text) <= ERROR_LENGTH else text[:ERROR_LENGTH - 1] + "…"


def failure(cache: Cache, game: str, aid: str, edition: str | None, lang: str) -> str | None:
    """Why `aid` was not built in `edition` and `lang` the last time it was tried; None when it was built."""
    error = (cache.get(game, aid, failed_key(edition, lang)) or {}).get("error")
    return error if isinstance(error, str) and error else None


def mark_failed(cache: Cache, game: str, aid: str, edition: str | None, lang: str, error: str) -> None:
    """`aid` not built in `edition` and `lang` for `error`: marked, if an earlier build made its page or its PDF
    there (an aid never built has nothing to mark)."""
    built = any(cache.get(game, aid, f"{edition or '-'}/{lang}/{fmt}") for fmt in ("html", "pdf"))
    if built and failure(cache, game, aid, edition, lang) != error:
        cache.put(game, aid, failed_key(edition, lang), {"error": error}, [])


def mark_built(cache: Cache, game: str, aid: str, edition: str | None, lang: str) -> None:
    """`aid` built in `edition` and `lang`, or up to date there: no longer marked as failed."""
    if failure(cache, game, aid, edition, lang):
        cache.put(game, aid, failed_key(edition, lang), {"error": None}, [])


def mark_broken(cache: Cache, game: Game, broken: Iterable[Broken], aids: Iterable[Aid], langs: Iterable[str]) -> None:
    """Every edition and language of each aid of `game` that does not read (by the id it declares) failed."""
    ids = {aid.model.id for aid in aids}
    langs = list(langs)
    editions: list[str | None] = [e.id for e in game.editions] or [None]
    for item in broken:
        if item.id and item.id not in ids:
            for edition in editions:
                for lang in langs:
                    mark_failed(cache, game.id, item.id, edition, lang, one_line(item.error))


# --- what the cache recorded of aids, found by its files ------------------------------------------

def cached_aids(project: Project, game: str) -> list[str]:
    """The ids of the aids of `game` the build cache has records of."""
    return Cache(project.output).aids(game)


def records(project: Project, game: str, aid: str) -> dict[str, Any]:
    """Every record the build cache holds of `aid` (key -> record); none when its file is damaged."""
    return Cache(project.output).records(game, aid)


def identified(project: Project, game: str, broken: list[Broken]) -> list[Broken]:
    """`broken` with the id of each aid that declares none found from the source the cache's records name."""
    if all(item.id for item in broken):
        return broken
    sources = {record.get("source"): aid for aid in cached_aids(project, game)
               for record in records(project, game, aid).values() if record.get("source")}
    return [item if item.id else replace(item, id=sources.get(project.show(item.path))) for item in broken]


def remove_gone(project: Project, game: Game, aids: Iterable[Aid], broken: list[Broken]) -> list[str]:
    """Remove the files the cache recorded of each aid of `game` no longer in its game.yaml, and that aid's
    cache; the files removed, as shown. Nothing is removed while an aid that does not read has no known id
    (its files cannot be told from those of an aid gone)."""
    broken = identified(project, game.id, broken)
    if any(item.id is None for item in broken):
        return []
    ids = {aid.model.id for aid in aids} | {item.id for item in broken}
    removed = []
    cache = Cache(project.output)
    for aid in cache.aids(game.id):
        if aid in ids:
            continue
        left = False
        for record in cache.records(game.id, aid).values():
            for name in record.get("outputs", {}):
                try:
                    if cache.folder.is_file(name) and cache.folder.remove(name):  # inside build/, never a link's target
                        removed.append(project.show(project.output / name))
                except AidsError:  # a name outside, a file aids may not remove: tried again by the next build
                    left = True
        if not left:
            cache.forget(game.id, aid)
    return sorted(removed)
