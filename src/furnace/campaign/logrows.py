"""Rows of the campaign log: an event as stored (`StoredEvent`, chained by `chain_hash`), the row a fact is
written as, and the reads a campaign's state is rebuilt from (its latest snapshot, the changes after it) on either
connection — the standard library's sqlite3 (`furnace.campaign.reading`) or SQLAlchemy's."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from furnace.campaign import reading
from furnace.campaign.state import canonical
from furnace.events import Event, event_from_dict

if TYPE_CHECKING:
    from sqlalchemy import Connection

GENESIS = "0" * 64
FACT = "fact"      # a row's data: the fact's values, and under this key who, to whom, the rules and the audience


@dataclass(frozen=True)
class StoredEvent:
    """One row of the log, as stored: what happened, its rolls, and what it changed."""

    seq: int
    command_id: int
    command: str
    kind: str
    who: str
    what: str
    rolls: list[dict[str, Any]]
    data: dict[str, Any]
    changes: list[dict[str, Any]] | None
    undoes: int | None
    created_at: str
    prev_hash: str
    hash: str

    @property
    def fact(self) -> Event | None:
        """The fact this row records (None: a row from before facts, which carries its sentence)."""
        meta = self.data.get(FACT)
        if not isinstance(meta, dict):
            return None
        raw = {**meta, "kind": self.kind, "rolls": self.rolls,
               "data": {k: v for k, v in self.data.items() if k != FACT}}
        return event_from_dict(raw)

    def body(self) -> dict[str, Any]:
        """What the hash covers: everything but the hashes themselves."""
        return {"seq": self.seq, "command_id": self.command_id, "command": self.command, "kind": self.kind,
                "who": self.who, "what": self.what, "rolls": self.rolls, "data": self.data,
                "changes": self.changes, "undoes": self.undoes, "created_at": self.created_at}


def chain_hash(prev_hash: str, body: dict[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical(body)).encode("utf-8")).hexdigest()


def event_row(e: Event) -> tuple[str, str, str, list[dict[str, Any]], dict[str, Any]]:
    """A row for the log: a fact keeps its values as `data` and the rest under `data["fact"]`, with no
    sentence (`what` is empty); an event from before facts keeps its sentence."""
    rolls = [{**r.to_dict(), "explanation": r.explain()} for r in e.rolls]
    raw = e.to_dict()
    meta = {k: raw[k] for k in ("actor", "targets", "rules", "cast", "audience")}
    data = json.loads(json.dumps({**raw["data"], FACT: meta}, default=str))
    return e.kind, e.actor, "", rolls, data


def stored(row: Any) -> StoredEvent:
    return StoredEvent(seq=row.seq, command_id=row.command_id, command=row.command, kind=row.kind, who=row.who,
                       what=row.what, rolls=json.loads(row.rolls), data=json.loads(row.data),
                       changes=json.loads(row.changes) if row.changes is not None else None, undoes=row.undoes,
                       created_at=row.created_at, prev_hash=row.prev_hash, hash=row.hash)


def latest_snapshot(conn: Connection | sqlite3.Connection, camp: Any) -> tuple[int, str] | None:
    """The campaign's latest snapshot at or before its last event: its seq and its state (JSON)."""
    if isinstance(conn, sqlite3.Connection):
        return reading.latest_snapshot(conn, camp)
    from sqlalchemy import select

    from furnace.campaign.schema import snapshots

    snap = conn.execute(select(snapshots.c.seq, snapshots.c.state).where(
        snapshots.c.campaign_id == camp.id, snapshots.c.seq <= camp.event_count)
        .order_by(snapshots.c.seq.desc()).limit(1)).first()
    return None if snap is None else (snap.seq, snap.state)


def links_after(conn: Connection | sqlite3.Connection, camp: Any, since: int) -> list[Any]:
    """The links of the log after event `since` up to the campaign's last event, in order: each row's `seq`,
    `prev_hash`, `hash` and `changes` (JSON or None) — what steps a state known at `since` forward."""
    if isinstance(conn, sqlite3.Connection):
        return reading.links_after(conn, camp, since)
    from sqlalchemy import select

    from furnace.campaign.schema import events

    return list(conn.execute(select(events.c.seq, events.c.prev_hash, events.c.hash, events.c.changes).where(
        events.c.campaign_id == camp.id, events.c.seq > since, events.c.seq <= camp.event_count)
        .order_by(events.c.seq)))


def changes_after(conn: Connection | sqlite3.Connection, camp: Any, since: int) -> Iterator[str]:
    """The changes logged after event `since` up to the campaign's last event, in order (JSON each)."""
    if isinstance(conn, sqlite3.Connection):
        yield from reading.changes_after(conn, camp, since)
        return
    from sqlalchemy import select

    from furnace.campaign.schema import events

    for (changed,) in conn.execute(select(events.c.changes).where(
            events.c.campaign_id == camp.id, events.c.seq > since, events.c.seq <= camp.event_count,
            events.c.changes.is_not(None)).order_by(events.c.seq)):
        yield changed
