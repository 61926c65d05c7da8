"""No stray line break in running text, read back from every PDF the samples produce, in every language and
profile (home, press, imposed), and from a generated booklet of over 100 pages: a publisher sends these files
without proof-reading them. The reader of lines and what it calls stray are in lines.py.

The cause of the breaks it found (WeasyPrint 70.0, docs/development/weasyprint-trailing-space/README.md): a text run ending in a
space or no-break space right before an inline element. The markup aids writes never does that."""
from __future__ import annotations

import importlib.util
from html.parser import HTMLParser
from pathlib import Path

import pytest

from aids.config import read_project
from aids.localize.rich import Link, Rich, Span
from aids.pipeline import builder
from aids.pipeline.pipeline import Options
from aids.render.html import spaces_lead, to_html

from ..helpers import REPO, own_files
from .lines import stray_breaks, widest_word_space

NBSP = "\u00a0"
INLINE = {"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i", "kbd", "mark", "q", "s",
          "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var"}


def every_pdf(sample, for_print) -> list[tuple[Path, Path]]:
    """(path, its output folder) of every PDF of the samples' build and of the for-print build (its own files)."""
    printed = [p for p in own_files(for_print.output, sample[0].output) if p.suffix == ".pdf"]
    return [(path, output) for output, paths in ((sample[0].output, sorted(sample[0].output.rglob("*.pdf"))),
                                                 (for_print.output, printed))
            for path in paths if path.parent.name in ("pl", "en", "ru")]


def test_no_stray_line_break_in_any_pdf_of_any_language_or_profile(sample, for_print):
    paths = every_pdf(sample, for_print)
    names = {path.name for path, _ in paths}
    assert {"system-rules-press.pdf", "system-rules-imposed.pdf", "system-rules-imposed-press.pdf"} <= names
    assert {path.parent.name for path, _ in paths} == {"pl", "en", "ru"} and len(paths) > 50
    found = [f"{path.relative_to(output)} {line}" for path, output in paths for line in stray_breaks(path)]
    assert not found, "\n".join(found)


LOOSE = 0.7  # em: DejaVu Sans's word space is 0.32 em; stretched past about twice that, a justified line gapes


def test_no_loose_line_in_running_text(sample, for_print):
    """Booklets and sequences (running text, not tables and cards): the widest word space of every page within
    LOOSE. Justified two-column booklets had lines of two or three ems a space; they are set ragged now."""
    texts = [(path, output) for path, output in every_pdf(sample, for_print)
             if not any(kind in path.name for kind in ("card", "playsheet"))]
    assert len(texts) > 20
    loose = [f"{path.relative_to(output)} p. {n}: {space} em" for path, output in texts
             for n, space in enumerate(widest_word_space(path), 1) if space > LOOSE]
    assert not loose, "\n".join(loose)


def test_no_stray_line_break_in_a_generated_booklet_of_over_100_pages(tmp_path):
    spec = importlib.util.spec_from_file_location("booklet_benchmark", REPO / "benchmarks" / "booklet.py")
    assert spec and spec.loader
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    benchmark.generate(tmp_path, 110)
    project = read_project(tmp_path)
    assert not builder.build(project, Options(formats=["pdf"])).failed
    path = project.output / "big" / "pl" / "rules.pdf"
    from pypdf import PdfReader
    assert len(PdfReader(path).pages) >= 100
    assert stray_breaks(path) == []
    assert max(widest_word_space(path)) <= LOOSE  # one column, justified


# --- the cause, and the markup that avoids it ----------------------------------------------------------

CASE = ("<p style='width: {w}pt'>the exception is fire at the unit attacking it, which is resolved"
        "{before}<a href='#x'>{inside}3.2.7,&nbsp;step&nbsp;3.a</a>.</p>")


def _weasyprint_pdf(path: Path, before: str, inside: str) -> Path:
    from aids.render.pdf import weasyprint
    paragraphs = "".join(CASE.format(w=w, before=before, inside=inside) for w in range(100, 200, 3))
    html = ("<html lang='en'><style>@page { size: 300pt 3000pt; margin: 10pt } p { font: 10pt 'DejaVu Sans'; "
            f"hyphens: auto; hyphenate-character: '-'; margin: 0 0 14pt }}</style><body>{paragraphs}</body></html>")
    weasyprint().HTML(string=html).write_pdf(path)
    return path


def test_the_reader_finds_weasyprints_stray_breaks_and_the_markup_avoids_them(tmp_path):
    """The reader is not blind: a no-break space ending the run before a link breaks lines in plain WeasyPrint
    (NOTES: 48 of 100 widths), and the reader sees it; the space moved into the link, no width breaks."""
    bad = stray_breaks(_weasyprint_pdf(tmp_path / "bad.pdf", " in&nbsp;", ""))
    assert len(bad) >= 5, bad
    assert stray_breaks(_weasyprint_pdf(tmp_path / "good.pdf", " in", "&nbsp;")) == []


@pytest.mark.unit
def test_spaces_at_a_boundary_of_runs_lead_the_later_run():
    rich = Rich([Span(f"resolved in{NBSP}"), Link(Rich([Span("3.2.7")]), "r-3-2-7"), Span(" now, "),
                 Span("bold ", strong=True), Span("text")])
    assert str(to_html(rich)) == (f'resolved in<a class="ref" href="#r-3-2-7">{NBSP}3.2.7</a> now,'
                                  '<strong> bold</strong> text')
    # a run of spaces alone passes them all on; nothing is lost
    spaced = spaces_lead(Rich([Span("a "), Span(" ", em=True), Span("b", strong=True)]))
    assert spaced == Rich([Span("a"), Span("  b", strong=True)])


class _Runs(HTMLParser):
    """Text runs that end in a space right before an inline element's start tag."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text = ""
        self.skip = 0
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.skip += tag in ("script", "style")
        if tag in INLINE and self.text.strip() and self.text[-1].isspace():
            self.found.append(f"line {self.getpos()[0]}: “…{self.text[-30:]}<{tag}”")
        self.text = ""

    def handle_endtag(self, tag: str) -> None:
        self.skip -= tag in ("script", "style")
        self.text = ""

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.text = data


def test_no_text_run_ends_in_a_space_before_an_inline_element(sample):
    """Over every aid's HTML (the very markup WeasyPrint lays out): whatever rule put a space there (the
    typography's no-break spaces, a template, a source), it leads the element, never ends the run."""
    project, _ = sample
    pages = [p for p in project.output.rglob("*.html") if p.parent.name in ("pl", "en", "ru")
             and p.name != "index.html"]
    assert len(pages) > 20
    found = []
    for page in pages:
        runs = _Runs()
        runs.feed(page.read_text(encoding="utf-8"))
        found += [f"{page.relative_to(project.output)} {where}" for where in runs.found]
    assert not found, "\n".join(found[:20])
