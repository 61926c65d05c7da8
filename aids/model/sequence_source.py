"""Reading a sequence of play: its sides and roles, numbering, phases with their timing, notes, rules and mirrors
(their steps by `sequence_steps`), and every reference and placeholder checked where it is written."""
from __future__ import annotations

import re
from typing import Any

from ..errors import Position, Problems
from ..source.yamlfile import Source, check_id, check_map
from .icons import check_icon
from .quantity import QUANTITY
from .sequence import (
    ALTERNATE,
    BOTH,
    CHAPTER,
    FORMS,
    KINDS,
    LETTERS,
    LEVELS,
    MAX_DEPTH,
    PHASE,
    RULE,
    SHAPE,
    SIDE,
    SIMULTANEOUS,
    TIMING_STYLES,
    TITLE_KINDS,
    Phase,
    Sequence,
    Side,
    numbering_of,
)
from .sequence_steps import StepReader, flag_at, targets
from .text import CASES, Text, as_date, as_number, optional_text_at, placeholders_at, text_at, with_form


def read(src: Source, game, problems: Problems) -> Sequence | None:
    data = src.data
    if not check_map(src, data, problems, SHAPE):
        return None
    aid_id = str(data["id"])
    check_id(src, data, "id", problems)
    section = str(data.get("section") or "")
    if section and not re.fullmatch(r"\d+(\.\d+)*", section):
        problems.add(src.at(data, "section", value=True), f"section '{section}' is not a number",
                     "a section number such as 3.2")
    title = optional_text_at(src, data, "title", aid_id, "Title of the sequence of play", problems)
    sides = _read_sides(src, data.get("sides") or [], aid_id, problems)
    raw_phases = data["phases"]
    if not isinstance(raw_phases, list):
        problems.add(src.at(data, "phases", value=True), "phases must be a list", "- id: ...")
        return None
    seq = Sequence(aid_id, title, section, sides, [], src, icons=getattr(game, "icons", None))
    _readnumbering_of(src, data, seq, problems)
    _read_style(src, data, seq, problems)
    reader = StepReader(src, seq, problems)
    seen: dict[str, int] = {}
    mirrors: list[tuple[Phase, Any]] = []
    for i, node in enumerate(raw_phases, start=1):
        if not check_map(src, node, problems, PHASE, where=src.at(raw_phases, i - 1)):
            continue
        pid = str(node["id"])
        if not check_id(src, node, "id", problems, seen, "phase"):
            continue
        where = f"Title of phase {pid}"
        phase = Phase(pid, i, optional_text_at(src, node, "title", f"{aid_id}/{pid}", where, problems), None, [])
        phase.timing = _read_timing(src, node, sides, problems)
        phase.notes = reader.phase_texts(node, "notes", phase, "Note to the whole of phase")
        phase.rules = reader.phase_texts(node, "rules", phase, "Rule for the whole of phase")
        phase.see_text = optional_text_at(src, node, "see_text", f"{aid_id}/{pid}/see", f"Reference under the title "
                                          f"of phase {pid}, in the source's own words (brackets as typed)", problems)
        _read_phase_see(src, node, phase, problems)
        if "mirror_of" in node:
            for key in ("steps", "side", "timing"):
                if key in node:
                    problems.add(src.at(node, key), f"a mirrored phase has no '{key}' of its own",
                                 "only id, title and mirror_of")
            mirrors.append((phase, node))
        else:
            phase.side = _read_side(src, node, sides, problems)
            phase.steps = reader.steps(node, f"{aid_id}/{pid}", pid, ())
        seq.phases.append(phase)
    mirror_ids = {phase.id for phase, _ in mirrors}
    for phase, node in mirrors:
        _resolve_mirror(src, seq, phase, node, mirror_ids, problems)
    reader.resolve_step_mirrors()
    reader.resolve_repeats()
    _check_references(src, data, seq, problems)
    _check_numbering_depth(src, data, seq, problems)
    return seq


