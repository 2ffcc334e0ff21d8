"""Mapping (H-MAP-01/02, REF-38): the party maps only while one character has paper, ink and two free hands.

Hands are taken by what the mapper holds: a torch, candle, lantern or one-handed weapon one hand each, a
two-handed weapon both, a shield one (the character's `shield`). H-MAP-02 (what the referee describes) is
the referee's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from furnace.characters.character import Character
from furnace.events import Event, Part, declare
from furnace.hazards.common import require, ruleset
from furnace.rules.ruleset import Ruleset

HANDS = 2
MAPPING = declare("mapping", can_map="public", missing="public", hands="public", holding="public",
                  example={"can_map": False, "missing": ["ink"], "hands": 2, "holding": ["torch", "a shield"]})


@dataclass(frozen=True)
class MapCheck:
    mapper: str
    can_map: bool
    reasons: tuple[str, ...]
    missing: tuple[str, ...] = ()        # paper, ink
    hands: int = 0                       # hands busy (at most 2)
    holding: tuple[str, ...] = ()        # what keeps them busy
    player: str = ""

    def event(self) -> Event:
        """The fact of the check: can she map, and if not what she lacks and what fills her hands."""
        return Event(MAPPING, self.mapper, (), (), {"can_map": self.can_map, "missing": list(self.missing),
                                                    "hands": self.hands, "holding": list(self.holding)},
                     ("H-MAP-01",), {self.mapper: Part(self.mapper, "pc", self.player)})


def _hands(character: Character, held: Sequence[str]) -> int:
    two = {w.name.lower() for w in character.weapons if w.kind == "two-handed"}
    used = sum(2 if h.lower() in two or "two-handed" in h.lower() else 1 for h in held)
    return used + (1 if character.shield else 0)


def can_map(character: Character, held: Sequence[str] = (), rules: Ruleset | None = None) -> MapCheck:
    """H-MAP-01: paper and ink among the items, and both hands free."""
    require(ruleset(rules), "hazards_mapping", "H-MAP-01", "the mapping rule")
    items = " | ".join(character.items).lower()
    missing = [what for what in ("paper", "ink") if what not in items and
               not (what == "paper" and "parchment" in items)]
    reasons = [f"no {what}" for what in missing]
    used = min(_hands(character, held), HANDS)
    holding = [*held, *(["a shield"] if character.shield else [])] if used else []
    if used:
        reasons.append(f"{used} {'hand' if used == 1 else 'hands'} busy with {', '.join(holding)}")
    return MapCheck(character.name, not reasons, tuple(reasons), tuple(missing), used, tuple(holding),
                    character.player or "")
