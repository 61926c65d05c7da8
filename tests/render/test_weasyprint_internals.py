"""What aids reaches into below WeasyPrint's and pydyf's public API, checked one by one: a new release that
changes any of it fails here, naming the hook and the module of aids that holds it, before a rendering test
fails in a way that says nothing of why (docs/development/weasyprint-page-references/README.md: the upstream change that
would make the pagination hook unnecessary)."""
from __future__ import annotations

import inspect

import pytest

pytestmark = pytest.mark.unit

PINNED = {"weasyprint": "70.0"}


def test_weasyprint_is_the_version_the_hooks_were_written_for():
    import weasyprint
    assert weasyprint.__version__ == PINNED["weasyprint"], (
        f"WeasyPrint {weasyprint.__version__}: aids/render/pagination.py hooks weasyprint.layout.make_all_pages, "
        f"written for {PINNED['weasyprint']}; check every test in this file, then the pin in pyproject.toml")


def test_the_pagination_hook_replaces_a_function_of_this_signature():
    """aids/render/pagination.py: `hook()` replaces weasyprint.layout.make_all_pages, which layout_document calls
    as make_all_pages(context, root_box, html, pages) and iterates page by page."""
    import weasyprint.layout as layout
    import weasyprint.layout.page as page
    original = page.make_all_pages
    assert list(inspect.signature(original).parameters) == ["context", "root_box", "html", "pages"], \
        "aids/render/pagination.py: weasyprint.layout.page.make_all_pages changed its parameters"
    assert inspect.isgeneratorfunction(original), \
        "aids/render/pagination.py: weasyprint.layout.page.make_all_pages no longer yields pages one by one"
    source = inspect.getsource(layout.layout_document)
    assert "make_all_pages(context, root_box, html, pages)" in source, \
        "aids/render/pagination.py: layout_document no longer calls make_all_pages from weasyprint.layout's namespace"


def test_the_pagination_hook_reads_the_page_maker_and_its_remake_state():
    """aids/render/pagination.py marks a page for a new layout through context.page_maker[i][-1]
    ["content_changed"] and reads the anchors each page holds from its remake state."""
    import weasyprint.layout.page as page
    source = inspect.getsource(page.make_all_pages)
    for needed in ("context.page_maker[i][-1]", "remake_state['content_changed']", "remake_state['anchors']"):
        assert needed in source, f"aids/render/pagination.py: make_all_pages no longer uses {needed}"


def test_a_page_is_made_again_at_once_through_remake_page_and_the_context_it_changes():
    """aids/render/pagination.py wraps weasyprint.layout.page.remake_page, which make_all_pages calls from its
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
        assert f"self.{name} = " in init, f"aids/render/pagination.py: LayoutContext.{name} is gone"
    made = inspect.getsource(page.make_page)
    assert "context.broken_out_of_flow = broken_out_of_flow" in made and "context.reported_footnotes = []" in made
    assert "remake_state['anchors'] = []" in inspect.getsource(page.make_all_pages)


@pytest.mark.parametrize("name", ["TextBox", "LineBox"])
def test_the_boxes_pagination_and_laid_out_read(name):
    """aids/render/pagination.py and laid_out.py walk the laid-out boxes and set a TextBox's text and its Pango
    layout's text in place (the page numbers)."""
    from weasyprint.formatting_structure import boxes
    assert inspect.isclass(getattr(boxes, name, None)), f"weasyprint.formatting_structure.boxes.{name} is gone"
    assert "descendants" in dir(boxes.Box), "aids/render/pagination.py: Box.descendants() is gone"


@pytest.mark.integration
def test_the_laid_out_page_box_is_where_laid_out_reads_it():
    """aids/render/laid_out.py visits page._page_box of each page of a rendered document."""
    import weasyprint
    document = weasyprint.HTML(string="<p>a</p>").render()
    assert hasattr(document.pages[0], "_page_box"), "aids/render/laid_out.py: Page._page_box is gone"


def test_a_raster_image_is_made_with_its_id_then_its_bytes():
    """render/pdf.py, images_by_content_once: the id WeasyPrint names an image's XObject by is replaced by the md5
    of its bytes, the third argument."""
    import inspect

    from weasyprint.images import RasterImage
    assert list(inspect.signature(RasterImage.__init__).parameters)[:4] == [
        "self", "pillow_image", "image_id", "image_data"]


