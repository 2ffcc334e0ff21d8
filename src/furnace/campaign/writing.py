"""Writing a command to a campaign kept in a SQLite file with the standard library's sqlite3: no SQLAlchemy.

A command that writes (`damage`, `heal`, `clock advance`, `encounter act`, `rest`) appends its events, bumps the
campaign's row and now and then takes a snapshot: three plain statements. `Store` runs them here, inside
`reading.Reader.writing` (`BEGIN IMMEDIATE`, the file's own `synchronous` setting), while it has made no SQLAlchemy
engine; the rows are the very ones the engine's `insert`/`update` would write (same columns, same values, same
order: `tests/store/test_fast_writes.py` compares two files written each way). Making a database, upgrading one,
PostgreSQL, undo and redo, and every other write still go through SQLAlchemy (`furnace.campaign.schema`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

# the columns of `schema.events` and `schema.snapshots` that a write fills, in the order SQLAlchemy lists them
EVENT_COLUMNS = ("campaign_id", "seq", "command_id", "command", "kind", "who", "what", "rolls", "data", "changes",
                 "undoes", "created_at", "prev_hash", "hash")
SNAPSHOT_COLUMNS = ("campaign_id", "seq", "event_hash", "state", "state_hash", "created_at")


def _insert(table: str, columns: Sequence[str]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


INSERT_EVENT = _insert("events", EVENT_COLUMNS)
INSERT_SNAPSHOT = _insert("snapshots", SNAPSHOT_COLUMNS)
BUMP = "UPDATE campaigns SET version = ?, event_count = ?, last_hash = ? WHERE id = ? AND version = ?"


def append(conn: sqlite3.Connection, rows: Sequence[dict[str, Any]]) -> None:
    """Append rows to the log (each a dict holding every one of `EVENT_COLUMNS`)."""
    conn.executemany(INSERT_EVENT, [tuple(row[c] for c in EVENT_COLUMNS) for row in rows])


def bump(conn: sqlite3.Connection, camp: Any, event_count: int, last_hash: str) -> int:
    """Move the campaign's row to its next version, if it is still at the one read: how many rows moved (0: another
    writer came first)."""
    done = conn.execute(BUMP, (camp.version + 1, event_count, last_hash, camp.id, camp.version))
    return done.rowcount


def snapshot(conn: sqlite3.Connection, row: dict[str, Any]) -> None:
    conn.execute(INSERT_SNAPSHOT, tuple(row[c] for c in SNAPSHOT_COLUMNS))
