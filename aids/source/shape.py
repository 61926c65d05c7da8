"""The shapes of sources: which fields a mapping has, which of them are required, and what each holds.

One declaration serves the readers and the editors. `check_map` takes a Shape for the fields it accepts and
requires; `aids.schemas` turns the same Shapes into JSON Schemas for yaml-language-server (VS Code and others).
A field added to a Shape is known to both; what a schema cannot say (an id that must exist elsewhere, a band
that overlaps another) stays with the reader.
"""
from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Union

JSON = dict[str, Any]
# What a field holds: a JSON Schema fragment (whose "items" or "anyOf" may hold Shapes), a Shape (a mapping),
# one of several, or a function giving one of these (a step holds steps: the shape is named before it is made).
Value = Union[JSON, "Shape", "AnyOf", Callable[[], Any]]
DRAFT = "https://json-schema.org/draft/2020-12/schema"

# An id or a version names a file, a folder and an anchor: ASCII only (no space, no bidi override to disguise
# it) and short enough for every file system (a name is at most 255 bytes) and address.
MAX_ID = 64
ID_CHARS = rf"[a-z0-9][a-z0-9-]{{0,{MAX_ID - 1}}}"
ID_PATTERN = rf"^{ID_CHARS}$"
ID = re.compile(ID_CHARS + r"\Z")  # every id of every source: YAML, a heading's {#id}, a card's section
VERSION_CHARS = rf"[0-9A-Za-z][0-9A-Za-z.+-]{{0,{MAX_ID - 1}}}"
ID_EXPECTED = f"lowercase letters, digits and '-', at most {MAX_ID} of them, e.g. heavy-cavalry"
VERSION_EXPECTED = f"digits, letters, '.', '-' or '+', at most {MAX_ID} of them, e.g. 1.4"


def name_fault(value: Any, what: str, version: bool = False) -> tuple[str, str] | None:
    """(what is wrong, what is expected) when `value` cannot be an id (or a version): None when it can."""
    text = str(value)
    if len(text) > MAX_ID:
        return f"{what} of {len(text)} characters", VERSION_EXPECTED if version else ID_EXPECTED
    if not re.fullmatch(VERSION_CHARS if version else ID_CHARS, text):
        return f"malformed {what} '{text}'", VERSION_EXPECTED if version else ID_EXPECTED
    return None


@dataclass(frozen=True)
class AnyOf:
    """One of several values (a step: plain, repeating or mirrored)."""
    choices: tuple[Value, ...]


@dataclass(frozen=True)
class Field:
    name: str
    value: Value
    required: bool = False
    doc: str = ""
    low: float | None = None  # for numbers: the range the reader accepts, from this declaration
    high: float | None = None
    integer: bool = False  # for numbers: whole numbers only


@dataclass(frozen=True)
class Case:
    """A condition on the mapping's own fields (`when`: field -> const) that requires fields or narrows values.
    `default`: the case also holds when the field is absent (a table without `form:` is a grid)."""
    when: tuple[tuple[str, Any], ...]
    require: tuple[str, ...] = ()
    values: tuple[tuple[str, Value], ...] = ()
    default: bool = False


@dataclass(frozen=True, eq=False)
class Shape:
    """A mapping: its fields (no others), or with `keys`, any key holding that value (`with:`, `print: games:`)."""
    what: str  # how messages name it: "card", "phase", "checklist item"
    fields: tuple[Field, ...] = ()
    doc: str = ""
    keys: Value | None = None
    key_pattern: str | None = None
    cases: tuple[Case, ...] = ()
    _index: dict[str, Field] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        self._index.update((f.name, f) for f in self.fields)

    @property
    def required(self) -> list[str]:
        return [f.name for f in self.fields if f.required]

    @property
    def names(self) -> list[str]:
        return [f.name for f in self.fields]

    def __getitem__(self, name: str) -> Field:
        return self._index[name]


# -- values -----------------------------------------------------------------------------------------------

def text(doc: str = "") -> JSON:
    """Translatable text: a non-empty scalar (a number or a date YAML reads is taken as written)."""
    return _doc({"type": ["string", "number"], "minLength": 1}, doc or "text, translated through the catalogs")


def optional_text(doc: str = "") -> JSON:
    """Translatable text that may be left blank or empty (then there is none)."""
    return _doc({"type": ["string", "number", "null"]}, doc or "text, translated through the catalogs")


def string(doc: str = "", pattern: str | None = None) -> JSON:
    return _doc({"type": "string", **({"pattern": pattern} if pattern else {})}, doc)


def scalar(doc: str = "") -> JSON:
    """A number or a text such as 30 cm, 1/2, +3, 4-7 (the reader says what it must be)."""
    return _doc({"type": ["string", "number"]}, doc)


