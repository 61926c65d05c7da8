"""What aids.yaml asks for tournaments (config/tournament.py, docs/guide/tournaments.md), made after the aids:

    build/<game>/[<edition>/]<a>+<b>/<aid>.pdf   a card or playsheet in two languages as one (render/bilingual.py)
    build/<game>/packets/<id>.pdf                an event's packet: a cover, then its aids (render/packet.py)

A bilingual PDF is cached as its aid's are (write/cache.py), by the digests of its two languages' jobs: a build
that rendered neither language again renders it no more. A packet joins the PDFs the build wrote (so it holds the
very pages of the aids); it is made again on every build that reaches it, and written only when its bytes differ.
"""
from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pikepdf
from babel import Locale

from ..config import Edition, Game, Project
from ..config.tournament import Packet
from ..errors import AidsError, DoesNotFit, Problem
from ..kind import Aid
from ..localize import rich
from ..localize.game import imprint, localize_game
from ..localize.localizer import Localizer
from ..localize.rich import Rich
from ..model.text import plain_text
from ..releases import release
from ..render import bilingual as bilingual_pdf
from ..render import packet as packet_pdf
from ..site.navigation import href, language_name
from ..units import PT_PER_MM
from ..write.cache import Cache
from ..write.journal import changed, write_all
from . import pipeline
from .jobs import Loaded, blamed
from .outputs import aid_path, failure

PACKETS = "packets"


def pair_name(pair: tuple[str, str]) -> str:
    return "+".join(pair)


def bilingual_path(game: str, edition: str | None, pair: tuple[str, str], aid: str) -> str:
    return "/".join([game, *([edition] if edition else []), pair_name(pair), f"{aid}.pdf"])


def packet_path(game: str, packet: str) -> str:
    return f"{game}/{PACKETS}/{packet}.pdf"


