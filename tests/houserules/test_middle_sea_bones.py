"""Broken bones, fatal wounds and bleeding on the campaign clock (`furnace.houserules.middle_sea.bones`).

RULES.md M-GRIEV-06, M-GRIEV-07, M-GRIEV-01 (`wound`), AMB-92, AMB-93.
"""

from __future__ import annotations

from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.play.clock import Campaign, advance
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import SEA_HERO, character, roll_total

RULES = load_ruleset("middle-sea")


def test_M_GRIEV_06_broken_bone_heals_on_the_clock_and_a_repeat_break_moves_it() -> None:
    """M-GRIEV-06, AMB-93: a `bone_heals` entry 11 weeks on; a repeat break 3 weeks later adds 2 weeks (1d4); the
    break and its effect end when the clock reaches it."""
    first, _ = roll_total(15, [6, 1, 1])
    campaign, scheduled = ms.schedule_grievous(Campaign(), first)
    (entry,) = campaign.clock.entries
    assert (entry.kind, entry.at, entry.data) == ("bone_heals", 11 * ms.WEEK, {"location": "Rib"})
    campaign, _ = advance(campaign, 3, "week", ScriptedDice([]), RULES)
    again = ms.grievous(campaign.characters["Hero"], 12, ScriptedDice([1, 1, 1, 6, 2]), RULES)
    campaign, _ = ms.schedule_grievous(campaign, again)
    assert [e.at for e in campaign.clock.entries] == [13 * ms.WEEK]
    campaign, _ = advance(campaign, 9, "week", ScriptedDice([]), RULES)
    assert campaign.characters["Hero"].injuries == ["broken rib"]
    campaign, events = advance(campaign, 1, "week", ScriptedDice([]), RULES)
    assert campaign.characters["Hero"].injuries == [] and ms.state_of(campaign.characters["Hero"])["breaks"] == {}
    assert events[0].kind == "bone_heals" and scheduled.timers == ()


def test_M_GRIEV_07_AMB_92_a_fatal_wound_kills_after_1d6_exploration_turns() -> None:
    """M-GRIEV-07, AMB-92: 17–18 leaves the character UNCONSCIOUS; death 3 exploration turns (30 minutes) later."""
    result, _ = roll_total(17, [3])
    campaign, result = ms.schedule_grievous(Campaign(), result)
    (entry,) = campaign.clock.entries
    assert (entry.kind, entry.at) == ("fatal_wound", 30 * 60) and result.timers[0].entry == entry.id
    campaign, _ = advance(campaign, 29, "minute", ScriptedDice([]), RULES)
    assert campaign.characters["Hero"].alive
    campaign, events = advance(campaign, 1, "minute", ScriptedDice([]), RULES)
    assert "fatal wound" in (campaign.characters["Hero"].dead or "") and events[0].kind == "death"


def test_M_GRIEV_wound_on_a_campaign() -> None:
    """M-GRIEV-01, M-GRIEV-07: `wound` takes the blow on a campaign's character and puts its timer on the clock."""
    campaign = Campaign(characters={"Hero": character(SEA_HERO)})
    campaign, result = ms.wound(campaign, "Hero", 24, ScriptedDice([1, 1, 1, 5]), RULES)
    assert result.band == "fatal_wound" and [e.kind for e in campaign.clock.entries] == ["fatal_wound"]
    assert ms.state_of(campaign.characters["Hero"])["timers"][0]["entry"] == campaign.clock.entries[0].id
