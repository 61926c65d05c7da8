"""An update of a game's catalogs in one language when the texts move between them: `catalogs_per` switched
(one catalog for the game <-> one per aid), an aid removed, a text moved from an aid to another. Nothing is
lost, as in `merge`, which each catalog then goes through.

Each catalog to keep (`templates`) is made from a pool of the old entries (of every old catalog of the game):
- the entries of its texts (active or obsolete), its own old catalog's first, then the game's own, then the
  others' by name; where two catalogs held a text with different translations, the first is taken and the
  others kept as translator's comments ("earlier translation: ...");
- the entries of texts no template has (obsolete, or orphans `merge` makes obsolete or gives a similar text):
  in their own catalog when it is kept, else in the game's own;
- the header of its own old catalog, else the game's (the translators' names above it and Last-Translator
  taken from the catalogs it replaces when it has none).
Old catalogs no template keeps are then removed by the caller (`gone`).
"""
from __future__ import annotations

from . import catalogs, merge, po
from .po import Catalog, Entry, Key


def regroup(game_id: str, olds: dict[str, Catalog], templates: dict[str, Catalog],
            lang: str) -> dict[str, Catalog]:
    """The catalogs (domain -> catalog) of `templates` in language `lang`, from the old ones `olds`."""
    keys = {d: {po.key(e) for e in po.entries(t)} for d, t in templates.items()}
    everywhere = set().union(*keys.values()) if keys else set()
    if len(templates) == 1 and set(olds) <= set(templates):  # one catalog, as it was: the plain update
        domain, template = next(iter(templates.items()))
        old = olds.get(domain) or catalogs.catalog_for(template, lang)
        return {domain: merge.merge(old, template, lang)}
    out = {}
    for domain, template in templates.items():
        order = [d for d in (domain, game_id) if d in olds]
        order += [d for d in sorted(olds) if d not in order]
        if not order:
            out[domain] = merge.merge(catalogs.catalog_for(template, lang), template, lang)
            continue
        pool = _header(domain, game_id, olds, order, templates)
        for entry in _entries(domain, game_id, olds, order, keys[domain], everywhere, templates):
            pool.addunit(entry)
        out[domain] = merge.merge(pool, template, lang)
    return out


def gone(olds: dict[str, Catalog], templates: dict[str, Catalog]) -> list[str]:
    """The old catalogs no template keeps (their entries are in those that are kept)."""
    return [d for d in olds if d not in templates]


def _home(domain: str, game_id: str, templates: dict[str, Catalog]) -> str:
    """Where the entries of catalog `domain` go that no template has."""
    return domain if domain in templates else game_id


def _entries(domain: str, game_id: str, olds: dict[str, Catalog], order: list[str], wanted: set[Key],
             everywhere: set[Key], templates: dict[str, Catalog]) -> list[Entry]:
    chosen: dict[tuple[bool, Key], Entry] = {}
    others: dict[tuple[bool, Key], list[Entry]] = {}
    for old in order:
        mine = _home(old, game_id, templates) == domain  # its texts no template has come here
        for unit in olds[old].units:
            k = po.key(unit)
            if unit.isheader() or (k not in wanted and (k in everywhere or not mine)):
                continue
            slot = (unit.isobsolete(), k)
            there = chosen.get(slot)
            if there is None or _rank(unit) < _rank(there):
                chosen[slot] = unit.copy()
                unit = there
            if unit is not None:
                others.setdefault(slot, []).append(unit)
    for slot, entry in chosen.items():
        _keep_others(entry, others.get(slot, []))
    return list(chosen.values())


def _keep_others(entry: Entry, others: list[Entry]) -> None:
    """The translations and translator's comments of the other entries of `entry`'s text, as its comments."""
    for other in others:
        if po.translated(other) and po.strings(other) != po.strings(entry):
            merge._remember(entry, other)
        for comment in other.othercomments:
            if comment not in entry.othercomments and not comment.startswith("# " + merge.EARLIER):
                entry.othercomments.append(comment)


def _rank(entry: Entry) -> int:
    """Which of the entries of a text several catalogs had is taken: translated and not fuzzy first."""
    return 0 if po.translated(entry) and not entry.isfuzzy() else 1 if po.translated(entry) else 2


def _header(domain: str, game_id: str, olds: dict[str, Catalog], order: list[str],
            templates: dict[str, Catalog]) -> Catalog:
    """An empty catalog with the header of `order[0]`, the translators' names of the catalogs it takes over
    added (comments above the header, and Last-Translator when it has none)."""
    first = olds[order[0]]
    out = Catalog(width=po.WIDTH)
    header = first.header()
    if header is None:
        return out
    header = header.copy()
    fields = dict(first.parseheader())
    for other in order[1:]:
        if other in templates and other != game_id:
            continue  # a catalog kept keeps its own translators
        theirs = olds[other].header()
        if theirs is None:
            continue
        for comment in theirs.othercomments:
            if comment not in header.othercomments:
                header.othercomments.append(comment)
        last = dict(olds[other].parseheader()).get("Last-Translator", "")
        if not fields.get("Last-Translator") and last:
            fields["Last-Translator"] = last
    header.target = "".join(f"{name}: {value}\n" for name, value in fields.items())
    out.units = [header]
    return out
