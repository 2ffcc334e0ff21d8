"""Advancement (`furnace.characters.advancement`): HP by level, the HD pool, PROF, +1 scores, archetype features.

RULES.md F.5 (F-HP-01..06, F-ADV-01..03), F-ABIL-03, F-ARCH-01/02, the class HP rules (F-FTR-01,
F-CLR-01, F-ROG-01, F-MU-01) and the options hp_floor (CF-09), hp_floor_at_level_1 (AMB-11),
hp_after_level_5 (CF-10), magic_user_hit_die (CF-04), advancement_table (CF-01).
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.advancement import gain_hp, hp_floor, level_up
from furnace.characters.character import Character, CharacterError, Occupation
from furnace.characters.funnel import promote
from furnace.dice import ScriptedDice
from furnace.rules.effects import ABILITIES
from furnace.rules.ruleset import Ruleset, load_ruleset
from tests.helpers.factories import character, peasant

RULES = load_ruleset()
RULES_B = RULES.with_options({"advancement_table": "F-TAB-05b"})
TEN = dict.fromkeys(ABILITIES, 10)
# each class with an archetype and a race of its own; 10 HP, a pool of Hit Dice as large as the level (1 to 5)
CLASS: dict[str, dict[str, Any]] = {
    "Fighter": dict(char_class="Fighter", archetype="Barbarian", race="Human"),
    "Cleric": dict(char_class="Cleric", archetype="Bloodshaman", race="Half-orc"),
    "Rogue": dict(char_class="Rogue", archetype="Arcane Trickster", race="Elf"),
    "Magic-user": dict(char_class="Magic-user", archetype="Wizard", race="Dwarf")}
DOLLAR = {"Fighter": 3, "Cleric": 2, "Rogue": 2, "Magic-user": 1}
SIDES = {"Fighter": 10, "Cleric": 8, "Rogue": 8, "Magic-user": 6}
# a 0-level Farmer who rolled no occupation (the d100 not kept) and carries nothing
SURVIVOR: dict[str, Any] = dict(occupation=Occupation(name="Farmer", proficiency="Nature", item="pitchfork"), items=[])


def up(c: Character, faces: list[int], rules: Ruleset = RULES, **kw: Any) -> Character:
    """One level up with exactly these dice (all must be used)."""
    dice = ScriptedDice(faces)
    after, _ = level_up(c, dice, rules, **kw)
    assert dice.remaining == 0
    return after


# -- F-HP-01 pure hit dice --------------------------------------------------------------------------------
@pytest.mark.parametrize("char_class", ["Fighter", "Cleric", "Rogue", "Magic-user"])
def test_F_HP_01_roll_class_die_no_con_added(char_class: str) -> None:
    """F-HP-01: levels 2-5 roll the class die (d10/d8/d8/d6); CON is not added to the roll."""
    c = character(CLASS[char_class], level=1, hit_dice=1, CON=18)
    dice = ScriptedDice([SIDES[char_class]])
    after, events = level_up(c, dice, RULES)
    assert dice.used == [(SIDES[char_class], SIDES[char_class])]
    assert after.hp_max == 10 + SIDES[char_class]          # max face, no +3 for CON 18
    assert after.hp == 10 + SIDES[char_class]
    assert after.hp_history[-1].rolled == SIDES[char_class]
    assert events[0].kind == "level_up"
    assert (events[0].data["hp_before"], events[0].data["hp_after"]) == (10, after.hp_max)


@pytest.mark.parametrize(("char_class", "face"), [("Fighter", 11), ("Cleric", 9), ("Rogue", 9), ("Magic-user", 7)])
def test_F_HP_01_die_is_no_bigger_than_the_class_die(char_class: str, face: int) -> None:
    """F-HP-01, F-CLS-01: a face one above the class die cannot come up."""
    with pytest.raises(ValueError, match="cannot come up"):
        level_up(character(CLASS[char_class], level=1, hit_dice=1), ScriptedDice([face]), RULES)


# -- F-HP-02 the floor ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("face", "gained"), [(1, 3), (2, 3), (3, 3), (4, 4), (10, 10)])
def test_F_HP_02_fighter_con2_rolls_1_to_3_adds_3(face: int, gained: int) -> None:
    """F-HP-02 worked example 1: a Fighter with CON +2 rolling 1, 2 or 3 on d10 adds 3 (floor min(3, 5))."""
    c = character(CLASS["Fighter"], level=1, hit_dice=1, CON=16)
    assert hp_floor(c, RULES) == 3
    gain, rolls = gain_hp(c, 2, ScriptedDice([face]), RULES)
    assert (gain.rolled, gain.gained, gain.floor, gain.die) == (face, gained, 3, "d10")
    assert [r.total for r in rolls] == [face]
    assert up(c, [face]).hp_max == 10 + gained


@pytest.mark.parametrize(("face", "gained"), [(1, 3), (2, 3), (3, 3), (4, 4), (6, 6)])
def test_F_HP_02_magic_user_con3_d6_rolls_1_to_3_adds_3(face: int, gained: int) -> None:
    """F-HP-02 worked example 2: a Magic-user with CON +3 on d6 adds 3 on 1-3, 'even though 1+CON is 4'."""
    c = character(CLASS["Magic-user"], level=1, hit_dice=1, CON=18)
    assert hp_floor(c, RULES) == 3
    gain, _ = gain_hp(c, 3, ScriptedDice([face]), RULES)
    assert (gain.rolled, gain.gained, gain.floor) == (face, gained, 3)
    assert up(c, [face]).hp_max == 10 + gained


@pytest.mark.parametrize(("char_class", "con", "floor"), [
    ("Fighter", 10, 1), ("Fighter", 18, 4), ("Fighter", 20, 5),
    ("Cleric", 16, 3), ("Cleric", 20, 4), ("Rogue", 18, 4),
    ("Magic-user", 13, 2), ("Magic-user", 20, 3),
    ("Fighter", 8, 0), ("Fighter", 3, -2),
])
def test_F_HP_02_CF_09_floor_is_min_of_1_plus_con_and_half_die(char_class: str, con: int, floor: int) -> None:
    """F-HP-02, CF-09: floor = min(1 + CON, HD/2) (HD/2 = 3/4/5 for d6/d8/d10)."""
    assert hp_floor(character(CLASS[char_class], level=1, hit_dice=1, CON=con), RULES) == floor


@pytest.mark.parametrize("con", [3, 8])
def test_F_HP_02_AMB_11_negative_con_roll_stands(con: int) -> None:
    """F-HP-02, AMB-11: when 1 + CON ≤ 0 the roll stands (a 1 stays 1)."""
    c = character(CLASS["Fighter"], level=2, hit_dice=2, CON=con)
    gain, _ = gain_hp(c, 3, ScriptedDice([1]), RULES)
    assert gain.gained == 1


def test_F_HP_02_CF_09_uncapped_option() -> None:
    """CF-09 switch: hp_floor = uncapped gives at least 1 + CON: the Magic-user of example 2 gets 4."""
    rules = RULES.with_options({"hp_floor": "uncapped"})
    c = character(CLASS["Magic-user"], level=1, hit_dice=1, CON=18)
    assert hp_floor(c, rules) == 4
    gain, _ = gain_hp(c, 2, ScriptedDice([1]), rules)
    assert gain.gained == 4


def test_F_MU_01_CF_04_d8_option_floor_cap_4() -> None:
    """F-MU-01, CF-04: magic_user_hit_die = d8 rolls a d8 with floor cap 4 (CON +3 rolling 1 → 4)."""
    rules = RULES.with_options({"magic_user_hit_die": "d8"})
    c = character(CLASS["Magic-user"], level=1, hit_dice=1, CON=18)
    assert c.hit_die(rules) == "d8"
    assert hp_floor(c, rules) == 4
    assert up(c, [1], rules).hp_max == 10 + 4
    assert up(c, [8], rules).hp_max == 10 + 8


# -- F-HP-04 flat after level 5 -------------------------------------------------------------------------
@pytest.mark.parametrize("char_class", ["Fighter", "Cleric", "Rogue", "Magic-user"])
def test_F_HP_04_flat_dollar_at_levels_6_to_10_no_dice(char_class: str) -> None:
    """F-HP-04, CF-10: levels 6-10 add $ = 3/2/2/1 with no roll (F-FTR-01, F-CLR-01, F-ROG-01, F-MU-01)."""
    c = character(CLASS[char_class], level=5, hit_dice=5, CON=18, hp_max=30)
    for level in range(6, 11):
        dice = ScriptedDice([])
        c, events = level_up(c, dice, RULES, ability="STR" if level % 2 == 0 else None)
        assert dice.used == [] and events[0].rolls == ()
        assert c.hp_history[-1].gained == DOLLAR[char_class]
        assert c.hp_history[-1].rolled is None
    assert c.hp_max == 30 + 5 * DOLLAR[char_class]


def test_F_HP_04_CF_10_roll_option_after_level_5() -> None:
    """CF-10 switch: hp_after_level_5 = roll rolls the class die with the floor at level 6 too."""
    rules = RULES.with_options({"hp_after_level_5": "roll"})
    c = character(CLASS["Fighter"], level=5, hit_dice=5, CON=16, hp_max=30)
    assert up(c, [1], rules, ability="STR").hp_max == 30 + 3
    assert up(c, [9], rules, ability="STR").hp_max == 30 + 9


# -- F-HP-06 the pool ----------------------------------------------------------------------------------
def test_F_HP_06_hit_dice_pool_1_to_5_then_5() -> None:
    """F-HP-06, AMB-13: the pool holds 1 die at level 1 up to 5 at level 5, and stays 5 to level 10."""
    c, _ = promote(peasant(SURVIVOR), "Rogue", "Arcane Trickster", ScriptedDice([5]), RULES)
    pools = [c.hit_dice]
    for level in range(2, 11):
        c = up(c, [5] if level <= 5 else [], ability="DEX" if level in (4, 6, 8, 10) else None)
        pools.append(c.hit_dice)
    assert pools == [1, 2, 3, 4, 5, 5, 5, 5, 5, 5]


def test_F_HP_06_spent_pool_refills_by_one_at_a_rolled_level() -> None:
    """F-HP-06: a level up adds one die to the pool (levels 2-5), never above the level's size."""
    c = character(CLASS["Cleric"], level=3, hit_dice=1)
    assert up(c, [4], ability="WIS").hit_dice == 2


