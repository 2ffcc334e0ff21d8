"""A member into the engine's encounter and back: what lasts is the encounter's while it runs, the clock's after.

`enter` makes a member's combatant from her character and her entries on the clock (`furnace.campaign.lasting`):
a dying entry makes her dying with the turns she has left, a wound's timer her `doomed_round`, a condition's
remaining rounds a condition held until that round; those entries are suspended while the encounter runs (time in
a fight moves by its rounds). `leave` writes what still lasts when the encounter ends back on the clock: a dying
countdown with the turns left, H-HEAL-04's waking (1d6 hours) for one knocked out under the hazards death model,
a fatal wound or bleeding (M-GRIEV-07/08) or a crit's doom with the rounds left, a condition with rounds left, a
broken bone's weeks (M-GRIEV-06, M-BONE-01; a second break of the same place adds 1d4 weeks, AMB-93).

A fight of the campaign does it for its party (`furnace.campaign.encounters`); a command out of a fight — damage,
stabilising, a dying character's round on the clock — does it on a `Scratch` encounter of one or two, so the rules
that run are the engine's and the campaign's death model's, never written twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from furnace import dice
from furnace.campaign import lasting
from furnace.campaign.days import MIDDLE_SEA_KEY
from furnace.campaign.lasting import (
    BLEEDING,
    BONE_HEALS,
    CONDITION_ENDS,
    DOOMED,
    DOWN,
    DYING,
    FATAL,
    ON_CLOCK,
    WAKE_UP,
    Holder,
    dying_on_clock,
    owned,
    put_on_clock,
    restored,
    round_seconds,
    rounds_left,
    stamped,
    up_again,
    waking_on_clock,
)
from furnace.campaign.state import CampaignState
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.events import Event
from furnace.play import aftermath
from furnace.play.clock import FIXED_UNITS, Fire, Scheduled, handler
from furnace.play.clock import Campaign as ClockView
from furnace.play.combatant import Combatant, from_character
from furnace.play.conditions import CARRIED, Held
from furnace.play.state import Encounter, Step
from furnace.rules.effects import CONDITIONS
from furnace.rules.ruleset import Ruleset

WEEK = FIXED_UNITS["week"]
TOLD_BY_THE_FIGHT = frozenset({"after_fight", "items_after_fight"})   # what a scratch encounter need not tell
KEPT_FACTS = frozenset({"doomed", "broken_bone", "dying"})   # the facts of a fight `leave` reads (kept by it)
MS = "middle_sea"                                   # the Middle Sea chapter's state on a character


# -- into the engine -------------------------------------------------------------------------------------------
def enter(character: Character, rules: Ruleset, cid: str, entries: Sequence[Scheduled], now: int, *,
          side: str = "party", round_now: int = 0, dying: int | None = None) -> Combatant:
    """Her combatant: her numbers (`from_character`), her Luck Dice, and what lasts from her entries (suspended
    while the encounter runs). Down or not is her conditions' and entries' word, not her HP's alone: at 0 HP or
    less she is dying (DYING), unconscious (UNCONSCIOUS, no duration) or up and helpless (awake after H-HEAL-04,
    knocked down at exactly 0 under the Middle Sea rules)."""
    c = from_character(character, side, rules, id=cid)
    ends = {str(e.data.get("condition")): e for e in entries if e.kind == CONDITION_ENDS}
    held = [h for h in c.held if not (h.source == CARRIED and (h.name in DOWN or h.name in ends))]
    held += [Held(name=name, source="", ending="round", until_round=round_now + rounds_left(e, now, rules))
             for name, e in ends.items()]
    timer = next((e for e in entries if e.kind == DYING), None)
    doom = [round_now + rounds_left(e, now, rules) for e in entries if e.kind in (DOOMED, FATAL, BLEEDING)]
    status: Any = "up"
    turns = None
    if character.hp <= 0 and ("DYING" in character.conditions or timer is not None):
        status, turns = "dying", (timer.remaining if timer is not None else dying) or 1
    elif "UNCONSCIOUS" in character.conditions and "UNCONSCIOUS" not in ends:
        status = "unconscious"
    return c.model_copy(update={"held": tuple(held), "status": status, "dying_turns": turns,
                                "doomed_round": min(doom) if doom else None, "luck_dice": character.luck_dice})


def suspend(state: CampaignState, name: str) -> tuple[CampaignState, list[Scheduled]]:
    """Her entries the encounter counts in its own rounds, taken off the clock while it runs."""
    entries = owned(state.clock, name, lasting.SUSPENDED)
    return lasting.without(state, entries), entries


# -- back onto the clock ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Leaving:
    """A member leaving an encounter: her id, her combatant at its end, the entries she entered with, the round it
    ended in (0: a scratch encounter, in which no round passed), the facts about her `leave` reads."""

    member: str
    combatant: Combatant
    suspended: tuple[Scheduled, ...] = ()
    round: int = 0
    facts: tuple[Mapping[str, Any], ...] = ()


def leave(state: CampaignState, character: Character, out: Leaving, rng: DiceSource, rules: Ruleset,
          ) -> tuple[CampaignState, Character, list[Event]]:
    """What still lasts when she leaves the encounter goes (back) on the clock; her character with the conditions
    and the Middle Sea state that go with it."""
    if not character.alive:
        return state, character, []
    c, events = out.combatant, []
    old = {e.kind: e for e in out.suspended}
    if c.status == "dying":
        unchanged = out.round == 0 and DYING in old and old[DYING].remaining == c.dying_turns
        state, new = dying_on_clock(state, out.member, character, c.dying_turns or 1, rules, entry=old.get(DYING),
                                    at=old[DYING].at if unchanged else state.clock.now + round_seconds(rules))
        told = out.round == 0 and any(f.get("kind") == "dying" for f in out.facts)   # the drop told its timer
        events += [] if unchanged or told else new
    elif c.status in ("unconscious", "stable") and character.hp <= 0 and rules["death_model"] == "hazards" \
            and not owned(state.clock, character.name, (WAKE_UP,)):
        state, new = waking_on_clock(state, out.member, character, rng)
        events += new
    state, character, new = _doom(state, character, out, rules)
    events += new
    state, character, new = _conditions(state, character, out, rules)
    events += new
    state, character, new = _breaks(state, character, out, rng, rules)
    return state, character, events + new


def _doom(state: CampaignState, character: Character, out: Leaving, rules: Ruleset,
          ) -> tuple[CampaignState, Character, list[Event]]:
    """A wound's timer with the rounds it has left: a fatal wound or bleeding (M-GRIEV-07/08, kept in the Middle
    Sea state for its cure) or a crit's doom."""
    c = out.combatant
    before = next((e for e in out.suspended if e.kind in (DOOMED, FATAL, BLEEDING)), None)
    if c.doomed_round is None:
        return state, character, []
    rounds = max(1, c.doomed_round - out.round)
    kind = _doom_kind(out, before)
    if before is not None and out.round == 0 and before.kind == kind:
        return restored(state, before), character, []
    data: dict[str, Any] = {"member": out.member}
    rules_ids: tuple[str, ...] = ()
    if kind in (FATAL, BLEEDING):
        data["timer"] = "bleeding" if kind == BLEEDING else "fatal_wound"
        rules_ids = ("M-GRIEV-08",) if kind == BLEEDING else ("M-GRIEV-07", "AMB-92")
    else:
        data["rules"] = list(_doom_rules(out))
    state, eid = put_on_clock(state, kind, rounds * round_seconds(rules), character.name, data=data,
                              label=f"{character.name} dies of her wound unless treated")
    if kind in (FATAL, BLEEDING):
        character = _with_timer(character, str(data["timer"]), rounds, eid, before)
    return state, character, [fact(ON_CLOCK, character, (), rules_ids, what=data.get("timer", "doomed"),
                                   count=rounds, unit="round", entry=eid)]


