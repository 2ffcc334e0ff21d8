"""A combatant: a character or a monster as the encounter sees it.

Monster numbers follow the ROOM DC (D-2): AC = ROOM DC, attack bonus and save bonus = ROOM DC − 10,
each overridable per monster.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from furnace import dice
from furnace.characters.character import Character
from furnace.characters.equipment import attack_bonus, damage_expression
from furnace.play import registry
from furnace.play.conditions import Held
from furnace.rules.bestiary import hd_value
from furnace.rules.effects import ABILITIES, Ability
from furnace.rules.ruleset import Ruleset

Zone = Literal["CLOSE", "NEAR", "RANGED", "FAR"]
ZONES: tuple[Zone, ...] = ("CLOSE", "NEAR", "RANGED", "FAR")
Status = Literal["up", "dying", "stable", "unconscious", "dead", "out", "fled"]
ArmorType = Literal["none", "light", "heavy"]


class Combatant(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    name: str
    side: str
    kind: Literal["pc", "monster"] = "monster"
    level: int = 0
    prof: int = 0
    char_class: str | None = None
    hp: int
    hp_max: int
    ac: int
    attack_bonus: int
    damage: str = "1d6"
    weapon: str = "weapon"
    ranged: bool = False
    armor_type: ArmorType = "none"
    armor_key: str | None = None            # F-TAB-21 key: what the armor is made of (M-ARM)
    helmet: bool = False
    shield: bool = False
    weapon_class: str | None = None         # sharp, blunt, strung, pole, hurled, unarmed (M-WPN)
    magic_bonus: int = 0
    dex_score: int = 10
    saves: dict[Ability, int] = Field(default_factory=dict)
    con_mod: int = 0
    morale: int | None = None
    zone: Zone = "NEAR"
    status: Status = "up"
    dying_turns: int | None = None          # F-DEATH-01: turns left before death
    knocked_down: int = 0                   # drops to 0 HP this encounter (F-DEATH-03)
    crit_range: int = 20
    features: tuple[str, ...] = ()          # Cleave, Sneak Attack, Rage …
    held: tuple[Held, ...] = ()
    injuries: tuple[str, ...] = ()
    hit_dice: int = 0
    hit_die: str = "d4"
    scores: dict[Ability, int] = Field(default_factory=dict)   # PCs: for ability loss and death at 0
    spell_mod: int | None = None            # the casting ability's modifier (INT or WIS), for casters
    spells: tuple[str, ...] = ()
    spells_cast: int = 0                    # toward the Spell Depletion SAVE (F-MU-04)
    disapproval: int = 1                    # a Cleric's disapproval range (F-CLR-04)
    luck_dice: int = 0                      # F-LUCK-01/02: PCs earn them on failed rolls in a row
    luck_streak: int = 0
    hd: float = 0                           # a monster's Hit Dice; "1-1" and "1/2" are under one (M-MOOK-02)
    doomed_round: int | None = None         # a crit's "dies in 1d4 rounds": dies at its turn in this round

    @property
    def active(self) -> bool:
        """Up and able to fight: not dying, dead, fled, nor knocked senseless (UNCONSCIOUS)."""
        return self.status == "up" and not any(h.name == "UNCONSCIOUS" for h in self.held)

    @property
    def in_fight(self) -> bool:
        return self.status in ("up", "dying", "stable", "unconscious")

    def save_bonus(self, ability: Ability | None) -> int:
        return self.saves.get(ability, 0) if ability else 0


def armor_type(c: Character, rules: Ruleset) -> ArmorType:
    """Fumble die by armor (F-TAB-35); a shield alone counts as no armor (AMB-27)."""
    if c.armor is None:
        return "none"
    kind = rules.tables.get("armor").lookup(c.armor).data.get("type", "none")
    if kind == "light":
        return "light"
    return "heavy" if kind == "heavy" else "none"


BLUNT = ("mace", "hammer", "club", "maul", "flail", "cudgel", "sledge")
POLE = ("staff", "spear", "pole", "halberd", "glaive", "pike", "billhook", "quarterstaff")


def weapon_class_of(weapon: Any) -> str | None:
    """The Middle Sea weapon class (AMB-95): given on the weapon, else read from its name and kind."""
    if weapon is None:
        return "unarmed"
    if weapon.weapon_class:
        return str(weapon.weapon_class)
    name = weapon.name.lower()
    if weapon.kind == "ranged":
        return "strung" if "bow" in name else "hurled"
    if any(w in name for w in POLE):
        return "pole"
    return "blunt" if any(w in name for w in BLUNT) else "sharp"


def state_modifiers(c: Character) -> tuple[int, int]:
    """What the character's state does to her ATK and SAVEs in a fight: the chapters' registered modifiers
    (short of sleep −N to every roll, H-SLEEP-01; drunk −2 to saves, H-DRUG-02; Liquid Courage −1 to hit,
    M-DRINK-01). The rules live in their chapters; the engine only adds them up."""
    parts = registry.state_modifiers(c)
    return sum(p.to_hit for p in parts), sum(p.saves for p in parts)


def from_character(c: Character, side: str, rules: Ruleset, *, zone: Zone = "NEAR", id: str | None = None,
                   ) -> Combatant:
    """A character's numbers for the fight: AC, the first weapon's ATK and damage, SAVE bonuses."""
    prof = c.prof(rules)
    ranged_weapons = [w for w in c.weapons if w.kind == "ranged"]
    weapon = ranged_weapons[0] if zone in ("RANGED", "FAR") and ranged_weapons else next(iter(c.weapons), None)
    if weapon is not None:
        atk, dmg, name, ranged = attack_bonus(c, weapon, rules), damage_expression(c, weapon), weapon.name, \
            weapon.kind == "ranged"
    else:
        atk, dmg, name, ranged = c.mod("STR") + prof, str(max(1, 1 + c.mod("STR"))), "fist", False
    to_hit, save_mod = state_modifiers(c)
    atk += to_hit
    saves = {a: c.mod(a) + (prof if a in c.saves else 0) + save_mod for a in ABILITIES}
    features = [*c.features, *c.archetype_features]
    crit_range = 20
    for data in c.archetype_feature_data(rules):
        if "crit_range" in data:
            crit_range = min(crit_range, int(min(data["crit_range"])))
    return Combatant(
        id=id or c.name, name=c.name, side=side, kind="pc", level=c.level, prof=prof, char_class=c.char_class,
        hp=c.hp, hp_max=c.hp_max, ac=c.ac(rules), attack_bonus=atk, damage=dmg, weapon=name, ranged=ranged,
        armor_type=armor_type(c, rules), armor_key=c.armor, helmet=c.helmet, shield=c.shield,
        weapon_class=weapon_class_of(weapon), magic_bonus=weapon.magic_bonus if weapon else 0,
        dex_score=c.scores["DEX"], saves=saves, con_mod=c.mod("CON"), zone=zone,
        crit_range=crit_range, features=tuple(features), hit_dice=c.hit_dice, hit_die=c.hit_die(rules),
        scores=dict(c.scores), spells=tuple(c.spells), disapproval=c.disapproval, spells_cast=c.spells_cast,
        spell_mod={"Magic-user": c.mod("INT"), "Cleric": c.mod("WIS")}.get(c.char_class or ""),
        status="up" if c.hp > 0 else "unconscious")


def monster_hd(value: Any) -> float:
    """A monster's Hit Dice as written: 7, 0.5, "1/2", or "1-1" (one die less a point: under one full HD).
    The bestiary's reading, so a fight file and a bestiary entry mean the same thing."""
    return hd_value(value)


