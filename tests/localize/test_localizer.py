"""One language's view: fallback, placeholder checks, escaping of translations, locale formats."""
import datetime as dt
import gettext

import pytest

from aids.errors import Position
from aids.localize.localizer import Localizer
from aids.localize.rich import Link, Rich, text
from aids.model.text import Text, placeholder_mismatch
from aids.render.html import css_string, to_html

pytestmark = pytest.mark.unit

TEXT = Text("Rozstrzygnij w {ref:a/b}, *kursywa*.", "seq/x", "Step 1", Position("s.yaml", 3, 5))


def lz(lang, msgstr="", fuzzy=False):
    catalog = {("seq/x", TEXT.msgid): (msgstr, fuzzy)} if msgstr else {}
    return Localizer(lang, "pl", catalog, gettext.NullTranslations())


def resolve(kind, target):
    return Rich([Link(text("N"), target)])


def test_source_language_needs_no_catalog():
    assert lz("pl").text(TEXT) == TEXT.msgid and lz("pl").fallbacks == []


def test_translation_used_and_markdown_rendered():
    html = to_html(lz("en", "Resolve in {ref:a/b}, *italics*.").rich(TEXT, resolve))
    # the spaces before an element lead it (render/html.py, spaces_lead: WeasyPrint breaks lines wrongly else)
    assert html == 'Resolve in<a class="ref" href="#a/b"> N</a>,<em> italics</em>.'


def test_untranslated_falls_back_to_source_marked_with_its_language():
    view = lz("en")
    assert to_html(view.rich(TEXT, resolve)).startswith('<span lang="pl">Rozstrzygnij')
    assert [(f.text.context, f.reason) for f in view.fallbacks] == [("seq/x", "untranslated")]


def test_fuzzy_translation_is_not_used():
    view = lz("en", "Resolve in {ref:a/b}.", fuzzy=True)
    assert view.text(TEXT) == TEXT.msgid and view.fallbacks[0].reason == "fuzzy"


def test_translation_that_loses_or_invents_a_placeholder_is_rejected():
    view = lz("en", "Resolve in {ref:a/c}, *italics*.")
    assert view.text(TEXT) == TEXT.msgid
    assert view.fallbacks[0].reason == "translation loses {ref:a/b} and invents {ref:a/c}"
    assert placeholder_mismatch("{see:x} {see:x}", "{see:x}") == "translation loses {see:x}"


def test_translation_must_keep_emphasis_strong_and_code_spans():
    assert placeholder_mismatch("a *b* **c** `d`", "**C** `D` *B* a") == ""
    assert placeholder_mismatch("a **b** c", "a b c") == "translation loses **strong**"
    assert placeholder_mismatch("a **b** c", "a **b c") == "translation loses **strong**"  # broken, not moved
    assert placeholder_mismatch("a b", "a *b*") == "translation invents *emphasis*"


def test_markup_in_a_translation_is_escaped():
    html = to_html(lz("en", "<script>alert(1)</script> {ref:a/b} *x* <b onclick=x>").rich(TEXT, resolve))
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b " not in html


def test_ui_strings_are_escaped_values_too():
    class Evil(gettext.NullTranslations):
        def pgettext(self, context, message):
            return "<i>see</i> %(ref)s"
    view = Localizer("en", "pl", {}, Evil())
    out = to_html(view.ui_rich("see", "see %(ref)s", ref="<b>x</b>"))
    assert out == "&lt;i&gt;see&lt;/i&gt; &lt;b&gt;x&lt;/b&gt;"
    link = Rich([Link(text("1"), "r")])
    assert to_html(view.ui_rich("see", "see %(ref)s", ref=link)) == '&lt;i&gt;see&lt;/i&gt;<a class="ref" href="#r"> 1</a>'


def test_numbers_dates_and_lists_per_locale():
    assert lz("pl").number(0.1) == "0,1" and lz("en").number(0.1) == "0.1" and lz("ru").number(-2) == "\u22122"
    day = dt.date(2020, 2, 29)
    # a date is kept on one line; English dates in the style aids.yaml chooses (en-GB unless told)
    assert lz("pl").date(day) == "29\u00a0lutego\u00a02020"
    assert lz("en").date(day) == "February\u00a029,\u00a02020"
    assert Localizer("en", "pl", {}, gettext.NullTranslations(), style="en_GB").date(day) == "29\u00a0February\u00a02020"
    assert lz("ru").date(day) == "29\u00a0февраля\u00a02020\u202fг."
    assert lz("pl").format_list([text("a"), text("b"), text("c")]).plain() == "a, b i c"


def test_css_string_cannot_break_out():
    assert css_string('a"}</style>') == '"a\\22 \\7d \\3c \\2f style\\3e "'
    assert css_string("мая 1") == '"\\43c \\430 \\44f  1"'