def _doom_kind(out: Leaving, before: Scheduled | None) -> str:
    told = [f for f in out.facts if f.get("kind") == "doomed"]
    if told:
        ids = set(told[-1].get("rules", ()))
        return BLEEDING if "M-GRIEV-08" in ids else FATAL if "M-GRIEV-07" in ids else DOOMED
    return before.kind if before is not None else DOOMED


def _doom_rules(out: Leaving) -> tuple[str, ...]:
    told = [f for f in out.facts if f.get("kind") == "doomed"]
    return tuple(str(r) for r in told[-1].get("rules", ())) if told else ()


def _with_timer(character: Character, kind: str, rounds: int, eid: int, before: Scheduled | None) -> Character:
    """The Middle Sea state's timer for this wound, now on the clock as `eid` (so that a cure can stop it)."""
    state = _ms(character)
    timers = [t for t in state.get("timers", []) if before is None or t.get("entry") != before.id]
    timers.append({"kind": kind, "amount": rounds, "unit": "round", "entry": eid})
    return _with_ms(character, {**state, "timers": timers})


def _conditions(state: CampaignState, character: Character, out: Leaving, rules: Ruleset,
                ) -> tuple[CampaignState, Character, list[Event]]:
    """A condition with rounds left when the encounter ends keeps her until they have run, on the clock."""
    events: list[Event] = []
    kept = {str(e.data.get("condition")): e for e in out.suspended if e.kind == CONDITION_ENDS}
    conditions = list(character.conditions)
    for h in out.combatant.held:
        if h.ending != "round" or h.until_round is None or h.until_round <= out.round or h.name not in CONDITIONS \
                or h.name == "DYING":
            continue
        if h.name not in conditions:
            conditions.append(h.name)
        if out.round == 0 and h.name in kept:
            state = restored(state, kept.pop(h.name))
            continue
        rounds = h.until_round - out.round
        state, eid = put_on_clock(state, CONDITION_ENDS, rounds * round_seconds(rules), character.name,
                                  label=f"{character.name}: {h.name} ends", data={"condition": h.name,
                                                                                  "member": out.member})
        events.append(fact(ON_CLOCK, character, (), ("AMB-03",), what="condition", condition=h.name, count=rounds,
                           unit="round", entry=eid))
    if conditions != character.conditions:
        character = character.model_copy(update={"conditions": conditions})
    return state, character, events


