"""The packaged rules data, parsed and validated once per machine rather than once per command.

Reading the 68 packaged YAML files and validating them takes a few hundred milliseconds, more than the rest
of a command. `cached(name, folder, build)` keeps what `build()` made in a pickle in the user's cache folder
(`FURNACE_CACHE_DIR`, else the platform's cache folder), under a key made from Furnace's version, the bytes
of every file in the data folder and the source of the modules whose classes are pickled (`furnace.rules`):
a changed, added or removed data file or a changed class is a new key, so a stale cache is never read.
Reading the files to hash them costs about 2 ms.

Of a referee's files, only what was made of a text is kept, under that whole text: every file is read every time,
and its text compared whole with the one kept (`parsed_text` keeps the parse of the last fight file, `validated_text`
the characters validated from the party files read lately); `kept_code` keeps the code compiled of a dice
expression's source (`furnace.dice.compiled`) under that source. The cache holds our own objects, written by this
process's user in that user's own folder; anyone who can write there can already run code as that user. Any trouble
with the cache (a folder that cannot be made, a truncated or foreign file, a pickle of older classes) is not the
user's problem: the data is built from the files again.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable
from types import CodeType
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

T = TypeVar("T")
OFF = "off"          # FURNACE_CACHE_DIR=off: always build from the files (benchmarks of a cold start)


def folder() -> str | None:
    """Where the cache lives, or None when it is turned off (a path: no pathlib to import on a hit)."""
    chosen = os.environ.get("FURNACE_CACHE_DIR")
    if chosen == OFF:
        return None
    if chosen:
        return chosen
    from furnace.files import user_folder

    return user_folder("cache")


def _version() -> str:
    # The package's own constant, not importlib.metadata: importing that costs ~50 ms of every command's start.
    from furnace import __version__

    return __version__


def key(*sources: Traversable | str) -> str:
    """A digest of Furnace's version and every file below each source (or the source itself when it is a
    file), by name and content (bytecode caches left out). A source is a package's resource or a folder's path
    (read with `os`: no `importlib.resources` to import, for the commands that read `furnace.rules.plain`)."""
    import hashlib

    digest = hashlib.sha256(_version().encode())
    stack: list[tuple[Traversable | _Path, str]] = [(_node(source), str(i)) for i, source in enumerate(sources)]
    while stack:
        node, name = stack.pop()
        if node.is_file():
            digest.update(name.encode() + b"\0" + node.read_bytes() + b"\0")
        elif node.is_dir() and node.name != "__pycache__":
            entries: list[Traversable | _Path] = sorted(node.iterdir(), key=lambda e: e.name)
            stack += [(entry, f"{name}/{entry.name}") for entry in entries]
    return digest.hexdigest()[:32]


class _Path:
    """A folder or file by its path, answering what `key` asks of a resource."""

    def __init__(self, path: str) -> None:
        self.path, self.name = path, os.path.basename(path)

    def is_file(self) -> bool:
        return os.path.isfile(self.path)

    def is_dir(self) -> bool:
        return os.path.isdir(self.path)

    def read_bytes(self) -> bytes:
        with open(self.path, "rb") as f:
            return f.read()

    def iterdir(self) -> list[_Path]:
        return [_Path(os.path.join(self.path, n)) for n in os.listdir(self.path)]


def _node(source: Traversable | str) -> Traversable | _Path:
    """A path (text or a `Path`, as `furnace.rules.datafile.packaged` gives) is read with `os` (pathlib's methods
    cost a command ~1 ms over the packaged data's 80 files); a resource as it is."""
    return _Path(os.fspath(source)) if isinstance(source, str | os.PathLike) else source


@functools.cache
def _classes() -> str:
    """The digest of the modules whose classes are pickled (`furnace.rules`, this module's folder): read once a
    process, however many caches a command opens, since the running code does not change under it."""
    return key(os.path.dirname(os.path.abspath(__file__)))


def cached(name: str, source: Traversable | str, build: Callable[[], T]) -> T:
    """What `build()` makes from the file `source` or the files below it, read from the cache when they and
    the classes it is made of have not changed."""
    import hashlib
    import pickle

    where = folder()
    if where is None:
        return build()
    mixed = hashlib.sha256((key(source) + _classes()).encode()).hexdigest()[:32]
    path = os.path.join(where, f"{name}-{mixed}.pickle")
    with contextlib.suppress(Exception):        # any unreadable cache: build again (see the module's note)
        with open(path, "rb") as f:
            value: T = pickle.load(f)
        return value
    value = build()
    _store(path, value)
    return value


def _store(where: str, value: object, *, prune: bool = True) -> None:
    """Write whole or not at all: a temporary file in the same folder, then a rename (`prune`: the files of the same
    name's earlier versions removed)."""
    import pickle
    import tempfile  # (here: a command that finds its caches writes none)
    from pathlib import Path

    path = Path(where)
    with contextlib.suppress(OSError, pickle.PicklingError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        for old in path.parent.glob(f"{path.name.rsplit('-', 1)[0]}-*.pickle") if prune else ():   # earlier data
            if old != path:
                with contextlib.suppress(OSError):
                    old.unlink()


def stamp(*folders: str) -> str:
    """Every file below the folders by name, size and time of change (as Python's own bytecode cache tells a changed
    source: nothing read but the folders' listings), with Furnace's and Python's versions. (A folder's entries are
    read with `os.scandir`: one `stat` a file, where asking whether it is a folder, a file, and its size cost three.)"""
    parts = [_version(), sys.version]
    stack = [(f, str(i)) for i, f in enumerate(folders)]
    while stack:
        path, name = stack.pop()
        if os.path.isdir(path):
            _listed(path, name, stack, parts)
        elif os.path.isfile(path):
            st = os.stat(path)
            parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


def _listed(path: str, name: str, stack: list[tuple[str, str]], parts: list[str]) -> None:
    """A folder's files into `parts` and its folders onto `stack`, in the order `stamp` takes them (by name; a folder
    when the stack reaches it, after the files listed before it)."""
    if os.path.basename(path) == "__pycache__":
        return
    with os.scandir(path) as found:
        entries = sorted(found, key=lambda e: e.name)
    for i, entry in enumerate(entries):
        if entry.is_dir():
            # the folders below are taken after this folder's files, as a stack of them all would: the later
            # entries first pushed, each folder's contents listed when it is popped
            stack += [(e.path, f"{name}/{e.name}") for e in reversed(entries[i:])]
            return
        if entry.is_file():
            st = entry.stat()
            parts.append(f"{name}/{entry.name}:{st.st_size}:{st.st_mtime_ns}")


def cached_plain(name: str, folder_path: str, build: Callable[[], T]) -> T:
    """What `build()` makes of the files below `folder_path`, when it is plain data (dicts, lists, text, numbers),
    kept with `marshal` under the stamp of those files and of `furnace.rules`' (`stamp`): a changed, added or removed
    file or module is a new stamp, and the data is built again. For the commands that start in a few tens of
    milliseconds (`furnace odds attack`, `furnace.rules.plain`): neither hashlib nor pickle is imported, no file is
    read but this one. Anything amiss with the file is built again, as with `cached`."""
    import marshal

    where = folder()
    if where is None:
        return build()
    path = os.path.join(where, f"{name}.marshal")
    mark = stamp(folder_path, os.path.dirname(os.path.abspath(__file__)))
    with contextlib.suppress(Exception):        # any unreadable cache: build again (see the module's note)
        with open(path, "rb") as f:
            kept, value = marshal.loads(f.read())     # (a load from the file reads it in small pieces)
        if kept == mark:
            return value  # type: ignore[no-any-return]
    value = build()
    _store_plain(where, path, mark, value)
    return value


def _store_plain(where: str, path: str, mark: str, value: object) -> None:
    """Write (mark, value) with marshal, whole or not at all; nothing when the value is not plain data."""
    import marshal

    with contextlib.suppress(OSError, ValueError):
        os.makedirs(where, exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as f:
                marshal.dump((mark, value), f)  # type: ignore[arg-type]   # (plain data, or a ValueError)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def parsed_text(name: str, text: str, parse: Callable[[str], T], *modules: str) -> T:
    """What `parse(text)` makes of a user's text (a fight file's YAML), when it is plain data: the last text parsed
    under `name` is kept with marshal beside what it made, under the stamp of the `modules` (the source files of the
    parse: a changed one parses again), so the same text again is not parsed again: a referee fights one fight file
    seed after seed, and PyYAML's import and parse are ~15 ms of `furnace fight`. The text is read and compared
    whole every time, and what is made of it is still validated by its caller: only the parse is kept, and only one
    that succeeded (a refusal is raised again by parsing again). Anything amiss with the file: parsed again."""
    import marshal

    where = folder()
    if where is None:
        return parse(text)
    path = os.path.join(where, f"{name}.marshal")
    mark = stamp(*modules) + "\n" + text
    with contextlib.suppress(Exception):        # any unreadable cache: parse again (see the module's note)
        with open(path, "rb") as f:
            kept, value = marshal.loads(f.read())
        if kept == mark:
            return value  # type: ignore[no-any-return]
    value = parse(text)
    _store_plain(where, path, mark, value)
    return value


MAX_KEPT = 64                   # validated texts kept under one name (the characters of a few fight files)
MAX_KEPT_TEXT = 256 * 1024      # characters of a text worth keeping (a character file is about 2,000)
_VALIDATED: dict[str, dict[str, bytes]] = {}     # the file of each name and stamp, as read once a process


def validated_text(name: str, text: str, validate: Callable[[str], T], *modules: str, version: str = "") -> T:
    """What `validate(text)` made of a user's text (a character file's JSON): a model, kept with pickle under the text
    it was made of and the stamp of the `modules` (the source files of the validation) and of `version` (the
    validating library's), so the same text again is not validated again: a fight file names its party's files
    fight after fight, and building Pydantic's validator of a character is ~10 ms of `furnace fight`. The text is
    compared whole every time; only a value that validated is kept (a refusal is raised again by validating again),
    at most `MAX_KEPT` of them (the oldest go first). Anything amiss with the file: validated again."""
    import pickle

    where = folder()
    if where is None or len(text) > MAX_KEPT_TEXT:
        return validate(text)
    path = os.path.join(where, f"{name}.pickle")
    kept = _kept(path, f"{version}\n{_code_stamp(modules)}")
    with contextlib.suppress(Exception):        # any unreadable entry: validate again (see the module's note)
        if text in kept:
            value: T = pickle.loads(kept[text])
            return value
    value = validate(text)
    with contextlib.suppress(pickle.PicklingError, TypeError, AttributeError):
        kept[text] = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        while len(kept) > MAX_KEPT:
            del kept[next(iter(kept))]
        _store(path, (f"{version}\n{_code_stamp(modules)}", kept))
    return value


@functools.cache
def _code_stamp(modules: tuple[str, ...]) -> str:
    """The stamp of the source files of a validation: taken once a process (as `_classes`), however many texts a
    command validates, since the running code does not change under it."""
    return stamp(*modules)


def _kept(path: str, mark: str) -> dict[str, bytes]:
    """The texts kept in the file at `path` under `mark` and what each made (pickled), read once a process."""
    import pickle

    memo = f"{path}\n{mark}"
    if memo not in _VALIDATED:
        kept: dict[str, bytes] = {}
        with contextlib.suppress(Exception):
            with open(path, "rb") as f:
                found_mark, found = pickle.load(f)
            if found_mark == mark and isinstance(found, dict):
                kept = found
        _VALIDATED[memo] = kept
    return _VALIDATED[memo]


MAX_CODES = 128                 # compiled sources kept (a fight compiles about ten dice expressions)
MAX_CODE_SOURCE = 64 * 1024     # characters of a source worth keeping (a dice expression's is under 2,000)
_CODES: dict[str, dict[str, bytes]] = {}          # the file of kept code, as read once a process
_AT_EXIT: dict[str, str] = {}                     # the files of kept code to write when the process ends, and where


def kept_code(source: str, filename: str, *, name: str = "code", most: int | None = None,
              at_exit: bool = False) -> CodeType:
    """`compile(source, filename, "exec")`, kept with marshal under the source and the file name, in a file of this
    Python's version (the code's format is the interpreter's), so a source compiled before is read, not compiled
    again: the dice expressions a command rolls are compiled into functions (`furnace.dice.compiled`), a few hundred
    microseconds each. The code kept for a source is the code `compile` makes of it; each is unmarshalled only when
    asked for, at most `most` (else `MAX_CODES`) kept in the file `name` (the oldest go first). `at_exit`: the file
    is written once, when the process ends, not at each source compiled (a command makes hundreds of dataclasses'
    methods, `furnace.cli.startup.keep_dataclass_code`). Anything amiss with the file: compiled again."""
    import marshal

    where = folder()
    if where is None or len(source) > MAX_CODE_SOURCE:
        return compile(source, filename, "exec")
    path = os.path.join(where, f"{name}.marshal")
    kept, key = _codes(path), f"{filename}\n{source}"
    with contextlib.suppress(Exception):        # any unreadable entry: compile again (see the module's note)
        if key in kept:
            found = marshal.loads(kept[key])
            if isinstance(found, CodeType):
                return found
    code = compile(source, filename, "exec")
    kept[key] = marshal.dumps(code)
    while len(kept) > (MAX_CODES if most is None else most):
        del kept[next(iter(kept))]
    if not at_exit:
        _store_plain(where, path, sys.version, kept)
    elif path not in _AT_EXIT:
        if not _AT_EXIT:
            import atexit

            atexit.register(_store_at_exit)
        _AT_EXIT[path] = where
    return code


def _store_at_exit() -> None:
    for path, where in _AT_EXIT.items():
        _store_plain(where, path, sys.version, _CODES[path])


def _codes(path: str) -> dict[str, bytes]:
    """The sources kept in the file at `path` by this Python and the code of each (marshalled), read once a process."""
    import marshal

    if path not in _CODES:
        kept: dict[str, bytes] = {}
        with contextlib.suppress(Exception):
            with open(path, "rb") as f:
                version, found = marshal.loads(f.read())
            if version == sys.version and isinstance(found, dict):
                kept = found
        _CODES[path] = kept
    return _CODES[path]


# Of what changes with every command (a campaign's state), only the latest is kept, by its owner's name: a read
# after a write finds what the write made. Kept for the command line alone (`keep_latest`), whose every command is
# a new process; a server keeps the state it last read in memory (`campaign.store.Store._latest`).
_LATEST_ON = False


def keep_latest(on: bool = True) -> None:
    global _LATEST_ON
    _LATEST_ON = on


def latest_on() -> bool:
    return _LATEST_ON and folder() is not None


def latest_made(kind: str, owner: str, text_of: Callable[[], str], make: Callable[[], T], *modules: str,
                version: str = "") -> T:
    """What `make()` makes of the text `text_of()` tells (a campaign's entities as JSON), read from the cache when it
    is one of the texts last seen for this `owner` (a campaign's name) by the same code (the stamp of the `modules`,
    as `validated_text`) and the same validating library (`version`); else made, and kept with them. Building
    Pydantic's validators of a campaign's state and of its fight is about a tenth of a read such as `encounter
    status`. The last LATEST_KEPT of each kind per owner, in a file of their own (a command may make its fight of
    the same values in two orders: its own copy, and as the log folds them), each under its text's SHA-256; only a
    value made without error is kept."""
    import hashlib
    import pickle

    where = folder() if _LATEST_ON else None
    text = text_of() if where is not None else ""
    if where is None or len(text) > MAX_LATEST_TEXT:
        return make()
    path = os.path.join(where, "latest", f"{kind}-{hashlib.sha256(owner.encode()).hexdigest()[:24]}.pickle")
    mark = f"{version}\n{_code_stamp(modules)}"
    digest = hashlib.sha256(text.encode()).digest()      # (the text's digest: the file holds no copy of it)
    kept: dict[bytes, bytes] = {}
    with contextlib.suppress(Exception):        # any unreadable entry: made again (see the module's note)
        with open(path, "rb") as f:
            kept_mark, kept = pickle.load(f)
        kept = kept if kept_mark == mark and isinstance(kept, dict) else {}
        if digest in kept:
            value: T = pickle.loads(kept[digest])
            return value
    value = make()
    with contextlib.suppress(pickle.PicklingError, TypeError, AttributeError):
        kept = {**{d: made for d, made in kept.items() if d != digest}, digest: pickle.dumps(value, protocol=5)}
        _store(path, (mark, dict(list(kept.items())[-LATEST_KEPT:])), prune=False)
    return value


LATEST_KEPT = 4
MAX_LATEST_TEXT = 1024 * 1024      # characters of a campaign's state worth keeping (twelve PCs: about 60,000)
