"""Opening the campaign database: what it must be before the store uses it, and what each failure means.

A SQLite file is looked at before SQLite opens it: a folder, a FIFO, a device, a symlink loop, a name too
long, a file that is not SQLite at all, a `-wal` or `-shm` beside it that is not a regular file — each is
refused naming the file, nothing made or changed. A file that cannot be written (its mode, a read-only
disk, a folder that cannot be written, or `?mode=ro` in the URL) opens for reading only: SQLite is told so
(`immutable=1`, which makes nothing beside it, or `mode=ro` where others may write or a log waits to be
read), and a command that writes is refused saying the database is read-only. A file not made yet is read
as an empty database in memory (`stand_in`) until the first write makes it. Any other URL must be
PostgreSQL, reached within
`CONNECT_TIMEOUT` seconds. What the engine reports later (a malformed page, a lock held too long) becomes one
sentence through `explain`; a password in a URL is never printed.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from furnace import files
from furnace.campaign.location import (
    PARTS,
    READ_ONLY_QUERY,
    ReadOnlyError,
    StoreError,
    data_dir,
    shown_path,
    shown_url,
    sqlite_path,
    sqlite_query,
)

# SQLAlchemy is imported where it is used: a SQLite file read by `furnace.campaign.reading` never loads it
if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.exc import DBAPIError

SQLITE_HEADER = b"SQLite format 3\x00"
# how SQLite's own -wal and -journal begin (a -journal's header may also be zeroed: one no longer in use)
PART_MAGIC = {"-wal": (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83"),
              "-journal": (b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7", b"\x00" * 8)}
CONNECT_TIMEOUT = 5          # seconds to reach a PostgreSQL server
BUSY_SECONDS = 30            # how long a SQLite connection waits for another writer's lock
_NONBLOCK = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


@dataclass(frozen=True)
class Database:
    """A database the store may open: its URL, its SQLite file (None for a server), why it opens for reading
    only (None: it can be written), and how to name it to the referee."""

    url: str
    path: Path | None
    read_only: str | None
    where: str
    connect: str = ""           # a SQLite URI opening the file for reading only ("": the path itself)
    new: bool = False           # a SQLite file not made yet


def locate(url: str) -> Database:
    """The database `url` names, checked as far as it can be without opening it."""
    path = sqlite_path(url)
    if path is not None:
        return _sqlite(url, path)
    return _server(url)


# -- SQLite ---------------------------------------------------------------------------------------------------
def _sqlite(url: str, path: Path) -> Database:
    where = shown_path(path)
    query = sqlite_query(url)
    for key, value in query:
        if (key, value) not in READ_ONLY_QUERY and (key, value) not in (("mode", "rw"), ("mode", "rwc")):
            raise StoreError(f"the database URL's option {key}={value} is not one Furnace reads (it reads "
                             "?mode=ro, to open a database for reading only)")
    asked = any(pair in READ_ONLY_QUERY for pair in query)

    def refuse(reason: str) -> StoreError:
        return StoreError(f"cannot open the database {where}: {reason}")

    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise refuse("it is a symlink to a file that does not exist") from None
        if asked:
            raise refuse("it does not exist (?mode=ro opens an existing database for reading)") from None
        _check_new(path, where)
        return Database(url, path, None, where, new=True)
    except OSError as exc:
        raise refuse(files.os_reason(exc, path)) from None
    except ValueError:
        raise refuse("the name holds a NUL byte") from None
    if (kind := files.not_regular(st.st_mode)) is not None:
        raise refuse(kind)
    for suffix, what in PARTS.items():
        _check_part(Path(f"{path}{suffix}"), suffix, what, where)
    if st.st_size:
        _check_header(path, where, refuse)
    asked_by = "&".join(f"{k}={v}" for k, v in query if (k, v) in READ_ONLY_QUERY)
    why = f"it was opened with ?{asked_by}" if asked else _read_only(path, st)
    # an empty file is a database not made yet (SQLite makes one in it): made by the first write, like a new one
    return Database(url, path, why, where, _read_only_uri(path, asked_by) if why else "",
                    new=not st.st_size and why is None)


def _check_new(path: Path, where: str) -> None:
    """A database to be made: its folder must be there and writable (the data folder may be made, by
    `make_folder`, once the first thing is written: its nearest folder that is there must be writable)."""
    folder = path.parent
    in_data = os.path.realpath(folder) == os.path.realpath(data_dir())
    named = f"{'the data folder' if in_data else 'its folder'} {shown_path(folder)}"
    if (problem := files.folder_problem(folder)) is not None:
        raise StoreError(f"cannot make the database {where}: {named} cannot hold it: {problem}")
    if not folder.is_dir():
        if not in_data:
            raise StoreError(f"cannot make the database {where}: {named} does not exist")
        there = next((p for p in folder.parents if p.is_dir()), None)
        if there is None or (problem := files.folder_problem(there)) is not None or files.cannot_write(there):
            raise StoreError(f"cannot make {named} (FURNACE_DATA_DIR) for the campaign database: "
                             f"{problem or 'the folder it would be made in cannot be written'}")
        return
    if files.cannot_write(folder):
        hint = "point FURNACE_DATA_DIR at a folder that can be written" if in_data else "choose another with --db FILE"
        raise StoreError(f"cannot make the database {where}: {named} cannot be written; {hint}")


def make_folder(db: Database) -> None:
    """Make the folder of a database about to be made (the data folder, the first time)."""
    assert db.path is not None
    try:
        db.path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot make the data folder {shown_path(db.path.parent)} (FURNACE_DATA_DIR) for the "
                         f"campaign database: {files.os_reason(exc, db.path.parent)}") from None


def _check_part(part: Path, suffix: str, what: str, where: str) -> None:
    """The -wal, -shm or -journal beside the database, if there is one, must be a regular file, and a -wal or
    -journal must be SQLite's (it would take another file of that name for its own, and overwrite it)."""
    if not os.path.lexists(part):
        return
    try:
        st = os.stat(part)
    except OSError as exc:
        raise StoreError(f"cannot open the database {where}: its {what} {shown_path(part)}: "
                         f"{files.os_reason(exc, part)}") from None
    if (kind := files.not_regular(st.st_mode)) is not None:
        raise StoreError(f"cannot open the database {where}: its {what} {shown_path(part)} {kind.removeprefix('it ')}"
                         "; SQLite keeps its own file under that name: move that one away")
    magics = PART_MAGIC.get(suffix, ())
    if magics and st.st_size:
        try:
            head = files.read_head(part, 8, what=f"the database's {what}")
        except files.FileAccessError as exc:
            raise StoreError(f"cannot open the database {where}: {exc}") from None
        if not any(head.startswith(m) for m in magics):
            raise StoreError(f"cannot open the database {where}: its {what} {shown_path(part)} is not SQLite's (SQLite "
                             "would take it for its own and overwrite it): move that file away")


