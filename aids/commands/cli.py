"""The `aids` command: extract, update, compile, build. Errors are printed as `path:line:col: message`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import __version__
from ..errors import AidsError, visible

EXIT_ERROR, EXIT_USAGE = 1, 2


class Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors: one line, exit 2, no traceback
        self.print_usage(sys.stderr)
        print(f"aids: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def make_parser() -> Parser:
    parser = Parser(prog="aids", description="Printable wargame aids from one source, in every language.")
    parser.add_argument("--version", action="version", version=f"aids {__version__}")
    parser.add_argument("--project", type=Path, default=None,
                        help="project folder (default: the nearest with aids.yaml)")
    parser.add_argument("--debug", action="store_true", help="show a traceback on errors")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def games(p):
        p.add_argument("--game", action="append", metavar="G", help="only this game (repeatable)")

    games(sub.add_parser("extract", help="sources -> i18n/templates/<game>.pot"))
    games(sub.add_parser("update", help=".pot -> i18n/<lang>/LC_MESSAGES/<game>.po, keeping translations"))
    games(sub.add_parser("compile", help=".po -> .mo"))
    sub.add_parser("formats", help="the output formats `aids build --format` takes, other packages' too")
    build = sub.add_parser("build", help="render HTML and PDF of every aid in every language")
    games(build)
    build.add_argument("--lang", action="append", metavar="L", help="only this language (repeatable)")
    build.add_argument("--format", action="append", metavar="F", type=format_name,
                       help="only this format (repeatable; default: html and pdf); `aids formats` lists them all, "
                            "those of other packages too")
    build.add_argument("--profile", choices=["home", "press"], default="home",
                       help="press: also PDFs for a print shop (<aid>-press.pdf: PDF/X-4, CMYK, bleed, marks)")
    build.add_argument("--impose", action="store_true",
                       help="also each booklet imposed 2-up for saddle stitching: <booklet>-imposed.pdf for a "
                            "duplex printer, and <booklet>-imposed-press.pdf from the press PDF with --profile press")
    build.add_argument("--edition", action="append", metavar="E", help="only this edition (repeatable)")
    build.add_argument("--strict", action="store_true", help="fail when a string falls back to the source language")
    build.add_argument("--jobs", "-j", type=positive, metavar="N", help="worker processes (default: one a core)")
    build.add_argument("--force", action="store_true", help="render everything, even what is up to date")
    build.add_argument("--quiet", "-q", action="store_true",
                       help="no progress (by default on stderr: a bar on a terminal, else a line per aid written)")
    build.add_argument("--verbose", "-v", action="store_true",
                       help="list every string that fell back to the source language, not a few a language")
    build.add_argument("--draft", action="store_true",
                       help="mark untranslated and fuzzy text on the page, the share translated in the footer")
    build.add_argument("--pseudo", action="store_true",
                       help="build the pseudo-locale qps only (accented, 40%% longer text) to test layouts")
    build.add_argument("--min-complete", type=float, metavar="PERCENT",
                       help="do not build an aid in a language less translated than this (default: aids.yaml publish)")
    build.add_argument("--marks", choices=["none", "bars", "colour", "both"], default="bars",
                       help="mark what changed since the game's last release: a bar in the margin (the default), "
                            "colour, both, or none")
    build.add_argument("--shard", metavar="K/N", help="build only the K-th of N parts of about the same cost, as "
                       "the build cache timed them (for a CI matrix)")
    build.add_argument("--scheduler", type=scheduler, metavar="tcp://HOST:PORT",
                       help="run the jobs on this Dask cluster (pip install 'aids[dask]')")
    stats = sub.add_parser("stats", help="how complete each aid is in each language (translated, fuzzy, untranslated)")
    games(stats)
    stats.add_argument("--lang", action="append", metavar="L", help="only this language (repeatable)")
    stats.add_argument("--format", choices=["text", "json"], default="text", help="a table, or JSON for scripts")
    stats.add_argument("--min", type=float, metavar="PERCENT", help="exit 1 if any aid and language is below this")
    check = sub.add_parser("check", help="every problem of every catalog entry (placeholders, terms, numbers, ...)")
    games(check)
    check.add_argument("--lang", action="append", metavar="L", help="only this language (repeatable)")
    check.add_argument("--strict", action="store_true", help="warnings are errors too")
    budgets = sub.add_parser("budgets", help="how long each translation of a card or playsheet may get, measured",
                             description="Lays out every card and playsheet with all its texts longer, to find by "
                             "how much they can grow and still fit at the minimum type size; writes each entry's "
                             "budget into the catalog ('# aids: budget 120 characters (referee-card)'), which "
                             "aids check reads.")
    games(budgets)
    budgets.add_argument("--lang", action="append", metavar="L",
                         help="only this language (repeatable; default: every language but the source)")
    weblate(budgets, "then set each budget as the max-length flag of its string in this Weblate (the least of the "
            "languages)")
    context = sub.add_parser("context", help="a picture of where each text prints, for translators",
                             description="Writes build/context/<game>/<lang>/<msgctxt>.png: the page of the aid "
                             "around each text, the text outlined, and index.json (each msgctxt's picture and its "
                             "place in the aid's page), for Weblate's screenshots. Needs Chromium and Selenium "
                             "(pip install 'aids[context]').")
    games(context)
    context.add_argument("--lang", action="append", metavar="L",
                         help="this language's pages (repeatable; default: each game's source language)")
    weblate(context, "then upload the source language's pictures to this Weblate as screenshots tied to their "
            "strings")
    serve = sub.add_parser("serve", help="a live preview on localhost: rebuilt and reloaded as sources change")
    games(serve)
    serve.add_argument("--lang", action="append", metavar="L", help="only this language (repeatable)")
    serve.add_argument("--port", type=port, default=8000, help="port on 127.0.0.1 (default 8000; 0: any free one)")
    init = sub.add_parser("init", help="a new project: one game with an aid of every kind, translated, ready to build",
                          description="Writes aids.yaml, a game (a sequence of play, a table, a playsheet, a referee "
                                      "card, a booklet), its catalogs translated into pl, en and ru, schemas/, "
                                      "README.md and .gitignore. It overwrites nothing.")
    init.add_argument("folder", nargs="?", type=Path, help="where (default: the current folder; created if missing)")
    init.add_argument("--source-language", default="en", metavar="L",
                      help="the language the sources are written in (default en)")
    init.add_argument("--languages", default="pl,en,ru", metavar="L,L,...",
                      help="the languages to publish, the source language among them (default pl,en,ru)")
    new = sub.add_parser("new", help="add an aid from a template to a game, listed in its game.yaml",
                         description="Writes games/<game>/<id>.yaml from the kind's template, in the game's source "
                                     "language (a booklet also <id>/introduction.md), and adds it to game.yaml. A "
                                     "playsheet embeds the game's first table: a game without one is refused (make "
                                     "one with `aids new table <id>`). It overwrites nothing.")
    new.add_argument("kind", help="sequence, table, playsheet, card or booklet")
    new.add_argument("id", help="its id and file name (games/<game>/<id>.yaml): lowercase letters, digits, '-'")
    new.add_argument("--game", metavar="G", help="its game (default: the project's only game)")
    release = sub.add_parser("release", help="record a game's released state (games/<game>/releases/<version>.yaml)",
                             description="Records every aid's items (source texts, values) and their text in every "
                                         "language, against which the build and `aids changes` compare, and sets "
                                         "the game's version and date in game.yaml. Refused while `aids check` "
                                         "finds errors or a language is below the publishing threshold.")
    release.add_argument("version", type=version, help="the version released, e.g. 1.5")
    release.add_argument("--game", metavar="G", help="the game (default: the project's only game)")
    release.add_argument("--date", type=iso_date, metavar="YYYY-MM-DD", help="its date (default: today)")
    release.add_argument("--snapshot", action="store_true", help="only add the snapshot the site's archive rebuilds "
                         "it from, to a release recorded without one (while the sources are as released)")
    changes = sub.add_parser("changes", help="what changed since a release, for release notes and errata")
    games(changes)
    changes.add_argument("--since", type=version, metavar="VERSION",
                         help="the release to compare with (default: the latest)")
    changes.add_argument("--format", choices=["md", "json"], default="md", help="Markdown (default) or JSON")
    changes.add_argument("--lang", metavar="L", help="the language of the numbers, titles and texts (default: the "
                         "game's source language): each change by its number as printed (3.2.2, krok 1)")
    schema = sub.add_parser("schema", help="the JSON Schema of aids.yaml, game.yaml or a kind of aid, for editors",
                            description="Prints one schema; --write puts every schema in the project's schemas/ "
                                        "folder, which the first line of a source names for VS Code and others.")
    schema.add_argument("name", nargs="?", help="project, game or a kind (sequence, table, playsheet, card, ...)")
    schema.add_argument("--write", action="store_true", help="write every schema into <project>/schemas/")
    return parser


def weblate(parser: argparse.ArgumentParser, what: str) -> None:
    """--weblate URL and --weblate-project SLUG: what a translators' tool sends to a Weblate."""
    parser.add_argument("--weblate", metavar="URL", help=f"{what} (the API token in WEBLATE_TOKEN)")
    parser.add_argument("--weblate-project", metavar="SLUG",
                        help="its project (each game's component is named by the game's id)")


