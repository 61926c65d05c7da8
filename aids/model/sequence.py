"""The phase sequence (sequence of play) as a model: sides and roles, numbered phases, steps, sub-steps, mirrors and
references. Read from a source by `sequence_source`, its steps by `sequence_steps`."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..source.shape import (
    AnyOf,
    Field,
    Shape,
    choice,
    const,
    flag,
    ident,
    list_of,
    one_or_list,
    optional_text,
    scalar,
    string,
    text,
)
from ..source.yamlfile import Source
from .quantity import QUANTITY, Value
from .text import CASES, Text

KIND = "sequence"
ROMAN = r"(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
# rule:18.0, rule:7.3.2, rule:XIII, rule:V.2: a rule outside the aid, by its number in the rule book
RULE = re.compile(rf"rule:((?:\d+|{ROMAN})(?:\.\d+)*)\Z")
# chapter:V, chapter:13: a chapter of the rule book
CHAPTER = re.compile(rf"chapter:(\d+|{ROMAN})\Z")
BOTH = "both"
MAX_DEPTH = 3  # steps 1., sub-steps a., sub-sub-steps i.: levels of `numbering:` (phases are numbered by section)
LEVELS = ("the step (1., 2., ...)", "the sub-step", "the sub-sub-step")
SIMULTANEOUS, ALTERNATE = "simultaneous", "alternate"
# A sample label per level: the style of its numbers (1 decimal, a/A letters, i/I roman) and its delimiters
NUMBERING = re.compile(r"(?:(\()([1aAiI])\)|([1aAiI])([.)]?))\Z")
# each language's letters (а, б in Russian), the source language's in every one, or Latin a, b in every one
LETTERS = ("language", "source", "latin")
TIMING_STYLES = ("label", "dash")  # timing beside the title as a small label, or "Title – timing" as the source sets it
# Placeholders of a sequence's texts, and those of a phase title (no references in a heading)
KINDS = ("ref", "see", "num", "date", "side", QUANTITY)
TITLE_KINDS = ("num", "date", "side")

# -- the shape of a source (aids.source.shape: what check_map accepts and the JSON Schema says) --------------
WITH = Shape("values", keys=scalar("a number, fraction, percentage or quantity such as 30 cm or 45°"),
             doc="the value of each {q:name} placeholder of the texts beside it, as data outside the msgid")
SEE = one_or_list(string(), "what to read next: phase-id, phase-id/step-id, rule:<number> or chapter:<number>")
ACTOR = string("the side or role that acts in the step (an id under sides:)")
FORMS = Shape("forms", tuple(Field(case, text(), doc=f"the name in the {name} ({{side:id|{case}}})")
                             for case, name in CASES.items()),
              doc="the name in each grammatical case a text may ask for, as the source language says it "
                  "(in English, the name itself); each translated as a form of its own")
SIDE = Shape("side", (
    Field("id", ident(), True),
    Field("name", text(), True, "its name, translated once"),
    Field("forms", FORMS),
    Field("role", flag(), doc="true: a role (the phasing player), not a side"),
    Field("opposite", string(), doc="the side or role a mirror puts in its place"),
))
PHASE_TEXT = Shape("phase text", (Field("id", ident(), True), Field("text", text(), True), Field("with", WITH)),
                   doc="a note or rule to the whole phase")
BULLET = Shape("bullet", (Field("id", ident(), True), Field("text", text(), True), Field("with", WITH)),
               doc="an item of a step's unordered list: conditions with no order among them")
STEP = Shape("step", (
    Field("id", ident(), True),
    Field("text", text(), True),
    Field("actor", ACTOR),
    Field("with", WITH),
    Field("note", optional_text(), doc="a note under the step"),
    Field("see", SEE),
    Field("steps", list_of(lambda: _any_step()), doc="its sub-steps"),
    Field("bullets", list_of(BULLET), doc="an unordered (bullet) list after its text, before its note and sub-steps"),
))
REPEAT_STEP = Shape("repeating step", (
    STEP["id"],
    Field("repeats", one_or_list(string()), True, "the steps it repeats: phase-id/step-id, ..."),
    Field("other_side", flag(), doc="true: repeated by the other side"),
    Field("text", text(), doc="what it says before the repeated steps"),
    *(STEP[name] for name in ("actor", "with", "note", "see")),
))
MIRROR_STEP = Shape("mirrored step", (Field("id", ident(), True), Field("mirror_of", string(), True, (
    "the id path of a step whose text, actor and sub-steps it takes with the sides swapped"))))
ANY_STEP = AnyOf((STEP, REPEAT_STEP, MIRROR_STEP))


def _any_step() -> AnyOf:
    return ANY_STEP


PHASE = Shape("phase", (
    Field("id", ident(), True),
    Field("title", optional_text()),
    Field("side", string(), doc=f"the side it belongs to (an id under sides:, or {BOTH})"),
    Field("timing", string(), doc=f"{SIMULTANEOUS}, {ALTERNATE}, or the id of the side that acts first"),
    Field("steps", list_of(ANY_STEP)),
    Field("mirror_of", string(), doc="a phase it repeats with the sides swapped"),
    Field("notes", list_of(PHASE_TEXT)),
    Field("rules", list_of(PHASE_TEXT)),
    Field("notes_position", choice(("before", "after"))),
    Field("see", SEE),
    Field("see_text", text("a reference in the source's own words, printed as typed where see: prints, e.g. "
                           "'(in detail, see {ref:chapter:VI|acc})'; translated")),
))
LETTERS_VALUE = {"anyOf": [choice(LETTERS), {
    "type": "object", "propertyNames": {"pattern": r"^[a-z]{2,3}([_-][A-Za-z0-9]+)*$"},
    "additionalProperties": choice(LETTERS)}],
    "description": "language: each language's letters; source: the source's in every one; latin: a, b, c in every "
                   "one; or per language, e.g. {ru: latin} (a language not named: language)"}
SHAPE = Shape(KIND, (
    Field("kind", const(KIND), True),
    Field("id", ident(), True),
    Field("title", optional_text("none: the sequence prints no heading; its page is named by its kind")),
    Field("phases", list_of(PHASE), True),
    Field("section", {"type": ["string", "number"], "pattern": r"^\d+(\.\d+)*$"},
          doc="the number of its section in the rules, e.g. 3.2"),
    Field("sides", list_of(SIDE)),
    Field("numbering", list_of(string(), min_items=1, max_items=MAX_DEPTH),
          doc='a sample label per level of steps: ["1.", "a)", "(i)"] labels steps 1., sub-steps a), '
              'sub-sub-steps (i); phases are numbered by section, not here; no more labels than levels used'),
    Field("letters", LETTERS_VALUE),
    Field("note_label", flag(), doc='false: notes print without "Note:" before them (the default: true)'),
    Field("timing_style", choice(TIMING_STYLES),
          doc='label (the default): the timing beside the title, small; dash: "Title – timing" as one heading'),
), doc="A sequence of play: phases, steps and sub-steps, numbered and cross-referenced.")


@dataclass
class Side:
    """A side (Russians) or a role (the phasing player), named in the reader's language."""
    id: str
    name: Text
    role: bool = False
    opposite: str | None = None  # the side or role a mirror puts in its place
    forms: dict[str, Text] = field(default_factory=dict)  # case (gen, ...) -> the name in that case


