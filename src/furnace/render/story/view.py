"""Who is reading, and what she may know: the referee, the table display or one player.

A `View` answers the tellers' questions about one fact for one viewer: by what name she knows a participant
(a PC by name; a monster by its name or mask once the referee reveals it, never otherwise), whether she may
know a value of the fact (by the knowledge its kind declares, `furnace.events.FACTS`), whether she sees a roll,
and how a monster's health reads to her. The referee knows everything. `Sight` is what the table has been
shown of the monsters when the fact happened (revealed ids, masks, each one's health setting); the CLI's
referee needs none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from furnace.events import FACTS, Event, Knowledge

Role = Literal["referee", "table", "player"]
UNSEEN = "something unseen"
MONSTERS = frozenset({"monster", "npc"})


@dataclass(frozen=True)
class Sight:
    """What the players have been shown of the monsters: revealed ids and their masks, each one's health
    setting (hidden, word, exact; `health` the default), and each one's handle (m1, m2 … in the order shown)."""

    revealed: frozenset[str] = frozenset()
    masks: Mapping[str, str] = field(default_factory=dict)
    health: str = "word"
    monster_health: Mapping[str, str] = field(default_factory=dict)
    handles: Mapping[str, str] = field(default_factory=dict)

    def health_of(self, cid: str) -> str:
        return self.monster_health.get(cid, self.health)


EVERYTHING = Sight()


@dataclass(frozen=True)
class View:
    role: Role = "referee"
    player: str = ""
    sight: Sight = EVERYTHING
    explain: bool = False          # rule ids beside each telling (the CLI's --explain)

    @property
    def referee(self) -> bool:
        return self.role == "referee"

    # -- participants -------------------------------------------------------------------------------------------
    def monster(self, e: Event, cid: str) -> bool:
        part = e.cast.get(cid)
        return part is not None and part.kind in MONSTERS

    def sees(self, e: Event, cid: str) -> bool:
        """She may know this participant is there (a PC always; a monster once revealed)."""
        return self.referee or not self.monster(e, cid) or cid in self.sight.revealed

    def name(self, e: Event, cid: str) -> str:
        """The participant as she knows it: its name, its mask, or "something unseen"."""
        if not cid:
            return ""
        if self.referee or not self.monster(e, cid):
            return e.name(cid)
        if cid not in self.sight.revealed:
            return UNSEEN
        return self.sight.masks.get(cid) or e.name(cid)

    def plain(self, e: Event, cid: str) -> bool:
        """She knows the participant by its own name (the referee; a PC; a monster revealed without a mask):
        only then may its gear and kind be told."""
        return self.referee or not self.monster(e, cid) or (cid in self.sight.revealed and cid not in self.sight.masks)

    def own_side(self, e: Event, cid: str) -> bool:
        part = e.cast.get(cid)
        return part is not None and part.kind == "pc"

    # -- values ---------------------------------------------------------------------------------------------------
    def knows(self, e: Event, key: str) -> bool:
        """She may know the fact's value `key`, by the knowledge its kind declares."""
        if self.referee:
            return True
        kind = FACTS.get(e.kind)
        know: Knowledge = kind.knowledge(key) if kind is not None else "referee"
        return self._knows(e, know)

    def _knows(self, e: Event, know: Knowledge) -> bool:
        if know == "public":
            return True
        if know == "actor":
            return not self.monster(e, e.actor) and e.actor != ""
        if know == "target":
            return bool(e.targets) and not self.monster(e, e.targets[0])
        if know == "player":
            part = e.cast.get(e.actor)
            return self.role == "player" and part is not None and _same(part.player, self.player)
        return False

    def value(self, e: Event, key: str) -> object | None:
        """The value `key` when she may know it, else None."""
        return e.data.get(key) if self.knows(e, key) else None

    def rolls(self, e: Event) -> bool:
        """She may see the fact's dice (the roller's: the actor's unless the kind says otherwise)."""
        if self.referee:
            return True
        kind = FACTS.get(e.kind)   # a fact's dice are its actor's unless its kind says whose they are
        return self._knows(e, kind.values.get("rolls", "actor") if kind is not None else "actor")

    def may_see(self, e: Event) -> bool:
        """She may know the fact at all: its audience, and (a monster's doing) that it touches her side."""
        if self.referee:
            return True
        if e.audience == "referee":
            return False
        if e.audience == "player":
            part = e.cast.get(e.actor)
            return self.role == "player" and part is not None and _same(part.player, self.player)
        if e.actor and not self.sees(e, e.actor):
            return any(self.own_side(e, t) for t in e.targets)
        return True

    def health(self, e: Event, cid: str, hp: int, hp_max: int, status: str = "up") -> str | None:
        """A monster's health as she may read it: exact (`HP 6/20`), a word, or None."""
        if self.referee or not self.monster(e, cid):
            return f"HP {hp}/{hp_max}"
        if cid not in self.sight.revealed:
            return None
        setting = self.sight.health_of(cid)
        if setting == "exact":
            return f"HP {hp}/{hp_max}"
        return health_word(hp, hp_max, status) if setting == "word" else None


def _same(a: str, b: str) -> bool:
    return bool(a) and a.strip().lower() == b.strip().lower()


def health_word(hp: int, hp_max: int, status: str = "up") -> str:
    """unhurt, bloodied (below the maximum), near death (a quarter or less), or its state when out."""
    if status in ("dead", "fled", "out"):
        return status
    if hp <= 0:
        return "down"
    if hp >= hp_max:
        return "unhurt"
    return "near death" if hp * 4 <= hp_max else "bloodied"


REFEREE = View()
