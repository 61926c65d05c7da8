"""What `aids build` reports: a bar that steps when an aid is written, then a compact summary."""
from __future__ import annotations

import json
import re
import shutil
from types import SimpleNamespace

import pytest
from pypdf import PdfReader

from aids.commands import report
from aids.commands.cli import main, make_parser
from aids.errors import Position
from aids.localize.localizer import Fallback
from aids.model.text import Text
from aids.pipeline import builder
from aids.pipeline.pipeline import Built, Summary

from .helpers import REPO, is_site_page

pytestmark = pytest.mark.unit


def built(game, edition, aid, lang, files, pages=0, warnings=(), fitted=None, seconds=1.0):
    names = [f"build/{game}/{lang}/{aid}{suffix}" for suffix in files]
    return Built(game, edition, lang, aid, names, pages, list(warnings), fitted=fitted or {}, seconds=seconds)


def test_the_summary_is_a_table_of_the_aids_built():
    summary = Summary(built=[
        built("gcacw", None, "system-rules", "pl", [".html", ".pdf"], 11, seconds=3.0),
        built("gcacw", None, "system-rules", "en", [".html", ".pdf"], 10, seconds=2.5),
        built("gcacw", None, "system-rules", "ru", [".html", ".pdf"], 11, seconds=3.3),
        built("lwow-1920", None, "referee-card", "pl", [".html", ".pdf", "-sheet.pdf"], 2,
              fitted={"front": 8.5, "back": 7.5}),
        built("lwow-1920", None, "referee-card", "en", [".html", ".pdf", "-sheet.pdf"], 2,
              fitted={"front": 8.75, "back": 7.75}),
        built("newbury-fast-play", "cm", "playsheet", "pl", [".html", ".pdf"], 2, fitted={"": 7.5}, seconds=4.0),
        built("newbury-fast-play", "cm", "playsheet", "en", [".html", ".pdf"], 2, fitted={"": 7.5}, seconds=4.0),
        built("newbury-fast-play", "inch", "playsheet", "en", [".html"], seconds=0.3),
    ], skipped=["demo/seq ru: 12.5 % translated, below the threshold of 50 % (not built; any earlier files of "
                "it are stale)"], unchanged=4, seconds=12.34)
    assert report.summary_text(summary) == """\
aid                                 languages  files  pages                 time  fitted (pt)
gcacw system-rules                  pl en ru       6  pl 11, en 10, ru 11  8.8 s
lwow-1920 referee-card              pl en          6  2                    2.0 s  pl 8.5/7.5,
                                                                                  en 8.75/7.75 (front/back)
newbury-fast-play [cm] playsheet    pl en          4  2                    8.0 s  7.5
newbury-fast-play [inch] playsheet  en             1                       0.3 s
skipped demo/seq ru: 12.5 % translated, below the threshold of 50 % (not built; any earlier files of it are stale)
17 file(s) written, 4 up to date, 0 aid(s) failed, in 12.3 s"""


def test_a_value_that_differs_by_language_is_given_for_each():
    items = [built("g", None, "a", lang, [".pdf"], pages) for lang, pages in [("pl", 3), ("en", 0), ("ru", 3)]]
    assert report.per_language(items, lambda b: str(b.pages or "")) == "pl 3, en -, ru 3"
    assert report.per_language(items[:1], lambda b: str(b.pages)) == "3"


def test_the_fitted_type_size_names_the_faces_of_a_card():
    def card(sizes):
        return [built("g", None, "c", lang, [".pdf"], 2, fitted=dict(zip(["front", "back"], size, strict=False)))
                for lang, size in zip(["pl", "en"], sizes, strict=True)]
    assert report.fitted(card([(9, 8.5), (9, 8.5)])) == "front 9, back 8.5"
    assert report.fitted(card([(9, 8.5), (9, 8.25)])) == "pl 9/8.5, en 9/8.25 (front/back)"
    assert report.fitted(card([(9,), (9.5,)])) == "pl 9, en 9.5"  # one face
    assert report.fitted([built("g", None, "s", "pl", [".pdf"], 1, fitted={"": 7.5})]) == "7.5"
    assert report.fitted([built("g", None, "q", "pl", [".html"])]) == ""


def test_a_long_last_cell_wraps_within_the_width():
    assert report.wrapped("pl 8.5/7.5, en 8.75/7.75, ru 8.25/7", 26) == ["pl 8.5/7.5, en 8.75/7.75,", "ru 8.25/7"]
    assert report.wrapped("a-very-long-piece, b", 5) == ["a-very-long-piece,", "b"]
    assert report.wrapped("", 5) == [""]


