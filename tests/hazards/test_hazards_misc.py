"""Hazards ability loss, falling, drink, poison, mapping and death at −3.

RULES.md H-ABIL-01 (a score change recomputes the modifier: STR 13 → 12 loses the +1), H-ABIL-02 (CON modifier →
HP only under con_change_hp = retroactive, CF-37, AMB-79), H-ABIL-03 (0 kills), H-FALL-01 (1d6 per 10', at most
20d6, AMB-74), H-DRUG-01/02 (drugs; drunk −2 DEX and −2 saves, AMB-80), H-POIS-01 (save or all of the effect,
AMB-82), H-MAP-01 (paper, ink, two free hands), H-DMG-01..03 (the hazards death model, through an encounter).
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.dice import ScriptedDice
from furnace.hazards import (
    Toxin,
    ToxinEffect,
    can_map,
    drink,
    fall,
    fall_damage,
    fall_dice,
    hazard_save,
    make_drunk,
    poison,
    set_score,
    sober_up,
)
from furnace.play.checks import OptionOffError
from furnace.play.clock import HOUR, Campaign, advance
from furnace.play.encounter import Action, take_turn
from furnace.play.registry import DEATH_MODELS
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import encounter, fighter, monster, pc

HAZARDS = load_ruleset("hazards")
SCORES = {"STR": 13, "DEX": 12, "CON": 13, "INT": 10, "WIS": 10, "CHA": 10}
FLO: dict[str, Any] = dict(name="Flo", level=3, scores=SCORES, hp_max=20, hp=15)   # a level-3 Fighter at 15 HP of 20
VETERAN: dict[str, Any] = dict(level=5, prof=3, hp_max=20, damage="1d6", con_mod=2, scores=SCORES)   # CON +2
OGRE: dict[str, Any] = dict(hp=9, hp_max=9, saves={})   # 9 HP, ATK +2, 1d6


# -- ability loss (H-ABIL-01..03) ------------------------------------------------------------------------------
def test_H_ABIL_01_STR_13_to_12_loses_the_modifier() -> None:
    """H-ABIL-01: STR 13 → 12: the modifier +1 → 0, nothing else changes."""
    after, events = set_score(fighter(FLO), "STR", 12, HAZARDS, "a curse")
    assert after.mod("STR") == 0 and (events[0].data["modifier_before"], events[0].data["modifier_after"]) == (1, 0)
    assert (after.hp, after.hp_max) == (15, 20)


def test_H_ABIL_02_CF_37_CON_change_moves_HP_only_when_retroactive() -> None:
    """H-ABIL-02, CF-37, AMB-79: CON 13 → 12 (+1 → 0): none (default) leaves HP; retroactive takes 1 × 3 HD from
    current and maximum HP."""
    kept, _ = set_score(fighter(FLO), "CON", 12, HAZARDS, "disease")
    assert (kept.hp, kept.hp_max) == (15, 20)
    retro = load_ruleset("hazards", {"con_change_hp": "retroactive"})
    after, events = set_score(fighter(FLO), "CON", 12, retro, "disease")
    assert (after.hp, after.hp_max) == (12, 17) and events[-1].kind == "con_hp"


def test_H_ABIL_03_a_score_of_0_kills() -> None:
    """H-ABIL-03, F-ABIL-05: any score at 0 → dead (character.dead set)."""
    after, events = set_score(fighter(FLO), "WIS", 0, HAZARDS, "a mind flayer")
    assert after.dead and not after.alive and [e.kind for e in events] == ["ability", "death"]


# -- falling (H-FALL-01) -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("feet", "expression"), [(9, None), (10, "1d6"), (19, "1d6"), (100, "10d6"), (200, "20d6"),
                                                  (250, "20d6"), (1000, "20d6")])
def test_H_FALL_01_AMB_74_dice_per_10_feet_capped_at_20(feet: int, expression: str | None) -> None:
    """H-FALL-01, AMB-74, H-TAB-05: min(floor(feet / 10), 20) d6; 9 feet does nothing."""
    assert fall_dice(feet, HAZARDS) == expression


def test_H_FALL_01_a_250_foot_fall_rolls_exactly_20d6() -> None:
    """H-FALL-01: 250 feet rolls 20 dice (of 21 scripted, one is left): 20 × 3 = 60 damage."""
    dice = ScriptedDice([3] * 21)
    roll = fall_damage(250, dice, HAZARDS)
    assert roll is not None and roll.total == 60 and len(roll.faces) == 20 and dice.remaining == 1


def test_H_FALL_01_falls_take_HP_and_kill_at_minus_3() -> None:
    """H-FALL-01, H-DMG-01..03: 30 feet (3d6 = 6+6+6) on HP 15 → −3: dead under the hazards death model."""
    after, events = fall(fighter(FLO), 30, ScriptedDice([6, 6, 6]), HAZARDS)
    assert after.hp == -3 and after.dead and [e.kind for e in events] == ["fall", "damage", "death"]
    after, _ = fall(fighter(FLO), 30, ScriptedDice([5, 5, 5]), HAZARDS)
    assert after.hp == 0 and after.alive and "UNCONSCIOUS" in after.conditions
    assert fall(fighter(FLO), 9, ScriptedDice([]), HAZARDS)[0] == fighter(FLO)


def test_AMB_74_rounding_up_is_an_option() -> None:
    """AMB-74, option fall_rounding = up: any part of 10 feet counts: 9 feet → 1d6."""
    assert fall_dice(9, load_ruleset("hazards", {"fall_rounding": "up"})) == "1d6"


# -- drink, drugs and poison (H-DRUG-01/02, H-POIS-01) -----------------------------------------------------------
def test_H_DRUG_02_AMB_80_drunk_is_minus_2_DEX_and_minus_2_saves() -> None:
    """H-DRUG-02, AMB-80: DRUNK in the conditions, DEX score 12 → 10, and −2 on a save (CON +1: 12 + 1 − 2 = 11);
    sober again: DEX 12."""
    drunk, _ = make_drunk(fighter(FLO), HAZARDS)
    assert "DRUNK" in drunk.conditions and drunk.scores["DEX"] == 10
    save = hazard_save(drunk, "poison", ScriptedDice([12]), HAZARDS, "a test")
    assert save.total == 11 and not save.success
    sober, _ = sober_up(drunk, HAZARDS)
    assert "DRUNK" not in sober.conditions and sober.scores["DEX"] == 12


def test_H_DRUG_02_the_modifier_reading() -> None:
    """AMB-80, option drunk_dex_penalty = modifier: the DEX score stays 12; a DEX SAVE is d20 10 + DEX 0 − 2 (the
    DEX modifier) − 2 (saves) = 6."""
    rules = load_ruleset("hazards", {"drunk_dex_penalty": "modifier", "save_vs_poison": "DEX"})
    drunk, _ = make_drunk(fighter(FLO), rules)
    assert drunk.scores["DEX"] == 12
    assert hazard_save(drunk, "poison", ScriptedDice([10]), rules, "a test").total == 6


def test_AMB_80_drunk_for_4_hours_on_the_clock() -> None:
    """AMB-80, option drunk_duration_hours: sober again 4 hours later."""
    camp, _ = drink(Campaign(characters={"Flo": fighter(FLO)}), "Flo", HAZARDS)
    camp, events = advance(camp, 4, "hour", ScriptedDice([]), HAZARDS)
    assert events[0].kind == "sober" and events[0].data["at"] == 4 * HOUR
    assert camp.characters["Flo"].scores["DEX"] == 12


def test_H_POIS_01_save_or_the_whole_effect() -> None:
    """H-POIS-01, AMB-82: a death poison: 11 + 1 = 12 saves (nothing at all), 10 + 1 fails (dead)."""
    asp = Toxin(name="asp venom", effect=ToxinEffect(kind="death"))
    safe, events = poison(fighter(FLO), asp, ScriptedDice([11]), HAZARDS)
    assert safe == fighter(FLO) and events[0].kind == "poison_save"
    dead, _ = poison(fighter(FLO), asp, ScriptedDice([10]), HAZARDS)
    assert dead.dead


def test_AMB_82_a_poison_with_its_own_DC_and_sleep() -> None:
    """AMB-82: a poison's own DC 15: 13 + 1 = 14 fails → deep sleep (UNCONSCIOUS)."""
    lotus = Toxin(name="black lotus", dc=15, effect=ToxinEffect(kind="condition", condition="UNCONSCIOUS"))
    after, events = poison(fighter(FLO), lotus, ScriptedDice([13]), HAZARDS)
    assert events[0].data["dc"] == 15 and "UNCONSCIOUS" in after.conditions


