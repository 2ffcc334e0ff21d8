"""Wilderness travel (H-TRAV-01..04, AMB-70, REF-30, REF-39).

At the start of each day of travel off trails, roads and known landmarks the referee rolls 1d6 in secret;
on a 1 the party goes off course: its actual heading drifts to a neighbour of the intended one (S → SE or
SW, 1d2), and the party does not know. The party keeps both headings; the lost state lasts until the
referee clears it (`find_way`). A party already off course rolls no more (it cannot get more lost than
the referee has decided). On a trail, a road or along a landmark there is no roll (H-TRAV-01).

Reading chosen: every event of the lost roll carries data {"hidden": True}: the players see neither the
roll nor the drift, only the day's travel and terrain (H-TRAV-04).
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel, ConfigDict, field_validator

from furnace import dice
from furnace.dice import DiceSource
from furnace.errors import FurnaceError
from furnace.events import Event, declare
from furnace.hazards.common import require, ruleset
from furnace.play.clock import Campaign, advance
from furnace.rules.ruleset import Ruleset

HEADINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
FLAG = "travel"                      # where a Campaign keeps the party's travel state (campaign.flags)

# the facts of travel: the day the party sees, and the referee's secret lost check
TRAVEL = declare("travel", day="public", heading="public", wilderness="public",
                 example={"day": 2, "heading": "S", "wilderness": False})
LOST_CHECK = declare("lost_check", day="referee", outcome="referee", total="referee", intended="referee",
                     actual="referee", lost="referee", hidden="referee",
                     example={"day": 3, "outcome": "off_course", "total": 1, "intended": "S", "actual": "SW",
                              "lost": True, "hidden": True})


class TravelError(FurnaceError):
    """A travel request the rules cannot follow (an unknown heading, a negative number of days)."""


class TravelState(BaseModel):
    """The party's two headings: the one it means to follow, and (when lost) the one it follows."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    intended: str = "N"
    actual: str | None = None        # None: on course; the referee alone sees this (H-TRAV-03)
    day: int = 0                     # days travelled

    @field_validator("intended", "actual")
    @classmethod
    def compass(cls, value: str | None) -> str | None:
        if value is not None and value.upper() not in HEADINGS:
            raise ValueError(f"a heading is one of {', '.join(HEADINGS)}, not {value!r}")
        return None if value is None else value.upper()

    @classmethod
    def toward(cls, heading: str) -> TravelState:
        """A party setting out on a heading (a user's typo is a TravelError, not a crash)."""
        if heading.strip().upper() not in HEADINGS:
            raise TravelError(f"a heading is one of {', '.join(HEADINGS)}, not {heading!r}")
        return cls(intended=heading.strip().upper())

    @property
    def lost(self) -> bool:
        return self.actual is not None and self.actual != self.intended

    @property
    def heading(self) -> str:
        """Where the party is really going."""
        return self.actual or self.intended


S = TypeVar("S", Campaign, TravelState)


def drift(heading: str, rng: DiceSource) -> tuple[str, dice.RollResult]:
    """H-TRAV-03: one compass point off (45°): 1d2, 1 → the next point anticlockwise, 2 → clockwise."""
    roll = dice.roll("1d2", rng, label="drift")
    i = HEADINGS.index(heading)
    return HEADINGS[(i + (-1 if roll.total == 1 else 1)) % len(HEADINGS)], roll


def travel_day(party: TravelState, rng: DiceSource, rules: Ruleset, wilderness: bool = True,
               ) -> tuple[TravelState, list[Event]]:
    """One day of travel: the secret lost roll in the wilderness (H-TRAV-02), none on a trail (H-TRAV-01)."""
    party = party.model_copy(update={"day": party.day + 1})
    shown = Event(TRAVEL, "", (), (), {"day": party.day, "heading": party.intended, "wilderness": wilderness},
                  ("H-TRAV-02",) if wilderness else ("H-TRAV-01",))
    if not wilderness:
        return party, [shown, _check(party, "trail", ("H-TRAV-01",))]
    if party.lost:
        return party, [shown, _check(party, "still_lost", ("AMB-70",), intended=party.intended,
                                     actual=party.actual)]
    return _lost_roll(party, shown, rng)


