"""Effects applied to an encounter (`furnace.play.apply`): one test per effect kind of APPLIERS, and every row of
the crit, fumble, injury and lingering-injury tables applied without raising.

RULES.md F-CRIT-01 (crit rows, AMB-23, AMB-25), F-FUMB-01 (fumble rows), F-INJ-01/02 (injury rows), F-ABIL-05
(a score at 0 kills), AMB-03 (durations), AMB-05 / D-5 (save categories → ability SAVEs), AMB-20/22
(conditions), D-7 (until rest), D-12 / AMB-33 (heal 1 Hit Die), AMB-35 (damaged armor −2 AC).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from furnace.events import Event
from furnace.play.apply import APPLIERS, apply_all
from furnace.play.combatant import Combatant
from furnace.play.conditions import modifier_name
from furnace.play.encounter import Action, act, attack, start_turn
from furnace.play.encounter import _extra_attacks as run_extra_attacks
from furnace.play.state import Step
from furnace.rules.effects import parse_effect
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import encounter, monster, pc, step
from tests.helpers.story import said

RULES = load_ruleset()
SCORES = {"STR": 12, "DEX": 12, "CON": 12, "INT": 12, "WIS": 12, "CHA": 12}
SAVES = {"STR": 0, "DEX": 0, "CON": 0, "INT": 0, "WIS": 0, "CHA": 0}
PC: dict[str, Any] = dict(level=5, prof=3, hp=20, hp_max=30, weapon="longsword", hit_die="d10", scores=SCORES,
                         saves=SAVES)   # a level-5 Fighter (PROF 3) at 20 HP of 30, longsword 1d8, d10 Hit Die
MON: dict[str, Any] = dict(level=2, hp=30, hp_max=30, weapon="spear")   # a level-2 spearman, 30 HP


def apply(s: Step, *effects: dict[str, Any], actor: str = "a", target: str = "b") -> None:
    apply_all(s, [parse_effect(e) for e in effects], actor=actor, target=target)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def held(c: Combatant, name: str) -> Any:
    found = [h for h in c.held if h.name == name]
    assert len(found) == 1, f"{c.name} holds {[h.name for h in c.held]}"
    return found[0]


def test_every_applier_kind_is_a_known_effect_kind() -> None:
    """Every effect kind a table can name has an applier (nothing silently dropped)."""
    from furnace.rules.effects import EFFECT_KINDS

    assert set(EFFECT_KINDS) <= set(APPLIERS)


# -- damage ------------------------------------------------------------------------------------------------------
def test_damage_rolled() -> None:
    """F-CRIT-01 / AMB-23: a row's '+1d6 DAM' is rolled (face 4) and taken by the target: HP 30 → 26."""
    s, dice = step(pc(PC), monster(MON), faces=[4])
    apply(s, {"kind": "damage", "dice": "1d6"})
    assert s.c("b").hp == 26 and dice.remaining == 0


def test_damage_maximum_rolls_nothing() -> None:
    """F-CRIT-01: maximum damage — 2d6+1 deals 13 without rolling a die."""
    s, _ = step(pc(PC), monster(MON), faces=[])
    apply(s, {"kind": "damage", "dice": "2d6+1", "maximum": True})
    assert s.c("b").hp == 17


def test_damage_reads_the_attackers_level() -> None:
    """F-CRIT-01: a row's dice may name PC_LVL, the attacker's level: 1d4+PC_LVL (face 2, level 5) = 7."""
    s, _ = step(pc(PC), monster(MON), faces=[2])
    apply(s, {"kind": "damage", "dice": "1d4+PC_LVL"})
    assert s.c("b").hp == 23


