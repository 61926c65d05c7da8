"""`aids weblate components`: the Weblate component of each catalog with the settings aids' catalogs need
(docs/translating/weblate.md says why each): printed as the JSON Weblate's API takes, or, with --weblate URL
--weblate-project SLUG, made or brought up to date in that Weblate (a missing component created, aids' settings
of an existing one set again, a missing add-on installed), so that a team's components follow aids' rules when
those change under them.

Besides the file settings, what Weblate checks: aids' placeholders (`{num:4}`, `{side:phasing|gen}`) through its
placeholder check (a component flag), and no "Unchanged translation" on an entry a translator's comment
`# aids: ignore identical` silences (a bulk edit Weblate runs again after each update of the files, so that a
string made anew by a source edit gets its flag back). New languages: only those aids.yaml publishes (the
language filter); a translator asks the maintainers for another one (who add it to aids.yaml).
"""
from __future__ import annotations

import json
import re
from typing import Any

from ..config import Project
from ..errors import AidsError, Position, Problem
from .weblate import Component, Weblate, components

PO_PARAMS = {
    "po_line_wrap": 77,  # translate-toolkit's 77 inside the quotes: GNU's 79 columns, as aids writes
    "po_keep_previous": True,  # aids' `#| msgid` of a changed text: Weblate shows it as the previous source
    "po_remove_obsolete": False,  # aids keeps every obsolete translation (`#~`) for a text that may come back
    "po_fuzzy_matching": True,
    "po_no_location": False,
}
# A placeholder is found in a source up to its closing brace or the grammatical form after its bar, which a
# translation may change ({side:phasing} -> {side:phasing|gen}); one left open ("{num:4 tury") matches nothing, so
# Weblate reports it missing. Measured on the samples in Weblate 2026.10.1: no string flagged that aids check passes.
PLACEHOLDERS = r'placeholders:r"\{[a-z]+:[^{}|\s]+(?=(?:\|[a-z]+)?\})"'
GNU_LAYOUT = "aids.gnu_layout"  # contrib/weblate/aids_gnu_layout.py, where the Weblate has it
BULK = "weblate.flags.bulk"
# Weblate searches a string's notes (its PO comments) with PostgreSQL's regular expressions: no \b
IGNORE_IDENTICAL = {"q": r'note:r"aids:\s*ignore[a-z ,-]*identical"', "state": -1, "add_flags": "",
                    "remove_flags": "", "add_translation_flags": "ignore-same", "remove_translation_flags": "",
                    "add_labels": [], "remove_labels": []}
ADDONS = ({"name": GNU_LAYOUT, "configuration": {}}, {"name": BULK, "configuration": IGNORE_IDENTICAL})
OWNED = ("filemask", "new_base", "edit_template", "new_lang", "language_regex")  # set again when they differ


def settings(component: Component, languages: list[str]) -> dict[str, Any]:
    """The component as Weblate's API takes it (POST /api/projects/<project>/components/), but its repository."""
    return {"name": component.name, "slug": component.slug, "vcs": "git", "file_format": "po",
            "filemask": component.filemask, "new_base": component.new_base,
            "source_language": {"code": component.source_language}, "edit_template": False,
            "new_lang": "contact", "language_regex": "^(?:" + "|".join(map(re.escape, languages)) + ")$",
            "check_flags": PLACEHOLDERS, "file_format_params": PO_PARAMS}


def described(project: Project, found: list[Component]) -> str:
    """Every component with its settings and add-ons, as JSON."""
    return json.dumps([{"component": settings(c, project.languages), "addons": list(ADDONS)} for c in found],
                      ensure_ascii=False, indent=1)


def apply(weblate: Weblate, slug: str, project: Project, found: list[Component], repo: str | None,
          branch: str) -> list[str]:
    """Each component made or brought up to date in the Weblate project `slug`; a line said of each. A new one
    shares the clone of the project's first component with a repository of its own (`weblate://`), or, the
    first, clones `repo`."""
    base = f"{weblate.url}/projects/{slug}"
    there = {c["slug"]: c for c in weblate.pages(f"projects/{slug}/components/")}
    origin = next((s for s, c in there.items() if not c.get("is_glossary")
                   and not str(c.get("repo", "")).startswith(("weblate://", "local:"))), None)
    said = []
    for component in found:
        body = settings(component, project.languages)
        now = there.get(component.slug)
        if now is None:
            if origin is None and not repo:
                raise AidsError(Problem(Position("--repo"), f"the Weblate project {slug} has no component with a "
                                        "repository yet", "--repo URL: the project's git repository, as Weblate "
                                        "clones it (https, ssh)"))
            body.update({"repo": repo, "push": repo, "branch": branch} if origin is None else
                        {"repo": f"weblate://{slug}/{origin}"})
            weblate.call("POST", f"projects/{slug}/components/", body)
            origin = origin or component.slug
            said.append(f"{base}/{component.slug}/: created")
        else:
            changed = _changes(now, body)
            if changed:
                weblate.call("PATCH", f"components/{slug}/{component.slug}/", changed)
            said.append(f"{base}/{component.slug}/: " + (f"{', '.join(changed)} set" if changed else "up to date"))
        said += _addons(weblate, slug, component.slug, now, f"{base}/{component.slug}/")
    return said


def _changes(now: dict[str, Any], wanted: dict[str, Any]) -> dict[str, Any]:
    """Of aids' settings, those an existing component lacks. Its own check flags stay beside aids' placeholders,
    its other file parameters beside aids'."""
    changed = {name: wanted[name] for name in OWNED if now.get(name) != wanted[name]}
    flags = now.get("check_flags") or ""
    if PLACEHOLDERS not in flags:
        changed["check_flags"] = ", ".join(f for f in (flags, PLACEHOLDERS) if f)
    params = {**(now.get("file_format_params") or {}), **PO_PARAMS}
    if params != now.get("file_format_params"):
        changed["file_format_params"] = params
    return changed


def _addons(weblate: Weblate, slug: str, component: str, now: dict[str, Any] | None, shown: str) -> list[str]:
    """The add-ons a component lacks, installed. aids' GNU layout only where the Weblate has it."""
    there = [weblate.call("GET", "addons/" + str(url).rstrip("/").rsplit("/", 1)[-1] + "/")
             for url in (now or {}).get("addons", [])]
    said = []
    for addon in ADDONS:
        if any(a["name"] == addon["name"] and (a["name"] != BULK or a["configuration"].get("q") ==
                                                IGNORE_IDENTICAL["q"]) for a in there):
            continue
        try:
            weblate.call("POST", f"components/{slug}/{component}/addons/", addon)
        except AidsError:
            if addon["name"] != GNU_LAYOUT:
                raise
            said.append(f"{shown}: no add-on {GNU_LAYOUT} on this Weblate: catalogs may be rewrapped "
                        "(docs/translating/weblate.md, 'The GNU layout add-on')")
            continue
        said.append(f"{shown}: add-on {addon['name']} installed")
    return said


def components_command(project: Project, args, weblate: Weblate | None) -> int:
    """`aids weblate components`: printed, or applied to the Weblate given (--weblate, checked by the caller)."""
    found = components(project, args.game, with_ui=project.ui_domain and not args.game)
    if weblate is None:
        print(described(project, found))
        return 0
    print("\n".join(apply(weblate, args.weblate_project, project, found, args.repo, args.branch)))
    return 0
