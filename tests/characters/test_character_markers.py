"""What a character carries into her next fight and her next promotion: damaged and magic armor (F-TAB-38 row 16,
AMB-35, M-ARM-03), injuries as held modifiers (F-TAB-37b rows 14-19, F-TAB-38 row 3), her player (F-LUCK-01),
and the choices a promotion checks before any die (F-CHAR-03, F-ARCH-01, F-ARCH-03: archetype prerequisites).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.characters.character import (
    CharacterError,
    Weapon,
    allowed_archetypes,
    archetype_class,
    archetype_names,
    check_choices,
)
from furnace.characters.funnel import promote
from furnace.dice import ScriptedDice
from furnace.play.combatant import from_character
from furnace.play.conditions import modifier_name
from furnace.play.encounter import attack
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import fighter, monster, peasant, step

RULES = load_ruleset()
TEN = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
SLING = Weapon(name="sling", category="simple", kind="ranged", damage="1d6")
ADA: dict[str, Any] = dict(name="Ada", archetype="Barbarian", hit_dice=1)   # a level-1 Barbarian, 10 HP
GOBLIN: dict[str, Any] = dict(name="Goblin", hp=20, hp_max=20, saves={})   # AC 12, ATK +2, 1d6


# -- armor damage and magic in the AC (F-TAB-38 row 16, AMB-35, M-ARM-03) ------------------------------------------
def test_AMB_35_damaged_armor_lowers_ac_until_repaired() -> None:
    """Chain mail (AC 15) that lost 2 protection: AC 13, in the sheet and in the next fight, where a goblin's d20 11
    + 2 = 13 now hits (it missed AC 15)."""
    whole, damaged = fighter(ADA, armor="chain-mail"), fighter(ADA, armor="chain-mail", armor_damage=2)
    assert (whole.ac(RULES), damaged.ac(RULES)) == (15, 13)
    me = from_character(damaged, "a", RULES, zone="CLOSE", id="a")
    assert me.ac == 13
    s, _ = step(me, monster(GOBLIN), faces=[11, 4])
    attack(s, "b", "a")
    assert s.c("a").hp == 6


def test_M_ARM_03_magic_armor_and_shield_add_their_plus() -> None:
    """+1 chain mail with 2 protection lost and a +1 shield: 15 − 2 + 1 + 2 + 1 = 17; a plus without the piece adds
    nothing; the Defense style +1."""
    c = fighter(ADA, armor="chain-mail", armor_damage=2, armor_magic=1, shield=True, shield_magic=1)
    assert c.ac(RULES) == 17
    assert from_character(c, "a", RULES).ac == 17
    assert fighter(ADA, armor_magic=3, shield_magic=2).ac(RULES) == 10
    assert fighter(ADA, armor="chain-mail", fighting_style="Defense").ac(RULES) == 16


# -- injuries into the fight (F-TAB-37b, F-TAB-38) ------------------------------------------------------------
def test_F_TAB_38_lost_eye_makes_ranged_attacks_hard_in_the_next_fight() -> None:
    """One eye: her ranged ATK is held HARD: a sling d20 13 + PROF 1 = 14 misses AC 12 + 3; with both eyes it hits."""
    archer = fighter(ADA, weapons=[SLING])
    one_eyed = archer.model_copy(update={"injuries": ["one eye"]})
    c = from_character(one_eyed, "a", RULES, zone="RANGED", id="a")
    assert modifier_name("ranged_atk", "HARD") in {h.name for h in c.held}
    for who, faces, hp in ((one_eyed, [13], 20), (archer, [13, 3], 17)):
        me = from_character(who, "a", RULES, zone="RANGED", id="a")
        s, rng = step(me, monster(GOBLIN, zone="RANGED"), faces=faces)
        attack(s, "a", "b")
        assert (s.c("b").hp, rng.remaining) == (hp, 0)


def test_F_TAB_37b_rows_14_19_held_once_in_the_fight() -> None:
    """Rows 14-19, carried as the row's text and as the until_rest line a fight wrote: one 'CHECKs HARD' held."""
    row = "Every CHECK is HARD until the next rest."
    hurt = fighter(ADA, injuries=[row], until_rest=[f"MOD:checks:HARD: {row}"])
    held = [h.name for h in from_character(hurt, "a", RULES).held]
    assert held.count(modifier_name("checks", "HARD")) == 1
    alone = from_character(fighter(ADA, injuries=[row]), "a", RULES)
    assert [h.name for h in alone.held] == [modifier_name("checks", "HARD")]


