"""A real Weblate translating a sample game's catalogs (issue 32, item 1): no mock anywhere.

The module's fixture starts PostgreSQL (a private cluster), Redis, `git http-backend` serving the game project's
repository, and Weblate itself (`./bootstrap test` installs it, pinned, into .cache/weblate/venv); then, through
Weblate's REST API, a project with a component per catalog domain. Translators' edits are made through the API,
Weblate commits and pushes, and the project pulls, runs `aids update` and builds: every edit is in the PDF, nothing
else changed, and aids rewrites nothing Weblate wrote. A source text edited and pushed shows in Weblate as a
changed string with its previous text. docs/translating/weblate.md describes the same set-up for people.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest

from aids.commands.weblate import Weblate, components
from aids.commands.weblate_setup import apply
from aids.config import read_project
from aids.localize import po, ui
from aids.localize.catalogs import read_catalog
from aids.pipeline import builder
from aids.pipeline.pipeline import Options

from ..helpers import REPO, pdf_text

pytestmark = pytest.mark.weblate

# ./bootstrap test's; AIDS_WEBLATE_VENV: another Weblate (another version) to run the test against
VENV = Path(os.environ.get("AIDS_WEBLATE_VENV") or REPO / ".cache" / "weblate" / "venv")
WEBLATE = VENV / "bin" / "weblate"
CONTRIB = REPO / "contrib" / "weblate"  # aids_gnu_layout.py: the add-on that commits GNU's layout
PG_BIN = Path("/usr/lib/postgresql/15/bin")
GAME = "valmora-1809"
CARD_GAME = "lwow-1920"  # its referee card has budgets
GAMES = (GAME, CARD_GAME, "gcacw")  # gcacw: proper names kept as in the original, with `# aids: ignore identical`
PROJECT = "aids-samples"
# Weblate's form of the fields it rewrites in a PO file's header (besides Plural-Forms, which it also rewraps)
HEADER_FIELDS = ("PO-Revision-Date", "Last-Translator", "Language-Team", "X-Generator", "Plural-Forms")

# The translators' edits, made through the API
NEW = ("ru", f"{GAME}", "turn-sequence/movement/forage", "Каждая сторона один раз добывает фураж.")
UNFUZZIED = ("pl", f"{GAME}", "turn-sequence/movement/rally",
             "Każda strona porządkuje jedną rozbitą jednostkę, która nie jest w styczności.")
PLURAL = ("ru", "aids", "steps of this phase after 'Repeat'; %(steps)s lists their numbers",
          ["пункт %(steps)s", "пункты %(steps)s", "пункты %(steps)s"])
COMMENT = "Фураж: провиант и корм для лошадей."

if not WEBLATE.exists() or not (PG_BIN / "initdb").exists() or not shutil.which("redis-server"):
    if os.environ.get("CI"):
        raise RuntimeError("the Weblate system test needs `./bootstrap test` (Weblate in .cache/weblate/venv, "
                           "postgresql, redis-server)")
    pytest.skip("no Weblate in .cache/weblate/venv, PostgreSQL or redis-server: run ./bootstrap test",
                allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(*args, cwd=None, env=None, user=None) -> str:
    command = [str(a) for a in args]
    if user:
        command = ["runuser", "-u", user, "--", *command]
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def git(root: Path, *args) -> str:
    return run("git", "-c", "user.name=Game Author", "-c", "user.email=author@example.org", *args, cwd=root)


def aids(root: Path, *args) -> str:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return run(sys.executable, "-m", "aids", "--project", root, *args, env=env)


def wait_for(what: str, ready, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if ready():
            return
        time.sleep(0.2)
    raise AssertionError(f"{what} did not start in {seconds} s")


def answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=5)
        return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


class Api:
    """Weblate's REST API as a translator's client uses it: token authentication, JSON."""

    def __init__(self, base: str, token: str):
        self.base, self.token = base, token

    def __call__(self, method: str, path: str, data=None):
        url = path if path.startswith("http") else f"{self.base}/api/{path}"
        request = urllib.request.Request(url, method=method, data=None if data is None else json.dumps(data).encode(),
                                         headers={"Authorization": f"Token {self.token}",
                                                  "Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=300) as response:
                body = response.read()
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{method} {url}: {error.code} {error.read().decode()[:2000]}") from None
        return json.loads(body) if body else None

    def units(self, component: str, lang: str) -> dict[str, dict]:
        """The units of one translation by msgctxt."""
        return {u["context"]: u for u in self.search(component, lang)}

    def search(self, component: str, lang: str, query: str = "") -> list[dict]:
        """The units of one translation a search of Weblate's finds (all of them without one)."""
        found, url = [], f"translations/{PROJECT}/{component}/{lang}/units/" + (f"?q={quote(query)}" if query else "")
        while url:
            page = self("GET", url)
            found += page["results"]
            url = page["next"]
        return found

    def repository(self, component: str, operation: str) -> None:
        start = time.monotonic()
        result = self("POST", f"components/{PROJECT}/{component}/repository/", {"operation": operation})
        assert result["result"], f"{operation}: {result}"
        print(f"Weblate {operation} of {component}: {time.monotonic() - start:.1f} s")  # shown with -s

    def everything(self, operation: str) -> None:
        """A repository operation (commit, push, pull) on every component of the project."""
        assert self("POST", f"projects/{PROJECT}/repository/", {"operation": operation})["result"], operation


