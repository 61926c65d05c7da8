"""The steps of a sequence of play as the source gives them: texts, actors and values, sub-steps, steps that
mirror another with the sides swapped, and steps that repeat earlier ones."""
from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import Position, Problems
from ..source.yamlfile import Source, check_id, check_map, is_text
from .quantity import Value, values_at
from .sequence import (
    BULLET,
    MAX_DEPTH,
    MIRROR_STEP,
    PHASE_TEXT,
    REPEAT_STEP,
    STEP,
    Phase,
    PhaseText,
    Sequence,
    Step,
    path_of,
    walk,
)
from .text import roman, text_at


def targets(src, node, key: str, problems) -> list[str]:
    """`see:` or `repeats:`: a list of targets (one target may stand alone)."""
    raw = node.get(key)
    if raw is None:
        return []
    if isinstance(raw, str):
        return [raw]
    if not isinstance(raw, list):
        problems.add(src.at(node, key, value=True), f"{key} must be a list of targets", '["rule:18.0"]')
        return []
    return [str(t) for t in raw]


def flag_at(src: Source, node, key: str, problems: Problems, expected: str) -> bool:
    """A `true`/`false` field (false when absent); anything else is reported where it is."""
    value = node.get(key, False)
    if not isinstance(value, bool):
        problems.add(src.at(node, key, value=True), f"{key} must be true or false, not '{value}'", expected)
        return False
    return value


