"""A user's files: the one place that opens them, so every expected trouble becomes a `FurnaceError` naming the path.

`read_text` reads a regular file only (a folder, a FIFO, a device such as /dev/zero is refused before it
is opened, so nothing blocks or runs forever), under a size limit, as UTF-8. `write_text` writes whole or
not at all (a temporary file in the same folder, then `os.replace`), refuses to overwrite a file unless
forced and never writes over one of the command's own input files. `resolve_inside` keeps a file named in
a data file (a fight file's party) inside that file's folder unless the user allows otherwise.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import TypeAlias

from furnace.errors import DataFileError, FurnaceError

PathLike: TypeAlias = str | os.PathLike[str]

MAX_BYTES = 4 * 1024 * 1024        # a character, a fight, a campaign state: kilobytes; 4 MiB is plenty
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_CREATE_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
                 | getattr(os, "O_BINARY", 0))


class FileAccessError(DataFileError):
    """A user's file that cannot be read or written: missing, a folder, not a regular file, too large,
    not UTF-8, no permission, an input of the command, outside the folder it must be in."""

    def __init__(self, path: PathLike, reason: str, *, verb: str = "read", what: str = "") -> None:
        self.path = os.fspath(path)
        self.row = None
        self.reason = reason
        self.verb = verb
        FurnaceError.__init__(self, f"cannot {verb} {what + ' ' if what else ''}{shown(path)}: {reason}")


def shown(path: PathLike) -> str:
    """The path as the user wrote it, quoted only when it holds characters that would break the line."""
    text = os.fspath(path)
    return text if text.isprintable() else repr(text)


def _reason(exc: OSError, path: PathLike) -> str:
    """The plain words for an OS error on `path`."""
    code = exc.errno
    if code == errno.ENOENT:
        if os.path.islink(path):
            return "it is a symlink to a file that does not exist"
        folder = os.path.dirname(os.fspath(path))
        if folder and not os.path.isdir(folder):
            return f"the folder {shown(folder)} does not exist"
        return "no such file"
    reasons = {errno.ENOTDIR: "a part of the path is not a folder", errno.EISDIR: "it is a folder",
               errno.EACCES: "permission denied", errno.EPERM: "permission denied",
               errno.ELOOP: "it is a symlink loop", errno.ENAMETOOLONG: "the name is too long",
               errno.ENOSPC: "no space left on the device", errno.EROFS: "the file system is read-only",
               errno.EXDEV: "cannot move the finished file into place across devices"}
    if code in reasons:
        return reasons[code]
    return (exc.strerror or type(exc).__name__).lower()


def _kind(mode: int) -> str | None:
    """Why a file of this mode is not a regular file (None when it is one)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "it is a folder"
    if stat.S_ISFIFO(mode):
        return "it is a pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a regular file"
    return "it is not a regular file"


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB" if size >= 100 * 1024 else f"{size:,} bytes"


def read_text(path: PathLike, *, limit: int = MAX_BYTES, what: str = "") -> str:
    """The text of a user's regular file (UTF-8, a leading byte-order mark dropped), at most `limit` bytes."""
    def refuse(reason: str) -> FileAccessError:
        return FileAccessError(path, reason, what=what)

    try:
        before = os.stat(path)          # follows symlinks: a dangling one or a loop fails here
    except OSError as exc:
        raise refuse(_reason(exc, path)) from None
    except ValueError:                  # an embedded NUL byte
        raise refuse("the name holds a NUL byte") from None
    if (kind := _kind(before.st_mode)) is not None:
        raise refuse(kind)
    too_large = f"it is too large ({_megabytes(before.st_size)}; the limit is {_megabytes(limit)})"
    if before.st_size > limit:
        raise refuse(too_large)
    try:
        fd = os.open(path, _OPEN_FLAGS)   # non-blocking: a FIFO swapped in after the stat cannot hang us
    except OSError as exc:
        raise refuse(_reason(exc, path)) from None
    try:
        with os.fdopen(fd, "rb") as stream:
            if (kind := _kind(os.fstat(stream.fileno()).st_mode)) is not None:
                raise refuse(kind)
            data = stream.read(limit + 1)
    except OSError as exc:
        raise refuse(_reason(exc, path)) from None
    if len(data) > limit:
        raise refuse(too_large)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise refuse(f"it is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line})") from None
    return text.removeprefix("\ufeff")


