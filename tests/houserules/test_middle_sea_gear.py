"""Middle Sea weapon and armor damage, item saves and crits (`furnace.houserules.middle_sea`).

RULES.md M-WPN-01..08 (M-TAB-04), M-ARM-01..05 (M-TAB-05), M-CRIT-01, D-1, AMB-05/95..101, CF-40/41, and the
item-save table X-TAB-06 (EXT-22). Under the middle-sea profile: metal saves on 10, wood and rope on 12,
a normal blow on 8, and neglect counts (item_neglect on).
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import Character, Weapon
from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.rules.ruleset import load_ruleset
from furnace.rules.tables import validate_table

RULES = load_ruleset("middle-sea")
SCORES = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}


def target(**kw: Any) -> Character:
    return Character(**{"name": "Foe", "scores": dict(SCORES), "hp_max": 10, "hp": 10, **kw})


def sword(**kw: Any) -> Weapon:
    return Weapon(**{"name": "sword", "weapon_class": "sharp", **kw})


# -- weapons ----------------------------------------------------------------------------------------------------
def test_M_WPN_02_a_failed_save_notches_the_blade_minus_1_each_cumulative() -> None:
    """M-WPN-02: metal saves vs crushing blow on 10; a 9 adds a notch; two notches are −2 to hit and damage."""
    once = ms.weapon_mishap(sword(), 10, ScriptedDice([9]), RULES)
    twice = ms.weapon_mishap(once.weapon, 10, ScriptedDice([9]), RULES)
    assert (once.outcome, once.weapon.notches, ms.weapon_penalty(once.weapon)) == ("notched", 1, -1)
    assert (twice.weapon.notches, ms.weapon_penalty(twice.weapon)) == (2, -2)
    held = ms.weapon_mishap(twice.weapon, 10, ScriptedDice([10]), RULES)
    assert held.outcome == "held" and held.weapon.notches == 2 and held.save is not None and held.save.saved


def test_M_WPN_07_magic_adds_to_saves_and_dex_rolls() -> None:
    """M-WPN-07: a +1 sword saves on a 9 (9 + 1 = 10); a +1 mace keeps hold on 4 + DEX 15 + 1 = 20."""
    assert ms.weapon_mishap(sword(magic_bonus=1), 10, ScriptedDice([9]), RULES).outcome == "held"
    mace = Weapon(name="mace", weapon_class="blunt", magic_bonus=1)
    assert ms.weapon_mishap(mace, 15, ScriptedDice([4]), RULES).outcome == "held"


def test_M_WPN_08_neglect_lowers_item_saves_not_dex_rolls() -> None:
    """M-WPN-08, AMB-100: a year's neglect is −1 to the item save (10 − 1 fails) but not to a DEX roll; with
    item_neglect off (the furnace profile) it is not counted."""
    assert ms.weapon_mishap(sword(), 10, ScriptedDice([10]), RULES, neglect=1).outcome == "notched"
    assert ms.weapon_mishap(sword(), 10, ScriptedDice([10]), load_ruleset("furnace"), neglect=1).outcome == "held"
    mace = Weapon(name="mace", weapon_class="blunt")
    assert ms.weapon_mishap(mace, 15, ScriptedDice([5]), RULES, neglect=3).outcome == "held"
    assert ms.neglect_penalty(years=2) == 2 and ms.neglect_penalty(years=2, months=5, tropical=True) == 5


def test_M_WPN_03_AMB_96_blunt_slips_below_20_with_the_dex_score_added() -> None:
    """M-WPN-03, AMB-96: d20 + DEX score 15: 5 → 20 holds; 4 → 19 slips 2d6 feet ([3, 4] = 7) to a d8 compass
    point (3 = E)."""
    mace = Weapon(name="mace", weapon_class="blunt")
    assert ms.weapon_mishap(mace, 15, ScriptedDice([5]), RULES).outcome == "held"
    dice = ScriptedDice([4, 3, 4, 3])
    slip = ms.weapon_mishap(mace, 15, dice, RULES)
    assert (slip.outcome, slip.slip_feet, slip.direction, dice.remaining) == ("slipped", 7, "E", 0)
    assert slip.roll is not None and slip.roll.total == 19 and slip.weapon == mace


def test_AMB_96_dex_roll_with_the_modifier_option() -> None:
    """AMB-96 (option middle_sea_dex_roll = modifier): d20 + the DEX modifier, so 19 + 1 holds and 18 + 1 slips."""
    rules = RULES.with_options({"middle_sea_dex_roll": "modifier"})
    mace = Weapon(name="mace", weapon_class="blunt")
    assert ms.weapon_mishap(mace, 15, ScriptedDice([19]), rules).outcome == "held"
    assert ms.weapon_mishap(mace, 15, ScriptedDice([18, 1, 1, 1]), rules).outcome == "slipped"


def test_M_WPN_04_a_strung_weapon_snaps_its_string() -> None:
    """M-WPN-04: the string (thin rope) saves on 12; 11 snaps it and ruins the bow."""
    bow = Weapon(name="bow", kind="ranged", weapon_class="strung")
    snapped = ms.weapon_mishap(bow, 10, ScriptedDice([11]), RULES)
    assert (snapped.outcome, snapped.weapon.broken) == ("snapped", True)
    assert ms.weapon_mishap(bow, 10, ScriptedDice([12]), RULES).outcome == "held"
    with pytest.raises(ms.MiddleSeaError, match="already broken"):
        ms.weapon_mishap(snapped.weapon, 10, ScriptedDice([1]), RULES)


def test_M_WPN_04_a_wet_string_is_also_harmed_on_a_natural_2() -> None:
    """M-WPN-01, M-WPN-04: a natural 2 harms only a wet string; a dry one, or any other weapon, rolls nothing."""
    bow = Weapon(name="bow", kind="ranged", weapon_class="strung")
    assert ms.weapon_mishap(bow, 10, ScriptedDice([3]), RULES, wet=True, natural=2).outcome == "snapped"
    dice = ScriptedDice([])
    assert ms.weapon_mishap(bow, 10, dice, RULES, natural=2).outcome == "none"
    assert ms.weapon_mishap(sword(), 10, dice, RULES, wet=True, natural=2).outcome == "none"
    assert ms.weapon_mishap(bow, 10, dice, RULES, wet=True, natural=3).outcome == "none"


def test_M_WPN_05_a_pole_weapon_cracks_then_snaps() -> None:
    """M-WPN-05: thick wood saves on 12: 11 cracks the haft; then every round used it saves: 12 holds, 11 snaps it;
    the pieces are a club −1 and a hand axe −1 (AMB-95)."""
    spear = Weapon(name="spear", weapon_class="pole")
    cracked = ms.weapon_mishap(spear, 10, ScriptedDice([11]), RULES)
    assert (cracked.outcome, cracked.weapon.cracked, cracked.weapon.broken) == ("cracked", True, False)
    assert ms.pole_round(cracked.weapon, ScriptedDice([12]), RULES).outcome == "held"
    snapped = ms.pole_round(cracked.weapon, ScriptedDice([11]), RULES)
    assert (snapped.outcome, snapped.weapon.broken) == ("snapped", True)
    assert ms.weapon_mishap(cracked.weapon, 10, ScriptedDice([5]), RULES).outcome == "snapped"
    club, axe = ms.snapped_pieces(snapped.weapon, RULES)
    assert (club.weapon_class, axe.weapon_class) == ("blunt", "sharp")
    assert ms.weapon_penalty(club) == ms.weapon_penalty(axe) == -1
    with pytest.raises(ms.MiddleSeaError, match="not a cracked"):
        ms.pole_round(spear, ScriptedDice([12]), RULES)


def test_M_WPN_06_AMB_99_hurled_or_unarmed_goes_off_balance() -> None:
    """M-WPN-06, AMB-99: d20 + DEX score 10: 9 → 19 is off-balance (no DEX or shield AC), acting last next turn;
    under option off_balance_segments = segments it loses 1d4 segments instead; 10 → 20 keeps balance."""
    axe = Weapon(name="throwing axe", weapon_class="hurled")
    off = ms.weapon_mishap(axe, 10, ScriptedDice([9]), RULES)
    assert (off.outcome, off.conditions) == ("off_balance", ("OFF_BALANCE", "LAST_TO_ACT"))
    segs = ms.weapon_mishap(axe, 10, ScriptedDice([9, 3]), RULES.with_options({"off_balance_segments": "segments"}))
    assert (segs.conditions, segs.segments_lost) == (("OFF_BALANCE",), 3)
    fist = Weapon(name="fist", kind="fist", damage="1", weapon_class="unarmed")
    assert ms.weapon_mishap(fist, 10, ScriptedDice([10]), RULES).outcome == "held"
    thrown = ms.weapon_mishap(Weapon(name="dagger", weapon_class="sharp"), 10, ScriptedDice([9]), RULES, thrown=True)
    assert thrown.weapon_class == "hurled" and thrown.outcome == "off_balance"


def test_AMB_95_a_weapon_needs_a_class() -> None:
    """AMB-95: a weapon without a weapon_class cannot be judged; the error says which classes exist."""
    with pytest.raises(ms.MiddleSeaError, match="weapon_class"):
        ms.weapon_mishap(Weapon(name="thing"), 10, ScriptedDice([1]), RULES)


# -- armor --------------------------------------------------------------------------------------------------------
def test_M_ARM_03_CF_40_boiled_leather_is_destroyed_by_one_failure() -> None:
    """M-ARM-03, CF-40: Furnace boiled leather has 1 point of protection (AC 11 − 10), so one failed save
    (leather on 12: 11 fails) destroys it."""
    hit = ms.armor_hit(target(armor="boiled-leather"), "melee", ScriptedDice([11]), RULES)
    assert (hit.piece, hit.result, hit.character.armor, hit.protection_left) == ("armor", "destroyed", None, 0)


def test_M_ARM_03_the_AD_and_D_leather_example_two_points_two_failures() -> None:
    """M-ARM-03: AD&D leather AC 8 → 'leather −1' AC 9 → destroyed on the second failure; a two-point Furnace
    armor (lamellar shirt, metal, saves on 10) does the same: 9 fails, 1 point left; 9 again, destroyed."""
    first = ms.armor_hit(target(armor="lamellar-shirt"), "melee", ScriptedDice([9]), RULES)
    assert (first.result, first.protection_left, first.character.armor_damage) == ("damaged", 1, 1)
    second = ms.armor_hit(first.character, "hurled", ScriptedDice([9]), RULES)
    assert (second.result, second.character.armor) == ("destroyed", None)
    held = ms.armor_hit(first.character, "melee", ScriptedDice([10]), RULES)
    assert held.result == "saved" and held.character == first.character


def test_D_1_M_ARM_01_the_shield_takes_the_blow_first() -> None:
    """D-1, M-ARM-01, CF-41: with a shield the shield takes the blow (no piece roll); thick wood fails on 11 and
    the shield is destroyed, the armor untouched. From the flank the d6 picks: 1 = helmet."""
    armored = target(armor="chain-mail", shield=True, helmet=True)
    dice = ScriptedDice([11])
    hit = ms.armor_hit(armored, "melee", dice, RULES)
    assert (hit.piece, hit.result, hit.piece_roll, dice.remaining) == ("shield", "destroyed", None, 0)
    assert (hit.character.shield, hit.character.armor, hit.character.armor_damage) == (False, "chain-mail", 0)
    flank = ms.armor_hit(armored, "melee", ScriptedDice([1, 9]), RULES, shield_applies=False)
    assert (flank.piece, flank.result, flank.character.helmet) == ("helmet", "destroyed", False)


def test_M_ARM_03_a_magic_shield_loses_a_plus_instead() -> None:
    """M-ARM-03: a +1 shield that fails (10 + 1 < 12) loses its plus and stays; failing again destroys it."""
    hit = ms.armor_hit(target(shield=True, shield_magic=1), "melee", ScriptedDice([10]), RULES)
    assert (hit.result, hit.character.shield, hit.character.shield_magic) == ("lost_plus", True, 0)
    again = ms.armor_hit(hit.character, "melee", ScriptedDice([10]), RULES)
    assert (again.result, again.character.shield) == ("destroyed", False)


def test_CF_41_one_point_shield_option() -> None:
    """CF-41 (option middle_sea_shield_save_failure = one_point): the shield loses 1 of its 2 points a failure."""
    rules = RULES.with_options({"middle_sea_shield_save_failure": "one_point"})
    hit = ms.armor_hit(target(shield=True), "melee", ScriptedDice([1]), rules)
    assert (hit.result, hit.protection_left, hit.character.shield) == ("damaged", 1, True)
    again = ms.armor_hit(hit.character, "melee", ScriptedDice([1]), rules)
    assert (again.result, again.character.shield) == ("destroyed", False)


def test_M_ARM_03_AMB_98_a_helmet_is_destroyed_by_one_failure() -> None:
    """M-ARM-03, AMB-98: no shield; the d6 shows 1 → the helmet, which one failed save (9 < 10) destroys; 2–6 →
    the body armor."""
    hit = ms.armor_hit(target(armor="plate-mail", helmet=True), "melee", ScriptedDice([1, 9]), RULES)
    assert (hit.piece, hit.result, hit.character.helmet, hit.character.armor) == ("helmet", "destroyed", False,
                                                                                  "plate-mail")
    body = ms.armor_hit(target(armor="plate-mail", helmet=True), "melee", ScriptedDice([2, 9]), RULES)
    assert (body.piece, body.result, body.protection_left) == ("armor", "damaged", 5)
    only = ms.armor_hit(target(helmet=True), "missile", ScriptedDice([7]), RULES)
    assert (only.piece, only.result) == ("helmet", "destroyed")


def test_M_ARM_02_missiles_strike_a_normal_blow() -> None:
    """M-ARM-02: missile weapons and firearms make the piece save vs normal blow (8 here): 7 fails, 8 holds."""
    assert ms.armor_hit(target(armor="chain-mail"), "missile", ScriptedDice([8]), RULES).result == "saved"
    hit = ms.armor_hit(target(armor="chain-mail"), "firearm", ScriptedDice([7]), RULES)
    assert hit.result == "damaged" and hit.save is not None and hit.save.form == "normal_blow"


def test_M_ARM_04_M_ARM_05_magic_armor_adds_neglect_subtracts() -> None:
    """M-ARM-04: +2 mail saves on 8 (8 + 2 = 10); M-ARM-05: two years' neglect makes 11 fail (11 − 2 < 10);
    AMB-100: in the tropics metal counts months, leather keeps years."""
    assert ms.armor_hit(target(armor="chain-mail", armor_magic=2), "melee", ScriptedDice([8]), RULES).result == "saved"
    assert ms.armor_hit(target(armor="chain-mail"), "melee", ScriptedDice([11]), RULES, neglect=2).result == "damaged"
    assert ms.neglect_penalty(years=1, months=3, tropical=True, item="armor", material="metal") == 3
    assert ms.neglect_penalty(years=1, months=3, tropical=True, item="armor", material="leather") == 1


def test_M_ARM_01_no_armor_means_nothing_to_damage() -> None:
    """M-ARM-01, M-CRIT-01: no armor, shield or helmet: no save is rolled."""
    dice = ScriptedDice([])
    assert ms.armor_hit(target(), "melee", dice, RULES).result == "no_armor"
    with pytest.raises(ms.MiddleSeaError, match="wears no shield"):
        ms.armor_hit(target(), "melee", dice, RULES, piece="shield")
    with pytest.raises(ms.MiddleSeaError, match="attack is one of"):
        ms.armor_hit(target(), "kick", dice, RULES)


# -- item saves (X-TAB-06) -------------------------------------------------------------------------------------------
def test_AMB_97_EXT_22_item_save_targets_are_data() -> None:
    """AMB-05, AMB-97, EXT-22: X-TAB-06 holds the fallback (metal 10 and wood or rope 12 through the item_save_dc
    options, normal blow 8); an option override changes a target; a referee's X-TAB-06 is read as written."""
    assert ms.item_save_target("metal", "crushing_blow", RULES) == (10, "option item_save_dc_metal")
    assert ms.item_save_target("thin rope", "crushing_blow", RULES)[0] == 12
    assert ms.item_save_target("leather", "normal_blow", RULES) == (8, "X-TAB-06 */normal_blow")
    assert ms.item_save_target("metal", "crushing_blow", RULES.with_options({"item_save_dc_metal": 11}))[0] == 11
    matrix = validate_table({"id": "X-TAB-06", "name": "item-saves", "title": "AD&D matrix", "source": "DMG",
                             "kind": "keyed", "rows": [{"key": "metal/crushing_blow", "text": "metal",
                                                        "data": {"target": 7, "dc_option": "item_save_dc_metal"}}]},
                            "<referee>")
    house = type(RULES)(RULES.profile, RULES.values, RULES.tables.with_table(matrix, "referee.yaml"))
    assert ms.item_save_target("metal", "crushing_blow", house) == (7, "X-TAB-06 metal/crushing_blow")
    with pytest.raises(ms.MiddleSeaError, match="no item-save row"):
        ms.item_save_target("glass", "crushing_blow", house)


def test_AMB_97_item_save_model_table_needs_the_referees_matrix() -> None:
    """AMB-97 (option item_save_model = table): without the table named by item_save_table the save is refused."""
    with pytest.raises(ms.MiddleSeaError, match="house:item-saves"):
        ms.item_save("metal", "crushing_blow", ScriptedDice([10]), RULES.with_options({"item_save_model": "table"}))


# -- crits ------------------------------------------------------------------------------------------------------------
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


def test_AMB_98_piece_primitives_for_the_encounter_engine() -> None:
    """AMB-98, D-1: `pick_piece` works on flags (a combatant's shield, armor, helmet); `piece_material` on keys."""
    assert ms.pick_piece(True, True, True, ScriptedDice([]), RULES) == ("shield", None)
    piece, roll = ms.pick_piece(False, True, True, ScriptedDice([6]), RULES)
    assert piece == "armor" and roll is not None and roll.total == 6
    assert ms.pick_piece(False, False, False, ScriptedDice([]), RULES) == (None, None)
    assert ms.piece_material("armor", "sleeved-gambeson", RULES) == "cloth"
    assert (ms.piece_material("shield", None, RULES), ms.piece_material("helmet", None, RULES)) == ("thick_wood",
                                                                                                    "metal")
