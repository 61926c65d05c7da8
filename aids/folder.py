"""The one place through which aids writes, moves, removes and reads its own files: a `Folder`.

A Folder is a root that aids was given (the output folder, the project, its catalogs) and names relative to it.
Every name is checked (relative, no `..`, no empty part, no NUL) and walked one folder at a time from a
descriptor of the root, each step opened with O_NOFOLLOW: a symbolic link below the root is never followed,
whether it was planted before the build or made between a check and its use. Files are written atomically (a
temporary file beside the target, then one rename, which replaces a link rather than writing through it),
moved only when they are regular files, and folders removed without following the links inside them. What the
file system refuses (no permission, a full disk, a file where a folder should be, a link) is one line, an
AidsError naming the path, never a traceback. Containment is a property of this code, not a check per command.
"""
from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from .errors import AidsError, Position, Problem

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_REASONS = {
    errno.ELOOP: ("is a symbolic link, which aids does not follow", "a real folder or file, not a link"),
    errno.ENOTDIR: ("is not a folder", "a folder"),
    errno.EISDIR: ("is a folder", "a file"),
    errno.EACCES: ("cannot be written: permission denied", "a folder you may write to"),
    errno.EPERM: ("cannot be written: operation not permitted", "a folder you may write to"),
    errno.EROFS: ("cannot be written: the file system is read-only", "a folder you may write to"),
    errno.ENOSPC: ("cannot be written: the disk is full", "free space on the disk"),
    errno.EDQUOT: ("cannot be written: the disk quota is exceeded", "free space on the disk"),
    errno.ENAMETOOLONG: ("has a name too long for the file system", "a shorter name"),
}


class Unsafe(AidsError):
    """A path aids refuses to follow: a link, a file where a folder should be, a file that is not regular."""


class Outside(Unsafe):
    """A name that would leave its folder: absolute, with '..', empty, or holding a NUL."""


def refusal(shown: str, exc: OSError) -> AidsError:
    """What the file system said, as one line about `shown`."""
    message, expected = _REASONS.get(exc.errno or 0, (f"cannot be written: {exc.strerror or exc}", ""))
    kind = Unsafe if exc.errno in (errno.ELOOP, errno.ENOTDIR) else AidsError
    return kind(Problem(Position(shown), message, expected))


