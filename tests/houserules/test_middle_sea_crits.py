"""The Middle Sea crit (`furnace.houserules.middle_sea.crits`).

RULES.md M-CRIT-01, M-ARM-01, D-1, CF-33: a natural 20 against the unarmored is maximum damage and nothing else;
against armor, normal damage and an armor save.
"""

from __future__ import annotations

from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset("middle-sea")


def test_M_CRIT_01_unarmored_take_maximum_damage_and_nothing_else() -> None:
    """M-CRIT-01: against no armor a natural 20 deals the weapon's maximum (1d8+2 → 10) and nothing else."""
    crit = ms.middle_sea_crit(False, "1d8+2", rules=RULES)
    assert (crit.maximum, crit.damage, crit.armor_damage) == (True, 10, False)


def test_M_ARM_01_armored_take_normal_damage_and_an_armor_save() -> None:
    """M-ARM-01, CF-33: against body armor normal damage (rolled when a dice source is given) and an armor save."""
    crit = ms.middle_sea_crit(True, "1d8+2", rules=RULES, rng=ScriptedDice([3]))
    assert (crit.maximum, crit.damage, crit.armor_damage) == (False, 5, True)
    assert ms.middle_sea_crit(True, "1d8", rules=RULES).damage is None


def test_D_1_a_shield_only_target_takes_maximum_damage_and_the_shield_save() -> None:
    """D-1: a shield but no armor: maximum damage AND the shield is damaged; option middle_sea_shield_only_target
    max_damage_only is the reading before D-1."""
    crit = ms.middle_sea_crit(False, "2d6", target_has_shield=True, rules=RULES)
    assert (crit.maximum, crit.damage, crit.armor_damage) == (True, 12, True)
    old = ms.middle_sea_crit(False, "2d6", target_has_shield=True,
                             rules=RULES.with_options({"middle_sea_shield_only_target": "max_damage_only"}))
    assert (old.maximum, old.armor_damage) == (True, False)
