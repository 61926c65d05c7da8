"""The release commands: `aids release` records a game's released state in games/<game>/releases/<version>.yaml
and sets its version and date in game.yaml; `aids changes` (and the build) compare the sources with a release.

What is recorded and how two states compare is `aids.model.release`; this module reads the project's state
(every aid's items, every language's text of them as printed) and writes and reads the release files.
"""
from __future__ import annotations

import datetime as dt
import io
import re
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML

from ..config import Game, Project
from ..errors import AidsError, Position, Problem, Problems
from ..folder import Folder
from ..kinds.reading import read_aids
from ..localize.changes import awaited, short, text_of
from ..localize.localizer import Localizer
from ..localize.making import localizer
from ..model.release import (
    ADDED,
    REMOVED,
    WHAT,
    AidState,
    Change,
    Snapshot,
    by_aid,
    compare,
    from_data,
    to_data,
    version_key,
)
from ..source.shape import name_fault
from ..source.yamlfile import MAX_BYTES, Source, decode, load_yaml
from .wording import Wording

FOLDER = "releases"
COMMAND_LINE = Position("command line")


def releases_dir(game: Game) -> Path:
    return game.folder / FOLDER


def release_path(game: Game, version: str) -> Path:
    return releases_dir(game) / f"{version}.yaml"


def versions(game: Game) -> list[str]:
    """The versions released, oldest first."""
    folder = Folder(game.folder) / FOLDER
    found = [name[:-5] for name in folder.names() if name.endswith(".yaml") and folder.is_file(name)
             and not name_fault(name[:-5], "version", version=True)] \
        if folder.is_dir() else []  # a link among them, or a name that is no version, is not a release
    return sorted(found, key=version_key)


def state(project: Project, game: Game, version: str | None = None, date: dt.date | None = None) -> Snapshot:
    """The game as its sources and catalogs are now: every aid's items, and each language's text of them."""
    aids, errors = read_aids(project, game)
    if errors:
        raise AidsError([p for e in errors for p in e.problems])
    langs = [lang for lang in project.languages if lang != game.source_language]
    localizers = {lang: localizer(project, game, lang) for lang in langs}
    states = {}
    for aid in aids:
        items = aid.kind.items(aid.model)
        translations = {lang: {item.key: _texts(lz, item.key, item.texts) for item in items if item.texts}
                        for lang, lz in localizers.items()}
        states[aid.model.id] = AidState(aid.kind.name, items, translations)
    return Snapshot(game.id, version or game.version, date if date is not None else game.published,
                    game.source_language, states)


def _texts(lz: Localizer, key: str, texts: tuple[str, ...]) -> tuple[str, ...]:
    """The texts of an item as `lz` prints them (the source text where a translation is missing)."""
    return tuple(lz.shown(text_of(key, msgid)) for msgid in texts)


def require_release(project: Project, game: Game, version: str) -> None:
    """Refused, naming the versions released, when `game` has no release `version`."""
    releases = Folder(game.folder, project.show(game.folder)) / FOLDER
    if not releases.is_file(f"{version}.yaml"):
        known = ", ".join(versions(game)) or f"none yet: aids release --game {game.id} VERSION"
        raise AidsError(Problem(Position(project.show(game.source.path), 1, 1),
                                f"game {game.id} has no release {version}", f"one of: {known}"))


