"""`catalogs_per: aid` (docs/guide/catalogs-per-aid.md): a catalog per aid beside the game's own, and `aids update`
moving every translation when the setting changes, either way, nothing lost."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from aids.commands.weblate import components
from aids.config import read_project
from aids.localize import catalogs, merge, po, regroup
from aids.pipeline import builder
from aids.pipeline.pipeline import Options
from aids.translating import translations

from ..helpers import REPO, pdf_text

pytestmark = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext not installed")
GAME = "gcacw"  # a sequence of play and a rule booklet


def sample(root: Path) -> Path:
    """A project of the sample games (no ui_domain), as a user has it."""
    for name in ("games", "i18n"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__", "*.py"))
    (root / "aids.yaml").write_text((REPO / "aids.yaml").read_text().replace("ui_domain: true", "ui_domain: false"))
    for stray in (root / "i18n").rglob("aids.po*"):
        stray.unlink()
    return root


def per(root: Path, setting: str | None) -> list[str]:
    """Set the game's `catalogs_per` (None: not given), then extract and update."""
    game_yaml = root / "games" / GAME / "game.yaml"
    lines = [line for line in game_yaml.read_text().splitlines() if not line.startswith("catalogs_per:")]
    game_yaml.write_text("\n".join([*lines, *([f"catalogs_per: {setting}"] if setting else [])]) + "\n")
    project = read_project(root)
    return translations.extract(project, [GAME]) + translations.update(project, [GAME])


def state(root: Path) -> dict[tuple[str, bool, str, str], tuple[str, bool, tuple[str, ...]]]:
    """Every entry of the game's catalogs, by language, obsolete or not and key: translation, fuzzy, translator's
    comments (a text in two catalogs must be the same in both)."""
    found: dict = {}
    for path in sorted((root / "i18n").glob(f"*/LC_MESSAGES/{GAME}*.po")):
        read = catalogs.read_catalog(path, str(path))
        for entry in po.entries(read) + po.obsolete(read):
            slot = (path.parts[-3], entry.isobsolete(), *po.key(entry))
            value = (str(entry.target), entry.isfuzzy(), tuple(entry.othercomments))
            assert found.setdefault(slot, value) == value, (path, slot)
    return found


def msgfmt_check(root: Path) -> list[str]:
    paths = sorted((root / "i18n").glob(f"*/LC_MESSAGES/{GAME}*.po"))
    for path in paths:
        done = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    return [p.name for p in paths]


def built_text(root: Path) -> dict[str, str]:
    summary = builder.build(read_project(root), Options(games=[GAME], langs=["en", "ru"], formats=["pdf"],
                                                        strict=True, force=True))
    assert not summary.failed, summary.failed
    return {p.relative_to(root / "build").as_posix(): pdf_text(p) for p in sorted((root / "build").rglob("*.pdf"))}


def test_switching_to_catalogs_per_aid_and_back_moves_every_translation(tmp_path):
    root = sample(tmp_path)
    before, before_files = state(root), msgfmt_check(root)
    pdfs = built_text(root)
    said = per(root, "aid")
    assert set(msgfmt_check(root)) == {f"{GAME}.po", f"{GAME}.sequence-of-play.po", f"{GAME}.system-rules.po"}
    assert "i18n/ru/LC_MESSAGES/gcacw.system-rules.po" in said
    assert state(root) == before  # every translation, fuzzy flag and comment, each in the catalog of its aid
    booklet = catalogs.read_catalog(root / "i18n/ru/LC_MESSAGES/gcacw.system-rules.po", "booklet")
    assert po.entries(booklet) and all(po.key(e)[0].startswith("system-rules") for e in po.entries(booklet))
    assert booklet.parseheader()["Last-Translator"] == "aids developers"  # the credits go with them
    assert built_text(root) == pdfs  # the build reads them: every PDF's text as it was (--strict: none missing)
    said = per(root, None)
    assert "removed i18n/ru/LC_MESSAGES/gcacw.system-rules.po (its translations moved to the game's other " \
           "catalogs)" in said
    assert msgfmt_check(root) == before_files and state(root) == before
    for lang in ("en", "ru"):  # as it was (its lines wrapped alike or not)
        path = f"i18n/{lang}/LC_MESSAGES/{GAME}.po"
        assert (root / path).read_bytes().replace(b"\n", b"") == (REPO / path).read_bytes().replace(b"\n", b""), path
    assert not list((root / "i18n/templates").glob(f"{GAME}.*.pot"))


def entry(context: str, msgid: str, msgstr: str = "", obsolete: bool = False) -> po.Entry:
    found = po.Entry(msgid)
    found.setcontext(context)
    found.target = msgstr
    if obsolete:
        found.makeobsolete()
    return found


