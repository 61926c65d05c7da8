"""An update of a catalog from its template that never loses a translation.

Each entry of the template takes its translation, in this order of preference, from:
1. the old entry with the same msgctxt and msgid (active, or obsolete and brought back);
2. a text that moved: an old entry whose text is no longer used where it was, with the very same
   msgid and one translation (a step whose id was renamed, a paragraph moved to another section);
3. the most similar former text of the same msgctxt (an edited step, an edited paragraph of the
   section): fuzzy, with the text the translation was made for in `#|`;
4. a similar text anywhere (an id renamed and its text edited, a text copied to another place):
   fuzzy, with its former msgctxt in `#|` too.
An old translated entry that gave its translation to none of these becomes obsolete (`#~`). No key is
both active and obsolete; when an obsolete entry meets an older obsolete one with the same key, the
older translation is kept in a translator comment of the newer.

The header comes out as GNU msgmerge writes it (`_headed`), so that msgmerge after an update changes nothing, but
without the template's date (which would change with each extract and make every update conflict in git with a
translator's commit); what a Babel round trip did to `#|` lines is undone first (`po.repair_previous`).
"""
from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass

from translate.misc.multistring import multistring

from . import po
from .po import Catalog, Entry, Key

SIMILAR = 0.6  # like msgmerge and Babel: below this, two texts are not taken for versions of one another
ELSEWHERE = 0.8  # a text from another msgctxt must be closer still
CANDIDATES = 20  # former texts a text is compared with when it is looked for anywhere (_Index)
EARLIER = "earlier translation: "


@dataclass(frozen=True)
class Origin:
    """What an old entry's translation was made for, and whether that is known."""
    entry: Entry
    key: Key  # the text it was made for: its previous msgctxt/msgid when fuzzy, else its own
    sure: bool  # not fuzzy, or fuzzy only because its text changed since (`#|` known)

    @property
    def strings(self) -> tuple[str, ...]:
        return tuple(po.strings(self.entry))


def origin(entry: Entry) -> Origin:
    own = po.key(entry)
    if not entry.isfuzzy():
        return Origin(entry, own, True)
    if not entry.prev_msgid:
        return Origin(entry, own, False)  # marked fuzzy by hand: it needs a look whatever it was made for
    previous = str(entry.prev_source.strings[0]) if entry.prev_msgid_plural else str(entry.prev_source)
    return Origin(entry, (entry.prev_context or own[0], previous), True)


def merge(old: Catalog, template: Catalog, lang: str | None = None) -> Catalog:
    """The catalog `old` (of language `lang`) brought in line with `template`: its header in GNU's order and
    form, with the template's date, project and bug address."""
    po.repair_previous(old)
    out = _headed(old, template, lang)
    active = {po.key(e): e for e in po.entries(old)}
    retired = {po.key(e): e for e in po.obsolete(old)}
    wanted = [(po.key(t), t) for t in po.entries(template)]
    keys = {k for k, _ in wanted}
    orphans = {k: e for k, e in active.items() if k not in keys and po.translated(e)}
    fresh: list[tuple[Entry, Key]] = []  # new entries still without a translation
    forms = po.nplurals(old) or 2
    for k, t in wanted:
        entry = _from_template(t, forms)
        out.addunit(entry)
        if not _kept(entry, k, active, retired):
            fresh.append((entry, k))
    used = _moved(fresh, orphans)
    still = [origin(e) for k, e in active.items() if k in keys and po.translated(e)]
    used |= _similar(fresh, orphans, retired, still)
    _retire(out, orphans, used, retired)
    return out


def _retire(out: Catalog, orphans: dict[Key, Entry], used: set[Key], retired: dict[Key, Entry]) -> None:
    """The obsolete entries at the end of `out`: those already obsolete, then the translations of texts gone
    that no new text took."""
    for entry in _obsolete([e for k, e in orphans.items() if k not in used], retired):
        out.addunit(entry)


GNU_FIELDS = ("Project-Id-Version", "Report-Msgid-Bugs-To", "POT-Creation-Date", "PO-Revision-Date",
              "Last-Translator", "Language-Team", "Language", "MIME-Version", "Content-Type",
              "Content-Transfer-Encoding")  # msgmerge writes these first, in this order, then the others as they were
FROM_TEMPLATE = ("Project-Id-Version", "Report-Msgid-Bugs-To")
# A template's date, which GNU msgmerge copies into each catalog: aids writes none (catalogs.template says why), and
# takes out one an older aids or another tool wrote, so that no catalog's header changes with every update.
DROPPED = ("POT-Creation-Date",)


