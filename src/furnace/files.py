"""A user's files: the one place that opens them, so every expected trouble becomes a `FurnaceError` naming the path.

`read_text` reads a regular file only (a folder, a FIFO, a device such as /dev/zero is refused before it
is opened, so nothing blocks or runs forever), under a size limit, as UTF-8; `regular_file` makes the same
checks for a reader of its own (a SQLite backup). `write_text` (and `write_with`, for a file another library
makes) writes whole or not at all (a temporary file in the same folder, then `os.replace`), refuses to
overwrite a file unless forced and never writes over one of the command's inputs; `check_output` makes its
checks before a long piece of work. `resolve_inside` keeps a file named in a data file (a fight file's party)
inside that file's folder unless the user allows otherwise.

A command's inputs: inside `command_inputs()` (the CLI opens one per command) every file `read_text` reads
is remembered, and so is every file `protect` names (the campaign database, its -wal and -shm); no output
of the command may be one of them, through any spelling, symlink or hard link, `--force` or not. A file the
command updates in place (`write_text(..., in_place=True)`: a character levelled up) may be one it read.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

from furnace.errors import DataFileError, FurnaceError

if TYPE_CHECKING:
    from pathlib import Path

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


def os_reason(exc: OSError, path: PathLike) -> str:
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


def not_regular(mode: int) -> str | None:
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


def regular_file(path: PathLike, *, limit: int = MAX_BYTES, what: str = "") -> os.stat_result:
    """The status of a user's file that is about to be read: a regular file (not a folder, a FIFO, a device)
    of at most `limit` bytes, or a `FileAccessError` saying why not. Nothing is opened."""
    try:
        st = os.stat(path)              # follows symlinks: a dangling one or a loop fails here
    except OSError as exc:
        raise FileAccessError(path, os_reason(exc, path), what=what) from None
    except ValueError:                  # an embedded NUL byte
        raise FileAccessError(path, "the name holds a NUL byte", what=what) from None
    if (kind := not_regular(st.st_mode)) is not None:
        raise FileAccessError(path, kind, what=what)
    if st.st_size > limit:
        raise FileAccessError(path, _too_large(st.st_size, limit), what=what)
    return st


def _too_large(size: int, limit: int) -> str:
    return f"it is too large ({_megabytes(size)}; the limit is {_megabytes(limit)})"


def read_bytes(path: PathLike, *, limit: int = MAX_BYTES, what: str = "") -> bytes:
    """The bytes of a user's regular file, at most `limit` of them (see `regular_file`); the file becomes an
    input of the running command."""
    def refuse(reason: str) -> FileAccessError:
        return FileAccessError(path, reason, what=what)

    regular_file(path, limit=limit, what=what)
    try:
        fd = os.open(path, _OPEN_FLAGS)   # non-blocking: a FIFO swapped in after the stat cannot hang us
    except OSError as exc:
        raise refuse(os_reason(exc, path)) from None
    try:
        with os.fdopen(fd, "rb") as stream:
            if (kind := not_regular(os.fstat(stream.fileno()).st_mode)) is not None:
                raise refuse(kind)
            data = stream.read(limit + 1)
    except OSError as exc:
        raise refuse(os_reason(exc, path)) from None
    if len(data) > limit:
        raise refuse(_too_large(len(data), limit))
    _remember(path)
    return data


def check_batch(paths: Iterable[PathLike], *, count: int, each: int, total: int, what: str = "") -> None:
    """A batch of files a command reads (the characters joining a campaign), checked before any is read: at
    most `count` of them, each a regular file of at most `each` bytes, `total` bytes in all."""
    listed = list(paths)
    if len(listed) > count:
        raise FurnaceError(f"{len(listed):,} files given; at most {count} are read at a time: give them in smaller "
                           "groups")
    size = sum(regular_file(p, limit=each, what=what).st_size for p in listed)
    if size > total:
        raise FurnaceError(f"the {len(listed)} files hold {_megabytes(size)} in all; at most {_megabytes(total)} are "
                           "read at a time: give them in smaller groups")


def read_head(path: PathLike, size: int, *, what: str = "") -> bytes:
    """The first `size` bytes of a user's regular file (a file type told by its first bytes), opened without
    blocking; the file becomes an input of the running command."""
    regular_file(path, limit=2**63 - 1, what=what)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise FileAccessError(path, os_reason(exc, path), what=what) from None
    try:
        with os.fdopen(fd, "rb") as stream:
            if (kind := not_regular(os.fstat(stream.fileno()).st_mode)) is not None:
                raise FileAccessError(path, kind, what=what)
            head = stream.read(size)
    except OSError as exc:
        raise FileAccessError(path, os_reason(exc, path), what=what) from None
    _remember(path)
    return head


def read_text(path: PathLike, *, limit: int = MAX_BYTES, what: str = "") -> str:
    """The text of a user's regular file (UTF-8, a leading byte-order mark dropped), at most `limit` bytes."""
    data = read_bytes(path, limit=limit, what=what)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FileAccessError(path, f"it is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line})",
                              what=what) from None
    return text.removeprefix("\ufeff")


