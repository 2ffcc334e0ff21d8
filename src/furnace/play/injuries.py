"""Stabilising the dying and the injuries they keep (F-INJ-01, AMB-28): a Medicine CHECK stops the death timer
(option stabilize_methods: or only healing, or only the referee), then the Injuries table chosen by the
`injury_table` option is rolled and its row's effects applied (its ability losses permanent or temporary per
the option injury_ability_loss, AMB-32).

Above `death` and `apply`: an injury row is a list of effects like any crit row.
"""

from __future__ import annotations

from furnace.play.apply import apply_all
from furnace.play.checks import make_dc
from furnace.play.conditions import check_difficulty
from furnace.play.state import Step
from furnace.rules.effects import AbilityLoss, Effect


def stabilise(step: Step, healer_id: str, target_id: str, *, referee: bool = False) -> None:
    """Stop the death timer (Medicine CHECK vs ROOM DC, AMB-28), then roll the Injuries table (F-INJ-01).

    `referee`: the referee declares her stabilised, with no CHECK (AMB-28 c, under every stabilize_methods);
    a Medicine CHECK stabilises only under `medicine_or_healing` (magical healing ends dying in `apply`)."""
    healer, target = step.c(healer_id), step.c(target_id)
    if target.status != "dying":
        step.log("stabilise", healer.name, f"{target.name} is not dying")
        return
    method = str(step.rules["stabilize_methods"])
    if not referee and method != "medicine_or_healing":
        step.log("stabilise", healer.name, f"a Medicine CHECK cannot stabilise {target.name} under stabilize_methods "
                 f"{method}: {'magical healing or ' if method == 'healing_only' else ''}the referee (AMB-28)")
        return
    if not referee and not _medicine(step, healer_id, target_id):
        return
    step.update(target_id, status="stable", dying_turns=None)
    if referee:
        step.log("stabilise", healer.name, f"the referee declares {target.name} stabilised (AMB-28)")
    roll_injury(step, target_id)


def _medicine(step: Step, healer_id: str, target_id: str) -> bool:
    """The healer's Medicine CHECK vs ROOM DC, HARD (or at DISADVANTAGE) when her own injury says every CHECK is
    (F-TAB-37a/b 14–19)."""
    healer, target = step.c(healer_id), step.c(target_id)
    easy, hard, advantage = check_difficulty(healer.held)
    dc = make_dc(step.enc.room_dc, easy, hard, step.rules)
    d20 = {"adv": "d20adv", "dis": "d20dis"}.get(advantage or "", "d20")
    vs = f"ROOM DC {dc.value}" if dc.value == step.enc.room_dc and not dc.steps else dc.explain()
    check = step.roll(f"{d20}+WIS", f"{healer.name} Medicine CHECK vs {vs} to stabilise {target.name}",
                      {"WIS": healer.save_bonus("WIS")})
    if check.total < dc.value:
        step.log("stabilise", healer.name, f"fails to stabilise {target.name} ({check.total} vs {dc.value})",
                 (check,), dc=dc.value)
        return False
    step.log("stabilise", healer.name, f"stabilises {target.name} ({check.total})", (check,), dc=dc.value)
    return True


def roll_injury(step: Step, cid: str) -> None:
    """F-INJ-01: the injury table the `injury_table` option names; its row's effects apply at once."""
    c = step.c(cid)
    rolled = step.rules.tables.roll(str(step.rules["injury_table"]), step.rng, label=f"{c.name} injury on "
                                    "stabilisation (F-INJ-01)")
    step.update(cid, injuries=(*c.injuries, rolled.row.text))
    step.log("injury", c.name, f"injury {rolled.roll.total}: {rolled.row.text}", (rolled.roll,),
             table=rolled.table.id)
    apply_all(step, [_loss_kind(e, step) for e in rolled.row.effect_list()], actor=cid, target=cid)


def _loss_kind(e: Effect, step: Step) -> Effect:
    """CF-48, AMB-32 (option injury_ability_loss): an injury's 1d6 ability loss is permanent, or temporary (it
    comes back like Hazards ability loss, 1 point a week of rest, H-HEAL-06)."""
    if isinstance(e, AbilityLoss) and step.rules["injury_ability_loss"] == "temporary":
        return e.model_copy(update={"permanent": False})
    return e
