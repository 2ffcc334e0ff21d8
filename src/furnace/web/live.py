"""The live log over Server-Sent Events: each event the caller may be told, numbered in her own order.

A browser that loses the connection reconnects with `Last-Event-ID` (EventSource does it by itself) and gets
what came after, each event once: the ids are the caller's own numbers (`web.feed`: the referee's are the log's,
a player's count only what she was told), so nothing is missed or repeated and a gap never counts a hidden
event. A stream sleeps on the process's one watcher (`watch`), woken when anyone writes (the console's bell at
once, the CLI's writes at the watcher's next look); then it reads what is new — one reading per campaign and
audience for all their streams, whichever stream reads first — and sleeps again. It checks its session before it
sends anything, when a session was ended here, and at least every RECHECK seconds: a revoked or expired
session's stream ends. A change of the table (a monster revealed) is told as a bare `table` event without an id
or content, so the page reloads what it shows.

Streams are counted (`limits.Streams`): a session may hold `WebSettings.streams_per_session` open, an address
`streams_per_address`; one more is a 429.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable

from fastapi import APIRouter, HTTPException, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.background import BackgroundTask

from furnace.campaign import access
from furnace.campaign.store import Store
from furnace.web import bell, views, watch
from furnace.web.auth import Asker, Caller
from furnace.web.feed import Audience, Feed, feed
from furnace.web.limits import Refused, Streams, client_address

router = APIRouter(prefix="/api/campaigns/{campaign}")
BATCH = 500
RECHECK = 60.0       # an idle stream checks its session at least this often (one ended here: at once)


def _resume_from(request: Request, since: int | None) -> int | None:
    header = request.headers.get("last-event-id", "").strip()
    if header.isascii() and header.isdigit() and len(header) <= 12:
        return int(header)
    if since is None:   # a new page: from now on (it loads the log's past over /log)
        return None
    return max(0, since)


@router.get("/live")
async def live(campaign: str, request: Request, caller: Asker, since: int | None = None) -> EventSourceResponse:
    """The campaign's log as it happens (text/event-stream); `since` or Last-Event-ID: resume after that one."""
    store: Store = request.app.state.store
    settings = request.app.state.settings
    start = _resume_from(request, since)
    if start is None:
        start = await asyncio.to_thread(_newest, store, campaign, views.audience(caller))
    release = _counted(request, caller)
    stream = _stream(store, campaign, caller, start, settings.poll, release)
    return EventSourceResponse(stream, ping=int(settings.keepalive), headers={"X-Accel-Buffering": "no"},
                               background=BackgroundTask(release))


def _counted(request: Request, caller: Caller) -> Callable[[], None]:
    """Count the stream against its session's and its address's share (429 past either)."""
    streams: Streams = request.app.state.streams
    settings = request.app.state.settings
    session = caller.session.id if caller.session is not None else 0
    try:
        return streams.take(session, client_address(request.scope, settings), settings)
    except Refused as refused:
        raise HTTPException(refused.status, refused.message, headers={"Retry-After": "10"}) from None


def _newest(store: Store, campaign: str, audience: Audience) -> int:
    reading = feed(store, campaign, audience)
    return int(reading.items[-1]["seq"]) if reading.items else 0


async def _stream(store: Store, campaign: str, caller: Caller, last: int, poll: float,
                  release: Callable[[], None]) -> AsyncIterator[ServerSentEvent]:
    try:
        watcher = watch.watcher(store, poll)
        audience = views.audience(caller)
        read = await asyncio.to_thread(lambda: feed(store, campaign, audience).last)  # the log read: table news after
        seen, ended, checked = -1, bell.sessions_ended(store), time.monotonic()
        while True:
            generation = await watcher.wait(seen, RECHECK)
            messages: list[ServerSentEvent] = []
            if generation != seen:
                seen = generation
                newest, read, messages = await asyncio.to_thread(_batch, store, campaign, audience, last, read,
                                                                 (id(watcher), generation))
                last = max(last, newest)
            now = time.monotonic()
            if messages or now - checked >= RECHECK or bell.sessions_ended(store) != ended:
                ended, checked = bell.sessions_ended(store), now
                if not await asyncio.to_thread(_still_allowed, store, caller, campaign):
                    yield ServerSentEvent(event="signed-out", data="{}")
                    return
            for message in messages:
                yield message
    finally:
        release()


def _still_allowed(store: Store, caller: Caller, campaign: str) -> bool:
    """The caller's session is still live, and (a player, an observer) still of this campaign."""
    session = access.session_for(store, caller.token) if caller.token else None
    if session is None:
        return False
    return session.role == "referee" or session.campaign == campaign


Mark = tuple[int, int]          # a watcher's identity and its generation: when a reading was read

_read_at: weakref.WeakKeyDictionary[Store, dict[tuple[str, str], tuple[Mark, Feed]]] = weakref.WeakKeyDictionary()
_read_lock = threading.Lock()


def _reading(store: Store, campaign: str, audience: Audience, generation: Mark) -> Feed:
    """The audience's reading, read from the database once per generation for all her streams."""
    key = (campaign, audience.key)
    with _read_lock:
        known = _read_at.setdefault(store, {}).get(key)
    if known is not None and known[0] == generation:
        return known[1]
    reading = feed(store, campaign, audience)
    with _read_lock:
        _read_at[store][key] = (generation, reading)
    return reading


def _batch(store: Store, campaign: str, audience: Audience, last: int, read: int, generation: Mark,
           ) -> tuple[int, int, list[ServerSentEvent]]:
    """The audience's items after her number `last`, as messages; the last number sent and the log read; a
    `table` message when the table changed after the log event `read` (a monster revealed), so the page reloads
    what it shows."""
    reading = _reading(store, campaign, audience, generation)
    items = reading.since(last, BATCH)
    out = [ServerSentEvent(id=str(item["seq"]), event="log", data=json.dumps(item, ensure_ascii=False))
           for item in items]
    if any(seq > read for seq in reading.table_at[-8:]):
        out.append(ServerSentEvent(event="table", data="{}"))
    return (int(items[-1]["seq"]) if items else last), reading.last, out