@dataclass(frozen=True)
class Numbering:
    """How one level of steps is labelled: `style` 1, a, A, i or I between `before` and `after` ("(", "a", ")")."""
    style: str
    before: str = ""
    after: str = "."


DEFAULT_NUMBERING = (Numbering("1"), Numbering("a"), Numbering("i"))  # 1., a., i.


@dataclass
class Step:
    id: str
    path: str  # phase-id/step-id/...: the stable id path, also the msgctxt
    index: tuple[int, ...]  # 1-based position at each level below the phase
    text: Text | None  # None: a step that only repeats others
    note: Text | None
    see: list[str]
    steps: list[Step] = field(default_factory=list)
    bullets: list[PhaseText] = field(default_factory=list)  # its unordered list, printed after its text
    actor: str | None = None  # the side or role that acts, printed as a lead-in
    values: dict[str, Value] = field(default_factory=dict)  # {q:name} values of its text and note
    mirror_of: Step | None = None  # a generated step: the other step's text with the sides swapped
    swapped: bool = False  # inside a mirror: its {side:...} and actor are the other side's
    repeats: list[str] = field(default_factory=list)  # targets (earlier phases or steps) it repeats
    other_side: bool = False  # ... for the other side


@dataclass
class Phase:
    id: str
    index: int
    title: Text | None  # None: its number only, printed beside its text (templates/aids.css)
    side: str | None  # a side id or BOTH, as declared; None: no side label
    steps: list[Step]
    mirror_of: Phase | None = None
    timing: str | None = None  # SIMULTANEOUS, ALTERNATE or the id of the side that acts first
    notes: list[PhaseText] = field(default_factory=list)  # notes for the whole phase ("Note: ...")
    rules: list[PhaseText] = field(default_factory=list)  # rules for the whole phase
    notes_before: bool = False  # notes and rules printed before its steps (after them by default)
    see: list[str] = field(default_factory=list)
    see_text: Text | None = None  # a reference in the source's own words, printed where `see` prints


