"""The encounter engine: initiative, turns, one action each, attacks with crits and fumbles, the log.

Every public function takes an immutable `Encounter` and a dice source and returns the next
`Encounter` with the events that explain it, so a fight replays exactly from its seed and actions.
F-INIT-01/02, F-SURP-01, F-CMBT-01…03, F-CRIT-01/02, F-FUMB-01/02, F-FTR-03 (Cleave), F-ROG-04
(Sneak Attack), F-ARCH-02 (Rage, crit range), F-EQ-03 (shield sunder), F-DEATH-01.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from furnace import dice
from furnace.dice import DiceSource
from furnace.errors import IllegalActionError
from furnace.events import Event
from furnace.play import conditions as cond
from furnace.play import luck, registry
from furnace.play.apply import apply_all, apply_periodic, record_luck
from furnace.play.checks import make_dc
from furnace.play.combatant import ZONES, Combatant
from furnace.play.crit import crit_level, crit_table, fumbles
from furnace.play.death import dying_turn, kill, take_damage
from furnace.play.injuries import stabilise
from furnace.play.reaction import enemy_morale
from furnace.play.state import Encounter, Step, zone_index
from furnace.rules.ruleset import Ruleset

# the engine's own actions; a chapter registers more in registry.ACTIONS (magic: "cast")
PLAYER_TAG = "player:"   # a PC's player, in its features: whose Luck Dice and streak it holds (F-LUCK-01)
ActionKind = Literal["attack", "move_attack", "dodge", "disengage", "go_ranged", "stabilise", "wait", "free"]


@dataclass(frozen=True)
class Action:
    """One action a turn (F-CMBT-01): what, and at whom."""

    kind: ActionKind | str
    target: str | None = None
    note: str = ""
    sneak: bool = False
    detail: str | None = None   # what a chapter's action needs: the spell's name for "cast"


# -- attacks -------------------------------------------------------------------------------------------
def _difficulty(step: Step, a: Combatant, t: Combatant, sneak: bool) -> tuple[int, str]:
    """The target's AC moved by EASY/HARD from conditions and Sneak Attack, stacked per the option."""
    easy, hard = cond.attack_difficulty(a.held, t.held, a.ranged)
    if sneak:
        easy.append("Sneak Attack")
    dc = make_dc(t.ac, easy, hard, step.rules)
    return dc.value, dc.explain().replace("DC", "AC", 1).replace("ROOM DC", "AC")


def attack(step: Step, actor: str, target: str, *, sneak: bool = False, plain: bool = False) -> None:
    """An ATK: d20 + bonus vs AC ± EASY/HARD; natural 20 crit, natural 1 fumble; damage; Cleave."""
    a, t = step.c(actor), step.c(target)
    if not a.active or not t.in_fight:
        return
    dc, why = _difficulty(step, a, t, sneak)
    roll = step.roll(f"d20+{a.attack_bonus}" if a.attack_bonus >= 0 else f"d20-{-a.attack_bonus}",
                     f"{a.name} ATK {t.name} with {a.weapon} vs {why}")
    step.update(actor, held=cond.spend_next_attack(a.held, "next_atk"))
    step.update(target, held=cond.spend_next_attack(step.c(target).held, "next_atk_against"))
    natural = roll.natural or 0
    crit_on = a.crit_range if not a.ranged else 20
    can_crit = crit_table(a, step.rules) is not None   # monsters only with the option (F-CRIT-03)
    if natural == 1 and not plain:
        step.log("fumble", a.name, f"misses {t.name}: natural 1", (roll,), total=roll.total)
        model = registry.FUMBLE_MODELS.find(str(step.rules["fumble_model"]))
        if model is not None:
            model(step, actor)
        elif fumbles(a, step.rules):
            _fumble(step, actor)
        return
    natural_hit = not plain and natural >= crit_on   # a natural 20 always hits (F-CRIT-01)
    total = roll.total if natural_hit or roll.total >= dc else _luck(step, actor, roll, dc)
    hit = natural_hit or total >= dc
    _record_luck(step, actor, hit)
    # a crit: the natural roll, or any Sneak Attack that hits (F-ROG-04, AMB-44)
    crit = can_crit and (natural_hit or (sneak and hit and "Sneak Attack" in a.features))
    if not hit:
        step.log("miss", a.name, f"misses {t.name} ({total} vs {dc})", (roll,), total=total)
        return
    step.log("hit", a.name, f"{'CRITS' if crit else 'hits'} {t.name} ({total} vs {dc}"
             f"{', natural 20' if natural_hit and not crit else ''})", (roll,),
             total=total, crit=crit)
    crit_model = registry.CRIT_MODELS.find(str(step.rules["crit_model"])) if natural_hit else None
    if crit_model is not None:
        was_alive = step.c(target).active
        crit_model(step, actor, target)
        if was_alive and not step.c(target).active:
            step.killed_by[target] = total
        return
    _damage(step, actor, target, crit, total)


