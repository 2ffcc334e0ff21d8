"""Armor damage on a natural 20 (RULES.md M.5, M-TAB-05): M-ARM-01 which piece takes the blow (the shield first,
D-1; a d6 for the helmet, AMB-98), M-ARM-02 the save by attack form, M-ARM-03 a failed save (body armor loses a
point of protection, CF-40; a shield is destroyed, a magic one loses a plus, or under an option loses a point,
CF-41; a helmet is destroyed), M-ARM-04 magic armor, M-ARM-05 neglect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from furnace import dice
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource, RollResult
from furnace.events import Event, declare
from furnace.houserules.middle_sea.common import MiddleSeaError, _rules, state_of, with_state
from furnace.houserules.middle_sea.item_saves import ItemSave, _matrix_data, item_save
from furnace.play.combatant import armor_points as combat_points
from furnace.rules.ruleset import Ruleset

PIECES = ("armor", "shield", "helmet")
ATTACK_FORMS = {"melee": "crushing_blow", "hurled": "crushing_blow", "missile": "normal_blow",
                "firearm": "normal_blow"}
# the struck piece's item save and what a failure cost (a fight records it too: `fight`); `result` is
# saved, damaged, destroyed, lost_plus (a magic shield), dented (a shield's first point in a fight) or no_armor
ARMOR_SAVE = declare("armor_save", piece="public", result="public", material="public", form="public",
                     total="actor", target="actor", source="referee", saved="public", armor="actor",
                     points="actor", left="actor", plus="actor", ac_before="actor", ac_after="actor",
                     armor_lost="actor",
                     example={"piece": "armor", "result": "damaged", "material": "leather", "form": "crushing_blow",
                              "total": 11, "target": 12, "source": "option item_save_dc_leather", "saved": False,
                              "armor": "boiled-leather", "points": 11, "left": 10, "ac_before": 13,
                              "ac_after": 12})
Damage = tuple[Character, str, dict[str, Any], tuple[str, ...], int | None]   # after, result, values, rules, left


@dataclass(frozen=True)
class ArmorHit:
    character: Character
    piece: str | None
    result: str   # no_armor, saved, damaged, destroyed, lost_plus
    events: tuple[Event, ...] = ()
    piece_roll: RollResult | None = None
    save: ItemSave | None = None
    protection_left: int | None = None

    def to_dict(self) -> dict[str, Any]:
        c = self.character
        return {"piece": self.piece, "result": self.result, "protection_left": self.protection_left,
                "piece_roll": self.piece_roll.to_dict() if self.piece_roll else None,
                "save": self.save.to_dict() if self.save else None,
                "armor": c.armor, "armor_damage": c.armor_damage, "shield": c.shield, "shield_magic": c.shield_magic,
                "helmet": c.helmet, "events": [e.to_dict() for e in self.events]}


def _wears_armor(character: Character) -> bool:
    return character.armor not in (None, "unarmored")


def pick_piece(has_shield: bool, has_armor: bool, has_helmet: bool, rng: DiceSource, rules: Ruleset | None = None,
               *, shield_applies: bool = True) -> tuple[str | None, RollResult | None]:
    """M-ARM-01, D-1, AMB-98: the shield first if it counts against this foe; else a d6 (helmet_hit_chance in 6
    hits the helmet when one is worn), else the body armor. No die is rolled when only one piece can be hit."""
    rules = _rules(rules)
    if has_shield and shield_applies:
        return "shield", None
    if not has_armor:
        return ("helmet" if has_helmet else None), None
    if not has_helmet:
        return "armor", None
    r = dice.roll("d6", rng, label="which piece")
    return ("helmet" if r.total <= int(rules["helmet_hit_chance"]) else "armor"), r


def choose_piece(character: Character, rng: DiceSource, rules: Ruleset | None = None, *,
                 shield_applies: bool = True) -> tuple[str | None, RollResult | None]:
    """`pick_piece` for a character's shield, body armor and helmet."""
    return pick_piece(character.shield, _wears_armor(character), character.helmet, rng, rules,
                      shield_applies=shield_applies)


def armor_points(character: Character, rules: Ruleset) -> int:
    """The body armor's whole protection (CF-40, option armor_damage_scale): F-TAB-21 protection, or its AC; the
    engine's reading (`furnace.play.combatant.armor_points`), which a fight's armor hit counts down too."""
    return combat_points(character.armor, rules)


def _damage_armor(c: Character, rules: Ruleset) -> Damage:
    total, lost = armor_points(c, rules), c.armor_damage + 1
    if total - lost <= 0:
        return (c.model_copy(update={"armor": None, "armor_damage": 0, "armor_magic": 0}), "destroyed",
                {"armor": c.armor, "points": total, "left": 0}, ("M-ARM-03",), 0)
    return (c.model_copy(update={"armor_damage": lost}), "damaged",
            {"armor": c.armor, "points": total, "left": total - lost}, ("M-ARM-03",), total - lost)


