"""What aids reaches into below WeasyPrint's and pydyf's public API, all of it in aids/render/weasyprint_internals/,
checked one by one: a new release that changes any of it fails here, naming the function of that module that
relies on it, before a rendering test fails in a way that says nothing of why
(docs/development/weasyprint-page-references/README.md: the upstream change that would make the pagination hook
unnecessary). No other module of aids imports a submodule of WeasyPrint (the last test)."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import aids
from aids.render import weasyprint_internals

pytestmark = pytest.mark.unit
HOME = "aids/render/weasyprint_internals"  # the one package the pins below name (its __init__.py and resuming.py)

PINNED = {"weasyprint": "70.0"}


def test_weasyprint_is_the_version_the_hooks_were_written_for():
    import weasyprint
    assert weasyprint.__version__ == PINNED["weasyprint"], (
        f"WeasyPrint {weasyprint.__version__}: {HOME} hooks weasyprint.layout.make_all_pages, "
        f"written for {PINNED['weasyprint']}; check every test in this file, then the pin in pyproject.toml")


def test_the_pagination_hook_replaces_a_function_of_this_signature():
    """hook_page_making replaces weasyprint.layout.make_all_pages, which layout_document calls as
    make_all_pages(context, root_box, html, pages) and iterates page by page, and make_margin_boxes(context, page,
    state), whose state's second item is the counters."""
    import weasyprint.layout as layout
    import weasyprint.layout.page as page
    original = page.make_all_pages
    assert list(inspect.signature(original).parameters) == ["context", "root_box", "html", "pages"], \
        f"{HOME} hook_page_making: weasyprint.layout.page.make_all_pages changed its parameters"
    assert inspect.isgeneratorfunction(original), \
        f"{HOME} hook_page_making: weasyprint.layout.page.make_all_pages no longer yields pages one by one"
    source = inspect.getsource(layout.layout_document)
    assert "make_all_pages(context, root_box, html, pages)" in source, \
        f"{HOME} hook_page_making: layout_document no longer calls make_all_pages from weasyprint.layout's namespace"
    assert list(inspect.signature(page.make_margin_boxes).parameters) == ["context", "page", "state"], \
        f"{HOME} hook_page_making: weasyprint.layout.page.make_margin_boxes changed its parameters"
    assert "make_margin_boxes(context, page, state)" in inspect.getsource(layout), \
        f"{HOME} hook_page_making: weasyprint.layout no longer makes the margin boxes from its namespace"


def test_the_pagination_hook_reads_the_page_maker_and_its_remake_state():
    """lay_out_again marks a page for a new layout through context.page_maker[i][-1]["content_changed"], and
    anchors_on reads the anchors each page holds from its remake state."""
    import weasyprint.layout.page as page
    source = inspect.getsource(page.make_all_pages)
    for needed in ("context.page_maker[i][-1]", "remake_state['content_changed']", "remake_state['anchors']"):
        assert needed in source, f"{HOME} lay_out_again, anchors_on: make_all_pages no longer uses {needed}"


def test_a_page_is_made_again_at_once_through_remake_page_and_the_context_it_changes():
    """hook_page_making (aids/render/weasyprint_internals) wraps weasyprint.layout.page.remake_page, which make_all_pages calls from its
    module's namespace, to make a page again at once (a page-end hyphen): what the page's layout changes in the
    context besides the next page's state (footnotes, out-of-flow boxes broken over the page, notes drawn, the
    page's anchors) is saved before and put back."""
    import weasyprint.layout as layout
    import weasyprint.layout.page as page
    original = getattr(page.remake_page, "__wrapped__", page.remake_page)
    assert list(inspect.signature(original).parameters) == ["index", "context", "root_box", "html"]
    assert "page, resume_at = remake_page(i, context, root_box, html)" in inspect.getsource(page.make_all_pages)
    init = inspect.getsource(layout.LayoutContext.__init__)
    for name in ("footnotes", "reported_footnotes", "broken_out_of_flow", "rendered_notes"):
        assert f"self.{name} = " in init, f"{HOME} _layout_state: LayoutContext.{name} is gone"
    made = inspect.getsource(page.make_page)
    assert "context.broken_out_of_flow = broken_out_of_flow" in made and "context.reported_footnotes = []" in made
    assert "remake_state['anchors'] = []" in inspect.getsource(page.make_all_pages)


