"""What a fight or a command leaves behind lives on the campaign clock until the rules end it.

Everything that lasts is an entry on the campaign clock (`play.clock.Scheduled`): owned by the character (by her
name, as the clock knows her; `data.member` is her member id), due at a moment of game time, and handled by the
handler of its kind when it falls due, whoever moves time (`clock advance`, travel, a rest):

    dying            F-DEATH-01, AMB-03, CF-12: a dying character's d20 each of her rounds (a round is
                     `round_seconds` of clock time); `remaining` is the turns of her 1d4 timer left. A natural 20:
                     up with 1 HP; the last turn gone: she bleeds out (the last d20 shown).
    wake_up          H-HEAL-04 (the Hazards chapter): unconscious at 0 HP or less, she wakes 1d6 hours later.
    fatal_wound,     M-GRIEV-07/08 (the Middle Sea chapter): dies when it falls due unless cured; the cure takes
    bleeding_out     the entry off the clock.
    bone_heals       M-GRIEV-06, M-BONE-01 (the Middle Sea chapter): the break has knit; its effects end.
    doomed           a crit row's "dies in 1d4 rounds" that outlasts the fight.
    condition_ends   a condition with a duration in rounds that outlasts the fight (M-GRIEV-05's 2d6 rounds
                     unconscious, a STUNNED 1d4 rounds): it ends when it falls due.

The engine is the one place those rules run. `furnace.campaign.handover` turns a member into a combatant of an
encounter (her entries suspended while it runs) and back (what still lasts goes on the clock again); this module
holds the entries, their handlers and what a campaign from before them is given (`adopt`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, TypeVar

from furnace import dice
from furnace.campaign.state import CampaignState
from furnace.characters.character import Character
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.play.clock import Campaign as ClockView
from furnace.play.clock import Clock, Fire, Scheduled, handler, schedule
from furnace.rules.ruleset import Ruleset

DYING, DOOMED, CONDITION_ENDS = "dying", "doomed", "condition_ends"
WAKE_UP, BONE_HEALS, FATAL, BLEEDING = "wake_up", "bone_heals", "fatal_wound", "bleeding_out"
# what an encounter takes over while it runs (the fight counts them in its own rounds), and what stays on the clock
SUSPENDED = (DYING, DOOMED, CONDITION_ENDS, FATAL, BLEEDING)
LASTING = (*SUSPENDED, WAKE_UP, BONE_HEALS)
DOWN = ("DYING", "UNCONSCIOUS")
Holder = TypeVar("Holder", CampaignState, ClockView)    # a campaign's state, or the clock's view of it

# something that lasts goes on the clock: `what` it is (dying, wake_up, fatal_wound, bleeding, doomed, condition,
# bone), `count` of `unit`s from now (rounds, hours, weeks), the `condition` or the bone's `location`, the `entry`
ON_CLOCK = declare("on_clock", what="public", count="actor", unit="public", condition="public", location="public",
                   entry="referee", example={"what": "dying", "count": 3, "unit": "round", "condition": "",
                                             "location": "", "entry": 4})
# a condition with a duration has run out on the clock
CONDITION_OVER = declare("condition_over", condition="public", example={"condition": "STUNNED"})
# healed above 0 HP, she is no longer down: the `conditions` that left her (DYING, UNCONSCIOUS, H-HEAL-04's helpless)
UP_AGAIN = declare("up_again", conditions="public", example={"conditions": ["DYING"]})


# -- the clock, on a campaign's state ------------------------------------------------------------------------
def put_on_clock(state: Holder, kind: str, after: int, owner: str, **kwargs: Any) -> tuple[Holder, int]:
    """Schedule an entry on the campaign's clock (`play.clock.schedule`)."""
    view, entry = schedule(ClockView(clock=state.clock), kind, after=after, owner=owner, **kwargs)
    return state.model_copy(update={"clock": view.clock}), entry


def owned(clock: Clock, name: str, kinds: Sequence[str] = LASTING) -> list[Scheduled]:
    """Her entries of these kinds, soonest first."""
    return sorted((e for e in clock.entries if e.owner == name and e.kind in kinds), key=lambda e: (e.at, e.id))


def without(state: Holder, entries: Sequence[Scheduled]) -> Holder:
    """The campaign with these entries off its clock."""
    gone = {e.id for e in entries}
    if not gone:
        return state
    clock = state.clock.model_copy(update={"entries": tuple(e for e in state.clock.entries if e.id not in gone)})
    return state.model_copy(update={"clock": clock})


def restored(state: Holder, entry: Scheduled, **changes: Any) -> Holder:
    """A suspended entry back on the clock (its id kept), with these changes; never due before now."""
    entry = entry.model_copy(update={**changes, "at": max(int(changes.get("at", entry.at)), state.clock.now)})
    clock = state.clock.model_copy(update={"entries": (*state.clock.entries, entry)})
    return state.model_copy(update={"clock": clock})


