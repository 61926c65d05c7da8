"""Starting points: `aids init` writes a project that builds at once, translated (`project`); `aids new` adds
one aid of a kind from a template to a game (`aid`).

The texts of both are in `texts.yaml`, each in every language of `STARTER`; the templates (`templates/`)
hold `${name}`: a text of texts.yaml (its key has a dot), written in the language asked, or a value such as
`${id}` given by the caller. In a YAML template a text is written as a YAML scalar, quoted when it must be.
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from ...errors import AidsError, Position, Problem
from ...source.shape import name_fault

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STARTER = ("en", "pl", "ru")  # the languages the starter texts are written in
FALLBACK = "en"  # the language of the texts for a source language outside STARTER
# kind -> its template; a booklet's first chapter is CHAPTER, beside it in a folder of its own
KINDS = {"sequence": "sequence.yaml", "table": "table.yaml", "playsheet": "playsheet.yaml", "card": "card.yaml",
         "booklet": "booklet.yaml"}
CHAPTER = "introduction.md"
SCHEMAS = "schemas"  # the folder aids.schemas.write_schemas fills
_NAME = re.compile(r"\$\{([a-z0-9._-]+)\}")
COMMAND_LINE = Position("command line")


@functools.lru_cache(maxsize=1)
def texts() -> dict[str, dict[str, str]]:
    """key -> {language: text}, every key in every language of STARTER."""
    data = YAML(typ="safe").load((HERE / "texts.yaml").read_text(encoding="utf-8"))
    return {str(key): {str(lang): str(text) for lang, text in value.items()} for key, value in data.items()}


def text_language(lang: str) -> str:
    """The language the texts are written in for a source language: itself, or English outside STARTER."""
    return lang if lang in STARTER else FALLBACK


def translations_of(source: str, lang: str) -> dict[str, str]:
    """msgid -> msgstr for a catalog of `lang` of texts written in `source` (empty outside STARTER)."""
    if lang not in STARTER:
        return {}
    written = text_language(source)
    return {by_lang[written]: by_lang[lang] for by_lang in texts().values()}


def render(template: str, lang: str, values: dict[str, str]) -> str:
    """A template with its `${name}`s filled: values as they are, texts in `lang` (YAML scalars in a .yaml)."""
    raw = (TEMPLATES / template).read_text(encoding="utf-8")
    as_yaml = template.endswith(".yaml")

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in values:
            return values[name]
        text = texts()[name][text_language(lang)]
        return scalar(text) if as_yaml else text
    return _NAME.sub(fill, raw)


def scalar(text: str) -> str:
    """`text` as a YAML scalar that reads back as itself in a block or a flow: plain when it can be, else quoted."""
    def reads_back(document: str, expected: object) -> bool:
        try:
            return bool(YAML(typ="safe").load(document) == expected)
        except YAMLError:
            return False
    if text.strip() == text and all(reads_back(doc, want) for doc, want in (
            (f"k: {text}\n", {"k": text}), (f"[{text}]\n", [text]), (f"{{k: {text}}}\n", {"k": text}))):
        return text
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def with_modeline(name: str, root: Path, path: Path, text: str) -> str:
    """The text of a YAML source with the editor's schema line first (aids.schemas.modeline)."""
    from ...kinds import schemas
    return schemas.modeline(name, root, path) + "\n" + text


def check_id(value: str, what: str) -> None:
    fault = name_fault(value, what)
    if fault:
        raise AidsError(Problem(COMMAND_LINE, *fault))
