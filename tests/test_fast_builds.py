"""Fast builds: the same bytes in parallel, on shards, on a Dask cluster; only what changed is rebuilt."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from decimal import Decimal
from types import SimpleNamespace

import pytest

from aids.config import read_project
from aids.localize.catalogs import po_path
from aids.pipeline import builder, jobs, pipeline, shards
from aids.render.fitting import largest_fitting
from aids.write.cache import Cache
from aids.write.stamp import STAMP

from .helpers import DEMO_PLAYSHEET, DEMO_SEQUENCE, built_files, copy_project, make_project
from .localize.test_catalogs import extract_update, translate

FILES = {**DEMO_PLAYSHEET, "games/demo/sequence.yaml": DEMO_SEQUENCE,
         "games/demo/game.yaml": DEMO_PLAYSHEET["games/demo/game.yaml"].replace("aids:\n", "aids:\n  - sequence.yaml\n")}


def demo_project(tmp_path):
    """The demo game with a sequence and a playsheet in two editions, its catalogs made, one msgstr translated."""
    root = make_project(tmp_path / "project", FILES)
    extract_update(root)
    translate(po_path(root / "i18n", "en", "demo"), {"seq/prep": "Preparation"})
    return root


@pytest.fixture
def demo(tmp_path):
    return demo_project(tmp_path)


@pytest.fixture(scope="session")
def demo_built_once(request):
    """The demo project built once for the run (tests/layers.shared)."""
    from .layers import shared

    def make(root):
        build(demo_project(root))
    folder, _ = shared(request, "built-demo", make)
    return folder / "project"


@pytest.fixture
def built_demo(demo_built_once, tmp_path):
    """The demo project with the outputs and build cache of its build, but not the stamp of it: a test's first
    build goes the whole way, as after a build of its own, and finds every output up to date (renders nothing)."""
    root = copy_project(demo_built_once, tmp_path / "project")
    (root / "build" / STAMP).unlink()
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


def test_a_rendered_file_that_holds_the_same_bytes_is_not_rewritten(built_demo):
    """--force renders everything again; a file whose new bytes are those already there keeps its time (and
    inode): a sync tool or a web server's cache sees no change where there is none."""
    demo = built_demo
    build(demo, formats=["html", "pdf"])
    before = {p: (p.stat().st_mtime_ns, p.stat().st_ino) for p in built_files(demo / "build")}
    summary = build(demo, formats=["html", "pdf"], force=True)
    assert summary.built  # rendered again
    assert {p: (p.stat().st_mtime_ns, p.stat().st_ino) for p in built_files(demo / "build")} == before


def test_without_the_cache_the_same_outputs(built_demo):
    demo = built_demo
    build(demo)
    cached = built_files(demo / "build")
    shutil.rmtree(demo / "build/.aids-cache")
    rebuilt = build(demo)
    assert len(rebuilt.built) == 12 and built_files(demo / "build") == cached


def copied(folder, to):
    """`folder` copied as `cp -r` does: the same bytes, every file new (its own inode and times)."""
    shutil.copytree(folder, to, copy_function=shutil.copyfile)


def stamps(output):
    """Every file of an output folder but the build cache: its bytes, modification time and inode."""
    return {p.relative_to(output): (p.read_bytes(), p.stat().st_mtime_ns, p.stat().st_ino)
            for p in sorted(output.rglob("*")) if p.is_file() and ".aids-cache" not in p.parts}


def test_a_copied_output_folder_builds_nothing(built_demo):
    demo = built_demo
    """A CI cache restore, an artifact download: files of other times and inodes, the same bytes."""
    build(demo)
    copied(demo / "build", demo / "copy")
    shutil.rmtree(demo / "build")
    (demo / "copy").rename(demo / "build")
    before = stamps(demo / "build")
    assert any(p.parts[-2] == "pagefind" for p in before) and (demo / "build/demo/pl/index.html").is_file()
    summary = build(demo)
    assert summary.built == [] and summary.unchanged == 12 and summary.site == [] and summary.removed == []
    assert stamps(demo / "build") == before  # nothing rewritten: pages, PDFs, the site, the search index
    records = {p: p.stat().st_mtime_ns for p in (demo / "build/.aids-cache").rglob("*.json")}
    time.sleep(0.01)
    assert build(demo).built == []  # the copies' stat was recorded: now a look at each file, nothing rewritten
    assert {p: p.stat().st_mtime_ns for p in (demo / "build/.aids-cache").rglob("*.json")} == records


