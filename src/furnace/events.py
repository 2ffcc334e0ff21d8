"""Events: every change of state says who, what, with which rolls, before and after."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from furnace.dice import RollResult

_set = object.__setattr__
_NO_DATA: Any = object()         # `data` not given: a new empty dict, as a default factory would make


@dataclass(frozen=True, init=False)
class Event:
    kind: str                      # "ability_scores", "hp_gain", "level_up", "death" …
    who: str
    what: str                      # one readable line
    rolls: tuple[RollResult, ...] = ()
    before: Any = None
    after: Any = None
    data: dict[str, Any] = field(default_factory=dict)

    def __init__(self, kind: str, who: str, what: str, rolls: tuple[RollResult, ...] = (), before: Any = None,
                 after: Any = None, data: dict[str, Any] = _NO_DATA) -> None:
        # the fields set in one step, not one frozen setattr each: a fight logs about a hundred events
        _set(self, "__dict__", {"kind": kind, "who": who, "what": what, "rolls": rolls, "before": before,
                                "after": after, "data": {} if data is _NO_DATA else data})

    def explain(self) -> str:
        lines = [f"{self.who}: {self.what}"]
        lines += [f"    {r.explain()}" for r in self.rolls]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "who": self.who, "what": self.what,
                "rolls": [r.to_dict() for r in self.rolls], "before": self.before, "after": self.after,
                "data": self.data}
