"""The character model (`furnace.characters.character`): scores, modifiers, races, class data, AC, load, JSON.

RULES.md F.2 (F-ABIL-01..05), F.3 (F-RACE-01..06), F-CLS-01 and the class proficiency rules
(F-FTR-01/02, F-CLR-01/02, F-ROG-01/02, F-MU-01/02), F-EQ-01 / F-TAB-21 (AC), F-LOAD-01 (load).
The JSON tests (test_json_*) check the save-file format, which has no RULES.md id.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from furnace.characters.abilities import modifier, roll_in_order
from furnace.characters.character import SCHEMA_VERSION, Character, CharacterError, HpGain, Occupation, Weapon
from furnace.characters.funnel import new_zero_level
from furnace.dice import ScriptedDice
from furnace.errors import DataFileError
from furnace.rules.effects import ABILITIES
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import character, zero_level_dice

RULES = load_ruleset()
TEN = dict.fromkeys(ABILITIES, 10)
TEST: dict[str, Any] = dict(name="Test", hp_max=4)   # scores 10, 4 HP


ROLLED = {"STR": 18, "DEX": 3, "CON": 18, "INT": 9, "WIS": 13, "CHA": 3}


# -- F-ABIL-01 3d6 in order ---------------------------------------------------------------------------
def test_F_ABIL_01_three_d6_in_order_str_dex_con_int_wis_cha() -> None:
    """F-ABIL-01: six 3d6 rolls go to STR, DEX, CON, INT, WIS, CHA in that order, unarranged."""
    faces = [6, 6, 6, 1, 1, 1, 2, 3, 4, 5, 5, 5, 1, 2, 3, 4, 4, 4]
    rolls = roll_in_order(ScriptedDice(faces))
    assert [r.ability for r in rolls] == ["STR", "DEX", "CON", "INT", "WIS", "CHA"]
    assert [r.score for r in rolls] == [18, 3, 9, 15, 6, 12]
    assert all(len(r.roll.faces) == 3 for r in rolls)


def test_F_ABIL_01_new_zero_level_keeps_the_order_for_a_human() -> None:
    """F-ABIL-01: a 0-level Human keeps the rolled scores in order (no ±1, no rearranging)."""
    dice = zero_level_dice(ROLLED)
    c, _ = new_zero_level(dice, RULES, name="A", race="Human")
    assert c.scores == ROLLED
    assert list(c.scores) == list(ABILITIES)
    assert dice.remaining == 0
    assert [sides for _, sides in dice.used[:18]] == [6] * 18


@pytest.mark.parametrize("seed", range(5))
def test_F_ABIL_01_seeded_scores_run_3_to_18(seed: int) -> None:
    """F-ABIL-01: range 3-18."""
    import random

    rolls = roll_in_order(random.Random(seed))
    assert all(3 <= r.score <= 18 for r in rolls)


# -- F-ABIL-02 modifiers ------------------------------------------------------------------------------
@pytest.mark.parametrize(("score", "mod"), [(3, -3), (8, -1), (12, 0), (13, 1), (18, 3), (20, 4)])
def test_F_ABIL_02_modifier_examples(score: int, mod: int) -> None:
    """F-ABIL-02 / F-TAB-02: 3→−3, 8→−1, 12→0, 13→+1 (CF-03/AMB-08), 18→+3, 20→+4."""
    assert modifier(score) == mod
    assert character(TEST, STR=score).mod("STR") == mod


def test_F_ABIL_02_whole_table_1_to_20() -> None:
    """F-ABIL-02 / F-TAB-02: every score 1-20."""
    expected = {1: -3, 2: -3, 3: -3, 4: -2, 5: -2, 6: -1, 7: -1, 8: -1, 9: 0, 10: 0, 11: 0, 12: 0,
                13: 1, 14: 1, 15: 1, 16: 2, 17: 2, 18: 3, 19: 3, 20: 4}
    assert {s: modifier(s) for s in range(1, 21)} == expected


def test_F_ABIL_02_mods_property_covers_all_six() -> None:
    """F-ABIL-02: the derived mods of a character, one per ability."""
    c = character(TEST, STR=18, DEX=3, CON=13, INT=12, WIS=8, CHA=20)
    assert c.mods == {"STR": 3, "DEX": -3, "CON": 1, "INT": 0, "WIS": -1, "CHA": 4}


# -- F-ABIL-03 caps -----------------------------------------------------------------------------------
def test_F_ABIL_03_racial_plus_one_on_18_stays_18() -> None:
    """F-ABIL-03, AMB-09: a Dwarf's CON +1 on a rolled 18 stays 18 (natural cap)."""
    c, _ = new_zero_level(zero_level_dice(ROLLED), RULES, name="A", race="Dwarf")
    assert c.scores["CON"] == 18