def test_a_file_changed_in_place_is_built_again_even_to_the_same_size_and_time(built_demo):
    demo = built_demo
    build(demo)
    page = demo / "build/demo/cm/en/seq.html"
    data, info = page.read_bytes(), page.stat()
    at = data.index(b"<html")
    page.write_bytes(data[:at] + b"<HTML" + data[at + 5:])  # same size
    os.utime(page, ns=(info.st_atime_ns, info.st_mtime_ns))  # same time
    assert page.stat().st_size == info.st_size and page.stat().st_mtime_ns == info.st_mtime_ns
    summary = build(demo)
    assert [(b.edition, b.aid, b.lang) for b in summary.built] == [("cm", "seq", "en")]
    assert page.read_bytes() == data


def test_a_cache_of_the_earlier_layout_costs_one_build(built_demo):
    demo = built_demo
    """`.aids-cache/<game>/<aid>.json`, whose files were checked by size and time only: not read, then gone."""
    build(demo)
    cache = demo / "build/.aids-cache"
    shutil.rmtree(cache)
    (cache / "demo").mkdir(parents=True)
    for aid in ("seq", "sheet"):
        (cache / f"demo/{aid}.json").write_text(json.dumps({"cm/pl/html": {"digest": "x", "outputs": {
            f"demo/cm/pl/{aid}.html": [1, 2]}}}))
    (cache / "search.json").write_text(json.dumps({"demo": {"digest": "x", "files": {}}}))
    assert len(build(demo).built) == 12
    assert not (cache / "demo").exists() and not (cache / "search.json").exists()
    assert build(demo).built == []


def test_shards_merge_by_copying_folders_and_a_build_of_the_merge_renders_nothing(demo_built_once, tmp_path):
    """Two shards of one project, each in a folder of its own (a CI job), their output folders copied one over
    the other (`cp -r`): a plain build of the merge renders no aid, writes the site and the search index, and
    gives the bytes of a build in one go (the run's build of the same sources from nothing)."""
    whole = demo_built_once
    demo = copy_project(whole, tmp_path / "project", build=False)
    aids, splits = [], set()
    for k in (1, 2):
        shard = copy_project(demo, tmp_path / f"shard{k}", build=False)
        summary = build(shard, shard=(k, 2))
        aids += [(b.aid, b.edition) for b in summary.built if b.lang == "pl"]
        (line,) = [line for line in summary.skipped if f"shard {k}/2 builds 2 of 4 aid(s)" in line]
        splits.add(line.split("(split ")[1].split(")")[0])
        assert not (shard / "build/index.html").exists() and not (shard / "build/demo/cm/pagefind").exists()
    assert sorted(aids) == [("seq", "cm"), ("seq", "inch"), ("sheet", "cm"), ("sheet", "inch")]  # each in one shard
    assert len(splits) == 1  # both computed the same split
    copied(tmp_path / "shard2/build", demo / "build")
    shutil.copytree(tmp_path / "shard1/build", demo / "build", dirs_exist_ok=True, copy_function=shutil.copyfile)
    merged = build(demo)
    assert merged.built == [] and merged.unchanged == 12 and merged.site
    assert (demo / "build/demo/cm/pagefind/pagefind-entry.json").is_file()
    files = stamps(demo / "build")
    assert {n: d for n, (d, _, _) in files.items()} == \
        {n: d for n, (d, _, _) in stamps(whole / "build").items()}  # pages, PDFs, site, index: every byte
    assert build(demo).built == [] and stamps(demo / "build") == files


