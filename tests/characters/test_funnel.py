"""The 0-level funnel and promotion to level 1 (`furnace.characters.funnel`).

RULES.md F.4 (F-CHAR-01..04), F-HP-03, F-HP-05, D-6 (AMB-12), F-ARCH-01..05 (basic archetype
proficiencies and prerequisites), F-FTR-02 / F-CLR-02 / F-ROG-02 / F-MU-02 (saves at level 1).
"""

from __future__ import annotations

import random

import pytest

from furnace.characters.character import CharacterError
from furnace.characters.funnel import RACES, new_zero_level, promote, run_funnel, skill_count
from furnace.dice import ScriptedDice
from furnace.errors import FurnaceError
from furnace.rules.effects import ABILITIES
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import peasant, score_faces

RULES = load_ruleset()
TEN = dict.fromkeys(ABILITIES, 10)


# -- F-CHAR-01 the funnel ----------------------------------------------------------------------------------
def test_F_CHAR_01_four_players_four_peasants_each() -> None:
    """F-CHAR-01, F-ABIL-01, F-HP-05, F-ADV-01: 4 players × 4 level-0 characters, 3d6 scores, 1d4 HP, PROF 0."""
    party = run_funnel(random.Random(1), 4, 4)
    assert len(party.characters) == 16
    assert {p: len(cs) for p, cs in party.by_player().items()} == {f"Player {i}": 4 for i in range(1, 5)}
    assert len({c.name for c in party.characters}) == 16
    for c in party.characters:
        assert c.level == 0
        assert c.char_class is None
        assert list(c.scores) == list(ABILITIES)
        assert all(2 <= s <= 18 for s in c.scores.values()), c.scores   # after race
        assert c.race in RACES
        assert c.occupation is not None and c.occupation.proficiency and c.occupation.item
        assert 1 <= c.hp_max <= 4 and c.hp == c.hp_max
        assert c.hit_dice == 1
        assert c.prof(RULES) == 0
        assert c.alive


def test_F_CHAR_01_F_ABIL_01_rolled_scores_3_to_18_before_race() -> None:
    """F-ABIL-01 (3-18 as rolled), F-RACE-01 (then ±1): the logged 3d6 plus the race give the scores."""
    party = run_funnel(random.Random(1), 4, 4)
    races = RULES.tables.get("races")
    rolled = {e.actor: e.rolls for e in party.events if e.kind == "ability_scores"}
    assert len(rolled) == 16
    for c in party.characters:
        rolls = rolled[c.name]
        assert len(rolls) == 6 and all(len(r.faces) == 3 and 3 <= r.total <= 18 for r in rolls)
        adjust = races.lookup(c.race).data["adjust"]
        for ability, roll in zip(ABILITIES, rolls, strict=True):
            expected = max(0, min(18, roll.total + adjust.get(ability, 0)))
            assert c.scores[ability] == expected, (c.name, ability)


def test_F_CHAR_01_same_seed_same_party() -> None:
    """F-CHAR-01: a seeded funnel is reproducible (replays, tests)."""
    a = run_funnel(random.Random(1), 4, 4)
    b = run_funnel(random.Random(1), 4, 4)
    assert [c.model_dump() for c in a.characters] == [c.model_dump() for c in b.characters]
    c = run_funnel(random.Random(2), 4, 4)
    assert [x.model_dump() for x in a.characters] != [x.model_dump() for x in c.characters]


def test_F_CHAR_01_party_size_limits() -> None:
    """F-CHAR-01: a funnel needs players and characters."""
    with pytest.raises(CharacterError):
        run_funnel(random.Random(1), 0, 4)
    with pytest.raises(CharacterError):
        run_funnel(random.Random(1), 4, 0)


def test_F_CHAR_01_record_death_keeps_the_fallen() -> None:
    """F-CHAR-01: the fallen stay on the roster with how they died; survivors advance."""
    party = run_funnel(random.Random(1), 1, 4).record_death("P1-2", "fell into the well")
    assert [c.name for c in party.survivors] == ["P1-1", "P1-3", "P1-4"]
    dead = next(c for c in party.characters if c.name == "P1-2")
    assert dead.dead == "fell into the well"
    with pytest.raises(CharacterError, match="dead"):
        promote(dead, "Fighter", "Barbarian", ScriptedDice([5]), RULES)
    with pytest.raises(CharacterError, match="already dead"):
        party.record_death("P1-2", "again")