def test_F_ABIL_03_racial_minus_one_takes_3_to_2() -> None:
    """F-ABIL-03, AMB-09: a racial −1 may take a 3 to 2 (modifier −3)."""
    c, _ = new_zero_level(zero_level_dice(ROLLED), RULES, name="A", race="Dwarf")
    assert c.scores["CHA"] == 2


# (the level-up +1 on 18 is in test_advancement.py: test_F_ABIL_03_F_ADV_03_level_up_plus_one_on_18_stays_18)


# -- F-ABIL-05 a score of 0 -------------------------------------------------------------------------
def test_F_ABIL_05_score_of_zero_is_a_valid_model_value() -> None:
    """F-ABIL-05: a score can reach 0 (the character dies, handled elsewhere); the model accepts it."""
    data = character(TEST).model_dump(mode="json")
    data["scores"]["CON"] = 0
    c = Character.from_dict(data)
    assert c.scores["CON"] == 0


@pytest.mark.parametrize("bad", [21, -1])
def test_F_ABIL_05_F_ABIL_03_scores_outside_0_to_20_are_refused(bad: int) -> None:
    """F-ABIL-03 (absolute cap 20), F-ABIL-05 (0 the floor): 21 and −1 are refused, naming the field."""
    data = character(TEST).model_dump(mode="json")
    data["scores"]["STR"] = bad
    with pytest.raises(DataFileError) as err:
        Character.from_dict(data, "hero.json")
    assert "scores" in str(err.value)
    assert str(bad) in str(err.value)
    assert err.value.path == "hero.json"


def test_F_ABIL_01_missing_score_is_refused() -> None:
    """F-ABIL-01: a character has all six scores."""
    data = character(TEST).model_dump(mode="json")
    del data["scores"]["WIS"]
    with pytest.raises(DataFileError, match="scores"):
        Character.from_dict(data)


# -- F-RACE-01..06 -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("race", "changes"), [
    ("Human", {}),                          # F-RACE-02
    ("Dwarf", {"CON": +1, "CHA": -1}),      # F-RACE-03
    ("Elf", {"INT": +1, "CON": -1}),        # F-RACE-04
    ("Halfling", {"DEX": +1, "STR": -1}),   # F-RACE-05
    ("Half-orc", {"STR": +1, "INT": -1}),   # F-RACE-06
])
def test_F_RACE_01_to_06_racial_adjustments_apply_to_scores(race: str, changes: dict[str, int]) -> None:
    """F-RACE-01 (+1/−1 to scores, not modifiers), F-RACE-02..06: each race's adjustment."""
    rolled = {"STR": 10, "DEX": 11, "CON": 12, "INT": 13, "WIS": 14, "CHA": 15}
    c, _ = new_zero_level(zero_level_dice(rolled), RULES, name="A", race=race)
    assert c.race == race
    assert c.scores == {a: rolled[a] + changes.get(a, 0) for a in ABILITIES}


def test_F_RACE_01_every_non_human_race_is_plus_one_minus_one() -> None:
    """F-RACE-01: the race formula: one score +1, one −1 (Human: none, F-RACE-02)."""
    races = RULES.tables.get("races")
    for race in ("Dwarf", "Elf", "Halfling", "Half-orc"):
        adjust = races.lookup(race).data["adjust"]
        assert sorted(adjust.values()) == [-1, 1], race
    assert races.lookup("Human").data["adjust"] == {}


def test_F_RACE_02_human_swaps_two_scores_once_at_creation() -> None:
    """F-RACE-02, AMB-10: a Human swaps STR 3 and CHA 18 after the 3d6 in order."""
    rolled = {"STR": 3, "DEX": 10, "CON": 11, "INT": 12, "WIS": 13, "CHA": 18}
    c, events = new_zero_level(zero_level_dice(rolled), RULES, name="A", race="Human", swap=("STR", "CHA"))
    assert c.scores["STR"] == 18 and c.scores["CHA"] == 3
    assert (c.scores["DEX"], c.scores["CON"], c.scores["INT"], c.scores["WIS"]) == (10, 11, 12, 13)
    assert c.swapped == ("STR", "CHA")
    assert "swap" in [e.kind for e in events]


@pytest.mark.parametrize("race", ["Dwarf", "Elf", "Halfling", "Half-orc"])
def test_F_RACE_02_only_a_human_may_swap(race: str) -> None:
    """F-RACE-02: the swap is the Human's feature; any other race raises CharacterError."""
    with pytest.raises(CharacterError, match="Human"):
        new_zero_level(zero_level_dice(ROLLED), RULES, name="A", race=race, swap=("STR", "CHA"))


