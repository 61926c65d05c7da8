"""What the archive adds to the site's pages (aids/releases/archive.py builds the archive itself):

- the version switcher of every page, beside the language switcher: the same page in every version (the current
  one and each release), keeping the reader's #anchor (a rule's stable id: the same in every version); a page
  whose #anchor is not there says so (a note, by a small script);
- on an archived page, which version it is, and a link to the current one;
- on a current page, the numbers items had in earlier releases: a link to an old number (`#4.4, step 2`, as the
  release printed it) lands on the item that had it, with a note of its number now (or that it was removed);
- per release, a page of the numbers that moved since the release before, and the release's own page.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from ..config import Edition, Game, Project
from ..kind import Aid
from ..localize import making
from ..localize.game import edition_name
from ..localize.localizer import Localizer
from ..pipeline.outputs import aid_path, file_labels
from ..releases import snapshot
from ..releases.release import versions
from ..render.html import render_template
from .navigation import (
    UNPUBLISHED,
    aid_numbers,
    aid_title,
    game_path,
    home_path,
    href,
    navigation,
    site_languages,
    site_title,
)
from .publishing import Publishing

NUMBERS = "numbers.html"


def editions_of(game: Game) -> list[Edition | None]:
    return [*game.editions] or [None]


def archived_path(game_id: str, version: str, ed: str | None, lang: str, aid_id: str, suffix: str = ".html") -> str:
    return aid_path(f"{game_id}/{version}", ed, lang, aid_id, suffix)


def release_page(game_id: str, version: str, lang: str) -> str:
    return f"{game_id}/{version}/{lang}/index.html"


def numbers_page(game_id: str, version: str, lang: str) -> str:
    return f"{game_id}/{version}/{lang}/{NUMBERS}"


def archived_versions(game: Game) -> list[str]:
    return [v for v in versions(game) if snapshot.has_snapshot(game, v)]


def release_aids(project: Project, game: Game, version: str) -> tuple[Game, list[Aid]]:
    state = snapshot.released(project, game, version)
    return state.game, state.aids


def release_numbers(project: Project, game: Game, version: str, lang: str) -> dict[tuple[str, str], str]:
    """(aid, anchor) -> the number printed there in a release, in `lang`."""
    state = snapshot.released(project, game, version)
    if lang not in state.numbers:
        state.numbers[lang] = aid_numbers(state.aids, state.localizer(lang))
    return state.numbers[lang]


# --- the switcher and the notes -------------------------------------------------------------------

def number_key(number: str) -> str:
    """A printed number as a link's #fragment may give it: without spaces (no-break ones too), in lower case, so
    that `#4.4,%20step%202`, `#4.4,step2` and `#4.4, Step 2` all find "4.4,\u00a0step\u00a02"."""
    return re.sub(r"\s+", "", number).lower()


def _words(lz: Localizer) -> dict[str, str]:
    """What the script of a page says of an #anchor (JavaScript fills in %(number)s, %(version)s, %(now)s)."""
    return {
        "moved": lz.pgettext("web site: a link to a rule's old number; %(number)s is the number it had in version "
                             "%(version)s, %(now)s its number now",
                             "%(number)s in version %(version)s is now %(now)s."),
        "removed": lz.pgettext("web site: a link to a rule's old number; %(number)s is the number it had in version "
                               "%(version)s", "%(number)s in version %(version)s is no longer in the rules."),
        "missing": lz.pgettext("web site: a link to a place not in this version of a page",
                               "The place linked to is not in this version: the page is shown from the top."),
    }


def switcher(lz: Localizer, here: str, shown: str | None, targets: Sequence[tuple[str | None, str | None, bool]]) \
        -> list[dict[str, Any]]:
    """The version switcher: (version or None for the current state, its path, whether the anchor is kept there)
    each, newest first; `shown` the version of this page (None: the current state)."""
    current = lz.pgettext("web site: the current rules in the version switcher", "current")
    return [{"label": version or current, "current": version == shown,
             "href": href(here, path) if path and version != shown else None, "keep_hash": keep}
            for version, path, keep in targets]


def current_aid_versions(project: Project, game: Game, edition: Edition | None, aid_id: str, lz: Localizer,
                         game_aids: list[Aid]) -> dict[str, Any]:
    """What a current aid page adds to its navigation: the version switcher, the old numbers of its items."""
    ed = edition.id if edition else None
    here = aid_path(game.id, ed, lz.lang, aid_id)
    shown = archived_versions(game)
    if not shown:
        return {}
    targets: list[tuple[str | None, str | None, bool]] = [(None, here, True)]
    for version in reversed(shown):
        targets.append(_target(project, game, version, ed, lz.lang, aid_id))
    now = {anchor: number for (aid, anchor), number in aid_numbers(game_aids, lz).items() if aid == aid_id}
    moved: dict[str, list[str]] = {}
    for version in reversed(shown):  # the newest release first: its meaning of a number wins
        for (aid, anchor), number in release_numbers(project, game, version, lz.lang).items():
            if aid == aid_id and number_key(number) not in moved and now.get(anchor) != number:
                moved[number_key(number)] = [anchor, version, now.get(anchor, ""), number]
    return {"versions": switcher(lz, here, None, targets), "moved": moved, "anchor_words": _words(lz)}


