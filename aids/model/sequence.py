"""The phase sequence (sequence of play): numbered phases, steps, sub-steps, mirrors and references."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import Position, Problems
from ..source.yamlfile import Source, check_id, check_map, is_text
from .text import Text, as_date, as_number, optional_text_at, placeholders_at, roman, text_at

KIND = "sequence"
ROMAN = r"(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
# rule:18.0, rule:7.3.2, rule:XIII, rule:V.2: a rule outside the aid, by its number in the rule book
RULE = re.compile(rf"rule:((?:\d+|{ROMAN})(?:\.\d+)*)\Z")
# chapter:V, chapter:13: a chapter of the rule book
CHAPTER = re.compile(rf"chapter:(\d+|{ROMAN})\Z")
BOTH = "both"
MAX_DEPTH = 3  # steps 1., sub-steps a., sub-sub-steps i.
STEP_FIELDS = ["id", "text", "note", "see", "steps"]
PHASE_FIELDS = ["id", "title", "side", "timing", "steps", "mirror_of", "notes", "notes_position", "see"]
SIMULTANEOUS, ALTERNATE = "simultaneous", "alternate"


@dataclass
class Side:
    id: str
    name: Text


@dataclass
class Step:
    id: str
    path: str  # phase-id/step-id/...: the stable id path, also the msgctxt
    index: tuple[int, ...]  # 1-based position at each level below the phase
    text: Text
    note: Text | None
    see: list[str]
    steps: list[Step] = field(default_factory=list)


@dataclass
class Phase:
    id: str
    index: int
    title: Text | None  # None: the phase is printed by its number only
    side: str | None  # a side id or BOTH, as declared; None: no side label
    steps: list[Step]
    mirror_of: Phase | None = None
    timing: str | None = None  # SIMULTANEOUS, ALTERNATE or the id of the side that acts first
    notes: list[Text] = field(default_factory=list)  # rules and notes for the whole phase
    notes_before: bool = False  # printed before its steps (after them by default)
    see: list[str] = field(default_factory=list)


@dataclass
class Sequence:
    id: str
    title: Text
    section: str
    sides: list[Side]
    phases: list[Phase]
    source: Source
    kind: str = KIND

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
        out = []
        for phase in self.phases:
            out.append(phase.id)
            stack = list(phase.steps)
            while stack:
                step = stack.pop()
                out.append(step.path)
                stack.extend(step.steps)
        return out

    def side(self, side_id: str) -> Side | None:
        return next((s for s in self.sides if s.id == side_id), None)

    def messages(self) -> Iterator[Text]:
        yield self.title
        for side in self.sides:
            yield side.name
        for phase in self.phases:
            if phase.title:
                yield phase.title
            yield from phase.notes
            yield from _step_messages(phase.steps)


def _step_messages(steps: list[Step]) -> Iterator[Text]:
    for step in steps:
        yield step.text
        if step.note:
            yield step.note
        yield from _step_messages(step.steps)


# --- reading -----------------------------------------------------------------------------------

def read(src: Source, game, problems: Problems) -> Sequence | None:
    data = src.data
    if not check_map(src, data, problems, required=["kind", "id", "title", "phases"],
                     optional=["section", "sides"], what="sequence"):
        return None
    aid_id = str(data["id"])
    check_id(src, data, "id", problems)
    section = str(data.get("section") or "")
    if section and not re.fullmatch(r"\d+(\.\d+)*", section):
        problems.add(src.at(data, "section", value=True), f"section '{section}' is not a number",
                     "a section number such as 3.2")
    title = _text(src, data, "title", aid_id, "Title of the sequence of play", problems)
    sides = _read_sides(src, data.get("sides") or [], aid_id, problems)
    phases: list[Phase] = []
    raw_phases = data["phases"]
    if not isinstance(raw_phases, list):
        problems.add(src.at(data, "phases", value=True), "phases must be a list", "- id: ...")
        return None
    seen: dict[str, int] = {}
    mirrors: list[tuple[Phase, Any]] = []
    for i, node in enumerate(raw_phases, start=1):
        if not check_map(src, node, problems, required=["id"], optional=PHASE_FIELDS[1:],
                         what="phase", where=src.at(raw_phases, i - 1)):
            continue
        pid = str(node["id"])
        if not check_id(src, node, "id", problems, seen, "phase"):
            continue
        where = f"Title of phase {pid}"
        phase = Phase(pid, i, optional_text_at(src, node, "title", f"{aid_id}/{pid}", where, problems), None, [])
        phase.timing = _read_timing(src, node, sides, problems)
        _read_phase_notes(src, node, phase, f"{aid_id}/{pid}", problems)
        if "mirror_of" in node:
            for key in ("steps", "side", "timing"):
                if key in node:
                    problems.add(src.at(node, key), f"a mirrored phase has no '{key}' of its own",
                                 "only id, title and mirror_of")
            mirrors.append((phase, node))
        else:
            phase.side = _read_side(src, node, sides, problems)
            phase.steps = _read_steps(src, node, f"{aid_id}/{pid}", pid, (), problems)
        phases.append(phase)
    seq = Sequence(aid_id, title, section, sides, phases, src)
    mirror_ids = {phase.id for phase, _ in mirrors}
    for phase, node in mirrors:
        _resolve_mirror(src, seq, phase, node, mirror_ids, problems)
    _check_references(src, data, seq, problems)
    return seq



def _text(src: Source, node, key: str, context: str, comment: str, problems: Problems) -> Text:
    return text_at(src, node, key, context, comment, problems)


def _read_sides(src, raw, aid_id, problems) -> list[Side]:
    sides: list[Side] = []
    if not isinstance(raw, list):
        problems.add(src.at(raw), "sides must be a list", "- id: ...\n  name: ...")
        return sides
    seen: dict[str, int] = {}
    for i, node in enumerate(raw):
        if check_map(src, node, problems, required=["id", "name"], what="side", where=src.at(raw, i)) \
                and check_id(src, node, "id", problems, seen, "side"):
            if node["id"] == BOTH:
                problems.add(src.at(node, "id", value=True), f"'{BOTH}' is reserved", "another side id")
            sides.append(Side(str(node["id"]), _text(src, node, "name", f"{aid_id}/side/{node['id']}",
                                                      "Name of a side, shown beside the phases it acts in", problems)))
    return sides


def _read_side(src, node, sides: list[Side], problems) -> str | None:
    """The side a phase belongs to, printed beside its title: only when declared."""
    if "side" not in node:
        return None
    side = str(node["side"])
    if side != BOTH and side not in {s.id for s in sides}:
        problems.add(src.at(node, "side", value=True), f"unknown side '{side}'",
                     ", ".join([BOTH] + [s.id for s in sides]))
        return None
    return side


def _read_phase_notes(src, node, phase: Phase, ctx: str, problems) -> None:
    """`notes:` (each `id` and `text`), where they go (`notes_position: before | after`), and `see:`."""
    raw = node.get("notes") or []
    if not isinstance(raw, list):
        problems.add(src.at(node, "notes", value=True), "notes must be a list", "- id: ...\n  text: ...")
        raw = []
    seen: dict[str, int] = {}
    for i, child in enumerate(raw):
        if check_map(src, child, problems, required=["id", "text"], what="phase note", where=src.at(raw, i)) \
                and check_id(src, child, "id", problems, seen, "note"):
            phase.notes.append(_text(src, child, "text", f"{ctx}/notes/{child['id']}",
                                     f"Note to the whole of phase {phase.id}", problems))
    position = node.get("notes_position", "after")
    if position not in ("before", "after"):
        problems.add(src.at(node, "notes_position", value=True), f"unknown notes_position '{position}'",
                     "before, after")
    phase.notes_before = position == "before"
    see = node.get("see") or []
    if not isinstance(see, list):
        problems.add(src.at(node, "see", value=True), "see must be a list of targets", '["rule:18.0"]')
        see = []
    phase.see = [str(t) for t in see]


def _read_timing(src, node, sides: list[Side], problems) -> str | None:
    """How the players act in a phase: at once, by turns, or one side first."""
    if "timing" not in node:
        return None
    timing = str(node["timing"])
    if timing not in (SIMULTANEOUS, ALTERNATE) and timing not in {s.id for s in sides}:
        problems.add(src.at(node, "timing", value=True), f"unknown timing '{timing}'",
                     ", ".join([SIMULTANEOUS, ALTERNATE] + [s.id for s in sides]))
        return None
    return timing


def _read_steps(src, node, ctx: str, phase_id: str, index: tuple, problems) -> list[Step]:
    raw = node.get("steps") or []
    if not isinstance(raw, list):
        problems.add(src.at(node, "steps", value=True), "steps must be a list", "- id: ...\n  text: ...")
        return []
    if raw and len(index) >= MAX_DEPTH:
        problems.add(src.at(node, "steps"), f"steps nested deeper than {MAX_DEPTH} levels",
                     "steps, sub-steps and sub-sub-steps")
        return []
    steps: list[Step] = []
    seen: dict[str, int] = {}
    for i, child in enumerate(raw, start=1):
        if not check_map(src, child, problems, required=["id", "text"], optional=STEP_FIELDS[2:],
                         what="step", where=src.at(raw, i - 1)):
            continue
        if not check_id(src, child, "id", problems, seen, "step"):
            continue
        sid = str(child["id"])
        path = f"{ctx.split('/', 1)[1]}/{sid}"
        label = _label(index + (i,))
        comment = f"Step {label} of phase {phase_id}"
        note = _text(src, child, "note", f"{ctx}/{sid}/note", f"Note to step {label} of phase {phase_id}", problems) \
            if is_text(child.get("note")) else None
        see = child.get("see") or []
        if not isinstance(see, list):
            problems.add(src.at(child, "see", value=True), "see must be a list of targets", '["rule:18.0"]')
            see = []
        step = Step(sid, path, index + (i,), _text(src, child, "text", f"{ctx}/{sid}", comment, problems), note,
                    [str(t) for t in see])
        step.steps = _read_steps(src, child, f"{ctx}/{sid}", phase_id, index + (i,), problems)
        steps.append(step)
    return steps


def _label(index: tuple[int, ...]) -> str:
    """1.b.ii: how translators' comments name a step (the printed letters depend on the language)."""
    marks = [str(n) if level == 0 else chr(ord("a") + n - 1) if level == 1 else roman(n)
             for level, n in enumerate(index)]
    return ".".join(marks)