def catalog(*entries: po.Entry, last_translator: str = "", credit: str = "") -> po.Catalog:
    made = catalogs.new_catalog([("Project-Id-Version", "g 1"), ("Last-Translator", last_translator),
                                 ("Language", "pl"), ("Content-Type", "text/plain; charset=UTF-8"),
                                 ("Plural-Forms", "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && "
                                  "(n%100<10 || n%100>=20) ? 1 : 2);")], credit)
    for found in entries:
        made.addunit(found)
    return made


def table(found: po.Catalog) -> dict[tuple[bool, str, str], str]:
    return {(e.isobsolete(), *po.key(e)): str(e.target) for e in found.units if not e.isheader()}


@pytest.mark.unit
def test_a_text_two_aids_share_is_in_each_aids_catalog_and_differing_translations_are_both_kept():
    shared = ("note/shared", "Roll a die.")
    game = catalog(entry("game/title", "G", "Gra"), entry(*shared, "Rzuć kostką."), entry("a/x", "X", "Iks"),
                   entry("b/y", "Y", "Igrek"), entry("gone/z", "Z", "Zet", obsolete=True), credit="Anna, 2024.")
    templates = {"g": catalog(entry("game/title", "G")), "g.a": catalog(entry(*shared), entry("a/x", "X")),
                 "g.b": catalog(entry(*shared), entry("b/y", "Y"))}
    split = regroup.regroup("g", {"g": game}, templates, "pl")
    assert table(split["g.a"]) == {(False, *shared): "Rzuć kostką.", (False, "a/x", "X"): "Iks"}
    assert table(split["g.b"]) == {(False, *shared): "Rzuć kostką.", (False, "b/y", "Y"): "Igrek"}
    assert table(split["g"]) == {(False, "game/title", "G"): "Gra", (True, "gone/z", "Z"): "Zet"}  # obsolete stays
    assert "# Anna, 2024.\n" in split["g.a"].header().othercomments
    # a translator of aid b changed the shared text's translation, then the game goes back to one catalog
    next(e for e in po.entries(split["g.b"]) if po.key(e) == shared).target = "Rzuć kością."
    back = regroup.regroup("g", split, {"g": catalog(entry("game/title", "G"), entry(*shared), entry("a/x", "X"),
                                                     entry("b/y", "Y"))}, "pl")["g"]
    assert regroup.gone(split, {"g": back}) == ["g.a", "g.b"]
    kept = {po.key(e): e for e in po.entries(back)}
    assert str(kept[shared].target) == "Rzuć kostką."
    assert f"# {merge.EARLIER}Rzuć kością.\n" in kept[shared].othercomments  # the other is not lost
    assert table(back)[(True, "gone/z", "Z")] == "Zet"


def test_one_weblate_component_per_catalog(tmp_path):
    root = sample(tmp_path)
    listed = components(read_project(root), [GAME, "lwow-1920"])
    assert [(c.slug, c.filemask, c.new_base, c.source_language) for c in listed] == [
        ("gcacw", "i18n/*/LC_MESSAGES/gcacw.po", "i18n/templates/gcacw.pot", "pl"),
        ("lwow-1920", "i18n/*/LC_MESSAGES/lwow-1920.po", "i18n/templates/lwow-1920.pot", "pl")]
    per(root, "aid")
    listed = components(read_project(root), [GAME])
    assert [(c.slug, c.name, c.filemask) for c in listed] == [
        ("gcacw", "Great Campaigns of the American Civil War", "i18n/*/LC_MESSAGES/gcacw.po"),
        ("gcacw_sequence-of-play", "Great Campaigns of the American Civil War – sequence-of-play",
         "i18n/*/LC_MESSAGES/gcacw.sequence-of-play.po"),
        ("gcacw_system-rules", "Great Campaigns of the American Civil War – system-rules",
         "i18n/*/LC_MESSAGES/gcacw.system-rules.po")]
    assert all((root / c.new_base).is_file() for c in listed)


class FakeWeblate:
    """What `aids context --weblate` and `aids budgets --weblate` ask of a Weblate, recorded: each component's
    units (the texts of its catalog), screenshots and flags."""

    def __init__(self, units: dict[str, list[str]]):
        self.units, self.calls = units, []

    def pages(self, path: str, **fields):
        self.calls.append(("GET", path))
        component = path.split("/")[2]
        if path.endswith("/units/"):
            return [{"id": f"{component}:{c}", "context": c, "source": [c.upper()], "extra_flags": ""}
                    for c in self.units.get(component, [])]
        return []

    def call(self, method: str, path: str, data=None, files=None):
        self.calls.append((method, path, data))
        return {"id": len(self.calls), "units": []}