def test_a_page_is_made_again_only_when_where_it_begins_or_what_it_shows_changed():
    """pagination.py takes a page-end hyphen's decision again when a page of its paragraph is made again, sure that
    a page not made again began as before and was laid out the same: make_all_pages makes page i again only when
    its remake state says content_changed or pages_wanted (else it reuses it), and remake_page sets
    content_changed on the next page when the state it ends in differs from the one that page began in."""
    import weasyprint.layout.page as page
    loop = inspect.getsource(page.make_all_pages)
    for needed in ("remake_state['content_changed'] or", "remake_state['pages_wanted']):", "yield pages[i]"):
        assert needed in loop, f"aids/render/pagination.py Pagination.made_again: make_all_pages no longer has {needed!r}"
    remake = inspect.getsource(getattr(page.remake_page, "__wrapped__", page.remake_page))
    for needed in ("next_resume_at != resume_at or", "next_page_state != page_state)",
                   "remake_state['content_changed'] = resume_at is not None"):
        assert needed in remake, f"aids/render/pagination.py Pagination.made_again: remake_page no longer has {needed!r}"


def test_a_layout_resumed_at_a_page_is_weasyprint_s_page_loop_begun_there():
    """resuming.py: resumed_pages runs make_all_pages' own loop from another page, on page_maker entries of
    (resume_at, next_page, right_page, page_state, remake_state) that remake_page(index, ...) reads and extends;
    page_states reads them; layout_document makes each page's margin boxes from page_maker[i + 1] and collects
    the running strings (box.string_set) by page; a blank stand-in is a make_page of a blank PageType(side, blank,
    name, index, groups), its viewport's sizes in style_for.initial_page_sizes; bookmark_tree builds WeasyPrint's
    tree with make_page_bookmark_tree from the pages' bookmarks; has_footnotes finds a FootnoteAreaBox."""
    import weasyprint.anchors as anchors
    import weasyprint.layout as layout
    import weasyprint.layout.page as page
    from weasyprint.formatting_structure import boxes
    loop = inspect.getsource(page.make_all_pages)
    for needed in ("remake_state = context.page_maker[i][-1]", "resume_at = context.page_maker[i + 1][0]",
                   "if resume_at is None and not reported_footnotes:", "context.page_maker = context.page_maker[:i + 1]"):
        assert needed in loop, f"{HOME}/resuming.py resumed_pages: make_all_pages no longer has {needed!r}"
    remake = inspect.getsource(getattr(page.remake_page, "__wrapped__", page.remake_page))
    assert "resume_at, next_page, right_page, page_state, _ = page_maker[index]" in remake, \
        f"{HOME}/resuming.py: a page_maker entry is no longer (resume_at, next_page, right_page, page_state, ...)"
    assert "item = resume_at, next_page, right_page, page_state, remake_state" in remake
    assert list(inspect.signature(page.make_page).parameters) == [
        "context", "root_box", "page_type", "resume_at", "page_number", "page_state"]
    assert page.PageType._fields == ("side", "blank", "name", "index", "groups")
    assert "context.style_for.initial_page_sizes['area']" in inspect.getsource(page.make_page)
    document = inspect.getsource(layout.layout_document)
    for needed in ("state = context.page_maker[context.current_page][3]", "string_sets = child.string_set",
                   "context.string_set[string_name][i+1].append(text)"):
        assert needed in document, f"{HOME}/resuming.py: layout_document no longer has {needed!r}"
    assert list(inspect.signature(anchors.make_page_bookmark_tree).parameters) == [
        "page", "skipped_levels", "last_by_depth", "previous_level", "page_number", "matrix"]
    assert "for level, label, (point_x, point_y), state in page.bookmarks:" in \
        inspect.getsource(anchors.make_page_bookmark_tree)
    assert inspect.isclass(boxes.FootnoteAreaBox)


