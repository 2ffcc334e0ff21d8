"""Compile a parsed expression once into closures (a dispatch table by node type); roll them many times.

The closures read checked variables (`furnace.dice.values.bindings`). A dice group rolls all its dice, then its
operators act in order (`furnace.dice.operators`: rerolls, explosions, minimums, keep and drop, as d20 does);
a set rolls its items left to right and keeps or drops among their totals. The counts of `(LVL)d6` are worked
out from the variables before any die is rolled (`furnace.dice.plan`), so the number of dice of a roll is known
before the first one falls.

Two compilations: `compile_node` builds the tree that explains a roll (replaying its faces), `compile_fast`
only the total, appending the faces as they are drawn.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from furnace.dice.ast import AnyNode, BinOp, Call, Dice, Neg, Note, Num, Set, Var, simple_keep
from furnace.dice.plan import (
    ARITHMETIC,
    FUNCTIONS,
    DiceSource,
    Value,
    Variables,
    chosen_total,
    counted_sides,
    group_count,
    lookup,
)
from furnace.dice.result import Bound, Chosen, Const, Function, Negation, Node, Noted, Operation, Rolled
from furnace.dice.source import Replay, ScriptedDice
from furnace.dice.values import DiceValueError, shown
from furnace.errors import DiceError

if TYPE_CHECKING:   # the operators load with the first group that has one: `furnace roll 1d20+3` never needs them
    from furnace.dice.operators import Die

Roller = Callable[[DiceSource, Variables], Node]
_new = tuple.__new__    # builds a result node from all its fields, skipping the NamedTuple's Python-level __new__

# Sources whose random() is uniform on [0, 1): drawing int(random() * sides) + 1 costs a third of
# randrange. Any other source (a script) is asked through randrange, face by face, and its answer checked.
FLOAT_SOURCES = (random.Random, random.SystemRandom)


def _asked(rng: DiceSource, sides: int) -> int:
    try:
        face = rng.randrange(sides)
    except DiceError:
        raise
    except (TypeError, ValueError) as exc:   # a source that does not take randrange(n)
        raise DiceValueError(f"the dice source {type(rng).__name__} failed randrange({sides}): {exc}"[:300],
                             expected="a source like random.Random") from None
    if type(face) is not int or not 0 <= face < sides:
        raise DiceValueError(f"the dice source {type(rng).__name__} answered {shown(face)} to randrange({sides})",
                             expected=f"a whole number from 0 to {sides - 1}")
    return face + 1


def draw(rng: DiceSource, sides: int, count: int) -> list[int]:
    if type(rng) in FLOAT_SOURCES:
        r = rng.random  # type: ignore[attr-defined]
        return [int(r() * sides) + 1 for _ in range(count)]
    if type(rng) is Replay:        # a roll's own faces, explaining it
        return rng.take(sides, count)
    if type(rng) is ScriptedDice:  # it checks its own faces
        rr = rng.randrange
        return [rr(sides) + 1 for _ in range(count)]
    return [_asked(rng, sides) for _ in range(count)]


def _num(node: Num, expression: str) -> Roller:
    leaf = Const(node.value)
    return lambda rng, variables: leaf


def _var(node: Var, expression: str) -> Roller:
    name = node.name

    def roll(rng: DiceSource, variables: Variables) -> Node:
        value = lookup(variables, name, expression)
        if type(value) is int:
            return Bound(name, value)
        sides = value.sides  # type: ignore[union-attr]
        face = draw(rng, sides, 1)[0]
        return Rolled(f"{name}(d{sides})", sides, (face,), (True,), face)

    return roll


def _rolled(node: Dice, sides: int, pool: list[Die]) -> Rolled:
    """The tree of a group with operators: each die's faces in turn (see `Rolled`)."""
    faces: list[int] = []
    kept: list[bool] = []
    counts: list[int] = []
    rerolled: list[bool] = []
    exploded: list[bool] = []
    for die in pool:
        faces += die.faces
        counts += die.counts
        exploded += die.exploded
        if len(die.faces) == 1:      # the common die: one face, never rolled again
            rerolled.append(False)
            kept.append(die.kept)
        else:
            last = len(die.faces) - 1
            rerolled += [True] * last + [False]
            kept += [False] * last + [die.kept]
    words = {op.word for op in node.ops}
    total = sum(d.counts[-1] for d in pool if d.kept)
    return Rolled(node.text, sides, tuple(faces), tuple(kept), total, "dice",
                  tuple(counts) if words & {"mi", "ma"} else (),
                  tuple(rerolled) if words & {"rr", "ro"} else (),
                  tuple(exploded) if words & {"e", "ra"} else ())