def _read_sides(src, raw, aid_id, problems) -> list[Side]:
    """`sides:`, sides and roles (`role: true`), each with a name translated once and an optional opposite."""
    sides: list[Side] = []
    if not isinstance(raw, list):
        problems.add(src.at(raw), "sides must be a list", "- id: ...\n  name: ...")
        return sides
    seen: dict[str, int] = {}
    nodes = []
    for i, node in enumerate(raw):
        if not (check_map(src, node, problems, SIDE, where=src.at(raw, i))
                and check_id(src, node, "id", problems, seen, "side")):
            continue
        sides.append(_read_one_side(src, node, aid_id, problems))
        nodes.append(node)
    _check_opposites(src, sides, nodes, problems)
    return sides


def _read_one_side(src, node, aid_id: str, problems) -> Side:
    if node["id"] == BOTH:
        problems.add(src.at(node, "id", value=True), f"'{BOTH}' is reserved", "another side id")
    role = flag_at(src, node, "role", problems,
                   "role: true (a role such as the phasing player), or no role: a side")
    what = "a role (who acts in a step, such as the phasing player)" if role else "a side"
    comment = f"Name of {what}, shown beside the phases and before the steps it acts in, and where a text names it"
    name = text_at(src, node, "name", f"{aid_id}/side/{node['id']}", comment, problems)
    side = Side(str(node["id"]), name, role, str(node["opposite"]) if "opposite" in node else None)
    side.forms = _read_forms(src, node, f"{aid_id}/side/{node['id']}", what, problems)
    return side


QUESTIONS = {"gen": "kogo? czego? / кого? чего?", "dat": "komu? czemu? / кому? чему?", "acc": "kogo? co? / кого? что?",
             "ins": "kim? czym? / кем? чем?", "loc": "o kim? o czym? / о ком? о чём?"}


def _read_forms(src, node, context: str, what: str, problems) -> dict[str, Text]:
    """`forms:` the name in each grammatical case a text may ask for ({side:id|gen}), each its own msgctxt
    (<aid>/side/<id>/<case>): a translator gives the form the language needs there."""
    raw = node.get("forms")
    if raw is None or not check_map(src, raw, problems, FORMS, where=src.at(node, "forms", value=True)):
        return {}
    forms: dict[str, Text] = {}
    for case, name in CASES.items():
        if case in raw:
            comment = (f"The name of {node['id']} in the {name} case ({QUESTIONS[case]}), printed where a text "
                       f"writes {{side:{node['id']}|{case}}}; in a language without this case, the name itself")
            forms[case] = text_at(src, raw, case, f"{context}/{case}", comment, problems)
    return forms


def _check_opposites(src, sides: list[Side], nodes: list, problems) -> None:
    """A side's opposite is another side (dropped when it is not)."""
    ids = [s.id for s in sides]
    for side, node in zip(sides, nodes):
        if side.opposite is not None and (side.opposite not in ids or side.opposite == side.id):
            problems.add(src.at(node, "opposite", value=True), f"unknown opposite '{side.opposite}'",
                         ", ".join(i for i in ids if i != side.id) or "another side's id")
            side.opposite = None


def _readnumbering_of(src: Source, data: Any, seq: Sequence, problems: Problems) -> None:
    """`numbering:` a sample label per level (1., a), (i), A., I.), and `letters:` whose letters they are."""
    raw = data.get("numbering")
    if raw is not None:
        if not isinstance(raw, list) or not raw or len(raw) > MAX_DEPTH:
            problems.add(src.at(data, "numbering", value=True), "numbering must be a list of one to "
                         f"{MAX_DEPTH} labels", 'numbering: ["1.", "a)", "(i)"], a sample label per level')
        else:
            for level, sample in enumerate(raw):
                numbering = numbering_of(str(sample))
                if numbering is None:
                    problems.add(src.at(raw, level), f"unknown numbering '{sample}'",
                                 "1. 1) (1) a. a) (a) A. A) (A) i. i) (i) I. I) (I), or without the delimiter")
                else:
                    seq.numbering[level] = numbering
    _read_letters(src, data, seq, problems)