class Folder:
    """`root` and the names inside it; `shown` is how the root is printed in messages (e.g. "build")."""

    def __init__(self, root: Path, shown: str | None = None, parts: tuple[str, ...] = ()):
        self.root = Path(root)
        self.shown = shown if shown is not None else str(root)
        self.parts = parts

    @classmethod
    def holding(cls, root: Path, path: Path, shown: str | None = None) -> tuple[Folder, str]:
        """The Folder `root` and the name of `path` in it; shown as `shown` (the file as the user sees it, e.g.
        "i18n/pl/LC_MESSAGES/demo.po") shows the folder."""
        name = path.relative_to(root).as_posix()
        prefix = shown[:-len(name)].rstrip("/") if shown is not None and shown.endswith(name) else str(root)
        return cls(root, prefix), name

    def __truediv__(self, name: str | PurePosixPath) -> Folder:
        return Folder(self.root, self.shown, self.parts + self._parts(name))

    @property
    def path(self) -> Path:
        return self.root.joinpath(*self.parts)

    def show(self, name: str | PurePosixPath = "") -> str:
        return self._shown((*self.parts, *([str(name)] if str(name) else [])))

    def _parts(self, name: str | PurePosixPath) -> tuple[str, ...]:
        text = str(name)
        parts = tuple(p for p in text.replace("\\", "/").split("/") if p not in ("", "."))
        if not parts or text.startswith(("/", "\\")) or "\0" in text or ".." in parts or "//" in text:
            raise Outside(Problem(Position(self.show(text.replace("\0", "\\0"))), "is not a name inside its folder",
                                 f"a relative path inside {self.show()}, without '..'"))
        return parts

    # --- walking -------------------------------------------------------------------------------------------

    @contextmanager
    def _opened(self, parts: tuple[str, ...], create: bool = False) -> Iterator[int]:
        """A descriptor of the folder `parts` (relative to the root), reached without following a link."""
        fd = self._open_root(create)
        try:
            for n, part in enumerate(parts):
                try:
                    next_fd = os.open(part, _DIR, dir_fd=fd)
                except FileNotFoundError:
                    if not create:
                        raise
                    try:
                        os.mkdir(part, 0o755, dir_fd=fd)
                    except FileExistsError:
                        pass
                    next_fd = os.open(part, _DIR, dir_fd=fd)
                except OSError as exc:
                    raise refusal(self._shown(parts[:n + 1]), _as_link(exc, part, fd)) from None
                os.close(fd)
                fd = next_fd
            yield fd
        finally:
            os.close(fd)

    def _open_root(self, create: bool) -> int:
        try:
            if create:
                self.root.mkdir(parents=True, exist_ok=True)
            return os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise refusal(self.shown, exc) from None

    def _shown(self, parts: tuple[str, ...]) -> str:
        return "/".join([*([self.shown] if self.shown not in ("", ".") or not parts else []), *parts])

    @contextmanager
    def _leaf(self, name: str | PurePosixPath, create: bool = False) -> Iterator[tuple[int, str, str]]:
        """The descriptor of the folder holding `name`, the last part of `name`, and the name as shown."""
        parts = self.parts + self._parts(name)
        shown = self._shown(parts)
        try:
            with self._opened(parts[:-1], create) as fd:
                yield fd, parts[-1], shown
        except (AidsError, FileNotFoundError):
            raise
        except OSError as exc:
            raise refusal(shown, exc) from None

    @contextmanager
    def descriptor(self, name: str | PurePosixPath = "") -> Iterator[int]:
        """A descriptor of the folder `name`, reached without following a link (for os.fwalk and the like)."""
        with self._opened(self.parts + (self._parts(name) if str(name) else ())) as fd:
            yield fd

    # --- what is there -----------------------------------------------------------------------------------

    def lstat(self, name: str | PurePosixPath) -> os.stat_result | None:
        """The entry `name` itself (a link is not followed), or None when it or a folder on its way is missing
        or is not a folder; a name outside the folder is refused (Unsafe)."""
        try:
            with self._leaf(name) as (fd, leaf, _):
                return os.stat(leaf, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except Outside:
            raise
        except Unsafe:
            return None

    def exists(self, name: str | PurePosixPath) -> bool:
        """Whether there is an entry `name` (a link counts); a link or a file among the folders on its way is
        refused (Unsafe), not taken for absence."""
        try:
            with self._leaf(name) as (fd, leaf, _):
                os.stat(leaf, dir_fd=fd, follow_symlinks=False)
                return True
        except FileNotFoundError:
            return False

    def regular(self, name: str | PurePosixPath) -> os.stat_result | None:
        """The entry `name` when it is a regular file (not a link to one), else None."""
        found = self.lstat(name)
        return found if found is not None and stat.S_ISREG(found.st_mode) else None

    def is_file(self, name: str | PurePosixPath) -> bool:
        return self.regular(name) is not None

    def is_dir(self, name: str | PurePosixPath = "") -> bool:
        found = self.lstat(name) if str(name) else self._root_stat()
        return found is not None and stat.S_ISDIR(found.st_mode)

    def _root_stat(self) -> os.stat_result | None:
        try:
            with self._opened(self.parts) as fd:
                return os.fstat(fd)
        except (OSError, Unsafe):
            return None

    def names(self, name: str | PurePosixPath = "") -> list[str]:
        """The entries of a folder, sorted; none when it is missing."""
        parts = self.parts + (self._parts(name) if str(name) else ())
        try:
            with self._opened(parts) as fd:
                return sorted(os.listdir(fd))
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise refusal(self._shown(parts), exc) from None

    def files(self, name: str | PurePosixPath = "") -> Iterator[str]:
        """Every regular file below a folder, as names relative to this Folder (links are not entered)."""
        return (found for found, info in self.entries(name) if stat.S_ISREG(info.st_mode))

    def entries(self, name: str | PurePosixPath = "") -> Iterator[tuple[str, os.stat_result]]:
        """Everything below a folder that is not a folder (files, links, whatever else), with its own stat, as
        names relative to this Folder, sorted within each folder; links are not entered, links to folders
        included."""
        parts = self.parts + (self._parts(name) if str(name) else ())
        try:
            with self._opened(parts) as fd:
                for top, dirs, found, top_fd in os.fwalk(".", dir_fd=fd, follow_symlinks=False):
                    for leaf in sorted([*dirs, *found]):
                        info = os.stat(leaf, dir_fd=top_fd, follow_symlinks=False)
                        if not stat.S_ISDIR(info.st_mode):
                            yield PurePosixPath(*parts[len(self.parts):], top, leaf).as_posix(), info
        except FileNotFoundError:
            return

    # --- reading -----------------------------------------------------------------------------------------

    def read(self, name: str | PurePosixPath, limit: int | None = None) -> bytes | None:
        """The bytes of a regular file, or None when it is missing; a link or anything else is refused."""
        try:
            return self._read(name, limit)
        except FileNotFoundError:
            return None

    def _read(self, name: str | PurePosixPath, limit: int | None) -> bytes | None:
        with self._leaf(name) as (fd, leaf, shown):
            try:
                file = os.open(leaf, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=fd)
            except FileNotFoundError:
                return None
            except OSError as exc:
                raise refusal(shown, exc) from None
            _regular(file, shown)
            with os.fdopen(file, "rb") as fp:
                return fp.read(-1 if limit is None else limit)

    # --- writing -----------------------------------------------------------------------------------------

    def write(self, name: str | PurePosixPath, data: bytes, *, new: bool = False) -> Path:
        """Write `data` to `name` atomically, creating its folders; with `new`, never over an existing entry."""
        with self._leaf(name, create=True) as (fd, leaf, shown):
            temporary = f".{leaf[:100]}.{secrets.token_hex(6)}.tmp"
            try:
                out = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644,
                              dir_fd=fd)
                try:
                    with os.fdopen(out, "wb") as fp:
                        fp.write(data)
                        os.fchmod(fp.fileno(), 0o644)
                    if new:
                        os.link(temporary, leaf, src_dir_fd=fd, dst_dir_fd=fd, follow_symlinks=False)
                        os.unlink(temporary, dir_fd=fd)
                    else:
                        os.replace(temporary, leaf, src_dir_fd=fd, dst_dir_fd=fd)
                except BaseException:
                    _quietly(os.unlink, temporary, dir_fd=fd)
                    raise
            except FileExistsError:
                raise AidsError(Problem(Position(shown), "exists", "a new name; nothing is overwritten")) from None
            except OSError as exc:
                raise refusal(shown, exc) from None
        return self.root.joinpath(*self.parts, *self._parts(name))

    def mkdir(self, name: str | PurePosixPath) -> None:
        with self._opened(self.parts + self._parts(name), create=True):
            pass

    def move(self, source: str | PurePosixPath, target: str | PurePosixPath) -> None:
        """Rename the regular file `source` to `target` (both inside this Folder), creating folders as needed."""
        with self._leaf(source) as (src_fd, src_leaf, shown):
            found = os.stat(src_leaf, dir_fd=src_fd, follow_symlinks=False)
            if not stat.S_ISREG(found.st_mode):
                raise Unsafe(Problem(Position(shown), "is not a regular file", "a file aids wrote"))
            os.chmod(src_leaf, 0o644, dir_fd=src_fd)  # a regular file, checked above: no link to follow
            with self._leaf(target, create=True) as (dst_fd, dst_leaf, dst_shown):
                try:
                    os.replace(src_leaf, dst_leaf, src_dir_fd=src_fd, dst_dir_fd=dst_fd)
                except OSError as exc:
                    raise refusal(dst_shown, exc) from None

    def remove(self, name: str | PurePosixPath) -> bool:
        """Remove `name` (a file, a link itself, or a folder and all below it, links not followed); whether it
        was there."""
        try:
            with self._leaf(name) as (fd, leaf, shown):
                try:
                    found = os.stat(leaf, dir_fd=fd, follow_symlinks=False)
                    if stat.S_ISDIR(found.st_mode):
                        shutil.rmtree(leaf, dir_fd=fd)
                    else:
                        os.unlink(leaf, dir_fd=fd)
                except FileNotFoundError:
                    return False
                except OSError as exc:
                    raise refusal(shown, exc) from None
        except FileNotFoundError:
            return False
        return True

    def rmdir(self, name: str | PurePosixPath) -> None:
        """Remove an empty folder; nothing when it is not empty or not there."""
        try:
            with self._leaf(name) as (fd, leaf, _):
                os.rmdir(leaf, dir_fd=fd)
        except (OSError, AidsError):
            pass


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def not_regular(mode: int) -> str:
    """What an entry that is not a regular file is, as a message says it: "is a named pipe (FIFO), not a file"."""
    return f"is {next((kind for test, kind in _KINDS if test(mode)), 'not a regular file')}, not a file"


