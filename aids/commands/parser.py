"""The `aids` command line: its commands in the order a newcomer meets them, grouped (start, build and preview,
translate, release, maintain), each with a one-line summary in `aids --help` and an example in its own `--help`.

COMMANDS holds them in that order; `make_parser` adds each as an argparse subcommand (its summary first in its
description, its examples in its epilog) and lists the groups in `aids --help`'s epilog, from the same table.
tests/test_help.py runs the examples.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..errors import visible

EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors: one line, exit 2, no traceback
        self.print_usage(sys.stderr)
        print(f"aids: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


@dataclass(frozen=True)
class Command:
    name: str
    group: str
    summary: str  # one line, in `aids --help`
    examples: tuple[str, ...]  # `aids ...` lines, each with what it does: in its own --help
    options: Callable[[argparse.ArgumentParser], None]
    description: str = ""  # more, in its own --help


def games(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", action="append", metavar="G", help="only this game (repeatable)")


def langs(p: argparse.ArgumentParser, what: str = "only this language (repeatable)") -> None:
    p.add_argument("--lang", action="append", metavar="L", help=what)


def weblate(parser: argparse.ArgumentParser, what: str) -> None:
    """--weblate URL and --weblate-project SLUG: what a translators' tool sends to a Weblate."""
    parser.add_argument("--weblate", metavar="URL", help=f"{what} (the API token in WEBLATE_TOKEN)")
    parser.add_argument("--weblate-project", metavar="SLUG",
                        help="its project (each game's component is named by the game's id)")


def init_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", nargs="?", type=Path, help="where (default: the current folder; created if missing)")
    p.add_argument("--source-language", default="en", metavar="L",
                   help="the language the sources are written in (default en)")
    p.add_argument("--languages", default="pl,en,ru", metavar="L,L,...",
                   help="the languages to publish, the source language among them (default pl,en,ru)")


def new_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("kind", help="sequence, table, playsheet, card or booklet")
    p.add_argument("id", help="its id and file name (games/<game>/<id>.yaml): lowercase letters, digits, '-'")
    p.add_argument("--game", metavar="G", help="its game (default: the project's only game)")


def build_options(p: argparse.ArgumentParser) -> None:
    games(p)
    langs(p)
    p.add_argument("--format", action="append", metavar="F", type=format_name,
                   help="only this format (repeatable; default: aids.yaml's formats:, else html and pdf); "
                        "`aids formats` lists them all, those of other packages too")
    p.add_argument("--profile", choices=["home", "press", "gray"], action="append",
                   help="press: also PDFs for a print shop (<aid>-press.pdf: PDF/X-4, CMYK, bleed, marks); gray: "
                        "also PDFs for a monochrome printer (<aid>-gray.pdf); repeatable")
    p.add_argument("--impose", action="store_true",
                   help="also each booklet imposed 2-up for saddle stitching: <booklet>-imposed.pdf for a duplex "
                        "printer, and <booklet>-imposed-press.pdf from the press PDF with --profile press")
    p.add_argument("--edition", action="append", metavar="E", help="only this edition (repeatable)")
    p.add_argument("--strict", action="store_true",
                   help="warnings are errors (as for aids check): fail an aid's language, writing none of it, when a "
                        "string falls back to the source language (aids.yaml's fallbacks: fail does this alone) or a "
                        "print shop's preflight flags a press PDF (an image below the press's resolution); fail "
                        "when the package's own catalogs are faulty")
    p.add_argument("--jobs", "-j", type=positive, metavar="N", help="worker processes (default: one a core)")
    p.add_argument("--force", action="store_true", help="render everything, even what is up to date")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress (by default on stderr: a bar on a terminal, else a line per aid written)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="list every string that fell back to the source language, not a few a language")
    p.add_argument("--draft", action="store_true",
                   help="mark untranslated and fuzzy text on the page, the share translated in the footer")
    p.add_argument("--pseudo", action="store_true",
                   help="build the pseudo-locale qps only (accented, 40%% longer text) to test layouts")
    p.add_argument("--min-complete", type=float, metavar="PERCENT",
                   help="do not build an aid in a language less translated than this (default: aids.yaml publish)")
    p.add_argument("--marks", choices=["none", "bars", "colour", "both"], default="bars",
                   help="mark what changed since the game's last release: a bar in the margin (the default), "
                        "colour, both, or none")
    p.add_argument("--since", type=version, metavar="VERSION",
                   help="mark what changed since this release (every change since, through the releases between) "
                        "rather than since the last one")
    p.add_argument("--shard", metavar="K/N", help="build only the K-th of N parts of about the same cost, as the "
                   "build cache timed them (for a CI matrix)")
    p.add_argument("--scheduler", type=scheduler, metavar="tcp://HOST:PORT",
                   help="run the jobs on this Dask cluster (pip install 'aids[dask]')")


