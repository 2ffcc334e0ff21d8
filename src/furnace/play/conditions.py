"""Conditions and their mechanics: what each does to rolls, AC and actions, and when it ends.

A condition is held with an expiry on the action clock: `until_round` (it ends at the start of its
holder's turn in that round, AMB-03), or a named end (`rest`, `stands`, `cured`, `encounter`,
`permanent`). The names are those of `furnace.rules.effects.CONDITIONS` (AMB-22 gives their meaning).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from furnace.characters.character import Character
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

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
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
    """The EASY and HARD sources on an ATK from the attacker's and the target's conditions, each as
    "target|NAME|source" or "attacker|NAME|source" (one source counts once, AMB-04; the name is told in words)."""
    easy, hard = [], []
    for h in target:
        if h.name in ATTACKS_AGAINST_EASY and not (h.name == "PRONE" and ranged):
            easy.append(f"target|{h.name}|")
        if h.name == modifier_name("atk_against", "EASY") or h.name == modifier_name("next_atk_against", "EASY"):
            easy.append(f"target|{h.name}|{h.source}")
        if h.name == modifier_name("atk_against", "HARD") or h.name == modifier_name("next_atk_against", "HARD"):
            hard.append(f"target|{h.name}|{h.source}")
    for h in attacker:
        if h.name in OWN_ATTACKS_HARD:
            hard.append(f"attacker|{h.name}|")
        if h.name in (modifier_name("atk", "HARD"), modifier_name("next_atk", "HARD")):
            hard.append(f"attacker|{h.name}|{h.source}")
        if h.name in (modifier_name("atk", "EASY"), modifier_name("next_atk", "EASY")):
            easy.append(f"attacker|{h.name}|{h.source}")
        if ranged and h.name == modifier_name("ranged_atk", "HARD"):
            hard.append(f"attacker|{h.name}|{h.source}")
    return easy, hard


def spend_next_attack(held: tuple[Held, ...], prefix: str) -> tuple[Held, ...]:
    """'Next ATK' modifiers last for one attack."""
    return tuple(h for h in held if not h.name.startswith(f"MOD:{prefix}:"))


# -- markers that outlast a fight, on the character (D-7, AMB-34, F-TAB-37b 14–19, F-TAB-38) ---------------------
FIGHT_KEY = "fight"     # Character.extensions["fight"]: what fights leave on her ("held", "rages_used")
OUTLASTING: tuple[Ending, ...] = ("permanent", "cured", "repaired")   # these endings outlast the fight
# the casting lockouts a chapter carries into the fight itself (magic's COMBATANT_HOOKS entry)
LOCKOUTS = frozenset({"CANT_CAST", "DEPLETED", "CANT_CAST_THIS_SPELL", "CANT_TARGET_SAME"})
CARRIED = "carried from before the fight"


def until_rest_line(h: Held) -> str:
    """A marker that lasts until rest as a character's `until_rest` line (D-7): "NAME: source"; the creature a
    CANT_TARGET_SAME bars is written "(target: …)", as magic reads it back."""
    if h.name == "CANT_TARGET_SAME":
        return f"{h.name}: {CONDITIONS[h.name]} (target: {h.source})"
    return f"{h.name}: {h.source}" if h.source else h.name


def written(h: Held, lines: list[str]) -> bool:
    """Whether a character's lines already hold this marker (it came into the fight from them)."""
    return any(line == h.name or (line.startswith(f"{h.name}:") and h.source in line) for line in lines)


def carried(character: Character) -> tuple[Held, ...]:
    """The markers a character brings into a fight from earlier ones: her conditions (held until cured), her
    "until rest" lines but the casting lockouts a chapter carries (injury rows 14–19: CHECKs HARD …), and the
    lasting markers a fight kept on her (one eye: ranged ATK HARD; an open wound's drain, AMB-34)."""
    held = [Held(name=name, source=CARRIED, ending="cured") for name in character.conditions]
    for line in character.until_rest:
        name, _, source = line.partition(": ")
        if name not in LOCKOUTS and is_known(name):
            held.append(Held(name=name, source=source, ending="rest"))
    kept = character.extensions.get(FIGHT_KEY, {}).get("held", [])
    return (*held, *(Held.model_validate(h) for h in kept))


def check_difficulty(held: tuple[Held, ...]) -> tuple[list[str], list[str], Literal["adv", "dis"] | None]:
    """The EASY, HARD and advantage on the holder's own CHECKs: "every CHECK is HARD until rest" (F-TAB-37b
    14–19), at DISADVANTAGE (F-TAB-37a 14–19), FRIGHTENED (AMB-22)."""
    easy = [h.source or h.name for h in held if h.name == modifier_name("checks", "EASY")]
    hard = [h.source or h.name for h in held if h.name == modifier_name("checks", "HARD") or h.name == "FRIGHTENED"]
    dis = sum(h.name == modifier_name("checks", "DISADVANTAGE") for h in held)
    adv = sum(h.name == modifier_name("checks", "ADVANTAGE") for h in held)
    return easy, hard, ("dis" if dis > adv else "adv" if adv > dis else None)


def moves_only_near(held: tuple[Held, ...]) -> bool:
    """A maimed foot (F-TAB-38 4–5, "move only NEAR"): one zone a turn, never from RANGED into CLOSE."""
    return "MOVE_NEAR_ONLY" in names(held)
