"""Apply effects to the encounter: one short function per effect kind (a registry, like the kinds).

`apply_all(step, effects, actor=…, target=…)` resolves each effect's `target` (target, self, a random
ally …) and dispatches on its kind. What the engine cannot decide is logged as a referee prompt, so no
row is silently dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, cast

from furnace import dice
from furnace.events import declare
from furnace.play import luck
from furnace.play.checks import make_dc
from furnace.play.combatant import Combatant, armor_points
from furnace.play.conditions import Held, modifier_name
from furnace.play.death import kill, take_damage
from furnace.play.marks import marks, with_marks
from furnace.play.state import Step
from furnace.play.wear import wear, with_wear
from furnace.rules.effects import (
    Ability,
    AbilityLoss,
    Area,
    ArmorEffect,
    Attack,
    Condition,
    Damage,
    Death,
    Duration,
    Effect,
    ExtraAttack,
    Heal,
    HpFractionLoss,
    Injury,
    Lasting,
    Modifier,
    RefereePrompt,
    Save,
    Slay,
    WeaponEffect,
)

Applier = Callable[[Effect, Step, str, str], None]

# the facts of a row's effects, and who may know each value (furnace.events.declare)
PERIODIC = declare("periodic", what="public", effect="public", example={"what": "open wound", "effect": "damage"})
EFFECT_DAMAGE = declare("effect_damage", targets=1, amount="public", dice="public", type="public", maximum="public",
                        example={"dice": "2d6", "type": "fire", "maximum": False})
HEAL = declare("heal", amount="public", hp_before="actor", hp_after="actor", hp_max="actor", refused="public",
               source="referee", example={"refused": False, "source": "the referee"})
WOUNDS_CLOSE = declare("wounds_close", wounds="public", example={"wounds": ["open wound"]})
CONDITION = declare("condition", targets=1, condition="public", ending="public", until_round="public",
                    immune="public", example={"condition": "PRONE", "ending": "stands", "immune": False})
MODIFIER = declare("modifier", condition="public", value="public", ending="public", until_round="public",
                   example={"condition": "MOD:atk_against:HARD", "value": 0, "ending": "round", "until_round": 3})
SAVE = declare("save", ability="public", total="actor", dc="public", saved="public", immune="public",
               category="public", example={"ability": "CON", "saved": True, "immune": False})
ABILITY = declare("ability", ability="public", loss="public", amount="actor", before="actor", after="actor",
                  scoreless="public", example={"ability": "STR", "loss": "temporary", "scoreless": False})
DOOMED = declare("doomed", count="actor", unit="public", at_round="actor", unless="public",
                 example={"unit": "round", "unless": ""})
WEAPON = declare("weapon", action="public", weapon="actor", note="public", notched="public", atk_before="actor",
                 atk_after="actor", damage_before="actor", damage_after="actor",
                 example={"action": "drop", "weapon": "arming sword", "note": "", "notched": False})
ARMOR = declare("armor", piece="public", action="public", ac_before="actor", ac_after="actor", broken="public",
                armor_lost="actor", example={"piece": "shield", "action": "destroy", "broken": ""})
INJURY = declare("injury", table="public", name="public", total="actor", row="public", text="public",
                 example={"table": "F-TAB-38", "name": "lingering-injuries", "row": "3", "text": "a scar"})
PROMPT = declare("referee", note="referee", area="referee", of="referee", prompt="referee",
                 example={"note": "the target is pushed NEAR"})


FEAR_SAVES = "MOD:fear_saves:BONUS"   # a flat bonus to her SAVEs vs fear while held


def resolve_targets(step: Step, who: str, actor: str, target: str) -> list[str]:
    a, t = step.c(actor), step.c(target)
    if who in ("target",):
        return [target]
    if who in ("self", "attacker"):
        return [actor]
    if who == "random_ally":
        pick = step.choose(step.enc.allies_of(a))
        return [pick.id] if pick else []
    if who == "random_ally_close_to_target":   # friendly fire: one of the attacker's allies in CLOSE
        pick = step.choose([o for o in step.enc.allies_of(a) if o.zone == "CLOSE"])
        return [pick.id] if pick else []
    if who in ("all_near_target", "all_close_to_target"):
        zones = ("CLOSE",) if who == "all_close_to_target" else ("CLOSE", "NEAR")
        return [o.id for o in step.enc.combatants if o.side == t.side and o.active and o.zone in zones]
    return [target]


def held_for(step: Step, name: str, duration: Duration | None, source: str, value: int = 0) -> Held:
    """A condition's expiry on the action clock (AMB-03: a Furnace turn is a round)."""
    if duration is None:
        return Held(name=name, source=source, ending="encounter", value=value)
    unit = duration.unit
    if unit in ("round", "next_turn", "segment"):
        amount = 1 if unit != "round" else step.roll(duration.amount, f"duration of {name}").total
        return Held(name=name, source=source, ending="round", until_round=step.round + max(1, amount),
                    value=value)
    endings = {"until_rest": "rest", "until_stands": "stands", "until_cured": "cured", "until_healed": "cured",
               "until_repaired": "repaired", "permanent": "permanent", "encounter": "encounter"}
    return Held(name=name, source=source, ending=endings.get(unit, "encounter"), value=value)