def test_F_RACE_02_swap_with_unknown_ability_is_a_character_error() -> None:
    """F-RACE-02: a swap must name two of the six abilities; a bad name is the user's error."""
    with pytest.raises(CharacterError):
        new_zero_level(zero_level_dice(ROLLED), RULES, name="A", race="Human",
                       swap=("STR", "LUCK"))  # type: ignore[arg-type]


def test_F_RACE_unknown_race_is_refused() -> None:
    """F-RACE-01: races come from F-TAB-03; an unknown one raises CharacterError."""
    with pytest.raises(CharacterError, match="unknown race"):
        new_zero_level(zero_level_dice(ROLLED), RULES, name="A", race="Gnome")


# -- F-CLS-01 and the class proficiency rules ------------------------------------------------------------
@pytest.mark.parametrize(("char_class", "die", "save", "armor", "weapons", "features"), [
    ("Fighter", "d10", "STR", ["light", "heavy", "shield"], ["simple", "martial"], ["Cleave", "Fighting Style"]),
    ("Cleric", "d8", "WIS", ["light", "heavy", "shield"], ["simple"], ["Divine Prayers", "Lay on Hands"]),
    ("Rogue", "d8", "DEX", ["light", "shield"], ["simple", "martial"], ["Expertise", "Sneak Attack"]),
    ("Magic-user", "d6", "INT", ["shield"], ["simple"], ["Arcane Magic", "Cantrip"]),
])
def test_F_CLS_01_F_FTR_02_F_CLR_02_F_ROG_02_F_MU_02_class_table(
        char_class: str, die: str, save: str, armor: list[str], weapons: list[str], features: list[str]) -> None:
    """F-CLS-01 (F-TAB-04); F-FTR-01/02, F-CLR-01/02, F-ROG-01/02 (CF-07 shield), F-MU-01/02 (CF-06)."""
    c = character(TEST, char_class=char_class, level=1)
    data = c.class_data(RULES)
    assert c.hit_die(RULES) == die
    assert data["hit_die"] == die
    assert data["save_ability"] == save
    assert data["extra_saves"] == 1
    assert data["armor"] == armor
    assert data["weapons"] == weapons
    assert data["features"] == features


@pytest.mark.parametrize(("char_class", "fixed", "flat"), [
    ("Fighter", 4, 3), ("Cleric", 3, 2), ("Rogue", 3, 2), ("Magic-user", 2, 1)])
def test_F_FTR_01_F_CLR_01_F_ROG_01_F_MU_01_class_hp_numbers(char_class: str, fixed: int, flat: int) -> None:
    """F-FTR-01, F-CLR-01, F-ROG-01, F-MU-01: fixed level-1 option 4/3/3/2 + CON; $ 3/2/2/1 after level 5."""
    data = character(TEST, char_class=char_class, level=1).class_data(RULES)
    assert data["fixed_hp_1"] == fixed
    assert data["hp_after_5"] == flat


def test_F_MU_01_hit_die_option_d8() -> None:
    """F-MU-01, CF-04: the Magic-user's die is d6 by default, d8 with magic_user_hit_die = d8."""
    mu = character(TEST, char_class="Magic-user", level=1)
    assert mu.hit_die(RULES) == "d6"
    assert mu.hit_die(RULES.with_options({"magic_user_hit_die": "d8"})) == "d8"
    fighter = character(TEST, char_class="Fighter", level=1)
    assert fighter.hit_die(RULES.with_options({"magic_user_hit_die": "d8"})) == "d10"


def test_F_HP_05_zero_level_hit_die_is_d4() -> None:
    """F-HP-05, F-HP-06: a 0-level character (no class) has a d4."""
    assert character(TEST).hit_die(RULES) == "d4"
    assert character(TEST).class_data(RULES) == {}


def test_F_CHAR_03_unknown_class_is_refused() -> None:
    """F-CHAR-03: exactly four classes."""
    data = character(TEST).model_dump(mode="json")
    data["char_class"] = "Paladin"
    with pytest.raises(DataFileError, match="char_class"):
        Character.from_dict(data)


# -- AC (F-EQ-01, F-TAB-21) and load (F-LOAD-01) ------------------------------------------------------
@pytest.mark.parametrize(("armor", "shield", "style", "dex", "ac"), [
    (None, False, None, 16, 12),                 # unarmored 10 + DEX (+2)
    (None, False, None, 3, 7),                   # unarmored 10 + DEX (−3)
    ("unarmored", False, None, 14, 11),
    ("plate-mail", False, None, 18, 16),         # heavy: no DEX
    ("plate-mail", False, None, 3, 16),          # heavy: no negative DEX either
    ("boiled-leather", False, None, 16, 13),     # light: 11 + DEX
    ("boiled-leather", False, None, 8, 10),
    ("chain-mail", False, None, 16, 15),
    ("plate-mail", True, None, 10, 18),          # shield +2
    (None, True, None, 16, 14),
    ("plate-mail", True, "Defense", 10, 19),     # Defense style +1 (F-FTR-04)
    ("boiled-leather", False, "Defense", 16, 14),
    ("plate-mail", False, "Dueling", 10, 16),    # other styles do not change AC
])
def test_F_EQ_01_ac_from_armor(armor: str | None, shield: bool, style: str | None, dex: int, ac: int) -> None:
    """F-EQ-01 / F-TAB-21 (AMB-37 unarmored 10 + DEX), F-FTR-04 Defense +1 AC."""
    c = character(TEST, DEX=dex, armor=armor, shield=shield, fighting_style=style)
    assert c.ac(RULES) == ac


