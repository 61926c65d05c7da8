"""Fast builds: the same bytes in parallel, on shards, on a Dask cluster; only what changed is rebuilt."""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from decimal import Decimal

import pytest

from aids import builder, jobs, pipeline
from aids.config import read_project
from aids.localize.catalogs import po_path
from aids.render.fitting import largest_fitting

from .helpers import DEMO_PLAYSHEET, DEMO_SEQUENCE, built_files, make_project
from .localize.test_catalogs import extract_update, translate

FILES = {**DEMO_PLAYSHEET, "games/demo/sequence.yaml": DEMO_SEQUENCE,
         "games/demo/game.yaml": DEMO_PLAYSHEET["games/demo/game.yaml"].replace("aids:\n", "aids:\n  - sequence.yaml\n")}


@pytest.fixture
def demo(tmp_path):
    root = make_project(tmp_path / "project", FILES)
    extract_update(root)
    translate(po_path(root / "i18n", "en", "demo"), {"seq/prep": "Preparation"})
    return root


def build(root, **options):
    summary = builder.build(read_project(root), pipeline.Options(**options))
    assert not summary.failed, "\n".join(map(str, summary.failed))
    return summary


def mtimes(root):
    return {p: p.stat().st_mtime_ns for p in built_files(root / "build")}


def test_parallel_and_serial_builds_give_the_same_bytes(demo, tmp_path):
    serial = tmp_path / "serial"
    shutil.copytree(demo, serial)
    parallel = build(demo, jobs=2)
    build(serial, jobs=1)
    assert len(built_files(demo / "build")) == 2 * 2 * 3 * 2  # 2 aids, 2 editions, 3 languages, html and pdf
    assert {p.relative_to(demo): d for p, d in built_files(demo / "build").items()} == \
        {p.relative_to(serial): d for p, d in built_files(serial / "build").items()}
    # the summary is in plan order (edition, aid, language), whatever order the workers finished in
    assert [(b.edition, b.aid, b.lang) for b in parallel.built] == [
        (edition, aid, lang) for edition in ("cm", "inch") for aid in ("seq", "sheet") for lang in ("pl", "en", "ru")]


def test_a_second_build_writes_nothing_and_one_msgstr_rebuilds_only_its_language(demo):
    first = build(demo)
    assert first.unchanged == 0 and len(first.built) == 12
    before = mtimes(demo)
    time.sleep(0.01)
    again = build(demo)
    assert again.built == [] and again.unchanged == 12
    assert mtimes(demo) == before
    # the fallbacks are still reported, from the cache
    assert {key for key in again.fallbacks} == {key for key in first.fallbacks}

    # one changed msgstr of the sequence: its English page and PDF, nothing else
    translate(po_path(demo / "i18n", "en", "demo"), {"seq/prep": "Preparations"})
    third = build(demo)
    assert [(b.edition, b.aid, b.lang) for b in third.built] == [("cm", "seq", "en"), ("inch", "seq", "en")]
    changed = {str(p.relative_to(demo)) for p, t in mtimes(demo).items() if before[p] != t}
    assert changed == {f"build/demo/{edition}/en/seq.{suffix}" for edition in ("cm", "inch") for suffix in ("html", "pdf")}

    # an entry no aid shows changes nothing; a source file rebuilds its aid in every language
    source = demo / "games/demo/sequence.yaml"
    source.write_text(source.read_text(encoding="utf-8").replace("Połóż żetony.", "Połóż wszystkie żetony."),
                      encoding="utf-8")
    fourth = build(demo)
    assert sorted((b.aid, b.lang) for b in fourth.built) == sorted([("seq", lang) for lang in ("pl", "en", "ru")] * 2)


def test_without_the_cache_the_same_outputs(demo, tmp_path):
    build(demo)
    cached = built_files(demo / "build")
    shutil.rmtree(demo / "build/.aids-cache")
    rebuilt = build(demo)
    assert len(rebuilt.built) == 12 and built_files(demo / "build") == cached


def test_shards_split_the_aids_and_merge_by_copying_folders(demo, tmp_path):
    whole = tmp_path / "whole"
    shutil.copytree(demo, whole)
    build(whole)
    merged = tmp_path / "merged"
    shutil.copytree(demo, merged)
    aids = []
    for k in (1, 2, 3):
        shard = tmp_path / f"shard{k}"
        shutil.copytree(demo, shard)
        summary = build(shard, shard=(k, 3))
        aids += [(b.aid, b.edition) for b in summary.built if b.lang == "pl"]
        if (shard / "build").exists():  # a shard may have no aid of such a small project
            shutil.copytree(shard / "build", merged / "build", dirs_exist_ok=True)
    assert sorted(aids, key=str) == sorted([("sheet", "cm"), ("sheet", "inch"), ("seq", "cm"), ("seq", "inch")],
                                           key=str)  # each once, in exactly one shard
    assert {p.relative_to(merged): d for p, d in built_files(merged / "build").items()} == \
        {p.relative_to(whole): d for p, d in built_files(whole / "build").items()}