def schema_command(args) -> int:
    from ..kinds import schemas
    if args.write:
        from ..config import find_root
        root = args.project.resolve() if args.project else find_root(Path.cwd())
        print("\n".join(f"wrote {p}" for p in schemas.write_schemas(root)))
        return 0
    if args.name not in schemas.names():
        print(f"aids: error: unknown schema '{args.name or ''}' (expected: one of {', '.join(schemas.names())})",
              file=sys.stderr)
        return EXIT_USAGE
    print(schemas.dumps(args.name), end="")
    return 0


def iso_date(text: str):
    import datetime as dt
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a date like 2026-11-23") from None


def version(text: str) -> str:
    """A version as the name of its release file (games/<game>/releases/<version>.yaml)."""
    from ..source.shape import VERSION_EXPECTED, name_fault
    if not text:
        raise argparse.ArgumentTypeError(f"an empty version (expected: {VERSION_EXPECTED})")
    if fault := name_fault(text, "version", version=True):
        raise argparse.ArgumentTypeError(visible("{} (expected: {})".format(*fault)))
    return text


def scheduler(text: str) -> str:
    from ..build.cluster import EXPECTED_ADDRESS, address_fault
    if fault := address_fault(text):
        raise argparse.ArgumentTypeError(visible(f"{fault} (expected: {EXPECTED_ADDRESS})"))
    return text


