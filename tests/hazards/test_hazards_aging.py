"""Hazards aging (`furnace.hazards.aging`): saves from the race's start age, −2/−4, magical aging.

RULES.md H-AGE-01 (save vs. paralysis = CON SAVE per D-5, every interval from the start age), H-AGE-02 (a failure:
one random ability −1 for good), H-AGE-03 (magical aging makes every missed save now), H-TAB-01, AMB-71
(inclusive thresholds), AMB-72 (ages in (old, new]), CF-43 (the Half-orc uses the Human row).
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.dice import ScriptedDice
from furnace.hazards import age_character, saves_due, schedule_aging
from furnace.hazards.aging import AgingSave
from furnace.hazards.common import state
from furnace.play.clock import Campaign, advance
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import character

HAZARDS = load_ruleset("hazards")
SCORES = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
ELDER: dict[str, Any] = dict(name="Elder", scores=SCORES, hp_max=6, age=38)   # a Human of 38, 6 HP


def test_H_AGE_03_AMB_72_human_38_to_45_makes_6_saves() -> None:
    """H-AGE-03, AMB-72: a human magically aged 38 → 45 makes 6 saves, at 40..45, all without penalty."""
    assert saves_due("Human", 38, 45, HAZARDS) == [AgingSave(a, 0) for a in range(40, 46)]
    dice = ScriptedDice([20] * 6)
    after, events = age_character(character(ELDER), 7, dice, HAZARDS, magical=True)
    saves = [e for e in events if e.kind == "aging_save"]
    assert len(saves) == 6 and [e.data["age"] for e in saves] == list(range(40, 46))
    assert all(len(e.rolls) == 1 and e.rolls[0].expression == "d20" for e in saves)
    assert after.age == 45 and after.scores == SCORES and dice.remaining == 0


def test_AMB_72_human_48_to_52_penalties() -> None:
    """AMB-72: 48 → 52 = age 49 at 0 and 50, 51, 52 at −2 (the save at 48 was already made)."""
    assert saves_due("Human", 48, 52, HAZARDS) == [AgingSave(49, 0), AgingSave(50, -2), AgingSave(51, -2),
                                                   AgingSave(52, -2)]


@pytest.mark.parametrize(("race", "old", "new", "expected"), [
    ("Human", 59, 61, [(60, -4), (61, -4)]),
    ("Halfling", 69, 71, [(70, 0), (71, 0)]),
    ("Halfling", 79, 80, [(80, -2)]),
    ("Halfling", 99, 100, [(100, -4)]),
    ("Dwarf", 199, 210, [(200, 0), (205, 0), (210, 0)]),
    ("Dwarf", 245, 300, [(250, -2), (255, -2), (260, -2), (265, -2), (270, -2), (275, -2), (280, -2), (285, -2),
                         (290, -2), (295, -2), (300, -4)]),
    ("Elf", 690, 720, [(700, 0), (710, 0), (720, 0)]),
    ("Elf", 795, 800, [(800, -2)]),
    ("Elf", 899, 910, [(900, -4), (910, -4)]),
    ("Human", 20, 39, []),
])
def test_H_AGE_01_H_TAB_01_saves_per_race_and_interval(race: str, old: int, new: int,
                                                       expected: list[tuple[int, int]]) -> None:
    """H-AGE-01, H-TAB-01, AMB-71: start ages 40/70/200/700, intervals 1/1/5/10 years, −2 from 50/80/250/800 and −4
    from 60/100/300/900, thresholds inclusive."""
    assert [tuple(s) for s in saves_due(race, old, new, HAZARDS)] == expected


def test_AMB_71_exclusive_thresholds_start_the_year_after() -> None:
    """AMB-71, option aging_thresholds = exclusive: a human of exactly 50 saves at 0, at 51 at −2."""
    rules = load_ruleset("hazards", {"aging_thresholds": "exclusive"})
    assert saves_due("Human", 49, 51, rules) == [AgingSave(50, 0), AgingSave(51, -2)]


def test_CF_43_half_orc_ages_as_the_option_says() -> None:
    """CF-43, option half_orc_aging_race: human (default) → saves from 40; elf → from 700."""
    assert saves_due("Half-orc", 39, 40, HAZARDS) == [AgingSave(40, 0)]
    assert saves_due("Half-orc", 39, 40, load_ruleset("hazards", {"half_orc_aging_race": "elf"})) == []


def test_H_AGE_01_the_save_is_a_CON_SAVE_with_the_age_penalty_vs_hazard_save_dc() -> None:
    """H-AGE-01, D-5: d20 + CON + PROF (CON SAVE proficient, level 1: +1) − 2 at 50, vs hazard_save_dc 12:
    13 + 1 + 1 − 2 = 13 saves."""
    c = character(ELDER, age=49, scores={**SCORES, "CON": 13}, saves=["CON"], level=1, char_class="Fighter")
    _, events = age_character(c, 1, ScriptedDice([13]), HAZARDS)
    save = next(e for e in events if e.kind == "aging_save")
    assert [(m["source"], m["value"]) for m in save.data["modifiers"]] == [
        ("CON", 1), ("PROF", 1), ("age 50", -2)]
    assert save.data["total"] == 13 and save.data["dc"] == 12 and save.data["saved"]


def test_H_AGE_02_a_failure_costs_a_random_ability_for_good() -> None:
    """H-AGE-02: d20 5 fails; 1d6 = 4 picks INT: INT 10 → 9, permanent (not kept for rest to give back)."""
    dice = ScriptedDice([5, 4])
    after, events = age_character(character(ELDER, age=39), 1, dice, HAZARDS)
    assert after.scores["INT"] == 9 and dice.remaining == 0
    assert "temporary_loss" not in state(after)
    assert next(e for e in events if e.kind == "ability").data["loss"] == "permanent"


def test_H_AGE_02_H_ABIL_03_aging_to_0_kills() -> None:
    """H-AGE-02, H-ABIL-03: STR 1, a failed save and 1d6 = 1 (STR): STR 0 → dead; no more saves are rolled."""
    dice = ScriptedDice([1, 1])
    after, events = age_character(character(ELDER, age=39, scores={**SCORES, "STR": 1}), 3, dice, HAZARDS)
    assert after.scores["STR"] == 0 and after.dead and dice.remaining == 0
    assert [e.kind for e in events][-1] == "death"


def test_H_AGE_01_yearly_clock_handler() -> None:
    """H-AGE-01: schedule_aging puts a yearly "aging" entry on the clock: at 39 → 40 one save; a Dwarf of 199
    saves at 200 and rolls nothing at 201."""
    campaign = Campaign(characters={"Elder": character(ELDER, age=39)})
    campaign, _ = schedule_aging(campaign, "Elder", HAZARDS)
    campaign, events = advance(campaign, 1, "year", ScriptedDice([20]), HAZARDS)
    assert campaign.characters["Elder"].age == 40 and [e.kind for e in events].count("aging_save") == 1
    assert events[-1].data["time"] == "day 366, 00:00"
    dwarf = Campaign(characters={"Elder": character(ELDER, age=199, race="Dwarf")})
    dwarf, _ = schedule_aging(dwarf, "Elder", HAZARDS)
    dwarf, events = advance(dwarf, 1, "year", ScriptedDice([20]), HAZARDS)
    dwarf, later = advance(dwarf, 1, "year", ScriptedDice([]), HAZARDS)
    assert dwarf.characters["Elder"].age == 201 and [e.kind for e in later] == ["aging"]