def test_H_DRUG_01_no_save_when_taken_on_purpose() -> None:
    """H-DRUG-01: a drug taken on purpose has no save: its milder effect (WIS −1, temporary) applies."""
    weed = Toxin(name="dreamweed", drug=True, effect=ToxinEffect(kind="ability_loss", ability="WIS"))
    after, events = poison(fighter(FLO), weed, ScriptedDice([]), HAZARDS, intentional=True)
    assert after.scores["WIS"] == 9 and events[0].kind == "drug"
    with pytest.raises(OptionOffError):
        poison(fighter(FLO), weed, ScriptedDice([]), load_ruleset(), intentional=True)


# -- mapping (H-MAP-01) ---------------------------------------------------------------------------------------
def test_H_MAP_01_paper_ink_and_two_free_hands() -> None:
    """H-MAP-01: paper and ink and nothing in hand: can map; a torch in hand, a shield, or no ink: cannot."""
    scribe = fighter(FLO, items=["paper", "ink", "rope"])
    assert can_map(scribe, rules=HAZARDS).can_map
    assert not can_map(scribe, ["torch"], HAZARDS).can_map
    assert not can_map(scribe.model_copy(update={"shield": True}), rules=HAZARDS).can_map
    check = can_map(fighter(FLO, items=["paper"]), rules=HAZARDS)
    assert not check.can_map and check.reasons == ("no ink",) and check.event().kind == "mapping"