def test_pydyf_lists_page_references_as_aids_keeps_them():
    """aids/render/pdf.py (page_references_once) keeps pydyf.PDF.page_references, a property pydyf builds again
    at every call (quadratic on a tagged booklet), while a PDF is written, from pydyf.PDF.pages["Kids"]."""
    import pydyf
    found = pydyf.PDF.__dict__.get("page_references")
    assert isinstance(found, property) and found.fget is not None, \
        "aids/render/pdf.py: pydyf.PDF.page_references is no longer a property: page_references_once does nothing"
    assert "Kids" in pydyf.PDF().pages, "aids/render/pdf.py: pydyf.PDF.pages no longer holds its Kids"


def test_the_internals_a_part_of_a_booklet_is_turned_with():
    """aids/render/sides.py turns a part's pages from right-hand to left-hand: a page's type, its computed style,
    a new PageBox resolved and sized as WeasyPrint's layout sizes one."""
    from weasyprint.formatting_structure import boxes
    from weasyprint.layout import page, percent
    for module, name, parameters in [
            (page, "set_page_type_computed_styles", ["page_type", "html", "style_for"]),
            (page, "page_width", ["box", "context", "containing_block_width"]),
            (page, "page_height", ["box", "context", "containing_block_height"]),
            (percent, "resolve_percentages", ["box", "containing_block"])]:
        function = getattr(module, name, None)
        assert function is not None, f"aids/render/sides.py: {module.__name__}.{name} is gone"
        found = list(inspect.signature(function).parameters)
        assert found[:len(parameters)] == parameters, f"aids/render/sides.py: {module.__name__}.{name}{found}"
    assert list(inspect.signature(boxes.PageBox).parameters)[:2] == ["page_type", "style"], \
        "aids/render/sides.py: PageBox(page_type, style) changed"


def test_the_footnote_area_compares_as_aids_makes_it_compare_with_a_tolerance():
    """aids/render/footnote_area.py replaces LayoutContext._update_footnote_area with WeasyPrint 70.0's own, its
    last comparison made with a tolerance: the original must still be that code."""
    import weasyprint.layout as layout
    source = inspect.getsource(layout)
    start = source.index("    def _update_footnote_area(self):")
    end = source.find("\n    def ", start + 10)
    body = source[start:end if end > 0 else len(source)]
    for line in ("footnote_area = build.create_anonymous_boxes(", "self.current_footnote_area.deepcopy())",
                 "self, footnote_area, -inf, None,", "overflow = last_child_bottom > footnote_area_bottom",
                 "self.page_bottom -= footnote_area.margin_height()", "self.current_footnote_area.height = 0"):
        assert line in body, f"aids/render/footnote_area.py: WeasyPrint's _update_footnote_area changed ({line})"
def test_the_tagging_hook_wraps_the_generator_of_structure_elements():
    """aids/render/tagging.py wraps weasyprint.pdf.tags._build_box_tree, a generator that yields the structure
    elements (pydyf dictionaries with /S) made of a box and calls itself from the module's namespace for the
    box's children, with the box first; writes /Alt only from an SVG's <title> or an image's alt, and no /Scope."""
    from weasyprint.pdf import tags
    original = getattr(tags._build_box_tree, "__wrapped__", tags._build_box_tree)
    assert inspect.isgeneratorfunction(original), "aids/render/tagging.py: _build_box_tree no longer yields"
    assert list(inspect.signature(original).parameters)[0] == "box"
    source = inspect.getsource(original)
    assert "_build_box_tree(\n" in source or "_build_box_tree(" in source.split("def _build_box_tree", 1)[1], \
        "aids/render/tagging.py: _build_box_tree no longer calls itself through the module"
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
    """aids/render/epub_fonts.py asks weasyprint.css.get_all_computed_styles(html, user_stylesheets=[...]) for the
    computed style of each element of an e-book's chapter and of its ::before, and reads these properties."""
    import weasyprint
    from weasyprint.css import get_all_computed_styles
    html = weasyprint.HTML(string='<p class="x"><b>a</b></p>', media_type="screen")
    sheet = weasyprint.CSS(string='.x::before { content: "\\25B6"; font-family: "A", serif; text-transform: uppercase }')
    style_for = get_all_computed_styles(html, user_stylesheets=[sheet])
    p = html.etree_element.find(".//p")
    assert p is not None, "aids/render/epub_fonts.py: WeasyPrint's tree no longer has HTML elements without a namespace"
    bold, before = style_for(p.find("b")), style_for(p, "before")
    assert bold["font_weight"] == 700 and bold["font_style"] == "normal" and bold["display"] != ("none",)
    assert before["content"] == (("string", "\u25b6"),) and before["font_family"] == ("A", "serif")
    assert before["text_transform"] == "uppercase" and before["font_variant_caps"] == "normal"
