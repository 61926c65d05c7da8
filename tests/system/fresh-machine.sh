#!/usr/bin/env bash
# Proves the README's two set-up commands on a fresh machine: a minimal Debian 12 (debootstrap
# --variant=minbase) holding only python3 and git, in a chroot, with a clean clone of this repository.
#
#   sudo tests/system/fresh-machine.sh [--mode build|test|all] [--release bookworm|noble]
#                                      [--commit REV] [--workdir DIR] [--mirror URL] [--keyring FILE]
#                                      [--rebuild-base] [--no-download-cache] [--no-host-ca] [--keep]
#                                      [--timeout MINUTES]
#
#   --mode build   scenario A: a first `python3 -m venv .venv` fails half-way (no python3-venv) and
#                  leaves .venv/bin/python without pip; `./bootstrap build` must then exit 0, say it
#                  removes the broken .venv, and write HTML and PDF for every game in every language
#   --mode test    scenario B: `./bootstrap test` (ruff, mypy, the whole pytest suite) must exit 0 with
#                  the browser tests run, not skipped; setuptools' build/lib and build/bdist.* must not
#                  land in build/
#   --mode all     (default) A, then B in the same chroot
#   --commit REV   what to clone (default: HEAD of the repository holding this script)
#   --workdir DIR  default /var/tmp/aids-fresh/<release>: base/ (the pristine system, made once and
#                  kept), root/ (this run's copy of it), cache/ (apt and pip downloads), logs/
#   --rebuild-base make base/ again (debootstrap, then apt-get install python3 git)
#   --no-download-cache  no apt/pip download cache bound into the chroot (everything downloaded again)
#   --no-host-ca   do not copy the host's /usr/local/share/ca-certificates/*.crt into the chroot (they
#                  are needed behind a TLS-intercepting proxy: pip fails with CERTIFICATE_VERIFY_FAILED)
#   --timeout MIN  stop a ./bootstrap run (and fail) after MIN minutes (default 45): a hanging test
#                  otherwise holds the run for ever
#   --keep         leave root/ behind for inspection, as a failed run does (it is always unmounted)
#
# Needs root, debootstrap and network to the mirror and PyPI. The whole run happens in a private mount
# namespace (unshare), and a trap unmounts everything it mounted on any exit, failure or Ctrl-C.
#
# Ubuntu 24.04 (--release noble): Debian 12's debootstrap (1.0.128) has no "noble" script, so Ubuntu's
# generic one (gutsy) is named; Debian 12 has no ubuntu-keyring package, so unless --keyring FILE or
# /usr/share/keyrings/ubuntu-archive-keyring.gpg, Debian 13's ubuntu-keyring package is fetched and
# checked from Debian's signed InRelease down. main and universe are enabled, as on a stock Ubuntu
# (python3-venv and qpdf are in universe). Ubuntu's chromium and chromium-driver are debs that install
# snaps (chromium-browser, chromium-chromedriver); snaps do not run in a chroot, so on noble the browser
# tests skip, and that is reported as a warning, not a failure.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-2}"; }

script_dir=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$script_dir" rev-parse --show-toplevel)
arguments=("$@")
mode=all release=bookworm commit=HEAD workdir="" mirror="" keyring="" rebuild_base=0 download_cache=1 keep=0 host_ca=1 limit=45
while [ $# -gt 0 ]; do
  case "$1" in
    --mode) mode=${2:?}; shift 2 ;;
    --release) release=${2:?}; shift 2 ;;
    --commit) commit=${2:?}; shift 2 ;;
    --workdir) workdir=${2:?}; shift 2 ;;
    --mirror) mirror=${2:?}; shift 2 ;;
    --keyring) keyring=${2:?}; shift 2 ;;
    --rebuild-base) rebuild_base=1; shift ;;
    --no-download-cache) download_cache=0; shift ;;
    --keep) keep=1; shift ;;
    --timeout) limit=${2:?}; shift 2 ;;
    --no-host-ca) host_ca=0; shift ;;
    -h|--help) usage 0 ;;
    *) echo "fresh-machine: unknown argument $1" >&2; usage ;;
  esac
