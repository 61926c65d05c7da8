"""A sequence of play in one language: step numbers and letters, references and mirrored phases."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..config import Edition
from ..model.sequence import ALTERNATE, CHAPTER, RULE, SIMULTANEOUS, Phase, Sequence, Step
from ..model.text import as_date, as_number
from . import rich
from .localizer import Localizer
from .rich import Link, Rich


def label(lz: Localizer, index: tuple[int, ...]) -> list[str]:
    """The printed marks of a step at `index`: 1., then a. (а. in Russian), then i."""
    return [str(n) if level == 0 else lz.letter(n) if level == 1 else lz.roman(n) for level, n in enumerate(index)]


def side_name(seq: Sequence, lz: Localizer, side_id: str | None) -> str | None:
    """The label beside a phase's title: its side's name, "Both sides", or none when not declared."""
    if side_id is None:
        return None
    side = seq.side(side_id)
    return lz.text(side.name) if side else lz.pgettext("side", "Both sides")


def timing(seq: Sequence, lz: Localizer, value: str | None) -> str | None:
    """How the sides act in a phase, in the reader's language (None when the source does not say)."""
    if value == SIMULTANEOUS:
        return lz.pgettext("timing of a phase: both sides act at once", "simultaneous")
    if value == ALTERNATE:
        return lz.pgettext("timing of a phase: the sides act by turns", "alternately")
    side = seq.side(value) if value else None
    if side is None:
        return None
    return lz.pgettext("timing of a phase; %(side)s is the name of the side that acts first",
                       "alternately, %(side)s first") % {"side": lz.text(side.name)}


def value(lz: Localizer, kind: str, target: str) -> Rich:
    """{num:45.5} and {date:1831-05-26}: numbers are data, formatted per language, never in the msgid."""
    if kind == "num":
        return rich.text(lz.number(as_number(target)))
    return rich.text(lz.date(as_date(target)))  # type: ignore[arg-type]


def chapter_reference(lz: Localizer, number: str, after_see: bool) -> str:
    """"Chapter V" standing alone; after "see", the form that language needs there ("главу V")."""
    if after_see:
        wording = lz.pgettext("a chapter of the rules after 'see' (see chapter V); %(n)s is its number",
                              "chapter %(n)s")
    else:
        wording = lz.pgettext("a chapter of the rules, standing alone; %(n)s is its number", "Chapter %(n)s")
    return (wording % {"n": number}).replace(" ", "\u00a0")


def anchor(node: Phase | Step) -> str:
    return node.id if isinstance(node, Phase) else node.path


def localize(seq: Sequence, lz: Localizer, edition: Edition | None = None,
             rules: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The template context of `seq` in the language of `lz`: numbers, letters and references made.

    `rules` maps rule numbers to anchors of the document embedding the sequence (a booklet), so
    that a `rule:4.1` reference becomes a link there; on its own page it stays plain text.
    """

    def ref_label(target: str, after_see: bool = False) -> tuple[str, str | None]:
        rule = RULE.match(target)
        if rule:
            return rule.group(1), (rules or {}).get(rule.group(1))
        chapter = CHAPTER.match(target)
        if chapter:  # worded per language, in the form its place needs (after "see": Russian "главу V")
            return chapter_reference(lz, chapter.group(1), after_see), None
        node = seq.find(target)
        if isinstance(node, Phase):
            return seq.number(node), anchor(node)
        phase = seq.find(target.split("/", 1)[0])
        assert isinstance(node, Step) and isinstance(phase, Phase), f"{target} checked when read"
        step = ".".join(label(lz, node.index))
        wording = lz.pgettext("reference to a step: %(phase)s is a phase number like 3.2.4, "
                              "%(step)s a step like 2.c", "%(phase)s, step %(step)s")
        # held together: a reference never breaks across lines
        return (wording % {"phase": seq.number(phase), "step": step}).replace(" ", "\u00a0"), anchor(node)

    def link(target: str, after_see: bool = False) -> Rich:
        text, href = ref_label(target, after_see)
        return Rich([Link(rich.text(text), href)]) if href else rich.text(text)

    def resolve(kind: str, target: str) -> Rich:
        if kind in ("num", "date"):
            return value(lz, kind, target)
        if kind == "see":
            return lz.ui_rich("see", "see %(ref)s", ref=link(target, after_see=True))
        return link(target)

    def see_list(targets: list[str]) -> Rich | None:
        if not targets:
            return None
        refs = lz.format_list([link(t, after_see=True) for t in targets])
        return lz.ui_rich("see", "see %(ref)s", ref=refs)

    def steps_of(steps: list[Step]) -> list[dict[str, Any]]:
        return [{
            "anchor": anchor(s),
            "label": label(lz, s.index)[-1],
            "level": len(s.index),
            "text": lz.rich(s.text, resolve),
            "note": lz.rich(s.note, resolve) if s.note else None,
            "see": see_list(s.see),
            "steps": steps_of(s.steps),
        } for s in steps]


    def mirror_of(target: Phase) -> Rich:
        number = Rich([Link(rich.text(seq.number(target)), anchor(target))])
        if target.title is None:
            return lz.ui_rich("mirrored phase whose model has no title; %(number)s is its number",
                              "Analogously to %(number)s, with the sides swapped.", number=number)
        return lz.ui_rich("mirrored phase; %(title)s is the other phase's title",
                          "Analogously to “%(title)s” (see %(number)s), with the sides swapped.",
                          title=lz.text(target.title), number=number)

    phases = []
    for phase in seq.phases:
        phases.append({
            "anchor": anchor(phase),
            "number": seq.number(phase),
            "title": lz.text(phase.title) if phase.title else None,
            "side": side_name(seq, lz, phase.side),
            "timing": timing(seq, lz, phase.timing),
            "mirror": mirror_of(phase.mirror_of) if phase.mirror_of is not None else None,
            "notes": [lz.rich(note, resolve) for note in phase.notes],
            "notes_before": phase.notes_before,
            "see": see_list(phase.see),
            "steps": steps_of(phase.steps),
        })
    return {"title": lz.text(seq.title), "section": seq.section, "phases": phases}
