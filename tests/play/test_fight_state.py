"""A character's state carried into a fight: sleep (H-SLEEP-01), drink (H-DRUG-02, M-DRINK-01), and Luck
Dice earned by failed SAVEs as well as ATKs (F-LUCK-01)."""

from __future__ import annotations

from furnace.dice import ScriptedDice
from furnace.houserules.middle_sea import COURAGE_MODIFIERS, MODULE
from furnace.play.apply import apply_all
from furnace.play.combatant import Combatant, from_character
from furnace.play.state import Encounter, Step
from furnace.rules.effects import parse_effect
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import fighter

RULES = load_ruleset()
TEN = {"STR": 14, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
HAL: dict[str, object] = {"name": "Hal", "scores": TEN, "saves": ["STR"]}   # a level-1 Fighter, 10 HP, STR 14


def test_H_SLEEP_01_short_sleep_lowers_atk_and_saves_in_a_fight() -> None:
    """H-SLEEP-01: two days short of sleep: −2 to every roll, ATK and SAVEs alike."""
    rested = from_character(fighter(HAL), "party", RULES)
    tired = from_character(fighter(HAL, extensions={"hazards": {"short_sleep_days": 2}}), "party", RULES)
    assert tired.attack_bonus == rested.attack_bonus - 2
    assert tired.saves["CON"] == rested.saves["CON"] - 2


def test_H_DRUG_02_drunk_saves_are_worse() -> None:
    """H-DRUG-02: drunk, −2 to SAVEs (the −2 DEX is in the scores already)."""
    sober = from_character(fighter(HAL), "party", RULES)
    drunk = from_character(fighter(HAL, conditions=["DRUNK"]), "party", RULES)
    assert drunk.saves["WIS"] == sober.saves["WIS"] - 2 and drunk.attack_bonus == sober.attack_bonus


def test_M_DRINK_01_liquid_courage_costs_one_to_hit() -> None:
    """M-DRINK-01: while Liquid Courage lasts, −1 to hit."""
    brave = fighter(HAL, extensions={MODULE: {"courage": {"hp": 2, "entry": 1, **COURAGE_MODIFIERS}}})
    plain = from_character(fighter(HAL), "party", RULES)
    assert from_character(brave, "party", RULES).attack_bonus == plain.attack_bonus - 1


def test_F_LUCK_01_failed_saves_in_a_fight_earn_luck() -> None:
    """F-LUCK-01, AMB-02: SAVEs count toward the streak: two failed SAVEs in a row earn a Luck Die."""
    pc = Combatant(id="p", name="Pia", side="party", kind="pc", hp=10, hp_max=10, ac=12, attack_bonus=2,
                   saves={"CON": 0})
    step = Step(Encounter(room_dc=12, combatants=(pc,)), ScriptedDice([3, 4]), RULES)
    save = parse_effect({"kind": "save", "ability": "CON", "dc": "12", "target": "self"})
    apply_all(step, [save, save], actor="p", target="p")
    assert step.enc.get("p").luck_dice == 1