def periodic(e: Damage | Save, step: Step, actor: str, target: str) -> bool:
    """An effect with `every` (open wound, torso wound) is held and applied at each of the holder's turns."""
    if e.every is None:
        return False
    for t in resolve_targets(step, e.target, actor, target):
        c = step.c(t)
        held = Held(name=f"EVERY:{e.kind}", source=e.note or f"{e.kind} every {e.every}", ending="cured",
                    effect=e.model_dump(exclude={"every"}, mode="json"))
        step.update(t, held=(*c.held, held))
        step.fact(PERIODIC, t, (), (), ("AMB-34",), what=held.source, effect=e.kind)
    return True


def apply_periodic(step: Step, cid: str) -> None:
    """At the start of a turn: the held periodic effects (`EVERY:…`; another marker's `effect` is what it adds to a
    blow or deals an attacker), only while the holder is up (D-11)."""
    from furnace.rules.effects import parse_effect

    for h in step.c(cid).held:
        if h.effect is not None and h.name.startswith("EVERY:") and step.c(cid).active:
            apply_all(step, [parse_effect({**h.effect, "target": "self"})], actor=cid, target=cid)


def _damage(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, Damage)
    if periodic(e, step, actor, target):
        return
    a = step.c(actor)
    expr = dice.parse(e.dice)
    if e.maximum:
        amount = expr.bounds(step.variables(a))[1]
        rolls: tuple[dice.RollResult, ...] = ()
    else:
        r = expr.roll(step.rng, step.variables(a), "DAM")
        amount, rolls = r.total, (r,)
    for t in resolve_targets(step, e.target, actor, target):
        step.fact(EFFECT_DAMAGE, t, (actor,) if actor != t else (), rolls, amount=amount, dice=e.dice,
                  type=e.type or "", maximum=e.maximum)
        take_damage(step, t, amount, by=actor, means=f"{e.type} damage" if e.type else "damage")


def _heal(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, Heal)
    for t in resolve_targets(step, e.target, actor, target):
        c = step.c(t)
        if any(h.name == "CANT_BE_HEALED" for h in c.held):
            step.fact(HEAL, t, refused=True)
            continue
        expr = e.dice
        if e.unit == "hit_die":  # "1" hit die of the class (d4 at level 0, D-12)
            expr = f"{e.dice}{c.hit_die}" if e.dice.isdigit() else e.dice.replace("HD", c.hit_die)
        r = step.roll(expr, "healing", step.variables(c))
        hp = min(c.hp_max, max(c.hp, 0) + r.total) if c.status != "dead" else c.hp
        status = "up" if hp > 0 and c.status in ("dying", "stable", "unconscious", "up") else c.status
        step.update(t, hp=hp, status=status, dying_turns=None if status == "up" else c.dying_turns)
        step.fact(HEAL, t, (), (r,), amount=r.total, hp_before=c.hp, hp_after=hp, hp_max=c.hp_max)
        if c.status != "dead":
            close_wounds(step, t)


