"""`aids context`: a picture of where each text prints, for translators (issue: context a translator can see).

Each aid of each chosen game is rendered as its HTML page in each chosen language with every text marked by its
msgctxt and msgid (`Localizer.context`). A headless Chromium (Debian's chromium and chromium-driver, driven by
Selenium) opens the page and, for each string (a msgctxt and msgid: a booklet's paragraphs share their section's
msgctxt, each is a string of its own), goes to where it prints (its own place, not its entry in the contents or a
reference to it): scrolled to it, the text outlined, the view around it saved as
`build/context/<game>/<lang>/<name>.png`, the name being the msgctxt, or the msgctxt and a digest of the msgid
where several strings share it (`names`); a `/` becomes a folder. `index.json` beside them maps each name to its
picture, its msgctxt and msgid, its aid and its place in the aid's published page (`<aid>.html#<anchor>`), what
an upload to Weblate (screenshots tied to their strings) reads.

Nothing is fetched: the page is written to the output folder first and opened from there, its styles inline.
"""
from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from ..config import Game, Project
from ..errors import AidsError, Position, Problem
from ..folder import Folder
from ..kind import Aid
from ..kinds.reading import game_texts, read_aids, select_game_ids
from ..localize import making
from ..model.text import Text
from ..pipeline import pipeline
from ..releases import rulings
from ..translating.translators import shown_texts

FOLDER = "context"
VIEW = (1000, 1200)  # the browser's window, CSS pixels
MARGIN = (60, 140)  # around the text, horizontally and vertically, in CSS pixels
WIDEST = 820  # a picture is at most this wide (at least the text's own width)
OUTLINE = "#e4007c"  # the outline drawn around the text: a magenta no page of aids uses
INSTALL = ("aids context needs Selenium and Chromium with its driver: pip install 'aids[context]' and, on Debian or "
           "Ubuntu, apt-get install chromium chromium-driver")

# Each string (msgctxt and msgid: the paragraphs of a section share a msgctxt) where it prints: of the places it
# shows, the first not inside a link or a navigation (a heading's entry in the contents, a reference to it), where
# there is one. Each chosen element is numbered for SHOW.
FIND = """
const chosen = new Map(), repeated = el => el.closest('nav, a');
for (const el of document.querySelectorAll('[data-msgctxt]')) {
  const box = el.getBoundingClientRect();
  if (!box.width || !box.height) continue;
  const key = JSON.stringify([el.dataset.msgctxt, el.dataset.msgid || '']), there = chosen.get(key);
  if (!there || (repeated(there) && !repeated(el))) chosen.set(key, el);
}
const found = [];
for (const [key, el] of chosen) {
  el.setAttribute('data-aids-pick', String(found.length));
  found.push(JSON.parse(key));
}
return found;
"""
# Where a text is on the page: the element with an id around it (a heading, a step), else the last heading with an
# id before it (a paragraph of that section).
ANCHOR = """
function anchorOf(el) {
  const around = el.closest('[id]:not(script)');
  if (around) return around.id;
  let found = '';
  for (const h of document.querySelectorAll('h1[id], h2[id], h3[id], h4[id], h5[id], h6[id]')) {
    if (!(h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
    found = h.id;
  }
  return found;
}
"""
SHOW = ANCHOR + """
const el = document.querySelector('[data-aids-pick="' + arguments[0] + '"]'), outline = arguments[1];
if (!el) return null;
for (const old of document.querySelectorAll('[data-aids-shown]')) {
  old.style.outline = ''; old.removeAttribute('data-aids-shown');
}
el.scrollIntoView({block: 'center', inline: 'nearest'});
el.setAttribute('data-aids-shown', '');
el.style.outline = '3px solid ' + outline;
el.style.outlineOffset = '2px';
const at = el.getBoundingClientRect();
return {x: at.left, y: at.top, width: at.width, height: at.height, scale: window.devicePixelRatio,
        anchor: anchorOf(el)};
"""

FIND_TEXT = ANCHOR + """
const needle = arguments[0].toLowerCase(), outline = arguments[1];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const at = node.data.replace(/\\u00a0/g, ' ').toLowerCase().indexOf(needle);
  if (at < 0) continue;
  const range = document.createRange();
  range.setStart(node, at); range.setEnd(node, at + needle.length);
  if (!range.getBoundingClientRect().width) continue;
  node.parentElement.scrollIntoView({block: 'center', inline: 'nearest'});
  const box = range.getBoundingClientRect(), mark = document.createElement('div');
  mark.setAttribute('data-aids-shown', '');
  Object.assign(mark.style, {position: 'fixed', left: (box.left - 3) + 'px', top: (box.top - 3) + 'px',
    width: (box.width + 6) + 'px', height: (box.height + 6) + 'px', border: '3px solid ' + outline,
    boxSizing: 'border-box', pointerEvents: 'none', zIndex: 2147483647});
  document.body.appendChild(mark);
  return {x: box.left, y: box.top, width: box.width, height: box.height, scale: window.devicePixelRatio,
          anchor: anchorOf(node.parentElement)};
}
return null;
"""
CLEAR = "for (const e of document.querySelectorAll('div[data-aids-shown]')) e.remove();"


Key = tuple[str, str]  # a string: its msgctxt and msgid


@dataclass
class Pictures:
    """What `aids context` made: (game, lang) -> {a string's name: its entry of index.json}."""
    made: dict[tuple[str, str], dict[str, dict[str, str]]] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return sum(len(entries) for entries in self.made.values())


