"""The shape of a table source (aids.source.shape): what check_map accepts and the JSON Schema says."""
from __future__ import annotations

from ..source.shape import AnyOf, Case, Field, Shape, choice, const, ident, list_of, scalar, string, text
from .quantity import UNITS

KIND = "table"
FORMS = ("grid", "modifiers", "bands")
TYPES = ("any", "number", "distance", "text")

WITH = Shape("values", keys=scalar("a number, fraction, percentage or quantity such as 30 cm or 45°"),
             doc="the value of each {q:name} placeholder of the text beside it, as data outside the msgid")
LABEL_WITH = Shape("label", (Field("text", text(), True), Field("with", WITH)),
                   doc="a label with values of its own for its {q:name} placeholders")
LABEL = AnyOf((text(), LABEL_WITH))
CELL = Shape("cell", (Field("text", text(), True), Field("value", scalar()), Field("with", WITH)),
             doc="a cell of text, with the value it stands for")
CELL_VALUE = AnyOf((scalar("a number, range, quantity or text; - for none"), {"type": "null"}, CELL))
COLUMN = Shape("column", (
    Field("id", ident(), True), Field("label", LABEL), Field("key", scalar(), doc="the value it stands for"),
    Field("type", choice(TYPES)), Field("unit", choice(UNITS)), Field("with", WITH)))
ROW = Shape("row", (
    Field("cells", list_of(CELL_VALUE), True, "one a column"), Field("id", ident()), Field("label", LABEL),
    Field("key", scalar(), doc="the value or range it stands for"), Field("with", WITH)))
ITEM = Shape("item", (Field("id", ident(), True), Field("label", LABEL, True), Field("value", CELL_VALUE),
                      Field("with", WITH)))
BAND = Shape("band", (Field("id", ident(), True), Field("range", scalar("4-7, 8+ or 12-"), True),
                      Field("cells", list_of(CELL_VALUE), True, "one a column")))
GROUP = Shape("column group", (Field("label", LABEL, True), Field("from", string(), True),
                               Field("to", string(), True), Field("with", WITH)))
SHAPE = Shape(KIND, (
    Field("kind", const(KIND), True),
    Field("id", ident(), True),
    Field("title", text(), True),
    Field("form", choice(FORMS), doc="grid (the default): columns and rows; modifiers: items; bands: ranges"),
    Field("intro", LABEL), Field("corner", LABEL, doc="the header above the row labels"),
    Field("unit", choice(UNITS)), Field("type", choice(TYPES), doc="the type of its columns (default any)"),
    Field("columns", list_of(COLUMN)), Field("groups", list_of(GROUP)), Field("rows", list_of(ROW)),
    Field("items", list_of(ITEM)), Field("bands", list_of(BAND)), Field("notes", list_of(text())),
    Field("row_keys", choice(("left", "both"))),
), doc="A table: a grid, a list of modifiers or bands of a range; alone or in a playsheet, card or booklet.",
   cases=(Case((("form", "grid"),), require=("columns", "rows"), default=True),
          Case((("form", "bands"),), require=("columns", "bands")),
          Case((("form", "modifiers"),), require=("items",))))
