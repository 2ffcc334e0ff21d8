"""The character's rule options, each flipped and its numbers asserted (ARCHITECTURE: an option nothing reads is
a bug): ability_13_modifier (CF-03, AMB-08), racial_bonus_above_18 (AMB-09), archetype_feature_at_level_1
(F-ARCH-01), rogue_shield (CF-07) with nonproficient_armor (D-9, AMB-40), magic_user_proficiencies (CF-06),
two_handed_low_str (AMB-38), two_handed_style_ones (F-FTR-04, AMB-45), overload_penalty (AMB-57) and
funnel_hp_carryover (D-6). The skill options (racial_easy, expertise) are in tests/play/test_skills_markers.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace import dice
from furnace.characters.abilities import modifier
from furnace.characters.character import Character, CharacterError, Weapon
from furnace.characters.equipment import (
    armor_proficient,
    attack_bonus,
    damage_expression,
    fighting_style_name,
    over_load,
    two_handed_bonus,
)
from furnace.characters.funnel import apply_race, promote
from furnace.characters.markers import load_state
from furnace.dice import ScriptedDice
from furnace.play.combatant import Combatant, from_character
from furnace.play.conditions import modifier_name
from furnace.play.encounter import attack
from furnace.play.skills import skill_check
from furnace.play.state import Step
from furnace.rules.effects import Ability
from furnace.rules.ruleset import Ruleset, load_ruleset
from tests.helpers.factories import character, fighter, fighting, monster, peasant, rogue, step

RULES = load_ruleset()
TEN: dict[Ability, int] = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
DAGGER = Weapon(name="dagger", category="simple", kind="one-handed", damage="1d4")
GREATSWORD = Weapon(name="greatsword", category="martial", kind="two-handed", damage="2d6")
ATK_HARD = modifier_name("atk", "HARD")
ADA: dict[str, Any] = dict(name="Ada", level=1, hp_max=8)   # a level-1 Human of no class, scores 10, 8 HP
OGRE: dict[str, Any] = dict(name="Ogre", saves={})   # AC 12, 50 HP
IN_MAIL: dict[str, Any] = dict(char_class="Magic-user", archetype="Wizard", armor="chain-mail", weapons=[DAGGER],
                               spells=["Magic Missile"])   # a Magic-user in chain mail
GREAT_WEAPON: dict[str, Any] = dict(archetype="Barbarian", fighting_style="2H weapon master", weapons=[GREATSWORD])


def swing(character: Character, faces: list[int], rules: Ruleset) -> tuple[Step, ScriptedDice]:
    """The character's ATK on a monster of AC 12 (ROOM DC 12), with the dice given; every die used."""
    s, rng = step(fighting(character, rules=rules), monster(OGRE), faces=faces, rules=rules)
    attack(s, "a", "b")
    assert rng.remaining == 0
    return s, rng


def held_names(c: Combatant) -> set[str]:
    return {h.name for h in c.held}


# -- ability_13_modifier (CF-03, AMB-08, F-TAB-02) ----------------------------------------------------------
def test_CF_03_AMB_08_ability_13_modifier_1_or_0() -> None:
    """CF-03: 13 is printed in the 9-13 (0) and 13-15 (+1) rows. Default 1: +1; option 0: 0. 12 and 14 unchanged."""
    zero = RULES.with_options({"ability_13_modifier": 0})
    strong = character(ADA, level=0, scores={"STR": 13})
    assert (strong.mod("STR", RULES), strong.mod("STR", zero), strong.mod("STR")) == (1, 0, 1)
    assert [modifier(s, zero) for s in (12, 13, 14)] == [0, 0, 1]
    assert [modifier(s, RULES) for s in (12, 13, 14)] == [0, 1, 1]
    assert modifier(13, RULES.tables) == 1          # a table set alone reads the default


