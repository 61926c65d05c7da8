"""EPUB 3: a booklet or a sequence of play as an e-book, for e-readers and phones offline (`aids build --format
epub`, or `formats: [html, pdf, epub]` in aids.yaml).

Made from the aid's own page (its kind's template over the same localized model: the same numbers, words and
anchors as the web page and the PDF), packaged by EbookLib:

- the page split into one XHTML file a chapter (a booklet's title page and contents, then each level-1 section;
  a sequence of play is one), every link to an anchor of the page pointed at the file that holds it, a link to
  another aid's page (not in the book) left as its text; the web page's links to copy and its stylesheets dropped;
- the navigation document (the table of contents) of the headings the PDF has as bookmarks, in its outline;
- an e-reader stylesheet (templates/epub.css: the aids' own sheets, no print or screen sheet, the palette as
  plain colours), the package's DejaVu faces subset with fontTools to the characters of the book, its figures;
- the same bytes from the same sources: the identifier a UUID of the game, edition, aid and language; dc:date the
  game's publication; dcterms:modified and every ZIP entry's time the game's publication date (the PDFs' date;
  SOURCE_DATE_EPOCH if set); `mimetype` first, stored.
"""
from __future__ import annotations

import datetime as dt
import functools
import io
import itertools
import mimetypes
import os
import re
import uuid
import zipfile
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from . import epub_fonts, xhtml
from .capabilities import Capabilities
from .html import render_template
from .rendered import Rendered

if TYPE_CHECKING:
    from lxml.html import HtmlElement

    from .formats import Document

STYLE = "style/epub.css"
NOT_BEFORE_1980 = 315532800  # the first time a ZIP entry can hold


class Epub:
    """The e-book: reflowable XHTML of the aid's page, its contents, fonts and figures (aids/render/epub.py)."""
    name = "epub"
    summary = "an EPUB 3 e-book of a booklet or a sequence of play (<aid>.epub): reflowable, fonts embedded"
    capabilities = Capabilities(kinds="reflowable")  # a kind whose text reads in any width

    def render(self, doc: Document) -> dict[str, Rendered]:
        return {".epub": Rendered(book(doc))}


def book(doc: Document) -> bytes:
    """The EPUB of one aid in one language and edition, as bytes."""
    from ebooklib import epub

    root = page(doc)
    lang = doc.lz.lang
    parts = chapters(root)
    files = [f"{doc.model.id}-{n:02d}.xhtml" for n in range(len(parts))]
    where = {anchor: files[n] for n, part in enumerate(parts) for el in part for anchor in _ids(el)}
    for n, part in enumerate(parts):
        for el in part:
            relink(el, files[n], where)
    title = " ".join((root.findtext(".//title") or doc.model.id).split())
    contents = doc.lz.pgettext("rule booklet", "Contents")
    out = described(doc, title)
    bodies = [wrapped(part, doc.kind.name) for part in parts]
    drawn = epub_fonts.drawn([_html(body, lang) for body in bodies], stylesheet(doc),
                             epub_fonts.available(doc.game.theme))
    style = epub.EpubItem(uid="style", file_name=STYLE, media_type="text/css",
                          content=stylesheet(doc, drawn).encode())
    out.add_item(style)
    entries = outline(parts, files)
    named = {href.partition("#")[0]: label for _, label, href in reversed(entries)}  # a chapter's first heading
    spine = []
    for n, body in enumerate(bodies):
        chapter = chapter_type()(uid=f"c{n:02d}", title=named.get(files[n], title) if n else title,
                                 file_name=files[n], lang=lang)
        chapter.body = body
        if xhtml.has_svg([body]):
            chapter.properties.append("svg")  # as EPUB 3 asks of a file that draws inline SVG (an icon)
        chapter.add_item(style)
        out.add_item(chapter)
        spine.append(chapter)
    out.toc = toc(entries)
    for item in resources(doc, drawn):
        out.add_item(item)
    out.add_item(epub.EpubNcx())  # for readers of EPUB 2 only
    nav = epub.EpubNav(uid="nav", file_name="nav.xhtml", title=contents)
    nav.add_item(style)
    out.add_item(nav)
    out.spine = spine
    stream = io.BytesIO()
    epub.write_epub(stream, out, {"mtime": dt.datetime.fromtimestamp(epoch(doc), dt.UTC), "raise_exceptions": True,
                                  "epub3_landmark": False, "spine_direction": False})
    return fixed(stream.getvalue(), epoch(doc))