def test_F_LUCK_01_the_combatant_knows_her_player() -> None:
    assert from_character(fighter(ADA, player="Kim"), "a", RULES).player == "Kim"
    assert from_character(fighter(ADA), "a", RULES).player is None


# -- promotion checks its choices (F-CHAR-03, F-ARCH-01, F-ARCH-03) ---------------------------------------------
def test_F_CHAR_03_promote_checks_choices_before_any_die() -> None:
    """A Rogue's Expertise in a skill that does not exist is refused before the HP die (no die scripted)."""
    with pytest.raises(CharacterError, match="Knitting"):
        promote(peasant(), "Rogue", "Arcane Trickster", ScriptedDice([]), RULES, expertise=["Knitting"])


@pytest.mark.parametrize("archetype", archetype_names(RULES))
def test_F_ARCH_01_every_packaged_archetype_can_be_chosen_where_its_prerequisite_holds(archetype: str) -> None:
    """Barbarian, Bloodshaman (a Half-orc), Arcane Trickster, Wizard: each promotes a survivor who meets it."""
    char_class = archetype_class(RULES, archetype)
    assert char_class is not None
    race = "Half-orc" if archetype == "Bloodshaman" else "Human"
    c, _ = promote(peasant(race=race), char_class, archetype, ScriptedDice([4]), RULES)
    assert (c.char_class, c.archetype) == (char_class, archetype)
    assert archetype in allowed_archetypes(peasant(race=race), char_class, RULES)


def test_F_ARCH_03_bloodshaman_refused_to_others_naming_what_is_open() -> None:
    """A Human Cleric cannot be a Bloodshaman (Half-orc only); no packaged Cleric archetype is open to her, and the
    message says so with the class's other archetypes a referee may write. A loaded level-1 file is refused too."""
    with pytest.raises(CharacterError) as info:
        promote(peasant(race="Human"), "Cleric", "Bloodshaman", ScriptedDice([]), RULES)
    message = str(info.value)
    assert "Bloodshaman needs a Half-orc (F-TAB-08), not a Human" in message
    assert "no Cleric archetype in force is open to a Human" in message and "Druid, Paladin, Priest" in message
    assert allowed_archetypes(peasant(race="Human"), "Cleric", RULES) == []
    cleric = fighter(ADA, char_class="Cleric", archetype="Bloodshaman", race="Elf")
    with pytest.raises(CharacterError, match="needs a Half-orc"):
        check_choices(cleric, RULES)


def test_F_ARCH_01_wrong_class_lists_the_archetypes_allowed() -> None:
    with pytest.raises(CharacterError, match="Wizard is an archetype of the Magic-user, not the Fighter; a Human "
                                             "Fighter may take Barbarian"):
        promote(peasant(), "Fighter", "Wizard", ScriptedDice([]), RULES)


def _priest(tmp_path: Path, prerequisite: dict[str, Any] | None) -> Path:
    basic: dict[str, Any] = {"part": "basic", "archetype_of": "Cleric", "skill_profs": ["Religion"]}
    if prerequisite is not None:
        basic["prerequisite"] = prerequisite
    rows = [{"key": "basic", "text": "Priests keep the rites.", "data": basic},
            {"key": "sermon", "text": "Sermons.", "effects": [{"kind": "nothing"}], "data": {"part": "feature"}}]
    path = tmp_path / "priest.yaml"
    path.write_text(yaml.safe_dump({"id": "house:priest", "name": "archetype-priest", "title": "Archetype: Priest "
                                    "(Cleric)", "source": "house", "kind": "keyed", "key_name": "feature",
                                    "rows": rows}))
    return path


def test_F_ARCH_01_a_referee_archetype_is_offered_instead(tmp_path: Path) -> None:
    """With the referee's Priest (no prerequisite) loaded, a Human refused the Bloodshaman is told she may take
    the Priest; a Priest needing WIS 13 is closed to a WIS 10 survivor."""
    rules = load_ruleset(table_files=[_priest(tmp_path, None)])
    with pytest.raises(CharacterError, match="a Human Cleric may take Priest"):
        promote(peasant(), "Cleric", "Bloodshaman", ScriptedDice([]), rules)
    c, _ = promote(peasant(), "Cleric", "Priest", ScriptedDice([5]), rules)
    assert c.archetype == "Priest" and "Religion" in c.skills
    wise = load_ruleset(table_files=[_priest(tmp_path, {"WIS": 13})])
    with pytest.raises(CharacterError, match="Priest needs WIS 13 or more"):
        promote(peasant(), "Cleric", "Priest", ScriptedDice([]), wise)
