"""Weapons, armor and the starting kits: damage and ATK bonuses derived from the tables.

F-EQ-01…06, F-TAB-21…24, F-TAB-39 (fighting styles), F-TAB-40; AMB-37 (unarmored, kit armor), AMB-38/39
(damage modifiers, option two_handed_low_str), AMB-45 (the two-handed style's 1s, option two_handed_style_ones),
D-9 (armor proficiency: `characters.markers`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from furnace.characters import markers
from furnace.characters.character import Character, CharacterError, Weapon
from furnace.errors import FurnaceError
from furnace.rules.effects import ABILITIES, shown
from furnace.rules.ruleset import Ruleset

TAG_DAMAGE = {"heavy": "1d12", "tiny": "1d4"}   # F-TAB-24: Heavy d12, the tiny dagger 1d4


def make_weapon(name: str, key: str, rules: Ruleset, tags: Sequence[str] = ()) -> Weapon:
    """A named weapon of a F-TAB-22 row, its damage changed by its tags (F-EQ-06)."""
    row = rules.tables.get("weapons").lookup(key).data
    damage = str(row["damage"])
    for tag in tags:
        damage = TAG_DAMAGE.get(tag.lower(), damage)
    return Weapon(name=name, category=row["category"], kind=row["type"], damage=damage, tags=list(tags))


def two_handed_bonus(strength: int, rules: Ruleset | None = None) -> int:
    """ceil(1.5 × STR) for positive STR, plain STR otherwise (F-EQ-05, F-TAB-23, AMB-38); under
    two_handed_low_str one_and_half, ceil(1.5 × STR) for STR below 1 too (−2 → −3)."""
    if strength > 0 or (rules is not None and rules["two_handed_low_str"] == "one_and_half"):
        return math.ceil(3 * strength / 2)
    return strength


def _has_tag(weapon: Weapon, tag: str) -> bool:
    return tag.lower() in (t.lower() for t in weapon.tags)


# -- fighting styles (F-FTR-04, F-TAB-39) --------------------------------------------------------------------
def _style_row(style: str, rules: Ruleset) -> dict[str, Any] | None:
    wanted = style.strip().casefold()
    for row in rules.tables.get("fighting-styles").rows:
        if wanted in (str(row.key).casefold(), str(row.data.get("name", "")).casefold()):
            return dict(row.data)
    return None


def fighting_style_name(style: str, rules: Ruleset) -> str:
    """A fighting style as F-TAB-39 names it, from its name or letter; a `CharacterError` lists them."""
    data = _style_row(style, rules) if isinstance(style, str) else None
    if data is None:
        names = [str(r.data.get("name", r.key)) for r in rules.tables.get("fighting-styles").rows]
        raise CharacterError(f"fighting style {shown(style)} is not one of {', '.join(names)} (F-TAB-39)")
    return str(data.get("name", style))


def style_data(character: Character, rules: Ruleset) -> dict[str, Any]:
    """The F-TAB-39 data of the character's fighting style ({} without one, or for a name not in the table)."""
    return (_style_row(character.fighting_style, rules) or {}) if character.fighting_style else {}


def _dice_suffix(character: Character, weapon: Weapon, rules: Ruleset | None) -> str:
    """The two-handed style's rule on its damage dice (F-FTR-04 (d), AMB-45): `ro1` (each 1 rolled again once,
    the new face stands) or, under two_handed_style_ones count_as_2, `mi2` (a 1 counts as 2)."""
    if rules is None or weapon.kind != "two-handed":
        return ""
    reroll = style_data(character, rules).get("reroll")
    if not isinstance(reroll, dict) or not reroll.get("faces"):
        return ""
    low = max(int(f) for f in reroll["faces"])
    return f"ro{low}" if rules["two_handed_style_ones"] == "reroll_once" else f"mi{low + 1}"


def damage_bonus(character: Character, weapon: Weapon, rules: Ruleset | None = None) -> int:
    """The modifier added to a weapon's damage (AMB-39) and the Dueling style's +1."""
    strength, dexterity = character.mod("STR", rules), character.mod("DEX", rules)
    if weapon.kind == "two-handed":
        bonus = two_handed_bonus(strength, rules)
    elif weapon.kind == "ranged":
        bonus = max(dexterity, strength) if _has_tag(weapon, "Recoil") else dexterity
    else:
        bonus = strength
    if character.fighting_style == "Dueling" and weapon.kind == "one-handed":
        bonus += 1
    return bonus


def proficient(character: Character, weapon: Weapon, rules: Ruleset) -> bool:
    """PROF with the weapon: her class's categories (F-TAB-04, CF-06), or an archetype's weapon (F-ARCH-03)."""
    if character.char_class is None:
        return weapon.category == "simple"
    weapons = character.class_data(rules).get("weapons", [])
    if character.char_class == "Magic-user" and rules["magic_user_proficiencies"] == "class_section":
        weapons = ["simple", "martial"]
    return weapon.category in weapons or weapon.kind == "fist" or weapon in archetype_weapons(character, rules)