def formats_command(args) -> int:
    from ..render.formats import registry
    for name, made in registry().items():
        print(f"{name:<14} {made.summary}")
    return 0


def format_name(text: str) -> str:
    """An output format the registry holds: aids' own or another package's (render/formats.py)."""
    from ..render.formats import registry
    if text not in registry():
        raise argparse.ArgumentTypeError(f"invalid choice: '{text}' (expected: one of {', '.join(registry())})")
    return text


def port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port from 0 to 65535")
    return int(text)


def positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of at least 1")
    return int(text)


def layout_tool() -> str | None:
    from ..localize.po import msgcat
    return msgcat()


def serve_command(root: Path, args) -> int:
    from ..config import read_project
    from ..kinds.reading import select_game_ids
    from .serve import serve
    try:  # a game that is not there is a mistake of the command line, found before anything is served
        select_game_ids(read_project(root), args.game)
    except AidsError as exc:
        print(f"aids serve: error: {exc}", file=sys.stderr)
        return 2
    serve(root, args.game, args.lang, args.port, ready=lambda line: print(line, flush=True))
    return 0


def run(args) -> int:
    from ..config import find_root, read_project
    from ..translating import translations
    if args.command in ("schema", "formats"):  # of no project
        return (schema_command if args.command == "schema" else formats_command)(args)
    if args.command == "init":
        from .scaffold.project import init_command
        return init_command(args)
    root = args.project.resolve() if args.project else find_root(Path.cwd())
    if args.command == "new":
        from .scaffold.aid import new_command
        return new_command(root, args)
    if args.command in ("stats", "check"):
        from ..translating import translators
        return (print_stats if args.command == "stats" else print_check)(translators, project_at(root), args)
    if args.command == "serve":
        return serve_command(root, args)
    project = read_project(root)
    if args.command in ("release", "changes"):
        return release_command(project, args)
    if args.command in CATALOG_COMMANDS:
        return catalogs_command(translations, project, args)
    if args.command == "build":
        return build_command(project, args)
    if args.command in ("budgets", "context"):  # what a translator reads beside the .po
        from .tools import TRANSLATORS_TOOLS
        return TRANSLATORS_TOOLS[args.command](project, args)
    return 0




