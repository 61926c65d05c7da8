"""Catalogs of tens of thousands of entries: read whole and right, with the same work per entry at any size.

No wall-clock time is asserted (benchmarks/catalogs.py gives the figures): the work is counted in function
calls, which do not depend on the machine or on its load.
"""
import cProfile
import pstats
from pathlib import Path

import pytest

from aids.errors import AidsError
from aids.localize import catalogs, checks, merge, po

HEADER = ('msgid ""\nmsgstr ""\n"Language: ru\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && '
          '(n%100<10 || n%100>=20) ? 1 : 2);\\n"\n')
HEADER_LINES = HEADER.count("\n")


def entry(i: int) -> str:
    """Four lines each (blank line first): a plain, a plural, a fuzzy with its previous msgid, an obsolete entry."""
    return [f'\nmsgctxt "c{i}"\nmsgid "Tekst {i}"\nmsgstr "Текст {i}"\n',
            f'\nmsgid "{i} jednostka"\nmsgid_plural "{i} jednostki"\nmsgstr[0] "{i} а"\nmsgstr[1] "{i} б"\nmsgstr[2] "{i} в"\n',
            f'\n#, fuzzy\n#| msgid "Stary {i}"\nmsgid "Nowy {i}"\nmsgstr "Новый {i}"\n',
            f'\n#~ msgctxt "c{i}"\n#~ msgid "Dawny {i}"\n#~ msgstr "Прежний {i}"\n'][i % 4]


def write(path: Path, count: int, tail: str = "") -> Path:
    path.write_text(HEADER + "".join(entry(i) for i in range(count)) + tail, encoding="utf-8")
    return path


