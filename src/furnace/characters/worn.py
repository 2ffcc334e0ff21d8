"""What she wears and wields, and what is in her pack: armor, shields, helmets and weapons moved between the two.

AC, the attacks, Stealth, the load and the Middle Sea item saves read the worn fields (`Character.armor`,
`shield`, `helmet`, `weapons`), so equipping a piece changes them all (F-EQ-01, F-EQ-02, F-EQ-04, F-LOAD-01,
M-ARM-01). A piece in the pack is a name among `items`; what it was when taken off (a weapon's notches and magic,
the armor's lost protection, the shield's plus) is kept in `extensions["gear"]["pieces"]` under that name, so it
comes back the same. A new piece (given, looted, bought to replace a destroyed one) is made from the tables: the
armor by its F-TAB-21 name or a starting kit's (F-TAB-40: "leather armor" is boiled leather), a weapon by a
starting kit's or F-TAB-22's examples, or a row the referee names.

A broken or lost arm holds no shield and no weapon (M-BONE-01, `furnace.characters.arms`): equipping one there
is refused, with why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from furnace.characters.arms import GEAR, Arm, lame_arms, shield_arm, why_not
from furnace.characters.character import Character, CharacterError, Weapon
from furnace.characters.equipment import make_weapon
from furnace.rules.ruleset import Ruleset

HELMETS = ("helmet", "helm")
ARMOR_WORDS = ("armor", "armour", "body armor")
NOT_WORN = ("unarmored", "shield")
SEA = "middle_sea"


@dataclass(frozen=True)
class Change:
    """A piece put on or taken off: the character after, and what the fact says of it."""

    character: Character
    item: str                 # the piece's name
    piece: str                # armor, shield, helmet or weapon
    off: bool                 # taken off into the pack
    arm: str = ""             # the shield's arm
    swapped: str = ""         # the armor taken off to put this on


# -- naming pieces ------------------------------------------------------------------------------------------------
def _slug(name: str) -> str:
    return "-".join(name.casefold().replace("_", " ").split())


def armor_key(name: str, rules: Ruleset) -> str | None:
    """The F-TAB-21 key of body armor named as the table writes it ('Chain mail', 'chain-mail') or as a starting
    kit does ('leather armor', 'scalemail'); None for anything else."""
    slug = _slug(name)
    every = rules.tables.get("armor").keys()
    keys = [str(k) for k in every if str(k) not in NOT_WORN]
    if slug in keys:
        return slug
    for row in rules.tables.get("starting-equipment").rows:
        for alias, key in (row.data.get("armor_keys") or {}).items():
            if _slug(str(alias)) == slug:
                return str(key)
    return None


def armor_name(key: str) -> str:
    """The pack name of a piece of armor: 'chain mail'."""
    return key.replace("-", " ")


def _kit_weapon(name: str, rules: Ruleset) -> Weapon | None:
    for row in rules.tables.get("starting-equipment").rows:
        for gear in (row.data.get("gear") or {}).values():
            for w in gear.get("weapons", []):
                if str(w["name"]).casefold() == name.casefold():
                    return make_weapon(name, str(w["key"]), rules, w.get("tags", ()))
    return None


def _row_keys(rules: Ruleset) -> list[str]:
    every = rules.tables.get("weapons").keys()
    return [str(k) for k in every]


def weapon_row(name: str, rules: Ruleset) -> str | None:
    """The F-TAB-22 row whose examples name the weapon ('warhammer' → martial-one-handed), or its key."""
    table = rules.tables.get("weapons")
    if _slug(name) in _row_keys(rules):
        return _slug(name)
    for row in table.rows:
        for example in row.data.get("examples", []):
            if str(example).split(" (")[0].casefold() == name.casefold():
                return str(row.key)
    return None


def new_weapon(name: str, rules: Ruleset, row: str | None = None) -> Weapon:
    """A weapon made from the tables: the row named, a starting kit's weapon of that name, or an F-TAB-22 example."""
    if row is not None:
        key = weapon_row(row, rules)
        if key is None:
            raise CharacterError(f"{row!r} is not a weapon row: one of {', '.join(_row_keys(rules))} (F-TAB-22)")
        return make_weapon(name, key, rules)
    kit = _kit_weapon(name, rules)
    if kit is not None:
        return kit
    key = weapon_row(name, rules)
    if key is None:
        raise CharacterError(f"{name!r} is no armor, shield, helmet or weapon the tables know: name its weapon row "
                             f"with --as ({', '.join(_row_keys(rules))}, F-TAB-22)")
    return make_weapon(name, key, rules)


