"""Luck Dice: earned by failing in a row, spent on any roll (F-LUCK-01..03, AMB-02, AMB-19, F-SPELL-09).

    state, earned = record(LuckState(), success=False, kind="CHECK")  # 1st failure: streak 1, no die
    state, earned = record(state, success=False, kind="ATK")          # 2nd failure: the first Luck Die
    state, spent = spend(state, rng, roll_total=13)                   # 13 + d6, the natural face unchanged

The state is a small frozen value; who holds it (the player or each character) is the option
luck_owner, so the caller keys its states by `owner(player, character, rules)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from furnace import dice
from furnace.characters.character import Character
from furnace.dice import DiceSource, RollResult
from furnace.errors import FurnaceError
from furnace.events import Event, Part, declare
from furnace.play.dc import resolve_rules
from furnace.rules.ruleset import Ruleset

MAX_DICE = 3                 # F-LUCK-02
FIRST_DIE_AT = 2             # the 2nd failure in a row grants the first die (F-LUCK-01)
D20_KINDS = frozenset({"CHECK", "ATK", "SAVE", "SPELLCHECK"})   # luck_counts d20_rolls (AMB-02)
MAX_SL = 6                   # SL6 is WONDER, the top of F-TAB-11


class LuckError(FurnaceError):
    """A Luck Die spent that is not held, or a luck state that cannot be."""


@dataclass(frozen=True)
class LuckState:
    """The Luck Dice held (0–3) and the current run of failed counted rolls."""

    dice: int = 0
    streak: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.dice <= MAX_DICE or self.streak < 0:
            raise LuckError(f"a luck state holds 0 to {MAX_DICE} dice and a streak of 0 or more, "
                            f"not {self.dice} dice and streak {self.streak}")

    def explain(self) -> str:
        return f"{self.dice} Luck {'Die' if self.dice == 1 else 'Dice'}, {self.streak} failures in a row"

    def to_dict(self) -> dict[str, Any]:
        return {"dice": self.dice, "streak": self.streak}


def owner(player: str, character: str, rules: Ruleset | None = None) -> str:
    """Whose luck a roll feeds: the player's (default) or the character's own (luck_owner)."""
    return player if resolve_rules(rules)["luck_owner"] == "player" else character


def counts(kind: str, rules: Ruleset | None = None) -> bool:
    """Whether a failed roll of this kind builds the streak (luck_counts): d20 rolls only, by default."""
    return kind.upper() in D20_KINDS or resolve_rules(rules)["luck_counts"] == "any_roll"   # (a d20's: no look-up)


# a failure in a row earns a Luck Die (lost: she holds the most she may); who may know each value
EARNED = declare("luck_die", roll="public", streak="actor", before="actor", after="actor", lost="public",
                 example={"roll": "ATK", "lost": False})


def record(state: LuckState, success: bool, kind: str, rules: Ruleset | None = None,
           ) -> tuple[LuckState, dict[str, Any] | None]:
    """Count one finished roll: a success resets the streak; the 2nd failure and each after earns a die. The
    second value: the fact's values when a die is earned (or lost at the most one may hold), else None."""
    if success and state.streak == 0:     # no streak to break, counted or not: a fight records thousands of rolls
        return state, None
    if not counts(kind, rules):
        return state, None                      # damage and table rolls neither build nor break a streak
    if success:
        return _state(state.dice, 0), None
    streak = state.streak + 1
    if streak < FIRST_DIE_AT:
        return _state(state.dice, streak), None
    after = _state(min(MAX_DICE, state.dice + 1), streak)
    return after, {"roll": kind, "streak": streak, "before": state.dice, "after": after.dice,
                   "lost": state.dice >= MAX_DICE}


LUCK_RULES = ("F-LUCK-01", "F-LUCK-02")


def _state(dice: int, streak: int) -> LuckState:
    """The luck state of these numbers, made once (a value: a fight's thousands of counted rolls share a few)."""
    found = _STATES.get((dice, streak))
    if found is None:
        if len(_STATES) >= STATES_KEPT:
            _STATES.clear()
        found = _STATES[dice, streak] = LuckState(dice, streak)
    return found


_STATES: dict[tuple[int, int], LuckState] = {}
STATES_KEPT = 256


@dataclass(frozen=True)
class LuckSpend:
    """Luck Dice spent on one roll: what they rolled and the new total. The natural face stays as it was."""

    effect: str                     # luck_die_effect: "add" or "reroll"
    timing: str                     # luck_spend_timing: "after_roll" or "before_roll"
    original_total: int
    total: int
    natural: int | None             # the original roll's natural face: crits and mishaps stand (AMB-02)
    rolls: tuple[RollResult, ...]
    before: LuckState
    after: LuckState

    @property
    def spent(self) -> int:
        return self.before.dice - self.after.dice

    def explain(self) -> str:
        faces = ", ".join(r.explain() for r in self.rolls)
        if self.effect == "add":
            how = f"{self.original_total} + {sum(r.total for r in self.rolls)} = {self.total}"
        else:
            how = f"d20 rolled again, {self.original_total} → {self.total}"
        kept = f"; natural {self.natural} still stands" if self.natural is not None else ""
        return (f"spends {self.spent} Luck {'Die' if self.spent == 1 else 'Dice'} ({self.timing}): {faces}; "
                f"{how}{kept}; {self.after.dice} left")

    def to_dict(self) -> dict[str, Any]:
        return {"effect": self.effect, "timing": self.timing, "original_total": self.original_total,
                "total": self.total, "natural": self.natural, "rolls": [r.to_dict() for r in self.rolls],
                "before": self.before.to_dict(), "after": self.after.to_dict(), "explanation": self.explain()}