# -- F-ADV-01 PROF --------------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", [RULES, RULES_B], ids=["F-TAB-05a", "F-TAB-05b"])
def test_F_ADV_01_prof_by_level(rules: Ruleset) -> None:
    """F-ADV-01: PROF for levels 0..10 is 0,1,1,2,2,3,3,3,3,4,4 in both tables."""
    profs = [character(CLASS["Fighter"], level=level, hit_dice=min(max(level, 1), 5)).prof(rules)
             for level in range(11)]
    assert profs == [0, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4]


def test_F_ADV_01_no_level_above_10() -> None:
    """F-ADV-01: levels run 0-10; a level-10 character cannot go up."""
    with pytest.raises(CharacterError, match="highest"):
        level_up(character(CLASS["Fighter"], level=10, hit_dice=5, hp_max=60), ScriptedDice([]), RULES)


def test_F_ADV_01_level_up_needs_a_class_and_a_living_character() -> None:
    """F-ADV-01, F-CHAR-01: a 0-level survivor is promoted first; the dead do not advance."""
    with pytest.raises(CharacterError, match="promote"):
        level_up(peasant(SURVIVOR), ScriptedDice([3]), RULES)
    with pytest.raises(CharacterError, match="dead"):
        level_up(character(CLASS["Fighter"], level=2, hit_dice=2, dead="eaten"), ScriptedDice([3]), RULES)


