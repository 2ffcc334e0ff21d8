"""One watcher of the database per console process, so that an idle live stream costs nothing: the streams wait
on it, and it alone looks at the database.

The watcher is woken by the console's bell (`bell`: a write made here) and every `WebSettings.poll` seconds looks
whether anyone else wrote (the CLI, beside a running console): on SQLite it reads `PRAGMA data_version` on a
connection of its own (a counter SQLite keeps, changed by every commit of another connection: no table is read),
elsewhere the log's newest row id. Each change is a new *generation*; every stream waiting is woken once, reads
what is new (`live`: one reading per campaign and audience for all its streams) and waits again. A stream with
nothing to send sleeps until a change or its own time-out (its session's check), never in a polling loop.

There is one watcher per event loop (a server has one; tests make several): asyncio's events belong to a loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from typing import Any

from sqlalchemy import func, select

from furnace.campaign.schema import events
from furnace.campaign.store import Store
from furnace.web import bell


class Watcher:
    """The generation of the database as this process last saw it, and the waiting on its next one."""

    def __init__(self, store: Store, poll: float) -> None:
        self.store, self.poll = store, max(0.01, poll)
        self.generation = 0
        self.waiting = 0                        # streams asleep on it now (for the tests and the benchmark)
        self.looks = 0                          # how many times it looked at the database
        self._changed = asyncio.Event()
        self._wake = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        self._mark: Any = None
        self._sqlite: Any = None                # the raw connection data_version is read on (SQLite)
        self._unlisten = bell.listen(store, self._rung)
        self._task = self._loop.create_task(self._run(), name="furnace-watcher")

    def _rung(self) -> None:
        """The bell, from the thread that wrote: wake the watcher in its loop."""
        with contextlib.suppress(RuntimeError):          # the loop is closed: no one waits any more
            self._loop.call_soon_threadsafe(self._wake.set)

    async def wait(self, seen: int, timeout: float) -> int:
        """The generation after `seen`, as soon as there is one, or after `timeout` seconds the same."""
        if self.generation != seen:
            return self.generation
        self.waiting += 1
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout)
        finally:
            self.waiting -= 1
        return self.generation

    async def _run(self) -> None:
        try:
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

    def _next(self) -> None:
        self.generation += 1
        woken, self._changed = self._changed, asyncio.Event()
        woken.set()

    async def _look(self) -> Any:
        """What changes when anyone writes: SQLite's data_version (read here: a counter in memory, no lock, no
        table), or the log's newest row id (PostgreSQL: a query, in a thread)."""
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


_watchers: weakref.WeakKeyDictionary[Store, dict[asyncio.AbstractEventLoop, Watcher]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


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
