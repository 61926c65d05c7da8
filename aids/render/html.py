"""HTML from Jinja2 templates shipped in the package (autoescape on; UI words from the `aids` domain)."""
from __future__ import annotations

import functools
import re
from dataclasses import replace
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup, escape

from ..localize.localizer import DraftText, Localizer
from ..localize.rich import Icon, Inline, Link, Rich, Span, bind_icons
from ..localize.typography import NBSP, typeset, typeset_rich
from . import colours


@functools.cache
def environment(folders: tuple[str, ...] = ()) -> jinja2.Environment:
    """The package's templates, after those of `folders` (a kind of another package brings its own)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([*folders, str(resources.files("aids.templates"))]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=finalize,
    )
    env.filters["css_string"] = lambda text: Markup(css_string(str(text)))
    from . import theme  # it reads css_string of this module
    env.globals["theme_view"] = theme.view  # a game's theme for templates/theme.css (None: aids' own look)
    env.globals["theme_block"] = theme_block
    env.filters["page_runs"] = page_runs
    env.globals.update(colour_functions(press=False))  # a page on screen; print.css passes the press's
    env.filters["css_content"] = css_content
    env.filters["css_around"] = css_around
    env.filters["css_id"] = lambda anchor: Markup(css_id(str(anchor)))
    # a list of ids or class names for an attribute (headers="r0 c1"), never typeset as prose ("r0\u00a0c1")
    env.filters["tokens"] = lambda value: escape(value if isinstance(value, str) else " ".join(map(str, value)))
    # a text in an attribute: never the <mark> a draft puts around untranslated text in the page
    env.filters["plain"] = lambda value: str.__str__(value) if isinstance(value, str) else value
    return env


def page_runs(blocks: list[Any]) -> list[list[Any]]:
    """A booklet's blocks cut at each page break (`::: break page`, the break itself left out): the runs a
    two-column booklet sets each in columns of their own."""
    runs: list[list[Any]] = [[]]
    for block in blocks:
        if block.get("type") == "break" and block.get("kind") == "page":
            runs.append([])
        else:
            runs[-1].append(block)
    return runs


@jinja2.pass_context
def theme_block(context: jinja2.runtime.Context, name: str) -> Markup:
    """The block `name` of the page's theme (render/theme.py), given the documented variables only."""
    from . import theme
    game, aid = context["game"], context.get("aid")
    lang = context["lang"]
    # the title and the author as HTML: words of another language in them marked (a screen reader says them so)
    variables = {"lang": lang, "game_title": to_html(typeset_rich(game["title_runs"], lang)),
                 "version": game["version"], "published": game["published"],
                 "author": to_html(typeset_rich(game["author_runs"], lang)),
                 "aid_title": str(aid["title"]) if isinstance(aid, dict) and "title" in aid else "",
                 "label": str(context.get("kind_name", ""))}
    if isinstance(aid, dict) and aid.get("label"):
        variables["label"] = str(aid["label"])
    return theme.block(game.get("theme"), name, variables)


def colour_functions(press: bool, gray: bool = False) -> dict[str, Any]:
    """colour("ink") and colour_variables() for a stylesheet: CSS of the palette, never typeset (for the gray
    profile its grays, a game's own change colour too)."""
    return {"colour": lambda name: Markup(colours.css(name, press, gray)),
            "colour_of": lambda cmyk: Markup(colours.css("change", press, gray) if gray
                                             else colours.css_of(tuple(float(v) for v in cmyk), press)),
            "colour_variables": lambda important=False: Markup(colours.css_variables(press, important, gray))}


@jinja2.pass_context
def finalize(context: jinja2.runtime.Context, value: Any) -> Any:
    """What `{{ ... }}` prints: localized runs as HTML, anything else as Jinja2 prints it (escaped); text
    set by the typography of the page's language (a value without a space is a name, an id, a number)."""
    lang = context["lang"]
    if isinstance(value, DraftText) and value.kind == "context":  # where `aids context` finds a title or label
        return Markup('<span data-msgctxt="{}" data-msgid="{}">{}</span>').format(value.context, value.msgid,
                                                                                 typeset(value, lang))
    if isinstance(value, DraftText):  # a title or label left untranslated in a draft build
        return Markup('<mark class="draft" title="{}">{}</mark>').format(value.context, typeset(value, lang))
    if isinstance(value, Rich):
        return to_html(typeset_rich(value, lang))
    if isinstance(value, str) and not isinstance(value, Markup) and " " in value:
        return typeset(value, lang)
    return value