@pytest.mark.parametrize("name", ["TextBox", "LineBox", "MarginBox", "FlexBox"])
def test_the_boxes_pagination_and_laid_out_read(name):
    """is_text, is_line, is_margin and is_flex tell the laid-out boxes pagination.py, laid_out.py and pdf.py walk;
    set_laid_out_text sets a TextBox's text and its Pango layout's text in place (the page numbers); restyle copies
    a box's style."""
    from weasyprint.formatting_structure import boxes
    assert inspect.isclass(getattr(boxes, name, None)), f"{HOME}: weasyprint.formatting_structure.boxes.{name} is gone"
    assert "descendants" in dir(boxes.Box), f"{HOME}: Box.descendants() is gone"
    from weasyprint.draw import text
    assert "textbox.pango_layout.text" in inspect.getsource(text), \
        f"{HOME} set_laid_out_text: a text box is no longer drawn from its pango_layout's text"


@pytest.mark.integration
def test_the_laid_out_page_box_is_where_laid_out_reads_it():
    """page_box gives page._page_box of each page of a rendered document (laid_out.py visits it)."""
    import weasyprint
    document = weasyprint.HTML(string="<p>a</p>").render()
    assert hasattr(document.pages[0], "_page_box"), f"{HOME} page_box: Page._page_box is gone"
    assert weasyprint_internals.page_box(document.pages[0]) is document.pages[0]._page_box


def test_a_raster_image_is_made_with_its_id_then_its_bytes():
    """images_named_by_content: the id WeasyPrint names an image's XObject by is replaced by the md5 of its bytes,
    the third argument."""
    import inspect

    from weasyprint.images import RasterImage
    assert list(inspect.signature(RasterImage.__init__).parameters)[:4] == [
        "self", "pillow_image", "image_id", "image_data"], f"{HOME} images_named_by_content: RasterImage changed"


def test_pydyf_lists_page_references_as_aids_keeps_them():
    """page_references_once keeps pydyf.PDF.page_references, a property pydyf builds again at every call
    (quadratic on a tagged booklet), while a PDF is written, from pydyf.PDF.pages["Kids"]."""
    import pydyf
    found = pydyf.PDF.__dict__.get("page_references")
    assert isinstance(found, property) and found.fget is not None, \
        f"{HOME}: pydyf.PDF.page_references is no longer a property: page_references_once does nothing"
    assert "Kids" in pydyf.PDF().pages, f"{HOME} page_references_once: pydyf.PDF.pages no longer holds its Kids"


def test_the_internals_a_part_of_a_booklet_is_turned_with():
    """turn_pages turns a part's pages from right-hand to left-hand: a page's type, its computed style, a new PageBox
    resolved and sized as WeasyPrint's layout sizes one."""
    from weasyprint.formatting_structure import boxes
    from weasyprint.layout import page, percent
    for module, name, parameters in [
            (page, "set_page_type_computed_styles", ["page_type", "html", "style_for"]),
            (page, "page_width", ["box", "context", "containing_block_width"]),
            (page, "page_height", ["box", "context", "containing_block_height"]),
            (percent, "resolve_percentages", ["box", "containing_block"])]:
        function = getattr(module, name, None)
        assert function is not None, f"{HOME} turn_pages: {module.__name__}.{name} is gone"
        found = list(inspect.signature(function).parameters)
        assert found[:len(parameters)] == parameters, f"{HOME} turn_pages: {module.__name__}.{name}{found}"
    assert list(inspect.signature(boxes.PageBox).parameters)[:2] == ["page_type", "style"], \
        f"{HOME} turn_pages: PageBox(page_type, style) changed"


def test_the_footnote_area_compares_as_aids_makes_it_compare_with_a_tolerance():
    """tolerant_footnote_area replaces LayoutContext._update_footnote_area with WeasyPrint 70.0's own, its last
    comparison made with a tolerance: the original must still be that code."""
    import weasyprint.layout as layout
    source = inspect.getsource(layout)
    start = source.index("    def _update_footnote_area(self):")
    end = source.find("\n    def ", start + 10)
    body = source[start:end if end > 0 else len(source)]
    for line in ("footnote_area = build.create_anonymous_boxes(", "self.current_footnote_area.deepcopy())",
                 "self, footnote_area, -inf, None,", "overflow = last_child_bottom > footnote_area_bottom",
                 "self.page_bottom -= footnote_area.margin_height()", "self.current_footnote_area.height = 0"):
        assert line in body, f"{HOME} tolerant_footnote_area: WeasyPrint's _update_footnote_area changed ({line})"
