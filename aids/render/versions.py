"""The versions of what renders besides aids' own files: every library aids runs on (what it requires, and what
those require, as installed) and the system's text layout libraries WeasyPrint calls (Pango, HarfBuzz). A new
version of any may change a byte of an output, so each is part of every output's digest (pipeline/fingerprint.py)
and of a laid-out part's (parts.py)."""
from __future__ import annotations

import ctypes
import ctypes.util
import functools
import re
from importlib import metadata

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
# a system library: its name for the loader, and the function that says its version
SYSTEM = (("pango-1.0", "pango_version_string"), ("harfbuzz", "hb_version_string"))


def canonical(name: str) -> str:
    """A distribution's name as PyPI compares them (PEP 503): `Jinja2`, `ruamel.yaml` -> `jinja2`, `ruamel-yaml`."""
    return re.sub(r"[-_.]+", "-", name).lower()


@functools.lru_cache(maxsize=1)
def libraries(root: str = "aids") -> tuple[tuple[str, str], ...]:
    """(name, version) of `root` and every distribution it requires, and they in turn, as installed (an extra's
    requirements aside; a requirement not installed, such as one for another Python, as version "")."""
    found: dict[str, str] = {}
    todo = [root]
    while todo:
        name = canonical(todo.pop())
        if name in found:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            found[name] = ""
            continue
        found[name] = dist.version
        todo += [m.group(0) for req in dist.requires or () if "extra ==" not in req and (m := NAME.match(req))]
    return tuple(sorted(found.items()))


@functools.lru_cache(maxsize=1)
def system() -> tuple[tuple[str, str], ...]:
    """(name, version) of Pango and HarfBuzz as the loader finds them ("" where it finds none), without importing
    WeasyPrint (a build with nothing to do renders nothing)."""
    found = []
    for name, function in SYSTEM:
        version = ""
        path = ctypes.util.find_library(name)
        if path:
            try:
                call = getattr(ctypes.CDLL(path), function)
                call.restype = ctypes.c_char_p
                version = call().decode()
            except (OSError, AttributeError):
                version = ""
        found.append((name, version))
    return tuple(found)
