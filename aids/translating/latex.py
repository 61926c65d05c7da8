"""The LaTeX of a po4a catalog made aids' markup, for `aids import` (docs/guide/import.md): the book's own macros
as the project declares them (an icon, a reference to a section, a glossary term, a note, an index entry), LaTeX's
emphasis, escapes and typography (`~`, `--`, `---`, `\\,`, ``...'', babel's ,,...'' and <<...>>) as aids writes
them, and the text cut into pieces where aids has entries of their own: a list's items, a note's text, paragraphs.

pylatexenc parses the text (a macro's arguments, nested groups, environments, comments, verbatim); a macro
neither LaTeX's nor declared is reported, never guessed at.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pylatexenc import latexwalker as lw
from pylatexenc import macrospec

from ..errors import AidsError, Position, Problem
from ..source.yamlfile import read_yaml

# what a declared macro becomes: a placeholder of aids around its argument, a piece of its own, or nothing
PLACEHOLDERS = {"icon": "icon", "ref": "ref", "see": "see", "term": "term"}
KINDS = (*PLACEHOLDERS, "note", "index", "drop")
KINDS_EXPECTED = "a map of " + ", ".join(KINDS) + " to lists of macro names, and labels: a map of labels to ids"

STYLES = {"emph": "*", "textit": "*", "textsl": "*", "textbf": "**", "texttt": "`"}
CONTENT = {"textsc", "textrm", "textsf", "textup", "textnormal", "underline", "mbox", "text", "hbox"}
CHARS = {"&": "&", "%": "%", "$": "$", "#": "#", "_": "_", "{": "{", "}": "}", " ": " ", "\\": " ", "-": "",
         ",": "\u202f",  # \, is a thin space no line breaks at: the narrow no-break space
         "ldots": "…", "dots": "…", "textendash": "–", "textemdash": "—", "slash": "/", "textquoteright": "’",
         "guillemotleft": "«", "guillemotright": "»", "quotedblbase": "„"}
LAYOUT = {"noindent", "indent", "newline", "linebreak", "pagebreak", "newpage", "clearpage", "smallskip",
          "medskip", "bigskip", "centering", "raggedright", "hfill", "vfill", "label", "vspace", "hspace"}
CUTS = {"item", "par"}  # a list item, a paragraph: an entry of its own in aids
SPECIALS = {"~": "\u00a0", "--": "–", "---": "—", "``": "“", "''": "”", ",,": "„", "<<": "«", ">>": "»"}
_SPACES = re.compile(r"[ \t\r\n]+")


@dataclass
class Macros:
    """The book's macros, as the project declared them (`--macro KIND=NAME`, `--macros FILE`)."""
    kinds: dict[str, str] = field(default_factory=dict)  # a macro's name -> its kind
    labels: dict[str, str] = field(default_factory=dict)  # a LaTeX label -> the id aids gives that section

    def add(self, kind: str, names: str) -> None:
        for name in (n.strip().lstrip("\\") for n in names.split(",")):
            if name:
                self.kinds[name] = kind


def declared(pairs: list[str], path: Path | None, shown: str = "") -> Macros:
    """The macros of `--macro KIND=NAME[,NAME]` and of the file `--macros` names."""
    macros = read_macros(path, shown) if path else Macros()
    for pair in pairs:
        kind, _, names = pair.partition("=")
        if kind not in KINDS or not names.strip():
            raise AidsError(Problem(Position("--macro"), f"'{pair}' is no declaration of a macro",
                                    "KIND=NAME[,NAME], KIND one of " + ", ".join(KINDS)))
        macros.add(kind, names)
    return macros


def read_macros(path: Path, shown: str) -> Macros:
    """A mapping file: `icon: [svg]`, `ref: [pagelink]`, ..., and `labels: {sec:morale: morale}`."""
    src = read_yaml(path, shown)
    if not isinstance(src.data, dict):
        raise AidsError(Problem(src.at(src.data), "not a map of macros", KINDS_EXPECTED))
    macros = Macros()
    for key, value in src.data.items():
        if key == "labels" and isinstance(value, dict):
            macros.labels.update({str(k): str(v) for k, v in value.items()})
        elif key in KINDS and isinstance(value, list) and all(isinstance(v, str) for v in value):
            macros.add(key, ",".join(value))
        else:
            raise AidsError(Problem(src.at(src.data, key), f"'{key}' is no kind of macro or holds no list of names",
                                    KINDS_EXPECTED))
    return macros