def archetype_weapons(character: Character, rules: Ruleset) -> list[Weapon]:
    """F-ARCH-03: the weapons an archetype feature makes her PROF with (data.weapon_profs: a category, melee
    only, how many): those named in extensions["archetype"]["weapon_prof"], else the first she carries that fit."""
    named = str(character.extensions.get("archetype", {}).get("weapon_prof", "")).casefold()
    out: list[Weapon] = []
    for data in character.archetype_feature_data(rules):
        for prof in data.get("weapon_profs", []):
            fits = [w for w in character.weapons if w.category == prof.get("category", w.category)
                    and not (prof.get("melee") and w.kind == "ranged") and w not in out]
            chosen = [w for w in fits if w.name.casefold() == named] or fits
            out += chosen[:int(prof.get("count", 1))]
    return out


IMPROVISED = "improvised"   # a snapped haft's piece used as a club or hand axe at −1 (M-WPN-05, AMB-95)


def weapon_penalty(weapon: Weapon) -> int:
    """M-WPN-02: −1 to hit and damage per notch, cumulative; AMB-95: −1 more for an improvised snapped piece."""
    return -(weapon.notches + (1 if IMPROVISED in weapon.tags else 0))


def attack_bonus(character: Character, weapon: Weapon, rules: Ruleset) -> int:
    """ATK = ability + PROF if proficient (AMB-07, AMB-40) + Archery's +1 with ranged weapons; a notched or
    improvised weapon's penalty (M-WPN-02, AMB-95)."""
    ranged = weapon.kind == "ranged"
    ability = character.mod("DEX", rules) if ranged else character.mod("STR", rules)
    if _has_tag(weapon, "tiny"):
        ability = max(ability, character.mod("DEX", rules))   # the tiny dagger may use DEX (F-EQ-06)
    for data in character.archetype_feature_data(rules):      # Arcane strike: "can use INT for ATK" (F-ARCH-04)
        if data.get("atk_ability") in ABILITIES:
            ability = max(ability, character.mod(data["atk_ability"], rules))
    bonus = ability + (character.prof(rules) if proficient(character, weapon, rules) else 0)
    if ranged and character.fighting_style == "Archery":
        bonus += 1
    return bonus + weapon_penalty(weapon)


_GROUP = re.compile(r"(\d*d\d+)(?![\dA-Za-z%])")   # a dice group with no suffix of its own


def damage_expression(character: Character, weapon: Weapon, rules: Ruleset | None = None) -> str:
    """The damage roll as dice text: `1d10+5` for a two-handed blow with STR +3; with the two-handed style
    `2d6ro1+3` (or `2d6mi2+3`, option two_handed_style_ones)."""
    bonus = damage_bonus(character, weapon, rules) + weapon_penalty(weapon)
    if weapon.damage.isdigit():   # the fist: 1 + STR, at least 1
        return str(max(1, int(weapon.damage) + bonus))
    suffix = _dice_suffix(character, weapon, rules)
    damage = _GROUP.sub(lambda m: m[1] + suffix, weapon.damage) if suffix else weapon.damage
    return damage + (f"{bonus:+d}" if bonus else "")


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


# -- armor proficiency, load and prices ---------------------------------------------------------------------
BUNDLES = {"coin": 1000, "coins": 1000, "torch": 5, "torches": 5}   # F-LOAD-01: light things count in bulk


def armor_proficient(character: Character, piece: str, rules: Ruleset) -> bool:
    """Whether the character's class is proficient in this kind of piece (light, heavy, shield; F-TAB-04,
    options rogue_shield and magic_user_proficiencies). What lacking it costs: `Character.armor_penalty`."""
    return piece in markers.armor_proficiencies(character, rules)


def load_used(character: Character, coins: int = 0, torches: int = 0) -> int:
    """F-LOAD-01: every item is one load; coins count per 1000 and torches per 5 (rounded up)."""
    return markers.load_used(character, coins, torches)


def over_load(character: Character, coins: int = 0, torches: int = 0, rules: Ruleset | None = None) -> int:
    """How many loads above 10 + STR the character carries; what that costs is `markers.load_markers`
    (AMB-57, option overload_penalty)."""
    return max(0, load_used(character, coins, torches) - markers.load_limit(character, rules))


def price(item: str, rules: Ruleset) -> str:
    """F-EQ-07: the rules give no prices; a referee's price table (a keyed table named 'prices', loaded as
    a table file) supplies them."""
    try:
        table = rules.tables.get("prices")
    except FurnaceError:
        raise FurnaceError("no price list is loaded: Furnace takes prices from another system (F-EQ-07); "
                           "load a keyed table named 'prices' with --tables or a profile") from None
    return str(table.lookup(item.lower()).data.get("price", table.lookup(item.lower()).text))
