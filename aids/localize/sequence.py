"""A sequence of play in one language: step labels, sides and roles, references, repeats and mirrors."""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from functools import partial

from ..config import Edition
from ..model.quantity import QUANTITY, Value, convert, measure_of
from ..model.sequence import ALTERNATE, CHAPTER, RULE, SIMULTANEOUS, Phase, Sequence, Step, path_of, walk
from ..model.text import Text, as_date, as_number, with_form
from . import rich, ui
from .documents import PhaseDocument, SequenceDocument, StepDocument
from .localizer import LATIN, Localizer, lettered
from .quantity import format_value
from .rich import Link, Printed, Rich, capitalized, item_lines


def side_name(seq: Sequence, lz: Localizer, side_id: str | None) -> str | None:
    """The label beside a phase's title: its side's name, "Both sides", or none when not declared."""
    if side_id is None:
        return None
    side = seq.side(side_id)
    return capitalized(lz.text(side.name)) if side else lz.pgettext("side", "Both sides")


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


def chapter_form(lz: Localizer, form: str) -> str:
    """The wording of a chapter in a grammatical case a text asks for ({ref:chapter:VI|acc}: "Главу VI")."""
    forms = {
        "gen": lambda: lz.pgettext("a chapter of the rules in the genitive case ({ref:chapter:V|gen}), capitalized "
                                   "as standing alone; %(n)s is its number", "Chapter %(n)s"),
        "dat": lambda: lz.pgettext("a chapter of the rules in the dative case ({ref:chapter:V|dat}), capitalized "
                                   "as standing alone; %(n)s is its number", "Chapter %(n)s"),
        "acc": lambda: lz.pgettext("a chapter of the rules in the accusative case ({ref:chapter:V|acc}), "
                                   "capitalized as standing alone; %(n)s is its number", "Chapter %(n)s"),
        "ins": lambda: lz.pgettext("a chapter of the rules in the instrumental case ({ref:chapter:V|ins}), "
                                   "capitalized as standing alone; %(n)s is its number", "Chapter %(n)s"),
        "loc": lambda: lz.pgettext("a chapter of the rules in the locative case ({ref:chapter:V|loc}), "
                                   "capitalized as standing alone; %(n)s is its number", "Chapter %(n)s"),
    }
    return forms[form]() if form in forms else chapter_wording(lz, False)


def chapter_wording(lz: Localizer, after_see: bool) -> str:
    if after_see:
        wording = lz.pgettext("a chapter of the rules after 'see' (see chapter V); %(n)s is its number",
                              "chapter %(n)s")
    else:
        wording = lz.pgettext("a chapter of the rules, standing alone; %(n)s is its number", "Chapter %(n)s")
    return wording


def chapter_reference(lz: Localizer, number: str, after_see: bool, form: str | None = None) -> str:
    """"Chapter V" standing alone; after "see", the form that language needs there ("главу V"); with a form a
    text asks for, that case's wording, as the catalog gives it ("Главу V")."""
    wording = chapter_form(lz, form) if form else chapter_wording(lz, after_see)
    return (wording % {"n": number}).replace(" ", "\u00a0")


def capital(kind: str, target: str) -> bool:
    """Which placeholders begin with a capital where they begin a sentence: a side's or role's name, "see"."""
    return kind in ("side", "see")