# -- heal --------------------------------------------------------------------------------------------------------
def test_heal_gets_a_dying_character_up_and_stops_at_max() -> None:
    """F-DEATH-01, AMB-28: healing a dying PC (HP −2) counts from 0 — 1d8 face 5 → HP 5, up, timer gone; a heal
    never passes max HP (28 + 5 → 30)."""
    s, _ = step(pc(PC, hp=-2, status="dying", dying_turns=2), faces=[5])
    apply(s, {"kind": "heal", "dice": "1d8", "target": "self"}, target="a")
    a = s.c("a")
    assert (a.hp, a.status, a.dying_turns) == (5, "up", None)
    s, _ = step(pc(PC, hp=28), faces=[5])
    apply(s, {"kind": "heal", "dice": "1d8", "target": "self"}, target="a")
    assert s.c("a").hp == 30


def test_heal_one_hit_die_rolls_the_class_die() -> None:
    """AMB-33 / D-12, F-TAB-37b row 20: 'heal 1 Hit Die' rolls the class die — a d10 Fighter, face 6: HP 2 → 8."""
    s, dice = step(pc(PC, hp=2), faces=[6])
    apply(s, {"kind": "heal", "dice": "1", "unit": "hit_die", "target": "self"}, target="a")
    assert s.c("a").hp == 8 and dice.remaining == 0


# -- condition ---------------------------------------------------------------------------------------------------
def test_condition_for_1d4_rounds() -> None:
    """AMB-03: 'STUNNED for 1d4 rounds' in round 2 with face 3 holds until round 5."""
    s, dice = step(pc(PC), monster(MON), faces=[3], round=2)
    apply(s, {"kind": "condition", "name": "STUNNED", "duration": {"amount": "1d4", "unit": "round"}})
    h = held(s.c("b"), "STUNNED")
    assert (h.ending, h.until_round) == ("round", 5) and dice.remaining == 0


def test_condition_until_next_turn() -> None:
    """AMB-03 / CF-14: 'next turn' in round 4 ends at the holder's turn in round 5 (no die rolled)."""
    s, _ = step(pc(PC), monster(MON), faces=[], round=4)
    apply(s, {"kind": "condition", "name": "CANT_MOVE", "duration": {"amount": "1", "unit": "next_turn"}})
    h = held(s.c("b"), "CANT_MOVE")
    assert (h.ending, h.until_round) == ("round", 5)


def test_condition_until_stands() -> None:
    """AMB-20: PRONE lasts until the creature stands (at its next turn start)."""
    s, _ = step(pc(PC), monster(MON), faces=[])
    apply(s, {"kind": "condition", "name": "PRONE", "duration": {"amount": "1", "unit": "until_stands"}})
    assert held(s.c("b"), "PRONE").ending == "stands"
    s.enc = s.enc.model_copy(update={"round": 2})
    start_turn(s, "b")
    assert s.c("b").held == ()


def test_condition_until_rest_and_without_duration() -> None:
    """D-7: an 'until rest' condition ends at a rest; with no duration a condition lasts the encounter."""
    s, _ = step(pc(PC), monster(MON), faces=[])
    apply(s, {"kind": "condition", "name": "WEAK", "duration": {"amount": "1", "unit": "until_rest"}},
          {"kind": "condition", "name": "BLINDED"})
    assert held(s.c("b"), "WEAK").ending == "rest" and held(s.c("b"), "BLINDED").ending == "encounter"
    s.enc = s.enc.model_copy(update={"round": 9})
    start_turn(s, "b")
    assert {h.name for h in s.c("b").held} == {"WEAK", "BLINDED"}


# -- save --------------------------------------------------------------------------------------------------------
STUN = {"kind": "condition", "name": "STUNNED"}


def test_save_on_fail() -> None:
    """AMB-25: CON SAVE DC 10+PC_LVL (level 5 → 15); d20+2 face 12 = 14 fails → STUNNED."""
    s, dice = step(pc(PC), monster(MON), faces=[12])
    apply(s, {"kind": "save", "ability": "CON", "dc": "10+PC_LVL", "on_fail": [STUN]})
    assert said(s.events[0]) == "CON SAVE 14 vs DC 15: failed"
    assert "STUNNED" in {h.name for h in s.c("b").held} and dice.remaining == 0


