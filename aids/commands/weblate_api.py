"""Weblate's REST API as `aids budgets --weblate` and `aids context --weblate` call it: the token goes to the
address given (its scheme, host and port) and nowhere else, every call is bounded in time and size and every
listing in pages, and an answer that is not the API's is one line, never a traceback.

http.client, not urllib: urllib follows a redirect to any host with the Authorization header still on the
request, and its timeout bounds each read of the socket, not a call, so a server that sends a byte a second
holds it for ever; here each read gets what is left of the call's time.
"""
from __future__ import annotations

import http.client
import io
import json
import os
import secrets
import socket
import time
from typing import Any
from urllib.parse import urljoin, urlsplit

from ..errors import AidsError, Position, Problem

TOKEN = "WEBLATE_TOKEN"
WHERE = Position("--weblate")
SECONDS = 60.0  # a whole call: connecting, sending, the answer's headers and body
LARGEST = 32 << 20  # bytes of one answer (a page of 50 units is about 100 kB)
PAGES = 2000  # pages of one listing: 100,000 strings at Weblate's 50 a page
REDIRECTS = 5  # within the Weblate's own address (a slash added, a path moved)
API = "the address of a Weblate (its API at <address>/api/)"


class Weblate:
    """A Weblate's REST API: token authentication, JSON, multipart for images."""

    def __init__(self, url: str, token: str | None = None):
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise AidsError(Problem(WHERE, f"not a web address: '{url}'", "https://weblate.example.org"))
        self.url = url.rstrip("/")
        self.origin = _origin(url)
        self.token = token if token is not None else os.environ.get(TOKEN, "")
        if not self.token:
            raise AidsError(Problem(WHERE, f"no API token in {TOKEN}", f"export {TOKEN}=<your Weblate API key>"))

    def call(self, method: str, path: str, data: Any = None, files: dict[str, tuple[str, bytes]] | None = None) -> Any:
        """The JSON answer of one call (`path` under <url>/api/, or an address the API gave); the token is sent
        only to the Weblate's own address, and a redirect elsewhere is refused."""
        url = path if "://" in path else f"{self.url}/api/{path}"
        headers = {"Authorization": f"Token {self.token}", "Accept": "application/json"}
        body = None
        if files is not None:
            boundary = secrets.token_hex(16)
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
            body = _multipart(boundary, data or {}, files)
        elif data is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(data).encode()
        deadline = time.monotonic() + SECONDS
        for _ in range(REDIRECTS + 1):
            self._ours(method, url)
            status, location, answer = _exchange(method, url, headers, body, deadline)
            if status not in (301, 302, 303, 307, 308) or not location:
                return self._json(method, url, status, answer)
            target = urljoin(url, location)
            self._ours(method, url, f"redirected (HTTP {status}) to {target}, ")
            if method not in ("GET", "HEAD") and status not in (307, 308):
                raise AidsError(Problem(WHERE, f"{method} {url}: redirected (HTTP {status}) to {target}: not "
                                        "followed (it would lose the request's body)", API))
            url = target
        raise AidsError(Problem(WHERE, f"{method} {url}: more than {REDIRECTS} redirects", API))

    def pages(self, path: str, **fields: type | tuple[type, ...]) -> list[dict[str, Any]]:
        """Every item of a listing, page after page (`next`), each a JSON object with these `fields` (name ->
        type); at most PAGES pages, and a `next` that comes back to a page already read is refused."""
        found: list[dict[str, Any]] = []
        first = url = path if "://" in path else f"{self.url}/api/{path}"
        seen: set[str] = set()
        while url:
            if not isinstance(url, str):
                raise AidsError(Problem(WHERE, f"GET {first}: a 'next' that is not an address", API))
            absolute = url if "://" in url else f"{self.url}/api/{url}"
            if absolute in seen:
                raise AidsError(Problem(WHERE, f"GET {absolute}: the listing's 'next' comes back to a page already "
                                        "read (a loop): stopped", API))
            if len(seen) == PAGES:
                raise AidsError(Problem(WHERE, f"GET {first}: more than {PAGES} pages: stopped", API))
            seen.add(absolute)
            page = self.call("GET", absolute)
            results = page.get("results") if isinstance(page, dict) else None
            if not isinstance(results, list):
                raise AidsError(Problem(WHERE, f"GET {absolute}: not a page of Weblate's API (no list of "
                                        "'results')", API))
            found += [_checked(item, absolute, fields) for item in results]
            url = page.get("next")
        return found

    def _ours(self, method: str, url: str, how: str = "") -> None:
        """Refuse an address that is not the Weblate's own (another scheme, host or port), before the token goes
        there."""
        if _origin(url) != self.origin:
            raise AidsError(Problem(WHERE, f"{method} {url}: {how}not the address of --weblate ({self.origin}): "
                                    f"not followed (the token goes to {self.origin} only)",
                                    "a Weblate that names its own address in its answers (SITE_DOMAIN and "
                                    "ENABLE_HTTPS of its settings), or --weblate at the address it names"))

    @staticmethod
    def _json(method: str, url: str, status: int, answer: bytes) -> Any:
        if status >= 400 or status < 200:
            detail = answer.decode("utf-8", "replace")[:300]
            raise AidsError(Problem(WHERE, f"{method} {url}: HTTP {status} {' '.join(detail.split())}".rstrip(),
                                    "a Weblate project and components named as in docs/translating/weblate.md"))
        if not answer.strip():
            return None
        try:
            return json.loads(answer)
        except (UnicodeDecodeError, ValueError):
            raise AidsError(Problem(WHERE, f"{method} {url}: the answer is not JSON (HTTP {status}, "
                                    f"{len(answer)} bytes)", API)) from None


