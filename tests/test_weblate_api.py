"""What aids sends a Weblate and how (aids/commands/weblate.py, weblate_api.py), against a small Weblate of the
test's own (http.server on 127.0.0.1, the API's answers as Weblate 2026.10 gives them): budgets per language and
none on the source (`aids budgets --weblate`), a screenshot per string (`aids context --weblate`), and a server
that redirects, loops, trickles or answers garbage: the token goes to the address given and nowhere else, every
call ends, every problem is one line."""
from __future__ import annotations

import json
import re
import socket
import threading
import time
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from aids.commands import weblate_api
from aids.commands.cli import main
from aids.commands.weblate import flag_budgets, upload
from aids.commands.weblate_api import Weblate
from aids.errors import AidsError
from aids.localize import po
from aids.localize.catalogs import read_catalog

from .helpers import sample_project

TOKEN = "s3cret-token"
PAGE = 20  # units a page: the listings below take several


class Fake:
    """A Weblate's API in memory: units per component and language, screenshots, and every request seen with
    the token it carried. `mode` makes it hostile: `redirect` (every GET sent to `other`), `away` (a listing's
    next page on `other`), `loop` (a next page that is the same page), `endless` (next pages without end),
    `trickle` (the answer a byte at a time), `garbage` (not HTTP), `html` (not JSON), `no-results`, `no-context`
    (an answer without what the API always gives), `moved` (a redirect within its own address)."""

    def __init__(self) -> None:
        self.units: dict[tuple[str, str], list[dict[str, Any]]] = {}  # (component, lang) -> units
        self.shots: list[dict[str, Any]] = []
        self.images: dict[int, bytes] = {}  # screenshot id -> its image
        self.seen: list[tuple[str, str, str]] = []  # (method, path, Authorization)
        self.mode = ""
        self.other = ""  # the address of another host (its requests are in `seen` too, with "other:" before)
        self.url = ""

    def add(self, component: str, lang: str, context: str, source: str, target: str, flags: str = "") -> None:
        units = self.units.setdefault((component, lang), [])
        number = 1 + sum(len(u) for u in self.units.values())
        units.append({"id": number, "context": context, "source": [source], "target": [target],
                      "extra_flags": flags, "url": f"{self.url}/api/units/{number}/"})

    def unit(self, number: int) -> dict[str, Any]:
        return next(u for units in self.units.values() for u in units if u["id"] == number)

    def answer(self, handler: BaseHTTPRequestHandler, method: str, body: bytes) -> tuple[int, Any, dict[str, str]]:
        parts = urlsplit(handler.path)
        page = int(parse_qs(parts.query).get("page", ["1"])[0])
        if self.mode == "redirect":
            return 302, None, {"Location": f"{self.other}{handler.path}"}
        if self.mode == "moved" and method == "GET" and not parts.query:
            return 301, None, {"Location": f"{parts.path}?page=1"}
        found = re.fullmatch(r"/api/translations/[^/]+/([^/]+)/([^/]+)/units/", parts.path)
        if found:
            listed = self.units.get((found[1], found[2]), [])
            return 200, self.page(parts.path, listed, page), {}
        found = re.fullmatch(r"/api/units/(\d+)/", parts.path)
        if found and method == "PATCH":
            self.unit(int(found[1])).update(json.loads(body))
            return 200, self.unit(int(found[1])), {}
        if re.fullmatch(r"/api/components/[^/]+/[^/]+/screenshots/", parts.path):
            return 200, self.page(parts.path, self.shots, page), {}
        if parts.path == "/api/screenshots/" and method == "POST":
            fields = multipart(handler.headers["Content-Type"], body)
            shot = {"id": len(self.shots) + 1, "name": fields["name"], "units": []}
            self.shots.append(shot)
            self.images[shot["id"]] = fields["image"]
            return 201, shot, {}
        found = re.fullmatch(r"/api/screenshots/(\d+)/(file|units)/", parts.path)
        if found and method == "POST":
            shot = self.shots[int(found[1]) - 1]
            if found[2] == "file":
                self.images[shot["id"]] = multipart(handler.headers["Content-Type"], body)["image"]
            else:
                shot["units"].append(f"{self.url}/api/units/{json.loads(body)['unit_id']}/")
            return 200, shot, {}
        return 404, {"detail": "Not found."}, {}

    def page(self, path: str, items: list[dict[str, Any]], number: int) -> Any:
        if self.mode == "no-results":
            return {"count": len(items)}
        if self.mode == "no-context":
            return {"count": 1, "next": None, "previous": None, "results": [{"id": 1, "source": ["x"]}]}
        shown = items[(number - 1) * PAGE:number * PAGE]
        more = number * PAGE < len(items)
        if self.mode == "loop" and len(self.seen) < 300:  # (after 300 requests it ends: a test on the old code ends)
            more, number = True, number - 1
        if self.mode == "endless" and number < 3000:
            more = True
        if self.mode == "away":  # its second page on another host
            more, base = number == 1, self.other
        else:
            base = self.url
        return {"count": len(items), "next": f"{base}{path}?page={number + 1}" if more else None,
                "previous": None, "results": shown}


