"""The build cache on the real samples: an edit rewrites exactly the outputs it changes, and never leaves one stale.

A copy of the samples as built (`sample`, its build cache with it) takes four edits one after another, each built
and followed by a look at every file of build/: which were rewritten (time or bytes), exactly those the edit
changes. Then a build of the last state from nothing (--force) gives the same bytes. An output an edit left stale
(not rewritten though what it is made of changed) stays stale unless a later edit's build renders it again, whole:
the one build from nothing finds it as a build after each edit would, at the cost of one build of the game, not
four; the edits go from the narrowest (one msgstr of one language) to the widest (a rule inserted)."""
from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from aids.config import read_project
from aids.kinds.reading import read_aids
from aids.pipeline import builder, pipeline

from .test_release import marked

GAME = "gcacw"
SEQUENCE, BOOKLET = "sequence-of-play", "system-rules"
LANGS = ("pl", "en", "ru")


def files(root: Path) -> dict[str, tuple[int, bytes]]:
    """Every file of build/ but the build cache: (mtime, bytes) by path from the project root."""
    output = root / "build"
    return {p.relative_to(root).as_posix(): (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(output.rglob("*"))
            if p.is_file() and ".aids-cache" not in p.parts}


def build(root: Path, **options) -> list[tuple[str, str]]:
    summary = builder.build(read_project(root), pipeline.Options(**options))
    assert not summary.failed, "\n".join(map(str, summary.failed))
    return sorted((b.aid, b.lang) for b in summary.built)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def en_msgstr(root: Path) -> None:
    """The English msgstr of the booklet's first paragraph (its introduction)."""
    po = root / "i18n/en/LC_MESSAGES" / f"{GAME}.po"
    text = po.read_text(encoding="utf-8")
    at = text.index('msgstr "', text.index(f'\nmsgctxt "{BOOKLET}/intro"')) + len('msgstr "')
    po.write_text(text[:at] + "In short: " + text[at:], encoding="utf-8")


def paragraph(root: Path) -> None:
    """A paragraph of rule 2 (basics), which the sequence does not cite."""
    edit(root / "games" / GAME / "rules/basics.md", "Gra w pojedynkę nie sprawia", "Gra w pojedynkę zwykle nie sprawia")


def retitled(root: Path) -> None:
    """Rule 4.2, which a step of the sequence cites: a new title."""
    edit(root / "games" / GAME / "rules/play.md", "## Segment inicjatywy {#initiative}",
         "## Segment inicjatywy i remisy {#initiative}")


def renumbered(root: Path) -> None:
    """A rule inserted before 4.2: what the sequence cites as 4.2 is now another, new rule."""
    edit(root / "games" / GAME / "rules/play.md", "## Segment inicjatywy",  # retitled or not
         "## Rzut kośćmi {#dice}\n\nKażdy gracz rzuca jedną kością.\n\n## Segment inicjatywy")


def citing_42(root: Path) -> list[str]:
    """The anchors of the sequence's items that cite rule 4.2."""
    project = read_project(root)
    aids, _ = read_aids(project, project.read_game(GAME))
    sequence = next(a for a in aids if a.model.id == SEQUENCE)
    return [anchor for anchor, targets in sequence.kind.citations(sequence.model).items() if "rule:4.2" in targets]


def language_pages(path: str, lang: str) -> bool:
    """The site's pages and search index in `lang`, which list (and index) what that language's pages print, and
    its pages about the game's releases (aids/site/since.py: the aids since each release, their histories)."""
    name = path.rpartition("/")[2]
    return path in (f"build/{GAME}/{lang}/index.html", f"build/{GAME}/pagefind/pagefind-entry.json") or (
        "/pagefind/" in path and (name.startswith((f"{lang}_", f"pagefind.{lang}_")) or name == f"offline.{lang}.js")) or \
        path.startswith((f"build/{GAME}/{lang}/since-", f"build/{GAME}/{lang}/history/"))


def outputs(aid: str, langs: tuple[str, ...] = LANGS) -> set[str]:
    return {f"build/{GAME}/{lang}/{aid}.{suffix}" for lang in langs for suffix in ("html", "pdf", "epub")}


CASES: dict[str, tuple[Callable[[Path], None], list[tuple[str, str]], set[str], str]] = {
    # edit: (what is built, the outputs rewritten, the language whose site pages and search index may change too),
    # in the order they are made: each rewrites at least what those before it did
    "en-msgstr": (en_msgstr, [(BOOKLET, "en")], outputs(BOOKLET, ("en",)), "en"),
    "paragraph": (paragraph, [(BOOKLET, lang) for lang in LANGS], outputs(BOOKLET), "*"),
    "retitled": (retitled, sorted((aid, lang) for aid in (SEQUENCE, BOOKLET) for lang in LANGS),
                 outputs(BOOKLET) | outputs(SEQUENCE), "*"),
    "renumbered": (renumbered, sorted((aid, lang) for aid in (SEQUENCE, BOOKLET) for lang in LANGS),
                   outputs(BOOKLET) | outputs(SEQUENCE), "*"),
}


def test_each_edit_rewrites_exactly_what_it_changes_and_the_last_the_same_as_a_full_build(sample, tmp_path):
    root = tmp_path / "project"
    shutil.copytree(sample[0].root, root)  # the samples as built, build cache and file times with them
    for case, (change, built, rewritten, site_lang) in CASES.items():
        before = files(root)
        change(root)
        assert build(root) == sorted(built), case
        after = files(root)
        touched = {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}
        langs = LANGS if site_lang == "*" else (site_lang,)
        others = touched - rewritten
        assert rewritten <= touched, (case, sorted(rewritten - touched))
        assert all(any(language_pages(p, lang) for lang in langs) for p in others), (case, sorted(others))
        if site_lang == "en":  # the other languages' files: not one byte, not one file time
            assert not [p for p in touched if {"pl", "ru"} & set(p.split("/")) or "/pagefind/pl_" in p
                        or "/pagefind/ru_" in p or "/pagefind/pagefind.pl_" in p or "/pagefind/pagefind.ru_" in p
                        or p.endswith(("/offline.pl.js", "/offline.ru.js"))], case
        if case in ("retitled", "renumbered"):  # the steps citing rule 4.2 are marked as changed, in every language
            anchors = citing_42(root)
            assert anchors
            for lang in LANGS:
                page = f"build/{GAME}/{lang}/{SEQUENCE}.html"
                if case == "retitled":  # renumbered follows it: its steps are marked already
                    assert not set(anchors) & set(marked(before[page][1].decode())[0])
                assert set(anchors) <= set(marked(after[page][1].decode())[0]), (case, lang)
    # no stale byte: every output of the game rendered again (--force) is the same, byte for byte
    forced = tmp_path / "forced"
    shutil.copytree(root, forced)
    build(forced, force=True, games=[GAME])
    assert {p: data for p, (_, data) in files(forced).items()} == {p: data for p, (_, data) in after.items()}


@pytest.mark.parametrize("copy", [shutil.copy2, shutil.copyfile], ids=["times-kept", "times-new"])
def test_the_samples_copy_is_up_to_date(sample, tmp_path, copy):
    """The cases above, and every test that edits a copy of the built samples, start from a build with nothing
    stale: a build of a copy in another folder writes nothing, whether the copy kept the files' times (cp -a) or
    gave them new ones (cp -r, a CI cache or artifact unpacked): the cache goes by content, not by place or time."""
    root = tmp_path / "project"
    shutil.copytree(sample[0].root, root, copy_function=copy)
    before = files(root)
    assert build(root) == []
    assert files(root) == before