def _check_header(path: Path, where: str, refuse: Callable[[str], StoreError]) -> None:
    try:
        fd = os.open(path, _NONBLOCK)
    except OSError as exc:
        raise refuse(files.os_reason(exc, path)) from None
    try:
        head = os.read(fd, len(SQLITE_HEADER))
    except OSError as exc:
        raise refuse(files.os_reason(exc, path)) from None
    finally:
        os.close(fd)
    if head != SQLITE_HEADER:
        raise StoreError(f"{where} is not a Furnace database (it is not a SQLite file): check that --db names the "
                         "campaign database, or give a new file name to start one")


def _read_only(path: Path, st: os.stat_result) -> str | None:
    """Why SQLite may not write this database (None: it may)."""
    if files.disk_read_only(path.parent):
        return "it is on a read-only disk"
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        return "the file is read-only"
    if files.cannot_write(path.parent):
        return "its folder cannot be written (SQLite keeps its -wal and -shm files there)"
    return None


def _read_only_uri(path: Path, asked: str) -> str:
    """How SQLite opens the file for reading. `?mode=ro` asked: `mode=ro`, which sees what other programs write
    meanwhile (it makes or uses the -shm of a database in WAL mode). A file nobody may write (its mode, its
    disk, its folder) and no log waiting to be read: `immutable=1`, which makes nothing beside it. A log
    waiting: `mode=ro`, to read it."""
    wal = Path(f"{path}-wal")
    has_log = wal.exists() and wal.stat().st_size > 0
    option = "immutable=1" if "immutable=1" in asked or not ("mode=ro" in asked or has_log) else "mode=ro"
    return f"file:{quote(str(path))}?{option}"


# -- servers --------------------------------------------------------------------------------------------------
def _server(url: str) -> Database:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    shown = shown_url(url)
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):     # no URL at all; a port that is no number
        raise StoreError(f"the database {shown!r} is neither a file nor a database URL: give a SQLite file "
                         "(--db campaign.db) or postgresql+psycopg://USER@HOST/DATABASE") from None
    backend = parsed.get_backend_name()
    if backend not in ("postgresql", "sqlite"):
        raise StoreError(f"Furnace keeps campaigns in SQLite or PostgreSQL, not {parsed.drivername}:// ({shown}): "
                         "give a SQLite file or a postgresql+psycopg:// URL")
    try:
        (parsed.host or "").encode("idna")
    except UnicodeError:
        raise StoreError(f"the database URL {shown!r} names a host that is no host name") from None
    return Database(url, None, None, parsed.render_as_string(hide_password=True))


