"""A developer and a translator at work on the same catalogs at once (issue 45, item 1): a source change made
with `aids extract && aids update` and a translator's edit of other entries, as Weblate commits it, merge with
plain git, with no conflict and nothing lost; `aids update` after the merge rewrites nothing.
tests/system/test_weblate.py runs the same against a real Weblate."""
import os
import shutil
import subprocess

import pytest

from aids.config import read_project
from aids.localize import po
from aids.localize.catalogs import po_path, read_catalog
from aids.translating import translations

from ..helpers import DEMO_SEQUENCE

gettext_tools = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext not installed")
DAY = 86400
# the fields Weblate writes into a header with each commit (docs/translating/weblate.md)
WEBLATE_HEADER = {"Last_Translator": "Anna <anna@example.org>",
                  "Language_Team": "English <http://localhost:8080/projects/demo/demo/en/>",
                  "X_Generator": "Weblate 2026.10.1"}


def git(root, *args) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-c", "user.name=Someone", "-c", "user.email=someone@example.org", *args],
                          cwd=root, capture_output=True, text=True)


def update_at(root, monkeypatch, moment: int) -> list[str]:
    """`aids extract && aids update` at a moment (SOURCE_DATE_EPOCH): what a developer runs after an edit."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(moment))
    project = read_project(root)
    return translations.extract(project) + translations.update(project)


def weblate_edit(path, table: dict[str, str], when: str) -> None:
    """What a Weblate commit does to a catalog: the translations edited by msgctxt, and its header fields."""
    catalog = read_catalog(path, str(path))
    for entry in po.entries(catalog):
        if entry.getcontext() in table:
            entry.target = table[entry.getcontext()]
            entry.markfuzzy(False)
    catalog.updateheader(add=True, PO_Revision_Date=when, **WEBLATE_HEADER)
    po.save(path, catalog)


def counted(root) -> dict[str, tuple[int, int]]:
    """Each catalog's (entries, translated entries), obsolete ones among them."""
    found = {}
    for path in sorted((root / "i18n").glob("*/LC_MESSAGES/*.po")):
        units = [u for u in read_catalog(path, str(path)).units if not u.isheader()]
        found[path.name + ":" + path.parent.parent.name] = (len(units), sum(1 for u in units if po.translated(u)))
    return found


@gettext_tools
@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_a_source_change_and_a_translators_edit_of_other_entries_merge_without_conflict(demo, monkeypatch):
    start = 1_800_000_000
    update_at(demo, monkeypatch, start)
    catalog = po_path(demo / "i18n", "en", "demo")
    weblate_edit(catalog, {"seq/prep/place": "Place the counters.", "seq/red-move/move": "Red moves."},
                 "2027-01-15 10:00+0000")
    assert git(demo, "init", "-q", "-b", "main").returncode == 0
    git(demo, "add", "-A")
    git(demo, "commit", "-q", "-m", "The game, translated in part")

    # Weblate's side: a translator translates another entry; Weblate commits it with its header fields
    git(demo, "checkout", "-q", "-b", "weblate")
    weblate_edit(catalog, {"seq/red-move/move/fire": "Blue fires."}, "2027-01-16 09:00+0000")
    assert git(demo, "commit", "-q", "-a", "-m", "Translated using Weblate").returncode == 0
    before = counted(demo)

    # the developer's side, a day later: a step's text changed, extracted and updated
    git(demo, "checkout", "-q", "main")
    sequence = demo / "games/demo/sequence.yaml"
    sequence.write_text(DEMO_SEQUENCE.replace("Czerwoni się ruszają.", "Czerwoni ruszają się szybko."),
                        encoding="utf-8")
    assert "i18n/en/LC_MESSAGES/demo.po" in update_at(demo, monkeypatch, start + DAY)
    git(demo, "commit", "-q", "-a", "-m", "A rule changed")

    # Weblate pulls: it rebases its commit on the developer's
    rebased = git(demo, "rebase", "main", "weblate")
    assert rebased.returncode == 0, rebased.stdout + rebased.stderr
    assert not git(demo, "diff", "--name-only", "--diff-filter=U").stdout

    # nothing lost: every entry, every translation of both sides
    after = counted(demo)
    assert after == before, (before, after)
    entries = {po.key(e)[0]: e for e in po.entries(read_catalog(catalog, str(catalog)))}
    assert po.strings(entries["seq/red-move/move/fire"]) == ["Blue fires."]
    moved = entries["seq/red-move/move"]
    assert moved.isfuzzy() and po.strings(moved) == ["Red moves."] and str(moved.prev_source) == \
        "Czerwoni się ruszają."
    header = read_catalog(catalog, str(catalog)).parseheader()
    assert {k: header[k.replace("_", "-")] for k in WEBLATE_HEADER} == WEBLATE_HEADER
    assert header["PO-Revision-Date"] == "2027-01-16 09:00+0000"
    # and the next update (a day later still) rewrites nothing Weblate and the developer wrote together
    merged = {p: p.read_bytes() for p in (demo / "i18n").rglob("*.po*")}
    assert update_at(demo, monkeypatch, start + 2 * DAY) == []
    assert {p: p.read_bytes() for p in (demo / "i18n").rglob("*.po*")} == merged
    done = subprocess.run(["msgfmt", "--check", "-o", os.devnull, str(catalog)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert subprocess.run(["msgcat", str(catalog)], capture_output=True).stdout == catalog.read_bytes()