def test_pictures_and_budgets_go_to_the_component_of_their_catalog(tmp_path, monkeypatch, capsys):
    from aids.commands import tools
    root = sample(tmp_path)
    per(root, "aid")
    project = read_project(root)
    fake = FakeWeblate({"gcacw_system-rules": ["system-rules/intro"], "gcacw_sequence-of-play": ["sequence/a"]})
    monkeypatch.setattr(tools, "weblate_of", lambda args: fake)
    folder = root / "build" / "context" / GAME / "pl"
    folder.mkdir(parents=True)
    (folder / "a.png").write_bytes(b"png")

    class Made:
        made = {(GAME, "pl"): {name: {"image": "a.png", "msgctxt": name, "msgid": name.upper()}
                               for name in ("system-rules/intro", "sequence/a")}}
    monkeypatch.setattr("aids.commands.context.context", lambda *a: Made)
    args = type("Args", (), {"game": [GAME], "lang": None, "weblate": "http://w", "weblate_project": "p"})
    assert tools.context_command(project, args) == 0
    said = capsys.readouterr().out
    assert "http://w/projects/p/gcacw_system-rules/: 1 screenshot(s)" in said
    assert "http://w/projects/p/gcacw_sequence-of-play/: 1 screenshot(s)" in said
    tied = [c for c in fake.calls if c[0] == "POST" and c[1].endswith("/units/")]
    assert sorted(c[2]["unit_id"] for c in tied) == ["gcacw_sequence-of-play:sequence/a",
                                                     "gcacw_system-rules:system-rules/intro"]


STRACE = shutil.which("strace")
WRITES = ("rename", "renameat", "renameat2", "unlink", "unlinkat", "link", "linkat")  # what changes a folder


def update(root: Path, *traced: str) -> subprocess.CompletedProcess:
    """`aids update` of the game in a process of its own, under strace with `traced` (its options) if given."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONWARNINGS": "ignore"}  # no .pyc written: only aids'
    command = [sys.executable, "-m", "aids", "--project", str(root), "update", "--game", GAME]
    return subprocess.run([STRACE, "-f", "-qq", *traced, *command] if traced else command, capture_output=True,
                          text=True, env=env)


def test_an_update_killed_at_any_write_of_a_move_loses_nothing(tmp_path):
    """The translations moving to a catalog per aid, `aids update` killed (SIGKILL, by strace) at each write it
    makes in turn (each rename, link and removal): the next `aids update` finds every entry, as an update that ran
    through has them, and leaves nothing of the interrupted one behind."""
    if STRACE is None:
        if os.environ.get("CI"):
            raise RuntimeError("strace missing (./bootstrap test installs it)")
        pytest.skip("strace missing (apt-get install strace)")
    ready = sample(tmp_path / "ready")
    before = state(ready)
    game_yaml = ready / "games" / GAME / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "catalogs_per: aid\n")
    translations.extract(read_project(ready), [GAME])
    clean = tmp_path / "clean"
    shutil.copytree(ready, clean)
    log = tmp_path / "writes.log"
    assert update(clean, "-o", str(log), "-e", f"trace={','.join(WRITES)}").returncode == 0
    assert state(clean) == before and len(list((clean / "i18n").glob(f"*/LC_MESSAGES/{GAME}.*.po"))) == 4
    calls = re.findall(r"^\d+ +(\w+)\(", log.read_text(), re.M)
    counts = {call: calls.count(call) for call in WRITES if call in calls}
    assert sum(counts.values()) >= 6  # six catalogs written, at least
    lost, left = {}, {}  # by the write killed: entries not as they were, files left of the interrupted update
    finished = msgfmt_check(clean)
    for call, count in counts.items():
        for n in range(1, count + 1):
            root = tmp_path / f"{call}-{n}"
            shutil.copytree(ready, root)
            killed = update(root, "-o", os.devnull, "-e", f"inject={call}:signal=SIGKILL:when={n}")
            assert killed.returncode == -signal.SIGKILL, (call, n, killed.stderr)  # strace ends as its tracee did
            again = update(root)
            assert again.returncode == 0, again.stderr
            after = state(root)
            lost[f"{call} {n}"] = sum(1 for slot, value in before.items() if after.get(slot) != value)
            left[f"{call} {n}"] = [p.name for p in (root / "i18n").rglob("*") if p.name.startswith(".")]
            assert set(after) <= set(before) and msgfmt_check(root) == finished, (call, n)
    assert set(lost.values()) == {0}, f"entries lost (of {len(before)}) by the write killed: {lost}"
    assert set(map(tuple, left.values())) == {()}, left
