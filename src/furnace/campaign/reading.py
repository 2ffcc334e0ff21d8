"""Reading a campaign kept in a SQLite file with the standard library's sqlite3: no SQLAlchemy, no Alembic.

A command that only reads (`character list`, `campaign show`, `encounter status`, `campaign log`, `recap`)
needs four plain queries: the schema revision, the campaign's row, its latest snapshot and the changes logged
after it (or a page of the log). `Store` asks them here while it has made no SQLAlchemy engine, so such a
command never imports SQLAlchemy (≈ 0.2 s of a command's start); a command's write goes through the same
connection (`Reader.writing`, `furnace.campaign.writing`). The engine is made for PostgreSQL, for the rarer
writes (undo, redo, making a campaign…), and for a database that must first be made or upgraded
(`furnace.campaign.migrate`, which reads the revision through `checked_revision` too, so both paths refuse a
foreign database in the same words).
"""

from __future__ import annotations

import sqlite3
import threading
from collections import namedtuple
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any
from urllib.parse import quote

from furnace.campaign.database import BUSY_SECONDS, Database, explain, switch_to_wal
from furnace.campaign.location import StoreError

REVISIONS = ("0001", "0002", "0003", "0004")      # migrations/versions, oldest first
HEAD = REVISIONS[-1]
TABLES = frozenset({"alembic_version", "campaigns", "events", "snapshots", "web_sessions", "invites",
                    "session_campaigns"})
BUSY_MS = int(BUSY_SECONDS * 1000)        # as the engine's connections wait for another program's lock

CAMPAIGN_COLUMNS = "id, name, created_at, version, event_count, last_hash"
EVENT_COLUMNS = "seq, command_id, command, kind, who, what, rolls, data, changes, undoes, created_at, prev_hash, hash"


def checked_revision(tables: set[str], found: list[Any], where: str) -> str | None:
    """The schema revision of a Furnace database from its tables and its `alembic_version` rows (None: an empty
    database); a database that is not Furnace's, or one a newer Furnace wrote, is refused naming why."""
    names = {n for n in tables if not n.startswith(("sqlite_", "_alembic_tmp_"))}
    if not names:
        return None
    if "alembic_version" not in names:
        raise StoreError(f"{where} is not a Furnace database (it holds other tables: {_listed(names)}): give "
                         "the campaign database with --db, or a new file name to start one")
    if len(found) != 1 or not isinstance(found[0], str):
        raise StoreError(f"the database {where} has no schema revision (its alembic_version table holds "
                         f"{len(found)} rows): it is damaged or not Furnace's; restore it from a backup")
    now: str = found[0]
    if now not in REVISIONS:
        if now.isdigit() and int(now) > int(HEAD):
            raise StoreError(f"this database was written by a newer Furnace (revision {now}; this one reads up to "
                             f"{HEAD}): upgrade Furnace to open {where}")
        raise StoreError(f"{where} is not a Furnace database (its schema revision {now[:40]!r} is not Furnace's)")
    if foreign := names - TABLES:
        raise StoreError(f"{where} is not a Furnace database (it holds tables Furnace never makes: "
                         f"{_listed(foreign)}): give the campaign database with --db")
    return now


def _listed(names: set[str]) -> str:
    shown = sorted(names)
    return ", ".join(shown[:5]) + (f" and {len(shown) - 5} more" if len(shown) > 5 else "")


@cache
def _record(fields: tuple[str, ...]) -> Any:
    return namedtuple("Record", fields)    # rows read by attribute, as SQLAlchemy's are


def _as_record(cursor: sqlite3.Cursor, values: tuple[Any, ...]) -> Any:
    return _record(tuple(d[0] for d in cursor.description))._make(values)