def test_CF_03_ability_13_modifier_reaches_the_fight_the_load_and_the_skills() -> None:
    """A 0-level peasant with STR 13 and a fist: ATK +1 and 2 DAM by default, +0 and 1 DAM under 0; Load 11 or 10;
    an Athletics CHECK d20 11: 12 meets ROOM DC 12 by default, 11 does not under 0."""
    zero = load_ruleset(overrides={"ability_13_modifier": 0})
    strong = character(ADA, level=0, scores={"STR": 13})
    default, flipped = from_character(strong, "a", RULES), from_character(strong, "a", zero)
    assert (default.attack_bonus, default.damage, default.saves["STR"]) == (1, "2", 1)
    assert (flipped.attack_bonus, flipped.damage, flipped.saves["STR"]) == (0, "1", 0)
    loaded = strong.model_copy(update={"items": ["x"] * 11})
    assert (over_load(loaded, rules=RULES), over_load(loaded, rules=zero)) == (0, 1)
    assert skill_check(strong, "Athletics", ScriptedDice([11]), 12, RULES).total == 12
    assert skill_check(strong, "Athletics", ScriptedDice([11]), 12, zero).total == 11


def test_CF_03_ability_13_modifier_in_hp_and_skill_count() -> None:
    """CON 13 raises the level-1 fixed HP (4 + CON) and INT 13 a Dwarf's skill picks (1 + INT) only under the
    default."""
    fixed = {"level1_hp": "fixed"}
    tough = peasant(race="Dwarf").model_copy(update={"scores": {**TEN, "CON": 13, "INT": 13}})
    one, _ = promote(tough, "Fighter", "Barbarian", ScriptedDice([]), RULES.with_options(fixed),
                     skills=["Athletics", "History"])
    assert one.hp_max == 3 + 5
    zero = RULES.with_options({"ability_13_modifier": 0, "level1_hp": "fixed"})
    with pytest.raises(CharacterError, match="chooses 1 skills"):
        promote(tough, "Fighter", "Barbarian", ScriptedDice([]), zero, skills=["Athletics", "History"])
    other, _ = promote(tough, "Fighter", "Barbarian", ScriptedDice([]), zero, skills=["Athletics"])
    assert other.hp_max == 3 + 4


# -- racial_bonus_above_18 (AMB-09, F-ABIL-03) --------------------------------------------------------------
def test_AMB_09_racial_bonus_above_18() -> None:
    """A Dwarf (CON +1, CHA −1) with a rolled CON 18: 18 by default (natural cap), 19 with the option."""
    scores: dict[Ability, int] = {**TEN, "CON": 18, "CHA": 3}
    assert apply_race(scores, "Dwarf", RULES) == {**TEN, "CON": 18, "CHA": 2}
    above = RULES.with_options({"racial_bonus_above_18": True})
    assert apply_race(scores, "Dwarf", above) == {**TEN, "CON": 19, "CHA": 2}
    assert apply_race({**TEN, "CON": 20}, "Dwarf", above)["CON"] == 20      # never above the absolute 20


# -- archetype_feature_at_level_1 (F-ARCH-01, AMB-46) --------------------------------------------------------
def test_F_ARCH_01_archetype_feature_at_level_1() -> None:
    """Default: no archetype feature at level 1. With the option: the chosen one (or the first, Rage)."""
    plain, _ = promote(peasant(), "Fighter", "Barbarian", ScriptedDice([6]), RULES)
    assert plain.archetype_features == [] and plain.hp_max == 3 + 6
    early = RULES.with_options({"archetype_feature_at_level_1": True})
    chosen, events = promote(peasant(), "Fighter", "Barbarian", ScriptedDice([6]), early, feature="d12-hit-die")
    assert chosen.archetype_features == ["d12-hit-die"]
    assert chosen.hit_die(early) == "d12"          # the feature holds at once: the level-1 die is a d12
    assert [e.kind for e in events][:2] == ["promote", "feature"]
    first, _ = promote(peasant(), "Fighter", "Barbarian", ScriptedDice([6]), early)
    assert first.archetype_features == ["rage"]
    with pytest.raises(CharacterError, match="archetype_feature_at_level_1"):
        promote(peasant(), "Fighter", "Barbarian", ScriptedDice([6]), RULES, feature="rage")


