"""A campaign's state as a store last read or wrote it, and how it is brought up to date (`furnace.campaign.store`):
stepped on by the changes another writer logged after it while the log runs on from it by its hash chain, else
rebuilt from the latest snapshot and the changes after it."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from furnace.campaign.logrows import changes_after, latest_snapshot
from furnace.campaign.state import CampaignError, CampaignState, apply_changes

if TYPE_CHECKING:
    from sqlalchemy import Connection


@dataclass(frozen=True)
class Known:
    """A campaign's state as this store last read or wrote it, at the log's event `seq` whose hash is `hash`: the
    hash chain makes that pair name one state (a rolled-back write never matches it). `entities`: what a rebuild
    of the log up to there folds the changes into, so the state can be stepped on by the changes after it."""

    seq: int
    hash: str
    name: str
    state: CampaignState
    entities: dict[str, Any]


class Link(NamedTuple):
    """A row of the log as a known state is stepped on by it: its number, its hashes and its changes (JSON)."""

    seq: int
    prev_hash: str
    hash: str
    changes: str | None


Steps = tuple[int, list[Link]]      # the log's rows after the event a known state is at, read with the campaign's row



def stepped(camp: Any, known: Known, links: Sequence[Any]) -> Known | None:
    """The known state stepped on by the changes logged after it (`links`: the log's rows after it), when the
    log still runs on from it: each event after it is chained to the one before, the first to the known one's
    hash, the last is the row's (None: the log is not the one the state was known from — the campaign made
    anew under its id, a write this store saw rolled back — and the state is rebuilt)."""
    prev = known.hash
    for seq, link in enumerate(links, known.seq + 1):
        if link.seq != seq or link.prev_hash != prev:
            return None
        prev = link.hash
    if prev != camp.last_hash or known.seq + len(links) != camp.event_count:
        return None
    changed = [json.loads(link.changes) for link in links if link.changes is not None]
    if not changed:        # rolls only: the same state
        return Known(camp.event_count, camp.last_hash, camp.name, known.state, known.entities)
    entities = dict(known.entities)       # the known dict is shared with its state: stepped on a copy
    for change in changed:
        apply_changes(entities, change)
    if not entities:
        return None
    return Known(camp.event_count, camp.last_hash, camp.name, CampaignState.from_entities(entities, camp.name),
                 entities)

def rebuilt(conn: Connection | sqlite3.Connection, camp: Any, *, snapshots_on: bool) -> Known:
    entities: dict[str, Any] = {}
    since = 0
    snap = latest_snapshot(conn, camp) if snapshots_on else None
    if snap is not None:
        since, entities = snap[0], json.loads(snap[1])
    for changed in changes_after(conn, camp, since):
        apply_changes(entities, json.loads(changed))
    if not entities:
        raise CampaignError(f"the campaign {camp.name!r} has no recorded state")
    return Known(camp.event_count, camp.last_hash, camp.name, CampaignState.from_entities(entities, camp.name),
                 entities)
