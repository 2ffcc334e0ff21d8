"""The campaign clock: one authoritative time, and everything with a duration scheduled on it.

Time is counted in seconds from the campaign's start. Units: the action round (option round_seconds),
the exploration turn (option exploration_turn_minutes, AMB-03), minute, hour, watch (4 hours), day,
week, month (30 days) and year (365 days). Anything with a duration — a torch, a disease's next save,
a bone knitting, Liquid Courage, a yearly aging save, a referee's timer — is a `Scheduled` entry;
`advance` moves time forward and fires what falls due, in order of time (then of scheduling), each
through the handler registered for its kind, as events with their rolls. Only moving forward burns
time; the referee can see and edit what remains (`remaining`, `reschedule`, `cancel`).

Bounded before any work: an entry falls due at a time from 0 to `MAX_TIME` and repeats at least every
second; a clock holds at most `MAX_ENTRIES` entries; one advance spans at most `MAX_ADVANCE` (200 years)
and is refused, before anything fires, when the entries' periods say it would fire more than
`MAX_FIRINGS` times (or `MAX_WORK` firings × entries); firings that handlers schedule on the way count too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from furnace.characters.character import Character
from furnace.dice import DiceSource
from furnace.errors import FurnaceError, UnknownNameError
from furnace.events import Audience, Event, Part, declare
from furnace.play import luck
from furnace.play.registry import Registry
from furnace.play.timers import TIMER_OUT
from furnace.rules.effects import shown
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import MAX_DATA_VALUES, check_shape

MINUTE, HOUR, DAY = 60, 3600, 86400
FIXED_UNITS = {"second": 1, "minute": MINUTE, "hour": HOUR, "watch": 4 * HOUR, "day": DAY, "week": 7 * DAY,
               "month": 30 * DAY, "year": 365 * DAY}
ALIASES = {"s": "second", "min": "minute", "h": "hour", "d": "day", "w": "week", "turn": "exploration_turn",
           "exploration turn": "exploration_turn", "rounds": "round"}
MAX_ADVANCE = 200 * 365 * DAY     # one advance
MAX_TIME = 10_000 * 365 * DAY     # the latest moment a campaign's clock can reach: ten thousand years
MAX_ENTRIES = 1_000               # entries on one clock
MAX_FIRINGS = 20_000              # firings in one advance: a year of daily needs for a party of 50
MAX_WORK = 2_000_000              # firings × entries: each firing looks through every entry


class ClockError(FurnaceError):
    """A clock request the rules do not allow (going back in time, an unknown unit or entry)."""


def unit_seconds(unit: str, rules: Ruleset) -> int:
    """The seconds in one unit (a round and an exploration turn by the options in force)."""
    if not isinstance(unit, str):
        raise ClockError(f"a unit is a word (round, turn, minute …), not {type(unit).__name__}")
    name = unit.strip().lower().rstrip("s") if unit.strip().lower() not in ("s",) else "s"
    name = ALIASES.get(unit.strip().lower(), ALIASES.get(name, name))
    if name == "round":
        return int(rules["round_seconds"])
    if name == "exploration_turn":
        return int(rules["exploration_turn_minutes"]) * MINUTE
    if name not in FIXED_UNITS:
        raise ClockError(f"unknown unit {shown(unit)}; use round, turn, minute, hour, watch, day, week, month or year")
    return FIXED_UNITS[name]


class Scheduled(BaseModel):
    """Something due at a moment: what kind, whose, when, and whether it repeats."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    id: int = Field(ge=1, le=10**12)
    kind: str = Field(min_length=1, max_length=64)
    owner: str = Field("", max_length=100)
    at: int = Field(le=MAX_TIME)                               # not before the clock's time (Clock checks)
    every: int | None = Field(None, ge=1, le=MAX_ADVANCE)      # seconds between repeats
    remaining: int | None = Field(None, ge=0, le=10**9)        # how many more times (None: until cancelled)
    label: str = Field("", max_length=200)
    data: dict[str, Any] = Field(default_factory=dict)

    @field_validator("data", mode="before")
    @classmethod
    def plain_data(cls, value: Any) -> Any:
        if isinstance(value, dict):
            check_shape(value, "data", max_values=MAX_DATA_VALUES)
        return value


