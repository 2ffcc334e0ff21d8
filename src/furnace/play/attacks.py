"""Attacks: the ATK roll, crits and fumbles, damage, Rage, shield sunder, Cleave and the extra attacks a row grants.

F-CMBT-01 (ATK), F-CRIT-01/02 (a natural 20: maximum DAM per crit_damage, the class crit table; the extra ATK a
row grants crits again per crit_extra_attack_chains, AMB-23; under furnace_crits_damage_armor the Middle Sea
armor save too, CF-33), F-FUMB-01/02 (a natural 1), F-FTR-03 (Cleave: the excess, or a new ATK per
cleave_overflow, AMB-01), F-ROG-04 (Sneak Attack), F-ARCH-02 (Rage, rage_uses_per_long_rest; crit range),
F-EQ-03 (shield sunder, shield_sunder_damage, AMB-36), F-LUCK-03 (a Luck Die spent after the roll is seen,
luck_spend_timing, AMB-02) and AMB-07 (player_facing_defense: the PC rolls to avoid a monster's blow).
`furnace.play.encounter` runs them turn by turn.
"""

from __future__ import annotations

from typing import Any

from furnace import dice
from furnace.errors import IllegalActionError
from furnace.events import declare
from furnace.play import choosing, registry, styles
from furnace.play import conditions as cond
from furnace.play.apply import apply_all, record_luck
from furnace.play.checks import make_dc
from furnace.play.combatant import FIGHTING, Combatant
from furnace.play.crit import crit_level, crit_table, fumbles
from furnace.play.death import damage_to, take_damage
from furnace.play.kept import Kept
from furnace.play.marks import marks, with_marks
from furnace.play.state import Encounter, Step, zone_index
from furnace.rules.effects import parse_effect

# the facts of an attack, and who may know each value (furnace.events.declare)
MISS = declare("miss", targets=1, total="actor", dc="target", weapon="actor", ac="target", ac_shift="target",
               easy="target", hard="target", example={"weapon": "mace", "easy": [], "hard": ["attacker|BLINDED|"]})
HIT = declare("hit", targets=1, total="actor", dc="target", weapon="actor", crit="public", natural_20="public",
              ac="target", ac_shift="target", easy="target", hard="target",
              example={"weapon": "mace", "crit": False, "natural_20": False, "easy": ["target|PRONE|"], "hard": []})
NATURAL_1 = declare("fumble", targets=1, total="actor", weapon="actor", dc="target", table="actor", name="actor",
                    row="actor",
                    text="actor",
                    die="actor", armor="actor")
FUMBLE = NATURAL_1          # the natural 1 and its row on the fumble table are one kind: the row has a table
DEFENDED = declare("defended", targets=1, rolls="target", total="target", dc="public", room_dc="public",
                   weapon="actor", ac="target", example={"weapon": "club"})
NOT_DEFENDED = declare("not_defended", targets=1, rolls="target", total="target", dc="public", room_dc="public",
                       weapon="actor", ac="target", crit="public", example={"weapon": "club", "crit": False})
PROMPT = declare("referee", prompt="referee", example={"prompt": "armor_save_natural_20"})
POWER = declare("power", targets=1, power="public", before="actor", after="actor", amount="actor",
                mode="public", example={"power": "rally", "mode": "EASY"})
LUCK = choosing.LUCK
RAGE = declare("rage", bonus="actor", ac_before="actor", ac_after="actor", left="actor")
DAMAGE_ROLL = declare("damage_roll", targets=1, amount="actor", damage="actor", maximum="public",
                      example={"damage": "1d8+1", "maximum": False})
SUNDER = declare("sunder", taken="actor", amount="actor", ac_before="actor", ac_after="actor")
CLEAVE = declare("cleave", targets=2, overflow="actor", new_attack="public", nobody_close="public")
CRIT = declare("crit", targets=1, table="public", name="public", row="public", total="public", text="public",
               die="public", level="public",
               example={"table": "F-TAB-29", "name": "crit-fighter", "row": "5", "text": "Knocked flat", "die": "d20"})
HITS_ITSELF = declare("hits_itself")