# -- F-HP-05 level-0 HP ----------------------------------------------------------------------------------
@pytest.mark.parametrize("face", [1, 2, 3, 4])
def test_F_HP_05_zero_level_hp_is_1d4(face: int) -> None:
    """F-HP-05: a 0-level character has 1d4 HP (no floor, no CON); F-HP-06: one d4 in the pool."""
    dice = ScriptedDice([*score_faces({**TEN, "CON": 18}), face, 3])
    c, _ = new_zero_level(dice, RULES, name="A", race="Human")
    assert c.hp_max == c.hp == face
    assert c.hit_dice == 1
    assert dice.used[18] == (face, 4)            # the 19th die is a d4


def test_F_HP_05_zero_level_die_is_a_d4_not_bigger() -> None:
    """F-HP-05: scripting a 5 for the HP die fails, because the die is a d4."""
    with pytest.raises(ValueError, match="d4"):
        new_zero_level(ScriptedDice([*score_faces(TEN), 5, 3]), RULES, name="A", race="Human")


def test_F_CHAR_01_dice_order_with_race_and_name_drawn() -> None:
    """F-CHAR-01: with no race and no name given, the race and a name are drawn after the scores."""
    dice = ScriptedDice([*score_faces(TEN), 4, 43, 2, 3])   # race 4 → Halfling; name 042; HP 2; d100 3
    c, _ = new_zero_level(dice, RULES)
    assert c.race == "Halfling"
    assert c.name == "Peasant 042"
    assert c.hp_max == 2
    assert c.occupation is not None and c.occupation.name == "Ditch digger"
    assert (c.scores["DEX"], c.scores["STR"]) == (11, 9)
    assert dice.remaining == 0


# -- F-CHAR-02 occupation -----------------------------------------------------------------------------
@pytest.mark.parametrize(("d100", "name", "prof", "kind", "item"), [
    (3, "Ditch digger", "Athletics", "skill", "shovel"),
    (5, "Blacksmith", "Blacksmith's tools", "tool", "smith's hammer"),
    (1, "Farmer", "Nature", "skill", "pitchfork"),
    (100, "Puppeteer", "Performance", "skill", "hand puppet of a grinning devil"),
])
def test_F_CHAR_02_occupation_from_x_tab_01(d100: int, name: str, prof: str, kind: str, item: str) -> None:
    """F-CHAR-02 / X-TAB-01: d100 gives the occupation, one skill or tool PROF and the trade item."""
    dice = ScriptedDice([*score_faces(TEN), 2, d100])
    c, _ = new_zero_level(dice, RULES, name="A", race="Human")
    assert c.occupation is not None
    assert (c.occupation.name, c.occupation.proficiency, c.occupation.proficiency_kind) == (name, prof, kind)
    assert c.occupation.item == item and c.occupation.roll == d100
    assert c.items == [item]
    assert (c.skills, c.tools) == (([prof], []) if kind == "skill" else ([], [prof]))
    assert dice.used[-1] == (d100, 100)


@pytest.mark.parametrize(("choice", "skill"), [(1, "Performance"), (2, "Deception")])
def test_F_CHAR_02_beggar_chooses_performance_or_deception(choice: int, skill: str) -> None:
    """F-CHAR-02: the document's Beggar example: Performance or Deception (one chosen)."""
    dice = ScriptedDice([*score_faces(TEN), 2, 7, choice])
    c, _ = new_zero_level(dice, RULES, name="A", race="Human")
    assert c.occupation is not None and c.occupation.name == "Beggar"
    assert c.skills == [skill]
    assert dice.remaining == 0


def test_F_CHAR_02_funnel_occupations_match_the_table() -> None:
    """F-CHAR-02: every funnel occupation is the X-TAB-01 row of its d100 roll."""
    table = RULES.tables.get("occupations")
    assert table.id == "X-TAB-01"
    for c in run_funnel(random.Random(7), 4, 4).characters:
        assert c.occupation is not None and c.occupation.roll is not None
        row = table.lookup(c.occupation.roll).data
        assert row["occupation"] == c.occupation.name
        prof = row["proficiency"]
        assert c.occupation.proficiency == prof.get("name", c.occupation.proficiency)
        assert c.occupation.proficiency in prof.get("choices", [prof.get("name")])