@dataclass
class PhaseText:
    """A note or rule of a whole phase, or an item of a step's list, with the values of its {q:name} placeholders."""
    text: Text
    values: dict[str, Value] = field(default_factory=dict)


@dataclass
class Sequence:
    id: str
    title: Text | None  # None: no heading; named by its kind where a name is needed (Kind.title_of)
    section: str
    sides: list[Side]
    phases: list[Phase]
    source: Source
    numbering: list[Numbering] = field(default_factory=lambda: list(DEFAULT_NUMBERING))
    letters: dict[str, str] = field(default_factory=dict)  # language ("*": any other) -> one of LETTERS
    note_label: bool = True  # "Note:" before each note
    timing_style: str = TIMING_STYLES[0]
    kind: str = KIND
    icons: dict | None = None  # the game's icon set, for checking {icon:<id>} (model/icons.py); None: no game

    def letters_of(self, lang: str) -> str:
        """Whose letters label the steps in `lang`: language, source or latin."""
        return self.letters.get(lang, self.letters.get("*", LETTERS[0]))

    def number(self, phase: Phase) -> str:
        return f"{self.section}.{phase.index}" if self.section else str(phase.index)

    def find(self, target: str) -> Phase | Step | None:
        head, *rest = target.split("/")
        node: Any = next((p for p in self.phases if p.id == head), None)
        for part in rest:
            node = next((s for s in getattr(node, "steps", []) if s.id == part), None)
        return node

    def anchors(self) -> list[str]:
        """The HTML ids its page uses: phase ids and step paths (a booklet embedding it checks for clashes)."""
        return [path_of(node) for node in self.nodes()]

    def nodes(self) -> Iterator[Phase | Step]:
        """Every phase followed by its steps, sub-steps and sub-sub-steps, in the order they are printed."""
        for phase in self.phases:
            yield phase
            yield from walk(phase.steps)

    def side(self, side_id: str) -> Side | None:
        return next((s for s in self.sides if s.id == side_id), None)

    def other(self, side_id: str | None) -> str | None:
        """The side or role a mirror puts in place of `side_id`: its declared opposite, else the other of
        exactly two sides (or two roles); `both`, a timing and no side stay as they are."""
        side = self.side(side_id) if side_id else None
        if side is None:
            return side_id
        if side.opposite:
            return side.opposite
        declared = next((s.id for s in self.sides if s.opposite == side.id), None)
        if declared:
            return declared
        peers = [s.id for s in self.sides if s.role == side.role]
        if len(peers) == 2:
            return peers[1] if peers[0] == side.id else peers[0]
        return side_id

    def steps(self) -> Iterator[Step]:
        """Every step, sub-step and sub-sub-step in the order they are printed."""
        for phase in self.phases:
            yield from walk(phase.steps)

    def messages(self) -> Iterator[Text]:
        if self.title is not None:
            yield self.title
        for side in self.sides:
            yield side.name
            yield from side.forms.values()
        for phase in self.phases:
            yield from (t for t in (phase.title, phase.see_text) if t is not None)
            yield from (t.text for t in phase.rules)
            yield from (t.text for t in phase.notes)
            for step in walk(phase.steps):
                if not step.swapped:  # a mirror's texts are those of the step it mirrors
                    yield from (t for t in (step.text, *(b.text for b in step.bullets), step.note) if t is not None)


def path_of(node: Phase | Step) -> str:
    """The stable id path of a phase or step: its anchor, and how references name it."""
    return node.id if isinstance(node, Phase) else node.path


def walk(steps: list[Step]) -> Iterator[Step]:
    for step in steps:
        yield step
        yield from walk(step.steps)


def numbering_of(sample: str) -> Numbering | None:
    m = NUMBERING.match(sample)
    if not m:
        return None
    return Numbering(m.group(2), "(", ")") if m.group(1) else Numbering(m.group(3), "", m.group(4))