BLOODMAGIC = "BLOODMAGIC"          # held for this turn's blow: the Bloodshaman's HP become DAM (F-ARCH-03)
STRIKES_BACK = cond.modifier_name("attackers", "DAMAGE")   # dice each attacker of the holder takes (F-TAB-17)
ARMOR_HIT = "middle-sea:armor-hit"   # the CRIT_MODELS entry that makes the struck piece's item save (M-ARM-01…03)


NO_SHIFT: dict[str, Any] = {}


def _difficulty(step: Step, a: Combatant, t: Combatant, sneak: bool) -> tuple[int, dict[str, Any]]:
    """The target's AC moved by EASY/HARD from conditions and Sneak Attack, stacked per the option; and the
    workings (the AC, its shift, the EASY and HARD sources) as the fact's values. (Asked only when one of them
    holds something, or of a Sneak Attack: else nothing moves the AC, and the blow has no workings.)"""
    easy, hard = cond.attack_difficulty(a.held, t.held, a.ranged)
    if sneak:
        easy.append("attacker|SNEAK_ATTACK|")
    shift = ac_shift(t)
    dc = make_dc(t.ac + shift, easy, hard, step.rules)
    if not dc.easy and not dc.hard and not shift:
        return dc.value, NO_SHIFT
    return dc.value, {"ac": t.ac, "ac_shift": shift, "easy": list(dc.easy), "hard": list(dc.hard)}


def ac_shift(t: Combatant) -> int:
    """What held markers add to her AC for now: off balance (M-WPN-06), a ward's or an item's bonus (F-TAB-17)."""
    return sum(h.value for h in t.held if h.name == "MOD:ac:BONUS" and h.value)


def _signed(expression: str, bonus: int) -> str:
    return f"{expression}+{bonus}" if bonus >= 0 else f"{expression}-{-bonus}"


# the ATK's dice, d20 + her bonus, parsed once a bonus (a fight rolls the same few at every blow): the last 256
_ATK_DICE: Kept[int, dice.DiceExpression] = Kept(lambda bonus: dice.parse(_signed("d20", bonus)), 256)


def attack(step: Step, actor: str, target: str, /, *, sneak: bool = False, plain: bool = False,
           can_crit: bool = True, cleaves: bool = True) -> None:
    """An ATK: d20 + bonus vs AC ± EASY/HARD; natural 20 crit, natural 1 fumble; damage; Cleave. Whoever attacks a
    creature warded to strike back (Flame Shield, F-TAB-17) takes the ward's damage, hit or miss.

    `plain`: no crit, no fumble (a row's "attack a random ally"); `can_crit` False: a natural 20 hits but does
    not crit (crit_extra_attack_chains); `cleaves` False: a kill carries nothing on (Cleave's own new ATK)."""
    a, t = step.c(actor), step.c(target)
    if a.status != "up" or (a.held and not a.active) or t.status not in FIGHTING:    # (`active`, `in_fight`)
        return
    _attack(step, a, t, sneak, plain, can_crit, cleaves)
    if t.held:
        _struck_back(step, actor, target)


def _struck_back(step: Step, actor: str, target: str) -> None:
    for h in step.c(target).held:
        if h.name == STRIKES_BACK and h.effect and actor != target:
            blow = {"kind": "damage", "dice": h.effect["dice"], "type": h.effect.get("type") or None}
            apply_all(step, [parse_effect(blow)], actor=target, target=actor)


