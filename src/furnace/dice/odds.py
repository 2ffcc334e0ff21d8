"""Exact odds of an expression, by counting every way the dice can fall — with the work bounded first.

A distribution is a table of totals with whole weights over one denominator (every die is independent).
Before anything is computed, `estimate` walks the tree and bounds, for every part, the number of distinct
totals it can give and the steps it takes to work out (a sum of N dice: N × its totals, per run of equal
weights of its die; keeping n of N: the states of the keep table; a product: the pairs of totals; a set: every
way its items can fall; Fraction arithmetic and the final conversion cost more). Past `MAX_OUTCOMES` totals or
`MAX_WORK` steps it raises a `DiceLimitError` that says which part is too big and suggests fewer dice or
sampling with `furnace roll EXPR --times N` — in microseconds, before the work starts. Nothing here recurses:
the tree is folded with an explicit stack. A dice group with operators is worked out by `group_odds`
(explosions followed to `EXPLOSION_DEPTH` new dice a die, the depth icepool's `explode` takes by default).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import product
from typing import TypeVar

from furnace.dice.ast import COMPARISONS, AnyNode, BinOp, Call, Dice, Neg, Note, Num, Set, Var, operands
from furnace.dice.bounds import EXPLOSION_DEPTH
from furnace.dice.group_odds import MAX_OUTCOMES, MAX_WORK, Budget, Dist, Estimate, group, group_estimate
from furnace.dice.plan import ARITHMETIC, FUNCTIONS, Value, Variables, chosen_total, lookup
from furnace.errors import DiceError

__all__ = ["EXPLOSION_DEPTH", "MAX_OUTCOMES", "MAX_WORK", "at_least", "convolve", "distribution", "estimate",
           "mean", "mixture"]

FRACTION_COST = 10       # a step on Fractions (after a '/') costs about ten steps on whole numbers

T = TypeVar("T")


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


# -- the estimate --------------------------------------------------------------------------------------

def _leaf_estimate(node: AnyNode, variables: Variables, budget: Budget) -> Estimate:
    if isinstance(node, Num):
        return Estimate(1, Fraction(node.value), Fraction(node.value), True)
    if isinstance(node, Var):
        value = lookup(variables, node.name, budget.expression)
        if isinstance(value, int):
            return Estimate(1, Fraction(value), Fraction(value), True)
        budget.spend(value.sides, value.sides, node.name)
        return Estimate(value.sides, Fraction(1), Fraction(value.sides), True)
    if isinstance(node, Set):   # the empty set
        return Estimate(1, Fraction(0), Fraction(0), True)
    assert isinstance(node, Dice)
    return group_estimate(node, variables, budget)


_NAMES = {"+": "the sum", "-": "the difference", "*": "the product", "/": "the quotient", "//": "the quotient",
          "%": "the remainder"}


def _set_estimate(node: Set, args: list[Estimate], budget: Budget) -> Estimate:
    ways = math.prod(a.size for a in args)
    whole = all(a.whole for a in args)
    known = all(a.low is not None and a.high is not None for a in args)
    low = sum((min(a.low, Fraction(0)) if node.ops else a.low for a in args), Fraction(0)) if known else None  # type: ignore[type-var]
    high = sum((max(a.high, Fraction(0)) if node.ops else a.high for a in args), Fraction(0)) if known else None  # type: ignore[type-var]
    size = ways if not whole or low is None or high is None else min(ways, int(high - low) + 1)
    budget.spend(ways * len(args) * (1 if whole else FRACTION_COST), size,
                 f"the set of {len(args)} parts with {' × '.join(f'{a.size:,}' for a in args)} ways to fall")
    return Estimate(size, low, high, whole)


def _inner_estimate(node: AnyNode, args: list[Estimate], budget: Budget) -> Estimate:
    if isinstance(node, Note):
        return args[0]
    if isinstance(node, Set):
        return _set_estimate(node, args, budget)
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
    op = node.op if isinstance(node, BinOp) else node.name  # type: ignore[union-attr]
    whole = (a.whole and b.whole and op != "/") or op in COMPARISONS or op == "//"
    low, high = _range(op, a, b)
    size = pairs
    if op in ("max", "min"):
        size = min(pairs, a.size + b.size)
    elif op in COMPARISONS:
        size = min(pairs, 2)
    elif whole and low is not None and high is not None:
        size = min(pairs, int(high - low) + 1)
    cost = 1 if a.whole and b.whole and op != "/" else FRACTION_COST
    what = f"{_NAMES.get(op, 'the comparison' if op in COMPARISONS else op + '(…)')} of parts with {a.size:,} and " \
           f"{b.size:,} totals"
    budget.spend(pairs * cost, size, what)
    return Estimate(size, low, high, whole)


def _range(op: str, a: Estimate, b: Estimate) -> tuple[Fraction | None, Fraction | None]:
    if op in COMPARISONS:
        return Fraction(0), Fraction(1)
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
    if op in ("/", "//", "%") and c <= 0 <= d:
        return None, None
    if op == "%":
        return (Fraction(0), d) if c > 0 else (c, Fraction(0))
    if op in ("/", "//"):
        c, d = 1 / d, 1 / c
    products = [a.low * c, a.low * d, a.high * c, a.high * d]
    if op == "//":
        return Fraction(math.floor(min(products))), Fraction(math.floor(max(products)))
    return min(products), max(products)


def estimate(node: AnyNode, variables: Variables, expression: str) -> int:
    """The steps the exact odds take; a `DiceLimitError` (at once) if too many, or too many totals."""
    budget = Budget(expression)
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
            out[_exact(fn(x, y))] += wx * wy
    return Dist(dict(out), a.denominator * b.denominator)


def _leaf(node: AnyNode, variables: Variables, expression: str, depth: int) -> Dist:
    if isinstance(node, Num):
        return Dist({node.value: 1}, 1)
    if isinstance(node, Var):
        value = lookup(variables, node.name, expression)
        if isinstance(value, int):
            return Dist({value: 1}, 1)
        return Dist(dict.fromkeys(range(1, value.sides + 1), 1), value.sides)
    if isinstance(node, Set):
        return Dist({0: 1}, 1)
    assert isinstance(node, Dice)
    return group(node, variables, expression, depth)


def _set(node: Set, args: list[Dist]) -> Dist:
    """Every way the set's items can fall, each kept or dropped as the roller does (`plan.chosen_total`)."""
    out: defaultdict[Value, int] = defaultdict(int)
    for combination in product(*(list(d.weights.items()) for d in args)):
        _kept, total = chosen_total(node, [value for value, _ in combination])
        out[_exact(total)] += math.prod(weight for _, weight in combination)
    return Dist(dict(out), math.prod(d.denominator for d in args))


