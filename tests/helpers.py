"""Reading the product as a user gets it: PDF text, pages, fonts; small projects built inline."""
from __future__ import annotations

import contextlib
import ctypes
import hashlib
import io
import json
import os
import shutil
import textwrap
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import pikepdf
from pypdf import PdfReader

from aids.commands.cli import main
from aids.config import read_project
from aids.kinds import reading
from aids.localize import making
from aids.localize.rich import Rich
from aids.pipeline import jobs
from aids.render.html import to_html
from aids.units import PT_PER_MM

T = TypeVar("T")
REPO = Path(__file__).resolve().parent.parent
# The PDF base fonts a viewer substitutes instead of embedding: none may appear in an aid.
STANDARD_14 = {"Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique", "Helvetica", "Helvetica-Bold",
               "Helvetica-Oblique", "Helvetica-BoldOblique", "Times-Roman", "Times-Bold", "Times-Italic",
               "Times-BoldItalic", "Symbol", "ZapfDingbats"}

DEMO_SEQUENCE = """\
kind: sequence
id: seq
title: Kolejność czynności
section: "3.2"
sides:
  - id: red
    name: Czerwoni
  - id: blue
    name: Niebiescy
phases:
  - id: prep
    title: Przygotowanie
    steps:
      - id: place
        text: Połóż żetony.
  - id: red-move
    title: Ruch czerwonych
    side: red
    steps:
      - id: move
        text: Czerwoni się ruszają.
        steps:
          - id: fire
            text: Niebiescy strzelają.
          - id: charge
            text: Niebiescy kontrszarżują; rozstrzyga się to w {ref:red-combat/resolve}.
            steps:
              - id: square
                text: Czworobok.
              - id: volley
                text: Salwa ({see:rule:12.4.4}).
  - id: red-combat
    title: Walka czerwonych
    side: red
    steps:
      - id: resolve
        text: Rozstrzygnij kontrszarże z {ref:red-move/move/charge}.
        see: ["rule:18.0", "red-move"]
        note: Tylko *raz* na etap.
  - id: blue-move
    title: Ruch niebieskich
    mirror_of: red-move
"""

DEMO_GAME = """\
id: demo
title: Gra próbna
version: "2.0"
published: 2021-03-04
author: Ktoś
source_language: pl
aids:
  - sequence.yaml
"""


DEMO_EDITIONS_GAME = """\
id: demo
title: Gra próbna
version: "1"
source_language: pl
editions:
  - id: cm
  - id: inch
    unit: in
    scale: 0.4
    rounding: {to: 0.5, mode: nearest}
aids:
  - sheet.yaml
  - move.yaml
  - mods.yaml
  - bands.yaml
"""

DEMO_SHEET = """\
kind: playsheet
id: sheet
title: Ściągawka
page: {budget: 1, type: 8pt, min_type: 7pt}
content:
  - table: move
  - table: mods
  - table: bands
  - checklist: turn
    title: Tura
    items:
      - {id: orders, text: Zapisz rozkazy.}
"""

DEMO_MOVE = """\
kind: table
id: move
title: Ruch
unit: cm
type: distance
columns:
  - {id: normal, label: normalny}
  - {id: charge, label: szarża}
rows:
  - {id: cavalry, label: Kawaleria, cells: [32, 40]}
  - {id: square, label: Czworobok, cells: [4, "-"]}
"""

DEMO_MODS = """\
kind: table
id: mods
form: modifiers
title: Modyfikatory
items:
  - {id: base, label: Piechota, value: 20}
  - {id: near, label: "Jednostka w promieniu {q:radius}", with: {radius: 30 cm}, value: +1}
  - {id: far, label: Daleko, value: -2}
  - {id: loss, label: "Każde {q:loss} strat", with: {loss: 5%}, value: -1}
  - {id: casualty, label: Straty, value: 0.1}
  - {id: turn, label: Zwrot, value: ½ move}
"""

DEMO_BANDS = """\
kind: table
id: bands
form: bands
title: Wyniki
corner: Wynik
columns:
  - {id: result, label: Skutek}
bands:
  - {id: high, range: 8+, cells: [uciekają]}
  - {id: mid, range: 4-7, cells: [stoją]}
  - {id: low, range: 3-, cells: [walczą]}
"""


