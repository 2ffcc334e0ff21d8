"""The campaign clock owns the party's state: time passes on the campaign, and what falls due acts on the roster.

The clock's rules (`furnace.play.clock`) and the Hazards chapter act on a `play.clock.Campaign`: the time, the
flags and the living characters by name (`CampaignState.clock_campaign()`). `run_clock` hands them that view and
writes back what they changed: the clock, the flags, and each changed character to her member of the roster
(a death recorded with its cause). So a torch burns out as the clock passes (H-LIGHT-02), a disease makes its
saves (H-DIS-04), rations are eaten and hunger counted (H-STARV-01..05), and travel moves the clock a day at a
time with its lost checks (H-TRAV-02).

Rations: `set_rations` gives a character days of food (`Character.extensions["gear"]["rations"]`) and puts two
daily entries on the clock: "rations" (a second before the day closes: a ration eaten, or none left and she goes
hungry) and the Hazards "daily_needs" that closes the day (hunger, thirst and sleep by hazards.needs).
"""

from __future__ import annotations

from collections.abc import Callable

from furnace import dice
from furnace.campaign.commands import put, rules_of
from furnace.campaign.days import ensure_day_ends
from furnace.campaign.gear import rations_of, with_gear
from furnace.campaign.handover import adopt_view
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Command
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.play.clock import ALIASES, DAY, Clock, Fire, Scheduled, cancel, handler, reschedule, schedule, unit_seconds
from furnace.play.clock import Campaign as ClockView
from furnace.play.clock import advance as clock_advance
from furnace.rules.ruleset import Ruleset

ClockFn = Callable[[ClockView, Ruleset], tuple[ClockView, list[Event]]]
MAX_RATIONS = 10_000

# the clock moves (`change`: advance, from `before` to `after` seconds), an entry is moved (edit: `entry`, its
# `label`, now `due`) or taken off (cancel), or the clock comes from a state file (import: `file`, `before`,
# `after`, its `entries` and `flags`)
CLOCK = declare("clock", change="public", before="public", after="public", entry="referee", label="referee",
                due="referee", file="referee", entries="referee", flags="referee",
                example={"change": "advance", "before": 0, "after": 5400, "label": "the ceiling", "file": "old.json",
                         "flags": {"wilderness": True}})
TIMER_SET = declare("timer_set", entry="referee", label="referee", count="referee", unit="referee",
                    seconds="referee", due="referee", prompt="referee",
                    example={"entry": 3, "label": "the ceiling gives way", "count": 3, "unit": "exploration_turn",
                             "seconds": 1800, "due": 1800, "prompt": "everyone NEAR takes 2d6"})
TRAVEL = declare("course_check", days="referee", intended="referee", actual="referee", lost="referee", day="referee",
                 example={"days": 3, "intended": "north", "actual": "east", "lost": True, "day": 3})
RATIONS = declare("rations", before="actor", after="actor", drank="actor", ate="actor", hungry="public",
                  example={"before": 2, "after": 5, "drank": None, "ate": False, "hungry": False})


# -- the view the clock acts on, and writing it back ------------------------------------------------------------
def clock_view(state: CampaignState) -> tuple[ClockView, dict[str, str]]:
    """The clock's view of the campaign and the member id of each character in it (by name). Two living
    characters of one name are refused: the clock knows characters by name."""
    ids: dict[str, str] = {}
    for member in state.roster.values():
        if member.status == "dead":
            continue
        name = member.character.name
        if name in ids:
            raise CampaignError(f"two living characters are named {name!r} ({ids[name]}, {member.id}): the clock "
                                "knows characters by name; rename one first")
        ids[name] = member.id
    return state.clock_campaign(), ids


def run_clock(state: CampaignState, fn: ClockFn, rules: Ruleset) -> tuple[CampaignState, list[Event]]:
    """Run a rule of the clock on the campaign and write back what it changed. Time does not move while an
    encounter runs (it moves by the fight's rounds): a rule that would move it is refused, with the reason. What
    lasts (`lasting.LASTING`) names its owner's member id (`data.member`)."""
    view, ids = clock_view(state)
    after, events = fn(ensure_day_ends(view, rules), rules)
    if after.clock.now != state.clock.now:
        not_in_a_fight(state, "move the clock on")
    after = ensure_day_ends(after, rules)      # a daily count begun has its end on the clock (F-CLR-07, AMB-14)
    state = state.model_copy(update={"clock": _owned_by_members(after.clock, ids), "flags": after.flags})
    for name, character in after.characters.items():
        member = state.roster.get(ids.get(name, ""))
        if member is not None and character != member.character:
            state = put(state, member, character, facts=[e for e in events if e.actor == name])
    return state, events