def _attack(step: Step, a: Combatant, t: Combatant, sneak: bool, plain: bool, can_crit: bool, cleaves: bool) -> None:
    """The ATK of `a` (as she is now) at `t`, rolled and read: a fumble, a miss, or a hit and what it does
    (`_lands`)."""
    actor, target = a.id, t.id
    if not plain and step.holding(styles.PROTECTS):      # (most fights: nobody holds Protection)
        styles.protect(step, actor, target)     # a Fighter's Protection may make it HARD (F-FTR-04 (e))
        a, t = step.c(actor), step.c(target)
    if not plain and a.kind == "monster" and t.kind == "pc" and step.options["player_facing_defense"]:
        _defend(step, actor, target, cleaves)
        return
    dc, why = _difficulty(step, a, t, sneak) if a.held or t.held or sneak else (t.ac, NO_SHIFT)
    if a.kind == "pc" or a.powers:
        roll, declared = _roll_atk(step, a, dc, plain)
    else:        # (`_roll_atk` of a monster without powers: the dice alone)
        roll, declared = _ATK_DICE[a.attack_bonus].roll(step.rng, None, "ATK"), 0
    if a.held or t.held:       # (what either holds may be spent by this ATK)
        _spend_next_attack(step, actor, target)
    natural = roll.natural or 0
    if natural == 1 and not plain:
        _natural_1(step, actor, target, roll)
        return
    natural_hit = not plain and natural >= (20 if a.ranged else a.crit_range)   # a natural 20 always hits (F-CRIT-01)
    total = roll.total
    if declared or (a.kind == "pc" and not natural_hit and total < dc):   # (only a PC holds Luck Dice)
        total = _lucky_total(step, a, roll, dc, declared)
    hit = natural_hit or total >= dc
    if a.kind == "pc":         # (only a PC's rolls count toward Luck, F-LUCK-01)
        record_luck(step, actor, hit, "ATK")
    if not hit:
        step.record(MISS, actor, (target,), (roll,), (),
                    {"round": step.round, "total": total, "dc": dc, "weapon": a.weapon, **why})
        return
    # a crit: the natural roll, or any Sneak Attack that hits (F-ROG-04, AMB-44), with a crit table (monsters only
    # with the option, F-CRIT-03)
    crit = (can_crit and (natural_hit or (sneak and "Sneak Attack" in a.features))
            and crit_table(a, step.rules) is not None)
    step.record(HIT, actor, (target,), (roll,), ("F-CRIT-01",) if crit else (),
                {"round": step.round, "total": total, "dc": dc, "weapon": a.weapon, "crit": crit,
                 "natural_20": natural_hit and not crit, **why})
    if natural_hit and can_crit:
        _lands(step, actor, target, total, True, crit, cleaves)
    else:               # (`_lands` of a blow no crit model takes: most hits)
        _damage(step, actor, target, crit, total, cleaves)


def _roll_atk(step: Step, a: Combatant, dc: int, plain: bool) -> tuple[dice.RollResult, int]:
    """Her ATK roll, and the Luck Dice she declared on it before it was rolled (luck_spend_timing before_roll); a
    Chosen one may roll a miss again (F-ARCH-03)."""
    declared = 0
    if a.kind == "pc" and not plain and step.options["luck_spend_timing"] == "before_roll":
        declared = choosing.luck_before(step, a.id, "ATK")
    roll = _ATK_DICE[a.attack_bonus].roll(step.rng, None, "ATK")
    if a.powers and not plain:       # (a power she holds: Chosen one may roll it again)
        roll = _chosen_one(step, a.id, roll, dc)
    return roll, declared


def _lucky_total(step: Step, a: Combatant, roll: dice.RollResult, dc: int, declared: int) -> int:
    """The ATK's total once her Luck Dice are added: those declared before the roll (luck_spend_timing before_roll),
    else those she spends on a miss she has seen (F-LUCK-03)."""
    spent = choosing.spend(step, a, roll, declared) if declared else choosing.luck_on(step, a.id, roll, needed=dc)
    return roll.total if spent is None else spent.total


def _lands(step: Step, actor: str, target: str, total: int, natural_crit: bool, crit: bool, cleaves: bool) -> None:
    """A hit: the crit model in force takes a natural 20 that may crit (a chapter's: the Middle Sea's); else the
    damage, and a Furnace crit's armor hit (CF-33)."""
    crit_model = registry.CRIT_MODELS.find(str(step.options["crit_model"])) if natural_crit else None
    if crit_model is not None:
        was_alive = step.c(target).active
        crit_model(step, actor, target)
        if was_alive and not step.c(target).active:
            step.killed_by[target] = total
        return
    _damage(step, actor, target, crit, total, cleaves)
    if natural_crit and crit:
        _armor_hit(step, actor, target)


def _spend_next_attack(step: Step, actor: str, target: str) -> None:
    """'Next ATK' modifiers, the attacker's and those against the target, last for one attack."""
    a = step.c(actor)
    if a.held:
        step.update(actor, held=cond.spend_next_attack(a.held, "next_atk"))
    t = step.c(target)
    if t.held:
        step.update(target, held=cond.spend_next_attack(t.held, "next_atk_against"))