def multipart(content_type: str, body: bytes) -> dict[str, Any]:
    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    return {part.get_param("name", header="content-disposition"): part.get_payload(decode=True)
            if part.get_filename() else part.get_content() for part in message.iter_parts()}


def serve(fake: Fake, name: str = "") -> tuple[ThreadingHTTPServer, str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def handle_one(self, method: str) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            fake.seen.append((method, name + self.path, self.headers.get("Authorization") or ""))
            if name:  # the other host: an empty listing, whatever is asked
                return self.reply(200, {"count": 0, "next": None, "previous": None, "results": []}, {})
            if fake.mode == "trickle":
                return self.trickle()
            if fake.mode == "garbage":
                self.wfile.write(b"\x00\x01 no HTTP here\r\n\r\n")
                self.close_connection = True
                return None
            if fake.mode == "html":
                return self.reply(200, None, {}, b"<html><body>Weblate is down for maintenance</body></html>")
            return self.reply(*fake.answer(self, method, body))

        def reply(self, status: int, data: Any, headers: dict[str, str], raw: bytes | None = None) -> None:
            body = raw if raw is not None else b"" if data is None else json.dumps(data).encode()
            self.send_response(status)
            for key, value in {"Content-Type": "application/json", "Content-Length": str(len(body)), **headers}.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)

        def trickle(self) -> None:
            """A valid answer, a byte every 50 ms (about 10 s in all)."""
            body = json.dumps({"count": 0, "next": None, "previous": None, "results": []}).encode()
            data = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                    "X-Padding: " + "x" * 120 + "\r\n\r\n").encode() + body
            try:
                for byte in data:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:  # aids hung up: what a bounded call does
                pass
            self.close_connection = True

        def do_GET(self) -> None:
            self.handle_one("GET")

        def do_POST(self) -> None:
            self.handle_one("POST")

        def do_PATCH(self) -> None:
            self.handle_one("PATCH")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture
def fake():
    found = Fake()
    server, found.url = serve(found)
    other, found.other = serve(found, "other:")
    yield found
    for each in (server, other):
        each.shutdown()
        each.server_close()


def samples(tmp_path):
    return sample_project(tmp_path / "samples")


def max_length(flags: str) -> int | None:
    found = re.search(r"(?:^|,)\s*max-length:(\d+)", flags or "")
    return int(found[1]) if found else None