# -- the engine -----------------------------------------------------------------------------------------------
def stand_in(sync: str) -> Engine:
    """An empty database in memory, read in the place of a SQLite file not made yet: a command that only reads
    (or is refused) makes no file; the first write makes the real one (`Store`)."""
    from sqlalchemy import create_engine
    from sqlalchemy.pool import StaticPool

    made = create_engine("sqlite://", future=True, poolclass=StaticPool,
                         connect_args={"check_same_thread": False})
    _sqlite_pragmas(made, sync, read_only=False)
    return made


def engine(db: Database, sync: str) -> Engine:
    """The SQLAlchemy engine of a located database."""
    from sqlalchemy import create_engine

    if db.path is None:
        return _server_engine(db)
    if db.connect:
        uri = db.connect
        made = create_engine(f"sqlite:///{db.path}", future=True,
                             creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False))
    else:
        made = create_engine(f"sqlite:///{db.path}", future=True)
    _sqlite_pragmas(made, sync, read_only=db.read_only is not None)
    return made


POOL = 20           # connections a process keeps open to a database server


def _server_engine(db: Database) -> Engine:
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    url = make_url(db.url)
    server = url.get_backend_name() == "postgresql"
    extra: dict[str, Any] = {"connect_timeout": CONNECT_TIMEOUT} if server else {}
    # a console's worker runs up to 40 requests at once (its thread pool): connections are kept for them all, not
    # opened and closed per request past a pool of 5 (each a new backend, the most of the server's CPU); an
    # in-memory SQLite (`sqlite://`) has a pool of one connection and takes no sizes
    pool: dict[str, Any] = {"pool_size": POOL, "max_overflow": 10} if server else {}
    try:
        return create_engine(url, future=True, pool_pre_ping=True, connect_args=extra, **pool)
    except ImportError as exc:     # the driver of the URL is not installed
        raise StoreError(f"the database URL {db.where} needs a driver that is not installed ({exc}): use "
                         "postgresql+psycopg://") from None
    except ArgumentError as exc:   # a dialect or driver SQLAlchemy does not know
        raise StoreError(f"the database URL {db.where} names a driver Furnace cannot use ({exc}): use "
                         "postgresql+psycopg://") from None


def use_wal(made: Engine) -> None:
    """Put a SQLite database that is Furnace's into WAL mode (kept in the file: every later connection uses it)."""
    if made.dialect.name != "sqlite":
        return
    raw = made.raw_connection()      # outside a transaction: the journal mode cannot change inside one
    try:
        cursor = raw.cursor()
        switch_to_wal(cursor.execute)
        cursor.close()
    finally:
        raw.close()


def switch_to_wal(execute: Callable[[str], Any], wait: float = BUSY_SECONDS) -> None:
    """`PRAGMA journal_mode=WAL`, tried again while another writer holds the file: SQLite answers a change of
    journal mode "database is locked" at once, without waiting in its busy handler, so writers racing to a new
    file's first write (four stores making the same campaign) would fail where any other write waits its turn."""
    import time

    deadline = time.monotonic() + wait
    while True:
        try:
            execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(0.005)


def _sqlite_pragmas(made: Engine, sync: str, *, read_only: bool) -> None:
    """synchronous=FULL (or NORMAL, see `store.sqlite_sync`) and foreign keys on every connection; writers take
    the lock up front. A read-only connection sets nothing it would have to write."""
    from sqlalchemy import Connection, event

    # journal_mode=WAL is not set here: it is written into the file, and a file is written only once it is known to
    # be Furnace's and a command writes to it (`use_wal`: before a migration, before the store's first write)
    pragmas = ("foreign_keys=ON", f"busy_timeout={BUSY_SECONDS * 1000:.0f}") if read_only else (
        f"synchronous={sync.upper()}", "foreign_keys=ON", f"busy_timeout={BUSY_SECONDS * 1000:.0f}")

    @event.listens_for(made, "connect")
    def _connect(dbapi: Any, _record: Any) -> None:
        dbapi.isolation_level = None   # SQLAlchemy's BEGIN below, not pysqlite's own
        cur = dbapi.cursor()
        for pragma in pragmas:
            cur.execute(f"PRAGMA {pragma}")
        cur.close()

    @event.listens_for(made, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.info.get("immediate") else "BEGIN")