def resources(doc: Document, drawn: dict[epub_fonts.Face, set[str]]) -> Iterator[Any]:
    """The book's fonts (each face that draws some of its text, subset to what it draws), then its figures."""
    from ebooklib import epub

    for face, chars in drawn.items():  # in the order of their @font-face rules
        yield epub.EpubItem(uid="font-" + re.sub(r"\W", "-", face.path.stem), file_name=face.name,
                            media_type=face.media_type, content=epub_fonts.subset(face, chars))
    for suffix, figure in doc.figure_files().items():  # beside the chapters, as beside the web page
        if suffix in doc.faces:
            continue  # the web page's copy of a theme's font: the book has its own, subset (above)
        name = doc.model.id + suffix
        yield epub.EpubImage(uid="img-" + re.sub(r"\W", "-", name), file_name=name,
                             media_type=mimetypes.guess_type(name)[0] or "application/octet-stream",
                             content=figure.data)


def described(doc: Document, title: str) -> Any:
    """A new book with its metadata: identifier, title, language, the game's author and publication date."""
    from ebooklib import epub

    out = epub.EpubBook()
    out.set_identifier(identifier(doc))
    out.set_title(title)
    out.set_language(doc.lz.lang)
    game = doc.context["game"]
    if game.get("author"):
        out.add_author(str(game["author"]))
    if game.get("published_iso"):
        out.add_metadata("DC", "date", str(game["published_iso"]))
    return out


# --- the page, in chapters ------------------------------------------------------------------------

def page(doc: Document) -> HtmlElement:
    """The aid's page as the web has it (its figures linked beside it), without what serves a browser only; read
    as a browser reads it (xhtml.py: an icon's SVG as SVG spells it)."""
    folder = doc.kind.template_folder
    html = render_template(doc.kind.template, doc.lz, {**doc.context, "web": True},
                           (str(folder),) if folder else ())
    root = xhtml.parsed(html)
    for el in root.xpath("//style | //script | //link | //a[contains(concat(' ', @class, ' '), ' permalink ')]"):
        el.drop_tree()
    for el in root.iter():
        for name in [a for a in el.attrib if a.startswith("data-pagefind")]:
            del el.attrib[name]
    return root


def chapters(root: HtmlElement) -> list[list[HtmlElement]]:
    """The body in chapters, each a list of elements: a booklet's front matter, then each of its sections at
    level 1 (in a `<div class="rules">` of its own), what follows the rules with the last; one chapter otherwise."""
    body = root.body
    rules = body.find(".//main/div[@class='rules']")
    if rules is None:
        return [list(body)]
    main = rules.getparent()
    before = [el for el in body if el is not main]
    after = [el for el in before if _after(el, main)]
    before = [el for el in before if el not in after]
    front = [*before, *main[:main.index(rules)]]
    parts: list[list[HtmlElement]] = [[]]
    for el in list(rules):
        if el.tag == "h2" and {"rule-1", "level-1"} & set(el.get("class", "").split()) and parts[-1]:
            parts.append([])
        parts[-1].append(el)
    wrapped = []
    for part in parts:
        div = rules.makeelement("div", {"class": "rules"})
        div.extend(part)
        wrapped.append([div])
    wrapped[0] = [*front, *wrapped[0]]
    wrapped[-1] += [*main[main.index(rules) + 1:], *after]
    return wrapped


def _after(el: HtmlElement, main: HtmlElement) -> bool:
    parent = main.getparent()
    return parent is not None and parent.index(el) > parent.index(main)


def _ids(el: HtmlElement) -> Iterator[str]:
    for node in el.iter():
        if node.get("id"):
            yield node.get("id")


