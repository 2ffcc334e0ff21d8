"""What the referee reads at the table: a row's effects with their dice rolled, and rule ids kept for `--explain`.

- `rolling(rng)`: a way of showing an effect's dice that rolls each one (`+2d6` → `2d6 → [3, 5] = 8`) and keeps
  the rolls; an expression with a variable (`10+PC_LVL`) or without a die (`15`) is shown as written.
- `effect_lines(effects, rng)`: the sentences of a row's effects, their dice rolled (`rng=None`: as written).
"""

from __future__ import annotations

from collections.abc import Iterable

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.errors import FurnaceError
from furnace.rules.effects import DiceShown, Effect, effect_summary, words


class Rolling:
    """Shows an effect's dice rolled (and keeps the rolls, in the order rolled, for JSON and the log)."""

    def __init__(self, rng: DiceSource) -> None:
        self.rng = rng
        self.rolls: list[RollResult] = []

    def __call__(self, text: str) -> str:
        try:
            expr = dice.parse(text)
        except FurnaceError:
            return words(text)
        if expr.variables() or len(set(expr.bounds())) == 1:
            return words(text)
        result = expr.roll(self.rng)
        self.rolls.append(result)
        return result.explain()


def rolling(rng: DiceSource | None) -> DiceShown:
    """How dice are shown: rolled on `rng`, or as written when there is none (`--no-roll`)."""
    return words if rng is None else Rolling(rng)


def effect_lines(effects: Iterable[Effect], rng: DiceSource | None = None) -> tuple[list[str], list[RollResult]]:
    """Each effect as a sentence, its dice rolled on `rng` (as written without one), and the rolls made."""
    shown = rolling(rng)
    lines = [effect_summary(e, shown) for e in effects]
    return lines, list(shown.rolls) if isinstance(shown, Rolling) else []
