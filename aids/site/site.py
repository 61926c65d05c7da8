"""The web site of the output folder: a home page listing the games, a page per game and language listing
its aids with their files, and the navigation every aid page carries.

    build/index.html                               the home page, in the site's first language (x-default)
    build/index.<lang>.html                        the home page in each other language of the site
    build/<game>/<lang>/index.html                 a game's page: the aids of every edition, with their files
    build/<game>/[<edition>/]<lang>/<aid>.html     an aid's page (the build's), with the site's navigation

Every page has a language switcher to the same page in the site's other languages (an aid page's keeps
the #anchor), `<link rel="alternate" hreflang>` for each (and x-default), and says which languages are
not published: an aid below the publishing threshold in a language is not built in it, so it is not
linked, only named as not yet published. Links are relative, so the folder works from file:// and from
any path of a web server; with `site_url` the canonical and alternate links are absolute.

The pages are made from the build's plan and the games of `site:` (every game and language by default),
not from what was rebuilt: a build with nothing stale writes a complete site. A site page lists the files
found in the output folder, with the page count of the PDF (from the build cache, or the PDF itself); an aid
that failed since keeps its last good files listed, marked "not rebuilt" with the error (aids/pipeline/outputs.py).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from markupsafe import Markup, escape

from ..config import Edition, Game, Project
from ..errors import AidsError
from ..kind import Aid
from ..kinds.reading import Broken, read_game_aids
from ..localize import rich, ui
from ..localize.changes import changelog, changelog_title
from ..localize.game import edition_name
from ..localize.localizer import Localizer
from ..localize.rich import Rich
from ..model.release import Change
from ..pipeline import tournament
from ..pipeline.outputs import Pages, aid_path, failure, file_labels, identified, one_line
from ..releases.wording import Wording
from ..render.html import render_template
from ..write.cache import Cache
from ..write.journal import changed as changed_files
from ..write.journal import write_all
from . import since
from .archive_pages import current_game_versions
from .navigation import (
    PARTLY,
    UNPUBLISHED,
    aid_numbers,
    aid_title,
    aid_titles,
    game_path,
    home_path,
    href,
    language_name,
    navigation,
    notes_of,
    site_games,
    site_languages,
    site_title,
    tag,
)
from .publishing import Publishing

if TYPE_CHECKING:
    from ..pipeline.pipeline import Options, Unit

Released = Callable[[Game], tuple[str | None, list[Change]]]  # a game's last release, what changed since it

# --- the site's pages ---------------------------------------------------------------------------

@dataclass
class Listed:
    """A game of the site with its aids (those built on their own), in the order game.yaml lists them, and those
    that do not read (listed with their last good files, if any)."""
    game: Game
    aids: list[Aid] = field(default_factory=list)
    broken: list[Broken] = field(default_factory=list)

    @property
    def editions(self) -> list[Edition | None]:
        return list(self.game.editions) or [None]


def listed_games(project: Project, known: dict[str, Listed], skipped: list[str]) -> list[Listed]:
    """The games of the site: those the build read (`known`), the others read now; a game that cannot be read
    is left out, and said so in `skipped`."""
    found = []
    for game_id in site_games(project):
        if game_id not in known:
            try:
                game = project.read_game(game_id)
            except AidsError:
                skipped.append(f"site: {game_id} not listed, its game.yaml has errors")
                continue
            aids, broken = read_game_aids(project, game)
            known[game_id] = Listed(game, [aid for aid in aids if aid.kind.standalone],
                                    identified(project, game_id, broken))
        found.append(known[game_id])
    return found


def aid_entry(project: Project, listed: Listed, edition: Edition | None, aid: Aid, lz: Localizer,
              publishing: Publishing, pages: Pages, here: str) -> dict[str, Any]:
    """One aid in one edition on its game's page in `lz`'s language: title, facts, files, or why there are none."""
    game, ed = listed.game, edition.id if edition else None
    version, published = aid.kind.release_of(aid.model)
    version, published = version or game.version, published or game.published
    facts = [version_of(version, lz)] if version else []
    if published:
        facts.append(lz.date(published))
    files: list[dict[str, Any]] = []
    status, error = "", None
    share = publishing.share(game, aid, lz.lang)
    if not publishing.published(game, aid, lz.lang):
        status = lz.pgettext("web site: an aid below the publishing threshold; %(percent)s is a percentage",
                             "not published: %(percent)s translated") % {"percent": lz.percent(share)}
    else:
        files, counted = aid_files(project, game.id, ed, aid.model.id, lz, pages, here)
        facts += counted
        error = failure(pages.cache, game.id, aid.model.id, ed, lz.lang) if files else None
        status = not_rebuilt(lz, error) if error else "" if files else \
            lz.pgettext("web site: an aid not built in this language yet", "not built yet")
    if lz.lang == game.source_language:
        facts.append(lz.pgettext("web site: an aid in the language it was written in", "original"))
    else:
        facts.append(lz.pgettext("web site: how much of an aid is translated; %(percent)s is a percentage",
                                 "translated %(percent)s") % {"percent": lz.percent(share)})
    page = next((f["href"] for f in files if not f["type"]), None)
    if page and (index := aid.kind.index_anchor(aid.model)):
        files.insert(1, {"label": lz.pgettext("web site: the link to the back-of-book index of a rule booklet's web "
                                              "page", "Index"), "href": f"{page}#{index}", "pdf": False, "type": ""})
    return {"id": aid.model.id, "title": aid_title(aid, lz), "kind": aid.kind.display_name(lz), "facts": facts,
            "files": files, "page": page, "status": status, "stale": bool(error)}


def aid_files(project: Project, game: str, ed: str | None, aid: str, lz: Localizer, pages: Pages,
              here: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The files of an aid in one edition and `lz`'s language in the output folder, linked from `here`, and the
    page count of its PDF as a fact."""
    files = [{"label": label, "href": href(here, path), "pdf": suffix.endswith(".pdf"), "type": media_type(suffix)}
             for suffix, label in file_labels(lz)
             if (project.output / (path := aid_path(game, ed, lz.lang, aid, suffix))).is_file()]
    pdf = project.output / aid_path(game, ed, lz.lang, aid, ".pdf")
    count = pages.count(game, ed, lz.lang, aid) if pdf.is_file() else None
    return files, [lz.npgettext("web site: the pages of an aid's PDF", "%(count)s page", "%(count)s pages", count) % {
        "count": lz.number(count)}] if count else []