_STYLES = (("code", "code"), ("strong", "strong"), ("em", "em"))


def to_html(rich: Rich) -> Markup:
    """Localized runs as HTML: every text escaped, emphasis as <em>/<strong>/<code>, links and marked parts.
    No run ends in a space where another begins (see `spaces_lead`)."""
    return _html_of(spaces_lead(bind_icons(rich)))


def spaces_lead(rich: Rich) -> Rich:
    """`rich` with the spaces at every boundary between two runs moved to the start of the later run:
    "in\u00a0" + link "3.2.7" becomes "in" + link "\u00a03.2.7", and strong "foo " + "bar" becomes
    strong "foo" + " bar". WeasyPrint (70.0) measures a line with the trailing space of a run that an
    inline element follows, where Pango lets the space hang; such a line looks too wide and is cut to its
    first word or hyphen piece, a stray break in running text (docs/development/weasyprint-trailing-space/README.md)."""
    leaves: list[str] = []

    def collect(value: Rich) -> None:
        for part in value:
            if isinstance(part, Span):
                leaves.append(part.text)
            elif isinstance(part, Icon):
                leaves.append("\ufffc")  # a drawing: no space moves into it or across it
            else:
                collect(part.parts)

    collect(rich)
    moved = list(leaves)
    for i in range(1, len(moved)):  # from the start: a run of spaces alone passes them all on
        if "\ufffc" in (moved[i - 1], moved[i]):
            continue
        kept = moved[i - 1].rstrip()
        if kept != moved[i - 1]:
            moved[i] = moved[i - 1][len(kept):] + moved[i]
            moved[i - 1] = kept
    if moved == leaves:
        return rich
    texts = iter(moved)

    def rebuild(value: Rich) -> Rich:
        def one(part: Inline) -> Inline:
            if isinstance(part, Icon):
                next(texts)  # its place holder: the icon as it is
                return part
            return replace(part, text=next(texts)) if isinstance(part, Span) else replace(
                part, parts=rebuild(part.parts))
        return Rich(one(part) for part in value)

    return rebuild(rich)


def _html_of(rich: Rich) -> Markup:
    out = []
    for part in rich:
        if isinstance(part, Span):
            html = escape(part.text)
            for flag, tag in _STYLES:
                if getattr(part, flag):
                    html = Markup("<{0}>{1}</{0}>").format(Markup(tag), html)
            out.append(html)
        elif isinstance(part, Link) and part.external:
            shown = "external address" if part.parts.plain().strip() == part.href else "external"
            out.append(Markup('<a class="{}" href="{}">{}</a>').format(shown, part.href, _html_of(part.parts)))
        elif isinstance(part, Link):
            out.append(Markup('<a class="ref" href="#{}">{}</a>').format(part.href, _html_of(part.parts)))
        elif isinstance(part, Icon):
            out.append(icon_html(part))
        elif part.role == "draft":
            out.append(Markup('<mark class="draft" lang="{}" title="{}">{}</mark>').format(
                part.lang, part.note, _html_of(part.parts)))
        elif part.role == "context":
            out.append(Markup('<span data-msgctxt="{}" data-msgid="{}">{}</span>').format(part.note, part.msgid,
                                                                                           _html_of(part.parts)))
        elif part.role == "footnote":  # the call (a link to the page's list of notes) and the note the PDF floats
            out.append(Markup('<a class="footnote-call" id="fnref-{0}" href="#fn-{0}" role="doc-noteref">{0}</a>'
                              '<span class="footnote" data-pagefind-ignore>{1}</span>').format(
                part.note, _html_of(part.parts)))
        elif part.role in ("source", "foreign"):
            out.append(Markup('<span lang="{}">{}</span>').format(part.lang, _html_of(part.parts)))
        elif part.lang:  # a term's original name in the language of the rules it comes from
            out.append(Markup('<span class="{}" lang="{}">{}</span>').format(part.role, part.lang,
                                                                              _html_of(part.parts)))
        else:
            out.append(Markup('<span class="{}">{}</span>').format(part.role, _html_of(part.parts)))
    return Markup("").join(out)