# -- death at −3 (H-DMG-01..03) through the encounter ------------------------------------------------------------
def test_H_DMG_02_03_the_hazards_death_model_in_an_encounter() -> None:
    """H-DMG-02/03, CF-30: an ogre's blow (d20 15 hits AC 12; 1d6 = 4): HP 2 → −2 unconscious, no timer; HP 1 → −3
    dead, whatever the level and CON (the furnace model would leave a level-5, CON +2 PC dying)."""
    assert "hazards" in DEATH_MODELS
    enc, _ = take_turn(encounter(pc(VETERAN, hp=2), monster(OGRE)), "b", Action("attack", "a"), ScriptedDice([15, 4]),
                       HAZARDS)
    assert (enc.get("a").hp, enc.get("a").status, enc.get("a").dying_turns) == (-2, "unconscious", None)
    enc, events = take_turn(encounter(pc(VETERAN, hp=1), monster(OGRE)), "b", Action("attack", "a"),
                            ScriptedDice([15, 4]), HAZARDS)
    assert (enc.get("a").hp, enc.get("a").status) == (-3, "dead") and "death" in [e.kind for e in events]
    enc, _ = take_turn(encounter(pc(VETERAN, hp=1), monster(OGRE)), "b", Action("attack", "a"),
                       ScriptedDice([15, 4, 2]), load_ruleset())
    assert enc.get("a").status == "dying"


def test_H_unknown_characters_are_named() -> None:
    """PART H: a campaign rule asked for a character who is not there raises UnknownNameError naming who is."""
    from furnace.errors import UnknownNameError
    from furnace.hazards import infect, knock_out, packaged_disease

    camp = Campaign(characters={"Flo": fighter(FLO)})
    for call in (lambda: drink(camp, "Nobody", HAZARDS), lambda: knock_out(camp, "Nobody", ScriptedDice([]), HAZARDS),
                 lambda: infect(camp, "Nobody", packaged_disease("Green River Fever", HAZARDS), HAZARDS)):
        with pytest.raises(UnknownNameError, match="Flo"):
            call()
