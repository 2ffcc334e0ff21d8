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

from furnace import dice
from furnace.errors import IllegalActionError
from furnace.play import conditions as cond
from furnace.play import luck, registry
from furnace.play.apply import apply_all, record_luck
from furnace.play.checks import make_dc
from furnace.play.combatant import Combatant
from furnace.play.crit import crit_level, crit_table, fumbles
from furnace.play.death import take_damage
from furnace.play.state import Encounter, Step, zone_index

BLOODMAGIC = "BLOODMAGIC"          # held for this turn's blow: the Bloodshaman's HP become DAM (F-ARCH-03)
ARMOR_HIT = "middle-sea:armor-hit"   # the CRIT_MODELS entry that makes the struck piece's item save (M-ARM-01…03)


def _difficulty(step: Step, a: Combatant, t: Combatant, sneak: bool) -> tuple[int, str]:
    """The target's AC moved by EASY/HARD from conditions and Sneak Attack, stacked per the option."""
    if not (a.held or t.held or sneak):      # nothing moves the AC: the common blow, without the DC's workings
        return t.ac, f"AC {t.ac}"
    easy, hard = cond.attack_difficulty(a.held, t.held, a.ranged)
    if sneak:
        easy.append("Sneak Attack")
    shift = [h for h in t.held if h.name == "MOD:ac:BONUS" and h.value]   # off balance (M-WPN-06) and the like
    ac = t.ac + sum(h.value for h in shift)
    dc = make_dc(ac, easy, hard, step.rules)
    why = dc.explain().replace("DC", "AC", 1).replace("ROOM DC", "AC")
    return dc.value, why + "".join(f" ({h.value:+d} AC: {h.source})" for h in shift)


def _signed(expression: str, bonus: int) -> str:
    return f"{expression}+{bonus}" if bonus >= 0 else f"{expression}-{-bonus}"


def attack(step: Step, actor: str, target: str, *, sneak: bool = False, plain: bool = False,
           can_crit: bool = True, cleaves: bool = True) -> None:
    """An ATK: d20 + bonus vs AC ± EASY/HARD; natural 20 crit, natural 1 fumble; damage; Cleave.

    `plain`: no crit, no fumble (a row's "attack a random ally"); `can_crit` False: a natural 20 hits but does
    not crit (crit_extra_attack_chains); `cleaves` False: a kill carries nothing on (Cleave's own new ATK)."""
    a, t = step.c(actor), step.c(target)
    if not a.active or not t.in_fight:
        return
    if step.rules["player_facing_defense"] and a.kind == "monster" and t.kind == "pc" and not plain:
        _defend(step, actor, target, cleaves)
        return
    dc, why = _difficulty(step, a, t, sneak)
    roll = step.roll(_signed("d20", a.attack_bonus), f"{a.name} ATK {t.name} with {a.weapon} vs {why}")
    roll = _chosen_one(step, actor, roll, dc, plain)
    _spend_next_attack(step, actor, target)
    natural = roll.natural or 0
    crit_on = a.crit_range if not a.ranged else 20
    if natural == 1 and not plain:
        record_luck(step, actor, False, "ATK")   # a fumble is a failed ATK (F-LUCK-01)
        _natural_1(step, actor, target, roll)
        return
    natural_hit = not plain and natural >= crit_on   # a natural 20 always hits (F-CRIT-01)
    total = roll.total if natural_hit or roll.total >= dc else _luck(step, actor, roll, dc)
    hit = natural_hit or total >= dc
    record_luck(step, actor, hit, "ATK")
    # a crit: the natural roll, or any Sneak Attack that hits (F-ROG-04, AMB-44), with a crit table (monsters only
    # with the option, F-CRIT-03)
    crit = (can_crit and (natural_hit or (sneak and hit and "Sneak Attack" in a.features))
            and crit_table(a, step.rules) is not None)
    if not hit:
        step.log("miss", a.name, f"misses {t.name} ({total} vs {dc})", (roll,), total=total)
        return
    step.log("hit", a.name, f"{'CRITS' if crit else 'hits'} {t.name} ({total} vs {dc}"
             f"{', natural 20' if natural_hit and not crit else ''})", (roll,),
             total=total, crit=crit)
    crit_model = registry.CRIT_MODELS.find(str(step.rules["crit_model"])) if natural_hit and can_crit else None
    if crit_model is not None:
        was_alive = step.c(target).active
        crit_model(step, actor, target)
        if was_alive and not step.c(target).active:
            step.killed_by[target] = total
        return
    _damage(step, actor, target, crit, total, cleaves)
    if natural_hit and crit:
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
    a = step.c(actor)
    step.log("fumble", a.name, f"misses {step.c(target).name}: natural 1", (roll,), total=roll.total)
    model = registry.FUMBLE_MODELS.find(str(step.rules["fumble_model"]))
    if model is not None:
        model(step, actor)
    elif fumbles(a, step.rules):
        _fumble(step, actor)


