"""Critical hits (RULES.md M.6): M-CRIT-01, a natural 20 against an unarmored target deals maximum damage and
nothing else; against body armor, normal damage and an armor save (M-ARM-01, `armor.armor_hit`); a shield or
helmet without body armor follows D-1 (option middle_sea_shield_only_target).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.houserules.middle_sea.common import _rules
from furnace.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Crit:
    maximum: bool          # maximum weapon damage, nothing else from the crit
    armor_damage: bool     # then `armor_hit` for the piece that takes the blow
    damage: int | None     # the maximum, or the normal damage rolled when a dice source was given
    reason: str
    roll: RollResult | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"maximum": self.maximum, "armor_damage": self.armor_damage, "damage": self.damage,
                "reason": self.reason, "roll": self.roll.to_dict() if self.roll else None}


def middle_sea_crit(target_has_armor: bool, damage_expression: str, *, target_has_shield: bool = False,
                    target_has_helmet: bool = False, rules: Ruleset | None = None, rng: DiceSource | None = None,
                    variables: Mapping[str, int | str] | None = None) -> Crit:
    """M-CRIT-01, M-ARM-01, D-1: without body armor maximum damage and no other crit effect; with body armor the
    normal damage and an armor save. A shield (or helmet) without body armor: maximum damage and the piece's
    save both (option middle_sea_shield_only_target = both), or maximum damage only."""
    rules = _rules(rules)
    expr = dice.parse(damage_expression)
    if target_has_armor:
        roll = expr.roll(rng, variables, "DAM") if rng is not None else None
        return Crit(False, True, roll.total if roll else None, "armored: normal damage and an armor-damage save "
                    "(M-ARM-01)", roll)
    top = expr.bounds(variables)[1]
    piece = target_has_shield or target_has_helmet
    if piece and rules["middle_sea_shield_only_target"] == "both":
        return Crit(True, True, top, "no body armor: maximum damage, and the shield or helmet takes the blow (D-1)")
    return Crit(True, False, top, "not wearing armor: maximum damage and nothing else (M-CRIT-01)")