def context(project: Project, games: list[str] | None, langs: list[str] | None) -> Pictures:
    """A picture of every text of the chosen games' aids in the chosen languages (default: each game's source
    language, what a translator reads), under build/context/."""
    langs = pipeline.chosen_languages(project, langs) if langs else None
    pictures = Pictures()
    output = Folder(project.output, project.show(project.output))
    with browser() as driver:
        for game_id in select_game_ids(project, games):
            game = project.read_game(game_id)
            aids, errors = read_aids(project, game)
            if errors:
                raise AidsError([p for e in errors for p in e.problems])
            for lang in langs or [game.source_language]:
                output.remove(PurePosixPath(FOLDER, game.id, lang))  # last run's pictures: none left stale
                entries = _language(project, game, aids, lang, output / FOLDER / game.id / lang, driver)
                pictures.made[(game.id, lang)] = entries
    return pictures


def _language(project: Project, game: Game, aids: list[Aid], lang: str, folder: Folder,
              driver: Any) -> dict[str, dict[str, str]]:
    """The pictures of one game in one language, written to `folder` with their index.json."""
    lz = making.localizer(project, game, lang)
    lz.context = True
    entries: dict[str, dict[str, str]] = {}
    named = names(game_texts(game, aids))
    review = rulings.checked(project, game, aids) if game.rulings else None  # the game's rulings, on its pages too
    for aid in (aid for aid in aids if aid.kind.standalone):  # a part (a table): in the pages embedding it
        found = rulings.page_rulings(game, aid, aids, review, lz) if review is not None else None
        doc = pipeline.document(game, aid, lz, game.editions[0] if game.editions else None, rulings=found)
        name = f"{aid.model.id}.html"
        folder.write(name, pipeline.render(doc, ["html"])[".html"].data)
        others = {(t.context, t.msgid): plain(lz.shown(t)) for t in shown_texts(game, aid)}
        for key, picture, anchor in _pictures(driver, folder.path / name, others):
            shown = named.get(key) or _name(*key, True)
            if shown in entries:
                continue
            *folders, last = shown.split("/")
            image = PurePosixPath(*folders, f"{last}.png")
            folder.write(image, picture)
            entries[shown] = {"image": image.as_posix(), "aid": aid.model.id, "msgctxt": key[0], "msgid": key[1],
                              "page": f"{aid.model.id}.html" + (f"#{anchor}" if anchor else "")}
        folder.remove(name)
    folder.write("index.json", json.dumps(entries, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8")
                 + b"\n")
    return entries


def names(texts: Iterable[Text]) -> dict[Key, str]:
    """Each string's name, for its picture and its screenshot in Weblate: its msgctxt, or where several strings
    share one (the paragraphs of a section) its msgctxt and a digest of its msgid, `rules/3.2@1f0c9a4e2b`."""
    keys = list(dict.fromkeys((t.context, t.msgid) for t in texts))
    shared = Counter(context for context, _ in keys)
    return {key: _name(*key, shared[key[0]] > 1) for key in keys}


def _name(context: str, msgid: str, shared: bool) -> str:
    return f"{context}@{hashlib.sha256(msgid.encode('utf-8')).hexdigest()[:10]}" if shared else context


def plain(text: str) -> str:
    """A text as a page shows it, near enough to be found there: its inline Markdown marks dropped; nothing for
    a text with placeholders (what they print is not in it)."""
    return "" if "{" in text else re.sub(r"[*_`\\]", "", " ".join(text.split()))


def _pictures(driver: Any, page: Any, others: dict[Key, str]) -> Iterator[tuple[Key, bytes, str]]:
    """(string, PNG, anchor) for every string marked on `page`, where it prints (FIND); then for each string of
    `others` (-> its printed text) not marked there, where its words first print: a side's name inside a lead-in
    or a timing, which the package's own words hold."""
    driver.get(page.as_uri())
    marked = [(str(context), str(msgid)) for context, msgid in driver.execute_script(FIND)]
    for n, key in enumerate(marked):
        yield from _picture(driver, key, driver.execute_script(SHOW, n, OUTLINE))
    for key, text in others.items():
        if key not in marked and text:
            yield from _picture(driver, key, driver.execute_script(FIND_TEXT, text, OUTLINE))
            driver.execute_script(CLEAR)


def _picture(driver: Any, key: Key, shown: dict[str, Any] | None) -> Iterator[tuple[Key, bytes, str]]:
    from PIL import Image  # pip install 'aids[context]' (ReportLab depends on it too)

    if shown is not None:
        view = Image.open(io.BytesIO(driver.get_screenshot_as_png()))
        scale = shown["scale"] or 1
        width = min(max(shown["width"] + 2 * MARGIN[0], WIDEST), view.width / scale)
        middle = shown["x"] + shown["width"] / 2
        left = max(0.0, min(middle - width / 2, view.width / scale - width))
        top = max(0.0, shown["y"] - MARGIN[1])
        bottom = min(view.height / scale, shown["y"] + shown["height"] + MARGIN[1])
        crop = view.crop((round(left * scale), round(top * scale), round((left + width) * scale),
                          round(bottom * scale)))
        out = io.BytesIO()
        crop.save(out, "PNG", optimize=True)
        yield key, out.getvalue(), shown["anchor"]


@contextmanager
def browser() -> Iterator[Any]:
    """A headless Chromium for the pictures, reaching nothing but the files it is given."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver") or shutil.which("chromium.chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        raise AidsError(Problem(Position("command line"), "Selenium is not installed", INSTALL)) from None
    if not chromium or not driver_path:
        raise AidsError(Problem(Position("command line"), "Chromium or its driver is not installed", INSTALL))
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-default-apps", "--disable-extensions", "--no-first-run", "--no-proxy-server",
                     "--hide-scrollbars", "--force-device-scale-factor=1", f"--window-size={VIEW[0]},{VIEW[1]}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()