class Processes:
    def __init__(self):
        self.started: list[subprocess.Popen] = []

    def start(self, *args, log: Path, **kwargs) -> subprocess.Popen:
        with log.open("wb") as out:
            process = subprocess.Popen([str(a) for a in args], stdout=out, stderr=subprocess.STDOUT,
                                       start_new_session=True, **kwargs)
        self.started.append(process)
        return process

    def stop(self) -> None:
        for process in reversed(self.started):
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def start_postgres(processes: Processes, cluster: Path) -> int:
    """A private cluster on 127.0.0.1 and a free port, trusting local connections; as user postgres when root
    (initdb refuses to run as root)."""
    user = "postgres" if os.geteuid() == 0 else None
    if user:
        shutil.chown(cluster, user)
    port = free_port()
    run(PG_BIN / "initdb", "-D", cluster / "data", "-U", "weblate", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8",
        user=user)
    run(PG_BIN / "pg_ctl", "-D", cluster / "data", "-l", cluster / "log", "-w", "-o",
        f"-h 127.0.0.1 -p {port} -k {cluster} -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
        "start", user=user)
    run(PG_BIN / "createdb", "-h", "127.0.0.1", "-p", port, "-U", "weblate", "weblate")
    return port


def migrate(env: dict[str, str], pg_port: int) -> str:
    """Weblate's database made as `weblate migrate` makes it: restored from the dump of an earlier migration of the
    same installed files (pip's RECORD of every package lists each file's sha256) by the same PostgreSQL, then
    migrated (nothing left to apply: its post-migrate steps set up Weblate's data folder); else migrated from
    nothing and dumped for the next run. What the step was, for the timings."""
    key = hashlib.sha256(str(PG_BIN).encode())
    for record in sorted(VENV.glob("lib/python*/site-packages/*.dist-info/RECORD")):
        key.update(record.parent.name.encode() + b"\0" + record.read_bytes())
    dump = VENV.parent / f"migrated-{key.hexdigest()[:32]}.dump"
    connect = ["-h", "127.0.0.1", "-p", str(pg_port), "-U", "weblate"]
    if dump.is_file():
        run(PG_BIN / "pg_restore", *connect, "-d", "weblate", "--no-owner", "--exit-on-error", dump)
        run(WEBLATE, "migrate", "--noinput", env=env)
        return "migrate (restored)"
    run(WEBLATE, "migrate", "--noinput", env=env)
    partial = dump.with_suffix(f".{os.getpid()}.partial")
    run(PG_BIN / "pg_dump", *connect, "-Fc", "-f", partial, "weblate")
    for old in VENV.parent.glob("migrated-*.dump"):  # another Weblate's, or of other packages: never read again
        old.unlink()
    partial.replace(dump)
    return "migrate"


def settings(folder: Path, *, domain: str, data: Path, pg_port: int, redis_port: int) -> None:
    """Weblate's shipped settings_example.py, changed in place (SITE_DOMAIN before the settings derived from it)."""
    text = next(VENV.glob("lib/python*/site-packages/weblate/settings_example.py")).read_text()
    replacements = {
        r'^SITE_DOMAIN = ""$': f'SITE_DOMAIN = "{domain}"',
        r'^DATA_DIR = .*$': f'DATA_DIR = "{data}"',
        r'^(\s+"PORT": )"",': rf'\g<1>"{pg_port}",',
        r'^SECRET_KEY = ""$': f'SECRET_KEY = "{secrets.token_hex(32)}"',
        r'redis://127\.0\.0\.1:6379/1': f"redis://127.0.0.1:{redis_port}/1",
        r'^CELERY_TASK_ALWAYS_EAGER = False$': "CELERY_TASK_ALWAYS_EAGER = True",
        r'^CELERY_BROKER_URL = .*$': f'CELERY_BROKER_URL = "redis://127.0.0.1:{redis_port}/0"',
    }
    for pattern, new in replacements.items():
        text, count = re.subn(pattern, new, text, count=1, flags=re.MULTILINE)
        assert count == 1, f"settings_example.py has no {pattern}"
    text += ('\nVCS_ALLOW_SCHEMES = {"https", "ssh", "http"}\nVCS_RESTRICT_PRIVATE = False\n'
             f'WEBLATE_ADDONS = (*{default_addons()}, "aids_gnu_layout.GnuLayoutAddon")\n')
    (folder / "weblate_test_settings.py").write_text(text)


def default_addons() -> str:
    """Weblate's own add-ons, which a WEBLATE_ADDONS setting replaces: the name of their tuple (2026.x), or the
    tuple itself (5.x, where it is a class attribute of the add-ons' AppConf, not importable from settings)."""
    package = next(VENV.glob("lib/python*/site-packages/weblate"))
    if (package / "addons" / "defaults.py").exists():
        return "__import__('weblate.addons.defaults').addons.defaults.DEFAULT_WEBLATE_ADDONS"
    module = ast.parse((package / "addons" / "models.py").read_text())
    conf = next(n for n in module.body if isinstance(n, ast.ClassDef) and n.name == "AddonsConf")
    value = next(n.value for n in conf.body if isinstance(n, ast.Assign) and n.targets[0].id == "WEBLATE_ADDONS")
    return repr(ast.literal_eval(value))


