"""Skill CHECKs: F-BASE-07, F-ABIL-04, F-ROG-03, F-EQ-02, racial EASY (F-RACE-03), F-CMBT-04 stunts."""

from __future__ import annotations

import pytest

from furnace.characters.character import SKILLS, Character, CharacterError
from furnace.dice import ScriptedDice
from furnace.play.skills import ABILITY_DOMAINS, SKILL_ABILITY, skill_check, skill_modifiers, stunt
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import rogue

RULES = load_ruleset()
TEN = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
WREN: dict[str, object] = {"name": "Wren", "race": "Halfling", "level": 5, "scores": {**TEN, "DEX": 16},   # a Rogue
                           "hp_max": 20, "skills": ["Stealth", "Perception"], "expertise": ["Stealth"]}


def test_F_ABIL_04_every_skill_has_its_ability_and_every_ability_a_domain() -> None:
    """F-ABIL-04: STR for brute force and melee, DEX for sneaking, INT arcane casting, WIS divine, CHA people."""
    assert set(SKILL_ABILITY) == set(SKILLS) and len(SKILLS) == 18
    assert SKILL_ABILITY["Athletics"] == "STR" and SKILL_ABILITY["Stealth"] == "DEX"
    assert SKILL_ABILITY["Arcana"] == "INT" and SKILL_ABILITY["Medicine"] == "WIS"
    assert SKILL_ABILITY["Persuasion"] == "CHA"
    assert "arcane" in ABILITY_DOMAINS["INT"] and "divine" in ABILITY_DOMAINS["WIS"]
    assert RULES.tables.get("classes").lookup("Magic-user").data["spellcheck_ability"] == "INT"
    assert RULES.tables.get("classes").lookup("Cleric").data["spellcheck_ability"] == "WIS"


def test_F_BASE_07_F_ROG_03_prof_and_expertise() -> None:
    """F-BASE-07: a proficient skill adds PROF (+3 at level 5); F-ROG-03/AMB-43: an Expertise skill is one
    more proficient skill, not 5e's double PROF."""
    c = rogue(WREN, skills=["Perception"], expertise=["Stealth"])
    assert [m.value for m in skill_modifiers(c, "Perception", RULES)] == [0, 3]
    assert [m.value for m in skill_modifiers(c, "Stealth", RULES)] == [2, 3]
    assert [m.value for m in skill_modifiers(c, "Arcana", RULES)] == [0]
    with pytest.raises(CharacterError, match="unknown skill"):
        skill_modifiers(c, "Lockpicking", RULES)


def test_F_BASE_07_skill_check_meets_or_beats_room_dc() -> None:
    """F-BASE-02/03 with F-BASE-07: d20 + DEX 2 + PROF 3 = 5 + d20 against ROOM DC 12 (meet or beat)."""
    result = skill_check(rogue(WREN), "Stealth", ScriptedDice([7]), 12, RULES)
    assert result.total == 12 and result.success
    assert not skill_check(rogue(WREN), "Stealth", ScriptedDice([6]), 12, RULES).success


def test_F_EQ_02_armor_stealth_penalty_is_hard() -> None:
    """F-EQ-02, F-TAB-21: Stealth in a lamellar shirt (light armor, which the Rogue may wear) is HARD (+3 to the
    DC); boiled leather has no penalty. (Heavy armor would add D-9's HARD too: tests/play/test_skills_markers.py.)"""
    heavy = skill_check(rogue(WREN, armor="lamellar-shirt"), "Stealth", ScriptedDice([7]), 12, RULES)
    assert heavy.dc.value == 15 and not heavy.success
    light = skill_check(rogue(WREN, armor="boiled-leather"), "Stealth", ScriptedDice([4]), 12, RULES)
    assert light.dc.value == 12


def test_F_RACE_03_dwarf_history_easy_in_its_situation() -> None:
    """F-RACE-03: a Dwarf's History CHECK about architecture is EASY (−3); not otherwise."""
    dwarf = Character(name="Borin", race="Dwarf", level=1, char_class="Fighter", scores=TEN, hp_max=8, hp=8)
    assert skill_check(dwarf, "History", ScriptedDice([9]), 12, RULES, situation=True).dc.value == 9
    assert skill_check(dwarf, "History", ScriptedDice([9]), 12, RULES).dc.value == 12


def test_F_ARCH_02_barbarian_intimidation_easy() -> None:
    """F-ARCH-02: with the Barbarian's 'Intimidation CHECKs are EASY' feature, the DC drops by 3."""
    brute = Character(name="Brakka", race="Half-orc", level=5, char_class="Fighter", archetype="Barbarian",
                      archetype_features=["intimidating"], scores=TEN, hp_max=30, hp=30)
    assert skill_check(brute, "Intimidation", ScriptedDice([9]), 12, RULES, situation=True).dc.value == 9


def test_F_CMBT_04_stunt_sets_the_follow_up() -> None:
    """F-CMBT-04: jump the table (Acrobatics vs ROOM DC): success → the ATK is EASY, failure → HARD."""
    assert stunt(rogue(WREN), "Acrobatics", ScriptedDice([15]), 12, RULES).follow_up == "EASY"
    assert stunt(rogue(WREN), "Acrobatics", ScriptedDice([2]), 12, RULES).follow_up == "HARD"


def test_H_SLEEP_01_short_sleep_lowers_skill_checks() -> None:
    """H-SLEEP-01: three days short of sleep: −3 to a skill CHECK too."""
    tired = rogue(WREN, extensions={"hazards": {"short_sleep_days": 3}})
    assert skill_check(tired, "Stealth", ScriptedDice([7]), 12, RULES).total == skill_check(
        rogue(WREN), "Stealth", ScriptedDice([7]), 12, RULES).total - 3