# The demo game with two editions, a playsheet and the three forms of table.
DEMO_PLAYSHEET = {
    "games/demo/game.yaml": DEMO_EDITIONS_GAME, "games/demo/sheet.yaml": DEMO_SHEET,
    "games/demo/move.yaml": DEMO_MOVE, "games/demo/mods.yaml": DEMO_MODS, "games/demo/bands.yaml": DEMO_BANDS,
}


def make_project(root: Path, files: dict[str, str] | None = None, languages=("pl", "en", "ru")) -> Path:
    """A project in `root` with the demo game; `files` (path -> text) add to or replace its files."""
    base = {
        "aids.yaml": f"languages: [{', '.join(languages)}]\noutput: build\n",
        "games/demo/game.yaml": DEMO_GAME,
        "games/demo/sequence.yaml": DEMO_SEQUENCE,
    }
    base.update(files or {})
    for name, text in base.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


class Unit(NamedTuple):
    """A standalone aid of a game in one edition, as the sources declare it: what a build makes files of."""
    game: str
    edition: str  # "" for a game without editions
    aid: str
    kind: str
    reflowable: bool  # a booklet or a sequence: it makes an e-book too

    def path(self, lang: str, suffix: str) -> str:
        """Its output in `lang`, from the output folder: <game>/[<edition>/]<lang>/<aid><suffix>."""
        return "/".join(p for p in (self.game, self.edition, lang, f"{self.aid}{suffix}") if p)


def units(project) -> list[Unit]:
    """Every standalone aid of every game of `project`, once per edition, read from the sources: what a test of
    every output derives its expectations from, rather than counting the samples (which grow)."""
    found = []
    for game_id in project.game_ids():
        game = project.read_game(game_id)
        aids, broken = reading.read_aids(project, game)
        assert not broken, broken
        found += [Unit(game.id, edition.id if edition else "", aid.model.id, aid.kind.name, aid.kind.reflowable)
                  for aid in aids if aid.kind.standalone for edition in (game.editions or [None])]
    return found


def outputs(project, suffix: str, langs=None, kinds=None) -> set[str]:
    """The files every unit (of `kinds`, if given) makes in each language (`langs`, or the project's), from the
    output folder."""
    return {u.path(lang, suffix) for u in units(project) if kinds is None or u.kind in kinds
            for lang in (langs or project.languages)}