def make_game_project(root: Path) -> None:
    """A project of the sample games, as a user has it (no ui_domain), with work left for translators: a changed
    text (fuzzy in pl and ru, with its previous msgid) and a new one (untranslated)."""
    for name in ("games", "i18n"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__", "*.py"))
    (root / "aids.yaml").write_text((REPO / "aids.yaml").read_text().replace("ui_domain: true", "ui_domain: false"))
    sequence = root / "games" / GAME / "sequence.yaml"
    text = sequence.read_text()
    old = "      - id: rally\n        text: Each side rallies one disordered unit out of contact.\n"
    assert old in text
    sequence.write_text(text.replace(old, old.replace("unit out of", "unit that is out of")
                                     + "      - id: forage\n        text: Each side forages once.\n"))
    aids(root, "extract", "--game", GAME)
    aids(root, "update", "--game", GAME)
    (root / ".gitignore").write_text("/build/\n*.mo\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "The sample games")


@pytest.fixture(scope="module")
def weblate(tmp_path_factory):
    """(api, project root): everything up and the Weblate project made; everything stopped and removed after."""
    work = tmp_path_factory.mktemp("weblate")
    cluster = Path(tempfile.mkdtemp(prefix="weblate-pg-"))  # world-traversable parent: postgres must reach it
    processes = Processes()
    timings = {}
    try:
        start = time.monotonic()
        pg_port = start_postgres(processes, cluster)
        redis_port = free_port()
        processes.start("redis-server", "--port", redis_port, "--bind", "127.0.0.1", "--save", "", "--appendonly",
                        "no", log=work / "redis.log")
        # the game's repository, bare, served over HTTP (Weblate refuses local paths and file://)
        root, served = work / "project", work / "git"
        root.mkdir()
        make_game_project(root)
        served.mkdir()
        run("git", "clone", "-q", "--bare", root, served / "game.git")
        run("git", "-C", served / "game.git", "config", "http.receivepack", "true")
        git_port = free_port()
        processes.start(sys.executable, Path(__file__).with_name("git_http.py"), served, git_port,
                        log=work / "git-http.log")
        url = f"http://127.0.0.1:{git_port}/game.git"
        git(root, "remote", "add", "origin", url)
        wait_for("git http-backend", lambda: answers(f"{url}/info/refs?service=git-upload-pack"), 20)
        timings["services"] = time.monotonic() - start

        web_port = free_port()
        # localhost: WebAuthn takes http://localhost for a secure origin, not http://127.0.0.1
        settings(work, domain=f"localhost:{web_port}", data=work / "data", pg_port=pg_port, redis_port=redis_port)
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "weblate_test_settings", "PYTHONPATH": f"{work}:{CONTRIB}",
               "PYTHONWARNINGS": "ignore"}
        env.pop("VIRTUAL_ENV", None)
        start = time.monotonic()
        step = migrate(env, pg_port)
        timings[step] = time.monotonic() - start
        run(WEBLATE, "createadmin", "--username", "admin", "--password", secrets.token_hex(12), "--email",
            "admin@example.org", env=env)
        token = re.search(r"Generated token (\w+)", run(WEBLATE, "drf_create_token", "admin", env=env)).group(1)
        start = time.monotonic()
        processes.start(WEBLATE, "runserver", "--noreload", f"127.0.0.1:{web_port}", env=env, log=work / "weblate.log")
        base = f"http://localhost:{web_port}"  # the address Weblate names itself by (SITE_DOMAIN) in its links
        wait_for("Weblate", lambda: answers(f"{base}/api/"), 120)
        timings["runserver"] = time.monotonic() - start
        api = Api(base, token)
        start = time.monotonic()
        create_components(api, url, root)
        timings["components"] = time.monotonic() - start
        print("Weblate set-up:", ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()))
        yield api, root
    finally:
        processes.stop()
        if (cluster / "data" / "postmaster.pid").exists():
            subprocess.run(["runuser", "-u", "postgres", "--"] * (os.geteuid() == 0)
                           + [str(PG_BIN / "pg_ctl"), "-D", str(cluster / "data"), "-m", "immediate", "stop"],
                           capture_output=True)
        shutil.rmtree(cluster, ignore_errors=True)


def create_components(api: Api, url: str, root: Path) -> None:
    """One component per catalog, as `aids weblate components` makes them (docs/translating/weblate.md says why each
    setting): the first clones the repository, the others share its clone; then the package's words (plurals among
    them), as aids' own tree has them."""
    api("POST", "projects/", {"name": "aids sample games", "slug": PROJECT, "web": "https://example.org/"})
    games = [arg for game in GAMES for arg in ("--game", game)]
    run(sys.executable, "-m", "aids", "--project", root, "weblate", "components", *games, "--weblate", api.base,
        "--weblate-project", PROJECT, "--repo", url, "--branch", "main", env={**os.environ, "WEBLATE_TOKEN": api.token})
    project = read_project(root)
    said = apply(Weblate(api.base, api.token), PROJECT, project,
                 [c for c in components(project, [GAME], with_ui=True) if c.domain == "aids"], None, "main")
    assert said[0].endswith("/aids/: created") and not any("no add-on" in line for line in said), said


