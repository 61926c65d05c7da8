"""A team translating in Weblate, the parts that need no Weblate (issue 45, items 5 and 6): `aids weblate
components` gives each catalog's component the settings aids needs (Weblate checks aids' placeholders, keeps
quiet on what a translator's comment says is identical on purpose, adds only the languages aids.yaml publishes)
and applies them; a language added in Weblate that aids.yaml does not publish is named, with what to do.
tests/system/test_weblate.py holds the same settings to a real Weblate."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from aids.commands.cli import main
from aids.commands.weblate import components
from aids.commands.weblate_setup import BULK, GNU_LAYOUT, IGNORE_IDENTICAL, PLACEHOLDERS, apply
from aids.config import read_project
from aids.errors import AidsError
from aids.localize import po
from aids.localize.catalogs import faults, read_catalog

from .helpers import REPO, make_project


def placeholder_regex() -> re.Pattern:
    """The placeholder flag's regular expression, as Weblate compiles it (`placeholders:r"..."`)."""
    return re.compile(re.fullmatch(r'placeholders:r"(.*)"', PLACEHOLDERS).group(1))


def weblate_flags(source: str, translation: str) -> bool:
    """Whether Weblate's placeholder check fails a translation: the set of matches differs from the source's."""
    found = placeholder_regex()
    return set(found.findall(source)) != set(found.findall(translation))


