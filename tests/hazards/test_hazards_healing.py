"""Hazards natural healing (`furnace.hazards.healing`): the `hazards` healing model of furnace.play.rest.

RULES.md H-HEAL-01 (1 HP a peaceful night at half or more), H-HEAL-02 (+1d3 a full day of rest, with food and
water), H-HEAL-03 (1 below half, AMB-77), H-HEAL-04 (wake after 1d6 hours), H-HEAL-05 (+1 bed), H-HEAL-06 (1 point
of temporary ability loss a week), H-HEAL-07 (nothing in a hostile place), H-HEAL-08 (never above the maximum),
AMB-77 (half = ceil(max / 2)), CF-32 (the model is an option), D-7 (a rest ends "until rest").
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import CharacterError
from furnace.dice import ScriptedDice
from furnace.hazards import half_hp, knock_out, lose, natural_rest, record_needs, rest_in_campaign
from furnace.hazards.common import state, with_state
from furnace.play.clock import HOUR, MINUTE, Campaign, advance
from furnace.play.rest import HEALING_MODELS, rest
from furnace.render.story import tell_referee
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import character

HAZARDS = load_ruleset("hazards")
SCORES = {"STR": 10, "DEX": 10, "CON": 10, "INT": 12, "WIS": 10, "CHA": 10}
CY: dict[str, Any] = dict(name="Cy", scores=SCORES)   # INT 12, 10 HP at most


def test_AMB_77_half_is_rounded_up() -> None:
    """AMB-77, option half_hp_rounding: half of 11 is 6 (ceil); 5 with floor."""
    assert half_hp(character(CY, hp=1, hp_max=11), HAZARDS) == 6
    assert half_hp(character(CY, hp=1, hp_max=11), load_ruleset("hazards", {"half_hp_rounding": "floor"})) == 5


def test_H_HEAL_01_a_peaceful_night_at_half_or_more_heals_1() -> None:
    """H-HEAL-01: HP 5 of 10 (exactly half) → 6 after a night; no die is rolled."""
    after, events = natural_rest(character(CY, hp=5), "night", ScriptedDice([]), HAZARDS)
    assert after.hp == 6 and events[-1].kind == "rest_heal" and events[-1].data["gained"] == 1


def test_AMB_77_a_night_below_half_or_troubled_heals_nothing() -> None:
    """AMB-77: below half a night alone heals nothing; H-HEAL-01: nor does a night that was not peaceful."""
    assert natural_rest(character(CY, hp=4), "night", ScriptedDice([]), HAZARDS)[0].hp == 4
    assert natural_rest(character(CY, hp=8), "night", ScriptedDice([]), HAZARDS, peaceful=False)[0].hp == 8


def test_H_HEAL_02_a_full_day_at_half_or_more_heals_1d3() -> None:
    """H-HEAL-02: a full day of rest at half or more rolls 1d3: face 3 → HP 5 → 8, the roll in the event."""
    dice = ScriptedDice([3])
    after, events = natural_rest(character(CY, hp=5), "full_day", dice, HAZARDS)
    assert after.hp == 8 and dice.remaining == 0 and events[-1].rolls[0].expression == "1d3"


def test_H_HEAL_03_AMB_77_a_full_day_below_half_heals_1() -> None:
    """H-HEAL-03, AMB-77: below half a full day of rest heals 1 (no roll); option none: nothing."""
    assert natural_rest(character(CY, hp=2), "full_day", ScriptedDice([]), HAZARDS)[0].hp == 3
    none = load_ruleset("hazards", {"hazards_below_half_recovery": "none"})
    assert natural_rest(character(CY, hp=2), "full_day", ScriptedDice([]), none)[0].hp == 2


def test_H_HEAL_05_a_comfortable_bed_adds_1() -> None:
    """H-HEAL-05: 1d3 (2) + 1 in a bed: HP 5 → 8; below half 1 + 1: HP 2 → 4; the bed can be the character's flag."""
    assert natural_rest(character(CY, hp=5), "full_day", ScriptedDice([2]), HAZARDS, bed=True)[0].hp == 8
    assert natural_rest(with_state(character(CY, hp=2), bed=True), "full_day", ScriptedDice([]), HAZARDS)[0].hp == 4


def test_H_HEAL_07_a_hostile_place_heals_nothing() -> None:
    """H-HEAL-07: resting in a dungeon (hostile) heals nothing at all; no die is rolled."""
    for kind in ("night", "full_day"):
        after, events = natural_rest(character(CY, hp=5), kind, ScriptedDice([]), HAZARDS, hostile=True, bed=True)
        assert after.hp == 5 and events[-1].data["hostile"] and "hostile" in tell_referee(events[-1])