def sample_project(root: Path) -> Path:
    """The samples' sources and catalogs in a scratch project at `root`, as a user's project of games has them
    (the aids source tree's ui_domain left behind)."""
    for name in ("games", "i18n"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
    (root / "aids.yaml").write_text((REPO / "aids.yaml").read_text().replace("ui_domain: true", "ui_domain: false"))
    return root


def copy_project(source: Path, to: Path, build: bool = True) -> Path:
    """A scratch copy of a project's sources (aids.yaml, games/, i18n/), and of its build/ with its build cache
    when `build`: a build of the copy renders only what an edit made stale."""
    for name in ("aids.yaml", "games", "i18n", *(["build"] if build else [])):
        if (source / name).is_dir():
            shutil.copytree(source / name, to / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
        elif (source / name).exists():
            to.mkdir(parents=True, exist_ok=True)
            shutil.copy(source / name, to / name)
    return to


def own_files(output: Path, beside: Path) -> list[Path]:
    """The files of the output folder `output` (its build cache aside) that are not the same bytes at the same
    place in `beside`: in a copy of a build, what the copy's own builds wrote."""
    return sorted(p for p in output.rglob("*") if p.is_file() and ".aids-cache" not in p.relative_to(output).parts
                  and not ((beside / p.relative_to(output)).is_file()
                           and (beside / p.relative_to(output)).read_bytes() == p.read_bytes()))


def pdf_text(path: Path) -> str:
    """pypdf's text of every page, a line break between pages; read once a run for the same bytes (many tests
    read the same PDFs of the samples: read_back)."""
    return read_back(path, "pypdf-text",
                     lambda data: "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages))


READ_BACK: list[Path] = []  # the run's folder of what was read back, shared by its workers (conftest.py sets it)


def read_back(path: Path, what: str, read: Callable[[bytes], T]) -> T:
    """`read(bytes of path)` (JSON data: a text, lists, numbers) once per state of the file in this process, and
    once per run for the same bytes, wherever the file lies and whichever worker asks (the samples' PDFs are read
    by many tests): kept in the run's folder by the digest of the bytes and `what` was read of them. A file
    rewritten, touched or copied has another stat, and is looked up again."""
    found = Path(path).stat()
    key = (str(path), found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino, what)
    if key in _READ:
        _READ.move_to_end(key)
        return _READ[key]
    data = Path(path).read_bytes()
    kept = READ_BACK[0] / f"{hashlib.sha256(data).hexdigest()}.{what}.json" if READ_BACK else None
    if kept is not None and kept.is_file():
        value = json.loads(kept.read_text(encoding="utf-8"))
    else:
        text = json.dumps(read(data), ensure_ascii=False)
        if kept is not None:
            partial = kept.with_suffix(f".{os.getpid()}")
            partial.write_text(text, encoding="utf-8")
            partial.replace(kept)  # whole or not at all, whichever worker writes it
        value = json.loads(text)  # as another worker gets it back: tuples as lists
    _READ[key] = value
    if len(_READ) > 512:
        _READ.popitem(last=False)
    return value


_READ: OrderedDict[tuple, Any] = OrderedDict()  # this process's, the latest used last


def text_runs(page) -> list[tuple[float, float, float, str, str]]:
    """(x, y, size, font, text) of every text run of a PDF page (a pypdf page), in pt from its lower left: each
    text object of the page (and of the forms it draws, placed as they place it) as PDFium reads it, at its
    origin; the size as it prints (the font's size times the text's scale) and the base font's name without its
    subset tag."""
    import pypdfium2.raw as pdfium_c

    document, index = _pdfium_document(page.pdf), page.page_number
    pdfium_page = document[index]
    textpage = pdfium_page.get_textpage()
    runs = []
    for obj in pdfium_page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=8):
        text = _object_text(obj, textpage)
        if not text.strip():
            continue
        (a, b, _, _, e, f), size = _on_page(obj), ctypes.c_float()
        pdfium_c.FPDFTextObj_GetFontSize(obj.raw, ctypes.byref(size))
        runs.append((e, f, round(size.value * (a ** 2 + b ** 2) ** 0.5, 2), _font_name(obj), text.strip()))
    return runs


def _on_page(obj) -> tuple[float, ...]:
    """The matrix of a PDFium page object in the page's space: its own (in the space of the form it is in, if
    any) times that of each form it is drawn by (a page of an imposed booklet is one)."""
    matrix, form = obj.get_matrix(), obj.container
    while form is not None:
        matrix, form = matrix.multiply(form.get_matrix()), form.container
    return matrix.get()


_PDFIUM: dict[bytes, Any] = {}  # the last few documents opened, oldest first (closed as they leave, or at the end)


def _pdfium_open(data: bytes):
    import pypdfium2
    if data not in _PDFIUM:
        while len(_PDFIUM) >= 8:
            _PDFIUM.pop(next(iter(_PDFIUM))).close()
        _PDFIUM[data] = pypdfium2.PdfDocument(data)
    return _PDFIUM[data]


def close_pdfium() -> None:
    """Every PDFium document kept closed (at the session's end: else PDFium's finalizers each say one was left
    open)."""
    while _PDFIUM:
        _PDFIUM.popitem()[1].close()


def _pdfium_document(reader: PdfReader):
    """The PDFium document of the bytes a pypdf reader holds (kept for the few readers a test uses in a row)."""
    stream = reader.stream
    return _pdfium_open(stream.getvalue() if isinstance(stream, io.BytesIO) else Path(stream.name).read_bytes())


def _object_text(obj, textpage) -> str:
    import pypdfium2.raw as pdfium_c
    length = pdfium_c.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
    buffer = ctypes.create_string_buffer(length)
    pdfium_c.FPDFTextObj_GetText(obj.raw, textpage.raw, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)),
                                 length)
    return buffer.raw[:length - 2].decode("utf-16-le")


