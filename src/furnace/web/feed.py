"""What each viewer reads of a campaign's log: her own story, numbered in her own order.

An audience is the referee, the table (observers and the table display) or one player. Each reads the log
told by `furnace.render.story` from what she may know at each event: what the table had been shown of the
monsters by then (`web.cast`: reveals, masks, handles), the table's health setting, and the fact's audience
(a hidden roll is the referee's; a private fact its player's). A player's events are numbered 1, 2, 3 … in
her own order, so a gap never counts what she was not told; the referee's number is the log's own.

Rows written before the log kept facts are the referee's, shown as they were written; the others are told
only how many there were (`earlier`).

`feed(store, campaign, audience)` keeps one reading per audience and campaign and reads on from where it
stopped (the log only grows; a log that is not the one it read, the campaign made anew, is read again). The
database is read once per campaign for all its audiences (`Log`: one query for the new events, the state again
only when they changed it, none for the events a command of this process just wrote), and each audience is told
from that in memory: a hidden roll is left out of every telling but the referee's (`Feed._told`).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from furnace.campaign import table as tables
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Store, StoredEvent
from furnace.render import story
from furnace.web.cast import Casting

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


class Log:
    """One campaign's log as this process last read it, shared by every audience: the newest events (at most
    TAIL), what they tell of the monsters (`Casting`) and the campaign's state. One read of the database brings it
    up to date for all of them — or none, when the events were just written here (`written`) — and each audience's
    `Feed` is then told from it in memory."""

    TAIL = 2000

    def __init__(self) -> None:
        self.last, self.hash = 0, ""
        self.tail: list[StoredEvent] = []
        self.cast = Casting()
        self.state: CampaignState | None = None
        self.mark: object = None            # the watcher's generation it was read at (`live`)
        self.wrote = 0                      # the last event this process wrote and took without a read
        self.feeds: dict[str, Feed] = {}    # by audience
        self.lock = threading.Lock()        # one campaign's reads at a time (others' go on meanwhile)
        self.reads = 0                      # database reads (for the tests)

    def take(self, events: list[StoredEvent]) -> bool:
        """Append the events that follow on from the last one read (False: they do not follow on)."""
        fresh = [e for e in events if e.seq > self.last]
        if not fresh:
            return True
        if fresh[0].seq != self.last + 1 or (self.hash and fresh[0].prev_hash != self.hash):
            return False
        self.cast.read(fresh)
        self.tail = (self.tail + fresh)[-self.TAIL:]
        if any(e.changes is not None for e in fresh):
            self.state = None               # the state changed: read it again when an audience needs it
        self.last, self.hash = fresh[-1].seq, fresh[-1].hash
        return True

    def refresh(self, store: Store, campaign: str) -> bool:
        """Read what is new (one query); False when the log is not the one read (the campaign made anew)."""
        self.reads += 1
        events = store.events(campaign, since=max(0, self.last - 1))      # the last one read, and what came after
        if self.last and (not events or events[0].seq != self.last or events[0].hash != self.hash):
            return False
        return self.take(events)

    def since(self, store: Store, campaign: str, after: int) -> list[StoredEvent]:
        """The events after `after` up to the last one read: from memory, or the database when they are older
        than the tail."""
        if not self.tail or self.tail[0].seq <= after + 1:
            return [e for e in self.tail if e.seq > after]
        return [e for e in store.events(campaign, since=after) if e.seq <= self.last]

    def current(self, store: Store, campaign: str) -> CampaignState:
        if self.state is None:
            self.state = store.open(campaign)
        return self.state


_logs: weakref.WeakKeyDictionary[Store, dict[str, Log]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def log_of(store: Store, campaign: str) -> Log:
    """This process's reading of the campaign's log (made at the first ask)."""
    with _lock:
        return _logs.setdefault(store, {}).setdefault(campaign, Log())


def _anew(store: Store, campaign: str, stale: Log) -> Log:
    with _lock:
        book = _logs.setdefault(store, {})
        if book.get(campaign) is stale:
            book[campaign] = Log()
        return book[campaign]


def feed(store: Store, campaign: str, audience: Audience, state: CampaignState | None = None, *,
         written: Sequence[StoredEvent] = (), mark: object = None, newest: int | None = None) -> Feed:
    """The audience's reading of the campaign's log up to its last event. The log is read once for every
    audience (`Log`): `written`, the events a command just appended here (`state`: the state after them), need no
    read when they follow on from what was read; `mark`, a live stream's generation, is read by the first
    audience to ask and not again by the others — and by none when its notification told of `newest`, the event
    this process wrote last and took without a read (the notification of a write made here)."""
    for _ in range(2):
        log = log_of(store, campaign)
        with log.lock:
            if _brought_up(log, store, campaign, state, written, mark, newest):
                known = log.feeds.setdefault(audience.key, Feed(audience))
                if known.last < log.last:
                    known.read(log.since(store, campaign, known.last), log.cast, log.current(store, campaign))
                return known
        _anew(store, campaign, log)             # not the log it read: the campaign was made anew
    raise AssertionError(f"the log of {campaign!r} changed while it was read")


def in_memory(store: Store, campaign: str, audience: Audience, mark: object, newest: int | None = None
              ) -> Feed | None:
    """`feed(…, mark=mark, newest=newest)` when it needs no read of the database — the log was read at `mark`
    already (by another audience's stream) or holds the event notified (written here) — and its lock is free: told
    in memory, at once (on the event loop: no thread is worth it). None: ask `feed` (in a thread)."""
    log = log_of(store, campaign)
    if not log.lock.acquire(blocking=False):
        return None
    try:
        known = log.feeds.get(audience.key)
        if known is None or not (log.mark == mark or (newest is not None and newest == log.last == log.wrote)):
            return None
        if known.last < log.last:
            if log.state is None or not log.tail or log.tail[0].seq > known.last + 1:
                return None                 # its state or older events are to be read
            known.read([e for e in log.tail if e.seq > known.last], log.cast, log.state)
        log.mark = mark
        return known
    finally:
        log.lock.release()


def _brought_up(log: Log, store: Store, campaign: str, state: CampaignState | None,
                written: Sequence[StoredEvent], mark: object, newest: int | None = None) -> bool:
    """Bring the log up to date (False: it is not the log it read)."""
    if written and log.take(list(written)):
        if state is not None:
            log.state = state
        log.wrote = log.last
        return True
    if mark is not None and (log.mark == mark or (newest is not None and newest == log.last == log.wrote)):
        log.mark = mark
        return True
    if not log.refresh(store, campaign):
        return False
    if mark is not None:
        log.mark = mark
    return True
