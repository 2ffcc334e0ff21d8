"""One watcher of the database per console process, so that an idle live stream costs nothing: the streams wait
on it, and it alone looks at the database.

On SQLite the watcher is woken by the console's bell (`bell`: a write made here) and every `WebSettings.poll`
seconds looks whether anyone else wrote (the CLI, beside a running console): it reads `PRAGMA data_version` on a
connection of its own (a counter SQLite keeps, changed by every commit of another connection: no table is read).
On PostgreSQL it never polls: a thread with a connection of its own LISTENs on the store's channel
(`store.CHANNEL`), which every commit that appends events notifies with the campaign and its newest event number —
this worker's, another worker's, the CLI's — so only that campaign's streams wake; the bell wakes them all only
when a session was ended here. (Re)connecting, it wakes every stream once: what it missed meanwhile is read.

Each change is a new *generation* (all of them, or one campaign's); every stream waiting on it is woken once,
reads what is new (`live`: one reading per campaign and audience for all its streams) and waits again. A stream
with nothing to send sleeps until a change or its own time-out (its session's check), never in a polling loop.

There is one watcher per event loop (a server has one; tests make several): asyncio's events belong to a loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
import weakref
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select, text

from furnace.campaign.notify import CHANNEL, SESSIONS_ENDED
from furnace.campaign.schema import events
from furnace.campaign.store import Store
from furnace.web import bell

ALL = None          # a change of every campaign (or of one not named)
WORKER = secrets.token_hex(6)   # this process's name in its acks (a worker answers once, whatever its listeners)
ACKS = "furnace_acks"   # the channel on which each worker answers a sessions-ended notification that asks it to


class Watcher:
    """The generation of the database as this process last saw it, and the waiting on its next one."""

    def __init__(self, store: Store, poll: float) -> None:
        self.store, self.poll = store, max(0.01, poll)
        self.generation = 0                     # changes of every campaign
        self._of: dict[str, int] = {}           # changes of one campaign (PostgreSQL's notifications name it)
        self.newest: dict[str, int] = {}        # the newest event number notified of each campaign
        self.waiting = 0                        # streams asleep on it now (for the tests and the benchmark)
        self.looks = 0                          # how many times it looked at the database
        self._changed: dict[str | None, asyncio.Event] = {}     # by campaign, what its streams wait on
        self._wake = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        self._mark: Any = None
        self._sqlite: Any = None                # the raw connection data_version is read on (SQLite)
        self._ended = bell.sessions_ended(store)
        self._unlisten = bell.listen(store, self._rung)
        self.listener = Listener(store, self._heard) if store.engine.dialect.name == "postgresql" else None
        self._task = self._loop.create_task(self._run(), name="furnace-watcher")

    def _rung(self) -> None:
        """The bell, from the thread that wrote: wake the watcher in its loop."""
        with contextlib.suppress(RuntimeError):          # the loop is closed: no one waits any more
            self._loop.call_soon_threadsafe(self._wake.set)

    def _heard(self, campaign: str | None, seq: int | None = None) -> None:
        """A notification, from the listening thread: wake that campaign's streams (None: every stream)."""
        with contextlib.suppress(RuntimeError):
            if campaign is ALL:
                self._loop.call_soon_threadsafe(self._next, campaign)
            else:
                self._loop.call_soon_threadsafe(self._next_of, campaign, seq)

    def seen_by(self, campaign: str | None) -> int:
        """The generation a stream of `campaign` waits past: every change of all campaigns, and of its own."""
        return self.generation + (self._of.get(campaign, 0) if campaign is not ALL else 0)

    async def wait(self, seen: int, timeout: float, campaign: str | None = ALL) -> int:
        """The generation after `seen`, as soon as there is one, or after `timeout` seconds the same."""
        if self.seen_by(campaign) != seen:
            return self.seen_by(campaign)
        self.waiting += 1
        try:
            with contextlib.suppress(TimeoutError):
                changed = self._changed.setdefault(campaign, asyncio.Event())
                await asyncio.wait_for(changed.wait(), timeout)
        finally:
            self.waiting -= 1
        return self.seen_by(campaign)

    async def _run(self) -> None:
        try:
            if self.listener is not None:
                await self._rung_here()
            self._mark = await self._look()
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.poll)
                rang = self._wake.is_set()
                self._wake.clear()
                mark = await self._look()
                if rang or mark != self._mark:
                    self._mark = mark
                    self._next()
        finally:
            self._unlisten()
            self._close()
            if self.listener is not None:
                self.listener.stop()

    async def _rung_here(self) -> None:
        """PostgreSQL: the notifications are the changes (`_heard`); the bell only tells of a session ended here
        (a write made here is notified like any other)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            if bell.sessions_ended(self.store) != self._ended:
                self._ended = bell.sessions_ended(self.store)
                self._next()

    def _next(self, campaign: str | None = ALL) -> None:
        self.generation += 1
        woken, self._changed = self._changed, {}
        for event in woken.values():
            event.set()

    def _next_of(self, campaign: str | None, seq: int | None = None) -> None:
        name = str(campaign)
        if seq is None:
            self.newest.pop(name, None)
        else:
            self.newest[name] = seq
        self._of[name] = self._of.get(name, 0) + 1
        woken = self._changed.pop(name, None)
        if woken is not None:
            woken.set()

    async def _look(self) -> Any:
        """What changes when anyone writes: SQLite's data_version (read here: a counter in memory, no lock, no
        table), or the log's newest row id (a SQLite file not made yet: a query, in a thread; PostgreSQL: never)."""
        self.looks += 1
        if self.store.engine.dialect.name == "sqlite" and not self.store.unmade:
            try:
                return self._data_version()
            except Exception:              # the file was made, or moved, meanwhile: a new connection next time
                self._close()
                return None
        return await asyncio.to_thread(self._newest_row)

    def _data_version(self) -> tuple[int, int]:
        if self._sqlite is None or self._sqlite[0] is not self.store.engine:
            self._close()
            raw = self.store.engine.raw_connection()
            self._sqlite = (self.store.engine, raw)
        raw = self._sqlite[1]
        row = raw.driver_connection.execute("PRAGMA data_version").fetchone()
        return id(raw), int(row[0])

    def _newest_row(self) -> int | None:
        with self.store.transaction() as conn:
            found = conn.execute(select(func.max(events.c.id))).scalar()
        return None if found is None else int(found)

    def _close(self) -> None:
        if self._sqlite is not None:
            with contextlib.suppress(Exception):
                self._sqlite[1].close()
            self._sqlite = None

    def stop(self) -> None:
        self._task.cancel()
        if self.listener is not None:
            self.listener.stop()


