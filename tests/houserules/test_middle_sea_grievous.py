"""Middle Sea grievous injuries outside the encounter engine (`furnace.houserules.middle_sea`).

RULES.md M-GRIEV-01..10, M-BONE-01/02, M-SEVER-01/02, M-MOOK-01, D-4, AMB-91..94 (M-TAB-01..03). Every test
scripts the dice: 3d6 shows [1, 1, 1] and the excess makes the total wanted.
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import Character, CharacterError
from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.play.clock import Campaign, advance
from furnace.rules.ruleset import load_ruleset
from furnace.rules.tables import validate_table

RULES = load_ruleset("middle-sea")
SCORES = {"STR": 14, "DEX": 12, "CON": 14, "INT": 10, "WIS": 10, "CHA": 10}   # CON +1


def hero(**kw: Any) -> Character:
    """A level-5 Fighter (d10, PROF 3) proficient in CON saves: a helmet save is d20 + 4."""
    spec: dict[str, Any] = dict(name="Hero", char_class="Fighter", level=5, scores=dict(SCORES), hp_max=40, hp=10,
                                saves=["STR", "CON"])
    return Character(**{**spec, **kw})


def roll_total(total: int, after: list[int], **kw: Any) -> tuple[ms.Grievous, ScriptedDice]:
    """3d6 = [1, 1, 1] + an excess of total - 3, then the faces `after`."""
    dice = ScriptedDice([1, 1, 1, *after])
    return ms.grievous(kw.pop("character", hero()), total - 3, dice, kw.pop("rules", RULES), **kw), dice


@pytest.mark.parametrize(("total", "after", "band"), [
    (4, [5], "second_wind"), (6, [5], "second_wind"), (7, [], "knocked_down"), (9, [], "knocked_down"),
    (10, [], "stunned"), (11, [], "stunned"), (12, [3, 4], "unconscious"), (14, [3, 4], "unconscious"),
    (15, [6, 1, 1], "broken_bone"), (16, [6, 1, 1], "broken_bone"), (17, [3], "fatal_wound"),
    (18, [3], "fatal_wound"), (19, [5, 2, 3], "severed_limb"), (20, [5, 2, 3], "severed_limb"),
    (21, [], "instant_death"), (30, [], "instant_death"),
])
def test_M_GRIEV_01_bands_at_their_edges(total: int, after: list[int], band: str) -> None:
    """M-GRIEV-01..09: 3d6 + excess lands on its band at both edges (4–6, 7–9, 10–11, 12–14, 15–16, 17–18, 19–20,
    21+), HP stop at 0 and exactly the dice the band needs are rolled."""
    result, dice = roll_total(total, after)
    assert (result.total, result.band) == (total, band)
    assert dice.remaining == 0
    assert result.character.hp == (7 if band == "second_wind" else 0)
    assert (result.character.dead is not None) == (band == "instant_death")


def test_M_GRIEV_02_second_wind_heals_a_hit_die_plus_half_the_level() -> None:
    """M-GRIEV-02, AMB-91 c: a level-5 Fighter regains 1d10 + 2: face 5 → 7 HP; option second_wind max_hd → 12."""
    result, _ = roll_total(5, [5])
    assert result.character.hp == 7
    result, dice = roll_total(5, [], rules=RULES.with_options({"second_wind": "max_hd"}))
    assert result.character.hp == 12 and dice.remaining == 0
    result, _ = roll_total(5, [5], hit_die="d6")
    assert result.character.hp == 7


def test_M_GRIEV_04_stunned_or_with_a_helmet_knocked_down() -> None:
    """M-GRIEV-04: 10–11 is STUNNED for 1 round; with a helmet, knocked down instead."""
    result, _ = roll_total(10, [])
    assert [c.describe() for c in result.conditions] == ["STUNNED for 1 round(s)"] and not result.helmet_variant
    result, _ = roll_total(11, [], helmet=True)
    assert [c.name for c in result.conditions] == ["KNOCKED_DOWN"] and result.helmet_variant
    assert "KNOCKED_DOWN" in result.character.conditions and "STUNNED" not in result.character.conditions


def test_M_GRIEV_05_unconscious_2d6_rounds_or_with_a_helmet_stunned_one_round() -> None:
    """M-GRIEV-05: 12–14 is UNCONSCIOUS for 2d6 rounds ([3, 4] → 7); with a helmet STUNNED 1 round and no 2d6."""
    result, _ = roll_total(12, [3, 4])
    assert [(c.name, c.amount, c.unit) for c in result.conditions] == [("UNCONSCIOUS", 7, "round")]
    result, dice = roll_total(14, [], character=hero(helmet=True))
    assert [(c.name, c.amount, c.unit) for c in result.conditions] == [("STUNNED", 1, "round")]
    assert result.helmet and dice.remaining == 0


@pytest.mark.parametrize(("weeks", "total"), [([1, 1], 11), ([4, 4], 17), ([2, 3], 14)])
def test_M_GRIEV_06_a_broken_bone_heals_in_2d4_plus_9_weeks(weeks: list[int], total: int) -> None:
    """M-GRIEV-06, M-BONE-01: d10 6 is a rib (−3 to hit and damage); healing 2d4+9 weeks runs 11..17."""
    result, _ = roll_total(15, [6, *weeks])
    assert (result.location_roll, result.location, result.heal_weeks) == (6, "Rib", total)
    assert result.character.injuries == ["broken rib"]
    assert ms.state_of(result.character)["breaks"]["Rib"] == {"count": 1, "weeks": total, "injury": "broken rib",
                                                               "entry": None}


def test_M_GRIEV_06_AMB_93_a_repeat_break_adds_1d4_weeks_and_no_effect() -> None:
    """M-GRIEV-06, AMB-93: a second break of the right leg adds 1d4 (3) weeks and applies no effect again."""
    first, _ = roll_total(15, [1, 2, 2])   # d10 1: right leg, 2d4+9 = 13 weeks, knocked down
    down = first.character.model_copy(update={"conditions": []})
    again, dice = roll_total(16, [2, 3], character=down)
    assert again.repeat_break and again.heal_weeks == 3 and dice.remaining == 0
    assert again.conditions == () and again.character.conditions == []
    assert again.character.injuries == ["broken right leg"]
    assert ms.state_of(again.character)["breaks"]["R. Leg"]["count"] == 2
    assert ms.state_of(again.character)["breaks"]["R. Leg"]["weeks"] == 16


def test_M_BONE_01_both_legs_broken_crawl_one_inch() -> None:
    """M-BONE-01, AMB-93: with both legs broken the crawl is 1"."""
    first, _ = roll_total(15, [1, 1, 1])
    second, _ = roll_total(15, [3, 1, 1], character=first.character)
    assert set(ms.state_of(second.character)["breaks"]) == {"R. Leg", "L. Leg"}
    assert any('crawls at 1"' in e.what for e in second.events)


