"""Conditions and their mechanics: what each does to rolls, AC and actions, and when it ends.

A condition is held with an expiry on the action clock: `until_round` (it ends at the start of its
holder's turn in that round, AMB-03), or a named end (`rest`, `stands`, `cured`, `encounter`,
`permanent`). The names are those of `furnace.rules.effects.CONDITIONS` (AMB-22 gives their meaning).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from furnace.rules.effects import CONDITIONS

Ending = Literal["round", "rest", "stands", "cured", "encounter", "permanent", "repaired"]

# What a condition does, as the rules read it (AMB-22): which of the holder's rolls are HARD,
# whether attacks against it are EASY, and whether it can act, move or attack.
NO_ACTION = frozenset({"STUNNED", "PARALYSED", "UNCONSCIOUS", "INCAPACITATED", "CANT_ACT", "DYING"})
NO_ATTACK = NO_ACTION | {"CANT_ATTACK"}
NO_MOVE = NO_ACTION | {"CANT_MOVE", "PRONE"}
ATTACKS_AGAINST_EASY = frozenset({"STUNNED", "PARALYSED", "UNCONSCIOUS", "BLINDED", "EXPOSED", "PRONE", "DYING"})
OWN_ATTACKS_HARD = frozenset({"BLINDED", "FRIGHTENED", "PRONE", "WEAK"})


class Held(BaseModel):
    """A condition or modifier held by a combatant, with its source and when it ends."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str                       # a condition name, or "MOD:<applies_to>:<mode>" for a modifier
    source: str = ""
    ending: Ending = "round"
    until_round: int | None = None  # for ending == "round": ends at the start of the holder's turn
    value: int = 0                  # a modifier's flat value (mode BONUS)
    effect: dict[str, Any] | None = None   # a periodic effect, applied at the start of each turn

    @property
    def is_modifier(self) -> bool:
        return self.name.startswith("MOD:")

    def describe(self) -> str:
        end = f"until round {self.until_round}" if self.ending == "round" else f"until {self.ending}"
        return f"{self.name} ({end}; {self.source})" if self.source else f"{self.name} ({end})"


def modifier_name(applies_to: str, mode: str) -> str:
    return f"MOD:{applies_to}:{mode}"


def is_known(name: str) -> bool:
    return name in CONDITIONS or name.startswith("MOD:")


def expire_at_turn_start(held: tuple[Held, ...], round_no: int) -> tuple[tuple[Held, ...], tuple[Held, ...]]:
    """Split held conditions into (kept, ended) at the start of the holder's turn in `round_no`."""
    kept = tuple(h for h in held if not (h.ending == "round" and h.until_round is not None
                                         and h.until_round <= round_no))
    ended = tuple(h for h in held if h not in kept)
    return kept, ended


def end_by(held: tuple[Held, ...], *endings: Ending) -> tuple[Held, ...]:
    """What is left after a rest (ends 'rest'), an encounter's end ('encounter', 'round') …"""
    return tuple(h for h in held if h.ending not in endings)


def names(held: tuple[Held, ...]) -> set[str]:
    return {h.name for h in held}


def can_act(held: tuple[Held, ...]) -> bool:
    return not (names(held) & NO_ACTION)


def can_attack(held: tuple[Held, ...]) -> bool:
    return not (names(held) & NO_ATTACK)


def can_move(held: tuple[Held, ...]) -> bool:
    return not (names(held) & NO_MOVE)


def attack_difficulty(attacker: tuple[Held, ...], target: tuple[Held, ...], ranged: bool,
                      ) -> tuple[list[str], list[str]]:
    """The EASY and HARD sources on an ATK from the attacker's and the target's conditions."""
    easy, hard = [], []
    for h in target:
        if h.name in ATTACKS_AGAINST_EASY and not (h.name == "PRONE" and ranged):
            easy.append(f"target {h.name}")
        if h.name == modifier_name("atk_against", "EASY") or h.name == modifier_name("next_atk_against", "EASY"):
            easy.append(f"target: {h.source}")
        if h.name == modifier_name("atk_against", "HARD") or h.name == modifier_name("next_atk_against", "HARD"):
            hard.append(f"target: {h.source}")
    for h in attacker:
        if h.name in OWN_ATTACKS_HARD:
            hard.append(f"attacker {h.name}")
        if h.name in (modifier_name("atk", "HARD"), modifier_name("next_atk", "HARD")):
            hard.append(f"attacker: {h.source}")
        if h.name in (modifier_name("atk", "EASY"), modifier_name("next_atk", "EASY")):
            easy.append(f"attacker: {h.source}")
        if ranged and h.name == modifier_name("ranged_atk", "HARD"):
            hard.append(f"attacker: {h.source}")
    return easy, hard


def spend_next_attack(held: tuple[Held, ...], prefix: str) -> tuple[Held, ...]:
    """'Next ATK' modifiers last for one attack."""
    return tuple(h for h in held if not h.name.startswith(f"MOD:{prefix}:"))
