"""`aids init` and `aids new`: a project that builds at once, translated, and aids added from templates."""
import fnmatch
import json
import re
import shutil
import subprocess
import tomllib
from itertools import permutations

import pytest
from ruamel.yaml import YAML

from aids.commands.scaffold import HERE, KINDS, STARTER, scalar, texts
from aids.commands.scaffold.aid import register
from aids.kinds import schemas
from aids.localize import po
from aids.source.yamlfile import load_yaml

from .helpers import REPO, make_project, run

GAME = "mill-skirmish"
STANDALONE = ["sequence-of-play", "playsheet", "referee-card", "rules"]  # the table is printed inside them


def snapshot(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    """`aids init demo`, then `aids build` in it, once for the module: (root, init output, build output)."""
    root = tmp_path_factory.mktemp("init") / "demo"
    code, init_out, err = run("init", root)
    assert code == 0, err
    code, build_out, err = run("--project", root, "build")
    assert code == 0, build_out + err
    return root, init_out, build_out + err


def test_init_builds_every_aid_in_every_language_with_no_fallback(starter):
    root, init_out, build_out = starter
    assert "created a project in" in init_out and "next: cd " in init_out
    for lang in ("pl", "en", "ru"):
        for aid in STANDALONE:
            for suffix in (".html", ".pdf"):
                path = root / "build" / GAME / lang / f"{aid}{suffix}"
                assert path.is_file() and path.stat().st_size > 1000, path
        assert (root / "build" / GAME / lang / "referee-card-sheet.pdf").is_file()
    assert "fell back" not in build_out and "warning" not in build_out.lower(), build_out
    assert "0 aid(s) failed" in build_out
    assert sorted(p.name for p in root.iterdir()) == [".gitignore", "README.md", "aids.yaml", "build", "games",
                                                      "i18n", "schemas"]  # no staging folder left


def test_the_catalogs_are_complete_and_pass_msgfmt(starter):
    root = starter[0]
    catalogs = sorted((root / "i18n").rglob("*.po"))
    assert [p.relative_to(root).as_posix() for p in catalogs] == [
        f"i18n/pl/LC_MESSAGES/{GAME}.po", f"i18n/ru/LC_MESSAGES/{GAME}.po"]  # en is the source language
    for path in [*catalogs, root / "i18n" / "templates" / f"{GAME}.pot"]:
        done = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(path)],
                              capture_output=True, text=True, env={"LC_ALL": "C"})
        assert done.returncode == 0, done.stderr
    for path in catalogs:
        catalog = po.read_catalog(path, str(path))
        entries = po.entries(catalog)
        assert len(entries) > 50 and all(po.translated(e) and not e.isfuzzy() for e in entries)
        assert not any(re.search(r"\d", po.msgid(e).split("{")[0]) for e in entries)  # numbers are data
    code, out, err = run("--project", root, "check")
    assert code == 0 and "0 error(s), 0 warning(s)" in err, out + err


def test_every_yaml_file_starts_with_its_modeline(starter):
    root = starter[0]
    files = sorted(p for p in root.rglob("*.yaml") if "build" not in p.relative_to(root).parts)
    assert len(files) == 7
    for path in files:
        data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
        name = {"aids.yaml": "project", "game.yaml": "game"}.get(path.name) or data["kind"]
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == schemas.modeline(name, root, path), path
        assert first.startswith("# yaml-language-server: $schema=")
    assert {p.name for p in (root / "schemas").iterdir()} >= {f"{n}.schema.json" for n in ("project", "game", *KINDS)}


def test_every_yaml_file_is_valid_against_its_schema(starter):
    jsonschema = pytest.importorskip("jsonschema")
    root = starter[0]
    for path in sorted(p for p in root.rglob("*.yaml") if "build" not in p.relative_to(root).parts):
        data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
        name = {"aids.yaml": "project", "game.yaml": "game"}.get(path.name) or data["kind"]
        schema = json.loads((root / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
        errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(
            json.loads(json.dumps(data, default=str)))]  # dates as the text they are written as
        assert not errors, (path, errors)


def test_readme_and_gitignore(starter):
    root = starter[0]
    readme = (root / "README.md").read_text(encoding="utf-8")
    for command in ("aids build", "aids serve", "aids extract && aids update", "aids new card", "build/"):
        assert command in readme
    assert "${" not in readme
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    copy = root.parent / "git-copy"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("build"))
    subprocess.run(["git", "init", "-q", str(copy)], check=True)
    ignored = subprocess.run(["git", "-C", str(copy), "check-ignore", "build/x.pdf", ".venv/bin/python",
                              "schemas/card.schema.json", f"games/{GAME}/game.yaml", f"i18n/pl/LC_MESSAGES/{GAME}.po"],
                             capture_output=True, text=True).stdout.split()
    assert ignored == ["build/x.pdf", ".venv/bin/python"]


