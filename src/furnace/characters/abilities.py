"""Ability scores: 3d6 in order (F-ABIL-01) and their modifiers (F-ABIL-02, F-TAB-02)."""

from __future__ import annotations

from typing import NamedTuple

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.rules.effects import ABILITIES, Ability
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
    return [AbilityRoll(a, expr.roll(rng, label=f"{a} score, 3d6 in order")) for a in ABILITIES]


def modifier(score: int, tables: TableSet | None = None) -> int:
    """The modifier of a score from the ability-modifier table (13 → +1, AMB-08)."""
    row = (tables or TableSet.packaged()).get("ability-modifiers").lookup(score)
    return int(row.data["mod"])