# -- F-CHAR-03 promotion ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("char_class", "archetype", "race", "save", "basic", "face", "die"), [
    ("Fighter", "Barbarian", "Human", "STR", ["Intimidation", "Survival"], 10, 10),          # F-ARCH-02
    ("Cleric", "Bloodshaman", "Half-orc", "WIS", ["Intimidation", "Medicine"], 8, 8),        # F-ARCH-03
    ("Rogue", "Arcane Trickster", "Elf", "DEX", ["Arcana", "Insight"], 8, 8),                # F-ARCH-04
    ("Magic-user", "Wizard", "Dwarf", "INT", ["Arcana", "History"], 6, 6),                   # F-ARCH-05
])
def test_F_CHAR_03_F_ARCH_01_promote_to_each_class(char_class: str, archetype: str, race: str, save: str,
                                                   basic: list[str], face: int, die: int) -> None:
    """F-CHAR-03, F-ARCH-01..05: class, archetype, its basic PROFs, class save first, level 1, PROF +1."""
    survivor = peasant(INT=13, hp_max=3, race=race)
    dice = ScriptedDice([face])
    c, events = promote(survivor, char_class, archetype, dice, RULES, skills=["Perception"], extra_save="CON")
    assert (c.char_class, c.archetype, c.level) == (char_class, archetype, 1)
    assert c.saves == [save, "CON"]
    assert c.skills == ["Nature", *basic, "Perception"]
    assert c.features == c.class_data(RULES)["features"]
    assert c.prof(RULES) == 1
    assert c.hp_max == c.hp == 3 + face            # D-6 default: 0-level HP + the class die
    assert c.hit_dice == 1
    assert dice.used == [(face, die)]
    assert dice.remaining == 0
    assert events[0].kind == "promote" and (events[0].data["hp_before"], events[0].data["hp_after"]) == (3,
                                                                                               3 + face)


def test_F_ARCH_03_bloodshaman_needs_a_half_orc() -> None:
    """F-ARCH-03: a Bloodshaman must be a Half-orc; a Human raises CharacterError."""
    with pytest.raises(CharacterError, match="Half-orc"):
        promote(peasant(race="Human"), "Cleric", "Bloodshaman", ScriptedDice([4]), RULES)
    c, _ = promote(peasant(race="Half-orc"), "Cleric", "Bloodshaman", ScriptedDice([4]), RULES)
    assert c.archetype == "Bloodshaman"


@pytest.mark.parametrize(("char_class", "archetype"), [
    ("Cleric", "Barbarian"), ("Rogue", "Wizard"), ("Magic-user", "Arcane Trickster"), ("Fighter", "Wizard")])
def test_F_CHAR_03_F_ARCH_02_archetype_belongs_to_its_class(char_class: str, archetype: str) -> None:
    """F-CHAR-03, F-ARCH-02: the Barbarian is a Fighter archetype; a Cleric Barbarian raises (and so on)."""
    with pytest.raises(CharacterError, match="archetype of the"):
        promote(peasant(), char_class, archetype, ScriptedDice([4]), RULES)


def test_F_CHAR_03_only_four_classes_and_only_level_0() -> None:
    """F-CHAR-03: exactly four classes; only a 0-level survivor is promoted; unknown archetypes raise."""
    with pytest.raises(CharacterError, match="class must be one of"):
        promote(peasant(), "Paladin", "Barbarian", ScriptedDice([4]), RULES)
    c, _ = promote(peasant(), "Fighter", "Barbarian", ScriptedDice([4]), RULES)
    with pytest.raises(CharacterError, match="not a 0-level"):
        promote(c, "Fighter", "Barbarian", ScriptedDice([4]), RULES)
    with pytest.raises(FurnaceError):
        promote(peasant(), "Fighter", "Berserker", ScriptedDice([4]), RULES)


def test_F_FTR_02_AMB_62_saves_class_first_extra_not_doubled() -> None:
    """F-FTR-02, AMB-62: saves are the class save plus one chosen; choosing the class save again adds nothing."""
    c, _ = promote(peasant(), "Fighter", "Barbarian", ScriptedDice([4]), RULES, extra_save="STR")
    assert c.saves == ["STR"]
    c, _ = promote(peasant(), "Fighter", "Barbarian", ScriptedDice([4]), RULES, extra_save="WIS")
    assert c.saves == ["STR", "WIS"]