def entries(text: str) -> dict[str, str]:
    """A PO file's entries by msgctxt (the header as ''), each as written."""
    found = {}
    for number, block in enumerate(text.strip("\n").split("\n\n")):
        context = re.search(r'^(?:#~ )?msgctxt ("(?:.*)"(?:\n(?:#~ )?".*")*)$', block, re.MULTILINE)
        key = "".join(re.findall(r'"(.*)"', context.group(1))).replace('\\"', '"') if context else ""
        assert key or not number, block
        found[key] = block
    return found


def header(block: str) -> dict[str, str]:
    """The fields of a PO header entry."""
    text = "".join(re.findall(r'^"(.*)"$', block.split('msgstr ""', 1)[1], re.MULTILINE))
    return dict(line.split(": ", 1) for line in text.split("\\n") if line)


def plural_forms(value: str) -> str:
    """A Plural-Forms rule without its spaces and the parentheses around the whole expression."""
    value = value.replace(" ", "").rstrip(";")
    count, _, rule = value.partition(";plural=")
    return f"{count};plural={rule[1:-1] if rule.startswith('(') and rule.endswith(')') else rule}"


def catalog_files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted((root / "i18n").rglob("*.po*"))}


def lone_placeholder(text: str) -> str | None:
    """A placeholder written once in `text` (Weblate compares the sets of placeholders: of one written twice and
    broken once, the other still counts)."""
    found = re.findall(r"\{[a-z]+:[^{}\s]+\}", text)
    return next((p for p in found if found.count(p) == 1), None)


def test_weblate_checks_aids_placeholders_and_not_what_is_identical_on_purpose(weblate):
    """Issue 45, item 5: with the check flags `aids weblate components` sets, Weblate reports a placeholder a
    translator left open and none of the samples' translations (which aids check passes); and its "Unchanged
    translation" check keeps quiet where a translator's comment says `aids: ignore identical`, not elsewhere."""
    api, root = weblate
    translations = [(c["slug"], t["language_code"]) for c in api("GET", f"projects/{PROJECT}/components/")["results"]
                    if not c["is_glossary"] for t in api("GET", f"components/{PROJECT}/{c['slug']}/translations/")
                    ["results"] if not t["is_source"]]
    assert len(translations) == 8  # 4 components, 2 languages each
    for component, lang in translations:
        assert not api.search(component, lang, "check:placeholders"), (component, lang)
    # a placeholder left open is reported; closed again, it is not
    unit, placeholder = next((u, p) for u in api.search("gcacw", "ru") if (p := lone_placeholder(u["target"][0])))
    good = unit["target"][0]
    opened = good.replace(placeholder, placeholder[:-1] + " ", 1)
    api("PATCH", f"units/{unit['id']}/", {"target": [opened], "state": 20})
    assert [u["id"] for u in api.search("gcacw", "ru", "check:placeholders")] == [unit["id"]], opened
    api("PATCH", f"units/{unit['id']}/", {"target": [good], "state": 20})
    assert not api.search("gcacw", "ru", "check:placeholders")
    # gcacw's game names, kept as in the original on purpose, are not "unchanged" (nor its leaders' names, marked as
    # English where they stand: [Sherman]{lang=en}); Weblate's check is on elsewhere: a sentence left as its source
    for lang in ("en", "ru"):
        marked = api.search("gcacw", lang, 'note:"aids: ignore identical"')
        assert len(marked) == 13 and all(u["extra_flags"] == "ignore-same" for u in marked), marked
        unchanged = {u["id"]: u["source"][0] for u in api.search("gcacw", lang, "check:same")}
        assert not unchanged.keys() & {u["id"] for u in marked}, unchanged
        plain = next(u for u in api.search("gcacw", lang) if u["id"] not in {m["id"] for m in marked}
                     and len(u["source"][0].split()) >= 6 and "{" not in u["source"][0] and "[" not in u["source"][0])
        api("PATCH", f"units/{plain['id']}/", {"target": plain["source"], "state": 20})
        assert plain["id"] in {u["id"] for u in api.search("gcacw", lang, "check:same")}, plain
        api("PATCH", f"units/{plain['id']}/", {"target": plain["target"], "state": 20})
    # the edit above (the same text again) committed and pulled, as the tests below expect to start
    api.everything("commit")
    git(root, "pull", "-q", "--ff-only", "origin", "main")


def test_weblate_adds_no_language_the_project_does_not_publish(weblate):
    """Issue 45, item 6: a translator (or an administrator) cannot start a language aids.yaml does not list; a
    translator asks the maintainers, who add it to aids.yaml (docs/translating/weblate.md)."""
    api, root = weblate
    for component in (GAME, "aids"):
        with pytest.raises(AssertionError, match="filtered by the language filter"):
            api("POST", f"components/{PROJECT}/{component}/translations/", {"language_code": "de"})
        settings = api("GET", f"components/{PROJECT}/{component}/")
        assert (settings["new_lang"], settings["language_regex"]) == ("contact", "^(?:pl|en|ru)$")
    assert api("GET", f"components/{PROJECT}/{GAME}/translations/")["count"] == 3  # en (the source), pl, ru