# aids extract, update, compile: what each does to the catalogs, what it says of each file, and of none
CATALOG_COMMANDS = {"extract": ("wrote", "templates up to date"), "update": ("updated", "catalogs up to date"),
                    "compile": ("wrote", "no catalogs")}


def catalogs_command(translations, project, args) -> int:
    if args.command in ("extract", "update") and not layout_tool():
        print("warning: GNU gettext's msgcat was not found: catalogs are written in translate-toolkit's layout, "
              "which the next GNU tool or Poedit save rewraps (install gettext)", file=sys.stderr)
    verb, none = CATALOG_COMMANDS[args.command]
    done = getattr(translations, args.command)(project, args.game)
    print("\n".join(f"{verb} {p}" for p in done) or none)
    return 0


def build_command(project, args) -> int:
    from ..build import builder, pipeline
    from . import report
    formats = [*(args.format or pipeline.FORMATS),
               *(["press"] if args.profile == "press" else []),
               *(["imposed"] if args.impose else [])]
    options = pipeline.Options(games=args.game, langs=args.lang, formats=formats,
                               editions=args.edition, strict=args.strict, debug=args.debug, jobs=args.jobs,
                               force=args.force, scheduler=args.scheduler, min_complete=args.min_complete,
                               draft=args.draft, pseudo=args.pseudo, marks=args.marks,
                               shard=builder.parse_shard(args.shard) if args.shard else None)
    progress = report.Progress(mode="quiet" if args.quiet else None)
    try:
        summary = builder.build(project, options, progress=progress)
    finally:
        progress.close()  # the bar is gone before the summary prints
    print(visible(report.summary_text(summary, args.verbose)))  # a game folder may hold a bidi override
    # a catalog's fault fails every aid of its language: say it once
    for message in dict.fromkeys(str(error) for error in summary.failed):
        print(message, file=sys.stderr)
    if summary.failed:
        return EXIT_ERROR
    if not summary.built and not summary.unchanged and not args.shard:  # nothing written or up to date
        print("nothing was built: " + ("; ".join(summary.skipped) or "no aid matched the options"),
              file=sys.stderr)
        return EXIT_ERROR
    return 0


def release_command(project, args) -> int:
    import datetime as dt

    from ..build import release
    from ..kinds.reading import select_game_ids
    from .scaffold.aid import choose_game
    if args.command == "release":
        game_id = choose_game(project, args.game)
        from ..build import archive
        written = [] if args.snapshot else release.release(project, game_id, args.version,
                                                            args.date or dt.date.today())
        written.append(archive.record(project, game_id, args.version, existing=args.snapshot))  # the site's archive
        print("\n".join(f"wrote {project.show(p)}" + ("/ (its snapshot)" if p.is_dir() else "") for p in written))
        return 0
    games, printed = [], False
    for game_id in select_game_ids(project, args.game):
        game = project.read_game(game_id)
        since, found = release.changes(project, game, args.since)
        if since is None:
            print(f"{game.id}: no release yet (aids release --game {game.id} VERSION)", file=sys.stderr)
            continue
        waiting = release.awaiting(project, game, found)
        shown = release.Printed.of(project, game, args.lang)
        if args.format == "json":
            games.append(release.changes_data(game, since, found, waiting, shown))
        else:
            print(("\n" if printed else "") + release.changes_markdown(game, since, found, waiting, shown), end="")
            printed = True  # a blank line before the next game's notes
    if args.format == "json":
        import json
        print(json.dumps(games, ensure_ascii=False, indent=1))
    return 0


def project_at(root: Path):
    from ..config import read_project
    return read_project(root)