@dataclass
class Tournament:
    """One build's bilingual aids and packets: what it may use of the build (`digests` of each unit's jobs by
    (unit, language), the state the jobs were made from), and where it reports."""
    project: Project
    state: Loaded
    cache: Cache
    digests: dict[tuple[pipeline.UnitKey, str], str]
    written: list[str]
    failed: list[AidsError]
    draft: bool = False
    force: bool = False
    marks: str = "bars"  # what the aids mark of the changes since the last release (aids build --marks)

    def bilingual(self, units: list[pipeline.Unit], langs: list[str]) -> None:
        """Every bilingual pair of every card and playsheet of the plan whose two languages it builds."""
        for unit in units:
            if unit.aid.kind.name not in bilingual_pdf.KINDS:
                continue
            for pair in self.project.bilingual.get(unit.game.id, ()):
                if all(lang in langs and (unit.key, lang) in self.digests for lang in pair):
                    self._pair(unit, pair)

    def _pair(self, unit: pipeline.Unit, pair: tuple[str, str]) -> None:
        game, aid, edition = unit.game, unit.aid, unit.edition
        ed = edition.id if edition else None
        key = f"{ed or '-'}/{pair_name(pair)}/bilingual"
        digest = hashlib.sha256("\0".join(["bilingual", *(self.digests[(unit.key, lang)] for lang in pair)]).encode()
                                ).hexdigest()
        if not self.force and self.cache.fresh(game.id, aid.model.id, key, digest):
            return
        name = bilingual_path(game.id, ed, pair, aid.model.id)
        try:
            made = bilingual_pdf.render([self._document(game, aid, edition, lang) for lang in pair],
                                        self._built(unit, pair))
            path = self.project.output / name
            write_all({path: made.data}, self.project.output)
        except AidsError as exc:
            exc = blamed(self.project, game, aid, exc) if isinstance(exc, DoesNotFit) else exc
            self.failed.append(AidsError([Problem(p.where, f"{pair_name(pair)} {aid.model.id}: {p.message}", p.expected)
                                          for p in exc.problems]))
            return
        self.cache.put(game.id, aid.model.id, key, {"digest": digest, "files": [name], "pages": made.pages,
                                                    "notes": made.notes, "fitted": made.fitted}, [path])
        self.written.append(name)

    def _built(self, unit: pipeline.Unit, pair: tuple[str, str]) -> dict[str, tuple[float, bytes]]:
        """Language -> the type size its PDF was fitted at and its bytes, of each language of `pair` whose PDF this
        build holds as made from its current job (a language set at its own size prints just so: not again)."""
        found = {}
        ed, game, aid = unit.edition.id if unit.edition else None, unit.game.id, unit.aid.model.id
        for lang in pair:
            record = self.cache.fresh(game, aid, f"{ed or '-'}/{lang}/pdf", self.digests[(unit.key, lang)])
            fitted = (record or {}).get("fitted", {}).get("")
            data = self.cache.folder.read(aid_path(game, ed, lang, aid, ".pdf")) if fitted else None
            if fitted and data:
                found[lang] = (float(fitted), data)
        return found

    def _document(self, game: Game, aid: Aid, edition: Edition | None, lang: str) -> Any:
        lz = self.state.localizer(game, lang, self.draft)
        marks = self.state.marks(game, aid, lz, self.marks, edition=edition)
        return pipeline.document(game, aid, lz, edition, None, marks, self.state.rulings(game, aid, lz))

    def packets(self, games: list[Game], aids: dict[str, list[Aid]]) -> None:
        """Every packet of a game of the plan."""
        for packet in self.project.packets:
            game = next((g for g in games if g.id == packet.game), None)
            if game is not None:
                try:
                    self._packet(packet, game, aids.get(game.id, []))
                except AidsError as exc:
                    self.failed.append(exc)

    def _packet(self, packet: Packet, game: Game, aids: list[Aid]) -> None:
        edition = _edition(packet, game)
        chosen = _aids(packet, aids)
        sides = self._sides(packet, game)
        ed = edition.id if edition else None
        chosen_langs = [(lang, aid) for lang in packet.languages for aid in chosen]
        titles = {lang: {aid.model.id: aid.kind.title_of(aid.model, self.state.localizer(game, lang, self.draft))
                         for aid in chosen} for lang in packet.languages}
        for lang, aid in chosen_langs:  # an aid that failed since keeps its earlier PDF: not one for this packet
            if error := failure(self.cache, game.id, aid.model.id, ed, lang):
                raise AidsError(Problem(packet.where, f"packet '{packet.id}': {aid.model.id} ({lang}) failed to build: "
                                        f"{error}", "an aid that builds in every language of the packet"))
        parts = [packet_pdf.Part(f"{titles[lang][aid.model.id]} ({language_name(lang)})",
                                 self._output(aid_path(game.id, ed, lang, aid.model.id, ".pdf"), packet))
                 for lang, aid in chosen_langs]
        size = _paper(packet, [(aid.model.id, lang, part.data)
                               for (lang, aid), part in zip(chosen_langs, parts, strict=True)])
        cover = _cover(game, packet, sides, [(lang, titles[lang][aid.model.id]) for lang, aid in chosen_langs],
                       [_pages(part.data) for part in parts], size)
        cover_title = sides[0].lz.pgettext("tournament packet: the bookmark of its cover", "Cover")
        data, _ = packet_pdf.join(cover, parts, cover_title, f"{sides[0].game} – {plain_text(packet.event)}",
                                  packet.languages[0])
        name = packet_path(game.id, packet.id)
        if changed(self.project.output, {name: data}):
            write_all({self.project.output / name: data}, self.project.output)
            self.written.append(name)

    def _sides(self, packet: Packet, game: Game) -> list[packet_pdf.Side]:
        """What the cover says in each language of the packet."""
        recorded, altered = self._standing(game)
        released = game.version if recorded and not altered else None
        sides = []
        for lang in packet.languages:
            lz = self.state.localizer(game, lang, self.draft)
            shown = localize_game(game, lz)
            sides.append(packet_pdf.Side(lz, shown["title"], version_line(lz, game),
                                         standing_line(lz, game.version, recorded, altered), released is not None,
                                         self._url(game, lang, released), heading=shown["title_runs"]))
        return sides

    def _standing(self, game: Game) -> tuple[bool, bool]:
        """(whether the version game.yaml names, the one every page prints, is recorded as a release; whether the
        sources changed since that release). A release that does not read counts as none: the aids' jobs say why."""
        if not game.version or game.version not in release.versions(game):
            return False, False
        latest = release.latest(game) == game.version  # compared as the aids' change marks are: computed once
        try:
            _, found = self.state.changes(game, None if latest else game.version)
        except AidsError:
            return False, False
        return True, bool(found)

    def _url(self, game: Game, lang: str, released: str | None) -> str | None:
        """The page of the version on the web site: the release's (<site>/<game>/<V>/<lang>/), else the game's."""
        if not self.project.site_url:
            return None
        return "/".join([self.project.site_url, game.id, *([released] if released else []), lang, ""])

    def _output(self, name: str, packet: Packet) -> bytes:
        """The bytes of an aid's PDF the build wrote, or the error of a packet that cannot have it."""
        try:
            data = self.cache.folder.read(name)
        except AidsError:
            data = None
        if data is None:
            raise AidsError(Problem(packet.where, f"packet '{packet.id}': {name} was not built",
                                    "an aid that builds in every language of the packet"))
        return data


