"""A campaign's state as a store last read or wrote it, and how it is brought up to date (`furnace.campaign.store`):
stepped on by the changes another writer logged after it while the log runs on from it by its hash chain, else
rebuilt from the latest snapshot and the changes after it."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from furnace.campaign.logrows import changes_after, latest_snapshot
from furnace.campaign.state import CampaignError, CampaignState, apply_changes, canonical, changes
from furnace.errors import FurnaceError

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


def folded_after(known: Known | None, changed: list[dict[str, Any]] | None) -> dict[str, Any]:
    """The entities a rebuild would fold from the log after a command: the known ones and its changes (as read back
    from the log: `changes` holds the command's own values)."""
    if changed is None:       # a roll: the same entities (never changed in place: stepped on a copy)
        return known.entities if known is not None else {}
    entities = dict(known.entities) if known is not None else {}
    apply_changes(entities, json.loads(json.dumps(changed)))
    return entities


def checked_changes(before: CampaignState | None, after: CampaignState, command: str,
                    name: str) -> tuple[list[dict[str, Any]] | None, CampaignState]:
    """What the command changed (a roll that returns the state it was given changed nothing: not diffed), and the
    state read back from what is stored."""
    entities = after.entities()
    try:   # never log a state that cannot be read back: the campaign would no longer open
        read_back = CampaignState.checked(json.loads(canonical(entities)), name)
    except CampaignError as exc:
        raise CampaignError(f"{command!r} was refused, nothing changed: {exc}") from None
    return changes(before.entities() if before else {}, entities) or None, read_back


def kept_for_next(entities: dict[str, Any], name: str) -> None:
    """On the command line, the state a rebuild of the log makes of the entities a command just logged, and its fight,
    made now and kept for the next command (`furnace.rules.cache.latest_made`): each command is a process of its own,
    and a read after a write then builds no validator. (Made of the entities as the log folds them, not of the
    command's own copy: the two hold the same values in another order, and the cache compares texts.) A server keeps
    the state in memory instead: nothing is made there."""
    from furnace.rules.cache import latest_on

    if not latest_on():
        return
    with contextlib.suppress(FurnaceError):     # (read back already: the next read would say the same)
        state = CampaignState.from_entities(entities, name)
        if state.encounter is not None:
            from furnace.campaign.kept_fight import current

            current(state)