class Clock(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    now: int = Field(0, ge=0, le=MAX_TIME)
    entries: tuple[Scheduled, ...] = Field((), max_length=MAX_ENTRIES)
    next_id: int = Field(1, ge=1, le=10**12)

    @model_validator(mode="after")
    def runs_forward(self) -> Clock:
        """Every entry falls due no earlier than now (else the clock could never get past it)."""
        for i, e in enumerate(self.entries):
            if e.at < self.now:
                raise ValueError(f"entries.{i}.at: #{e.id} falls due before the clock's time ({e.at} < {self.now})")
        return self

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

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    clock: Clock = Field(default_factory=Clock)
    characters: dict[str, Character] = Field(default_factory=dict)
    flags: dict[str, Any] = Field(default_factory=dict)   # the referee's switches: hostile place, wilderness …


def campaign_from_data(data: Any, path: str = "<campaign>") -> Campaign:
    """A campaign (its clock and characters) from a mapping, such as a state file's JSON; anything out of
    range (an entry repeating every −1 s, one due before the clock's time, too many entries) is a
    `DataFileError` naming the field."""
    from furnace.errors import DataFileError, from_validation

    if not isinstance(data, dict):
        raise DataFileError(path, "a campaign is a mapping with clock, characters and flags")
    try:
        check_shape(data, "the campaign", max_values=1_000_000, max_depth=64)
    except ValueError as exc:
        raise DataFileError(path, str(exc)) from None
    try:
        return Campaign.model_validate(data)
    except ValidationError as exc:
        raise from_validation(path, exc) from None


def schedule(campaign: Campaign, kind: str, *, after: int = 0, owner: str = "", every: int | None = None,
             times: int | None = None, label: str = "", data: dict[str, Any] | None = None) -> tuple[Campaign, int]:
    """Put something on the clock `after` seconds from now (repeating `every` seconds, `times` times)."""
    _whole("after", after, 0, MAX_TIME)
    if every is not None:
        _whole("every", every, 1, MAX_ADVANCE)
    if times is not None:
        _whole("times", times, 0, 10**9)
    clock = campaign.clock
    if len(clock.entries) >= MAX_ENTRIES:
        raise ClockError(f"the clock holds at most {MAX_ENTRIES:,} entries; cancel some first")
    if clock.now + after > MAX_TIME:
        raise ClockError(f"after: {after:,} seconds from now is past the clock's end "
                         f"({MAX_TIME // (365 * DAY):,} years)")
    try:
        entry = Scheduled(id=clock.next_id, kind=kind, owner=owner, at=clock.now + after, every=every,
                          remaining=times, label=label or kind, data=data or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(x) for x in first["loc"])
        raise ClockError(f"{field}: {str(first['msg']).removeprefix('Value error, ')}") from None
    new = clock.model_copy(update={"entries": (*clock.entries, entry), "next_id": clock.next_id + 1})
    return campaign.model_copy(update={"clock": new}), entry.id


def cancel(campaign: Campaign, entry_id: int) -> Campaign:
    clock = campaign.clock
    clock.find(entry_id)
    return campaign.model_copy(update={"clock": clock.model_copy(
        update={"entries": tuple(e for e in clock.entries if e.id != entry_id)})})


def reschedule(campaign: Campaign, entry_id: int, *, after: int) -> Campaign:
    """The referee edits what remains: the entry now falls due `after` seconds from now."""
    _whole("after", after, 0, MAX_TIME - campaign.clock.now)
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
        """Her new state; her player's other characters take her Luck Dice and streak (F-LUCK-01, luck_owner)."""
        characters = luck.shared({**self.campaign.characters, character.name: character}, character, self.rules)
        self.campaign = self.campaign.model_copy(update={"characters": characters})

    def fact(self, kind: str, actor: str = "", targets: tuple[str, ...] = (), rolls: tuple[Any, ...] = (),
             rules: tuple[str, ...] = (), *, audience: Audience = "all", **data: Any) -> None:
        """A fact that falls due on the clock: `actor` and `targets` are characters of the campaign (by name)."""
        cast = {n: Part(n, "pc", self.campaign.characters[n].player or "") for n in (actor, *targets)
                if n in self.campaign.characters}
        self.events.append(Event(kind, actor, targets, rolls, {"at": self.campaign.clock.now, **data}, rules, cast,
                                 audience))

    def schedule(self, kind: str, **kwargs: Any) -> int:
        self.campaign, entry_id = schedule(self.campaign, kind, **kwargs)
        return entry_id

    def stop_repeating(self) -> None:
        """A repeating entry that should not fire again (the torch is out, the disease has run)."""
        self.entry = self.entry.model_copy(update={"remaining": 0})


Handler = Callable[[Fire], None]
UNHANDLED = declare("unhandled", label="referee", entry_kind="referee", example={"label": "x", "entry_kind": "y"})
# each kind of entry fires through the handler its chapter registered (the chapters load on first look-up)
HANDLERS: Registry[Handler] = Registry("clock handler")


def handler(kind: str) -> Callable[[Handler], Handler]:
    return HANDLERS.register(kind)


@handler("timer")
def _timer(fire: Fire) -> None:
    """A referee's timer (F-OPT-07): when it runs out, the referee is told."""
    shown = bool(fire.entry.data.get("shown"))
    fire.fact(TIMER_OUT, fire.entry.owner if fire.entry.owner in fire.campaign.characters else "", (), (),
              ("F-OPT-07",), audience="all" if shown else "referee", label=fire.entry.label, shown=shown,
              prompt=str(fire.entry.data.get("prompt", "")), referee_prompt=True)


def _whole(name: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClockError(f"{name}: {shown(value)} is not a whole number")
    if not lo <= value <= hi:
        raise ClockError(f"{name}: {value:,} is not from {lo:,} to {hi:,}")
    return value


def _times(entry: Scheduled, target: int) -> int:
    """How many times one entry falls due up to `target`, from its period and the times it has left."""
    if entry.at > target:
        return 0
    if not entry.every:
        return 1
    times = 1 + (target - entry.at) // entry.every
    return times if entry.remaining is None else min(times, max(entry.remaining, 1))


def firings(campaign: Campaign, seconds: int) -> int:
    """How many times the entries now on the clock fall due within `seconds` (repeats included), from their
    periods, without firing anything."""
    target = campaign.clock.now + seconds
    return sum(_times(e, target) for e in campaign.clock.entries)


def check_advance(campaign: Campaign, amount: int, unit: str, rules: Ruleset) -> int:
    """The seconds an advance spans, or a `ClockError` before anything fires: a negative or too long span,
    or more firings than `MAX_FIRINGS` (or `MAX_WORK` firings × entries) by the entries' own periods."""
    _whole("amount", amount, 0, MAX_ADVANCE)
    span = amount * unit_seconds(unit, rules)
    if span > MAX_ADVANCE:
        raise ClockError(f"advance at most 200 years at a time, not {amount:,} {unit}")
    if campaign.clock.now + span > MAX_TIME:
        raise ClockError(f"the clock ends after {MAX_TIME // (365 * DAY):,} years")
    count = firings(campaign, span)
    entries = max(1, len(campaign.clock.entries))
    if count > MAX_FIRINGS or count * entries > MAX_WORK:
        busiest = max(campaign.clock.entries, key=lambda e: _times(e, campaign.clock.now + span))
        every = f", repeating every {busiest.every:,} seconds" if busiest.every else ""
        raise ClockError(f"advancing {amount:,} {unit} would fire {count:,} times among {entries:,} entries "
                         f"(at most {MAX_FIRINGS:,} firings, or {MAX_WORK:,} firings × entries); the busiest is "
                         f"#{busiest.id} '{busiest.label}'{every}; advance in smaller steps")
    return span


def advance(campaign: Campaign, amount: int, unit: str, rng: DiceSource, rules: Ruleset,
            ) -> tuple[Campaign, list[Event]]:
    """Move time forward and fire everything that falls due, in order, with its rolls. Refused before
    anything fires when it would fire too often (`check_advance`); firings that handlers add on the way
    count towards the same limit."""
    if isinstance(amount, int) and not isinstance(amount, bool) and amount < 0:
        raise ClockError("time only moves forward")
    span = check_advance(campaign, amount, unit, rules)
    target = campaign.clock.now + span
    events: list[Event] = []
    fired_count = 0
    while True:
        due = [e for e in campaign.clock.entries if e.at <= target]
        if not due:
            break
        fired_count += 1
        if fired_count > MAX_FIRINGS:
            raise ClockError(f"advancing {amount:,} {unit} fired more than {MAX_FIRINGS:,} times (entries scheduled "
                             "while firing added more); advance in smaller steps")
        campaign, fired = _fire(campaign, min(due, key=lambda e: (e.at, e.id)), rng, rules)
        events += fired
    clock = campaign.clock.model_copy(update={"now": target})
    return campaign.model_copy(update={"clock": clock}), events


def _fire(campaign: Campaign, entry: Scheduled, rng: DiceSource, rules: Ruleset) -> tuple[Campaign, list[Event]]:
    clock = campaign.clock.model_copy(update={
        "now": entry.at, "entries": tuple(e for e in campaign.clock.entries if e.id != entry.id)})
    fire = Fire(campaign.model_copy(update={"clock": clock}), rng, rules, entry)
    fn = HANDLERS.find(entry.kind)
    if fn is None:
        fire.fact(UNHANDLED, "", audience="referee", label=entry.label, entry_kind=entry.kind)
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
