"""Middle Sea weapon damage on a natural 1 (`furnace.houserules.middle_sea.weapons`).

RULES.md M-WPN-01..08 (M-TAB-04), AMB-95, AMB-96, AMB-99, AMB-100. Under the middle-sea profile metal saves on
10, wood and rope on 12, and neglect counts (item_neglect on).
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import Weapon
from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset("middle-sea")


def sword(**kw: Any) -> Weapon:
    return Weapon(**{"name": "sword", "weapon_class": "sharp", **kw})


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
