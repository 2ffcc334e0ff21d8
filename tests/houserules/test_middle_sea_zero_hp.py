"""A blow at 0 HP under the Middle Sea rules (`furnace.houserules.middle_sea.zero_hp`).

RULES.md D-4, M-GRIEV-01, M-MOOK-01, AMB-91 a/b, REF-42.
"""

from __future__ import annotations

import pytest

from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import SEA_HERO, character

RULES = load_ruleset("middle-sea")


def test_D_4_exactly_zero_hp_is_knocked_down_with_no_roll() -> None:
    """D-4, AMB-91 a: a blow to exactly 0 rolls nothing: knocked down, conscious (option middle_sea_zero_hp);
    'unconscious' is the AD&D reading."""
    dice = ScriptedDice([])
    result = ms.take_blow(character(SEA_HERO), 10, dice, RULES)
    assert (result.band, result.character.hp, result.character.conditions) == ("exactly_zero", 0, ["KNOCKED_DOWN"])
    other = ms.take_blow(character(SEA_HERO), 10, dice, RULES.with_options({"middle_sea_zero_hp": "unconscious"}))
    assert other.character.conditions == ["UNCONSCIOUS"]
    with pytest.raises(ms.MiddleSeaError, match="excess of 1"):
        ms.grievous(character(SEA_HERO), 0, dice, RULES)


def test_M_GRIEV_01_AMB_91_b_a_blow_past_zero_rolls_with_the_excess() -> None:
    """M-GRIEV-01: 14 damage on 10 HP rolls 3d6 + 4; AMB-91 b: a character already at 0 rolls with all the
    damage; a lesser blow only takes HP."""
    result = ms.take_blow(character(SEA_HERO), 14, ScriptedDice([1, 1, 1]), RULES)
    assert (result.total, result.band, result.character.hp) == (7, "knocked_down", 0)
    assert result.events[0].kind == "damage"
    again = ms.take_blow(result.character, 4, ScriptedDice([1, 1, 1]), RULES)
    assert again.total == 7
    hurt = ms.take_blow(character(SEA_HERO), 4, ScriptedDice([]), RULES)
    assert (hurt.band, hurt.character.hp) == ("hurt", 6)


def test_M_MOOK_01_most_npcs_are_out_of_the_fight_at_zero() -> None:
    """M-MOOK-01, REF-42 (option npc_grievous): an NPC not flagged named is out of the fight at 0 with no roll;
    a named one rolls; under 'all' every NPC rolls."""
    mook = ms.take_blow(character(SEA_HERO, name="Guard"), 15, ScriptedDice([]), RULES, npc=True)
    assert mook.band == "out_of_fight" and mook.referee_prompts and mook.character.conditions == ["INCAPACITATED"]
    named = ms.take_blow(character(SEA_HERO, name="Captain"), 15, ScriptedDice([1, 1, 1]), RULES, npc=True, named=True)
    assert named.band == "knocked_down"
    every = ms.take_blow(character(SEA_HERO, name="Guard"), 15, ScriptedDice([1, 1, 1]),
                         RULES.with_options({"npc_grievous": "all"}), npc=True)
    assert every.total == 8