# -- F-ADV-02 archetype features --------------------------------------------------------------------------
def feature_levels(rules: Ruleset) -> list[int]:
    c, _ = promote(peasant(SURVIVOR), "Fighter", "Barbarian", ScriptedDice([6]), rules)
    levels = []
    for level in range(2, 11):
        before = len(c.archetype_features)
        c = up(c, [6] if level <= 5 else [], rules, ability="STR" if level in (4, 6, 8, 10) else None)
        if len(c.archetype_features) > before:
            levels.append(level)
    return levels


def test_F_ADV_02_CF_01_features_at_2_5_7_with_f_tab_05a() -> None:
    """F-ADV-02, CF-01: the main table (default F-TAB-05a) gives archetype features at levels 2, 5 and 7."""
    assert RULES["advancement_table"] == "F-TAB-05a"
    assert feature_levels(RULES) == [2, 5, 7]


def test_F_ADV_02_CF_01_features_at_3_7_with_f_tab_05b() -> None:
    """F-ADV-02, CF-01: advancement_table = F-TAB-05b gives archetype features at levels 3 and 7."""
    assert feature_levels(RULES_B) == [3, 7]


# -- F-ADV-03 ability score improvement ---------------------------------------------------------------------
@pytest.mark.parametrize("level", [4, 6, 8, 10])
def test_F_ADV_03_plus_one_needs_a_choice_at_4_6_8_10(level: int) -> None:
    """F-ADV-03: levels 4, 6, 8, 10 give +1 to a chosen score; without a choice level_up raises."""
    c = character(CLASS["Fighter"], level=level - 1, hit_dice=min(level - 1, 5), hp_max=30)
    faces = [5] if level <= 5 else []
    with pytest.raises(CharacterError, match="choose"):
        level_up(c, ScriptedDice(faces), RULES)
    after = up(c, faces, ability="WIS")
    assert after.scores["WIS"] == 11
    assert {a: s for a, s in after.scores.items() if a != "WIS"} == {a: 10 for a in ABILITIES if a != "WIS"}