# -- what went wrong ------------------------------------------------------------------------------------------
_SQLITE = [   # the engine's words (lower case) → ours, {where} the database
    ("file is not a database", "{where} is not a Furnace database (it is not a SQLite file, or it is encrypted)"),
    ("malformed", "the database {where} is damaged (SQLite finds it malformed): restore it from a backup with "
                  "`furnace campaign restore`"),
    ("unable to open database file", "cannot open the database {where}: SQLite cannot open it, or make its -wal "
                                     "and -shm files beside it (check the folder)"),
    ("database is locked", "the database {where} is locked by another program: try again when it is done"),
    ("database or disk is full", "no space is left on the disk for the database {where}"),
    ("disk i/o error", "cannot read or write the database {where}: a disk I/O error (check the disk, and its -wal "
                       "and -shm files)"),
    ("no such table", "{where} is not a whole Furnace database (a table is missing): restore it from a backup"),
]
_POSTGRES = [
    ("connection refused", "connection refused"), ("timeout expired", f"no answer within {CONNECT_TIMEOUT} s"),
    ("timed out", f"no answer within {CONNECT_TIMEOUT} s"), ("failed to resolve host", "the host name is not known"),
    ("could not translate host name", "the host name is not known"),
    ("password authentication failed", "the user name or password was refused"),
    ("no password supplied", "it asks for a password the URL does not give"),
    ("no route to host", "no route to that host"), ("network is unreachable", "the network is unreachable"),
]


def explain(exc: DBAPIError | sqlite3.Error | UnicodeDecodeError, db: Database) -> StoreError:
    """One sentence for what the database engine reported (SQLAlchemy's error, or sqlite3's own on the fast path;
    a message sqlite3 cannot decode quotes bytes of a damaged file's schema)."""
    if isinstance(exc, UnicodeDecodeError):
        return StoreError(dict(_SQLITE)["malformed"].format(where=db.where))
    orig = exc if isinstance(exc, sqlite3.Error) else exc.orig
    said = " ".join(str(orig).split())
    low = said.lower()
    if "readonly database" in low or "read-only" in low:
        return read_only(db, db.read_only or "SQLite cannot write it")
    if db.path is None:
        return _server_failure(said, db)
    for words, sentence in _SQLITE:
        if words in low:
            return StoreError(sentence.format(where=db.where))
    return StoreError(f"the database {db.where} cannot be used: {said}")


def _server_failure(said: str, db: Database) -> StoreError:
    from sqlalchemy.engine import make_url

    url = make_url(db.url)
    low = said.lower()
    if url.password:
        said = said.replace(str(url.password), "***")
    where = f"{url.host or 'localhost'}:{url.port or 5432}"
    for words, reason in _POSTGRES:
        if words in low:
            return StoreError(f"cannot reach PostgreSQL at {where}: {reason}")
    if "does not exist" in low and "database" in low:
        return StoreError(f"PostgreSQL at {where} has no database named {url.database!r}: create it first "
                          f"(createdb {url.database})")
    if "connection" in low and ("failed" in low or "closed" in low):
        return StoreError(f"cannot reach PostgreSQL at {where}: {said[:200]}")
    return StoreError(f"the database {db.where} cannot be used: {said[:300]}")


def read_only(db: Database, why: str) -> ReadOnlyError:
    return ReadOnlyError(f"the database {db.where} is read-only ({why}): this command writes to it; make it "
                         "writable, or copy it and give the copy with --db")
SYNC_MODES = ("full", "normal")


def sqlite_sync() -> str:
    """FURNACE_SQLITE_SYNC: `full` (the default) syncs the disk at every command, so a power cut loses
    nothing that was answered; `normal` syncs when the log is folded into the database (every second in the
    table console, `Store.sync_every`), so a power cut (never a crash of Furnace itself) may lose the last
    second of rolls; the file always stays whole. On a disk whose syncs stall for 50-800 ms under load,
    `normal` is what keeps a busy table console quick."""
    chosen = os.environ.get("FURNACE_SQLITE_SYNC", "full").strip().lower()
    if chosen not in SYNC_MODES:
        raise StoreError(f"FURNACE_SQLITE_SYNC must be {' or '.join(SYNC_MODES)}, not {chosen!r}")
    return chosen


def fold_every(engine: Engine, seconds: float, folded: Callable[[], None]) -> Callable[[], None]:
    """A thread that folds a SQLite file's log into the database every `seconds` (`Store.sync_every`), calling
    `folded` after each fold; returns its stop."""
    import threading

    stop = threading.Event()

    def fold() -> None:
        while not stop.wait(seconds):
            raw = engine.raw_connection()          # outside a transaction: a checkpoint cannot run in one
            try:
                sqlite = raw.driver_connection
                if sqlite is not None:
                    sqlite.execute("PRAGMA wal_checkpoint(PASSIVE)")   # never waits on a writer
                folded()
            except sqlite3.Error:                  # busy now: the next interval folds it
                pass
            finally:
                raw.close()

    thread = threading.Thread(target=fold, name="furnace-sqlite-sync", daemon=True)
    thread.start()

    def halt() -> None:
        stop.set()
        thread.join(seconds + 5)

    return halt