def amount(size: int) -> str:
    """A size as a limit says it: 5 MB, 64 KB."""
    return f"{size // 1048576} MB" if size >= 1048576 else f"{size // 1024} KB"


def _regular(fd: int, shown: str) -> os.stat_result:
    """The status of the open `fd`; closed and refused (Unsafe) unless it is a regular file."""
    found = os.fstat(fd)
    if not stat.S_ISREG(found.st_mode):
        os.close(fd)
        raise Unsafe(Problem(Position(shown), not_regular(found.st_mode), "a file"))
    return found


def read_file(path: Path, shown: str, limit: int) -> bytes:
    """The bytes of an input file of the project (a source, a catalog, a stylesheet, an image), at most `limit` of
    them. Whatever is not a regular file (a folder, a FIFO, /dev/zero) is refused before a byte is read, and a file
    past the limit is not read: reading is bounded in time and memory whatever is named. A link to a file is
    followed (a source may be one; its reader confines where it leads); what aids keeps of its own is read through
    a Folder, which follows none."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a FIFO opened so does not wait for a writer
    except FileNotFoundError:
        raise AidsError(Problem(Position(shown), "file not found")) from None
    except OSError as exc:
        raise refusal(shown, exc) from None
    found = _regular(fd, shown)
    with os.fdopen(fd, "rb") as file:
        data = file.read(limit + 1) if found.st_size <= limit else b""  # one byte past the limit, if it grew
    if max(found.st_size, len(data)) > limit:
        size = max(found.st_size, len(data))
        raise AidsError(Problem(Position(shown), f"file of {size / 1048576:.1f} MB, larger than the limit"
                                if size >= 1048576 else f"file of {size} bytes, larger than the limit",
                                f"at most {amount(limit)}"))
    return data


def _as_link(exc: OSError, name: str, fd: int) -> OSError:
    """O_DIRECTORY | O_NOFOLLOW says ENOTDIR for a link: say ELOOP then, so the message names the link."""
    try:
        if exc.errno == errno.ENOTDIR and stat.S_ISLNK(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
            return OSError(errno.ELOOP, os.strerror(errno.ELOOP))
    except OSError:
        pass
    return exc


def _quietly(function, *args, **kwargs) -> None:
    try:
        function(*args, **kwargs)
    except OSError:
        pass


def write_atomic(path: Path, data: bytes, within: Path | None = None, shown: str | None = None) -> None:
    """Write one file of the folder `within` (by default the file's own folder) through a Folder; `shown`: the
    file as messages show it."""
    folder, name = Folder.holding(within if within is not None else path.parent, path, shown)
    folder.write(name, data)
