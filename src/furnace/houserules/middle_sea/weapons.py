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
from furnace.events import Event
from furnace.houserules.middle_sea.common import MiddleSeaError, _rules
from furnace.houserules.middle_sea.item_saves import ItemSave, _matrix_data, item_save
from furnace.rules.ruleset import Ruleset

WEAPON_CLASSES = ("sharp", "blunt", "strung", "pole", "hurled", "unarmed")
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


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


def dex_roll(dex_score: int, magic: int, rng: DiceSource, rules: Ruleset, label: str) -> RollResult:
    """M-WPN-03/06, AMB-96: d20 + the Dexterity score (option middle_sea_dex_roll) + magic; 20 or more holds."""
    if not 0 <= dex_score <= 20:
        raise MiddleSeaError(f"a Dexterity score runs 0 to 20, not {dex_score}")
    value = dex_score if rules["middle_sea_dex_roll"] == "score" else modifier(dex_score, rules.tables)
    return dice.roll("d20+DEX+MAGIC", rng, {"DEX": value, "MAGIC": magic},
                     f"{label}: d20 + Dexterity + magic, 20 holds")


def _weapon_save(weapon: Weapon, cls: str, rng: DiceSource, rules: Ruleset, neglect: int) -> ItemSave:
    material = str(_matrix_data(rules, "weapon_materials").get(cls, "metal"))
    return item_save(material, "crushing_blow", rng, rules, magic=weapon.magic_bonus, neglect=neglect,
                     label=weapon.name)


def _mishap(weapon: Weapon, cls: str, outcome: str, what: str, rolls: Sequence[RollResult], **kw: Any) -> Mishap:
    event = Event.said("weapon", weapon.name, what, tuple(rolls), data={"outcome": outcome, "class": cls})
    return Mishap(weapon, cls, outcome, (event,), **kw)


def _sharp(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-02: a failed save vs crushing blow (metal) adds a notch."""
    save = _weapon_save(weapon, "sharp", rng, rules, neglect)
    if save.saved:
        return _mishap(weapon, "sharp", "held", f"{save.explain()}: no harm", (save.roll,), save=save)
    after = weapon.model_copy(update={"notches": weapon.notches + 1})
    return _mishap(after, "sharp", "notched", f"{save.explain()}: a notch, {after.notches} now, "
                   f"{weapon_penalty(after)} to hit and damage (M-WPN-02)", (save.roll,), save=save)


def _blunt(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-03: below 20 the weapon slips and lands 2d6 feet away in a random direction (d8 compass)."""
    r = dex_roll(dex, weapon.magic_bonus, rng, rules, weapon.name)
    if r.total >= 20:
        return _mishap(weapon, "blunt", "held", f"keeps hold ({r.total})", (r,), roll=r)
    feet = dice.roll("2d6", rng, label=f"{weapon.name} slips: feet")
    way = dice.roll("d8", rng, label=f"{weapon.name} slips: direction (1 = N, clockwise)")
    direction = COMPASS[way.total - 1]
    return _mishap(weapon, "blunt", "slipped", f"slips from the grasp ({r.total}): lands {feet.total} feet away "
                   f"to the {direction} (M-WPN-03)", (r, feet, way), roll=r, slip_feet=feet.total, direction=direction)


def _strung(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-04: the string (thin rope) saves vs crushing blow or snaps, destroying the weapon."""
    save = _weapon_save(weapon, "strung", rng, rules, neglect)
    if save.saved:
        return _mishap(weapon, "strung", "held", f"{save.explain()}: the string holds", (save.roll,), save=save)
    return _mishap(weapon.model_copy(update={"broken": True}), "strung", "snapped",
                   f"{save.explain()}: the string snaps and the weapon is ruined (M-WPN-04)", (save.roll,), save=save)


def _pole(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-05: thick wood saves vs crushing blow or cracks; a cracked haft that fails snaps."""
    save = _weapon_save(weapon, "pole", rng, rules, neglect)
    if save.saved:
        return _mishap(weapon, "pole", "held", f"{save.explain()}: the haft holds", (save.roll,), save=save)
    if weapon.cracked:
        return _mishap(weapon.model_copy(update={"broken": True}), "pole", "snapped",
                       f"{save.explain()}: the cracked haft snaps; the weapon is unusable (M-WPN-05)", (save.roll,),
                       save=save)
    return _mishap(weapon.model_copy(update={"cracked": True}), "pole", "cracked",
                   f"{save.explain()}: the haft cracks; it saves every round it is used (M-WPN-05)", (save.roll,),
                   save=save)


def _hurled(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-06, AMB-99: below 20 off-balance until the next round: no DEX or shield AC, loses 1d4 segments
    (option off_balance_segments: under Furnace initiative it acts last instead)."""
    r = dex_roll(dex, weapon.magic_bonus, rng, rules, weapon.name)
    if r.total >= 20:
        return _mishap(weapon, "hurled", "held", f"keeps balance ({r.total})", (r,), roll=r)
    if rules["off_balance_segments"] == "segments":
        seg = dice.roll("1d4", rng, label="segments lost next round")
        return _mishap(weapon, "hurled", "off_balance", f"off-balance ({r.total}): no DEX or shield AC, loses "
                       f"{seg.total} segment(s) next round (M-WPN-06)", (r, seg), roll=r,
                       conditions=("OFF_BALANCE",), segments_lost=seg.total)
    return _mishap(weapon, "hurled", "off_balance", f"off-balance ({r.total}): no DEX or shield AC and acts last "
                   "next turn (M-WPN-06, AMB-99)", (r,), roll=r, conditions=("OFF_BALANCE", "LAST_TO_ACT"))


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
        why = "a natural 2 harms only a wet string" if natural == 2 else f"a natural {natural} harms no weapon"
        return _mishap(weapon, cls, "none", f"{why} (M-WPN-01, M-WPN-04)", ())
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
