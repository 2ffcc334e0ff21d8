"""Middle Sea recovery of hit points (`furnace.houserules.middle_sea.healing`).

RULES.md M-HEAL-01..03, AMB-90, CF-32, D-7.
"""

from __future__ import annotations

import pytest

from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.play.rest import HEALING_MODELS, rest
from furnace.render.story import tell_referee
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import SEA_FIGHTER, character

RULES = load_ruleset("middle-sea")


def test_M_HEAL_01_post_combat_roll_is_capped_at_the_hp_at_combat_start() -> None:
    """M-HEAL-01, AMB-90 a: entered with 25, ended at 10, rolls 7 → 17; entered with 12 → capped at 12."""
    entered = ms.enter_combat(character(SEA_FIGHTER, hp=25))
    after, events = ms.post_combat(entered.model_copy(update={"hp": 10}), ScriptedDice([7]), RULES)
    assert after.hp == 17 and events[0].rolls[0].expression == "d10"
    assert "hp_at_combat_start" not in ms.state_of(after)
    capped, _ = ms.post_combat(character(SEA_FIGHTER, hp=10), ScriptedDice([7]), RULES, hp_at_start=12)
    assert capped.hp == 12


def test_M_HEAL_01_no_roll_without_damage_or_a_recorded_start() -> None:
    """M-HEAL-01: a combat in which the character lost no HP gives no roll; with no HP recorded at the start the
    call is refused."""
    dice = ScriptedDice([])
    same, events = ms.post_combat(ms.enter_combat(character(SEA_FIGHTER, hp=25)), dice, RULES)
    assert same.hp == 25 and events[0].data["how"] == "no_loss" and "no recovery roll" in tell_referee(events[0])
    with pytest.raises(ms.MiddleSeaError, match="enter_combat"):
        ms.post_combat(character(SEA_FIGHTER), dice, RULES)


def test_M_HEAL_02_AMB_90_an_hour_of_rest_below_half_may_overshoot_half() -> None:
    """M-HEAL-02, AMB-90 b: below half (20 of 40) an hour gives a d10: 5 + 7 → 12; 15 + 9 → 24 (past half);
    at half an hour heals nothing; option middle_sea_hourly_cap half_hp stops the crossing roll at 20."""
    assert ms.rest_hour(character(SEA_FIGHTER, hp=5), ScriptedDice([7]), RULES)[0].hp == 12
    assert ms.rest_hour(character(SEA_FIGHTER, hp=15), ScriptedDice([9]), RULES)[0].hp == 24
    same, events = ms.rest_hour(character(SEA_FIGHTER, hp=20), ScriptedDice([]), RULES)
    assert same.hp == 20 and events[0].data["how"] == "at_half" and "full day" in tell_referee(events[0])
    half = RULES.with_options({"middle_sea_hourly_cap": "half_hp"})
    assert ms.rest_hour(character(SEA_FIGHTER, hp=15), ScriptedDice([9]), half)[0].hp == 20


def test_M_HEAL_03_a_full_day_at_or_above_half_gives_one_hit_die_capped_at_max() -> None:
    """M-HEAL-03: at 25 of 40 a day gives a d10: 25 + 9 → 34; 38 + 9 → 40 (the maximum); at 40 nothing."""
    assert ms.rest_day(character(SEA_FIGHTER, hp=25), ScriptedDice([9]), RULES)[0].hp == 34
    assert ms.rest_day(character(SEA_FIGHTER, hp=38), ScriptedDice([9]), RULES)[0].hp == 40
    dice = ScriptedDice([])
    assert ms.rest_day(character(SEA_FIGHTER, hp=40), dice, RULES)[0].hp == 40


def test_M_HEAL_02_a_day_begun_below_half_is_hourly_rests_until_half() -> None:
    """M-HEAL-02/03: from 5 HP a day of rest rolls hourly (7, 9 → 12, 21) and stops at half; D-7 ends 'until
    rest' effects."""
    dice = ScriptedDice([7, 9])
    after, events = ms.rest_day(character(SEA_FIGHTER, hp=5, until_rest=["Spell Depletion"]), dice, RULES)
    assert (after.hp, dice.remaining, after.until_rest) == (21, 0, [])
    assert [e.data["hp_after"] for e in events if e.kind == "middle_sea_recovery"] == [12, 21]


def test_CF_32_the_middle_sea_healing_model_plugs_into_rest() -> None:
    """CF-32: furnace.play.rest.rest reads healing_model; 'middle-sea' offers post_combat, hour and day."""
    assert set(HEALING_MODELS["middle-sea"]) == {"post_combat", "hour", "day"}
    assert rest(character(SEA_FIGHTER, hp=5), "hour", ScriptedDice([7]), RULES)[0].hp == 12
    assert rest(character(SEA_FIGHTER, hp=25), "day", ScriptedDice([9]), RULES)[0].hp == 34