def _read_letters(src: Source, data: Any, seq: Sequence, problems: Problems) -> None:
    """`letters:` whose letters label the steps: one choice for every language, or one per language."""
    raw = data.get("letters", LETTERS[0])
    chosen = {str(lang): (str(value), src.at(raw, lang, value=True)) for lang, value in raw.items()} \
        if hasattr(raw, "items") else {"*": (str(raw), src.at(data, "letters", value=True))}
    for lang, (letters, where) in chosen.items():
        if letters not in LETTERS:
            problems.add(where, f"unknown letters '{letters}'", ", ".join(LETTERS) + ", or {ru: latin}: per language")
        else:
            seq.letters[lang] = letters


def _read_style(src: Source, data: Any, seq: Sequence, problems: Problems) -> None:
    """How notes and timings print: `note_label:` ("Note:" or none), `timing_style:` (label or dash)."""
    seq.note_label = flag_at(src, data, "note_label", problems, "note_label: false (notes without \"Note:\")") \
        if "note_label" in data else True
    style = str(data.get("timing_style", TIMING_STYLES[0]))
    if style not in TIMING_STYLES:
        problems.add(src.at(data, "timing_style", value=True), f"unknown timing_style '{style}'",
                     ", ".join(TIMING_STYLES))
    else:
        seq.timing_style = style


def _check_numbering_depth(src: Source, data: Any, seq: Sequence, problems: Problems) -> None:
    """A `numbering:` with more labels than the steps have levels is a misreading (its first label taken for
    the phases' one): level 1 is the step, 2 the sub-step, 3 the sub-sub-step; phases are numbered by section."""
    raw = data.get("numbering")
    if not isinstance(raw, list) or not raw or len(raw) > MAX_DEPTH:
        return
    deepest = max((len(step.index) for step in seq.steps()), default=0)
    if deepest and len(raw) > deepest:
        levels = "; ".join(f"level {n} labels {what}" for n, what in enumerate(LEVELS[:len(raw)], start=1))
        problems.add(src.at(data, "numbering", value=True),
                     f"numbering has {len(raw)} labels, but the steps go {deepest} level(s) deep ({levels}; "
                     "phases are numbered by section:, not by numbering:)",
                     f"one label per level of steps used, here {deepest}: numbering: {list(map(str, raw[:deepest]))}")


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


def _read_phase_see(src, node, phase: Phase, problems) -> None:
    """Where the phase's notes and rules go (`notes_position: before | after`), and its `see:`."""
    position = node.get("notes_position", "after")
    if position not in ("before", "after"):
        problems.add(src.at(node, "notes_position", value=True), f"unknown notes_position '{position}'",
                     "before, after")
    phase.notes_before = position == "before"
    phase.see = targets(src, node, "see", problems)


def _read_timing(src, node, sides: list[Side], problems) -> str | None:
    """How the players act in a phase: at once, by turns, or one side (or role) first."""
    if "timing" not in node:
        return None
    timing = str(node["timing"])
    if timing not in (SIMULTANEOUS, ALTERNATE) and timing not in {s.id for s in sides}:
        problems.add(src.at(node, "timing", value=True), f"unknown timing '{timing}'",
                     ", ".join([SIMULTANEOUS, ALTERNATE] + [s.id for s in sides]))
        return None
    return timing


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
        phase.side = seq.other(target.side)
        phase.timing = seq.other(target.timing)