def relink(el: HtmlElement, here: str, where: dict[str, str]) -> None:
    """Each link of `el` (in the file `here`) to the file that holds its anchor; a link to a page not in the book
    (another aid's) left as its text."""
    for link in list(el.iter("a")):
        href = link.get("href")
        if href is None:
            continue
        if href.startswith("#"):
            anchor = unquote(href[1:])
            target = where.get(anchor)
            if target is not None:
                link.set("href", (target if target != here else "") + "#" + quote(anchor))
        elif not re.match(r"[a-z][a-z0-9+.-]*:", href):
            link.tag = "span"
            for name in ("href", "type", "hreflang"):
                link.attrib.pop(name, None)


def wrapped(part: list[HtmlElement], kind: str) -> HtmlElement:
    """A chapter's body: its elements inside the page's classes (the stylesheet's)."""
    import lxml.html

    div = lxml.html.html_parser.makeelement("div", {"class": f"aid aid-{kind}"})
    div.extend(part)
    return div


def _html(body: HtmlElement, lang: str) -> str:
    """A chapter as an HTML page, for the cascade that tells which face draws what (epub_fonts.py)."""
    import lxml.html

    return f'<!DOCTYPE html><html lang="{lang}"><body>{lxml.html.tostring(body, encoding="unicode")}</body></html>'


@functools.cache
def chapter_type() -> Any:
    """EbookLib's chapter (EpubHtml) written from its `body` as XHTML (xhtml.py): EbookLib's own would parse it
    as HTML again, lower-casing an icon's `viewBox`. (A class made once EbookLib is imported, as aids imports it
    only to make a book.)"""
    from ebooklib import epub

    class Chapter(epub.EpubHtml):
        body: HtmlElement

        def get_content(self, default: Any = None) -> bytes:
            self.content = "<html><body><p></p></body></html>"  # EbookLib's head (title, stylesheet); a body it
            # takes (an empty one is "Document is empty" to lxml), which the chapter's replaces
            return xhtml.document(super().get_content(default), [self.body])
    return Chapter


# --- the contents ----------------------------------------------------------------------------------

def outline(parts: list[list[HtmlElement]], files: list[str]) -> list[tuple[int, str, str]]:
    """(level, label, href) of every heading the PDF has as a bookmark (print.css), in order: a booklet's
    numbered rules at their level, a sequence's title and phases (number and title, without the side)."""
    found = []
    for n, part in enumerate(parts):
        for el in part:
            for heading in el.iter("h1", "h2", "h3", "h4", "h5", "h6"):
                level = bookmark_level(heading)
                if level is None:
                    continue
                label = heading.get("data-bookmark") or heading.text_content()
                anchor = heading.get("id")
                href = files[n] + (f"#{quote(anchor)}" if anchor else "")
                found.append((level, " ".join(label.split()), href))
    return found


def bookmark_level(heading: HtmlElement) -> int | None:
    """The outline level print.css gives a heading, None when it is no bookmark."""
    classes = set(heading.get("class", "").split())
    if classes & {"table-title", "ruling-title", "booklet-title", "toc-title"}:
        return None
    around = {c for node in heading.iterancestors() for c in node.get("class", "").split()}
    if "embed" in around and "phase-title" in classes:
        return None
    if "rules" in around:
        if "unnumbered" in classes:
            return _unnumbered_level(classes, around)
        for level in (1, 2, 3):
            if f"rule-{level}" in classes:
                return level
    return int(heading.tag[1])


def _unnumbered_level(classes: set[str], around: set[str]) -> int | None:
    """An unnumbered heading of a booklet is a bookmark at its level only in a booklet with no numbered heading,
    or over the index (print.css)."""
    levels = [int(c[len("level-"):]) for c in classes if re.fullmatch(r"level-[1-3]", c)]
    marked = "unnumbered-only" in around or "index-heading" in classes and levels[:1] != [3]
    return levels[0] if marked and levels else None


def toc(entries: Iterable[tuple[int, str, str]]) -> list[Any]:
    """EbookLib's table of contents: a Link, or (Section, [its entries]) for one with entries under it."""
    from ebooklib import epub

    top: list[list[Any]] = []
    stack: list[tuple[int, list[list[Any]]]] = [(0, top)]
    for level, label, href in entries:
        while stack[-1][0] >= level:
            stack.pop()
        children: list[list[Any]] = []
        stack[-1][1].append([label, href, children])
        stack.append((level, children))

    numbers = itertools.count(1)  # every entry's id in the NCX, unique

    def made(items: list[list[Any]]) -> list[Any]:
        return [(epub.Section(label, href), made(children)) if children else epub.Link(href, label, f"t{next(numbers)}")
                for label, href, children in items]
    return made(top)