def test_budgets_are_each_languages_own_and_none_is_on_the_source(tmp_path, fake, monkeypatch, capsys):
    """Lwów 1920's referee card: the English may grow by 15 %, the Russian not at all. Each language's strings get
    their own language's budget, the Polish source strings none (one an earlier aids put there goes): on day one,
    no translation is over its budget and no source string is checked against one."""
    root = samples(tmp_path)
    translated = {lang: {po.key(e): po.strings(e)[0] for e in po.entries(read_catalog(
        root / f"i18n/{lang}/LC_MESSAGES/lwow-1920.po", lang))} for lang in ("en", "ru")}
    for context, msgid in translated["en"]:
        flags = "ignore-same, max-length:7" if context == "referee-card/air-movement/one-per-field" else ""
        fake.add("lwow-1920", "pl", context, msgid, msgid, flags)  # the source strings
        for lang in ("en", "ru"):
            fake.add("lwow-1920", lang, context, msgid, translated[lang][(context, msgid)])
    monkeypatch.setenv("WEBLATE_TOKEN", TOKEN)
    assert main(["--project", str(root), "budgets", "--game", "lwow-1920", "--weblate", fake.url,
                 "--weblate-project", "samples"]) == 0
    out = capsys.readouterr().out
    budgets = {lang: {m[2]: int(m[1]) for m in re.finditer(r'^# aids: budget (\d+) characters \(referee-card\)\n'
                                                           r'(?:#.*\n)*msgctxt "(.*)"$',
                                                           (root / f"i18n/{lang}/LC_MESSAGES/lwow-1920.po")
                                                           .read_text(encoding="utf-8"), re.M)}
               for lang in ("en", "ru")}
    assert len(budgets["en"]) == len(budgets["ru"]) >= 90 and budgets["en"] != budgets["ru"]
    source = {u["context"]: u for u in fake.units[("lwow-1920", "pl")]}
    over = {}
    for lang in ("en", "ru"):
        for unit in fake.units[("lwow-1920", lang)]:
            # what Weblate's check holds a translation to: its own flag, else its source string's
            limit = max_length(unit["extra_flags"]) or max_length(source[unit["context"]]["extra_flags"])
            if limit is not None and len(unit["target"][0]) > limit:
                over.setdefault(lang, []).append(unit["context"])
    flagged = [c for c, u in source.items() if max_length(u["extra_flags"]) is not None]
    assert not over and not flagged, (f"translations over their max-length: "
                                      f"{({lang: len(found) for lang, found in over.items()})}; "
                                      f"source strings with a max-length flag: {len(flagged)}")
    for lang in ("en", "ru"):
        for unit in fake.units[("lwow-1920", lang)]:
            assert max_length(unit["extra_flags"]) == budgets[lang].get(unit["context"]), (lang, unit)
    assert source["referee-card/air-movement/one-per-field"]["extra_flags"] == "ignore-same"  # the others kept
    assert all(token == f"Token {TOKEN}" for *_, token in fake.seen)
    assert (f"{fake.url}/projects/samples/lwow-1920/: max-length on {len(budgets['en'])} string(s) in en, "
            f"{len(budgets['ru'])} string(s) in ru") in out, out


def shot_entries(tmp_path) -> dict[str, dict[str, str]]:
    """index.json of `aids context` for a section of three paragraphs and a heading: a picture for each."""
    entries = {}
    for n, (context, msgid) in enumerate([("rules/a", "Heading"), ("rules/a/p", "First paragraph."),
                                          ("rules/a/p", "Second paragraph."), ("rules/a/p", "Third paragraph.")]):
        image = tmp_path / f"{n}.png"
        image.write_bytes(b"\x89PNG picture %d" % n)
        entries[context if n == 0 else f"{context}@{n}"] = {"image": image.name, "msgctxt": context, "msgid": msgid,
                                                            "aid": "rules", "page": "rules.html#a"}
    return entries