@pytest.mark.parametrize("level", [2, 3, 5, 7, 9])
def test_F_ADV_03_no_plus_one_at_other_levels(level: int) -> None:
    """F-ADV-03: other levels leave the scores alone."""
    c = character(CLASS["Fighter"], level=level - 1, hit_dice=min(level - 1, 5), hp_max=30)
    after = up(c, [5] if level <= 5 else [])
    assert after.scores == c.scores


def test_F_ABIL_03_F_ADV_03_level_up_plus_one_on_18_stays_18() -> None:
    """F-ABIL-03, F-ADV-03: the level-up +1 is non-magical: a 17 becomes 18, an 18 stays 18."""
    c = character(CLASS["Fighter"], level=3, hit_dice=3, STR=17, DEX=18)
    assert up(c, [5], ability="STR").scores["STR"] == 18
    assert up(c, [5], ability="DEX").scores["DEX"] == 18


def test_F_ADV_03_plus_one_recomputes_the_modifier() -> None:
    """F-ADV-03: 'Recompute the modifier afterwards': CON 15 → 16 raises the modifier and the floor."""
    c = character(CLASS["Fighter"], level=3, hit_dice=3, CON=15)
    assert (c.mod("CON"), hp_floor(c, RULES)) == (1, 2)
    after = up(c, [1], ability="CON")
    assert (after.mod("CON"), hp_floor(after, RULES)) == (2, 3)
    assert after.hp_history[-1].gained == 3        # the new floor applies to this level's roll


def test_F_ABIL_03_F_ADV_03_plus_one_on_a_magical_19_does_not_lower_it() -> None:
    """F-ABIL-03: non-magical increases stop at 18; a score already raised to 19 by magic must not drop."""
    c = character(CLASS["Fighter"], level=3, hit_dice=3, STR=19)
    assert up(c, [5], ability="STR").scores["STR"] == 19


def test_F_ADV_03_unknown_ability_is_a_character_error() -> None:
    """F-ADV-03: the +1 goes to one of the six abilities; any other name is the user's error."""
    with pytest.raises(CharacterError):
        level_up(character(CLASS["Fighter"], level=3, hit_dice=3), ScriptedDice([5]), RULES, ability="LUCK")  # type: ignore[arg-type]


# -- F-ARCH-01/02 archetype features by key; the Barbarian's d12 ------------------------------------------------
def test_F_ARCH_01_AMB_46_feature_chosen_by_key() -> None:
    """F-ARCH-01, AMB-46: the player chooses an unused feature by key; with no choice the first unused one."""
    c = character(CLASS["Fighter"], level=1, hit_dice=1)
    c2 = up(c, [5], feature="fearless")
    assert c2.archetype_features == ["fearless"]
    c3 = up(character(CLASS["Fighter"], level=4, hit_dice=4, archetype_features=["fearless"]), [5])
    assert c3.archetype_features == ["fearless", "rage"]


@pytest.mark.parametrize("wanted", ["fearless", "flight", "basic", "bloodmagic"])
def test_F_ARCH_01_unavailable_feature_raises(wanted: str) -> None:
    """F-ARCH-01: a taken feature, an unknown one, the basic row or another archetype's feature raises."""
    c = character(CLASS["Fighter"], level=4, hit_dice=4, archetype_features=["fearless"])
    with pytest.raises(CharacterError, match="not available"):
        level_up(c, ScriptedDice([5]), RULES, feature=wanted)


def test_F_ARCH_01_every_feature_taken_raises() -> None:
    """F-ARCH-01: five features in the menu; a sixth pick has nothing left."""
    c = character(CLASS["Fighter"], level=6, hit_dice=5, hp_max=40,
                  archetype_features=["rage", "melee-crit-19", "d12-hit-die", "fearless", "intimidating"])
    with pytest.raises(CharacterError, match="every Barbarian feature"):
        level_up(c, ScriptedDice([]), RULES)