def kind_of(name: str, rules: Ruleset) -> str:
    """armor, shield, helmet or weapon (what is not armor, a shield or a helmet is taken for a weapon)."""
    low = name.strip().casefold()
    if low == "shield" or low.endswith(" shield"):
        return "shield"
    if low in HELMETS or low.endswith((" helmet", " helm")):
        return "helmet"
    return "armor" if armor_key(name, rules) else "weapon"


# -- what she carries -------------------------------------------------------------------------------------------
def _gear(c: Character) -> dict[str, Any]:
    return dict(c.extensions.get(GEAR, {}))


def pieces(c: Character) -> dict[str, dict[str, Any]]:
    """What each piece in her pack was when taken off, by its name in lower case."""
    return dict(_gear(c).get("pieces", {}))


def _with(c: Character, update: dict[str, Any], *, gear: dict[str, Any] | None = None,
          sea: dict[str, Any] | None = None) -> Character:
    ext = dict(c.extensions)
    if gear is not None:
        ext[GEAR] = gear
    if sea is not None:
        ext[SEA] = sea
    return c.model_copy(update={**update, "extensions": ext})


def _in_pack(c: Character, item: str) -> int:
    found = next((i for i, have in enumerate(c.items) if have.casefold() == item.strip().casefold()), None)
    if found is None:
        have = ", ".join(c.items) or "nothing"
        raise CharacterError(f"{c.name} has no {item.strip()!r} in her pack (she carries {have}): give it to her "
                             "first")
    return found