def media_type(suffix: str) -> str:
    """The media type a link to a file of an aid announces ("" for a web page)."""
    return next((kind for end, kind in ((".pdf", "application/pdf"), (".epub", "application/epub+zip"))
                 if suffix.endswith(end)), "")


def not_rebuilt(lz: Localizer, error: str) -> Markup:
    """What an aid's entry says when its files are an earlier build's: the aid failed since (the error as it is,
    not set as text)."""
    return escape(lz.pgettext("web site: an aid that failed to build, listed with its earlier files; %(error)s is the "
                              "error (in English)", "not rebuilt: %(error)s")) % {
        "error": Markup('<code class="site-error">{}</code>').format(error)}


def broken_entry(project: Project, game: Game, edition: Edition | None, item: Broken, lz: Localizer, pages: Pages,
                 here: str) -> dict[str, Any] | None:
    """An aid that does not read, in one edition, on its game's page: its last good files, marked; None when it
    has none there (its title and kind are those its last build recorded)."""
    ed, aid = edition.id if edition else None, str(item.id)
    files, facts = aid_files(project, game.id, ed, aid, lz, pages, here)
    if not files:
        return None
    last = next((r for f in ("html", "pdf") if (r := pages.cache.get(game.id, aid, f"{ed or '-'}/{lz.lang}/{f}"))), {})
    return {"id": aid, "title": last.get("title") or aid, "kind": last.get("kind") or "", "facts": facts,
            "files": files, "page": next((f["href"] for f in files if not f["type"]), None),
            "status": not_rebuilt(lz, one_line(item.error)), "stale": True}


def aid_entries(project: Project, listed: Listed, edition: Edition | None, lz: Localizer, publishing: Publishing,
                pages: Pages, here: str) -> list[dict[str, Any]]:
    """The entries of a game's page in one edition: its aids, and those that do not read, in game.yaml's order."""
    order = {path: n for n, path in enumerate(listed.game.aids)}
    ids = {aid.model.id for aid in listed.aids}
    broken = {item.id: item for item in listed.broken if item.id and item.id not in ids}
    items: list[Aid | Broken] = sorted([*listed.aids, *broken.values()], key=lambda i: order.get(i.path, len(order)))
    found = [aid_entry(project, listed, edition, i, lz, publishing, pages, here) if isinstance(i, Aid) else
             broken_entry(project, listed.game, edition, i, lz, pages, here) for i in items]
    return [entry for entry in found if entry]


def _missing(pairs: list[tuple[Game, Aid]], langs: list[str], publishing: Publishing) -> dict[str, str]:
    """Language -> UNPUBLISHED (no aid of `pairs` published in it) or PARTLY (some not)."""
    missing = {}
    for lang in langs:
        shown = [publishing.published(game, aid, lang) for game, aid in pairs]
        if shown and not any(shown):
            missing[lang] = UNPUBLISHED
        elif not all(shown):
            missing[lang] = PARTLY
    return missing


