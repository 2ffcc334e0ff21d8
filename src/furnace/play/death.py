"""Damage, dying and death, with the death model read from the rule options (CF-30, CF-31).

DEATH_MODELS maps the `death_model` option to the function that decides what a blow does to a
character: `furnace` (F-DEATH-01/02: dying 1d4 turns, dead at −(3 + LVL + CON)), `hazards` (H-DMG-02/03:
unconscious at 0, dead at −3) and `middle-sea` (M-GRIEV-01: HP stop at 0, 3d6 + excess on the grievous
injury table). Monsters die at 0 (or are out of the fight, CF-50).
"""

from __future__ import annotations

from furnace.play.combatant import Combatant
from furnace.play.registry import DEATH_MODELS
from furnace.play.state import Step


def death_threshold(c: Combatant) -> int:
    """F-DEATH-02: dead at HP ≤ −(3 + LVL + CON); a level-3 PC with CON +1 dies at −7."""
    return -(3 + c.level + c.con_mod)


def kill(step: Step, c: Combatant, how: str) -> None:
    step.update(c.id, status="dead", dying_turns=None, doomed_round=None, cause_of_death=how)
    step.log("death", c.name, f"dies: {how}", how=how)


def _furnace(step: Step, c: Combatant, amount: int) -> None:
    if c.hp <= death_threshold(c):
        kill(step, c, f"HP {c.hp} at or below −(3 + LVL {c.level} + CON {c.con_mod}) = {death_threshold(c)}")
        return
    if c.hp > 0 or c.status != "up":
        return
    timer = step.roll("1d4", f"{c.name} bleeds out in 1d4 turns (F-DEATH-01)")
    c = step.update(c.id, status="dying", dying_turns=timer.total, knocked_down=c.knocked_down + 1)
    step.log("dying", c.name, f"drops at {c.hp} HP: unconscious, dies in {timer.total} turns unless "
             "stabilised or a natural 20", (timer,))
    if step.rules["knocked_down_twice"] and c.knocked_down >= 2:
        _knocked_down_twice(step, c)


def _knocked_down_twice(step: Step, c: Combatant) -> None:
    """F-DEATH-03 (optional): the second drop in one encounter asks a CON SAVE vs ROOM DC or death."""
    if c.knocked_down > 2 and not step.rules["knocked_down_every_later_drop"]:
        return
    save = step.roll("d20+CON", f"{c.name} CON SAVE vs ROOM DC {step.enc.room_dc}, knocked down twice",
                     {"CON": c.save_bonus("CON")})
    if save.total < step.enc.room_dc:
        kill(step, c, f"knocked down {c.knocked_down} times and failed the CON SAVE ({save.total})")
    else:
        step.log("save", c.name, f"survives being knocked down twice (CON SAVE {save.total})", (save,))


DEATH_MODELS.add("furnace", _furnace)


def take_damage(step: Step, target_id: str, amount: int, source: str) -> int:
    """Apply damage; returns the overflow past the HP the target had (for Cleave, AMB-01)."""
    c = step.c(target_id)
    if not c.in_fight or amount <= 0:
        return 0
    before = c.hp
    c = step.update(target_id, hp=c.hp - amount)
    step.log("damage", c.name, f"takes {amount} from {source}: HP {before} → {c.hp}", amount=amount,
             before=before, after=c.hp)
    overflow = max(0, amount - max(0, before))
    if c.kind == "monster":
        if c.hp <= 0:
            out = step.rules["monster_zero_hp"] == "out_of_fight"
            step.update(c.id, status="out" if out else "dead")
            step.log("death", c.name, "is out of the fight" if out else "dies", how=source)
        return overflow
    DEATH_MODELS.get(str(step.rules["death_model"]))(step, step.c(target_id), amount)
    return overflow


def dying_turn(step: Step, cid: str) -> None:
    """F-DEATH-01: at each of a dying character's turns, a d20; a natural 20 gets her up with 1 HP."""
    c = step.c(cid)
    check = step.roll("d20", f"{c.name} dying: a natural 20 gets up with 1 HP")
    if check.natural == 20:
        step.update(cid, status="up", hp=1, dying_turns=None)
        step.log("recover", c.name, "rolls a natural 20 and gets up with 1 HP", (check,))
        return
    left = (c.dying_turns or 1) - 1
    if left <= 0:
        kill(step, c, "bled out")
        return
    step.update(cid, dying_turns=left)
    step.log("dying", c.name, f"still dying ({check.total}): {left} turn(s) left", (check,))