def _headed(old: Catalog, template: Catalog, lang: str | None) -> Catalog:
    """A new catalog with the header of `old` as GNU msgmerge writes it: the template's project and bug address
    (no date: DROPPED); `Language` set when missing; the charset UTF-8 (what aids writes), named as GNU names it;
    GNU's fields in GNU's order, then every other field (Plural-Forms, X-Generator, a tool's own) in the order it
    had."""
    out = Catalog(width=po.WIDTH)
    header = old.header()
    fields = dict(old.parseheader())
    ours = template.parseheader()
    fields.update({name: ours.get(name, "") for name in FROM_TEMPLATE})
    for name in DROPPED:
        fields.pop(name, None)
    if lang and not fields.get("Language"):
        fields["Language"] = lang
    fields["Content-Type"] = "text/plain; charset=UTF-8"
    order = [name for name in GNU_FIELDS if name in fields] + [name for name in fields if name not in GNU_FIELDS]
    if header is not None:
        header.target = "".join(f"{name}: {fields[name]}\n" for name in order)
        out.units = [header]
    return out


def _kept(entry: Entry, k: Key, active: dict[Key, Entry], retired: dict[Key, Entry]) -> bool:
    """Whether `entry` keeps the translation its key had, active or obsolete (the obsolete one taken from
    `retired`); its comments kept either way."""
    found, earlier = active.get(k), retired.pop(k, None)
    if found is None:
        found, earlier = earlier, None
    if found is None:
        return False
    _keep_comments(entry, found)
    if earlier is not None and po.translated(earlier) and po.strings(earlier) != po.strings(found):
        _remember(entry, earlier)  # the same key active and obsolete (a catalog from an older aids)
    if po.translated(found):
        _take(entry, origin(found), k)
        return True
    return False


def _from_template(t: Entry, forms: int) -> Entry:
    entry = Entry(t.source)
    if entry.hasplural():
        entry.target = multistring([""] * forms)  # msgstr[0] ... as msgmerge writes them, to be filled in
    entry.setcontext(t.getcontext() or "")
    entry.automaticcomments = list(t.automaticcomments)
    entry.sourcecomments = list(t.sourcecomments)
    entry.typecomments = list(t.typecomments)
    return entry


def _take(entry: Entry, source: Origin, key: Key, *, moved: bool = False, replaces: bool = True) -> None:
    """Give `entry` (at `key`) the translation of `source`: fuzzy unless made for this very text.

    `moved`: the text of `source` is gone from where it was, so its translation goes with the text.
    `replaces`: `source` is an entry gone from the catalog (its text changed, moved or removed), so its
    translator's comments and flags go with its translation, as GNU msgmerge carries them; an entry still
    in the catalog keeps its own.
    """
    entry.target = source.entry.target
    if replaces:
        _keep_comments(entry, source.entry)
    if source.sure and (source.key == key or (moved and source.key[1] == key[1])):
        entry.markfuzzy(False)
        return
    entry.markfuzzy(True)
    context, msgid = source.key
    if (context, msgid) != key:
        entry.prev_context = context if context != key[0] else ""
        entry.prev_source = msgid


def _keep_comments(entry: Entry, old: Entry) -> None:
    """The translator's own comments and flags stay; fuzzy is decided anew and format flags are the template's."""
    entry.othercomments = list(old.othercomments)
    for flag in _flags(old):
        if flag != "fuzzy" and not flag.endswith("-format") and not entry.hastypecomment(flag):
            entry.settypecomment(flag)


def _remember(entry: Entry, earlier: Entry) -> None:
    """Keep the translation of `earlier` (an entry `entry` replaces) in a translator comment."""
    for comment in [*earlier.othercomments,
                    *(f"# {EARLIER}{line}\n" for s in po.strings(earlier) if s for line in s.split("\n"))]:
        if comment not in entry.othercomments:
            entry.othercomments.append(comment)


def _flags(entry: Entry) -> list[str]:
    return [f.strip() for c in entry.typecomments for f in c[2:].split(",") if f.strip()]


def _moved(fresh: list[tuple[Entry, Key]], orphans: dict[Key, Entry]) -> set[Key]:
    """Step 2: the same text under a new msgctxt takes the one translation it had where it is gone."""
    by_text: dict[str, list[Origin]] = {}
    for e in orphans.values():
        o = origin(e)
        if o.sure:
            by_text.setdefault(o.key[1], []).append(o)
    used: set[Key] = set()
    left = []  # kept in order and rebuilt once: list.remove was a scan per moved text, comparing entries
    for entry, k in fresh:
        found = by_text.get(k[1], [])
        if found and len({o.strings for o in found}) == 1:
            _take(entry, found[0], k, moved=True)
            used |= {po.key(o.entry) for o in found}
        else:
            left.append((entry, k))
    fresh[:] = left
    return used