def serve_options(p: argparse.ArgumentParser) -> None:
    games(p)
    langs(p)
    p.add_argument("--port", type=port, default=8000, help="port on 127.0.0.1 (default 8000; 0: any free one)")


def stats_options(p: argparse.ArgumentParser) -> None:
    games(p)
    langs(p)
    p.add_argument("--format", choices=["text", "json"], default="text", help="a table, or JSON for scripts")
    p.add_argument("--min", type=float, metavar="PERCENT", help="exit 1 if any aid and language is below this")


def check_options(p: argparse.ArgumentParser) -> None:
    games(p)
    langs(p)
    p.add_argument("--strict", action="store_true", help="warnings are errors too")


def context_options(p: argparse.ArgumentParser) -> None:
    games(p)
    langs(p, "this language's pages (repeatable; default: each game's source language)")
    weblate(p, "then upload the source language's pictures to this Weblate as screenshots tied to their strings")


def budgets_options(p: argparse.ArgumentParser) -> None:
    games(p)
    langs(p, "only this language (repeatable; default: every language but the source)")
    weblate(p, "then set each budget as the max-length flag of its string in this Weblate (the least of the "
            "languages)")


def weblate_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", choices=["components"], help="components: a Weblate component per catalog, with the "
                   "settings aids' catalogs need")
    games(p)
    weblate(p, "make them in this Weblate, or set aids' settings of those there again, with their add-ons")
    p.add_argument("--repo", metavar="URL", help="the project's git repository, for the first component made "
                   "(the others share its clone)")
    p.add_argument("--branch", default="main", metavar="NAME", help="its branch (default main)")


def release_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("version", type=version, help="the version released, e.g. 1.5")
    p.add_argument("--game", metavar="G", help="the game (default: the project's only game)")
    p.add_argument("--date", type=iso_date, metavar="YYYY-MM-DD", help="its date (default: today)")
    p.add_argument("--snapshot", action="store_true", help="only add the snapshot the site's archive rebuilds it "
                   "from, to a release recorded without one (while the sources are as released)")


def changes_options(p: argparse.ArgumentParser) -> None:
    games(p)
    p.add_argument("--since", type=version, metavar="VERSION", help="the release to compare with (default: the latest)")
    p.add_argument("--format", choices=["md", "json"], default="md", help="Markdown (default) or JSON")
    p.add_argument("--lang", metavar="L", help="the language of the numbers, titles and texts (default: the game's "
                   "source language): each change by its number as printed (3.2.2, krok 1)")


def errata_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("version", type=version, help="the version printed, e.g. 1.3")
    games(p)
    langs(p, "only this language (repeatable; default: every language of the project)")
    p.add_argument("--pdfs", type=Path, metavar="DIR", help="the PDFs of that version, DIR/<lang>/<aid>.pdf (default: "
                   "build/<game>/<VERSION>, the site's archive)")


def schema_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", nargs="?", help="project, game or a kind (sequence, table, playsheet, card, ...)")
    p.add_argument("--write", action="store_true", help="write every schema into <project>/schemas/")


def import_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("catalog", type=Path, help="the other tool's catalog (.po), of the same text")
    p.add_argument("--game", required=True, metavar="G", help="the game whose catalog it fills")
    p.add_argument("--lang", metavar="L", help="the language of its translations (default: its header's Language)")
    p.add_argument("--dry-run", action="store_true", help="report what it would place, write nothing")
    p.add_argument("--macro", action="append", metavar="KIND=NAME",
                   help="a LaTeX macro of the book: KIND is icon, ref, see, term, note, index or drop "
                        "(--macro icon=svg: \\svg{x} is {icon:x}); again for more")
    p.add_argument("--macros", type=Path, metavar="FILE",
                   help="the book's macros in a YAML file: a list of names under each KIND, labels: LABEL: ID")