def not_in_a_fight(state: CampaignState, what: str) -> None:
    """Refuse what moves time or rests while an encounter runs: time in a fight moves by its rounds."""
    if state.encounter is not None:
        name = state.encounter.get("name", "a fight")
        raise CampaignError(f"{name} is in progress: time in a fight moves by its rounds, not by the clock; end it "
                            f"first (`furnace encounter end`), then {what}")


def _owned_by_members(clock: Clock, ids: dict[str, str]) -> Clock:
    """The clock with each lasting entry naming its owner's member id, where it did not yet."""
    from furnace.campaign.lasting import LASTING

    def named(e: Scheduled) -> Scheduled:
        if e.kind not in LASTING or "member" in e.data or e.owner not in ids:
            return e
        return e.model_copy(update={"data": {**e.data, "member": ids[e.owner]}})

    entries = tuple(named(e) for e in clock.entries)
    return clock if entries == clock.entries else clock.model_copy(update={"entries": entries})


def adopt(state: CampaignState, rng: DiceSource, rules: Ruleset) -> tuple[CampaignState, list[Event]]:
    """A campaign from before lasting state was kept, brought up to date (`handover.adopt_view`), written back as
    the clock writes."""
    return run_clock(state, lambda view, rules_: adopt_view(view, rng, rules_), rules)


def on_clock(fn: ClockFn) -> Command:
    """A rule of the clock as a command on the campaign, under the campaign's rules."""
    return lambda state: run_clock(state, fn, rules_of(state))


def for_member(who: str, make: Callable[[str], ClockFn]) -> Command:
    """A rule of the clock for one living member (by name or id): `make(name)` builds it for her name."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = state.member(who)
        if member.status == "dead":
            cause = member.death.cause if member.death else "the dead stay dead"
            raise CampaignError(f"{member.character.name} ({member.id}) is dead: {cause}")
        return run_clock(state, make(member.character.name), rules_of(state))

    return run


# -- time passes ------------------------------------------------------------------------------------------------
def unit_name(unit: str) -> str:
    """A unit of time as the clock reads it (`play.clock.unit_seconds`): second, minute, exploration_turn …"""
    low = unit.strip().lower()
    name = low.rstrip("s") if low != "s" else low
    return ALIASES.get(low, ALIASES.get(name, name))


def span_text(seconds: int) -> str:
    """'no time', '30 minutes', '8 hours', '1 day, 4 hours'."""
    if seconds <= 0:
        return "no time"
    parts = [(seconds // DAY, "day"), (seconds % DAY // 3600, "hour"), (seconds % 3600 // 60, "minute"),
             (seconds % 60, "second")]
    return ", ".join(f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n)


def advancing(amount: int, unit: str, rng: DiceSource) -> ClockFn:
    """Move the clock forward and fire what falls due, in order (`play.clock.advance`)."""

    def fn(view: ClockView, rules: Ruleset) -> tuple[ClockView, list[Event]]:
        start = view.clock.now
        view, adopted = adopt_view(view, rng, rules)
        after, events = clock_advance(view, amount, unit, rng, rules)
        return after, [*adopted, *events, Event(CLOCK, "", (), (), {"change": "advance", "before": start,
                                                                    "after": after.clock.now})]

    return fn


def timer(label: str, amount: str, unit: str, rng: DiceSource, prompt: str = "") -> ClockFn:
    """F-OPT-07: a referee's timer of `amount` (a number or dice, 1d4 by default) units."""

    def fn(view: ClockView, rules: Ruleset) -> tuple[ClockView, list[Event]]:
        roll = dice.roll(amount, rng, label="timer")
        seconds = roll.total * unit_seconds(unit, rules)
        after, entry = schedule(view, "timer", after=seconds, label=label, data={"prompt": prompt})
        rolls = (roll,) if roll.faces else ()
        return after, [Event(TIMER_SET, "", (), rolls, {"entry": entry, "label": label, "count": roll.total,
                                                        "unit": unit_name(unit), "seconds": seconds,
                                                        "due": after.clock.now + seconds, "prompt": prompt},
                             ("F-OPT-07",), audience="referee")]

    return fn


def editing(entry_id: int, seconds: int) -> ClockFn:
    """The referee changes what remains of an entry: it now falls due `seconds` from now."""

    def fn(view: ClockView, rules: Ruleset) -> tuple[ClockView, list[Event]]:
        after = reschedule(view, entry_id, after=seconds)
        entry = after.clock.find(entry_id)
        return after, [Event(CLOCK, "", (), (), {"change": "edit", "entry": entry_id, "label": entry.label,
                                                 "due": entry.at}, audience="referee")]

    return fn


def cancelling(entry_id: int) -> ClockFn:
    def fn(view: ClockView, rules: Ruleset) -> tuple[ClockView, list[Event]]:
        label = view.clock.find(entry_id).label
        return cancel(view, entry_id), [Event(CLOCK, "", (), (), {"change": "cancel", "entry": entry_id,
                                                                  "label": label}, audience="referee")]

    return fn