def rounds_left(entry: Scheduled, now: int, rules: Ruleset) -> int:
    """The action rounds until an entry falls due (at least 1): AMB-03, a round is round_seconds."""
    return max(1, math.ceil((entry.at - now) / max(1, int(rules["round_seconds"]))))


def round_seconds(rules: Ruleset) -> int:
    return max(1, int(rules["round_seconds"]))


def up_again(state: Holder, character: Character, down: Sequence[str] = DOWN) -> tuple[Character, Holder]:
    """A character at more than 0 HP is no longer down: DYING and UNCONSCIOUS (or only the `down` given) leave her
    (unless a condition's own duration still holds her), and her dying and waking entries leave the clock. The dead
    lose what lasts."""
    name = character.name
    if not character.alive:
        return character, without(state, owned(state.clock, name))
    if character.hp <= 0:
        return character, state
    held = {e.data.get("condition") for e in owned(state.clock, name, (CONDITION_ENDS,))}
    conditions = [c for c in character.conditions if c not in down or c in held]
    if conditions != character.conditions:
        character = character.model_copy(update={"conditions": conditions})
    return character, without(state, owned(state.clock, name, (DYING, WAKE_UP)))


# -- the handlers -----------------------------------------------------------------------------------------------
def stamped(fire: Fire, events: Sequence[Event]) -> None:
    """A handler's facts, each with the moment it happened (for the log's `[day 1, 08:00]`)."""
    now = fire.campaign.clock.now
    fire.events += [replace(e, data={**e.data, "at": now}) for e in events]


@handler(DOOMED)
def _doomed(fire: Fire) -> None:
    """A wound's timer (a crit row's "dies in 1d4 rounds") ran out after the fight."""
    from furnace.characters.facts import fact
    from furnace.play.death import DEATH

    c = fire.character()
    if not c.alive:
        return
    fire.put(c.model_copy(update={"dead": "wound_timer"}))
    stamped(fire, [fact(DEATH, c, (), tuple(fire.entry.data.get("rules", ())), cause="wound_timer")])


@handler(CONDITION_ENDS)
def _condition_ends(fire: Fire) -> None:
    """A condition's rounds have run out: it leaves her."""
    from furnace.characters.facts import fact

    c = fire.character()
    name = str(fire.entry.data.get("condition", ""))
    if not c.alive or name not in c.conditions:
        return
    others = [e for e in owned(fire.campaign.clock, c.name, (CONDITION_ENDS,)) if e.data.get("condition") == name]
    if others:          # the same condition held longer by another cause: it stays until the last one ends
        return
    fire.put(c.model_copy(update={"conditions": [x for x in c.conditions if x != name]}))
    stamped(fire, [fact(CONDITION_OVER, c, (), (), condition=name)])


def dying_on_clock(state: Holder, mid: str, c: Character, turns: int, rules: Ruleset, *,
                   roll: dice.RollResult | None = None, at: int | None = None, entry: Scheduled | None = None,
                   ) -> tuple[Holder, list[Event]]:
    """F-DEATH-01 out of a fight: her d20 falls due each round (round_seconds) for the `turns` she has left; the
    timer is told to all or to the referee alone (option dying_timer_roll)."""
    from furnace.characters.facts import fact
    from furnace.play.death import open_timer

    every = round_seconds(rules)
    if entry is not None:
        state = restored(state, entry, remaining=turns, every=every, at=entry.at if at is None else at)
        eid = entry.id
    else:
        after = every if at is None else max(0, at - state.clock.now)
        state, eid = put_on_clock(state, DYING, after, c.name, every=every, times=turns,
                                  label=f"{c.name} is dying", data={"member": mid} if mid else {})
    told = fact(ON_CLOCK, c, (roll,) if roll else (), ("F-DEATH-01", "CF-12"), what="dying", count=turns,
                unit="round", entry=eid)
    return state, [told if open_timer(rules) else replace(told, audience="referee")]


def waking_on_clock(state: Holder, mid: str, c: Character, rng: DiceSource) -> tuple[Holder, list[Event]]:
    """H-HEAL-04: unconscious at 0 HP or less, she wakes after 1d6 hours (the Hazards chapter's `wake_up`)."""
    from furnace.characters.facts import fact
    from furnace.play.clock import HOUR

    hours = dice.roll("1d6", rng, label="hours")
    state, eid = put_on_clock(state, WAKE_UP, hours.total * HOUR, c.name, label=f"{c.name} wakes up",
                              data={"member": mid} if mid else {})
    return state, [fact(ON_CLOCK, c, (hours,), ("H-HEAL-04",), what="wake_up", count=hours.total, unit="hour",
                        entry=eid)]
