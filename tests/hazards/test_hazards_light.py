"""Hazards light (`furnace.hazards.light`): burn-out on the clock, refuelling, surprise.

RULES.md H-LIGHT-01/02 (torch 30' 6 turns, lantern 30' 24 turns a flask, candle 10' 12 turns), H-LIGHT-03 (light
gives the party away), H-TAB-02, AMB-81 (burn time per source, snuff and relight), AMB-03/CF-39 (10-minute turns).
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.dice import ScriptedDice
from furnace.hazards import light, light_source, lights, party_lit, snuff
from furnace.play.clock import MINUTE, Campaign, advance
from furnace.play.surprise import surprise
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import campaign, character

HAZARDS = load_ruleset("hazards")
SCORES = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
ED: dict[str, Any] = dict(name="Ed", scores=SCORES, hp_max=4)   # 4 HP


def burn_minutes(camp: Campaign) -> list[int]:
    """Advance a day and return the minutes at which lights went out."""
    camp, events = advance(camp, 1, "day", ScriptedDice([]), HAZARDS)
    return [e.data["at"] // MINUTE for e in events if e.kind == "light_out"]


@pytest.mark.parametrize(("source", "radius", "turns"), [("torch", 30, 6), ("candle", 10, 12), ("lantern", 30, 24)])
def test_H_LIGHT_02_burn_time_and_radius(source: str, radius: int, turns: int) -> None:
    """H-LIGHT-02, H-TAB-02: torch 6, candle 12, lantern 24 turns (a flask), 10 minutes a turn; radius 30/10/30."""
    lit = light_source(source, HAZARDS)
    assert (lit.radius_ft, lit.turns) == (radius, turns)
    camp, events = light(campaign(character(ED)), "Ed", source, HAZARDS)
    assert events[0].data["radius_ft"] == radius and party_lit(camp)
    assert burn_minutes(camp) == [turns * 10]


def test_H_LIGHT_02_a_torch_is_out_after_exactly_6_turns() -> None:
    """H-LIGHT-02: still lit at 59 minutes, out at 60; then the party is in the dark."""
    camp, _ = light(campaign(character(ED)), "Ed", "torch", HAZARDS)
    camp, events = advance(camp, 59, "minute", ScriptedDice([]), HAZARDS)
    assert events == [] and party_lit(camp)
    camp, events = advance(camp, 1, "turn", ScriptedDice([]), HAZARDS)
    assert [e.kind for e in events] == ["light_out"] and events[0].data["at"] == 60 * MINUTE
    assert not party_lit(camp)


def test_H_LIGHT_02_a_lantern_burns_24_turns_per_flask_and_is_refilled() -> None:
    """H-LIGHT-02, AMB-81: a lantern with two spare flasks: refilled at 24 and 48 turns, out at 72; the flasks are
    used up."""
    camp, _ = light(campaign(character(ED, items=["flask of oil", "rope", "Flask of oil"])), "Ed", "lantern", HAZARDS)
    camp, events = advance(camp, 1, "day", ScriptedDice([]), HAZARDS)
    assert [(e.kind, e.data["at"] // MINUTE) for e in events] == [
        ("light_refuel", 240), ("light_refuel", 480), ("light_out", 720)]
    assert camp.characters["Ed"].items == ["rope"]


def test_AMB_81_snuffed_keeps_its_time_left() -> None:
    """AMB-81: a torch snuffed after 2 turns keeps 4; relit, it goes out 4 turns later."""
    camp, _ = light(campaign(character(ED)), "Ed", "torch", HAZARDS)
    camp, _ = advance(camp, 2, "turn", ScriptedDice([]), HAZARDS)
    camp, events = snuff(camp, lights(camp)[0].id, HAZARDS)
    assert events[0].data["turns_left"] == 4 and not party_lit(camp)
    camp, _ = light(camp, "Ed", "torch", HAZARDS, turns=events[0].data["turns_left"])
    camp, events = advance(camp, 1, "hour", ScriptedDice([]), HAZARDS)
    assert [e.data["at"] // MINUTE for e in events] == [20 + 40]


def test_AMB_03_the_turn_length_is_an_option() -> None:
    """AMB-03, CF-39: with 6-minute exploration turns a torch burns 36 minutes."""
    rules = load_ruleset("hazards", {"exploration_turn_minutes": 6})
    camp, _ = light(campaign(character(ED)), "Ed", "torch", rules)
    camp, events = advance(camp, 1, "hour", ScriptedDice([]), rules)
    assert [e.data["at"] // MINUTE for e in events] == [36]


def test_H_LIGHT_03_a_lit_party_cannot_surprise() -> None:
    """H-LIGHT-03, CF-51: party_lit feeds the surprise roll: the enemies' die is not rolled, they are not surprised."""
    rules = load_ruleset("hazards", {"surprise_roll": True})
    camp, _ = light(campaign(character(ED)), "Ed", "candle", rules)
    dice = ScriptedDice([5])
    result = surprise(dice, rules, lit=party_lit(camp))
    assert not result.enemies.surprised and result.enemies.roll is None and dice.remaining == 0
