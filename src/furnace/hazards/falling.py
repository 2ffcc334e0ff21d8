"""Falling (H-FALL-01, H-TAB-05, AMB-74): 1d6 per full 10 feet, at most 20d6 (a 200' fall).

Option fall_rounding = up counts any part of 10 feet as a whole d6. Under 10 feet (rounded down) is no damage.
"""

from __future__ import annotations

from furnace import dice
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource, RollResult
from furnace.errors import FurnaceError
from furnace.events import Event, declare
from furnace.hazards.common import require, ruleset
from furnace.hazards.scores import take_damage
from furnace.rules.ruleset import Ruleset

MAX_DICE = 20
PER_FEET = 10
FALL = declare("fall", feet="public", dice="public", damage="public", example={"feet": 30, "dice": "3d6",
                                                                              "damage": 11})


def fall_dice(feet: int, rules: Ruleset | None = None) -> str | None:
    """The damage dice of a fall: min(floor(feet / 10), 20)d6, or None for no damage."""
    if feet < 0:
        raise FurnaceError(f"a fall is 0 feet or more, not {feet}")
    units = -(-feet // PER_FEET) if ruleset(rules)["fall_rounding"] == "up" else feet // PER_FEET
    count = min(units, MAX_DICE)
    return f"{count}d6" if count else None


def fall_damage(feet: int, rng: DiceSource, rules: Ruleset | None = None) -> RollResult | None:
    """Roll the damage of a fall (H-FALL-01)."""
    rules = ruleset(rules)
    require(rules, "hazards_falling", "H-FALL-01", "falling damage")
    expression = fall_dice(feet, rules)
    return None if expression is None else dice.roll(expression, rng, label="fall")


def fall(character: Character, feet: int, rng: DiceSource, rules: Ruleset | None = None,
         ) -> tuple[Character, list[Event]]:
    """A character falls: the damage is rolled and taken (H-DMG-01..03)."""
    rules = ruleset(rules)
    roll = fall_damage(feet, rng, rules)
    if roll is None:
        return character, [fact(FALL, character, (), ("H-FALL-01", "AMB-74"), feet=feet, dice="", damage=0)]
    event = fact(FALL, character, (roll,), ("H-FALL-01",), feet=feet, dice=roll.expression, damage=roll.total)
    after, events = take_damage(character, roll.total, rules, "the fall")
    return after, [event, *events]
