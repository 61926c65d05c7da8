"""The corpus of bad inputs: every way a source, catalog, project file or command line can be wrong.

One project holds every kind of aid (a sequence, a booklet of two rule files, a card, a playsheet and its
three tables) and a partly translated catalog. It is built once; then each case breaks one thing in a copy
of it and runs `aids` as a user does. Each case states the exit status and the message, `path:line:col`
first, and checks that no traceback is shown and, when the build fails, that the outputs of the previous
build are all still there, byte for byte, with nothing written beside them.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from aids.commands.cli import main
from aids.localize.catalogs import po_path

from .helpers import DEMO_BANDS, DEMO_MODS, DEMO_MOVE, DEMO_SEQUENCE, DEMO_SHEET, built_files, make_project
from .localize.test_catalogs import extract_update, translate
from .model.test_booklet import BOOKLET, ONE, TWO
from .model.test_card import DEMO_CARD

GAME = """\
id: demo
title: Gra próbna
version: "2.0"
published: 2021-03-04
source_language: pl
aids: [sequence.yaml, rules.yaml, card.yaml, sheet.yaml, move.yaml, mods.yaml, bands.yaml]
"""
FILES = {
    "games/demo/game.yaml": GAME, "games/demo/sequence.yaml": DEMO_SEQUENCE, "games/demo/rules.yaml": BOOKLET,
    "games/demo/one.md": ONE, "games/demo/two.md": TWO, "games/demo/card.yaml": DEMO_CARD,
    "games/demo/sheet.yaml": DEMO_SHEET, "games/demo/move.yaml": DEMO_MOVE, "games/demo/mods.yaml": DEMO_MODS,
    "games/demo/bands.yaml": DEMO_BANDS,
}
PO = "i18n/en/LC_MESSAGES/demo.po"
BOMB = "a0: &a0 x\n" + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10))
NESTED_MAPS = "".join(" " * i + "k:\n" for i in range(3000)) + " " * 3000 + "v\n"  # 4.5 MB, under the limit


@dataclass(frozen=True)
class Edit:
    """One change to one file of the project: replace `old` by `new` (exactly once), or write `new` whole."""
    path: str
    new: str | bytes
    old: str | None = None
    append: bool = False

    def apply(self, root: Path) -> None:
        path = root / self.path
        if self.old is not None:
            text = path.read_text(encoding="utf-8")
            assert text.count(self.old) == 1, f"{self.old!r} must occur once in {self.path}"
            path.write_text(text.replace(self.old, str(self.new)), encoding="utf-8")
        elif isinstance(self.new, bytes):
            path.write_bytes((path.read_bytes() if self.append else b"") + self.new)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text((path.read_text(encoding="utf-8") if self.append else "") + self.new, encoding="utf-8")


def replace(path: str, old: str, new: str) -> Edit:
    return Edit(path, new, old)


def case(name: str, edits: Edit | list[Edit], message: str, *, args=(), exit=1,
         shows: tuple[str, str, str] | None = None):
    """`shows` (file, what it holds, what it must not): the input is accepted safely (a fallback, a warning,
    text left as written), so the outputs change, and that file is checked instead."""
    edits = edits if isinstance(edits, list) else [edits]
    return pytest.param(edits, list(args), exit, message, shows, id=name)


SEQ, CARD, RULES, ONE_MD = "games/demo/sequence.yaml", "games/demo/card.yaml", "games/demo/rules.yaml", "games/demo/one.md"
CASES = [
    # --- the project file, aids.yaml: confinement, types, syntax
    case("output-root", replace("aids.yaml", "output: build", "output: /"),
         "aids.yaml:2:9: 'output' is outside the project: / (expected: a folder inside the project"),
    case("output-parent", replace("aids.yaml", "output: build", "output: ../../elsewhere"),
         "aids.yaml:2:9: 'output' is outside the project: ../../elsewhere"),
    case("output-project-root", replace("aids.yaml", "output: build", "output: ."),
         "aids.yaml:2:9: the output folder cannot be the project folder (expected: output: build)"),
    case("output-sources", replace("aids.yaml", "output: build", "output: games"),
         "aids.yaml:2:9: the output folder overlaps the games folder (games)"),
    case("output-catalogs", replace("aids.yaml", "output: build", "output: i18n/out"),
         "aids.yaml:2:9: the output folder overlaps the catalogs folder (i18n)"),
    case("output-list", replace("aids.yaml", "output: build", "output: [a, b]"),
         "aids.yaml:2:9: 'output' must be a folder name, not a list (expected: output: build)"),
    case("output-file", [Edit("notes.txt", "notes\n"), replace("aids.yaml", "output: build", "output: notes.txt")],
         "aids.yaml:2:9: 'notes.txt' is a file, not a folder"),
    case("output-alias-bomb", replace("aids.yaml", "output: build", BOMB + "output: *a9"),
         "aids.yaml:3:5: an alias (*name) repeats this part of the file"),
    case("games-outside", Edit("aids.yaml", "games: ../x\n", append=True),
         "aids.yaml:3:8: 'games' is outside the project: ../x"),
    case("project-unknown-key", Edit("aids.yaml", "outptu: build\n", append=True),
         "aids.yaml:3:1: unknown field 'outptu'"),
    case("project-unknown-language", replace("aids.yaml", "[pl, en, ru]", "[pl, en, xx]"),
         "aids.yaml:1:21: unknown language 'xx' (expected: a CLDR language code such as pl, en, ru)"),
    case("project-malformed", replace("aids.yaml", "[pl, en, ru]", "[pl, en, ru"),
         "aids.yaml:2:7: malformed YAML: expected ',' or ']', but got ':'"),
    # --- the game file
    case("game-version-fills-footer", replace("games/demo/game.yaml", '"2.0"', '"' + "1." * 150 + '"'),
         "games/demo/game.yaml:3:10: version of 300 characters or on several lines"),
    case("game-title-several-lines", replace("games/demo/game.yaml", "title: Gra próbna", 'title: "Gra\\npróbna"'),
         "games/demo/game.yaml:2:8: title of 10 characters or on several lines"),
    case("game-version-alias-bomb", replace("games/demo/game.yaml", 'version: "2.0"', BOMB + "version: *a9"),
         "games/demo/game.yaml:4:5: an alias (*name) repeats this part of the file"),
    case("game-impossible-date", replace("games/demo/game.yaml", "2021-03-04", "2021-02-30"),
         "games/demo/game.yaml:4:12: impossible value"),
    case("game-aid-missing", replace("games/demo/game.yaml", "bands.yaml]", "bands.yaml, nope.yaml]"),
         "games/demo/game.yaml:6:92: aid source 'nope.yaml' not found (expected: a file in games/demo)"),
    case("game-aid-outside", replace("games/demo/game.yaml", "bands.yaml]", "bands.yaml, ../../../etc/passwd]"),
         "games/demo/game.yaml:6:92: aid source '../../../etc/passwd' is outside the game folder"),
    case("game-unknown-key", Edit("games/demo/game.yaml", "editon: 2\n", append=True),
         "games/demo/game.yaml:7:1: unknown field 'editon'"),
    case("game-source-language", replace("games/demo/game.yaml", "source_language: pl", "source_language: xx"),
         "games/demo/game.yaml:5:18: unknown language 'xx' (expected: a CLDR language code such as pl, en, ru)"),
    # --- YAML itself, in an aid's source
    case("yaml-nul", replace(SEQ, "Połóż żetony.", "Połóż\x00 żetony."),
         "games/demo/sequence.yaml:15:20: control character U+0000 (expected: printable text)"),
    case("yaml-bell-escape", replace(SEQ, "text: Połóż żetony.", 'text: "Połóż\\a żetony."'),
         "games/demo/sequence.yaml:15:15: control character U+0007 in a text (expected: printable text)"),
    case("yaml-esc", replace(SEQ, "Połóż żetony.", "Połóż \x1b[31mżetony."),
         "games/demo/sequence.yaml:15:21: control character U+001B"),
    case("yaml-not-utf8", Edit(SEQ, "title: Zły tytu".encode() + b"\xb3\n", append=True),
         "games/demo/sequence.yaml:43:16: not UTF-8 text (expected: a file in UTF-8)"),
    case("yaml-unclosed-quote", replace(SEQ, "mirror_of: red-move", 'mirror_of: "red-move'),
         "games/demo/sequence.yaml:42:16: malformed YAML: quoted text not closed (expected: valid YAML)"),
    case("yaml-brackets-20000", Edit(SEQ, "extra: " + "[" * 20000 + "]" * 20000 + "\n", append=True),
         "games/demo/sequence.yaml:43:58: nested too deeply (expected: at most 50 levels)"),
    case("yaml-maps-3000", Edit(SEQ, NESTED_MAPS),
         "games/demo/sequence.yaml:51:51: nested too deeply (expected: at most 50 levels)"),
    case("yaml-20-mb", Edit(SEQ, "x" * (20 * 1024 * 1024)),
         "games/demo/sequence.yaml: file of 20.0 MB, larger than the limit (expected: at most 5 MB)"),
    case("yaml-alias-in-see", replace(SEQ, 'see: ["rule:18.0", "red-move"]', 'see: &s ["rule:18.0"]\n        x: *s'),
         "games/demo/sequence.yaml:38:14: an alias (*name) repeats this part of the file"),
    case("yaml-esc-in-key", replace(SEQ, "title: Kolejność czynności", "ti\x1b[2Jtle: Kolejność czynności"),
         "games/demo/sequence.yaml:3:3: control character U+001B"),
    case("yaml-malformed", replace(SEQ, "id: seq", "id: [seq"),
         "games/demo/sequence.yaml:3:6: malformed YAML: expected ',' or ']', but got ':' (expected: valid YAML)"),
    case("yaml-tab-indent", replace(SEQ, "  - id: prep", "\t- id: prep"),
         "games/demo/sequence.yaml:11:1: malformed YAML: found character '\\t' that cannot start any token"),
    # --- the sequence kind
    case("seq-unknown-kind", replace(SEQ, "kind: sequence", "kind: sequense"),
         "games/demo/sequence.yaml:1:7: unknown aid kind 'sequense' (expected: "),
    case("seq-ref-unknown", replace(SEQ, "{ref:red-combat/resolve}", "{ref:nowhere}"),
         "games/demo/sequence.yaml:26:64: reference to unknown id 'nowhere'"),
    case("seq-steps-number", replace(SEQ, "    steps:\n      - id: place\n        text: Połóż żetony.\n",
                                     "    steps: 5\n"),
         "games/demo/sequence.yaml:13:12: "),
    case("seq-phases-mapping", replace(SEQ, "phases:\n", "phases: {a: 1}\nignored:\n"),
         "games/demo/sequence.yaml:10:9: phases must be a list"),
    case("seq-duplicate-step", replace(SEQ, "id: volley", "id: square"),
         "games/demo/sequence.yaml:30:21: duplicate step id 'square' (first used on line 28) (expected: ids unique among siblings)"),
    case("seq-mirror-unknown", replace(SEQ, "mirror_of: red-move", "mirror_of: nowhere"),
         "games/demo/sequence.yaml:42:16: mirror of unknown phase 'nowhere' (expected: prep, red-move, red-combat)"),
    case("seq-missing-text", replace(SEQ, "        text: Połóż żetony.\n", ""),
         "games/demo/sequence.yaml:14:9: missing field 'text' in step (expected: text: ...)"),
    case("seq-unknown-side", replace(SEQ, "    side: red\n    steps:\n      - id: move",
                                     "    side: green\n    steps:\n      - id: move"),
         "games/demo/sequence.yaml:18:11: unknown side 'green' (expected: both, red, blue)"),
    case("seq-unclosed-placeholder", replace(SEQ, "{see:rule:12.4.4}", "{see:rule:12.4.4"),
         "games/demo/sequence.yaml:31:30: placeholder '{see:rule:12.4.4).' not closed (expected: {kind:target}"),
    case("seq-emoji", replace(SEQ, "Połóż żetony.", "Połóż żetony 🎲."),
         "games/demo/sequence.yaml:15:15: sequence 'seq' (pl): no glyph for '🎲' (U+1F3B2) in the package fonts, in “Połóż żetony 🎲.”", args=["--format", "pdf", "--lang", "pl"]),
    case("seq-id-list", replace(SEQ, "id: seq", "id: [a, b]"),
         "games/demo/sequence.yaml:2:5: missing or malformed id"),
    case("seq-unknown-actor", replace(SEQ, "        text: Czerwoni się ruszają.\n",
                                      "        actor: green\n        text: Czerwoni się ruszają.\n"),
         "games/demo/sequence.yaml:21:16: unknown actor 'green' (expected: red, blue)"),
    case("seq-unknown-timing", replace(SEQ, "    side: red\n    steps:\n      - id: move",
                                       "    side: red\n    timing: later\n    steps:\n      - id: move"),
         "games/demo/sequence.yaml:19:13: unknown timing 'later' (expected: simultaneous, alternate, red, blue)"),
    case("seq-unknown-side-placeholder", replace(SEQ, "text: Niebiescy strzelają.", "text: \"{side:green} strzelają.\""),
         "games/demo/sequence.yaml:24:20: unknown side 'green' in {side:green} (expected: {side:red}, {side:blue})"),
    case("seq-step-mirror-too-deep", replace(SEQ, "        note: Tylko *raz* na etap.\n",
                                             "        note: Tylko *raz* na etap.\n        steps:\n"
                                             "          - id: again\n            mirror_of: red-move/move\n"),
         "games/demo/sequence.yaml:42:24: 'red-move/move' has 2 level(s) of sub-steps: mirrored at level 2 they "
         "would be nested deeper than 3 levels (expected: a step with at most 1 level(s) of sub-steps"),
    case("seq-step-mirror-with-steps", replace(SEQ, "        note: Tylko *raz* na etap.\n",
                                               "        note: Tylko *raz* na etap.\n      - id: again\n"
                                               "        mirror_of: red-move/move\n        steps: []\n"),
         "games/demo/sequence.yaml:42:9: a mirrored step has no 'steps' of its own (expected: only id and mirror_of"),
    case("seq-chapter-numeral", replace(SEQ, '"rule:18.0", "red-move"', '"chapter:IIII", "red-move"'),
         "games/demo/sequence.yaml:38:15: 'IIII' in chapter:IIII is not a chapter number (expected: a roman numeral"),
    case("seq-numbering", replace(SEQ, 'section: "3.2"\n', 'section: "3.2"\nnumbering: ["1.", "a-"]\n'),
         "games/demo/sequence.yaml:5:19: unknown numbering 'a-' (expected: 1. 1) (1) a. a) (a)"),
    # --- the booklet and its rule files
    case("rules-unclosed-box", replace(ONE_MD, "Uwaga.\n:::\n", "Uwaga.\n"),
         "games/demo/one.md:17:1: a ::: optional block inside a box (note) (expected: boxes side by side)"),
    case("rules-not-utf8", Edit(ONE_MD, b"\nZ\xff\n", append=True),
         "games/demo/one.md:46:2: not UTF-8 text (expected: a file in UTF-8)"),
    case("rules-nul", Edit(ONE_MD, "\nZ\x00\n", append=True),
         "games/demo/one.md:46:2: control character U+0000 (expected: printable text)"),
    case("rules-raw-html", Edit(ONE_MD, "\n<script>alert(1)</script>\n", append=True),
         "games/demo/one.md:46:1: raw HTML in Markdown (expected: Markdown only; HTML is never passed through)"),
    case("rules-image-network", Edit(ONE_MD, "\n![x](https://example.com/x.png)\n", append=True),
         "games/demo/one.md:46:6: image 'https://example.com/x.png' is not a file of the game"),
    case("rules-image-outside", Edit(ONE_MD, "\n![x](../../../etc/passwd)\n", append=True),
         "games/demo/one.md:46:6: image '../../../etc/passwd' leads outside the game folder (looked for ../etc/passwd)"),
    case("rules-image-missing", Edit(ONE_MD, "\n![x](figures/map.png)\n", append=True),
         "games/demo/one.md:46:6: image 'figures/map.png' not found: looked for games/demo/figures/map.png"),
    case("rules-image-in-cell", Edit(ONE_MD, "\n| a | b |\n|---|---|\n| ![x](map.png) | y |\n", append=True),
         "games/demo/one.md:48:3: an image in a table cell (expected: an image alone in its paragraph, outside the table)"),
    case("rules-footnote", Edit(ONE_MD, "\nTekst[^1].\n", append=True),
         "games/demo/one.md:46:6: footnote '[^1]' has no note (expected: [^1]: the note's text, in the same file)"),
    case("rules-unknown-box", Edit(ONE_MD, "\n::: sidebar\nx\n:::\n", append=True),
         "games/demo/one.md:46:1: unknown block kind 'sidebar' (expected: example, note, optional, designer, exception, wide, abbreviations, glossary, index, embed, break)"),
    case("rules-unknown-anchor", Edit(ONE_MD, "\nPatrz [](#nowhere).\n", append=True),
         "games/demo/one.md:46:7: reference to unknown id 'nowhere' (expected: the {#id} of a numbered heading)"),
    case("rules-unknown-term", Edit(ONE_MD, "\nPatrz [](term:nowhere).\n", append=True),
         "games/demo/one.md:46:7: glossary term 'nowhere' referenced but not defined (expected: zoc, mp, fatigue)"),
    case("rules-duplicate-anchor", Edit(ONE_MD, "\n## Znowu {#intro}\n", append=True),
         "games/demo/one.md:46:10: heading id 'intro' used twice (first at games/demo/one.md:1:1)"),
    case("rules-embed-unknown", Edit(ONE_MD, "\n::: embed nowhere\n:::\n", append=True),
         "games/demo/one.md:46:1: embedded aid 'nowhere' does not exist (expected: bands, mods, move, ref, seq, sheet)"),
    case("rules-file-outside", replace(RULES, "files: [one.md, two.md]", "files: [one.md, two.md, ../../../etc/passwd]"),
         "games/demo/rules.yaml:7:25: Markdown file '../../../etc/passwd' leads outside the game folder (looked for ../etc/passwd)"),
    case("rules-file-missing", replace(RULES, "files: [one.md, two.md]", "files: [one.md, two.md, three.md]"),
         "games/demo/rules.yaml:7:25: Markdown file 'three.md' not found (looked for games/demo/three.md)"),
    case("rules-pages-no-goal", Edit(RULES, "pages: {min_type: 9pt}\n", append=True),
         "games/demo/rules.yaml:12:1: pages: declares no goal (expected: goal: 12, or multiple: 4)"),
    case("rules-pages-goal-zero", Edit(RULES, "pages: {goal: 0}\n", append=True),
         "games/demo/rules.yaml:12:15: goal '0' is not a whole number from 1 to 2000 (expected: goal: 12)"),
    case("rules-pages-min-type", Edit(RULES, "pages: {goal: 3, min_type: 12pt}\n", append=True),
         "games/demo/rules.yaml:12:28: min_type '12pt' is not a size in points from 5 to 10 (expected: min_type: 9pt)"),
    case("rules-ref-in-code-span", Edit(ONE_MD, "\nKod `{ref:nope}` zostaje tekstem.\n", append=True),
         "", exit=0, shows=("build/demo/pl/rules.html", "<code> {ref:nope}</code>", "nope</a>")),
    case("rules-box-never-closed", Edit(ONE_MD, "\n::: note\nDo końca pliku.\n", append=True),
         "games/demo/one.md:46:1: '::: note' is not closed (expected: a line ':::' where the block ends)"),
    # --- the card
    case("card-points-nan", replace(CARD, "points: 30\n", "points: .nan\n"),
         "games/demo/card.yaml:48:17: points 'nan' is not a number (expected: a number such as 30, -3, 2.5 or \"+30\")"),
    case("card-points-infinite", replace(CARD, "points: 30\n", "points: 1e400\n"),
         "games/demo/card.yaml:48:17: points 'inf' is not a number"),
    case("card-bell", replace(CARD, "text: Dowolny tekst.", 'text: "Dowolny\\a tekst."'),
         "games/demo/card.yaml:81:15: control character U+0007 in a text (expected: printable text)"),
    case("card-unknown-section-kind", replace(CARD, "kind: legend", "kind: legendd"),
         "games/demo/card.yaml:36:11: unknown section kind 'legendd' (expected: rules, steps, legend, scoring, ranking, ladder, text, table)"),
    case("card-unknown-size", replace(CARD, "size: A6", "size: A11"),
         "games/demo/card.yaml:5:7: unknown card size 'A11' (expected: A7, A6, A5, A4, poker, bridge, tarot"),
    case("card-missing-glyph", replace(CARD, "glyph: ★", "glyph: ⛭"),
         "games/demo/card.yaml:35:5: card 'ref', language pl, section 'die': no glyph for '⛭' (U+26ED) in the card fonts", args=["--format", "pdf", "--lang", "pl"]),
    # --- tables and the playsheet
    case("table-cell-nan", replace("games/demo/move.yaml", "cells: [32, 40]", "cells: [.nan, 40]"),
         "games/demo/move.yaml:10:45: non-numeric value 'nan' in numeric column 'normal'"),
    case("table-cell-infinite", replace("games/demo/move.yaml", "cells: [32, 40]", "cells: [32, 1e400]"),
         "games/demo/move.yaml:10:49: non-numeric value 'inf' in numeric column 'charge'"),
    case("table-cells-short", replace("games/demo/move.yaml", "cells: [32, 40]", "cells: [32]"),
         "games/demo/move.yaml:10:44: row 'cavalry' has 1 cells, the table has 2 columns (expected: 2 cells (normal, charge))"),
    case("table-unknown-unit", replace("games/demo/move.yaml", "unit: cm", "unit: furlong"),
         "games/demo/move.yaml:4:7: unknown unit 'furlong' (expected: mm, cm, in, move, speed, °)"),
    case("table-bands-overlap", replace("games/demo/bands.yaml", "range: 4-7", "range: 4-8"),
         "games/demo/bands.yaml:10:22: overlapping result bands: 4-8 and 8+ share 8 (expected: a band ending at 7)"),
    case("sheet-unknown-table", replace("games/demo/sheet.yaml", "table: bands", "table: nowhere"),
         "games/demo/sheet.yaml:8:12: reference to unknown table 'nowhere' (expected: bands, mods, move)"),
    case("sheet-long-word", replace("games/demo/sheet.yaml", "Zapisz rozkazy.", "Zapisz " + "r" * 30000 + "."),
         "warning: games/demo/sheet.yaml:12:28: a word of 30001 letters cannot fit a column: “rrrrrrrrrrrrrrrr",
         args=["--format", "pdf", "--lang", "pl"], exit=0, shows=("build/demo/pl/sheet.pdf", "%PDF", "")),
    # --- catalogs
    case("po-escaped-placeholder", replace(PO, 'msgid "Niebiescy kontrszarżują; rozstrzyga się to w '
                                               '{ref:red-combat/resolve}."\nmsgstr ""',
                                           'msgid "Niebiescy kontrszarżują; rozstrzyga się to w '
                                           '{ref:red-combat/resolve}."\nmsgstr "Blue counter-charge {ref\\\\:x}."'),
         "games/demo/sequence.yaml:26:19: [seq/red-move/move/charge] translation loses {ref:red-combat/resolve} "
         "and invents {ref:x}", exit=0, shows=("build/demo/en/seq.html", "rozstrzyga się to w", "counter-charge")),
    case("po-nul", replace(PO, 'msgstr "Preparation"', 'msgstr "Prep\x00aration"'),
         PO + ":44:13: malformed catalog: control character U+0000 (expected: printable text)"),
    case("po-esc", replace(PO, 'msgstr "Preparation"', 'msgstr "Prep\x1b[31maration"'),
         PO + ":44:13: malformed catalog: control character U+001B (expected: printable text)"),
    case("po-not-closed", replace(PO, 'msgstr "Preparation"', 'msgstr "Preparation'),
         PO + ":44:8: malformed catalog: string not closed (expected: one string in double quotes, e.g. msgstr \"...\")"),
    case("po-unknown-escape", replace(PO, 'msgstr "Preparation"', 'msgstr "Prep\\qaration"'),
         PO + ":44:8: malformed catalog: unknown escape sequence (expected: \\n, \\t, \\r, \\\" or \\\\)"),
    case("po-not-utf8", Edit(PO, b'\nmsgctxt "x"\nmsgid "Z\xb3y"\nmsgstr ""\n', append=True),
         PO + ":540:9: malformed catalog: not UTF-8 text (expected: a catalog in UTF-8)"),
    case("po-duplicate", Edit(PO, '\nmsgctxt "seq/prep"\nmsgid "Przygotowanie"\nmsgstr "Again"\n', append=True),
         PO + ":539: malformed catalog: duplicate message definition of 'Przygotowanie' (first defined on line 40) (expected: each msgctxt and msgid once)"),
    case("po-lost-placeholder", replace(PO, 'msgid "Salwa ({see:rule:12.4.4})."\nmsgstr ""',
                                        'msgid "Salwa ({see:rule:12.4.4})."\nmsgstr "Volley."'),
         "games/demo/sequence.yaml:31:23: [seq/red-move/move/charge/volley] translation loses {see:rule:12.4.4}",
         exit=0, shows=("build/demo/en/seq.html", "Salwa", "Volley")),
    case("po-markup", replace(PO, 'msgstr "Preparation"', 'msgstr "<script>alert(1)</script>"'),
         "", exit=0, shows=("build/demo/en/seq.html", "&lt;script&gt;alert(1)&lt;/script&gt;", "<script>alert")),
    # --- the command line
    case("cli-unknown-language", [], "command line: unknown language 'de' (expected: pl, en, ru)",
         args=["--lang", "de"]),
    case("cli-escape-in-language", [], "command line: unknown language '\\x1b[2J'", args=["--lang", "\x1b[2J"]),
    case("cli-unknown-game", [], "command line: unknown game 'nothing' (expected: demo)", args=["--game", "nothing"]),
    case("cli-unknown-edition", [], "command line: unknown edition 'inch'", args=["--edition", "inch"]),
    case("cli-unknown-format", [], "invalid choice: 'docx'", args=["--format", "docx"], exit=2),
]


def outputs(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): data for p, data in built_files(root / "build").items()}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = make_project(tmp_path_factory.mktemp("corpus") / "project", FILES)
    extract_update(root)
    translate(po_path(root / "i18n", "en", "demo"), {"seq/prep": "Preparation"})
    assert main(["--project", str(root), "build"]) == 0
    return root


@pytest.mark.unit
def test_the_corpus_is_large_enough():
    assert len(CASES) >= 60


@pytest.mark.parametrize("edits, args, exit, message, shows", CASES)
def test_bad_input(built, tmp_path, capsys, edits, args, exit, message, shows):
    root = tmp_path / "project"
    shutil.copytree(built, root)
    before = outputs(root)
    for edit in edits:
        edit.apply(root)
    try:
        status = main(["--project", str(root), "build", *(args or ["--format", "html"])])
    except SystemExit as stop:  # argparse's usage error
        status = stop.code
    out, err = capsys.readouterr()
    print(out, err)
    assert status == exit
    assert message in (err if exit else out + err)
    assert "Traceback" not in out + err
    assert not list(root.rglob("*.tmp")) and not (root / "build/.aids-staging").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["project"]  # nothing written outside the project
    if shows:
        name, holds, lacks = shows
        written = (root / name).read_bytes().decode("utf-8", "replace")
        assert holds in written and (not lacks or lacks not in written)
    else:
        assert outputs(root) == before
