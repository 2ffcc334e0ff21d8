"""The Middle Sea in the encounter engine, registered with it: the crit, fumble and death models (the
options crit_model, fumble_model and death_model), the armor save after a Furnace crit
(furnace_crits_damage_armor, CF-33), the mook rule's extra attacks and Liquid Courage's −1 to hit.

A natural 20 (M-CRIT-01, M-ARM-01…03, D-1): against the unarmored, maximum damage and nothing else;
against armor, normal damage and the piece that takes the blow (the shield first) saves vs crushing blow
(melee, hurled) or normal blow (missiles), or loses protection: body armor a point (counted in the combatant's
`armor_lost`, destroyed when none is left, CF-40, armor_damage_scale), a shield is destroyed (CF-41), a helmet
too. A natural 1 (M-WPN-01…07): the weapon is damaged by its class; off-balance (M-WPN-06, AMB-99) loses the
DEX and shield AC until the next round and acts last, or loses 1d4 segments (off_balance_segments). 0 HP
(M-GRIEV-01, D-4, M-MOOK-01): `fight_grievous`. The rules themselves are `furnace.houserules.middle_sea`'s; this
module maps them onto combatants.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from furnace import dice
from furnace.characters.abilities import modifier
from furnace.characters.character import Character, Weapon
from furnace.events import declare
from furnace.houserules import middle_sea as ms
from furnace.houserules.middle_sea.armor import ARMOR_SAVE
from furnace.houserules.middle_sea.fight_grievous import grievous_at_zero, npc_at_zero
from furnace.play.apply import FEAR_SAVES
from furnace.play.combatant import Combatant, armor_points
from furnace.play.conditions import Held, modifier_name
from furnace.play.death import take_damage
from furnace.play.marks import marks, with_marks
from furnace.play.registry import (
    AFTER_ATTACK,
    ATTACKS_PER_ACTION,
    COMBATANT_HOOKS,
    CRIT_MODELS,
    DEATH_MODELS,
    FUMBLE_MODELS,
    MODIFIERS,
    NPC_MODELS,
    StateModifier,
)
from furnace.play.state import Step
from furnace.play.wear import wear, with_wear
from furnace.rules.ruleset import Ruleset

ARMOR_HIT = "middle-sea:armor-hit"   # the CRIT_MODELS entry the engine calls under furnace_crits_damage_armor
SHIELD_DENTED = "_shield_dented"     # a shield that lost its first point this fight (one_point, CF-41)
Break = tuple[str, dict[str, Any], tuple[str, ...], int]   # the result, its values, its rules, armor points lost

# a natural 20 under the Middle Sea crit: `outcome` armored (normal damage and the armor save), no_body_armor (a
# shield or helmet alone: maximum damage and the piece's save, D-1) or unarmored (maximum damage, nothing else)
CRIT = declare("middle_sea_crit", targets=1, outcome="public", damage="actor", example={"outcome": "armored"})
OFF_BALANCE = declare("off_balance", dex="actor", shield="actor", ac_before="actor", ac_after="actor", ac_lost="actor",
                      segments_lost="public", example={"dex": 2, "shield": 2, "ac_before": 16, "ac_after": 12,
                                                       "ac_lost": 4, "segments_lost": None})
CRIT_OUTCOMES = {(False, True): ("armored", ("M-ARM-01",)), (True, True): ("no_body_armor", ("D-1",)),
                 (True, False): ("unarmored", ("M-CRIT-01",))}

DEATH_MODELS.add("middle-sea", grievous_at_zero)
NPC_MODELS.add("middle-sea", npc_at_zero)   # M-MOOK-01 per npc_grievous: a named NPC (or every one) rolls
__all__ = ["ARMOR_HIT", "armor_after_crit", "crit", "fumble", "grievous_at_zero", "npc_at_zero", "off_balance_ac"]


@CRIT_MODELS.register("middle-sea")
def crit(step: Step, actor: str, target: str) -> None:
    a, t = step.c(actor), step.c(target)
    armored = t.armor_type != "none"
    result = ms.middle_sea_crit(armored, a.damage, target_has_shield=t.shield, target_has_helmet=t.helmet,
                                rules=step.rules, rng=step.rng)
    damage = result.damage if result.damage is not None else dice.parse(a.damage).bounds()[1]
    outcome, ids = CRIT_OUTCOMES.get((result.maximum, result.armor_damage), ("armored", ("M-ARM-01",)))
    step.fact(CRIT, actor, (target,), (result.roll,) if result.roll else (), ids, outcome=outcome, damage=damage)
    take_damage(step, target, damage, by=actor, means=a.weapon)
    if result.armor_damage and step.c(target).in_fight:
        _armor_hit(step, target, "missile" if a.ranged else "melee")


@CRIT_MODELS.register(ARMOR_HIT)
def armor_after_crit(step: Step, actor: str, target: str) -> None:
    """CF-33 (option furnace_crits_damage_armor): after a Furnace crit, the struck piece saves (M-ARM-01…03)."""
    _armor_hit(step, target, "missile" if step.c(actor).ranged else "melee")


def _armor_hit(step: Step, target: str, attack: str) -> None:
    """M-ARM-01…03, D-1, AMB-98: the piece that takes the blow (helmet_hit_chance in 6 for the helmet) saves
    vs the attack's form (item_save_model, X-TAB-06) or is damaged."""
    t = step.c(target)
    piece, piece_roll = ms.pick_piece(t.shield, t.armor_type != "none", t.helmet, step.rng, step.rules)
    if piece is None:
        return
    form = ms.attack_form(attack)
    material = ms.piece_material(piece, t.armor_key, step.rules)
    save = ms.item_save(material, form, step.rng, step.rules)
    rolls = tuple(r for r in (piece_roll, save.roll) if r is not None)
    if save.saved:
        step.fact(ARMOR_SAVE, target, (), rolls, ("M-ARM-02",), piece=piece, result="saved", **save.values())
        return
    result, values, ids, lost = _BREAK[piece](step, target)
    step.fact(ARMOR_SAVE, target, (), rolls, ("M-ARM-02", *ids), piece=piece, result=result, **save.values(),
              **values, armor_lost=lost)