def test_shards_split_by_the_times_the_cache_recorded(built_demo):
    demo = built_demo
    """Longest first, each into the shard that costs least so far: the same split in every shard's process."""
    build(demo)
    project = read_project(demo)
    records = demo / "build/.aids-cache/records/demo"
    for record in records.rglob("*.json"):  # the sequence costs 10 s a language, the playsheet 1 s
        data = json.loads(record.read_text())
        record.write_text(json.dumps({**data, "seconds": 10.0 if record.parts[-4] == "seq" else 1.0}))
    plan = pipeline.plan_build(project, pipeline.Options(), pipeline.Summary())
    cost = shards.recorded(Cache(project.output), plan.langs, builder.WEIGHT)
    assert sorted(cost(unit) for unit in plan.units) == [3.0, 3.0, 30.0, 30.0]
    parts = [shards.select(plan.units, (k, 2), cost)[0] for k in (1, 2)]
    assert [[shards.name(u) for u in part] for part in parts] == [["demo/cm/seq", "demo/cm/sheet"],
                                                                 ["demo/inch/seq", "demo/inch/sheet"]]
    assert shards.split(list(reversed(plan.units)), 2, cost) == [list(reversed(part)) for part in parts]
    shutil.rmtree(demo / "build/.aids-cache")  # no times: a guess by kind, the same in every process
    guess = shards.recorded(Cache(project.output), plan.langs, builder.WEIGHT)
    assert sorted(guess(unit) for unit in plan.units) == [3, 3, 12, 12]  # a playsheet 4 a language, a sequence 1
    assert shards.split(plan.units, 2, guess) == shards.split(plan.units, 2, guess)


@pytest.mark.unit
def test_the_longest_first_split_is_balanced():
    units = [SimpleNamespace(game=SimpleNamespace(id="g"), edition=None, aid=SimpleNamespace(model=SimpleNamespace(
        id=f"a{n:02}"))) for n in range(30)]
    costs = {shards.name(u): float(1 + (n * 7919) % 23) for n, u in enumerate(units)}
    for n in (2, 3, 4):
        parts = shards.split(units, n, lambda u: costs[shards.name(u)])
        assert sorted(u.aid.model.id for part in parts for u in part) == sorted(u.aid.model.id for u in units)
        loads = [sum(costs[shards.name(u)] for u in part) for part in parts]
        assert max(loads) - min(loads) <= max(costs.values())  # within one unit of each other


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
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
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
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
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