# -- armor proficiency: rogue_shield, nonproficient_armor, magic_user_proficiencies (D-9, CF-06, CF-07) ----------
def test_CF_07_rogue_shield_true_no_penalty() -> None:
    """Default: a Rogue is proficient with a shield (the class table). ATK 0 + PROF 1 = 1; d20 11 hits AC 12."""
    r = rogue(ADA, shield=True, weapons=[DAGGER])
    assert armor_proficient(r, "shield", RULES) and r.armor_penalty(RULES) == []
    c = from_character(r, "a", RULES)
    assert c.attack_bonus == 1 and ATK_HARD not in held_names(c)
    s, _ = swing(r, [11, 3], RULES)
    assert s.c("b").hp == 47


def test_CF_07_D_9_rogue_shield_false_makes_her_attacks_hard() -> None:
    """rogue_shield false: the shield is not hers to use, so under nonproficient_armor like_5e her ATK is HARD
    (AC 12 → 15: d20 11 + 1 = 12 misses) and her STR and DEX SAVEs are held HARD."""
    rules = RULES.with_options({"rogue_shield": False})
    r = rogue(ADA, shield=True, weapons=[DAGGER])
    assert not armor_proficient(r, "shield", rules)
    c = from_character(r, "a", rules)
    assert {ATK_HARD, modifier_name("str_saves", "HARD"), modifier_name("dex_saves", "HARD")} <= held_names(c)
    assert modifier_name("con_saves", "HARD") not in held_names(c)
    s, _ = swing(r, [11], rules)
    missed = s.events[-1]
    assert s.c("b").hp == 50 and missed.kind == "miss" and (missed.data["total"], missed.data["dc"]) == (12, 15)


def test_D_9_nonproficient_armor_like_5e() -> None:
    """like_5e (default): a Magic-user in chain mail: STR/DEX CHECKs HARD (Athletics d20 13 vs 15 fails), STR/DEX
    SAVEs and ATKs HARD, no spellcasting; her CON SAVE and INT CHECKs are untouched."""
    m = character(ADA, IN_MAIL)
    assert not m.can_cast_in_armor(RULES)
    assert {(x.applies_to, x.mode) for x in m.armor_penalty(RULES)} == {
        ("str_checks", "HARD"), ("dex_checks", "HARD"), ("str_saves", "HARD"), ("dex_saves", "HARD"),
        ("atk", "HARD"), ("spellcasting", "FORBIDDEN")}
    athletics = skill_check(m, "Athletics", ScriptedDice([13]), 12, RULES)
    assert (athletics.dc.value, athletics.success) == (15, False)
    assert skill_check(m, "Arcana", ScriptedDice([13]), 12, RULES).dc.value == 12
    c = from_character(m, "a", RULES)
    assert {ATK_HARD, modifier_name("dex_saves", "HARD")} <= held_names(c)
    s, _ = swing(m, [12], RULES)              # d20 12 + 1 = 13 vs AC 12 HARD = 15: a miss
    assert s.c("b").hp == 50


def test_AMB_40_nonproficient_armor_checks_and_attacks() -> None:
    """checks_and_attacks: the same CHECKs and ATKs HARD and no spellcasting, but no SAVE is HARD."""
    rules = RULES.with_options({"nonproficient_armor": "checks_and_attacks"})
    m = character(ADA, IN_MAIL)
    assert not m.can_cast_in_armor(rules)
    assert skill_check(m, "Acrobatics", ScriptedDice([13]), 12, rules).dc.value == 15
    names = held_names(from_character(m, "a", rules))
    assert ATK_HARD in names and not any("saves" in n for n in names)
    s, _ = swing(m, [12], rules)
    assert s.c("b").hp == 50


