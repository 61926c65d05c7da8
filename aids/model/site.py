"""The web site of a project's output folder as aids.yaml declares it (`site:`): its title, languages and games."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import Problems
from ..source.shape import ID, ID_PATTERN, AnyOf, Field, Shape, list_of, string
from ..source.yamlfile import Source, check_map, is_text


@dataclass(frozen=True)
class Site:
    """The web site of the output folder (`site:` in aids.yaml): its title, the languages and games it lists."""
    title: dict[str, str] = field(default_factory=dict)  # language -> title ("*": every language); none: the default
    languages: tuple[str, ...] = ()  # in the switcher's order, the first the site's home page; () for every language
    games: tuple[str, ...] = ()  # in the index's order; () for every game, by id


SITE_TITLE = Shape("site title", keys={**string("the title in this language"), "minLength": 1},
                   key_pattern=r"^[A-Za-z]{2,3}([_-].+)?$", doc="the title per language: {pl: Zasady, en: Rules}")
SITE = Shape("site", (
    Field("title", AnyOf(({**string("the title in every language"), "minLength": 1}, SITE_TITLE)),
          doc="the title of the index pages: one text, or one per language (default: Rules and aids, translated)"),
    Field("languages", list_of(string(), min_items=1, unique=True),
          doc="the languages the site lists, in this order, the first the home page's (default: every language)"),
    Field("games", list_of(string(pattern=ID_PATTERN), min_items=1, unique=True),
          doc="the games the index lists, in this order (default: every game, by id)"),
), doc="the web site of the output folder: build/index.html and a page per game and language")


def read_site(src: Source, data: Any, languages: list[str], is_game: Callable[[str], bool], problems: Problems) -> Site:
    """`site: {title: Rules, languages: [en, pl], games: [gcacw]}`: every language one of `languages`, every
    game a folder of the games holding a game.yaml."""
    node = data.get("site")
    if node is None or not check_map(src, node, problems, SITE, where=src.at(data, "site", value=True)):
        return Site()
    title: dict[str, str] = {}
    given = node.get("title")
    if is_text(given):
        title["*"] = str(given).strip()
    elif isinstance(given, dict):
        for lang, value in given.items():
            if str(lang) not in languages:
                problems.add(src.at(given, lang), f"site title in '{lang}', which is not a language of the project",
                             ", ".join(languages))
            elif not is_text(value) or "\n" in str(value).strip():
                problems.add(src.at(given, lang, value=True), f"the site title in '{lang}' is not one line of text",
                             f"{lang}: Rules and aids")
            else:
                title[str(lang)] = str(value).strip()
    elif given is not None:
        problems.add(src.at(node, "title", value=True), "the site title must be a text or one per language",
                     "title: Rules and aids, or title: {pl: Zasady, en: Rules}")
    return Site(title, _site_list(src, node, "languages", lambda v: v in languages, ", ".join(languages), problems),
                _site_list(src, node, "games", lambda v: bool(ID.match(v)) and is_game(v),
                           "the id of a game (a folder of the games holding a game.yaml)", problems))


def _site_list(src: Source, node: Any, key: str, known: Any, expected: str, problems: Problems) -> tuple[str, ...]:
    """`site: {languages: [...]}` or `{games: [...]}`: known names, each once (none given: every one)."""
    values = node.get(key)
    if values is None:
        return ()
    if not isinstance(values, list) or not values:
        problems.add(src.at(node, key, value=True), f"site {key} must be a list", f"{key}: [...]: {expected}")
        return ()
    found: list[str] = []
    for i, value in enumerate(values):
        if not isinstance(value, str) or not known(value):
            problems.add(src.at(values, i), f"unknown {key[:-1]} '{value}' in site {key}", expected)
        elif value in found:
            problems.add(src.at(values, i), f"{key[:-1]} '{value}' is listed twice in site {key}", "each once")
        else:
            found.append(value)
    return tuple(found)