def test_the_preview_server_writes_what_a_build_writes_after_an_edit(demo, tmp_path):
    """`aids serve` rebuilds through the same path: after a source edit its output folder holds the same bytes
    as `aids build` of the same sources (HTML and PDF, the site and the search index)."""
    import os

    reference = tmp_path / "reference"
    shutil.copytree(demo, reference)
    serve = subprocess.Popen([sys.executable, "-m", "aids", "--project", str(demo), "serve", "--lang", "en",
                              "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env={**os.environ, "PYTHONWARNINGS": "ignore"})
    try:
        assert serve.stdout is not None and "serving build at" in serve.stdout.readline()
        for root in (demo, reference):
            source = root / "games/demo/sequence.yaml"
            source.write_text(source.read_text(encoding="utf-8").replace("Przygotowanie", "Przygotowanie wojsk"),
                              encoding="utf-8")
        build(reference, langs=["en"])
        expected = {p.relative_to(reference): d for p, d in built_files(reference / "build").items()}
        deadline, found = time.monotonic() + 180, {}
        while time.monotonic() < deadline:
            found = {p.relative_to(demo): d for p, d in built_files(demo / "build").items()}
            if found == expected:
                break
            time.sleep(0.5)
        assert found.keys() == expected.keys()
        assert [p for p in expected if found[p] != expected[p]] == []
    finally:
        serve.terminate()
        serve.wait(10)
        if serve.stdout:
            serve.stdout.close()


def test_a_worker_never_renders_sources_other_than_those_its_job_was_planned_from(demo):
    """A job names the digest of the sources it was planned from; a worker that finds others fails the job
    (its aid keeps its previous files) rather than render them under the plan's digest."""
    project = read_project(demo)
    job = jobs.Job(root=str(demo), sources="0" * 64, game="demo", edition="cm", aid="seq", lang="pl", formats=("html",))
    jobs._LOADED.pop(str(demo), None)
    result = jobs.run_job(job)
    assert result.error is not None and "the sources changed while they were built" in str(result.error)
    good = jobs.Job(root=str(demo), sources=jobs.sources_digest(project), game="demo", edition="cm", aid="seq",
                    lang="pl", formats=("html",))
    assert jobs.run_job(good).error is None


@pytest.mark.parametrize("fits_from, tries", [(0, 1), (1, 4), (3, 5), (4, 4), (5, 5), (6, 5), (None, 2)])
@pytest.mark.unit
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


@pytest.mark.unit
def test_fitting_from_a_guess_finds_what_halving_finds_and_lays_out_three_sizes_where_the_guess_is_right():
    """A booklet's page goal guesses where to start (render/fitting.py): from any guess, the same size as
    without one; from the right guess, three layouts (the designed size, the guess, the size above it) where
    the designed size, the smallest and halving take up to five."""
    sizes = [Decimal(10) - Decimal("0.25") * i for i in range(9)]
    for fits_from in [*range(9), None]:
        for guess in range(1, 9):
            tried = []

            def fits(size):
                tried.append(size)
                return fits_from is not None and sizes.index(size) >= fits_from
            assert largest_fitting(sizes, fits, guess=guess) == largest_fitting(sizes, fits), (fits_from, guess)
            tried.clear()
            largest_fitting(sizes, fits, guess=guess)
            if guess == fits_from:
                assert len(tried) == (2 if guess == 1 else 3), (fits_from, tried)
            assert len(tried) == len(set(tried))  # no size laid out twice


def test_an_imposition_reads_back_the_home_pdf_a_build_left_fresh(tmp_path, monkeypatch):
    """`aids build --impose` after `aids build`: the booklet's home PDF, fresh in the build cache, is imposed as it
    is, not laid out again, and gives the bytes a build from nothing gives; a home PDF that does not hold the bytes
    recorded (changed in place) is laid out again, and so is every one with --force."""
    from aids.render import formats

    from .model.test_booklet import project as booklet_project
    root = booklet_project(tmp_path / "project")
    build(root, formats=["pdf"], langs=["pl"], jobs=1)
    printed: list[str] = []
    print_pdf = formats.print_pdf
    monkeypatch.setattr(formats, "print_pdf", lambda *args, **kw: printed.append(args[3][:15]) or print_pdf(*args, **kw))
    home, imposed = root / "build/demo/pl/rules.pdf", root / "build/demo/pl/rules-imposed.pdf"

    build(root, formats=["imposed"], langs=["pl"], jobs=1)
    assert printed == [] and imposed.is_file()
    read_back = imposed.read_bytes()
    forced = copy_project(root, tmp_path / "forced")
    build(forced, formats=["imposed"], langs=["pl"], jobs=1, force=True)
    assert printed and (forced / "build/demo/pl/rules-imposed.pdf").read_bytes() == read_back

    printed.clear()
    data = bytearray(home.read_bytes())
    data[data.rindex(b"%%EOF") - 2] ^= 1  # one byte of the last line but one (the size stays)
    home.write_bytes(bytes(data))
    imposed.unlink()
    build(root, formats=["imposed"], langs=["pl"], jobs=1)
    assert printed and imposed.read_bytes() == read_back
    # what a job reads back is checked again as it reads (the file may change after the build planned it)
    job = jobs.Job(root=str(root), sources="", game="demo", edition=None, aid="rules", lang="pl", formats=("imposed",),
                   home=((".pdf", hashlib.sha256(home.read_bytes()).hexdigest()),))
    project = read_project(root)
    assert jobs.home_read_back(project, job)("home") == {".pdf": home.read_bytes()}
    assert jobs.home_read_back(project, job)("press") is None
    home.write_bytes(home.read_bytes().replace(b"%%EOF", b"%%EOF\n"))
    assert jobs.home_read_back(project, job)("home") is None
