"""What the output folder holds of each aid: its files by name, their labels, the page count of its PDF.

    build/<game>/[<edition>/]<lang>/<aid>.html, <aid>.pdf, <aid>-sheet.pdf, ...   an aid's files (aid_path)
"""
from __future__ import annotations

from .config import Project
from .localize.localizer import Localizer
from .write.cache import Cache


def aid_path(game_id: str, edition: str | None, lang: str, aid_id: str, suffix: str = ".html") -> str:
    return "/".join([game_id, *([edition] if edition else []), lang, aid_id + suffix])



def file_labels(lz: Localizer) -> list[tuple[str, str]]:
    """The files of an aid a site page links, by suffix, as it names them."""
    return [(".html", lz.pgettext("web site: a file of an aid", "Web page")),
            (".pdf", lz.pgettext("web site: a file of an aid", "PDF")),
            ("-sheet.pdf", lz.pgettext("web site: a file of an aid", "Card sheet")),
            ("-duplex-test.pdf", lz.pgettext("web site: a file of an aid", "Duplex test")),
            ("-press.pdf", lz.pgettext("web site: a file of an aid", "PDF for the press")),
            ("-imposed.pdf", lz.pgettext("web site: a file of an aid", "Booklet for a duplex printer")),
            ("-imposed-press.pdf", lz.pgettext("web site: a file of an aid", "Imposed booklet for the press"))]


class Pages:
    """Page counts of the PDFs in the output folder: the build cache's, or read from the file."""

    def __init__(self, project: Project, cache: Cache):
        self.project, self.cache = project, cache

    def count(self, game: str, edition: str | None, lang: str, aid: str) -> int | None:
        path = aid_path(game, edition, lang, aid, ".pdf")
        file = self.project.output / path
        record = self.cache.get(game, aid, f"{edition or '-'}/{lang}/pdf") or {}
        stat = file.stat()
        if record.get("outputs", {}).get(path) == [stat.st_size, stat.st_mtime_ns] and record.get("pages"):
            return int(record["pages"])
        try:
            from pypdf import PdfReader
            return len(PdfReader(file).pages)
        except Exception:  # not a PDF pypdf can read: no count shown
            return None