ICON_HEIGHT = 1.1  # em: as aids.css sizes svg.icon (its drawing has a margin: about a capital letter's height)


def icon_html(icon: Icon) -> Markup:
    """An icon inline: its SVG (checked shapes: model/icons.py) sized to the text, named by its localized name
    for a screen reader, a tagged PDF and search. A word joiner before it: the text run before an inline element
    never ends in a space (see `spaces_lead`), and a number bound to it stays on its line."""
    name = " ".join(icon.parts.plain().split())  # an attribute: the typography's no-break spaces are of no use
    return Markup('\u2060<svg class="icon" xmlns="http://www.w3.org/2000/svg" viewBox="{}" width="{}em" height="{}em" '
                  'role="img" aria-label="{}" data-pagefind-index-attrs="aria-label"><title>{}</title>{}</svg>').format(
        icon.source.view_box, round(ICON_HEIGHT * icon.source.ratio, 3), ICON_HEIGHT, name, name,
        Markup(icon.source.inner))


def ui_functions(lz: Localizer) -> dict:
    """gettext & co. for templates, returning plain strings so that autoescape escapes catalog text too.

    (The i18n extension's own newstyle callables mark translations safe; a translator's markup would pass.)
    """
    return {
        "_": lz.gettext, "gettext": lz.gettext, "pgettext": lz.pgettext, "ngettext": lz.ngettext,
        "number": lz.number, "date": lz.date,
    }


def render_template(name: str, lz: Localizer, context: dict[str, Any], folders: tuple[str, ...] = ()) -> str:
    template = environment(folders).get_template(name)
    return template.render(**ui_functions(lz), lang=lz.lang, **context)


_FIELD = re.compile(r"%\((\w+)\)s")


def css_content(text: str, **counters: str) -> Markup:
    """A translated string with %(name)s fields as a CSS `content` value, fields becoming counters.

    css_content("Page %(page)s of %(pages)s", page="page", pages="pages")
        -> "Page " counter(page) " of " counter(pages)
    """
    parts, pos = [], 0
    for m in _FIELD.finditer(text):
        if text[pos:m.start()]:  # a field is a number: the spaces beside it do not break ("p. 12", "1 of 4")
            parts.append(css_string(re.sub(" $", NBSP, re.sub("^ ", NBSP, text[pos:m.start()]) if pos else
                                           text[pos:m.start()])))
        name = counters.get(m.group(1))
        parts.append(f"counter({name})" if name else css_string(m.group(0)))
        pos = m.end()
    if text[pos:]:
        parts.append(css_string(re.sub("^ ", NBSP, text[pos:]) if pos else text[pos:]))
    return Markup(" ".join(parts) or '""')


def css_around(text: str, field: str) -> tuple[Markup, Markup]:
    """The CSS `content` before and after the field `field` of a translated string, for an element that shows
    the field itself (a page number set by the layout: pagination.py); the spaces beside it do not break.

    css_around(", p. %(page)s", "page") -> ('", p.\\a0 "', '""')
    """
    before, _, after = text.partition(f"%({field})s")
    return Markup(css_string(re.sub(" $", NBSP, before))), Markup(css_string(re.sub("^ ", NBSP, after)))


def css_string(text: str) -> str:
    """`text` as a CSS string literal; every non-ASCII or special character escaped, so nothing breaks out."""
    # A space after a hex escape ends it (and is swallowed), so every escape gets one of its own.
    return '"' + re.sub(r'[^A-Za-z0-9 .,:;!?()\-]', lambda m: f"\\{ord(m.group(0)):x} ", text) + '"'


def css_id(anchor: str) -> str:
    """`#anchor` as a CSS selector: every character but ASCII letters, digits, '-' and '_' escaped (and a
    leading digit), so any id selects itself and nothing breaks out of the rule."""
    escaped = re.sub(r"[^A-Za-z0-9_-]|^[0-9-]", lambda m: f"\\{ord(m.group(0)):x} ", anchor)
    return "#" + escaped
