"""The whole of aids as one pipeline: source -> model -> localized -> rendered -> written.

    models = read_aids(project, game)                         # source/ + model/
    lz = localizer(project, game, lang)                       # localize/
    outputs = render_aid(project, game, model, lz, edition)   # render/
    write_all(outputs)                                        # write/

`extract`, `update` and `compile` keep the catalogs in step with the sources.
"""
from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterable

from .config import Edition, Game, Project
from .errors import AidsError, Position, Problem, Problems
from .localize import catalogs, ui
from .localize.localizer import Fallback, Localizer
from .model import KINDS
from .model.text import Text
from .render.html import render_template
from .render.pdf import FONTS, fonts_dir, render_pdf
from .source.yamlfile import read_yaml
from .write.files import write_all

FORMATS = ("html", "pdf")


@dataclass
class Aid:
    """A model with the kind module that knows how to localize and render it."""
    kind: ModuleType
    model: object
    path: Path


# --- source -> model ---------------------------------------------------------------------------

def read_aid(project: Project, game: Game, path: Path) -> Aid:
    src = read_yaml(path, project.show(path))
    problems = Problems()
    kind_name = src.data.get("kind") if hasattr(src.data, "get") else None
    kind = KINDS.get(str(kind_name))
    if kind is None:
        where = src.at(src.data, "kind", value=True) if kind_name is not None else Position(src.shown, 1, 1)
        raise AidsError(Problem(where, f"unknown aid kind '{kind_name or ''}'", ", ".join(sorted(KINDS))))
    model = kind.read(src, game, problems)
    problems.raise_if_any()
    return Aid(kind, model, path)


def read_aids(project: Project, game: Game) -> tuple[list[Aid], list[AidsError]]:
    """Every aid of `game` that reads cleanly, and the errors of those that do not.

    After all are read, a kind with `link(model, models_by_id, problems)` resolves what it
    embeds from the game's other aids (a booklet embedding a table, say); an aid that failed to
    read is there as None, so that what embeds it can say so rather than call it unknown.
    """
    aids, errors, ids, broken = [], [], {}, {}
    for path in game.aids:
        try:
            aid = read_aid(project, game, path)
        except AidsError as exc:
            errors.append(exc)
            declared = _declared_id(path)
            if declared:
                broken[declared] = None
            continue
        if aid.model.id in ids:
            errors.append(AidsError(Problem(aid.model.source.at(aid.model.source.data, "id", value=True),
                                            f"duplicate aid id '{aid.model.id}' (also in {ids[aid.model.id]})",
                                            "aid ids unique within a game")))
            continue
        ids[aid.model.id] = project.show(path)
        aids.append(aid)
    models = {**broken, **{aid.model.id: aid.model for aid in aids}}
    linked = []
    for aid in aids:
        link = getattr(aid.kind, "link", None)
        problems = Problems()
        if link is not None:
            link(aid.model, models, problems)
        if problems:
            errors.append(AidsError(problems.items))
        else:
            linked.append(aid)
    return linked, errors


def _declared_id(path: Path) -> str | None:
    try:
        data = read_yaml(path).data
    except AidsError:
        return None
    value = data.get("id") if hasattr(data, "get") else None
    return str(value) if value is not None else None


def game_title(game: Game) -> Text:
    return Text(game.title, "game/title", "Title of the game", game.source.at(game.source.data, "title", value=True))


def game_texts(game: Game, aids: Iterable[Aid]) -> list[Text]:
    texts = [game_title(game)]
    for aid in aids:
        texts.extend(aid.model.messages())
    return texts


# --- catalogs ---------------------------------------------------------------------------------

def select_game_ids(project: Project, names: list[str] | None) -> list[str]:
    known = project.game_ids()
    for name in names or []:
        if name not in known:
            raise AidsError(Problem(Position("command line"), f"unknown game '{name}'",
                                    ", ".join(known) or "a folder under " + project.show(project.games_dir)))
    return list(dict.fromkeys(names or known))


