"""Every output of every sample read back as its reader reads it: every PDF of every profile, every web page
(the archive's, history and since pages included), every e-book, every feed, the errata of every release, the
bilingual aids and the packet. None shows a placeholder, says a lookup failed, or holds text of another language
than its own (apart from text marked as another language, such as a term's original name); no file that claims
PDF/X paints in RGB; EPUBCheck passes every e-book. A new kind of output is read here or the test says it is not.
"""
from __future__ import annotations

import os
from pathlib import Path

import pikepdf
import pytest

from aids.releases import release
from aids.releases.errata import errata

from .helpers import REPO, own_files
from .reading import EPUBCHECK, JAVA, Line, claims_pdfx, epubcheck_each, lines_of, problems, rgb_in_pdfx

# what a reader reads, by suffix; and what is not text for a reader (styles, scripts, pictures, fonts, the search
# index's data), each named so that a new kind of output fails the test until it is read or named here
READ = {".pdf", ".html", ".epub", ".atom"}
NOT_READ = {".css", ".js", ".mjs", ".json", ".png", ".svg", ".jpg", ".jpeg", ".woff", ".woff2", ".ttf", ".otf",
            ".pf_meta", ".pf_fragment", ".pf_index", ".pagefind", ".wasm", ".txt", ".gz", ".ico", ".webmanifest"}


def errata_sheets(project, folder: Path) -> list[Path]:
    """The errata sheet of every release of every sample game in every language, written into `folder` (not the
    samples' output, which other tests read as `aids build` leaves it)."""
    out = []
    for game in map(project.read_game, project.game_ids()):
        for version in release.versions(game):
            pdfs = project.output.joinpath(game.id, version, *([game.editions[0].id] if game.editions else []))
            if not pdfs.is_dir():
                continue
            for lang in project.languages:
                path = folder / game.id / lang / f"errata-{version}.pdf"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(errata(project, game, version, lang, pdfs))
                out.append(path)
    return out


def languages_of(path: Path, output: Path, project) -> frozenset[str]:
    """The languages an output is meant to be in: those its path names (pl+en: both), a packet's, else its own."""
    parts = path.relative_to(output).parts
    for part in parts:
        langs = part.split("+")
        if set(langs) <= set(project.languages):
            return frozenset(langs)
    if "packets" in parts:
        packet = next(p for p in project.packets if p.id == path.stem)
        return frozenset(packet.languages)
    if path.suffix == ".pdf":
        with pikepdf.open(path) as pdf:
            return frozenset({str(pdf.Root.get("/Lang", project.languages[0])).split("-")[0]})
    name = path.name.split(".")
    return frozenset({name[1]} if len(name) == 3 and name[1] in project.languages else {project.languages[0]})


@pytest.fixture(scope="module")
def every_output(sample, for_print, tmp_path_factory):
    """{path: its languages} of every file the samples make a reader read, and the files not read."""
    project = sample[0]
    every = sorted(p for p in project.output.rglob("*") if p.is_file() and ".aids-cache" not in p.parts)
    folders = [(project.output, project, every),  # and what the for-print build wrote in its copy of the samples
               (for_print.output, for_print, own_files(for_print.output, project.output))]
    errata_folder = tmp_path_factory.mktemp("errata")
    sheets = errata_sheets(project, errata_folder)
    assert sheets, "no release of any sample has an errata sheet"
    found: dict[Path, frozenset[str]] = {path: frozenset({path.parent.name}) for path in sheets}
    unknown = []
    for output, owner, paths in folders:
        for path in paths:
            if path.suffix in READ:
                found[path] = languages_of(path, output, owner)
            elif path.suffix not in NOT_READ and "pagefind" not in path.parts:
                unknown.append(str(path.relative_to(output)))
    assert not unknown, f"outputs this test does not read: {unknown}"
    return found


def game_of(path: Path) -> str:
    """The game an output is of (its first folder under an output folder), or '' for the site's own pages."""
    for part in path.parts:
        if (REPO / "games" / part).is_dir():
            return part
    return ""


@pytest.fixture(scope="module")
def read_lines(every_output) -> dict[str, tuple[list[Line], dict[str, set[str]]]]:
    """By game: every line of its outputs, and the words they mark as another language, by the language they stand
    in (a PDF cannot mark them: words its web pages mark may stand in it)."""
    games: dict[str, tuple[list[Line], dict[str, set[str]]]] = {}
    for path, langs in every_output.items():
        lines, allowed = games.setdefault(game_of(path), ([], {}))
        lines += lines_of(path, str(path), langs, allowed)
    return games


def test_every_kind_of_output_is_read(every_output):
    suffixes = {path.suffix for path in every_output}
    names = {path.name for path in every_output}
    assert suffixes == READ
    assert {"changes.atom", "system-rules-press.pdf", "system-rules-imposed-press.pdf", "referee-card-gray.pdf",
            "lwow-cup-2026.pdf", "errata-2.0.pdf"} <= names
    assert any("history" in path.parts for path in every_output)
    assert any(part.startswith("since-") for path in every_output for part in path.parts)


def report(found: list[str], limit: int = 60) -> str:
    return f"{len(found)} found:\n" + "\n".join(found[:limit]) + ("\n..." if len(found) > limit else "")


def test_no_reader_meets_a_placeholder_or_a_failed_lookup(read_lines):
    found = [p for lines, _ in read_lines.values() for p in problems(lines, {}, languages=False)]
    assert not found, report(found)


def test_every_output_is_in_its_own_language_apart_from_text_marked_as_another(read_lines):
    found = [p for lines, allowed in read_lines.values() for p in problems(lines, allowed, placeholders=False)]
    assert not found, report(found)


def test_no_file_that_claims_pdf_x_paints_in_rgb(every_output):
    pdfx = [path for path in every_output if path.name.endswith(("-press.pdf", "-imposed-press.pdf"))]
    assert pdfx
    found = [f"{path}: {why}" for path in pdfx for why in rgb_in_pdfx(path)]
    assert not found, report(found)


def test_every_press_file_claims_pdf_x(every_output):
    pdfx = [path for path in every_output if path.name.endswith("press.pdf")]
    unclaimed = []
    for path in pdfx:
        with pikepdf.open(path) as pdf:
            if not claims_pdfx(pdf):
                unclaimed.append(str(path))
    assert not unclaimed


def test_every_e_book_passes_epubcheck_without_an_error_or_a_warning(every_output):
    if not (JAVA and EPUBCHECK.is_file()):
        reason = "epubcheck or java missing (./bootstrap test installs them)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    books = sorted(path for path in every_output if path.suffix == ".epub")
    assert books
    results = epubcheck_each(books)
    failed = {str(p): said for p, (counts, said) in results.items()
              if counts != "Messages: 0 fatals / 0 errors / 0 warnings"}
    assert not failed, "\n".join(f"{name}:\n{said}" for name, said in failed.items())
