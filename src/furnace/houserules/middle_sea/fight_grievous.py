"""A blow at 0 HP in a fight under the Middle Sea rules (M-GRIEV-01..09, D-4, M-MOOK-01, AMB-91, AMB-94).

The rule is written once, in `zero_hp.take_blow` and `grievous_injury.grievous`; this module runs it on the
fight's combatant (as the character the rule reads) and writes what it did back onto the combatant: HP stop at
0 (or Second Wind's), exactly 0 by the option middle_sea_zero_hp, the conditions held for their durations, a
fatal wound's or bleeding's death timer, death, lasting injuries with their effects, and a helmet's save vs.
death on a skull or a head (AMB-94) with the combatant's own SAVE bonus against the ROOM DC — if the wearer
chooses to make it (`choosing.helmet_saves`, a question to her player; M-SEVER-01 "may save"). A monster rolls
only as the option npc_grievous says (named_only: a named one; AMB-91 g, REF-42).
"""

from __future__ import annotations

from collections.abc import Callable

from furnace.characters.character import Character
from furnace.events import Event
from furnace.houserules.middle_sea.grievous_injury import (
    KILLED_OUTRIGHT,
    LASTING,
    WOUND_CONDITION,
    WOUND_TIMER,
    Grievous,
)
from furnace.houserules.middle_sea.zero_hp import EXACTLY_ZERO, npc_rolls, take_blow
from furnace.play import choosing
from furnace.play.apply import CONDITION, DOOMED, SAVE, apply_all, held_for, record_luck, rounds_per
from furnace.play.combatant import Combatant
from furnace.play.death import DAMAGE, kill
from furnace.play.state import Step
from furnace.rules.effects import ABILITIES, Duration

MONSTER_HIT_DIE = "d8"   # a monster's Second Wind rolls one of its Hit Dice, an AD&D d8 (AMB-91 c)
Writer = Callable[[Step, str, Event, Grievous], None]


def named(c: Combatant) -> bool:
    """AMB-91 g, REF-42: an NPC the referee flagged as named (the combatant's `named` flag once it carries one,
    else a "named" feature)."""
    return bool(getattr(c, "named", False)) or "named" in c.features


def as_character(c: Combatant, hp: int) -> Character:
    """The combatant as the character the Middle Sea rules read: its name, level (at most 10), HP, helmet and
    injuries; a monster's scores are 10s (its SAVEs are the combatant's, passed on their own)."""
    scores = {a: c.scores.get(a, 10) for a in ABILITIES}
    return Character(name=c.name, level=min(10, max(0, c.level)), scores=scores, hp_max=c.hp_max, hp=hp,
                     helmet=c.helmet, injuries=list(c.injuries))


def grievous_at_zero(step: Step, c: Combatant, amount: int) -> None:
    """The `middle-sea` death model (CF-30/31) for a character: a blow that leaves her at 0 HP or below runs
    `take_blow` (HP stop at 0; exactly 0 per middle_sea_zero_hp, D-4; past 0, 3d6 + the excess, M-GRIEV-01)."""
    if c.hp > 0:
        return
    _blow(step, c, amount, npc=False)


def npc_at_zero(step: Step, c: Combatant, amount: int) -> bool:
    """M-MOOK-01, AMB-91 g (option npc_grievous): a monster at 0 HP or below rolls on the grievous table when
    the option says so (named_only: a named one; all; none). True when it rolled; False leaves it to the engine,
    which puts it out of the fight (monster_zero_hp)."""
    if c.hp > 0 or not npc_rolls(step.rules, named(c)):
        return False
    _blow(step, c, amount, npc=True)
    return True


def _blow(step: Step, c: Combatant, amount: int, *, npc: bool) -> None:
    def helmet_save(location: str, text: str) -> bool:    # "may save vs. death": the wearer is asked (AMB-94)
        return choosing.helmet_saves(step, c, location, text)

    result = take_blow(as_character(c, c.hp + amount), amount, step.rng, step.rules, npc=npc, named=named(c),
                       helmet=c.helmet, hit_die=MONSTER_HIT_DIE if c.kind == "monster" else c.hit_die,
                       room_dc=step.enc.room_dc, save_bonus=c.save_bonus, helmet_save=helmet_save)
    step.update(c.id, hp=result.character.hp)
    for event in result.events:
        _WRITERS.get(event.kind, _told)(step, c.id, event, result)


