"""What reaches a skill CHECK besides the skill: racial EASY (AMB-63, option racial_easy), Expertise (F-ROG-03,
AMB-43, option expertise), the injuries a character carries (F-TAB-37a/b rows 14-19, F-TAB-38's horrible scar
and lost eye; D-7 until rest), conditions (AMB-22) and her state (short of sleep H-SLEEP-01, drunk H-DRUG-02).
"""

from __future__ import annotations

from typing import Any

from furnace.dice import ScriptedDice
from furnace.play.rest import short_rest
from furnace.play.skills import skill_check, skill_modifiers
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import fighter

RULES = load_ruleset()
TEN = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
ROW_14_19 = "Every CHECK is HARD until the next rest."           # F-TAB-37b rows 14-19
ROW_14_19_A = "Every CHECK at DISADVANTAGE until the next rest."  # F-TAB-37a rows 14-19
ADA: dict[str, Any] = dict(name="Ada", archetype="Barbarian", hp_max=8, hit_dice=1)   # a level-1 Barbarian, 8 HP


# -- racial_easy (AMB-63, REF-12) ----------------------------------------------------------------------------
def test_AMB_63_racial_easy_suggest_or_automatic() -> None:
    """A Dwarf's History CHECK, d20 10, INT 10: suggest (default) leaves DC 12 unless the situation is confirmed
    (10 fails); automatic always applies the racial EASY: DC 9, 10 succeeds."""
    dwarf = fighter(ADA, race="Dwarf")
    suggested = skill_check(dwarf, "History", ScriptedDice([10]), 12, RULES)
    assert (suggested.dc.value, suggested.success) == (12, False)
    assert skill_check(dwarf, "History", ScriptedDice([10]), 12, RULES, situation=True).dc.value == 9
    auto = skill_check(dwarf, "History", ScriptedDice([10]), 12, RULES.with_options({"racial_easy": "automatic"}))
    assert (auto.dc.value, auto.success) == (9, True)
    human = skill_check(fighter(ADA), "History", ScriptedDice([10]), 12,
                        RULES.with_options({"racial_easy": "automatic"}))
    assert human.dc.value == 12


# -- expertise (F-ROG-03, AMB-43) ----------------------------------------------------------------------------
def test_F_ROG_03_AMB_43_expertise_double_prof() -> None:
    """A level-5 Rogue (PROF 3), DEX 16 (+2), Expertise in Stealth: extra_proficiencies (default) adds PROF once
    (d20 7 → 12); double_prof adds it twice, 5e (d20 7 → 15). A plain proficient skill adds PROF once under both."""
    rogue = fighter(ADA, char_class="Rogue", archetype="Arcane Trickster", level=5, scores={**TEN, "DEX": 16},
               skills=["Perception"], expertise=["Stealth"])
    double = RULES.with_options({"expertise": "double_prof"})
    assert [m.value for m in skill_modifiers(rogue, "Stealth", RULES)] == [2, 3]
    assert [m.value for m in skill_modifiers(rogue, "Stealth", double)] == [2, 6]
    assert skill_check(rogue, "Stealth", ScriptedDice([7]), 12, RULES).total == 12
    assert skill_check(rogue, "Stealth", ScriptedDice([7]), 12, double).total == 15
    assert [m.value for m in skill_modifiers(rogue, "Perception", double)] == [0, 3]


# -- injuries on the character (F-INJ-01, F-TAB-37a/b, F-TAB-38, D-7) -------------------------------------------
def test_F_TAB_37b_rows_14_19_every_check_hard_until_rest() -> None:
    """Injury rows 14-19 (F-TAB-37b, the default): every CHECK HARD, DC 12 → 15, whether she carries the row among
    her injuries or as the until_rest line a fight writes back ('MOD:checks:HARD: …'; both count once); a rest
    ends the line (D-7)."""
    hurt = fighter(ADA, injuries=[ROW_14_19])
    result = skill_check(hurt, "Persuasion", ScriptedDice([13]), 12, RULES)
    assert (result.dc.value, result.success) == (15, False)
    assert skill_check(hurt, "Arcana", ScriptedDice([13]), 12, RULES).dc.value == 15
    line = fighter(ADA, until_rest=[f"MOD:checks:HARD: {ROW_14_19}"])
    assert skill_check(line, "Stealth", ScriptedDice([13]), 12, RULES).dc.value == 15
    both = fighter(ADA, injuries=[ROW_14_19], until_rest=[f"MOD:checks:HARD: {ROW_14_19}"])
    assert skill_check(both, "Stealth", ScriptedDice([13]), 12, RULES).dc.value == 15
    rested, _ = short_rest(line, ScriptedDice([]), RULES)
    assert skill_check(rested, "Stealth", ScriptedDice([13]), 12, RULES).dc.value == 12