def test_F_ROG_03_expertise_kept_only_for_a_rogue() -> None:
    """F-ROG-03: Expertise (2 more skills) belongs to the Rogue."""
    rogue, _ = promote(peasant(), "Rogue", "Arcane Trickster", ScriptedDice([4]), RULES,
                       expertise=["Stealth", "Acrobatics"])
    assert rogue.expertise == ["Stealth", "Acrobatics"]
    with pytest.raises(CharacterError, match="only a Rogue"):
        promote(peasant(), "Fighter", "Barbarian", ScriptedDice([4]), RULES, expertise=["Stealth", "Acrobatics"])
    with pytest.raises(CharacterError, match="only a Rogue"):
        promote(peasant(), "Rogue", "Arcane Trickster", ScriptedDice([4]), RULES,
                expertise=["Stealth", "Acrobatics", "Insight"])


def test_F_ARCH_01_duplicate_proficiencies_are_not_doubled() -> None:
    """F-ARCH-01, AMB-43: an occupation skill that the archetype also gives is listed once."""
    survivor = peasant().model_copy(update={"skills": ["Intimidation"]})
    c, _ = promote(survivor, "Fighter", "Barbarian", ScriptedDice([4]), RULES)
    assert c.skills == ["Intimidation", "Survival"]


# -- F-CHAR-04 skills at level 1 -------------------------------------------------------------------------
@pytest.mark.parametrize(("intelligence", "others", "rogue"), [
    (3, 0, 0),      # INT −3: 1−3 → 0, 3−3 → 0
    (4, 0, 1),      # INT −2
    (8, 0, 2),      # INT −1: 1−1 = 0
    (10, 1, 3),
    (13, 2, 4),
    (16, 3, 5),
    (18, 4, 6),
])
def test_F_CHAR_04_skill_count_1_plus_int_rogue_3_plus_int(intelligence: int, others: int, rogue: int) -> None:
    """F-CHAR-04, CF-08, AMB-43: 1 + INT (Rogue 3 + INT), never below 0 (a Dwarf: no Human bonus skill)."""
    c = peasant(INT=intelligence, race="Dwarf")
    for char_class in ("Fighter", "Cleric", "Magic-user"):
        assert skill_count(c, char_class, RULES) == others
    assert skill_count(c, "Rogue", RULES) == rogue


def test_F_CHAR_04_F_ROG_02_rogue_skills_general_table_option() -> None:
    """F-ROG-02, CF-08: with rogue_skills = general_table the Rogue chooses 1 + INT like every class."""
    rules = RULES.with_options({"rogue_skills": "general_table"})
    assert skill_count(peasant(INT=16, race="Dwarf"), "Rogue", rules) == 3
    assert skill_count(peasant(INT=3, race="Dwarf"), "Rogue", rules) == 0


def test_F_CHAR_04_promote_refuses_too_many_skills() -> None:
    """F-CHAR-04: a Fighter with INT 0 chooses 1 skill; a Rogue with INT 0 chooses 3."""
    with pytest.raises(CharacterError, match="chooses 1 skills"):
        promote(peasant(race="Dwarf"), "Fighter", "Barbarian", ScriptedDice([4]), RULES,
                skills=["Athletics", "Stealth"])
    c, _ = promote(peasant(race="Dwarf"), "Rogue", "Arcane Trickster", ScriptedDice([4]), RULES,
                   skills=["Stealth", "Acrobatics", "Deception"])
    assert c.skills == ["Nature", "Arcana", "Insight", "Stealth", "Acrobatics", "Deception"]
    with pytest.raises(CharacterError):
        promote(peasant(race="Dwarf"), "Rogue", "Arcane Trickster", ScriptedDice([4]), RULES,
                skills=["Stealth", "Acrobatics", "Deception", "Athletics"])
    with pytest.raises(CharacterError, match="chooses 0 skills"):
        promote(peasant(INT=3, race="Dwarf"), "Magic-user", "Wizard", ScriptedDice([4]), RULES, skills=["Arcana"])


def test_F_RACE_02_F_CHAR_04_human_chooses_one_more_skill() -> None:
    """F-RACE-02, F-CHAR-04: 'You are PROF with one chosen Skill'; it stacks with the 1 + INT class skills."""
    c, _ = promote(peasant(race="Human"), "Fighter", "Barbarian", ScriptedDice([4]), RULES,
                   skills=["Athletics", "Perception"])
    assert {"Athletics", "Perception"} <= set(c.skills)