def test_the_tagging_hook_wraps_the_generator_of_structure_elements():
    """hook_structure_elements wraps weasyprint.pdf.tags._build_box_tree, a generator that yields the structure
    elements (pydyf dictionaries with /S) made of a box and calls itself from the module's namespace for the box's
    children, with the box first; it writes /Alt only from an SVG's <title> or an image's alt, and no /Scope (what
    aids/render/tagging.py adds)."""
    from weasyprint.pdf import tags
    original = getattr(tags._build_box_tree, "__wrapped__", tags._build_box_tree)
    assert inspect.isgeneratorfunction(original), f"{HOME} hook_structure_elements: _build_box_tree no longer yields"
    assert list(inspect.signature(original).parameters)[0] == "box"
    source = inspect.getsource(original)
    assert "_build_box_tree(\n" in source or "_build_box_tree(" in source.split("def _build_box_tree", 1)[1], \
        f"{HOME} hook_structure_elements: _build_box_tree no longer calls itself through the module"
    assert "'Scope'" not in source and "Lang" not in source, \
        "WeasyPrint writes /Scope or /Lang itself now: aids/render/tagging.py may be unnecessary"
    assert "aria-label" not in source, "WeasyPrint reads aria-label itself now: see aids/render/tagging.py"


FLEX_AT_PAGE_END = """<style>@page {{ size: A6; margin: 10mm }} body {{ font-size: 10pt }}
h2 {{ display: {display}; flex-wrap: wrap; align-items: baseline; column-gap: 0.3em; break-after: avoid;
      padding: 0.15em 0.4em; background: #c00; margin: 1.1em 0 0.35em }}
.r {{ columns: 2 }} .r h2 {{ column-span: all }} .r p {{ orphans: 2; widows: 2 }} a.permalink {{ display: none }}</style>
<div class="r"><h2 id="one"><span class="anchor" id="1"></span><span class="num">1</span> One<a class="permalink"
href="#one">#</a></h2><p>{words}</p>
<h2 id="two"><span class="anchor" id="2"></span><span class="num">2</span> Two<a class="permalink" href="#two">#</a></h2>
<p>{more}</p><p>{more}</p></div>"""


@pytest.mark.parametrize("display, lost", [("flex", True), ("block", False)])
@pytest.mark.integration
def test_a_flex_heading_at_a_pages_end_loses_its_words_and_the_layout_check_says_so(display, lost):
    """WeasyPrint 70 starts a spanning flex heading at the foot of a page and drops its items: an empty banner,
    the heading's words nowhere in the PDF. aids/render/laid_out.lost_text warns of it (a rendering test fails on
    any warning); booklet.css prints a booklet's headings as blocks, which break whole. A WeasyPrint that fixes
    this fails here: the booklet's headings may be flex boxes again."""
    import io

    import weasyprint
    from pypdf import PdfReader

    from aids.render import laid_out
    html = FLEX_AT_PAGE_END.format(display=display, words=" ".join(["word"] * 135), more=" ".join(["next"] * 80))
    document = weasyprint.HTML(string=html).render()
    warnings = laid_out.lost_text(document)
    assert warnings == ([('the text of <h2 id="two"> “2 Two” is lost at a page break (WeasyPrint cannot break a '
                          'flex box)')] if lost else [])
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(document.write_pdf())).pages)
    assert ("Two" in text) is not lost