def same_file(a: PathLike, b: PathLike) -> bool:
    """Whether two paths name one file (the same path, a symlink to it, or a hard link)."""
    try:
        if os.path.samefile(a, b):
            return True
    except (OSError, ValueError):
        pass
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def write_text(path: PathLike, text: str, *, force: bool = False, inputs: Iterable[PathLike | None] = (),
               what: str = "") -> None:
    """Write `text` (UTF-8) to `path` whole or not at all.

    An existing file is replaced only with `force` (and never a read-only one, a folder or a device);
    a path that is one of `inputs` (the files the command read) is refused even with `force`. The text
    goes to a temporary file in the same folder, then `os.replace` puts it in place: a reader sees the
    old file or the new one, never half of it, and a failure leaves the old one untouched."""
    def refuse(reason: str) -> FileAccessError:
        return FileAccessError(path, reason, verb="write", what=what)

    target = os.fspath(path)
    if "\0" in target:
        raise refuse("the name holds a NUL byte")
    for source in inputs:
        if source is not None and same_file(target, source):
            raise refuse(f"it is an input of this command ({shown(source)}); choose another file")
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        if os.path.islink(target):
            raise refuse("it is a symlink to a file that does not exist") from None
        st = None
    except OSError as exc:
        raise refuse(_reason(exc, target)) from None
    if st is not None:
        if (kind := _kind(st.st_mode)) is not None:
            raise refuse(kind)
        if not force:
            raise refuse("it already exists (pass --force to overwrite it)")
        if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise refuse("it is read-only")
        target = os.path.realpath(target)      # through a symlink: replace the file, keep the link
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise refuse(_reason(FileNotFoundError(errno.ENOENT, "missing"), target))
    try:
        _replace(target, folder, text.encode("utf-8"), None if st is None else stat.S_IMODE(st.st_mode))
    except OSError as exc:
        raise refuse(_reason(exc, target)) from None


def _replace(target: str, folder: str, data: bytes, mode: int | None) -> None:
    """Write a temporary file next to `target`, then rename it over `target`; remove it if anything fails."""
    temp = ""
    try:
        for _ in range(8):
            name = os.path.join(folder, f".furnace-{secrets.token_hex(6)}.tmp")
            try:
                fd = os.open(name, _CREATE_FLAGS, 0o666)      # the umask applies, as for any new file
            except FileExistsError:
                continue
            temp = name
            break
        else:
            raise FileExistsError(errno.EEXIST, "no free temporary name")
        with os.fdopen(fd, "wb") as stream:
            if mode is not None:
                os.chmod(temp, mode)
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, target)
        temp = ""
    finally:
        if temp:
            with contextlib.suppress(OSError):
                os.unlink(temp)


def resolve_inside(base_dir: PathLike, ref: str, allow_outside: bool = False, *, what: str = "file",
                   option: str = "--allow-outside") -> Path:
    """`ref` (a path written in a data file) taken from `base_dir`, refused when it leads out of that folder
    (an absolute path, `..`, or a symlink out) unless `allow_outside`."""
    base = Path(base_dir)
    joined = base / ref
    if allow_outside:
        return joined
    where = f"the folder {shown(base)}" if str(base) not in ("", ".") else "the current folder"
    outside = FileAccessError(ref, f"it is outside {where}; pass {option} to read it", what=f"the {what}")
    if "\0" in ref:
        raise FileAccessError(ref, "the name holds a NUL byte", what=f"the {what}")
    if Path(ref).is_absolute() or Path(ref).drive:
        raise outside
    try:
        inside = joined.resolve().is_relative_to(base.resolve())
    except (OSError, RuntimeError):   # a symlink loop (RuntimeError before Python 3.13): reading it will say so
        return joined
    if not inside:
        raise outside
    return joined
