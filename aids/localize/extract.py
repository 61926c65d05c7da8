"""Babel extractor for game sources, registered as `aids` under `babel.extractors`:
`pybabel extract -F mapping.cfg` yields the same messages as `aids extract`."""
from __future__ import annotations

from pathlib import Path

from ..errors import AidsError, Problems
from ..model import KINDS
from ..source.yamlfile import load_yaml


def babel_extract(fileobj, keywords, comment_tags, options):
    """Yield (lineno, "pgettext", (msgctxt, msgid), [where it appears]) for every text of a source."""
    name = getattr(fileobj, "name", "source.yaml")
    src = load_yaml(fileobj.read().decode("utf-8"), Path(name), str(name))
    data = src.data
    if not hasattr(data, "get"):
        return
    if Path(name).name == "game.yaml":
        if data.get("title"):
            yield src.at(data, "title", value=True).line, "pgettext", ("game/title", str(data["title"])), \
                ["Title of the game"]
        return
    kind = KINDS.get(str(data.get("kind")))
    if kind is None:
        return
    problems = Problems()
    model = kind.read(src, None, problems)
    if problems:
        raise AidsError(problems.items)
    for text in model.messages():
        yield text.where.line, "pgettext", (text.context, text.msgid), [text.comment]
