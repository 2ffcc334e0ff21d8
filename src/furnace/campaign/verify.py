"""`verify`: is a campaign's log whole and untouched?

Walks the events in order, recomputing each one's hash from its content and the hash before it, and names
the first event whose chain breaks (a row edited by hand, a gap, an event inserted). The campaign row keeps
the count and hash of the last event, so events deleted from the end are noticed too. Each snapshot must
stand for an event of the chain (its hash) and its state must be unchanged (its own hash); `deep=True`
also rebuilds the state at each snapshot from the log and compares.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from furnace.campaign.logrows import GENESIS, chain_hash, stored
from furnace.campaign.schema import events, snapshots
from furnace.campaign.state import apply_changes, canonical
from furnace.campaign.store import Store


@dataclass(frozen=True)
class Verification:
    campaign: str
    events: int
    snapshots: int
    problems: list[str] = field(default_factory=list)
    first_bad: int | None = None          # the seq of the first event whose chain breaks

    @property
    def ok(self) -> bool:
        return not self.problems

    def explain(self) -> str:
        head = f"campaign {self.campaign!r}: {self.events} events, {self.snapshots} snapshots"
        if self.ok:
            return f"{head}: the chain of hashes is whole and every snapshot matches"
        return "\n".join([f"{head}: {len(self.problems)} problem(s)", *(f"  - {p}" for p in self.problems)])


def verify(store: Store, name: str, *, deep: bool = False) -> Verification:
    with store.transaction() as conn:
        camp = store.row(conn, name)
        problems, first_bad, hashes, states = _walk(conn, camp.id, deep)
        if not problems and (len(hashes) != camp.event_count or (hashes[-1] if hashes else GENESIS)
                             != camp.last_hash):
            problems.append(f"the campaign records {camp.event_count} events ending in hash "
                            f"{camp.last_hash[:12]}…, the log holds {len(hashes)}: events were deleted or added "
                            "at the end")
            first_bad = len(hashes) + 1
        count = _check_snapshots(conn, camp.id, hashes, states, problems, deep)
        return Verification(name, len(hashes), count, problems, first_bad)


def _walk(conn: Connection, campaign_id: int, deep: bool,
          ) -> tuple[list[str], int | None, list[str], dict[int, str]]:
    problems: list[str] = []
    hashes: list[str] = []
    states: dict[int, str] = {}
    entities: dict[str, Any] = {}
    wanted = set(conn.scalars(select(snapshots.c.seq).where(snapshots.c.campaign_id == campaign_id))) if deep \
        else set()
    prev = GENESIS
    for row in conn.execute(select(events).where(events.c.campaign_id == campaign_id).order_by(events.c.seq)):
        e = stored(row)
        expected_seq = len(hashes) + 1
        if e.seq != expected_seq:
            problems.append(f"event {expected_seq} is missing (the next stored is {e.seq})")
        elif e.prev_hash != prev:
            problems.append(f"event {e.seq} does not follow event {e.seq - 1}: its previous-hash was changed")
        elif chain_hash(prev, e.body()) != e.hash:
            problems.append(f"event {e.seq} ({e.command}: {e.what[:60] or e.kind}) was changed after it was written")
        if problems:
            return problems, e.seq, hashes, states
        hashes.append(e.hash)
        prev = e.hash
        if deep:
            apply_changes(entities, e.changes or [])
            if e.seq in wanted:
                states[e.seq] = _comparable(entities)
    return problems, None, hashes, states


def _comparable(entities: dict[str, Any]) -> str:
    """The state as text to compare, without the campaign's name: the name is the campaign row's, but logs
    written before it left the state carry it in their first event (and snapshots taken then, too)."""
    campaign = entities.get("campaign")
    if isinstance(campaign, dict) and "name" in campaign:
        entities = {**entities, "campaign": {k: v for k, v in campaign.items() if k != "name"}}
    return canonical(entities)


def _check_snapshots(conn: Connection, campaign_id: int, hashes: list[str], states: dict[int, str],
                     problems: list[str], deep: bool) -> int:
    count = 0
    for snap in conn.execute(select(snapshots).where(snapshots.c.campaign_id == campaign_id)
                             .order_by(snapshots.c.seq)):
        count += 1
        if snap.seq > len(hashes) or hashes[snap.seq - 1] != snap.event_hash:
            problems.append(f"the snapshot at event {snap.seq} stands for an event not in the chain")
        elif hashlib.sha256((snap.event_hash + snap.state).encode("utf-8")).hexdigest() != snap.state_hash:
            problems.append(f"the snapshot at event {snap.seq} was changed after it was taken")
        elif deep and _comparable(json.loads(snap.state)) != states.get(snap.seq):
            problems.append(f"the snapshot at event {snap.seq} differs from the state the log rebuilds")
    return count
