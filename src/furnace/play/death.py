"""Damage, dying and death, with the death model read from the rule options (CF-30, CF-31).

DEATH_MODELS maps the `death_model` option to the function that decides what a blow does to a
character: `furnace` (F-DEATH-01/02: dying 1d4 turns, dead at −(3 + LVL + CON)), `hazards` (H-DMG-02/03:
unconscious at 0, dead at −3) and `middle-sea` (M-GRIEV-01: HP stop at 0, 3d6 + excess on the grievous
injury table). Monsters die at 0 (or are out of the fight, CF-50).
"""

from __future__ import annotations

from typing import Any

from furnace.dice import RollResult
from furnace.events import declare
from furnace.play import choosing
from furnace.play.combatant import FIGHTING, Combatant
from furnace.play.registry import DEATH_MODELS, NPC_MODELS
from furnace.play.state import Step
from furnace.rules.ruleset import Ruleset

DAMAGE = declare("damage", targets=1, amount="public", hp_before="actor", hp_after="actor", hp_max="actor",
                 means="target", own="public", example={"means": "arming sword", "own": False})
DEATH = declare("death", targets=1, cause="public", hp="actor", level="actor", con="actor", threshold="actor",
                times="actor", total="actor", dc="public", example={"cause": "threshold"})
DROPS = declare("dying", hp="actor", turns="actor")
STILL_DYING = declare("still_dying", total="actor", turns="actor")
# F-DEATH-01 rolled for the referee alone (option dying_timer_roll referee): the timer's 1d4 and the turns left
DYING_TIMER = declare("dying_timer", turns="referee", left="referee", example={"turns": 3, "left": 2})
RECOVER = declare("recover")
KNOCKED_DOWN_TWICE = declare("knocked_down_twice", times="actor", total="actor", dc="public")


def death_threshold(c: Combatant) -> int:
    """F-DEATH-02: dead at HP ≤ −(3 + LVL + CON); a level-3 PC with CON +1 dies at −7."""
    return -(3 + c.level + c.con_mod)


def kill(step: Step, c: Combatant, cause: str, rules: tuple[str, ...] = (), *, rolls: tuple[RollResult, ...] = (),
         **why: Any) -> None:
    """She dies of `cause` (a cause of death's code: threshold, bled_out, knocked_down_twice …); `rolls`: the die
    that sealed it (the last dying d20), shown with the death."""
    step.update(c.id, status="dead", dying_turns=None, doomed_round=None, cause_of_death=cause)
    step.record(DEATH, c.id, (), rolls, rules, {"round": step.round, "cause": cause, **why})


def open_timer(rules: Ruleset) -> bool:
    """F-DEATH-01 "secretly or openly roll 1d4" (option dying_timer_roll): whether the table sees the timer."""
    return bool(rules["dying_timer_roll"] == "open")


def dropped(step: Step, cid: str, timer: RollResult, hp: int) -> None:
    """The facts of a drop to dying: the timer told to all (open), or to the referee alone."""
    if open_timer(step.rules):
        step.record(DROPS, cid, (), (timer,), ("F-DEATH-01",), {"round": step.round, "hp": hp, "turns": timer.total})
        return
    step.record(DROPS, cid, (), (), ("F-DEATH-01",), {"round": step.round, "hp": hp})
    step.fact(DYING_TIMER, cid, (), (timer,), ("F-DEATH-01",), audience="referee", turns=timer.total)


def _furnace(step: Step, c: Combatant, amount: int) -> None:
    """The furnace death model (F-DEATH-01/02): what her HP, the blow already taken, make of her."""
    changes, timer = _fate(step, c, c.hp)
    if changes:
        _told(step, step.change(c, changes), timer)


def _fate(step: Step, c: Combatant, hp: int) -> tuple[dict[str, Any], RollResult | None]:
    """What `hp` make of her under the furnace death model, as the changes of her fields: dead past her threshold
    (F-DEATH-02); dying at 0 HP or below if she was up, her 1d4 timer rolled (F-DEATH-01); else nothing."""
    if hp <= death_threshold(c):      # (`kill`'s change)
        return {"status": "dead", "dying_turns": None, "doomed_round": None, "cause_of_death": "threshold"}, None
    if hp > 0 or c.status != "up":
        return {}, None
    timer = step.roll("1d4", "dying timer")
    return {"status": "dying", "dying_turns": timer.total, "knocked_down": c.knocked_down + 1}, timer


def _told(step: Step, c: Combatant, timer: RollResult | None) -> None:
    """The facts of her fate (`_fate`), `c` as it left her: her death past the threshold, or her drop to dying (and
    the CON SAVE of a second drop, F-DEATH-03)."""
    if c.status == "dead":
        step.record(DEATH, c.id, (), (), ("F-DEATH-02",), {"round": step.round, "cause": "threshold", "hp": c.hp,
                                                           "level": c.level, "con": c.con_mod,
                                                           "threshold": death_threshold(c)})
    elif timer is not None:
        dropped(step, c.id, timer, c.hp)
        if step.options["knocked_down_twice"] and c.knocked_down >= 2:
            _knocked_down_twice(step, c)


def _knocked_down_twice(step: Step, c: Combatant) -> None:
    """F-DEATH-03 (optional): the second drop in one encounter asks a CON SAVE vs ROOM DC or death."""
    if c.knocked_down > 2 and not step.options["knocked_down_every_later_drop"]:
        return
    save = step.roll("d20+CON", "CON SAVE", {"CON": c.save_bonus("CON")})
    total = save.total
    if total < step.frame.room_dc:       # she may spend Luck Dice on her death SAVE (F-LUCK-03)
        spent = choosing.luck_on(step, c.id, save, needed=step.frame.room_dc, death=True)
        total = spent.total if spent is not None else total
    if total < step.frame.room_dc:
        kill(step, c, "knocked_down_twice", ("F-DEATH-03",), rolls=(save,), times=c.knocked_down, total=total,
             dc=step.frame.room_dc)         # the SAVE that killed her is shown with her death
    else:
        step.fact(KNOCKED_DOWN_TWICE, c.id, (), (save,), ("F-DEATH-03",), times=c.knocked_down, total=total,
                  dc=step.frame.room_dc)


