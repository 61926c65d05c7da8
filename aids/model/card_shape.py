"""The shape of a referee card source (aids.source.shape): what check_map accepts and the JSON Schema says."""
from __future__ import annotations

from ..source.shape import (
         Case,
         Field,
         Shape,
         choice,
         const,
         flag,
         ident,
         list_of,
         num,
         optional_text,
         scalar,
         string,
         text,
)

KIND = "card"
# Named sizes in millimetres (portrait). Anything else is given as "<width>x<height>" in mm.
SIZES = {"A7": (74, 105), "A6": (105, 148), "A5": (148, 210), "A4": (210, 297),
         "poker": (63, 88), "bridge": (57, 89), "tarot": (70, 120)}
PAPERS = {"A4": (210, 297), "Letter": (215.9, 279.4)}
SIZE_PATTERN = r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$"
FACES = ("front", "back")
NUMBERING = ("decimal", "upper", "lower")
TABLE = "table"  # a section that names a table aid of the game (`table: <id>`) and has no items

_FIELD_VALUES = {"text": text(), "symbol": text("the symbol or die face it explains"),
                 "glyph": {"type": "string", "maxLength": 2, "description": "a character drawn before the symbol"},
                 "points": scalar("a number such as 30, -3, 2.5 or \"+30\""),
                 "penalty": text("the penalty, in order of severity")}
# What each section kind holds per item, besides its id: required fields, then optional ones.
ITEM_FIELDS: dict[str, tuple[list[str], list[str]]] = {
    "rules": (["text"], []),           # bullet rules
    "steps": (["text"], []),           # numbered steps 1., 2. or A., B.
    "legend": (["symbol", "text"], ["glyph"]),  # a symbol or die face -> its meaning
    "scoring": (["points", "text"], []),  # an event -> signed points (+30, −3)
    "ranking": (["points", "text"], []),  # an outcome -> points awarded (3 points, 0 points)
    "ladder": (["penalty", "text"], []),  # ordered penalties: warning, yellow card, ...
    "text": (["text"], []),            # free paragraphs
}
ITEMS = {kind: Shape(f"{kind} item", (Field("id", ident(), True),
                                      *(Field(n, _FIELD_VALUES[n], True) for n in required),
                                      *(Field(n, _FIELD_VALUES[n]) for n in optional)))
         for kind, (required, optional) in ITEM_FIELDS.items()}
KINDS = [*ITEM_FIELDS, TABLE]
SECTION = Shape("section", (
    Field("id", ident(), True), Field("kind", choice(KINDS), True), Field("face", choice(FACES), True,
                                  "the face it is printed on; a section next to the boundary between the faces "
                                  "may move to the other face, if then the card fits a larger type"),
    Field("title", optional_text()), Field("intro", optional_text()),
    Field("items", list_of({}, min_items=1), doc="its items, by the section's kind"),
    Field("note", optional_text()),
    Field("numbering", choice(NUMBERING), doc="steps and ladder sections: 1., A. or a."),
    Field("table", ident("the id of a table of the game")),
), cases=(*(Case((("kind", kind),), require=("items",), values=(("items", list_of(ITEMS[kind], min_items=1)),))
            for kind in ITEM_FIELDS),
          Case((("kind", TABLE),), require=("table",))))
BACK_OFFSET = 10  # mm each way a sheet's backs may be moved: the duplex test page's scales cover it all
SHEET = Shape("sheet", (
    Field("paper", choice(PAPERS)),
    num("gutter", "mm between cards", 0, 50), num("bleed", "mm around the trimmed sheet", 0, 10),
    Field("back_offset", list_of(num("", "mm", -BACK_OFFSET, BACK_OFFSET).value, min_items=2, max_items=2),
          doc="[x, y] in mm the backs are moved by, as the duplex test page reads them"),
), doc="how the cards are laid out on a sheet of paper")
SIGNATURE = Shape("signature", (Field("role", text(), True), Field("name", string(), True),
                                Field("face", choice(FACES))))
SHAPE = Shape(KIND, (
    Field("kind", const(KIND), True), Field("id", ident(), True), Field("title", text(), True),
    Field("subtitle", optional_text()),
    Field("size", {"anyOf": [{"enum": list(SIZES)}, {"type": "string", "pattern": SIZE_PATTERN}]}, True,
          ", ".join(SIZES) + " or <width>x<height> in mm, e.g. 63x88"),
    Field("faces", list_of(choice(FACES), min_items=1, unique=True)),
    num("columns", "columns on a face", 1, 4, integer=True),
    num("font_size", "the designed type size, pt", 4, 36),
    num("min_font_size", "the floor: the smallest type the card may be set in (the build fails below it), pt", 4, 36),
    num("max_font_size", "the largest type the card may grow to, to fill its faces, pt", 4, 48),
    Field("face_labels", flag(), doc='print "Front" and "Back" under the faces'),
    num("margin", "mm", 0, 50), Field("sheet", SHEET),
    Field("sections", list_of(SECTION), True), Field("signature", SIGNATURE),
), doc="A referee card: typed sections on a front and a back face, all set in one type size, the largest that "
       "fits.")