def test_M_BONE_01_AMB_94_a_helmet_save_ignores_a_broken_skull() -> None:
    """M-BONE-01, AMB-94, D-5: skull (d10 10) with a helmet: a CON SAVE (d20 + 4) vs the ROOM DC ignores it —
    no break, no healing roll; failing it is a fatal wound; without a helmet it is a fatal wound and a break."""
    saved, dice = roll_total(15, [10, 11], helmet=True, room_dc=15)
    assert saved.location == "Skull" and saved.heal_weeks is None and dice.remaining == 0
    assert "breaks" not in ms.state_of(saved.character) or not ms.state_of(saved.character)["breaks"]
    assert saved.timers == ()
    failed, _ = roll_total(15, [10, 10, 4, 1, 1], helmet=True, room_dc=15)
    assert [t.kind for t in failed.timers] == ["fatal_wound"] and failed.heal_weeks == 11
    bare, _ = roll_total(15, [10, 4, 1, 1])
    assert [(t.kind, t.amount, t.unit) for t in bare.timers] == [("fatal_wound", 4, "exploration_turn")]
    assert "UNCONSCIOUS" in bare.character.conditions and bare.character.injuries == ["broken skull"]


def test_M_BONE_02_one_cure_mends_one_break_and_heals_no_hp() -> None:
    """M-BONE-02: Cure Serious mends one break (of two in the right leg); a second spell mends the other; no HP."""
    first, _ = roll_total(15, [1, 2, 2])
    campaign, scheduled = ms.schedule_grievous(Campaign(), first)
    campaign, _ = ms.schedule_grievous(campaign, ms.grievous(scheduled.character, 12, ScriptedDice([1, 1, 1, 2, 1]),
                                                             RULES))
    assert ms.state_of(campaign.characters["Hero"])["breaks"]["R. Leg"]["count"] == 2
    campaign, events = ms.cure(campaign, "Hero", "Cure Serious Wounds", rules=RULES)
    assert "1 break(s) there still need" in events[0].what
    campaign, events = ms.cure(campaign, "Hero", "cure critical", location="R. Leg", rules=RULES)
    hero_after = campaign.characters["Hero"]
    assert hero_after.hp == 0 and hero_after.injuries == [] and ms.state_of(hero_after)["breaks"] == {}
    assert [e.kind for e in campaign.clock.entries] == []
    with pytest.raises(ms.MiddleSeaError, match="no fatal wound"):
        ms.cure(campaign, "Hero", "cure serious", rules=RULES)


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