class Reader:
    """One sqlite3 connection to a located SQLite file, opened on first use: each `reading()` is one read
    transaction (one consistent view of a file in WAL mode), each `writing()` one write transaction
    (`furnace.campaign.writing`), one at a time (a server's threads share it)."""

    def __init__(self, db: Database, sync: str) -> None:
        assert db.path is not None
        self.database = db
        self._sync = sync
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()    # a read inside this thread's own write reads what the write sees

    def _connect(self) -> sqlite3.Connection:
        db = self.database
        # mode=rw: never makes a file (it was there when located); a read-only file keeps the URI that says so
        uri = db.connect or f"file:{quote(str(db.path))}?mode=rw"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        conn.row_factory = _as_record
        pragmas = ("foreign_keys=ON", f"busy_timeout={BUSY_MS}") if db.read_only else (
            f"synchronous={self._sync.upper()}", "foreign_keys=ON", f"busy_timeout={BUSY_MS}")
        try:
            for pragma in pragmas:
                conn.execute(f"PRAGMA {pragma}")
        except (sqlite3.Error, UnicodeDecodeError):   # (SQLite's message quoting a damaged schema's bytes)
            conn.close()         # closed at once: a damaged file is left as it was, nothing made beside it
            raise
        return conn

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction; what SQLite reports is told in one sentence, as the store's engine tells it."""
        with self._lock:
            if self._conn is not None and self._conn.in_transaction:     # inside `writing`, on this thread
                yield self._conn
                return
            try:
                if self._conn is None:
                    self._conn = self._connect()
                conn = self._conn
                conn.execute("BEGIN")
                try:
                    yield conn
                finally:
                    conn.execute("COMMIT")
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                raise explain(exc, self.database) from None

    @contextmanager
    def writing(self, *, wal: bool) -> Iterator[sqlite3.Connection]:
        """One write transaction (`BEGIN IMMEDIATE`, as the engine's writers take the lock up front), committed when
        the block ends and rolled back when it raises; `wal`: first put the file in WAL mode (as `database.use_wal`
        does before the engine's first write: it cannot change inside a transaction)."""
        with self._lock:
            try:
                if self._conn is None:
                    self._conn = self._connect()
                conn = self._conn
                if wal:
                    switch_to_wal(conn.execute)
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                raise explain(exc, self.database) from None

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def revision(self) -> str | None:
        """The schema revision, checked (`checked_revision`)."""
        with self.reading() as conn:
            tables = {r.name for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite~_%' ESCAPE '~'")}
            found = [r.version_num for r in conn.execute("SELECT version_num FROM alembic_version")] \
                if "alembic_version" in tables else []
        return checked_revision(tables, found, self.database.where)


# -- the queries of a read (each inside `Reader.reading`) -------------------------------------------------------
def campaign_row(conn: sqlite3.Connection, name: str) -> Any:
    return conn.execute(f"SELECT {CAMPAIGN_COLUMNS} FROM campaigns WHERE name = ?", (name,)).fetchone()


def campaign_names(conn: sqlite3.Connection) -> list[str]:
    return [r.name for r in conn.execute("SELECT name FROM campaigns ORDER BY name")]


def latest_snapshot(conn: sqlite3.Connection, camp: Any) -> tuple[int, str] | None:
    found = conn.execute("SELECT seq, state FROM snapshots WHERE campaign_id = ? AND seq <= ? ORDER BY seq DESC "
                         "LIMIT 1", (camp.id, camp.event_count)).fetchone()
    return None if found is None else (found.seq, found.state)


def changes_after(conn: sqlite3.Connection, camp: Any, since: int) -> Iterator[str]:
    for row in conn.execute("SELECT changes FROM events WHERE campaign_id = ? AND seq > ? AND seq <= ? AND changes "
                            "IS NOT NULL ORDER BY seq", (camp.id, since, camp.event_count)):
        yield row.changes


def links_after(conn: sqlite3.Connection, camp: Any, since: int) -> list[Any]:
    return conn.execute("SELECT seq, prev_hash, hash, changes FROM events WHERE campaign_id = ? AND seq > ? "
                        "AND seq <= ? ORDER BY seq", (camp.id, since, camp.event_count)).fetchall()


def named_event_rows(conn: sqlite3.Connection, name: str, since: int, limit: int | None) -> list[Any]:
    """The events of the campaign named after `since`: one query (none at all: no such campaign, or no events)."""
    columns = ", ".join(f"e.{c}" for c in EVENT_COLUMNS.split(", "))
    query = (f"SELECT {columns} FROM events e JOIN campaigns c ON c.id = e.campaign_id WHERE c.name = ? AND e.seq > ? "
             "ORDER BY e.seq")
    return conn.execute(f"{query} LIMIT ?" if limit else query, (name, since, *([limit] if limit else []))
                        ).fetchall()