class Labels:
    """The printed labels of steps in one language: the sequence's numbering per level (1., a), (i)), with
    the letters of the reader's language (а, б in Russian), with `letters: source` the source's, with
    `letters: latin` a, b, c."""

    def __init__(self, seq: Sequence, lz: Localizer):
        self.seq = seq
        letters = seq.letters_of(lz.lang)
        if letters == "latin":
            self.alphabet = LATIN
        else:
            lang = lz.source_lang if letters == "source" else lz.lang
            self.alphabet = (lz if lang == lz.lang else Localizer(lang, lang, {}, ui.ui_translations(lang))).letters()
        self.highest = 0  # the highest number lettered: whether a letter the alphabet skips would have been passed

    def letter(self, n: int) -> str:
        self.highest = max(self.highest, n)
        return lettered(self.alphabet, n)

    def skipped(self) -> str | None:
        """The letters this alphabet leaves out among those it printed ("з, й" in Russian: ж) is followed by и)),
        said in the build summary, so that a reader's "where is з)?" is answered: None when none was passed."""
        shown = self.alphabet[:self.highest]
        gaps = [chr(c) for a, b in zip(shown, shown[1:]) if len(a) == len(b) == 1
                for c in range(ord(a) + 1, ord(b)) if chr(c).isalpha()]
        return ", ".join(gaps) or None

    def mark(self, level: int, n: int) -> str:
        style = self.seq.numbering[level].style
        if style in ("a", "A"):
            return self.letter(n) if style == "a" else self.letter(n).upper()
        if style in ("i", "I"):
            return Localizer.roman(n) if style == "i" else Localizer.roman(n).upper()
        return str(n)

    def marker(self, index: tuple[int, ...]) -> str:
        """The label printed before a step: "2.", "b)", "(iii)"."""
        numbering = self.seq.numbering[len(index) - 1]
        return f"{numbering.before}{self.mark(len(index) - 1, index[-1])}{numbering.after}"

    def number(self, index: tuple[int, ...]) -> str:
        """How a reference names a step of its phase: 2, 2.b, 2.b(iii) (a parenthesized level keeps its brackets)."""
        out = ""
        for level, n in enumerate(index):
            mark = self.mark(level, n)
            out += mark if level == 0 else f"({mark})" if self.seq.numbering[level].before else f".{mark}"
        return out


def localize(seq: Sequence, lz: Localizer, edition: Edition | None = None,
             rules: Mapping[str, str] | None = None) -> SequenceDocument:
    """The template context of `seq` in the language of `lz`: numbers, letters and references made.

    `rules` maps rule numbers to anchors of the document embedding the sequence (a booklet), so
    that a `rule:4.1` reference becomes a link there; on its own page it stays plain text.
    """
    return _Localized(seq, lz, edition, rules or {}).context()


def numbers(seq: Sequence, lz: Localizer) -> dict[str, str]:
    """anchor -> how a reference prints each phase and step in `lz`'s language (3.2; 3, step 2.c)."""
    refs = _Localized(seq, lz, None, {})
    return {path_of(node): refs.ref_label(path_of(node))[0] for node in seq.nodes()}


def item_texts(seq: Sequence, lz: Localizer, edition: Edition | None, keys: Collection[str]) -> dict[str, str]:
    """The texts of each item of `keys` as its page prints them (sides named, quantities in `edition`'s units,
    references numbered), on one line: what a changelog, an errata sheet or a feed quotes of it."""
    return item_lines(_Localized(seq, lz, edition, {}).printed(), keys)