# -- F-HP-03 level-1 HP and D-6 carry-over ----------------------------------------------------------------
def test_F_HP_03_level_1_hp_is_the_class_die_roll() -> None:
    """F-HP-03, F-FTR-01: a Fighter rolls 1d10 at level 1 (CON not added: F-HP-01)."""
    c, _ = promote(peasant(CON=16, hp_max=2), "Fighter", "Barbarian", ScriptedDice([7]), RULES)
    assert c.hp_max == 2 + 7
    assert c.hp_history[-1].rolled == 7 and c.hp_history[-1].gained == 7 and c.hp_history[-1].die == "d10"


def test_F_HP_03_AMB_11_floor_applies_at_level_1() -> None:
    """F-HP-03, F-HP-02, AMB-11: the floor min(1 + CON, HD/2) applies to the level-1 roll (CON +2 → 3)."""
    c, _ = promote(peasant(CON=16, hp_max=2), "Fighter", "Barbarian", ScriptedDice([1]), RULES)
    assert c.hp_history[-1].gained == 3
    assert c.hp_max == 2 + 3


def test_F_HP_03_AMB_11_floor_at_level_1_option_off() -> None:
    """AMB-11 switch: hp_floor_at_level_1 = false lets the level-1 roll of 1 stand."""
    rules = RULES.with_options({"hp_floor_at_level_1": False})
    c, _ = promote(peasant(CON=16, hp_max=2), "Fighter", "Barbarian", ScriptedDice([1]), rules)
    assert c.hp_history[-1].gained == 1
    assert c.hp_max == 3


@pytest.mark.parametrize(("char_class", "archetype", "con", "gained"), [
    ("Fighter", "Barbarian", 16, 4 + 2),
    ("Cleric", "Bloodshaman", 13, 3 + 1),
    ("Rogue", "Arcane Trickster", 10, 3 + 0),
    ("Magic-user", "Wizard", 18, 2 + 3),
    ("Magic-user", "Wizard", 3, 1),          # 2 − 3 = −1, clamped to 1 (AMB-11)
    ("Fighter", "Barbarian", 3, 1),          # 4 − 3 = 1
    ("Cleric", "Bloodshaman", 4, 1),         # 3 − 2 = 1
    ("Rogue", "Arcane Trickster", 3, 1),     # 3 − 3 = 0 → 1
])
def test_F_HP_03_fixed_option_4_3_3_2_plus_con_at_least_1(char_class: str, archetype: str, con: int,
                                                           gained: int) -> None:
    """F-HP-03, F-FTR-01, F-CLR-01, F-ROG-01, F-MU-01: level1_hp = fixed gives 4/3/3/2 + CON, min 1, no dice."""
    rules = RULES.with_options({"level1_hp": "fixed"})
    dice = ScriptedDice([])
    c, _ = promote(peasant(CON=con, hp_max=2, race="Half-orc"), char_class, archetype, dice, rules)
    assert c.hp_history[-1].gained == gained
    assert c.hp_max == 2 + gained
    assert dice.used == []


@pytest.mark.parametrize(("carry", "hp_max"), [("add", 4 + 6), ("replace", 6)])
def test_D_6_funnel_hp_carryover_add_or_replace(carry: str, hp_max: int) -> None:
    """D-6 (AMB-12), F-CHAR-01: by default the 0-level 1d4 HP are kept and the class die added; replace drops them."""
    rules = RULES if carry == "add" else RULES.with_options({"funnel_hp_carryover": carry})
    assert rules["funnel_hp_carryover"] == carry
    c, events = promote(peasant(hp_max=4), "Fighter", "Barbarian", ScriptedDice([6]), rules)
    assert c.hp_max == c.hp == hp_max
    assert (events[0].data["hp_before"], events[0].data["hp_after"]) == (4, hp_max)


def test_D_6_carryover_with_the_fixed_option() -> None:
    """D-6 with F-HP-03 fixed: a Cleric with CON +1 and 0-level HP 2 has 2 + 3 + 1 = 6."""
    rules = RULES.with_options({"level1_hp": "fixed"})
    c, _ = promote(peasant(CON=14, hp_max=2, race="Half-orc"), "Cleric", "Bloodshaman", ScriptedDice([]), rules)
    assert c.hp_max == 6