def _check_spend(state: LuckState, n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise LuckError(f"spend at least 1 Luck Die, not {n!r}")
    if state.dice == 0:
        raise LuckError("no Luck Dice held: they are earned by failing twice in a row (F-LUCK-01)")
    if n > state.dice:
        raise LuckError(f"only {state.dice} Luck {'Die' if state.dice == 1 else 'Dice'} held, cannot spend {n}")


def _new_total(effect: str, roll_total: int, natural: int | None, rolls: list[RollResult]) -> int:
    if effect == "add":
        return roll_total + sum(r.total for r in rolls)
    if natural is None:
        raise LuckError("luck_die_effect is reroll: give the natural d20 face of the roll being rerolled")
    return roll_total - natural + rolls[-1].total   # the last reroll is the one kept


def spend(state: LuckState, rng: DiceSource, roll_total: int, rules: Ruleset | None = None, n: int = 1, *,
          natural: int | None = None, label: str = "Luck Die") -> tuple[LuckState, LuckSpend]:
    """Spend `n` Luck Dice on a roll (F-LUCK-03): add luck_die_size to the total each, or reroll the d20.

    `natural` is the roll's natural face: kept as it was (a natural 1 stays a natural 1) and needed to
    take the old d20 out of the total when luck_die_effect is reroll.
    """
    rules = resolve_rules(rules)
    _check_spend(state, n)
    effect = str(rules["luck_die_effect"])
    die = str(rules["luck_die_size"]) if effect == "add" else "d20"
    rolls = [dice.roll(die, rng, label=f"{label} {i}" if n > 1 else label) for i in range(1, n + 1)]
    total = _new_total(effect, roll_total, natural, rolls)
    after = LuckState(state.dice - n, state.streak)
    return after, LuckSpend(effect, str(rules["luck_spend_timing"]), roll_total, total, natural,
                            tuple(rolls), state, after)


def clamp_success_level(original_sl: int, new_sl: int, *, natural: int | None = None,
                        rules: Ruleset | None = None) -> int:
    """The SL after luck: at most 1 step from the original (F-SPELL-09, AMB-19); Failure is SL0.

    A natural 1 is a mishap, which luck cannot cancel; with luck_lifts_spell_failure off, a Failure
    stays a Failure and a success never drops below SL1.
    """
    if natural == 1:
        return original_sl
    step = max(-1, min(1, new_sl - original_sl))
    result = max(0, min(MAX_SL, original_sl + step))
    if not resolve_rules(rules)["luck_lifts_spell_failure"]:
        return original_sl if original_sl == 0 else max(1, result)
    return result


# -- the luck a character carries between rolls, in fights and out (F-LUCK-01, AMB-02) ---------------------------
STREAK_KEY = "luck"   # Character.extensions["luck"]: {"streak": failures in a row}; the dice are Character.luck_dice


def held_by(character: Character) -> LuckState:
    """The Luck Dice a character holds and the run of failures her last counted rolls made."""
    streak = character.extensions.get(STREAK_KEY, {}).get("streak", 0)
    return LuckState(character.luck_dice, max(0, int(streak)))


def kept(character: Character, state: LuckState) -> Character:
    """The character holding this luck state (no `luck` entry while the streak is 0)."""
    others = {k: v for k, v in character.extensions.items() if k != STREAK_KEY}
    extensions = {**others, STREAK_KEY: {"streak": state.streak}} if state.streak else others
    return character.model_copy(update={"luck_dice": state.dice, "extensions": extensions})


def count(character: Character, success: bool, kind: str, rules: Ruleset | None = None,
          ) -> tuple[Character, list[Event]]:
    """One roll of hers outside a fight (a SAVE on the clock: a disease, hunger, aging): a failure builds the
    streak toward a Luck Die, a success ends it."""
    state, earned = record(held_by(character), success, kind, rules)
    if earned is None:
        return kept(character, state), []
    part = {character.name: Part(character.name, "pc", character.player or "")}
    return kept(character, state), [Event(EARNED, character.name, (), (), earned, LUCK_RULES, part)]


def shared(characters: dict[str, Character], who: Character, rules: Ruleset | None = None,
           ) -> dict[str, Character]:
    """Under luck_owner player (the default) the characters of one player hold her one pool and one streak:
    each of them takes what `who` holds now."""
    if not who.player or resolve_rules(rules)["luck_owner"] != "player":
        return characters
    state = held_by(who)
    return {name: kept(c, state) if c.player == who.player and held_by(c) != state else c
            for name, c in characters.items()}
