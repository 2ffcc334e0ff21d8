"""The lowest and highest total an expression can give, by interval arithmetic (no enumeration).

A dice group's interval comes from what its kept dice can count as and how many are kept (`operators.reach`).
An explosion has no highest total but the one the roll's limit allows (every face the roll may still draw,
`MAX_ROLLS`, exploding), so the bounds hold for every roll; the exact odds follow an explosion to
`EXPLOSION_DEPTH` new dice a die, and their distribution's highest total is lower.
"""

from __future__ import annotations

import math
from fractions import Fraction

from furnace.dice.ast import COMPARISONS, AnyNode, BinOp, Call, Dice, Neg, Note, Num, Set, Var, operands
from furnace.dice.operators import reach
from furnace.dice.plan import Variables, counted_sides, group_count, lookup
from furnace.dice.values import MAX_ROLLS
from furnace.errors import DiceError

Interval = tuple[Fraction, Fraction]
EXPLOSION_DEPTH = 9     # new dice an exploding die adds at most in the exact odds (icepool's default depth)


def kept_range(node: Dice, sides: int, count: int, depth: int | None = None) -> tuple[frozenset[int], int, int]:
    """What the group's kept dice can count as, and the fewest and most of them kept: with explosions followed to
    `depth` new dice a die, or (None) as far as the roll's limit lets them go."""
    found = reach(sides, count, node.ops, depth)
    return found.values, found.least, found.most if found.most is not None else count + MAX_ROLLS


def group_interval(node: Dice, variables: Variables, expression: str, depth: int | None = None) -> Interval:
    sides = counted_sides(node, variables, expression)
    values, least, most = kept_range(node, sides, group_count(node, variables, expression), depth)
    if not values:
        return Fraction(0), Fraction(0)
    return Fraction(least * min(values)), Fraction(most * max(values))


def _binary(op: str, left: Interval, right: Interval, expression: str) -> Interval:
    (a, b), (c, d) = left, right
    if op == "+":
        return a + c, b + d
    if op == "-":
        return a - d, b - c
    if op in COMPARISONS:
        return Fraction(0), Fraction(1)
    if op in ("/", "//", "%") and c <= 0 <= d:
        raise DiceError("the divisor can be zero", expression)
    if op == "%":   # the sign of the divisor; below its size
        return (Fraction(0), d) if c > 0 else (c, Fraction(0))
    if op in ("/", "//"):
        c, d = 1 / d, 1 / c
    products = [a * c, a * d, b * c, b * d]
    low, high = min(products), max(products)
    return (Fraction(math.floor(low)), Fraction(math.floor(high))) if op == "//" else (low, high)


def _set(node: Set, spans: list[Interval]) -> Interval:
    """A set's total: all its items without operators; with one keep or drop of the n highest (lowest), the sums of
    the n highest (lowest) lows and highs, since the kept values are the n highest (lowest); otherwise between the
    sums of the items' negative lows and positive highs, whatever is kept."""
    if not node.ops:
        return sum((s[0] for s in spans), Fraction(0)), sum((s[1] for s in spans), Fraction(0))
    if len(node.ops) == 1 and len(node.ops[0].selectors) == 1 and node.ops[0].selectors[0].ranks:
        op, selector = node.ops[0], node.ops[0].selectors[0]
        n = min(selector.n, len(spans))
        highest = (selector.kind == "h") == (op.word == "k")     # keep the highest, or drop the lowest
        kept = n if op.word == "k" else len(spans) - n
        lows, highs = sorted(s[0] for s in spans), sorted(s[1] for s in spans)
        at = len(spans) - kept if highest else 0
        return sum(lows[at:at + kept], Fraction(0)), sum(highs[at:at + kept], Fraction(0))
    return sum((min(s[0], Fraction(0)) for s in spans), Fraction(0)), sum((max(s[1], Fraction(0)) for s in spans),
                                                                          Fraction(0))


def interval(node: AnyNode, variables: Variables, expression: str) -> Interval:
    if isinstance(node, Num):
        return Fraction(node.value), Fraction(node.value)
    if isinstance(node, Var):
        value = lookup(variables, node.name, expression)
        if isinstance(value, int):
            return Fraction(value), Fraction(value)
        return Fraction(1), Fraction(value.sides)
    if isinstance(node, Dice):
        return group_interval(node, variables, expression)
    if isinstance(node, Note):
        return interval(node.operand, variables, expression)
    if isinstance(node, Neg):
        lo, hi = interval(node.operand, variables, expression)
        return -hi, -lo
    if isinstance(node, BinOp):
        return _binary(node.op, interval(node.left, variables, expression), interval(node.right, variables, expression),
                       expression)
    if isinstance(node, Set):
        return _set(node, [interval(a, variables, expression) for a in node.items])
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


def dice_maximum(node: AnyNode, variables: Variables, expression: str) -> int:
    """The highest total of the dice alone, whatever joins them: each dice group (and each variable holding a die)
    at its highest, added up; numbers and variables holding numbers count nothing. `1d8+1d6` → 14, `-1+1d8` → 8,
    `(1d8+2)` → 8: a crit's "maximum of the dice" (crit_damage max_dice_only). An exploding die counts its highest
    face once (an explosion is a roll's luck, not the weapon's maximum)."""
    total = Fraction(0)
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Dice):
            total += group_interval(item, variables, expression, depth=0)[1]
        elif isinstance(item, Var):
            value = lookup(variables, item.name, expression)
            total += 0 if isinstance(value, int) else value.sides
        else:
            stack += list(operands(item))
    return math.floor(total)
