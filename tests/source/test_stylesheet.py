"""A theme's stylesheet for an e-reader (source/stylesheet.py): what names a file by url() is left out, the rest
kept as written."""
import pytest

from aids.source.stylesheet import named, without_urls

pytestmark = pytest.mark.unit


def test_an_e_reader_gets_no_declaration_naming_a_file():
    css = ('@import url(q.css);\n@font-face { font-family: X; src: url(a.ttf) }\n'
           'a { color: red; background: url("x.png") red }\n'
           '@media screen { body.aid { background: #faf4e6 url(art/tile.png) } b { margin: 0 } }\n'
           '@media print { c { background-image: URL(y.png) } }\n.kept { font-style: italic }')
    out = without_urls(css)
    assert not named(out)  # no url(), no @import
    assert "color:red" in out.replace(" ", "") and "margin:0" in out.replace(" ", "")
    assert ".kept" in out and "font-family" not in out and "@media print" not in out and "body.aid" not in out
