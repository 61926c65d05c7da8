"""The README's install lines, pasted as root on a stock Debian 12 (issue 35): a clean root each run, made from a
base system (minbase and python3) kept in .cache/install-lines/ (git-ignored), so CI does not download it every
time; then `aids --version` and a tiny build, PDF included (Pango).

The lines are taken from README.md's Install section as they are, but for `git clone <this repository>`, which
clones this repository's HEAD (a mirror of it placed in the root). They run in a private mount namespace
(unshare), in a chroot, with the environment of a root login. Downloads (apt's archives, pip's wheels) are kept
in .cache/install-lines/ too, as a CI cache keeps them: the lines still run in full (apt-get update, install,
unpack; pip resolves and installs), only fetching less.

Needs root (else it is skipped), unshare, mmdebstrap (./bootstrap test installs it) and the network to
deb.debian.org and PyPI; without them it is skipped, except under CI=true, where it fails.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from ..helpers import REPO

CACHE = REPO / ".cache" / "install-lines"
BASE = CACHE / "bookworm-minbase-python3.tar"  # the base system, made once
MIRROR = "http://deb.debian.org/debian"
MINUTES = 20  # the whole run: a hang fails, not holds CI for ever
CLONE = "git clone <this repository> aids"


def missing() -> str:
    for tool in ("unshare", "mmdebstrap", "git"):
        if not shutil.which(tool):
            return f"no {tool} (apt-get install {tool})"
    try:
        urllib.request.urlopen(f"{MIRROR}/dists/bookworm/Release", timeout=10).close()
    except OSError as exc:
        return f"{MIRROR} cannot be reached ({exc})"
    return ""


if os.geteuid() != 0:  # a chroot and its mounts need root: not a fault of the machine, even in CI
    pytest.skip("the install-lines test runs as root (chroot, mounts)", allow_module_level=True)
why = missing()
if why:
    if os.environ.get("CI"):
        raise RuntimeError(f"the install-lines test cannot run: {why}")
    pytest.skip(f"the install-lines test cannot run: {why}", allow_module_level=True)


def install_lines() -> str:
    """The shell lines of README.md's Install section (its first ```sh block), as a reader pastes them."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^#{2,3} Install\n.*?^```sh\n(.*?)^```", readme, re.M | re.S)
    assert found, "no ```sh block in README.md's Install section"
    return found[1]


def base() -> Path:
    """The base system's tarball: made once (about 2 minutes), then taken from the cache."""
    if not BASE.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        partial = BASE.with_suffix(".partial.tar")
        subprocess.run(["mmdebstrap", "--quiet", "--variant=minbase", "--include=python3", "bookworm", str(partial),
                        MIRROR], check=True, timeout=15 * 60)
        partial.rename(BASE)
    return BASE


SCRIPT = r"""
set -eu
root=$1 base=$2 mirror_repo=$3 cache=$4
mkdir -p "$root"
# the root in memory: unpacked and installed without waiting on the disk (dpkg syncs every file), gone with the
# namespace
mount -t tmpfs -o size=4g,mode=755 root "$root"
tar -C "$root" -xf "$base"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount -t tmpfs -o mode=1777 tmp "$root/tmp"
mkdir -p "$cache/apt" "$cache/pip" "$root/root/.cache/pip"
mount --bind "$cache/apt" "$root/var/cache/apt/archives"
mount --bind "$cache/pip" "$root/root/.cache/pip"
rm -f "$root/etc/resolv.conf"; cp -L /etc/resolv.conf "$root/etc/resolv.conf"
# the network's own certificate authorities (a TLS-intercepting proxy), trusted as on any machine behind it
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates"; cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi
git clone --quiet --mirror "$mirror_repo" "$root/srv/aids.git"
cp "$5" "$root/root/install.sh"
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c 'cd /root && bash -e install.sh'
"""


def test_the_readme_install_lines_work_as_root_on_a_clean_debian_12(tmp_path):
    lines = install_lines()
    assert CLONE in lines, f"README.md's install lines no longer say `{CLONE}`"
    assert "$SUDO apt-get update" in lines  # a fresh machine's package list is empty
    script = tmp_path / "install.sh"
    # each line echoed with the seconds since the start: last-run.log says where the time went
    script.write_text("PS4='+ ${SECONDS}s '; set -x\n" + lines.replace(CLONE, "git clone /srv/aids.git aids")
                      + "\naids init demo && cd demo && aids build --lang en\n"
                        "find build -name '*.pdf' | grep -q .\n", encoding="utf-8")
    tarball = base()
    runner = tmp_path / "run.sh"
    runner.write_text(SCRIPT, encoding="utf-8")
    started = time.monotonic()
    try:  # the mounts are the namespace's: gone with it, before the root is removed
        # a namespace of mounts and of processes: whatever ends the run, nothing it started or mounted is left
        done = subprocess.run(["unshare", "--mount", "--propagation", "private", "--pid", "--fork", "--kill-child",
                               "bash", str(runner), str(tmp_path / "root"), str(tarball), str(REPO), str(CACHE),
                               str(script)],
                              capture_output=True, text=True, timeout=MINUTES * 60)
    finally:
        seconds = time.monotonic() - started
        shutil.rmtree(tmp_path / "root", ignore_errors=True)
    log = done.stdout + done.stderr
    (CACHE / "last-run.log").write_text(f"{seconds:.0f} s\n{log}", encoding="utf-8")
    assert done.returncode == 0, log[-5000:]
    assert re.search(r"^aids \d", done.stdout, re.M), log[-3000:]  # aids --version
    assert re.search(r"file\(s\) written, 0 aid\(s\) failed", done.stdout), log[-3000:]
    print(f"the README's install lines and a first build in a clean Debian 12 root: {seconds:.0f} s")