# -- broken bones (M-GRIEV-06, M-BONE-01, AMB-93) ---------------------------------------------------------------
def _breaks(state: CampaignState, character: Character, out: Leaving, rng: DiceSource, rules: Ruleset,
            ) -> tuple[CampaignState, Character, list[Event]]:
    """Each bone the encounter broke: a new break heals in the weeks its fact rolled (2d4+9); a place already broken
    before it takes 1d4 weeks more (AMB-93, the encounter could not know)."""
    events: list[Event] = []
    for f in out.facts:
        data = f.get("data", {})
        if f.get("kind") != "broken_bone" or data.get("averted") or data.get("repeat"):
            continue
        # only middle-sea's rules break bones: its chapter is loaded then, never for another profile's campaign
        from furnace.houserules.middle_sea.bones import break_injury

        where = str(data.get("location"))
        ms = _ms(character)
        breaks = dict(ms.get("breaks", {}))
        if where in breaks and breaks[where].get("entry") is not None:
            state, character, new = _again(state, character, where, rng)
            events += new
            continue
        breaks[where] = {"count": 1, "weeks": int(data.get("weeks") or 11), "injury": break_injury(where, rules),
                         "entry": None}
        character = _with_ms(character, {**ms, "breaks": breaks})
        state, character, new = _bone_on_clock(state, out.member, character, where)
        events += new
    return state, character, events


def _again(state: CampaignState, character: Character, where: str, rng: DiceSource,
           ) -> tuple[CampaignState, Character, list[Event]]:
    from furnace.houserules.middle_sea.bones import WOUND_SCHEDULED

    ms = _ms(character)
    bone = dict(ms["breaks"][where])
    added = dice.roll("1d4", rng, label="weeks added")
    bone.update(count=int(bone.get("count", 1)) + 1, weeks=int(bone.get("weeks", 0)) + added.total)
    entry = next((e for e in state.clock.entries if e.id == bone["entry"]), None)
    if entry is not None:
        state = lasting.without(state, [entry])
        state = restored(state, entry, at=entry.at + added.total * WEEK)
    character = _with_ms(character, {**ms, "breaks": {**ms["breaks"], where: bone}})
    return state, character, [fact(WOUND_SCHEDULED, character, (added,), ("AMB-93",), location=where,
                                   weeks=added.total, later=True, entry=bone["entry"])]