def test_init_refuses_to_overwrite_and_writes_nothing(starter, tmp_path):
    root = starter[0]
    before = snapshot(root)
    code, _, err = run("init", root)
    assert code == 1 and "aids.yaml exists: a project is already there" in err
    assert snapshot(root) == before
    # a folder with one of the files a project has
    other = tmp_path / "other"
    other.mkdir()
    (other / ".gitignore").write_text("*.tmp\n")
    code, _, err = run("init", other)
    assert code == 1 and f"{other / '.gitignore'} exists" in err and "Traceback" not in err
    assert [p.name for p in other.iterdir()] == [".gitignore"]


@pytest.mark.parametrize("args, message", [
    (["--languages", "pl,xx"], "command line: unknown language 'xx' (expected: a CLDR language code such as pl, en, ru)"),
    (["--source-language", "fr"], "command line: the source language 'fr' is not among --languages pl,en,ru"),
    (["--languages", "pl,pl,en"], "command line: a language is listed twice in --languages pl,pl,en"),
    (["--languages", ","], "command line: no language in --languages"),
])
@pytest.mark.unit
def test_init_refuses_bad_options(tmp_path, args, message):
    code, out, err = run("init", tmp_path / "demo", *args)
    assert code == 1 and message in err and not out
    assert not (tmp_path / "demo").exists()


@pytest.mark.parametrize("source, languages", [("pl", "pl,en,ru"), ("ru", "ru,en")])
def test_init_translates_from_any_starter_language(tmp_path, source, languages):
    root = tmp_path / "demo"
    assert run("init", root, "--source-language", source, "--languages", languages)[0] == 0
    game = (root / "games" / GAME / "game.yaml").read_text(encoding="utf-8")
    assert f"source_language: {source}" in game and texts()["game.title"][source] in game
    for lang in languages.split(","):
        if lang != source:
            catalog = po.read_catalog(root / f"i18n/{lang}/LC_MESSAGES/{GAME}.po", "po")
            assert all(po.translated(e) for e in po.entries(catalog))
    code, out, err = run("--project", root, "build", "--format", "html")
    assert code == 0 and "fell back" not in out, out + err


def test_init_with_a_language_the_starter_lacks(tmp_path):
    """German is published untranslated (the build falls back to the source, and says so); German as the source
    gets the English texts, and the note says to rewrite them."""
    root = tmp_path / "de"
    code, out, _ = run("init", root, "--languages", "de,en")
    assert code == 0 and "note: no starter translation in de" in out
    code, out, err = run("--project", root, "build", "--format", "html", "--lang", "de")
    assert code == 0 and "de: 66 string(s) fell back to the source language" in out, out + err
    assert (root / "build" / GAME / "de" / "rules.html").is_file()
    root = tmp_path / "de-source"
    code, out, _ = run("init", root, "--source-language", "de", "--languages", "de,pl")
    assert code == 0 and "note: the starter texts are written in en (there are none in de)" in out
    code, out, err = run("--project", root, "build", "--format", "html", "--lang", "pl")
    assert code == 0 and "fell back" not in out, out + err


@pytest.fixture
def fresh(starter, tmp_path):
    """A copy of the starter project, its outputs left behind."""
    root = tmp_path / "demo"
    shutil.copytree(starter[0], root, ignore=shutil.ignore_patterns("build"))
    return root


