"""Hazards hunger, thirst and sleep (`furnace.hazards.needs`) and the recovery of what they cost.

RULES.md H-STARV-01 (food and water every 24 hours), H-STARV-02 (no food: save or CON −1), H-STARV-03 (no water:
save or CON halved, rounded down), H-STARV-04 (death after three failed saves, AMB-75: thirst saves), H-STARV-05
(2 points a week back), H-SLEEP-01 (under 4 hours: −1 to all rolls a day, cumulative, AMB-76), H-TAB-06, D-5.
"""

from __future__ import annotations

from typing import Any

from furnace.dice import ScriptedDice
from furnace.hazards import daily_needs, natural_rest, record_needs, schedule_daily_needs, sleep_penalty
from furnace.hazards.common import state
from furnace.play.clock import DAY, Campaign, advance
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import character

HAZARDS = load_ruleset("hazards")
SCORES = {"STR": 10, "DEX": 10, "CON": 13, "INT": 10, "WIS": 10, "CHA": 10}
BO: dict[str, Any] = dict(name="Bo", scores=SCORES, hp_max=6)   # CON 13, 6 HP


def test_H_STARV_01_fed_watered_and_rested_rolls_nothing() -> None:
    """H-STARV-01: a day with a meal, water and 8 hours' sleep calls no save (no die is rolled)."""
    after, events = daily_needs(character(BO), ScriptedDice([]), HAZARDS)
    assert events == [] and after.scores == SCORES


def test_H_STARV_02_a_day_without_food_CON_save_or_minus_1() -> None:
    """H-STARV-02, D-5: CON SAVE (CON 13: +1) vs 12: 11 + 1 = 12 saves; 10 + 1 = 11 fails and CON 13 → 12, a loss
    to hunger that rest gives back at 2 a week (deprivation_loss)."""
    hungry = record_needs(character(BO), ate=False)
    kept, events = daily_needs(hungry, ScriptedDice([11]), HAZARDS)
    assert kept.scores["CON"] == 13 and events[0].kind == "hunger_save" and events[0].data["saved"]
    lost, events = daily_needs(hungry, ScriptedDice([10]), HAZARDS)
    assert lost.scores["CON"] == 12 and state(lost)["deprivation_loss"] == {"CON": 1}
    assert [e.kind for e in events] == ["hunger_save", "ability"]


def test_H_STARV_03_a_day_without_water_halves_CON_rounded_down() -> None:
    """H-STARV-03, AMB-75: a failed thirst save halves CON, rounded down: 13 → 6 (ceil option: 7)."""
    thirsty = record_needs(character(BO), drank=False)
    after, _ = daily_needs(thirsty, ScriptedDice([1]), HAZARDS)
    assert after.scores["CON"] == 6
    after, _ = daily_needs(thirsty, ScriptedDice([1]), load_ruleset("hazards", {"dehydration_rounding": "ceil"}))
    assert after.scores["CON"] == 7


def test_H_STARV_04_AMB_75_three_failed_thirst_saves_kill() -> None:
    """H-STARV-04, AMB-75: CON 18 without water, three failed saves: 18 → 9 → 4 → dead at the third (CON 2 > 0),
    on the clock's daily_needs entry; the entry stops after the death."""
    c = record_needs(character(BO, scores={**SCORES, "CON": 18}), drank=False)
    camp, _ = schedule_daily_needs(Campaign(characters={"Bo": c}), "Bo", HAZARDS)
    camp, events = advance(camp, 5, "day", ScriptedDice([1, 1, 1]), HAZARDS)
    bo = camp.characters["Bo"]
    assert bo.scores["CON"] == 2 and bo.dead == "deprivation" and events[-1].data["failures"] == 3
    assert [e.data["at"] for e in events if e.kind == "thirst_save"] == [DAY, 2 * DAY, 3 * DAY]
    assert events[-1].kind == "death" and not camp.clock.entries


