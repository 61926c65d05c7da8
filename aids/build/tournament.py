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
from ..localize.game import localize_game
from ..localize.localizer import Localizer
from ..render import bilingual as bilingual_pdf
from ..render import packet as packet_pdf
from ..write.cache import Cache
from ..write.files import changed, write_all
from . import pipeline, release
from .jobs import Loaded, blamed
from .navigation import href, language_name
from .outputs import aid_path, failure

KINDS = ("card", "playsheet")  # the kinds printed in two languages as one
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
    (unit number, language), the state the jobs were made from), and where it reports."""
    project: Project
    state: Loaded
    cache: Cache
    digests: dict[tuple[int, str], str]
    written: list[str]
    failed: list[AidsError]
    draft: bool = False
    force: bool = False
    marks: str = "bars"  # what the aids mark of the changes since the last release (aids build --marks)

    def bilingual(self, units: list[pipeline.Unit], langs: list[str]) -> None:
        """Every bilingual pair of every card and playsheet of the plan whose two languages it builds."""
        for n, unit in enumerate(units):
            if unit.aid.kind.name not in KINDS:
                continue
            for pair in self.project.bilingual.get(unit.game.id, ()):
                if all(lang in langs and (n, lang) in self.digests for lang in pair):
                    self._pair(n, unit, pair)

    def _pair(self, n: int, unit: pipeline.Unit, pair: tuple[str, str]) -> None:
        game, aid, edition = unit.game, unit.aid, unit.edition
        ed = edition.id if edition else None
        key = f"{ed or '-'}/{pair_name(pair)}/bilingual"
        digest = hashlib.sha256("\0".join(["bilingual", *(self.digests[(n, lang)] for lang in pair)]).encode()
                                ).hexdigest()
        if not self.force and self.cache.fresh(game.id, aid.model.id, key, digest):
            return
        name = bilingual_path(game.id, ed, pair, aid.model.id)
        try:
            made = bilingual_pdf.render([self._document(game, aid, edition, lang) for lang in pair],
                                        self._built(n, unit, pair))
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

    def _built(self, n: int, unit: pipeline.Unit, pair: tuple[str, str]) -> dict[str, tuple[float, bytes]]:
        """Language -> the type size its PDF was fitted at and its bytes, of each language of `pair` whose PDF this
        build holds as made from its current job (a language set at its own size prints just so: not again)."""
        found = {}
        ed, game, aid = unit.edition.id if unit.edition else None, unit.game.id, unit.aid.model.id
        for lang in pair:
            record = self.cache.fresh(game, aid, f"{ed or '-'}/{lang}/pdf", self.digests[(n, lang)])
            fitted = (record or {}).get("fitted", {}).get("")
            data = self.cache.folder.read(aid_path(game, ed, lang, aid, ".pdf")) if fitted else None
            if fitted and data:
                found[lang] = (float(fitted), data)
        return found

    def _document(self, game: Game, aid: Aid, edition: Edition | None, lang: str) -> Any:
        lz = self.state.localizer(game, lang, self.draft)
        return pipeline.document(game, aid, lz, edition, None, self.state.marks(game, aid, lz, self.marks),
                                 self.state.rulings(game, aid, lz))

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
        version, since = release.changes_if_readable(self.project, game)
        released = version if version and not since else None
        sides = []
        for lang in packet.languages:
            lz = self.state.localizer(game, lang, self.draft)
            sides.append(packet_pdf.Side(lz, localize_game(game, lz)["title"], version_line(lz, version, released),
                                         self._url(game, lang, released)))
        ed = edition.id if edition else None
        chosen_langs = [(lang, aid) for lang in packet.languages for aid in chosen]
        titles = {lang: {aid.model.id: self.state.localizer(game, lang, self.draft).shown(aid.model.title)
                         for aid in chosen} for lang in packet.languages}
        for lang, aid in chosen_langs:  # an aid that failed since keeps its earlier PDF: not one for this packet
            if error := failure(self.cache, game.id, aid.model.id, ed, lang):
                raise AidsError(Problem(packet.where, f"packet '{packet.id}': {aid.model.id} ({lang}) failed to build: "
                                        f"{error}", "an aid that builds in every language of the packet"))
        parts = [packet_pdf.Part(f"{titles[lang][aid.model.id]} ({language_name(lang)})",
                                 self._output(aid_path(game.id, ed, lang, aid.model.id, ".pdf"), packet))
                 for lang, aid in chosen_langs]
        cover = _cover(game, packet, sides, [(lang, titles[lang][aid.model.id]) for lang, aid in chosen_langs],
                       [_pages(part.data) for part in parts])
        cover_title = sides[0].lz.pgettext("tournament packet: the bookmark of its cover", "Cover")
        data, _ = packet_pdf.join(cover, parts, cover_title, f"{sides[0].game} – {packet.event}",
                                  packet.languages[0])
        name = packet_path(game.id, packet.id)
        if changed(self.project.output, {name: data}):
            write_all({self.project.output / name: data}, self.project.output)
            self.written.append(name)

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
           counts: list[int]) -> bytes:
    """The cover, its contents giving the page each part starts on (the cover's own pages counted: laid out again
    when it takes more than thought); each part by its title in its language, the language named in the side's."""
    game_ctx = localize_game(game, sides[0].lz)
    cover, pages = b"", 1
    for _ in range(3):
        for side in sides:
            starts = [pages + 1 + sum(counts[:i]) for i in range(len(counts))]
            side.contents = [(f"{title} ({_language(lang, side.lz.lang)})", start)
                             for (lang, title), start in zip(titles, starts)]
        cover = packet_pdf.cover(game, game_ctx, packet.event, packet.date, sides)
        if _pages(cover) == pages:
            break
        pages = _pages(cover)
    return cover