def test_each_string_is_tied_to_its_own_screenshot_and_a_second_upload_replaces_them(tmp_path, fake):
    entries = shot_entries(tmp_path)
    for entry in entries.values():
        fake.add("demo", "pl", entry["msgctxt"], entry["msgid"], entry["msgid"])
    weblate = Weblate(fake.url, TOKEN)
    assert upload(weblate, "p", "demo", "pl", tmp_path, entries) == 4
    units = {(u["context"], u["source"][0]): u["id"] for u in fake.units[("demo", "pl")]}
    tied = {shot["name"]: shot["units"] for shot in fake.shots}
    assert tied == {name: [f"{fake.url}/api/units/{units[(e['msgctxt'], e['msgid'])]}/"]
                    for name, e in entries.items()}
    (tmp_path / "1.png").write_bytes(b"\x89PNG a new picture")
    assert upload(weblate, "p", "demo", "pl", tmp_path, entries) == 4
    assert len(fake.shots) == 4 and fake.images[2] == b"\x89PNG a new picture"
    assert {shot["name"]: shot["units"] for shot in fake.shots} == tied


def budgets_sent(fake: Fake, url: str | None = None) -> Any:
    """What `aids budgets --weblate` sends, as one call of aids' own."""
    return flag_budgets(Weblate(url or fake.url, TOKEN), "p", "demo", "pl", {"en": {("a", "A"): 10}})


@pytest.mark.parametrize("mode", ["redirect", "away"])
def test_the_token_goes_to_the_weblate_given_and_nowhere_else(fake, mode):
    """A redirect to another host, a next page on another host: refused, in one line, before anything is sent
    there."""
    fake.add("demo", "pl", "a", "A", "A")
    fake.mode = mode
    try:
        budgets_sent(fake)
        message = ""
    except AidsError as exc:
        message = str(exc)
    assert [seen for seen in fake.seen if seen[1].startswith("other:")] == []
    assert "\n" not in message and "not followed (the token goes to http://127.0.0.1:" in message, message
    assert fake.other in message and TOKEN not in message


def test_a_redirect_within_the_weblate_is_followed(fake):
    fake.add("demo", "pl", "a", "A", "A")
    fake.add("demo", "en", "a", "A", "Ay")
    fake.mode = "moved"
    assert budgets_sent(fake) == {"en": 1}
    assert fake.units[("demo", "en")][0]["extra_flags"] == "max-length:10"


@pytest.mark.parametrize("mode, said", [
    ("loop", "the listing's 'next' comes back to a page already read (a loop): stopped"),
    ("endless", "more than 50 pages: stopped"),
    ("garbage", "not an HTTP answer"),
    ("html", "the answer is not JSON (HTTP 200, 57 bytes)"),
    ("no-results", "not a page of Weblate's API (no list of 'results')"),
    ("no-context", "an item of 'results' has no 'context' of the kind Weblate gives"),
])
def test_an_answer_that_is_not_weblates_is_one_line(fake, monkeypatch, mode, said):
    monkeypatch.setattr(weblate_api, "PAGES", 50, raising=False)
    fake.add("demo", "pl", "a", "A", "A")
    fake.mode = mode
    with pytest.raises(AidsError) as raised:
        try:
            budgets_sent(fake)
        finally:
            assert len(fake.seen) <= 51, f"{len(fake.seen)} requests"
    message = str(raised.value)
    assert message.startswith(f"--weblate: GET {fake.url}/api/translations/p/demo/pl/units/") and said in message
    assert "\n" not in message, message


def test_a_weblate_that_trickles_is_given_up_on(fake, monkeypatch):
    """A byte every 50 ms keeps each read of the socket under any timeout: the call as a whole is bounded."""
    monkeypatch.setattr(weblate_api, "SECONDS", 1.0, raising=False)
    fake.mode = "trickle"
    with pytest.raises(AidsError) as raised:
        budgets_sent(fake)
    assert str(raised.value) == (f"--weblate: GET {fake.url}/api/translations/p/demo/pl/units/: no complete answer "
                                 "in 1 s (expected: the address of a Weblate (its API at <address>/api/))")


def test_a_weblate_that_cannot_be_reached_is_one_line(fake):
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    with pytest.raises(AidsError) as raised:
        budgets_sent(fake, f"http://127.0.0.1:{port}")
    assert str(raised.value).startswith(f"--weblate: cannot reach http://127.0.0.1:{port}: ")
