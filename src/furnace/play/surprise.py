"""Surprise: whether either side is caught unawares when an encounter begins.

Implements F-SURP-01 (the optional surprise roll, option surprise_roll) with review decision D-3 (1d6 per
side, surprised on surprise_chance or less, 2-in-6 by default; AMB-50, REF-13) and CF-51 / H-LIGHT-03 (a lit
light source gives its carriers away, option light_prevents_surprise). Here live `surprise`,
`SurpriseResult` and `SideSurprise`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.play.checks import CheckError, require_option, resolve_rules
from furnace.rules.ruleset import Ruleset


# -- surprise (F-SURP-01, D-3, CF-51) ----------------------------------------------------------------------
@dataclass(frozen=True)
class SideSurprise:
    side: str
    roll: RollResult | None  # None: the side could not be surprised, so nothing was rolled
    surprised: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "roll": self.roll.to_dict() if self.roll else None,
                "surprised": self.surprised, "reason": self.reason}


@dataclass(frozen=True)
class SurpriseResult:
    party: SideSurprise
    enemies: SideSurprise
    chance: int

    @property
    def free_turn(self) -> str | None:
        """The side that acts alone first: the one not surprised when the other is (F-SURP-01)."""
        if self.party.surprised == self.enemies.surprised:
            return None
        return self.enemies.side if self.party.surprised else self.party.side

    def explain(self) -> str:
        sides = "; ".join(f"{s.side}: {s.reason}" for s in (self.party, self.enemies))
        turn = f"{self.free_turn} get a free turn" if self.free_turn else "no free turn"
        return f"surprise ({self.chance}-in-6): {sides} → {turn}, then initiative"

    def to_dict(self) -> dict[str, Any]:
        return {"party": self.party.to_dict(), "enemies": self.enemies.to_dict(), "chance": self.chance,
                "free_turn": self.free_turn, "explanation": self.explain()}


def _side_surprise(rng: DiceSource, side: str, chance: int, other: str, other_lit: bool) -> SideSurprise:
    if other_lit:
        return SideSurprise(side, None, False, f"cannot be surprised: light gives {other} away "
                                               f"(light_prevents_surprise, H-LIGHT-03)")
    roll = dice.roll("1d6", rng, label=f"surprise: {side}")
    surprised = roll.total <= chance
    return SideSurprise(side, roll, surprised,
                        f"d6 {roll.total} {'≤' if surprised else '>'} {chance}: "
                        f"{'surprised' if surprised else 'not surprised'}")


def surprise(rng: DiceSource, rules: Ruleset | None = None, lit: bool = False, *,
             enemies_lit: bool = False) -> SurpriseResult:
    """Each side rolls 1d6, surprised on surprise_chance or less (D-3); the party rolls first.

    `lit`: the party carries a lit light source, so with light_prevents_surprise on it cannot surprise
    the enemies (CF-51) and their die is not rolled. The referee may always declare surprise instead.
    """
    rules = resolve_rules(rules)
    require_option(rules, "surprise_roll", "F-SURP-01", "the surprise roll (D-3)")
    chance = int(rules["surprise_chance"])
    if not 0 <= chance <= 6:
        raise CheckError(f"surprise_chance is a chance in 6, from 0 to 6, not {chance}")
    light = bool(rules["light_prevents_surprise"])
    party = _side_surprise(rng, "the party", chance, "the enemies", light and enemies_lit)
    enemies = _side_surprise(rng, "the enemies", chance, "the party", light and lit)
    return SurpriseResult(party, enemies, chance)
