"""Middle Sea grievous injuries outside the encounter engine (`furnace.houserules.middle_sea.grievous_injury`).

RULES.md M-GRIEV-01..10, M-BONE-01, M-SEVER-01/02, D-5, AMB-91..94 (M-TAB-01..03). Every test scripts the
dice: 3d6 shows [1, 1, 1] and the excess makes the total wanted (`tests.helpers.factories.roll_total`).
"""

from __future__ import annotations

import pytest

from furnace.characters.character import CharacterError
from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.render.story import tell_referee
from furnace.rules.ruleset import load_ruleset
from furnace.rules.tables import validate_table
from tests.helpers.factories import SEA_HERO, character, roll_total

RULES = load_ruleset("middle-sea")


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
    result, dice = roll_total(14, [], character=character(SEA_HERO, helmet=True))
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
    assert any(e.data.get("both_legs") and 'crawls at 1"' in tell_referee(e) for e in second.events)


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


def test_M_GRIEV_09_instant_death() -> None:
    """M-GRIEV-09: 21+ kills outright; an excess of 18 or more always does."""
    result, dice = roll_total(21, [])
    assert result.character.dead == "killed outright: grievous injury 21" and dice.remaining == 0
    with pytest.raises(CharacterError, match="dead"):
        ms.grievous(result.character, 1, ScriptedDice([1, 1, 1]), RULES)


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