def test_save_on_success() -> None:
    """AMB-25, F-BASE-03 (meet or beat): d20+2 face 13 = 15 vs DC 15 holds → on_success (3 DAM), no on_fail."""
    s, _ = step(pc(PC), monster(MON), faces=[13])
    apply(s, {"kind": "save", "ability": "CON", "dc": "10+PC_LVL", "on_fail": [STUN],
              "on_success": [{"kind": "damage", "dice": "3"}]})
    assert said(s.events[0]) == "CON SAVE 15 vs DC 15: saved"
    assert s.c("b").hp == 27 and s.c("b").held == ()


def test_save_vs_poison_is_a_con_save() -> None:
    """AMB-05 / D-5: 'save vs. poison' is a CON SAVE (option save_vs_poison, default CON): with CON +5 and
    DEX 0, d20 face 10 → 15 meets DC 15; switched to DEX, the same face gives 10 and fails."""
    target = monster(MON, saves={**SAVES, "CON": 5})
    s, _ = step(pc(PC), target, faces=[10])
    apply(s, {"kind": "save", "category": "poison", "dc": "15", "on_fail": [STUN]})
    assert said(s.events[0]) == "CON SAVE 15 vs DC 15: saved" and s.c("b").held == ()
    s, _ = step(pc(PC), target, faces=[10], rules=load_ruleset(overrides={"save_vs_poison": "DEX"}))
    apply(s, {"kind": "save", "category": "poison", "dc": "15", "on_fail": [STUN]})
    assert said(s.events[0]) == "DEX SAVE 10 vs DC 15: failed" and s.c("b").held != ()


def test_save_dc_room_dc() -> None:
    """AMB-34: a lingering-injury SAVE is against the ROOM DC (12): d20+0 face 11 fails."""
    s, _ = step(pc(PC), faces=[11])
    apply(s, {"kind": "save", "ability": "CON", "dc": "ROOM_DC", "target": "self", "on_fail": [STUN]},
          target="a")
    assert said(s.events[0]) == "CON SAVE 11 vs DC 12: failed"


# -- modifier ----------------------------------------------------------------------------------------------------
def test_modifier_atk_against_easy_moves_the_ac() -> None:
    """F-TAB-31 row 9, F-BASE-04: 'the foe is EASY to hit' — the next ATK against it is at AC 12 − 3 = 9."""
    s, _ = step(pc(PC, attack_bonus=0), monster(MON), faces=[9, 1])
    apply(s, {"kind": "modifier", "applies_to": "atk_against", "mode": "EASY"})
    assert held(s.c("b"), modifier_name("atk_against", "EASY")).ending == "encounter"
    attack(s, "a", "b")
    assert any(e.kind == "hit" and "vs AC 9" in said(e) for e in s.events)


def test_modifier_next_atk_hard_is_spent_by_one_attack() -> None:
    """F-TAB-36 row 3: 'your next ATK is HARD' — AC 12 + 3 = 15 for one ATK, then gone."""
    s, _ = step(pc(PC, attack_bonus=0), monster(MON), faces=[14])
    apply(s, {"kind": "modifier", "applies_to": "next_atk", "mode": "HARD", "target": "self"})
    attack(s, "a", "b")
    assert s.events[-1].kind == "miss" and "(14 vs AC 15: AC 12, HARD as its next attack is HARD)" in said(s.events[-1])
    assert s.c("a").held == ()


def test_modifier_bonus_value_is_kept() -> None:
    """A flat modifier keeps its value and duration (until rest, D-7)."""
    s, _ = step(pc(PC), monster(MON), faces=[])
    apply(s, {"kind": "modifier", "applies_to": "checks", "mode": "HARD", "target": "self",
              "duration": {"amount": "1", "unit": "until_rest"}},
          {"kind": "modifier", "applies_to": "damage", "mode": "BONUS", "value": 2})
    assert held(s.c("a"), modifier_name("checks", "HARD")).ending == "rest"
    assert held(s.c("b"), modifier_name("damage", "BONUS")).value == 2