def close_wounds(step: Step, cid: str) -> None:
    """AMB-34: any healing closes an open wound: its drain ends and the wound leaves the injuries."""
    c = step.c(cid)
    wounds = [h for h in c.held if h.name == "EVERY:damage"]
    if not wounds:
        return
    names = tuple(dict.fromkeys(h.source for h in wounds))
    left = tuple(i for i in c.injuries if not any(i.lower().startswith(n.lower()) for n in names))
    step.update(cid, held=tuple(h for h in c.held if h not in wounds), injuries=left,
                **with_marks(c, healed_injuries=(*marks(c).healed_injuries, *names)))
    step.fact(WOUNDS_CLOSE, cid, (), (), ("AMB-34",), wounds=list(names))


def _condition(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, Condition)
    for t in resolve_targets(step, e.target, actor, target):
        c = step.c(t)
        if e.name in c.immune:
            step.fact(CONDITION, t, (), (), ("F-ARCH-02",), condition=e.name, immune=True)
            continue
        held = held_for(step, e.name, e.duration, f"from {step.c(actor).name}")
        step.update(t, held=(*c.held, held))
        step.fact(CONDITION, t, (actor,) if actor != t else (), condition=e.name, ending=held.ending,
                  until_round=held.until_round)


def _modifier(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, Modifier)
    for t in resolve_targets(step, e.target, actor, target):
        c = step.c(t)
        held = held_for(step, modifier_name(e.applies_to, e.mode), e.duration,
                        e.note or f"{e.applies_to} {e.mode}", e.value)
        step.update(t, held=(*c.held, held))
        step.fact(MODIFIER, t, condition=held.name, value=e.value, ending=held.ending,
                  until_round=held.until_round)


def save_of(step: Step, c: Combatant, e: Save) -> tuple[int, str]:
    """The SAVE bonus: an ability, or a category mapped to an ability (AMB-05, D-5); a SAVE vs fear adds what
    she holds for it (`MOD:fear_saves:BONUS`: Liquid Courage's +1, M-DRINK-01)."""
    ability = e.ability or step.rules.save_vs(e.category)
    fear = sum(h.value for h in c.held if h.name == FEAR_SAVES) if e.category == "fear" and c.held else 0
    return c.save_bonus(ability) + fear, ability or (e.category or "save")


def save_difficulty(step: Step, c: Combatant, ability: str, dc: int) -> int:
    """A SAVE's DC moved by the holder's HARD/EASY markers: `MOD:saves:…` for every SAVE, `MOD:str_saves:…`
    for one ability's (D-9: non-proficient armor makes STR and DEX SAVEs HARD), stacked as checks stack."""
    wanted = ("MOD:saves:", f"MOD:{ability.lower()}_saves:")
    marks = [h for h in c.held if h.name.startswith(wanted)]
    hard = [h.source or h.name for h in marks if h.name.endswith(":HARD")]
    easy = [h.source or h.name for h in marks if h.name.endswith(":EASY")]
    return make_dc(dc, easy, hard, step.rules).value if marks else dc


def _save(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, Save)
    if periodic(e, step, actor, target):
        return
    a = step.c(actor)
    dc = dice.roll(e.dc, step.rng, step.variables(a)).total
    for t in resolve_targets(step, e.target, actor, target):
        c = step.c(t)
        if not c.in_fight:
            continue
        if e.category is not None and e.category in c.immune:   # immune to FEAR effects (F-ARCH-02): no SAVE
            step.fact(SAVE, t, (), (), ("F-ARCH-02",), immune=True, category=e.category)
            apply_all(step, e.on_success, actor=actor, target=t)
            continue
        bonus, name = save_of(step, c, e)
        dc_held = save_difficulty(step, c, name, dc)
        r = step.roll(f"d20+{bonus}" if bonus >= 0 else f"d20-{-bonus}", f"{name} SAVE")
        ok = r.total >= dc_held
        step.fact(SAVE, t, (), (r,), ability=name, total=r.total, dc=dc_held, saved=ok)
        record_luck(step, t, ok, "SAVE")
        apply_all(step, e.on_success if ok else e.on_fail, actor=actor, target=t)


