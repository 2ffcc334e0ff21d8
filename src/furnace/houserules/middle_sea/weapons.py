"""Weapon damage on a natural 1 (RULES.md M.4, M-TAB-04): M-WPN-01 the trigger; by the weapon's class M-WPN-02
sharp (notches), M-WPN-03 blunt (slips), M-WPN-04 strung (the string snaps), M-WPN-05 pole (cracks, then
snaps), M-WPN-06 hurled and unarmed (off-balance); M-WPN-07 magic weapons; M-WPN-08 neglect. AMB-95 (the
classes, the improvised pieces of a snapped haft), AMB-96 (the Dexterity roll), AMB-99 (off-balance under Furnace
initiative).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from furnace import dice
from furnace.characters.abilities import modifier
from furnace.characters.character import Weapon
from furnace.characters.equipment import IMPROVISED, weapon_penalty
from furnace.dice import DiceSource, RollResult
from furnace.events import Event, declare
from furnace.houserules.middle_sea.common import MiddleSeaError, _rules
from furnace.houserules.middle_sea.item_saves import ItemSave, _matrix_data, item_save
from furnace.rules.ruleset import Ruleset

WEAPON_CLASSES = ("sharp", "blunt", "strung", "pole", "hurled", "unarmed")
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
# what a natural 1 did to the weapon: its outcome (none, held, notched, slipped, snapped, cracked, off_balance) and
# the numbers behind it (the item save's, the DEX roll's); in a fight the wielder is its actor (`fight`)
WEAPON_MISHAP = declare("weapon_mishap", weapon="actor", weapon_class="public", outcome="public", material="public",
                        form="public", total="actor", target="actor", source="referee", saved="public",
                        notches="actor", penalty="actor", feet="public", direction="public", segments="public",
                        cracked="public", natural="public", in_use="public",
                        example={"weapon": "spear", "weapon_class": "pole", "outcome": "cracked",
                                 "material": "thick_wood", "form": "crushing_blow", "total": 11, "target": 12,
                                 "source": "option item_save_dc_wood", "saved": False, "notches": 0, "penalty": 0,
                                 "feet": 0, "direction": "", "segments": 0, "cracked": False, "natural": 1,
                                 "in_use": False})


@dataclass(frozen=True)
class Mishap:
    """What a natural 1 did to a weapon (or its wielder's balance)."""

    weapon: Weapon
    weapon_class: str
    outcome: str   # none, held, notched, slipped, snapped, cracked, off_balance
    events: tuple[Event, ...] = ()
    save: ItemSave | None = None
    roll: RollResult | None = None
    conditions: tuple[str, ...] = ()
    slip_feet: int | None = None
    direction: str | None = None
    segments_lost: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"weapon": self.weapon.model_dump(mode="json"), "class": self.weapon_class, "outcome": self.outcome,
                "penalty": weapon_penalty(self.weapon), "save": self.save.to_dict() if self.save else None,
                "roll": self.roll.to_dict() if self.roll else None, "conditions": list(self.conditions),
                "slip_feet": self.slip_feet, "direction": self.direction, "segments_lost": self.segments_lost,
                "events": [e.to_dict() for e in self.events]}


def mishap_class(weapon: Weapon, *, thrown: bool = False) -> str:
    """AMB-95: hurled if thrown this attack, else the weapon's class; unarmed takes the hurled branch."""
    if thrown:
        return "hurled"
    if weapon.weapon_class is None:
        raise MiddleSeaError(f"{weapon.name} has no weapon_class: give it one of {', '.join(WEAPON_CLASSES)} "
                             "(M-WPN-01, AMB-95)")
    return weapon.weapon_class


def dex_roll(dex_score: int, magic: int, rng: DiceSource, rules: Ruleset, label: str = "DEX roll") -> RollResult:
    """M-WPN-03/06, AMB-96: d20 + the Dexterity score (option middle_sea_dex_roll) + magic; 20 or more holds."""
    if not 0 <= dex_score <= 20:
        raise MiddleSeaError(f"a Dexterity score runs 0 to 20, not {dex_score}")
    value = dex_score if rules["middle_sea_dex_roll"] == "score" else modifier(dex_score, rules.tables)
    return dice.roll("d20+DEX+MAGIC", rng, {"DEX": value, "MAGIC": magic}, label)


def _weapon_save(weapon: Weapon, cls: str, rng: DiceSource, rules: Ruleset, neglect: int) -> ItemSave:
    material = str(_matrix_data(rules, "weapon_materials").get(cls, "metal"))
    return item_save(material, "crushing_blow", rng, rules, magic=weapon.magic_bonus, neglect=neglect)


def _mishap(weapon: Weapon, cls: str, outcome: str, rules: tuple[str, ...], rolls: Sequence[RollResult], *,
            values: dict[str, Any] | None = None, **kw: Any) -> Mishap:
    """The mishap and its fact: the weapon, its class, the outcome, the save's or the DEX roll's numbers."""
    save: ItemSave | None = kw.get("save")
    roll: RollResult | None = kw.get("roll")
    data: dict[str, Any] = {"weapon": weapon.name, "weapon_class": cls, "outcome": outcome,
                            **(save.values() if save is not None else {}),
                            **({"total": roll.total, "target": 20} if roll is not None else {}), **(values or {})}
    return Mishap(weapon, cls, outcome, (Event(WEAPON_MISHAP, "", (), tuple(rolls), data, rules),), **kw)


