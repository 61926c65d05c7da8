"""The `aids` command as a user runs it: exit codes, messages without tracebacks, nothing half-written."""
import os
import re
import subprocess
import sys

import pytest

from aids.commands.cli import main

from .helpers import DEMO_SEQUENCE, built_files


def aids(root, *args):
    """Run the real command in a subprocess, as a user would."""
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.run([sys.executable, "-m", "aids", *args], cwd=root, capture_output=True, text=True, env=env)


def outputs(root):
    return built_files(root / "build")


def test_catalog_commands_and_build(demo, capsys):
    assert main(["--project", str(demo), "extract"]) == 0
    assert "wrote i18n/templates/demo.pot" in capsys.readouterr().out
    assert main(["--project", str(demo), "update"]) == 0
    assert "updated i18n/ru/LC_MESSAGES/demo.po" in capsys.readouterr().out
    assert main(["--project", str(demo), "compile"]) == 0
    assert "wrote i18n/en/LC_MESSAGES/demo.mo" in capsys.readouterr().out
    assert main(["--project", str(demo), "build", "--lang", "en", "--format", "html"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^demo seq +en +1 +\d+\.\d s$", out, re.MULTILINE)  # a row of the summary's table
    assert "demo en: 16 string(s) fell back to the source language:" in out
    assert "games/demo/sequence.yaml:12:12: [seq/prep] untranslated" in out
    assert sorted(p.name for p in (demo / "build/demo/en").iterdir()) == ["index.html", "seq.html"]  # and its game's page


def test_strict_fails_on_fallbacks_and_writes_nothing(demo, capsys):
    assert main(["--project", str(demo), "build", "--lang", "en", "--format", "html", "--strict"]) == 1
    err = capsys.readouterr().err
    assert "games/demo/sequence.yaml:12:12: en, html: [seq/prep] untranslated (--strict)" in err
    assert not (demo / "build").exists()
    assert main(["--project", str(demo), "build", "--lang", "pl", "--format", "html", "--strict"]) == 0


def test_strict_fails_every_edition_that_falls_back(tmp_path, capsys):
    """Before: fallbacks were recorded once per game and language, so a second edition was still written."""
    from .helpers import DEMO_PLAYSHEET, make_project
    root = make_project(tmp_path, DEMO_PLAYSHEET)
    (root / "games/demo/sequence.yaml").unlink()
    assert main(["--project", str(root), "build", "--lang", "en", "--format", "html", "--strict"]) == 1
    out, err = capsys.readouterr()
    assert "games/demo/sheet.yaml:3:8: en, edition cm, html: [sheet] untranslated (--strict)" in err
    assert "games/demo/sheet.yaml:3:8: en, edition inch, html: [sheet] untranslated (--strict)" in err
    assert not (root / "build").exists()


def test_a_game_with_a_broken_game_yaml_does_not_stop_the_others(demo, capsys):
    other = demo / "games" / "other"
    other.mkdir()
    (other / "game.yaml").write_text("id: other\ntitle: T\nversion: '1'\nsource_language: pl\naids: [nope.yaml]\n")
    assert main(["--project", str(demo), "build", "--lang", "pl", "--format", "html"]) == 1
    out, err = capsys.readouterr()
    assert "games/other/game.yaml:5:8: aid source 'nope.yaml' not found" in err
    assert "skipped other: not built, its game.yaml has errors" in out
    assert (demo / "build/demo/pl/seq.html").is_file()


def test_a_language_named_twice_is_built_once(demo, capsys):
    assert main(["--project", str(demo), "build", "--lang", "pl", "--lang", "pl", "--format", "html"]) == 0
    assert "1 file(s) written" in capsys.readouterr().out


def test_build_finds_the_project_from_a_subfolder(demo):
    result = aids(demo / "games" / "demo", "build", "--lang", "pl", "--format", "html")
    assert result.returncode == 0, result.stderr
    assert (demo / "build/demo/pl/seq.html").is_file()


@pytest.mark.parametrize("args, message", [
    (["build", "--lang", "de"], "command line: unknown language 'de' (expected: pl, en, ru)"),
    (["build", "--game", "nothing"], "command line: unknown game 'nothing' (expected: demo)"),
    (["build", "--edition", "inch"], "command line: unknown edition 'inch' (expected: no edition: these games have a single one)"),
])
def test_unknown_names_on_the_command_line(demo, args, message):
    result = aids(demo, *args)
    assert result.returncode == 1
    assert message in result.stderr and "Traceback" not in result.stderr


def test_usage_error_exits_2(demo):
    result = aids(demo, "build", "--format", "docx")
    assert result.returncode == 2 and "invalid choice: 'docx'" in result.stderr


def test_bad_source_reports_position_and_keeps_previous_outputs(demo):
    assert aids(demo, "build", "--lang", "pl").returncode == 0
    before = outputs(demo)
    assert len(before) == 2
    (demo / "games/demo/sequence.yaml").write_text(DEMO_SEQUENCE.replace("{ref:red-combat/resolve}", "{ref:nowhere}"))
    result = aids(demo, "build", "--lang", "pl")
    assert result.returncode == 1
    assert "games/demo/sequence.yaml:26:64: reference to unknown id 'nowhere'" in result.stderr
    assert "Traceback" not in result.stderr
    assert outputs(demo) == before


def test_malformed_yaml(demo):
    (demo / "games/demo/sequence.yaml").write_text("kind: sequence\nid: [x\n")
    result = aids(demo, "build")
    assert result.returncode == 1 and "games/demo/sequence.yaml:3:1: malformed YAML" in result.stderr
    assert "Traceback" not in result.stderr and not (demo / "build").exists()


def test_malformed_catalog_keeps_previous_outputs(demo):
    assert aids(demo, "extract").returncode == 0 and aids(demo, "update").returncode == 0
    assert aids(demo, "build", "--format", "html").returncode == 0
    before = outputs(demo)
    po = demo / "i18n/ru/LC_MESSAGES/demo.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgctxt "seq/prep"', 'msgctxt "seq/prep\nbroken'),
                  encoding="utf-8")
    result = aids(demo, "build", "--format", "html")
    assert result.returncode == 1
    assert "i18n/ru/LC_MESSAGES/demo.po:" in result.stderr and "malformed catalog" in result.stderr
    assert "Traceback" not in result.stderr
    assert outputs(demo) == before


def test_unknown_kind_names_the_known_ones(demo):
    (demo / "games/demo/sequence.yaml").write_text("kind: sequense\nid: x\n")
    result = aids(demo, "build")
    assert "games/demo/sequence.yaml:1:7: unknown aid kind 'sequense' (expected: " in result.stderr
    assert "sequence" in result.stderr.split("expected: ")[1]


def test_debug_shows_the_traceback(demo):
    result = aids(demo, "--debug", "build", "--lang", "xx")
    assert result.returncode != 0 and "Traceback" in result.stderr


def test_no_project_found(tmp_path):
    result = aids(tmp_path, "build")
    assert result.returncode == 1 and "no aids.yaml here or in any parent folder" in result.stderr


def test_an_internal_error_fails_that_aid_only_and_says_it_is_a_bug(tmp_path, monkeypatch, capsys):
    from aids.kinds import PlaysheetKind

    from .helpers import DEMO_PLAYSHEET, make_project
    root = make_project(tmp_path, DEMO_PLAYSHEET)
    (root / "games/demo/game.yaml").write_text(
        (root / "games/demo/game.yaml").read_text().replace("aids:\n", "aids:\n  - sequence.yaml\n"))

    def broken(self, *args, **kwargs):
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(PlaysheetKind, "localize", broken)
    assert main(["--project", str(root), "build", "--lang", "pl", "--format", "html", "--edition", "cm"]) == 1
    out, err = capsys.readouterr()
    assert ("games/demo/sheet.yaml: internal error in aids while building 'sheet': ZeroDivisionError: division by "
            "zero (expected: nothing: this is a bug of aids; please report it with the output of --debug)") in err
    assert "Traceback" not in err
    assert (root / "build/demo/cm/pl/seq.html").is_file()  # the other aid is built
    with pytest.raises(ZeroDivisionError):
        main(["--project", str(root), "--debug", "build", "--lang", "pl", "--format", "html"])


def test_a_translation_with_an_escaped_placeholder_cannot_crash_the_build(demo, capsys):
    """Before: `{ref\\:x}` passed the check (no placeholder seen), Markdown unescaped it, and the lookup raised."""
    from aids.config import read_project
    from aids.localize import po
    from aids.localize.catalogs import po_path, read_catalog
    from aids.translating import translations
    project = read_project(demo)
    translations.extract(project), translations.update(project)
    path = po_path(demo / "i18n", "en", "demo")
    catalog = read_catalog(path, "en.po")
    for entry in po.entries(catalog):
        if entry.getcontext() == "seq/red-combat/resolve":
            entry.target = "Resolve the counter-charges of {ref\\:nowhere}."
        if entry.getcontext() == "seq/red-move/move/charge":
            entry.target = "Blue counter-charges; resolved in {ref\\:red-combat/resolve}."
    po.save(path, catalog)
    assert main(["--project", str(demo), "build", "--lang", "en", "--format", "html"]) == 0
    out = capsys.readouterr().out
    assert "[seq/red-combat/resolve] translation loses {ref:red-move/move/charge} and invents {ref:nowhere}" in out
    html = (demo / "build/demo/en/seq.html").read_text(encoding="utf-8")
    assert 'resolved in<a class="ref" href="#red-combat/resolve">\u00a03.2.3,\u00a0step\u00a01</a>' in html  # the same placeholder


def test_an_output_folder_that_cannot_be_written_is_an_error_not_a_traceback(demo, monkeypatch, capsys):
    import os
    replace = os.replace

    def refuse(source, target, **kwargs):  # as a folder without write permission (the tests run as root)
        if str(target).endswith(".html"):
            raise PermissionError(13, "Permission denied", str(target))
        return replace(source, target, **kwargs)
    monkeypatch.setattr(os, "replace", refuse)
    assert main(["--project", str(demo), "build", "--lang", "pl", "--format", "html"]) == 1
    err = capsys.readouterr().err
    assert "build/demo/pl/seq.html: the files of 'seq' not written: cannot be written: permission denied " \
        "(expected: a folder you may write to)" in err and "Traceback" not in err


def test_debug_shows_a_traceback_for_an_aids_error(demo):
    (demo / "games/demo/sequence.yaml").write_text(DEMO_SEQUENCE.replace("{ref:red-combat/resolve}", "{ref:nope}"),
                                                   encoding="utf-8")
    done = aids(demo, "--debug", "build", "--lang", "pl", "--format", "html")
    assert done.returncode == 1 and "Traceback" in done.stderr and "reference to unknown id 'nope'" in done.stderr


def test_control_characters_are_escaped_when_echoed(demo, capsys):
    assert main(["--project", str(demo), "build", "--lang", "p\x1b[31ml"]) == 1
    err = capsys.readouterr().err
    assert "unknown language 'p\\x1b[31ml'" in err and "\x1b" not in err


def test_a_character_the_fonts_lack_is_an_error_not_an_empty_box(demo, capsys):
    """Before: an emoji in a sequence step printed as an empty box (.notdef), with exit 0."""
    (demo / "games/demo/sequence.yaml").write_text(DEMO_SEQUENCE.replace("Połóż żetony.", "Połóż \U0001F600 żetony."),
                                                   encoding="utf-8")
    assert main(["--project", str(demo), "build", "--lang", "pl", "--format", "pdf"]) == 1
    err = capsys.readouterr().err
    assert ("games/demo/sequence.yaml:15:15: sequence 'seq' (pl): no glyph for '\U0001F600' (U+1F600) in the package "
            "fonts, in “Połóż \U0001F600 żetony.”") in err
    assert not (demo / "build").exists() or not list((demo / "build").rglob("*.pdf"))


def test_a_word_too_long_for_any_column_is_reported(demo, capsys):
    """Before: a 30,000-letter word was cut at the page edge with no warning."""
    (demo / "games/demo/sequence.yaml").write_text(DEMO_SEQUENCE.replace("Połóż żetony.", "Połóż " + "a" * 30000),
                                                   encoding="utf-8")
    assert main(["--project", str(demo), "build", "--lang", "pl", "--format", "pdf"]) == 0
    out = capsys.readouterr().out
    assert "warning: games/demo/sequence.yaml:15:15: a word of 30000 letters cannot fit a column: “aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…”" in out


@pytest.mark.parametrize("files, message", [
    ({"games/demo/game.yaml": None}, "games: no games to build: no folder here holds a game.yaml"),
    ({"games/demo/game.yaml": "id: demo\ntitle: T\nversion: 1.10\nsource_language: pl\naids: [sequence.yaml]\n"},
     "games/demo/game.yaml:3:10: version 1.1 is read as a number (unquoted, 1.10 would print as 1.1)"),
    ({"games/demo/sequence.yaml": ""}, "games/demo/sequence.yaml:1:1: the source is empty (expected: kind: one of"),
    ({"games/demo/sequence.yaml": "kind: table\nid: t\ntitle: T\ntype: number\ncolumns:\n  - {id: a, key: 1}\n"
                                  "rows:\n  - {key: 1, cells: [2]}\n"},
     "nothing was built: demo: no aid to build on its own (a table is printed inside the playsheet"),
    ({"games/demo/sequence.yaml": "kind: table\nid: t\ntitle: T\ncolumns:\n   - {id: a, key: 1}\n  - {id: b}\n"},
     "games/demo/sequence.yaml:6:3: malformed YAML: expected <block end>, but found '<block sequence start>': "
     "this line is indented unlike the lines around it"),
])
def test_a_build_that_would_do_nothing_says_why_and_fails(demo, capsys, files, message):
    for name, text in files.items():
        if text is None:
            (demo / name).unlink()
        else:
            (demo / name).write_text(text, encoding="utf-8")
    assert main(["--project", str(demo), "build", "--format", "html"]) == 1
    assert message in capsys.readouterr().err


WITHOUT_PANGO = '''
import importlib.abc, sys
class Missing(importlib.abc.MetaPathFinder):  # what importing WeasyPrint does on a machine without Pango
    def find_spec(self, name, path, target=None):
        if name == "weasyprint":
            raise OSError("cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open shared object file: "
                          "No such file or directory")
sys.meta_path.insert(0, Missing())
from aids.commands.cli import main
sys.exit(main(sys.argv[1:]))
'''


def test_without_pango_a_pdf_build_says_so_in_one_line_and_writes_nothing(demo, tmp_path):
    """Before: 9 lines of "internal error in aids ... please report it" (and a 40-line traceback before that).
    Now one line naming the library and the command that installs it; an HTML build needs no Pango."""
    script = tmp_path / "without_pango.py"
    script.write_text(WITHOUT_PANGO, encoding="utf-8")
    result = subprocess.run([sys.executable, str(script), "--project", str(demo), "build"], capture_output=True,
                            text=True)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "WeasyPrint: cannot load libpango-1.0-0, which it needs to write PDFs (expected: Pango installed: on Debian "
        "or Ubuntu `sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0`, on Fedora `sudo "
        "dnf install pango`, on macOS `brew install pango`; or --format html)"]
    assert not (demo / "build" / "demo").exists()
    html = subprocess.run([sys.executable, str(script), "--project", str(demo), "build", "--format", "html"],
                          capture_output=True, text=True)
    assert html.returncode == 0, html.stderr
    assert list((demo / "build" / "demo").rglob("*.html")) and not list((demo / "build").rglob("*.pdf"))
