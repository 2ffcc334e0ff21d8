"""Hazards travel (`furnace.hazards.travel`): the daily lost roll and the hidden heading.

RULES.md H-TRAV-01 (no roll on trails), H-TRAV-02 (1d6 each wilderness day, 1 = off course, hidden), H-TRAV-03
(intended vs actual heading, S → SW or SE), AMB-70 (once a day, lost until the referee clears it).
"""

from __future__ import annotations

import pytest

from furnace.dice import ScriptedDice, seeded
from furnace.hazards import TravelState, find_way, set_course, travel, travel_day
from furnace.hazards.travel import party_state, set_party
from furnace.play.checks import OptionOffError
from furnace.play.clock import DAY, Campaign
from furnace.render.story import tell_referee
from furnace.rules.ruleset import load_ruleset

HAZARDS = load_ruleset("hazards")


def test_H_TRAV_02_lost_on_a_1_is_hidden_from_the_players() -> None:
    """H-TRAV-02/03: d6 = 1 → off course; 1d2 = 2 → S drifts clockwise to SW; the lost check event carries
    data hidden: True, both headings are kept (intended S, actual SW)."""
    dice = ScriptedDice([1, 2])
    party, events = travel_day(TravelState(intended="S"), dice, HAZARDS)
    assert (party.intended, party.actual, party.lost, party.heading) == ("S", "SW", True, "SW")
    check = next(e for e in events if e.kind == "lost_check")
    assert check.data["hidden"] is True and check.data["lost"] is True
    assert [r.expression for r in check.rolls] == ["1d6", "1d2"] and dice.remaining == 0
    shown = next(e for e in events if e.kind == "travel")
    assert "hidden" not in shown.data and "SW" not in tell_referee(shown) and check.audience == "referee"


def test_H_TRAV_03_drift_the_other_way_is_SE() -> None:
    """H-TRAV-03: S → SE on 1d2 = 1 (one compass point, 45°, either side)."""
    party, _ = travel_day(TravelState(intended="S"), ScriptedDice([1, 1]), HAZARDS)
    assert party.actual == "SE"
    party, _ = travel_day(TravelState(intended="N"), ScriptedDice([1, 1]), HAZARDS)
    assert party.actual == "NW"


def test_H_TRAV_02_one_chance_in_six() -> None:
    """H-TRAV-02: of the six faces only the 1 puts the party off course; 2-6 roll no drift die."""
    lost = []
    for face in range(1, 7):
        dice = ScriptedDice([face, 1] if face == 1 else [face])
        party, events = travel_day(TravelState(intended="E"), dice, HAZARDS)
        lost.append(party.lost)
        assert dice.remaining == 0 and all(e.data.get("hidden") for e in events if e.kind == "lost_check")
    assert lost == [True, False, False, False, False, False]


def test_H_TRAV_01_no_roll_on_a_trail() -> None:
    """H-TRAV-01: along a trail, road or landmark no die is rolled (a scripted source with no faces would raise)."""
    party, events = travel(TravelState(intended="S"), 5, ScriptedDice([]), HAZARDS, wilderness=False)
    assert party.day == 5 and not party.lost
    assert all(not e.rolls for e in events)


def test_AMB_70_the_lost_state_lasts_until_the_referee_clears_it() -> None:
    """AMB-70: once off course there are no more rolls; find_way clears it; set_course keeps the error."""
    party, _ = travel_day(TravelState(intended="S"), ScriptedDice([1, 2]), HAZARDS)
    party, events = travel(party, 3, ScriptedDice([]), HAZARDS)
    assert party.actual == "SW" and party.day == 4 and all(e.data.get("hidden") for e in events
                                                           if e.kind == "lost_check")
    assert set_course(party, "E").actual == "SE"          # the same 45° error on the new heading
    assert not find_way(party).lost and find_way(party).intended == "S"


def test_H_TRAV_02_travel_over_several_days_counts_one_roll_a_day() -> None:
    """H-TRAV-02: five wilderness days = five lost rolls (faces 2..6: never lost)."""
    dice = ScriptedDice([2, 3, 4, 5, 6])
    party, events = travel(TravelState(intended="W"), 5, dice, HAZARDS)
    assert dice.remaining == 0 and party.day == 5 and not party.lost
    assert sum(1 for e in events if e.kind == "lost_check") == 5


def test_H_TRAV_02_a_campaign_travels_a_day_at_a_time_on_its_clock() -> None:
    """H-TRAV-02, AMB-70: travelling a Campaign keeps the party state in its flags and moves the clock a day per
    day of travel."""
    campaign = set_party(Campaign(), TravelState(intended="S"))
    campaign, events = travel(campaign, 3, ScriptedDice([3, 1, 1]), HAZARDS)
    assert campaign.clock.now == 3 * DAY and [e.data["day"] for e in events if e.kind == "travel"] == [1, 2, 3]
    assert party_state(campaign).actual == "SE" and party_state(campaign).day == 2 + 1


def test_H_TRAV_02_same_seed_same_journey() -> None:
    """H-TRAV-02: the secret rolls replay from a seed."""
    runs = [travel(TravelState(intended="S"), 20, seeded(9), HAZARDS) for _ in range(2)]
    assert [e.to_dict() for e in runs[0][1]] == [e.to_dict() for e in runs[1][1]]


def test_H_TRAV_02_off_when_the_option_is_off() -> None:
    """H-TRAV-02: under the furnace profile (hazards_travel false) the lost roll is refused."""
    with pytest.raises(OptionOffError):
        travel(TravelState(), 1, ScriptedDice([1]), load_ruleset())