def ident(doc: str = "") -> JSON:
    return _doc({"anyOf": [{"type": "string", "pattern": ID_PATTERN}, {"type": "integer", "minimum": 0}]},
                doc or "an id: lowercase letters, digits and '-', stable (translations follow it)")


def number(doc: str = "", *, integer: bool = False) -> JSON:
    return _doc({"type": "integer" if integer else "number"}, doc)


def flag(doc: str = "") -> JSON:
    return _doc({"type": "boolean"}, doc)


def choice(values: Iterable[Any], doc: str = "") -> JSON:
    return _doc({"enum": list(values)}, doc)


def const(value: Any) -> JSON:
    return {"const": value}


def list_of(value: Value, doc: str = "", *, min_items: int = 0, max_items: int | None = None,
            unique: bool = False) -> JSON:
    out: JSON = {"type": "array", "items": value}
    if min_items:
        out["minItems"] = min_items
    if max_items is not None:
        out["maxItems"] = max_items
    if unique:
        out["uniqueItems"] = True
    return _doc(out, doc)


def one_or_list(value: JSON, doc: str = "") -> JSON:
    """One value, or a list of them (`see: rule:18.0` or `see: [rule:18.0, 4.2]`)."""
    return _doc({"anyOf": [value, {"type": "array", "items": value}]}, doc)


def date(doc: str = "") -> JSON:
    return _doc({"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}, doc or "a date, YYYY-MM-DD")


def _doc(schema: JSON, doc: str) -> JSON:
    return {**schema, "description": doc} if doc else schema


def num(name: str, doc: str, low: float, high: float, *, integer: bool = False, required: bool = False) -> Field:
    """A number field whose range the reader takes from here."""
    schema = number(doc, integer=integer)
    return Field(name, {**schema, "minimum": low, "maximum": high}, required, doc, low, high, integer)


# -- data as JSON (what an editor validates) ---------------------------------------------------------------

def plain(data: Any) -> Any:
    """YAML data as JSON data: mappings with text keys, dates as the text they were written as."""
    if isinstance(data, Mapping):
        return {str(k): plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [plain(v) for v in data]
    if isinstance(data, (datetime.date, datetime.datetime)):
        return data.isoformat()
    return data


def slug(what: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", what.lower()).strip("-")


# -- JSON Schema ------------------------------------------------------------------------------------------

def json_schema(root: Shape, title: str, doc: str = "") -> JSON:
    """The JSON Schema (draft 2020-12) of a file whose top is `root`; every other Shape under $defs."""
    defs: dict[str, JSON] = {}
    names: dict[int, str] = {}
    body = _shape(root, defs, names)
    out: JSON = {"$schema": DRAFT, "title": title}
    if doc:
        out["description"] = doc
    out.update(body)
    if defs:
        out["$defs"] = dict(sorted(defs.items()))
    return out


def _value(value: Any, defs: dict[str, JSON], names: dict[int, str]) -> Any:
    if callable(value) and not isinstance(value, (Shape, AnyOf)):
        value = value()
    if isinstance(value, Shape):
        name = names.get(id(value))
        if name is None:
            name = slug(value.what)
            while name in defs:
                name += "-"
            names[id(value)] = name
            defs[name] = {}  # taken before it is filled: a shape that holds itself refers to it
            defs[name] = _shape(value, defs, names)
        return {"$ref": f"#/$defs/{name}"}
    if isinstance(value, AnyOf):
        return {"anyOf": [_value(c, defs, names) for c in value.choices]}
    if isinstance(value, dict):
        return {k: (_value(v, defs, names) if k in ("items", "additionalProperties") else
                    [_value(c, defs, names) for c in v] if k == "anyOf" else v) for k, v in value.items()}
    return value


def _shape(shape: Shape, defs: dict[str, JSON], names: dict[int, str]) -> JSON:
    out: JSON = {"type": "object"}
    if shape.doc:
        out["description"] = shape.doc
    if shape.keys is not None:
        out["additionalProperties"] = _value(shape.keys, defs, names)
        if shape.key_pattern:
            out["propertyNames"] = {"pattern": shape.key_pattern}
        return out
    out["properties"] = {f.name: _described(_value(f.value, defs, names), f.doc) for f in shape.fields}
    out["additionalProperties"] = False
    if shape.required:
        out["required"] = shape.required
    cases = []
    for case in shape.cases:
        when: JSON = {"properties": {k: {"const": v} for k, v in case.when}}
        if not case.default:
            when["required"] = [k for k, _ in case.when]
        then: JSON = {}
        if case.require:
            then["required"] = list(case.require)
        if case.values:
            then["properties"] = {k: _value(v, defs, names) for k, v in case.values}
        cases.append({"if": when, "then": then})
    if cases:
        out["allOf"] = cases
    return out


def _described(schema: Any, doc: str) -> Any:
    if doc and isinstance(schema, dict) and "description" not in schema and "$ref" not in schema:
        return {**schema, "description": doc}
    return schema
