"""Every output read back as its reader reads it: the text a page shows (not its scripts, styles or markup), in the
language it claims, and the colours a press file paints. Used by tests/test_every_output.py over all the samples
make; runnable on an output folder to see what it finds: `python -m tests.reading build`.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pikepdf
from lxml import etree, html

JAVA = shutil.which("java")
EPUBCHECK = Path("/usr/share/java/epubcheck.jar")  # Debian's epubcheck (./bootstrap test installs it)

# What a reader should never see: aids' placeholders ({side:phasing}, {q:range}, {ref:chapter:VI|loc}, {num:4 with
# its brace lost), Python's and Jinja's (%(page)s, {{ title }}, {% if %}).
PLACEHOLDER = re.compile(r"\{[a-z][a-z_-]*(?::[^{}\s]*)?\}|\{[a-z]+:[^\s{}]*|%\([a-z_]+\)[sd]|\{\{|\}\}|\{%|%\}"
                         r"|\b(?:None|null|undefined|NaN)\b")  # and a program's name for nothing
# A lookup that failed and said so, in each language.
NOT_FOUND = re.compile(r"not found|nie znalezion|не найден", re.IGNORECASE)

CYRILLIC = re.compile(r"[\u0400-\u04ff]")
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# Words of one language that are no word of the others (English "to", "a", "on", "by", "do", "no" are Polish too;
# Polish "i", "w", "z" are roman numerals and step letters): two of them in one line of a page in another language
# are a sentence of that language.
STOPWORDS = {
    "en": {"the", "and", "of", "with", "for", "are", "is", "this", "that", "from", "each", "its", "when", "which",
           "must", "may", "not", "any", "have", "has", "be", "at", "or", "if", "it", "their", "your", "into"},
    "pl": {"się", "jest", "nie", "oraz", "lub", "od", "po", "za", "przez", "że", "jak", "jego", "który", "która",
           "które", "gdy", "tylko", "być", "ze", "dla", "czy", "są", "jeśli", "może", "każdy", "każda", "jego",
           "ich", "swoje", "swój", "ten", "tej", "tym"},
}
# Names every language writes in Latin letters: this toolkit's and those of the formats it makes.
NAMES = {"aids", "Atom", "EPUB", "PDF", "HTML", "Pagefind"}
# An abbreviation (ZOC, OTR, PDF) or a roman numeral (ii, XIII) is no word of a language.
ABBREVIATION = re.compile(r"[A-Z]{2,5}|[ivxlc]+|[IVXLC]+")
POLISH_LETTERS = re.compile(r"[ąćęłńśźżĄĆĘŁŃŚŹŻ]")


@dataclass(frozen=True)
class Line:
    """A line of text as a reader sees it, where it stands, and the languages it is meant to be in."""
    where: str  # file (and page or part)
    text: str
    langs: frozenset[str]


# A source's own syntax quoted in a text (`sheet: {back_offset: [x, y]}`, a YAML key and mapping) is no language.
CODE = re.compile(r"\{[^{}]*\}|\b[a-z_]+:(?=\s*\{|\s*$)")
# An address (https://example.org/valmora/forum, an e-mail) is no language either.
ADDRESS = re.compile(r"\b(?:https?://|mailto:|www\.)[^\s()<>]*|[\w.+-]+@[\w-]+\.[\w.-]+")


def foreign(line: Line, allowed: set[str]) -> str | None:
    """Why `line` reads as another language than its own, or None. `allowed`: words marked as another language
    somewhere in the same output (a term in its source language, a name), which may stand anywhere."""
    words = [w for w in WORD.findall(CODE.sub(" ", ADDRESS.sub(" ", line.text)))
             if w.lower() not in allowed and not ABBREVIATION.fullmatch(w) and w not in NAMES]
    if not words:
        return None
    if "ru" not in line.langs:
        cyrillic = [w for w in words if CYRILLIC.search(w)]
        if cyrillic:
            return f"Cyrillic words {cyrillic[:5]}"
    if line.langs == {"ru"}:
        latin = [w for w in words if not CYRILLIC.search(w) and len(w) > 1]
        if latin:
            return f"Latin words {latin[:5]}"
    for lang, stop in STOPWORDS.items():
        if lang in line.langs:
            continue
        found = sorted({w.lower() for w in words} & stop)
        if len(found) >= 2:
            return f"{lang} words {found}"
    if "pl" not in line.langs:
        polish = sorted({w for w in words if POLISH_LETTERS.search(w)})
        if len(polish) >= 2:  # one is a name (Ostrołęka, Lwów); two are a phrase
            return f"Polish words {polish[:5]}"
    return None


# ---- the text of each kind of output

SKIPPED = {"script", "style", "template", "noscript", "svg"}  # svg: its <title> is read, below, as an icon's name
BLOCKS = {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "figcaption", "caption", "title",
          "summary", "div", "section", "header", "footer", "nav", "article", "aside", "blockquote", "label",
          "button", "option", "legend", "a", "span", "em", "strong", "sup", "small", "b", "i"}
ATTRIBUTES = ("alt", "title", "aria-label", "placeholder")


def _lang(element: etree._Element, default: str) -> str:
    while element is not None:
        value = element.get("lang") or element.get("{http://www.w3.org/XML/1998/namespace}lang")
        if value:
            return value.split("-")[0].lower()
        element = element.getparent()
    return default


def _local(tag: object) -> str:
    return etree.QName(tag).localname.lower() if isinstance(tag, str) else ""


def markup_lines(root: etree._Element, where: str, default: str,
                 allowed: dict[str, set[str]]) -> Iterator[Line]:
    """The text of a page as a reader sees it, a line per text node (attributes a screen reader says included),
    each in the language its element declares; the words of elements marked as another language than the page's
    gathered into `allowed` (by the language they are allowed in: the page's)."""
    page_lang = _lang(root, default)
    for element in root.iter():
        tag = _local(element.tag)
        if not tag or any(_local(a.tag) in SKIPPED for a in element.iterancestors()) or tag in SKIPPED:
            if tag == "svg":  # an inline icon: its name is read
                for title in element.iter("{*}title", "title"):
                    if title.text and title.text.strip():
                        yield Line(where, title.text.strip(), frozenset({_lang(element, page_lang)}))
            continue
        lang = _lang(element, page_lang)
        for attribute in ATTRIBUTES:
            if element.get(attribute):
                yield Line(where, element.get(attribute), frozenset({lang}))
        for text in (element.text, *(child.tail for child in element)):
            if text and text.strip():
                if lang != page_lang:
                    allowed.setdefault(page_lang, set()).update(w.lower() for w in WORD.findall(text))
                yield Line(where, text.strip(), frozenset({lang}))


def html_lines(path: Path, shown: str, default: str, allowed: dict[str, set[str]]) -> list[Line]:
    root = html.fromstring(path.read_bytes())
    return list(markup_lines(root, shown, default, allowed))


def epub_lines(path: Path, shown: str, default: str, allowed: dict[str, set[str]]) -> list[Line]:
    lines: list[Line] = []
    with zipfile.ZipFile(path) as book:
        for name in book.namelist():
            if name.endswith((".xhtml", ".html")):
                root = etree.fromstring(book.read(name), etree.XMLParser(resolve_entities=False, no_network=True))
                lines += markup_lines(root, f"{shown}!{name}", default, allowed)
    return lines


def feed_lines(path: Path, shown: str, default: str, allowed: dict[str, set[str]]) -> list[Line]:
    root = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
    lines: list[Line] = []
    for element in root.iter():
        tag = _local(element.tag)
        if tag in {"title", "subtitle", "summary", "rights", "name"} and element.text:
            lines.append(Line(shown, element.text.strip(), frozenset({_lang(element, default)})))
        elif tag == "content" and element.text:
            if element.get("type") in ("html", "xhtml"):
                fragment = html.fragment_fromstring(element.text, create_parent="div")
                fragment.set("lang", _lang(element, default))
                lines += markup_lines(fragment, shown, default, allowed)
            else:
                lines.append(Line(shown, element.text.strip(), frozenset({_lang(element, default)})))
    return lines


def pdf_lines(path: Path, shown: str, langs: frozenset[str]) -> list[Line]:
    """A PDF's text per page, in reading order (poppler)."""
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
    return [Line(f"{shown} p. {n}", line.strip(), langs) for n, page in enumerate(text.split("\f"), 1)
            for line in page.splitlines() if line.strip()]


def epubcheck(path: Path) -> tuple[str, str]:
    """EPUBCheck's last line of counts for `path`, and all it said."""
    return epubcheck_each([path])[path]


EACH = Path(__file__).with_name("EpubCheckEach.java")  # EPUBCheck's own command, run for each book in one JVM


def epubcheck_each(paths: list[Path]) -> dict[Path, tuple[str, str]]:
    """{path: EPUBCheck's last line of counts, all it said} of each book, checked as `epubcheck BOOK` checks it
    alone, but in one Java process (Java runs the source file itself): EPUBCheck loads its schemas once, not once
    a book (3 CPU s each), and a client JIT only is quicker for a run of seconds."""
    done = subprocess.run([str(JAVA), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", str(EPUBCHECK),
                           str(EACH), *map(str, paths)], capture_output=True, text=True, timeout=600)
    streams = [re.split(r"^=== (.*)\n", out, flags=re.M) for out in (done.stdout, done.stderr)]
    said = {Path(name): "" for name in streams[0][1::2]}
    for parts in streams:
        for name, text in zip(parts[1::2], parts[2::2], strict=True):
            said[Path(name)] += text
    assert done.returncode == 0 and list(said) == list(paths), done.stdout[-2000:] + done.stderr[-2000:]
    found = {}
    for path, text in said.items():
        counts = re.search(r"Messages: (\d+) fatals / (\d+) errors / (\d+) warnings", text)
        found[path] = (counts.group(0) if counts else "no counts"), text
    return found


# ---- colours of a press file

RGB_NAMES = {"/DeviceRGB", "/CalRGB", "/RGB"}  # /RGB: an inline image's abbreviation


def claims_pdfx(pdf: pikepdf.Pdf) -> bool:
    intents = pdf.Root.get("/OutputIntents")
    if intents is not None and any(str(i.get("/S")) == "/GTS_PDFX" for i in intents):
        return True
    return "/GTS_PDFXVersion" in pdf.docinfo


def _rgb_space(value: object) -> str | None:
    """Why a colour-space value is RGB, or None."""
    if isinstance(value, pikepdf.Name) and str(value) in RGB_NAMES:
        return str(value)
    if isinstance(value, pikepdf.Array) and len(value) >= 2:
        family = str(value[0])
        if family == "/ICCBased" and int(value[1].get("/N", 0)) == 3:
            return "ICCBased RGB (N 3)"
        if family in ("/Indexed", "/Separation", "/DeviceN", "/Pattern"):
            for part in list(value)[1:]:
                why = _rgb_space(part)
                if why:
                    return f"{family} over {why}"
        if family in RGB_NAMES:
            return family
    return None


def _content_streams(pdf: pikepdf.Pdf) -> Iterator[tuple[str, object]]:
    for n, page in enumerate(pdf.pages, 1):
        yield f"page {n}", page
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and (obj.get("/Subtype") == "/Form" or obj.get("/PatternType") == 1):
            yield f"object {obj.objgen[0]} ({obj.get('/Subtype') or 'pattern'})", obj
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Subtype") == "/Type3" and "/CharProcs" in obj:
            for name, proc in obj.CharProcs.items():
                yield f"Type3 glyph {name}", proc


def rgb_in_pdfx(path: Path) -> list[str]:
    """Every RGB colour in a file that claims PDF/X: colour spaces anywhere (images, resources, shadings, groups,
    annotations) and the operators that set DeviceRGB without naming it (rg, RG, an inline image's /CS /RGB)."""
    found: list[str] = []
    with pikepdf.open(path) as pdf:
        if not claims_pdfx(pdf):
            return []
        for obj in pdf.objects:
            items = obj.items() if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)) else ()
            for key, value in items:
                if key in ("/ColorSpace", "/CS", "/Alternate", "/DefaultRGB") or str(key).startswith("/CS"):
                    why = _rgb_space(value)
                    if why:
                        found.append(f"object {obj.objgen[0]} {key}: {why}")
                if key == "/ColorSpace" and isinstance(value, pikepdf.Dictionary):  # a resource dictionary
                    for name, space in value.items():
                        why = _rgb_space(space)
                        if why:
                            found.append(f"object {obj.objgen[0]} colour space {name}: {why}")
        for where, stream in _content_streams(pdf):
            try:
                instructions = pikepdf.parse_content_stream(stream)
            except pikepdf.PdfError as exc:
                found.append(f"{where}: unreadable content ({exc})")
                continue
            for instruction in instructions:
                if isinstance(instruction, pikepdf.ContentStreamInlineImage):
                    space = instruction.iimage.obj.get("/ColorSpace", instruction.iimage.obj.get("/CS"))
                    if space is not None and _rgb_space(space):
                        found.append(f"{where}: inline image in {_rgb_space(space)}")
                elif str(instruction.operator) in ("rg", "RG"):
                    found.append(f"{where}: operator {instruction.operator} (DeviceRGB)")
    return sorted(set(found))


