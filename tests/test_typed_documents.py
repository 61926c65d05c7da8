"""The localized documents are typed (aids/localize/documents.py): mypy reads a misspelled key of a sequence's or
a card's document as an error, and every document the samples localize to is what its TypedDict says (its keys
allowed, the required ones there, each value of its declared type), so that the types cannot drift from what
localize makes."""
from __future__ import annotations

import functools
import types
import typing
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Literal, NotRequired, get_args, get_origin, get_type_hints

import pytest
from mypy import api

from aids.config import read_project
from aids.kinds import CardKind, reading
from aids.localize import documents, making
from aids.localize.changes import localize_changes
from aids.localize.game import localize_game
from aids.localize.rich import Rich
from aids.render.card_fit import ArrangedCard, Fitted

from .helpers import REPO

SNIPPET = '''\
from aids.localize.documents import CardDocument, SequenceDocument


def first_step(doc: SequenceDocument) -> str:
    return doc["phases"][0]["step"][0]["anchor"]


def subtitle(doc: CardDocument) -> str | None:
    return doc["subtitel"]
'''


def test_mypy_reads_a_misspelled_key(tmp_path):
    """A renderer that reads a key localize never writes fails `mypy aids`, as it would fail at run time."""
    probe = tmp_path / "probe.py"
    probe.write_text(SNIPPET, encoding="utf-8")
    out, err, status = api.run([str(probe), "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                                "--follow-imports", "silent", "--python-version", "3.11"])
    assert status == 1, out + err
    assert 'TypedDict "PhaseDocument" has no key "step"' in out
    assert 'TypedDict "CardDocument" has no key "subtitel"' in out


# --- at run time: the documents of the samples match their types ------------------------------------------

def problems(value: Any, hint: Any, where: str = "") -> list[str]:
    """How `value` is not of type `hint` (a TypedDict checked key by key, however nested); [] when it is."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any or hint is object:
        return []
    if typing.is_typeddict(hint):
        return typed_dict_problems(value, hint, where)
    if origin in (typing.Union, types.UnionType):
        tried = [problems(value, arg, where) for arg in args]
        return [] if any(not found for found in tried) else min(tried, key=len)
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is none of {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__}, not a list"]
        return [p for i, item in enumerate(value) for p in problems(item, args[0], f"{where}[{i}]")]
    if origin is tuple:
        return [] if isinstance(value, tuple) and all(isinstance(v, (int, float)) for v in value) else \
            [f"{where}: {value!r} is not a tuple of numbers"]
    if origin in (Mapping, dict):
        return [] if isinstance(value, Mapping) else [f"{where}: {type(value).__name__}, not a mapping"]
    if origin is frozenset:
        return [] if isinstance(value, frozenset) else [f"{where}: not a frozenset"]
    expected = {float: (int, float), Decimal: (Decimal,), bool: (bool,)}.get(hint, (hint,))
    if hint is int and isinstance(value, bool) or not isinstance(value, expected):
        return [f"{where}: {type(value).__name__} {value!r:.40}, not {getattr(hint, '__name__', hint)}"]
    return []


@functools.cache
def hints(typed: type) -> dict[str, Any]:
    return {key: hint.__args__[0] if get_origin(hint) is NotRequired else hint
            for key, hint in get_type_hints(typed, include_extras=True).items()}


@functools.cache
def required(typed: type) -> list[str]:
    """Its keys not marked NotRequired (not `__required_keys__`: under `from __future__ import annotations`,
    Python 3.11 cannot see a NotRequired in an annotation left a string)."""
    return sorted(key for key, hint in get_type_hints(typed, include_extras=True).items()
                  if get_origin(hint) is not NotRequired)


def typed_dict_problems(value: Any, typed: type, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: {type(value).__name__}, not a {typed.__name__}"]
    name = f"{where or typed.__name__}"
    found = [f"{name}: key '{key}' is not in {typed.__name__}" for key in value if key not in hints(typed)]
    found += [f"{name}: required key '{key}' of {typed.__name__} missing" for key in required(typed)
              if key not in value]
    return found + [p for key, item in value.items() if key in hints(typed)
                    for p in problems(item, hints(typed)[key], f"{name}.{key}")]


@pytest.mark.unit
def test_the_check_sees_a_drift():
    """The checker itself: a key not declared, a required key missing, a value of another type, deep down."""
    step = {"anchor": "a/b", "label": "b", "marker": "b)", "level": 1, "actor": None, "text": Rich(), "bullets": [], "note": None,
            "see": None, "steps": []}
    assert problems(step, documents.StepDocument) == []
    assert problems({**step, "colour": "red"}, documents.StepDocument) == [
        "StepDocument: key 'colour' is not in StepDocument"]
    assert problems({k: v for k, v in step.items() if k != "marker"}, documents.StepDocument) == [
        "StepDocument: required key 'marker' of StepDocument missing"]
    assert problems({**step, "steps": [{**step, "level": "2"}]}, documents.StepDocument) == [
        "StepDocument.steps[0].level: str '2', not int"]
    block = {"type": "paragraph", "text": Rich()}
    assert problems(block, documents.BookletBlock) == []
    assert problems({**block, "type": "para"}, documents.BookletBlock) != []


@functools.cache
def samples() -> list[tuple[str, Any, Any, Any]]:
    """(where, aid, localizer, game) for every aid of every sample game, in each of the project's languages."""
    project = read_project(REPO)
    out = []
    for game_id in project.game_ids():
        game = project.read_game(game_id)
        aids, broken = reading.read_aids(project, game)
        assert not broken, game_id
        for lang in project.languages:
            lz = making.localizer(project, game, lang)
            out.extend((f"{game_id}/{aid.model.id} ({lang})", aid, lz, game) for aid in aids)
    return out


TYPES = {"sequence": documents.SequenceDocument, "table": documents.TableDocument,
         "playsheet": documents.PlaysheetDocument, "card": documents.CardDocument,
         "booklet": documents.BookletDocument}


def test_every_sample_document_is_of_its_type():
    """Every aid of the samples in every language, localized as the build localizes it (a card before its
    fitting lays it out, which test_an_arranged_card_is_of_its_type covers once), is what its TypedDict declares."""
    kinds = set()
    for where, aid, lz, game in samples():
        kinds.add(aid.kind.name)
        document = aid.kind.localize(aid.model, lz, None)
        assert problems(document, TYPES[aid.kind.name], aid.kind.name) == [], where
        assert problems(localize_game(game, lz), documents.GameDocument) == [], where
    assert kinds == set(TYPES)


def test_an_arranged_card_is_of_its_type():
    """A card as its kind gives it to its renderers: its faces fitted (render/card_fit.py), by `lay_out` (the
    render stage's) of what `localize` made, which is the localized card alone, nothing laid out."""
    where, aid, lz, _ = next(s for s in samples() if s[1].kind.name == "card")
    localized = CardKind().localize(aid.model, lz, None)
    assert problems(localized, documents.CardDocument) == [] and "type_size" not in localized, where
    arranged = CardKind().lay_out(aid.model, localized, lz)
    assert problems(arranged, ArrangedCard) == [], where
    assert all(isinstance(face["fitted"], Fitted) for face in arranged["faces"])


@pytest.mark.parametrize("log", [None, [{"id": "rules", "title": "Rules", "entries": [
    {"what": "new", "text": "A rule", "number": "4.1", "href": "#r", "awaiting": False, "lang": "en"}]}]])
@pytest.mark.unit
def test_a_changes_document_is_of_its_type(log):
    where, _, lz, _ = samples()[0]
    changes = localize_changes("1.0", [], "bars", lz, log)
    assert (changes is None) == (log is None)
    if changes is not None:
        assert problems(changes, documents.ChangesDocument) == [], where