def _luck(step: Step, actor: str, roll: dice.RollResult, dc: int) -> int:
    """F-LUCK-03: a player spends a Luck Die when one could turn this miss into a hit (AMB-02: after
    seeing the roll, added to the total). Returns the total after any spend."""
    a = step.c(actor)
    die_max = dice.parse(str(step.rules["luck_die_size"])).bounds()[1]
    if a.kind != "pc" or a.luck_dice < 1 or dc - roll.total > die_max or step.rules["luck_die_effect"] != "add":
        return roll.total
    state, spent = luck.spend(luck.LuckState(a.luck_dice, a.luck_streak), step.rng, roll.total, step.rules,
                              natural=roll.natural, label=f"{a.name} spends a Luck Die")
    step.update(actor, luck_dice=state.dice)
    _share_luck(step, actor)
    step.log("luck", a.name, f"spends a Luck Die: {roll.total} → {spent.total} ({state.dice} left)",
             spent.rolls)
    return spent.total


def _record_luck(step: Step, actor: str, success: bool) -> None:
    record_luck(step, actor, success, "ATK")
    _share_luck(step, actor)


def _luck_owner(c: Combatant, rules: Ruleset) -> str:
    player = next((f.removeprefix(PLAYER_TAG) for f in c.features if f.startswith(PLAYER_TAG)), None)
    return f"{PLAYER_TAG}{luck.owner(player, c.id, rules)}" if player else c.id


def _share_luck(step: Step, cid: str) -> None:
    """F-LUCK-01, AMB-02 (luck_owner): the PCs of one player hold one pool of Luck Dice and one streak."""
    c, owner = step.c(cid), _luck_owner(step.c(cid), step.rules)
    for o in step.enc.combatants:
        if o.kind == "pc" and o.id != cid and _luck_owner(o, step.rules) == owner:
            step.update(o.id, luck_dice=c.luck_dice, luck_streak=c.luck_streak)


def _damage_expression(a: Combatant) -> str:
    if any(h.name == "RAGING" for h in a.held) and a.prof:
        return f"{a.damage}+{a.prof}"  # Rage: +PROF damage (F-ARCH-02)
    return a.damage


def _rage(step: Step, cid: str) -> None:
    """F-ARCH-02, AMB-46: a Barbarian with the Rage feature rages as she first attacks: +PROF DAM,
    −PROF AC, to the end of the encounter (uses per long rest are the character's, not the fight's)."""
    c = step.c(cid)
    if "rage" not in c.features or any(h.name == "RAGING" for h in c.held):
        return
    step.update(cid, held=(*c.held, cond.Held(name="RAGING", source="Rage", ending="encounter")), ac=c.ac - c.prof)
    step.log("rage", c.name, f"rages: +{c.prof} DAM, AC {c.ac} → {c.ac - c.prof}")