def game_changes(project: Project, listed: Listed, lz: Localizer, here: str,
                 released: tuple[str | None, list[Change]]) -> dict[str, Any] | None:
    """A game's changelog since its last release on its page in `lz`'s language, each change linked to its
    place in the page of its aid (the first edition's, where it is published in this language)."""
    since, changes = released
    if not since or not changes:
        return None
    game = listed.game
    edition = game.editions[0].id if game.editions else None
    pages = {aid.model.id for aid in listed.aids
             if (project.output / aid_path(game.id, edition, lz.lang, aid.model.id)).is_file()}

    def link(aid_id: str, anchor: str) -> str | None:
        if aid_id not in pages:
            return None
        return href(here, aid_path(game.id, edition, lz.lang, aid_id)) + (f"#{quote(anchor)}" if anchor else "")

    wording = Wording(project, game, listed.aids, lz, game.editions[0] if game.editions else None)
    log = changelog(changes, lz, aid_titles(listed.aids, lz), link, lambda change: wording.change(change, since),
                    aid_numbers(listed.aids, lz))
    return {"title": changelog_title(since, lz), "log": log} if log else None


def game_page(project: Project, listed: Listed, lz: Localizer, publishing: Publishing, pages: Pages,
              released: tuple[str | None, list[Change]] = (None, [])) -> str:
    game = listed.game
    here = game_path(game.id, lz.lang)
    langs = site_languages(project)
    title = lz.plain(game.title_text)  # where no markup stands; the page's heading marks its words' language
    missing = _missing([(game, aid) for aid in listed.aids], langs, publishing)
    nav = navigation(project, lz, here, lambda lang: game_path(game.id, lang), missing,
                     [(site_title(project, lz), home_path(project, lz.lang)), (title, None)],
                     game.source_language if game.source_language in langs else langs[0])
    nav.update(current_game_versions(project, game, lz))  # the archive's version switcher (archive_pages.py)
    editions = [{"id": edition.id if edition else None,
                 "label": edition_name(game, edition, lz) if edition else "",
                 "aids": aid_entries(project, listed, edition, lz, publishing, pages, here),
                 # in two languages as one, a packet per event (aids/pipeline/tournament.py)
                 "tournament": tournament.site_files(project, game, listed.aids, edition.id if edition else None, lz,
                                                     here)}
                for edition in listed.editions]
    # the releases: the changes since each, each aid's history, the feed (aids/site/since.py)
    releases = since.game_links(project, game, [aid for aid in listed.aids if publishing.published(game, aid, lz.lang)],
                                lz, here)
    searched = search_boxes([listed], lz, here, lambda game, lang: lz)
    context = {"site": nav, "page": "game", "page_title": f"{title} – {nav['title']}",
               "title": lz.rich(game.title_text, note=False),
               "facts": game_facts(game, lz), "editions": editions, **searched,
               "changes": game_changes(project, listed, lz, here, released),
               "releases": releases, "feed": since.feed_link(project, game, lz, here) if releases else None}
    return render_template("site-game.html", lz, context)


def search_boxes(games: list[Listed], lz: Localizer, here: str,
                 localizer: Callable[[Game, str], Localizer]) -> dict[str, Any]:
    """What a site page's search box searches: every edition of `games`, the first one's index with the others'
    merged into it (templates/search.html), each edition's results under an "Edition" filter, by its name in the
    page's language (`localizer`: a game's, in a language)."""
    name = lz.pgettext("search: a filter of the results, by the edition of a game", "Edition")
    indexes: list[dict[str, Any]] = [
        {"bundle": href(here, "/".join([listed.game.id, *([ed.id] if ed else []), "pagefind"])) + "/",
         "filters": {name: edition_name(listed.game, ed, localizer(listed.game, lz.lang))} if ed else {}}
        for listed in games for ed in listed.editions]
    if not indexes:
        return {}
    return {"search_root": indexes[0]["bundle"].removesuffix("pagefind/"), "search_filters": indexes[0]["filters"],
            "search_indexes": indexes[1:], "search_games": len(games) > 1}


def version_of(version: str, lz: Localizer) -> str:
    return lz.pgettext("web site: the version of a game or an aid", "version %(version)s") % {"version": version}


def game_facts(game: Game, lz: Localizer) -> list[Rich]:
    """Its version, date, author and copyright, words of another language in them marked ([Ryszard Kita]{lang=pl})."""
    facts = [version_of(game.version, lz)] if game.version else []
    if game.published:
        facts.append(lz.date(game.published))
    return [rich.parse(fact, lambda kind, target: Rich()) for fact in
            [*facts, *filter(None, [game.author, game.copyright and f"© {game.copyright}"])]]