def test_the_cascade_epub_fonts_reads():
    """computed_styles asks weasyprint.css.get_all_computed_styles(html, user_stylesheets=[...]) for the computed
    style of each element of an e-book's chapter and of its ::before (epub_fonts.py reads these properties)."""
    import weasyprint
    from weasyprint.css import get_all_computed_styles
    html = weasyprint.HTML(string='<p class="x"><b>a</b></p>', media_type="screen")
    sheet = weasyprint.CSS(string='.x::before { content: "\\25B6"; font-family: "A", serif; text-transform: uppercase }')
    assert list(inspect.signature(get_all_computed_styles).parameters)[:2] == ["html", "user_stylesheets"], \
        f"{HOME} computed_styles: get_all_computed_styles changed its parameters"
    style_for = weasyprint_internals.computed_styles(html, [sheet])
    p = html.etree_element.find(".//p")
    assert p is not None, "aids/render/epub_fonts.py: WeasyPrint's tree no longer has HTML elements without a namespace"
    bold, before = style_for(p.find("b")), style_for(p, "before")
    assert bold["font_weight"] == 700 and bold["font_style"] == "normal" and bold["display"] != ("none",)
    assert before["content"] == (("string", "\u25b6"),) and before["font_family"] == ("A", "serif")
    assert before["text_transform"] == "uppercase" and before["font_variant_caps"] == "normal"


def test_the_font_configuration_keeps_its_copies_where_aids_removes_them():
    """font_configuration makes a weasyprint.text.fonts.FontConfiguration, whose copies of a document's fonts
    remove_font_copies removes from its `_folder` (a worker that ends with os._exit never collects it)."""
    from weasyprint.text.fonts import FontConfiguration
    fonts = weasyprint_internals.font_configuration()
    assert isinstance(fonts, FontConfiguration)
    assert "_folder" in inspect.getsource(FontConfiguration), \
        f"{HOME} remove_font_copies: FontConfiguration no longer keeps its copies in _folder"