def lines_of(path: Path, shown: str, langs: frozenset[str], allowed: dict[str, set[str]]) -> list[Line]:
    """The lines of any output a reader reads (PDF, web page, e-book, feed); none of other files."""
    default = sorted(langs)[0]
    if path.suffix == ".pdf":
        return pdf_lines(path, shown, langs)
    if path.suffix == ".html":
        return html_lines(path, shown, default, allowed)
    if path.suffix == ".epub":
        return epub_lines(path, shown, default, allowed)
    if path.suffix in (".atom", ".rss"):
        return feed_lines(path, shown, default, allowed)
    return []


def problems(lines: list[Line], allowed: dict[str, set[str]], placeholders: bool = True,
             languages: bool = True) -> list[str]:
    """What a reader should not meet in `lines`: placeholders, lookups said to have failed, text in another
    language than the line's (`allowed`: the words marked as another language, by the language they stand in)."""
    found = []
    for line in lines:
        for pattern, what in ((PLACEHOLDER, "placeholder"), (NOT_FOUND, "'not found'")) if placeholders else ():
            if pattern.search(line.text):
                found.append(f"{line.where}: {what}: {line.text[:160]}")
        why = foreign(line, set().union(*(allowed.get(lang, set()) for lang in line.langs))) if languages else None
        if why:
            found.append(f"{line.where}: {why}: {line.text[:160]}")
    return found


if __name__ == "__main__":  # what a folder of outputs holds that a reader should not meet
    root = Path(sys.argv[1])
    every: dict[str, list[Line]] = {}
    allowed_in: dict[str, dict[str, set[str]]] = {}
    for path in sorted(root.rglob("*")):
        shown = str(path.relative_to(root))
        langs = [p for p in path.relative_to(root).parts if re.fullmatch(r"(pl|en|ru)(\+(pl|en|ru))*", p)]
        game = path.relative_to(root).parts[0]
        if path.suffix == ".pdf":
            for why in rgb_in_pdfx(path):
                print(f"{shown}: RGB in PDF/X: {why}")
        every.setdefault(game, []).extend(
            lines_of(path, shown, frozenset((langs[0] if langs else "en").split("+")), allowed_in.setdefault(game, {})))
    for game, lines in every.items():
        for problem in problems(lines, allowed_in[game]):
            print(problem)