# -- extra_attack ------------------------------------------------------------------------------------------------
def test_extra_attack_once() -> None:
    """F-TAB-31 row 6, AMB-23: 'One more ATK' — a level-1 Fighter's crit (d6 face 6) gives one immediate ATK on
    the same foe (d20+3 face 10 = 13 hits, 1d8 face 3): HP 30 − 8 (max) − 3 = 19; exactly four dice."""
    s, dice = step(pc(PC, level=1), monster(MON), faces=[20, 6, 10, 3])
    act(s, "a", Action("attack", "b"))
    assert kinds(s.events).count("hit") == 2 and s.c("b").hp == 19 and dice.remaining == 0


def test_extra_attack_until_miss() -> None:
    """AMB-23: 'keep making ATKs at foes NEAR until one misses' — hit (face 15, DAM 2), hit (face 15, DAM 2),
    miss (face 2): three ATKs, then no more."""
    s, dice = step(pc(PC), monster(MON), faces=[15, 2, 15, 2, 2])
    apply(s, {"kind": "extra_attack", "target": "any_near", "repeat": "until_miss"})
    assert s.queue == [("a", "b", {"target": "any_near", "repeat": "until_miss", "only_if": None})]
    run_extra_attacks(s)
    assert kinds(s.events).count("hit") == 2 and kinds(s.events).count("miss") == 1
    assert s.c("b").hp == 26 and dice.remaining == 0


def test_extra_attack_after_beheading_row_28() -> None:
    """F-TAB-31 row 28+, AMB-23: a level-10 Fighter's crit die d20+10 face 18 → 28: B dies, and A keeps
    attacking the foe NEAR (C): hit (face 15, DAM 2), then a miss (face 2)."""
    s, dice = step(pc(PC, level=10), monster(MON), monster("c", MON), faces=[20, 18, 15, 2, 2])
    act(s, "a", Action("attack", "b"))
    assert s.c("b").status == "dead" and s.c("c").hp == 28 and dice.remaining == 0


def test_extra_attack_if_the_foe_dies_row_19() -> None:
    """F-TAB-31 row 19: '+2d10 DAM; if the foe dies, ATK another foe NEAR' — level 5 (d20) face 19; B (HP 10)
    takes max 8 then 2d10 (5+5) and dies; A attacks C (face 15 hits, 1d8 face 3): C's HP 30 → 27."""
    s, dice = step(pc(PC), monster(MON, hp=10, hp_max=10), monster("c", MON), faces=[20, 19, 5, 5, 15, 3])
    act(s, "a", Action("attack", "b"))
    assert s.c("b").status == "dead" and s.c("c").hp == 27 and dice.remaining == 0


# -- attack ------------------------------------------------------------------------------------------------------
def test_attack_a_random_ally() -> None:
    """F-TAB-36 row 11: the roller ATKs a random ally — the pick (face 1 of 2 → X) is queued as an ATK of the
    roller on X, a plain ATK (no crit, no fumble)."""
    s, dice = step(pc(PC), pc("x", PC), pc("y", PC), monster(MON), faces=[1, 15, 4])
    apply(s, {"kind": "attack", "target": "random_ally"}, target="a")
    assert s.queue == [("a", "x", {"target": "same", "repeat": "once", "only_if": None, "plain": True,
                                   "auto_hit": False})]
    run_extra_attacks(s)
    assert s.c("x").hp == 16 and s.c("y").hp == 20 and dice.remaining == 0