def _break_armor(step: Step, cid: str) -> Break:
    """M-ARM-03, CF-40: body armor loses a point of protection (her wear's armor_lost, written back to the
    character after the fight) and is destroyed when none is left; a monster's armor with no F-TAB-21 key loses
    a point of AC."""
    t = step.c(cid)
    change = {"ac_before": t.ac, "ac_after": t.ac - 1}
    if t.armor_key is None:
        step.update(cid, ac=t.ac - 1)
        return "damaged", change, ("M-ARM-03",), 0
    total, lost = armor_points(t.armor_key, step.rules), wear(t).armor_lost + 1
    if total - lost <= 0:
        step.update(cid, ac=t.ac - 1, **with_wear(t, armor_lost=lost), armor_type="none")
        return "destroyed", {"armor": t.armor_key, "points": total, "left": 0, **change}, ("M-ARM-03", "CF-40"), 1
    step.update(cid, ac=t.ac - 1, **with_wear(t, armor_lost=lost))
    return "damaged", {"armor": t.armor_key, "points": total, "left": total - lost, **change}, ("M-ARM-03", "CF-40"), 1


def _break_shield(step: Step, cid: str) -> Break:
    """M-ARM-03, CF-41: a failed save destroys the shield (its AC bonus is gone); under the option
    middle_sea_shield_save_failure = one_point the first failure in the fight costs 1 point of AC (marked
    SHIELD_DENTED) and the second destroys it."""
    t = step.c(cid)
    dented = SHIELD_DENTED in t.features
    if step.options["middle_sea_shield_save_failure"] == "one_point" and not dented:
        step.update(cid, ac=t.ac - 1, features=(*t.features, SHIELD_DENTED))
        return "dented", {"ac_before": t.ac, "ac_after": t.ac - 1}, ("CF-41",), 0
    bonus = 1 if dented else _shield_bonus(step.rules)
    step.update(cid, shield=False, ac=t.ac - bonus, features=tuple(f for f in t.features if f != SHIELD_DENTED))
    return "destroyed", {"ac_before": t.ac, "ac_after": t.ac - bonus}, ("M-ARM-03", "CF-41"), 0


