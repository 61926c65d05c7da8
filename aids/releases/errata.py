"""Errata for those who own the print of a version: `aids errata VERSION` writes, per language,
build/<game>/<lang>/errata-<VERSION>.pdf, listing each change since that release with the page and column where
it stood in that version's PDF, and its text now, in a box as wide as the column, to cut out and paste.

Where a change stood is read from the PDF of that version (by default build/<game>/<VERSION>/<lang>/<aid>.pdf,
where the site's archive keeps it; any folder of such PDFs with --pdfs): WeasyPrint writes a named destination
for each anchor, with its page and position; the columns of a PDF are the clusters of the destinations' left
edges (a page's two columns start far apart; a step's indent or a facing page's margin, close by).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from ..config import Game, Project
from ..errors import AidsError, Position, Problem
from ..folder import Folder
from ..kinds.reading import read_aids
from ..localize import making
from ..localize.changes import change_words
from ..localize.localizer import Localizer
from ..model.release import ADDED, CHANGED, MOVED, REMOVED, TRANSLATION, Change, Item, Snapshot
from ..pipeline import pipeline
from ..render.errata import render_errata
from ..site.navigation import aid_numbers, aid_title
from ..units import MM_PER_PT
from ..write.journal import write_all
from . import release
from .snapshot import has_snapshot, read_digests
from .wording import Wording

GAP = 0.15  # left edges further apart than this share of the page width are columns of their own


@dataclass(frozen=True)
class Place:
    page: int  # from 1
    column: int  # from 1
    x: float


@dataclass
class PrintedPdf:
    """Where each anchor stood in a PDF: its page and column, and how wide a column is (mm)."""
    places: dict[str, Place]
    columns: int
    width: float


def read_places(path: Path, shown_path: str) -> PrintedPdf:
    """The anchors of a PDF aids wrote, from its named destinations."""
    import pypdf
    try:
        reader = pypdf.PdfReader(path)
        found = {str(name): (page + 1, float(dest.left or 0)) for name, dest in reader.named_destinations.items()
                 if (page := reader.get_destination_page_number(dest)) is not None}
        page_width = float(reader.pages[0].mediabox.width)
    except (OSError, pypdf.errors.PdfReadError, ValueError, IndexError) as exc:
        raise AidsError(Problem(Position(shown_path), f"cannot read this PDF ({exc})",
                                "a PDF that aids built")) from None
    starts: list[list[float]] = []
    for x in sorted({x for _, x in found.values()}):
        if starts and x - starts[-1][-1] <= GAP * page_width:
            starts[-1].append(x)
        else:
            starts.append([x])

    def column(x: float) -> int:
        return next(n for n, cluster in enumerate(starts, 1) if cluster[0] <= x <= cluster[-1])

    places = {name: Place(page, column(x), x) for name, (page, x) in found.items()}
    if len(starts) > 1:
        width = min(b[0] - a[0] for a, b in zip(starts, starts[1:], strict=False)) * 0.94
    else:
        width = page_width - 2 * (starts[0][0] if starts else 40)
    return PrintedPdf(places, len(starts), round(width * MM_PER_PT, 1))


def old_anchor(change: Change, then: Snapshot, now: list[Item]) -> str:
    """The anchor in the old version where a change goes: the item's own (where it was, for one changed, moved or
    removed), or for one added, the item before it that was there already (else its parent)."""
    items = {item.key: item for state in then.aids.values() for item in state.items}
    key = change.was or change.key
    if change.what != ADDED and key in items:
        return items[key].anchor
    keys = [item.key for item in now]
    index = keys.index(change.key) if change.key in keys else 0
    earlier = [k for k in reversed(keys[:index]) if k in items]
    if earlier:
        return items[earlier[0]].anchor
    parent = change.key.rpartition("/")[0]
    return items[parent].anchor if parent in items else ""


def place_of(anchor: str, pdf: PrintedPdf) -> Place | None:
    """The place of `anchor` in the PDF, or of its nearest enclosing anchor ('a/b/c', then 'a/b', then 'a')."""
    while anchor:
        if anchor in pdf.places:
            return pdf.places[anchor]
        anchor = anchor.rpartition("/")[0]
    return None


def at_head(change: Change, anchor: str) -> bool:
    """Whether a change has no one place in the printed copy to paste a box over: an item printed at the top of
    the page (anchor '': the title, a side's name, a form of it used within other texts), now or in the old
    version (`anchor`, where it stood)."""
    return anchor == "" or change.what != REMOVED and change.anchor == ""


def entries(changes: list[Change], then: Snapshot, pdf: PrintedPdf, lz: Localizer,
            numbers: dict[tuple[str, str], str], now: list[Item], wording: Wording) -> list[dict[str, str | bool]]:
    """Each change of an aid that has a place in the printed copy, as the sheet prints it: where it stood in the
    PDF of the old version (`pdf`), what to do, its number and its text now (a removed item's as it was)."""
    words = {ADDED: lz.pgettext("errata: a rule added; where it goes follows", "insert"),
             CHANGED: lz.pgettext("errata: a rule changed", "replace"),
             MOVED: lz.pgettext("errata: a rule moved", "moved"),
             REMOVED: lz.pgettext("errata: a rule removed", "strike out"),
             TRANSLATION: lz.pgettext("errata: a rule's translation corrected", "replace (translation)")}
    out: list[dict[str, str | bool]] = []
    for change in changes:
        anchor = old_anchor(change, then, now)
        if at_head(change, anchor):
            continue
        place = place_of(anchor, pdf)
        out.append({"key": change.key, "place": where(place, pdf, lz), "what": words[change.what],
                    "number": "" if change.what == REMOVED else numbers.get((change.aid, change.anchor), ""),
                    "text": wording.change(change, then.version), "removed": change.what == REMOVED,
                    "page": str(place.page) if place else "", "column": str(place.column) if place else ""})
    return out


def where(place: Place | None, pdf: PrintedPdf, lz: Localizer) -> str:
    """Where a change stood in the printed copy, in words."""
    if place is None:  # a PDF that is not the version's: its anchors are not those of the release
        return lz.pgettext("errata: a change whose place the printed copy does not show", "place not found")
    if pdf.columns > 1:
        return lz.pgettext("errata: where a change stood; %(page)s and %(column)s are numbers",
                           "page %(page)s, column %(column)s") % {
            "page": lz.number(place.page), "column": lz.number(place.column)}
    return lz.pgettext("errata: where a change stood; %(page)s is a number", "page %(page)s") % {
        "page": lz.number(place.page)}


def head_changes(changes: list[Change], then: Snapshot, now: list[Item], lz: Localizer,
                 wording: Wording) -> list[dict[str, str]]:
    """The changes of an aid with no box (`at_head`), in words: what changed, and its text now (as it was, for a
    removed item)."""
    words = change_words(lz)
    return [{"key": change.key, "what": words[change.what], "text": wording.change(change, then.version)}
            for change in changes if at_head(change, old_anchor(change, then, now))]


def errata(project: Project, game: Game, version: str, lang: str, pdfs: Path) -> bytes:
    """The errata sheet of `game` for owners of `version` in `lang`: the PDFs of that version in `pdfs`/<lang>/."""
    then = release.read_release(project, game, version)
    _, changes = release.changes(project, game, version)
    lz = making.localizer(project, game, lang)
    aids = read_aids(project, game)[0]
    numbers = aid_numbers(aids, lz)
    wording = Wording(project, game, aids, lz, game.editions[0] if game.editions else None)  # the first's PDFs
    folder = Folder(pdfs, project.show(pdfs)) / lang
    sheets = []
    for aid in (aid for aid in aids if aid.kind.standalone):
        own = [c for c in pipeline.aid_changes(aid, changes) if c.concerns(lang)]
        if not own or not folder.is_file(f"{aid.model.id}.pdf"):
            continue
        pdf = read_places(pdfs / lang / f"{aid.model.id}.pdf", project.show(pdfs / lang / f"{aid.model.id}.pdf"))
        changed = {c.aid for c in own}
        now = [item for other in aids if other.model.id in changed for item in other.kind.items(other.model)]
        sheets.append({"title": aid_title(aid, lz), "width": pdf.width,
                       "entries": entries(own, then, pdf, lz, numbers, now, wording),
                       "head": head_changes(own, then, now, lz, wording)})
    title = lz.pgettext("errata: the title of the sheet; %(game)s is a game, %(version)s a version",
                        "%(game)s: errata to version %(version)s") % {"game": lz.plain(game.title_text),
                                                                      "version": version}
    intro = lz.pgettext("errata: how to use the sheet; %(version)s is a version",
                        "Each change since version %(version)s, with the page and column where it stands in the "
                        "printed copy of that version. Cut each box out along its dashed border and paste it over "
                        "the text it replaces.") % {"version": version}
    no_changes = lz.pgettext("errata: a sheet with no change", "No changes.")
    head = lz.pgettext("errata: before the changes of an aid that have no box: its title, the names of sides and "
                       "roles and their forms, which are printed at the head of the page and within other texts",
                       "The title and names, printed at the head of the page and within the text, have no box:")
    epoch = int(dt.datetime.combine(then.date or dt.date(1980, 1, 1), dt.time(), dt.UTC).timestamp())
    context = {"title": title, "intro": intro, "aids": sheets, "no_changes": no_changes, "head": head}
    return render_errata(context, lz, epoch)


def _archived_pdfs(project: Project, game: Game, version: str) -> bool:
    """Whether the output folder holds every PDF the release recorded (its archive, as a build with PDFs wrote it)."""
    folder = Folder(project.output, project.output.name) / game.id / version
    names = [name for name in read_digests(game, version) if name.endswith(".pdf")]
    return folder.is_dir() and all(folder.is_file(name) for name in names)


def write_errata(project: Project, game: Game, version: str, langs: list[str], pdfs: Path | None) -> list[str]:
    """Write build/<game>/<lang>/errata-<version>.pdf for each language; their paths as shown."""
    release.require_release(project, game, version)
    first = [game.editions[0].id] if game.editions else []  # the errata cover a game's first edition
    source = pdfs or project.output.joinpath(game.id, version, *first)
    if pdfs is None and has_snapshot(game, version) and not _archived_pdfs(project, game, version):
        # the version's PDFs as the site's archive publishes them, made from the release's snapshot (a build of
        # the HTML alone publishes the archive's pages, not its PDFs)
        from .archive import release_outputs
        made = {project.output / game.id / version / name: data
                for name, data in release_outputs(project, game, version).items() if name.endswith(".pdf")}
        write_all(made, project.output)
    if not source.is_dir():
        raise AidsError(Problem(Position(project.show(source)), f"no PDFs of version {version} here",
                                "the folder of that version's PDFs, <folder>/<lang>/<aid>.pdf (--pdfs)"))
    out = {project.output / game.id / lang / f"errata-{version}.pdf": errata(project, game, version, lang, source)
           for lang in langs}
    write_all(out, project.output)
    return [project.show(path) for path in out]
