"""The translator's toolkit: how complete each aid is in each language (`aids stats`, the publishing
threshold of a build) and what is wrong in a catalog before it is printed (`aids check`)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from ..config import Game, Project
from ..errors import Position, Problem
from ..kind import Aid
from ..kinds.reading import read_aids, select_game_ids
from ..localize import catalogs, checks, domains, po, ui
from ..model.text import PLACEHOLDER, Text

Catalog = dict[tuple[str, str], tuple[str, bool]]  # (msgctxt, msgid) -> (msgstr, fuzzy), as the Localizer has it


@dataclass
class Count:
    """Messages and their source words: translated, fuzzy, untranslated."""
    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0
    words_translated: int = 0
    words_fuzzy: int = 0
    words_untranslated: int = 0
    missing: int = 0  # of the untranslated: texts not in the catalog at all (`aids extract && aids update` not run)

    def add(self, msgid: str, msgstr: str, fuzzy: bool) -> None:
        state = "fuzzy" if fuzzy else "translated" if msgstr else "untranslated"
        setattr(self, state, getattr(self, state) + 1)
        setattr(self, f"words_{state}", getattr(self, f"words_{state}") + words(msgid))

    @property
    def complete(self) -> float:
        """Percent of the source words translated (of the messages, where there are no words)."""
        total = self.words_translated + self.words_fuzzy + self.words_untranslated
        if total:
            return 100.0 * self.words_translated / total
        messages = self.translated + self.fuzzy + self.untranslated
        return 100.0 * self.translated / messages if messages else 100.0


def words(text: str) -> int:
    return len(re.findall(r"\w+", PLACEHOLDER.sub(" ", text)))


def shown_texts(game: Game, aid: Aid) -> list[Text]:
    """Every text an aid prints: the game's title, its own, those of the aids it embeds; each once."""
    texts = [game.title_text, *aid.kind.shown_texts(aid.model)]
    return list({(t.context, t.msgid): t for t in texts}.values())


def count(texts: Iterable[Text], catalog: Catalog) -> Count:
    result = Count()
    for text in texts:
        found = catalog.get((text.context, text.msgid))
        msgstr, fuzzy = found or ("", False)
        result.add(text.msgid, msgstr, fuzzy)
        result.missing += found is None
    return result


def not_in_catalogs(result: Stats) -> list[tuple[str, str, int, list[str]]]:
    """(game, aid, texts, languages) for each aid with texts that no catalog holds yet: a new aid or text before
    `aids extract && aids update`, counted as untranslated though no translator can see them."""
    found: dict[tuple[str, str], tuple[int, list[str]]] = {}
    for a in result.aids:
        if a.count.missing:
            texts, langs = found.get((a.game, a.aid), (0, []))
            found[(a.game, a.aid)] = (max(texts, a.count.missing), [*langs, a.lang])
    return [(game, aid, texts, langs) for (game, aid), (texts, langs) in found.items()]


def unlisted(project: Project, asked: list[str] | None = None) -> list[tuple[str, str]]:
    """(language, what to do, in one line) for each language with catalogs in the catalogs folder, or asked for
    (`--lang`), that aids.yaml does not publish: a language a translator added in Weblate, which `aids update`,
    `aids check` and the build leave alone until aids.yaml lists it."""
    from ..folder import Folder
    folder = Folder(project.catalogs, project.show(project.catalogs))
    there = [lang for lang in folder.names() if lang != "templates" and folder.is_dir(f"{lang}/LC_MESSAGES") and any(
        name.endswith(".po") for name in folder.names(f"{lang}/LC_MESSAGES"))]
    found = []
    for lang in dict.fromkeys([*there, *(asked or [])]):
        if lang in project.languages:
            continue
        listed = f"{lang} is not among aids.yaml's languages ({', '.join(project.languages)})"
        found.append((lang, f"{folder.show(lang)}/: {listed}: aids update, check and build leave its catalogs alone; "
                      f"to publish it, add {lang} to languages: in aids.yaml and run `aids update`" if lang in there
                      else f"{listed}: to publish it, add {lang} to languages: in aids.yaml and run `aids update`, "
                      "which makes its catalogs"))
    return found


@dataclass
class AidStats:
    game: str
    aid: str
    kind: str
    lang: str
    count: Count

    def as_json(self) -> dict:
        return {"game": self.game, "aid": self.aid, "kind": self.kind, "lang": self.lang,
                "complete": round(self.count.complete, 1), **asdict(self.count)}


@dataclass
class CatalogStats:
    game: str
    lang: str
    path: str
    count: Count


@dataclass
class Stats:
    aids: list[AidStats] = field(default_factory=list)
    catalogs: list[CatalogStats] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def read_catalogs(project: Project, game: Game, lang: str) -> tuple[Catalog, list[tuple[Path, po.Catalog]]]:
    """The game's translations in `lang` as the build reads them, and each of its catalogs (one, or one per aid:
    localize/domains.py) with its path."""
    found = domains.read(project.catalogs, project.show, game.id, lang)
    return domains.table(found)[0], found


