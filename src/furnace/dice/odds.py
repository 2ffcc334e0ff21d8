"""Exact odds of an expression, by counting every way the dice can fall — with the work bounded first.

A distribution is a table of totals with whole weights over one denominator (every die is independent).
Before anything is computed, `estimate` walks the tree and bounds, for every part, the number of distinct
totals it can give and the steps it takes to work out (a sum of N dice: N × its totals, per run of equal
weights of its die; keeping n of N: the states of the keep table; a product: the pairs of totals; Fraction
arithmetic and the final conversion cost more). Past `MAX_OUTCOMES` totals or `MAX_WORK` steps it raises a
`DiceLimitError` that says which part is too big and suggests fewer dice or sampling with
`furnace roll EXPR --times N` — in microseconds, before the work starts. Nothing here recurses: the tree is
folded with an explicit stack.

    sum of N iid dice     a sliding window over prefix sums, one pass per die: N × totals steps
    keep n of N (kh, kl)  a table over (dice placed, kept sum), from the best face down
    ro X                  a die showing X is rolled again once: P(f) = [f ≠ X]/M + 1/M²
    mi m                  faces below m count as m
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import accumulate
from typing import NamedTuple, TypeVar

from furnace.dice.ast import AnyNode, BinOp, Call, Dice, Neg, Num, Var, operands
from furnace.dice.bounds import kept_count
from furnace.dice.result import Value
from furnace.dice.roller import Variables, counted_sides, group_count, lookup
from furnace.errors import DiceError, DiceLimitError

MAX_OUTCOMES = 20_000    # distinct totals of any part: a chart of 20,000 bars is already no chart
MAX_WORK = 500_000       # steps (about a quarter of a microsecond each): well under a second in all
FRACTION_COST = 10       # a step on Fractions (after a '/') costs about ten steps on whole numbers

T = TypeVar("T")


class Dist(NamedTuple):
    """Totals and their whole weights; P(total) = weight / denominator."""

    weights: dict[Value, int]
    denominator: int


class Estimate(NamedTuple):
    size: int                     # at most this many distinct totals
    low: Fraction | None          # the range of the totals, when known
    high: Fraction | None
    whole: bool                   # every total is a whole number


def fold(node: AnyNode, leaf: Callable[[AnyNode], T], inner: Callable[[AnyNode, list[T]], T]) -> T:
    """Post-order over the tree with an explicit stack (no recursion, whatever the depth)."""
    stack: list[tuple[AnyNode, bool]] = [(node, False)]
    values: list[T] = []
    while stack:
        item, done = stack.pop()
        kids = operands(item)
        if not kids:
            values.append(leaf(item))
        elif done:
            args = values[len(values) - len(kids):]
            del values[len(values) - len(kids):]
            values.append(inner(item, args))
        else:
            stack.append((item, True))
            stack += [(kid, False) for kid in reversed(kids)]
    return values[0]


# -- one die, and a group of dice ------------------------------------------------------------------------

class Die(NamedTuple):
    """One die after `ro` and `mi`: weights[i] for the value low + i (over `denominator`)."""

    low: int
    weights: list[int]
    denominator: int


def one_die(sides: int, reroll: int | None, minimum: int | None) -> Die:
    if reroll is not None and 1 <= reroll <= sides:   # P(f) = [f ≠ X]/M + (1/M)(1/M)
        weights = [sides * (face != reroll) + 1 for face in range(1, sides + 1)]
        denominator = sides * sides
    else:
        weights, denominator = [1] * sides, sides
    if minimum and minimum > 1:
        below = sum(weights[: min(minimum, sides + 1) - 1])
        weights = [below + (weights[minimum - 1] if minimum <= sides else 0), *weights[minimum:]]
        return Die(minimum, weights, denominator)
    return Die(1, weights, denominator)


def _runs(weights: list[int]) -> list[tuple[int, int, int]]:
    """Maximal runs of equal non-zero weights: (offset, length, weight)."""
    runs: list[tuple[int, int, int]] = []
    start = 0
    for i in range(1, len(weights) + 1):
        if i == len(weights) or weights[i] != weights[start]:
            if weights[start]:
                runs.append((start, i - start, weights[start]))
            start = i
    return runs


def sum_of(die: Die, count: int) -> Dist:
    """The sum of `count` such dice: each die multiplies the table by its weights, run by run, through
    prefix sums (a run of equal weights is a sliding window), so one die costs one pass over the table."""
    runs = _runs(die.weights)
    span = len(die.weights) - 1
    table = [1]
    for _ in range(count):
        n = len(table)
        prefix = [0, *accumulate(table)]
        new = [0] * (n + span)
        for offset, length, weight in runs:
            padded = [0] * (length - 1) + prefix + [prefix[-1]] * (length - 1)
            window = [a - b for a, b in zip(padded[length:], padded, strict=False)]
            if weight != 1:
                window = [weight * w for w in window]
            new[offset: offset + len(window)] = [a + b for a, b in
                                                 zip(new[offset: offset + len(window)], window, strict=True)]
        table = new
    low = count * die.low
    return Dist({low + i: w for i, w in enumerate(table) if w}, die.denominator ** count)


def keep_of(die: Die, count: int, keep: int, highest: bool) -> Dist:
    """The sum of the `keep` highest (or lowest) of `count` such dice.

    The faces are taken from the best down; a state is (dice placed so far, their sum), all of them kept
    while fewer than `keep` are placed. Placing c more dice on a face weighs C(left, c)·w^c. The moment
    `keep` dice are placed the kept sum is settled, whatever the rest show as long as it is worse: all the
    ways for that, Σ_{c ≥ need} C(left, c)·w^c·worse^(left-c) = (w + worse)^left − Σ_{c < need} …, come
    at once.
    """
    faces = [(die.low + i, w) for i, w in enumerate(die.weights) if w]
    faces.sort(reverse=highest)
    worse = die.denominator
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    result: defaultdict[int, int] = defaultdict(int)
    for value, weight in faces:
        worse -= weight
        following: defaultdict[tuple[int, int], int] = defaultdict(int)
        rows: dict[int, tuple[list[int], int]] = {}
        for (placed, kept_sum), ways in states.items():
            left = count - placed
            need = keep - placed
            if left not in rows:
                row = [math.comb(left, c) * weight**c for c in range(min(need, left + 1))]
                tail = ((weight + worse) ** left - sum(r * worse ** (left - c) for c, r in enumerate(row))
                        if need <= left else 0)
                rows[left] = row, tail
            row, tail = rows[left]
            for c, r in enumerate(row):
                following[(placed + c, kept_sum + c * value)] += ways * r
            if tail:
                result[kept_sum + need * value] += ways * tail
        states = following
    return Dist({k: v for k, v in result.items() if v}, die.denominator ** count)


def _group_plan(node: Dice, variables: Variables, expression: str) -> tuple[int, int, int, str | None]:
    """sides, dice rolled, dice kept, and 'kh'/'kl' when only some are kept."""
    sides = counted_sides(node, variables, expression)
    count = group_count(node, variables, expression)
    kept = kept_count(node, count)
    mode: str | None = None
    if kept != count:
        if node.advantage:
            mode = "kh" if node.advantage == "adv" else "kl"
        else:
            mode = "kh" if node.keep in ("kh", "dl") else "kl"
    return sides, count, kept, mode


def group(node: Dice, variables: Variables, expression: str) -> Dist:
    sides, count, kept, mode = _group_plan(node, variables, expression)
    die = one_die(sides, node.reroll, node.minimum)
    if count == 0:
        return Dist({0: 1}, 1)
    if mode is None:
        return sum_of(die, count)
    return keep_of(die, count, kept, mode == "kh")


# -- the estimate --------------------------------------------------------------------------------------

class _Budget:
    def __init__(self, expression: str) -> None:
        self.expression = expression
        self.work = 0
        self.largest: tuple[int, str] = (0, "")

    def refuse(self, why: str) -> DiceLimitError:
        sample = f'furnace roll "{self.expression}" --times 1000'
        return DiceLimitError(f"no exact odds: {why}; ask about fewer dice or fewer sides, or sample the total "
                              f"with {sample}", self.expression)

    def spend(self, steps: int, size: int, what: str, how: str = "") -> None:
        if size > MAX_OUTCOMES:
            raise self.refuse(f"{what} can give up to {size:,} different totals, more than the "
                              f"{MAX_OUTCOMES:,} exact odds are worked out for")
        self.work += steps
        if steps >= self.largest[0]:
            if how:   # "4d6 (4 dice of 6 faces)" → "4d6 (4 dice of 6 faces: 21 totals × 4 dice)"
                what = f"{what[:-1]}: {how})" if what.endswith(")") else f"{what} ({how})"
            self.largest = (steps, what)
        if self.work > MAX_WORK:
            most, name = self.largest
            if most == self.work:
                raise self.refuse(f"{name} would take about {most:,} steps, past the limit of {MAX_WORK:,}")
            raise self.refuse(f"working them out would take about {self.work:,} steps in all, past the limit of "
                              f"{MAX_WORK:,}, the most of them ({most:,}) for {name}")


def _group_estimate(node: Dice, variables: Variables, budget: _Budget) -> Estimate:
    sides, count, kept, mode = _group_plan(node, variables, budget.expression)
    low = max(1, node.minimum or 1)
    high = max(sides, node.minimum or 1)
    span = high - low
    faces = span + 1
    runs = 1 + (2 if node.reroll is not None else 0) + (1 if node.minimum else 0)
    size = kept * span + 1
    if count == 0:
        return Estimate(1, Fraction(0), Fraction(0), True)
    bits = count * (2 if node.reroll is not None else 1) * sides.bit_length()   # of the weights
    if mode is None:
        steps = runs * count * size * (1 + bits // 4000) + faces
        budget.spend(steps, size, f"{node.text} ({count:,} dice of {faces:,} faces)",
                     f"{size:,} totals × {count:,} dice")
    else:  # per face: each state (dice placed, sum) steps once per die it may still place, and once more
        states = sum((j * span + 1) * (kept - j + 1) for j in range(kept)) + kept * bits.bit_length()
        budget.spend(faces * states * (1 + bits // 1000) ** 2, size,
                     f"{node.text} (keeping {kept:,} of {count:,} dice of {faces:,} faces)",
                     f"{faces:,} faces × the ways to keep {kept:,} dice")
    return Estimate(size, Fraction(kept * low), Fraction(kept * high), True)


def _leaf_estimate(node: AnyNode, variables: Variables, budget: _Budget) -> Estimate:
    if isinstance(node, Num):
        return Estimate(1, Fraction(node.value), Fraction(node.value), True)
    if isinstance(node, Var):
        value = lookup(variables, node.name, budget.expression)
        if isinstance(value, int):
            return Estimate(1, Fraction(value), Fraction(value), True)
        budget.spend(value.sides, value.sides, node.name)
        return Estimate(value.sides, Fraction(1), Fraction(value.sides), True)
    assert isinstance(node, Dice)
    return _group_estimate(node, variables, budget)


_NAMES = {"+": "the sum", "-": "the difference", "*": "the product", "/": "the quotient"}


def _inner_estimate(node: AnyNode, args: list[Estimate], budget: _Budget) -> Estimate:
    if isinstance(node, Neg):
        (a,) = args
        budget.spend(a.size * (1 if a.whole else FRACTION_COST), a.size, "a negation")
        return Estimate(a.size, None if a.high is None else -a.high, None if a.low is None else -a.low, a.whole)
    if isinstance(node, Call) and len(args) == 1:
        (a,) = args
        budget.spend(a.size * (1 if a.whole else FRACTION_COST), a.size, f"{node.name}(…)")
        if a.low is None or a.high is None:
            return Estimate(a.size, None, None, a.whole or node.name != "abs")
        if node.name == "abs":
            least = Fraction(0) if a.low <= 0 <= a.high else min(abs(a.low), abs(a.high))
            return Estimate(a.size, least, max(abs(a.low), abs(a.high)), a.whole)
        fn = math.ceil if node.name == "ceil" else math.floor
        return Estimate(a.size, Fraction(fn(a.low)), Fraction(fn(a.high)), True)
    a, b = args
    pairs = a.size * b.size
    whole = a.whole and b.whole
    op = node.op if isinstance(node, BinOp) else node.name  # type: ignore[union-attr]
    low, high = _range(op, a, b)
    size = pairs
    if op in ("max", "min"):
        size = min(pairs, a.size + b.size)
    elif op != "/" and whole and low is not None and high is not None:
        size = min(pairs, int(high - low) + 1)
    cost = 1 if whole and op != "/" else FRACTION_COST
    what = f"{_NAMES.get(op, op + '(…)')} of parts with {a.size:,} and {b.size:,} totals"
    budget.spend(pairs * cost, size, what)
    return Estimate(size, low, high, whole and op != "/")


def _range(op: str, a: Estimate, b: Estimate) -> tuple[Fraction | None, Fraction | None]:
    if a.low is None or a.high is None or b.low is None or b.high is None:
        return None, None
    if op == "+":
        return a.low + b.low, a.high + b.high
    if op == "-":
        return a.low - b.high, a.high - b.low
    if op == "max":
        return max(a.low, b.low), max(a.high, b.high)
    if op == "min":
        return min(a.low, b.low), min(a.high, b.high)
    c, d = b.low, b.high
    if op == "/":
        if c <= 0 <= d:
            return None, None
        c, d = 1 / d, 1 / c
    products = [a.low * c, a.low * d, a.high * c, a.high * d]
    return min(products), max(products)


def estimate(node: AnyNode, variables: Variables, expression: str) -> int:
    """The steps the exact odds take; a `DiceLimitError` (at once) if too many, or too many totals."""
    budget = _Budget(expression)
    final = fold(node, lambda n: _leaf_estimate(n, variables, budget),
                 lambda n, args: _inner_estimate(n, args, budget))
    budget.spend(final.size * FRACTION_COST, final.size, "the whole expression")
    return budget.work


# -- the computation -------------------------------------------------------------------------------------

def _exact(value: Value) -> Value:
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def _map(dist: Dist, fn: Callable[[Value], Value]) -> Dist:
    out: defaultdict[Value, int] = defaultdict(int)
    for value, weight in dist.weights.items():
        out[_exact(fn(value))] += weight
    return Dist(dict(out), dist.denominator)


def _pairs(a: Dist, b: Dist, fn: Callable[[Value, Value], Value]) -> Dist:
    out: defaultdict[Value, int] = defaultdict(int)
    right = list(b.weights.items())
    for x, wx in a.weights.items():
        for y, wy in right:
            out[fn(x, y)] += wx * wy
    return Dist(dict(out), a.denominator * b.denominator)


def _leaf(node: AnyNode, variables: Variables, expression: str) -> Dist:
    if isinstance(node, Num):
        return Dist({node.value: 1}, 1)
    if isinstance(node, Var):
        value = lookup(variables, node.name, expression)
        if isinstance(value, int):
            return Dist({value: 1}, 1)
        return Dist(dict.fromkeys(range(1, value.sides + 1), 1), value.sides)
    assert isinstance(node, Dice)
    return group(node, variables, expression)


def _divide(expression: str) -> Callable[[Value, Value], Value]:
    def divide(a: Value, b: Value) -> Value:
        return _exact(Fraction(a) / b)

    return divide


_FUNCTIONS: dict[str, Callable[..., Value]] = {"ceil": math.ceil, "floor": math.floor, "abs": abs,
                                               "max": max, "min": min}
_OPERATIONS: dict[str, Callable[[Value, Value], Value]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
}


def _inner(node: AnyNode, args: list[Dist], expression: str) -> Dist:
    if isinstance(node, Neg):
        return _map(args[0], lambda v: -v)
    if isinstance(node, Call):
        fn = _FUNCTIONS[node.name]
        if len(args) == 1:
            return _map(args[0], fn)
        return _pairs(args[0], args[1], fn)
    assert isinstance(node, BinOp)
    if node.op == "/":
        if 0 in args[1].weights:
            raise DiceError("division by zero is possible", expression)
        return _pairs(args[0], args[1], _divide(expression))
    return _pairs(args[0], args[1], _OPERATIONS[node.op])


def distribution(node: AnyNode, variables: Variables, expression: str) -> dict[int, Fraction]:
    """Each possible total (rounded down, as a roll's total is) and its exact probability."""
    estimate(node, variables, expression)
    dist = fold(node, lambda n: _leaf(n, variables, expression), lambda n, args: _inner(n, args, expression))
    totals: defaultdict[int, int] = defaultdict(int)
    for value, weight in dist.weights.items():
        totals[math.floor(value)] += weight
    return {total: Fraction(weight, dist.denominator) for total, weight in sorted(totals.items())}


# -- working with finished distributions ------------------------------------------------------------------

Distribution = dict[int, Fraction]


def at_least(dist: Distribution, dc: int) -> Fraction:
    """P(total ≥ dc) read off a distribution already worked out (meet or beat), so a DC never costs a second
    computation of the same odds."""
    return sum((p for total, p in dist.items() if total >= dc), Fraction(0))


def mean(dist: Distribution) -> Fraction:
    return sum((total * p for total, p in dist.items()), Fraction(0))


def convolve(a: Distribution, b: Distribution) -> Distribution:
    """The distribution of the sum of two independent totals."""
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] += px * py
    return dict(sorted(out.items()))


def mixture(parts: Sequence[tuple[Fraction, Distribution]]) -> Distribution:
    """One distribution from several, each taken with its probability (the weights need not sum to 1: what is
    left out is simply not there, e.g. the misses of an attack's hits)."""
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for weight, dist in parts:
        if weight:
            for total, p in dist.items():
                out[total] += weight * p
    return {k: v for k, v in sorted(out.items()) if v}