# -- a command's inputs ---------------------------------------------------------------------------------------
@dataclass
class _Inputs:
    read: list[str] = field(default_factory=list)                     # what read_text read
    kept: list[tuple[str, str]] = field(default_factory=list)         # what `protect` named, and what it is
    found: list[tuple[Callable[[], Iterable[PathLike]], str]] = field(default_factory=list)   # when first needed


_INPUTS: ContextVar[_Inputs | None] = ContextVar("furnace_command_inputs", default=None)


@contextlib.contextmanager
def command_inputs() -> Iterator[None]:
    """One command: the files it reads and the files it protects are its inputs until it ends."""
    token = _INPUTS.set(_Inputs())
    try:
        yield
    finally:
        _INPUTS.reset(token)


def protect(paths: Iterable[PathLike] | Callable[[], Iterable[PathLike]], what: str) -> None:
    """Files no output of the running command may replace, and what they are ("part of the campaign
    database"). A function is asked only when the command first writes a file (finding the database costs
    start-up time that commands which write nothing should not pay); what it cannot find it does not name."""
    inputs = _INPUTS.get()
    if inputs is None:
        return
    if callable(paths):
        inputs.found.append((paths, what))
    else:
        inputs.kept.extend((os.fspath(p), what) for p in paths)


def _remember(path: PathLike) -> None:
    inputs = _INPUTS.get()
    if inputs is not None:
        inputs.read.append(os.fspath(path))


def _protected(target: str, *, in_place: bool) -> Iterator[tuple[str, str]]:
    """The running command's inputs that `target` may not be, each with what it is (the files it read, but
    `target` itself when the command updates it in place)."""
    inputs = _INPUTS.get()
    if inputs is None:
        return
    while inputs.found:
        find, what = inputs.found.pop(0)
        with contextlib.suppress(FurnaceError, OSError, ValueError):
            inputs.kept.extend((os.fspath(p), what) for p in find())
    yield from inputs.kept
    for path in inputs.read:
        if not (in_place and same_file(path, target)):
            yield path, "an input of this command"


def same_file(a: PathLike, b: PathLike) -> bool:
    """Whether two paths name one file: the same real path (a file yet to be made included), or the same
    device and inode (a symlink to it, a hard link)."""
    try:
        if os.path.realpath(a) == os.path.realpath(b):
            return True
    except (OSError, ValueError):
        pass
    try:
        one, other = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


def write_text(path: PathLike, text: str, *, force: bool = False, inputs: Iterable[PathLike | None] = (),
               what: str = "", in_place: bool = False) -> None:
    """Write `text` (UTF-8) to `path` whole or not at all (see `write_with`)."""
    data = text.encode("utf-8")

    def produce(temp: str) -> None:
        with open(temp, "wb") as stream:
            stream.write(data)

    write_with(path, produce, force=force, inputs=inputs, what=what, in_place=in_place)


def write_with(path: PathLike, produce: Callable[[str], object], *, force: bool = False,
               inputs: Iterable[PathLike | None] = (), what: str = "", in_place: bool = False) -> None:
    """Make the file at `path` whole or not at all: `produce(temp)` writes a new empty file in the same folder,
    then `os.replace` puts it in place, so a reader sees the old file or the new one, never half of it, and a
    failure leaves the old one untouched.

    An existing file is replaced only with `force` (and never a read-only one, a folder or a device); a path
    that is one of `inputs` or of the running command's inputs (`command_inputs`) is refused even with
    `force`; with `in_place` (the command updates the file it read) the file itself may be one it read."""
    target, st = check_output(path, force=force, inputs=inputs, what=what, in_place=in_place)
    folder = os.path.dirname(target) or "."
    try:
        _replace(target, folder, produce, None if st is None else stat.S_IMODE(st.st_mode))
    except OSError as exc:
        raise FileAccessError(path, os_reason(exc, target), verb="write", what=what) from None