def test_attack_random_ally_with_no_ally_does_nothing() -> None:
    """F-TAB-36 row 11, AMB-27: with no ally the row is a plain miss — nothing queued, no die."""
    s, dice = step(pc(PC), monster(MON), faces=[])
    apply(s, {"kind": "attack", "target": "random_ally"}, target="a")
    assert s.queue == [] and dice.remaining == 0


# -- ability_loss ------------------------------------------------------------------------------------------------
def test_ability_loss_subtracts() -> None:
    """F-INJ-01, F-TAB-37b row 2: Strength score −1d6 (face 4): 12 → 8."""
    s, _ = step(pc(PC), faces=[4])
    apply(s, {"kind": "ability_loss", "ability": "STR", "dice": "1d6"}, target="a")
    assert s.c("a").scores["STR"] == 8 and s.c("a").status == "up"


def test_F_ABIL_05_ability_loss_to_0_kills() -> None:
    """F-ABIL-05, F-DEATH-02 (4): CON 3 − 1d6 (face 4) stops at 0, and the character dies."""
    s, _ = step(pc(PC, scores={**SCORES, "CON": 3}), faces=[4])
    apply(s, {"kind": "ability_loss", "ability": "CON", "dice": "1d6"}, target="a")
    a = s.c("a")
    assert a.scores["CON"] == 0 and a.status == "dead" and "F-ABIL-05" in s.events[-1].rules


def test_ability_loss_halve() -> None:
    """H-STARV-03 / AMB-75: 'drops by half' rounds down: CON 13 → 6."""
    s, _ = step(pc(PC, scores={**SCORES, "CON": 13}), faces=[])
    apply(s, {"kind": "ability_loss", "ability": "CON", "mode": "halve"}, target="a")
    assert s.c("a").scores["CON"] == 6


# -- death -------------------------------------------------------------------------------------------------------
def test_death_instant() -> None:
    """F-TAB-31 row 24 (failed SAVE) / row 28+: the foe dies at once."""
    s, dice = step(pc(PC), monster(MON), faces=[])
    apply(s, {"kind": "death"})
    assert s.c("b").status == "dead" and kinds(s.events) == ["death"] and dice.remaining == 0


def test_death_with_a_timer_kills_at_the_doomed_round() -> None:
    """F-TAB-31 rows 23/27: 'dies in 1d4 rounds' in round 1 with face 2 → it dies at its turn in round 3, not in
    round 2."""
    s, _ = step(pc(PC), monster(MON), faces=[2])
    apply(s, {"kind": "death", "timer": {"amount": "1d4", "unit": "round"}})
    assert s.c("b").doomed_round == 3 and s.c("b").status == "up"
    s.enc = s.enc.model_copy(update={"round": 2})
    assert start_turn(s, "b") is True and s.c("b").status == "up"
    s.enc = s.enc.model_copy(update={"round": 3})
    assert start_turn(s, "b") is False and s.c("b").status == "dead"


# -- slay --------------------------------------------------------------------------------------------------------
SLAY = {"kind": "slay", "when": "target_hp_below_attacker_hp", "otherwise": [{"kind": "damage", "dice": "2d12"}]}


def test_slay_when_the_foes_hp_are_below_the_attackers() -> None:
    """F-TAB-31 row 20, AMB-23: current HP 19 < the attacker's 20 → the foe dies outright (no die)."""
    s, dice = step(pc(PC, hp=20), monster(MON, hp=19), faces=[])
    apply(s, SLAY)
    assert s.c("b").status == "dead" and dice.remaining == 0


def test_slay_otherwise_2d12() -> None:
    """F-TAB-31 row 20: HP 20 is not below 20 → 2d12 DAM instead (faces 3, 4): HP 20 → 13."""
    s, dice = step(pc(PC, hp=20), monster(MON, hp=20), faces=[3, 4])
    apply(s, SLAY)
    assert s.c("b").status == "up" and s.c("b").hp == 13 and dice.remaining == 0