def _armor_hit(step: Step, actor: str, target: str) -> None:
    """CF-33 (option furnace_crits_damage_armor): a Furnace natural 20 on a target with armor, a shield or a
    helmet also makes the Middle Sea armor save (M-ARM-01…03, D-1), the chapter's ARMOR_HIT entry."""
    t = step.c(target)
    if not step.rules["furnace_crits_damage_armor"] or not t.in_fight:
        return
    if t.armor_type == "none" and not t.shield and not t.helmet:
        return
    hook = registry.CRIT_MODELS.find(ARMOR_HIT)
    if hook is None:
        step.log("referee", t.name, "referee: the natural 20 damages armor (furnace_crits_damage_armor): the "
                 "struck piece's item save (M-ARM-01) is the referee's; no chapter makes it",
                 prompt="armor save after a natural 20")
        return
    hook(step, actor, target)


def _defend(step: Step, actor: str, target: str, cleaves: bool) -> None:
    """AMB-07 (option player_facing_defense): the PC rolls d20 + (AC − 10) against the ROOM DC, made HARD by what
    would make the blow EASY and EASY by what would make it HARD; she is hit when she fails. Her natural 1 is the
    monster's natural 20 when monsters crit (F-CRIT-03); her natural 20 always avoids the blow."""
    a, t = step.c(actor), step.c(target)
    easy, hard = cond.attack_difficulty(a.held, t.held, a.ranged)
    dc = make_dc(step.enc.room_dc, hard, easy, step.rules)
    vs = f"ROOM DC {dc.value}" if not dc.steps and not dc.notes else dc.explain()
    roll = step.roll(_signed("d20", t.ac - 10), f"{t.name} defends against {a.name}'s {a.weapon} (AC {t.ac} − 10) "
                     f"vs {vs}")
    _spend_next_attack(step, actor, target)
    natural = roll.natural or 0
    held = natural == 20 or (natural != 1 and roll.total >= dc.value)
    record_luck(step, target, held, "SAVE")
    if held:
        step.log("miss", a.name, f"misses {t.name}: she defends ({roll.total} vs {dc.value})", (roll,),
                 total=roll.total)
        return
    crit = natural == 1 and crit_table(a, step.rules) is not None
    step.log("hit", a.name, f"{'CRITS' if crit else 'hits'} {t.name}: she fails to defend ({roll.total} vs "
             f"{dc.value})", (roll,), total=roll.total, crit=crit)
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


def _chosen_one(step: Step, actor: str, roll: dice.RollResult, dc: int, plain: bool) -> dice.RollResult:
    """F-ARCH-03 Chosen one (data.reroll atk, once a fight): the first ATK that would miss — a natural 1 too —
    is rolled again and the new roll stands."""
    power = _power(step, actor, "reroll")
    natural = roll.natural or 0
    if power is None or plain or natural >= step.c(actor).crit_range or (natural != 1 and roll.total >= dc):
        return roll
    _spend_power(step, actor, power[0])
    again = step.roll(roll.expression, f"{step.c(actor).name} rerolls the ATK (Chosen one)")
    step.log("power", step.c(actor).name, f"Chosen one: the ATK of {roll.total} is rolled again: {again.total} "
             "(F-ARCH-03)", (roll, again))
    return again


def rally(step: Step, cid: str) -> None:
    """F-ARCH-03 Rally (data.ally_atk EASY, once a fight): as she first attacks, her first ally standing gets an
    EASY next ATK."""
    power = _power(step, cid, "ally_atk")
    if power is None:
        return
    c = step.c(cid)
    ally = next(iter(step.enc.allies_of(c)), None)
    if ally is None:
        return
    _spend_power(step, cid, power[0])
    mode = str(power[1]["ally_atk"])
    step.update(ally.id, held=(*ally.held, cond.Held(name=cond.modifier_name("next_atk", mode),
                                                     source=f"{c.name}'s Rally", ending="encounter")))
    step.log("power", c.name, f"rallies {ally.name}: her next ATK is {mode} (F-ARCH-03)")


def bloodmagic(step: Step, cid: str) -> None:
    """F-ARCH-03 Bloodmagic, the player's choice on an attack: her next blow this turn converts HP to DAM."""
    c = step.c(cid)
    if _power(step, cid, "hp_cost") is None:
        raise IllegalActionError(f"{c.name} has no Bloodmagic (a Bloodshaman feature, F-ARCH-03)")
    step.update(cid, held=(*c.held, cond.Held(name=BLOODMAGIC, source="Bloodmagic", until_round=step.enc.round + 1)))