def _origin(url: str) -> str:
    parts = urlsplit(url)
    try:
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme, 0)
    except ValueError:  # a port that is not a number
        port = -1
    return f"{parts.scheme.lower()}://{(parts.hostname or '').lower()}:{port}"


def _checked(item: Any, url: str, fields: dict[str, type | tuple[type, ...]]) -> dict[str, Any]:
    """`item` when it is a JSON object with each of `fields` of its type; else one line saying what is wrong."""
    if not isinstance(item, dict):
        raise AidsError(Problem(WHERE, f"GET {url}: an item of 'results' is not an object", API))
    for name, kind in fields.items():
        if not isinstance(item.get(name), kind) or isinstance(item.get(name), bool):
            raise AidsError(Problem(WHERE, f"GET {url}: an item of 'results' has no '{name}' of the kind Weblate "
                                    "gives", API))
    return item


class _Bounded(io.RawIOBase):
    """The socket of one call, each read given what is left of the call's time: a trickle is cut off. It holds
    the socket's own file (`held`) until it is closed, as http.client's response does: the connection closes
    its socket when the answer says `Connection: close`, and the socket stays open while a file of it is."""

    def __init__(self, sock: socket.socket, deadline: float, held: Any):
        super().__init__()
        self.sock, self.deadline, self.held = sock, deadline, held

    def close(self) -> None:
        self.held.close()
        super().close()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        self.sock.settimeout(left)
        return self.sock.recv_into(buffer)


class _Response(http.client.HTTPResponse):
    def __init__(self, sock: socket.socket, *args: Any, deadline: float, **kwargs: Any):
        super().__init__(sock, *args, **kwargs)
        self.fp = io.BufferedReader(_Bounded(sock, deadline, self.fp))  # read through _Bounded


def _exchange(method: str, url: str, headers: dict[str, str], body: bytes | None,
              deadline: float) -> tuple[int, str, bytes]:
    """(status, Location, body) of one request, all of it within `deadline`."""
    parts = urlsplit(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    left = deadline - time.monotonic()
    shown = f"{parts.scheme}://{parts.netloc}"
    try:
        connection = kind(parts.hostname or "", parts.port, timeout=max(left, 0.001))
        connection.response_class = lambda sock, **kw: _Response(sock, deadline=deadline, **kw)  # type: ignore
        try:
            connection.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), body, headers)
            response = connection.getresponse()
            answer = response.read(LARGEST + 1)
        finally:
            connection.close()
    except TimeoutError:
        raise AidsError(Problem(WHERE, f"{method} {url}: no complete answer in {SECONDS:g} s", API)) from None
    except http.client.HTTPException as exc:
        raise AidsError(Problem(WHERE, f"{method} {url}: not an HTTP answer ({type(exc).__name__})", API)) from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise AidsError(Problem(WHERE, f"cannot reach {shown}: {reason}", API)) from None
    if len(answer) > LARGEST:
        raise AidsError(Problem(WHERE, f"{method} {url}: an answer of more than {LARGEST >> 20} MB", API))
    return response.status, response.getheader("Location") or "", answer


def _multipart(boundary: str, fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> bytes:
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields.items()]
    parts += [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
              f"Content-Type: image/png\r\n\r\n".encode() + data + b"\r\n" for name, (filename, data) in files.items()]
    return b"".join(parts) + f"--{boundary}--\r\n".encode()
