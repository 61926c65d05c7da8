"""Nothing escapes the project (issue 29): build/ and the project's own folders are not trusted ground.

A corpus of planted state: for each state folder aids keeps in the output folder (the staging area and its
journals, the build cache, the search index and its record) and each project folder aids writes to (releases,
schemas, catalogs, a game's folder), links to a sentinel folder outside the project and crafted records. Each
case asserts that nothing outside the project changed (the sentinel hashed before and after, modes included),
that the outcome is a correct build or one clear line, never a traceback, and that the next build is clean
(a damaged record costs one rebuild, never a stuck project). Containment is a property of aids/folder.py, the
one place every write goes through; these cases check it from the outside, as a user's command runs.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from aids.commands.cli import main

from .helpers import make_project

SECRET = "the sentinel's private words"


def tree_digest(folder: Path) -> str:
    """Names, modes and bytes of everything below `folder` (links are not followed)."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        digest.update(f"{path.relative_to(folder)}\0{info.st_mode}\0".encode())
        if path.is_file() and not path.is_symlink():
            digest.update(path.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A small project, built once in Polish (HTML and its search index)."""
    root = make_project(tmp_path_factory.mktemp("contained") / "project", languages=("pl",))
    assert main(["--project", str(root), "build", "--format", "html"]) == 0
    return root


@pytest.fixture
def scene(built, tmp_path):
    """A copy of the built project, and a sentinel folder beside it: files, a folder, a journal-like file."""
    root = tmp_path / "project"
    shutil.copytree(built, root, symlinks=True)
    outside = tmp_path / "outside"
    (outside / "sub" / "deeper").mkdir(parents=True)
    (outside / "secret.txt").write_text(SECRET + "\n")
    (outside / "sub" / "deeper" / "keep.txt").write_text("keep me\n")
    (outside / "page.html").write_text(f"<html lang=pl><body><main data-pagefind-body><p>{SECRET}</p></main>"
                                       "</body></html>")
    (outside / "journal.json").write_text(json.dumps([["1", "demo/pl/seq.html"]]))
    (outside / "1").write_text("planted\n")
    os.chmod(outside / "secret.txt", 0o600)
    return root, outside


def run(root: Path, capsys, *args: str) -> tuple[int, str]:
    code = main(["--project", str(root), *args])
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "Traceback" not in text
    return code, text


def build(root: Path, capsys, *more: str) -> tuple[int, str]:
    return run(root, capsys, "build", "--format", "html", *more)


def link(path: Path, target: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.symlink_to(target)


def staging(root: Path, name: str = "a" * 32) -> Path:
    folder = root / "build/.aids-staging" / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# --- the state in build/ -------------------------------------------------------------------------------------

def _staging_area_link(root, outside):
    link(root / "build/.aids-staging", outside)  # recovery once rmtree'd the target's subfolders


def _staging_folder_link(root, outside):
    link(root / "build/.aids-staging" / ("b" * 32), outside)  # holds journal.json and "1": a committed journal


def _journal_up_and_out(root, outside):
    folder = staging(root)
    (folder / "1").write_text("escaped\n")
    (folder / "journal.json").write_text(json.dumps([["1", f"../../{outside.parent.name}/outside/escaped.txt"]]))


def _journal_absolute(root, outside):
    folder = staging(root)
    (folder / "1").write_text("escaped\n")
    (folder / "journal.json").write_text(json.dumps([["1", str(outside / "escaped.txt")]]))


def _journal_moves_from_outside(root, outside):
    folder = staging(root)
    (folder / "journal.json").write_text(json.dumps([["../../../../outside/secret.txt", "demo/pl/stolen.txt"]]))


def _journal_staged_link(root, outside):
    folder = staging(root)
    (folder / "1").symlink_to(outside / "secret.txt")  # moved into build/, it would be served and indexed
    (folder / "journal.json").write_text(json.dumps([["1", "demo/pl/seq.html"]]))


def _journal_into_own_state(root, outside):
    folder = staging(root)
    (folder / "1").write_text("{}")
    (folder / "journal.json").write_text(json.dumps([["1", ".aids-cache/records/demo/seq/-/pl/html.json"]]))


@pytest.mark.parametrize("text", ["not json", "{}", '{"1": "demo/pl/x.html"}', "[1, 2]", '[["1"]]',
                                  '[["1", "a", "b"]]', '[[1, 2]]', '[["x/1", "demo/pl/x.html"]]', '[["1", ""]]',
                                  '[["1", "."]]', '[["1", "demo/\\u0000"]]', "\xff\xfe"])
def test_a_malformed_journal_costs_a_rebuild_never_a_crash_nor_a_stuck_project(scene, capsys, text):
    root, outside = scene
    before = tree_digest(outside)
    (staging(root) / "journal.json").write_bytes(text.encode("utf-8", "surrogateescape")
                                                 if text != "\xff\xfe" else b"\xff\xfe")
    code, said = build(root, capsys)
    assert code == 0, said
    assert "damaged journal (not one aids wrote): discarded" in said and said.count("repaired ") == 1
    assert not (root / "build/.aids-staging").exists()
    code, said = build(root, capsys)  # not stuck: the next build is a plain one
    assert code == 0 and "repaired" not in said
    assert tree_digest(outside) == before


def _cache_link(root, outside):
    link(root / "build/.aids-cache", outside)


def _cache_record_link(root, outside):
    link(root / "build/.aids-cache/records/demo/seq/-/pl/html.json", outside / "secret.txt")


def _cache_game_link(root, outside):
    link(root / "build/.aids-cache/records/demo", outside)


def _search_state_link(root, outside):
    link(root / "build/.aids-cache/search/demo/index.json", outside / "secret.txt")


def _index_folder_link(root, outside):
    link(root / "build/demo/pagefind", outside)


def _page_link(root, outside):
    link(root / "build/demo/pl/seq.html", outside / "secret.txt")


def _site_page_link(root, outside):
    link(root / "build/demo/pl/index.html", outside / "secret.txt")


def _language_folder_link(root, outside):
    link(root / "build/demo/pl", outside)


def _committed_then_link(root, outside):
    """A journal committed by a build stopped while switching, then a link planted where it moves a file."""
    folder = staging(root)
    (folder / "1").write_text("staged\n")
    (folder / "journal.json").write_text(json.dumps([["1", "demo/pl/seq.html"]]))
    _language_folder_link(root, outside)


def _planted_page(root, outside):
    link(root / "build/demo/pl/planted.html", outside / "page.html")  # not indexed, not read
    shutil.rmtree(root / "build/demo/pagefind")  # the index is made again, over the pages there


def _temporary_file_link(root, outside):
    link(root / "build/demo/pl/.seq.html.0123.tmp", outside / "secret.txt")


def _temporary_folder_link(root, outside):
    link(root / "build/demo/.x.tmp", outside / "sub")


STATE = [_staging_area_link, _staging_folder_link, _journal_up_and_out, _journal_absolute,
         _journal_moves_from_outside, _journal_staged_link, _journal_into_own_state, _cache_link,
         _cache_record_link, _cache_game_link, _search_state_link, _index_folder_link, _page_link, _site_page_link,
         _language_folder_link, _committed_then_link, _planted_page, _temporary_file_link, _temporary_folder_link]


@pytest.mark.parametrize("plant", STATE, ids=[p.__name__.strip("_") for p in STATE])
def test_planted_state_in_the_output_folder_is_never_followed(scene, capsys, plant):
    root, outside = scene
    before = tree_digest(outside)
    plant(root, outside)
    code, said = build(root, capsys, "--force")
    assert tree_digest(outside) == before, said
    if plant in (_language_folder_link, _committed_then_link):
        # build/demo/pl is a link: the aid's files cannot be written there; one line, and nothing outside
        assert code == 1 and "build/demo/pl: the files of 'seq' not written: is a symbolic link, which aids does " \
            "not follow" in said, said
        assert not (root / "build/.aids-staging").exists()  # refused before staging: no other language moved
        code, said = build(root, capsys)  # the same one line, never a stuck recovery
        assert code == 1 and said.count("is a symbolic link") == 1 and "repaired" not in said, said
        assert tree_digest(outside) == before
        return
    assert code == 0, said
    built = root / "build/demo/pl/seq.html"
    assert built.is_file() and not built.is_symlink() and SECRET not in built.read_text(encoding="utf-8")
    fragments = 0
    for path in (root / "build").rglob("*"):  # nothing of the sentinel was moved, copied in or indexed
        if path.is_file() and not path.is_symlink():
            data = gzip.decompress(path.read_bytes()) if path.suffix == ".pf_fragment" else path.read_bytes()
            fragments += path.suffix == ".pf_fragment"
            assert SECRET.encode() not in data, path
    assert fragments  # the search index was there to look into
    assert not (root / "build/.aids-staging").exists()
    code, said = build(root, capsys)
    assert code == 0 and "repaired" not in said, said
    assert tree_digest(outside) == before


@pytest.mark.parametrize("record", [
    "[]", '"text"', '{"digest": 1}', '{"digest": "x", "outputs": []}', '{"digest": "x", "outputs": {"a": "b"}}',
    '{"digest": "x", "fallbacks": [[1]]}', '{"digest": "x", "pages": "2"}', '{"digest": "x", "seconds": true}',
    '{"digest": "x", "outputs": {"demo/pl/seq.html": [1, 2]}}',  # the earlier layout's (size, mtime)
    '{"digest": "x", "outputs": {"a": {"size": 1, "sha256": "../x", "stat": [1, 2, 3]}}}', "{broken"])
def test_a_cache_record_of_the_wrong_shape_costs_a_rebuild(scene, capsys, record):
    root, outside = scene
    (root / "build/.aids-cache/records/demo/seq/-/pl/html.json").write_text(record)
    code, said = build(root, capsys)
    assert code == 0 and "build/.aids-cache/records/demo/seq/-/pl/html.json: damaged cache record" in said, said
    assert "1 file(s) written" in said  # the aid, built again
    code, said = build(root, capsys)
    assert code == 0 and "repaired" not in said and "0 file(s) written" in said


def test_a_cache_record_naming_files_outside_is_not_fresh(scene, capsys):
    """A record with the right digest whose files are named outside the output folder: never stat'ed there,
    never trusted; the aid is built again."""
    root, outside = scene
    path = root / "build/.aids-cache/records/demo/seq/-/pl/html.json"
    record = json.loads(path.read_text())
    written = next(iter(record["outputs"].values()))
    record["outputs"] = {"../../outside/secret.txt": {**written, "size": len(SECRET) + 1}, "/etc/hostname": written}
    path.write_text(json.dumps(record))
    code, said = build(root, capsys)
    assert code == 0 and "1 file(s) written" in said, said


# --- the project's own folders ---------------------------------------------------------------------------------

def test_a_release_is_never_written_through_a_link(scene, capsys):
    root, outside = scene
    before = tree_digest(outside)
    link(root / "games/demo/releases", outside)
    code, said = run(root, capsys, "release", "--game", "demo", "2.0")
    assert code == 1 and said.strip().endswith(
        "games/demo/releases: is a symbolic link, which aids does not follow (expected: a real folder or file, "
        "not a link)"), said
    assert tree_digest(outside) == before


def test_a_release_file_that_is_a_link_is_not_read(scene, capsys):
    root, outside = scene
    (root / "games/demo/releases").mkdir()
    link(root / "games/demo/releases/1.0.yaml", outside / "secret.txt")
    code, said = run(root, capsys, "changes", "--game", "demo", "--since", "1.0")
    assert code == 1 and SECRET not in said and "has no release 1.0" in said, said


@pytest.mark.parametrize("planted", ["link", "file", "file-in-place"])
def test_schemas_are_never_written_through_a_link_or_into_a_file(scene, capsys, planted):
    root, outside = scene
    before = tree_digest(outside)
    shutil.rmtree(root / "schemas", ignore_errors=True)
    if planted == "link":
        link(root / "schemas", outside)
        expected = "schemas: is a symbolic link, which aids does not follow"
    elif planted == "file":
        (root / "schemas").write_text("a file\n")
        expected = "schemas: is not a folder (expected: a folder)"
    else:  # one schema a link to a file outside: the link is replaced, its target untouched
        (root / "schemas").mkdir()
        link(root / "schemas/card.schema.json", outside / "secret.txt")
        expected = ""
    code, said = run(root, capsys, "schema", "--write")
    if expected:
        assert code == 1 and said.strip().splitlines()[-1].startswith(expected), said
    else:
        assert code == 0 and not (root / "schemas/card.schema.json").is_symlink()
    assert tree_digest(outside) == before


def test_catalogs_are_never_written_through_a_link(scene, capsys):
    root, outside = scene
    before = tree_digest(outside)
    link(root / "i18n/templates", outside)
    code, said = run(root, capsys, "extract")
    assert code == 1 and "i18n/templates: is a symbolic link, which aids does not follow" in said, said
    assert tree_digest(outside) == before


def test_a_new_aid_is_never_written_through_a_link(scene, capsys):
    root, outside = scene
    before = tree_digest(outside)
    link(root / "games/demo/handbook", outside)  # a booklet's chapter folder
    code, said = run(root, capsys, "new", "booklet", "handbook")
    assert code == 1 and "games/demo/handbook: is a symbolic link, which aids does not follow" in said, said
    assert tree_digest(outside) == before
    assert not (root / "games/demo/handbook.yaml").exists()  # nothing half-written


def test_init_writes_nothing_through_a_link_in_its_folder(tmp_path, capsys):
    outside = tmp_path / "outside"
    outside.mkdir()
    before = tree_digest(outside)
    target = tmp_path / "new"
    target.mkdir()
    (target / "i18n").symlink_to(outside)
    code = main(["init", str(target)])
    said = "".join(capsys.readouterr())
    assert code == 1 and "i18n: is a symbolic link, which aids does not follow" in said and "Traceback" not in said
    assert tree_digest(outside) == before
    assert sorted(p.name for p in target.iterdir()) == ["i18n"]  # nothing half-written


@pytest.mark.unit
def test_init_into_a_folder_it_cannot_write_is_one_line(tmp_path, capsys, monkeypatch):
    def refuse(path, *args, **kwargs):  # as a read-only folder (the tests run as root, whom permissions don't stop)
        raise PermissionError(13, "Permission denied", str(path))
    monkeypatch.setattr(Path, "mkdir", refuse)
    code = main(["init", str(tmp_path / "ro")])
    said = capsys.readouterr().err
    assert code == 1 and said.strip() == f"{tmp_path / 'ro'}: cannot be written: permission denied " \
        "(expected: a folder you may write to)"


def test_a_full_disk_while_indexing_is_one_line_and_leaves_no_staging(scene, capsys, monkeypatch):
    import errno

    from aids.folder import Folder
    root, outside = scene
    shutil.rmtree(root / "build/demo/pagefind")
    write = Folder.write

    def full(self, name, data, **kwargs):
        if "pagefind" in str(name) or "site/" in str(name):
            raise __import__("aids.folder", fromlist=["refusal"]).refusal(self.show(name), OSError(errno.ENOSPC, ""))
        return write(self, name, data, **kwargs)
    monkeypatch.setattr(Folder, "write", full)
    code, said = build(root, capsys)
    assert code == 1 and "cannot be written: the disk is full (expected: free space on the disk)" in said, said
    assert not (root / "build/.aids-staging").exists()


def test_the_record_of_an_aid_gone_removes_nothing_outside(scene, capsys):
    """An aid gone from game.yaml has its recorded files removed: a crafted record naming files outside the
    output folder, or a link to one, removes nothing there."""
    root, outside = scene
    before = tree_digest(outside)
    link(root / "build/demo/pl/gone.html", outside / "secret.txt")
    written = {"size": 1, "sha256": "0" * 64, "stat": [0, 0, 0]}
    (root / "build/.aids-cache/records/demo/gone/-/pl").mkdir(parents=True)
    (root / "build/.aids-cache/records/demo/gone/-/pl/html.json").write_text(json.dumps({
        "digest": "x", "outputs": {"../../outside/secret.txt": written, str(outside / "page.html"): written,
                                   "demo/pl/gone.html": written, "../outside/sub": written}}))
    code, said = build(root, capsys)
    assert code == 0, said
    assert tree_digest(outside) == before


@pytest.fixture
def translated(tmp_path, capsys):
    """A project in pl and en with its catalogs extracted and updated, and a sentinel folder beside it."""
    root = make_project(tmp_path / "project", languages=("pl", "en"))
    assert main(["--project", str(root), "extract"]) == 0 and main(["--project", str(root), "update"]) == 0
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f'msgid "{SECRET}"\nmsgstr ""\n')
    capsys.readouterr()
    return root, outside


@pytest.mark.parametrize("command, planted", [
    ("update", "i18n/en/LC_MESSAGES"), ("update", "i18n/en"), ("update", "i18n/en/LC_MESSAGES/demo.po"),
    ("compile", "i18n/en/LC_MESSAGES"), ("compile", "i18n/en/LC_MESSAGES/demo.po"),
    ("extract", "i18n/templates/demo.pot")])
def test_catalogs_are_never_read_nor_written_through_a_link(translated, capsys, command, planted):
    root, outside = translated
    target = outside / "secret.txt" if planted.endswith(("po", "pot")) else outside
    before = tree_digest(outside)
    link(root / planted, target)
    code, said = run(root, capsys, command)
    assert tree_digest(outside) == before, said
    assert SECRET not in said
    if planted.endswith(".pot"):  # a template aids writes whole: the link is replaced by the file, its target untouched
        assert code == 0 and not (root / planted).is_symlink(), said
    else:
        assert code == 1 and f"{planted}: is a symbolic link, which aids does not follow" in said, said
        assert len(said.strip().splitlines()) == 1 and said.startswith(planted), said


def test_a_build_leaves_nothing_in_the_temporary_folder(tmp_path, capsys, monkeypatch):
    """WeasyPrint copies the package fonts (6.5 MB) to a `weasyprint-*` folder for each PDF and removes it only
    when garbage-collected, which a worker that ends with os._exit never is: such folders filled the disk. A
    build with a pool of workers and a booklet laid out in parts (forked processes) leaves none."""
    from aids.render import parts

    from .helpers import booklet_benchmark

    root = tmp_path / "project"
    booklet_benchmark().generate(root, 8, "varied", chapter_pages=True)
    temporary = tmp_path / "temporary"
    temporary.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(temporary))  # what forked workers inherit too
    monkeypatch.setattr(parts, "PART_CHARACTERS", 6_000)  # several parts, each its own process
    assert main(["--project", str(root), "build", "--jobs", "2", "--format", "pdf"]) == 0
    assert len(list((root / "build/.aids-cache/booklet_parts").glob("*.pdf"))) >= 2  # its parts' processes ran
    demo = make_project(tmp_path / "demo")  # three languages: three jobs for the pool's two workers
    assert main(["--project", str(demo), "build", "--jobs", "2", "--format", "pdf"]) == 0
    assert len(list((demo / "build").rglob("*.pdf"))) == 3
    assert sorted(path.name for path in temporary.iterdir()) == []