def test_translators_edits_in_weblate_reach_the_pdf(weblate, monkeypatch):
    api, root = weblate
    before = catalog_files(root)
    units = {(lang, component): api.units(component, lang) for lang, component in
             {(NEW[0], NEW[1]), (UNFUZZIED[0], UNFUZZIED[1]), (PLURAL[0], PLURAL[1])}}
    # what aids left for the translators is what Weblate shows
    new = units[NEW[:2]][NEW[2]]
    assert new["state"] == 0 and new["source"] == ["Each side forages once."]
    fuzzy = units[UNFUZZIED[:2]][UNFUZZIED[2]]
    assert fuzzy["state"] == 10
    assert fuzzy["previous_source"] == "Each side rallies one disordered unit out of contact."
    plural = units[PLURAL[:2]][PLURAL[2]]
    assert plural["source"] == ["step %(steps)s", "steps %(steps)s"] and len(plural["target"]) == 3

    start = time.monotonic()
    api("PATCH", f"units/{new['id']}/", {"target": [NEW[3]], "state": 20})
    print(f"Weblate: a unit edited through the API in {time.monotonic() - start:.2f} s")
    api("PATCH", f"units/{fuzzy['id']}/", {"target": [UNFUZZIED[3]], "state": 20})
    api("PATCH", f"units/{plural['id']}/", {"target": PLURAL[3], "state": 20})
    assert api("POST", f"units/{new['id']}/comments/", {"scope": "translation", "comment": COMMENT})["comment"] \
        == COMMENT
    for component in (GAME, "aids"):
        api.repository(component, "commit")
        api.repository(component, "push")
    git(root, "pull", "-q", "--ff-only", "origin", "main")
    pulled = catalog_files(root)

    # nothing changed in the catalogs but the edits and Weblate's header fields
    changed = {name for name in before if before[name] != pulled[name]}
    assert changed == {f"i18n/ru/LC_MESSAGES/{GAME}.po", f"i18n/pl/LC_MESSAGES/{GAME}.po",
                       "i18n/ru/LC_MESSAGES/aids.po"}
    edited = {f"i18n/ru/LC_MESSAGES/{GAME}.po": NEW, f"i18n/pl/LC_MESSAGES/{GAME}.po": UNFUZZIED,
              "i18n/ru/LC_MESSAGES/aids.po": PLURAL}
    for name, (_, _, context, target) in edited.items():
        old, now = entries(before[name].decode()), entries(pulled[name].decode())
        assert old.keys() == now.keys()
        assert {c for c in old if old[c] != now[c]} <= {"", context}, name
        was, fields = header(old[""]), header(now[""])
        assert {f for f in was.keys() | fields.keys() if was.get(f) != fields.get(f)} <= set(HEADER_FIELDS), name
        assert plural_forms(fields["Plural-Forms"]) == plural_forms(was["Plural-Forms"])  # the same rule
        entry = now[context]
        assert "#, fuzzy" not in entry and "#|" not in entry
        for text in [target] if isinstance(target, str) else target:
            assert text in re.sub(r'"\n"', "", entry), entry
    assert COMMENT not in pulled[f"i18n/ru/LC_MESSAGES/{GAME}.po"].decode()  # Weblate keeps comments to itself

    # aids update rewrites nothing Weblate wrote, now or later
    aids(root, "extract", "--game", GAME)
    aids(root, "update", "--game", GAME)
    assert catalog_files(root) == pulled
    aids(root, "update", "--game", GAME)
    assert catalog_files(root) == pulled
    assert not git(root, "status", "--porcelain", "i18n")

    # every edit is in the PDF; the package's words from the catalog Weblate wrote (as aids ships it)
    monkeypatch.setattr(ui, "package_catalogs", lambda: root / "i18n")
    ui.load_ui.cache_clear()
    try:
        summary = builder.build(read_project(root), Options(games=[GAME], langs=["pl", "ru"], formats=["pdf"], jobs=1))
    finally:
        ui.load_ui.cache_clear()
    assert not summary.failed, summary.failed
    for lang, expected in (("ru", [NEW[3], "Повторите пункты"]), ("pl", [UNFUZZIED[3]])):
        pdfs = sorted((root / "build" / GAME).rglob(f"{lang}/*.pdf"))
        assert pdfs, f"no {lang} PDF"
        for pdf in pdfs:
            text = " ".join(pdf_text(pdf).split())
            for words in expected:
                assert words in text, (pdf, words)
            assert "Повторите шаги" not in text  # the plural as it was before Weblate


def test_a_source_edit_shows_in_weblate_as_a_changed_string(weblate):
    """After the translators' edits above (the module's tests run in order, on one Weblate)."""
    api, root = weblate
    sequence = root / "games" / GAME / "sequence.yaml"
    old, new = "Each side rallies one disordered unit that is out of contact.", "Each side rallies one unit."
    sequence.write_text(sequence.read_text().replace(old, new))
    aids(root, "extract", "--game", GAME)
    aids(root, "update", "--game", GAME)
    git(root, "commit", "-q", "-a", "-m", "A rule changed")
    git(root, "push", "-q", "origin", "main")
    api.repository(GAME, "pull")
    # pl was translated from the edited text in Weblate; ru still holds the translation of the first text, which
    # stays its previous source (the text the translation was made for), as GNU msgmerge keeps it
    first = "Each side rallies one disordered unit out of contact."
    for lang, previous in (("pl", old), ("ru", first)):
        unit = api.units(GAME, lang)["turn-sequence/movement/rally"]
        assert unit["source"] == [new]
        assert unit["state"] == 10, unit  # needs editing
        assert unit["previous_source"] == previous, unit
        assert unit["target"] == [{"pl": UNFUZZIED[3]}.get(lang, unit["target"][0])] and unit["target"][0]
    changed = api("GET", f"translations/{PROJECT}/{GAME}/pl/units/?q=state:needs-editing")["results"]
    assert [u["context"] for u in changed] == ["turn-sequence/movement/rally"]