done
case "$mode" in build|test|all) ;; *) echo "fresh-machine: --mode is build, test or all" >&2; exit 2 ;; esac
case "$release" in
  bookworm) distro=debian; mirror=${mirror:-http://deb.debian.org/debian} ;;
  noble) distro=ubuntu; mirror=${mirror:-http://archive.ubuntu.com/ubuntu} ;;
  *) echo "fresh-machine: --release is bookworm or noble" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || { echo "fresh-machine: run as root (debootstrap, chroot, mount)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh-machine: apt-get install debootstrap" >&2; exit 2; }
commit=$(git -C "$repo" rev-parse --verify "$commit^{commit}")
workdir=${workdir:-/var/tmp/aids-fresh/$release}

# Everything below runs in a mount namespace of its own: mounts made here are never seen by the host
# and disappear with this process, whatever kills it. The trap still unmounts them one by one.
if [ -z "${AIDS_FRESH_NAMESPACE:-}" ] && command -v unshare >/dev/null; then
  export AIDS_FRESH_NAMESPACE=1
  exec unshare --mount --propagation private -- "$0" "${arguments[@]}"
fi

base=$workdir/base root=$workdir/root logs=$workdir/logs cache=$workdir/cache
clone=/home/user/aids  # inside the chroot
mkdir -p "$workdir" "$logs" "$cache/apt" "$cache/pip"
exec 9>"$workdir/.lock"
flock -n 9 || { echo "fresh-machine: another run holds $workdir/.lock" >&2; exit 2; }

say() { printf 'fresh-machine: %s\n' "$*"; }
fail() { printf 'fresh-machine: FAILED: %s\n' "$*" >&2; exit 1; }