def _bone_on_clock(state: Holder, mid: str, character: Character, where: str,
                   ) -> tuple[Holder, Character, list[Event]]:
    ms = _ms(character)
    bone = dict(ms["breaks"][where])
    state, eid = put_on_clock(state, BONE_HEALS, int(bone["weeks"]) * WEEK, character.name,
                              label=f"{character.name}'s broken {where} heals",
                              data={"location": where, **({"member": mid} if mid else {})})
    bone["entry"] = eid
    character = _with_ms(character, {**ms, "breaks": {**ms["breaks"], where: bone}})
    return state, character, [fact(ON_CLOCK, character, (), ("M-GRIEV-06",), what="bone", location=where,
                                   count=int(bone["weeks"]), unit="week", entry=eid)]


def middle_sea_entries(state: Holder, mid: str, c: Character, rules: Ruleset,
                       ) -> tuple[Character, Holder, list[Event]]:
    """Wound timers and breaks kept in the Middle Sea state with no entry on the clock (a campaign from before)."""
    from furnace.play.clock import unit_seconds

    events: list[Event] = []
    ms = _ms(c)
    timers = []
    for t in ms.get("timers", []):
        if t.get("entry") is None:
            kind = BLEEDING if t.get("kind") == "bleeding" else FATAL
            seconds = int(t.get("amount", 1)) * unit_seconds(str(t.get("unit", "round")), rules)
            data = {"timer": t.get("kind"), **({"member": mid} if mid else {})}
            state, eid = put_on_clock(state, kind, seconds, c.name, data=data,
                                      label=f"{c.name} dies of her wound unless treated")
            t = {**t, "entry": eid}
            events.append(fact(ON_CLOCK, c, (), ("M-GRIEV-07",), what=str(t.get("kind")), count=int(t["amount"]),
                               unit=str(t.get("unit", "round")), entry=eid))
        timers.append(t)
    c = _with_ms(c, {**ms, "timers": timers}) if timers else c
    for where, bone in _ms(c).get("breaks", {}).items():
        if bone.get("entry") is None:
            state, c, new = _bone_on_clock(state, mid, c, where)
            events += new
    return c, state, events


def _ms(character: Character) -> dict[str, Any]:
    import copy

    return copy.deepcopy(dict(character.extensions.get(MS, {})))


def _with_ms(character: Character, state: Mapping[str, Any]) -> Character:
    return character.model_copy(update={"extensions": {**character.extensions, MS: dict(state)}})


# -- a scratch encounter out of a fight -------------------------------------------------------------------------
@dataclass
class Scratch:
    """The engine's rules on characters out of a fight: each a combatant (id: her name) of one side, NEAR one
    another, no round begun; the facts the engine records name her as out of a fight."""

    step: Step
    rules: Ruleset

    @classmethod
    def of(cls, characters: Sequence[Character], rules: Ruleset, rng: DiceSource, *,
           entries: Mapping[str, Sequence[Scheduled]] | None = None, now: int = 0,
           dying: Mapping[str, int] | None = None, room_dc: int | None = None) -> Scratch:
        combatants = tuple(enter(c, rules, c.name, (entries or {}).get(c.name, ()), now,
                                 dying=(dying or {}).get(c.name)) for c in characters)
        if dying:       # a dying round on the clock: the turns left are the entry's
            combatants = tuple(x.model_copy(update={"status": "dying", "dying_turns": dying[x.id]})
                               if x.id in dying else x for x in combatants)
        dc = int(rules["hazard_save_dc"]) if room_dc is None else room_dc
        return cls(Step(Encounter(room_dc=dc, combatants=combatants), rng, rules), rules)

    def written(self, character: Character) -> tuple[Character, list[Event]]:
        """Her character after what the engine did (`aftermath.settle`), and the facts: the engine's, then the
        lasting changes the fight's own tellers would repeat left out."""
        after, events = self.settled(character)
        return after, [*self.step.events, *events]

    def settled(self, character: Character) -> tuple[Character, list[Event]]:
        """Her character after what the engine did, and the facts of the writing back (no engine facts)."""
        after, events = aftermath.settle(character, self.step.enc.get(character.name), self.rules)
        return after, [e for e in events if e.kind not in TOLD_BY_THE_FIGHT]

    def kept_facts(self, cid: str) -> tuple[dict[str, Any], ...]:
        return kept_facts(self.step.events, cid)


