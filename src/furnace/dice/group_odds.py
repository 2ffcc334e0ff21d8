"""The exact distribution of one dice group with its operators, and the work it takes, estimated first.

What one die comes to, through the operators that act on each die alone, is a table of whole weights over one
denominator (`Unit`, a dropped die kept apart as DROPPED until it counts 0):

    mi m / ma m       values below (above) m count as m
    k / p  =X <X >X   a die not kept (dropped) counts nothing, and no later operator chooses it
    rr S              a chosen value is replaced by a face S does not choose: P(f) = 1 / (faces not chosen)
    ro S              a chosen value is replaced by any face: P(f) = 1 / sides
    e S               a chosen die adds a new die, itself exploding when chosen, to EXPLOSION_DEPTH new dice a
                      die; then the last die stands (icepool's `explode(depth=9)`); each die goes on through the
                      operators after the `e` on its own

The group is then the sum of its N dice (a sliding window per die, as for plain dice), or, when the last
operator keeps or drops the n highest or lowest, `keep_of` (a table over dice placed and their sum, the dropped
dice never chosen), or, for one `ra`: none of the N dice chosen, or some chosen and one more die. Anything else
(an operator after a keep of the highest or lowest, `h`/`l` on `ro` or `e`, two `ra`, an explosion before a keep
of the highest) has no exact odds here and is refused at once, suggesting sampling.
"""

import math
from collections import defaultdict
from fractions import Fraction
from itertools import accumulate
from typing import NamedTuple, TypeVar

from furnace.dice.ast import Dice, Operator, Selector
from furnace.dice.bounds import EXPLOSION_DEPTH, kept_range
from furnace.dice.plan import Value, Variables, counted_sides, group_count
from furnace.errors import DiceLimitError

MAX_OUTCOMES = 20_000    # distinct totals of any part: a chart of 20,000 bars is already no chart
MAX_WORK = 500_000       # steps (about a quarter of a microsecond each): well under a second in all
K = TypeVar("K")
DROPPED = -1             # a die no longer kept (values are never negative: faces, mi and ma are 0 or more)


class Dist(NamedTuple):
    """Totals and their whole weights; P(total) = weight / denominator."""

    weights: dict[Value, int]
    denominator: int


class Estimate(NamedTuple):
    size: int                     # at most this many distinct totals
    low: Fraction | None          # the range of the totals, when known
    high: Fraction | None
    whole: bool                   # every total is a whole number


class Budget:
    """The steps and totals of the exact odds, counted before the work; past a limit, a `DiceLimitError`."""

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


# -- the shape of a group's operators ---------------------------------------------------------------------------
class Shape(NamedTuple):
    """The operators split as the odds work them out: those acting on each die, and what acts on the group."""

    each: tuple[Operator, ...]         # mi, ma, rr, ro, e, and k/p with =, <, >
    last: Operator | None              # a keep or drop of the n highest or lowest, last
    added: int | None                  # where the one `ra` stands in `each`


def _alone(op: Operator) -> bool:
    return op.word in ("mi", "ma") or not any(s.ranks for s in op.selectors)


def shape(node: Dice, budget: Budget) -> Shape:
    """The group's operators split for the odds, or a refusal saying which has no exact odds here."""
    ops = list(node.ops)
    last = None
    if ops and ops[-1].word in ("k", "p") and not _alone(ops[-1]):
        last = ops.pop()
        if len(last.selectors) != 1:
            raise budget.refuse(f"{node.text} keeps or drops by several selectors at once")
    added = [i for i, op in enumerate(ops) if op.word == "ra"]
    for op in ops:
        if op.word != "ra" and not _alone(op):
            raise budget.refuse(f"{node.text} has '{op.word}' choosing the highest or lowest dice" +
                                ("" if op.word in ("ro", "e") else " before its last operator"))
    if len(added) > 1:
        raise budget.refuse(f"{node.text} rolls more than one 'ra'")
    words = [op.word for op in ops]
    if added and (last is not None or "e" in words[: added[0]]):
        raise budget.refuse(f"{node.text} rolls 'ra' with an explosion before it or a keep of the highest or "
                            "lowest after it")
    if last is not None and "e" in words:
        raise budget.refuse(f"{node.text} keeps the highest or lowest of dice that explode")
    return Shape(tuple(ops), last, added[0] if added else None)


# -- one die through the operators that act on each die alone ---------------------------------------------------
class Unit(NamedTuple):
    weights: dict[int, int]       # value (or DROPPED) → weight
    denominator: int


def fresh(sides: int) -> Unit:
    return Unit(dict.fromkeys(range(1, sides + 1), 1), sides)


def _chosen(selectors: tuple[Selector, ...], value: int) -> bool:
    return value != DROPPED and any(not s.ranks and s.matches(value) for s in selectors)


