"""Archetype and item powers read from their data (F-TAB-07, F-TAB-08, F-TAB-27) and applied, in fights and out:
F-ARCH-02 (a Barbarian is immune to FEAR effects; Intimidation EASY with no flag), F-ARCH-05 (Arcana EASY),
F-ARCH-03 (the Bloodshaman's martial weapon, Chosen one, Bloodmagic, Rally), F-MAGIC-02 / AMB-59 (the Shield of
Shielding's +1d4 AC for a round, once a day, in a fight). Every number comes from scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import Character, Weapon
from furnace.dice import ScriptedDice
from furnace.errors import IllegalActionError
from furnace.magic.state import magic_state
from furnace.play.aftermath import settle
from furnace.play.apply import apply_all
from furnace.play.combatant import Combatant, from_character
from furnace.play.encounter import Action, start_turn, take_turn
from furnace.play.skills import skill_check
from furnace.play.state import Step
from furnace.rules.effects import parse_effect
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import character, encounter, fighter, monster, step

RULES = load_ruleset()
TEN = {"STR": 14, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
SWORD = Weapon(name="arming sword", category="martial", damage="1d8")
BRAK: dict[str, Any] = dict(name="Brak", archetype="Barbarian", level=2, scores=TEN, hp_max=12,
                           archetype_features=["fearless"])   # a fearless level-2 Barbarian (a Fighter), 12 HP
URGA: dict[str, Any] = dict(name="Urga", race="Half-orc", char_class="Cleric", archetype="Bloodshaman", level=2,
                           scores=TEN, hp_max=12, weapons=[SWORD])   # a level-2 Bloodshaman, 12 HP, arming sword
OGRE: dict[str, Any] = dict(name="Ogre", side="foes", level=0, hp=30, hp_max=30, saves=dict.fromkeys(TEN, 0))


# -- F-ARCH-02: immune to FEAR effects ---------------------------------------------------------------------------
def test_F_ARCH_02_a_barbarian_ignores_frightened_and_fear_saves_in_a_fight() -> None:
    """FRIGHTENED lands on a plain Fighter, not on the fearless Barbarian; a SAVE vs fear (on a fail 1d6) is not
    even rolled for her: no die is used and she is unharmed."""
    scare = parse_effect({"kind": "condition", "name": "FRIGHTENED", "duration": {"amount": "1", "unit": "round"}})
    fear = parse_effect({"kind": "save", "category": "fear", "dc": "12",
                         "on_fail": [{"kind": "damage", "dice": "1d6"}]})
    brak = from_character(fighter(BRAK), "party", RULES, id="b")
    plain = from_character(fighter(BRAK, archetype_features=[]), "party", RULES, id="p")
    s, dice = step(brak, plain, monster("o", OGRE), faces=[2, 5])
    for target in ("b", "p"):
        apply_all(s, [scare, fear], actor="o", target=target)
    assert [h.name for h in s.c("b").held] == [] and s.c("b").hp == 12
    assert "FRIGHTENED" in [h.name for h in s.c("p").held] and s.c("p").hp == 12 - 5
    assert dice.remaining == 0


def test_F_ARCH_02_a_frightened_barbarian_out_of_a_fight_rolls_her_checks_plainly() -> None:
    """FRIGHTENED makes CHECKs HARD (AMB-22): DC 12 + 3 for a plain Fighter; the Barbarian's stays 12."""
    scared = {"conditions": ["FRIGHTENED"]}
    assert skill_check(fighter(BRAK, **scared), "Athletics", ScriptedDice([10]), 12, RULES).dc.value == 12
    plain = fighter(BRAK, archetype_features=[], **scared)
    assert skill_check(plain, "Athletics", ScriptedDice([10]), 12, RULES).dc.value == 15
    brought = from_character(fighter(BRAK, **scared), "party", RULES)
    assert "FRIGHTENED" not in [h.name for h in brought.held]


# -- F-ARCH-02/05: an archetype's EASY skill names no situation ----------------------------------------------------
@pytest.mark.parametrize(("character", "skill"), [
    (fighter(BRAK, archetype_features=["intimidating"]), "Intimidation"),
    (Character(name="Mira", char_class="Magic-user", archetype="Wizard", level=2, scores=dict(TEN), hp_max=6, hp=6,
               archetype_features=["arcanist"]), "Arcana"),
    (character(URGA, archetype_features=["healer"]), "Medicine"),
])
def test_F_ARCH_the_archetype_easy_skill_applies_with_no_flag(character: Character, skill: str) -> None:
    """No `situation=True` passed: ROOM DC 12 is EASY, 9; d20 9 + modifiers succeeds where 12 would not."""
    result = skill_check(character, skill, ScriptedDice([9]), 12, RULES)
    assert result.dc.value == 9


# -- F-ARCH-03: the Bloodshaman --------------------------------------------------------------------------------
def test_F_ARCH_03_a_bloodshaman_is_prof_with_one_martial_melee_weapon() -> None:
    """A Cleric's class gives simple weapons only: STR 14 +1 with the sword; the feature adds PROF +1 (level 2)."""
    assert from_character(character(URGA), "party", RULES).attack_bonus == 1
    assert from_character(character(URGA, archetype_features=["martial-weapon"]), "party", RULES).attack_bonus == 1 + 1


def test_F_ARCH_03_chosen_one_rerolls_one_missed_atk_a_fight() -> None:
    """d20 3 + 2 = 5 misses AC 12: rerolled, 15 + 2 = 17 hits (1d8 5 + 1 = 6); the next miss (2) stands."""
    urga = from_character(character(URGA, archetype_features=["martial-weapon", "chosen-one"]), "party", RULES, id="u")
    enc = encounter(urga, monster("o", OGRE))
    dice = ScriptedDice([3, 15, 5, 2])
    once, _ = take_turn(enc, "u", Action("attack", "o"), dice, RULES)
    twice, events = take_turn(once, "u", Action("attack", "o"), dice, RULES)
    assert (once.get("o").hp, twice.get("o").hp, dice.remaining) == (24, 24, 0)
    assert "chosen-one" not in twice.get("u").powers and any(e.kind == "miss" for e in events)