def _cover(game: Game, packet: Packet, sides: list[packet_pdf.Side], titles: list[tuple[str, str]],
           counts: list[int], size: tuple[float, float]) -> bytes:
    """The cover, its contents giving the page each part starts on (the cover's own pages and the blank backs
    counted, packet_pdf.starts: laid out again when it takes more than thought); each part by its title in its
    language, the language named in the side's."""
    game_ctx = localize_game(game, sides[0].lz)
    cover, pages = b"", 1
    for _ in range(3):
        for side in sides:
            side.contents = [(f"{title} ({_language(lang, side.lz.lang)})", start + 1)
                             for (lang, title), start in zip(titles, packet_pdf.starts(pages, counts))]
        cover = packet_pdf.cover(game, game_ctx, packet.event, packet.date, sides, size)
        if _pages(cover) == pages:
            break
        pages = _pages(cover)
    return cover


def _paper(packet: Packet, parts: list[tuple[str, str, bytes]]) -> tuple[float, float]:
    """The sheet (pt) every page of the packet's aids is printed on (`parts`: aid, language, its PDF): the largest
    of their sizes, if it holds every other unturned (packet_pdf.sheet); else the error of a packet that cannot
    pair its faces, naming each size's aids."""
    sizes: dict[tuple[float, float], dict[str, list[str]]] = {}
    for aid, lang, data in parts:
        for size in packet_pdf.page_sizes(data):
            same = next((known for known in sizes if all(abs(a - b) <= packet_pdf.FITS for a, b in zip(known, size))),
                        size)
            langs = sizes.setdefault(same, {}).setdefault(aid, [])
            if lang not in langs:
                langs.append(lang)
    found = packet_pdf.sheet(list(sizes))
    if found is None:
        named = "; ".join(f"{w / PT_PER_MM:.0f} × {h / PT_PER_MM:.0f} mm: " + ", ".join(f"{aid} ({', '.join(langs)})"
                                                                         for aid, langs in aids.items())
                          for (w, h), aids in sizes.items())
        raise AidsError(Problem(packet.where, f"packet '{packet.id}': none of its aids' paper sizes holds the others "
                                f"unturned ({named})", "aids whose largest page holds every other as it stands (A5 "
                                "cards with A4 pages), or a packet for each size"))
    return found


def version_line(lz: Localizer, game: Game) -> str:
    """What the cover says of the version: what every page of its aids prints of it, in the same words (the
    footer's imprint: "Version 1.0", or a copyright year for a game that names no version)."""
    return " · ".join(imprint(game.version, game.copyright, lz))


