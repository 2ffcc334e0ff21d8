"""Who stands on each side, in the order the simple tactic picks a foe: nearest zone, fewest HP, then id.

`nearest_enemy` asks for the first foe of the other sides at every turn; scanning every combatant each time made
a round's cost grow with the square of the fight's size. A `Standing` keeps each side's active combatants sorted
by (zone, HP, id), so the nearest foe is the smallest first entry of the other sides. An `Encounter` caches one;
a `Step` forks it and moves each changed combatant in it, copying a side's list only when it first changes it
(the frozen encounters it handed the index to keep theirs).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable

from furnace.play.combatant import ZONES, Combatant

Key = tuple[int, int, str]                    # (zone's place in ZONES, HP, id)
NEAR_ZONES = 1                                 # CLOSE and NEAR: the zones' places 0 and 1
_ZONE_PLACE = {zone: i for i, zone in enumerate(ZONES)}


def key(c: Combatant) -> Key:
    return (_ZONE_PLACE[c.zone], c.hp, c.id)


def _drop(keys: list[Key], gone: Key) -> None:
    """`gone` out of these sorted keys (where it is one of them)."""
    i = bisect_left(keys, gone)
    if i < len(keys) and keys[i] == gone:
        del keys[i]


class Standing:
    """Each side's active combatants, sorted by `key`."""

    __slots__ = ("_shared", "sides")

    def __init__(self, sides: dict[str, list[Key]], shared: Iterable[str] = ()) -> None:
        self.sides = sides
        self._shared = set(shared)          # sides whose list another Standing holds too: copied before a change

    @classmethod
    def of(cls, combatants: Iterable[Combatant]) -> Standing:
        sides: dict[str, list[Key]] = {}
        for c in combatants:
            keys = sides.setdefault(c.side, [])
            if c.status == "up" and (not c.held or c.active):     # (`active` asked only of one who holds something)
                keys.append(key(c))
        for keys in sides.values():
            keys.sort()
        return cls(sides)

    def fork(self) -> Standing:
        """A Standing that may change without changing this one (each list copied when first changed)."""
        return Standing(dict(self.sides), self.sides)

    def _side(self, side: str) -> list[Key]:
        keys = self.sides.get(side)
        if keys is None:
            keys = self.sides[side] = []
        elif side in self._shared:
            keys = self.sides[side] = list(keys)
            self._shared.discard(side)
        return keys

    def moved(self, old: Combatant, new: Combatant) -> None:
        """`old` became `new`: out of its side's order if it stood, in again if it stands (nothing to do when her
        key and side are the same)."""
        # (`key`, inlined, her fields read from her dict, and `active` asked only of one who holds something: at
        # every blow's change)
        o, n = old.__dict__, new.__dict__
        was = (_ZONE_PLACE[o["zone"]], o["hp"], o["id"]) if o["status"] == "up" and (not o["held"] or old.active) \
            else None
        now = (_ZONE_PLACE[n["zone"]], n["hp"], n["id"]) if n["status"] == "up" and (not n["held"] or new.active) \
            else None
        side = n["side"]
        if o["side"] != side:
            self._between(o["side"], side, was, now)
            return
        if was == now:
            return
        keys = self.sides.get(side)
        if keys is None or side in self._shared:     # (her side's list found once for both moves: most changes)
            keys = self._side(side)
        if was is not None:      # (`_drop`, inlined: at every blow's change)
            i = bisect_left(keys, was)
            if i < len(keys) and keys[i] == was:
                del keys[i]
        if now is not None:
            insort(keys, now)

    def _between(self, left: str, joined: str, was: Key | None, now: Key | None) -> None:
        """She changed sides: out of the one she left if she stood, into the one she joined if she stands."""
        if was is not None:
            _drop(self._side(left), was)
        if now is not None:
            insort(self._side(joined), now)

    def contested(self) -> bool:
        """More than one side has someone standing (asked after every turn: a loop, no iterator made when compiled)."""
        found = False
        for keys in self.sides.values():
            if keys:
                if found:
                    return True
                found = True
        return False

    def nearest(self, side: str, near: bool = False) -> str | None:
        """The id of the nearest active foe of `side` (only CLOSE or NEAR when `near`), or None."""
        best: Key | None = None
        for other, keys in self.sides.items():
            if other != side and keys and (best is None or keys[0] < best):
                best = keys[0]
        if best is None or (near and best[0] > NEAR_ZONES):
            return None
        return best[2]
