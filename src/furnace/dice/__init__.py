"""The dice language of Furnace.

    >>> import random
    >>> from furnace import dice
    >>> result = dice.roll("4d6kh3", dice.ScriptedDice([6, 5, 3, 1]), label="STR for a new character")
    >>> result.explain()
    'STR for a new character: 4d6kh3 → [6, 5, 3, ~~1~~] = 14'

Parse once, roll many: `dice.parse(text)` returns a `DiceExpression` whose `roll` is cheap.
Division is exact while the expression is evaluated; the total is rounded down at the end, so
`ceil(3*STR/2)` rounds up (the two-handed STR bonus) and `d6/2` rounds down.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from furnace.dice.ast import AnyNode
from furnace.dice.bounds import interval
from furnace.dice.grammar import MAX_DICE, MAX_EXPRESSION_LENGTH, parse_tree
from furnace.dice.result import Node, RollResult, floor_value, render
from furnace.dice.roller import DiceSource, FastRoller, Roller, compile_fast, compile_node
from furnace.dice.source import ScriptedDice, seeded, system
from furnace.errors import DiceSyntaxError

__all__ = [
    "MAX_DICE", "MAX_EXPRESSION_LENGTH", "DiceExpression", "DiceSource", "RollResult", "ScriptedDice",
    "parse", "probability_at_least", "render", "roll", "seeded", "system",
]

_NO_VARIABLES: Mapping[str, int | str] = MappingProxyType({})


class DiceExpression:
    """A parsed, compiled dice expression. Immutable; share it freely."""

    __slots__ = ("_explain", "_fast", "text", "tree")

    def __init__(self, text: str) -> None:
        self.text = text.strip()
        self.tree: AnyNode = parse_tree(text)
        self._explain: Roller = compile_node(self.tree, self.text)
        self._fast: FastRoller = compile_fast(self.tree, self.text)

    def roll(self, rng: DiceSource, variables: Mapping[str, int | str] | None = None,
             label: str = "") -> RollResult:
        faces: list[int] = []
        bound = dict(variables) if variables else _NO_VARIABLES
        value = self._fast(rng, bound, faces)
        total = value if type(value) is int else floor_value(value)
        return RollResult(self.text, total, tuple(faces), label, bound, self.explain_faces)

    def explain_faces(self, faces: tuple[int, ...], variables: Mapping[str, int | str]) -> Node:
        """The explanation tree of a roll that showed these faces (replayed in order)."""
        return self._explain(ScriptedDice(faces), variables)

    def bounds(self, variables: Mapping[str, int | str] | None = None) -> tuple[int, int]:
        """The lowest and highest total, rounded down like a roll's total."""
        lo, hi = interval(self.tree, variables or _NO_VARIABLES, self.text)
        return floor_value(lo), floor_value(hi)

    def distribution(self, variables: Mapping[str, int | str] | None = None) -> dict[int, Fraction]:
        from furnace.dice.odds import distribution  # icepool is heavy: keep it off the roll path

        return distribution(self.tree, variables or _NO_VARIABLES, self.text)

    def probability_at_least(self, dc: int, variables: Mapping[str, int | str] | None = None) -> Fraction:
        """P(total ≥ dc): meet or beat, as every Furnace check is resolved."""
        return sum((p for total, p in self.distribution(variables).items() if total >= dc), Fraction(0))

    def variables(self) -> set[str]:
        from furnace.dice.ast import BinOp, Call, Dice, Neg, Var

        found: set[str] = set()
        stack: list[Any] = [self.tree]
        while stack:
            node = stack.pop()
            if isinstance(node, Var):
                found.add(node.name)
            elif isinstance(node, Dice) and node.sides_var:
                found.add(node.sides_var)
            elif isinstance(node, BinOp):
                stack += [node.left, node.right]
            elif isinstance(node, Neg):
                stack.append(node.operand)
            elif isinstance(node, Call):
                stack += list(node.args)
        return found

    def __repr__(self) -> str:
        return f"DiceExpression({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiceExpression) and other.tree == self.tree

    def __hash__(self) -> int:
        return hash(self.tree)


def parse(text: str) -> DiceExpression:
    """Parse (and cache) a dice expression; raises `DiceError` subclasses naming the position."""
    if not isinstance(text, str):
        raise DiceSyntaxError(f"a dice expression is text, not {type(text).__name__}")
    return _parse(text)


@lru_cache(maxsize=1024)
def _parse(text: str) -> DiceExpression:
    return DiceExpression(text)


def roll(text: str, rng: DiceSource, variables: Mapping[str, int | str] | None = None,
         label: str = "") -> RollResult:
    """Parse (cached) and roll in one call."""
    return parse(text).roll(rng, variables, label)


def probability_at_least(text: str, dc: int, variables: Mapping[str, int | str] | None = None) -> Fraction:
    return parse(text).probability_at_least(dc, variables)