def _dice(node: Dice, expression: str) -> Roller:
    text, ops = node.text, node.ops
    if ops:
        from furnace.dice.operators import roll_group
    fixed_sides = node.sides
    fixed_count = node.rolled if node.count_expr is None else None

    def roll(rng: DiceSource, variables: Variables) -> Node:
        sides = fixed_sides if fixed_sides is not None else counted_sides(node, variables, expression)
        count = fixed_count if fixed_count is not None else group_count(node, variables, expression)
        faces = draw(rng, sides, count)
        if not ops:   # built as a plain tuple: a NamedTuple's own constructor costs a Python call
            return _new(Rolled, (text, sides, tuple(faces), (True,) * len(faces), sum(faces), "dice", (), (), ()))
        pool, _ = roll_group(faces, ops, lambda n: draw(rng, sides, n), count, expression)
        return _rolled(node, sides, pool)

    return roll


def _binop(node: BinOp, expression: str) -> Roller:
    left, right = compile_node(node.left, expression), compile_node(node.right, expression)
    op = node.op
    if op == "+":  # the common case, without the table lookup
        return lambda rng, v: _new(Operation, ("+", (a := left(rng, v)), (b := right(rng, v)), a.value + b.value,
                                               "op"))
    apply = ARITHMETIC[op]

    def roll(rng: DiceSource, variables: Variables) -> Node:
        a, b = left(rng, variables), right(rng, variables)
        return _new(Operation, (op, a, b, apply(a.value, b.value, expression), "op"))

    return roll


def _neg(node: Neg, expression: str) -> Roller:
    inner = compile_node(node.operand, expression)

    def roll(rng: DiceSource, variables: Variables) -> Node:
        a = inner(rng, variables)
        return Negation(a, -a.value)

    return roll


def _call(node: Call, expression: str) -> Roller:
    args = [compile_node(a, expression) for a in node.args]
    fn, name = FUNCTIONS[node.name], node.name

    def roll(rng: DiceSource, variables: Variables) -> Node:
        values = tuple(a(rng, variables) for a in args)
        return Function(name, values, fn(*(x.value for x in values)))

    return roll


def _set(node: Set, expression: str) -> Roller:
    items = [compile_node(a, expression) for a in node.items]

    def roll(rng: DiceSource, variables: Variables) -> Node:
        trees = tuple(item(rng, variables) for item in items)
        kept, total = chosen_total(node, [t.value for t in trees])
        return Chosen(trees, tuple(kept), total)

    return roll


def _note(node: Note, expression: str) -> Roller:
    inner, text = compile_node(node.operand, expression), node.text

    def roll(rng: DiceSource, variables: Variables) -> Node:
        a = inner(rng, variables)
        return Noted(a, text, a.value)

    return roll


_COMPILERS: dict[type, Callable[..., Roller]] = {
    Num: _num, Var: _var, Dice: _dice, BinOp: _binop, Neg: _neg, Call: _call, Set: _set, Note: _note,
}


def compile_node(node: AnyNode, expression: str) -> Roller:
    return _COMPILERS[type(node)](node, expression)


# -- the fast path: values only, faces appended to a list; the tree is rebuilt from them on demand ----
Faces = list[int]
FastRoller = Callable[[DiceSource, Variables, Faces], Value]


def _fast_num(node: Num, expression: str) -> FastRoller:
    value = node.value
    return lambda rng, variables, out: value


def _fast_var(node: Var, expression: str) -> FastRoller:
    name = node.name

    def roll(rng: DiceSource, variables: Variables, out: Faces) -> Value:
        value = lookup(variables, name, expression)
        if type(value) is int:
            return value
        face = draw(rng, value.sides, 1)[0]  # type: ignore[union-attr]
        out.append(face)
        return face

    return roll