def select_games(project: Project, names: list[str] | None) -> list[Game]:
    return [project.read_game(g) for g in select_game_ids(project, names)]


def extract(project: Project, games: list[str] | None = None) -> list[str]:
    """sources -> i18n/templates/<game>.pot (and aids.pot when this tree is aids itself)."""
    changed = []
    for game in select_games(project, games):
        aids, errors = read_aids(project, game)
        if errors:
            raise AidsError([p for e in errors for p in e.problems])
        template = catalogs.template_from(game_texts(game, aids), project=game.title, version=game.version)
        path = catalogs.pot_path(project.catalogs, game.id)
        if catalogs.save(path, template):
            changed.append(project.show(path))
    if project.ui_domain:
        from . import __version__
        path = catalogs.pot_path(project.catalogs, ui.DOMAIN)
        if catalogs.save(path, ui.extract_ui(project.root, __version__)):
            changed.append(project.show(path))
    return changed


def domains(project: Project, games: list[str] | None) -> list[tuple[str, list[str]]]:
    """(domain, target languages) for every catalog this project keeps."""
    out = [(g.id, [lang for lang in project.languages if lang != g.source_language])
           for g in select_games(project, games)]
    if project.ui_domain:
        out.append((ui.DOMAIN, [lang for lang in project.languages if lang != ui.SOURCE_LANGUAGE]))
    return out


def update(project: Project, games: list[str] | None = None) -> list[str]:
    """.pot -> .po for every target language, keeping every translation (fuzzy or obsolete, never dropped)."""
    changed = []
    for domain, langs in domains(project, games):
        pot = catalogs.pot_path(project.catalogs, domain)
        if not pot.exists():
            raise AidsError(Problem(Position(project.show(pot)), "no template catalog", "run `aids extract` first"))
        template = catalogs.read_catalog(pot, project.show(pot))
        for lang in langs:
            po = catalogs.po_path(project.catalogs, lang, domain)
            if catalogs.update_catalog(po, project.show(po), template, lang)[0]:
                changed.append(project.show(po))
    return changed


def compile(project: Project, games: list[str] | None = None) -> list[str]:
    """.po -> .mo for every catalog; a catalog with faulty entries is refused (every fault named), not compiled."""
    written, problems = [], []
    for domain, langs in domains(project, games):
        for lang in langs:
            po = catalogs.po_path(project.catalogs, lang, domain)
            if po.exists():
                try:
                    written.append(project.show(catalogs.compile_catalog(po, project.show(po))))
                except AidsError as exc:
                    problems.extend(exc.problems)
    if problems:
        raise AidsError(problems)
    return written


# --- model -> localized -> rendered -------------------------------------------------------------

def localizer(project: Project, game: Game, lang: str) -> Localizer:
    translations = {}
    if lang != game.source_language:
        po = catalogs.po_path(project.catalogs, lang, game.id)
        if po.exists():
            translations = catalogs.translations_of(catalogs.read_catalog(po, project.show(po)))
    return Localizer(lang, game.source_language, translations, ui.ui_translations(lang))


def game_context(game: Game, lz: Localizer) -> dict:
    return {
        "title": lz.text(game_title(game)),
        "version": game.version,
        "published": lz.date(game.published) if game.published else "",
        "published_iso": game.published.isoformat() if game.published else "",
        "author": game.author,
    }


def epoch_of(game: Game) -> int:
    day = game.published or dt.date(2000, 1, 1)
    return int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.timezone.utc).timestamp())


@dataclass
class Rendered:
    data: bytes
    pages: int = 0
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # facts for the summary, e.g. the type size a card fitted at


def document(game: Game, aid: Aid, lz: Localizer, edition: Edition | None) -> tuple[dict, str]:
    """The localized template context of one aid, and its HTML."""
    localized = aid.kind.localize(aid.model, lz, edition)
    game_ctx = game_context(game, lz)
    context = {
        "aid": localized, "game": game_ctx, "kind": aid.kind.KIND, "kind_name": aid.kind.display_name(lz),
        "document_title": f"{game_ctx['title']} – {localized['title']}",
    }
    return context, render_template(aid.kind.TEMPLATE, lz, context)