def changed_untranslated(project, args) -> list[tuple[str, str, str, list[str]]]:
    """(game, release, language, keys): the items new or changed since a game's last release that still
    await their translation in a language."""
    from ..build import release
    from ..kinds.reading import select_game_ids
    out = []
    for game_id in select_game_ids(project, args.game):
        game = project.read_game(game_id)
        since, found = release.changes_if_readable(project, game)
        if since:
            waiting = release.awaiting(project, game, found)
            for lang in args.lang or project.languages:
                keys = [key for (_, key), langs in waiting.items() if lang in langs]
                if keys:
                    out.append((game_id, since, lang, keys))
    return out


def print_stats(translators, project, args) -> int:
    result = translators.stats(project, args.game, args.lang)
    below = [a for a in result.aids if args.min is not None and a.count.complete < args.min]
    waiting = changed_untranslated(project, args)
    unlisted = translators.not_in_catalogs(result)
    if args.format == "json":
        print_stats_json(result, below, waiting, unlisted)
    else:
        print_stats_table(result, waiting, unlisted)
    for error in result.errors:
        print(error, file=sys.stderr)
    for a in below:
        print(f"below {args.min:g} %: {a.game} {a.aid} {a.lang} ({a.count.complete:.1f} %)", file=sys.stderr)
    return EXIT_ERROR if below or result.errors else 0


def print_stats_json(result, below: list, waiting: list[tuple[str, str, str, list[str]]],
                     unlisted: list[tuple[str, str, int, list[str]]]) -> None:
    import json
    catalogs = [{"game": c.game, "lang": c.lang, "path": c.path, "translated": c.count.translated,
                 "fuzzy": c.count.fuzzy, "untranslated": c.count.untranslated} for c in result.catalogs]
    print(json.dumps({"aids": [a.as_json() for a in result.aids], "catalogs": catalogs,
                      "below": [f"{a.game}/{a.aid}/{a.lang}" for a in below],
                      "changed_untranslated": [{"game": g, "since": v, "lang": lang, "keys": keys}
                                               for g, v, lang, keys in waiting],
                      "not_in_catalogs": [{"game": g, "aid": aid, "texts": n, "langs": langs}
                                          for g, aid, n, langs in unlisted]},
                     ensure_ascii=False, indent=1))


def print_stats_table(result, waiting: list[tuple[str, str, str, list[str]]],
                      unlisted: list[tuple[str, str, int, list[str]]]) -> None:
    print(f"{'game':<20} {'aid':<20} {'lang':<4} {'messages':>9} {'fuzzy':>6} {'untr.':>6} {'words':>7} "
          f"{'complete':>9}")
    for a in result.aids:
        c = a.count
        total = c.translated + c.fuzzy + c.untranslated
        total_words = c.words_translated + c.words_fuzzy + c.words_untranslated
        print(f"{a.game:<20} {a.aid:<20} {a.lang:<4} {c.translated:>4}/{total:<4} {c.fuzzy:>6} "
              f"{c.untranslated:>6} {total_words:>7} {c.complete:>8.1f}%")
    for cat in result.catalogs:
        c = cat.count
        print(f"{cat.path}: {c.translated} translated messages, {c.fuzzy} fuzzy translations, "
              f"{c.untranslated} untranslated messages.")
    for game_id, since, lang, keys in waiting:
        print(f"{game_id} {lang}: {len(keys)} item(s) new or changed since {since} await translation: "
              + ", ".join(keys))
    for game_id, aid, texts, langs in unlisted:
        print(f"{texts} text(s) of {game_id}/{aid} are not in the catalogs of {', '.join(langs)} yet (counted as "
              "untranslated): run `aids extract && aids update`")


def print_check(translators, project, args) -> int:
    found = translators.check(project, args.game, args.lang)
    for shown, finding in found:
        print(translators.finding_text(shown, finding))
    errors = sum(1 for _, f in found if f.error or args.strict)
    warnings = len(found) - sum(1 for _, f in found if f.error)
    print(f"{errors} error(s), {warnings} warning(s)", file=sys.stderr)
    return EXIT_ERROR if errors else 0


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    try:
        return run(args)
    except AidsError as exc:
        if args.debug:
            raise
        print(exc, file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `aids changes | head`: the reader has all it wanted; nothing more to flush
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
