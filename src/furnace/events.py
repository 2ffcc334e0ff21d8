"""Events: every change of state says who, what, with which rolls, before and after."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from furnace.dice import RollResult


@dataclass(frozen=True)
class Event:
    kind: str                      # "ability_scores", "hp_gain", "level_up", "death" …
    who: str
    what: str                      # one readable line
    rolls: tuple[RollResult, ...] = ()
    before: Any = None
    after: Any = None
    data: dict[str, Any] = field(default_factory=dict)

    def explain(self) -> str:
        lines = [f"{self.who}: {self.what}"]
        lines += [f"    {r.explain()}" for r in self.rolls]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "who": self.who, "what": self.what,
                "rolls": [r.to_dict() for r in self.rolls], "before": self.before, "after": self.after,
                "data": self.data}
