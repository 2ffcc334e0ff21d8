"""A bell the console rings when it has written to a campaign, so that live streams look at the log at once
instead of at their next poll (a write from another process, the CLI, is still found by the poll)."""

from __future__ import annotations

import threading
import weakref
from typing import Any

_rung: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def ring(store: Any) -> None:
    with _lock:
        _rung[store] = _rung.get(store, 0) + 1


def rung(store: Any) -> int:
    """How many times the bell of `store` has rung (compare with the count last seen)."""
    return _rung.get(store, 0)
