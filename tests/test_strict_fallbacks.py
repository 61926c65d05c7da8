"""A translation the build cannot use (untranslated, fuzzy, or losing a placeholder) prints the source language's
text in its place: a warning by default; a failure with `aids build --strict` or aids.yaml's `fallbacks: fail`,
named at the catalog's line with its msgctxt, even when the aid was built before (issue 48)."""
from translate.storage import pypo

from .helpers import edit, make_project, run

BROKEN = "seq/red-combat/resolve"  # its msgid holds {ref:red-move/move/charge}


def translated(tmp_path):
    """The demo project (Polish source) with an English catalog whose every entry is translated, one of them
    losing its placeholder: a mixed-language sentence if the build used it."""
    root = make_project(tmp_path)
    assert run("--project", root, "extract")[0] == 0 and run("--project", root, "update")[0] == 0
    path = root / "i18n/en/LC_MESSAGES/demo.po"
    catalog = pypo.pofile(path.read_bytes())
    for unit in catalog.units:
        if not unit.isheader():
            unit.target = "Resolve the countercharges." if unit.getcontext() == BROKEN else f"EN {unit.source}"
    path.write_bytes(bytes(catalog))
    line = next(u for u in pypo.pofile(path.read_bytes()).units if u.getcontext() == BROKEN).line_number
    return root, f"i18n/en/LC_MESSAGES/demo.po:{line}: en, html: [{BROKEN}] translation loses " \
                 "{ref:red-move/move/charge}"


def test_by_default_a_fallback_is_a_warning_and_strict_fails_even_an_aid_built_before(tmp_path):
    """Before: --strict after a plain build said "1 up to date" and exited 0, its fallbacks unreported; and a
    fallback was named at the source's line, not the catalog's."""
    root, where = translated(tmp_path)
    code, out, err = run("--project", root, "build", "--lang", "en", "--format", "html")
    assert code == 0 and f"[{BROKEN}] translation loses" in out
    page = (root / "build/demo/en/seq.html").read_bytes()
    code, out, err = run("--project", root, "build", "--lang", "en", "--format", "html", "--strict")
    assert code == 1
    assert f"{where} (--strict) (expected: a usable translation of games/demo/sequence.yaml:" in err
    assert len([line for line in err.splitlines() if ": en, html: [" in line]) == 1  # every other one translated
    assert (root / "build/demo/en/seq.html").read_bytes() == page  # its previous files kept


def test_fallbacks_fail_in_aids_yaml_fails_the_build(tmp_path):
    """Before: "unknown field 'fallbacks' in project"; a build printed the mixed-language sentence, exit 0."""
    root, where = translated(tmp_path)
    edit(root / "aids.yaml", "output: build\n", "output: build\nfallbacks: fail\n")
    code, out, err = run("--project", root, "build", "--lang", "en", "--format", "html")
    assert code == 1 and f"{where} (fallbacks: fail)" in err
    assert not (root / "build/demo/en/seq.html").exists()
    edit(root / "aids.yaml", "fallbacks: fail", "fallbacks: maybe")
    code, out, err = run("--project", root, "build", "--lang", "en", "--format", "html")
    assert code == 1 and err.strip() == ("aids.yaml:3:12: unknown fallbacks 'maybe' (expected: warn (text a translation "
                                         "lacks prints in the source language), fail (the build fails))")
