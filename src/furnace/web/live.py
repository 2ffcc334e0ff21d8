"""The live log over Server-Sent Events: each event the caller may be told, numbered in her own order.

A browser that loses the connection reconnects with `Last-Event-ID` (EventSource does it by itself) and gets
what came after, each event once: the ids are the caller's own numbers (`web.feed`: the referee's are the log's,
a player's count only what she was told), so nothing is missed or repeated and a gap never counts a hidden
event. The stream looks at the log as soon as the console writes to it (`bell`) and every `WebSettings.poll`
seconds (another process, the CLI, may write to it too), and checks the session again before it sends anything
(and every few seconds when idle): a revoked session's stream ends. Each audience (the referee, the table, each
player) has its own telling, read once and kept for all its streams. A change of the table (a monster
revealed) is told as a bare `table` event without an id or content, so the page reloads what it shows.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse, ServerSentEvent

from furnace.campaign import access
from furnace.campaign.store import Store
from furnace.web import bell, views
from furnace.web.auth import Asker, Caller
from furnace.web.feed import Audience, feed

router = APIRouter(prefix="/api/campaigns/{campaign}")
BATCH = 500
TICK = 0.03          # how often a stream listens for the bell (seconds)
RECHECK = 5.0        # an idle stream checks its session at least this often; one with news, before it sends


def _resume_from(request: Request, since: int | None) -> int | None:
    header = request.headers.get("last-event-id", "").strip()
    if header.isdigit() and len(header) <= 12:
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
    return EventSourceResponse(_stream(store, campaign, caller, start, settings.poll, request),
                               ping=int(settings.keepalive), headers={"X-Accel-Buffering": "no"})


def _newest(store: Store, campaign: str, audience: Audience) -> int:
    reading = feed(store, campaign, audience)
    return int(reading.items[-1]["seq"]) if reading.items else 0


async def _stream(store: Store, campaign: str, caller: Caller, last: int, poll: float,
                  request: Request) -> AsyncIterator[ServerSentEvent]:
    heard, looked, checked = -1, 0.0, 0.0
    audience = views.audience(caller)
    read = await asyncio.to_thread(lambda: feed(store, campaign, audience).last)   # the log read: table news after
    while not await request.is_disconnected():
        now = time.monotonic()
        if bell.rung(store) == heard and now - looked < poll:
            await asyncio.sleep(TICK)        # nothing written here since the last look, and no poll due yet
            continue
        heard, looked = bell.rung(store), now
        newest, read, messages = await asyncio.to_thread(_batch, store, campaign, audience, last, read)
        if (messages or now - checked >= RECHECK) and not await asyncio.to_thread(_still_allowed, store, caller,
                                                                                  campaign):
            yield ServerSentEvent(event="signed-out", data="{}")
            return
        checked = now if messages or now - checked >= RECHECK else checked
        for message in messages:
            yield message
        last = max(last, newest)


def _still_allowed(store: Store, caller: Caller, campaign: str) -> bool:
    """The caller's session is still live, and (a player, an observer) still of this campaign."""
    session = access.session_for(store, caller.token) if caller.token else None
    if session is None:
        return False
    return session.role == "referee" or session.campaign == campaign


def _batch(store: Store, campaign: str, audience: Audience, last: int, read: int,
           ) -> tuple[int, int, list[ServerSentEvent]]:
    """The audience's items after her number `last`, as messages; the last number sent and the log read; a
    `table` message when the table changed after the log event `read` (a monster revealed), so the page reloads
    what it shows."""
    reading = feed(store, campaign, audience)
    items = reading.since(last, BATCH)
    out = [ServerSentEvent(id=str(item["seq"]), event="log", data=json.dumps(item, ensure_ascii=False))
           for item in items]
    if any(seq > read for seq in reading.table_at[-8:]):
        out.append(ServerSentEvent(event="table", data="{}"))
    return (int(items[-1]["seq"]) if items else last), reading.last, out
