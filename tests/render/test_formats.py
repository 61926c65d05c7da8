"""The output formats declare what they apply to and need (render/capabilities.py), and the pipeline reads that:
a format is one module and one registration, named nowhere else."""
from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

import aids.pipeline
from aids.config.game import Print
from aids.kind import Kind
from aids.kinds import BookletKind, CardKind, PlaysheetKind
from aids.pipeline import pipeline
from aids.render import formats
from aids.render.capabilities import Capabilities
from aids.render.rendered import Rendered

pytestmark = pytest.mark.unit


class Outline:
    """A toy variant, as another package or a new module would add one: a text outline of a fitted aid (a card, a
    playsheet) wherever its game prints for a monochrome printer."""
    name = "outline"
    summary = "a toy"
    capabilities = Capabilities(kinds="fitted", of="pdf", profile="gray")

    def render(self, doc):
        return {"-outline.txt": Rendered(doc.kind.name.encode())}


@pytest.fixture
def outline(monkeypatch):
    monkeypatch.setitem(formats.registry(), Outline.name, Outline())


def test_a_format_registered_alone_is_built_where_it_declares_with_no_other_edit(outline):
    gray, home = SimpleNamespace(printing=Print(gray=True)), SimpleNamespace(printing=Print())
    assert pipeline.unit_formats(["html", "pdf"], gray) == ("html", "pdf", "gray", "outline")
    assert pipeline.unit_formats(["html", "pdf"], home) == ("html", "pdf")
    assert pipeline.unit_formats(["html", "outline"], home) == ("html", "outline")
    # it applies to the kinds with its flag only: no file, and no call, for a booklet
    made = {kind.name: pipeline.render(SimpleNamespace(kind=kind), ["outline"])
            for kind in (CardKind(), PlaysheetKind(), BookletKind())}
    assert made == {"card": {"-outline.txt": Rendered(b"card")}, "playsheet": {"-outline.txt": Rendered(b"playsheet")},
                    "booklet": {}}


def test_whether_weasyprint_is_needed_is_what_the_formats_declare(monkeypatch):
    assert not formats.paged(["html", "epub"]) and formats.paged(["html", "imposed"])
    assert not formats.paged(["outline"])
    monkeypatch.setitem(formats.registry(), "outline", SimpleNamespace(capabilities=Capabilities(paged=True)))
    assert formats.paged(["outline"])
    assert not formats.paged(["nonesuch"])


def test_the_pipeline_names_no_variant():
    """No module of the pipeline holds the name of a format that is a variant or applies to some kinds only (press,
    gray, imposed, epub ...): what they need and where they apply is theirs to declare."""
    variants = {name for name, fmt in formats.registry().items()
                if (found := formats.declared(fmt)).of or found.kinds or found.profile}
    assert {"press", "gray", "imposed", "imposed-press", "epub"} <= variants
    named = [f"{path.name}:{node.lineno}: {node.value!r}" for path in sorted(Path(aids.pipeline.__file__).parent.glob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Constant) and node.value in variants]
    assert named == []


def test_a_kind_has_one_hook_for_its_pdfs_whatever_the_profile():
    assert [name for name in dir(Kind) if name.startswith("render")] == ["render_pdf"]