def test_warnings_are_grouped_by_aid_each_once_with_its_languages():
    long_word = "games/g/a.yaml:3:4: a word of 40 letters cannot fit a column"
    summary = Summary(built=[
        built("g", "cm", "a", "pl", [".pdf"], 1, warnings=[long_word]),
        built("g", "cm", "a", "en", [".pdf"], 1, warnings=[long_word, "card 'a' (en): face back fits only at 6 pt"]),
        built("g", "cm", "a", "ru", [".pdf"], 1, warnings=[long_word]),
        built("g", "inch", "a", "pl", [".pdf"], 1),
        built("g", "inch", "b", "ru", [".pdf"], 1, warnings=["something else"]),
    ])
    assert report.warnings(summary) == [
        "g [cm] a:",
        f"  warning: {long_word} (pl en ru)",
        "  warning: card 'a' (en): face back fits only at 6 pt (en)",
        "g [inch] b:",
        "  warning: something else (ru)",
    ]


def fallback(n: int, reason: str = "untranslated") -> Fallback:
    return Fallback(Text(f"Text {n}", f"seq/s{n}", "", Position("games/g/seq.yaml", n, 3)), reason)


def test_fallbacks_show_a_few_unless_verbose():
    found = [fallback(n) for n in range(1, 8)] + [fallback(8, "translation loses {ref:x}")]
    summary = Summary(fallbacks={("g", "en"): found, ("g", "ru"): [fallback(1, "fuzzy")]})
    short = report.fallbacks(summary)
    assert short == [
        "g en: 8 string(s) fell back to the source language:",
        "  games/g/seq.yaml:8:3: [seq/s8] translation loses {ref:x}",  # a broken translation first
        "  games/g/seq.yaml:1:3: [seq/s1] untranslated",
        "  games/g/seq.yaml:2:3: [seq/s2] untranslated",
        "  games/g/seq.yaml:3:3: [seq/s3] untranslated",
        "  games/g/seq.yaml:4:3: [seq/s4] untranslated",
        "  ... 3 more (aids build -v lists them all)",
        "g ru: 1 string(s) fell back to the source language:",
        "  games/g/seq.yaml:1:3: [seq/s1] fuzzy",
    ]
    every = report.fallbacks(summary, verbose=True)
    assert every[:6] == short[:6] and len(every) == 1 + 8 + 2
    assert [line for line in every if "more" in line] == []
    assert "  games/g/seq.yaml:7:3: [seq/s7] untranslated" in every
    assert "  games/g/seq.yaml:7:3: [seq/s7] untranslated" in report.summary_text(summary, verbose=True)
    assert "  games/g/seq.yaml:7:3: [seq/s7] untranslated" not in report.summary_text(summary)
    assert make_parser().parse_args(["build", "-v"]).verbose and make_parser().parse_args(["build"]).verbose is False


def test_a_unit_is_named_with_its_edition_and_languages():
    unit = SimpleNamespace(game=SimpleNamespace(id="valmora-1809"), edition=SimpleNamespace(id="inch"),
                           aid=SimpleNamespace(model=SimpleNamespace(id="turn-sequence")))
    label = builder.unit_label(unit, ["pl", "en", "ru"])  # type: ignore[arg-type]
    assert label == "valmora-1809 [inch] turn-sequence pl en ru"
    assert builder.unit_label(SimpleNamespace(**{**vars(unit), "edition": None}), ["en"]) == \
        "valmora-1809 turn-sequence en"  # type: ignore[arg-type]
    job = SimpleNamespace(game="valmora-1809", edition="inch", aid="turn-sequence", lang="ru")
    assert builder.job_label(job) == "valmora-1809 [inch] turn-sequence ru"  # type: ignore[arg-type]


# --- end to end --------------------------------------------------------------------------------

@pytest.fixture
def two_samples(tmp_path):
    """valmora-1809 (two editions) and lwow-1920 (a card) copied from the samples, with their catalogs."""
    root = tmp_path / "project"
    for game in ("valmora-1809", "lwow-1920"):
        shutil.copytree(REPO / "games" / game, root / "games" / game)
        for po in (REPO / "i18n").glob(f"*/LC_MESSAGES/{game}.po"):
            target = root / po.relative_to(REPO)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(po, target)
    (root / "aids.yaml").write_text("languages: [pl, en, ru]\noutput: build\ngames: games\ncatalogs: i18n\n")
    return root


