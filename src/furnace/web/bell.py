"""A bell the console rings when it has written to a campaign, so that live streams look at the log at once
instead of at the watcher's next look (a write from another process, the CLI, is found by `watch`); and a count of
the sessions ended (here, or on another worker), so that their streams end at once too."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

_rung: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
_ended: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
_listeners: weakref.WeakKeyDictionary[Any, list[Callable[[], None]]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def ring(store: Any) -> None:
    with _lock:
        _rung[store] = _rung.get(store, 0) + 1
        listeners = list(_listeners.get(store, ()))
    for heard in listeners:
        heard()


def rung(store: Any) -> int:
    """How many times the bell of `store` has rung (compare with the count last seen)."""
    return _rung.get(store, 0)


def session_ended(store: Any) -> None:
    """A session was ended (revoked, signed out): every stream checks its own before it waits again — this
    process's at once; on PostgreSQL every other worker's too, told on the store's channel by the transaction that
    ended it (`access.revoke`, `watch`)."""
    ended_here(store)


def ended_here(store: Any) -> None:
    """Count a session ended (here, or told by another worker) and ring: this process's streams check theirs."""
    with _lock:
        _ended[store] = _ended.get(store, 0) + 1
    ring(store)


def sessions_ended(store: Any) -> int:
    return _ended.get(store, 0)


def listen(store: Any, heard: Callable[[], None]) -> Callable[[], None]:
    """Call `heard` (from whichever thread rings) at each ring of `store`'s bell; returns the way to stop."""
    with _lock:
        _listeners.setdefault(store, []).append(heard)

    def stop() -> None:
        with _lock:
            found = _listeners.get(store, [])
            if heard in found:
                found.remove(heard)

    return stop