def monster(spec: dict[str, Any], side: str, room_dc: int, rng: dice.DiceSource, *, id: str) -> Combatant:
    """A monster from a fight file: hp (a number or dice like 2d8), and AC/ATK/saves from the ROOM DC."""
    hp_text = str(spec.get("hp", "1d8"))
    hp = int(hp_text) if hp_text.lstrip("-").isdigit() else dice.roll(hp_text, rng, label=f"{id} HP").total
    bonus = int(spec.get("attack_bonus", room_dc - 10))
    save = int(spec.get("save_bonus", room_dc - 10))
    return Combatant(
        id=id, name=str(spec.get("name", id)), side=side, kind="monster",
        level=int(spec.get("level", max(1, int(monster_hd(spec.get("hd", 1)))))), hd=monster_hd(spec.get("hd", 1)),
        hp=max(1, hp), hp_max=max(1, hp), ac=int(spec.get("ac", room_dc)), attack_bonus=bonus,
        damage=str(spec.get("damage", "1d6")), weapon=str(spec.get("weapon", "attack")),
        ranged=bool(spec.get("ranged", False)), armor_type=spec.get("armor", "none"),
        saves={a: save for a in ABILITIES}, morale=spec.get("morale"), zone=spec.get("zone", "NEAR"),
        helmet=bool(spec.get("helmet", False)), shield=bool(spec.get("shield", False)),
        armor_key=spec.get("armor_key"), weapon_class=spec.get("weapon_class"),
        features=tuple(spec.get("features", ())))