def _similar(fresh: list[tuple[Entry, Key]], orphans: dict[Key, Entry], retired: dict[Key, Entry],
             still: list[Origin]) -> set[Key]:
    """Steps 3 and 4: the most similar former text, of the same msgctxt first; fuzzy, with `#|`."""
    former = [origin(e) for e in [*orphans.values(), *retired.values()] if po.translated(e)]
    done: set[Key] = set()
    used: set[Key] = set()
    for _, k, _, entry, o in sorted(_pairs(fresh, former, orphans), key=lambda p: (-p[0], p[1], p[2])):
        if k not in done:
            _take(entry, o, k)
            done.add(k)
            used.add(po.key(o.entry))
    left = [(entry, k) for entry, k in fresh if k not in done]
    if left:  # after most updates none is: then no index of every translated text is made
        used |= _elsewhere(left, former, still)
    return {k for k in used if k in orphans}


def _elsewhere(left: list[tuple[Entry, Key]], former: list[Origin], still: list[Origin]) -> set[Key]:
    """Step 4: each new entry `left` without a translation takes that of the most similar text anywhere, if one is
    close enough; the keys of the entries whose translations were taken."""
    anywhere = _Index([*former, *still])
    gone = {po.key(o.entry) for o in former}
    used: set[Key] = set()
    for entry, k in left:
        scored = [(s, po.key(o.entry), o) for o in anywhere.near(k[1]) if (s := _ratio(k[1], o.key[1])) >= ELSEWHERE]
        if scored:
            _, _, o = max(scored, key=lambda p: (p[0], p[1]))
            _take(entry, o, k, replaces=po.key(o.entry) in gone)
            used.add(po.key(o.entry))
    return used


def _pairs(fresh: list[tuple[Entry, Key]], former: list[Origin],
           orphans: dict[Key, Entry]) -> list[tuple[float, Key, Key, Entry, Origin]]:
    """Step 3's candidates: each new entry with each former text of its msgctxt similar enough (or the one
    text gone when one came), scored."""
    by_context: dict[str, list[Origin]] = {}
    for o in former:
        by_context.setdefault(po.key(o.entry)[0], []).append(o)
    fresh_in = Counter(k[0] for _, k in fresh)
    pairs = []
    for entry, k in fresh:
        same = by_context.get(k[0], [])
        # one text gone and one come in the same msgctxt: an id's own text, edited, however much
        lone = fresh_in[k[0]] == 1 and sum(1 for o in same if po.key(o.entry) in orphans) == 1
        for o in same:
            score = _ratio(k[1], o.key[1])
            if score >= SIMILAR or (lone and po.key(o.entry) in orphans):
                pairs.append((1 + score if score >= SIMILAR else 1.0, k, po.key(o.entry), entry, o))
    return pairs


class _Index:
    """The former texts by their character trigrams, so that a text is compared with the few that share the
    most of its rarer trigrams, not with every one (which made `aids update` quadratic: 4,000 untranslated
    entries, 199 s). As msgmerge's fuzzy search, it looks among likely candidates only: a text at least
    `ELSEWHERE` similar shares most of its trigrams, so it is among them but for pathological texts."""

    def __init__(self, origins: list[Origin]):
        self.origins = origins
        self.grams: dict[str, list[int]] = {}
        for n, o in enumerate(origins):
            for gram in _grams(o.key[1]):
                self.grams.setdefault(gram, []).append(n)
        self.common = max(CANDIDATES * 4, int(len(origins) ** 0.5))  # a trigram in more texts tells little

    def near(self, text: str) -> list[Origin]:
        grams = _grams(text)
        rare = [g for g in grams if len(self.grams.get(g, ())) <= self.common] or \
            sorted(grams, key=lambda g: len(self.grams.get(g, ())))[:3]  # texts of common trigrams only
        shared: dict[int, int] = {}
        for gram in rare:
            for n in self.grams.get(gram, ())[:self.common]:
                shared[n] = shared.get(n, 0) + 1
        best = sorted(shared, key=lambda n: (-shared[n], n))[:CANDIDATES]
        return [self.origins[n] for n in sorted(best)]


def _grams(text: str) -> set[str]:
    padded = f"  {text} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def _ratio(a: str, b: str) -> float:
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < SIMILAR or matcher.quick_ratio() < SIMILAR:
        return 0.0
    return matcher.ratio()


def _obsolete(gone: list[Entry], retired: dict[Key, Entry]) -> list[Entry]:
    """The obsolete entries: those already obsolete, then those that just went; one per key, nothing lost."""
    out = dict(retired)
    for old in gone:
        entry = Entry(old.source)
        entry.setcontext(old.getcontext() or "")
        entry.target = old.target
        entry.othercomments = list(old.othercomments)
        entry.typecomments = list(old.typecomments)
        entry.prev_msgctxt, entry.prev_msgid = list(old.prev_msgctxt), list(old.prev_msgid)
        entry.prev_msgid_plural = list(old.prev_msgid_plural)
        earlier = out.pop(po.key(old), None)
        if earlier is not None and po.strings(earlier) != po.strings(entry):
            _remember(entry, earlier)
        entry.makeobsolete()
        out[po.key(old)] = entry
    return list(out.values())