def _target(project: Project, game: Game, version: str, ed: str | None, lang: str, aid_id: str) \
        -> tuple[str | None, str | None, bool]:
    """The same aid in a release (the release's page where the release has no such aid or edition)."""
    snap, aids = release_aids(project, game, version)
    has_edition = ed is None and not snap.editions or any(e.id == ed for e in snap.editions)
    if has_edition and any(a.model.id == aid_id and a.kind.standalone for a in aids):
        return version, archived_path(game.id, version, ed, lang, aid_id), True
    return version, release_page(game.id, version, lang), False


def current_game_versions(project: Project, game: Game, lz: Localizer) -> dict[str, Any]:
    """What a current game page adds to its navigation: the switcher to the releases' pages."""
    shown = archived_versions(game)
    here = game_path(game.id, lz.lang)
    if not shown:
        return {}
    targets = [(None, here, False), *((v, release_page(game.id, v, lz.lang), False) for v in reversed(shown))]
    return {"versions": switcher(lz, here, None, targets)}


# --- the pages of a release -----------------------------------------------------------------------

class SiteOf:
    """The navigation and pages of one release in the archive."""

    def __init__(self, project: Project, game: Game, version: str):
        self.project, self.game, self.version = project, game, version
        self.state = state = snapshot.released(project, game, version)
        self.snap = state.game
        self.shown = archived_versions(game)
        self.publishing = Publishing(project.min_complete, lambda g, lang: state.localizer(lang).catalog)

    def languages(self, aid: Aid) -> list[str]:
        return [lang for lang in self.project.languages if self.publishing.published(self.snap, aid, lang)]

    def _targets(self, lang: str, path_in: Callable[[str], tuple[str | None, str | None, bool]], current: str,
                 keep: bool) -> list[tuple[str | None, str | None, bool]]:
        return [(None, current, keep), *(path_in(v) for v in reversed(self.shown))]

    def _archived_note(self, lz: Localizer, here: str, current: str) -> dict[str, str]:
        date = self.snap.published
        text = lz.pgettext("web site: an archived page; %(version)s is its version, %(date)s its date",
                           "Version %(version)s of %(date)s, as released.") % {
            "version": self.version, "date": lz.date(date)} if date else \
            lz.pgettext("web site: an archived page; %(version)s is its version",
                        "Version %(version)s, as released.") % {"version": self.version}
        return {"text": text, "href": href(here, current),
                "label": lz.pgettext("web site: the link of an archived page to the current one", "Current version")}

    def _crumbs(self, lz: Localizer, last: bool) -> list[tuple[str, str | None]]:
        version = lz.pgettext("web site: the version of a game or an aid", "version %(version)s") % {
            "version": self.version}
        return [(site_title(self.project, lz), home_path(self.project, lz.lang)),
                (lz.plain(self.game.title_text), game_path(self.game.id, lz.lang)),
                (version, None if last else release_page(self.game.id, self.version, lz.lang))]

    def aid_nav(self, aid: Aid, edition: Edition | None, lz: Localizer) -> dict[str, Any]:
        ed, aid_id, game = edition.id if edition else None, aid.model.id, self.game
        here = archived_path(game.id, self.version, ed, lz.lang, aid_id)
        langs = site_languages(self.project)
        missing = {lang: UNPUBLISHED for lang in langs if lang not in self.languages(aid)}
        x_default = self.snap.source_language if self.snap.source_language in langs else lz.lang
        nav = navigation(self.project, lz, here, lambda lang: archived_path(game.id, self.version, ed, lang, aid_id),
                         missing, self._crumbs(lz, False), x_default, unlinked=missing)
        current = aid_path(game.id, ed, lz.lang, aid_id)
        if not (self.project.output / current).is_file():
            current = game_path(game.id, lz.lang)
        targets = self._targets(lz.lang, lambda v: _target(self.project, game, v, ed, lz.lang, aid_id), current,
                                current != game_path(game.id, lz.lang))
        pdf = archived_path(game.id, self.version, ed, lz.lang, aid_id, ".pdf")
        return {**nav, "keep_hash": True, "pdf": href(here, pdf), "versions": switcher(lz, here, self.version, targets),
                "archived": self._archived_note(lz, here, current), "anchor_words": _words(lz), "moved": {}}

    def pages(self) -> dict[str, bytes]:
        """The release's page and its page of numbers that moved, in every language of the site."""
        out: dict[str, bytes] = {}
        for lang in site_languages(self.project):
            if lang not in self.project.languages:
                continue
            lz = self.state.localizer(lang)
            out[release_page(self.game.id, self.version, lang)] = self._page(lz, False).encode("utf-8")
            out[numbers_page(self.game.id, self.version, lang)] = self._page(lz, True).encode("utf-8")
        return out

    def _page(self, lz: Localizer, numbers: bool) -> str:
        game = self.game
        here = (numbers_page if numbers else release_page)(game.id, self.version, lz.lang)
        langs = site_languages(self.project)
        crumbs = self._crumbs(lz, not numbers)
        if numbers:
            crumbs.append((self._numbers_title(lz), None))
        nav = navigation(self.project, lz, here,
                         lambda lang: (numbers_page if numbers else release_page)(game.id, self.version, lang), {},
                         crumbs, self.snap.source_language if self.snap.source_language in langs else langs[0])
        current = game_path(game.id, lz.lang)
        page_in = numbers_page if numbers else release_page
        other = [(v, page_in(game.id, v, lz.lang), False) for v in reversed(self.shown)]
        nav.update(versions=switcher(lz, here, self.version, [(None, current, False), *other]),
                   archived=self._archived_note(lz, here, current), anchor_words=_words(lz), moved={})
        title = lz.plain(game.title_text)
        context: dict[str, Any] = {
            "site": nav, "page": "release", "page_title": f"{title} – {nav['title']}", "title": title,
            "subtitle": self._numbers_title(lz) if numbers else nav["crumbs"][-1]["label"],
            "aids": [] if numbers else self._aids(lz, here), "numbers": self._moved(lz, here) if numbers else None,
            "numbers_link": None if numbers else {"href": href(here, numbers_page(game.id, self.version, lz.lang)),
                                                  "label": self._numbers_title(lz)}}
        return render_template("site-release.html", lz, context)

    def _numbers_title(self, lz: Localizer) -> str:
        return lz.pgettext("web site: the page of a release listing the numbers that moved; %(version)s is the "
                           "release", "Numbers that moved in version %(version)s") % {"version": self.version}

    def edition_labels(self, lang: str) -> dict[str | None, str]:
        """Each edition of the release (by id) by its name: as the site names it now where the game still has it
        (a name is the site's, as its languages are), else as the release named it."""
        now = {e.id: e for e in self.game.editions}
        current = making.localizer(self.project, self.game, lang) if now else None
        return {edition.id: edition_name(self.game, now[edition.id], current) if current and edition.id in now
                else edition_name(self.snap, edition, self.state.localizer(lang)) for edition in self.snap.editions}

    def _aids(self, lz: Localizer, here: str) -> list[dict[str, Any]]:
        entries = []
        labels = self.edition_labels(lz.lang)
        for aid in self.state.standalone():
            if lz.lang not in self.languages(aid):
                continue
            for edition in editions_of(self.snap):
                ed = edition.id if edition else None
                label = labels.get(ed, "")
                entries.append({"title": aid_title(aid, lz), "edition": label, "files": [
                    {"href": href(here, archived_path(self.game.id, self.version, ed, lz.lang, aid.model.id, s)),
                     "label": name, "pdf": s == ".pdf"}
                    for s, name in file_labels(lz)[:2]]})  # its page and its PDF
        return entries

    def _moved(self, lz: Localizer, here: str) -> dict[str, Any]:
        """The numbers that moved since the release before (none for the first of the archive)."""
        index = self.shown.index(self.version)
        words = {"removed": lz.pgettext("web site: a number table: an item removed in a release", "removed"),
                 "added": lz.pgettext("web site: a number table: an item new in a release", "new"),
                 "none": lz.pgettext("web site: a number table with no row", "No number moved."),
                 "first": lz.pgettext("web site: the number table of the first release in the archive",
                                      "The first version in the archive: no earlier numbers to compare with.")}
        if index == 0:
            return {"previous": None, "rows": [], **words}
        previous = self.shown[index - 1]
        old = release_numbers(self.project, self.game, previous, lz.lang)
        new = release_numbers(self.project, self.game, self.version, lz.lang)
        ed = self.snap.editions[0].id if self.snap.editions else None
        rows = []
        for aid, anchor in [*new, *(k for k in old if k not in new)]:
            before, after = old.get((aid, anchor), ""), new.get((aid, anchor), "")
            if before == after:
                continue
            rows.append({
                "old": before, "new": after,
                "old_href": href(here, archived_path(self.game.id, previous, ed, lz.lang, aid)) + "#" + anchor
                if before else None,
                "new_href": href(here, archived_path(self.game.id, self.version, ed, lz.lang, aid)) + "#" + anchor
                if after else None})
        return {"previous": previous, "rows": rows,
                "old_head": lz.pgettext("web site: the version of a game or an aid", "version %(version)s") % {
                    "version": previous},
                "new_head": lz.pgettext("web site: the version of a game or an aid", "version %(version)s") % {
                    "version": self.version},
                **words}