def _damage_shield(c: Character, rules: Ruleset) -> Damage:
    if c.shield_magic > 0:
        return (c.model_copy(update={"shield_magic": c.shield_magic - 1}), "lost_plus",
                {"plus": c.shield_magic - 1}, ("M-ARM-03",), None)
    if rules["middle_sea_shield_save_failure"] == "destroyed":
        return c.model_copy(update={"shield": False}), "destroyed", {}, ("M-ARM-03", "CF-41"), 0
    state = state_of(c)
    total = int(rules.tables.get("armor").lookup("shield").data.get("protection", 2))
    lost = int(state.get("shield_damage", 0)) + 1
    if lost >= total:
        state.pop("shield_damage", None)
        return (with_state(c.model_copy(update={"shield": False}), state), "destroyed", {"points": total, "left": 0},
                ("CF-41",), 0)
    state["shield_damage"] = lost
    return with_state(c, state), "damaged", {"points": total, "left": total - lost}, ("CF-41",), total - lost


def _damage_helmet(c: Character, rules: Ruleset) -> Damage:
    return c.model_copy(update={"helmet": False}), "destroyed", {}, ("M-ARM-03",), 0


_DAMAGE: dict[str, Callable[[Character, Ruleset], Damage]] = {
    "armor": _damage_armor, "shield": _damage_shield, "helmet": _damage_helmet,
}


def _piece_worn(character: Character, piece: str) -> None:
    worn = {"armor": _wears_armor(character), "shield": character.shield, "helmet": character.helmet}
    if piece not in worn:
        raise MiddleSeaError(f"the piece is one of {', '.join(PIECES)}, not {piece!r}")
    if not worn[piece]:
        raise MiddleSeaError(f"{character.name} wears no {piece}")


def piece_material(piece: str, armor: str | None, rules: Ruleset | None = None) -> str:
    """The material that saves for a piece (X-TAB-06 data.armor_materials): the body armor's by its F-TAB-21 key."""
    materials = _matrix_data(_rules(rules), "armor_materials")
    if piece == "armor":
        return str(materials.get(str(armor), "metal"))
    return str(materials.get(piece, "thick_wood" if piece == "shield" else "metal"))


def _piece_material(character: Character, piece: str, rules: Ruleset) -> tuple[str, int]:
    magic = {"armor": character.armor_magic, "shield": character.shield_magic}.get(piece, 0)
    return piece_material(piece, character.armor, rules), magic


def attack_form(attack: str) -> str:
    """M-ARM-02: crushing blow for melee and hurled weapons, normal blow for missiles and firearms."""
    if attack not in ATTACK_FORMS:
        raise MiddleSeaError(f"the attack is one of {', '.join(ATTACK_FORMS)}, not {attack!r}")
    return ATTACK_FORMS[attack]


def armor_hit(character: Character, attack: str, rng: DiceSource, rules: Ruleset | None = None, *,
              piece: str | None = None, shield_applies: bool = True, neglect: int = 0) -> ArmorHit:
    """M-ARM-01..05: a natural 20 gives the piece hit an item save; a failure costs armor 1 point of protection
    (destroyed at 0), destroys a shield (a magic one loses a plus) or a helmet. Magic armor adds its plus;
    neglect subtracts under item_neglect."""
    rules = _rules(rules)
    form = attack_form(attack)
    roll: RollResult | None = None
    if piece is None:
        piece, roll = choose_piece(character, rng, rules, shield_applies=shield_applies)
    else:
        _piece_worn(character, piece)
    if piece is None:
        return ArmorHit(character, None, "no_armor", (fact(ARMOR_SAVE, character, (), ("M-CRIT-01",), piece="",
                                                           result="no_armor"),))
    material, magic = _piece_material(character, piece, rules)
    save = item_save(material, form, rng, rules, magic=magic, neglect=neglect)
    rolls = (save.roll,) if roll is None else (roll, save.roll)
    if save.saved:
        held = fact(ARMOR_SAVE, character, rolls, ("M-ARM-02",), piece=piece, result="saved", **save.values())
        return ArmorHit(character, piece, "saved", (held,), roll, save)
    after, result, values, ids, left = _DAMAGE[piece](character, rules)
    event = fact(ARMOR_SAVE, character, rolls, ("M-ARM-02", *ids), piece=piece, result=result, **save.values(),
                 **values)
    return ArmorHit(after, piece, result, (event,), roll, save, left)
