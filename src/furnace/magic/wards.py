"""A spell that wards its caster for a while (F-TAB-17 Flame Shield: "+1d4 AC for 1d4 rounds; whoever attacks the
caster takes 2d8 fire DAM", F-SPELL-06).

The row's damage aimed at `attacker` with a duration is no blow now: the caster holds it (`STRIKES_BACK`), and the
engine deals it to each creature that attacks her while it lasts (`furnace.play.attacks`). The AC the row's data
names (`ac_bonus: 1d4`, dice, which a modifier effect cannot hold) is rolled once and held as her AC bonus. One
roll of the duration ("for 1d4 rounds", AMB-03: a Furnace turn is a round) holds both; they end at the start of her
turn in that round.
"""

from __future__ import annotations

from typing import Any

from furnace.events import declare
from furnace.magic.spells import Spell
from furnace.play.attacks import STRIKES_BACK
from furnace.play.conditions import Held, modifier_name
from furnace.play.state import Step
from furnace.rules.effects import Damage, Effect

AC_BONUS = modifier_name("ac", "BONUS")
WARD = declare("ward", spell="public", ac_bonus="actor", strikes_back="public", damage_type="public", rounds="public",
               until_round="public", example={"spell": "Flame Shield", "ac_bonus": 3, "strikes_back": "2d8",
                                              "damage_type": "fire", "rounds": 2, "until_round": 4})


def striking_back(e: Effect) -> bool:
    """A damage effect aimed at the caster's attackers for a while: a ward, not a blow now."""
    return isinstance(e, Damage) and e.target == "attacker" and e.duration is not None and e.every is None


def ward(step: Step, caster: str, spell: Spell, effects: list[Effect], data: dict[str, Any]) -> list[Effect]:
    """Hold the row's ward on the caster (its AC bonus and the damage each attacker takes), with one duration
    roll; the row's other effects, to apply as any spell's."""
    lasting = [e for e in effects if striking_back(e)]
    if not lasting and not data.get("ac_bonus"):
        return effects
    first = lasting[0] if lasting else None
    duration = first.duration.amount if isinstance(first, Damage) and first.duration else "1"
    rounds = step.roll(duration, "duration")
    until = step.enc.round + max(1, rounds.total)
    held: list[Held] = []
    rolls = [rounds]
    values: dict[str, Any] = {}
    if data.get("ac_bonus"):
        ac = step.roll(str(data["ac_bonus"]), "AC")
        rolls.append(ac)
        held.append(Held(name=AC_BONUS, source=spell.name, until_round=until, value=ac.total))
        values["ac_bonus"] = ac.total
    for e in lasting:
        assert isinstance(e, Damage)
        held.append(Held(name=STRIKES_BACK, source=spell.name, until_round=until,
                         effect={"dice": e.dice, "type": e.type or ""}))
        values.update(strikes_back=e.dice, damage_type=e.type or "")
    step.update(caster, held=(*step.c(caster).held, *held))
    step.fact(WARD, caster, (), tuple(rolls), (spell.table.id, "F-SPELL-06"), spell=spell.name, rounds=rounds.total,
              until_round=until, **values)
    return [e for e in effects if not striking_back(e)]
