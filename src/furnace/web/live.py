"""The live log over Server-Sent Events: each event the caller may be told, numbered in her own order.

A browser that loses the connection reconnects with `Last-Event-ID` (EventSource does it by itself) and gets
what came after, each event once: the ids are the caller's own numbers (`web.feed`: the referee's are the log's,
a player's count only what she was told), so nothing is missed or repeated and a gap never counts a hidden
event. A stream sleeps on the process's one watcher (`watch`), woken when anyone writes (on SQLite the console's
bell at once, the CLI's writes at the watcher's next look; on PostgreSQL a notification naming its campaign, from
any worker or the CLI); then it reads what is new — one read of the database per campaign for all its streams
(`feed.Log`), told to each audience in memory, by the first of its streams to ask and awaited by the others — and
sleeps again. Its one wait is also its keep-alive's timer (no ping task per stream). Its session is read again
when a session was ended (here: the bell counts them; on another worker: its notification), and at least every
RECHECK seconds (a session ended by another process), once for all the session's streams; its time being up is
told without a read: a revoked or expired session's stream ends, and nothing is sent on it after the bell. A
change of the table (a monster revealed) is told as a bare `table` event without an id or content, so the page
reloads what it shows.

Streams are counted (`limits.Streams`; on PostgreSQL in the database, across workers: `shared`): a session may
hold `WebSettings.streams_per_session` open, an address `streams_per_address`; one more is a 429.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import weakref
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime

from fastapi import APIRouter, HTTPException, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.background import BackgroundTask

from furnace.campaign import access
from furnace.campaign.store import Store
from furnace.errors import FurnaceError
from furnace.web import bell, questions, views, watch
from furnace.web.auth import Asker, Caller
from furnace.web.feed import Audience, Feed, feed, in_memory, log_of
from furnace.web.limits import Refused, Streams, client_address

router = APIRouter(prefix="/api/campaigns/{campaign}")
BATCH = 500
RECHECK = 60.0       # a session is read again at least this often (one ended here or on another worker: at once)
TICK = 15.0          # a campaign's questions are looked at for their time limit this often


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
    release = await asyncio.to_thread(_counted, request, caller)      # on PostgreSQL, counted in the database
    stream = _stream(store, campaign, caller, start, settings.poll, release,
                     lambda: questions.overdue(request.app, campaign), settings.keepalive)
    # ping=0: no keep-alive task per stream; the stream sends its own when its one wait times out
    return EventSourceResponse(stream, ping=0, headers={"X-Accel-Buffering": "no"},
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
                  release: Callable[[], None], tick: Callable[[], None] = lambda: None,
                  keepalive: float = 15.0) -> AsyncIterator[ServerSentEvent]:
    try:
        watcher = watch.watcher(store, poll)
        audience = views.audience(caller)
        read = await asyncio.to_thread(lambda: feed(store, campaign, audience).last)  # the log read: table news after
        # `ended` starts unknown, so its first pass checks the session: one ended between the route's sign-in check
        # and this start (told here before this stream counted) would otherwise never be seen by it
        seen, ended, checked = -1, -1, time.monotonic()
        said = checked                      # when it last sent anything (a keep-alive after `keepalive` of quiet)
        while True:
            now = time.monotonic()
            # its one wait: until a change, its keep-alive, its session's next check or its time being up
            generation = await watcher.wait(seen, max(0.0, min(said + keepalive, checked + TICK) - now)
                                            if not _expired(caller) else 0.0, campaign)
            messages: list[ServerSentEvent] = []
            if generation != seen:
                seen = generation
                reading = await _read_once(store, campaign, audience, (id(watcher), generation),
                                           watcher.newest.get(campaign))
                newest, read, messages = _batch(reading, last, read)
                last = max(last, newest)
            now = time.monotonic()
            if now - checked >= TICK or bell.sessions_ended(store) != ended or _expired(caller):
                ended, checked = bell.sessions_ended(store), now
                if not await _checked(store, caller, campaign, tick):
                    yield ServerSentEvent(event="signed-out", data="{}")
                    return
            if not messages and now - said >= keepalive:
                messages = [ServerSentEvent(comment="ping")]      # the keep-alive: no task or timer of its own
            for message in messages:
                yield message
            if messages:
                said = now
    finally:
        release()


# one check per session (and one tick per campaign) for all its streams, until the bell tells of a session ended
_verdicts: weakref.WeakKeyDictionary[Store, dict[tuple[str, str], tuple[float, int, asyncio.Future[bool]]]] = \
    weakref.WeakKeyDictionary()
_ticks: weakref.WeakKeyDictionary[Store, dict[str, float]] = weakref.WeakKeyDictionary()


async def _checked(store: Store, caller: Caller, campaign: str, tick: Callable[[], None]) -> bool:
    """The campaign's questions past their time limit answered (`tick`), and whether the caller's session is still
    allowed the stream: each read once (per TICK, per RECHECK) for every stream of the process, and a session again
    at once when one was ended (the bell's count). A session whose time is up is never allowed, without a read."""
    if _expired(caller):
        return False
    now, ended = time.monotonic(), bell.sessions_ended(store)
    ticks = _ticks.setdefault(store, {})
    if now - ticks.get(campaign, -TICK) >= TICK and _may_be_due(store, campaign):
        ticks[campaign] = now
        # a question past its time limit: its standing answer decides (refused: the next tick tries again)
        with contextlib.suppress(FurnaceError):
            await asyncio.to_thread(tick)
    verdicts = _verdicts.setdefault(store, {})
    key = (caller.token or "", campaign)
    known = verdicts.get(key)
    if known is None or known[1] != ended or now - known[0] >= RECHECK or (
            known[2].done() and (known[2].cancelled() or known[2].exception() is not None)):
        if len(verdicts) > 10_000:
            verdicts.clear()
        # the first of the session's streams to ask reads it; the others await her answer
        known = verdicts[key] = (now, ended, asyncio.ensure_future(
            asyncio.to_thread(_still_allowed, store, caller, campaign)))
    return await asyncio.shield(known[2])


def _may_be_due(store: Store, campaign: str) -> bool:
    """Whether a question of the campaign may have waited past its time limit: not when the state the log last
    read (`feed.Log`: read again after any change) has no limit or no open question — then nothing is read."""
    from furnace.campaign.questions import open_questions

    state = log_of(store, campaign).state
    return state is None or bool(state.question_seconds and open_questions(state))


def _expired(caller: Caller) -> bool:
    """The session's time is up (checked before anything more is sent; a revoked one is told by the bell)."""
    until = caller.session.expires_at if caller.session is not None else ""
    try:
        return bool(until) and datetime.fromisoformat(until) <= datetime.now(UTC)
    except ValueError:
        return True


def _still_allowed(store: Store, caller: Caller, campaign: str) -> bool:
    """The caller's session is still live, and (a player, an observer) still of this campaign."""
    session = access.session_for(store, caller.token) if caller.token else None
    if session is None:
        return False
    return session.role == "referee" or session.campaign == campaign


Mark = tuple[int, int]          # a watcher's identity and its generation: when a reading was read
Key = tuple[str, str, Mark]     # a campaign, an audience, a mark

_read: weakref.WeakKeyDictionary[Store, dict[tuple[str, str], tuple[Mark, Feed]]] = weakref.WeakKeyDictionary()
_reading: weakref.WeakKeyDictionary[Store, dict[Key, asyncio.Future[Feed]]] = weakref.WeakKeyDictionary()
# the first read of a campaign's log at a mark, whichever audience asked: the others wait for it, then are told
_first: weakref.WeakKeyDictionary[Store, dict[tuple[str, Mark], asyncio.Future[Feed]]] = weakref.WeakKeyDictionary()


async def _read_once(store: Store, campaign: str, audience: Audience, mark: Mark, newest: int | None = None) -> Feed:
    """The audience's reading at the watcher's generation: read from the database (in a thread) by the first of
    the campaign's streams to ask, and awaited, not read again, by the others (all of one loop: no lock is
    needed), which are then told in memory on the loop; not read at all when the generation's notification told of
    the event written here last (`newest`: `feed.feed`)."""
    done = _read.setdefault(store, {}).get((campaign, audience.key))
    if done is not None and done[0] == mark:
        return done[1]
    told = in_memory(store, campaign, audience, mark, newest)
    first = _first.setdefault(store, {}).get((campaign, mark))
    if told is None and first is not None:          # another audience's stream reads the log: told after it
        with contextlib.suppress(Exception):
            await asyncio.shield(first)
        told = in_memory(store, campaign, audience, mark, newest)
    if told is not None:
        _read[store][(campaign, audience.key)] = (mark, told)
        return told
    running = _reading.setdefault(store, {})
    key = (campaign, audience.key, mark)
    future = running.get(key)
    if future is None:
        future = running[key] = asyncio.ensure_future(asyncio.to_thread(
            lambda: feed(store, campaign, audience, mark=mark, newest=newest)))
        firsts = _first[store]
        firsts.setdefault((campaign, mark), future)

        def finished(task: asyncio.Future[Feed]) -> None:
            running.pop(key, None)
            if firsts.get((campaign, mark)) is task:
                firsts.pop((campaign, mark), None)
            if not task.cancelled() and task.exception() is None:
                _read.setdefault(store, {})[(campaign, audience.key)] = (mark, task.result())

        future.add_done_callback(finished)
    return await asyncio.shield(future)


def _batch(reading: Feed, last: int, read: int) -> tuple[int, int, list[ServerSentEvent]]:
    """The audience's items after her number `last`, as messages; the last number sent and the log read; a
    `table` message when the table changed after the log event `read` (a monster revealed), so the page reloads
    what it shows."""
    items = reading.since(last, BATCH)
    out = [ServerSentEvent(id=str(item["seq"]), event="log", data=json.dumps(item, ensure_ascii=False))
           for item in items]
    if any(seq > read for seq in reading.table_at[-8:]):
        out.append(ServerSentEvent(event="table", data="{}"))
    return (int(items[-1]["seq"]) if items else last), reading.last, out