def test_H_HEAL_08_never_above_the_maximum() -> None:
    """H-HEAL-08: HP 9 of 10, 1d3 = 3 and a bed → 10, not 13; a night at full HP stays at full."""
    after, events = natural_rest(character(CY, hp=9), "full_day", ScriptedDice([3]), HAZARDS, bed=True)
    assert after.hp == 10 and events[-1].data["capped"] and "capped" in tell_referee(events[-1])
    assert natural_rest(character(CY, hp=10), "night", ScriptedDice([]), HAZARDS)[0].hp == 10


def test_H_HEAL_02_no_rest_without_food_and_water() -> None:
    """H-HEAL-02: a full day without adequate food and water is not rest: nothing heals."""
    after, _ = natural_rest(record_needs(character(CY, hp=5), ate=False), "full_day", ScriptedDice([]), HAZARDS)
    assert after.hp == 5


def test_CF_32_the_model_is_chosen_by_the_healing_model_option() -> None:
    """CF-32: furnace.play.rest.rest with healing_model hazards reaches this model (night, full_day, week); a Hit Dice
    rest is refused by name under it."""
    assert set(HEALING_MODELS["hazards"]) == {"night", "full_day", "week"}
    assert rest(character(CY, hp=5), "night", ScriptedDice([]), HAZARDS)[0].hp == 6
    assert rest(character(CY, hp=5), "full_day", ScriptedDice([1]), HAZARDS)[0].hp == 6
    with pytest.raises(CharacterError, match="night, full_day, week"):
        rest(character(CY, hp=5), "short", ScriptedDice([]), HAZARDS)


def test_D_7_a_rest_ends_until_rest_effects() -> None:
    """D-7: any rest, a Hazards night too, ends what lasts until rest."""
    after, events = natural_rest(character(CY, hp=5, until_rest=["Spell Depletion"]), "night", ScriptedDice([]),
                                 HAZARDS)
    assert after.until_rest == [] and events[0].kind == "rested"


def test_H_HEAL_06_a_week_of_rest_gives_back_1_point_of_temporary_loss() -> None:
    """H-HEAL-06, H-HEAL-08: INT 12 → 10 (temporary) → 11 after a week → 12 after two, never more; a permanent loss
    (aging) does not come back; a hostile week gives nothing."""
    c, _ = lose(character(CY, hp=5), "INT", 2, HAZARDS, "a fever", "temporary")
    c, _ = lose(c, "WIS", 1, HAZARDS, "age")
    assert natural_rest(c, "week", ScriptedDice([]), HAZARDS, hostile=True)[0].scores["INT"] == 10
    for expected in (11, 12, 12):
        c, _ = natural_rest(c, "week", ScriptedDice([]), HAZARDS)
        assert c.scores["INT"] == expected
    assert c.scores["WIS"] == 9 and not state(c)["temporary_loss"]


def test_H_HEAL_07_campaign_flags() -> None:
    """H-HEAL-07, REF-34: a campaign's hostile flag stops recovery; its bed flag adds 1."""
    camp = Campaign(characters={"Cy": character(CY, hp=5)}, flags={"hostile": True})
    assert rest_in_campaign(camp, "Cy", "night", ScriptedDice([]), HAZARDS)[0].characters["Cy"].hp == 5
    camp = Campaign(characters={"Cy": character(CY, hp=5)}, flags={"bed": ["Cy"]})
    assert rest_in_campaign(camp, "Cy", "full_day", ScriptedDice([1]), HAZARDS)[0].characters["Cy"].hp == 7


def test_H_HEAL_04_wake_after_1d6_hours() -> None:
    """H-HEAL-04: at 0 HP or less the character is unconscious and wakes after 1d6 hours (face 4 → 4 hours): not at
    3:59, at 4:00, unable to stand or carry gear while HP ≤ 0; healing above 0 ends that."""
    camp = Campaign(characters={"Cy": character(CY, hp=-1)})
    dice = ScriptedDice([4])
    camp, events = knock_out(camp, "Cy", dice, HAZARDS)
    assert events[0].data["hours"] == 4 and "UNCONSCIOUS" in camp.characters["Cy"].conditions
    camp, fired = advance(camp, 4 * HOUR - MINUTE, "second", ScriptedDice([]), HAZARDS)
    assert fired == []
    camp, fired = advance(camp, 1, "minute", ScriptedDice([]), HAZARDS)
    assert [e.kind for e in fired] == ["wake_up"] and fired[0].data["at"] == 4 * HOUR
    cy = camp.characters["Cy"]
    assert "UNCONSCIOUS" not in cy.conditions and {"KNOCKED_DOWN", "CANT_USE_OBJECTS"} <= set(cy.conditions)
    healed, _ = natural_rest(cy.model_copy(update={"hp": 0}), "full_day", ScriptedDice([]), HAZARDS, bed=True)
    assert healed.hp == 2 and "KNOCKED_DOWN" not in healed.conditions
    with pytest.raises(CharacterError):
        knock_out(Campaign(characters={"Cy": character(CY, hp=3)}), "Cy", dice, HAZARDS)