def _damage(step: Step, actor: str, target: str, crit: bool, total: int) -> None:
    a = step.c(actor)
    expr = dice.parse(_damage_expression(a))
    if crit:   # maximum DAM (AMB-23: with modifiers, per option crit_damage)
        amount = expr.bounds()[1]
        if step.rules["crit_damage"] == "max_dice_only":
            amount = dice.parse(a.damage.split("+")[0].split("-")[0]).bounds()[1]
        rolls: tuple[dice.RollResult, ...] = ()
        text = f"maximum {a.damage} = {amount}"
    else:
        r = expr.roll(step.rng, label=f"{a.name} damage {a.damage}")
        amount, rolls, text = max(1, r.total), (r,), f"{r.total}"
    step.log("damage_roll", a.name, f"deals {text}", rolls)
    amount = _sunder(step, target, amount)
    was_alive = step.c(target).active
    overflow = take_damage(step, target, amount, f"{a.name}'s {a.weapon}")
    if was_alive and not step.c(target).active:
        step.killed_by[target] = total
        _cleave(step, actor, target, overflow)
    if crit:
        _crit_table(step, actor, target)


def _sunder(step: Step, target: str, amount: int) -> int:
    """F-EQ-03, AMB-36: a PC whose shield can take the blow sunders it when the blow would drop her:
    she takes ceil(DAM/2) and the shield is destroyed (its +2 AC is gone)."""
    t = step.c(target)
    if not (t.kind == "pc" and t.shield and t.hp - amount <= 0 and t.hp > 0):
        return amount
    halved = -(-amount // 2)
    step.update(target, shield=False, ac=t.ac - 2)
    step.log("sunder", t.name, f"sunders her shield: takes {halved} of {amount}; the shield is destroyed, "
             f"AC {t.ac} → {t.ac - 2}")
    return halved


def _cleave(step: Step, actor: str, killed: str, overflow: int) -> None:
    """F-FTR-03, AMB-01: a lethal blow's excess goes to a second foe CLOSE to the killed one, no chaining."""
    a = step.c(actor)
    if "Cleave" not in a.features or overflow <= 0:
        return
    victim = step.c(killed)
    others = [o for o in step.enc.enemies_of(a) if o.zone == "CLOSE" and o.id != killed]
    second = others[0] if others else None
    if second is None:
        step.log("cleave", a.name, f"would cleave {overflow} past {victim.name}, but no foe is CLOSE")
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


def _extra_attacks(step: Step) -> None:
    """Crit rows that grant another ATK (once, or until a miss), resolved after the blow."""
    guard = 0
    while step.queue and guard < 20:
        guard += 1
        actor, target, spec = step.queue.pop(0)
        if spec.get("only_if") == "target_dies" and step.c(target).active:
            continue
        who = target if spec["target"] == "same" else _nearest_enemy(step.enc, step.c(actor), near=True)
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
        attack(step, actor, who)
        hit = any(e.kind == "hit" for e in step.events[before:])
        if hit and spec["repeat"] == "until_miss":
            step.queue.append((actor, who, {**spec, "target": "any_near"}))


def _attacks(step: Step, actor: str, target: str) -> int:
    return max((hook(step, actor, target) for _, hook in registry.ATTACKS_PER_ACTION.items()), default=1)


def _more_attacks(step: Step, actor: str, target: str) -> None:
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
        _extra_attacks(step)


# -- turns and rounds -----------------------------------------------------------------------------------
def _nearest_enemy(enc: Encounter, c: Combatant, near: bool = False) -> str | None:
    foes = [o for o in enc.enemies_of(c) if not near or o.zone in ("CLOSE", "NEAR")]
    if not foes:
        return None
    return min(foes, key=lambda o: (zone_index(o), o.hp, o.id)).id


Tactic = Callable[[Encounter, Combatant], Action]   # who acts how, when no one chooses for them


def tactic_attack_nearest(enc: Encounter, c: Combatant) -> Action:
    """The simple tactic: attack the nearest enemy, closing in first if need be."""
    target = _nearest_enemy(enc, c)
    if target is None:
        return Action("wait")
    for kind, rule in registry.ACTIONS.items():   # a chapter's action first: a caster casts
        detail = rule.tactic(enc, c, target)
        if detail is not None:
            return Action(kind, target, detail=detail)
    # F-ROG-04: a foe caught by surprise is unaware in the first round: a Rogue's blow is a Sneak Attack
    sneak = "Sneak Attack" in c.features and enc.round == 1 and enc.get(target).side in enc.surprised
    if c.ranged or c.zone == "CLOSE":
        return Action("attack", target, sneak=sneak)
    return Action("move_attack", target, sneak=sneak)


def start_turn(step: Step, cid: str) -> bool:
    """Conditions expire at the start of their holder's turn; the dying roll their d20. True: may act."""
    c = step.c(cid)
    kept, ended = cond.expire_at_turn_start(c.held, step.enc.round)
    if ended:
        c = step.update(cid, held=kept)
        step.log("expire", c.name, "no longer " + ", ".join(h.name for h in ended))
    prone = [h for h in kept if h.name == "PRONE" and h.ending == "stands"]
    if prone and c.active:   # AMB-20: standing up takes the turn's movement
        c = step.update(cid, held=tuple(h for h in kept if h not in prone),
                        features=(*c.features, "_stood_up"))
        step.log("stand", c.name, "stands up (its movement this turn)")
    if c.doomed_round is not None and c.doomed_round <= step.enc.round and c.in_fight:
        kill(step, c, "the wound's timer ran out")
        return False
    if c.status == "dying":
        dying_turn(step, cid)
        return step.c(cid).active
    apply_periodic(step, cid)
    c = step.c(cid)
    return c.active and cond.can_act(c.held)


def act(step: Step, cid: str, action: Action) -> None:
    """Carry out one action (the turn's one action, F-CMBT-01)."""
    try:
        _act(step, cid, action)
    finally:
        c = step.c(cid)
        if "_stood_up" in c.features:
            step.update(cid, features=tuple(f for f in c.features if f != "_stood_up"))


def _act(step: Step, cid: str, action: Action) -> None:
    c = step.c(cid)
    if not c.active:
        raise IllegalActionError(f"{c.name} is {c.status} and cannot act")
    if action.kind in ("attack", "move_attack"):
        if action.target is None:
            raise IllegalActionError("an attack needs a target")
        t = step.c(action.target)
        if t.side == c.side and action.kind == "attack" and not action.note:
            raise IllegalActionError(f"{t.name} is on {c.name}'s side")
        if not cond.can_attack(c.held):
            step.log("wait", c.name, "cannot attack this turn")
            return
        if action.kind == "move_attack" and c.zone != "CLOSE":
            if not cond.can_move(c.held) or "_stood_up" in c.features:
                step.log("wait", c.name, "cannot move this turn")
                return
            c = step.update(cid, zone="CLOSE")
            if t.zone != "CLOSE" and not t.ranged:
                step.update(t.id, zone="CLOSE")
            step.log("move", c.name, f"goes NEAR {t.name} and attacks")
        _rage(step, cid)
        attack(step, cid, action.target, sneak=action.sneak)
        _extra_attacks(step)
        _more_attacks(step, cid, action.target)
    elif action.kind in registry.ACTIONS:
        if action.target is None:
            raise IllegalActionError(f"{action.kind} needs a target")
        step.c(action.target)
        registry.ACTIONS.get(action.kind).run(step, cid, action.target, action.detail)
    elif action.kind == "dodge":
        step.update(cid, held=(*c.held, cond.Held(name=cond.modifier_name("atk_against", "HARD"), source="DODGE",
                                                  until_round=step.enc.round + 1)))
        step.log("dodge", c.name, "dodges: ATK against it are HARD until its next turn (F-CMBT-02)")
    elif action.kind == "disengage":
        step.update(cid, zone="NEAR")
        step.log("disengage", c.name, "disengages and goes NEAR (F-CMBT-03)")
    elif action.kind == "go_ranged":
        step.update(cid, zone="RANGED")
        step.log("move", c.name, "goes RANGED")
    elif action.kind == "stabilise":
        if action.target is None:
            raise IllegalActionError("stabilise needs a target")
        stabilise(step, cid, action.target)
    elif action.kind == "free":
        step.log("referee", c.name, f"referee: {action.note or 'a free-form action'}", prompt=action.note)
    else:
        step.log("wait", c.name, "waits")


def roll_initiative(step: Step) -> None:
    """F-INIT-01: each side rolls d6, the higher acts first, a tie acts together; F-INIT-02 phases."""
    if step.enc.initiative == "simultaneous":
        step.enc = step.enc.model_copy(update={"phases": (("ranged",), ("melee",))})
        step.log("initiative", "all", "simultaneous: ranged and magic first, then melee (F-INIT-02)")
        return
    rolls = {side: step.roll("d6", f"initiative for {side}") for side in step.enc.sides}
    order = sorted(rolls, key=lambda s: -rolls[s].total)
    phases: list[tuple[str, ...]] = []
    for side in order:
        if phases and rolls[phases[-1][0]].total == rolls[side].total:
            phases[-1] = (*phases[-1], side)
        else:
            phases.append((side,))
    step.enc = step.enc.model_copy(update={"phases": tuple(phases)})
    text = "; ".join(" + ".join(p) + (" (together)" if len(p) > 1 else "") for p in phases)
    step.log("initiative", "all", f"order: {text}", tuple(rolls.values()))


def _actors(enc: Encounter, phase: tuple[str, ...], casting: frozenset[str] = frozenset()) -> list[str]:
    """Who acts in a phase; in simultaneous initiative spells go with missiles (F-INIT-02)."""
    if phase == ("ranged",):
        return [c.id for c in enc.combatants if (c.ranged or c.id in casting) and c.in_fight]
    if phase == ("melee",):
        return [c.id for c in enc.combatants if not c.ranged and c.id not in casting and c.in_fight]
    return [c.id for c in enc.combatants if c.side in phase and c.in_fight]


def _casters(enc: Encounter, choose: Tactic) -> frozenset[str]:
    """F-INIT-02: who declares a spell this round; they act in the first phase, with ranged attacks."""
    if enc.initiative != "simultaneous":
        return frozenset()
    return frozenset(c.id for c in enc.combatants if c.active and choose(enc, c).kind == "cast")


def _finish(step: Step) -> None:
    standing = {c.side for c in step.enc.combatants if c.active}
    if len(standing) <= 1:
        winner = next(iter(standing), None)
        step.enc = step.enc.model_copy(update={"over": True, "winner": winner})
        step.log("end", "all", f"the fight ends: {winner or 'no one'} stands")


def run_round(enc: Encounter, rng: DiceSource, rules: Ruleset,
              choose: Tactic = tactic_attack_nearest) -> tuple[Encounter, list[Event]]:
    """One round: initiative (first round, or each round per option), then each phase's actors act."""
    if enc.over:
        raise IllegalActionError("the fight is over")
    step = Step(enc.model_copy(update={"round": enc.round + 1}), rng, rules)
    step.log("round", "all", f"round {step.enc.round}")
    if step.enc.round == 1 or (rules["reroll_initiative_each_turn"] and enc.initiative == "group"):
        roll_initiative(step)
    casting = _casters(step.enc, choose)
    for phase in step.enc.phases:
        together = len(phase) > 1 or phase in (("ranged",), ("melee",))
        for cid in _actors(step.enc, phase, casting):
            if step.enc.round == 1 and step.c(cid).side in step.enc.surprised:
                continue
            # F-INIT-02: in a simultaneous phase the slain still strike (_act_even_if_fallen weighs the blow)
            slain_this_phase = together and step.c(cid).status == "dead" and cid in step.killed_by
            if not slain_this_phase and not step.c(cid).in_fight:
                continue
            if not start_turn(step, cid) and not (together and cid in step.killed_by):
                continue
            c = step.c(cid)
            action = choose(step.enc, c)
            if c.active or cid in step.killed_by:
                _act_even_if_fallen(step, cid, action)
            if step.enc.over:
                break
        _finish(step)
        if step.enc.over:
            break
        step.killed_by.clear()
    if not step.enc.over:
        _morale(step)
        _finish(step)
    return step.enc, step.events


def _morale(step: Step) -> None:
    """F-OPT-04 (optional): a monster side that has lost half its number rolls 2d6 against its morale
    (default half the ROOM DC); rolling over it, the survivors surrender or flee and leave the fight."""
    if not step.rules["enemy_morale"]:
        return
    for side in step.enc.sides:
        members = [c for c in step.enc.combatants if c.side == side]
        if side in step.enc.morale_tested or any(c.kind == "pc" for c in members):
            continue
        standing = [c for c in members if c.active]
        if not standing or len(standing) * 2 > len(members):
            continue
        value = next((c.morale for c in members if c.morale is not None), None)
        result = enemy_morale(step.rng, step.enc.room_dc, step.rules, morale=value, label=f"{side} morale")
        step.enc = step.enc.model_copy(update={"morale_tested": (*step.enc.morale_tested, side)})
        step.log("morale", side, result.explain(), (result.roll,), breaks=result.breaks)
        if result.breaks:
            for c in standing:
                step.update(c.id, status="fled")


def _act_even_if_fallen(step: Step, cid: str, action: Action) -> None:
    c = step.c(cid)
    if c.active:
        act(step, cid, action)
        return
    # simultaneous: the fallen creature's declared blow still lands unless it rolls lower than its killer
    killer_total = step.killed_by.get(cid)
    if killer_total is None or action.kind not in ("attack", "move_attack") or action.target is None:
        return
    saved = step.enc
    step.put(c.model_copy(update={"status": "up"}))
    before = len(step.events)
    attack(step, cid, action.target)
    totals = [e.data.get("total") for e in step.events[before:] if e.kind in ("hit", "miss", "fumble")]
    step.put(step.c(cid).model_copy(update={"status": c.status}))
    if step.enc.initiative == "simultaneous" and totals and (totals[0] or 0) < killer_total:
        step.enc = saved   # the blow is lost: nothing it did stands
        del step.events[before:]
        step.log("lost", c.name, f"falls before striking: its ATK {totals[0]} is lower than its killer's "
                 f"{killer_total} (F-INIT-02)")


def take_turn(enc: Encounter, cid: str, action: Action, rng: DiceSource, rules: Ruleset,
              ) -> tuple[Encounter, list[Event]]:
    """One combatant's action outside the automatic round loop (an interactive table)."""
    step = Step(enc, rng, rules)
    act(step, cid, action)
    _finish(step)
    return step.enc, step.events


def run_fight(enc: Encounter, rng: DiceSource, rules: Ruleset, max_rounds: int = 20,
              ) -> tuple[Encounter, list[Event]]:
    events: list[Event] = []
    while not enc.over and enc.round < max_rounds:
        enc, new = run_round(enc, rng, rules)
        events += new
    return enc, events


def log_text(events: Iterable[Event], *, rolls: bool = True) -> str:
    """The round-by-round log, as a referee would read it."""
    lines = []
    for e in events:
        if e.kind == "round":
            lines.append(f"\n== Round {e.data.get('round')} ==")
            continue
        lines.append(e.explain() if rolls else f"{e.who}: {e.what}")
    return "\n".join(lines).strip()


__all__ = ["ZONES", "Action", "Recorded", "act", "attack", "log_text", "replay", "run_fight", "run_round", "take_turn"]


@dataclass(frozen=True)
class Recorded:
    """One step of a recorded fight: a whole automatic round, or one combatant's chosen action."""

    who: str | None = None          # None: run a round with the simple tactic
    action: Action | None = None


def replay(start: Encounter, seed: int, steps: Iterable[Recorded], rules: Ruleset) -> tuple[Encounter, list[Event]]:
    """Replay a fight exactly from its starting state, its seed and the steps taken (the log's promise)."""
    rng = dice.seeded(seed)
    enc, events = start, []
    for s in steps:
        if s.who is None or s.action is None:
            enc, new = run_round(enc, rng, rules)
        else:
            enc, new = take_turn(enc, s.who, s.action, rng, rules)
        events += new
    return enc, events