def test_AMB_75_hunger_alone_kills_only_through_CON_0() -> None:
    """AMB-75: three failed hunger saves cost 3 CON and do not kill (deprivation_death_counts = dehydration); with
    all_deprivation they do."""
    hungry = record_needs(character(BO), ate=False)
    for _ in range(3):
        hungry, _ = daily_needs(hungry, ScriptedDice([1]), HAZARDS)
    assert hungry.scores["CON"] == 10 and hungry.alive
    rules = load_ruleset("hazards", {"deprivation_death_counts": "all_deprivation"})
    hungry = record_needs(character(BO), ate=False)
    for _ in range(3):
        hungry, _ = daily_needs(hungry, ScriptedDice([1]), rules)
    assert not hungry.alive


def test_H_STARV_02_03_both_saves_each_day_hunger_first() -> None:
    """H-STARV-02/03: no food and no water: two saves a day, hunger then thirst, each with its d20."""
    c = record_needs(character(BO), ate=False, drank=False)
    _, events = daily_needs(c, ScriptedDice([20, 20]), HAZARDS)
    assert [e.kind for e in events] == ["hunger_save", "thirst_save"] and all(len(e.rolls) == 1 for e in events)


def test_H_SLEEP_01_minus_1_per_day_cumulative_and_reset() -> None:
    """H-SLEEP-01, AMB-76: under 4 hours: −1 after the first day, −2 after the second, −3 after the third (−30%
    on d%); one night of 4+ hours clears it."""
    c = record_needs(character(BO), slept_hours=3)
    penalties = []
    for _ in range(3):
        c, events = daily_needs(c, ScriptedDice([]), HAZARDS)
        penalties.append(sleep_penalty(c))
    assert penalties == [-1, -2, -3] and events[-1].data["percent"] == -30
    c, events = daily_needs(record_needs(c, slept_hours=4), ScriptedDice([]), HAZARDS)
    assert sleep_penalty(c) == 0 and events[0].data["penalty"] == 0


def test_H_SLEEP_01_the_penalty_applies_to_saves() -> None:
    """H-SLEEP-01: after two short nights a hunger save is d20 + CON 1 − 2: 12 + 1 − 2 = 11 fails."""
    c = record_needs(character(BO), slept_hours=2)
    for _ in range(2):
        c, _ = daily_needs(c, ScriptedDice([]), HAZARDS)
    c, events = daily_needs(record_needs(c, ate=False), ScriptedDice([12]), HAZARDS)
    save = events[0].data
    assert save["total"] == 11 and not save["saved"]
    assert {"value": -2, "source": "short of sleep"} in save["modifiers"]


def test_H_STARV_05_CON_lost_to_hunger_comes_back_2_a_week() -> None:
    """H-STARV-05, H-HEAL-06: CON 13 → 6 by thirst; a week of rest with food and water: 8; three more: 10, 12, 13,
    never more than before (H-HEAL-08); the count of failed saves starts again once it is all back (AMB-75)."""
    c, _ = daily_needs(record_needs(character(BO), drank=False), ScriptedDice([1]), HAZARDS)
    assert c.scores["CON"] == 6 and state(c)["failed_deprivation_saves"] == 1
    c = record_needs(c, drank=True)
    c, _ = natural_rest(c, "week", ScriptedDice([]), HAZARDS)
    assert c.scores["CON"] == 8
    for _ in range(3):
        c, _ = natural_rest(c, "week", ScriptedDice([]), HAZARDS)
    assert c.scores["CON"] == 13 and state(c)["failed_deprivation_saves"] == 0
    assert not state(c)["deprivation_loss"]


def test_H_STARV_05_no_recovery_without_food() -> None:
    """H-STARV-05: the deprivation loss comes back only 'with proper nourishment'."""
    c, _ = daily_needs(record_needs(character(BO), ate=False), ScriptedDice([1]), HAZARDS)
    c, _ = natural_rest(c, "week", ScriptedDice([]), HAZARDS)
    assert c.scores["CON"] == 12