def home_page(project: Project, games: list[Listed], lz: Localizer, localizer: Callable[[Game, str], Localizer],
              publishing: Publishing) -> str:
    here = home_path(project, lz.lang)
    langs = site_languages(project)
    words = notes_of(lz)
    entries = []
    for listed in games:
        game = listed.game
        own = localizer(game, lz.lang)
        missing = _missing([(game, aid) for aid in listed.aids], langs, publishing)
        entries.append({
            "id": game.id, "title": own.rich(game.title_text, note=False),
            "href": href(here, game_path(game.id, lz.lang)),
            "facts": game_facts(game, lz),
            "languages": [{"code": tag(lang), "name": language_name(lang), "href": href(here, game_path(game.id, lang)),
                           "note": words.get(missing.get(lang, ""), "")} for lang in langs]})
    missing = _missing([(listed.game, aid) for listed in games for aid in listed.aids], langs, publishing)
    nav = navigation(project, lz, here, lambda lang: home_path(project, lang), missing, [], langs[0])
    context = {"site": nav, "page": "home", "page_title": nav["title"], "title": nav["title"], "games": entries,
               **search_boxes(games, lz, here, localizer)}  # one search across every game
    return render_template("site-index.html", lz, context)


def site_pages(project: Project, games: list[Listed], localizer: Callable[[Game, str], Localizer],
               publishing: Publishing, cache: Cache, skipped: list[str], released: Released) -> dict[str, bytes]:
    """Every page of the site: path inside the output folder -> bytes."""
    pages = Pages(project, cache)
    out: dict[str, bytes] = {}
    for lang in site_languages(project):
        home = Localizer(lang, lang, {}, ui.ui_translations(lang), style=project.date_styles.get(lang))
        out[home_path(project, lang)] = home_page(project, games, home, localizer, publishing).encode("utf-8")
        for listed in games:
            if not listed.game.editions and any(aid.model.id == "index" for aid in listed.aids):
                if lang == site_languages(project)[0]:
                    skipped.append(f"site: no page for {listed.game.id}, whose aid 'index' has its name (index.html)")
                continue
            out[game_path(listed.game.id, lang)] = game_page(project, listed, localizer(listed.game, lang),
                                                             publishing, pages, released(listed.game)).encode()
    return out


def wanted(project: Project, options: Options, formats: Iterable[str]) -> bool:
    """The site is written by a build of the HTML, and kept current by any other once it is there (a PDF built
    since changes its page count); not by a shard (it has part of the files), nor a partial build (the complete one
    that follows writes it), nor in the pseudo-locale."""
    if options.pseudo or options.shard or options.partial:
        return False
    return "html" in formats or (project.output / home_path(project, site_languages(project)[0])).is_file()


def publish(project: Project, units: Iterable[Unit], localizer: Callable[[Game, str], Localizer],
            publishing: Publishing, cache: Cache, skipped: list[str], released: Released,
            broken: dict[str, list[Broken]] | None = None) -> list[str]:
    """Write the site's pages that changed (all together, or none): the games of the plan as it read them (with
    `broken`, their aids that do not read), the site's other games read now; `released(game)` gives a game's
    changes since its last release. Their paths as shown."""
    known: dict[str, Listed] = {}
    for unit in units:
        listed = known.setdefault(unit.game.id, Listed(unit.game, [], identified(
            project, unit.game.id, (broken or {}).get(unit.game.id, []))))
        if all(aid.model.id != unit.aid.model.id for aid in listed.aids):
            listed.aids.append(unit.aid)
    games = listed_games(project, known, skipped)
    if not _any_built(project, games):
        return []  # nothing built yet (or every aid failed): no site of nothing
    changed = changed_files(project.output, site_pages(project, games, localizer, publishing, cache, skipped, released))
    if changed:
        try:
            write_all(changed, project.output)
        except AidsError as exc:  # a folder aids may not write to, a full disk: the previous pages stay
            skipped.append(f"site: not written, {exc}")
            return []
    return [project.show(path) for path in sorted(changed)]


def _any_built(project: Project, games: list[Listed]) -> bool:
    """Whether any aid of `games` has a page or a PDF in the output folder, in any language of the site."""
    return any((project.output / aid_path(listed.game.id, edition.id if edition else None, lang, aid, suffix)).is_file()
               for listed in games for edition in listed.editions
               for aid in [*(a.model.id for a in listed.aids), *(b.id for b in listed.broken if b.id)]
               for lang in site_languages(project) for suffix in (".html", ".pdf"))
