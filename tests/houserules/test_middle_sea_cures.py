"""Cures for fatal wounds, bleeding and broken bones (`furnace.houserules.middle_sea.cures`).

RULES.md M-GRIEV-07, M-GRIEV-08, M-BONE-02, CF-47.
"""

from __future__ import annotations

import pytest

from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.play.clock import Campaign, advance
from furnace.render.story import tell_referee
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import roll_total

RULES = load_ruleset("middle-sea")


def test_M_BONE_02_one_cure_mends_one_break_and_heals_no_hp() -> None:
    """M-BONE-02: Cure Serious mends one break (of two in the right leg); a second spell mends the other; no HP."""
    first, _ = roll_total(15, [1, 2, 2])
    campaign, scheduled = ms.schedule_grievous(Campaign(), first)
    campaign, _ = ms.schedule_grievous(campaign, ms.grievous(scheduled.character, 12, ScriptedDice([1, 1, 1, 2, 1]),
                                                             RULES))
    assert ms.state_of(campaign.characters["Hero"])["breaks"]["R. Leg"]["count"] == 2
    campaign, events = ms.cure(campaign, "Hero", "Cure Serious Wounds", rules=RULES)
    assert events[0].data["left"] == 1 and "1 break there still needs" in tell_referee(events[0])
    campaign, events = ms.cure(campaign, "Hero", "cure critical", location="R. Leg", rules=RULES)
    hero_after = campaign.characters["Hero"]
    assert hero_after.hp == 0 and hero_after.injuries == [] and ms.state_of(hero_after)["breaks"] == {}
    assert [e.kind for e in campaign.clock.entries] == []
    with pytest.raises(ms.MiddleSeaError, match="no fatal wound"):
        ms.cure(campaign, "Hero", "cure serious", rules=RULES)


def test_M_GRIEV_07_cure_serious_stops_the_fatal_wound_and_heals_no_hp() -> None:
    """M-GRIEV-07: Cure Serious (or Critical) cast in time stops the death; no HP; still unconscious."""
    result, _ = roll_total(18, [6])
    campaign, _ = ms.schedule_grievous(Campaign(), result)
    campaign, events = ms.cure(campaign, "Hero", "cure_serious", rules=RULES)
    after = campaign.characters["Hero"]
    assert campaign.clock.entries == () and after.hp == 0 and "UNCONSCIOUS" in after.conditions
    campaign, _ = advance(campaign, 2, "hour", ScriptedDice([]), RULES)
    assert campaign.characters["Hero"].alive and "no HP" in tell_referee(events[0])


def test_M_GRIEV_08_bleeding_stops_only_for_cauterise_tourniquet_or_cure_critical() -> None:
    """M-GRIEV-08: Cure Serious does not stop the bleeding; a tourniquet does (BLEEDING ends, still
    INCAPACITATED); untreated, the character dies when the 2d6 rounds (60-second rounds here) run out."""
    result, _ = roll_total(19, [7, 2, 3])
    campaign, _ = ms.schedule_grievous(Campaign(), result)
    with pytest.raises(ms.MiddleSeaError, match="does not stop the bleeding"):
        ms.cure(campaign, "Hero", "Cure Serious Wounds", rules=RULES)
    treated, events = ms.cure(campaign, "Hero", "tourniquet", rules=RULES)
    after = treated.characters["Hero"]
    assert "BLEEDING" not in after.conditions and "INCAPACITATED" in after.conditions
    assert treated.clock.entries == () and events[0].data["timer"] == "bleeding"
    untreated, _ = advance(campaign, 4, "round", ScriptedDice([]), RULES)
    assert untreated.characters["Hero"].alive
    untreated, _ = advance(untreated, 1, "round", ScriptedDice([]), RULES)
    assert "bled to death" in (untreated.characters["Hero"].dead or "")
    cured, _ = ms.cure(campaign, "Hero", "Cure Critical Wounds", rules=RULES)
    cauterised, _ = ms.cure(campaign, "Hero", "cauterize", rules=RULES)
    assert cured.clock.entries == () == cauterised.clock.entries


def test_CF_47_lay_on_hands_needs_the_referee() -> None:
    """CF-47: a Lay on Hands cure counts as one Cure Serious Wounds only once the referee approves it."""
    result, _ = roll_total(17, [3])
    campaign, _ = ms.schedule_grievous(Campaign(), result)
    same, events = ms.cure(campaign, "Hero", "lay on hands", rules=RULES)
    assert same is campaign and (events[0].kind, events[0].audience) == ("wound_cure_approval", "referee")
    cured, _ = ms.cure(campaign, "Hero", "lay on hands", rules=RULES, approved=True)
    assert cured.clock.entries == ()
    with pytest.raises(ms.MiddleSeaError, match="loh_counts_as_cure_serious"):
        ms.cure(campaign, "Hero", "lay on hands", rules=RULES.with_options({"loh_counts_as_cure_serious": False}))
    with pytest.raises(ms.MiddleSeaError, match="unknown cure"):
        ms.cure(campaign, "Hero", "prayer", rules=RULES)