def _resolve_mirror(src, seq: Sequence, phase: Phase, node, mirror_ids: set[str], problems) -> None:
    target = seq.find(str(node["mirror_of"]))
    where = src.at(node, "mirror_of", value=True)
    if not isinstance(target, Phase):
        problems.add(where, f"mirror of unknown phase '{node['mirror_of']}'",
                     ", ".join(p.id for p in seq.phases if p.id not in mirror_ids))
    elif target is phase:
        problems.add(where, f"phase '{phase.id}' mirrors itself", "another phase")
    elif target.id in mirror_ids:
        problems.add(where, f"mirror of a mirror: '{target.id}' is itself a mirror",
                     "a phase with steps of its own")
    else:
        phase.mirror_of = target
        phase.side = _swap(seq, target.side)
        phase.timing = _swap(seq, target.timing)


def _swap(seq: Sequence, side: str | None) -> str | None:
    """The other side, for a mirrored phase (both, a timing and no side stay as they are)."""
    if side is None or side == BOTH or len(seq.sides) != 2:
        return side
    a, b = seq.sides
    return b.id if side == a.id else a.id


def _check_references(src: Source, data: Any, seq: Sequence, problems: Problems) -> None:
    """Every {ref:...}/{see:...} placeholder and every `see:` entry must name something that exists."""

    def walk_steps(raw_steps: Any) -> None:
        if not isinstance(raw_steps, list):
            return  # not a list of steps: reported as such where the steps are read
        for node in raw_steps:
            if not hasattr(node, "get"):
                continue
            for key in ("text", "note"):
                if isinstance(node.get(key), str):
                    _check_placeholders(src, node, key, seq, problems)
            see = node.get("see")
            if isinstance(see, list):
                for i, target in enumerate(see):
                    _check_target(str(target), src.at(see, i), seq, problems)
            walk_steps(node.get("steps"))

    for node in data["phases"]:
        if hasattr(node, "get"):
            walk_steps(node.get("steps"))
            walk_steps(node.get("notes"))  # a phase's notes: texts and placeholders as a step's
            see = node.get("see")
            if isinstance(see, list):
                for i, target in enumerate(see):
                    _check_target(str(target), src.at(see, i), seq, problems)