@dataclass
class Converted:
    pieces: list[str]  # the text in aids' markup, cut where aids has entries of their own
    undeclared: list[tuple[str, int]] = field(default_factory=list)  # (\name, its offset in the text)
    unreadable: str = ""  # what pylatexenc could not parse


def convert(text: str, macros: Macros) -> Converted:
    """`text` (a po4a msgid or msgstr) in aids' markup, in pieces."""
    context = lw.get_default_latex_context_db()
    context.add_context_category("declared", prepend=True, macros=[
        *(macrospec.MacroSpec(name, "{") for name in macros.kinds), macrospec.MacroSpec("item", "["),
        *(macrospec.MacroSpec(name, "{") for name in ("label", "vspace", "hspace", *STYLES, *CONTENT))],
        specials=[macrospec.SpecialsSpec(chars) for chars in (",,", "<<", ">>")])
    try:
        nodes = lw.LatexWalker(text, latex_context=context, tolerant_parsing=False).get_latex_nodes()[0]
    except lw.LatexWalkerError as exc:
        return Converted([], unreadable=str(exc).splitlines()[0])
    writer = _Writer(macros)
    writer.nodes(nodes)
    # LaTeX's spaces and line ends collapsed; its no-break and thin spaces (made above) kept
    return Converted([_SPACES.sub(" ", p).strip(" ") for p in writer.pieces if p.strip()], writer.undeclared)


class _Writer:
    """Nodes written as aids' text into pieces."""

    def __init__(self, macros: Macros):
        self.macros = macros
        self.pieces: list[str] = [""]
        self.undeclared: list[tuple[str, int]] = []

    def cut(self) -> None:
        if self.pieces[-1].strip():
            self.pieces.append("")

    def write(self, text: str) -> None:
        self.pieces[-1] += text

    def nodes(self, nodes) -> None:
        for node in nodes or []:
            self.node(node)

    def node(self, node) -> None:
        if isinstance(node, lw.LatexCharsNode):
            for n, paragraph in enumerate(node.chars.split("\n\n")):
                if n:
                    self.cut()
                self.write(paragraph)
        elif isinstance(node, lw.LatexSpecialsNode):
            self.special(node.specials_chars)
        elif isinstance(node, lw.LatexGroupNode):
            self.nodes(node.nodelist)
        elif isinstance(node, lw.LatexEnvironmentNode):
            self.environment(node)
        elif isinstance(node, lw.LatexMacroNode):
            self.macro(node)
        elif not isinstance(node, lw.LatexCommentNode):
            self.write(node.latex_verbatim())

    def special(self, chars: str) -> None:
        if chars == "&":  # a table's cell ends
            self.cut()
        else:
            self.write(SPECIALS.get(chars, ""))

    def environment(self, node) -> None:
        verbatim = getattr(node.nodeargd, "verbatim_text", None)
        self.cut()
        if verbatim is not None:
            self.write(verbatim)
        else:
            self.nodes(node.nodelist)
        self.cut()

    def macro(self, node) -> None:
        name, args = node.macroname, [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a]
        kind = self.macros.kinds.get(name)
        if kind in PLACEHOLDERS:
            target = "".join(_plain(a) for a in args[-1:]).strip()
            self.write(f"{{{PLACEHOLDERS[kind]}:{self.macros.labels.get(target, target)}}}")
        elif kind == "note":
            self.cut()
            self.nodes(args[-1:])
            self.cut()
        elif kind in ("index", "drop") or name in LAYOUT:
            pass
        elif name in CUTS:
            self.cut()
        elif name in STYLES:
            self.write(STYLES[name])
            self.nodes(args)
            self.write(STYLES[name])
        elif name in CONTENT:
            self.nodes(args)
        elif name in CHARS:
            self.write(CHARS[name])
        else:
            self.undeclared.append((f"\\{name}", node.pos))
            self.nodes(args)
        self.write(node.macro_post_space and " ")


def _plain(node) -> str:
    if isinstance(node, lw.LatexGroupNode):
        return "".join(_plain(n) for n in node.nodelist)
    return node.latex_verbatim()
