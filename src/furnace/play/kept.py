"""A bounded look-up cache of the engine: a value worked out once by its key, read as a dict's own subscript.

A fight asks the same few things thousands of times (the dice of a text, the ATK's dice of a bonus, the attack
action of a kind and target). `Kept` is a dict whose miss (`__missing__`) makes the value and keeps it; a hit is the
dict's own look-up, no Python call (in a compiled module too, where `cache.get(…)` would make a bound method at every
call). Full at `most` entries, it starts again empty: the few keys a fight uses come back at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Kept(dict[K, V], Generic[K, V]):
    __slots__ = ("make", "most")

    def __init__(self, make: Callable[[K], V], most: int) -> None:
        super().__init__()
        self.make = make
        self.most = most

    def __missing__(self, key: K) -> V:
        if len(self) >= self.most:
            self.clear()      # (clear at once: a cache others may read from other threads)
        value = self[key] = self.make(key)
        return value
