"""A build asked again with nothing changed does nothing, without reading a source (write/stamp.py); anything
changed, and it goes the whole way: it never takes a stale output for a fresh one."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from aids.config import read_project
from aids.localize.catalogs import po_path
from aids.pipeline import builder, fingerprint, pipeline
from aids.write.stamp import STAMP

from .helpers import built_files
from .localize.test_catalogs import translate
from .test_fast_builds import build, built_demo, copied, demo_built_once, demo_project  # noqa: F401 (fixtures)


@pytest.fixture
def demo(built_demo):  # noqa: F811 (the fixture imported above, under the name the tests use)
    return built_demo


@pytest.fixture
def unbuilt_demo(tmp_path):
    return demo_project(tmp_path)


@pytest.fixture
def planned(monkeypatch):
    """How many times a build read and planned the sources."""
    count = [0]
    plan = pipeline.plan_build

    def counted(*args, **kwargs):
        count[0] += 1
        return plan(*args, **kwargs)
    monkeypatch.setattr(pipeline, "plan_build", counted)
    return count


def fresh(root, tmp_path, built_once, name="fresh"):
    """The outputs of a build of `root`'s sources from nothing, by name: those of `built_once` (the demo built
    from nothing once for the run) when `root` holds its sources, byte for byte; else of a build of a copy."""
    if sources(root) == sources(built_once):
        return outputs(built_once)
    other = tmp_path / name
    shutil.copytree(root, other, ignore=shutil.ignore_patterns("build"))
    build(other)
    return outputs(other)


def sources(root):
    """The bytes of a project's sources and catalogs, by name (its aids.yaml, games/ and i18n/): where two are
    equal, so are the outputs of building each from nothing."""
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.relative_to(root).parts[0] in ("aids.yaml", "games", "i18n")}


def outputs(root):
    return {p.relative_to(root / "build"): d for p, d in built_files(root / "build").items()}


def test_a_build_with_nothing_changed_reads_no_source_and_reports_what_the_whole_way_reports(demo, planned):
    translate(po_path(demo / "i18n", "ru", "demo"), {"seq/prep": ""})  # a fallback, reported by every build
    build(demo)
    (demo / "build" / STAMP).rename(demo / "stamp")
    whole = build(demo)  # no stamp: the whole way, every aid found up to date by the cache
    (demo / "stamp").rename(demo / "build" / STAMP)
    assert planned[0] == 2
    again = build(demo)
    assert planned[0] == 2  # nothing parsed, planned or rendered
    assert again.fallbacks and again.built == [] and again.unchanged == whole.unchanged == 12
    assert (again.skipped, again.fallbacks, again.site, again.removed) == \
        (whole.skipped, whole.fallbacks, whole.site, whole.removed)


def test_a_build_with_a_shard_and_a_threshold_replays_its_skipped_lines(unbuilt_demo, planned):
    demo = unbuilt_demo
    first = build(demo, shard=(1, 2), min_complete=100)
    again = build(demo, shard=(1, 2), min_complete=100)
    assert planned[0] == 1 and again.skipped == first.skipped and again.unchanged == len(first.built)
    assert any("search index" in line for line in again.skipped)
    build(demo, shard=(2, 2), min_complete=100)  # other options: the whole way
    assert planned[0] == 2


@pytest.mark.parametrize("change", ["source", "catalog", "options", "tool", "output", "extra", "missing", "link",
                                    "stamp"])
def test_anything_changed_and_the_build_goes_the_whole_way(demo, planned, tmp_path, monkeypatch, change,
                                                          demo_built_once):  # noqa: F811 (the fixture imported above)
    build(demo)
    options = {}
    page = demo / "build/demo/cm/en/seq.html"
    if change == "source":
        source = demo / "games/demo/sequence.yaml"
        source.write_text(source.read_text(encoding="utf-8").replace("Połóż żetony.", "Połóż te żetony."),
                          encoding="utf-8")
    elif change == "catalog":
        translate(po_path(demo / "i18n", "en", "demo"), {"seq/prep": "Setting up"})
    elif change == "options":
        options = {"langs": ["pl"]}
    elif change == "tool":
        monkeypatch.setattr(builder, "tool_digest", lambda: "another aids")
    elif change == "output":  # changed in place, to the same size and time
        data, info = page.read_bytes(), page.stat()
        page.write_bytes(data.replace(b"<html", b"<HTML", 1))
        os.utime(page, ns=(info.st_atime_ns, info.st_mtime_ns))
    elif change == "extra":
        (demo / "build/demo/cm/en/notes.txt").write_text("mine")
    elif change == "missing":
        page.unlink()
    elif change == "link":
        (demo / "build/demo/cm/en/elsewhere.html").symlink_to(tmp_path)
    elif change == "stamp":
        (demo / "build" / STAMP).write_text(json.dumps({"key": "x", "files": [], "report": {}}))
    build(demo, **options)
    assert planned[0] == 2
    if change != "options":
        mine = {"demo/cm/en/notes.txt"}  # a file of the user's, not aids': left as it is
        found = {k: v for k, v in outputs(demo).items() if str(k) not in mine}
        assert found == fresh(demo, tmp_path, demo_built_once)  # never stale
    if change == "link":
        assert not (demo / "build" / STAMP).exists()  # not stamped while a link is there
        assert (demo / "build/demo/cm/en/elsewhere.html").is_symlink()  # not aids' to remove
        count = planned[0]
        build(demo)
        assert planned[0] == count + 1


def test_a_copied_output_folder_is_a_no_op_and_its_stamp_learns_the_new_files(demo, planned):
    build(demo)
    copied(demo / "build", demo / "copy")
    shutil.rmtree(demo / "build")
    (demo / "copy").rename(demo / "build")
    before = (demo / "build" / STAMP).read_bytes()
    assert build(demo).built == [] and planned[0] == 1
    after = (demo / "build" / STAMP).read_bytes()
    assert after != before  # the copies' stat: the next look is a stat only
    assert build(demo).built == [] and planned[0] == 1 and (demo / "build" / STAMP).read_bytes() == after


def test_a_failed_build_leaves_no_stamp_and_force_goes_the_whole_way(demo, planned):
    build(demo)
    assert build(demo, force=True).built and planned[0] == 2
    source = demo / "games/demo/sequence.yaml"
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("kind: sequence", "kind: sequence\nnonsense: 1"), encoding="utf-8")
    summary = builder.build(read_project(demo), pipeline.Options())
    assert summary.failed and not (demo / "build" / STAMP).exists()
    summary = builder.build(read_project(demo), pipeline.Options())
    assert summary.failed and planned[0] == 4  # a failure is reported again, never replayed as a success


@pytest.mark.parametrize("damage", [b"", b"[]", b"{\"key\": 1}", b"\xff\xfe", b"[" * 100000])
def test_a_damaged_stamp_is_not_trusted(demo, planned, damage):
    build(demo)
    stamp = json.loads((demo / "build" / STAMP).read_text())
    (demo / "build" / STAMP).write_bytes(damage)
    assert build(demo).built == [] and planned[0] == 2
    stamp["report"]["unchanged"] = "12"
    (demo / "build" / STAMP).write_text(json.dumps(stamp))
    assert build(demo).unchanged == 12 and planned[0] == 3


def test_a_source_outside_the_digested_folders_is_never_stamped(demo, planned, monkeypatch):
    monkeypatch.setattr(fingerprint.Fingerprints, "covered", lambda self, project: False)
    build(demo)
    assert not (demo / "build" / STAMP).exists()
    build(demo)
    assert planned[0] == 2


def test_a_partial_build_leaves_no_stamp_and_the_complete_one_goes_the_whole_way(demo, planned):
    """serve's first part (the language looked at, no site, no index) is never taken for the build that
    completes it."""
    build(demo)
    source = demo / "games/demo/sequence.yaml"
    source.write_text(source.read_text(encoding="utf-8").replace("Połóż żetony.", "Połóż te żetony."),
                      encoding="utf-8")
    build(demo, langs=["en"], partial=True)
    assert not (demo / "build" / STAMP).exists() and planned[0] == 2
    complete = build(demo)
    assert planned[0] == 3 and complete.built and (demo / "build" / STAMP).exists()