def _packed(c: Character, name: str, kept: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """Her items with the piece put in the pack, and her gear with what it was kept."""
    gear = _gear(c)
    gear["pieces"] = {**pieces(c), name.casefold(): kept}
    return [*c.items, name], gear


def _unpacked(c: Character, index: int) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """Her items less the one at `index`, her gear less its kept state, and that state ({} for a new piece)."""
    name = c.items[index]
    kept = pieces(c)
    state = kept.pop(name.casefold(), {})
    gear = {**_gear(c), "pieces": kept} if kept else {k: v for k, v in _gear(c).items() if k != "pieces"}
    return [*c.items[:index], *c.items[index + 1:]], gear, state


def pruned(c: Character) -> Character:
    """Her gear without the kept state of pieces no longer in her pack (taken, or given away)."""
    have = {i.casefold() for i in c.items}
    kept = {name: state for name, state in pieces(c).items() if name in have}
    if kept == pieces(c):
        return c
    gear = {**_gear(c), "pieces": kept} if kept else {k: v for k, v in _gear(c).items() if k != "pieces"}
    return _with(c, {}, gear=gear)


# -- putting on -------------------------------------------------------------------------------------------------
def equip(c: Character, item: str, rules: Ruleset, *, arm: Arm | None = None, row: str | None = None) -> Change:
    """The piece named taken from her pack and worn or wielded; a CharacterError says why not."""
    kind = "weapon" if row is not None else kind_of(item, rules)
    if arm is not None and kind != "shield":
        raise CharacterError("--arm chooses the arm a shield is borne on; a weapon takes the arms it needs")
    if (kind == "shield" and c.shield) or (kind == "helmet" and c.helmet):
        worn_now = "bears a shield" if kind == "shield" else "wears a helmet"
        raise CharacterError(f"{c.name} already {worn_now}: unequip it first")
    index = _in_pack(c, item)
    name = c.items[index]
    items, gear, state = _unpacked(c, index)
    if kind == "shield":
        return _shield_on(c, name, items, gear, state, arm or shield_arm(c))
    if kind == "helmet":
        return Change(_with(c, {"items": items, "helmet": True}, gear=gear), name, "helmet", False)
    if kind == "armor":
        return _armor_on(c, name, items, gear, state, rules)
    weapon = Weapon.model_validate(state) if "kind" in state and row is None else new_weapon(name, rules, row)
    refusal = why_not(c, weapon)
    if refusal:
        raise CharacterError(f"{c.name} cannot wield it: {refusal} (M-BONE-01)")
    return Change(_with(c, {"items": items, "weapons": [*c.weapons, weapon]}, gear=gear), name, "weapon", False)


def _shield_on(c: Character, name: str, items: list[str], gear: dict[str, Any], state: dict[str, Any],
               arm: Arm) -> Change:
    lame = lame_arms(c)
    if arm in lame:
        other = "left" if arm == "right" else "right"
        hint = f"; bear it on the {other} arm with --arm {other}" if other not in lame else ""
        raise CharacterError(f"{c.name}'s {arm} arm is {lame[arm]} and holds no shield (M-BONE-01){hint}")
    gear = {**gear, "shield_arm": arm}
    sea = {k: v for k, v in dict(c.extensions.get(SEA, {})).items() if k != "shield_damage"}
    if state.get("shield_damage"):
        sea["shield_damage"] = int(state["shield_damage"])      # a dented shield comes back dented (CF-41)
    after = _with(c, {"items": items, "shield": True, "shield_magic": int(state.get("shield_magic", 0))},
                  gear=gear, sea=sea if sea or SEA in c.extensions else None)
    return Change(after, name, "shield", False, arm=arm)


def _armor_on(c: Character, name: str, items: list[str], gear: dict[str, Any], state: dict[str, Any],
              rules: Ruleset) -> Change:
    key = str(state.get("armor") or armor_key(name, rules))
    swapped = ""
    if c.armor:
        swapped = armor_name(c.armor)
        kept = {"armor": c.armor, "armor_damage": c.armor_damage, "armor_magic": c.armor_magic}
        items = [*items, swapped]
        gear = {**gear, "pieces": {**gear.get("pieces", {}), swapped.casefold(): kept}}
    update = {"items": items, "armor": key, "armor_damage": int(state.get("armor_damage", 0)),
              "armor_magic": int(state.get("armor_magic", 0))}
    return Change(_with(c, update, gear=gear), name, "armor", False, swapped=swapped)


# -- taking off ---------------------------------------------------------------------------------------------------
def worn(c: Character) -> list[str]:
    """What she wears and wields, by name: the armor, the shield, the helmet, her weapons."""
    return [*([armor_name(c.armor)] if c.armor else []), *(["shield"] if c.shield else []),
            *(["helmet"] if c.helmet else []), *(w.name for w in c.weapons)]


def unequip(c: Character, item: str, rules: Ruleset) -> Change:
    """The piece named taken off (or put away) into her pack, as it is; a CharacterError says what she wears."""
    low = item.strip().casefold()
    weapon = next((w for w in c.weapons if w.name.casefold() == low), None)
    if weapon is not None:
        left = list(c.weapons)
        left.remove(weapon)
        items, gear = _packed(c, weapon.name, weapon.model_dump(mode="json"))
        return Change(_with(c, {"items": items, "weapons": left}, gear=gear), weapon.name, "weapon", True)
    if c.shield and kind_of(item, rules) == "shield":
        sea = dict(c.extensions.get(SEA, {}))
        kept = {"shield_magic": c.shield_magic, "shield_damage": int(sea.pop("shield_damage", 0))}
        items, gear = _packed(c, "shield", kept)
        after = _with(c, {"items": items, "shield": False, "shield_magic": 0}, gear=gear,
                      sea=sea if SEA in c.extensions else None)
        return Change(after, "shield", "shield", True, arm=shield_arm(c))
    if c.helmet and low in HELMETS:
        items, gear = _packed(c, "helmet", {})
        return Change(_with(c, {"items": items, "helmet": False}, gear=gear), "helmet", "helmet", True)
    if c.armor and (low in ARMOR_WORDS or armor_key(item, rules) == c.armor):
        name = armor_name(c.armor)
        items, gear = _packed(c, name, {"armor": c.armor, "armor_damage": c.armor_damage,
                                        "armor_magic": c.armor_magic})
        update = {"items": items, "armor": None, "armor_damage": 0, "armor_magic": 0}
        return Change(_with(c, update, gear=gear), name, "armor", True)
    has = ", ".join(worn(c)) or "nothing"
    raise CharacterError(f"{c.name} wears and wields no {item.strip()!r} (she has on {has})")