def _blood_price(step: Step, actor: str) -> int:
    """AMB-46: the Bloodshaman loses data.hp_cost (1d6) HP and adds the number rolled to this DAM."""
    a = step.c(actor)
    power = _power(step, actor, "hp_cost")
    if power is None or not any(h.name == BLOODMAGIC for h in a.held):
        return 0
    step.update(actor, held=tuple(h for h in a.held if h.name != BLOODMAGIC))
    _spend_power(step, actor, power[0])
    r = step.roll(str(power[1]["hp_cost"]), f"{a.name}'s Bloodmagic: HP into DAM")
    step.log("power", a.name, f"Bloodmagic: loses {r.total} HP and adds {r.total} to the DAM (F-ARCH-03, AMB-46)",
             (r,))
    take_damage(step, actor, r.total, "her own Bloodmagic")
    return r.total


def _luck(step: Step, actor: str, roll: dice.RollResult, dc: int) -> int:
    """F-LUCK-03: a player spends a Luck Die when one could turn this miss into a hit (AMB-02: after seeing the
    roll, added to the total). Under luck_spend_timing before_roll the spend is declared before the roll, which
    the engine does not guess for her: no die is spent after it. Returns the total after any spend."""
    a = step.c(actor)
    if a.kind != "pc" or step.luck(a).dice < 1:
        return roll.total
    die_max = dice.parse(str(step.rules["luck_die_size"])).bounds()[1]
    if dc - roll.total > die_max or step.rules["luck_die_effect"] != "add":
        return roll.total
    if step.rules["luck_spend_timing"] != "after_roll":
        return roll.total
    state, spent = luck.spend(step.luck(a), step.rng, roll.total, step.rules, natural=roll.natural,
                              label=f"{a.name} spends a Luck Die")
    step.hold_luck(a, state)
    step.log("luck", a.name, f"spends a Luck Die: {roll.total} → {spent.total} ({state.dice} left)",
             spent.rolls)
    return spent.total


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
    left = c.rages_left if c.rages_left is not None else int(step.rules["rage_uses_per_long_rest"])
    if left < 1:
        return
    step.update(cid, held=(*c.held, cond.Held(name="RAGING", source="Rage", ending="encounter")), ac=c.ac - c.prof,
                rages_left=left - 1, rages_spent=c.rages_spent + 1)
    step.log("rage", c.name, f"rages: +{c.prof} DAM, AC {c.ac} → {c.ac - c.prof}")


def _damage(step: Step, actor: str, target: str, crit: bool, total: int, cleaves: bool = True) -> None:
    a = step.c(actor)
    expr = dice.parse(_damage_expression(a))
    if crit:   # maximum DAM (AMB-23: with modifiers, per option crit_damage)
        amount = expr.bounds()[1]
        if step.rules["crit_damage"] == "max_dice_only":
            amount = dice.parse(a.damage).dice_maximum()   # the dice of the expression, whatever its shape
        rolls: tuple[dice.RollResult, ...] = ()
        text = f"maximum {a.damage} = {amount}"
    else:
        r = expr.roll(step.rng, label=f"{a.name} damage {a.damage}")
        amount, rolls, text = max(1, r.total), (r,), f"{r.total}"
    step.log("damage_roll", a.name, f"deals {text}", rolls)
    amount = _sunder(step, target, amount + _blood_price(step, actor))
    was_alive = step.c(target).active
    overflow = take_damage(step, target, amount, f"{a.name}'s {a.weapon}")
    if was_alive and not step.c(target).active:
        step.killed_by[target] = total
        if cleaves:
            _cleave(step, actor, target, overflow)
    if crit:
        _crit_table(step, actor, target)