def _natural_1(step: Step, actor: str, target: str, roll: dice.RollResult) -> None:
    """F-FUMB-01: a natural 1 misses and rolls the fumble model in force (the Furnace table by armor)."""
    record_luck(step, actor, False, "ATK")   # a fumble is a failed ATK (F-LUCK-01)
    a = step.c(actor)
    step.fact(NATURAL_1, actor, (target,), (roll,), ("F-FUMB-01",), total=roll.total, weapon=a.weapon,
              dc=step.c(target).ac)
    model = registry.FUMBLE_MODELS.find(str(step.options["fumble_model"]))
    if model is not None:
        model(step, actor)
    elif fumbles(a, step.rules):
        _fumble(step, actor)


def _armor_hit(step: Step, actor: str, target: str) -> None:
    """CF-33 (option furnace_crits_damage_armor): a Furnace natural 20 on a target with armor, a shield or a
    helmet also makes the Middle Sea armor save (M-ARM-01…03, D-1), the chapter's ARMOR_HIT entry."""
    t = step.c(target)
    if not step.options["furnace_crits_damage_armor"] or not t.in_fight:
        return
    if t.armor_type == "none" and not t.shield and not t.helmet:
        return
    hook = registry.CRIT_MODELS.find(ARMOR_HIT)
    if hook is None:
        step.fact(PROMPT, target, rules=("M-ARM-01", "CF-33"), audience="referee", prompt="armor_save_natural_20")
        return
    hook(step, actor, target)


def _defend(step: Step, actor: str, target: str, cleaves: bool) -> None:
    """AMB-07 (option player_facing_defense): the PC rolls d20 + (AC − 10) against the ROOM DC, made HARD by what
    would make the blow EASY and EASY by what would make it HARD; she is hit when she fails. Her natural 1 is the
    monster's natural 20 when monsters crit (F-CRIT-03); her natural 20 always avoids the blow."""
    a, t = step.c(actor), step.c(target)
    easy, hard = cond.attack_difficulty(a.held, t.held, a.ranged)
    dc = make_dc(step.frame.room_dc, hard, easy, step.rules)
    roll = step.roll(_signed("d20", t.ac + ac_shift(t) - 10), "defence")
    _spend_next_attack(step, actor, target)
    natural = roll.natural or 0
    held = natural == 20 or (natural != 1 and roll.total >= dc.value)
    record_luck(step, target, held, "SAVE")
    if held:
        step.fact(DEFENDED, actor, (target,), (roll,), ("AMB-07",), total=roll.total, dc=dc.value,
                  room_dc=step.frame.room_dc, weapon=a.weapon, ac=t.ac)
        return
    crit = natural == 1 and crit_table(a, step.rules) is not None
    step.fact(NOT_DEFENDED, actor, (target,), (roll,), ("AMB-07",), total=roll.total, dc=dc.value,
              room_dc=step.frame.room_dc, weapon=a.weapon, ac=t.ac, crit=crit)
    _damage(step, actor, target, crit, roll.total, cleaves)


def _power(step: Step, cid: str, key: str) -> tuple[str, dict[str, object]] | None:
    """The first archetype power she still holds this fight whose data names `key` (F-ARCH-03)."""
    powers = step.c(cid).powers
    if not powers:
        return None
    return next(((name, data) for name, data in powers.items() if key in data), None)


def _spend_power(step: Step, cid: str, name: str) -> None:
    """A power used 'once a fight' (data.uses 1 per encounter, AMB-46) is gone until the next fight."""
    c = step.c(cid)
    if "encounter" in str(c.powers[name].get("uses", "")):
        step.update(cid, powers={k: v for k, v in c.powers.items() if k != name})


def _chosen_one(step: Step, actor: str, roll: dice.RollResult, dc: int) -> dice.RollResult:
    """F-ARCH-03 Chosen one (data.reroll atk, once a fight): an ATK that would miss — a natural 1 too — she may
    roll again, the player asked when she has seen it (`choosing.chooses_one`); the new roll stands."""
    power = _power(step, actor, "reroll")
    natural = roll.natural or 0
    if power is None or natural >= step.c(actor).crit_range or (natural != 1 and roll.total >= dc):
        return roll
    if not choosing.chooses_one(step, step.c(actor), roll.total, natural):
        return roll
    _spend_power(step, actor, power[0])
    again = step.roll(roll.expression, "ATK again")
    step.fact(POWER, actor, (), (roll, again), ("F-ARCH-03",), power="chosen_one", before=roll.total,
              after=again.total)
    return again