def kept_facts(events: Sequence[Event], cid: str | None = None) -> tuple[dict[str, Any], ...]:
    """The facts `leave` reads (a doom's kind, the bones broken), as a fight keeps them: kind, actor, data, rules."""
    return tuple({"kind": e.kind, "actor": e.actor, "data": dict(e.data), "rules": list(e.rules)} for e in events
                 if e.kind in KEPT_FACTS and (cid is None or e.actor == cid))


# -- a dying character's round on the clock --------------------------------------------------------------------
@handler(DYING)
def _dying(fire: Fire) -> None:
    """F-DEATH-01 out of a fight: her d20 this round (the engine's `dying_turn` on a scratch encounter); a natural 20
    gets her up with 1 HP (and the injury table under dying_nat20_injury_roll, AMB-31), the last turn kills."""
    from furnace.play.death import dying_turn
    from furnace.play.injuries import roll_injury

    c = fire.character()
    if not c.alive or c.hp > 0 or "DYING" not in c.conditions:
        fire.stop_repeating()
        return
    scratch = Scratch.of([c], fire.rules, fire.rng, dying={c.name: fire.entry.remaining or 1})
    step = scratch.step
    dying_turn(step, c.name)
    if step.c(c.name).status == "up" and fire.rules["dying_nat20_injury_roll"]:
        roll_injury(step, c.name)
    after, events = scratch.written(c)
    fire.put(after)
    stamped(fire, events)
    if step.c(c.name).status != "dying":
        fire.stop_repeating()


# -- campaigns from before: timers for those already down --------------------------------------------------------
def adopt_view(view: ClockView, rng: DiceSource, rules: Ruleset) -> tuple[ClockView, list[Event]]:
    """A campaign from before lasting state was kept: every living character already down gets the entry the rules
    give her (a dying timer's 1d4 rounds, H-HEAL-04's 1d6 hours, a Middle Sea wound timer or break not yet on the
    clock), and one above 0 HP loses a stale DYING (not UNCONSCIOUS: a poison's deep sleep or a spell keeps a
    character with HP unconscious until its cause ends). Nothing happens to a campaign that needs none of it (no die
    is rolled)."""
    events: list[Event] = []
    for name in sorted(view.characters):
        c = view.characters[name]
        if not c.alive:
            continue
        c, view = up_again(view, c, down=("DYING",))
        if c.hp <= 0:
            c, view, new = _down_without_entry(view, c, rng, rules)
            events += new
        c, view, new = _middle_sea_unscheduled(view, c, rules)
        events += new
        if c != view.characters[name]:
            view = view.model_copy(update={"characters": {**view.characters, name: c}})
    return view, events


def _down_without_entry(view: ClockView, c: Character, rng: DiceSource, rules: Ruleset,
                        ) -> tuple[Character, ClockView, list[Event]]:
    model = str(rules["death_model"])
    if model == "furnace" and "DYING" in c.conditions and not owned(view.clock, c.name, (DYING,)):
        timer = dice.roll("1d4", rng, label="dying timer")
        view, events = dying_on_clock(view, "", c, timer.total, rules, roll=timer)
        return c, view, events
    if model == "hazards" and not owned(view.clock, c.name, (WAKE_UP,)):
        view, events = waking_on_clock(view, "", c, rng)
        conditions = c.conditions if "UNCONSCIOUS" in c.conditions else [*c.conditions, "UNCONSCIOUS"]
        return c.model_copy(update={"conditions": conditions}), view, events
    return c, view, []


def _middle_sea_unscheduled(state: ClockView, c: Character, rules: Ruleset,
                            ) -> tuple[Character, ClockView, list[Event]]:
    """Middle Sea wound timers and breaks a character carries with no entry on the clock (M-GRIEV-06/07/08)."""
    kept = c.extensions.get(MIDDLE_SEA_KEY, {})      # its chapter is loaded only when she carries its state
    if not any(t.get("entry") is None for t in kept.get("timers", [])) and not any(
            b.get("entry") is None for b in kept.get("breaks", {}).values()):
        return c, state, []
    return middle_sea_entries(state, "", c, rules)


__all__ = ["ON_CLOCK", "Leaving", "Scratch", "adopt_view", "enter", "kept_facts", "leave", "middle_sea_entries",
           "suspend"]