def _break_helmet(step: Step, cid: str) -> Break:
    step.update(cid, helmet=False)
    return "destroyed", {}, ("M-ARM-03",), 0


_BREAK: dict[str, Callable[[Step, str], Break]] = {
    "armor": _break_armor, "shield": _break_shield, "helmet": _break_helmet,
}


def _shield_bonus(rules: Ruleset) -> int:
    return int(rules.tables.get("armor").lookup("shield").data.get("ac_bonus", 2))


def _weapon(a: Combatant) -> Weapon:
    return Weapon(name=a.weapon, kind="ranged" if a.ranged else "one-handed", damage=a.damage,
                  weapon_class=a.weapon_class or ("hurled" if a.ranged else "sharp"),
                  magic_bonus=a.magic_bonus, notches=wear(a).weapon_notches, cracked=wear(a).weapon_cracked)


@FUMBLE_MODELS.register("middle-sea")
def fumble(step: Step, actor: str) -> None:
    a = step.c(actor)
    mishap = ms.weapon_mishap(_weapon(a), a.dex_score, step.rng, step.rules)
    _record(step, actor, mishap)
    _MISHAPS.get(mishap.outcome, _unharmed)(step, actor, mishap)


def _record(step: Step, actor: str, mishap: ms.Mishap, **more: Any) -> None:
    """The mishap's facts, recorded as the wielder's."""
    for e in mishap.events:
        step.fact(e.kind, actor, e.targets, e.rolls, e.rules, audience=e.audience, **{**e.data, **more})


def _unharmed(step: Step, actor: str, mishap: ms.Mishap) -> None:
    """The weapon held (or a natural 1 that harms nothing)."""


def _notched(step: Step, actor: str, mishap: ms.Mishap) -> None:
    """M-WPN-02: a notch, −1 to hit and damage (counted in weapon_notches for the write-back)."""
    a = step.c(actor)
    step.update(actor, attack_bonus=a.attack_bonus - 1, damage=f"{a.damage}-1",
                **with_wear(a, weapon_notches=wear(a).weapon_notches + 1))


def _cracked(step: Step, actor: str, mishap: ms.Mishap) -> None:
    """M-WPN-05: the haft is cracked (weapon_cracked); the next natural 1 that fails snaps it."""
    step.update(actor, **with_wear(step.c(actor), weapon_cracked=True))


def _middle_sea_fumbles(rules: Ruleset) -> bool:
    return bool(rules["fumble_model"] == "middle-sea")


@AFTER_ATTACK.register("middle-sea:cracked-haft", when=_middle_sea_fumbles)
def cracked_haft(step: Step, actor: str, before: Combatant) -> None:
    """M-WPN-05 (fumble_model middle-sea): each round a haft cracked before it is used, it saves vs crushing
    blow as thick wood, or snaps and the weapon is unusable (she fights on with her fists)."""
    a = step.c(actor)
    if step.options["fumble_model"] != "middle-sea" or not wear(before).weapon_cracked or a.weapon != before.weapon \
            or marks(a).weapon_lost or not a.in_fight:
        return
    mishap = ms.pole_round(_weapon(a), step.rng, step.rules)
    _record(step, actor, mishap, in_use=True)
    if mishap.outcome == "snapped":
        _lost(step, actor, mishap)


def _lost(step: Step, actor: str, mishap: ms.Mishap) -> None:
    """M-WPN-04/05: a snapped string or haft: the weapon is lost (weapon_lost); she fights on with her fists."""
    a = step.c(actor)
    step.update(actor, weapon="fist", damage="1", ranged=False, weapon_class="unarmed",
                **with_marks(a, weapon_lost=marks(a).weapon_lost or a.weapon))


def _slipped(step: Step, actor: str, mishap: ms.Mishap) -> None:
    """M-WPN-03: the weapon lies 2d6 feet away: no ATK until her next turn."""
    a = step.c(actor)
    step.update(actor, held=(*a.held, Held(name="CANT_ATTACK", source=f"{a.weapon} slipped",
                                           until_round=step.enc.round + 1)))