def test_F_ARCH_03_AMB_46_bloodmagic_turns_1d6_hp_into_dam() -> None:
    """A hit (d20 12 + 2) for 1d8 5 + 1 = 6, and Bloodmagic's 1d6 4: she loses 4 HP, the ogre 6 + 4 = 10."""
    urga = from_character(character(URGA, archetype_features=["martial-weapon", "bloodmagic"]), "party", RULES, id="u")
    dice = ScriptedDice([12, 5, 4])
    after, _ = take_turn(encounter(urga, monster("o", OGRE)), "u",
                         Action("attack", "o", detail="bloodmagic"), dice, RULES)
    assert (after.get("u").hp, after.get("o").hp, dice.remaining) == (8, 20, 0)
    plain = from_character(character(URGA, archetype_features=["martial-weapon"]), "party", RULES, id="u")
    with pytest.raises(IllegalActionError, match="no Bloodmagic"):
        take_turn(encounter(plain, monster("o", OGRE)), "u",
                  Action("attack", "o", detail="bloodmagic"), ScriptedDice([12, 5]), RULES)


def test_F_ARCH_03_rally_makes_an_allys_next_atk_easy_once_a_fight() -> None:
    """As Urga first attacks, Brak's next ATK is EASY: AC 12 → 9, so d20 6 + 3 = 9 hits (1d6 4); once only."""
    urga = from_character(character(URGA, archetype_features=["rally"]), "party", RULES, id="u")
    brak = Combatant(id="b", name="Brak", side="party", kind="pc", hp=10, hp_max=10, ac=12, attack_bonus=3,
                     damage="1d6", zone="CLOSE")
    dice = ScriptedDice([2, 6, 4])
    enc = encounter(urga, brak, monster("o", OGRE))
    enc, _ = take_turn(enc, "u", Action("attack", "o"), dice, RULES)   # d20 2 + 1: a miss
    assert "rally" not in enc.get("u").powers
    enc, _ = take_turn(enc, "b", Action("attack", "o"), dice, RULES)
    assert (enc.get("o").hp, dice.remaining) == (26, 0)


# -- F-MAGIC-02, AMB-59: the Shield of Shielding in a fight, once a day -----------------------------------------------
def test_F_MAGIC_02_shield_of_shielding_adds_1d4_ac_for_a_round_once_a_day() -> None:
    """Used (1d4 3): AC 10 + 3 = 13 until her next turn, so d20 10 + 2 = 12 misses; a second use is refused; after
    the fight the day's use is spent, and the next fight refuses it too."""
    brak = fighter(BRAK, items=["Shield of Shielding"])
    b = from_character(brak, "party", RULES, id="b")
    enc = encounter(b, monster("o", OGRE))
    enc, _ = take_turn(enc, "b", Action("use", "b", detail="Shield of Shielding"), ScriptedDice([3]), RULES)
    assert magic_state(enc.get("b")).item_uses == {"Shield of Shielding": 0}
    enc, _ = take_turn(enc, "o", Action("attack", "b"), ScriptedDice([10]), RULES)
    assert enc.get("b").hp == 12
    with pytest.raises(IllegalActionError, match="no use of Shield of Shielding left today"):
        take_turn(enc, "b", Action("use", "b", detail="Shield of Shielding"), ScriptedDice([3]), RULES)
    after, _ = settle(brak, enc.get("b"), RULES)
    again = encounter(from_character(after, "party", RULES, id="b"), monster("o", OGRE))
    with pytest.raises(IllegalActionError, match="left today"):
        take_turn(again, "b", Action("use", "b", detail="Shield of Shielding"), ScriptedDice([3]), RULES)


# -- F-MAGIC-02, F-TAB-28: Mjölnir's +2d8 DAM on each hit for 1d4 rounds ---------------------------------------------
def test_F_TAB_28_mjolnir_adds_2d8_to_each_hit_while_it_lasts() -> None:
    """Used on the Ogre in round 1: it lasts 1d4 = 2 rounds (until her turn in round 3) and CHILLs the Ogre for
    1d4 = 3 rounds; using it deals no blow. Her next hit (d20 15 + 2 = 17 vs AC 12) deals 1d8 5 + 1 + 2d8 (7, 8) =
    21; in round 3 the extra dice are gone and a hit deals 1d8 only (4 + 1 = 5)."""
    b = from_character(fighter(BRAK, items=["Mjölnir"], weapons=[SWORD]), "party", RULES, id="b")
    enc = encounter(b, monster("o", OGRE))
    enc, _ = take_turn(enc, "b", Action("use", "o", detail="Mjölnir"), ScriptedDice([2, 3]), RULES)
    assert (enc.get("o").hp, [h.name for h in enc.get("o").held]) == (30, ["CHILLED"])
    dice = ScriptedDice([15, 5, 7, 8])
    enc, _ = take_turn(enc, "b", Action("attack", "o"), dice, RULES)
    assert (enc.get("o").hp, dice.remaining) == (9, 0)
    step = Step(enc.model_copy(update={"round": 3}), ScriptedDice([]), RULES)
    start_turn(step, "b")                       # her turn in round 3: the power ends
    assert step.c("b").held == ()
    enc, dice = step.enc, ScriptedDice([15, 4])
    enc, _ = take_turn(enc, "b", Action("attack", "o"), dice, RULES)
    assert (enc.get("o").hp, dice.remaining) == (4, 0)