# -- the Hazards chapter on the clock ---------------------------------------------------------------------------
def lighting(source: str, turns: float | None = None) -> Callable[[str], ClockFn]:
    """H-LIGHT-02: she lights a torch, candle or lantern; it burns out on the clock."""
    from furnace.hazards.light import light

    return lambda name: lambda view, rules: light(view, name, source, rules, turns=turns)


def snuffing(entry_id: int) -> ClockFn:
    """AMB-81: a light put out keeps the turns it has left."""
    from furnace.hazards.light import snuff

    return lambda view, rules: snuff(view, entry_id, rules)


def infecting(disease: str, rng: DiceSource, *, exposed: bool = False) -> Callable[[str], ClockFn]:
    """H-DIS-03/04: infected (its saves go on the clock), or only exposed: a save vs. poison first."""
    from furnace.hazards.disease import expose, find_disease, infect

    def make(name: str) -> ClockFn:
        def fn(view: ClockView, rules: Ruleset) -> tuple[ClockView, list[Event]]:
            sick = find_disease(disease, rules)
            return expose(view, name, sick, rng, rules) if exposed else infect(view, name, sick, rules)

        return fn

    return make


def curing(disease: str) -> Callable[[str], ClockFn]:
    from furnace.hazards.disease import cure

    return lambda name: lambda view, rules: cure(view, name, disease)


def travelling(days: int, rng: DiceSource, *, trail: bool = False, heading: str | None = None) -> ClockFn:
    """H-TRAV-01..03: the party travels, the clock a day at a time after each morning's secret lost roll."""
    from furnace.hazards.travel import party_state, set_course, travel

    def fn(view: ClockView, rules: Ruleset) -> tuple[ClockView, list[Event]]:
        if heading is not None:
            view = set_course(view, heading)
        view, adopted = adopt_view(view, rng, rules)
        after, events = travel(view, days, rng, rules, wilderness=not trail)
        events = [*adopted, *events]
        party = party_state(after)
        return after, [*events, Event(TRAVEL, "", (), (), {"hidden": True, "days": days, "intended": party.intended,
                                                           "actual": party.actual, "lost": party.lost,
                                                           "day": party.day}, ("H-TRAV-02",), audience="referee")]

    return fn


# -- rations and daily needs (H-STARV-01..05) ---------------------------------------------------------------------
def feeding(rations: int, drank: bool | None = None) -> Callable[[str], ClockFn]:
    """She carries `rations` days of food (and drinks or not); each day's end eats one, then counts her needs."""
    if isinstance(rations, bool) or not isinstance(rations, int) or not 0 <= rations <= MAX_RATIONS:
        raise CampaignError(f"rations are a whole number of days from 0 to {MAX_RATIONS:,}, not {rations!r}")
    from furnace.hazards.needs import food_counted, record_needs, schedule_daily_needs

    def make(name: str) -> ClockFn:
        def fn(view: ClockView, rules: Ruleset) -> tuple[ClockView, list[Event]]:
            food_counted(rules)      # no hunger logged where no rule counts it (H-STARV-02)
            character = view.characters[name]
            before = rations_of(character)
            character = with_gear(character, rations=rations)
            if drank is not None:
                character = record_needs(character, drank=drank)
            view = view.model_copy(update={"characters": {**view.characters, name: character}})
            events = [fact(RATIONS, character, (), ("H-STARV-01",), before=before, after=rations, drank=drank)]
            if not _owned(view, "daily_needs", name):
                view, scheduled = schedule_daily_needs(view, name, rules)
                events += scheduled
            if not _owned(view, "rations", name):
                due = next(e.at for e in view.clock.entries if e.kind == "daily_needs" and e.owner == name)
                after = (due - 1 - view.clock.now) % DAY
                view, _ = schedule(view, "rations", after=after, owner=name, every=DAY,
                                   label=f"{name}: a day's rations")
            return view, events

        return fn

    return make


def _owned(view: ClockView, kind: str, name: str) -> bool:
    return any(e.kind == kind and e.owner == name for e in view.clock.entries)


@handler("rations")
def _eat(fire: Fire) -> None:
    """A day's ration eaten before the day closes; with none left she goes hungry (H-STARV-01/02)."""
    from furnace.hazards.needs import record_needs

    character = fire.character()
    if not character.alive or not fire.rules["hazards_starvation"]:    # hunger no longer counted: no ration eaten
        fire.stop_repeating()
        return
    left = rations_of(character)
    if left > 0:
        fire.put(with_gear(record_needs(character, ate=True), rations=left - 1))
        fire.fact(RATIONS, character.name, (), (), ("H-STARV-01",), before=left, after=left - 1, ate=True)
    else:
        fire.put(record_needs(character, ate=False))
        fire.fact(RATIONS, character.name, (), (), ("H-STARV-01",), before=0, after=0, ate=False, hungry=True)
