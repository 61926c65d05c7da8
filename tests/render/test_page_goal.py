"""Page economy: a booklet's page goal met by tightening its type within its declared limit, or the miss
said; a last page nearly empty pointed out in the build summary."""
from __future__ import annotations

import importlib.util
from decimal import Decimal

import pytest
from pypdf import PdfReader

from aids.commands.report import summary_text
from aids.config import read_project
from aids.model.booklet import PageGoal
from aids.pipeline import builder
from aids.pipeline.pipeline import Options

from ..helpers import REPO
from .test_print_ready import runs_of


@pytest.fixture(scope="module")
def generate():
    spec = importlib.util.spec_from_file_location("booklet_benchmark", REPO / "benchmarks" / "booklet.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.generate


def build(root, pages: str | None):
    rules = root / "games" / "big" / "rules.yaml"
    text = rules.read_text(encoding="utf-8").split("pages:")[0]
    rules.write_text(text + (f"pages: {pages}\n" if pages else ""), encoding="utf-8")
    project = read_project(root)
    summary = builder.build(project, Options(formats=["pdf"], force=True))
    assert not summary.failed
    return summary.built[0], project.output / "big" / "pl" / "rules.pdf", summary


def body_size(path) -> float:
    sizes = [r[2] for page in PdfReader(path).pages for r in runs_of(page)]
    return max(set(sizes), key=sizes.count)


def test_the_type_tightens_to_meet_the_goal_and_no_further(generate, tmp_path):
    generate(tmp_path, 6)
    natural, path, _ = build(tmp_path, None)
    assert natural.pages == 8 and body_size(path) == 10
    met, path, summary = build(tmp_path, "{goal: 7, min_type: 8pt}")
    assert met.pages <= 7 and met.warnings == []
    size = body_size(path)
    assert 8 <= size < 10 and met.fitted == {"": size}, (size, met.fitted)  # read back from the PDF
    assert f"type {size:g} pt to meet 7 pages (8 at 10 pt)" in met.notes
    # the largest type that meets it: a quarter point more would not
    assert "big rules" in summary_text(summary) and f"{size:g}" in summary_text(summary)


def test_a_goal_out_of_reach_is_said_with_the_pages_it_misses_by(generate, tmp_path):
    generate(tmp_path, 6)
    missed, path, summary = build(tmp_path, "{goal: 2, min_type: 9pt}")
    assert missed.pages == 8 and body_size(path) == 10  # the designed layout, not a half-tightened one
    assert len(missed.warnings) == 1
    assert "more than its goal of 2 (8 at 10 pt)" in missed.warnings[0]
    assert "even at the smallest type 9 pt" in summary_text(summary)


def test_a_multiple_of_pages_for_saddle_stitching(generate, tmp_path):
    generate(tmp_path, 6)
    met, _, _ = build(tmp_path, "{multiple: 3, min_type: 8pt}")
    assert met.pages == 6  # 8 pages at 10 pt: the nearest multiple of 3 below


@pytest.mark.parametrize("goal, natural, target", [
    (PageGoal(goal=10), 11, 10), (PageGoal(goal=10), 9, 9), (PageGoal(multiple=4), 10, 8),
    (PageGoal(multiple=4), 12, 12), (PageGoal(goal=11, multiple=4), 12, 8), (PageGoal(multiple=4), 3, 1),
])
@pytest.mark.unit
def test_the_page_count_aimed_at(goal, natural, target):
    assert goal.target(natural) == target


def test_the_samples_meet_their_goals_and_report_nearly_empty_last_pages(sample):
    project, summary = sample
    booklets = [b for b in summary.built if b.aid == "system-rules"]
    assert {b.lang: b.pages for b in booklets} == {"pl": 10, "en": 10, "ru": 10}  # pages: {goal: 10}
    assert all(Decimal("9.5") <= Decimal(str(b.fitted[""])) <= 10 for b in booklets)
    for built in summary.built:
        if built.last_page is not None:
            reader = PdfReader(project.root / built.files[-1]) if built.files[-1].endswith(".pdf") else None
            assert reader is None or len(reader.pages) == built.pages
            assert 0 < built.last_page <= 1
    text = summary_text(summary)
    nearly_empty = [b for b in summary.built if b.last_page is not None and b.last_page < 0.25 and b.pages > 1]
    for built in nearly_empty:
        assert f"{built.lang} {built.last_page:.0%}" in text
    assert ("last page under 25% full" in text) == bool(nearly_empty)
