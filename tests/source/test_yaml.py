"""Reading sources and configuration: positions kept, malformed input reported where it is."""
import pytest

from aids.config import read_project
from aids.errors import AidsError
from aids.source.yamlfile import read_yaml

from ..helpers import make_project

pytestmark = pytest.mark.unit


def test_positions_of_keys_and_values(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("kind: sequence\nphases:\n  - id: x\n    title: 'Tytuł {ref:x}'\n", encoding="utf-8")
    src = read_yaml(path, "a.yaml")
    phase = src.data["phases"][0]
    assert str(src.at(phase, "title")) == "a.yaml:4:5"
    assert str(src.at(phase, "title", value=True)) == "a.yaml:4:12"
    assert str(src.at_text(phase, "title", 6)) == "a.yaml:4:19"  # inside the quotes


def test_malformed_yaml_reports_line_and_column(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("kind: sequence\nphases:\n  - id: x\n   title: [unclosed\n", encoding="utf-8")
    with pytest.raises(AidsError) as info:
        read_yaml(path, "bad.yaml")
    assert str(info.value).startswith("bad.yaml:4:")
    assert "malformed YAML" in str(info.value) and "this line is indented unlike the lines around it" in str(info.value)
    assert "(expected: 4 spaces like line 3 or 2 spaces like line 3, not 3;" in str(info.value)


def test_project_config_unknown_key_and_language(tmp_path):
    make_project(tmp_path, {"aids.yaml": "languages: [pl, xx-nowhere]\noutptu: build\n"})
    with pytest.raises(AidsError) as info:
        read_project(tmp_path)
    text = str(info.value)
    assert ("aids.yaml:2:1: unknown field 'outptu' in aids.yaml (expected: languages, output, games, catalogs, "
            "ui_domain, catalogs_per, publish, fallbacks, site_url, site, date_style, print, theme, bilingual, packets, "
            "formats)") in text
    assert "aids.yaml:1:17: unknown language 'xx-nowhere'" in text


def test_game_config_checks_its_aids(tmp_path):
    make_project(tmp_path, {"games/demo/game.yaml": "id: demo\ntitle: T\nversion: '1'\nsource_language: pl\naids: [nothing.yaml]\n"})
    project = read_project(tmp_path)
    with pytest.raises(AidsError) as info:
        project.read_game("demo")
    assert "games/demo/game.yaml:5:8: aid source 'nothing.yaml' not found" in str(info.value)


def test_impossible_date_is_reported_where_it_is(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("id: x\npublished: 2020-02-29\nparts:\n  - when: 2020-02-30\n", encoding="utf-8")
    with pytest.raises(AidsError) as info:
        read_yaml(path, "game.yaml")
    assert str(info.value).startswith("game.yaml:4:11: impossible value: day is out of range for month")
    assert "(expected: a real date YYYY-MM-DD, or quote the text)" in str(info.value)


def test_ui_domain_outside_the_aids_tree_is_refused(tmp_path):
    make_project(tmp_path, {"aids.yaml": "languages: [pl]\nui_domain: true\n"})
    with pytest.raises(AidsError, match=r"aids.yaml:2:1: ui_domain is only for the aids source tree"):
        read_project(tmp_path)


def test_no_project_at_the_given_folder(tmp_path):
    with pytest.raises(AidsError, match=r"nowhere/aids.yaml: no project here \(expected: a project folder"):
        read_project(tmp_path / "nowhere")


def test_bytes_not_utf8_are_reported_at_their_line_and_column(tmp_path):
    from aids.source.markdown import read_markdown
    for name, read in (("a.yaml", read_yaml), ("a.md", read_markdown)):
        path = tmp_path / name
        path.write_bytes("title: Ostrołęka\nauthor: Zaj".encode() + b"\xeaczkowski\n")
        with pytest.raises(AidsError) as info:
            read(path, name)
        assert str(info.value) == f"{name}:2:12: not UTF-8 text (expected: a file in UTF-8)"


@pytest.mark.parametrize("line, message", [
    ("output: /", "aids.yaml:2:9: 'output' is outside the project: / (expected: a folder inside the project"),
    ("output: ../../elsewhere", "aids.yaml:2:9: 'output' is outside the project: ../../elsewhere"),
    ("output: .", "aids.yaml:2:9: the output folder cannot be the project folder (expected: output: build)"),
    ("output: games", "aids.yaml:2:9: the output folder overlaps the games folder (games)"),
    ("output: games/out", "aids.yaml:2:9: the output folder overlaps the games folder (games)"),
    ("output: i18n", "aids.yaml:2:9: the output folder overlaps the catalogs folder (i18n)"),
    ("output: [a, b]", "aids.yaml:2:9: 'output' must be a folder name, not a list (expected: output: build)"),
    ("output: notes.txt", "aids.yaml:2:9: 'notes.txt' is a file, not a folder"),
    ("output: outside-link/build", "aids.yaml:2:9: 'output' is outside the project: outside-link/build"),
    ("games: ../x", "aids.yaml:2:8: 'games' is outside the project: ../x"),
])
def test_outputs_and_sources_are_confined_to_the_project(tmp_path, line, message):
    """Before: `output: /` wrote to the root of the disk, `output: games` among the sources, with no word."""
    root = make_project(tmp_path / "p", {"aids.yaml": f"languages: [pl]\n{line}\n", "notes.txt": "notes\n"})
    (root / "outside-link").symlink_to(tmp_path)
    with pytest.raises(AidsError) as info:
        read_project(root)
    assert str(info.value).startswith(message)


BOMB = "a0: &a0 x\n" + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10))


@pytest.mark.parametrize("text, message", [
    (BOMB + "version: *a9\n", "a.yaml:2:5: an alias (*name) repeats this part of the file"),
    ("title: " + "[" * 3000 + "]" * 3000 + "\n", "a.yaml:1:58: nested too deeply (expected: at most 50 levels)"),
    ('title: "Zły\\a dzwonek"\n', "a.yaml:1:8: control character U+0007 in a text (expected: printable text)"),
    ('title: "zero\\0"\n', "a.yaml:1:8: control character U+0000 in a text"),
    ("title: a\x1b[31mred\n", "a.yaml:1:9: control character U+001B (expected: printable text)"),
    ("id: x\ntitle: a\x00b\n", "a.yaml:2:9: control character U+0000"),
])
def test_hostile_yaml_is_refused_at_its_position(tmp_path, text, message):
    path = tmp_path / "a.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AidsError) as info:
        read_yaml(path, "a.yaml")
    assert str(info.value).startswith(message)


def test_a_source_past_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("title: " + "x" * (20 * 1024 * 1024) + "\n", encoding="utf-8")
    with pytest.raises(AidsError, match=r"big.yaml: file of 20.0 MB, larger than the limit \(expected: at most 5 MB\)"):
        read_yaml(path, "big.yaml")


def test_an_unclosed_quote_is_reported_where_it_opens(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text('languages: [pl]\ngames: "games\noutput: build\n', encoding="utf-8")
    with pytest.raises(AidsError, match=r"^a.yaml:2:8: malformed YAML: quoted text not closed"):
        read_yaml(path, "a.yaml")


def test_a_title_or_version_that_would_fill_every_footer_is_refused(tmp_path):
    root = make_project(tmp_path)
    game = root / "games/demo/game.yaml"
    game.write_text(game.read_text().replace('version: "2.0"', f'version: "{"1." * 150}"'))
    with pytest.raises(AidsError, match=r"games/demo/game.yaml:3:10: version of 300 characters or on several lines"):
        read_project(root).read_game("demo")