def rally(step: Step, cid: str) -> None:
    """F-ARCH-03 Rally (data.ally_atk EASY, once a fight): as she attacks she may pick an ally standing, whose
    next ATK is EASY (`choosing.rallies`; nobody asked, the first); declined, the power waits for her next ATK."""
    power = _power(step, cid, "ally_atk")
    if power is None:
        return
    c = step.c(cid)
    allies = list(step.enc.allies_of(c))
    if not allies:
        return
    mode = str(power[1]["ally_atk"])
    ally = choosing.rallies(step, c, allies, mode)
    if ally is None:
        return
    _spend_power(step, cid, power[0])
    step.update(ally.id, held=(*ally.held, cond.Held(name=cond.modifier_name("next_atk", mode),
                                                     source=f"{c.name}'s Rally", ending="encounter")))
    step.fact(POWER, cid, (ally.id,), (), ("F-ARCH-03",), power="rally", mode=mode)


def bloodmagic(step: Step, cid: str) -> None:
    """F-ARCH-03 Bloodmagic, the player's choice on an attack: her next blow this turn converts HP to DAM."""
    c = step.c(cid)
    if _power(step, cid, "hp_cost") is None:
        raise IllegalActionError(f"{c.name} has no Bloodmagic (a Bloodshaman feature, F-ARCH-03)")
    step.update(cid, held=(*c.held, cond.Held(name=BLOODMAGIC, source="Bloodmagic", until_round=step.round + 1)))


def _blood_price(step: Step, actor: str) -> int:
    """AMB-46: the Bloodshaman loses data.hp_cost (1d6) HP and adds the number rolled to this DAM."""
    a = step.c(actor)
    power = _power(step, actor, "hp_cost")
    if power is None or not any(h.name == BLOODMAGIC for h in a.held):
        return 0
    step.update(actor, held=tuple(h for h in a.held if h.name != BLOODMAGIC))
    _spend_power(step, actor, power[0])
    r = step.roll(str(power[1]["hp_cost"]), "Bloodmagic")
    step.fact(POWER, actor, (), (r,), ("F-ARCH-03", "AMB-46"), power="bloodmagic", amount=r.total)
    take_damage(step, actor, r.total, by=actor, means="Bloodmagic")
    return r.total


EXTRA_DAMAGE = cond.modifier_name("damage", "EXTRA")   # dice added to each hit while held (Mjölnir's +2d8)


def _damage_expression(a: Combatant) -> str:
    text = a.damage
    if a.prof and any(h.name == "RAGING" for h in a.held):
        text = f"{text}+{a.prof}"  # Rage: +PROF damage (F-ARCH-02)
    for h in a.held:
        if h.name == EXTRA_DAMAGE and h.effect:   # a magic item's lasting DAM (F-TAB-28), rolled with each hit
            text = f"{text}+{h.effect['dice']}"
    return text


def rage(step: Step, cid: str) -> None:
    """F-ARCH-02, AMB-46: a Barbarian with the Rage feature rages as she first attacks: +PROF DAM, −PROF AC, to
    the end of the encounter — if she has a Rage left (rage_uses_per_long_rest, less those used since her last
    long rest: `rages_left`, None when the fight does not know and the option's number holds)."""
    c = step.c(cid)
    if "rage" not in c.features or any(h.name == "RAGING" for h in c.held):
        return
    left = c.rages_left if c.rages_left is not None else int(step.options["rage_uses_per_long_rest"])
    if left < 1 or not choosing.rages(step, c, left):
        return
    step.update(cid, held=(*c.held, cond.Held(name="RAGING", source="Rage", ending="encounter")), ac=c.ac - c.prof,
                rages_left=left - 1, **with_marks(c, rages_spent=marks(c).rages_spent + 1))
    step.fact(RAGE, cid, (), (), ("F-ARCH-02",), bonus=c.prof, ac_before=c.ac, ac_after=c.ac - c.prof,
              left=left - 1)


