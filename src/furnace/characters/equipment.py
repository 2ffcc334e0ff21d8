"""Weapons, armor and the starting kits: damage and ATK bonuses derived from the tables.

F-EQ-01…06, F-TAB-21…24, F-TAB-40; AMB-37 (unarmored, kit armor), AMB-38/39 (damage modifiers).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from furnace.characters.character import Character, CharacterError, Weapon
from furnace.errors import FurnaceError
from furnace.rules.ruleset import Ruleset

TAG_DAMAGE = {"heavy": "1d12", "tiny": "1d4"}   # F-TAB-24: Heavy d12, the tiny dagger 1d4


def make_weapon(name: str, key: str, rules: Ruleset, tags: Sequence[str] = ()) -> Weapon:
    """A named weapon of a F-TAB-22 row, its damage changed by its tags (F-EQ-06)."""
    row = rules.tables.get("weapons").lookup(key).data
    damage = str(row["damage"])
    for tag in tags:
        damage = TAG_DAMAGE.get(tag.lower(), damage)
    return Weapon(name=name, category=row["category"], kind=row["type"], damage=damage, tags=list(tags))


def two_handed_bonus(strength: int) -> int:
    """ceil(1.5 × STR) for positive STR, plain STR otherwise (F-EQ-05, F-TAB-23, AMB-38)."""
    return math.ceil(3 * strength / 2) if strength > 0 else strength


def _has_tag(weapon: Weapon, tag: str) -> bool:
    return tag.lower() in (t.lower() for t in weapon.tags)


def damage_bonus(character: Character, weapon: Weapon) -> int:
    """The modifier added to a weapon's damage (AMB-39) and the Dueling style's +1."""
    strength, dexterity = character.mod("STR"), character.mod("DEX")
    if weapon.kind == "two-handed":
        bonus = two_handed_bonus(strength)
    elif weapon.kind == "ranged":
        bonus = max(dexterity, strength) if _has_tag(weapon, "Recoil") else dexterity
    else:
        bonus = strength
    if character.fighting_style == "Dueling" and weapon.kind == "one-handed":
        bonus += 1
    return bonus


def proficient(character: Character, weapon: Weapon, rules: Ruleset) -> bool:
    if character.char_class is None:
        return weapon.category == "simple"
    weapons = character.class_data(rules).get("weapons", [])
    if character.char_class == "Magic-user" and rules["magic_user_proficiencies"] == "class_section":
        weapons = ["simple", "martial"]
    return weapon.category in weapons or weapon.kind == "fist"


def attack_bonus(character: Character, weapon: Weapon, rules: Ruleset) -> int:
    """ATK = ability + PROF if proficient (AMB-07, AMB-40) + Archery's +1 with ranged weapons."""
    ranged = weapon.kind == "ranged"
    ability = character.mod("DEX") if ranged else character.mod("STR")
    if _has_tag(weapon, "tiny"):
        ability = max(ability, character.mod("DEX"))   # the tiny dagger may use DEX (F-EQ-06)
    bonus = ability + (character.prof(rules) if proficient(character, weapon, rules) else 0)
    if ranged and character.fighting_style == "Archery":
        bonus += 1
    return bonus


def damage_expression(character: Character, weapon: Weapon) -> str:
    """The damage roll as dice text: `1d10+5` for a two-handed blow with STR +3."""
    bonus = damage_bonus(character, weapon)
    if weapon.damage.isdigit():   # the fist: 1 + STR, at least 1
        return str(max(1, int(weapon.damage) + bonus))
    return weapon.damage + (f"{bonus:+d}" if bonus else "")


@dataclass(frozen=True)
class Kit:
    weapons: tuple[Weapon, ...] = ()
    armor: str | None = None
    shield: bool = False
    items: tuple[str, ...] = field(default=())


def starting_kit(char_class: str, rules: Ruleset, picks: Sequence[int] | None = None) -> Kit:
    """The class's example kit (F-TAB-40): one alternative per pick (default: the first of each)."""
    data = rules.tables.get("starting-equipment").lookup(char_class.lower()).data
    choices: list[list[str]] = data["choices"]
    picks = list(picks) if picks is not None else [0] * len(choices)
    if len(picks) != len(choices):
        raise CharacterError(f"the {char_class} kit has {len(choices)} picks, not {len(picks)}")
    weapons: list[Weapon] = []
    armor: str | None = None
    shield = False
    items: list[str] = []
    for n, (pick, options) in enumerate(zip(picks, choices, strict=True), 1):
        if not 0 <= pick < len(options):
            raise CharacterError(f"kit pick {n} has {len(options)} option(s): {' / '.join(options)}")
        gear: dict[str, Any] = data["gear"][options[pick]]
        weapons += [make_weapon(w["name"], w["key"], rules, w.get("tags", ())) for w in gear.get("weapons", [])]
        armor = gear.get("armor", armor)
        shield = shield or bool(gear.get("shield"))
        items += gear.get("items", [])
    return Kit(tuple(weapons), armor, shield, tuple(items))


def equip(character: Character, kit: Kit) -> Character:
    """The character carrying the kit (keeping what it already had, such as its trade item)."""
    return character.model_copy(update={
        "weapons": [*kit.weapons, *character.weapons], "armor": kit.armor or character.armor,
        "shield": character.shield or kit.shield, "items": [*character.items, *kit.items]})


# -- load and prices -----------------------------------------------------------------------------------
BUNDLES = {"coin": 1000, "coins": 1000, "torch": 5, "torches": 5}   # F-LOAD-01: light things count in bulk


def load_used(character: Character, coins: int = 0, torches: int = 0) -> int:
    """F-LOAD-01: every item is one load; coins count per 1000 and torches per 5 (rounded up)."""
    items = [i for i in character.items if i.lower() not in ("torch", "torches")]
    gear = len(items) + len(character.weapons) + (1 if character.armor else 0) + (1 if character.shield else 0)
    bundles = -(-coins // BUNDLES["coins"]) + -(-torches // BUNDLES["torches"])
    return gear + bundles


def over_load(character: Character, coins: int = 0, torches: int = 0) -> int:
    """How many loads above 10 + STR the character carries (what that costs is the referee's, AMB-57)."""
    return max(0, load_used(character, coins, torches) - character.load)


def price(item: str, rules: Ruleset) -> str:
    """F-EQ-07: the rules give no prices; a referee's price table (a keyed table named 'prices', loaded as
    a table file) supplies them."""
    try:
        table = rules.tables.get("prices")
    except FurnaceError:
        raise FurnaceError("no price list is loaded: Furnace takes prices from another system (F-EQ-07); "
                           "load a keyed table named 'prices' with --tables or a profile") from None
    return str(table.lookup(item.lower()).data.get("price", table.lookup(item.lower()).text))
