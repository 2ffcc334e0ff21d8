"""The campaign clock: one authoritative time, and everything with a duration scheduled on it.

Time is counted in seconds from the campaign's start. Units: the action round (option round_seconds),
the exploration turn (option exploration_turn_minutes, AMB-03), minute, hour, watch (4 hours), day,
week, month (30 days) and year (365 days). Anything with a duration — a torch, a disease's next save,
a bone knitting, Liquid Courage, a yearly aging save, a referee's timer — is a `Scheduled` entry;
`advance` moves time forward and fires what falls due, in order of time (then of scheduling), each
through the handler registered for its kind, as events with their rolls. Only moving forward burns
time; the referee can see and edit what remains (`remaining`, `reschedule`, `cancel`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from furnace.characters.character import Character
from furnace.dice import DiceSource
from furnace.errors import FurnaceError, UnknownNameError
from furnace.events import Event
from furnace.play.registry import Registry
from furnace.rules.ruleset import Ruleset

MINUTE, HOUR, DAY = 60, 3600, 86400
FIXED_UNITS = {"second": 1, "minute": MINUTE, "hour": HOUR, "watch": 4 * HOUR, "day": DAY, "week": 7 * DAY,
               "month": 30 * DAY, "year": 365 * DAY}
ALIASES = {"s": "second", "min": "minute", "h": "hour", "d": "day", "w": "week", "turn": "exploration_turn",
           "exploration turn": "exploration_turn", "rounds": "round"}
MAX_ADVANCE = 200 * 365 * DAY


class ClockError(FurnaceError):
    """A clock request the rules do not allow (going back in time, an unknown unit or entry)."""


def unit_seconds(unit: str, rules: Ruleset) -> int:
    name = unit.strip().lower().rstrip("s") if unit.strip().lower() not in ("s",) else "s"
    name = ALIASES.get(unit.strip().lower(), ALIASES.get(name, name))
    if name == "round":
        return int(rules["round_seconds"])
    if name == "exploration_turn":
        return int(rules["exploration_turn_minutes"]) * MINUTE
    if name not in FIXED_UNITS:
        raise ClockError(f"unknown unit {unit!r}; use round, turn, minute, hour, watch, day, week, month or year")
    return FIXED_UNITS[name]


class Scheduled(BaseModel):
    """Something due at a moment: what kind, whose, when, and whether it repeats."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: int
    kind: str
    owner: str = ""
    at: int
    every: int | None = None          # seconds between repeats
    remaining: int | None = None      # how many more times it fires (None: until cancelled)
    label: str = ""
    data: dict[str, Any] = Field(default_factory=dict)