def test_every_string_shows_its_picture_in_weblate(weblate):
    """`aids context --weblate`: each source string of the game tied to a screenshot of where it prints, the
    picture aids context made; a second upload replaces pictures, never adds any."""
    if not (shutil.which("chromium") and (shutil.which("chromedriver") or shutil.which("chromium.chromedriver"))):
        if os.environ.get("CI"):
            raise RuntimeError("chromium and chromium-driver missing (./bootstrap test installs them)")
        pytest.skip("chromium and chromium-driver missing")
    api, root = weblate
    env = {**os.environ, "WEBLATE_TOKEN": api.token}
    command = ("context", "--game", GAME, "--weblate", api.base, "--weblate-project", PROJECT)
    out = run(sys.executable, "-m", "aids", "--project", str(root), *command, env=env)
    index = json.loads((root / "build" / "context" / GAME / "en" / "index.json").read_text(encoding="utf-8"))
    # every string an aid prints; an edition's name prints only on the game's web page, in no aid: no picture
    sources = {key: unit for key, unit in api.units(GAME, "en").items() if not key.startswith("game/edition/")}
    assert set(index) == set(sources), set(index) ^ set(sources)
    assert f"/projects/{PROJECT}/{GAME}/: {len(sources)} screenshot(s) tied to their strings" in out, out
    shots = []
    url = f"components/{PROJECT}/{GAME}/screenshots/"
    while url:
        page = api("GET", url)
        shots += page["results"]
        url = page["next"]
    assert sorted(s["name"] for s in shots) == sorted(sources)
    for shot in shots:
        unit = sources[shot["name"]]
        assert [u.rstrip("/").rsplit("/", 1)[-1] for u in shot["units"]] == [str(unit["id"])], shot
    picture = urllib.request.urlopen(urllib.request.Request(  # what a translator's browser shows
        shots[0]["file_url"], headers={"Authorization": f"Token {api.token}"}), timeout=60).read()
    assert picture == (root / "build" / "context" / GAME / "en" / index[shots[0]["name"]]["image"]).read_bytes()
    run(sys.executable, "-m", "aids", "--project", str(root), *command, env=env)
    assert api("GET", f"components/{PROJECT}/{GAME}/screenshots/")["count"] == len(shots)  # replaced, not added


def test_budgets_become_max_length_flags_that_weblate_checks(weblate):
    """`aids budgets --weblate`: each language's budgets the max-length flags of that language's strings in Weblate
    (a flag in the PO file would not last: GNU msgcat drops it), none on the source strings. On day one Weblate's
    own check fails no translation and no source string; then it flags a translation made too long."""
    api, root = weblate
    env = {**os.environ, "WEBLATE_TOKEN": api.token}
    command = (sys.executable, "-m", "aids", "--project", str(root), "budgets", "--game", CARD_GAME, "--weblate",
               api.base, "--weblate-project", PROJECT)
    out = run(*command, env=env)
    budgets = {}
    for lang in ("en", "ru"):
        catalog = (root / "i18n" / lang / "LC_MESSAGES" / f"{CARD_GAME}.po").read_text(encoding="utf-8")
        budgets[lang] = {m.group(2): int(m.group(1)) for m in re.finditer(
            r'^# aids: budget (\d+) characters \(referee-card\)\n(?:#.*\n)*msgctxt "(.*)"$', catalog, re.M)}
    assert len(budgets["en"]) >= 90 and budgets["en"] != budgets["ru"]
    assert (f"/projects/{PROJECT}/{CARD_GAME}/: max-length on {len(budgets['en'])} string(s) in en, "
            f"{len(budgets['ru'])} string(s) in ru") in out, out
    failing = {lang: api("GET", f"translations/{PROJECT}/{CARD_GAME}/{lang}/units/?q=check:max-length")["count"]
               for lang in ("pl", "en", "ru")}
    assert failing == {"pl": 0, "en": 0, "ru": 0}, failing  # day one: every translation fits, and so its budget
    sources = api.units(CARD_GAME, "pl")
    assert not [c for c, unit in sources.items() if "max-length" in (unit["extra_flags"] or "")]
    for lang in ("en", "ru"):
        for context, unit in api.units(CARD_GAME, lang).items():
            if context in budgets[lang]:
                assert f"max-length:{budgets[lang][context]}" in unit["extra_flags"], (lang, context, unit)
    context, budget = next((c, b) for c, b in budgets["en"].items() if b > 30)
    unit = api.units(CARD_GAME, "en")[context]
    api("PATCH", f"units/{unit['id']}/", {"target": ["x" * (budget + 10)], "state": 20})
    checked = api("GET", f"units/{unit['id']}/")
    assert checked["has_failing_check"], checked
    assert api("GET", f"translations/{PROJECT}/{CARD_GAME}/en/units/?q=check:max-length")["count"] == 1
    run(*command, "--lang", "en", env=env)  # again: the same flags, not added twice
    assert api.units(CARD_GAME, "en")[context]["extra_flags"].count("max-length:") == 1