def off_balance_ac(c: Combatant, rules: Ruleset) -> tuple[int, int]:
    """M-WPN-06: the AC an off-balance combatant does without: its DEX bonus (where its armor adds DEX, F-EQ-01;
    a bonus only, a penalty stays) and its shield's bonus."""
    table = rules.tables.get("armor")
    adds = table.lookup(c.armor_key).data.get("adds_dex") if c.armor_key else c.armor_type != "heavy"
    dex = max(0, modifier(c.dex_score, rules)) if adds else 0
    shield = _shield_bonus(rules) - (1 if SHIELD_DENTED in c.features else 0) if c.shield else 0
    return dex, shield


def _off_balance(step: Step, actor: str, mishap: ms.Mishap) -> None:
    """M-WPN-06, AMB-99: until her next turn no DEX or shield AC (a held AC modifier, MOD:ac:BONUS), and she acts
    last next round (LAST_TO_ACT), or under off_balance_segments = segments loses 1d4 segments."""
    a = step.c(actor)
    dex, shield = off_balance_ac(a, step.rules)
    until, source = step.enc.round + 1, "off-balance"
    held = [Held(name=name, source=source, until_round=until) for name in mishap.conditions]
    if dex + shield:
        held.append(Held(name=modifier_name("ac", "BONUS"), value=-(dex + shield), until_round=until,
                         source="off-balance: no DEX or shield AC"))
    step.update(actor, held=(*a.held, *held))
    step.fact(OFF_BALANCE, actor, (), (), ("M-WPN-06", "AMB-99") if mishap.segments_lost is None else ("M-WPN-06",),
              dex=dex, shield=shield, ac_before=a.ac, ac_after=a.ac - dex - shield, ac_lost=dex + shield,
              segments_lost=mishap.segments_lost)


_MISHAPS: dict[str, Callable[[Step, str, ms.Mishap], None]] = {
    "notched": _notched, "cracked": _cracked, "snapped": _lost, "broken": _lost, "slipped": _slipped,
    "off_balance": _off_balance,
}


@MODIFIERS.register("middle-sea:liquid-courage")
def liquid_courage(c: Character) -> StateModifier:
    """M-DRINK-01: while Liquid Courage lasts, −1 to hit, +1 to her morale SAVE and to her SAVEs vs fear."""
    mods = ms.courage_modifiers(c)
    return StateModifier("Liquid Courage", to_hit=mods.get("to_hit", 0), morale=mods.get("morale", 0),
                         fear_saves=mods.get("fear_saves", 0))


@COMBATANT_HOOKS.register("middle-sea:courage")
def carry_courage(c: Character, combatant: Combatant, rules: Ruleset) -> Combatant:
    """M-DRINK-01 in a fight: Liquid Courage's +1 to SAVEs vs fear, held for the fight (`MOD:fear_saves:BONUS`,
    read by every SAVE vs fear); its −1 to hit is already in her ATK."""
    bonus = ms.courage_modifiers(c).get("fear_saves", 0)
    if not bonus or any(h.name == FEAR_SAVES and h.source == "Liquid Courage" for h in combatant.held):
        return combatant
    held = Held(name=FEAR_SAVES, source="Liquid Courage", ending="encounter", value=bonus)
    return combatant.model_copy(update={"held": (*combatant.held, held)})


def _mook_attacks(rules: Ruleset) -> bool:
    return bool(rules["mook_extra_attacks"])


@ATTACKS_PER_ACTION.register("middle-sea:mooks", when=_mook_attacks)
def fighter_against_mooks(step: Step, actor: str, target: str) -> int:
    """M-MOOK-02 (option mook_extra_attacks): a Fighter attacks once per level against a creature under 1 HD."""
    if not step.options["mook_extra_attacks"]:       # (asked at every attack: the option first, then who fights)
        return 1
    a, t = step.c(actor), step.c(target)
    if a.char_class != "Fighter" or t.kind != "monster" or t.hd >= 1:
        return 1
    return max(1, a.level)