# -- hp_fraction_loss --------------------------------------------------------------------------------------------
def test_hp_fraction_loss_half_of_current_rounded_down() -> None:
    """F-TAB-31 row 22, AMB-23: the foe loses half its current HP, rounded down: 9 → loses 4 → 5."""
    s, _ = step(pc(PC), monster(MON, hp=9), faces=[])
    apply(s, {"kind": "hp_fraction_loss", "fraction": "1/2", "of": "current"})
    assert s.c("b").hp == 5


# -- weapon ------------------------------------------------------------------------------------------------------
def test_weapon_drop_cannot_attack_next_turn() -> None:
    """F-TAB-36 row 7 / F-TAB-31 row 4: a dropped or knocked-away weapon — no ATK on the next turn (round 1 →
    until round 2)."""
    s, _ = step(pc(PC), monster(MON), faces=[])
    apply(s, {"kind": "weapon", "action": "drop"})
    h = held(s.c("b"), "CANT_ATTACK")
    assert (h.ending, h.until_round) == ("round", 2)


def test_weapon_sunder_leaves_a_fist() -> None:
    """F-TAB-31 row 8: the foe's weapon is sundered — it fights with its fist (DAM 1)."""
    s, _ = step(pc(PC), monster(MON, weapon="spear", damage="1d8"), faces=[])
    apply(s, {"kind": "weapon", "action": "sunder", "otherwise": [{"kind": "damage", "dice": "1d12"}]})
    b = s.c("b")
    assert (b.weapon, b.damage, b.hp) == ("fist", "1", 30)


def test_weapon_sunder_otherwise_when_there_is_no_weapon() -> None:
    """F-TAB-31 row 8, AMB-23: a foe without a weapon takes the 1d12 instead (face 7): HP 30 → 23."""
    s, dice = step(pc(PC), monster(MON, weapon="claws"), faces=[7])
    apply(s, {"kind": "weapon", "action": "sunder", "otherwise": [{"kind": "damage", "dice": "1d12"}]})
    assert s.c("b").hp == 23 and s.c("b").weapon == "claws" and dice.remaining == 0


def test_crit_row_8_weaponless_foe_takes_1d12_instead_of_1d10() -> None:
    """F-TAB-31 row 8, AMB-23: level-2 crit die d8 face 8; max 1d8 = 8, then only 1d12 (face 7): 30 → 15, and
    the spare face is never asked for."""
    s, dice = step(pc(PC, level=2), monster(MON, weapon="claws", ac=30), faces=[20, 8, 7, 9])
    attack(s, "a", "b")
    assert s.c("b").hp == 15 and dice.remaining == 1


# -- armor -------------------------------------------------------------------------------------------------------
def test_armor_damaged_minus_2_ac() -> None:
    """F-TAB-38 row 16, AMB-35: damaged armor, −2 AC: 12 → 10."""
    s, _ = step(pc(PC), faces=[])
    apply(s, {"kind": "armor", "action": "damage", "ac_delta": -2, "piece": "armor", "target": "self"},
          target="a")
    assert s.c("a").ac == 10 and "armor" in kinds(s.events)


# -- injury, lasting ---------------------------------------------------------------------------------------------
def test_injury_rolls_another_table() -> None:
    """F-INJ-01/02, F-TAB-37b rows 8-13 → F-TAB-38: d20 face 16 → 'Damaged armor': AC 12 → 10, noted."""
    s, dice = step(pc(PC), faces=[16])
    apply(s, {"kind": "injury", "table": "F-TAB-38"}, target="a")
    a = s.c("a")
    assert a.ac == 10 and len(a.injuries) == 1 and a.injuries[0].startswith("Damaged armor")
    assert dice.remaining == 0