def stats(project: Project, games: list[str] | None, langs: list[str] | None) -> Stats:
    result = Stats()
    for game_id in select_game_ids(project, games):
        game = project.read_game(game_id)
        aids, errors = read_aids(project, game)
        result.errors += [str(e) for e in errors]
        for lang in langs or project.languages:
            if lang == game.source_language:
                continue
            table, found = read_catalogs(project, game, lang)
            none: list[tuple[Path, po.Catalog | None]] = [(catalogs.po_path(project.catalogs, lang, game.id), None)]
            for path, catalog in [*found] or none:
                whole = Count()
                for entry in po.entries(catalog) if catalog else []:
                    whole.add(po.msgid(entry), po.strings(entry)[0] if not entry.hasplural() else
                              ("x" if all(po.strings(entry)) else ""), entry.isfuzzy())
                result.catalogs.append(CatalogStats(game.id, lang, project.show(path), whole))
            result.aids += [AidStats(game.id, aid.model.id, aid.kind.name, lang, count(shown_texts(game, aid), table))
                            for aid in aids]
    return result


def complete(game: Game, aid: Aid, catalog: Catalog) -> float:
    return count(shown_texts(game, aid), catalog).complete


# --- aids check -------------------------------------------------------------------------------

def glossary(game: Game, aids: list[Aid], table: Catalog) -> list[checks.Term]:
    """The game's glossary terms (its own and every booklet's), each with its translation in `table`'s
    language."""
    terms = []
    for own in game.glossary:
        msgstr, fuzzy = table.get((own.name.context, own.name.msgid), ("", False))
        terms.append(checks.Term(own.id, own.name.msgid, "" if fuzzy else msgstr, tuple(own.forms)))
    for aid in aids:
        for term in aid.kind.glossary(aid.model):
            msgstr, fuzzy = table.get((term.name.context, term.name.msgid), ("", False))
            terms.append(checks.Term(term.id, term.name.msgid, "" if fuzzy else msgstr, tuple(term.forms)))
    return terms


def check(project: Project, games: list[str] | None, langs: list[str] | None) -> list[tuple[str, checks.Finding]]:
    """(catalog as shown, finding) for every catalog of the chosen games and languages, and the
    package's own (UI) catalogs when this is aids' own tree."""
    found: list[tuple[str, checks.Finding]] = []
    for game_id in select_game_ids(project, games):
        game = project.read_game(game_id)
        aids, _ = read_aids(project, game)
        for lang in langs or project.languages:
            if lang == game.source_language:
                continue
            table, held = read_catalogs(project, game, lang)
            terms = glossary(game, aids, table)
            for path, catalog in held:
                found += _at_msgstr(project, path, checks.check_catalog(catalog, lang, game.source_language, terms))
    if project.ui_domain:  # this tree's own catalogs, which `aids update` keeps (not those of an installed aids)
        for lang in langs or project.languages:
            path = catalogs.po_path(project.catalogs, lang, ui.DOMAIN)
            if lang != ui.SOURCE_LANGUAGE and catalogs.present(project.catalogs, path, project.show(path)):
                catalog = catalogs.read_catalog(path, project.show(path), project.catalogs)
                found += _at_msgstr(project, path, checks.check_catalog(catalog, lang, ui.SOURCE_LANGUAGE, []))
    return found


def over_budget(project: Project, game: Game, aid: Aid, lang: str) -> list[Problem]:
    """The translations in `lang` of the texts `aid` prints that are longer than their budget (`aids budgets`),
    each at its msgstr with its msgctxt and by how much: what a fitted aid that no longer fits in `lang` names."""
    if lang == game.source_language:
        return []
    printed = {(t.context, t.msgid) for t in shown_texts(game, aid)}
    problems = []
    for path, catalog in read_catalogs(project, game, lang)[1]:
        found = []
        for entry in po.entries(catalog):
            over = checks.over_budget(entry) if po.key(entry) in printed and not entry.isfuzzy() else None
            if over is not None:
                length, budget, measured = over
                found.append(checks.Finding(po.line(entry), "length", f"msgctxt '{po.key(entry)[0]}': {length} "
                                            f"characters, {length - budget} over its budget of {budget}",
                                            f"at most {budget} characters, the room {measured or aid.model.id} has "
                                            "for it (aids budgets measures the budgets again)"))
        problems += [Problem(Position(shown, f.line), f.message, f.expected)
                     for shown, f in _at_msgstr(project, path, found)]
    return problems


def _at_msgstr(project: Project, path: Path, found: list[checks.Finding]) -> list[tuple[str, checks.Finding]]:
    """Each finding at the msgstr line of its entry, where the translator fixes it (entries are known by
    their first line, a comment's)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    moved = []
    for finding in found:
        at = finding.line
        while 0 < at <= len(lines) and not lines[at - 1].startswith("msgstr") and finding.line > 1:
            at += 1
        moved.append((project.show(path), replace(finding, line=at if at <= len(lines) else finding.line)))
    return moved


def finding_text(shown: str, finding: checks.Finding) -> str:
    level = "" if finding.error else "warning: "
    return f"{Position(shown, finding.line)}: {level}[{finding.check}] {finding.message} (expected: {finding.expected})"
