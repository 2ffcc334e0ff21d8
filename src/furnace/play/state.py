"""The encounter's state, and the working context of one action.

`Encounter` is immutable; an engine function takes one and returns the next with the events that
explain the change. Inside one action the engine works on a `Step`, which gathers the new state and
the events, so that each rule is a short function.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.errors import IllegalActionError
from furnace.events import Event
from furnace.play.combatant import ZONES, Combatant
from furnace.rules.ruleset import Ruleset

InitiativeModel = Literal["group", "simultaneous"]


class Encounter(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    room_dc: int = 12
    round: int = 0
    combatants: tuple[Combatant, ...]
    initiative: InitiativeModel = "group"
    phases: tuple[tuple[str, ...], ...] = ()      # who acts in which phase of the round (side names)
    last: tuple[str, ...] = ()                    # who acts after every phase this round (LAST_TO_ACT)
    surprised: tuple[str, ...] = ()
    morale_tested: tuple[str, ...] = ()           # monster sides that have made their morale roll
    winner: str | None = None
    over: bool = False

    def get(self, cid: str) -> Combatant:
        for c in self.combatants:
            if c.id == cid:
                return c
        raise IllegalActionError(f"no combatant {cid!r}; known: {', '.join(c.id for c in self.combatants)}")

    def put(self, combatant: Combatant) -> Encounter:
        return self.model_copy(update={"combatants": tuple(combatant if c.id == combatant.id else c
                                                           for c in self.combatants)})

    @property
    def sides(self) -> list[str]:
        return list(dict.fromkeys(c.side for c in self.combatants))

    def enemies_of(self, c: Combatant) -> list[Combatant]:
        return [o for o in self.combatants if o.side != c.side and o.active]

    def allies_of(self, c: Combatant) -> list[Combatant]:
        return [o for o in self.combatants if o.side == c.side and o.id != c.id and o.active]


@dataclass
class Step:
    """The working state of one action: the public API stays immutable in and out."""

    enc: Encounter
    rng: DiceSource
    rules: Ruleset
    events: list[Event] = field(default_factory=list)
    queue: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)   # extra attacks
    killed_by: dict[str, int] = field(default_factory=dict)   # victim → killer's ATK total this phase

    def c(self, cid: str) -> Combatant:
        return self.enc.get(cid)

    def put(self, combatant: Combatant) -> None:
        self.enc = self.enc.put(combatant)

    def update(self, cid: str, **changes: Any) -> Combatant:
        new = self.c(cid).model_copy(update=changes)
        self.put(new)
        return new

    def log(self, kind: str, who: str, what: str, rolls: tuple[RollResult, ...] = (), **data: Any) -> None:
        self.events.append(Event(kind, who, what, rolls, data={"round": self.enc.round, **data}))

    def roll(self, expression: str, label: str, variables: dict[str, int | str] | None = None) -> RollResult:
        return dice.roll(expression, self.rng, variables, label)

    def variables(self, actor: Combatant) -> dict[str, int | str]:
        """What a row's dice may name: the attacker's level (PC_LVL, LVL) and the ROOM DC."""
        return {"PC_LVL": actor.level, "LVL": actor.level, "ROOM_DC": self.enc.room_dc,
                "HD": actor.hit_die, "CON": actor.con_mod}

    def choose(self, options: list[Combatant]) -> Combatant | None:
        """A random pick (a random ally, a random target), from the dice source."""
        return options[self.rng.randrange(len(options))] if options else None


def zone_index(c: Combatant) -> int:
    return ZONES.index(c.zone)