def weasyprint_submodules(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, name) of every import of a submodule of WeasyPrint (or of a name from one) in a module's `tree`:
    `import weasyprint.x`, `from weasyprint.x import y`, `from weasyprint import x` of a name that is a module."""
    import weasyprint
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("weasyprint.")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("weasyprint."):
                found.append((node.lineno, node.module))
            elif node.module == "weasyprint":
                found += [(node.lineno, f"weasyprint.{a.name}") for a in node.names
                          if inspect.ismodule(getattr(weasyprint, a.name, None)) or a.name not in weasyprint.__all__]
    return found


def test_no_other_module_imports_a_submodule_of_weasyprint():
    """Only weasyprint_internals reaches below `import weasyprint` (HTML, CSS, Document, URLFetcher)."""
    package = Path(aids.__file__).parent
    found = [f"{path.relative_to(package.parent)}:{line}: {name}" for path in sorted(package.rglob("*.py"))
             if not path.relative_to(package.parent).as_posix().startswith(HOME + "/")
             for line, name in weasyprint_submodules(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == []


@pytest.mark.parametrize("source, found", [
    ("import weasyprint\nweasyprint.HTML", []), ("from weasyprint import HTML, CSS", []),
    ("def f():\n    import weasyprint.layout as layout", [(2, "weasyprint.layout")]),
    ("from weasyprint.formatting_structure import boxes", [(1, "weasyprint.formatting_structure")]),
    ("from weasyprint import images", [(1, "weasyprint.images")])])
def test_the_check_sees_an_import_of_a_submodule(source, found):
    assert weasyprint_submodules(ast.parse(source)) == found


@pytest.mark.integration
def test_the_raster_images_a_laid_out_document_places_are_read_and_replaced_as_prepared_py_does():
    """prepared.py (through raster_images_placed, raster_image_bytes, raster_image_like, replace_raster_image):
    a box's `replacement` is the RasterImage it draws, made of (pillow_image, image_id, image_data, filename, cache,
    orientation), holding its bytes in image_data.data and its cache in _cache; a replaced one is drawn."""
    import base64
    import inspect
    import io

    import weasyprint
    from PIL import Image
    from weasyprint.images import RasterImage

    assert list(inspect.signature(RasterImage.__init__).parameters) == [
        "self", "pillow_image", "image_id", "image_data", "filename", "cache", "orientation", "options"], \
        f"{HOME} raster_image_like: RasterImage's parameters changed"
    made = io.BytesIO()
    Image.new("RGB", (40, 20), "red").save(made, "PNG")
    uri = "data:image/png;base64," + base64.b64encode(made.getvalue()).decode()
    document = weasyprint.HTML(string=f'<img src="{uri}" style="width: 4cm"><img src="{uri}">').render()
    placed = list(weasyprint_internals.raster_images_placed(document))
    assert len(placed) == 2 and all(box.width > 0 for box, _ in placed), f"{HOME} raster_images_placed"
    box, image = placed[0]
    assert (image._jpeg_quality, image._dpi, image.optimize) == (None, None, False), f"{HOME} raster_image_like"
    assert weasyprint_internals.raster_image_bytes(image) == made.getvalue(), f"{HOME} raster_image_bytes"
    smaller = io.BytesIO()
    Image.new("RGB", (10, 5), "blue").save(smaller, "PNG")
    other = weasyprint_internals.raster_image_like(image, Image.open(io.BytesIO(smaller.getvalue())),
                                                   smaller.getvalue())
    weasyprint_internals.replace_raster_image(box, other)
    assert (other.width, other.height) == (10, 5) and box.replacement is other, f"{HOME} replace_raster_image"
    assert document.write_pdf().count(b"/Subtype /Image") >= 1


def test_the_column_balancing_changed_is_weasyprints_own():
    """quicker_column_balancing compiles weasyprint.layout.column.columns_layout again with three of its passages
    changed (where a try starts, what it does when the columns fit, how much taller the next try is), and puts it
    where weasyprint.layout.block calls it from."""
    import weasyprint.layout.block as block
    import weasyprint.layout.column as column
    source = inspect.getsource(column.columns_layout)
    for passage in (weasyprint_internals.COLUMN_START, weasyprint_internals.COLUMN_FITS,
                    weasyprint_internals.COLUMN_STEPS):
        assert passage in source, f"{HOME} quicker_column_balancing: columns_layout no longer has {passage!r}"
    assert "from .column import columns_layout" in inspect.getsource(block), \
        f"{HOME} quicker_column_balancing: weasyprint.layout.block no longer imports columns_layout"
    assert "columns_layout(" in inspect.getsource(block.block_box_layout), \
        f"{HOME} quicker_column_balancing: block_box_layout no longer calls columns_layout"


@pytest.mark.integration
def test_balanced_columns_take_fewer_layouts_and_give_the_same_pdf(sample, monkeypatch):
    """The Valmora scenario and rules (two columns, a figure, a note called from balanced columns) in English,
    laid out with WeasyPrint's balancing and with aids' quicker one: the same PDF bytes, in fewer layouts of a
    column."""
    import sys

    import weasyprint.layout.block as block
    import weasyprint.layout.column as column

    from aids.kinds.reading import read_aids
    from aids.localize import making
    from aids.pipeline import jobs

    weasyprint_internals.quicker_column_balancing()
    quicker = block.columns_layout
    assert quicker is not column.columns_layout and getattr(quicker, "_aids", False)
    project = sample[0]
    game = project.read_game("valmora-scenarios")
    lz = making.localizer(project, game, "en")
    aids = read_aids(project, game)[0]
    lay_out_block = block.block_box_layout

    def laid_out(columns_layout) -> tuple[list[bytes], int]:
        monkeypatch.setattr(block, "columns_layout", columns_layout)
        monkeypatch.setattr(weasyprint_internals, "quicker_column_balancing", lambda: None)
        layouts = []

        def counted(*args, **kwargs):
            if sys._getframe(1).f_code.co_name == "columns_layout":
                layouts.append(1)
            return lay_out_block(*args, **kwargs)
        monkeypatch.setattr(block, "block_box_layout", counted)
        pdfs = [jobs.render_aid(project, game, aid, lz, None, ["pdf"])[".pdf"].data for aid in aids]
        return pdfs, len(layouts)

    theirs, their_layouts = laid_out(column.columns_layout)
    ours, our_layouts = laid_out(quicker)
    assert ours == theirs
    assert our_layouts <= 0.8 * their_layouts, (our_layouts, their_layouts)  # 205 and 267 when written