class StepReader:
    """Reads the steps and phase texts of one sequence; mirrored and repeating steps are resolved at the end,
    when every step they may name has been read."""

    def __init__(self, src: Source, seq: Sequence, problems: Problems):
        self.src, self.seq, self.problems = src, seq, problems
        self.mirrors: list[tuple[Step, Any]] = []
        self.repeating: list[tuple[Step, Any]] = []
        self.mirrored: dict[str, str] = {}  # msgctxt -> translators' comment of a text a mirror prints again

    def phase_texts(self, node, key: str, phase: Phase, comment: str) -> list[PhaseText]:
        """A phase's `notes:` or `rules:`, each `id` and `text` (with `with:` values), msgctxt .../<key>/<id>."""
        return self.texts(node, key, f"{self.seq.id}/{phase.id}", f"{comment} {phase.id}")

    def texts(self, node, key: str, ctx: str, comment: str, what: str = "") -> list[PhaseText]:
        """A list of `id` and `text` (with `with:` values) under `node[key]`, each msgctxt <ctx>/<key>/<id>."""
        src, problems = self.src, self.problems
        raw = node.get(key) or []
        if not isinstance(raw, list):
            problems.add(src.at(node, key, value=True), f"{key} must be a list", "- id: ...\n  text: ...")
            return []
        out: list[PhaseText] = []
        seen: dict[str, int] = {}
        for i, child in enumerate(raw):
            if check_map(src, child, problems, BULLET if what else PHASE_TEXT, what=what or f"phase {key[:-1]}",
                         where=src.at(raw, i)) and check_id(src, child, "id", problems, seen, key[:-1]):
                text = text_at(src, child, "text", f"{ctx}/{key}/{child['id']}", comment, problems)
                out.append(PhaseText(text, self.values(child, ["text"])))
        return out

    def values(self, node, keys: list[str]) -> dict[str, Value]:
        """The `with:` values of the {q:name} placeholders in the texts node[key]."""
        texts = [k for k in keys if isinstance(node.get(k), str)]
        if not texts and "with" not in node:
            return {}
        return values_at(self.src, node, texts, node.get("with"), self.problems)

    def steps(self, node, ctx: str, phase_id: str, index: tuple) -> list[Step]:
        src, problems = self.src, self.problems
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
            step = self.step(child, src.at(raw, i - 1), ctx, phase_id, index + (i,), seen)
            if step is not None:
                steps.append(step)
        return steps

    def step(self, child, where: Position, ctx: str, phase_id: str, index: tuple, seen: dict) -> Step | None:
        src, problems = self.src, self.problems
        if hasattr(child, "get") and "mirror_of" in child:
            return self.mirror_step(child, where, ctx, index, seen)
        repeats = hasattr(child, "get") and "repeats" in child
        if not check_map(src, child, problems, REPEAT_STEP if repeats else STEP, what="step", where=where):
            return None
        if not check_id(src, child, "id", problems, seen, "step"):
            return None
        sid = str(child["id"])
        path = f"{ctx.split('/', 1)[1]}/{sid}"
        label = self.label(index)
        comment = f"Step {label} of phase {phase_id}"
        text = text_at(src, child, "text", f"{ctx}/{sid}", comment, problems) if "text" in child else None
        note = text_at(src, child, "note", f"{ctx}/{sid}/note", f"Note to step {label} of phase {phase_id}",
                       problems) if is_text(child.get("note")) else None
        step = Step(sid, path, index, text, note, targets(src, child, "see", problems))
        step.actor = self.actor(child)
        step.values = self.values(child, ["text", "note"])
        step.bullets = self.texts(child, "bullets", f"{ctx}/{sid}",
                                  f"Item of the unordered list of step {label} of phase {phase_id}", "bullet")
        if repeats:
            step.repeats = targets(src, child, "repeats", problems)
            step.other_side = self.flag(child, "other_side")
            self.repeating.append((step, child))
        else:
            step.steps = self.steps(child, f"{ctx}/{sid}", phase_id, index)
        return step

    def mirror_step(self, child, where: Position, ctx: str, index: tuple, seen: dict) -> Step | None:
        """`mirror_of:` a step whose text, actor and sub-steps it takes with the sides (and roles) swapped."""
        src, problems = self.src, self.problems
        for key in child:
            if key not in MIRROR_STEP.names:
                problems.add(src.at(child, key), f"a mirrored step has no '{key}' of its own",
                             "only id and mirror_of: its text, actor and steps are the other step's, sides swapped")
        if not check_id(src, child, "id", problems, seen, "step"):
            return None
        sid = str(child["id"])
        step = Step(sid, f"{ctx.split('/', 1)[1]}/{sid}", index, None, None, [], swapped=True)
        self.mirrors.append((step, child))
        return step

    def actor(self, node) -> str | None:
        if "actor" not in node:
            return None
        actor = str(node["actor"])
        if self.seq.side(actor) is None:
            self.problems.add(self.src.at(node, "actor", value=True), f"unknown actor '{actor}'",
                              ", ".join(s.id for s in self.seq.sides) or "a side or role declared under sides:")
            return None
        return actor

    def flag(self, node, key: str) -> bool:
        return flag_at(self.src, node, key, self.problems, f"{key}: true")

    def label(self, index: tuple[int, ...]) -> str:
        """1.b.ii: how translators' comments name a step, in the source's numbering with Latin letters."""
        return ".".join(_mark(self.seq.numbering[level].style, n) for level, n in enumerate(index))

    # -- after every step is read -------------------------------------------------------------------
    def resolve_step_mirrors(self) -> None:
        for step, node in self.mirrors:
            target = self.mirror_target(step, node)
            if target is not None:
                _mirror_into(self.seq, step, target)
                phase = step.path.split("/", 1)[0]
                again = f"; printed again as step {self.label(step.index)} of phase {phase} with the sides swapped"
                for t in (target.text, target.note, *(b.text for b in target.bullets)):
                    if t is not None:  # the translator sees where else the text stands, as a mirror
                        self.mirrored[t.context] = t.comment + again
        for s in self.seq.steps():
            s.text, s.note = (dataclasses.replace(t, comment=self.mirrored[t.context])
                              if t is not None and t.context in self.mirrored else t for t in (s.text, s.note))
            s.bullets = [dataclasses.replace(b, text=dataclasses.replace(b.text, comment=self.mirrored[b.text.context]))
                         if b.text.context in self.mirrored else b for b in s.bullets]

    def mirror_target(self, step: Step, node) -> Step | None:
        """The step `step` mirrors, if it can: a step, neither itself nor holding it, no mirror, and whose
        sub-steps fit at the mirror's level."""
        name = str(node["mirror_of"])
        target = self.seq.find(name)
        where = self.src.at(node, "mirror_of", value=True)
        why, expected = "", "the id path of a step, e.g. phase-id/step-id"
        if isinstance(target, Phase):
            why, expected = f"'{name}' is a phase, not a step", \
                "phase-id/step-id (a phase mirrors a phase with mirror_of on the phase)"
        elif not isinstance(target, Step):
            why = f"mirror of unknown step '{name}'"
        elif target is step or step.path.startswith(target.path + "/"):
            why, expected = f"step '{step.path}' cannot mirror '{name}', which holds it", "another step"
        elif target.swapped or any(s.swapped for s in walk(target.steps)):
            why, expected = f"mirror of a mirror: '{name}' is or holds a mirrored step", \
                "a step with text and sub-steps of its own"
        elif len(step.index) - 1 + _height(target) > MAX_DEPTH:
            why = (f"'{name}' has {_height(target) - 1} level(s) of sub-steps: mirrored at level {len(step.index)} "
                   f"they would be nested deeper than {MAX_DEPTH} levels")
            expected = (f"a step with at most {MAX_DEPTH - len(step.index)} level(s) of sub-steps, "
                        "or a mirror placed higher")
        if why:
            self.problems.add(where, why, expected)
            return None
        assert isinstance(target, Step)
        return target

    def resolve_repeats(self) -> None:
        order = {id(node): n for n, node in enumerate(self.seq.nodes())}
        for step, node in self.repeating:
            raw = node["repeats"]
            for i, target in enumerate(step.repeats):
                where = self.src.at(raw, i) if isinstance(raw, list) else self.src.at(node, "repeats", value=True)
                found = self.seq.find(target)
                if found is None:
                    self.problems.add(where, f"repeat of unknown phase or step '{target}'",
                                      "the id path of an earlier phase or step, e.g. phase-id/step-id")
                elif order[id(found)] >= order[id(step)] or step.path.startswith(path_of(found) + "/"):
                    self.problems.add(where, f"'{target}' does not come before step '{step.path}'",
                                      "an earlier phase or step, not one that holds this step")
            if not step.repeats:
                self.problems.add(self.src.at(node, "repeats", value=True), "repeats names no step",
                                  "repeats: [phase-id/step-id, ...]")


