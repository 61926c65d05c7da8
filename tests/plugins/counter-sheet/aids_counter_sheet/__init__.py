"""A counter sheet: a grid of named counters, each with a value (kind: counter-sheet); and an output format,
`text`: any aid's page as plain text, one line a block (`aids build --format text`).

    kind: counter-sheet
    id: counters
    title: Żetony
    columns: 3
    counters:
      - {id: guard, name: Gwardia, value: 6}
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from aids.config import Edition, Game
from aids.errors import Problems
from aids.kind import Kind
from aids.localize.localizer import Localizer
from aids.model.text import Text, text_at
from aids.render.formats import Document
from aids.render.rendered import Rendered
from aids.source.yamlfile import Source, check_id, check_map


@dataclass
class Counter:
    id: str
    name: Text
    value: Decimal


@dataclass
class CounterSheet:
    id: str
    title: Text
    columns: int
    counters: list[Counter]
    source: Source

    def messages(self) -> Iterator[Text]:
        yield self.title
        yield from (c.name for c in self.counters)


class CounterSheetKind(Kind[CounterSheet]):
    name = "counter-sheet"
    template = "counter-sheet.html"
    template_folder = Path(__file__).parent

    def read(self, src: Source, game: Game | None, problems: Problems) -> CounterSheet | None:
        data = src.data
        if not check_map(src, data, problems, required=["kind", "id", "title", "counters"], optional=["columns"],
                         what="counter sheet"):
            return None
        sheet_id = str(data["id"])
        counters, seen = [], {}
        for i, node in enumerate(data["counters"] if isinstance(data["counters"], list) else []):
            if not check_map(src, node, problems, required=["id", "name", "value"], what="counter",
                             where=src.at(data["counters"], i)) or not check_id(src, node, "id", problems, seen):
                continue
            try:
                value = Decimal(str(node["value"]))
            except InvalidOperation:
                problems.add(src.at(node, "value", value=True), f"'{node['value']}' is not a number", "a number")
                continue
            name = text_at(src, node, "name", f"{sheet_id}/{node['id']}", f"Name of counter {node['id']}", problems)
            counters.append(Counter(str(node["id"]), name, value))
        title = text_at(src, data, "title", f"{sheet_id}/title", "Title of the counter sheet", problems)
        return CounterSheet(sheet_id, title, int(data.get("columns", 3)), counters, src)

    def localize(self, model: CounterSheet, lz: Localizer, edition: Edition | None,
                 rules: Mapping[str, str] | None = None) -> dict[str, Any]:
        return {"title": lz.text(model.title), "columns": model.columns,
                "counters": [{"name": lz.text(c.name), "value": lz.number(c.value)} for c in model.counters]}

    def display_name(self, lz: Localizer) -> str:
        return lz.pgettext("aid kind", "Counter sheet")


KIND = CounterSheetKind()


class _Lines(HTMLParser):
    """The text of a page, a line for each block, without its head, styles and scripts."""
    SKIP = {"head", "style", "script"}
    BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "div", "tr", "td", "th", "section", "header", "footer"}

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = [""]
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.skipping += tag in self.SKIP
        if tag in self.BLOCKS:
            self.lines.append("")

    def handle_endtag(self, tag: str) -> None:
        self.skipping -= tag in self.SKIP

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.lines[-1] += data


class TextFormat:
    """Any aid's page as plain text (`<aid>.txt`): a format of another package, registered through the
    `aids.formats` entry point."""
    name = "text"
    summary = "any aid's page as plain text (<aid>.txt)"

    def render(self, doc: Document) -> dict[str, Rendered]:
        parser = _Lines()
        parser.feed(doc.html)
        lines = [" ".join(line.split()) for line in parser.lines]
        return {".txt": Rendered(("\n".join(line for line in lines if line) + "\n").encode("utf-8"))}


FORMAT = TextFormat()