# --- style, fonts, dates ---------------------------------------------------------------------------

def stylesheet(doc: Document, faces: Iterable[epub_fonts.Face] = ()) -> str:
    """templates/epub.css with the `faces` the book embeds, every colour as it is (an e-reader may know no var())."""
    fonts = [(face.family, f"../{face.name}", face.weight, face.style) for face in faces]
    return for_reader(render_template("epub.css", doc.lz, {**doc.context, "fonts": fonts}))


def for_reader(css: str) -> str:
    """The sheet without its rules for paper (`@media print`: pages, columns, a title page) and without custom
    properties: each var() is the value the `:root` rules give it (the palette's, the theme's colours), or its
    fallback."""
    import tinycss2

    values: dict[str, list[Any]] = {}
    kept = []
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        prelude = tinycss2.serialize(rule.prelude).strip().lower() if rule.type != "error" else ""
        if rule.type == "at-rule" and rule.lower_at_keyword == "media" and prelude == "print":
            continue
        if rule.type == "qualified-rule" and prelude == ":root":
            values.update((d.name, d.value) for d in tinycss2.parse_blocks_contents(rule.content, True, True)
                          if d.type == "declaration" and d.name.startswith("--"))
            continue
        kept.append(rule)
    for rule in kept:
        if getattr(rule, "content", None):
            rule.content = _resolved(rule.content, values)
    return "\n".join(tinycss2.serialize([rule]).strip() for rule in kept) + "\n"


def _resolved(tokens: list[Any], values: dict[str, list[Any]], depth: int = 0) -> list[Any]:
    """`tokens` with every var(--name, fallback) replaced by the value of --name, or by its fallback."""
    out: list[Any] = []
    for token in tokens:
        if token.type == "function" and token.lower_name == "var" and depth < 8:  # a cycle stops
            arguments = token.arguments
            comma = next((i for i, t in enumerate(arguments) if t.type == "literal" and t.value == ","), len(arguments))
            name = next((t.value for t in arguments[:comma] if t.type == "ident"), "")
            out.extend(_resolved(_trimmed(values.get(name, arguments[comma + 1:])), values, depth + 1))
            continue
        if token.type == "function":
            token.arguments = _resolved(token.arguments, values, depth)
        elif token.type in ("() block", "[] block", "{} block"):
            token.content = _resolved(token.content, values, depth)
        out.append(token)
    return out


def _trimmed(tokens: list[Any]) -> list[Any]:
    """`tokens` without the white space before and after them."""
    kept = [i for i, t in enumerate(tokens) if t.type not in ("whitespace", "comment")]
    return tokens[kept[0]:kept[-1] + 1] if kept else []


def identifier(doc: Document) -> str:
    """The same for every build of this aid in this edition and language: a UUID of their ids."""
    edition = doc.edition.id if doc.edition else "-"
    name = f"aids:{doc.game.id}/{edition}/{doc.model.id}/{doc.lz.lang}"
    return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, name)}"


def epoch(doc: Document) -> int:
    """The time the book is dated with: SOURCE_DATE_EPOCH when set, else the game's publication (as its PDFs)."""
    given = os.environ.get("SOURCE_DATE_EPOCH", "")
    return int(given) if given.isdigit() else doc.game.epoch()


def fixed(data: bytes, when: int) -> bytes:
    """The ZIP again with every entry dated `when`, `mimetype` first and stored, the rest deflated: the same
    bytes from the same content."""
    stamp = dt.datetime.fromtimestamp(max(when, NOT_BEFORE_1980), dt.UTC).timetuple()[:6]
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        names = src.namelist()
        for name in ["mimetype", *(n for n in names if n != "mimetype")]:
            info = zipfile.ZipInfo(name, stamp)
            info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            dst.writestr(info, src.read(name), compresslevel=9)
    return out.getvalue()