def split(unit: Unit, selectors: tuple[Selector, ...], every_kept: bool = False) -> tuple[Unit, Unit]:
    """The weights of the values chosen and of the others (each over the unit's denominator)."""
    chosen: dict[int, int] = {}
    other: dict[int, int] = {}
    for value, weight in unit.weights.items():
        taken = value != DROPPED if every_kept else _chosen(selectors, value)
        (chosen if taken else other)[value] = weight
    return Unit(chosen, unit.denominator), Unit(other, unit.denominator)


def _merge(*parts: tuple[dict[K, int], int]) -> dict[K, int]:
    """The parts' weights, each times its factor, added up value by value (weights of 0 left out)."""
    out: defaultdict[K, int] = defaultdict(int)
    for weights, times in parts:
        for value, weight in weights.items():
            out[value] += weight * times
    return {value: weight for value, weight in out.items() if weight}


def each_die(op: Operator, unit: Unit, sides: int) -> Unit:
    word, weights, denominator = op.word, unit.weights, unit.denominator
    if word in ("mi", "ma"):
        n = op.selectors[-1].n
        moved: defaultdict[int, int] = defaultdict(int)
        for v, w in weights.items():
            moved[v if v == DROPPED else max(v, n) if word == "mi" else min(v, n)] += w
        return Unit(dict(moved), denominator)
    chosen, other = split(unit, op.selectors)
    if word in ("k", "p"):
        stays, goes = (chosen, other) if word == "k" else (other, chosen)
        return Unit(_merge((stays.weights, 1), ({DROPPED: sum(goes.weights.values())}, 1)), denominator)
    again = sum(chosen.weights.values())
    faces = fresh(sides).weights
    if word == "ro":     # a chosen value gives way to any face
        return Unit(_merge((other.weights, sides), ({f: again for f in faces}, 1)), denominator * sides)
    escape = [f for f in faces if not _chosen(op.selectors, f)]   # rr: to a face not chosen (never none: the
    return Unit(_merge((other.weights, len(escape)), ({f: again for f in escape}, 1)),   # grammar refuses it)
                denominator * len(escape))


def _counted(unit: Unit) -> Dist:
    """A unit's values as what they add to the total (a dropped die counts 0)."""
    out: defaultdict[Value, int] = defaultdict(int)
    for value, weight in unit.weights.items():
        out[0 if value == DROPPED else value] += weight
    return Dist(dict(out), unit.denominator)


def _plus(a: Dist, b: Dist) -> Dist:
    """The sum of two independent parts (weights over the product of the denominators)."""
    out: defaultdict[Value, int] = defaultdict(int)
    right = list(b.weights.items())
    for x, wx in a.weights.items():
        for y, wy in right:
            out[x + y] += wx * wy
    return Dist(dict(out), a.denominator * b.denominator)


class _Walk:
    """A die's contribution to the total from operator `at` on, explosions followed to EXPLOSION_DEPTH."""

    def __init__(self, ops: tuple[Operator, ...], sides: int, depth: int) -> None:
        self.ops, self.sides, self.depth = ops, sides, depth
        self.spawned: dict[tuple[int, int], Dist] = {}

    def value(self, at: int, unit: Unit) -> Unit:
        """The unit after the operators from `at` on (none of them an explosion)."""
        for op in self.ops[at:]:
            unit = each_die(op, unit, self.sides)
        return unit

    def contribution(self, at: int, unit: Unit) -> Dist:
        for i in range(at, len(self.ops)):
            if self.ops[i].word == "e":
                return self.explode(i, unit, self.depth)
            unit = each_die(self.ops[i], unit, self.sides)
        return _counted(unit)

    def explode(self, at: int, unit: Unit, depth: int) -> Dist:
        chosen, other = split(unit, self.ops[at].selectors)
        if depth == 0 or not chosen.weights:
            return self.contribution(at + 1, unit)
        key = (at, depth - 1)
        if key not in self.spawned:
            self.spawned[key] = self.explode(at, fresh(self.sides), depth - 1)
        spawn = self.spawned[key]
        stays, goes = self.contribution(at + 1, other), _plus(self.contribution(at + 1, chosen), spawn)
        return Dist(_merge((stays.weights, spawn.denominator), (goes.weights, 1)), goes.denominator)


# -- the group --------------------------------------------------------------------------------------------------
class DenseDie(NamedTuple):
    """What one die adds: weights[i] for the value low + i (over `denominator`)."""

    low: int
    weights: list[int]
    denominator: int


def dense(dist: Dist) -> DenseDie:
    low, high = int(min(dist.weights)), int(max(dist.weights))
    return DenseDie(low, [dist.weights.get(v, 0) for v in range(low, high + 1)], dist.denominator)


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


def sum_of(die: DenseDie, count: int) -> Dist:
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


def keep_of(faces: list[tuple[int, int]], denominator: int, count: int, keep: int) -> Dist:
    """The sum of the `keep` best of `count` dice whose faces (value, weight) come best first.

    The faces are taken from the best down; a state is (dice placed so far, their sum), all of them kept
    while fewer than `keep` are placed. Placing c more dice on a face weighs C(left, c)·w^c. The moment
    `keep` dice are placed the kept sum is settled, whatever the rest show as long as it is worse: all the
    ways for that, Σ_{c ≥ need} C(left, c)·w^c·worse^(left-c) = (w + worse)^left − Σ_{c < need} …, come
    at once.
    """
    if keep == 0:
        return Dist({0: denominator ** count}, denominator ** count)
    worse = denominator
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
    return Dist({k: v for k, v in result.items() if v}, denominator ** count)


