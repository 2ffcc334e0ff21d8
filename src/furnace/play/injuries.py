"""Stabilising the dying and the injuries they keep (F-INJ-01, AMB-28): a Medicine CHECK stops the death
timer, then the Injuries table chosen by the `injury_table` option is rolled and its row's effects applied.

Above `death` and `apply`: an injury row is a list of effects like any crit row.
"""

from __future__ import annotations

from furnace.play.apply import apply_all
from furnace.play.state import Step


def stabilise(step: Step, healer_id: str, target_id: str) -> None:
    """Stop the death timer (Medicine CHECK vs ROOM DC, AMB-28), then roll the Injuries table (F-INJ-01)."""
    healer, target = step.c(healer_id), step.c(target_id)
    if target.status != "dying":
        step.log("stabilise", healer.name, f"{target.name} is not dying")
        return
    check = step.roll("d20+WIS", f"{healer.name} Medicine CHECK vs ROOM DC {step.enc.room_dc} to stabilise "
                      f"{target.name}", {"WIS": healer.save_bonus("WIS")})
    if check.total < step.enc.room_dc:
        step.log("stabilise", healer.name, f"fails to stabilise {target.name} ({check.total})", (check,))
        return
    step.update(target_id, status="stable", dying_turns=None)
    step.log("stabilise", healer.name, f"stabilises {target.name} ({check.total})", (check,))
    roll_injury(step, target_id)


def roll_injury(step: Step, cid: str) -> None:
    """F-INJ-01: the injury table the `injury_table` option names; its row's effects apply at once."""
    c = step.c(cid)
    rolled = step.rules.tables.roll(str(step.rules["injury_table"]), step.rng, label=f"{c.name} injury on "
                                    "stabilisation (F-INJ-01)")
    step.update(cid, injuries=(*c.injuries, rolled.row.text))
    step.log("injury", c.name, f"injury {rolled.roll.total}: {rolled.row.text}", (rolled.roll,),
             table=rolled.table.id)
    apply_all(step, rolled.row.effect_list(), actor=cid, target=cid)