DEATH_MODELS.add("furnace", _furnace)


def take_damage(step: Step, target_id: str, amount: int, /, means: str = "", *, by: str = "") -> int:
    """Apply damage dealt by `by` (an id; none: the world) with `means` (a weapon, Cleave, a spell, an effect's
    kind of damage); returns the overflow past the HP the target had (for Cleave, AMB-01)."""
    return damage_to(step, step.c(target_id), amount, means, by)


def damage_to(step: Step, c: Combatant, amount: int, means: str, by: str) -> int:
    """`take_damage` of her as she is now (an attack's blow has her at hand)."""
    if c.status not in FIGHTING or amount <= 0:      # (`in_fight`: at every blow)
        return 0
    before = c.hp
    overflow = max(0, amount - max(0, before))
    if c.kind == "monster":
        _monster_damage(step, c, amount, means, by)
        return overflow
    model = str(step.options["death_model"])
    fate = DEATH_MODELS.get(model)
    if fate is _furnace:
        _furnace_blow(step, c, amount, means, by)
        return overflow
    c = step.change(c, {"hp": before - amount})
    _damaged(step, c, before, amount, means, by, ("H-DMG-01",) if model == "hazards" else ())  # below 0 too
    fate(step, c, amount)
    return overflow


def _damaged(step: Step, c: Combatant, before: int, amount: int, means: str, by: str, cited: tuple[str, ...]) -> None:
    """The fact of a PC's damage: `c` as the blow left her."""
    step.record(DAMAGE, c.id, (by,) if by and by != c.id else (), (), cited,
                {"round": step.round, "amount": amount, "hp_before": before, "hp_after": c.hp, "hp_max": c.hp_max,
                 "means": means, "own": by == c.id})


def _furnace_blow(step: Step, c: Combatant, amount: int, means: str, by: str) -> None:
    """A PC's damage under the furnace death model (`_furnace`): the blow's HP and what they make of her (`_fate`)
    one change of her, not two; the same facts in the same order, the same dice."""
    before, hp = c.hp, c.hp - amount
    changes, timer = _fate(step, c, hp)
    now = step.change(c, {"hp": hp, **changes})
    _damaged(step, now, before, amount, means, by, ())
    if changes:
        _told(step, now, timer)


def _monster_damage(step: Step, c: Combatant, amount: int, means: str, by: str) -> None:
    """A monster at 0 HP or below is dead (or out of the fight, monster_zero_hp; CF-50), unless a chapter's NPC
    rule takes the blow (M-MOOK-01); one that no such rule takes falls with the blow: one change of her, not two."""
    before, target_id, after = c.hp, c.id, c.hp - amount
    npc_model = NPC_MODELS.find(str(step.options["death_model"])) if after <= 0 else None
    falls = after <= 0 and npc_model is None
    if falls:
        out = step.options["monster_zero_hp"] == "out_of_fight"
        c = step.change(c, {"hp": after, "status": "out" if out else "dead"})
    else:
        c = step.change(c, {"hp": after})
    others = (by,) if by and by != target_id else ()
    step.record(DAMAGE, target_id, others, (), (), {"round": step.round, "amount": amount, "hp_before": before,
                                                   "hp_after": c.hp, "hp_max": c.hp_max, "means": means,
                                                   "own": by == target_id})
    if npc_model is not None and npc_model(step, c, amount):   # a chapter's NPC rule took it (M-MOOK-01)
        return
    if c.hp <= 0:
        out = step.options["monster_zero_hp"] == "out_of_fight"
        if not falls:          # (the NPC rule left her to the engine)
            step.update(target_id, status="out" if out else "dead")
        step.record(DEATH, target_id, others, (), ("CF-50",),
                    {"round": step.round, "cause": "out_of_fight" if out else "monster_at_0"})


def dying_turn(step: Step, cid: str) -> None:
    """F-DEATH-01: at each of a dying character's turns, a d20; a natural 20 gets her up with 1 HP."""
    c = step.c(cid)
    check = step.roll("d20", "dying")
    if check.natural != 20:            # a Luck Die rolling the d20 again may find the 20 (F-LUCK-03, AMB-02)
        spent = choosing.luck_on(step, cid, check, needed=None, death=True, natural_needed=20)
        if spent is not None:          # (none spent: the roll's own natural, no copy of it)
            check = check._replace(natural=choosing.rerolled_natural(spent, check))
    if check.natural == 20:
        step.update(cid, status="up", hp=1, dying_turns=None)
        step.fact(RECOVER, cid, (), (check,), ("F-DEATH-01",))
        return
    left = (c.dying_turns or 1) - 1
    if left <= 0:
        kill(step, c, "bled_out", ("F-DEATH-01",), rolls=(check,), total=check.total)
        return
    step.update(cid, dying_turns=left)
    if open_timer(step.rules):
        step.record(STILL_DYING, cid, (), (check,), ("F-DEATH-01",),
                    {"round": step.round, "total": check.total, "turns": left})
        return
    step.record(STILL_DYING, cid, (), (check,), ("F-DEATH-01",), {"round": step.round, "total": check.total})
    step.fact(DYING_TIMER, cid, (), (), ("F-DEATH-01",), audience="referee", left=left)