def test_a_large_catalog_is_read_whole_each_entry_at_its_line(tmp_path):
    count = 20_000
    catalog = po.read_catalog(write(tmp_path / "big.po", count), "big.po")
    active, gone = po.entries(catalog), po.obsolete(catalog)
    assert (len(active), len(gone)) == (count * 3 // 4, count // 4)
    lines = [HEADER_LINES + 1]
    for i in range(count - 1):
        lines.append(lines[-1] + entry(i).count("\n"))
    by_line = {po.line(e): e for e in [*active, *gone]}
    assert sorted(by_line) == [n + 1 for n in lines]  # each entry starts after its blank line
    last = by_line[lines[-1] + 1]
    assert po.key(last) == ("c19999", "Dawny 19999") and last.isobsolete()
    plural = by_line[lines[count - 3] + 1]
    assert po.strings(plural) == ["19997 а", "19997 б", "19997 в"] and plural.hasplural()
    fuzzy = by_line[lines[count - 2] + 1]
    assert fuzzy.isfuzzy() and str(fuzzy.prev_source) == "Stary 19998"
    table = catalogs.translations_of(catalog)
    assert len(table) == count // 4 * 2 and table["c19996", "Tekst 19996"] == ("Текст 19996", False)


def test_a_duplicate_at_the_end_of_a_large_catalog_names_both_lines(tmp_path):
    count = 20_000
    path = write(tmp_path / "big.po", count, tail='\nmsgctxt "c0"\nmsgid "Tekst 0"\nmsgstr "Again"\n')
    with pytest.raises(AidsError) as caught:
        po.read_catalog(path, "big.po")
    [problem] = caught.value.problems
    assert problem.where.line == HEADER_LINES + sum(entry(i).count("\n") for i in range(count)) + 2
    assert f"first defined on line {HEADER_LINES + 2}" in problem.message


def calls(fn) -> int:
    profile = cProfile.Profile()
    profile.runcall(fn)
    return pstats.Stats(profile).total_calls  # type: ignore[attr-defined]


def test_reading_and_checking_do_the_same_work_per_entry_at_any_size(tmp_path):
    """What `aids stats`, `aids check` and a build do with a catalog, counted in Python function calls
    (translate-toolkit's parser included): ten times the entries is ten times the calls, not more."""
    def work(count: int) -> int:
        path = write(tmp_path / f"c{count}.po", count)

        def read_and_check():
            catalog = po.read_catalog(path, path.name)
            catalogs.translations_of(catalog)
            catalogs.faults(catalog)
            checks.check_catalog(catalog, "ru", "pl", [])
        return calls(read_and_check)

    small, large = work(1_000), work(10_000)
    assert large / 10_000 <= 1.02 * small / 1_000, (small, large)


@pytest.mark.unit
def test_moved_texts_are_taken_without_comparing_entries(monkeypatch):
    """Before: each moved text was taken out of the list of new entries with list.remove, which compared
    it with every entry before it (translate-toolkit's __eq__): quadratic in the texts left new."""
    count = 4_000
    fresh, orphans, moved = [], {}, []
    for i in range(count):
        new = po.Entry(f"Tekst {i}")
        new.setcontext(f"new/{i}")
        fresh.append((new, (f"new/{i}", f"Tekst {i}")))
        moved += [new] if i % 2 else []
        if i % 2:  # every other text was elsewhere before, translated
            old = po.Entry(f"Tekst {i}")
            old.setcontext(f"old/{i}")
            old.target = f"Text {i}"
            orphans[(f"old/{i}", f"Tekst {i}")] = old
    compared = []
    monkeypatch.setattr(po.Entry, "__eq__", lambda self, other: compared.append(1) or self is other)
    used = merge._moved(fresh, orphans)
    assert not compared
    assert used == set(orphans)
    assert [k for _, k in fresh] == [(f"new/{i}", f"Tekst {i}") for i in range(0, count, 2)]
    assert not any(po.translated(new) for new, _ in fresh)
    assert [(po.strings(new), new.isfuzzy()) for new in moved] == [([f"Text {i}"], False) for i in range(1, count, 2)]


WORDS = ("unit move attack hex river bridge cavalry infantry artillery fire retreat rout rally supply leader turn "
         "phase step enemy friendly adjacent zone control terrain forest town road march column line square charge "
         "melee morale check roll die result table modifier").split()


def edited_texts(count: int) -> list[str]:
    """Pairs of texts: an even one, and the odd one after it the same with one word changed."""
    import random
    texts = []
    for i in range(count):
        first = random.Random(i - i % 2)
        words = first.choices(WORDS, k=first.randint(6, 14))
        if i % 2:
            edit = random.Random(i)
            words[edit.randrange(len(words))] = edit.choice(WORDS)
        texts.append(" ".join(words) + f" {i - i % 2}")
    return texts


def half_translated(count: int, template: bool) -> po.Catalog:
    """Every even text translated, every odd one (an edit of the even one before it) not: `aids update` looks
    for a similar text anywhere for each odd one."""
    body = "".join(f'\nmsgctxt "k{i}"\nmsgid "{text}"\nmsgstr "{"" if template or i % 2 else "T " + text}"\n'
                   for i, text in enumerate(edited_texts(count)))
    return po.Catalog.parsestring((HEADER + body).encode("utf-8"))


def merged(old: po.Catalog, template: po.Catalog) -> list[tuple]:
    return [(po.key(e), str(e.target), e.isfuzzy(), str(e.prev_source)) for e in po.entries(merge.merge(old, template))]


def test_a_similar_text_anywhere_is_found_among_few_candidates_as_among_all(monkeypatch):
    """Step 4 of the merge (a similar text in another msgctxt) compares each text with a few candidates that
    share its rarer trigrams (merge._Index), not with every translated text, which made `aids update`
    quadratic (4,000 half-translated entries: 199 s); it finds what the search among all of them finds."""
    old, template = half_translated(600, False), half_translated(600, True)
    found = merged(old, template)
    assert sum(1 for _, target, fuzzy, _ in found if fuzzy and target) == 300  # every edited text, its neighbour's
    monkeypatch.setattr(merge._Index, "near", lambda self, text: list(self.origins))  # every former text
    assert merged(old, template) == found


def test_the_search_for_a_similar_text_compares_a_bounded_number_per_text(monkeypatch):
    compared = []
    ratio = merge._ratio
    monkeypatch.setattr(merge, "_ratio", lambda a, b: compared.append(a) or ratio(a, b))
    for count in (400, 1600):
        compared.clear()
        merge.merge(half_translated(count, False), half_translated(count, True))
        assert len(compared) <= merge.CANDIDATES * count // 2  # at most CANDIDATES for each untranslated text