def _damage(step: Step, actor: str, target: str, crit: bool, total: int, cleaves: bool = True) -> None:
    """The blow's DAM (its maximum on a crit), a Bloodshaman's price added, a shield sundered; a kill records
    the ATK's total (simultaneous initiative) and may cleave on; a crit rolls the crit table."""
    a = step.c(actor)
    text = _damage_expression(a) if a.held else a.damage       # (nothing held: the weapon's own dice)
    rolls: tuple[dice.RollResult, ...] = ()
    if crit:   # maximum DAM (AMB-23: with modifiers, per option crit_damage)
        amount = _maximum_damage(step, a, text)
    else:
        # the 2H weapon master may roll her 1s again (a PC: a monster's are her dice alone)
        r = styles.damage_roll(step, a, text) if a.kind == "pc" else step.roll(text, "DAM")
        amount, rolls = max(1, r.total), (r,)
    step.record(DAMAGE_ROLL, actor, (target,), rolls, ("F-CRIT-01", "AMB-23") if crit else (),
                {"round": step.round, "amount": amount, "damage": a.damage, "maximum": crit})
    if a.powers:
        amount += _blood_price(step, actor)
    t = step.c(target)
    if t.shield:          # (only a shield's bearer may sunder it)
        amount = _sunder(step, target, amount)
        t = step.c(target)
    was_alive = t.status == "up" and (not t.held or t.active)     # (`active` asked only of one who holds something)
    overflow = damage_to(step, t, amount, a.weapon, actor)
    t = step.c(target)
    if was_alive and (t.status != "up" or (t.held and not t.active)):     # (she fell: `active`, as above)
        step.killed_by[target] = total
        if cleaves:
            _cleave(step, actor, target, overflow)
    if crit:
        _crit_table(step, actor, target)


def _maximum_damage(step: Step, a: Combatant, text: str) -> int:
    """A crit's DAM: the expression's maximum, or under crit_damage max_dice_only its dice's alone (AMB-23)."""
    if step.options["crit_damage"] == "max_dice_only":
        return dice.parse(a.damage).dice_maximum()   # the dice of the expression, whatever its shape
    return dice.parse(text).bounds()[1]


def _sunder(step: Step, target: str, amount: int) -> int:
    """F-EQ-03, AMB-36: the bearer of a shield, the damage rolled, chooses to sunder it (`choosing.sunders`): she
    takes half the DAM, rounded up (bearer_ceil) or down (bearer_floor, option shield_sunder_damage), and the shield is
    destroyed (its +2 AC is gone)."""
    if not choosing.sunders(step, target, amount):
        return amount
    t = step.c(target)
    halved = choosing.halved(step, amount)
    after = t.ac - choosing.SHIELD_BONUS
    step.update(target, shield=False, ac=after)
    step.fact(SUNDER, target, (), (), ("F-EQ-03", "AMB-36"), taken=halved, amount=amount, ac_before=t.ac,
              ac_after=after)
    return halved


def _cleave(step: Step, actor: str, killed: str, overflow: int) -> None:
    """F-FTR-03, AMB-01: a lethal blow's excess may go to a second foe CLOSE to the killed one, the one she picks
    (`choosing.cleaves`), no chaining; under
    cleave_overflow new_attack the Fighter makes a new ATK on that foe instead (a kill by it carries nothing)."""
    a = step.c(actor)
    if "Cleave" not in a.features:
        return
    new_attack = step.options["cleave_overflow"] == "new_attack"
    if overflow <= 0 and not new_attack:
        return
    victim = step.c(killed)
    others = [o for o in step.working() if o.side != a.side and o.active and o.zone == "CLOSE" and o.id != killed]
    if not others:
        step.fact(CLEAVE, actor, (victim.id,), (), ("F-FTR-03",), overflow=overflow, new_attack=new_attack,
                  nobody_close=True)
        return
    second = choosing.cleaves(step, a, victim, others, overflow, new_attack)   # "you CAN": she is asked
    if second is None:
        return
    if new_attack:
        step.fact(CLEAVE, actor, (victim.id, second.id), (), ("F-FTR-03", "AMB-01"), overflow=0, new_attack=True)
        attack(step, actor, second.id, cleaves=False)
        return
    step.fact(CLEAVE, actor, (victim.id, second.id), (), ("F-FTR-03", "AMB-01"), overflow=overflow,
              new_attack=False)
    take_damage(step, second.id, overflow, by=actor, means="Cleave")


