"""The Middle Sea in the encounter engine, registered with it: the crit, fumble and death models (the
options crit_model, fumble_model and death_model) and Liquid Courage's −1 to hit.

A natural 20 (M-CRIT-01, M-ARM-01…03, D-1): against the unarmored, maximum damage and nothing else;
against armor, normal damage and the piece that takes the blow (the shield first) saves vs crushing blow
(melee, hurled) or normal blow (missiles), or loses protection. A natural 1 (M-WPN-01…07): the weapon
is damaged by its class. 0 HP (M-GRIEV-01, D-4): HP stop at 0 and the excess is rolled on the grievous
injury table (3d6 + excess), a helmet turning a head blow to the lesser result. The rules themselves are
`furnace.houserules.middle_sea`'s; this module maps them onto combatants.
"""

from __future__ import annotations

from furnace import dice
from furnace.characters.character import Character, Weapon
from furnace.houserules import middle_sea as ms
from furnace.play.apply import apply_all
from furnace.play.combatant import Combatant
from furnace.play.conditions import Held
from furnace.play.death import take_damage
from furnace.play.registry import (
    ATTACKS_PER_ACTION,
    CRIT_MODELS,
    DEATH_MODELS,
    FUMBLE_MODELS,
    MODIFIERS,
    StateModifier,
)
from furnace.play.state import Step
from furnace.rules.effects import parse_effect


@CRIT_MODELS.register("middle-sea")
def crit(step: Step, actor: str, target: str) -> None:
    a, t = step.c(actor), step.c(target)
    armored = t.armor_type != "none"
    result = ms.middle_sea_crit(armored, a.damage, target_has_shield=t.shield, target_has_helmet=t.helmet,
                                rules=step.rules, rng=step.rng)
    damage = result.damage if result.damage is not None else dice.parse(a.damage).bounds()[1]
    step.log("crit", a.name, f"natural 20 (Middle Sea): {result.reason}", (result.roll,) if result.roll else ())
    take_damage(step, target, damage, f"{a.name}'s {a.weapon}")
    if result.armor_damage and step.c(target).in_fight:
        _armor_hit(step, target, "missile" if a.ranged else "melee")


def _armor_hit(step: Step, target: str, attack: str) -> None:
    t = step.c(target)
    piece, piece_roll = ms.pick_piece(t.shield, t.armor_type != "none", t.helmet, step.rng, step.rules, who=t.name)
    if piece is None:
        return
    form = "normal_blow" if attack == "missile" else "crushing_blow"
    material = ms.piece_material(piece, t.armor_key, step.rules)
    save = ms.item_save(material, form, step.rng, step.rules, label=f"{t.name}'s {piece} vs {form.replace('_', ' ')}")
    rolls = tuple(r for r in (piece_roll, save.roll) if r is not None)
    if save.saved:
        step.log("armor", t.name, f"the {piece} takes the blow and holds ({save.explain()})", rolls)
        return
    if piece == "shield":
        step.update(target, shield=False, ac=t.ac - 2)
        what = f"the shield is destroyed: AC {t.ac} → {t.ac - 2}"
    elif piece == "helmet":
        step.update(target, helmet=False)
        what = "the helmet is destroyed"
    else:
        step.update(target, ac=t.ac - 1)
        what = f"the armor loses a point of protection: AC {t.ac} → {t.ac - 1}"
    step.log("armor", t.name, f"{what} ({save.explain()})", rolls)


@FUMBLE_MODELS.register("middle-sea")
def fumble(step: Step, actor: str) -> None:
    a = step.c(actor)
    weapon = Weapon(name=a.weapon, kind="ranged" if a.ranged else "one-handed", damage=a.damage,
                    weapon_class=a.weapon_class or ("hurled" if a.ranged else "sharp"),
                    magic_bonus=a.magic_bonus)
    mishap = ms.weapon_mishap(weapon, a.dex_score, step.rng, step.rules)
    rolls = tuple(r for r in (mishap.roll, mishap.save.roll if mishap.save else None) if r is not None)
    step.log("fumble", a.name, f"natural 1 (Middle Sea): {a.weapon} {mishap.outcome.replace('_', ' ')}", rolls,
             outcome=mishap.outcome)
    if mishap.outcome == "notched":
        step.update(actor, attack_bonus=a.attack_bonus - 1, damage=f"{a.damage}-1")
    elif mishap.outcome in ("snapped", "broken"):
        step.update(actor, weapon="fist", damage="1", ranged=False, weapon_class="unarmed")
    elif mishap.outcome in ("slipped", "off_balance"):
        name = "OFF_BALANCE" if mishap.outcome == "off_balance" else "CANT_ATTACK"
        step.update(actor, held=(*a.held, Held(name=name, source=f"{a.weapon} {mishap.outcome}",
                                               until_round=step.enc.round + 1)))


@DEATH_MODELS.register("middle-sea")
def grievous_at_zero(step: Step, c: Combatant, amount: int) -> None:
    if c.hp > 0:
        return
    excess = -c.hp
    c = step.update(c.id, hp=0)
    if excess == 0:
        step.update(c.id, held=(*c.held, Held(name="KNOCKED_DOWN", source="0 HP", ending="stands")))
        step.log("knocked_down", c.name, "exactly 0 HP: knocked down, conscious (D-4)")
        return
    rolled = step.rules.tables.roll("grievous-injury", step.rng, variables={"EXCESS": excess},
                                    label=f"{c.name} grievous injury, 3d6 + {excess} excess")
    effects = rolled.row.effect_list()
    helmet = c.helmet and "with_helmet" in rolled.row.data
    if helmet:   # M-GRIEV-04/05: a helmet turns the blow to a lesser result
        effects = [parse_effect(e) for e in rolled.row.data["with_helmet"]]
    step.log("grievous", c.name, f"grievous injury {rolled.roll.total}: {rolled.row.text}"
             + (" (with a helmet: the lesser result)" if helmet else ""), (rolled.roll,), table=rolled.table.id)
    apply_all(step, effects, actor=c.id, target=c.id)


@MODIFIERS.register("middle-sea:liquid-courage")
def liquid_courage(c: Character) -> StateModifier:
    """M-DRINK-01: while Liquid Courage lasts, −1 to hit (its morale and fear-save bonuses are the SAVE's)."""
    return StateModifier("Liquid Courage (M-DRINK-01)", to_hit=ms.courage_modifiers(c).get("to_hit", 0))


@ATTACKS_PER_ACTION.register("middle-sea:mooks")
def fighter_against_mooks(step: Step, actor: str, target: str) -> int:
    """M-MOOK-02 (option mook_extra_attacks): a Fighter attacks once per level against a creature under 1 HD."""
    a, t = step.c(actor), step.c(target)
    if not step.rules["mook_extra_attacks"] or a.char_class != "Fighter" or t.kind != "monster" or t.hd >= 1:
        return 1
    return max(1, a.level)
