"""Reaction and morale (`furnace.play.reaction`): NPC reaction rolls, enemy morale and PC morale.

RULES.md F.13 (F-NPC-01 reaction, F-TAB-29), F.17 (F-OPT-04 enemy morale, F-OPT-05 PC morale), AMB-51, AMB-52.
"""

from __future__ import annotations

import pytest

from furnace.play.checks import CheckError, OptionOffError
from furnace.play.reaction import enemy_morale, pc_morale, reaction, reaction_roller
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import dice

RULES = load_ruleset()
OPTIONAL = RULES.with_options({"enemy_morale": True, "pc_morale": True})


# -- F-NPC-01 reaction (F-TAB-29, AMB-51) ----------------------------------------------------------------------
@pytest.mark.parametrize(("faces", "cha", "total", "attitude"), [
    ((1, 1), 0, 2, "hostile"),
    ((1, 1), -1, 1, "hostile"),
    ((1, 2), 0, 3, "unfriendly"),
    ((2, 3), 0, 5, "unfriendly"),
    ((3, 3), 0, 6, "neutral"),
    ((4, 4), 0, 8, "neutral"),
    ((4, 5), 0, 9, "indifferent"),
    ((5, 6), 0, 11, "indifferent"),
    ((5, 5), 2, 12, "helpful"),
    ((6, 6), 3, 15, "helpful"),
])
def test_F_NPC_01_reaction_2d6_plus_cha_bands(faces: tuple[int, int], cha: int, total: int,
                                              attitude: str) -> None:
    """F-NPC-01, F-TAB-29: 2d6 + CHA: ≤2 hostile, 3–5 unfriendly, 6–8 neutral, 9–11 indifferent, 12+ helpful."""
    result = reaction(dice(*faces), cha, RULES)
    assert (result.table_roll.roll.total, result.attitude) == (total, attitude)
    assert result.table_roll.table.id == "F-TAB-29"


def test_F_NPC_01_whose_cha_reacts() -> None:
    """F-NPC-01, AMB-51: the named spokesperson speaks; none named (or highest_cha) → the highest CHA."""
    party = {"Ann": 1, "Bo": 3, "Cy": -1}
    assert reaction_roller(party, "Cy", RULES) == ("Cy", -1)
    assert reaction_roller(party, None, RULES) == ("Bo", 3)
    assert reaction_roller(party, "Cy", RULES.with_options({"reaction_roller": "highest_cha"})) == ("Bo", 3)
    with pytest.raises(CheckError, match="Dan"):
        reaction_roller(party, "Dan", RULES)


# -- F-OPT-04 enemy morale (AMB-52) ----------------------------------------------------------------------------
def test_F_OPT_04_morale_is_half_the_room_dc_rounded_down() -> None:
    """F-OPT-04, AMB-52: ROOM DC 15 → morale 7; 2d6 = 8 is over it (surrender), 7 is not (hold)."""
    broke = enemy_morale(dice(4, 4), 15, OPTIONAL)
    assert (broke.morale, broke.roll.total, broke.breaks, broke.outcome) == (7, 8, True, "surrender")
    held = enemy_morale(dice(3, 4), 15, OPTIONAL)
    assert (held.morale, held.breaks, held.outcome) == (7, False, "hold")
    assert enemy_morale(dice(3, 4), 13, OPTIONAL).morale == 6


def test_F_OPT_04_morale_options() -> None:
    """F-OPT-04, AMB-52 alternatives: over_or_equal breaks on 7 vs 7; flee instead of surrender; a set morale."""
    rules = OPTIONAL.with_options({"morale_roll_over": "over_or_equal", "morale_failure_result": "flee"})
    result = enemy_morale(dice(3, 4), 15, rules)
    assert (result.breaks, result.outcome) == (True, "flee")
    assert enemy_morale(dice(6, 6), 15, OPTIONAL, morale=12).breaks is False
    with pytest.raises(OptionOffError, match="enemy_morale"):
        enemy_morale(dice(3, 4), 15, RULES)


# -- F-OPT-05 PC morale ----------------------------------------------------------------------------------------
def test_F_OPT_05_pc_morale_is_a_wis_save_vs_room_dc() -> None:
    """F-OPT-05: d20 10 + WIS 1 + PROF 2 = 13 vs ROOM DC 13 succeeds; without PROF 11 fails."""
    brave = pc_morale(dice(10), 1, 2, True, 13, OPTIONAL)
    assert (brave.kind, brave.total, brave.success) == ("SAVE", 13, True)
    assert [m.source for m in brave.modifiers] == ["WIS", "PROF"]
    shaken = pc_morale(dice(10), 1, 2, False, 13, OPTIONAL)
    assert (shaken.total, shaken.success) == (11, False)
    with pytest.raises(OptionOffError, match="pc_morale"):
        pc_morale(dice(10), 1, 2, True, 13, RULES)