def _crit_table(step: Step, actor: str, target: str) -> None:
    a = step.c(actor)
    table = crit_table(a, step.rules)
    if table is None:
        return
    level = crit_level(a, step.rules)
    by_level = step.rules.tables.get(table).die_table is not None
    rolled = step.rules.tables.roll(table, step.rng, key=level if by_level else None, label="crit die")
    top = max(r.min or 0 for r in rolled.table.rows)
    spent = choosing.luck_on_table(step, actor, rolled.roll, top)    # she may add Luck Dice (F-LUCK-03)
    total = rolled.roll.total if spent is None else spent.total
    row = rolled.row if spent is None else rolled.table.lookup(total)
    step.fact(CRIT, actor, (target,), (rolled.roll,), ("F-CRIT-02",), table=rolled.table.id, name=rolled.table.name,
              row=row.span, total=total, text=row.text, die=rolled.die_reason, level=level)
    apply_all(step, row.effect_list(), actor=actor, target=target)


def _fumble(step: Step, actor: str) -> None:
    a = step.c(actor)
    armor = "none" if a.armor_type == "none" else a.armor_type
    rolled = step.rules.tables.roll("fumble", step.rng, key=armor, label="fumble die")
    step.fact(FUMBLE, actor, (), (rolled.roll,), ("F-FUMB-02",), table=rolled.table.id, name=rolled.table.name,
              row=rolled.row.span,
              total=rolled.roll.total, text=rolled.row.text, die=rolled.die_reason, armor=armor)
    apply_all(step, rolled.row.effect_list(), actor=actor, target=actor)


def nearest_enemy(enc: Encounter, c: Combatant, near: bool = False) -> str | None:
    """The nearest active foe (only CLOSE or NEAR when `near`): by zone, then fewest HP, then id."""
    return enc.nearest_foe(c, near)


def extra_attacks(step: Step) -> None:
    """Crit rows that grant another ATK (once, or until a miss), resolved after the blow; whether such an ATK
    crits again is crit_extra_attack_chains (AMB-23)."""
    if not step.queue:            # (the common blow: no row granted any)
        return
    chains = bool(step.options["crit_extra_attack_chains"])
    guard = 0
    while step.queue and guard < 20:
        guard += 1
        actor, target, spec = step.queue.pop(0)
        if spec.get("only_if") == "target_dies" and step.c(target).active:
            continue
        who = target if spec["target"] == "same" else step.standing().nearest(step.c(actor).side, near=True)
        if who is None or not step.c(who).in_fight or not step.c(actor).active:
            continue
        if spec.get("auto_hit"):   # fumble 12: you hit yourself, no ATK roll
            step.fact(HITS_ITSELF, actor)
            _damage(step, actor, who, False, 0)
            continue
        if spec.get("plain"):
            attack(step, actor, who, plain=True)
            continue
        before = len(step.events)
        attack(step, actor, who, can_crit=chains)
        hit = any(e.kind in (HIT, NOT_DEFENDED) for e in step.events[before:])
        if hit and spec["repeat"] == "until_miss":
            step.queue.append((actor, who, {**spec, "target": "any_near"}))


def _attacks(step: Step, hooks: tuple[registry.AttacksHook, ...], actor: str, target: str) -> int:
    """The ATKs one attack action makes: the most any chapter's rule grants (one: none grants more)."""
    if len(hooks) == 1:          # (one chapter grants more: asked at every attack)
        return hooks[0](step, actor, target)
    return max(hook(step, actor, target) for hook in hooks) if hooks else 1


def more_attacks(step: Step, actor: str, target: str) -> None:
    """Attacks a chapter grants on top of the action's one (M-MOOK-02: a Fighter's one per level against
    creatures under 1 HD); each goes at the same foe while it stands, then at the nearest such foe close by."""
    hooks = step.hooks(registry.ATTACKS_PER_ACTION)
    if not hooks:               # (no chapter's rule acts under these rules: the action's one ATK)
        return
    for _ in range(_attacks(step, hooks, actor, target) - 1):
        a = step.c(actor)
        foes = [target] if step.c(target).in_fight else [
            o.id for o in sorted(step.enc.enemies_of(a), key=lambda o: (zone_index(o), o.hp, o.id))
            if o.zone in ("CLOSE", "NEAR") and _attacks(step, hooks, actor, o.id) > 1]
        if not foes or not a.active:
            return
        attack(step, actor, foes[0])
        extra_attacks(step)
