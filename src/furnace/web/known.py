"""The sessions a worker knows: on PostgreSQL a session read once is kept in this process's memory, so a request
costs no round trip to find its caller — and an ended session still opens nothing on any worker.

Why this holds: every end of a session (`access.revoke`: sign-out, the referee's revoke, the CLI's `signout`)
notifies the live feed's channel in its own transaction (`notify_sessions_ended`), and each worker's listener
(`watch.Listener`) rings this process's bell (`bell.ended_here`). A session kept here is used only while
- the listener that was connected before it was read is still connected (no reconnection since: a notification
  sent while it was away would be missed), and
- no session was ended since it was read (the bell's count: any end, here or told by the listener, forgets them
  all — ends are rare, and the next request of each session reads it again), and
- it is younger than KEEP seconds (what no notification can tell: a referee's scope changed by a campaign
  deleted), and its own time is not up.
A session is read only after its listener is connected, and the counts are taken before the read: an end that
commits after the read is heard by a listener already listening. The worker that ends a session then asks every
worker to answer once it forgot its sessions, and answers only when all `WebSettings.workers` did (`everywhere`):
the next request, on whichever worker, reads the session again and finds it gone. Unknown tokens are never kept
(a stranger cannot fill the memory).

On SQLite (one process; the CLI may revoke beside it, with no notification) every request reads the session.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
import weakref
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import text

from furnace.campaign import access
from furnace.campaign.notify import CHANNEL, SESSIONS_ENDED
from furnace.campaign.store import Store
from furnace.web import bell, watch

KEEP = 30.0          # seconds a session is kept at most without reading it again
MOST = 10_000        # sessions kept at most (past it, all are forgotten: they are read again)
ECHO = 2.0           # seconds the worker ending a session waits at most for every worker to forget theirs


@dataclass(frozen=True)
class _Kept:
    session: access.Session
    until: float             # monotonic: KEEP after the read, or the session's own end if sooner
    link: int                # the listener's connection it was read under
    ended: int               # the bell's count of sessions ended when it was read


_kept: weakref.WeakKeyDictionary[Store, dict[str, _Kept]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


async def session_of(store: Store, token: str, poll: float, shared: bool) -> access.Session | None:
    """The live session of `token` (None: unknown, expired or ended): from memory when it still holds (see the
    module), else read from the database in a thread. `shared`: the store is PostgreSQL's."""
    listener = watch.listener(store, poll) if shared else None
    if listener is None:
        return await asyncio.to_thread(access.session_for, store, token)
    now = time.monotonic()
    with _lock:
        book = _kept.setdefault(store, {})
        kept = book.get(token)
    if kept is not None and kept.until > now and listener.connected.is_set() and \
            kept.link == listener.connections and kept.ended == bell.sessions_ended(store):
        return kept.session
    link, ended = (listener.connections if listener.connected.is_set() else -1), bell.sessions_ended(store)
    session = await asyncio.to_thread(access.session_for, store, token)
    with _lock:
        if session is None or link < 0:
            book.pop(token, None)
            return session
        if len(book) >= MOST:
            book.clear()
        book[token] = _Kept(session, now + min(KEEP, _left(session)), link, ended)
    return session


def _left(session: access.Session) -> float:
    """Seconds until the session's own end."""
    try:
        return (datetime.fromisoformat(session.expires_at) - datetime.now(UTC)).total_seconds()
    except ValueError:
        return 0.0


def everywhere(store: Store, workers: int, seconds: float = ECHO) -> bool:
    """After a session's end committed (in a worker's thread, never on the event loop): tell every worker to
    forget its kept sessions — a sessions-ended notification carrying an ack — and wait until `workers` listeners
    answered it (each answers once it forgot them: `watch.Listener`), at most `seconds`. False: no listener here,
    or not all answered in time (a worker that never served a request keeps no session, and never answers)."""
    mine = [one for one in watch.listeners(store) if one.connected.is_set()]
    if not mine:
        return False
    ack = secrets.token_hex(8)
    with store.engine.begin() as conn:
        conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                     {"channel": CHANNEL, "payload": json.dumps({"sessions": SESSIONS_ENDED, "ack": ack})})
    deadline, one = time.monotonic() + seconds, mine[0]
    with one.told:
        while len(one.acks.get(ack, ())) < workers:
            if not one.told.wait(max(0.0, deadline - time.monotonic())):
                return False
    return True
