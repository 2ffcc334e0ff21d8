"""Timers: a named countdown of turns that fires the referee's event when it reaches zero.

Implements F-OPT-07 (timers, option timers; 1d4 turns by default). Here lives `Timer`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.events import Event, declare
from furnace.play.checks import CheckError, require_option, resolve_rules, whole
from furnace.rules.ruleset import Ruleset

# -- timers (F-OPT-07) -------------------------------------------------------------------------------------
TIMER_OUT = declare("timer", label="referee", prompt="referee", shown="public",
                    example={"label": "the ceiling falls", "prompt": "everyone NEAR takes 2d6", "shown": False})


@dataclass(frozen=True)
class Timer:
    """A named countdown of turns; at 0 it fires the referee's event."""

    name: str
    prompt: str
    turns_left: int
    roll: RollResult | None = None

    @classmethod
    def start(cls, rng: DiceSource, name: str, prompt: str, *, die: str = "1d4",
              rules: Ruleset | None = None) -> Timer:
        require_option(resolve_rules(rules), "timers", "F-OPT-07", "a timer")
        roll = dice.roll(die, rng, label="timer")
        if roll.total < 1:
            raise CheckError(f"timer {name}: {die} rolled {roll.total}; a timer needs at least 1 turn")
        return cls(name, prompt, roll.total, roll)

    @property
    def expired(self) -> bool:
        return self.turns_left <= 0

    def tick(self, turns: int = 1) -> tuple[Timer, Event | None]:
        """Count down; the event (with the referee prompt) comes on the tick that reaches 0."""
        if whole(turns, "turns") < 1:
            raise CheckError(f"a timer counts down at least 1 turn, not {turns}")
        if self.expired:
            raise CheckError(f"timer {self.name} has already run out")
        after = replace(self, turns_left=max(0, self.turns_left - turns))
        if not after.expired:
            return after, None
        rolls = (self.roll,) if self.roll else ()
        return after, Event(TIMER_OUT, "", (), rolls, {"label": self.name, "prompt": self.prompt}, ("F-OPT-07",),
                            audience="referee")

    def explain(self) -> str:
        state = "time is up" if self.expired else f"{self.turns_left} turns left"
        rolled = f" ({self.roll.explain()})" if self.roll else ""
        return f"timer {self.name}: {state}{rolled}; then: {self.prompt}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "prompt": self.prompt, "turns_left": self.turns_left,
                "roll": self.roll.to_dict() if self.roll else None, "expired": self.expired}