def _kept_last(last: Operator, unit: Unit, count: int) -> Dist:
    """The last keep or drop of the n highest or lowest, a dropped die never chosen (it counts 0)."""
    selector = last.selectors[0]
    n = min(selector.n, count)
    values = sorted((v, w) for v, w in unit.weights.items() if v != DROPPED)
    gone = [(0, unit.weights[DROPPED])] if DROPPED in unit.weights else []
    if last.word == "k":      # keep the n highest (lowest): best first, the dropped dice worst
        best = values[::-1] if selector.kind == "h" else values
        return keep_of(best + gone, unit.denominator, count, n)
    # drop the n highest (lowest): keep the count − n others, the dropped dice first (they are never chosen)
    best = values if selector.kind == "h" else values[::-1]
    return keep_of(gone + best, unit.denominator, count, count - n)


def _with_one_more(walk: _Walk, at: int, count: int) -> Dist:
    """One `ra` (operator `at`): none of the dice chosen, or some chosen and one more die, which goes on through the
    operators after the `ra` (those before it act on each die alone: `shape` sees to it)."""
    op = walk.ops[at]
    unit = fresh(walk.sides)
    for before in walk.ops[:at]:
        unit = each_die(before, unit, walk.sides)
    _chosen_part, other = split(unit, op.selectors, every_kept=any(s.ranks and s.n > 0 for s in op.selectors))
    whole = walk.contribution(at + 1, unit)
    every = sum_of(dense(whole), count)
    unchosen = walk.contribution(at + 1, other)
    none = sum_of(dense(unchosen), count) if unchosen.weights else Dist({}, every.denominator)
    some = Dist(_merge((every.weights, 1), (none.weights, -1)), every.denominator)
    extra = walk.contribution(at + 1, fresh(walk.sides))
    more = _plus(some, extra) if some.weights else Dist({}, every.denominator * extra.denominator)
    return Dist(_merge((none.weights, extra.denominator), (more.weights, 1)), more.denominator)


def group(node: Dice, variables: Variables, expression: str, depth: int = EXPLOSION_DEPTH) -> Dist:
    sides = counted_sides(node, variables, expression)
    count = group_count(node, variables, expression)
    if count == 0:
        return Dist({0: 1}, 1)
    found = shape(node, Budget(expression))
    walk = _Walk(found.each, sides, depth)
    if found.added is not None:
        return _with_one_more(walk, found.added, count)
    if found.last is not None:
        return _kept_last(found.last, walk.value(0, fresh(sides)), count)
    return sum_of(dense(walk.contribution(0, fresh(sides))), count)


# -- the estimate ----------------------------------------------------------------------------------------------
def group_estimate(node: Dice, variables: Variables, budget: Budget) -> Estimate:
    sides = counted_sides(node, variables, budget.expression)
    count = group_count(node, variables, budget.expression)
    if count == 0:
        return Estimate(1, Fraction(0), Fraction(0), True)
    found = shape(node, budget)
    values, least, most = kept_range(node, sides, count, EXPLOSION_DEPTH)
    low, high = (min(values), max(values)) if values else (0, 0)
    size = most * high - least * low + 1
    words = [op.word for op in found.each]
    chains = (EXPLOSION_DEPTH + 1) ** words.count("e")
    span = (chains if "e" in words else 1) * high - min(low, 0) + 1      # the values one die can add
    dropped = any(w in ("k", "p") for w in words) or found.last is not None
    faces = span + (1 if dropped else 0)
    runs = span if "e" in words else min(span, 1 + sum(2 * len(op.selectors) + 2 for op in found.each))
    bits = count * (len(found.each) + 1) * max(sides, span).bit_length()   # of the weights
    each = len(found.each) * sides + words.count("e") * EXPLOSION_DEPTH * sides * span
    what = f"{node.text} ({count:,} dice of {sides:,} faces)"
    if found.last is None:
        kept = count
        steps = each + runs * count * size * (1 + bits // 4000) * (2 if found.added is not None else 1)
        steps += size * span if found.added is not None else 0
        budget.spend(steps, size, what, f"{size:,} totals × {count:,} dice")
    else:
        kept = min(found.last.selectors[0].n, count)
        kept = kept if found.last.word == "k" else count - kept
        states = sum((j * span + 1) * (kept - j + 1) for j in range(kept)) + kept * bits.bit_length()
        budget.spend(each + faces * states * (1 + bits // 1000) ** 2, size,
                     f"{node.text} (keeping {kept:,} of {count:,} dice of {faces:,} faces)",
                     f"{faces:,} faces × the ways to keep {kept:,} dice")
    return Estimate(size, Fraction(least * low), Fraction(most * high), True)
