"""Weapons, armor and starting kits (F-EQ-01…06, F-TAB-40) and referee archetypes (F-ARCH-01)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.characters.character import Character, archetype_table
from furnace.characters.equipment import (
    attack_bonus,
    damage_expression,
    equip,
    make_weapon,
    starting_kit,
    two_handed_bonus,
)
from furnace.characters.funnel import promote
from furnace.dice import ScriptedDice
from furnace.errors import DataFileError
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import fighter

RULES = load_ruleset()
TEN = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
F: dict[str, Any] = dict(name="F", race="Dwarf", archetype="Barbarian", level=3, hp_max=20, saves=["STR"])   # a Fighter


@pytest.mark.parametrize(("strength", "bonus"), [(-3, -3), (-1, -1), (0, 0), (1, 2), (2, 3), (3, 5), (4, 6)])
def test_F_EQ_05_two_handed_bonus(strength: int, bonus: int) -> None:
    """F-EQ-05, F-TAB-23, AMB-38: ceil(1.5 × STR) for positive STR (1→2, 2→3, 3→5, 4→6), plain STR below."""
    assert two_handed_bonus(strength) == bonus


def test_F_EQ_04_F_EQ_05_damage_by_weapon_kind() -> None:
    """F-EQ-04 damage by category; AMB-39 modifiers: 1H + STR, 2H + ceil(1.5 STR), ranged + DEX."""
    c = fighter(F, STR=18, DEX=14)  # STR +3 → 2H +5; DEX +1
    assert damage_expression(c, make_weapon("arming sword", "martial-one-handed", RULES)) == "1d8+3"
    assert damage_expression(c, make_weapon("longsword", "martial-two-handed", RULES)) == "1d10+5"
    assert damage_expression(c, make_weapon("warbow", "martial-ranged", RULES)) == "1d8+1"
    assert damage_expression(c, make_weapon("fist", "simple-fist", RULES)) == "4"
    assert damage_expression(fighter(F, STR=3), make_weapon("fist", "simple-fist", RULES)) == "1"


def test_F_EQ_06_tags_change_damage() -> None:
    """F-EQ-06, F-TAB-24: Heavy deals d12; the tiny dagger 1d4 and may use DEX to hit; Recoil adds STR."""
    c = fighter(F, STR=8, DEX=16)  # STR −1, DEX +3
    assert make_weapon("greataxe", "martial-two-handed", RULES, ["Heavy"]).damage == "1d12"
    dagger = make_weapon("dagger", "simple-one-handed", RULES, ["tiny"])
    assert dagger.damage == "1d4"
    assert attack_bonus(c, dagger, RULES) == 2 + 2          # DEX +2 instead of STR −1, + PROF 2 at level 3
    bow = make_weapon("composite bow", "martial-ranged", RULES, ["Recoil"])
    assert damage_expression(fighter(F, STR=18, DEX=12), bow) == "1d8+3"


def test_F_FTR_02_F_FTR_04_attack_bonus_and_styles() -> None:
    """F-FTR-02 proficiency adds PROF; F-FTR-04 Archery +1 ranged ATK, Dueling +1 one-handed DAM."""
    c = fighter(F, STR=14, DEX=12)
    sword = make_weapon("arming sword", "martial-one-handed", RULES)
    bow = make_weapon("warbow", "martial-ranged", RULES)
    assert attack_bonus(c, sword, RULES) == 1 + 2                       # STR 14 → +1, PROF +2
    assert attack_bonus(c.model_copy(update={"fighting_style": "Archery"}), bow, RULES) == 0 + 2 + 1
    assert damage_expression(c.model_copy(update={"fighting_style": "Dueling"}), sword) == "1d8+2"


def test_F_MU_02_no_prof_with_martial_weapons() -> None:
    """F-MU-02, CF-06, AMB-40: a Magic-user is not proficient with martial weapons: no PROF to ATK."""
    mu = Character(name="M", char_class="Magic-user", archetype="Wizard", level=5, scores=TEN, hp_max=9, hp=9)
    assert attack_bonus(mu, make_weapon("sword", "martial-one-handed", RULES), RULES) == 0
    assert attack_bonus(mu, make_weapon("staff", "simple-two-handed", RULES), RULES) == 3


@pytest.mark.parametrize(("char_class", "armor", "shield", "weapons"), [
    ("Fighter", "boiled-leather", True, ["arming sword", "warbow"]),
    ("Cleric", "boiled-leather", True, ["mace", "sling"]),
    ("Rogue", "boiled-leather", False, ["arming sword", "hunting bow", "dagger"]),
    ("Magic-user", None, False, ["quarterstaff", "sling"]),
])
def test_F_TAB_40_default_kits(char_class: str, armor: str | None, shield: bool, weapons: list[str]) -> None:
    """F-TAB-40, F-FTR-05, F-CLR-09, F-ROG-05, F-MU-07: the first alternative of every pick."""
    kit = starting_kit(char_class, RULES)
    assert (kit.armor, kit.shield, [w.name for w in kit.weapons]) == (armor, shield, weapons)
    assert "rations" in kit.items


def test_F_FTR_05_other_picks_and_bad_pick() -> None:
    """F-FTR-05: two-handed weapon, simple weapon, scalemail (AMB-37: Scale mail, AC 14)."""
    kit = starting_kit("Fighter", RULES, [1, 1, 1, 0])
    assert [w.kind for w in kit.weapons] == ["two-handed", "one-handed"] and kit.armor == "scale-mail"
    assert equip(fighter(F), kit).ac(RULES) == 14
    with pytest.raises(Exception, match="pick 1 has 2"):
        starting_kit("Fighter", RULES, [2, 0, 0, 0])


def test_F_CHAR_03_promotion_equips_the_kit() -> None:
    """F-CHAR-03 with F-TAB-40: a promoted Cleric carries mace, shield and leather: AC 11 + DEX + 2."""
    peasant = Character(name="P", race="Dwarf", level=0, scores={**TEN, "DEX": 14}, hp_max=2, hp=2, hit_dice=1,
                        items=["shovel"])
    c, events = promote(peasant.model_copy(update={"race": "Half-orc"}), "Cleric", "Bloodshaman",
                        ScriptedDice([5]), RULES)
    assert c.ac(RULES) == 11 + 1 + 2 and "shovel" in c.items and c.weapons[0].name == "mace"
    assert events[-1].kind == "kit"


def _archetype(tmp_path: Path, **basic: object) -> Path:
    rows = [{"key": "basic", "text": "Rangers know the wild.",
             "data": {"part": "basic", "archetype_of": "Fighter", "skill_profs": ["Survival", "Nature"], **basic}},
            {"key": "tracker", "text": "Tracking checks are EASY.", "effects": [{"kind": "nothing"}],
             "data": {"part": "feature"}}]
    path = tmp_path / "ranger.yaml"
    path.write_text(yaml.safe_dump({"id": "house:ranger", "name": "archetype-ranger", "title": "Ranger",
                                    "source": "house", "kind": "keyed", "key_name": "feature", "rows": rows}))
    return path


def test_F_ARCH_01_referee_archetype_file(tmp_path: Path) -> None:
    """F-ARCH-01: the referee's own archetype as data: promotion grants its basic skills."""
    rules = load_ruleset(table_files=[_archetype(tmp_path)])
    peasant = Character(name="P", race="Dwarf", level=0, scores=TEN, hp_max=2, hp=2, hit_dice=1)
    c, _ = promote(peasant, "Fighter", "Ranger", ScriptedDice([6]), rules)
    assert {"Survival", "Nature"} <= set(c.skills)


def test_F_ARCH_01_malformed_archetype_names_the_field(tmp_path: Path) -> None:
    """F-ARCH-01: an archetype of an unknown class or with an unknown skill is refused with its row."""
    rules = load_ruleset(table_files=[_archetype(tmp_path, archetype_of="Bard")])
    with pytest.raises(DataFileError, match="archetype_of") as info:
        archetype_table(rules, "Ranger")
    assert info.value.row == 1 and info.value.path.endswith("ranger.yaml")
    rules = load_ruleset(table_files=[_archetype(tmp_path, skill_profs=["Tracking"])])
    with pytest.raises(DataFileError, match="Tracking"):
        archetype_table(rules, "Ranger")