@pytest.mark.parametrize(("strength", "load"), [(16, 12), (10, 10), (3, 7), (18, 13), (13, 11)])
def test_F_LOAD_01_load_is_10_plus_str(strength: int, load: int) -> None:
    """F-LOAD-01: load = 10 + STR modifier (example: STR +2 → 12)."""
    assert character(TEST, STR=strength).load == load


# -- JSON round trip and migration -------------------------------------------------------------------------
BRENNA: dict[str, Any] = dict(
    name="Brenna", scores={"STR": 16, "DEX": 13, "CON": 14, "INT": 9, "WIS": 12, "CHA": 8}, player="Ana",
    race="Human", char_class="Fighter", archetype="Barbarian", level=3,
    occupation=Occupation(name="Farmer", proficiency="Nature", item="pitchfork", roll=1),
    hp_max=21, hp=17, hit_dice=3, saves=["STR", "CON"], skills=["Nature", "Intimidation"],
    hp_history=[HpGain(level=1, gained=7, die="d10", rolled=7, floor=2, reason="rolled 7")],
    armor="boiled-leather", shield=True, weapons=[Weapon(name="axe", category="martial")],
    items=["pitchfork"], features=["Cleave", "Fighting Style"], archetype_features=["rage"],
    fighting_style="Defense", swapped=("STR", "CHA"))   # every field set


def test_json_round_trip_equals() -> None:
    """Character JSON: to_json → from_json gives an equal character (tuples, nested models included)."""
    c = character(BRENNA)
    back = Character.from_json(c.to_json())
    assert back == c
    assert back.model_dump() == c.model_dump()
    assert json.loads(c.to_json())["schema_version"] == SCHEMA_VERSION


def test_json_version_0_with_class_and_abilities_keys_migrates() -> None:
    """Migration: a draft (schema 0) file with 'class' and 'abilities' keys loads; the pool is filled in."""
    old = {"name": "Old Tom", "class": "Cleric", "level": 3, "hp_max": 14, "hp": 14,
           "abilities": {"STR": 9, "DEX": 10, "CON": 12, "INT": 11, "WIS": 16, "CHA": 13}}
    c = Character.from_json(json.dumps(old))
    assert c.schema_version == SCHEMA_VERSION
    assert c.char_class == "Cleric"
    assert c.scores["WIS"] == 16
    assert c.hit_dice == 3


def test_json_version_0_level_0_gets_one_hit_die() -> None:
    """Migration, F-HP-06: a draft level-0 peasant gets a pool of one die; levels above 5 get 5."""
    base = {"name": "P", "hp_max": 3, "hp": 3, "abilities": dict(TEN)}
    assert Character.from_dict({**base, "schema_version": 0}).hit_dice == 1
    assert Character.from_dict({**base, "class": "Rogue", "level": 8}).hit_dice == 5


def test_json_newer_schema_version_is_refused() -> None:
    """Migration: a file from a newer Furnace is refused with a DataFileError naming schema_version."""
    data = character(BRENNA).model_dump(mode="json")
    data["schema_version"] = SCHEMA_VERSION + 1
    with pytest.raises(DataFileError, match="schema_version") as err:
        Character.from_dict(data, "new.json")
    assert err.value.path == "new.json"


def test_json_malformed_is_refused_with_the_line() -> None:
    """A malformed file is refused with a DataFileError naming the line."""
    text = '{\n  "name": "X",\n  "hp": ,\n}'
    with pytest.raises(DataFileError, match="not valid JSON") as err:
        Character.from_json(text, "bad.json")
    assert err.value.row == "line 3"
    assert err.value.path == "bad.json"


def test_json_wrong_field_is_named() -> None:
    """A field of the wrong type or an unknown field is refused, naming it."""
    data = character(BRENNA).model_dump(mode="json")
    with pytest.raises(DataFileError, match="hp_max"):
        Character.from_dict({**data, "hp_max": "lots"})
    with pytest.raises(DataFileError, match="colour"):
        Character.from_dict({**data, "colour": "red"})
    with pytest.raises(DataFileError, match="object"):
        Character.from_json("[1, 2]")
