"""Middle Sea armor damage on a natural 20 (`furnace.houserules.middle_sea.armor`).

RULES.md M-ARM-01..05 (M-TAB-05), D-1, AMB-98, AMB-100, CF-40/41. Under the middle-sea profile metal saves on 10,
wood and leather on 12, a normal blow on 8, and neglect counts (item_neglect on).
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import character

RULES = load_ruleset("middle-sea")
SCORES = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
FOE: dict[str, Any] = dict(name="Foe", scores=SCORES)   # 10 HP, scores 10


def test_M_ARM_03_CF_40_boiled_leather_is_destroyed_by_one_failure() -> None:
    """M-ARM-03, CF-40: Furnace boiled leather has 1 point of protection (AC 11 − 10), so one failed save
    (leather on 12: 11 fails) destroys it."""
    hit = ms.armor_hit(character(FOE, armor="boiled-leather"), "melee", ScriptedDice([11]), RULES)
    assert (hit.piece, hit.result, hit.character.armor, hit.protection_left) == ("armor", "destroyed", None, 0)


def test_M_ARM_03_the_AD_and_D_leather_example_two_points_two_failures() -> None:
    """M-ARM-03: AD&D leather AC 8 → 'leather −1' AC 9 → destroyed on the second failure; a two-point Furnace
    armor (lamellar shirt, metal, saves on 10) does the same: 9 fails, 1 point left; 9 again, destroyed."""
    first = ms.armor_hit(character(FOE, armor="lamellar-shirt"), "melee", ScriptedDice([9]), RULES)
    assert (first.result, first.protection_left, first.character.armor_damage) == ("damaged", 1, 1)
    second = ms.armor_hit(first.character, "hurled", ScriptedDice([9]), RULES)
    assert (second.result, second.character.armor) == ("destroyed", None)
    held = ms.armor_hit(first.character, "melee", ScriptedDice([10]), RULES)
    assert held.result == "saved" and held.character == first.character


def test_D_1_M_ARM_01_the_shield_takes_the_blow_first() -> None:
    """D-1, M-ARM-01, CF-41: with a shield the shield takes the blow (no piece roll); thick wood fails on 11 and
    the shield is destroyed, the armor untouched. From the flank the d6 picks: 1 = helmet."""
    armored = character(FOE, armor="chain-mail", shield=True, helmet=True)
    dice = ScriptedDice([11])
    hit = ms.armor_hit(armored, "melee", dice, RULES)
    assert (hit.piece, hit.result, hit.piece_roll, dice.remaining) == ("shield", "destroyed", None, 0)
    assert (hit.character.shield, hit.character.armor, hit.character.armor_damage) == (False, "chain-mail", 0)
    flank = ms.armor_hit(armored, "melee", ScriptedDice([1, 9]), RULES, shield_applies=False)
    assert (flank.piece, flank.result, flank.character.helmet) == ("helmet", "destroyed", False)


def test_M_ARM_03_a_magic_shield_loses_a_plus_instead() -> None:
    """M-ARM-03: a +1 shield that fails (10 + 1 < 12) loses its plus and stays; failing again destroys it."""
    hit = ms.armor_hit(character(FOE, shield=True, shield_magic=1), "melee", ScriptedDice([10]), RULES)
    assert (hit.result, hit.character.shield, hit.character.shield_magic) == ("lost_plus", True, 0)
    again = ms.armor_hit(hit.character, "melee", ScriptedDice([10]), RULES)
    assert (again.result, again.character.shield) == ("destroyed", False)


def test_CF_41_one_point_shield_option() -> None:
    """CF-41 (option middle_sea_shield_save_failure = one_point): the shield loses 1 of its 2 points a failure."""
    rules = RULES.with_options({"middle_sea_shield_save_failure": "one_point"})
    hit = ms.armor_hit(character(FOE, shield=True), "melee", ScriptedDice([1]), rules)
    assert (hit.result, hit.protection_left, hit.character.shield) == ("damaged", 1, True)
    again = ms.armor_hit(hit.character, "melee", ScriptedDice([1]), rules)
    assert (again.result, again.character.shield) == ("destroyed", False)


def test_M_ARM_03_AMB_98_a_helmet_is_destroyed_by_one_failure() -> None:
    """M-ARM-03, AMB-98: no shield; the d6 shows 1 → the helmet, which one failed save (9 < 10) destroys; 2–6 →
    the body armor."""
    hit = ms.armor_hit(character(FOE, armor="plate-mail", helmet=True), "melee", ScriptedDice([1, 9]), RULES)
    assert (hit.piece, hit.result, hit.character.helmet, hit.character.armor) == ("helmet", "destroyed", False,
                                                                                  "plate-mail")
    body = ms.armor_hit(character(FOE, armor="plate-mail", helmet=True), "melee", ScriptedDice([2, 9]), RULES)
    assert (body.piece, body.result, body.protection_left) == ("armor", "damaged", 5)
    only = ms.armor_hit(character(FOE, helmet=True), "missile", ScriptedDice([7]), RULES)
    assert (only.piece, only.result) == ("helmet", "destroyed")


def test_M_ARM_02_missiles_strike_a_normal_blow() -> None:
    """M-ARM-02: missile weapons and firearms make the piece save vs normal blow (8 here): 7 fails, 8 holds."""
    assert ms.armor_hit(character(FOE, armor="chain-mail"), "missile", ScriptedDice([8]), RULES).result == "saved"
    hit = ms.armor_hit(character(FOE, armor="chain-mail"), "firearm", ScriptedDice([7]), RULES)
    assert hit.result == "damaged" and hit.save is not None and hit.save.form == "normal_blow"


def test_M_ARM_04_M_ARM_05_magic_armor_adds_neglect_subtracts() -> None:
    """M-ARM-04: +2 mail saves on 8 (8 + 2 = 10); M-ARM-05: two years' neglect makes 11 fail (11 − 2 < 10);
    AMB-100: in the tropics metal counts months, leather keeps years."""
    magic, mail = character(FOE, armor="chain-mail", armor_magic=2), character(FOE, armor="chain-mail")
    assert ms.armor_hit(magic, "melee", ScriptedDice([8]), RULES).result == "saved"
    assert ms.armor_hit(mail, "melee", ScriptedDice([11]), RULES, neglect=2).result == "damaged"
    assert ms.neglect_penalty(years=1, months=3, tropical=True, item="armor", material="metal") == 3
    assert ms.neglect_penalty(years=1, months=3, tropical=True, item="armor", material="leather") == 1


def test_M_ARM_01_no_armor_means_nothing_to_damage() -> None:
    """M-ARM-01, M-CRIT-01: no armor, shield or helmet: no save is rolled."""
    dice = ScriptedDice([])
    assert ms.armor_hit(character(FOE), "melee", dice, RULES).result == "no_armor"
    with pytest.raises(ms.MiddleSeaError, match="wears no shield"):
        ms.armor_hit(character(FOE), "melee", dice, RULES, piece="shield")
    with pytest.raises(ms.MiddleSeaError, match="attack is one of"):
        ms.armor_hit(character(FOE), "kick", dice, RULES)


def test_AMB_98_piece_primitives_for_the_encounter_engine() -> None:
    """AMB-98, D-1: `pick_piece` works on flags (a combatant's shield, armor, helmet); `piece_material` on keys."""
    assert ms.pick_piece(True, True, True, ScriptedDice([]), RULES) == ("shield", None)
    piece, roll = ms.pick_piece(False, True, True, ScriptedDice([6]), RULES)
    assert piece == "armor" and roll is not None and roll.total == 6
    assert ms.pick_piece(False, False, False, ScriptedDice([]), RULES) == (None, None)
    assert ms.piece_material("armor", "sleeved-gambeson", RULES) == "cloth"
    assert (ms.piece_material("shield", None, RULES), ms.piece_material("helmet", None, RULES)) == ("thick_wood",
                                                                                                    "metal")