def record_luck(step: Step, cid: str, success: bool, kind: str) -> None:
    """F-LUCK-01/02: a PC's second failed d20 roll in a row earns a Luck Die, and each one after; at most 3.
    The streak and the dice are her player's, shared by all the player's PCs in the fight (luck_owner): the
    Step keeps the pool and hands it to each of them (`Step.luck`)."""
    c = step.c(cid)
    if c.kind != "pc":
        return
    held = step.luck(c)
    if success and not held.streak:     # (`luck.record`'s first case, asked here: most counted rolls change nothing)
        return
    state, earned = luck.record(held, success, kind, step.rules)
    if state is not held:          # (most counted rolls change nothing: a success with no streak running)
        step.hold_luck(c, state)
    if earned is not None:
        step.fact(luck.EARNED, cid, (), (), luck.LUCK_RULES, **earned)


def _extra_attack(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, ExtraAttack)
    step.queue.append((actor, target, {"target": e.target, "repeat": e.repeat, "only_if": e.only_if}))


def _attack(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, Attack)
    for t in resolve_targets(step, e.target, actor, target):
        step.queue.append((actor, t, {"target": "same", "repeat": "once", "only_if": None, "plain": True,
                                      "auto_hit": t == actor}))


def _ability_loss(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, AbilityLoss)
    for t in resolve_targets(step, e.target, actor, target):
        c = step.c(t)
        ability = e.ability if e.ability != "random" else list(c.scores or {"STR": 0})[step.rng.randrange(6)]
        r = step.roll(e.dice, f"{ability} loss")
        if not c.scores:
            step.fact(ABILITY, t, (), (r,), ability=ability, amount=r.total, scoreless=True)
            continue
        before = c.scores[ability]  # type: ignore[index]
        after = max(0, before // 2 if e.mode == "halve" else before - r.total)
        lost = dict(marks(c).temporary_loss)
        if not e.permanent:   # remembered: rest may give it back (AMB-32, H-HEAL-06)
            key = cast(Ability, ability)
            lost[key] = lost.get(key, 0) + before - after
        c = step.update(t, scores={**c.scores, ability: after}, **with_marks(c, temporary_loss=lost))
        loss = "permanent" if e.permanent else "temporary"
        step.fact(ABILITY, t, (), (r,), ability=ability, loss=loss, amount=before - after, before=before, after=after)
        if after == 0:
            kill(step, c, "ability_zero", ("F-ABIL-05",), score=0)


def _death(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, Death)
    for t in resolve_targets(step, e.target, actor, target):
        c = step.c(t)
        if e.timer is None:
            kill(step, c, "slain", note=e.note or "")
            continue
        r = step.roll(e.timer.amount, "death timer")
        rounds = r.total * rounds_per(e.timer.unit, step)
        step.update(t, doomed_round=step.round + rounds)
        step.fact(DOOMED, t, (), (r,), count=r.total, unit=e.timer.unit, at_round=step.round + rounds,
                  unless=e.unless or "")


def rounds_per(unit: str, step: Step) -> int:
    """How many action rounds a unit holds (AMB-03: an exploration turn is 10 minutes)."""
    if unit in ("round", "next_turn", "segment"):
        return 1
    seconds = {"exploration_turn": int(step.options["exploration_turn_minutes"]) * 60, "minute": 60, "hour": 3600}
    return max(1, seconds.get(unit, 60) // max(1, int(step.options["round_seconds"])))


def _slay(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, Slay)
    a, t = step.c(actor), step.c(target)
    if t.hp < a.hp:
        kill(step, t, "slain_outright", by=actor, hp=t.hp, killer_hp=a.hp)
    else:
        apply_all(step, e.otherwise, actor=actor, target=target)


def _fraction(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, HpFractionLoss)
    for t in resolve_targets(step, e.target, actor, target):
        c = step.c(t)
        base = c.hp if e.of == "current" else c.hp_max
        take_damage(step, t, int(Fraction(e.fraction) * max(0, base)), by=actor, means=f"{e.fraction} of its HP")


UNARMED = ("fist", "attack", "claws", "bite")
LOST = ("sunder", "destroy", "string_snaps")
HARMED = ("damage", "notch", "crack")     # what harms a weapon; a fist, claws or a bite take none of it


def _weapon(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, WeaponEffect)
    for t in resolve_targets(step, e.target, actor, target):
        c = step.c(t)
        if e.action in (*LOST, *HARMED) and c.weapon in UNARMED:
            apply_all(step, e.otherwise, actor=actor, target=t)
            continue
        apply_all(step, e.then, actor=actor, target=t)
        notch: dict[str, Any] = {}
        if e.action in LOST:
            step.update(t, weapon="fist", damage="1", ranged=False,
                        **with_marks(step.c(t), weapon_lost=marks(c).weapon_lost or c.weapon))
        elif e.action == "notch" or (e.action == "damage" and step.options["fumble_damage_notches"]):
            notch = _notch(step, t)
        elif e.action == "crack":
            step.update(t, **with_wear(step.c(t), weapon_cracked=True))
        elif e.action in ("drop", "knock_away", "entangled", "loose"):
            step.update(t, held=(*c.held, held_for(step, "CANT_ATTACK", Duration(amount="1", unit="next_turn"),
                                                   f"weapon {e.action}")))
        step.fact(WEAPON, t, action=e.action, weapon=c.weapon, note=e.note or "", **notch)


def _notch(step: Step, cid: str) -> dict[str, object]:
    """M-WPN-02 (and F-TAB-36 row 4 under fumble_damage_notches, CF-34): a notch, −1 to hit and to damage."""
    c = step.c(cid)
    step.update(cid, attack_bonus=c.attack_bonus - 1, damage=f"{c.damage}-1",
                **with_wear(c, weapon_notches=wear(c).weapon_notches + 1))
    return {"notched": True, "atk_before": c.attack_bonus, "atk_after": c.attack_bonus - 1,
            "damage_before": c.damage, "damage_after": f"{c.damage}-1"}


def _armor(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, ArmorEffect)
    for t in resolve_targets(step, e.target, actor, target):
        c = step.c(t)
        if e.action == "destroy" and e.piece in ("shield", "helmet"):
            _destroy_piece(step, t, e.piece)
            continue
        delta, broke = _protection_lost(step, c, e) if e.piece == "armor" else (e.ac_delta, "")
        if delta:
            worn = with_wear(c, armor_lost=wear(c).armor_lost - delta) if e.piece == "armor" else {}
            step.update(t, ac=c.ac + delta, **worn)
        step.fact(ARMOR, t, piece=e.piece, action=e.action, ac_before=c.ac, ac_after=c.ac + delta, broken=broke,
                  armor_lost=-delta if delta < 0 else 0)


def _protection_lost(step: Step, c: Combatant, e: ArmorEffect) -> tuple[int, str]:
    """AMB-35: armor loses protection (its AC above 10, F-TAB-21, or its AC per armor_damage_scale) down to 0,
    where it breaks; armor with no F-TAB-21 key (a monster's) takes the row's change as it stands."""
    if e.ac_delta >= 0 or c.armor_key is None:
        return e.ac_delta, ""
    protection = armor_points(c.armor_key, step.rules)
    left = max(0, protection - wear(c).armor_lost)
    loss = min(-e.ac_delta, left)
    return -loss, (c.armor_key if loss == left else "")


def _destroy_piece(step: Step, cid: str, piece: str) -> None:
    c = step.c(cid)
    if piece == "shield" and c.shield:
        step.update(cid, shield=False, ac=c.ac - 2)
        step.fact(ARMOR, cid, piece="shield", action="destroy", ac_before=c.ac, ac_after=c.ac - 2)
    elif piece == "helmet" and c.helmet:
        step.update(cid, helmet=False)
        step.fact(ARMOR, cid, piece="helmet", action="destroy", ac_before=c.ac, ac_after=c.ac)


def _injury(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, Injury)
    c = step.c(target)
    table = e.table
    if table in ("F-TAB-38", "lingering-injuries"):   # CF-13: the Lingering Injuries table in force
        table = str(step.options["lingering_injury_table"])
    rolled = step.rules.tables.roll(table, step.rng, label="injury")
    step.update(target, injuries=(*c.injuries, rolled.row.text))
    step.fact(INJURY, target, (), (rolled.roll,), ("F-INJ-01",), table=rolled.table.id, name=rolled.table.name,
              total=rolled.roll.total, row=rolled.row.span, text=rolled.row.text)
    apply_all(step, rolled.row.effect_list(), actor=target, target=target)


def _lasting(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, Lasting)
    c = step.c(target)
    step.update(target, injuries=(*c.injuries, e.name))
    apply_all(step, [_part_of(x, e) for x in e.effects], actor=actor, target=target)


def _part_of(x: Effect, lasting: Lasting) -> Effect:
    """AMB-34: a lasting injury's mechanics last as long as it does (one eye's HARD ranged ATK is permanent, a
    maimed foot's MOVE_NEAR_ONLY too) and are named after it (the open wound's drain is the "open wound")."""
    changes: dict[str, object] = {} if x.note else {"note": lasting.name}
    if "duration" in type(x).model_fields and getattr(x, "duration", None) is None and lasting.duration:
        changes["duration"] = lasting.duration
    return x.model_copy(update=changes) if changes else x


def _prompt(e: Effect, step: Step, actor: str, target: str) -> None:
    from furnace.rules.effects import effect_summary  # a sentence, never the effect's repr

    text = e.prompt if isinstance(e, RefereePrompt) else effect_summary(e)
    step.fact(PROMPT, target, audience="referee", prompt=text)


def _area(e: Effect, step: Step, actor: str, target: str) -> None:
    assert isinstance(e, Area)
    step.fact(PROMPT, target, audience="referee", area=e.zone, of=e.of)


APPLIERS: dict[str, Applier] = {
    "damage": _damage, "heal": _heal, "condition": _condition, "modifier": _modifier, "save": _save,
    "extra_attack": _extra_attack, "attack": _attack, "ability_loss": _ability_loss, "death": _death,
    "slay": _slay, "hp_fraction_loss": _fraction, "weapon": _weapon, "armor": _armor, "injury": _injury,
    "lasting": _lasting, "referee_prompt": _prompt, "area": _area, "nothing": lambda e, s, a, t: None,
    "spell": _prompt, "summon": _prompt, "move": _prompt,
}


ALWAYS = frozenset({"nothing", "referee_prompt", "extra_attack", "attack"})


def apply_all(step: Step, effects: Sequence[Effect], *, actor: str, target: str) -> None:
    """Apply each effect; those that land on a target already out of the fight are skipped, but
    another attack still happens (crit rows 19 and 28+)."""
    for effect in effects:
        if _on_target(effect) and not step.c(target).in_fight and effect.kind not in ALWAYS:
            continue
        APPLIERS[effect.kind](effect, step, actor, target)


def _on_target(effect: Effect) -> bool:
    """The effect lands on the target: its `target` says so, or it has none. (Whether its kind has the field is
    found once a kind: a pydantic model's missing attribute is its `__getattr__` raising, at every crit row.)"""
    kind = type(effect)
    targeted = _TARGETED.get(kind)
    if targeted is None:
        targeted = _TARGETED[kind] = "target" in getattr(kind, "model_fields", ("target",))
    return not targeted or getattr(effect, "target", "target") == "target"


_TARGETED: dict[type, bool] = {}       # by an effect's kind (its class): whether it has a `target` field