def test_new_card_then_build(fresh):
    game_yaml = fresh / "games" / GAME / "game.yaml"
    before = game_yaml.read_text(encoding="utf-8")
    code, out, err = run("--project", fresh, "new", "card", "quick-ref")
    assert code == 0, err
    assert f"wrote games/{GAME}/quick-ref.yaml" in out and f"added quick-ref.yaml to games/{GAME}/game.yaml" in out
    after = game_yaml.read_text(encoding="utf-8")
    assert after == before.replace("  - rules.yaml\n", "  - rules.yaml\n  - quick-ref.yaml\n")  # comments kept
    source = fresh / "games" / GAME / "quick-ref.yaml"
    assert source.read_text(encoding="utf-8").splitlines()[0] == schemas.modeline("card", fresh, source)
    code, out, err = run("--project", fresh, "build", "--lang", "pl")
    assert code == 0, out + err
    for name in ("quick-ref.html", "quick-ref.pdf", "quick-ref-sheet.pdf"):
        assert (fresh / "build" / GAME / "pl" / name).is_file()
    assert "fell back to the source language" in out  # its texts are not translated yet


def test_new_refuses_an_existing_file_or_id(fresh):
    before = snapshot(fresh)
    code, _, err = run("--project", fresh, "new", "table", "referee-card")
    assert code == 1 and f"games/{GAME}/referee-card.yaml: an aid with id 'referee-card' is registered already" in err
    code, _, err = run("--project", fresh, "new", "sequence", "terrain")  # terrain.yaml's id
    assert code == 1 and "an aid with id 'terrain' is registered already" in err
    assert snapshot(fresh) == before
    (fresh / "games" / GAME / "loose.yaml").write_text("kept\n")  # a file, not an aid of the game
    code, _, err = run("--project", fresh, "new", "card", "loose")
    assert code == 1 and f"games/{GAME}/loose.yaml: the file exists" in err
    (fresh / "games" / GAME / "book").mkdir()
    (fresh / "games" / GAME / "book" / "introduction.md").write_text("# Mine {#mine}\n")
    code, _, err = run("--project", fresh, "new", "booklet", "book")
    assert code == 1 and f"games/{GAME}/book/introduction.md: the file exists" in err
    assert not (fresh / "games" / GAME / "book.yaml").exists()
    assert (fresh / "games" / GAME / "game.yaml").read_bytes() == before[fresh.joinpath("games", GAME, "game.yaml")
                                                                          .relative_to(fresh)]


@pytest.mark.parametrize("args, message", [
    (["new", "card", "Quick_Ref"], "command line: malformed aid id 'Quick_Ref' (expected: lowercase letters"),
    (["new", "poster", "x"], "command line: no template for aid kind 'poster' (expected: sequence, table, playsheet, "
                             "card, booklet)"),
    (["new", "card", "x", "--game", "nope"], "command line: unknown game 'nope' (expected: mill-skirmish)"),
])
def test_new_refuses_bad_arguments(fresh, args, message):
    before = snapshot(fresh)
    code, _, err = run("--project", fresh, *args)
    assert code == 1 and message in err
    assert snapshot(fresh) == before


def test_new_asks_which_game_when_there_are_several(fresh):
    other = fresh / "games" / "other"
    other.mkdir()
    (other / "game.yaml").write_text('id: other\ntitle: Other\nversion: "1"\nsource_language: en\naids: []\n')
    code, _, err = run("--project", fresh, "new", "card", "quick-ref")
    assert code == 1 and "the project has 2 games: say which one (expected: --game mill-skirmish or --game other)" in err
    assert not (fresh / "games" / GAME / "quick-ref.yaml").exists()
    code, out, err = run("--project", fresh, "new", "card", "quick-ref", "--game", "other")
    assert code == 0, err
    assert (other / "game.yaml").read_text().endswith("aids: [quick-ref.yaml]\n")


def test_a_playsheet_needs_a_table_and_new_writes_the_schemas(tmp_path):
    """The demo game (Polish source) has a sequence only: a playsheet is refused until a table is made."""
    root = make_project(tmp_path)
    code, _, err = run("--project", root, "new", "playsheet", "sheet")
    assert code == 1 and "a playsheet embeds a table, and game 'demo' has none (expected: a table first: aids new " \
                         "table <id>)" in err
    assert not (root / "games/demo/sheet.yaml").exists()
    assert run("--project", root, "new", "table", "terrain")[0] == 0
    code, out, _ = run("--project", root, "new", "playsheet", "sheet")
    assert code == 0 and "note: it embeds the table 'terrain'" in out
    assert run("--project", root, "new", "booklet", "rules")[0] == 0
    assert (root / "games/demo/rules/introduction.md").read_text().startswith("# Wstęp {#introduction}")
    assert (root / "schemas" / "playsheet.schema.json").is_file()
    assert "title: Ściągawka gracza" in (root / "games/demo/sheet.yaml").read_text()
    assert (root / "games/demo/game.yaml").read_text().endswith(
        "  - sequence.yaml\n  - terrain.yaml\n  - sheet.yaml\n  - rules.yaml\n")
    code, out, err = run("--project", root, "build", "--format", "html", "--lang", "pl")
    assert code == 0, out + err
    assert {p.name for p in (root / "build/demo/pl").iterdir()} == {"seq.html", "sheet.html", "rules.html",
                                                                    "index.html"}  # and the game's page


