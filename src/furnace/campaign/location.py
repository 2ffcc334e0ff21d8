"""Where the campaign database is: --db, FURNACE_DATABASE_URL, or a SQLite file in the user's data folder.

Every mistake in saying where is a `StoreError` naming what is wrong and what to do: a data folder that is a
file or a device, a path that cannot be a file name (a NUL byte), a URL that is no URL. A password in a URL
is never shown (`shown_url`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import parse_qsl

from furnace.errors import FurnaceError
from furnace.files import folder_problem

SQLITE_SCHEMES = ("sqlite", "sqlite+pysqlite")
READ_ONLY_QUERY = {("mode", "ro"), ("immutable", "1")}    # what a SQLite URL may ask: to be opened for reading
PARTS = {"-wal": "write-ahead log", "-shm": "shared-memory file", "-journal": "rollback journal"}
_PASSWORD = re.compile(r"(://[^:/?#@]*:)[^@/?#]*@")


class StoreError(FurnaceError):
    """The database cannot be opened or used (a missing folder, a locked or foreign file)."""


class ReadOnlyError(StoreError):
    """A command that writes, on a database opened for reading only."""

    http_status = 403


def data_dir() -> Path:
    """The user's data directory (platformdirs), or FURNACE_DATA_DIR."""
    if os.environ.get("FURNACE_DATA_DIR"):
        return Path(os.environ["FURNACE_DATA_DIR"])
    from furnace.files import user_folder

    return Path(user_folder("data"))


def default_database() -> Path:
    """The SQLite file in the user's data folder (FURNACE_DATA_DIR), refused when that cannot be a folder."""
    folder = data_dir()
    if (problem := folder_problem(folder)) is not None:
        where = "FURNACE_DATA_DIR" if os.environ.get("FURNACE_DATA_DIR") else "the data folder"
        raise StoreError(f"{where} {shown_path(folder)} cannot hold the campaign database: {problem}; point "
                         "FURNACE_DATA_DIR at a folder, or pass --db FILE")
    return folder / "furnace.db"


def resolve_url(db: str | None = None) -> str:
    """--db (a path or a URL) > FURNACE_DATABASE_URL > the default SQLite file in the data directory.

    A path becomes a `sqlite:///` URL of its absolute, real path (symlinks followed where they lead); so does
    a relative `sqlite:///` URL, keeping its query (`?mode=ro`)."""
    chosen = db or os.environ.get("FURNACE_DATABASE_URL") or ""
    if not chosen:
        return f"sqlite:///{_real(str(default_database()))}"
    if "\0" in chosen:
        raise StoreError(f"the database {shown_url(chosen)!r} holds a NUL byte: it cannot be a file name or a URL")
    if "://" not in chosen:
        return f"sqlite:///{_real(os.path.expanduser(chosen))}"
    scheme, _, rest = chosen.partition("://")
    if scheme.lower() in SQLITE_SCHEMES and rest.startswith("/") and rest != "/":
        path, sep, query = rest[1:].partition("?")
        return f"sqlite:///{_real(os.path.expanduser(path))}{sep}{query}"
    return chosen


def _real(path: str) -> str:
    """The absolute path with its symlinks followed; a loop or an overlong name is left for the checks of
    `furnace.campaign.database` to name."""
    absolute = os.path.abspath(path)
    try:
        if os.path.islink(absolute) and not os.path.exists(absolute):
            return absolute              # a dangling symlink or a loop: refused by name, not followed to a new file
        return os.path.realpath(absolute)
    except (OSError, RuntimeError, ValueError):
        return absolute


def sqlite_path(url: str) -> Path | None:
    """The file of a `sqlite:///` URL (its query dropped), None for any other."""
    if not url.startswith("sqlite:///") or url == "sqlite:///":
        return None
    return Path(url.removeprefix("sqlite:///").partition("?")[0])


def sqlite_query(url: str) -> list[tuple[str, str]]:
    """The options of a `sqlite:///` URL (`?mode=ro`)."""
    return parse_qsl(url.partition("?")[2], keep_blank_values=True)


def shown_url(url: str) -> str:
    """A URL as it may be printed: its password, if any, replaced by ***."""
    return _PASSWORD.sub(r"\1***@", url)


def shown_path(path: str | os.PathLike[str]) -> str:
    text = os.fspath(path)
    return text if text.isprintable() and len(text) <= 200 else repr(text[:200] + ("…" if len(text) > 200 else ""))


def files_of(path: Path) -> list[Path]:
    """Everything a SQLite database is made of: the file, its -wal, -shm and -journal, by the name given and
    by the real path (a symlink's target)."""
    names = [path]
    try:
        real = Path(os.path.realpath(path))
    except (OSError, RuntimeError, ValueError):
        real = path
    if real != path:
        names.append(real)
    return [Path(f"{name}{suffix}") for name in names for suffix in ("", *PARTS)]


def database_files(db: str | None = None) -> list[str]:
    """The files of the SQLite database `db` names (--db, else FURNACE_DATABASE_URL, else the default), found
    without opening it; none for a server."""
    path = sqlite_path(resolve_url(db))
    return [] if path is None else [str(p) for p in files_of(path)]