def _told(step: Step, cid: str, e: Event, result: Grievous) -> None:
    """A fact of the rule that changes nothing the writers below do not: the fight records it as the combatant's."""
    step.fact(e.kind, cid, e.targets, e.rolls, e.rules, audience=e.audience, **e.data)


def _blow_logged(step: Step, cid: str, e: Event, result: Grievous) -> None:
    """The blow itself: the engine has logged the damage."""


def _duration(name: str, amount: object, unit: object) -> Duration | None:
    if unit is None:   # no duration: knocked down until she stands (AMB-91 d), the rest for the encounter
        return Duration(amount="1", unit="until_stands") if name == "KNOCKED_DOWN" else None
    return Duration.model_validate({"amount": str(amount or 1), "unit": unit})


def _condition(step: Step, cid: str, e: Event, result: Grievous) -> None:
    """A condition (STUNNED 1 round, UNCONSCIOUS 2d6 rounds …), held with the amount the rule rolled."""
    c, name = step.c(cid), str(e.data["condition"])
    held = held_for(step, name, _duration(name, e.data.get("amount"), e.data.get("unit")), f"from {c.name}")
    step.update(cid, held=(*c.held, held))
    step.fact(CONDITION, cid, (), e.rolls, e.rules, condition=name, ending=held.ending, until_round=held.until_round)


def _exactly_zero(step: Step, cid: str, e: Event, result: Grievous) -> None:
    """D-4, AMB-91 a (option middle_sea_zero_hp): at exactly 0, knocked down (until she stands), unconscious or
    conscious but only crawling (INCAPACITATED), with no roll."""
    c, name = step.c(cid), str(e.data["condition"])
    held = held_for(step, name, _duration(name, None, None), "0 HP")
    step.update(cid, held=(*c.held, held))
    _told(step, cid, e, result)


def _timer(step: Step, cid: str, e: Event, result: Grievous) -> None:
    """A fatal wound (1d6 exploration turns, AMB-92) or bleeding (2d6 rounds): dies at her turn in that round
    unless treated."""
    c, amount, unit = step.c(cid), int(e.data["amount"]), str(e.data["unit"])
    due = step.enc.round + amount * rounds_per(unit, step)
    step.update(cid, doomed_round=due if c.doomed_round is None else min(due, c.doomed_round))
    step.fact(DOOMED, cid, (), e.rolls, e.rules, count=amount, unit=unit, at_round=due,
              unless=str(e.data.get("unless") or ""))


def _death(step: Step, cid: str, e: Event, result: Grievous) -> None:
    kill(step, step.c(cid), "slain outright", e.rules)


def _save(step: Step, cid: str, e: Event, result: Grievous) -> None:
    """The helmet's save vs. death (AMB-94): a d20 of hers, so it counts toward her Luck Dice (F-LUCK-01)."""
    _told(step, cid, e, result)
    record_luck(step, cid, bool(e.data.get("saved")), "SAVE")


def _lasting(step: Step, cid: str, e: Event, result: Grievous) -> None:
    """A lasting injury (a broken leg, a lost hand): the engine holds it and its effects (CANT_MOVE …) as it
    holds any lasting injury's, to be written back after the fight."""
    _told(step, cid, e, result)
    found = [x for x in result.lasting if x.name == e.data.get("lasting")]
    apply_all(step, found[:1], actor=cid, target=cid)


_WRITERS: dict[str, Writer] = {
    DAMAGE: _blow_logged, WOUND_CONDITION: _condition, EXACTLY_ZERO: _exactly_zero, WOUND_TIMER: _timer,
    KILLED_OUTRIGHT: _death, SAVE: _save, LASTING: _lasting,
}