@pytest.mark.parametrize("text, expected", [
    ("id: g\naids:\n  - a.yaml   # the first\n# a comment\n  - b.yaml\nsource_language: en\n",
     "id: g\naids:\n  - a.yaml   # the first\n# a comment\n  - b.yaml\n  - new.yaml\nsource_language: en\n"),
    ("aids:\n- a.yaml", "aids:\n- a.yaml\n- new.yaml\n"),
    ("aids:\r\n  - a.yaml\r\nid: g\r\n", "aids:\r\n  - a.yaml\r\n  - new.yaml\r\nid: g\r\n"),
    ("aids: [a.yaml, b.yaml]  # two\n", "aids: [a.yaml, b.yaml, new.yaml]  # two\n"),
    ("aids: []\n", "aids: [new.yaml]\n"),
    ("aids: [\n  a.yaml,\n  'b].yaml',\n]\nid: x\n", "aids: [\n  a.yaml,\n  'b].yaml', new.yaml\n]\nid: x\n"),
])
@pytest.mark.unit
def test_register_keeps_the_layout_of_game_yaml(tmp_path, text, expected):
    src = load_yaml(text, tmp_path / "game.yaml", "game.yaml")
    assert register(src, "new.yaml") == expected


@pytest.mark.unit
def test_register_refuses_what_it_cannot_edit_safely(tmp_path):
    from aids.errors import AidsError
    src = load_yaml("aids: [a.yaml,]\n", tmp_path / "game.yaml", "game.yaml")
    assert register(src, "c.yaml") == "aids: [a.yaml, c.yaml]\n"
    src = load_yaml("aids:\n  - a.yaml\n  - >-\n    b.yaml\n", tmp_path / "game.yaml", "game.yaml")
    with pytest.raises(AidsError, match=r"game.yaml:2:3: cannot add c.yaml to this list of aids \(expected: add "):
        register(src, "c.yaml")


@pytest.mark.unit
def test_the_starter_texts_are_complete_and_translate_one_way():
    """Every text in every starter language, no digit outside a placeholder, and each language's text maps to
    one text of every other language (the catalogs are filled by msgid)."""
    for key, by_lang in texts().items():
        assert sorted(by_lang) == sorted(STARTER), key
        for lang, text in by_lang.items():
            assert not re.search(r"\d", re.sub(r"\{[a-z]+:[^}]*\}", "", text)), (key, lang)
            assert sorted(re.findall(r"\{[a-z]+:[^}]*\}", text)) == \
                sorted(re.findall(r"\{[a-z]+:[^}]*\}", by_lang["en"])), (key, lang)
    for a, b in permutations(STARTER, 2):
        seen: dict[str, str] = {}
        for by_lang in texts().values():
            assert seen.setdefault(by_lang[a], by_lang[b]) == by_lang[b], (a, b, by_lang[a])


@pytest.mark.parametrize("text", ["plain text", "{term:zoc} first", "a: b", "x # y", "**bold**", "- item", "yes",
                                  "Кто, где", "a, b", "[x]", "'quoted'", "trailing "])
@pytest.mark.unit
def test_a_text_reads_back_as_itself_in_a_block_and_in_a_flow(text):
    yaml = YAML(typ="safe")
    assert yaml.load(f"k: {scalar(text)}\n") == {"k": text}
    assert yaml.load(f"[{scalar(text)}]\n") == [text]


@pytest.mark.unit
def test_the_wheel_ships_every_file_of_the_scaffold():
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "aids.commands.scaffold" in data["packages"]
    patterns = data["package-data"]["aids.commands.scaffold"]
    files = [p.relative_to(HERE).as_posix() for p in HERE.rglob("*")
             if p.is_file() and p.suffix != ".py" and "__pycache__" not in p.parts]
    assert files and all(any(fnmatch.fnmatch(f, pattern) for pattern in patterns) for f in files), files