def render_aid(project: Project, game: Game, aid: Aid, lz: Localizer, edition: Edition | None,
               formats: Iterable[str]) -> dict[str, Rendered]:
    context, html = document(game, aid, lz, edition)
    out: dict[str, Rendered] = {}
    if "html" in formats:
        out[".html"] = Rendered(html.encode("utf-8"))
    if "pdf" in formats:
        custom = getattr(aid.kind, "render_pdf", None)
        if custom is not None:
            # e.g. {".pdf": card, "-sheet.pdf": n-up sheet}; print_pdf prints other HTML the default way
            def printer(other: str, page_size: str, margins: str | None = None) -> Rendered:
                return print_pdf(game, lz, context["game"], other, page_size, margins)
            out.update(custom(aid.model, context["aid"], lz, {**context, "print_pdf": printer}, edition))
        else:
            out[".pdf"] = print_pdf(game, lz, context["game"], html, getattr(aid.model, "page_size", "A4"))
    return out


def print_css(game: Game, lz: Localizer, game_ctx: dict, page_size: str, margins: str | None = None) -> str:
    """The PDF's own stylesheet (print.css): package fonts, page size and margins, footer with the version."""
    version = lz.pgettext("colophon", "Version %(version)s") % {"version": game.version}
    return render_template("print.css", lz, {
        "fonts": [(fam, (fonts_dir() / f).as_uri(), w, s) for fam, f, w, s in FONTS],
        "page_size": page_size,
        "margins": margins or "14mm 14mm 16mm 14mm",
        "footer": f"{game_ctx['title']} · {version}",
    })


def print_pdf(game: Game, lz: Localizer, game_ctx: dict, html: str, page_size: str,
              margins: str | None = None) -> Rendered:
    """`html` through WeasyPrint with print.css."""
    css = print_css(game, lz, game_ctx, page_size, margins)
    data, pages, warnings = render_pdf(html, css, base=game.folder, allowed=[game.folder], epoch=epoch_of(game))
    return Rendered(data, pages, warnings)


# --- the build ---------------------------------------------------------------------------------

@dataclass
class Built:
    game: str
    edition: str | None
    lang: str
    aid: str
    files: list[str]
    pages: int
    warnings: list[str]
    notes: list[str] = field(default_factory=list)


@dataclass
class Summary:
    built: list[Built] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[AidsError] = field(default_factory=list)
    fallbacks: dict[tuple[str, str], list[Fallback]] = field(default_factory=dict)  # (game, lang) -> ...
    catalog_problems: list[Problem] = field(default_factory=list)  # faulty entries of the UI catalogs, not used
    seconds: float = 0.0


def output_dir(project: Project, game: Game, edition: Edition | None, lang: str) -> Path:
    folder = project.output / game.id
    return (folder / edition.id if edition else folder) / lang