def _check_references(src: Source, data: Any, seq: Sequence, problems: Problems) -> None:
    """Every placeholder and every `see:` entry must name something that exists."""

    def walk_steps(raw_steps: Any) -> None:
        if not isinstance(raw_steps, list):
            return  # not a list of steps: reported as such where the steps are read
        for node in raw_steps:
            if not hasattr(node, "get"):
                continue
            for key in ("text", "note"):
                if isinstance(node.get(key), str):
                    _check_placeholders(src, node, key, seq, KINDS, problems)
            check_see(node)
            walk_steps(node.get("bullets"))
            walk_steps(node.get("steps"))

    def check_see(node: Any) -> None:
        see = node.get("see")
        if isinstance(see, list):
            for i, target in enumerate(see):
                _check_target(str(target), src.at(see, i), seq, problems)
        elif isinstance(see, str):
            _check_target(see, src.at(node, "see", value=True), seq, problems)

    for node in data["phases"]:
        if hasattr(node, "get"):
            if isinstance(node.get("title"), str):
                _check_placeholders(src, node, "title", seq, TITLE_KINDS, problems)
            if isinstance(node.get("see_text"), str):
                _check_placeholders(src, node, "see_text", seq, KINDS, problems)
            walk_steps(node.get("steps"))
            walk_steps(node.get("notes"))  # a phase's notes and rules: texts and placeholders as a step's
            walk_steps(node.get("rules"))
            check_see(node)


def _check_placeholders(src: Source, node: Any, key: str, seq: Sequence, kinds: tuple[str, ...],
                        problems: Problems) -> None:
    for kind, full, whole, offset in placeholders_at(node[key]):
        where = src.at_text(node, key, offset)
        target, form = with_form(full)
        if form is None or _check_form(kind, target, form, whole, where, seq, problems):
            _check_placeholder(kind, target, whole, key, where, seq, kinds, problems)


def _check_placeholder(kind: str, target: str, whole: str, key: str, where: Position, seq: Sequence,
                       kinds: tuple[str, ...], problems: Problems) -> None:
    if kind == "icon":
        check_icon(target, where, seq.icons, problems)
    elif kind not in kinds:
        accepted = {"ref": "{ref:target}", "see": "{see:target}", "num": "{num:number}",
                    "date": "{date:YYYY-MM-DD}", "side": "{side:id}", QUANTITY: "{q:name} with a with: value"}
        problems.add(where, f"unknown placeholder '{whole}'" + (" in a title" if key == "title" else ""),
                     ", ".join(accepted[k] for k in kinds))
    elif kind == "num" and as_number(target) is None:
        problems.add(where, f"'{target}' in {whole} is not a number", "{num:45}, {num:-3}, {num:2.5}")
    elif kind == "date" and as_date(target) is None:
        problems.add(where, f"'{target}' in {whole} is not a date", "{date:1831-05-26}")
    elif kind == "side" and seq.side(target) is None:
        problems.add(where, f"unknown side '{target}' in {whole}",
                     ", ".join(f"{{side:{s.id}}}" for s in seq.sides) or "a side or role declared under sides:")
    elif kind in ("ref", "see"):
        _check_target(target, where, seq, problems)


def _check_form(kind: str, target: str, form: str, whole: str, where: Position, seq: Sequence,
                problems: Problems) -> bool:
    """A form asked for after a bar: a case of a side the source gives (`forms:`), or of a chapter reference."""
    if kind != "side" and not (kind == "ref" and CHAPTER.match(target)):
        problems.add(where, f"a form in {whole}: only a side's name and a chapter reference take one",
                     "{side:id|gen}, {ref:chapter:V|acc}, or " + whole.split("|")[0] + "} without a form")
        return False
    if form not in CASES:
        problems.add(where, f"unknown form '{form}' in {whole}", ", ".join(f"{c} ({n})" for c, n in CASES.items()))
        return False
    side = seq.side(target) if kind == "side" else None
    if side is not None and form not in side.forms:
        problems.add(where, f"{whole} asks for the {CASES[form]} of '{target}', which its forms: do not give",
                     f"forms: {{{form}: ...}} under side {target} (the name in that case, in the source language)")
        return False
    return True  # an unknown side is reported as such


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
