"""Stabilising the dying and the injuries they keep (F-INJ-01, AMB-28): a Medicine CHECK stops the death timer
(option stabilize_methods: or only healing, or only the referee), then the Injuries table chosen by the
`injury_table` option is rolled and its row's effects applied (its ability losses permanent or temporary per
the option injury_ability_loss, AMB-32).

Above `death` and `apply`: an injury row is a list of effects like any crit row.
"""

from __future__ import annotations

from furnace.characters.abilities import modifier
from furnace.events import declare
from furnace.play.apply import INJURY, apply_all
from furnace.play.checks import make_dc
from furnace.play.combatant import Combatant
from furnace.play.conditions import check_difficulty
from furnace.play.state import Step
from furnace.rules.effects import AbilityLoss, Effect
from furnace.rules.ruleset import Ruleset

STABILISE = declare("stabilise", targets=1, outcome="public", method="public", total="actor", dc="public",
                    example={"outcome": "stabilises", "method": "healing_only"})


def stabilise(step: Step, healer_id: str, target_id: str, *, referee: bool = False) -> None:
    """Stop the death timer (Medicine CHECK vs ROOM DC, AMB-28), then roll the Injuries table (F-INJ-01).

    `referee`: the referee declares her stabilised, with no CHECK (AMB-28 c, under every stabilize_methods);
    a Medicine CHECK stabilises only under `medicine_or_healing` (magical healing ends dying in `apply`)."""
    target = step.c(target_id)
    if target.status != "dying":
        step.fact(STABILISE, healer_id, (target_id,), outcome="not_dying")
        return
    method = str(step.options["stabilize_methods"])
    if not referee and method != "medicine_or_healing":
        step.fact(STABILISE, healer_id, (target_id,), (), ("AMB-28",), outcome="not_by_medicine", method=method)
        return
    if not referee and not _medicine(step, healer_id, target_id):
        return
    step.update(target_id, status="stable", dying_turns=None)
    if referee:
        step.fact(STABILISE, healer_id, (target_id,), (), ("AMB-28",), outcome="by_the_referee")
    roll_injury(step, target_id)


def medicine_bonus(healer: Combatant, rules: Ruleset) -> dict[str, int | str]:
    """A Medicine CHECK's numbers (F-BASE-07): the WIS modifier, and PROF when she is proficient in Medicine — not
    her WIS SAVE bonus. A monster, which has no scores, uses its WIS save bonus."""
    if not healer.scores:
        return {"WIS": healer.save_bonus("WIS"), "PROF": 0}
    return {"WIS": modifier(healer.scores["WIS"], rules), "PROF": healer.prof if "Medicine" in healer.skills else 0}


def _medicine(step: Step, healer_id: str, target_id: str) -> bool:
    """The healer's Medicine CHECK vs ROOM DC, HARD (or at DISADVANTAGE) when her own injury says every CHECK is
    (F-TAB-37a/b 14–19)."""
    healer = step.c(healer_id)
    easy, hard, advantage = check_difficulty(healer.held)
    dc = make_dc(step.frame.room_dc, easy, hard, step.rules)
    d20 = {"adv": "d20adv", "dis": "d20dis"}.get(advantage or "", "d20")
    check = step.roll(f"{d20}+WIS+PROF", "Medicine CHECK", medicine_bonus(healer, step.rules))
    if check.total < dc.value:
        step.fact(STABILISE, healer_id, (target_id,), (check,), ("F-INJ-01", "AMB-28"), outcome="fails",
                  total=check.total, dc=dc.value)
        return False
    step.fact(STABILISE, healer_id, (target_id,), (check,), ("F-INJ-01", "AMB-28"), outcome="stabilises",
              total=check.total, dc=dc.value)
    return True


def roll_injury(step: Step, cid: str) -> None:
    """F-INJ-01: the injury table the `injury_table` option names; its row's effects apply at once."""
    c = step.c(cid)
    rolled = step.rules.tables.roll(str(step.options["injury_table"]), step.rng, label="injury")
    step.update(cid, injuries=(*c.injuries, rolled.row.text))
    step.fact(INJURY, cid, (), (rolled.roll,), ("F-INJ-01",), table=rolled.table.id, name=rolled.table.name,
              total=rolled.roll.total, row=rolled.row.span, text=rolled.row.text)
    apply_all(step, [_loss_kind(e, step) for e in rolled.row.effect_list()], actor=cid, target=cid)


def _loss_kind(e: Effect, step: Step) -> Effect:
    """CF-48, AMB-32 (option injury_ability_loss): an injury's 1d6 ability loss is permanent, or temporary (it
    comes back like Hazards ability loss, 1 point a week of rest, H-HEAL-06)."""
    if isinstance(e, AbilityLoss) and step.options["injury_ability_loss"] == "temporary":
        return e.model_copy(update={"permanent": False})
    return e