def kept_sum(faces: list[int], mode: str | None, n: int) -> int:
    """The total of a group under one keep or drop of the highest or lowest n (see `operators.simple_keep`)."""
    if mode is None:
        return sum(faces)
    ordered = sorted(faces)  # only the total is needed here; the tree marks which dice were kept
    count = len(ordered)
    n = min(n, count)
    if mode == "kh":
        return sum(ordered[count - n:])
    if mode == "kl":
        return sum(ordered[:n])
    return sum(ordered[: count - n]) if mode == "dh" else sum(ordered[n:])


def _fast_general(node: Dice, expression: str) -> FastRoller:
    """Operators, worked-out counts and dice bound to variables: through `operators.roll_group`, as the tree is."""
    ops = node.ops
    from furnace.dice.operators import roll_group, total_of

    def roll(rng: DiceSource, variables: Variables, out: Faces) -> Value:
        sides = counted_sides(node, variables, expression)
        faces = draw(rng, sides, group_count(node, variables, expression))
        out += faces
        if not ops:
            return sum(faces)
        pool, extra = roll_group(faces, ops, lambda n: draw(rng, sides, n), len(out), expression)
        out += extra
        return total_of(pool)

    return roll


def _fast_dice(node: Dice, expression: str) -> FastRoller:
    keep = simple_keep(node.ops)
    if node.count_expr is not None or node.sides is None or (node.ops and keep is None):
        return _fast_general(node, expression)
    mode, n = keep if keep is not None else (None, 0)
    count, sides = node.rolled, node.sides
    repeat = range(count)
    if count == 1 and mode is None:

        def single(rng: DiceSource, variables: Variables, out: Faces) -> Value:
            face = int(rng.random() * sides) + 1 if type(rng) in FLOAT_SOURCES else _asked(rng, sides)  # type: ignore[attr-defined]
            out.append(face)
            return face

        return single

    def roll(rng: DiceSource, variables: Variables, out: Faces) -> Value:
        if type(rng) in FLOAT_SOURCES:
            r = rng.random  # type: ignore[attr-defined]
            faces = [int(r() * sides) + 1 for _ in repeat]
        else:
            faces = draw(rng, sides, count)
        out += faces
        return kept_sum(faces, mode, n)

    return roll


def _fast_binop(node: BinOp, expression: str) -> FastRoller:
    left, right = compile_fast(node.left, expression), compile_fast(node.right, expression)
    if node.op == "+":
        return lambda rng, v, out: left(rng, v, out) + right(rng, v, out)
    if node.op == "-":
        return lambda rng, v, out: left(rng, v, out) - right(rng, v, out)
    apply = ARITHMETIC[node.op]
    return lambda rng, v, out: apply(left(rng, v, out), right(rng, v, out), expression)


def _fast_neg(node: Neg, expression: str) -> FastRoller:
    inner = compile_fast(node.operand, expression)
    return lambda rng, v, out: -inner(rng, v, out)


def _fast_call(node: Call, expression: str) -> FastRoller:
    args = [compile_fast(a, expression) for a in node.args]
    fn = FUNCTIONS[node.name]
    return lambda rng, v, out: fn(*[a(rng, v, out) for a in args])


def _fast_set(node: Set, expression: str) -> FastRoller:
    items = [compile_fast(a, expression) for a in node.items]
    return lambda rng, v, out: chosen_total(node, [item(rng, v, out) for item in items])[1]


def _fast_note(node: Note, expression: str) -> FastRoller:
    return compile_fast(node.operand, expression)


_FAST_COMPILERS: dict[type, Callable[..., FastRoller]] = {
    Num: _fast_num, Var: _fast_var, Dice: _fast_dice, BinOp: _fast_binop, Neg: _fast_neg, Call: _fast_call,
    Set: _fast_set, Note: _fast_note,
}


def compile_fast(node: AnyNode, expression: str) -> FastRoller:
    return _FAST_COMPILERS[type(node)](node, expression)
