"""Reaction and morale: how NPCs greet the party, and whether enemies (or PCs) keep fighting.

Implements F-NPC-01 (reaction: 2d6 + CHA on F-TAB-29; AMB-51: whose CHA, option reaction_roller), F-OPT-04
(enemy morale: 2d6 against floor(ROOM DC / 2); AMB-52, options morale_roll_over and morale_failure_result)
and F-OPT-05 (PC morale: a WIS SAVE vs ROOM DC; REF-20). Here live `reaction`, `reaction_roller`, `Reaction`,
`enemy_morale`, `MoraleResult` and `pc_morale`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.play.checks import (
    DC,
    CheckError,
    CheckResult,
    Modifier,
    check,
    require_option,
    resolve_rules,
    whole,
)
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import TableRoll


# -- reaction (F-NPC-01, F-TAB-29, AMB-51) -----------------------------------------------------------------
@dataclass(frozen=True)
class Reaction:
    table_roll: TableRoll
    speaker: str

    @property
    def attitude(self) -> str:
        # a referee's replacement table may not tag rows with an attitude; its wording then stands
        return str(self.table_roll.row.data.get("attitude", self.table_roll.row.text))

    def explain(self) -> str:
        return f"{self.table_roll.explain()} → the NPCs are {self.attitude}"

    def to_dict(self) -> dict[str, Any]:
        return {"speaker": self.speaker, "attitude": self.attitude, "table_roll": self.table_roll.to_dict(),
                "explanation": self.explain()}


def reaction_roller(cha_mods: Mapping[str, int], spokesperson: str | None = None,
                    rules: Ruleset | None = None) -> tuple[str, int]:
    """Whose CHA modifies the reaction roll (reaction_roller option, AMB-51): name and CHA modifier."""
    if not cha_mods:
        raise CheckError("a reaction roll needs at least one character's CHA modifier")
    if spokesperson is not None and resolve_rules(rules)["reaction_roller"] == "spokesperson":
        if spokesperson not in cha_mods:
            raise CheckError(f"spokesperson {spokesperson!r} is not among {', '.join(cha_mods)}")
        return spokesperson, cha_mods[spokesperson]
    name = max(cha_mods, key=lambda n: cha_mods[n])  # the first of equals, in the order given
    return name, cha_mods[name]


def reaction(rng: DiceSource, cha_mod: int, rules: Ruleset | None = None, *, speaker: str = "") -> Reaction:
    """2d6 + CHA on F-TAB-29: ≤2 hostile … 12+ helpful."""
    rules = resolve_rules(rules)
    label = f"reaction ({speaker} speaks)" if speaker else "reaction"
    roll = rules.tables.roll("reaction", rng, variables={"CHA": whole(cha_mod, "CHA modifier")}, label=label)
    return Reaction(roll, speaker)


# -- morale (F-OPT-04, F-OPT-05, AMB-52) -------------------------------------------------------------------
@dataclass(frozen=True)
class MoraleResult:
    roll: RollResult
    morale: int
    morale_reason: str
    breaks: bool
    outcome: str             # "surrender" | "flee" (morale_failure_result) or "hold"
    comparison: str          # how the roll was compared, for the log

    def explain(self) -> str:
        return (f"{self.roll.explain()} vs morale {self.morale} ({self.morale_reason}): {self.comparison} → "
                f"the enemies {self.outcome if self.breaks else 'hold'}")

    def to_dict(self) -> dict[str, Any]:
        return {"roll": self.roll.to_dict(), "morale": self.morale, "morale_reason": self.morale_reason,
                "breaks": self.breaks, "outcome": self.outcome, "explanation": self.explain()}


def enemy_morale(rng: DiceSource, room_dc: int, rules: Ruleset | None = None, *, morale: int | None = None,
                 label: str = "enemy morale") -> MoraleResult:
    """2d6 against morale = floor(ROOM DC / 2) (or the referee's value); rolling over it breaks them."""
    rules = resolve_rules(rules)
    require_option(rules, "enemy_morale", "F-OPT-04", "enemy morale")
    room_dc = whole(room_dc, "ROOM DC")
    value = room_dc // 2 if morale is None else whole(morale, "morale")
    why = f"ROOM DC {room_dc} / 2, rounded down" if morale is None else "set by the referee"
    roll = dice.roll("2d6", rng, label=label)
    strict = rules["morale_roll_over"] == "strictly_over"
    breaks = roll.total > value if strict else roll.total >= value
    sign = (">" if breaks else "≤") if strict else ("≥" if breaks else "<")
    outcome = str(rules["morale_failure_result"]) if breaks else "hold"
    return MoraleResult(roll, value, why, breaks, outcome, f"{roll.total} {sign} {value}")


def pc_morale(rng: DiceSource, wis_mod: int, prof: int, proficient: bool, room_dc: DC | int,
              rules: Ruleset | None = None, *, label: str = "PC morale") -> CheckResult:
    """A WIS SAVE vs ROOM DC (F-OPT-05); what a failure does is the referee's call (REF-20)."""
    rules = resolve_rules(rules)
    require_option(rules, "pc_morale", "F-OPT-05", "PC morale")
    mods = [Modifier(wis_mod, "WIS")] + ([Modifier(prof, "PROF")] if proficient else [])
    return check(rng, room_dc, mods, kind="SAVE", label=label, rules=rules)
