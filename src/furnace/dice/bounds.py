"""The lowest and highest total an expression can give, by interval arithmetic (no enumeration)."""

from __future__ import annotations

import math
from fractions import Fraction

from furnace.dice.ast import AnyNode, BinOp, Call, Dice, Neg, Num, Var
from furnace.dice.roller import Variables, counted_sides, group_count, lookup
from furnace.errors import DiceError

Interval = tuple[Fraction, Fraction]


def kept_count(node: Dice, count: int) -> int:
    """How many of the group's `count` dice count towards its total."""
    if node.advantage:
        return 1
    if node.keep in ("kh", "kl"):
        return node.keep_n
    if node.keep in ("dh", "dl"):
        return count - node.keep_n
    return count


def _dice(node: Dice, variables: Variables, expression: str) -> Interval:
    sides = counted_sides(node, variables, expression)
    kept = kept_count(node, group_count(node, variables, expression))
    low, high = (max(1, node.minimum), max(sides, node.minimum)) if node.minimum else (1, sides)
    return Fraction(kept * low), Fraction(kept * high)


def interval(node: AnyNode, variables: Variables, expression: str) -> Interval:
    if isinstance(node, Num):
        return Fraction(node.value), Fraction(node.value)
    if isinstance(node, Var):
        value = lookup(variables, node.name, expression)
        if isinstance(value, int):
            return Fraction(value), Fraction(value)
        return Fraction(1), Fraction(value.sides)
    if isinstance(node, Dice):
        return _dice(node, variables, expression)
    if isinstance(node, Neg):
        lo, hi = interval(node.operand, variables, expression)
        return -hi, -lo
    if isinstance(node, BinOp):
        (a, b), (c, d) = interval(node.left, variables, expression), interval(node.right, variables, expression)
        if node.op == "+":
            return a + c, b + d
        if node.op == "-":
            return a - d, b - c
        if node.op == "/":
            if c <= 0 <= d:
                raise DiceError("the divisor can be zero", expression)
            c, d = 1 / d, 1 / c
        products = [a * c, a * d, b * c, b * d]
        return min(products), max(products)
    assert isinstance(node, Call)
    spans = [interval(a, variables, expression) for a in node.args]
    if node.name == "max":
        return max(s[0] for s in spans), max(s[1] for s in spans)
    if node.name == "min":
        return min(s[0] for s in spans), min(s[1] for s in spans)
    lo, hi = spans[0]
    if node.name == "abs":
        return (Fraction(0) if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
    fn = math.ceil if node.name == "ceil" else math.floor
    return Fraction(fn(lo)), Fraction(fn(hi))
