"""The live log over Server-Sent Events: each event the caller may see, its SSE id the campaign's event number.

A browser that loses the connection reconnects with `Last-Event-ID` (EventSource does it by itself) and gets
what came after, each event once: ids are the log's own sequence, so nothing is missed or repeated. The stream
looks at the log every `WebSettings.poll` seconds (another process, the CLI, may write to it too), and before
every batch checks the session again: a revoked session's stream ends. Events the caller may not see are not
sent; a change of the table (a monster revealed) is told as a bare `table` event without an id or content,
so the page reloads what it shows.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse, ServerSentEvent

from furnace.campaign import access
from furnace.campaign.store import Store
from furnace.web import views
from furnace.web.auth import Asker, Caller

router = APIRouter(prefix="/api/campaigns/{campaign}")
BATCH = 500


def _resume_from(request: Request, since: int | None) -> int:
    header = request.headers.get("last-event-id", "").strip()
    if header.isdigit():
        return int(header)
    if since is None:   # a new page: from now on (it loads the log's past over /log)
        return -1
    return max(0, since)


@router.get("/live")
async def live(campaign: str, request: Request, caller: Asker, since: int | None = None) -> EventSourceResponse:
    """The campaign's log as it happens (text/event-stream); `since` or Last-Event-ID: resume after that event."""
    store: Store = request.app.state.store
    settings = request.app.state.settings
    start = _resume_from(request, since)
    if start < 0:
        start = await asyncio.to_thread(store.count, campaign)
    return EventSourceResponse(_stream(store, campaign, caller, start, settings.poll, request),
                               ping=int(settings.keepalive), headers={"X-Accel-Buffering": "no"})


async def _stream(store: Store, campaign: str, caller: Caller, last: int, poll: float,
                  request: Request) -> AsyncIterator[ServerSentEvent]:
    while not await request.is_disconnected():
        if not await asyncio.to_thread(_still_allowed, store, caller, campaign):
            yield ServerSentEvent(event="signed-out", data="{}")
            return
        batch, messages = await asyncio.to_thread(_batch, store, campaign, caller, last)
        for message in messages:
            yield message
        if batch:
            last = batch
            continue
        await asyncio.sleep(poll)


def _still_allowed(store: Store, caller: Caller, campaign: str) -> bool:
    """The caller's session is still live, and (a player, an observer) still of this campaign."""
    session = access.session_for(store, caller.token) if caller.token else None
    if session is None:
        return False
    return session.role == "referee" or session.campaign == campaign


def _batch(store: Store, campaign: str, caller: Caller, last: int) -> tuple[int, list[ServerSentEvent]]:
    """The events after `last` as messages for the caller; the last event number looked at (0: none new)."""
    events = store.events(campaign, since=last, limit=BATCH)
    if not events:
        return 0, []
    state = store.open(campaign)
    shown = {e["seq"]: e for e in views.visible_events(events, state, caller)}
    out: list[ServerSentEvent] = []
    for e in events:
        view: dict[str, Any] | None = shown.get(e.seq)
        if view is not None:
            out.append(ServerSentEvent(id=str(e.seq), event="log", data=json.dumps(view, ensure_ascii=False)))
        elif e.kind == "table":
            out.append(ServerSentEvent(event="table", data="{}"))
    return events[-1].seq, out