def test_F_ARCH_02_barbarian_d12_hit_die() -> None:
    """F-ARCH-02, F-HP-01, F-HP-02: the d12 feature makes the Barbarian's die d12, floor cap 6."""
    c = character(CLASS["Fighter"], level=1, hit_dice=1, CON=20)
    assert c.hit_die(RULES) == "d10"
    c = up(c, [10], feature="d12-hit-die")
    assert c.hit_die(RULES) == "d12"
    assert c.archetype_feature_data(RULES)[0]["hp_floor_cap"] == 6
    assert hp_floor(c, RULES) == 5                                  # min(1 + 4, 6)
    assert hp_floor(c, RULES.with_options({"hp_floor": "uncapped"})) == 5
    before = c.hp_max
    c = up(c, [12])                                                  # a 12 can come up now
    assert c.hp_max == before + 12
    assert c.hp_history[-1].die == "d12"
    c = up(c, [1], ability="STR")
    assert c.hp_history[-1].gained == 5


def test_F_ARCH_02_d12_floor_cap_6_shows_with_an_uncapped_comparison() -> None:
    """F-ARCH-02: with CON +3 a d12 Barbarian's floor is 4 (= 1 + CON, under the cap 6), a d6 Magic-user's 3."""
    barbarian = character(CLASS["Fighter"], level=2, hit_dice=2, CON=18, archetype_features=["d12-hit-die"])
    wizard = character(CLASS["Magic-user"], level=2, hit_dice=2, CON=18)
    assert (hp_floor(barbarian, RULES), hp_floor(wizard, RULES)) == (4, 3)


def test_F_ARCH_02_d12_does_not_change_the_flat_dollar() -> None:
    """F-ARCH-02, F-HP-04: after level 5 a d12 Barbarian still adds the Fighter's $ = 3, no roll."""
    c = character(CLASS["Fighter"], level=5, hit_dice=5, archetype_features=["rage", "d12-hit-die"], hp_max=40)
    assert up(c, [], ability="STR").hp_max == 43


# -- a survivor to level 10 under both tables ----------------------------------------------------------------
@pytest.mark.parametrize("rules", [RULES, RULES_B], ids=["F-TAB-05a", "F-TAB-05b"])
@pytest.mark.parametrize("char_class", ["Fighter", "Cleric", "Rogue", "Magic-user"])
def test_F_HP_01_F_HP_04_F_ADV_01_02_03_survivor_to_level_10(char_class: str, rules: Ruleset) -> None:
    """F-HP-01/02/04/06, F-ADV-01/02/03, D-6: promote a survivor and level to 10.

    HP = 0-level HP + the five rolled gains (levels 1-5, floored) + 5 × $; PROF 4; saves unchanged;
    features 3 (F-TAB-05a) or 2 (F-TAB-05b); pool 5; STR 16 + four +1s capped at 18.
    """
    archetype, race = CLASS[char_class]["archetype"], CLASS[char_class]["race"]
    sides = SIDES[char_class]
    rolls = [sides, 1, 2, sides - 1, 3]                     # levels 1..5
    floor = min(1 + 2, sides // 2)                          # CON 16: +2
    gains = [max(r, floor) for r in rolls]
    start = peasant(SURVIVOR, CON=16, STR=16, hp_max=3, race=race)
    dice = ScriptedDice([rolls[0]])
    c, _ = promote(start, char_class, archetype, dice, rules, extra_save="CON")
    assert dice.remaining == 0
    for level in range(2, 11):
        c = up(c, [rolls[level - 1]] if level <= 5 else [], rules,
               ability="STR" if level in (4, 6, 8, 10) else None)
        assert c.level == level
    assert [g.gained for g in c.hp_history[:5]] == gains
    assert [g.gained for g in c.hp_history[5:]] == [DOLLAR[char_class]] * 5
    assert c.hp_max == c.hp == 3 + sum(gains) + 5 * DOLLAR[char_class]
    assert c.prof(rules) == 4
    assert c.saves == [c.class_data(rules)["save_ability"], "CON"]
    assert len(c.archetype_features) == (3 if rules["advancement_table"] == "F-TAB-05a" else 2)
    assert c.hit_dice == 5
    assert c.scores["STR"] == 18
    assert len(c.hp_history) == 10


def test_F_HP_04_derived_example_fighter_level_10() -> None:
    """F-HP-04 (DERIVED example): a 10th-level Fighter has 5 HD rolls + 15 (here with 0-level HP 4, D-6)."""
    c, _ = promote(peasant(SURVIVOR, hp_max=4), "Fighter", "Barbarian", ScriptedDice([6]), RULES)
    for level, face in zip(range(2, 11), [7, 8, 9, 10, 0, 0, 0, 0, 0], strict=True):
        c = up(c, [face] if level <= 5 else [], ability="STR" if level in (4, 6, 8, 10) else None)
    assert c.hp_max == 4 + (6 + 7 + 8 + 9 + 10) + 15