def outputs(root):
    """The aids' files (the web site's pages, the archive of releases, the pages of the changes since each release,
    the histories, the feed and the search index are written after them all: tests/render/test_site.py,
    tests/test_archive.py, tests/test_since.py, tests/write/test_search.py)."""
    return {p.relative_to(root).as_posix() for p in (root / "build").rglob("*")
            if p.is_file() and not any(part.startswith((".aids-", "since-")) or part in ("pagefind", "history")
                                       for part in p.parts) and p.name != "changes.atom"
            and not is_site_page(root / "build", p) and not p.relative_to(root / "build").parts[1][:1].isdigit()}


class Recorder:
    """A progress that writes down what was on disk at each aid written, and what was printed when it closed."""

    def __init__(self, root, capsys):
        self.root, self.capsys = root, capsys
        self.totals: set[int] = set()
        self.steps: list[tuple[str, set[str]]] = []
        self.printed_at_close: list[str] = []

    def __call__(self, status):
        self.totals.add(status.total)
        if status.written > len(self.steps):
            self.steps.append((status.last, outputs(self.root)))

    def close(self):
        self.printed_at_close.append(self.capsys.readouterr().out)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.integration
def test_a_build_steps_as_each_aid_is_written_and_sums_it_up(two_samples, monkeypatch, capsys, jobs):
    root = two_samples
    recorders: list[Recorder] = []
    monkeypatch.setattr(report, "Progress", lambda mode: recorders.append(Recorder(root, capsys)) or recorders[-1])
    assert main(["--project", str(root), "build", "--jobs", jobs]) == 0
    out = capsys.readouterr().out
    (bar,) = recorders
    units = {"valmora-1809 [cm] turn-sequence pl en ru": "build/valmora-1809/cm/",
             "valmora-1809 [inch] turn-sequence pl en ru": "build/valmora-1809/inch/",
             "lwow-1920 referee-card pl en ru": "build/lwow-1920/"}
    assert bar.totals == {3} and sorted(label for label, _ in bar.steps) == sorted(units)
    everything = outputs(root)
    # each step comes when its aid is written, whole, and no earlier: what is on disk is what has stepped
    for n, (label, on_disk) in enumerate(bar.steps):
        stepped = [units[lbl] for lbl, _ in bar.steps[:n + 1]]
        assert on_disk == {f for f in everything if f.startswith(tuple(stepped))}, label
    assert bar.steps[-1][1] == everything  # the last step: every file written, nothing after it
    assert bar.printed_at_close == [""]  # the bar was closed before the summary was printed

    lines = out.splitlines()
    assert lines[0].split() == ["aid", "languages", "files", "pages", "time", "fitted", "(pt)"]
    for name, folder, files in [("valmora-1809 [cm] turn-sequence", "valmora-1809/cm", 6),
                                ("valmora-1809 [inch] turn-sequence", "valmora-1809/inch", 6),
                                ("lwow-1920 referee-card", "lwow-1920", 12)]:
        aid = name.split()[-1]
        pages = {lang: len(PdfReader(root / "build" / folder / lang / f"{aid}.pdf").pages) for lang in ("pl", "en", "ru")}
        cell = str(pages["pl"]) if len(set(pages.values())) == 1 else ", ".join(f"{k} {v}" for k, v in pages.items())
        (row,) = [line for line in lines if line.startswith(name + " ")]
        assert re.match(rf"{re.escape(name)} +pl en ru +{files}  {re.escape(cell)} +\d+\.\d s", row), row
    # the card's type sizes, as its note in the build cache words them
    records = root / "build/.aids-cache/records/lwow-1920/referee-card/-"
    notes = {lang: re.match(r"type ([\d.]+) pt", json.loads((records / lang / "pdf.json").read_text(encoding="utf-8"))
                            ["notes"][0]) for lang in ("pl", "en", "ru")}
    sizes = {lang: note[1] for lang, note in notes.items()}  # one size for both faces
    expected = next(iter(sizes.values())) if len(set(sizes.values())) == 1 else \
        ", ".join(f"{lang} {size}" for lang, size in sizes.items())
    card = lines.index(next(line for line in lines if line.startswith("lwow-1920 ")))
    end = next(n for n in range(card + 1, len(lines)) if not lines[n].startswith(" "))
    cell = " ".join(line[len(lines[0].split("fitted")[0]):] for line in lines[card:end])
    assert cell == expected
    notes = sum(line.startswith("  note: last page under") for line in lines)  # each under its aid's name
    assert len(lines) <= 1 + 3 + 2 + 1 + 2 * notes and all(len(line) <= report.WIDTH + 10 for line in lines)
    assert lines[-1].startswith(f"{len(everything)} file(s) written, 0 aid(s) failed, in ")