def _mark(style: str, n: int) -> str:
    """The number `n` in a numbering style, with Latin letters (the printed ones are the language's)."""
    letter = chr(ord("a") + n - 1) if n <= 26 else str(n)
    return {"1": str(n), "a": letter, "A": letter.upper(), "i": roman(n), "I": roman(n).upper()}[style]


def _height(step: Step) -> int:
    return 1 + max((_height(s) for s in step.steps), default=0)


def _mirror_into(seq: Sequence, mirror: Step, target: Step) -> None:
    """Fill `mirror` with `target`'s text, note, values and sub-steps, its actor the other side; its sub-steps
    are new steps under the mirror's own path (so they can be referenced), their texts the target's."""
    mirror.text, mirror.note, mirror.see, mirror.values = target.text, target.note, target.see, target.values
    mirror.bullets = target.bullets
    mirror.actor, mirror.mirror_of = seq.other(target.actor), target

    def copy(step: Step, parent: Step) -> Step:
        out = Step(step.id, f"{parent.path}/{step.id}", parent.index + step.index[-1:], step.text, step.note,
                   step.see, actor=seq.other(step.actor), values=step.values, swapped=True,
                   repeats=step.repeats, other_side=step.other_side, bullets=step.bullets)
        out.steps = [copy(child, out) for child in step.steps]
        return out

    mirror.steps = [copy(child, mirror) for child in target.steps]
