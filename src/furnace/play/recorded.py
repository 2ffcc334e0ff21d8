"""A fight replayed exactly from its starting state, its seed and the steps taken (the log's promise)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from furnace import dice
from furnace.events import Event
from furnace.play.encounter import Action, run_round, take_turn
from furnace.play.state import Encounter
from furnace.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Recorded:
    """One step of a recorded fight: a whole automatic round, or one combatant's chosen action."""

    who: str | None = None          # None: run a round with the simple tactic
    action: Action | None = None


def replay(start: Encounter, seed: int, steps: Iterable[Recorded], rules: Ruleset) -> tuple[Encounter, list[Event]]:
    """Replay a fight exactly from its starting state, its seed and the steps taken (the log's promise)."""
    rng = dice.seeded(seed)
    enc, events = start, []
    for s in steps:
        if s.who is None or s.action is None:
            enc, new = run_round(enc, rng, rules)
        else:
            enc, new = take_turn(enc, s.who, s.action, rng, rules)
        events += new
    return enc, events