def build(project: Project, *, games: list[str] | None = None, langs: list[str] | None = None,
          formats: Iterable[str] = FORMATS, editions: list[str] | None = None, strict: bool = False,
          progress: Callable[[int], Callable[[str], None]] | None = None) -> Summary:
    """Build every aid of the chosen games in every chosen language, edition and format.

    An aid is rendered in all its languages before anything of it is written, so an aid that
    fails leaves its previous outputs as they were; the other aids (and games) are still built.
    `strict` fails an aid, unwritten, when any of its text falls back to the source language.
    """
    started = time.monotonic()
    formats = [f for f in FORMATS if f in formats]
    for lang in langs or []:
        if lang not in project.languages:
            raise AidsError(Problem(Position("command line"), f"unknown language '{lang}'",
                                    ", ".join(project.languages)))
    langs = list(dict.fromkeys(langs or project.languages))
    editions = list(dict.fromkeys(editions)) if editions else None
    summary = Summary()
    for lang in langs:
        summary.catalog_problems.extend(ui.ui_problems(lang))
    if strict and summary.catalog_problems:
        raise AidsError([Problem(p.where, f"{p.message} (--strict)", p.expected) for p in summary.catalog_problems])
    plan = []
    selected = []
    for name in select_game_ids(project, games):
        try:
            selected.append(project.read_game(name))
        except AidsError as exc:
            summary.failed.append(exc)
            summary.skipped.append(f"{name}: not built, its game.yaml has errors")
    _check_editions(selected, editions)
    for game in selected:
        chosen = [e for e in game.editions if e.id in editions] if editions else (list(game.editions) or [None])
        if not chosen:
            summary.skipped.append(f"{game.id}: no edition {', '.join(editions)}")
            continue
        aids, errors = read_aids(project, game)
        summary.failed.extend(errors)
        for error in errors:
            summary.skipped.append(f"{game.id}: an aid with errors was not built ({error.problems[0].where.path})")
        if not aids and not errors:
            summary.skipped.append(f"{game.id}: no aids declared")
        for edition in chosen:
            # parts (STANDALONE = False, e.g. tables) are built inside the aids that embed them
            plan.extend((game, edition, aid) for aid in aids if getattr(aid.kind, "STANDALONE", True))
    tick = progress(len(plan) * len(langs)) if progress else (lambda label: None)
    localizers: dict[tuple[str, str], Localizer] = {}
    for game, edition, aid in plan:
        try:
            results, outputs = build_aid(project, game, edition, aid, langs, formats, localizers, tick, strict)
            write_all(outputs)
            summary.built.extend(results)
        except AidsError as exc:
            summary.failed.append(exc)
            summary.skipped.append(f"{game.id}/{aid.model.id}: not written, previous outputs kept")
    for (game_id, lang), lz in localizers.items():
        if lz.fallbacks:
            summary.fallbacks[(game_id, lang)] = lz.fallbacks
    summary.seconds = time.monotonic() - started
    return summary


def build_aid(project: Project, game: Game, edition: Edition | None, aid: Aid, langs: list[str],
              formats: list[str], localizers: dict, tick: Callable[[str], None],
              strict: bool = False) -> tuple[list[Built], dict[Path, bytes]]:
    """One aid in every language: what was built, and the files to write once all of it rendered."""
    outputs: dict[Path, bytes] = {}
    results = []
    fell_back: list[Problem] = []
    for lang in langs:
        tick(f"{game.id} {aid.model.id} {lang}")
        if (game.id, lang) not in localizers:
            localizers[(game.id, lang)] = localizer(project, game, lang)
        lz = localizers[(game.id, lang)]
        lz.recent()
        rendered = render_aid(project, game, aid, lz, edition, formats)
        where = ", ".join([lang, *([f"edition {edition.id}"] if edition else []), *formats])
        fell_back.extend(Problem(fb.text.where, f"{where}: [{fb.text.context}] {fb.reason} (--strict)",
                                 "a translation in " + project.show(catalogs.po_path(project.catalogs, lang, game.id)))
                         for fb in lz.recent())
        folder = output_dir(project, game, edition, lang)
        files = []
        for suffix, item in rendered.items():
            path = folder / f"{aid.model.id}{suffix}"
            outputs[path] = item.data
            files.append(project.show(path))
        results.append(Built(
            game.id, edition.id if edition else None, lang, aid.model.id, files,
            pages=rendered[".pdf"].pages if ".pdf" in rendered else 0,
            warnings=[w for item in rendered.values() for w in item.warnings],
            notes=[n for item in rendered.values() for n in item.notes]))
    if strict and fell_back:
        raise AidsError(fell_back)
    return results, outputs


def _check_editions(games: list[Game], wanted: list[str] | None) -> None:
    """Each edition asked for must exist in at least one of the chosen games (the others are skipped)."""
    known = sorted({e.id for g in games for e in g.editions})
    for name in wanted or []:
        if name not in known:
            raise AidsError(Problem(Position("command line"), f"unknown edition '{name}'",
                                    ", ".join(known) or "no edition: these games have a single one"))