class _Localized:
    def __init__(self, seq: Sequence, lz: Localizer, edition: Edition | None, rules: Mapping[str, str]):
        self.seq, self.lz, self.rules = seq, lz, rules
        self.measure = measure_of(edition)
        self.labels = Labels(seq, lz)

    # -- references ------------------------------------------------------------------------------
    def ref_label(self, target: str, after_see: bool = False) -> tuple[str, str | None]:
        seq, lz = self.seq, self.lz
        target, form = with_form(target)
        rule = RULE.match(target)
        if rule:
            return rule.group(1), self.rules.get(rule.group(1))
        chapter = CHAPTER.match(target)
        if chapter:  # worded per language, in the form its place needs (after "see": Russian "главу V")
            return chapter_reference(lz, chapter.group(1), after_see, form), None
        node = seq.find(target)
        if isinstance(node, Phase):
            return seq.number(node), path_of(node)
        phase = seq.find(target.split("/", 1)[0])
        assert isinstance(node, Step) and isinstance(phase, Phase), f"{target} checked when read"
        wording = lz.pgettext("reference to a step: %(phase)s is a phase number like 3.2.4, "
                              "%(step)s a step like 2.c", "%(phase)s, step %(step)s")
        # held together: a reference never breaks across lines
        text = wording % {"phase": seq.number(phase), "step": self.labels.number(node.index)}
        return text.replace(" ", "\u00a0"), path_of(node)

    def link(self, target: str, after_see: bool = False) -> Rich:
        text, href = self.ref_label(target, after_see)
        return Rich([Link(rich.text(text), href)]) if href else rich.text(text)

    def see_list(self, targets: list[str]) -> Rich | None:
        if not targets:
            return None
        refs = self.lz.format_list([self.link(t, after_see=True) for t in targets])
        return self.lz.ui_rich("see", "see %(ref)s", ref=refs)

    # -- texts -----------------------------------------------------------------------------------
    def resolver(self, values: Mapping[str, Value], swapped: bool = False) -> Callable[[str, str], Rich]:
        """What the placeholders of one text print: inside a mirror, {side:x} is the other side."""
        lz = self.lz

        def resolve(kind: str, target: str) -> Rich:
            if kind in ("num", "date"):
                return value(lz, kind, target)
            if kind == QUANTITY:
                return rich.text(format_value(convert(values[target], self.measure), lz))
            if kind == "side":
                return self.side(target, swapped)
            if kind == "see":
                return lz.ui_rich("see", "see %(ref)s", ref=self.link(target, after_see=True))
            return self.link(target)
        return resolve

    def side(self, target: str, swapped: bool) -> Rich:
        """{side:x} and {side:x|gen}: a side's name, in the case asked for when the catalog gives it (else in
        the nominative: `aids check` reports the form missing)."""
        name, form = with_form(target)
        side = self.seq.side((self.seq.other(name) if swapped else name) or name)
        if side is None:
            return Rich()
        inflected = side.forms.get(form) if form else None
        if inflected is not None and self.lz.translated(inflected):
            return rich.text(self.lz.text(inflected))
        return rich.text(self.lz.text(side.name))

    def sentence(self, text: Text, values: Mapping[str, Value], swapped: bool = False) -> Rich:
        """A text as typed: only a name (or "see") that begins a sentence gets a capital."""
        return self.lz.rich(text, self.resolver(values, swapped), capital)

    def actor(self, step: Step) -> str | None:
        side = self.seq.side(step.actor) if step.actor else None
        if side is None:
            return None
        return self.lz.pgettext("lead-in before a step naming who acts in it; %(side)s is a side's or role's name",
                                "%(side)s:") % {"side": capitalized(self.lz.text(side.name))}

    def repeat(self, step: Step) -> Rich:
        """"Repeat steps 2–4." ("Powtórz kroki 2–4", "Повторите шаги 2–4"), or the references of other phases."""
        lz, seq = self.lz, self.seq
        nodes = [seq.find(t) for t in step.repeats]
        phase_id = step.path.split("/", 1)[0]
        same_phase = all(isinstance(n, Step) and n.path.split("/", 1)[0] == phase_id for n in nodes)
        if same_phase:
            steps = [n for n in nodes if isinstance(n, Step)]
            names = [Rich([Link(rich.text(self.labels.number(s.index)), path_of(s))]) for s in steps]
            consecutive = len(steps) >= 3 and all(
                a.index[:-1] == b.index[:-1] and b.index[-1] == a.index[-1] + 1 for a, b in zip(steps, steps[1:]))
            listed = names[0] + rich.text("\u2013") + names[-1] if consecutive else lz.format_list(names)
            what = rich.fill(lz.npgettext("steps of this phase after 'Repeat'; %(steps)s lists their numbers",
                                          "step %(steps)s", "steps %(steps)s", len(steps)), {"steps": listed})
        else:
            what = lz.format_list([self.link(t) for t in step.repeats])
        if step.other_side:
            return lz.ui_rich("a step that repeats earlier ones; %(what)s is e.g. 'steps 2–4' or '3.2.4, step 3'",
                              "Repeat %(what)s for the other side.", what=what)
        return lz.ui_rich("a step that repeats earlier ones; %(what)s is e.g. 'steps 2–4' or '3.2.4, step 3'",
                          "Repeat %(what)s.", what=what)

    def step_text(self, s: Step) -> Rich:
        """A step's text, after the steps it repeats."""
        text = self.sentence(s.text, s.values, s.swapped) if s.text is not None else Rich()
        return self.repeat(s) + (rich.text(" ") + text if text else Rich()) if s.repeats else text

    def step(self, s: Step) -> StepDocument:
        return {
            "anchor": path_of(s),
            "label": self.labels.mark(len(s.index) - 1, s.index[-1]),
            "marker": self.labels.marker(s.index),
            "level": len(s.index),
            "actor": self.actor(s),
            "text": self.step_text(s),
            "bullets": [self.sentence(b.text, b.values, s.swapped) for b in s.bullets],
            "note": self.sentence(s.note, s.values, s.swapped) if s.note else None,
            "see": self.see_list(s.see),
            "steps": [self.step(child) for child in s.steps],
        }

    def mirror_of(self, target: Phase) -> Rich:
        lz = self.lz
        number = Rich([Link(rich.text(self.seq.number(target)), path_of(target))])
        if target.title is None:
            return lz.ui_rich("mirrored phase whose model has no title; %(number)s is its number",
                              "Analogously to %(number)s, with the sides swapped.", number=number)
        return lz.ui_rich("mirrored phase; %(title)s is the other phase's title",
                          "Analogously to “%(title)s” (see %(number)s), with the sides swapped.",
                          title=self.title(target) or Rich(), number=number)

    def title(self, phase: Phase) -> Rich | None:
        return self.lz.rich(phase.title, self.resolver({}), capital) if phase.title else None

    def heading(self, phase: Phase) -> tuple[Rich | None, str | None]:
        """A phase's title and its timing: the timing a label beside the title, or with `timing_style: dash` in the
        title after a spaced dash ("Fire phase – simultaneous"; the typography sets the dash of each language,
        held to the word before it)."""
        title, when = self.title(phase), timing(self.seq, self.lz, phase.timing)
        if self.seq.timing_style == "dash" and title is not None and when is not None:
            return title + rich.text(f" \u2013 {when}"), None
        return title, when

    def phase(self, phase: Phase) -> PhaseDocument:
        title, when = self.heading(phase)
        return {
            "anchor": path_of(phase),
            "number": self.seq.number(phase),
            "title": title,
            "side": side_name(self.seq, self.lz, phase.side),
            "timing": when,
            "mirror": self.mirror_of(phase.mirror_of) if phase.mirror_of is not None else None,
            "rules": [self.sentence(t.text, t.values) for t in phase.rules],
            "notes": [self.sentence(t.text, t.values) for t in phase.notes],
            "notes_before": phase.notes_before,
            "see": self.see_list(phase.see),
            "see_text": self.sentence(phase.see_text, {}) if phase.see_text is not None else None,
            "steps": [self.step(s) for s in phase.steps],
        }

    def printed(self) -> Iterator[tuple[str, Printed]]:
        """Every text of the sequence (as `Sequence.messages` gives them), by its msgctxt, with what the page
        prints of it, made when asked for."""
        seq, lz = self.seq, self.lz
        if seq.title is not None:
            yield seq.title.context, partial(lz.text, seq.title)
        for side in seq.sides:
            yield from ((name.context, partial(lz.text, name)) for name in (side.name, *side.forms.values()))
        for phase in seq.phases:
            if phase.title:
                yield phase.title.context, partial(self.title, phase)
            if phase.see_text is not None:
                yield phase.see_text.context, partial(self.sentence, phase.see_text, {})
            for said in (*phase.rules, *phase.notes):
                yield said.text.context, partial(self.sentence, said.text, said.values)
            for s in (s for s in walk(phase.steps) if not s.swapped):  # a mirror's texts are its model's
                if s.text is not None:
                    yield s.text.context, partial(self.step_text, s)
                for b in s.bullets:
                    yield b.text.context, partial(self.sentence, b.text, b.values, s.swapped)
                if s.note is not None:
                    yield s.note.context, partial(self.sentence, s.note, s.values, s.swapped)

    def context(self) -> SequenceDocument:
        lz, title = self.lz, self.seq.title
        phases = [self.phase(p) for p in self.seq.phases]
        skipped = self.labels.skipped()
        return {"title": lz.text(title) if title is not None else lz.pgettext("aid kind", "Sequence of play"),
                "titled": title is not None, "section": self.seq.section, "phases": phases,
                "lists": any(s.bullets for s in self.seq.steps()), "note_label": self.seq.note_label,
                "remarks": [f"step letters skip {skipped}, as documents in this language do (the package catalog's "
                            "letters; letters: latin for a, b, c)"] if skipped else []}
