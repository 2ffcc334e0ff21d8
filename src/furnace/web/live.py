"""The live log over Server-Sent Events: each event the caller may see, its SSE id the campaign's event number.

A browser that loses the connection reconnects with `Last-Event-ID` (EventSource does it by itself) and gets
what came after, each event once: ids are the log's own sequence, so nothing is missed or repeated. The stream
looks at the log as soon as the console writes to it (`bell`) and every `WebSettings.poll` seconds (another
process, the CLI, may write to it too), and checks the session again before it sends anything (and every few
seconds when idle): a revoked session's stream ends. What a player or an observer may see is the same for all of
them, so a batch is drawn once and sent to every stream that waits for it. Events the caller may not see are not
sent; a change of the table (a monster revealed) is told as a bare `table` event without an id or content,
so the page reloads what it shows.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse, ServerSentEvent

from furnace.campaign import access
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Store
from furnace.web import bell, views
from furnace.web.auth import Asker, Caller

router = APIRouter(prefix="/api/campaigns/{campaign}")
BATCH = 500
TICK = 0.03          # how often a stream listens for the bell (seconds)
RECHECK = 5.0        # an idle stream checks its session at least this often; one with news, before it sends
KEEP = 64            # batches and states kept for the other streams
_lock = threading.Lock()
_made: OrderedDict[tuple[int, str, bool, int, str], tuple[int, list[ServerSentEvent]]] = OrderedDict()
_states: OrderedDict[tuple[int, str, str], CampaignState] = OrderedDict()


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
    heard, looked, checked = -1, 0.0, 0.0
    while not await request.is_disconnected():
        now = time.monotonic()
        if bell.rung(store) == heard and now - looked < poll:
            await asyncio.sleep(TICK)        # nothing written here since the last look, and no poll due yet
            continue
        heard, looked = bell.rung(store), now
        batch, messages = await asyncio.to_thread(_batch, store, campaign, caller.referee, last)
        if (messages or now - checked >= RECHECK) and not await asyncio.to_thread(_still_allowed, store, caller,
                                                                                  campaign):
            yield ServerSentEvent(event="signed-out", data="{}")
            return
        checked = now if messages or now - checked >= RECHECK else checked
        for message in messages:
            yield message
        if batch:
            last = batch


def _still_allowed(store: Store, caller: Caller, campaign: str) -> bool:
    """The caller's session is still live, and (a player, an observer) still of this campaign."""
    session = access.session_for(store, caller.token) if caller.token else None
    if session is None:
        return False
    return session.role == "referee" or session.campaign == campaign


def _batch(store: Store, campaign: str, referee: bool, last: int) -> tuple[int, list[ServerSentEvent]]:
    """The events after `last` as messages for a referee or for the others (the same for every player and
    observer: what they may see does not depend on who they are); the last event number looked at (0: none)."""
    events = store.events(campaign, since=last, limit=BATCH)
    if not events:
        return 0, []
    key = (id(store), campaign, referee, last, events[-1].hash)     # the hash: this very log, not a namesake's
    with _lock:
        if key in _made:
            _made.move_to_end(key)
            return _made[key]
    state = _state_at(store, campaign, events[-1].hash)
    who = Caller("referee") if referee else Caller("observer")
    shown = {e["seq"]: e for e in views.visible_events(events, state, who, store)}
    out: list[ServerSentEvent] = []
    for e in events:
        view: dict[str, Any] | None = shown.get(e.seq)
        if view is not None:
            out.append(ServerSentEvent(id=str(e.seq), event="log", data=json.dumps(view, ensure_ascii=False)))
        elif e.kind == "table":
            out.append(ServerSentEvent(event="table", data="{}"))
    made = (events[-1].seq, out)
    with _lock:
        _made[key] = made
        while len(_made) > KEEP:
            _made.popitem(last=False)
    return made


def _state_at(store: Store, campaign: str, at: str) -> CampaignState:
    """The campaign's state (read once for every stream that needs it at this point of the log: `at`, the hash of
    the last event it has seen)."""
    key = (id(store), campaign, at)
    with _lock:
        if key in _states:
            return _states[key]
    state = store.open(campaign)
    with _lock:
        _states[key] = state
        while len(_states) > KEEP:
            _states.popitem(last=False)
    return state
