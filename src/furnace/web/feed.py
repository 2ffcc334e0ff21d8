"""What each viewer reads of a campaign's log: her own story, numbered in her own order.

An audience is the referee, the table (observers and the table display) or one player. Each reads the log
told by `furnace.render.story` from what she may know at each event: what the table had been shown of the
monsters by then (`web.cast`: reveals, masks, handles), the table's health setting, and the fact's audience
(a hidden roll is the referee's; a private fact its player's). A player's events are numbered 1, 2, 3 … in
her own order, so a gap never counts what she was not told; the referee's number is the log's own.

Rows written before the log kept facts are the referee's, shown as they were written; the others are told
only how many there were (`earlier`).

`feed(store, campaign, audience)` keeps one reading per audience and campaign and reads on from where it
stopped (the log only grows; a log that is not the one it read, the campaign made anew, is read again).
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from typing import Any, Literal

from furnace.campaign import table as tables
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Store, StoredEvent
from furnace.render import story
from furnace.web.cast import Casting, casting

Role = Literal["referee", "table", "player"]
PAGE = 200               # items a /log answer holds at most
TABLE_KINDS = frozenset({"table", "reveal_monster", "encounter", "reveal"})   # what the table shows changed


@dataclass(frozen=True)
class Audience:
    role: Role
    player: str = ""

    @property
    def key(self) -> str:
        return f"player:{self.player.strip().lower()}" if self.role == "player" else self.role

    @property
    def referee(self) -> bool:
        return self.role == "referee"


REFEREE = Audience("referee")
TABLE = Audience("table")


@dataclass
class Feed:
    """One audience's reading of one campaign's log: the items she was told, in her order."""

    audience: Audience
    last: int = 0                   # the last event read
    hash: str = ""                  # its hash: to know the log is the same one
    items: list[dict[str, Any]] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)     # the log's number of each item (never shown to a player)
    earlier: int = 0                # rows from before facts she is not told
    table_at: list[int] = field(default_factory=list)  # the log's events that changed what the table shows

    def read(self, events: list[StoredEvent], cast: Casting, state: CampaignState) -> None:
        table = tables.table_of(state)
        for e in events:
            if e.seq <= self.last:
                continue
            item = self._told(e, cast, table)
            if item is not None:
                self.items.append(item)
                self.seqs.append(e.seq)
            elif e.fact is None and not self.audience.referee:
                self.earlier += 1
            if e.kind in TABLE_KINDS:
                self.table_at.append(e.seq)
            self.last, self.hash = e.seq, e.hash

    def _told(self, e: StoredEvent, cast: Casting, table: tables.Table) -> dict[str, Any] | None:
        if self.audience.referee:
            told = story.told_row(e, story.REFEREE)
            return _item(e.seq, e, told) | {"hidden": tables.secret(e), "command": e.command} if told else None
        if tables.secret(e):
            return None
        sight = cast.sight_at(e.seq, table.health, dict(table.monster_health))
        told = story.told_row(e, story.View(self.audience.role, self.audience.player, sight))
        return _item(len(self.items) + 1, e, told) if told else None

    def since(self, number: int, limit: int = PAGE) -> list[dict[str, Any]]:
        """Her items after her number `number` (at most `limit`)."""
        if self.audience.referee:
            start = next((i for i, item in enumerate(self.items) if item["seq"] > number), len(self.items))
        else:
            start = max(0, min(number, len(self.items)))
        return self.items[start:start + max(1, limit)]


def _item(number: int, e: StoredEvent, told: story.Told) -> dict[str, Any]:
    return {"seq": number, "kind": e.kind, "who": told.subject if told.subject != "all" else "", "what": told.text,
            "rolls": list(told.rolls), "at": e.created_at, "entered": bool(e.data.get("entered"))}


_feeds: weakref.WeakKeyDictionary[Store, dict[tuple[str, str], Feed]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def feed(store: Store, campaign: str, audience: Audience, state: CampaignState | None = None) -> Feed:
    """The audience's reading of the campaign's log up to its last event."""
    with _lock:
        book = _feeds.setdefault(store, {})
        key = (campaign, audience.key)
        known = book.setdefault(key, Feed(audience))
        events = store.events(campaign, since=max(0, known.last - 1))
        if known.last and (not events or events[0].seq != known.last or events[0].hash != known.hash):
            known = book[key] = Feed(audience)        # not the log it read: the campaign was made anew
            events = store.events(campaign)
        fresh = [e for e in events if e.seq > known.last]
        if fresh:
            known.read(fresh, casting(store, campaign), state if state is not None else store.open(campaign))
        return known