def test_D_9_nonproficient_armor_no_penalty() -> None:
    """no_penalty: chain mail costs her nothing: Athletics DC 12 (d20 13 succeeds), she may cast, d20 12 + 1 hits."""
    rules = RULES.with_options({"nonproficient_armor": "no_penalty"})
    m = character(ADA, IN_MAIL)
    assert m.can_cast_in_armor(rules) and m.armor_penalty(rules) == []
    athletics = skill_check(m, "Athletics", ScriptedDice([13]), 12, rules)
    assert (athletics.dc.value, athletics.success) == (12, True)
    assert held_names(from_character(m, "a", rules)) == set()
    s, _ = swing(m, [12, 3], rules)
    assert s.c("b").hp == 47


def test_CF_06_magic_user_proficiencies_class_section() -> None:
    """table (default): shield and simple weapons; a longsword adds no PROF (ATK 0) and boiled leather is not hers
    (ATK HARD). class_section: light armor and martial weapons (ATK 0 + PROF 1 = 1, no HARD), the shield not."""
    sword = Weapon(name="longsword", category="martial", kind="one-handed", damage="1d8")
    m = character(ADA, char_class="Magic-user", archetype="Wizard", armor="boiled-leather", weapons=[sword])
    section = RULES.with_options({"magic_user_proficiencies": "class_section"})
    assert (attack_bonus(m, sword, RULES), attack_bonus(m, sword, section)) == (0, 1)
    assert ATK_HARD in held_names(from_character(m, "a", RULES))
    assert held_names(from_character(m, "a", section)) == set()
    assert (armor_proficient(m, "shield", RULES), armor_proficient(m, "shield", section)) == (True, False)
    assert armor_proficient(m, "light", section) and not armor_proficient(m, "light", RULES)


def test_D_9_a_0_level_peasant_wears_what_she_finds() -> None:
    """A 0-level character has no class row: no piece of armor counts against her (REF)."""
    assert peasant(armor="chain-mail", shield=True).armor_penalty(RULES) == []


# -- two-handed damage: two_handed_low_str (AMB-38), two_handed_style_ones (F-FTR-04 d, AMB-45) -------------------
def test_AMB_38_two_handed_low_str_one_and_half() -> None:
    """STR score 4 (−2) with a martial two-handed 1d10: plain_str −2 (1d10-2); one_and_half ceil(−3.0) = −3.
    STR −1: ceil(−1.5) = −1 either way; positive STR is 1.5× under both."""
    half = RULES.with_options({"two_handed_low_str": "one_and_half"})
    weak = character(ADA, char_class="Fighter", archetype="Barbarian", scores={"STR": 4})
    axe = Weapon(name="greataxe", category="martial", kind="two-handed", damage="1d10")
    assert (damage_expression(weak, axe, RULES), damage_expression(weak, axe, half)) == ("1d10-2", "1d10-3")
    assert [two_handed_bonus(s, half) for s in (-3, -2, -1, 0, 2)] == [-4, -3, -1, 0, 3]
    assert [two_handed_bonus(s, RULES) for s in (-3, -2, -1, 0, 2)] == [-3, -2, -1, 0, 3]
    assert from_character(weak.model_copy(update={"weapons": [axe]}), "a", half).damage == "1d10-3"


def test_F_FTR_04_AMB_45_two_handed_style_reroll_once() -> None:
    """reroll_once (default): each 1 on the two-handed damage dice is rolled again once (`2d6ro1`): faces 1, 4 and
    the reroll 5 deal 9 (d20 15 hits AC 12)."""
    f = fighter(ADA, GREAT_WEAPON)
    assert damage_expression(f, GREATSWORD, RULES) == "2d6ro1"
    assert dice.roll("2d6ro1", ScriptedDice([1, 4, 5])).total == 9
    s, _ = swing(f, [15, 1, 4, 5], RULES)
    assert s.c("b").hp == 50 - 9