def catalog_state(root: Path) -> dict[str, dict[tuple[bool, str, str], tuple[str, ...]]]:
    """Every catalog's entries (obsolete or not, msgctxt, msgid) with their translations."""
    found = {}
    for path in sorted((root / "i18n").glob("*/LC_MESSAGES/*.po")):
        catalog = read_catalog(path, str(path))
        found[str(path.relative_to(root))] = {(u.isobsolete(), *po.key(u)): tuple(po.strings(u))
                                              for u in catalog.units if not u.isheader()}
    return found


def lost(before: dict, after: dict) -> list[str]:
    """Entries and translations of `before` that `after` lacks."""
    return [f"{name}: {key}" for name, entries in before.items() for key, strings in entries.items()
            if key not in after.get(name, {}) or (any(strings) and not any(after[name][key]))]


def in_sync(api: Api, root: Path) -> None:
    """Whatever Weblate holds committed, pushed and pulled: the project and Weblate start alike."""
    api.everything("commit")
    api.everything("push")
    git(root, "pull", "-q", "--ff-only", "origin", "main")
    assert not git(root, "status", "--porcelain")


def repository_state(api: Api, component: str) -> dict:
    state = api("GET", f"components/{PROJECT}/{component}/repository/")
    return {k: state[k] for k in ("needs_commit", "needs_merge", "needs_push", "merge_failure")}


def tied(api: Api, component: str, unit: int) -> list[str]:
    """The screenshots tied to a source string."""
    shots, url = [], f"components/{PROJECT}/{component}/screenshots/"
    while url:
        page = api("GET", url)
        shots += page["results"]
        url = page["next"]
    return [s["name"] for s in shots if any(str(u).rstrip("/").endswith(f"/units/{unit}") for u in s["units"])]