def _sunder(step: Step, target: str, amount: int) -> int:
    """F-EQ-03, AMB-36: a PC whose shield can take the blow sunders it when the blow would drop her: she takes
    half the DAM, rounded up (bearer_ceil) or down (bearer_floor, option shield_sunder_damage), and the shield
    is destroyed (its +2 AC is gone)."""
    t = step.c(target)
    if not (t.kind == "pc" and t.shield and t.hp - amount <= 0 and t.hp > 0):
        return amount
    halved = -(-amount // 2) if step.rules["shield_sunder_damage"] == "bearer_ceil" else amount // 2
    step.update(target, shield=False, ac=t.ac - 2)
    step.log("sunder", t.name, f"sunders her shield: takes {halved} of {amount}; the shield is destroyed, "
             f"AC {t.ac} → {t.ac - 2}")
    return halved


def _cleave(step: Step, actor: str, killed: str, overflow: int) -> None:
    """F-FTR-03, AMB-01: a lethal blow's excess goes to a second foe CLOSE to the killed one, no chaining; under
    cleave_overflow new_attack the Fighter makes a new ATK on that foe instead (a kill by it carries nothing)."""
    a = step.c(actor)
    new_attack = step.rules["cleave_overflow"] == "new_attack"
    if "Cleave" not in a.features or (overflow <= 0 and not new_attack):
        return
    victim = step.c(killed)
    others = [o for o in step.enc.enemies_of(a) if o.zone == "CLOSE" and o.id != killed]
    second = others[0] if others else None
    if second is None:
        what = "a new ATK" if new_attack else f"{overflow}"
        step.log("cleave", a.name, f"would cleave {what} past {victim.name}, but no foe is CLOSE")
        return
    if new_attack:
        step.log("cleave", a.name, f"cleaves into {second.name}: a new ATK (cleave_overflow)", overflow=0)
        attack(step, actor, second.id, cleaves=False)
        return
    step.log("cleave", a.name, f"cleaves: {overflow} remaining damage to {second.name}", overflow=overflow)
    take_damage(step, second.id, overflow, f"{a.name}'s Cleave")


def _crit_table(step: Step, actor: str, target: str) -> None:
    a = step.c(actor)
    table = crit_table(a, step.rules)
    if table is None:
        return
    level = crit_level(a, step.rules)
    by_level = step.rules.tables.get(table).die_table is not None
    rolled = step.rules.tables.roll(table, step.rng, key=level if by_level else None,
                                    label=f"crit die for a level-{level} {a.char_class or a.kind}")
    step.log("crit", a.name, f"{rolled.table.name} ({rolled.die_reason}): {rolled.roll.total} → {rolled.row.text}",
             (rolled.roll,), table=rolled.table.id, row=rolled.row.span)
    apply_all(step, rolled.row.effect_list(), actor=actor, target=target)


def _fumble(step: Step, actor: str) -> None:
    a = step.c(actor)
    armor = "none" if a.armor_type == "none" else a.armor_type
    rolled = step.rules.tables.roll("fumble", step.rng, key=armor, label=f"fumble die for {armor} armor")
    step.log("fumble", a.name, f"fumble ({rolled.die_reason}): {rolled.roll.total} → {rolled.row.text}",
             (rolled.roll,), table=rolled.table.id, row=rolled.row.span)
    apply_all(step, rolled.row.effect_list(), actor=actor, target=actor)


def nearest_enemy(enc: Encounter, c: Combatant, near: bool = False) -> str | None:
    """The nearest active foe (only CLOSE or NEAR when `near`): by zone, then fewest HP, then id."""
    return enc.nearest_foe(c, near)


def extra_attacks(step: Step) -> None:
    """Crit rows that grant another ATK (once, or until a miss), resolved after the blow; whether such an ATK
    crits again is crit_extra_attack_chains (AMB-23)."""
    chains = bool(step.rules["crit_extra_attack_chains"])
    guard = 0
    while step.queue and guard < 20:
        guard += 1
        actor, target, spec = step.queue.pop(0)
        if spec.get("only_if") == "target_dies" and step.c(target).active:
            continue
        who = target if spec["target"] == "same" else nearest_enemy(step.enc, step.c(actor), near=True)
        if who is None or not step.c(who).in_fight or not step.c(actor).active:
            continue
        if spec.get("auto_hit"):   # fumble 12: you hit yourself, no ATK roll
            step.log("hit", step.c(actor).name, "hits itself (no ATK roll)")
            _damage(step, actor, who, False, 0)
            continue
        if spec.get("plain"):
            attack(step, actor, who, plain=True)
            continue
        before = len(step.events)
        attack(step, actor, who, can_crit=chains)
        hit = any(e.kind == "hit" for e in step.events[before:])
        if hit and spec["repeat"] == "until_miss":
            step.queue.append((actor, who, {**spec, "target": "any_near"}))


def _attacks(step: Step, actor: str, target: str) -> int:
    return max((hook(step, actor, target) for _, hook in registry.ATTACKS_PER_ACTION.items()), default=1)


def more_attacks(step: Step, actor: str, target: str) -> None:
    """Attacks a chapter grants on top of the action's one (M-MOOK-02: a Fighter's one per level against
    creatures under 1 HD); each goes at the same foe while it stands, then at the nearest such foe close by."""
    for _ in range(_attacks(step, actor, target) - 1):
        a = step.c(actor)
        foes = [target] if step.c(target).in_fight else [
            o.id for o in sorted(step.enc.enemies_of(a), key=lambda o: (zone_index(o), o.hp, o.id))
            if o.zone in ("CLOSE", "NEAR") and _attacks(step, actor, o.id) > 1]
        if not foes or not a.active:
            return
        attack(step, actor, foes[0])
        extra_attacks(step)