def test_lasting_marks_the_character_and_applies_its_effects() -> None:
    """F-TAB-38 row 3 ('Lose an eye'): the lasting mark is noted and its modifiers held (ranged ATK HARD)."""
    s, _ = step(pc(PC), faces=[])
    apply(s, {"kind": "lasting", "name": "one eye", "effects": [
        {"kind": "modifier", "applies_to": "ranged_atk", "mode": "HARD", "target": "self"}]}, target="a")
    assert s.c("a").injuries == ("one eye",)
    assert held(s.c("a"), modifier_name("ranged_atk", "HARD")).ending == "encounter"


# -- referee_prompt, nothing, and the prompt-only kinds ------------------------------------------------------------
def test_referee_prompt_is_logged_never_dropped() -> None:
    """F-BASE-01, REF-*: what the engine cannot decide is logged as a referee prompt — even for a dead target."""
    s, _ = step(pc(PC), monster(MON, status="dead", hp=-3), faces=[])
    apply(s, {"kind": "referee_prompt", "prompt": "How long?"}, {"kind": "damage", "dice": "5"})
    assert kinds(s.events) == ["referee"] and s.events[0].data["prompt"] == "How long?"
    assert s.c("b").hp == -3


@pytest.mark.parametrize("effect", [
    {"kind": "area", "zone": "NEAR"},
    {"kind": "spell", "spell": "random_known"},
    {"kind": "summon", "creature": "rats", "count": "1d6"},
    {"kind": "move", "what": "weapon", "distance": "2d6"},
])
def test_prompt_only_kinds_are_logged_for_the_referee(effect: dict[str, Any]) -> None:
    """F-BASE-01: area, spell, summon and move effects become referee prompts, with no die rolled."""
    s, dice = step(pc(PC), monster(MON), faces=[])
    apply(s, effect)
    assert kinds(s.events) == ["referee"] and dice.remaining == 0


def test_nothing_changes_nothing() -> None:
    """F-TAB-36 row 1 / F-TAB-38 rows 17-20: no effect — the encounter and the log are unchanged."""
    s, _ = step(pc(PC), monster(MON), faces=[])
    before = s.enc.model_dump()
    apply(s, {"kind": "nothing", "note": "a minor scar"})
    assert s.enc.model_dump() == before and s.events == []


# -- every row of every crit, fumble and injury table ------------------------------------------------------------
ROW_TABLES = ["F-TAB-31", "F-TAB-32", "F-TAB-33", "F-TAB-34", "F-TAB-36", "F-TAB-37a", "F-TAB-37b", "F-TAB-38"]
FRESH = (pc(PC), pc("ally", PC, hp=12, hp_max=12), monster(MON), monster("b2", MON, zone="NEAR"),
         monster("b3", MON, zone="CLOSE"))   # the combatants of a fresh encounter


@pytest.mark.parametrize("table_id", ROW_TABLES)
def test_F_TAB_31_to_F_TAB_38_every_row_applies(table_id: str) -> None:
    """F-TAB-31, F-TAB-32, F-TAB-33, F-TAB-34 (crit rows on the foe), F-TAB-36 (fumble rows on the fumbler),
    F-TAB-37a, F-TAB-37b (injury rows) and F-TAB-38 (lingering injuries) on the injured one: every row of each
    table is applied by apply_all to a fresh encounter without raising, under several seeds; each top-level
    referee_prompt of the row is logged (F-TAB-30 and F-TAB-35 only pick the die and are checked elsewhere)."""
    table = RULES.tables.get(table_id)
    on_foe = table_id in ("F-TAB-31", "F-TAB-32", "F-TAB-33", "F-TAB-34")
    assert table.rows
    for row in table.rows:
        prompts = sum(1 for e in row.effect_list() if e.kind == "referee_prompt")
        for seed in range(4):
            s = Step(encounter(*FRESH), random.Random(seed), RULES)
            apply_all(s, row.effect_list(), actor="a", target="b" if on_foe else "a")
            run_extra_attacks(s)
            assert sum(1 for e in s.events if e.kind == "referee") >= prompts, (table_id, row.span)