def _inner(node: AnyNode, args: list[Dist], expression: str) -> Dist:
    if isinstance(node, Note):
        return args[0]
    if isinstance(node, Set):
        return _set(node, args)
    if isinstance(node, Neg):
        return _map(args[0], lambda v: -v)
    if isinstance(node, Call):
        fn = FUNCTIONS[node.name]
        if len(args) == 1:
            return _map(args[0], fn)
        return _pairs(args[0], args[1], fn)
    assert isinstance(node, BinOp)
    apply = ARITHMETIC[node.op]
    if node.op in ("/", "//", "%") and 0 in args[1].weights:
        raise DiceError("division by zero is possible", expression)
    return _pairs(args[0], args[1], lambda a, b: apply(a, b, expression))


def distribution(node: AnyNode, variables: Variables, expression: str,
                 depth: int = EXPLOSION_DEPTH) -> dict[int, Fraction]:
    """Each possible total (rounded down, as a roll's total is) and its exact probability; an explosion is followed
    to `depth` new dice a die (then the last die stands), the work estimated at the default depth."""
    estimate(node, variables, expression)
    dist = fold(node, lambda n: _leaf(n, variables, expression, min(depth, EXPLOSION_DEPTH)),
                lambda n, args: _inner(n, args, expression))
    totals: defaultdict[int, int] = defaultdict(int)
    for value, weight in dist.weights.items():
        totals[math.floor(value)] += weight
    return {total: Fraction(weight, dist.denominator) for total, weight in sorted(totals.items()) if weight}


# -- working with finished distributions ------------------------------------------------------------------

Distribution = dict[int, Fraction]


def _whole(dist: Distribution) -> tuple[dict[int, int], int]:
    """The probabilities as whole numbers over one denominator (their least common one): sums and products of whole
    numbers, and one `Fraction` a total at the end, cost a fraction of a `Fraction` a step (the same exact values)."""
    denominator = math.lcm(*(p.denominator for p in dist.values()))
    return {total: p.numerator * (denominator // p.denominator) for total, p in dist.items()}, denominator


def at_least(dist: Distribution, dc: int) -> Fraction:
    """P(total ≥ dc) read off a distribution already worked out (meet or beat), so a DC never costs a second
    computation of the same odds."""
    counts, denominator = _whole(dist)
    return Fraction(sum(n for total, n in counts.items() if total >= dc), denominator)


def mean(dist: Distribution) -> Fraction:
    counts, denominator = _whole(dist)
    return Fraction(sum(total * n for total, n in counts.items()), denominator)


def convolve(a: Distribution, b: Distribution) -> Distribution:
    """The distribution of the sum of two independent totals."""
    (left, over_left), (right, over_right) = _whole(a), _whole(b)
    out: defaultdict[int, int] = defaultdict(int)
    for x, nx in left.items():
        for y, ny in right.items():
            out[x + y] += nx * ny
    denominator = over_left * over_right
    return {total: Fraction(n, denominator) for total, n in sorted(out.items())}


def mixture(parts: Sequence[tuple[Fraction, Distribution]]) -> Distribution:
    """One distribution from several, each taken with its probability (the weights need not sum to 1: what is
    left out is simply not there, e.g. the misses of an attack's hits)."""
    terms = []
    for weight, dist in parts:
        if weight:
            counts, denominator = _whole(dist)
            terms.append((weight.numerator, weight.denominator * denominator, counts))
    common = math.lcm(*(denominator for _, denominator, _ in terms))
    out: defaultdict[int, int] = defaultdict(int)
    for numerator, denominator, counts in terms:
        scale = numerator * (common // denominator)
        for total, n in counts.items():
            out[total] += scale * n
    return {total: Fraction(n, common) for total, n in sorted(out.items()) if n}
