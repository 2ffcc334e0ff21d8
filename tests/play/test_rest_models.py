"""Every healing model ends a rest the way the Furnace rest does (CF-32, `furnace.play.rest.rest_ends`): the
"until rest" effects and the Spell Depletion count (D-7, AMB-41; a short rest only under until_rest_ends_at
any_rest), the days of rest toward the torso wound (D-8, torso_injury_rest_days 10) and the long-rest hooks
(a Barbarian's Rages, AMB-46), whether the profile is furnace, hazards or middle-sea."""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import Character
from furnace.dice import ScriptedDice
from furnace.play.rest import rest, rest_days, short_rest
from furnace.rules.ruleset import Ruleset, load_ruleset
from tests.helpers.factories import fighter

FURNACE, HAZARDS, SEA = load_ruleset(), load_ruleset("hazards"), load_ruleset("middle-sea")
SCORES = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
LOCKOUT = "CANT_CAST: a mishap (F-TAB-18)"
ORA: dict[str, Any] = dict(name="Ora", scores=SCORES, hp_max=8, hit_dice=1, injuries=["torso"], until_rest=[LOCKOUT],
                          spells_cast=3, extensions={"fight": {"rages_used": 1}})   # a level-1 Fighter, 8 HP


def rested(c: Character, kind: str, times: int, rules: Ruleset) -> Character:
    for _ in range(times):
        c, _ = rest(c, kind, ScriptedDice([]), rules)
    return c


@pytest.mark.parametrize(("rules", "kind"), [(FURNACE, "long"), (HAZARDS, "full_day"), (SEA, "day")])
def test_D_8_ten_days_of_rest_heal_the_torso_wound_under_every_profile(rules: Ruleset, kind: str) -> None:
    """Nine days of rest: day 9 of 10, still wounded; the tenth heals it and the count is cleared."""
    nine = rested(fighter(ORA), kind, 9, rules)
    assert (nine.injuries, rest_days(nine)) == (["torso"], 9)
    ten = rested(nine, kind, 1, rules)
    assert (ten.injuries, rest_days(ten)) == ([], 0)


def test_D_8_a_hazards_week_is_seven_days_and_a_night_none() -> None:
    week = rested(fighter(ORA), "week", 1, HAZARDS)
    night = rested(fighter(ORA), "night", 1, HAZARDS)
    assert (rest_days(week), rest_days(night)) == (7, 0)
    assert rested(week, "full_day", 3, HAZARDS).injuries == []


def test_D_8_a_middle_sea_hour_is_no_day_of_rest() -> None:
    assert rest_days(rested(fighter(ORA), "hour", 5, SEA)) == 0


@pytest.mark.parametrize(("rules", "kind"), [(FURNACE, "long"), (HAZARDS, "night"), (SEA, "day")])
def test_D_7_AMB_41_AMB_46_a_long_rest_ends_lockouts_depletion_and_gives_rages_back(rules: Ruleset,
                                                                                     kind: str) -> None:
    after = rested(fighter(ORA), kind, 1, rules)
    assert (after.until_rest, after.spells_cast) == ([], 0)
    assert "rages_used" not in after.extensions.get("fight", {})


@pytest.mark.parametrize(("rules", "kind"), [(FURNACE, "short"), (SEA, "hour")])
def test_D_7_until_rest_ends_at_long_rest_a_short_rest_keeps_them(rules: Ruleset, kind: str) -> None:
    """until_rest_ends_at any_rest (default): the short rest ends the lockout and the count; long_rest: both stay,
    and the Rages are not given back by a short rest either way."""
    ended = rested(fighter(ORA), kind, 1, rules)
    kept = rested(fighter(ORA), kind, 1, rules.with_options({"until_rest_ends_at": "long_rest"}))
    assert (ended.until_rest, ended.spells_cast) == ([], 0)
    assert (kept.until_rest, kept.spells_cast) == ([LOCKOUT], 3)
    assert ended.extensions["fight"]["rages_used"] == 1


def test_F_REST_01_the_short_rest_reads_until_rest_ends_at() -> None:
    """The Furnace short rest itself: a Hit Die spent (d10 → 4: HP 3 → 7) and, under long_rest, the lockout kept."""
    after, _ = short_rest(fighter(ORA, hp=3), ScriptedDice([4]),
                          FURNACE.with_options({"until_rest_ends_at": "long_rest"}))
    assert (after.hp, after.until_rest) == (7, [LOCKOUT])
