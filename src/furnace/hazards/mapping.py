"""Mapping (H-MAP-01/02, REF-38): the party maps only while one character has paper, ink and two free hands.

Hands are taken by what the mapper holds: a torch, candle, lantern or one-handed weapon one hand each, a
two-handed weapon both, a shield one (the character's `shield`). H-MAP-02 (what the referee describes) is
the referee's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from furnace.characters.character import Character
from furnace.events import Event
from furnace.hazards.common import require, ruleset
from furnace.rules.ruleset import Ruleset

HANDS = 2


@dataclass(frozen=True)
class MapCheck:
    mapper: str
    can_map: bool
    reasons: tuple[str, ...]

    def event(self) -> Event:
        what = "can map" if self.can_map else "cannot map: " + "; ".join(self.reasons)
        return Event.said("mapping", self.mapper, f"{what} (H-MAP-01)", data={"can_map": self.can_map,
                                                                        "reasons": list(self.reasons)})


def _hands(character: Character, held: Sequence[str]) -> int:
    two = {w.name.lower() for w in character.weapons if w.kind == "two-handed"}
    used = sum(2 if h.lower() in two or "two-handed" in h.lower() else 1 for h in held)
    return used + (1 if character.shield else 0)


def can_map(character: Character, held: Sequence[str] = (), rules: Ruleset | None = None) -> MapCheck:
    """H-MAP-01: paper and ink among the items, and both hands free."""
    require(ruleset(rules), "hazards_mapping", "H-MAP-01", "the mapping rule")
    items = " | ".join(character.items).lower()
    reasons = [f"no {what}" for what in ("paper", "ink") if what not in items and
               not (what == "paper" and "parchment" in items)]
    used = _hands(character, held)
    if used:
        holding = [*held, *(["a shield"] if character.shield else [])]
        reasons.append(f"{min(used, HANDS)} hand(s) busy with {', '.join(holding)}")
    return MapCheck(character.name, not reasons, tuple(reasons))
