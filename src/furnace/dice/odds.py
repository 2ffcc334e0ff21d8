"""Exact odds of an expression through `icepool` (imported here only, to keep it off the roll path)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import icepool

from furnace.dice.ast import AnyNode, BinOp, Call, Dice, Neg, Num, Var
from furnace.dice.roller import die_sides, lookup
from furnace.errors import DiceError

MAX_OUTCOMES = 20_000


def _dice(node: Dice, variables: Mapping[str, int | str], expression: str) -> Any:
    sides = node.sides or die_sides(lookup(variables, node.sides_var or "", expression),
                                     node.sides_var or "", expression)
    die = icepool.d(sides)
    if node.advantage:
        pool = die.pool(2)
        return pool.highest(1).sum() if node.advantage == "adv" else pool.lowest(1).sum()
    if node.keep is None:
        return node.count @ die
    pool = die.pool(node.count)
    n = node.keep_n
    if node.keep == "kh":
        return pool.highest(n).sum()
    if node.keep == "kl":
        return pool.lowest(n).sum()
    if node.keep == "dh":
        return pool.lowest(node.count - n).sum()
    return pool.highest(node.count - n).sum()


def _exact(value: Any) -> Any:
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def _combine(op: str, left: Any, right: Any, expression: str) -> Any:
    def apply(a: Any, b: Any) -> Any:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if b == 0:
            raise DiceError("division by zero is possible", expression)
        return _exact(Fraction(a) / b)

    return icepool.map(apply, left, right)


def _die(node: AnyNode, variables: Mapping[str, int | str], expression: str) -> Any:
    if isinstance(node, Num):
        return icepool.Die([node.value])
    if isinstance(node, Var):
        value = lookup(variables, node.name, expression)
        if isinstance(value, int):
            return icepool.Die([value])
        return icepool.d(die_sides(value, node.name, expression))
    if isinstance(node, Dice):
        return _dice(node, variables, expression)
    if isinstance(node, Neg):
        return -_die(node.operand, variables, expression)
    if isinstance(node, BinOp):
        result = _combine(node.op, _die(node.left, variables, expression),
                          _die(node.right, variables, expression), expression)
        if len(result) > MAX_OUTCOMES:
            raise DiceError(f"too many distinct totals (over {MAX_OUTCOMES}) to compute exact odds", expression)
        return result
    assert isinstance(node, Call)
    args = [_die(a, variables, expression) for a in node.args]
    fns: dict[str, Any] = {"ceil": math.ceil, "floor": math.floor, "abs": abs, "max": max, "min": min}
    fn = fns[node.name]
    return icepool.map(lambda *xs: _exact(fn(*xs)), *args)


def distribution(node: AnyNode, variables: Mapping[str, int | str], expression: str) -> dict[int, Fraction]:
    """Each possible total (rounded down, as a roll's total is) and its exact probability."""
    die = _die(node, variables, expression).map(lambda v: math.floor(v))
    denominator = die.denominator()
    return {int(outcome): Fraction(quantity, denominator) for outcome, quantity in die.items()}