def standing_line(lz: Localizer, version: str, recorded: bool, altered: bool) -> str:
    """Whether the version the pages print is released as it stands (its release recorded, nothing changed since:
    `aids changes`), honestly: the QR code leads to that release's page for good, else to the current one."""
    if recorded and not altered:
        return lz.pgettext("tournament packet cover: after the version, which is released and unchanged since",
                           "As released, unchanged since.")
    if recorded:
        return lz.pgettext("tournament packet cover: after the version, whose rules changed since its release",
                           "Changed since its release: the changes are not released yet.")
    if version:
        return lz.pgettext("tournament packet cover: after the version, of which no release is recorded",
                           "No release of this version is recorded: its rules may still change.")
    return lz.pgettext("tournament packet cover: rules that name no version and have no release recorded",
                       "These rules name no version and have no release recorded: they may still change.")


def _edition(packet: Packet, game: Game) -> Edition | None:
    if packet.edition is None:
        return game.editions[0] if game.editions else None
    found = next((e for e in game.editions if e.id == packet.edition), None)
    if found is None:
        raise AidsError(Problem(packet.where, f"packet '{packet.id}': game '{game.id}' has no edition "
                                f"'{packet.edition}'", ", ".join(e.id for e in game.editions) or "no edition"))
    return found


def _aids(packet: Packet, aids: list[Aid]) -> list[Aid]:
    by_id = {aid.model.id: aid for aid in aids if aid.kind.standalone}
    missing = [(name, where) for name, where in zip(packet.aids, packet.aids_at) if name not in by_id]
    if missing:
        raise AidsError([Problem(where, f"packet '{packet.id}': game '{packet.game}' has no aid '{name}' built on "
                                 "its own", ", ".join(by_id) or "an aid of the game") for name, where in missing])
    return [by_id[name] for name in packet.aids]


def _language(lang: str, within: str) -> str:
    """A language's name in another language, as CLDR gives it (Babel): angielski, English, английский."""
    try:
        return Locale.parse(lang).get_display_name(within) or lang
    except (ValueError, TypeError):
        return lang


def _pages(data: bytes) -> int:
    with pikepdf.Pdf.open(io.BytesIO(data)) as pdf:
        return len(pdf.pages)


def run(project: Project, state: Loaded, cache: Cache, plan: pipeline.Plan, units: list[pipeline.Unit],
        digests: dict[tuple[pipeline.UnitKey, str], str], options: pipeline.Options,
        report: Callable[[list[str], list[AidsError]], None]) -> None:
    """The bilingual aids and the packets of the plan's games (their aids are built by now)."""
    made = Tournament(project=project, state=state, cache=cache, digests=digests, written=[], failed=[],
                      draft=options.draft, force=options.force, marks=options.marks)
    made.bilingual(units, plan.langs)
    made.packets([game for game, _, _ in plan.read], {game.id: aids for game, aids, _ in plan.read})
    report(made.written, made.failed)


def site_files(project: Project, game: Game, aids: list[Aid], edition: str | None, lz: Localizer,
               here: str) -> list[dict[str, Any]]:
    """The bilingual PDFs of a game's edition and its packets found in the output folder, as its page on the
    web site lists them in `lz`'s language (label, link; a label a text or runs)."""
    found: list[dict[str, Any]] = []
    for aid in aids:
        for pair in project.bilingual.get(game.id, ()) if aid.kind.name in bilingual_pdf.KINDS else ():
            name = bilingual_path(game.id, edition, pair, aid.model.id)
            if (project.output / name).is_file():
                label = lz.pgettext("web site: a PDF of an aid in two languages; %(aid)s is its title, %(languages)s "
                                    "the two languages", "%(aid)s in two languages: %(languages)s")
                found.append({"label": label % {"aid": aid.kind.title_of(aid.model, lz), "languages": " + ".join(
                    _language(lang, lz.lang) for lang in pair)}, "href": href(here, name)})
    for packet in project.packets:
        name = packet_path(game.id, packet.id)
        default = game.editions[0].id if game.editions else None
        if packet.game == game.id and (packet.edition or default) == edition and (project.output / name).is_file():
            said = lz.ui_rich("web site: a tournament packet; %(event)s is the event, %(date)s its day",
                              "Tournament packet: %(event)s, %(date)s", date=lz.date(packet.date),
                              event=rich.parse(packet.event, lambda kind, target: Rich()))
            found.append({"label": said, "href": href(here, name)})
    return found
