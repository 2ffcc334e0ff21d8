"""Broken bones, severed limbs and fatal wounds on the campaign clock (RULES.md M.3).

`schedule_grievous` puts a grievous result on a campaign: a `bone_heals` entry when the broken bone has knit
(2d4+9 weeks, M-GRIEV-06, M-BONE-01), moved later by a repeat break (AMB-93), and a `fatal_wound` (M-GRIEV-07,
AMB-92) or `bleeding_out` entry (M-GRIEV-08, M-SEVER-01) for each death that comes unless treated; `wound` is
`take_blow` on a campaign's character, then `schedule_grievous`. Importing the module registers the handlers of
those three kinds of entry with `furnace.play.clock`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.houserules.middle_sea.common import _member, _put, _rules, state_of, with_state
from furnace.houserules.middle_sea.grievous_injury import Grievous, Timer
from furnace.houserules.middle_sea.zero_hp import take_blow
from furnace.play.clock import (
    FIXED_UNITS,
    Campaign,
    Fire,
    handler,
    remaining,
    reschedule,
    schedule,
    unit_seconds,
)
from furnace.play.death import DEATH
from furnace.rules.effects import Condition, Lasting
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import Row

WEEK = FIXED_UNITS["week"]
TIMER_KINDS = {"fatal_wound": "fatal_wound", "bleeding": "bleeding_out"}
# what a wound put on the campaign clock: a death timer (`timer` fatal_wound or bleeding, in `amount` `unit`s), a
# bone's healing (`location`, in `weeks`), or a repeat break that moves it `later` by `weeks`; `entry` its number
WOUND_SCHEDULED = declare("wound_scheduled", timer="public", amount="actor", unit="public", location="public",
                          weeks="actor", later="public", entry="referee",
                          example={"timer": "fatal_wound", "amount": 4, "unit": "exploration_turn", "location": "",
                                   "weeks": 0, "later": False, "entry": 3})
BONE_HEALS = declare("bone_heals", location="public", breaks="actor", example={"location": "R. Leg", "breaks": 2})


def _schedule_timers(campaign: Campaign, character: Character, state: dict[str, Any], rules: Ruleset,
                     events: list[Event]) -> tuple[Campaign, list[Timer]]:
    name = character.name
    done: list[Timer] = []
    for t in state.get("timers", []):
        if t.get("entry") is not None:
            continue
        campaign, t["entry"] = schedule(campaign, TIMER_KINDS[t["kind"]], owner=name,
                                        after=int(t["amount"]) * unit_seconds(str(t["unit"]), rules),
                                        label=f"{name} dies of the {t['kind'].replace('_', ' ')} unless treated",
                                        data={"timer": t["kind"]})
        done.append(Timer(t["kind"], int(t["amount"]), str(t["unit"]), t["entry"]))
        events.append(fact(WOUND_SCHEDULED, character, (), ("M-GRIEV-08",) if t["kind"] == "bleeding" else
                           ("M-GRIEV-07",), timer=t["kind"], amount=int(t["amount"]), unit=str(t["unit"]),
                           entry=t["entry"]))
    return campaign, done


def _schedule_bone(campaign: Campaign, character: Character, state: dict[str, Any], result: Grievous,
                   events: list[Event]) -> Campaign:
    name = character.name
    bone = state.get("breaks", {}).get(result.location or "")
    if result.band != "broken_bone" or bone is None or result.heal_weeks is None:
        return campaign
    entry = bone.get("entry")
    if entry is not None and any(e.id == entry for e in campaign.clock.entries):
        if result.repeat_break:
            campaign = reschedule(campaign, entry, after=remaining(campaign, entry) + result.heal_weeks * WEEK)
            events.append(fact(WOUND_SCHEDULED, character, (), ("AMB-93",), location=result.location,
                               weeks=result.heal_weeks, later=True, entry=entry))
        return campaign
    campaign, bone["entry"] = schedule(campaign, "bone_heals", owner=name, after=int(bone["weeks"]) * WEEK,
                                       label=f"{name}'s broken {result.location} heals",
                                       data={"location": result.location})
    events.append(fact(WOUND_SCHEDULED, character, (), ("M-GRIEV-06",), location=result.location,
                       weeks=int(bone["weeks"]), entry=bone["entry"]))
    return campaign


def schedule_grievous(campaign: Campaign, result: Grievous, rules: Ruleset | None = None,
                      ) -> tuple[Campaign, Grievous]:
    """Put a result on the campaign: the character, a `bone_heals` entry (moved later by a repeat break) and a
    `fatal_wound` or `bleeding_out` entry for each death timer not yet on the clock."""
    rules = _rules(rules)
    character = result.character
    state = state_of(character)
    events = list(result.events)
    campaign, timers = _schedule_timers(campaign, character, state, rules, events)
    campaign = _schedule_bone(campaign, character, state, result, events)
    character = with_state(character, state)
    return _put(campaign, character), replace(result, character=character, timers=tuple(timers) or result.timers,
                                              events=tuple(events))


def wound(campaign: Campaign, name: str, damage: int, rng: DiceSource, rules: Ruleset | None = None,
          **options: Any) -> tuple[Campaign, Grievous]:
    """`take_blow` on a campaign's character, then `schedule_grievous` (options as take_blow's)."""
    rules = _rules(rules)
    return schedule_grievous(campaign, take_blow(_member(campaign, name), damage, rng, rules, **options), rules)


@handler("bone_heals")
def _bone_heals(fire: Fire) -> None:
    """M-GRIEV-06, AMB-93: the location has knit; every break there and its effect end: the lasting injury, the
    modifiers a fight kept for it (a rib's −3 to hit and damage) and the conditions it held (a leg's CANT_MOVE, an
    arm's CANT_USE_OBJECTS) unless another break still holds them."""
    c = fire.character()
    state = state_of(c)
    location = str(fire.entry.data.get("location"))
    bone = state.get("breaks", {}).pop(location, None)
    if bone is None:
        return
    fire.put(with_state(mended(c, location, str(bone.get("injury", "")), state, fire.rules), state))
    fire.fact(BONE_HEALS, c.name, (), (), ("M-GRIEV-06",), location=location, breaks=int(bone["count"]))


def mended(c: Character, location: str, injury: str, state: dict[str, Any], rules: Ruleset) -> Character:
    """The character with a healed break's effects gone (`state`: her Middle Sea state, the break taken out)."""
    still = set().union(*(bone_conditions(where, rules) for where in state.get("breaks", {}))) \
        if state.get("breaks") else set()
    gone = bone_conditions(location, rules) - still
    fight = dict(c.extensions.get("fight", {}))
    held = [h for h in fight.get("held", []) if not (isinstance(h, dict) and h.get("source") == injury)]
    fight = {**fight, "held": held} if held else {k: v for k, v in fight.items() if k != "held"}
    extensions = {**{k: v for k, v in c.extensions.items() if k != "fight"}, **({"fight": fight} if fight else {})}
    return c.model_copy(update={"injuries": [i for i in c.injuries if i != injury],
                                "conditions": [x for x in c.conditions if x not in gone], "extensions": extensions})


def bone_row(where: str, rules: Ruleset) -> Row | None:
    """The broken-bone table's row of this place (M-TAB-02 data.location), or None."""
    table = rules.tables.get("broken-bone")
    return next((r for r in table.rows if str(r.data.get("location", r.span)) == where), None)


def bone_conditions(where: str, rules: Ruleset) -> set[str]:
    """The conditions a break of this place holds until it heals (a leg's CANT_MOVE, an arm's CANT_USE_OBJECTS)."""
    row = bone_row(where, rules)
    found: set[str] = set()
    for e in row.effect_list() if row else ():
        if isinstance(e, Lasting):
            found |= {x.name for x in e.effects if isinstance(x, Condition)}
    return found


def break_injury(where: str, rules: Ruleset) -> str:
    """The lasting injury a break of this place gives (M-TAB-02: 'broken rib', 'broken right leg' …)."""
    row = bone_row(where, rules)
    found = next((e for e in row.effect_list() if isinstance(e, Lasting)), None) if row else None
    return found.name if found is not None else f"broken {where.lower()}"


@handler("fatal_wound")
@handler("bleeding_out")
def _death_comes(fire: Fire) -> None:
    """M-GRIEV-07 / M-GRIEV-08: the time ran out with no cure."""
    c = fire.character()
    state = state_of(c)
    timers = state.get("timers", [])
    if not c.alive or not any(t.get("entry") == fire.entry.id for t in timers):
        return
    state["timers"] = [t for t in timers if t.get("entry") != fire.entry.id]
    bled = fire.entry.kind == "bleeding_out"
    how = ("bled to death from a severed limb (M-GRIEV-08)" if bled
           else "died of a fatal wound: no Cure Serious or Critical Wounds in time (M-GRIEV-07)")
    fire.put(with_state(c.model_copy(update={"dead": how}), state))
    fire.fact(DEATH, c.name, (), (), ("M-GRIEV-08",) if bled else ("M-GRIEV-07",),
              cause="bled_out" if bled else "fatal_wound")