def test_M_GRIEV_07_cure_serious_stops_the_fatal_wound_and_heals_no_hp() -> None:
    """M-GRIEV-07: Cure Serious (or Critical) cast in time stops the death; no HP; still unconscious."""
    result, _ = roll_total(18, [6])
    campaign, _ = ms.schedule_grievous(Campaign(), result)
    campaign, events = ms.cure(campaign, "Hero", "cure_serious", rules=RULES)
    after = campaign.characters["Hero"]
    assert campaign.clock.entries == () and after.hp == 0 and "UNCONSCIOUS" in after.conditions
    campaign, _ = advance(campaign, 2, "hour", ScriptedDice([]), RULES)
    assert campaign.characters["Hero"].alive and "no HP" in events[0].what


def test_AMB_92_fatal_wound_timer_unit_option() -> None:
    """AMB-92 (option fatal_wound_timer_unit = round): the 1d6 counts rounds instead of exploration turns."""
    result, _ = roll_total(17, [3], rules=RULES.with_options({"fatal_wound_timer_unit": "round"}))
    assert [(t.amount, t.unit) for t in result.timers] == [(3, "round")]


@pytest.mark.parametrize(("face", "location"), [
    (1, "R. Foot"), (2, "R. Leg"), (3, "L. Foot"), (4, "L. Leg"), (5, "R. Hand"), (6, "R. Hand"), (7, "R. Arm"),
    (8, "L. Hand"), (9, "L. Hand"), (10, "L. Arm"),
])
def test_M_SEVER_01_d12_locations_bleed_2d6_rounds(face: int, location: str) -> None:
    """M-SEVER-01, M-GRIEV-08: the d12 picks the limb, lost for good (a referee prompt for what it costs); the
    character is INCAPACITATED and BLEEDING, dying in 2d6 rounds ([2, 3] → 5, one roll for both)."""
    result, dice = roll_total(19, [face, 2, 3])
    assert (result.location_roll, result.location) == (face, location) and dice.remaining == 0
    assert [(t.kind, t.amount, t.unit) for t in result.timers] == [("bleeding", 5, "round")]
    assert {"INCAPACITATED", "BLEEDING"} <= set(result.character.conditions)
    assert ms.state_of(result.character)["severed"] == [location] and result.referee_prompts


@pytest.mark.parametrize("face", [11, 12])
def test_M_SEVER_01_the_head_is_instant_death_a_helmet_save_makes_it_stunned(face: int) -> None:
    """M-SEVER-01, AMB-94: 11–12 is the head: death; with a helmet a CON SAVE (d20 + 4 vs 15) makes it STUNNED for
    one round, with no limb lost and no bleeding."""
    dead, _ = roll_total(20, [face])
    assert dead.character.dead and dead.location == "Head"
    saved, dice = roll_total(20, [face, 11], helmet=True, room_dc=15)
    assert saved.character.alive and dice.remaining == 0 and saved.timers == ()
    assert [(c.name, c.amount) for c in saved.conditions] == [("STUNNED", 1)]
    failed, _ = roll_total(20, [face, 10], helmet=True, room_dc=15)
    assert failed.character.dead


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
    assert same is campaign and events[0].data["referee_prompt"]
    cured, _ = ms.cure(campaign, "Hero", "lay on hands", rules=RULES, approved=True)
    assert cured.clock.entries == ()
    with pytest.raises(ms.MiddleSeaError, match="loh_counts_as_cure_serious"):
        ms.cure(campaign, "Hero", "lay on hands", rules=RULES.with_options({"loh_counts_as_cure_serious": False}))
    with pytest.raises(ms.MiddleSeaError, match="unknown cure"):
        ms.cure(campaign, "Hero", "prayer", rules=RULES)


def test_M_GRIEV_09_instant_death() -> None:
    """M-GRIEV-09: 21+ kills outright; an excess of 18 or more always does."""
    result, dice = roll_total(21, [])
    assert result.character.dead == "killed outright: grievous injury 21" and dice.remaining == 0
    with pytest.raises(CharacterError, match="dead"):
        ms.grievous(result.character, 1, ScriptedDice([1, 1, 1]), RULES)


def test_D_4_exactly_zero_hp_is_knocked_down_with_no_roll() -> None:
    """D-4, AMB-91 a: a blow to exactly 0 rolls nothing: knocked down, conscious (option middle_sea_zero_hp);
    'unconscious' is the AD&D reading."""
    dice = ScriptedDice([])
    result = ms.take_blow(hero(), 10, dice, RULES)
    assert (result.band, result.character.hp, result.character.conditions) == ("exactly_zero", 0, ["KNOCKED_DOWN"])
    other = ms.take_blow(hero(), 10, dice, RULES.with_options({"middle_sea_zero_hp": "unconscious"}))
    assert other.character.conditions == ["UNCONSCIOUS"]
    with pytest.raises(ms.MiddleSeaError, match="excess of 1"):
        ms.grievous(hero(), 0, dice, RULES)


