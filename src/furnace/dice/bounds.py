"""The lowest and highest total an expression can give, by interval arithmetic (no enumeration)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from furnace.dice.ast import AnyNode, BinOp, Call, Dice, Neg, Num, Var
from furnace.dice.roller import die_sides, lookup
from furnace.errors import DiceError

Interval = tuple[Fraction, Fraction]


def _dice(node: Dice, variables: Mapping[str, int | str], expression: str) -> Interval:
    sides = node.sides or die_sides(lookup(variables, node.sides_var or "", expression),
                                     node.sides_var or "", expression)
    kept = 1 if node.advantage else node.count
    if node.keep in ("kh", "kl"):
        kept = node.keep_n
    elif node.keep in ("dh", "dl"):
        kept = node.count - node.keep_n
    return Fraction(kept), Fraction(kept * sides)


def interval(node: AnyNode, variables: Mapping[str, int | str], expression: str) -> Interval:
    if isinstance(node, Num):
        return Fraction(node.value), Fraction(node.value)
    if isinstance(node, Var):
        value = lookup(variables, node.name, expression)
        if isinstance(value, int):
            return Fraction(value), Fraction(value)
        return Fraction(1), Fraction(die_sides(value, node.name, expression))
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