class Clock(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    now: int = 0
    entries: tuple[Scheduled, ...] = ()
    next_id: int = 1

    def find(self, entry_id: int) -> Scheduled:
        for e in self.entries:
            if e.id == entry_id:
                return e
        raise UnknownNameError("clock entry", str(entry_id), [str(e.id) for e in self.entries])

    def describe(self, seconds: int | None = None) -> str:
        """'day 3, 14:20' (days from 1)."""
        t = self.now if seconds is None else seconds
        return f"day {t // DAY + 1}, {t % DAY // HOUR:02d}:{t % HOUR // MINUTE:02d}"


class Campaign(BaseModel):
    """What the clock acts on: the time and the characters (by name)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    clock: Clock = Field(default_factory=Clock)
    characters: dict[str, Character] = Field(default_factory=dict)
    flags: dict[str, Any] = Field(default_factory=dict)   # the referee's switches: hostile place, wilderness …


def schedule(campaign: Campaign, kind: str, *, after: int = 0, owner: str = "", every: int | None = None,
             times: int | None = None, label: str = "", data: dict[str, Any] | None = None) -> tuple[Campaign, int]:
    """Put something on the clock `after` seconds from now (repeating `every` seconds, `times` times)."""
    if after < 0:
        raise ClockError("nothing can be scheduled in the past")
    clock = campaign.clock
    entry = Scheduled(id=clock.next_id, kind=kind, owner=owner, at=clock.now + after, every=every,
                      remaining=times, label=label or kind, data=data or {})
    new = clock.model_copy(update={"entries": (*clock.entries, entry), "next_id": clock.next_id + 1})
    return campaign.model_copy(update={"clock": new}), entry.id


def cancel(campaign: Campaign, entry_id: int) -> Campaign:
    clock = campaign.clock
    clock.find(entry_id)
    return campaign.model_copy(update={"clock": clock.model_copy(
        update={"entries": tuple(e for e in clock.entries if e.id != entry_id)})})


def reschedule(campaign: Campaign, entry_id: int, *, after: int) -> Campaign:
    """The referee edits what remains: the entry now falls due `after` seconds from now."""
    if after < 0:
        raise ClockError("an entry cannot fall due in the past")
    clock = campaign.clock
    entry = clock.find(entry_id).model_copy(update={"at": clock.now + after})
    return campaign.model_copy(update={"clock": clock.model_copy(
        update={"entries": tuple(entry if e.id == entry_id else e for e in clock.entries)})})


def remaining(campaign: Campaign, entry_id: int) -> int:
    return campaign.clock.find(entry_id).at - campaign.clock.now


@dataclass
class Fire:
    """What a handler works on when its entry falls due (the public API stays immutable)."""

    campaign: Campaign
    rng: DiceSource
    rules: Ruleset
    entry: Scheduled
    events: list[Event] = field(default_factory=list)

    def character(self, name: str | None = None) -> Character:
        return self.campaign.characters[name or self.entry.owner]

    def put(self, character: Character) -> None:
        self.campaign = self.campaign.model_copy(
            update={"characters": {**self.campaign.characters, character.name: character}})

    def log(self, kind: str, who: str, what: str, rolls: tuple[Any, ...] = (), **data: Any) -> None:
        self.events.append(Event(kind, who, what, rolls, data={"time": self.campaign.clock.describe(), **data}))

    def schedule(self, kind: str, **kwargs: Any) -> int:
        self.campaign, entry_id = schedule(self.campaign, kind, **kwargs)
        return entry_id

    def stop_repeating(self) -> None:
        """A repeating entry that should not fire again (the torch is out, the disease has run)."""
        self.entry = self.entry.model_copy(update={"remaining": 0})


Handler = Callable[[Fire], None]
# each kind of entry fires through the handler its chapter registered (the chapters load on first look-up)
HANDLERS: Registry[Handler] = Registry("clock handler")


def handler(kind: str) -> Callable[[Handler], Handler]:
    return HANDLERS.register(kind)


@handler("timer")
def _timer(fire: Fire) -> None:
    """A referee's timer (F-OPT-07): when it runs out, the referee is told."""
    fire.log("timer", fire.entry.owner or "referee", f"timer '{fire.entry.label}' runs out: "
             f"{fire.entry.data.get('prompt', 'the referee decides what happens')}", referee_prompt=True)


def advance(campaign: Campaign, amount: int, unit: str, rng: DiceSource, rules: Ruleset,
            ) -> tuple[Campaign, list[Event]]:
    """Move time forward and fire everything that falls due, in order, with its rolls."""
    if amount < 0:
        raise ClockError("time only moves forward")
    span = amount * unit_seconds(unit, rules)
    if span > MAX_ADVANCE:
        raise ClockError("advance at most 200 years at a time")
    target = campaign.clock.now + span
    events: list[Event] = []
    while True:
        due = sorted((e for e in campaign.clock.entries if e.at <= target), key=lambda e: (e.at, e.id))
        if not due:
            break
        campaign, fired = _fire(campaign, due[0], rng, rules)
        events += fired
    clock = campaign.clock.model_copy(update={"now": target})
    return campaign.model_copy(update={"clock": clock}), events


def _fire(campaign: Campaign, entry: Scheduled, rng: DiceSource, rules: Ruleset) -> tuple[Campaign, list[Event]]:
    clock = campaign.clock.model_copy(update={
        "now": entry.at, "entries": tuple(e for e in campaign.clock.entries if e.id != entry.id)})
    fire = Fire(campaign.model_copy(update={"clock": clock}), rng, rules, entry)
    fn = HANDLERS.find(entry.kind)
    if fn is None:
        fire.log("referee", entry.owner or "referee", f"'{entry.label}' falls due (no rule handles {entry.kind})")
    elif entry.owner and entry.owner not in fire.campaign.characters and entry.data.get("needs_owner", True) \
            and entry.kind != "timer":
        pass   # the character has left the campaign: the entry lapses
    else:
        fn(fire)
    left = None if fire.entry.remaining is None else fire.entry.remaining - 1
    if fire.entry.every and (left is None or left > 0):
        again = fire.entry.model_copy(update={"at": entry.at + fire.entry.every, "remaining": left})
        fire.campaign = fire.campaign.model_copy(update={"clock": fire.campaign.clock.model_copy(
            update={"entries": (*fire.campaign.clock.entries, again)})})
    return fire.campaign, fire.events