def test_M_GRIEV_01_AMB_91_b_a_blow_past_zero_rolls_with_the_excess() -> None:
    """M-GRIEV-01: 14 damage on 10 HP rolls 3d6 + 4; AMB-91 b: a character already at 0 rolls with all the
    damage; a lesser blow only takes HP."""
    result = ms.take_blow(hero(), 14, ScriptedDice([1, 1, 1]), RULES)
    assert (result.total, result.band, result.character.hp) == (7, "knocked_down", 0)
    assert result.events[0].kind == "damage"
    again = ms.take_blow(result.character, 4, ScriptedDice([1, 1, 1]), RULES)
    assert again.total == 7
    hurt = ms.take_blow(hero(), 4, ScriptedDice([]), RULES)
    assert (hurt.band, hurt.character.hp) == ("hurt", 6)


def test_M_MOOK_01_most_npcs_are_out_of_the_fight_at_zero() -> None:
    """M-MOOK-01, REF-42 (option npc_grievous): an NPC not flagged named is out of the fight at 0 with no roll;
    a named one rolls; under 'all' every NPC rolls."""
    mook = ms.take_blow(hero(name="Guard"), 15, ScriptedDice([]), RULES, npc=True)
    assert mook.band == "out_of_fight" and mook.referee_prompts and mook.character.conditions == ["INCAPACITATED"]
    named = ms.take_blow(hero(name="Captain"), 15, ScriptedDice([1, 1, 1]), RULES, npc=True, named=True)
    assert named.band == "knocked_down"
    every = ms.take_blow(hero(name="Guard"), 15, ScriptedDice([1, 1, 1]),
                         RULES.with_options({"npc_grievous": "all"}), npc=True)
    assert every.total == 8


def test_M_GRIEV_10_fire_breaks_no_bones_arrows_sever_no_arms() -> None:
    """M-GRIEV-10, REF-40: the referee's vetoes by damage type stop the result with a referee prompt: fire gives
    no broken bone (no location roll); an arrow severs no arm (after the d12) but may sever a leg."""
    fire, dice = roll_total(15, [], damage_type="fire")
    assert fire.vetoed and fire.referee_prompts and dice.remaining == 0 and fire.character.injuries == []
    arm, dice = roll_total(19, [7], damage_type="arrows")
    assert arm.vetoed and arm.location == "R. Arm" and arm.timers == () and dice.remaining == 0
    leg, _ = roll_total(19, [2, 2, 3], damage_type="arrow")
    assert leg.vetoed is None and leg.timers


def test_M_GRIEV_10_vetoes_are_data() -> None:
    """M-GRIEV-10: vetoes come from the caller, or from a referee's table `house:grievous-vetoes`."""
    cold, _ = roll_total(10, [], damage_type="cold", vetoes={"cold": [{"band": "stunned"}]})
    assert cold.vetoed and cold.conditions == ()
    table = validate_table({"id": "house:grievous-vetoes", "name": "grievous-vetoes", "title": "Vetoes",
                            "source": "referee", "kind": "keyed",
                            "rows": [{"key": "acid", "text": "acid breaks no bones",
                                      "data": {"veto": [{"band": "broken_bone"}]}}]}, "<test>")
    house = type(RULES)(RULES.profile, RULES.values, RULES.tables.with_table(table))
    assert ms.vetoes_in_force(house) == {"acid": [{"band": "broken_bone"}]}
    fire, _ = roll_total(15, [6, 1, 1], damage_type="fire", rules=house)
    assert fire.vetoed is None


def test_M_SEVER_02_sword_of_sharpness_uses_the_limb_table() -> None:
    """M-SEVER-02 (optional): a Sword of Sharpness may use the severed-limb table (d12) for the place."""
    assert ms.sharpness_location(ScriptedDice([7]), RULES).row.data["location"] == "R. Arm"


def test_M_GRIEV_wound_on_a_campaign() -> None:
    """M-GRIEV-01, M-GRIEV-07: `wound` takes the blow on a campaign's character and puts its timer on the clock."""
    campaign = Campaign(characters={"Hero": hero()})
    campaign, result = ms.wound(campaign, "Hero", 24, ScriptedDice([1, 1, 1, 5]), RULES)
    assert result.band == "fatal_wound" and [e.kind for e in campaign.clock.entries] == ["fatal_wound"]
    assert ms.state_of(campaign.characters["Hero"])["timers"][0]["entry"] == campaign.clock.entries[0].id