def test_the_components_of_aids_own_tree_each_have_aids_settings(capsys):
    assert main(["--project", str(REPO), "weblate", "components"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [c["component"]["slug"] for c in listed] == ["gcacw", "lwow-1920", "newbury-fast-play", "ostroleka-1831",
                                                        "valmora-1809", "valmora-scenarios", "aids"]
    ui = listed[-1]["component"]  # the package's own words, in aids' own tree (ui_domain)
    assert (ui["filemask"], ui["new_base"], ui["source_language"]) == (
        "i18n/*/LC_MESSAGES/aids.po", "i18n/templates/aids.pot", {"code": "en"})
    for each in listed:
        component = each["component"]
        assert (REPO / component["new_base"]).is_file()
        assert component["check_flags"] == PLACEHOLDERS
        assert component["new_lang"] == "contact"
        assert component["language_regex"] == "^(?:pl|en|ru)$"
        assert re.match(component["language_regex"], "ru") and not re.match(component["language_regex"], "de")
        assert component["file_format"] == "po" and component["file_format_params"]["po_keep_previous"]
        assert [a["name"] for a in each["addons"]] == [GNU_LAYOUT, BULK]
        assert each["addons"][1]["configuration"]["add_translation_flags"] == "ignore-same"
    assert main(["--project", str(REPO), "weblate", "components", "--game", "lwow-1920"]) == 0
    assert [c["component"]["slug"] for c in json.loads(capsys.readouterr().out)] == ["lwow-1920"]


def test_the_placeholder_flag_finds_a_placeholder_left_open_and_nothing_aids_check_passes():
    """Weblate's placeholder check with aids' flag, over every translated entry of every sample catalog: it fails
    none that aids passes, and fails each placeholder left open or lost (a grammatical form may differ)."""
    opened_or_lost = 0
    checked = 0
    for path in sorted((REPO / "i18n").glob("*/LC_MESSAGES/*.po")):
        catalog = read_catalog(path, path.name)
        faulty = {id(entry) for entry, _, _ in faults(catalog)}
        for entry in po.entries(catalog):
            if entry.hasplural() or entry.isfuzzy() or not po.translated(entry) or id(entry) in faulty:
                continue
            source, text = po.msgid(entry), po.strings(entry)[0]
            assert not weblate_flags(source, text), (path.name, entry.getcontext(), text)
            checked += 1
            # Weblate compares the sets of placeholders: one written twice and broken once is left to aids check
            for placeholder in {p for p in re.findall(r"\{[a-z]+:[^{}\s]+\}", text) if text.count(p) == 1}:
                opened = text.replace(placeholder, placeholder[:-1] + " ", 1)
                assert weblate_flags(source, opened), (path.name, opened)
                assert weblate_flags(source, text.replace(placeholder, "", 1)), (path.name, placeholder)
                opened_or_lost += 1
    assert checked > 1500 and opened_or_lost > 300
    assert not weblate_flags("{side:phasing} moves.", "{side:phasing|gen} ходит.")
    assert weblate_flags("Roll {num:4} dice.", "Rzuć {num:4 kośćmi.")
    assert weblate_flags("Roll {num:4} dice.", "Rzuć {num:4|gen kośćmi.")


def test_the_ignore_identical_query_finds_exactly_the_entries_whose_comment_silences_identical():
    """The bulk edit's search (Weblate's, on a string's notes) picks the entries whose translator's comment
    silences aids' `identical` check, and no other (`# aids: ignore terminology` is not one of them)."""
    query = re.compile(re.fullmatch(r'note:r"(.*)"', IGNORE_IDENTICAL["q"]).group(1))
    marked = 0
    for path in sorted((REPO / "i18n").glob("*/LC_MESSAGES/*.po")):
        for entry in po.entries(read_catalog(path, path.name)):
            notes = entry.getnotes()  # translator's and developer's comments: Weblate's note
            assert bool(query.search(notes)) == ("identical" in po.ignored(entry)), (path.name, notes)
            marked += "identical" in po.ignored(entry)
    assert marked == 30  # gcacw's proper names (en, ru), the package's "PDF" (pl, ru)
    assert query.search("aids: ignore terminology, identical (a title)")
    assert not query.search("aids: ignore terminology (identical in meaning)\nsomething")


class FakeWeblate:
    """A Weblate's components and add-ons, as `apply` reads and writes them through the API."""

    url = "https://weblate.example.org"

    def __init__(self, components: dict[str, dict] | None = None, gnu_layout: bool = True):
        self.components = components or {"glossary": {"slug": "glossary", "repo": "local:", "is_glossary": True,
                                                      "addons": []}}
        self.addons: dict[str, dict] = {}
        self.gnu_layout = gnu_layout
        self.calls: list[tuple[str, str]] = []

    def pages(self, path: str) -> list[dict]:
        assert path == "projects/team/components/"
        return list(self.components.values())

    def call(self, method: str, path: str, data=None, files=None):
        self.calls.append((method, path))
        if method == "POST" and path == "projects/team/components/":
            self.components[data["slug"]] = {**data, "addons": []}
        elif method == "PATCH":
            self.components[path.split("/")[2]].update(data)
        elif method == "POST" and path.endswith("/addons/"):
            if data["name"] == GNU_LAYOUT and not self.gnu_layout:
                raise AidsError([])  # Weblate: 400, an add-on it does not know
            key = str(len(self.addons) + 1)
            self.addons[key] = data
            self.components[path.split("/")[2]]["addons"].append(f"{self.url}/api/addons/{key}/")
        elif method == "GET" and path.startswith("addons/"):
            return self.addons[path.split("/")[1]]
        return {}


def test_apply_makes_the_missing_components_and_sets_aids_settings_of_those_there(tmp_path):
    root = make_project(tmp_path)
    project = read_project(root)
    weblate = FakeWeblate()
    found = components(project)
    with pytest.raises(AidsError, match="has no component with a repository yet"):
        apply(weblate, "team", project, found, None, "main")
    said = apply(weblate, "team", project, found, "https://git.example.org/game.git", "main")
    assert said == ["https://weblate.example.org/projects/team/demo/: created",
                    f"https://weblate.example.org/projects/team/demo/: add-on {GNU_LAYOUT} installed",
                    f"https://weblate.example.org/projects/team/demo/: add-on {BULK} installed"]
    made = weblate.components["demo"]
    assert (made["repo"], made["push"], made["branch"]) == ("https://git.example.org/game.git",) * 2 + ("main",)
    assert made["language_regex"] == "^(?:pl|en|ru)$" and made["check_flags"] == PLACEHOLDERS
    assert apply(weblate, "team", project, found, None, "main") == [
        "https://weblate.example.org/projects/team/demo/: up to date"]
    # a component made before (by hand, or by an older aids): its own flags and parameters kept beside aids'
    made.update({"check_flags": "md-text", "new_lang": "add", "language_regex": "^[^.]+$",
                 "file_format_params": {"po_line_wrap": 77, "po_keep_previous": True}})
    weblate.addons.clear()
    made["addons"] = []
    said = apply(weblate, "team", project, found, None, "main")
    assert said[0] == ("https://weblate.example.org/projects/team/demo/: new_lang, language_regex, check_flags, "
                       "file_format_params set")
    assert made["check_flags"] == f"md-text, {PLACEHOLDERS}" and made["file_format_params"]["po_remove_obsolete"] \
        is False
    # a second component shares the first one's clone; a Weblate without aids' layout add-on is told so
    (root / "games/other").mkdir()
    (root / "games/other/game.yaml").write_text((root / "games/demo/game.yaml").read_text().replace(
        "id: demo", "id: other"), encoding="utf-8")
    shutil.copy(root / "games/demo/sequence.yaml", root / "games/other/sequence.yaml")
    weblate.gnu_layout = False
    said = apply(weblate, "team", read_project(root), components(read_project(root)), None, "main")
    assert weblate.components["other"]["repo"] == "weblate://team/demo"
    assert "https://weblate.example.org/projects/team/other/: created" in said
    assert any(line.startswith(f"https://weblate.example.org/projects/team/other/: no add-on {GNU_LAYOUT}")
               for line in said)


def test_a_language_added_in_weblate_but_not_published_is_named_with_what_to_do(tmp_path, capsys):
    """Weblate writes a new language's catalog from the template and pushes it at once; aids.yaml does not list
    it, so aids update, check and build leave it alone: stats and update say so, and what to do, in one line
    (not `aids extract && aids update`, which would change nothing)."""
    root = make_project(tmp_path)
    assert main(["--project", str(root), "extract"]) == 0 and main(["--project", str(root), "update"]) == 0
    german = root / "i18n/de/LC_MESSAGES/demo.po"
    german.parent.mkdir(parents=True)
    subprocess.run(["msginit", "--no-translator", "-l", "de", "-i", str(root / "i18n/templates/demo.pot"), "-o",
                    str(german)], check=True, capture_output=True) if shutil.which("msginit") else \
        shutil.copy(root / "i18n/templates/demo.pot", german)
    capsys.readouterr()
    line = ("i18n/de/: de is not among aids.yaml's languages (pl, en, ru): aids update, check and build leave its "
            "catalogs alone; to publish it, add de to languages: in aids.yaml and run `aids update`")
    assert main(["--project", str(root), "stats"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == line
    assert main(["--project", str(root), "stats", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == line and "aids extract" not in out
    assert main(["--project", str(root), "stats", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["not_published"] == [{"lang": "de", "what_to_do": line}]
    assert main(["--project", str(root), "update"]) == 0
    assert capsys.readouterr().err.splitlines() == [f"warning: {line}"]
    # done as said: the catalog is aids' from then on
    (root / "aids.yaml").write_text("languages: [pl, en, ru, de]\noutput: build\n", encoding="utf-8")
    assert main(["--project", str(root), "update"]) == 0
    said = capsys.readouterr()
    assert said.out == "updated i18n/de/LC_MESSAGES/demo.po\n" and not said.err