# --- mounts, and the trap that takes them down --------------------------------------------------
mounted_under() {  # mount points at or below $1, deepest first
  awk -v dir="$1" '$2 == dir || index($2, dir "/") == 1 { print $2 }' /proc/self/mounts | sort -r
}
kill_chroot_processes() {  # anything still running inside $1 (a server, a browser), by pid
  local dir=$1 pid link pids=()
  for link in /proc/[0-9]*/root; do
    pid=${link#/proc/}; pid=${pid%/root}
    [ "$pid" != $$ ] && [ "$(readlink "$link" 2>/dev/null)" = "$dir" ] && pids+=("$pid")
  done
  [ ${#pids[@]} -eq 0 ] && return 0
  say "stopping processes left in $dir: ${pids[*]}"
  kill -TERM "${pids[@]}" 2>/dev/null || true; sleep 2; kill -KILL "${pids[@]}" 2>/dev/null || true
}
unmount_all() {
  local dir=$1 point
  [ -d "$dir" ] || return 0
  kill_chroot_processes "$dir"
  while read -r point; do
    [ -n "$point" ] || continue
    umount "$point" 2>/dev/null || umount -l "$point" || say "could not unmount $point"
  done < <(mounted_under "$dir")
  if [ -n "$(mounted_under "$dir")" ]; then say "still mounted under $dir:"; mounted_under "$dir"; return 1; fi
}
mount_all() {  # what apt, pip, the build and chromium need
  local dir=$1
  mount -t proc -o nosuid,nodev,noexec proc "$dir/proc"
  mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$dir/sys"
  mount --bind /dev "$dir/dev"
  mount --bind /dev/pts "$dir/dev/pts"
  mount -t tmpfs -o mode=1777,nosuid,nodev,size=1g shm "$dir/dev/shm"  # chromium's shared memory
  if ((download_cache)); then
    mkdir -p "$dir/var/cache/apt/archives" "$dir/root/.cache/pip"
    mount --bind "$cache/apt" "$dir/var/cache/apt/archives"
    mount --bind "$cache/pip" "$dir/root/.cache/pip"
  fi
  rm -f "$dir/etc/resolv.conf"; cp -L /etc/resolv.conf "$dir/etc/resolv.conf"
}
mounted_roots=()
summary=() step_name="" step_start=0
on_exit() {  # whatever ends the run: the step under way marked failed, the summary, every mount taken down
  local status=$? dir
  trap - EXIT INT TERM HUP
  [ -z "$step_name" ] || finish_step FAIL
  for dir in "${mounted_roots[@]}"; do unmount_all "$dir" || status=1; done
  if ((status == 0 && keep == 0)) && [ -d "$root" ] && [ -z "$(mounted_under "$root")" ]; then
    rm -rf --one-file-system "$root"
  fi
  if [ ${#summary[@]} -gt 0 ]; then
    say "summary ($release, --mode $mode, commit ${commit:0:12}; logs in $logs)"
    printf '  %s\n' "${summary[@]}"
  fi
  if ((status == 0)); then say "PASSED"; else say "FAILED (exit $status)"; fi
  exit "$status"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

in_chroot() {  # a login-like, clean environment, as root (bootstrap then needs no sudo)
  chroot "$1" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$2"
}

# --- steps, timed --------------------------------------------------------------------------------
begin() { step_name=$1; step_start=$(date +%s); say "== $step_name"; }
finish_step() {
  summary+=("$(printf '%-4s %6ss  %s' "$1" "$(( $(date +%s) - step_start ))" "$step_name")")
  step_name=""
}

# --- 1. the base system: minbase + python3 + git, made once ---------------------------------------
# Debian 12 has no ubuntu-keyring; Debian 13 (trixie) has. Its package is taken from a Debian mirror and
# checked all the way down from trixie's InRelease, signed by a key in Debian 12's debian-archive-keyring.
fetch_ubuntu_keyring() {
  local out=$1 debian=http://deb.debian.org/debian arch tmp sums line file sha
  arch=$(dpkg --print-architecture)
  tmp=$(mktemp -d)
  curl -fsS -o "$tmp/InRelease" "$debian/dists/trixie/InRelease" || fail "cannot fetch trixie's InRelease"
  gpgv --keyring /usr/share/keyrings/debian-archive-keyring.gpg --output "$tmp/Release" "$tmp/InRelease" 2>/dev/null \
    || fail "trixie's InRelease does not verify with debian-archive-keyring"
  line=$(awk -v path="main/binary-$arch/Packages.xz" \
    '/^SHA256:/ { on = 1; next } /^[^ ]/ { on = 0 } on && $3 == path { print $1 }' "$tmp/Release")
  curl -fsS -o "$tmp/Packages.xz" "$debian/dists/trixie/main/binary-$arch/by-hash/SHA256/$line" \
    || fail "cannot fetch trixie's Packages.xz"
  echo "$line  $tmp/Packages.xz" | sha256sum -c --quiet || fail "trixie's Packages.xz does not match its InRelease"
  sums=$(xz -dc "$tmp/Packages.xz" | awk '/^Package: / { on = ($2 == "ubuntu-keyring") }
    on && /^Filename: / { file = $2 } on && /^SHA256: / { sha = $2 } END { print file, sha }')
  read -r file sha <<<"$sums"
  if [ -z "$file" ] || [ -z "$sha" ]; then fail "no ubuntu-keyring in trixie"; fi
  curl -fsS -o "$tmp/keyring.deb" "$debian/$file" || fail "cannot fetch $file"
  echo "$sha  $tmp/keyring.deb" | sha256sum -c --quiet || fail "$file does not match trixie's Packages"
  dpkg-deb -x "$tmp/keyring.deb" "$tmp/x"
  cp "$tmp/x/usr/share/keyrings/ubuntu-archive-keyring.gpg" "$out"
  rm -rf "$tmp"
  say "Ubuntu's archive keyring from Debian trixie's $(basename "$file") (checked against trixie's InRelease)"
}
make_base() {
  local tmp=$workdir/base.tmp args=(--variant=minbase)
  unmount_all "$tmp"
  rm -rf --one-file-system "$tmp"
  ((download_cache)) && args+=(--cache-dir="$cache/apt")
  local script=""
  if [ "$distro" = ubuntu ]; then
    args+=("--components=main,universe")
    if [ -z "$keyring" ]; then
      keyring=/usr/share/keyrings/ubuntu-archive-keyring.gpg
      [ -f "$keyring" ] || { keyring=$cache/ubuntu-archive-keyring.gpg; [ -f "$keyring" ] || fetch_ubuntu_keyring "$keyring"; }
    fi
    args+=(--keyring="$keyring")
    [ -e "/usr/share/debootstrap/scripts/$release" ] || script=/usr/share/debootstrap/scripts/gutsy
  fi
  debootstrap "${args[@]}" "$release" "$tmp" "$mirror" ${script:+"$script"} >"$logs/debootstrap.log" 2>&1 \
    || { tail -20 "$logs/debootstrap.log"; fail "debootstrap (log: $logs/debootstrap.log)"; }
  if [ "$distro" = debian ]; then
    cat >"$tmp/etc/apt/sources.list" <<EOF
deb $mirror $release main
deb $mirror $release-updates main
deb http://deb.debian.org/debian-security $release-security main
EOF
  else
    cat >"$tmp/etc/apt/sources.list" <<EOF
deb $mirror $release main universe
deb $mirror $release-updates main universe
deb $mirror $release-security main universe
EOF
  fi
  mounted_roots+=("$tmp"); mount_all "$tmp"
  in_chroot "$tmp" 'apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 git >/dev/null' \
    >"$logs/base-apt.log" 2>&1 || { tail -20 "$logs/base-apt.log"; fail "apt-get install python3 git"; }
  unmount_all "$tmp"
  rm -rf "$tmp/var/lib/apt/lists/"* "$tmp/var/cache/apt/"*.bin
  rm -rf --one-file-system "$base"; mv "$tmp" "$base"
}

begin "base system ($release minbase + python3 git)"
if ((rebuild_base)) || [ ! -x "$base/usr/bin/python3" ] || [ ! -x "$base/usr/bin/git" ]; then
  say "making $base (debootstrap $release $mirror)"; make_base
else
  say "reusing $base (--rebuild-base to make it again)"
fi
finish_step ok

begin "fresh root from base, mounts, clone $commit"
unmount_all "$root"
rm -rf --one-file-system "$root"
cp -a "$base" "$root"
mounted_roots+=("$root"); mount_all "$root"
# A network that intercepts TLS (a proxy with its own CA) needs that CA on every machine behind it: the
# host's local CAs go where Debian keeps them, and ca-certificates (pulled in by python3-venv) trusts them.
if ((host_ca)) && compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  say "the host's local CAs are trusted in the chroot: $(cd /usr/local/share/ca-certificates && echo ./*.crt)"
fi
mkdir -p "$root$(dirname "$clone")"
git clone --quiet --no-checkout "$repo" "$root$clone"
git -C "$root$clone" checkout --quiet --detach "$commit"
if [ -e "$root$clone/.venv" ] || [ -e "$root$clone/build" ]; then fail "the clone holds .venv or build/"; fi
finish_step ok

begin "the system is minimal: python3 and git, no python3-venv"
in_chroot "$root" 'python3 --version && git --version'
in_chroot "$root" "dpkg-query -W -f='\${Status}' python3-venv 2>/dev/null | grep -q 'install ok installed'" \
  && fail "python3-venv is installed in the base"
in_chroot "$root" "python3 -c 'import ensurepip' 2>/dev/null" && fail "ensurepip imports in the base"
say "python3-venv is not installed, ensurepip does not import"
finish_step ok

run_logged() {  # name, command in the chroot's clone; output to logs/<name>.log and the screen
  # In the background, under a time limit, and waited for: a test that hangs ends the run after --timeout
  # minutes, and a signal to this script is handled at once (bash runs traps only between commands).
  local log=$logs/$1.log pid viewer status=0
  : >"$log"
  timeout --kill-after=30 "${limit}m" chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    DEBIAN_FRONTEND=noninteractive PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd $clone && $2" >"$log" 2>&1 &
  pid=$!
  tail -n +1 -f --pid="$pid" "$log" &
  viewer=$!
  wait "$pid" || status=$?
  wait "$viewer" || true
  if ((status == 124 || status == 137)); then say "$1: no end after $limit min, stopped"; fi
  kill_chroot_processes "$root"  # what the command left running (a server, a pool's workers)
  return "$status"
}
no_setuptools_artefacts() {
  local found
  [ -d "$root$clone/build" ] || return 0
  found=$(find "$root$clone/build" -maxdepth 1 \( -name lib -o -name 'bdist.*' \))
  [ -z "$found" ] || fail "setuptools' artefacts in build/: $found"
}

# --- A. recovery: a broken .venv from a first run, then ./bootstrap build -------------------------
if [ "$mode" = build ] || [ "$mode" = all ]; then
  begin "A: python3 -m venv .venv fails and leaves a .venv without pip"
  if run_logged venv-attempt 'python3 -m venv .venv'; then fail "python3 -m venv succeeded without python3-venv"; fi
  [ -x "$root$clone/.venv/bin/python" ] || fail "the failed venv left no .venv/bin/python"
  in_chroot "$root" "$clone/.venv/bin/python -m pip --version" >/dev/null 2>&1 && fail "the broken .venv has pip"
  finish_step ok

  begin "A: ./bootstrap build"
  run_logged bootstrap-build './bootstrap build' || fail "./bootstrap build exited $? (log: $logs/bootstrap-build.log)"
  grep -q '^bootstrap: removing a broken .venv' "$logs/bootstrap-build.log" \
    || fail "./bootstrap build did not say it removes the broken .venv"
  grep -q '^bootstrap: installing .*python3-venv' "$logs/bootstrap-build.log" \
    || fail "./bootstrap build did not install python3-venv"
  finish_step ok

  begin "A: outputs in build/"
  out=$root$clone/build
  html=$(find "$out" -path "$out/.aids-cache" -prune -o -type f -name '*.html' -print | wc -l)
  pdf=$(find "$out" -path "$out/.aids-cache" -prune -o -type f -name '*.pdf' -print | wc -l)
  say "build/ holds $html HTML and $pdf PDF files ($((html + pdf)) in all)"
  ((html > 0 && pdf > 0)) || fail "no HTML or no PDF in build/"
  languages=$(sed -n 's/^languages: *\[\(.*\)\].*/\1/p' "$root$clone/aids.yaml" | tr -d ' ' | tr ',' ' ')
  [ -n "$languages" ] || fail "no languages in aids.yaml"
  games=0
  for game in "$root$clone"/games/*/; do
    game=$(basename "$game"); games=$((games + 1))
    for lang in $languages; do
      n_html=$(find "$out/$game" -path "*/$lang/*" -name '*.html' 2>/dev/null | wc -l)
      n_pdf=$(find "$out/$game" -path "*/$lang/*" -name '*.pdf' 2>/dev/null | wc -l)
      ((n_html > 0 && n_pdf > 0)) || fail "no HTML or PDF for $game in $lang ($n_html HTML, $n_pdf PDF)"
    done
  done
  say "all $games games have HTML and PDF in: $languages"
  # every PDF passes qpdf --check (exit 2 is an error; 3, warnings only, is accepted)
  bad=$(in_chroot "$root" "cd $clone && find build -path build/.aids-cache -prune -o -name '*.pdf' -print0 |
        xargs -0 -n1 sh -c 'qpdf --check \"\$0\" >/dev/null 2>&1; [ \$? -eq 2 ] && echo \"\$0\"; true'")
  [ -z "$bad" ] || fail "qpdf --check fails on: $bad"
  say "qpdf --check passes on all $pdf PDFs"
  no_setuptools_artefacts
  finish_step ok
fi

# --- B. ./bootstrap test --------------------------------------------------------------------------
if [ "$mode" = test ] || [ "$mode" = all ]; then
  begin "B: ./bootstrap test (ruff, mypy, pytest)"
  # -rs: pytest lists why tests were skipped (the browser tests skip when chromium is missing)
  run_logged bootstrap-test './bootstrap test -rs' || fail "./bootstrap test exited $? (log: $logs/bootstrap-test.log)"
  for part in ruff mypy tests; do
    grep -q "^bootstrap: $part\$" "$logs/bootstrap-test.log" || fail "./bootstrap test did not run $part"
  done
  result=$(grep -E '^=* ?[0-9]+ (passed|failed|errors?|skipped)' "$logs/bootstrap-test.log" | tail -1 | tr -d '=' |
    sed 's/^ *//; s/ *$//')
  say "pytest: ${result:-no summary line}"
  grep -q 'failed\|error' <<<"$result" && fail "pytest: $result"
  status=ok
  if grep -q 'chromium and chromium-driver .* are missing' "$logs/bootstrap-test.log"; then
    # Ubuntu's chromium and chromium-driver are debs that install snaps, and snaps do not run in a chroot
    [ "$distro" = ubuntu ] || fail "the browser tests were skipped: chromium or chromedriver missing"
    say "WARNING: the browser tests were skipped: Ubuntu's chromium is a snap, which cannot run in a chroot"
    status=warn
  fi
  finish_step "$status"

  begin "B: no setuptools artefacts in build/"
  no_setuptools_artefacts
  say "no build/lib, no build/bdist.*"
  finish_step ok
fi
