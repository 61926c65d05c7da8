"""A sequence as its author writes it (issue 48, "Sequences as written"; docs/guide/sequences.md): a text that
begins with a placeholder, and what the guide says each sequence may say in its source's own way."""
import pytest

from aids.commands.cli import main
from aids.errors import AidsError

from ..helpers import DEMO_SEQUENCE, make_project, read_demo

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("typed, message", [
    ("text: {side:red} kładzie żetony.",
     "games/demo/sequence.yaml:15:15: a text that starts with '{' must be quoted: YAML reads {side:red} as a mapping "
     "(expected: a quoted string: text: \"{side:red} kładzie żetony.\")"),
    ("text: {side:red}",
     "games/demo/sequence.yaml:15:15: a text that starts with '{' must be quoted: YAML reads {side:red} as a mapping "
     "(expected: a quoted string: text: \"{side:red}\")"),
])
def test_a_text_that_starts_with_a_placeholder_unquoted_is_reported_as_such(tmp_path, capsys, typed, message):
    """Before: "malformed YAML: expected <block end>, but found '<scalar>': this line is indented unlike the lines
    around it (expected: 6 spaces like line 14, not 8 ...)", blaming the indentation."""
    root = make_project(tmp_path, {"games/demo/sequence.yaml": DEMO_SEQUENCE.replace("text: Połóż żetony.", typed)})
    with pytest.raises(AidsError) as info:
        read_demo(root)
    assert str(info.value) == message


@pytest.mark.integration
def test_the_build_says_it_in_one_line_and_exits_1(tmp_path, capsys):
    root = make_project(tmp_path, {"games/demo/sequence.yaml": DEMO_SEQUENCE.replace("text: Połóż żetony.",
                                                                                     "text: {side:red} kładzie.")})
    assert main(["--project", str(root), "build", "--format", "html"]) == 1
    err = capsys.readouterr().err
    assert "games/demo/sequence.yaml:15:15: a text that starts with '{' must be quoted" in err
    assert "Traceback" not in err and "indented" not in err
