"""Ability scores: 3d6 in order (F-ABIL-01) and their modifiers (F-ABIL-02, F-TAB-02).

The modifier table prints 13 in two rows (CF-03, AMB-08); the rule option `ability_13_modifier` picks the
reading (1: the 13-15 row, +1; 0: the 9-13 row, 0), so every caller that has a ruleset passes it.
"""

from __future__ import annotations

from typing import NamedTuple

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.rules.effects import ABILITIES, Ability
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import TableSet

SCORE_ROLL = "3d6"


class AbilityRoll(NamedTuple):
    ability: Ability
    roll: RollResult

    @property
    def score(self) -> int:
        return self.roll.total


def roll_in_order(rng: DiceSource) -> list[AbilityRoll]:
    """3d6 for STR, DEX, CON, INT, WIS, CHA, in that order (F-ABIL-01)."""
    expr = dice.parse(SCORE_ROLL)
    return [AbilityRoll(a, expr.roll(rng, label=a)) for a in ABILITIES]


THIRTEEN = 13   # the score printed in two rows of F-TAB-02 (CF-03)


def modifier(score: int, rules: Ruleset | TableSet | None = None) -> int:
    """The modifier of a score from the ability-modifier table in force (F-TAB-02).

    Given a ruleset, its table and its `ability_13_modifier` (CF-03, AMB-08): 1 reads 13 in the 13-15 row
    (+1), 0 reads it in the printed 9-13 row (the modifier of 12). Given only a table set, or nothing, 13 is
    read as the option's default (+1)."""
    tables = rules.tables if isinstance(rules, Ruleset) else (rules or TableSet.packaged())
    table = tables.get("ability-modifiers")
    if score == THIRTEEN and isinstance(rules, Ruleset) and int(rules["ability_13_modifier"]) == 0:
        score -= 1
    return int(table.lookup(score).data["mod"])