def _font_name(obj) -> str:
    import pypdfium2.raw as pdfium_c
    font = pdfium_c.FPDFTextObj_GetFont(obj.raw)
    length = pdfium_c.FPDFFont_GetBaseFontName(font, None, 0)
    buffer = ctypes.create_string_buffer(length)
    pdfium_c.FPDFFont_GetBaseFontName(font, buffer, length)
    return "/" + buffer.value.decode("latin-1")


def card_type_sizes(path: Path) -> list[tuple[float, float, float]]:
    """Per page of a card's PDF (one face, or a sheet of them): the body's type size (the most common), the
    smallest type above the colophon, and the colophon's (the lowest line), in pt as a reader's PDF gets them."""
    found = []
    for page in PdfReader(path).pages:
        runs = text_runs(page)
        foot = min(r[1] for r in runs)
        colophon = [r[2] for r in runs if r[1] < foot + 1]
        text = [r[2] for r in runs if r[1] >= foot + 1]
        found.append((max(set(text), key=text.count), min(text), min(colophon)))
    return found


def pdf_fonts(path: Path) -> dict[str, bool]:
    """Base font name -> embedded, for every font used on any page (descendants of Type0 fonts included)."""
    fonts: dict[str, bool] = {}
    for page in PdfReader(path).pages:
        resources = page.get("/Resources") or {}
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            desc_font = descendants[0].get_object() if descendants else font
            descriptor = desc_font.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor else {}
            embedded = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            fonts[str(font["/BaseFont"])] = embedded
    return fonts


RGB_SPACES = {"/DeviceRGB", "/CalRGB", "/RGB"}  # /RGB: an inline image's abbreviation


def claims_pdf_x(path: Path) -> bool:
    """Whether a PDF says it is PDF/X (its document information or its XMP metadata)."""
    with pikepdf.open(path) as pdf:
        metadata = pdf.Root.get("/Metadata")
        return "/GTS_PDFXVersion" in pdf.docinfo or (metadata is not None and b"GTS_PDFXVersion" in metadata.read_bytes())


def rgb_in(path: Path) -> list[str]:
    """Everything RGB in a PDF, wherever it is: a colour space that names DeviceRGB or CalRGB or an ICC profile of
    three components (an image's, a resource's, a transparency group's, a shading's, an Indexed or Pattern
    space's base), and an rg or RG operator or an RGB inline image in any content stream (pages, forms, patterns,
    Type 3 glyphs). Read with pikepdf, independently of aids' own pass (render/recolour.py)."""
    with pikepdf.open(path) as pdf:
        found: list[str] = []
        for obj in pdf.objects:
            if obj is not None:
                _rgb_spaces(obj, f"object {obj.objgen[0]}", found)
        return found + _rgb_operators(pdf)


def _rgb_spaces(obj, where: str, found: list[str]) -> None:
    """The RGB colour spaces `obj` names, itself or any direct object inside it."""
    if isinstance(obj, pikepdf.Name) and str(obj) in RGB_SPACES:
        found.append(f"{where}: {obj}")
    elif isinstance(obj, pikepdf.Array):
        if len(obj) == 2 and obj[0] == "/ICCBased" and int(obj[1].get("/N", 0)) == 3:
            found.append(f"{where}: ICCBased, 3 components")
        for i, item in enumerate(obj):
            if not (isinstance(item, (pikepdf.Array, pikepdf.Dictionary)) and item.is_indirect):
                _rgb_spaces(item, f"{where}[{i}]", found)
    elif isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
        for key in set(obj.keys()) - {"/Metadata", "/OutputIntents", "/Parent", "/P", "/K"}:  # no colour under these
            value = obj.get(key)
            indirect = isinstance(value, (pikepdf.Array, pikepdf.Dictionary, pikepdf.Stream)) and value.is_indirect
            if key == "/DefaultRGB" or not indirect:
                _rgb_spaces(value, f"{where}{key}", found)


