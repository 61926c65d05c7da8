"""The `aids` command: what each command does (its options: aids/commands/parser.py). Errors are printed as
`path:line:col: message`."""
from __future__ import annotations

import sys
from pathlib import Path

from ..errors import AidsError, visible
from . import errata
from .parser import EXIT_USAGE, make_parser

EXIT_ERROR = 1


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


def formats_command(args) -> int:
    from ..render.formats import registry
    for name, made in registry().items():
        print(f"{name:<14} {made.summary}")
    return 0


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
    if args.command == "errata":
        return errata.errata_command(project, args)
    if args.command in CATALOG_COMMANDS:
        return catalogs_command(translations, project, args)
    if args.command == "build":
        return build_command(project, args)
    if args.command == "import":
        return import_command(project, args)
    if args.command in ("budgets", "context", "weblate"):  # what a translator reads beside the .po, Weblate's set-up
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
    print("\n".join(p if p.startswith(("removed ", "recovered ")) else f"{verb} {p}" for p in done) or none)
    if args.command == "update":  # a language a translator added in Weblate, left alone: say what to do
        from ..translating import translators
        for _, line in translators.unlisted(project):
            print(f"warning: {line}", file=sys.stderr)
    return 0


def import_command(project, args) -> int:
    """`aids import`: a report a translator acts on, one line an entry (aids' catalog and msgctxt, or the other
    catalog's line and first words), then the sums; exit 0 whatever could not be placed."""
    from ..kinds.reading import select_game_ids
    from ..translating.importing import import_catalog
    from ..translating.latex import declared
    macros = declared(args.macro or [], args.macros, str(args.macros))
    game = project.read_game(select_game_ids(project, [args.game])[0])
    report = import_catalog(project, game, args.catalog, args.lang, args.dry_run, macros)
    print("\n".join(report.lines(str(args.catalog), args.dry_run)))
    return 0


def build_command(project, args) -> int:
    from ..pipeline import builder, pipeline
    from . import report
    formats = [*(args.format or pipeline.chosen_formats(project, None)),
               *(p for p in ("press", "gray") if p in (args.profile or [])),
               *(["imposed"] if args.impose else [])]
    options = pipeline.Options(games=args.game, langs=args.lang, formats=formats,
                               editions=args.edition, strict=args.strict, debug=args.debug, jobs=args.jobs,
                               force=args.force, scheduler=args.scheduler, min_complete=args.min_complete,
                               draft=args.draft, pseudo=args.pseudo, marks=args.marks, since=args.since,
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

    from ..kinds.reading import select_game_ids
    from ..releases import release
    from .scaffold.aid import choose_game
    if args.command == "release":
        game_id = choose_game(project, args.game)
        from ..releases import archive
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
    from ..kinds.reading import select_game_ids
    from ..releases import release
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
    others = translators.unlisted(project, args.lang)  # `aids update` would not make their catalogs
    unlisted = [(game, aid, texts, [lang for lang in langs if lang in project.languages])
                for game, aid, texts, langs in translators.not_in_catalogs(result)]
    unlisted = [found for found in unlisted if found[3]]
    if args.format == "json":
        print_stats_json(result, below, waiting, unlisted, others)
    else:
        print_stats_table(result, waiting, unlisted)
        for _, line in others:
            print(line)
    for error in result.errors:
        print(error, file=sys.stderr)
    for a in below:
        print(f"below {args.min:g} %: {a.game} {a.aid} {a.lang} ({a.count.complete:.1f} %)", file=sys.stderr)
    return EXIT_ERROR if below or result.errors else 0


def print_stats_json(result, below: list, waiting: list[tuple[str, str, str, list[str]]],
                     unlisted: list[tuple[str, str, int, list[str]]], others: list[tuple[str, str]]) -> None:
    import json
    catalogs = [{"game": c.game, "lang": c.lang, "path": c.path, "translated": c.count.translated,
                 "fuzzy": c.count.fuzzy, "untranslated": c.count.untranslated} for c in result.catalogs]
    print(json.dumps({"aids": [a.as_json() for a in result.aids], "catalogs": catalogs,
                      "below": [f"{a.game}/{a.aid}/{a.lang}" for a in below],
                      "changed_untranslated": [{"game": g, "since": v, "lang": lang, "keys": keys}
                                               for g, v, lang, keys in waiting],
                      "not_in_catalogs": [{"game": g, "aid": aid, "texts": n, "langs": langs}
                                          for g, aid, n, langs in unlisted],
                      "not_published": [{"lang": lang, "what_to_do": line} for lang, line in others]},
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
    from ..releases import rulings
    found = translators.check(project, args.game, args.lang)
    for shown, finding in found:
        print(translators.finding_text(shown, finding))
    ruled = rulings.check(project, args.game)  # the rulings against the rules (releases/rulings.py)
    for problem, error in ruled:
        print(rulings.check_text(problem, error))
    flags = [f.error for _, f in found] + [error for _, error in ruled]  # an error, or a warning
    errors = sum(1 for error in flags if error or args.strict)
    warnings = flags.count(False)
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