def _check_placeholders(src: Source, node: Any, key: str, seq: Sequence, problems: Problems) -> None:
    for kind, target, whole, offset in placeholders_at(node[key]):
        where = src.at_text(node, key, offset)
        if kind == "num" and as_number(target) is None:
            problems.add(where, f"'{target}' in {whole} is not a number", "{num:45}, {num:-3}, {num:2.5}")
        elif kind == "date" and as_date(target) is None:
            problems.add(where, f"'{target}' in {whole} is not a date", "{date:1831-05-26}")
        elif kind in ("ref", "see"):
            _check_target(target, where, seq, problems)
        elif kind not in ("num", "date"):
            problems.add(where, f"unknown placeholder '{whole}'",
                         "{ref:target}, {see:target}, {num:number} or {date:YYYY-MM-DD}")


def _check_target(target: str, where: Position, seq: Sequence, problems: Problems) -> None:
    if RULE.match(target) or CHAPTER.match(target):
        return
    if target.startswith("rule:"):
        problems.add(where, f"malformed rule reference '{target}'",
                     "rule:<section number>, e.g. rule:18.0, rule:7.3.2, rule:XIII")
    elif target.startswith("chapter:"):
        problems.add(where, f"'{target[8:]}' in {target} is not a chapter number",
                     "a roman numeral such as V or XIII, or a number, e.g. chapter:V")
    elif seq.find(target) is None:
        problems.add(where, f"reference to unknown id '{target}'",
                     "phase-id, phase-id/step-id, ..., rule:<number> or chapter:<number>")