def read_release(project: Project, game: Game, version: str) -> Snapshot:
    path = release_path(game, version)
    releases = Folder(game.folder, project.show(game.folder)) / FOLDER
    require_release(project, game, version)
    shown = project.show(path)
    src = load_yaml(decode(releases.read(f"{version}.yaml", MAX_BYTES + 1) or b"", shown), path, shown)
    _check_names(src, game, version)
    try:
        return from_data(src.data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise AidsError(Problem(Position(src.shown, 1, 1), f"this release file is damaged ({exc!r})",
                                "the file as `aids release` wrote it (restore it from version control)")) from None


def _check_names(src: Source, game: Game, version: str) -> None:
    """A release file says which game and version it records: those its folder and its name say."""
    data, problems = src.data, Problems()
    for key, want, where in (("game", game.id, "its folder"), ("version", version, "its file name")):
        if hasattr(data, "get") and key in data and str(data[key]) != want:
            problems.add(src.at(data, key, value=True), f"this release file records {key} '{data[key]}', not "
                         f"'{want}' ({where})", f"{key}: '{want}', as `aids release` wrote it")
    problems.raise_if_any()


def check_version(version: str) -> None:
    """A version names its release file: refused when it cannot."""
    if fault := name_fault(version, "version", version=True):
        raise AidsError(Problem(COMMAND_LINE, *fault))


def latest(game: Game) -> str | None:
    found = versions(game)
    return found[-1] if found else None


# a name's grammatical form ({side:phasing|gen}): printed only inside the texts that use it, each a change of its own
FORM = re.compile(r"[^/]+/side/[^/]+/[^/]+")


def changes(project: Project, game: Game, since: str | None = None) -> tuple[str | None, list[Change]]:
    """(the release compared with, every change since it); (None, []) for a game never released. A form of a name
    added or removed is none: a reader reads it only in the texts that use it (as "new: активного игрока", the
    genitive alone, it said nothing)."""
    if since is not None:
        check_version(since)
    version = since or latest(game)
    if version is None:
        return None, []
    found = compare(read_release(project, game, version), state(project, game))
    return version, [c for c in found if not (c.what in (ADDED, REMOVED) and FORM.fullmatch(c.key))]


def changes_if_readable(project: Project, game: Game) -> tuple[str | None, list[Change]]:
    """`changes`, or none for a game with an aid in error or a damaged release (the build says why)."""
    try:
        return changes(project, game)
    except AidsError:
        return None, []


def awaiting(project: Project, game: Game, found: list[Change]) -> dict[tuple[str, str], list[str]]:
    """(aid, key) -> the languages a new, changed or moved item is not translated into yet."""
    out: dict[tuple[str, str], list[str]] = {}
    for lang in (lang for lang in project.languages if lang != game.source_language):
        lz = localizer(project, game, lang)
        for change in found:
            if change.what != REMOVED and not change.langs and not awaited(change, lz):
                out.setdefault((change.aid, change.key), []).append(lang)
    return out


# --- aids release -------------------------------------------------------------------------------

def release(project: Project, game_id: str, version: str, date: dt.date) -> list[Path]:
    """Records the game's state as `version` and sets game.yaml's version and date; refused while `aids check`
    finds errors or a language is published below the project's threshold. Returns the files written."""
    from ..translating import translators
    game = project.read_game(game_id)
    where = Position(project.show(game.source.path), 1, 1)
    check_version(version)
    path = release_path(game, version)
    if path.exists():
        raise AidsError(Problem(Position(project.show(path), 1, 1), f"release {version} is already recorded",
                                "a new version number (a release is never rewritten)"))
    later = [v for v in versions(game) if version_key(v) > version_key(version)]
    if later:
        raise AidsError(Problem(where, f"release {version} would come before {later[-1]}, already released",
                                f"a version after {later[-1]}"))
    found = [(shown, f) for shown, f in translators.check(project, [game_id], None) if f.error]
    problems = [Problem(Position(shown, f.line, 1), f"not released: {f.message}", "aids check without errors")
                for shown, f in found]
    if project.min_complete is not None:
        stats = translators.stats(project, [game_id], None)
        problems += [Problem(where, f"not released: {a.aid} is {a.count.complete:.1f} % translated into {a.lang}, "
                                    f"below the publishing threshold", f"at least {project.min_complete:g} %")
                     for a in stats.aids if a.count.complete < project.min_complete]
    if problems:
        raise AidsError(problems)
    snapshot = state(project, game, version, date)
    text = game_file_with(game, version, date)
    game_folder = Folder(game.folder, project.show(game.folder))  # never through a link, e.g. releases/ -> /etc
    game_folder.write(f"{FOLDER}/{path.name}", dump(snapshot).encode("utf-8"), new=True)
    game_folder.write(game.source.path.name, text.encode("utf-8"))
    return [path, game.source.path]


def dump(snapshot: Snapshot) -> str:
    yaml = YAML()
    yaml.width = 100_000  # a text on one line: a change of it is one line of a diff
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    out.write(f"# The state of {snapshot.game} as released in version {snapshot.version}, written by `aids release`:\n"
              "# every aid's items by their stable key, with their source texts, values and translations as\n"
              "# printed. The build and `aids changes` compare the sources with it. Do not edit.\n")
    yaml.dump(to_data(snapshot), out)
    return out.getvalue()


def game_file_with(game: Game, version: str, date: dt.date) -> str:
    """game.yaml's text with `version:` and `published:` set, every other line as it was."""
    src = game.source
    lines = src.text.splitlines(keepends=True)
    for key, value in (("version", f'"{version}"'), ("published", date.isoformat())):
        if key in src.data:
            line = src.data.lc.value(key)[0]
            lines[line] = re.sub(rf"^({key}:[ \t]*)([^#\n]*?)([ \t]*(#.*)?\r?\n?)$", rf"\g<1>{value}\g<3>",
                                 lines[line])
        else:
            after = src.data.lc.key("version")[0] + 1 if "version" in src.data else len(lines)
            lines.insert(after, f"{key}: {value}\n")
    text = "".join(lines)
    after = load_yaml(text, src.path, src.shown).data
    if str(after.get("version")) != version or str(after.get("published")) != date.isoformat():
        raise AidsError(Problem(src.at(src.data, "version", value=True), "cannot set the version in game.yaml",
                                f'version: "{version}" and published: {date.isoformat()}, by hand'))
    return text


# --- aids changes -------------------------------------------------------------------------------

@dataclass
class Printed:
    """How a game's items print in one language: the number of each (aid, anchor) and the title of each aid
    (as the site's changelog shows them), and its texts (`text`, as the game's first edition prints them)."""
    lz: Localizer
    numbers: dict[tuple[str, str], str]
    titles: dict[str, str]
    wording: Wording

    @classmethod
    def of(cls, project: Project, game: Game, lang: str | None) -> Printed:
        from ..pipeline.pipeline import chosen_languages
        from ..site.navigation import aid_numbers, aid_titles
        lz = localizer(project, game, chosen_languages(project, [lang])[0] if lang else game.source_language)
        aids = read_aids(project, game)[0]
        wording = Wording(project, game, aids, lz, game.editions[0] if game.editions else None)
        return cls(lz, aid_numbers(aids, lz), aid_titles(aids, lz), wording)

    def number(self, change: Change) -> str:
        """The printed number of a change's item ("3.2.2, krok 1"), none for a removed item or one without."""
        return "" if change.what == REMOVED else self.numbers.get((change.aid, change.anchor), "")

    def text(self, change: Change, since: str) -> str:
        """A change's item as its aid prints it now (as release `since` did, for a removed item)."""
        return self.wording.change(change, since)

    def listed(self, game: Game, found: list[Change]) -> list[Change]:
        """The changes its language's notes list: every one in the source language, else those concerning it
        (a translation corrected in another language is not news to this one's readers)."""
        lang = self.lz.lang
        return [c for c in found if lang == game.source_language or c.concerns(lang)]


def changes_data(game: Game, since: str, found: list[Change], waiting: dict[tuple[str, str], list[str]],
                 printed: Printed) -> dict:
    """The changes of a game as `aids changes --format json` gives them (a list of these, a game each): each
    with its key, and its number and text as printed in `printed`'s language."""
    return {"game": game.id, "since": since, "lang": printed.lz.lang, "changes": [
        {"aid": c.aid, "what": c.what, "key": c.key, "anchor": c.anchor, "number": printed.number(c),
         "text": printed.text(c, since), "texts": list(c.texts),
         **({"languages": list(c.langs)} if c.langs else {}), **({"was": c.was} if c.was else {}),
         **({"awaiting_translation": waiting[(c.aid, c.key)]} if (c.aid, c.key) in waiting else {})}
        for c in printed.listed(game, found)]}


def changes_markdown(game: Game, since: str, found: list[Change], waiting: dict[tuple[str, str], list[str]],
                     printed: Printed) -> str:
    """Release notes: per aid (titled in `printed`'s language), every change by its kind, its number as
    printed (its key where it has none) and its text in that language, with a link to its place, and the
    languages it still awaits a translation in."""
    lines = [f"# {printed.lz.plain(game.title_text)}: changes since {since}", ""]
    found = printed.listed(game, found)
    if not found:
        lines.append("No changes.")
    for aid, items in by_aid(found).items():
        lines += [f"## {printed.titles.get(aid, aid)}", ""]
        for what in WHAT:
            for c in (c for c in items if c.what == what):
                text = short(printed.text(c, since), 80) if c.texts else ""
                extra = f" (from {c.was})" if c.was and c.was != c.key else ""
                langs = f" [{', '.join(c.langs)}]" if c.langs else ""
                place = f"{aid}.html#{c.anchor}" if c.anchor else f"{aid}.html"
                todo = waiting.get((c.aid, c.key))
                lines.append(f"- {what}{langs}: [{printed.number(c) or c.key}]({place}){extra}"
                             + (f": {text}" if text else "")
                             + (f" (awaiting translation: {', '.join(todo)})" if todo else ""))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