def test_a_shard_out_of_range_is_a_usage_error(demo):
    result = subprocess.run([sys.executable, "-m", "aids", "--project", str(demo), "build", "--shard", "3/2"],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert "command line: --shard 3/2 (expected: K/N with 1 <= K <= N, e.g. 2/4)" in result.stderr


def test_a_dask_cluster_builds_the_same_files(demo, tmp_path):
    distributed = pytest.importorskip("distributed")
    plain = tmp_path / "plain"
    shutil.copytree(demo, plain)
    build(plain, formats=["html"])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        summary = build(demo, formats=["html"], scheduler=cluster.scheduler_address)
    assert len(summary.built) == 12
    assert {p.relative_to(demo): d for p, d in built_files(demo / "build").items()} == \
        {p.relative_to(plain): d for p, d in built_files(plain / "build").items()}


def test_every_way_of_running_jobs_renders_an_edited_source_alike(demo, tmp_path):
    """One path from sources to files: in this process, a pool of forked workers and a long-lived Dask cluster
    give the same bytes, before and after a source is edited; a Dask worker that read the project for the
    first build does not render the edited one from what it kept (it did: the HTML came out without the
    new word, recorded as fresh under the new digest)."""
    distributed = pytest.importorskip("distributed")
    copies = {way: tmp_path / way for way in ("inline", "pool", "dask")}
    for folder in copies.values():
        shutil.copytree(demo, folder)
    ways = {"inline": {"jobs": 1}, "pool": {"jobs": 2}}

    def edit(root):
        source = root / "games/demo/sequence.yaml"
        source.write_text(source.read_text(encoding="utf-8").replace("Przygotowanie", "Przygotowanie wojsk"),
                          encoding="utf-8")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        ways["dask"] = {"scheduler": cluster.scheduler_address}
        for way, root in copies.items():
            build(root, formats=["html"], **ways[way])
        first = {way: {p.relative_to(root): d for p, d in built_files(root / "build").items()}
                 for way, root in copies.items()}
        for root in copies.values():
            edit(root)
        for way, root in copies.items():
            summary = build(root, formats=["html"], **ways[way])
            assert {b.lang for b in summary.built if b.aid == "seq"} == {"pl", "en", "ru"}
        second = {way: {p.relative_to(root): d for p, d in built_files(root / "build").items()}
                  for way, root in copies.items()}
    assert first["inline"] == first["pool"] == first["dask"]
    assert second["inline"] == second["pool"] == second["dask"] != first["inline"]
    page = second["dask"][next(p for p in second["dask"] if p.as_posix() == "build/demo/cm/pl/seq.html")]
    assert "Przygotowanie wojsk" in page.decode("utf-8")


def test_a_worker_never_renders_sources_other_than_those_its_job_was_planned_from(demo):
    """A job names the digest of the sources it was planned from; a worker that finds others fails the job
    (its aid keeps its previous files) rather than render them under the plan's digest."""
    project = read_project(demo)
    job = jobs.Job(str(demo), "0" * 64, "demo", "cm", "seq", "pl", ("html",))
    jobs._LOADED.pop(str(demo), None)
    result = jobs.run_job(job)
    assert result.error is not None and "the sources changed while they were built" in str(result.error)
    good = jobs.Job(str(demo), jobs.sources_digest(project), "demo", "cm", "seq", "pl", ("html",))
    assert jobs.run_job(good).error is None


@pytest.mark.parametrize("fits_from, tries", [(0, 1), (1, 4), (3, 5), (4, 4), (5, 5), (6, 5), (None, 2)])
def test_fitting_lays_out_as_few_sizes_as_it_can(fits_from, tries):
    """Sizes 8, 7.5, ... 5: the designed one first, then the smallest, then halving the range (a linear
    search from the top would lay out up to 7)."""
    sizes = [Decimal(8) - Decimal("0.5") * i for i in range(7)]
    tried = []

    def fits(size):
        tried.append(size)
        return fits_from is not None and sizes.index(size) >= fits_from
    found = largest_fitting(sizes, fits)
    assert found == (sizes[fits_from] if fits_from is not None else None)
    assert len(tried) == tries