def _rgb_operators(pdf) -> list[str]:
    """The rg and RG operators and RGB inline images of every content stream of `pdf`."""
    streams = [(f"page {n}", page.obj) for n, page in enumerate(pdf.pages, 1)]
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and (obj.get("/Subtype") == "/Form" or obj.get("/PatternType") == 1):
            streams.append((f"object {obj.objgen[0]}", obj))
        elif isinstance(obj, pikepdf.Dictionary) and obj.get("/Subtype") == "/Type3":
            streams += [(f"glyph of object {obj.objgen[0]}", glyph) for glyph in obj.CharProcs.values()]
    found = []
    for where, owner in streams:
        for instruction in pikepdf.parse_content_stream(owner):
            if isinstance(instruction, pikepdf.ContentStreamInlineImage):
                space = instruction.iimage.obj.get("/CS", instruction.iimage.obj.get("/ColorSpace"))
                if str(space) in RGB_SPACES:
                    found.append(f"{where}: an inline image in {space}")
            elif str(instruction.operator) in ("rg", "RG"):
                found.append(f"{where}: {instruction.operator} {' '.join(map(str, instruction.operands))}")
    return found


def page_sizes_mm(path: Path) -> list[tuple[float, float]]:
    return [(round(float(p.mediabox.width) / PT_PER_MM, 1), round(float(p.mediabox.height) / PT_PER_MM, 1))
            for p in PdfReader(path).pages]


def read_demo(root: Path, game_id: str = "demo"):
    """The first aid of a game read as the build reads it, with its project and game."""
    project = read_project(root)
    game = project.read_game(game_id)
    return reading.read_aid(project, game, game.aids[0]), project, game


def as_html(value):
    """Localized values as a page shows them: runs of text rendered to HTML (what assertions read)."""
    if isinstance(value, Rich):
        return to_html(value)
    if isinstance(value, dict):
        return {k: as_html(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_html(v) for v in value]
    return value


def localized_demo(root: Path, lang: str):
    """The template context of the demo game's first aid in `lang` (runs as HTML), as its page shows it (laid out:
    a card's sections on its faces), and its localizer."""
    aid, project, game = read_demo(root)
    lz = making.localizer(project, game, lang)
    return as_html(aid.kind.lay_out(aid.model, aid.kind.localize(aid.model, lz, None), lz)), lz


def rerender(project, game_id: str, lang: str) -> dict:
    """The first aid of `game_id` rendered again in `lang` (HTML and PDF), to compare with what the build wrote."""
    game = project.read_game(game_id)
    aids, _ = reading.read_aids(project, game)
    lz = making.localizer(project, game, lang)
    return jobs.render_aid(project, game, aids[0], lz, None, ["html", "pdf"])


def built_files(output: Path) -> dict[Path, bytes]:
    """The files a build wrote in `output`: its outputs, without the build cache beside them and the search index
    of each publication (`pagefind/`, made from the pages: tests/write/test_search.py), nor the web site's pages
    (tests/render/test_site.py)."""
    return {p: p.read_bytes() for p in sorted(output.rglob("*"))
            if p.is_file() and ".aids-cache" not in p.parts and "pagefind" not in p.parts
            and not is_site_page(output, p)}


def is_site_page(output: Path, path: Path) -> bool:
    """A page of the web site (aids/site/site.py): build/index.html, build/index.<lang>.html, build/<game>/<lang>/index.html."""
    return (path.parent == output and path.name.startswith("index.")) or path.name == "index.html"


def booklet_benchmark():
    """benchmarks/booklet.py as a module: its generator of big booklets, for the tests of pagination and parts."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("booklet_benchmark", REPO / "benchmarks" / "booklet.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(*args) -> tuple[int, str, str]:
    """aids run in-process as from a shell: its exit code, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def edit(path: Path, old: str, new: str) -> None:
    """A source edited as its owner would: the first `old` replaced by `new` (which must be there)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def reissue_demo(folder: Path) -> None:
    """The edits of a designer reissuing the demonstration game (aids init): a step reworded, one removed, one
    added, a table value changed."""
    sequence = folder / "sequence.yaml"
    edit(sequence, "fires at one enemy unit within range.", "fires at one enemy unit in range and in sight.")
    edit(sequence, '''      - id: orders
        text: "Each player gives each of their units one order, to move or to fire."
''', "")
    edit(sequence, '''      - id: advance''', '''      - id: rally
        text: "Each unit out of contact may rally."
      - id: advance''')
    edit(folder / "terrain.yaml", "{id: woods, label: Woods, cells: [2, -2]}", "{id: woods, label: Woods, cells: [3, -2]}")