def test_F_FTR_04_AMB_45_two_handed_style_count_as_2() -> None:
    """count_as_2: a 1 counts as 2 (`2d6mi2`): faces 1 and 4 deal 6, no reroll."""
    rules = RULES.with_options({"two_handed_style_ones": "count_as_2"})
    f = fighter(ADA, GREAT_WEAPON, scores={"STR": 14})
    assert damage_expression(f, GREATSWORD, rules) == "2d6mi2+2"
    s, _ = swing(f.model_copy(update={"scores": TEN}), [15, 1, 4], rules)
    assert s.c("b").hp == 50 - 6


def test_F_FTR_04_two_handed_style_only_on_two_handed_weapons() -> None:
    """The style touches two-handed weapons only; another style leaves the dice alone; styles are F-TAB-39's."""
    f = fighter(ADA, GREAT_WEAPON)
    assert damage_expression(f, DAGGER, RULES) == "1d4"
    assert damage_expression(f.model_copy(update={"fighting_style": "Defense"}), GREATSWORD, RULES) == "2d6"
    assert fighting_style_name("d", RULES) == "2H weapon master"
    assert fighting_style_name("dueling", RULES) == "Dueling"
    with pytest.raises(CharacterError, match="Archery, Defense, Dueling"):
        fighting_style_name("Great Weapon", RULES)
    one, _ = promote(peasant(), "Fighter", "Barbarian", ScriptedDice([6]), RULES, fighting_style="d")
    assert one.fighting_style == "2H weapon master"


# -- overload_penalty (AMB-57, F-LOAD-01) ---------------------------------------------------------------------
def test_AMB_57_overload_penalty_hard_near() -> None:
    """STR 10 (Load 10) with 12 items: over Load by 2. hard_near (default): Athletics d20 13 vs DC 15 fails, her ATK
    is held HARD (d20 11 + 1 = 12 misses AC 12 + 3); above twice the Load she cannot move."""
    heavy = fighter(ADA, archetype="Barbarian", weapons=[DAGGER], items=[f"sack {i}" for i in range(11)])
    assert over_load(heavy, rules=RULES) == 2 and load_state(heavy, RULES) == "over"
    athletics = skill_check(heavy, "Athletics", ScriptedDice([13]), 12, RULES)
    assert (athletics.dc.value, athletics.success) == (15, False)
    assert skill_check(heavy, "Arcana", ScriptedDice([13]), 12, RULES).dc.value == 12
    assert ATK_HARD in held_names(from_character(heavy, "a", RULES))
    s, _ = swing(heavy, [11], RULES)
    assert s.c("b").hp == 50
    assert load_state(heavy.model_copy(update={"items": ["x"] * 20}), RULES) == "immobile"


def test_AMB_57_overload_penalty_none() -> None:
    """none: the load is only tracked: Athletics d20 13 meets DC 12, the ATK is plain (d20 11 + 1 hits)."""
    rules = RULES.with_options({"overload_penalty": "none"})
    heavy = fighter(ADA, archetype="Barbarian", weapons=[DAGGER], items=[f"sack {i}" for i in range(11)])
    assert over_load(heavy, rules=rules) == 2 and load_state(heavy, rules) == "ok"
    athletics = skill_check(heavy, "Athletics", ScriptedDice([13]), 12, rules)
    assert (athletics.dc.value, athletics.success) == (12, True)
    assert held_names(from_character(heavy, "a", rules)) == set()
    s, _ = swing(heavy, [11, 2], rules)
    assert s.c("b").hp == 48


# -- funnel_hp_carryover (D-6, AMB-12) ------------------------------------------------------------------------
def test_D_6_funnel_hp_carryover_replace() -> None:
    """A peasant of 3 HP rolls 6 on the Fighter's d10: add (default) 3 + 6 = 9; replace 6."""
    added, _ = promote(peasant(), "Fighter", "Barbarian", ScriptedDice([6]), RULES)
    replaced, _ = promote(peasant(), "Fighter", "Barbarian", ScriptedDice([6]),
                          RULES.with_options({"funnel_hp_carryover": "replace"}))
    assert (added.hp_max, replaced.hp_max) == (9, 6)