def check_output(path: PathLike, *, force: bool = False, inputs: Iterable[PathLike | None] = (), what: str = "",
                 in_place: bool = False) -> tuple[str, os.stat_result | None]:
    """Refuse, before any work, an output `write_with` would refuse: an input of the command, an existing file
    without `force`, a read-only file, a folder or a device, a folder that is not there. Returns the path to
    replace (a symlink's target) and the status of the file there, if any."""
    def refuse(reason: str) -> FileAccessError:
        return FileAccessError(path, reason, verb="write", what=what)

    target = os.fspath(path)
    if "\0" in target:
        raise refuse("the name holds a NUL byte")
    named = [(os.fspath(p), "an input of this command") for p in inputs if p is not None]
    for source, it_is in [*_protected(target, in_place=in_place), *named]:
        if same_file(target, source):
            raise refuse(f"it is {it_is} ({shown(source)}); choose another file")
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        if os.path.islink(target):
            raise refuse("it is a symlink to a file that does not exist") from None
        st = None
    except OSError as exc:
        raise refuse(os_reason(exc, target)) from None
    if st is not None:
        if (kind := not_regular(st.st_mode)) is not None:
            raise refuse(kind)
        if not force and not in_place:
            raise refuse("it already exists (pass --force to overwrite it)")
        if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise refuse("it is read-only")
        target = os.path.realpath(target)      # through a symlink: replace the file, keep the link
    if not os.path.isdir(os.path.dirname(target) or "."):
        raise refuse(os_reason(FileNotFoundError(errno.ENOENT, "missing"), target))
    return target, st


def _replace(target: str, folder: str, produce: Callable[[str], object], mode: int | None) -> None:
    """Make a temporary file next to `target`, then rename it over `target`; remove it if anything fails."""
    temp = ""
    try:
        for _ in range(8):
            # secrets.token_hex's bytes, without importing secrets (hmac, hashlib: ~3 ms of every command's start)
            name = os.path.join(folder, f".furnace-{os.urandom(6).hex()}.tmp")
            try:
                fd = os.open(name, _CREATE_FLAGS, 0o666)      # the umask applies, as for any new file
            except FileExistsError:
                continue
            os.close(fd)
            temp = name
            break
        else:
            raise FileExistsError(errno.EEXIST, "no free temporary name")
        produce(temp)
        synced = os.open(temp, os.O_RDWR | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
        try:
            os.fsync(synced)
        finally:
            os.close(synced)
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, target)
        temp = ""
    finally:
        if temp:
            with contextlib.suppress(OSError):
                os.unlink(temp)


# -- folders and what may be written -------------------------------------------------------------------------
def folder_problem(path: PathLike) -> str | None:
    """Why `path` cannot be a folder to keep files in (None: it is one, or it can be made)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return "a part of it is a file, not a folder"
    except OSError as exc:
        return (exc.strerror or type(exc).__name__).lower()
    except ValueError:
        return "the name holds a NUL byte"
    if stat.S_ISDIR(st.st_mode):
        return None
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        return "it is a device, not a folder"
    return "it is a file, not a folder"


def disk_read_only(path: PathLike) -> bool:
    """Whether `path` is on a disk mounted read-only."""
    statvfs = getattr(os, "statvfs", None)
    try:
        return bool(statvfs and statvfs(path).f_flag & getattr(os, "ST_RDONLY", 1))
    except (OSError, ValueError):
        return False


def cannot_write(path: PathLike) -> bool:
    """Whether a file or folder is read-only: by its mode (no one may write it, which holds for the superuser
    too, as `write_text` has it), by the system's say, or by its disk."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return True
    return not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK) \
        or disk_read_only(path)


def resolve_inside(base_dir: PathLike, ref: str, allow_outside: bool = False, *, what: str = "file",
                   option: str = "--allow-outside") -> Path:
    """`ref` (a path written in a data file) taken from `base_dir`, refused when it leads out of that folder
    (an absolute path, `..`, or a symlink out) unless `allow_outside`."""
    from pathlib import Path  # here: `furnace roll` needs no pathlib (nor the urllib.parse it imports)

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


# where platformdirs puts a user's folders on Linux: the XDG variable when it is an absolute path, else under HOME
_XDG = {"cache": ("XDG_CACHE_HOME", ".cache"), "config": ("XDG_CONFIG_HOME", ".config"),
        "data": ("XDG_DATA_HOME", os.path.join(".local", "share"))}


def user_folder(kind: str) -> str:
    """Furnace's folder of the user's `cache`, `config` or `data`, as platformdirs finds it: on Linux read here from
    the XDG variable or HOME (platformdirs imports pathlib and tempfile: a few ms of every command's start), and by
    platformdirs itself elsewhere or when HOME is no absolute path."""
    variable, under = _XDG[kind]
    if sys.platform.startswith("linux"):
        xdg, home = os.environ.get(variable, ""), os.environ.get("HOME", "")
        if os.path.isabs(xdg):
            return os.path.join(xdg, "furnace")
        if os.path.isabs(home):
            return os.path.join(home, under, "furnace")
    import platformdirs

    found: str = getattr(platformdirs, f"user_{kind}_dir")("furnace", appauthor=False)
    return found