def no_options(p: argparse.ArgumentParser) -> None:
    pass


START, PREVIEW, TRANSLATE, RELEASE, MAINTAIN = "start", "build and preview", "translate", "release", "maintain"
GROUPS = (START, PREVIEW, TRANSLATE, RELEASE, MAINTAIN)
COMMANDS = (
    Command("init", START, "a new project: one game with an aid of every kind, translated, ready to build",
            ("aids init my-game                  # then: cd my-game",), init_options,
            "Writes aids.yaml, a game (a sequence of play, a table, a playsheet, a referee card, a booklet), its "
            "catalogs translated into pl, en and ru, schemas/, README.md and .gitignore. It overwrites nothing."),
    Command("new", START, "add an aid from a template to a game, listed in its game.yaml",
            ("aids new table weather             # games/<game>/weather.yaml",), new_options,
            "Writes games/<game>/<id>.yaml from the kind's template, in the game's source language (a booklet also "
            "<id>/introduction.md), and adds it to game.yaml. A playsheet embeds the game's first table: a game "
            "without one is refused (make one with `aids new table <id>`). It overwrites nothing."),
    Command("build", PREVIEW, "render HTML and PDF of every aid in every language",
            ("aids build                           # everything, into build/",
             "aids build --lang en --format html   # one language, HTML only: the quickest look"), build_options,
            "Only what changed since the last build is rendered again. Progress goes to stderr: a bar on a "
            "terminal, a line per aid written otherwise (a log, CI), nothing with --quiet; the summary to stdout."),
    Command("serve", PREVIEW, "a live preview on localhost: rebuilt and reloaded as sources change",
            ("aids serve --lang en               # then open http://127.0.0.1:8000",), serve_options),
    Command("extract", TRANSLATE, "the sources' texts into a template for translators: i18n/templates/<game>.pot",
            ("aids extract                       # after editing a source",), games),
    Command("update", TRANSLATE, "each language's catalog (i18n/<lang>/LC_MESSAGES/<game>.po) brought up to the "
            "template, its translations kept",
            ("aids update                        # then translate the .po files (Poedit, Weblate)",), games),
    Command("import", TRANSLATE, "translations from another tool's catalog (po4a, Sphinx) put into a game's catalog",
            ("aids import rules.pl.po --game mill-skirmish --dry-run   # what it would fill",),
            import_options,
            "Fills the game's untranslated entries in the catalog's language: the same text (spaces, typography "
            "and markup aside) as translated, a close one as fuzzy with the text it was made for as its previous "
            "msgid, an entry that joins several of aids' split between them where their sentences align; never "
            "changes a translation. A po4a catalog of LaTeX is read with the book's macros as declared "
            "(--macro, --macros). Reports each entry placed, split or fuzzy, each macro not declared, and each "
            "entry of the other catalog not used, by its first words. docs/guide/import.md says more."),
    Command("compile", TRANSLATE, "each catalog compiled (.po -> .mo), for gettext's other tools",
            ("aids compile",), games),
    Command("check", TRANSLATE, "every problem of every catalog entry (placeholders, terms, numbers, ...)",
            ("aids check --lang pl",), check_options),
    Command("stats", TRANSLATE, "how complete each aid is in each language (translated, fuzzy, untranslated)",
            ("aids stats --lang ru",), stats_options),
    Command("context", TRANSLATE, "a picture of where each text prints, for translators",
            ("aids context --lang en             # build/context/<game>/en/*.png",), context_options,
            "Writes build/context/<game>/<lang>/<msgctxt>.png: the page of the aid around each text, the text "
            "outlined, and index.json (each msgctxt's picture and its place in the aid's page), for Weblate's "
            "screenshots. Needs Chromium and Selenium (pip install 'aids[context]')."),
    Command("budgets", TRANSLATE, "how long each translation of a card or playsheet may get, measured",
            ("aids budgets --lang pl",), budgets_options,
            "Lays out every card and playsheet with all its texts longer, to find by how much they can grow and "
            "still fit at the minimum type size; writes each entry's budget into the catalog ('# aids: budget 120 "
            "characters (referee-card)'), which aids check reads."),
    Command("weblate", TRANSLATE, "the catalogs' components for a Weblate, with the settings aids' catalogs need",
            ("aids weblate components            # one component per catalog, as JSON for the Weblate API",),
            weblate_options,
            "Prints each component's settings and add-ons as Weblate's API takes them (docs/translating/weblate.md "
            "says why each): file mask and template, GNU's line width, the previous source kept, new languages "
            "only those aids.yaml publishes, aids' placeholders checked, no 'unchanged' check where a translator's "
            "comment says `aids: ignore identical`. With --weblate it makes the missing components in that Weblate "
            "project (the first clones --repo, the others share it) and sets aids' settings of those there again."),
    Command("release", RELEASE, "record a game's released state (games/<game>/releases/<version>.yaml)",
            ("aids release 1.0 --date 2026-11-26",), release_options,
            "Records every aid's items (source texts, values) and their text in every language, against which the "
            "build and `aids changes` compare, and sets the game's version and date in game.yaml. Refused while "
            "`aids check` finds errors or a language is below the publishing threshold."),
    Command("changes", RELEASE, "what changed since a release, for release notes and errata",
            ("aids changes --since 1.0           # Markdown, for the release notes",), changes_options),
    Command("errata", RELEASE, "an errata sheet (PDF) per language for owners of a printed version",
            ("aids errata 1.0 --lang en          # build/<game>/en/errata-1.0.pdf",), errata_options,
            "Writes build/<game>/<lang>/errata-<VERSION>.pdf: each change since that release with the page and "
            "column where it stood in that version's PDF, and its text now in a box as wide as the column, to cut "
            "out and paste."),
    Command("schema", MAINTAIN, "the JSON Schema of aids.yaml, game.yaml or a kind of aid, for editors",
            ("aids schema --write                # every schema into schemas/",), schema_options,
            "Prints one schema; --write puts every schema in the project's schemas/ folder, which the first line "
            "of a source names for VS Code and others."),
    Command("formats", MAINTAIN, "the output formats `aids build --format` takes, other packages' too",
            ("aids formats",), no_options),
)