def test_a_pending_translation_and_a_source_change_of_other_strings_merge_with_nothing_lost(weblate):
    """Issue 45, items 1 and 2, as a team works: a translator's edit waits in Weblate while a developer changes
    other texts, runs `aids extract && aids update`, commits and pushes; Weblate pulls (it commits the pending edit
    and rebases it on the developer's commit) and pushes; the developer pulls. No conflict, no entry and no
    translation lost, and `aids update` then changes nothing. What Weblate drops with a changed source text
    (comments, suggestions, the string's own flags and explanation, its screenshot) is gone, as the docs say;
    what aids gives a string comes back (component flags, ignore-same, pictures re-tied by `aids context`)."""
    api, root = weblate
    in_sync(api, root)
    edited, pending = "turn-sequence/fire/notes/simultaneous", "turn-sequence/fire/artillery"  # next to each other
    old, new = "Losses are removed only after both sides have fired.", "Losses are removed after both sides fire."
    name, renamed = ("[Stonewall Jackson's Way]{lang=en} (**SJW**)",
                     "[Stonewall Jackson's Way]{lang=en} (**SJW**, 1992)")
    source, pl, ru = (api.units(GAME, lang)[edited] for lang in ("en", "pl", "ru"))
    # what translators left on the string whose text will change
    api("POST", f"units/{pl['id']}/comments/", {"scope": "translation", "comment": "Straty: po ogniu obu stron."})
    api("POST", f"units/{source['id']}/comments/", {"scope": "global", "comment": "Both sides: all units."})
    api("POST", f"units/{ru['id']}/suggestions/", {"target": ["Потери снимаются после огня обеих сторон."]})
    api("PATCH", f"units/{source['id']}/", {"extra_flags": "max-length:200", "explanation": "Once per phase."})
    had_picture = tied(api, GAME, source["id"])
    # a translator's edit of the next string, waiting in Weblate (not committed)
    waiting = "Najpierw strzela artyleria; bateria, która się w tej turze poruszyła, strzela z {q:penalty}."
    api("PATCH", f"units/{api.units(GAME, 'pl')[pending]['id']}/", {"target": [waiting], "state": 20})
    assert repository_state(api, GAME)["needs_commit"]

    # the developer, meanwhile: two texts changed, the catalogs updated, committed and pushed
    sequence, rules = root / "games" / GAME / "sequence.yaml", root / "games" / "gcacw" / "rules" / "basics.md"
    sequence.write_text(sequence.read_text().replace(old, new))
    rules.write_text(rules.read_text().replace(f"- {name}\n", f"- {renamed}\n"))
    for game in (GAME, "gcacw"):
        aids(root, "extract", "--game", game)
        aids(root, "update", "--game", game)
    git(root, "commit", "-q", "-a", "-m", "Two texts changed")
    before = catalog_state(root)
    git(root, "push", "-q", "origin", "main")

    # Weblate pulls: no conflict, nothing locked; its commit pushed, the developer pulls it
    api.repository(GAME, "pull")
    assert repository_state(api, GAME) == {"needs_commit": False, "needs_merge": False, "needs_push": False,
                                           "merge_failure": None}
    assert not api("GET", f"components/{PROJECT}/{GAME}/lock/")["locked"]
    git(root, "pull", "-q", "--ff-only", "origin", "main")
    after = catalog_state(root)
    assert not lost(before, after), lost(before, after)
    assert {name: set(entries) for name, entries in after.items()} == \
        {name: set(entries) for name, entries in before.items()}  # the same entries, no more, no fewer
    changed = [(name, key) for name, entries in after.items() for key in entries if entries[key] != before[name][key]]
    assert changed == [(f"i18n/pl/LC_MESSAGES/{GAME}.po", (False, pending, api.units(GAME, "en")[pending]["source"]
                                                           [0]))]  # the translator's edit, and nothing else
    assert after[changed[0][0]][changed[0][1]] == (waiting,)
    print(f"catalogs: {sum(map(len, after.values()))} entries before and after the pull, 0 lost")  # shown with -s
    aids(root, "update")
    assert not git(root, "status", "--porcelain")

    # in Weblate, the changed text is a string of its own: its translations kept as "needs editing" with the text
    # they were made for, and what translators left on the former string gone (Weblate matches msgctxt+msgid)
    now = {lang: api.units(GAME, lang)[edited] for lang in ("en", "pl", "ru")}
    for lang in ("pl", "ru"):
        unit = now[lang]
        assert (unit["source"], unit["state"], unit["previous_source"]) == ([new], 10, old), unit
        assert unit["target"] == {"pl": pl, "ru": ru}[lang]["target"]
        assert not unit["has_comment"] and not unit["has_suggestion"] and not unit["extra_flags"]
    assert (now["en"]["extra_flags"], now["en"]["explanation"], now["en"]["has_comment"]) == ("", "", False)
    assert not tied(api, GAME, now["en"]["id"])
    # what aids gives a string comes back: the bulk edit's ignore-same on the renamed game, whose translation (the
    # name as it is) is then not "unchanged"; the placeholder flag is the component's
    for lang in ("en", "ru"):
        unit = next(u for u in api.search("gcacw", lang) if u["source"] == [renamed])
        assert unit["state"] == 10 and unit["extra_flags"] == "ignore-same", unit
        api("PATCH", f"units/{unit['id']}/", {"target": [renamed], "state": 20})
        assert unit["id"] not in {u["id"] for u in api.search("gcacw", lang, "check:same")}
        assert api("GET", f"components/{PROJECT}/gcacw/")["check_flags"].startswith("placeholders:")
    # and the picture: `aids context --weblate` ties it to the new string again
    if had_picture and shutil.which("chromium") and (shutil.which("chromedriver") or
                                                     shutil.which("chromium.chromedriver")):
        run(sys.executable, "-m", "aids", "--project", str(root), "context", "--game", GAME, "--weblate", api.base,
            "--weblate-project", PROJECT, env={**os.environ, "WEBLATE_TOKEN": api.token})
        assert tied(api, GAME, now["en"]["id"])
        print(f"aids context --weblate: the changed string's picture tied again ({had_picture[0]})")


def test_the_locked_routine_for_a_source_change_of_a_string_being_translated(weblate):
    """Issue 45, item 1, the rest: a developer changes the very text a translator is translating. The routine of
    docs/translating/weblate.md: lock, commit (and push), pull, update, push, pull, unlock; nothing lost, the
    translator's new translation now "needs editing" against the new text."""
    api, root = weblate
    in_sync(api, root)
    context = "turn-sequence/melee/attacker/general"
    old, new = "A general attached to the unit adds {q:bonus}.", "A general with the unit adds {q:bonus} to its roll."
    translated = "Генерал, находящийся при части, прибавляет к броску {q:bonus}."
    api("PATCH", f"units/{api.units(GAME, 'ru')[context]['id']}/", {"target": [translated], "state": 20})
    # lock: nobody translates until the routine ends
    assert api("POST", f"projects/{PROJECT}/lock/", {"lock": True})["locked"]
    with pytest.raises(AssertionError, match="locked"):
        api("PATCH", f"units/{api.units(GAME, 'pl')[context]['id']}/", {"target": ["Generał."], "state": 20})
    try:
        api.everything("commit")  # commit (Weblate pushes what it commits)
        api.everything("push")
        git(root, "pull", "-q", "--ff-only", "origin", "main")  # pull
        sequence = root / "games" / GAME / "sequence.yaml"
        sequence.write_text(sequence.read_text().replace(old, new))
        aids(root, "extract", "--game", GAME)  # update
        aids(root, "update", "--game", GAME)
        git(root, "commit", "-q", "-a", "-m", "A rule changed")
        before = catalog_state(root)
        git(root, "push", "-q", "origin", "main")  # push
        api.everything("pull")  # pull
        assert repository_state(api, GAME)["merge_failure"] is None
    finally:
        assert not api("POST", f"projects/{PROJECT}/lock/", {"lock": False})["locked"]  # unlock
    unit = api.units(GAME, "ru")[context]
    assert (unit["source"], unit["target"], unit["state"], unit["previous_source"]) == ([new], [translated], 10, old)
    in_sync(api, root)
    assert not lost(before, catalog_state(root))