def test_F_TAB_37a_rows_14_19_disadvantage() -> None:
    """F-TAB-37a's rows 14-19 (CF-02): every CHECK at DISADVANTAGE: with use_advantage two d20s, the lower (4) kept;
    with advantage off the engine takes it as HARD (DC 15)."""
    hurt = fighter(ADA, injuries=[ROW_14_19_A])
    adv = load_ruleset(overrides={"injury_table": "F-TAB-37a", "use_advantage": True})
    result = skill_check(hurt, "Athletics", ScriptedDice([15, 4]), 12, adv)
    assert (result.advantage, result.natural, result.total, result.success) == ("dis", 4, 4, False)
    hard = skill_check(hurt, "Athletics", ScriptedDice([13]), 12, RULES)
    assert (hard.dc.value, hard.advantage) == (15, None)


def test_F_TAB_38_horrible_scar_persuasion_hard_intimidation_easy() -> None:
    """F-TAB-38 row 14: a horrible scar makes Persuasion HARD (DC 15) and Intimidation EASY (DC 9), for good."""
    scarred = fighter(ADA, injuries=["horrible scar"])
    assert skill_check(scarred, "Persuasion", ScriptedDice([13]), 12, RULES).dc.value == 15
    assert skill_check(scarred, "Intimidation", ScriptedDice([9]), 12, RULES).dc.value == 9
    assert skill_check(scarred, "Deception", ScriptedDice([9]), 12, RULES).dc.value == 12
    by_row = fighter(ADA, injuries=["Horrible scar: Persuasion CHECKs HARD, Intimidation CHECKs EASY."])
    assert skill_check(by_row, "Persuasion", ScriptedDice([13]), 12, RULES).dc.value == 15


def test_F_TAB_38_lost_eye_sight_perception_hard() -> None:
    """F-TAB-38 row 3: one eye makes sight-based Perception HARD (DC 15); listening (sight=False) stays DC 12."""
    one_eyed = fighter(ADA, injuries=["one eye"])
    assert skill_check(one_eyed, "Perception", ScriptedDice([13]), 12, RULES).dc.value == 15
    assert skill_check(one_eyed, "Perception", ScriptedDice([13]), 12, RULES, sight=False).dc.value == 12
    assert skill_check(one_eyed, "Investigation", ScriptedDice([13]), 12, RULES).dc.value == 12


def test_AMB_22_conditions_on_checks() -> None:
    """FRIGHTENED: its CHECKs HARD (DC 15); WEAK: STR CHECKs HARD (Athletics 15, Acrobatics 12)."""
    assert skill_check(fighter(ADA, conditions=["FRIGHTENED"]), "Insight", ScriptedDice([13]), 12, RULES).dc.value == 15
    weak = fighter(ADA, conditions=["WEAK"])
    assert skill_check(weak, "Athletics", ScriptedDice([13]), 12, RULES).dc.value == 15
    assert skill_check(weak, "Acrobatics", ScriptedDice([13]), 12, RULES).dc.value == 12


def test_H_SLEEP_01_H_DRUG_02_state_modifiers_reach_checks() -> None:
    """H-SLEEP-01: two days short of sleep −2 on a CHECK (d20 13 → 11); drunk (H-DRUG-02) costs SAVEs, not CHECKs."""
    tired = fighter(ADA, extensions={"hazards": {"short_sleep_days": 2}})
    assert skill_check(tired, "Athletics", ScriptedDice([13]), 12, RULES).total == 11
    assert skill_check(fighter(ADA, conditions=["DRUNK"]), "Athletics", ScriptedDice([13]), 12, RULES).total == 13