def _sharp(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-02: a failed save vs crushing blow (metal) adds a notch."""
    save = _weapon_save(weapon, "sharp", rng, rules, neglect)
    if save.saved:
        return _mishap(weapon, "sharp", "held", ("M-WPN-02",), (save.roll,), save=save)
    after = weapon.model_copy(update={"notches": weapon.notches + 1})
    return _mishap(after, "sharp", "notched", ("M-WPN-02",), (save.roll,), save=save,
                   values={"notches": after.notches, "penalty": weapon_penalty(after)})


def _blunt(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-03: below 20 the weapon slips and lands 2d6 feet away in a random direction (d8 compass)."""
    r = dex_roll(dex, weapon.magic_bonus, rng, rules)
    if r.total >= 20:
        return _mishap(weapon, "blunt", "held", ("M-WPN-03", "AMB-96"), (r,), roll=r)
    feet = dice.roll("2d6", rng, label="feet")
    way = dice.roll("d8", rng, label="direction")
    direction = COMPASS[way.total - 1]
    return _mishap(weapon, "blunt", "slipped", ("M-WPN-03", "AMB-96"), (r, feet, way), roll=r, slip_feet=feet.total,
                   direction=direction, values={"feet": feet.total, "direction": direction})


def _strung(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-04: the string (thin rope) saves vs crushing blow or snaps, destroying the weapon."""
    save = _weapon_save(weapon, "strung", rng, rules, neglect)
    if save.saved:
        return _mishap(weapon, "strung", "held", ("M-WPN-04",), (save.roll,), save=save)
    return _mishap(weapon.model_copy(update={"broken": True}), "strung", "snapped", ("M-WPN-04",), (save.roll,),
                   save=save)


def _pole(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-05: thick wood saves vs crushing blow or cracks; a cracked haft that fails snaps."""
    save = _weapon_save(weapon, "pole", rng, rules, neglect)
    was = {"cracked": weapon.cracked}
    if save.saved:
        return _mishap(weapon, "pole", "held", ("M-WPN-05",), (save.roll,), save=save, values=was)
    if weapon.cracked:
        return _mishap(weapon.model_copy(update={"broken": True}), "pole", "snapped", ("M-WPN-05",), (save.roll,),
                       save=save, values=was)
    return _mishap(weapon.model_copy(update={"cracked": True}), "pole", "cracked", ("M-WPN-05",), (save.roll,),
                   save=save, values=was)


def _hurled(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-06, AMB-99: below 20 off-balance until the next round: no DEX or shield AC, loses 1d4 segments
    (option off_balance_segments: under Furnace initiative it acts last instead)."""
    r = dex_roll(dex, weapon.magic_bonus, rng, rules)
    if r.total >= 20:
        return _mishap(weapon, "hurled", "held", ("M-WPN-06", "AMB-96"), (r,), roll=r)
    if rules["off_balance_segments"] == "segments":
        seg = dice.roll("1d4", rng, label="segments lost")
        return _mishap(weapon, "hurled", "off_balance", ("M-WPN-06",), (r, seg), roll=r,
                       conditions=("OFF_BALANCE",), segments_lost=seg.total, values={"segments": seg.total})
    return _mishap(weapon, "hurled", "off_balance", ("M-WPN-06", "AMB-99"), (r,), roll=r,
                   conditions=("OFF_BALANCE", "LAST_TO_ACT"))


_MISHAPS: dict[str, Callable[[Weapon, int, DiceSource, Ruleset, int], Mishap]] = {
    "sharp": _sharp, "blunt": _blunt, "strung": _strung, "pole": _pole, "hurled": _hurled, "unarmed": _hurled,
}


def weapon_mishap(weapon: Weapon, dex_score: int, rng: DiceSource, rules: Ruleset | None = None,
                  wet: bool = False, neglect: int = 0, *, natural: int = 1, thrown: bool = False) -> Mishap:
    """M-WPN-01: a natural 1 to hit damages the weapon by its class (a wet string also on a natural 2).

    `neglect` is the item-save penalty (see `neglect_penalty`); it never touches the DEX rolls (M-WPN-08).
    The magic bonus adds to every save and DEX roll (M-WPN-07)."""
    rules = _rules(rules)
    if weapon.broken:
        raise MiddleSeaError(f"{weapon.name} is already broken")
    cls = mishap_class(weapon, thrown=thrown)
    if not (natural == 1 or (natural == 2 and wet and cls == "strung")):
        return _mishap(weapon, cls, "none", ("M-WPN-01", "M-WPN-04") if natural == 2 else ("M-WPN-01",), (),
                       values={"natural": natural})
    return _MISHAPS[cls](weapon, dex_score, rng, rules, neglect)


def pole_round(weapon: Weapon, rng: DiceSource, rules: Ruleset | None = None, *, neglect: int = 0) -> Mishap:
    """M-WPN-05: each round a cracked pole weapon is used it saves vs crushing blow (thick wood) or snaps."""
    rules = _rules(rules)
    if not weapon.cracked or weapon.broken:
        raise MiddleSeaError(f"{weapon.name} is not a cracked, unbroken weapon: nothing to save (M-WPN-05)")
    return _pole(weapon, 0, rng, rules, neglect)


def snapped_pieces(weapon: Weapon, rules: Ruleset | None = None) -> tuple[Weapon, Weapon]:
    """M-WPN-05, AMB-95: a snapped haft gives a half-haft (a club −1) and a polearm head (a hand axe −1)."""
    rules = _rules(rules)
    damage = str(rules.tables.get("weapons").lookup("simple-one-handed").data["damage"])
    tags = [IMPROVISED]
    return (Weapon(name=f"half-haft of the {weapon.name} (club −1)", damage=damage, weapon_class="blunt", tags=tags),
            Weapon(name=f"head of the {weapon.name} (hand axe −1)", damage=damage, weapon_class="sharp", tags=tags))