def version_line(lz: Localizer, version: str | None, released: str | None) -> str:
    """What the cover says of the version of the rules: a release, or the unreleased state, honestly."""
    if released:
        return lz.pgettext("tournament packet cover: the release its rules are; %(version)s is its version",
                           "Rules as released in version %(version)s") % {"version": released}
    if version:
        return lz.pgettext("tournament packet cover: rules changed since their last release; %(version)s is it",
                           "Unreleased state: changed since version %(version)s") % {"version": version}
    return lz.pgettext("tournament packet cover: rules of a game that has no release yet",
                       "Unreleased state: no version of these rules has been released")


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
        digests: dict[tuple[int, str], str], options: pipeline.Options,
        report: Callable[[list[str], list[AidsError]], None]) -> None:
    """The bilingual aids and the packets of the plan's games (their aids are built by now)."""
    made = Tournament(project, state, cache, digests, [], [], options.draft, options.force, options.marks)
    made.bilingual(units, plan.langs)
    made.packets([game for game, _, _ in plan.read], {game.id: aids for game, aids, _ in plan.read})
    report(made.written, made.failed)


def site_files(project: Project, game: Game, aids: list[Aid], edition: str | None, lz: Localizer,
               here: str) -> list[dict[str, str]]:
    """The bilingual PDFs of a game's edition and its packets found in the output folder, as its page on the
    web site lists them in `lz`'s language (label, link)."""
    found: list[dict[str, str]] = []
    for aid in aids:
        for pair in project.bilingual.get(game.id, ()) if aid.kind.name in KINDS else ():
            name = bilingual_path(game.id, edition, pair, aid.model.id)
            if (project.output / name).is_file():
                label = lz.pgettext("web site: a PDF of an aid in two languages; %(aid)s is its title, %(languages)s "
                                    "the two languages", "%(aid)s in two languages: %(languages)s")
                found.append({"label": label % {"aid": lz.shown(aid.model.title), "languages": " + ".join(
                    _language(lang, lz.lang) for lang in pair)}, "href": href(here, name)})
    for packet in project.packets:
        name = packet_path(game.id, packet.id)
        default = game.editions[0].id if game.editions else None
        if packet.game == game.id and (packet.edition or default) == edition and (project.output / name).is_file():
            label = lz.pgettext("web site: a tournament packet; %(event)s is the event, %(date)s its day",
                                "Tournament packet: %(event)s, %(date)s")
            found.append({"label": label % {"event": packet.event, "date": lz.date(packet.date)},
                          "href": href(here, name)})
    return found
