"""Acceptance: one day of a character's hazards on the campaign clock, in time order, each with its roll.

RULES.md H-LIGHT-02 (a torch out after 6 turns), H-DIS-04/05/06 (Green River Fever: a save every 4 hours once
incubated, −2 when not resting), H-STARV-02/03 (the daily hunger and thirst saves), D-5 (CON SAVEs vs
hazard_save_dc), and the clock's promise: what falls due fires in order of time, and a seed replays it.
"""

from __future__ import annotations

import random
from typing import Any

from furnace.dice import DiceSource, ScriptedDice, seeded
from furnace.events import Event
from furnace.hazards import infect, light, packaged_disease, record_needs, schedule_daily_needs
from furnace.play.clock import DAY, HOUR, Campaign, advance
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import campaign, character

HAZARDS = load_ruleset("hazards")
SCORES = {"STR": 10, "DEX": 10, "CON": 10, "INT": 12, "WIS": 10, "CHA": 10}
ADA: dict[str, Any] = dict(name="Ada", scores=SCORES, hp_max=8, items=["torch"])   # 8 HP, a torch
START = 7 * DAY - 2 * HOUR          # the fever has incubated: its first save is 2 hours away


def the_day(camp: Campaign, rng: DiceSource) -> tuple[Campaign, list[Event]]:
    """Ada: Green River Fever incubated, no food and no water, a torch lit now; then 1 day passes."""
    camp, _ = infect(camp, "Ada", packaged_disease("Green River Fever", HAZARDS), HAZARDS)
    camp, early = advance(camp, START, "second", ScriptedDice([]), HAZARDS)
    assert early == []
    camp = camp.model_copy(update={"characters": {"Ada": record_needs(camp.characters["Ada"], ate=False,
                                                                     drank=False)}})
    camp, _ = schedule_daily_needs(camp, "Ada", HAZARDS)
    camp, _ = light(camp, "Ada", "torch", HAZARDS)
    return advance(camp, 1, "day", rng, HAZARDS)


def timeline(events: list[Event]) -> list[tuple[str, int]]:
    main = ("light_out", "disease_save", "hunger_save", "thirst_save")
    return [(e.kind, (e.data["at"] - START) // 60) for e in events if e.kind in main]


def test_H_LIGHT_02_H_DIS_04_H_STARV_02_03_one_day_in_time_order_with_scripted_dice() -> None:
    """H-LIGHT-02, H-DIS-04/05/06, H-STARV-02/03: the torch goes out at 60 minutes; the fever's saves come at 2, 6,
    10, 14, 18 and 22 hours (−2, not resting; the 2nd fails: INT 12 → 11); at 24 hours the hunger save (20 holds)
    and the thirst save (3 fails: CON 10 → 5). Eight d20s, no more."""
    dice = ScriptedDice([20, 1, 20, 20, 20, 20, 20, 3])
    camp, events = the_day(campaign(character(ADA)), dice)
    assert dice.remaining == 0
    assert timeline(events) == [("light_out", 60)] + [("disease_save", h * 60) for h in (2, 6, 10, 14, 18, 22)] + [
        ("hunger_save", 24 * 60), ("thirst_save", 24 * 60)]
    ats = [e.data["at"] for e in events]
    assert ats == sorted(ats)
    saves = [e for e in events if e.kind.endswith("_save")]
    assert all(len(e.rolls) == 1 and e.rolls[0].expression == "d20" for e in saves)
    assert [e.rolls[0].total for e in saves] == [20, 1, 20, 20, 20, 20, 20, 3]
    fever = [e for e in saves if e.kind == "disease_save"]
    assert all({"value": -2, "source": "not resting"} in e.data["modifiers"] for e in fever)
    ada = camp.characters["Ada"]
    assert (ada.scores["INT"], ada.scores["CON"], ada.alive) == (11, 5, True)
    losses = [(e.data["ability"], e.data["before"], e.data["after"]) for e in events if e.kind == "ability"]
    assert losses == [("INT", 12, 11), ("CON", 10, 5)]
    assert [e.data["time"] for e in events if e.kind == "light_out"] == ["day 7, 23:00"]


def test_H_DIS_04_H_STARV_02_the_same_seed_gives_the_same_day() -> None:
    """The same seed gives the same events (their dicts, rolls included); another seed still gives the same
    timeline of what fell due."""
    first = [e.to_dict() for e in the_day(campaign(character(ADA)), seeded(11))[1]]
    again = [e.to_dict() for e in the_day(campaign(character(ADA)), seeded(11))[1]]
    assert first == again
    other = the_day(campaign(character(ADA)), random.Random(12))[1]
    assert timeline(other) == _timeline_dicts(first)


def _timeline_dicts(events: list[dict[str, Any]]) -> list[tuple[str, int]]:
    main = ("light_out", "disease_save", "hunger_save", "thirst_save")
    return [(e["kind"], (e["data"]["at"] - START) // 60) for e in events if e["kind"] in main]