class Listener:
    """A thread LISTENing on PostgreSQL's `CHANNEL` on a connection of its own (taken from the store's engine and
    detached from its pool), handing each notification's campaign (and its newest event number) to `heard`; a lost
    connection is made again, and each (re)connection is told as a change of every campaign (None), for what was
    missed meanwhile. `connections` counts the (re)connections: the sessions a worker keeps in memory
    (`web.known`) hold while it stays what it was when they were read. A sessions-ended notification that carries
    an `ack` (sent by the worker that ended a session, after its end committed) is answered on `ACKS` once this
    process forgot its sessions, with the ack and this process's name; `acks` gathers every answer heard (by ack:
    the workers' names), so the worker that ended it knows when every worker has."""

    PATIENCE = 2.0        # how often the thread looks whether it was stopped (seconds: one wake, no query)

    def __init__(self, store: Store, heard: Callable[[str | None, int | None], None]) -> None:
        self.store, self.heard = store, heard
        self.connected = threading.Event()
        self.heard_count = 0                    # notifications received (for the tests and the benchmark)
        self.connections = 0                    # how many times it (re)connected
        self.name = WORKER                      # this worker's name in its acks
        self.acks: dict[str, set[str]] = {}     # by ack: the listeners that answered it
        self.told = threading.Condition()       # notified at each ack heard
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="furnace-listener", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        pause = 0.1
        while not self._stop.is_set():
            try:
                self._listen()
                pause = 0.1
            except Exception:              # the server went away: listen again, a little later each time
                self.connected.clear()
                self._stop.wait(pause)
                pause = min(5.0, pause * 2)

    def _listen(self) -> None:
        raw = self.store.engine.raw_connection()
        conn: Any = raw.driver_connection
        raw.detach()                       # never handed back to the pool: it listens until this thread ends
        try:
            conn.autocommit = True
            conn.execute(f"LISTEN {CHANNEL}")
            conn.execute(f"LISTEN {ACKS}")
            self.connections += 1
            self.connected.set()
            self.heard(ALL, None)
            while not self._stop.is_set():
                for note in conn.notifies(timeout=self.PATIENCE):
                    self.heard_count += 1
                    if note.channel == ACKS:
                        self._acked(note.payload)
                    elif SESSIONS_ENDED in note.payload:        # a worker (this one too) ended a session
                        bell.ended_here(self.store)             # this process's streams and kept sessions forget
                        self._answer(note.payload)
                    else:
                        self.heard(*campaign_of(note.payload))
        finally:
            self.connected.clear()
            with contextlib.suppress(Exception):
                conn.close()

    def _answer(self, payload: str) -> None:
        """Tell the worker that ended a session (its `ack`) that this one forgot its sessions."""
        try:
            ack = json.loads(payload).get("ack")
        except (ValueError, AttributeError):
            return
        if isinstance(ack, str) and ack:
            with self.store.engine.begin() as conn:
                conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                             {"channel": ACKS, "payload": f"{ack[:32]} {self.name}"})

    def _acked(self, payload: str) -> None:
        ack, _, name = payload.partition(" ")
        with self.told:
            if len(self.acks) > 1000:
                self.acks.clear()
            self.acks.setdefault(ack, set()).add(name)
            self.told.notify_all()

    def stop(self) -> None:
        self._stop.set()

    def wait_connected(self, seconds: float) -> bool:
        return self.connected.wait(seconds)


def campaign_of(payload: str) -> tuple[str | None, int | None]:
    """The campaign a notification names (None: it names none the watcher can read: wake every stream), and its
    newest event number (None: not told)."""
    try:
        told = json.loads(payload)
        found, seq = told.get("campaign"), told.get("seq")
    except (ValueError, AttributeError):
        return ALL, None
    if not isinstance(found, str):
        return ALL, None
    return found, seq if isinstance(seq, int) and not isinstance(seq, bool) else None


_watchers: weakref.WeakKeyDictionary[Store, dict[asyncio.AbstractEventLoop, Watcher]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def listener(store: Store, poll: float) -> Listener | None:
    """This loop's watcher's listener of `store` (PostgreSQL; made with the watcher at the first ask)."""
    return watcher(store, poll).listener


def listeners(store: Store) -> list[Listener]:
    """The listeners of `store` in this process (one per event loop; a server has one)."""
    with _lock:
        found = [w.listener for w in _watchers.get(store, {}).values() if w.listener is not None]
    return found


def watcher(store: Store, poll: float) -> Watcher:
    """This loop's watcher of `store` (made at the first stream)."""
    loop = asyncio.get_running_loop()
    with _lock:
        book = _watchers.setdefault(store, {})
        for old in [lp for lp in book if lp.is_closed()]:
            del book[old]
        found = book.get(loop)
        if found is None or found._task.done():
            found = book[loop] = Watcher(store, poll)
        return found