def overview() -> str:
    """`aids --help`'s list of commands: by group, in the order a newcomer meets them, each with its summary."""
    width = max(len(c.name) for c in COMMANDS) + 2
    lines = []
    for group in GROUPS:
        lines += [f"{group}:"]
        lines += [f"  {c.name:<{width}}{c.summary}" for c in COMMANDS if c.group == group]
    return "\n".join(lines)


def make_parser() -> Parser:
    parser = Parser(prog="aids", usage="%(prog)s [-h] [--version] [--project PROJECT] [--debug] COMMAND ...",
                    description="Printable wargame aids from one source, in every language.",
                    epilog="`aids COMMAND --help` says more, with an example. A first hour:\n"
                           "  aids init my-game && cd my-game && aids build && aids serve",
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"aids {__version__}")
    parser.add_argument("--project", type=Path, default=None,
                        help="project folder (default: the nearest with aids.yaml)")
    parser.add_argument("--debug", action="store_true", help="show a traceback on errors")
    # the commands listed by group (the description of their section), not once more in argparse's flat list: no
    # help= per command, none for the whole (which the usage above names)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser, metavar="COMMAND", prog="aids",
                                title="commands", description=overview(), help=argparse.SUPPRESS)
    for command in COMMANDS:
        description = command.summary[:1].upper() + command.summary[1:] + "." + \
            (f"\n\n{command.description}" if command.description else "")
        example = "example:" if len(command.examples) == 1 else "examples:"
        command.options(sub.add_parser(command.name, description=description,
                                       epilog="\n".join([example, *(f"  {e}" for e in command.examples)]),
                                       formatter_class=Wrapped))
    return parser


class Wrapped(argparse.RawDescriptionHelpFormatter):
    """The description's paragraphs wrapped to the terminal; the examples in the epilog as they are."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(("example:", "examples:")):
            return super()._fill_text(text, width, indent)
        return "\n\n".join(argparse.HelpFormatter._fill_text(self, part, width, indent) for part in text.split("\n\n"))


# --- the values of options, checked as they are parsed ------------------------------------------

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
    from ..pipeline.cluster import EXPECTED_ADDRESS, address_fault
    if fault := address_fault(text):
        raise argparse.ArgumentTypeError(visible(f"{fault} (expected: {EXPECTED_ADDRESS})"))
    return text


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
