"""`aids build --shard K/N`: the units of a build cut into N parts of about the same cost, for a CI matrix.

A unit is an aid in one edition, in all its languages (rendered, then written whole). It costs what its last
build took, as the build cache recorded it: in each language, the `seconds` of the job that rendered it (the
largest of its formats' records, each holding the time of the job that made it); a language the cache has no
time of costs a first guess by the aid's kind (`weights`, builder.WEIGHT). The parts are made greedily, the
costliest unit first (longest processing time first), each into the part that costs least so far: no part
costs more than 4/3 of the best split's largest.

Each shard's process computes the whole split on its own, from the plan and the build cache alone (no clock,
no order of the file system, ties broken by name and by the number of the part): shards started from the same
output folder (the same restored CI cache, or none: then every unit costs its guess) split alike, so each unit
is in exactly one of them. Shards started from different caches may split differently: a unit then built by
no shard is built by the build of the merged output folder, one built by two gives the same bytes twice; the
line each shard reports names its split (`split <digest>`), the same in every shard of one split.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence

from ..write.cache import Cache
from .pipeline import Unit

Cost = Callable[[Unit], float]


def name(unit: Unit) -> str:
    return f"{unit.game.id}/{unit.edition.id if unit.edition else '-'}/{unit.aid.model.id}"


def recorded(cache: Cache, langs: Sequence[str], weights: Mapping[str, float]) -> Cost:
    """A unit's cost in `langs`: the seconds its last build took, as the cache recorded them, or its weight."""
    def cost(unit: Unit) -> float:
        total = 0.0
        for lang in langs:
            times = [(cache.get(unit.game.id, unit.aid.model.id,
                                f"{unit.edition.id if unit.edition else '-'}/{lang}/{fmt}") or {}).get("seconds")
                     for fmt in unit.formats]
            known = [t for t in times if t]
            total += max(known) if known else weights.get(unit.aid.kind.name, 1)
        return total
    return cost


def split(units: Sequence[Unit], n: int, cost: Cost) -> list[list[Unit]]:
    """`units` into `n` parts of about the same cost (each in plan order), the same for the same units and costs."""
    parts: list[list[Unit]] = [[] for _ in range(n)]
    loads = [0.0] * n
    for unit, price in sorted(((u, cost(u)) for u in units), key=lambda item: (-item[1], name(item[0]))):
        k = min(range(n), key=lambda i: (loads[i], i))
        parts[k].append(unit)
        loads[k] += price
    order = {id(unit): n for n, unit in enumerate(units)}
    return [sorted(part, key=lambda u: order[id(u)]) for part in parts]


def select(units: Sequence[Unit], shard: tuple[int, int] | None, cost: Cost) -> tuple[list[Unit], str | None]:
    """The units of shard K of N, and a line saying what it holds of the whole, for the summary's skipped
    (None without a shard)."""
    if not shard:
        return list(units), None
    k, n = shard
    parts = split(units, n, cost)
    mine = parts[k - 1]
    digest = hashlib.sha256("\n".join(f"{p} {name(u)}" for p, part in enumerate(parts) for u in part).encode())
    total, own = sum(cost(u) for u in units), sum(cost(u) for u in mine)
    return mine, (f"the other shards' aids: shard {k}/{n} builds {len(mine)} of {len(units)} aid(s) in an edition, "
                  f"about {own:.1f} s of {total:.1f} s as last built (split {digest.hexdigest()[:12]})")