def _check(party: TravelState, outcome: str, rules: tuple[str, ...], rolls: tuple[dice.RollResult, ...] = (),
           **data: object) -> Event:
    """The referee's lost check of the day: hidden from the players (its roll too)."""
    return Event(LOST_CHECK, "", (), rolls, {"hidden": True, "day": party.day, "outcome": outcome, **data}, rules,
                 audience="referee")


def _lost_roll(party: TravelState, shown: Event, rng: DiceSource) -> tuple[TravelState, list[Event]]:
    roll = dice.roll("1d6", rng, label="lost")
    if roll.total != 1:
        return party, [shown, _check(party, "on_course", ("H-TRAV-02",), (roll,), lost=False, total=roll.total)]
    actual, way = drift(party.intended, rng)
    after = party.model_copy(update={"actual": actual})
    return after, [shown, _check(party, "off_course", ("H-TRAV-02", "H-TRAV-03"), (roll, way), lost=True,
                                 total=roll.total, intended=party.intended, actual=actual)]


def travel(party: S, days: int, rng: DiceSource, rules: Ruleset | None = None, wilderness: bool = True,
           ) -> tuple[S, list[Event]]:
    """Travel `days` days. A Campaign keeps the party state in flags["travel"], and its clock moves a day at a
    time after each morning's lost roll, so what falls due on the way (food, torches, disease) is in order."""
    rules = ruleset(rules)
    require(rules, "hazards_travel", "H-TRAV-02", "the lost roll")
    if days < 0:
        raise TravelError("travel at least 0 days")
    if isinstance(party, TravelState):
        return _travel_state(party, days, rng, rules, wilderness)
    return _travel_campaign(party, days, rng, rules, wilderness)


def _travel_state(party: TravelState, days: int, rng: DiceSource, rules: Ruleset, wilderness: bool,
                  ) -> tuple[TravelState, list[Event]]:
    events: list[Event] = []
    for _ in range(days):
        party, new = travel_day(party, rng, rules, wilderness)
        events += new
    return party, events


def _travel_campaign(campaign: Campaign, days: int, rng: DiceSource, rules: Ruleset, wilderness: bool,
                     ) -> tuple[Campaign, list[Event]]:
    party = party_state(campaign)
    events: list[Event] = []
    for _ in range(days):
        party, new = travel_day(party, rng, rules, wilderness)
        campaign = set_party(campaign, party)
        events += new
        campaign, fired = advance(campaign, 1, "day", rng, rules)
        events += fired
    return campaign, events


def party_state(campaign: Campaign) -> TravelState:
    return TravelState.model_validate(campaign.flags.get(FLAG, {}))


def set_party(campaign: Campaign, party: TravelState) -> Campaign:
    return campaign.model_copy(update={"flags": {**campaign.flags, FLAG: party.model_dump()}})


def set_course(party: S, heading: str) -> S:
    """The players choose where to go; a lost party keeps its drift (it turns by the same error)."""
    if isinstance(party, Campaign):
        return set_party(party, set_course(party_state(party), heading))
    state = TravelState.toward(heading).model_copy(update={"day": party.day})
    if not party.lost:
        return state
    offset = HEADINGS.index(party.heading) - HEADINGS.index(party.intended)
    return state.model_copy(update={"actual": HEADINGS[(HEADINGS.index(state.intended) + offset) % len(HEADINGS)]})


def find_way(party: S) -> S:
    """The referee clears the lost state: the party knows where it is again (H-TRAV-03, REF-30)."""
    if isinstance(party, Campaign):
        return set_party(party, find_way(party_state(party)))
    return party.model_copy(update={"actual": None})
