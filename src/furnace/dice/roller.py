"""Compile a parsed expression once into closures (a dispatch table by node type); roll them many times.

The closures read checked variables (`furnace.dice.values.bindings`). A dice group rolls its dice one by
one: a die showing the face of `ro` is rolled again at once (its face is kept in the record, struck out,
and the new face stands even if it shows the same), then `mi` raises each die to the minimum, then
keep/drop choose among the dice. The counts of `(LVL)d6` are worked out from the variables before any die
is rolled, so the number of dice of a roll is known before the first one falls.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Protocol

from furnace.dice.ast import AnyNode, BinOp, Call, Dice, Neg, Num, Var, operands
from furnace.dice.result import Bound, Const, Function, Negation, Node, Operation, Rolled, Value
from furnace.dice.source import Replay, ScriptedDice
from furnace.dice.values import MAX_DICE, Binding, Bindings, DiceValueError, DieValue, shown
from furnace.errors import DiceError, DiceLimitError, DiceSyntaxError, UnboundVariableError


class DiceSource(Protocol):
    """Anything with `random.Random.randrange`: a seeded Random, `secrets.SystemRandom`, a script."""

    def randrange(self, start: int, stop: int | None = ..., step: int = ...) -> int: ...


Variables = Bindings
Roller = Callable[[DiceSource, Variables], Node]
_new = tuple.__new__    # builds a result node from all its fields, skipping the NamedTuple's Python-level __new__
_GLUED = re.compile(r"([A-Z_][A-Z0-9_]*?)D([0-9]+)")


def lookup(variables: Variables, name: str, expression: str) -> Binding:
    value = variables.get(name)
    if value is None:
        hint = f"a value for {name}, e.g. --var {name}=2"
        if m := _GLUED.fullmatch(name):
            hint += f", or ({m.group(1)})d{m.group(2)} for {m.group(1)} dice of {m.group(2)} sides"
        raise UnboundVariableError(f"variable {name} is not bound", expression, expected=hint)
    return value


def counted_sides(node: Dice, variables: Variables, expression: str) -> int:
    """The sides of the die of `5HD`; a variable holding a plain number is refused (`2PROF` is not 2d3)."""
    if node.sides is not None:
        return node.sides
    name = node.sides_var or ""
    value = lookup(variables, name, expression)
    if isinstance(value, DieValue):
        return value.sides
    typed = node.text[-len(name):]
    before = node.text[: len(node.text) - len(name)]
    raise DiceSyntaxError(f"{node.text} counts dice of {typed}, but {name} holds the number {value}, not a die",
                          expression, expected=f"{before}*{typed} to multiply, or {name} bound to a die such as d8")


def _pure(node: AnyNode, variables: Variables, expression: str) -> Value:
    """The value of an expression that rolls no dice (a dice count)."""
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Var):
        value = lookup(variables, node.name, expression)
        if isinstance(value, DieValue):
            raise DiceValueError(f"a dice count cannot roll dice, but {node.name} holds d{value.sides}", expression,
                                 expected=f"{node.name} bound to a number")
        return value
    if isinstance(node, BinOp):
        return _ARITHMETIC[node.op](_pure(node.left, variables, expression),
                                    _pure(node.right, variables, expression), expression)
    if isinstance(node, Neg):
        return -_pure(node.operand, variables, expression)
    if isinstance(node, Call):
        return FUNCTIONS[node.name](*(_pure(a, variables, expression) for a in node.args))
    raise DiceSyntaxError("a dice count cannot itself roll dice", expression)


def count_value(node: AnyNode, variables: Variables, expression: str) -> int:
    """The count of `(LVL)d6`: a whole number from 0 to 1,000, or a `DiceError` saying why not."""
    value = _pure(node, variables, expression)
    if isinstance(value, Fraction):
        if value.denominator != 1:
            raise DiceValueError(f"a dice count is a whole number, not {value}", expression,
                                 expected="floor(…) or ceil(…) around the count")
        value = value.numerator
    if value < 0:
        raise DiceValueError(f"a dice count cannot be negative ({value})", expression)
    if value > MAX_DICE:
        raise DiceLimitError(f"more than {MAX_DICE} dice in one roll (a count of {value})", expression)
    return value


def variables_of(node: AnyNode) -> set[str]:
    """Every variable an expression names (dice counts and counted dice included)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Var):
            found.add(item.name)
        elif isinstance(item, Dice):
            if item.sides_var:
                found.add(item.sides_var)
            if item.count_expr is not None:
                stack.append(item.count_expr)
        else:
            stack += operands(item)
    return found


def dice_plan(node: AnyNode) -> tuple[int, tuple[Dice, ...]]:
    """The dice rolled whatever the variables, and the groups whose count the variables give."""
    fixed, counted = 0, []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Dice):
            if item.count_expr is None:
                fixed += item.rolled
            else:
                counted.append(item)
        elif isinstance(item, BinOp):
            stack += [item.left, item.right]
        elif isinstance(item, Neg):
            stack.append(item.operand)
        elif isinstance(item, Call):
            stack += list(item.args)
    return fixed, tuple(counted)


def check_dice_total(fixed: int, counted: tuple[Dice, ...], variables: Variables, expression: str) -> int:
    """The number of dice a roll will roll, refused past 1,000 before any is rolled."""
    total = fixed
    for group in counted:
        total += count_value(group.count_expr, variables, expression)  # type: ignore[arg-type]
    if total > MAX_DICE:
        raise DiceLimitError(f"more than {MAX_DICE} dice in one roll ({total} with these variables)", expression)
    return total


def group_count(node: Dice, variables: Variables, expression: str) -> int:
    """How many dice the group rolls (2 for adv/dis); keep/drop checked against a worked-out count."""
    if node.count_expr is None:
        return node.rolled
    count = count_value(node.count_expr, variables, expression)
    if node.keep is not None:
        low, high = (1, count) if node.keep in ("kh", "kl") else (0, count - 1)
        if not low <= node.keep_n <= high:
            raise DiceValueError(f"{node.text} cannot {node.keep} {node.keep_n} of {count} dice", expression,
                                 expected="a count the keep/drop fits")
    return count


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


def draw_rerolling(rng: DiceSource, sides: int, count: int, reroll: int | None) -> list[int]:
    """`count` dice in order; a die showing `reroll` is followed at once by its second (standing) face."""
    if reroll is None:
        return draw(rng, sides, count)
    faces: list[int] = []
    for _ in range(count):
        face = draw(rng, sides, 1)[0]
        faces.append(face)
        if face == reroll:
            faces.append(draw(rng, sides, 1)[0])
    return faces


def standing(faces: list[int], reroll: int | None) -> list[int]:
    """The positions of the faces that stand (each rerolled face gives way to the next one)."""
    if reroll is None:
        return list(range(len(faces)))
    out: list[int] = []
    i = 0
    while i < len(faces):
        if faces[i] == reroll:
            i += 1
        out.append(min(i, len(faces) - 1))
        i += 1
    return out


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


def select(values: list[int], keep: str | None, n: int) -> list[bool]:
    if keep is None:
        return [True] * len(values)
    order = sorted(range(len(values)), key=values.__getitem__, reverse=keep in ("kh", "dl"))
    marks = [False] * len(values)
    for i in order[:n] if keep in ("kh", "kl") else order[: len(values) - n]:
        marks[i] = True
    return marks


def _dice(node: Dice, expression: str) -> Roller:
    text, keep, n = node.text, node.keep, node.keep_n
    if node.advantage:
        keep, n = ("kh" if node.advantage == "adv" else "kl"), 1
    reroll, minimum = node.reroll, node.minimum

    fixed_sides = node.sides
    fixed_count = node.rolled if node.count_expr is None else None

    def roll(rng: DiceSource, variables: Variables) -> Node:
        sides = fixed_sides if fixed_sides is not None else counted_sides(node, variables, expression)
        count = fixed_count if fixed_count is not None else group_count(node, variables, expression)
        faces = draw(rng, sides, count) if reroll is None else draw_rerolling(rng, sides, count, reroll)
        if reroll is None and minimum is None:
            if keep is None:   # built as a plain tuple: a NamedTuple's own constructor costs a Python call
                return _new(Rolled, (text, sides, tuple(faces), (True,) * len(faces), sum(faces), "dice", (), ()))
            marks = tuple(select(faces, keep, n))
            total = sum(f for f, k in zip(faces, marks, strict=True) if k)
            return _new(Rolled, (text, sides, tuple(faces), marks, total, "dice", (), ()))
        stand = standing(faces, reroll)
        counts = [max(f, minimum) for f in faces] if minimum else faces
        chosen = select([counts[i] for i in stand], keep, n)
        kept = [False] * len(faces)
        for i, keep_it in zip(stand, chosen, strict=True):
            kept[i] = keep_it
        total = sum(c for c, k in zip(counts, kept, strict=True) if k)
        stands = set(stand)
        rerolled = tuple(i not in stands for i in range(len(faces))) if reroll is not None else ()
        return Rolled(text, sides, tuple(faces), tuple(kept), total,
                      counts_as=tuple(counts) if minimum else (), rerolled=rerolled)

    return roll


def _divide(a: Value, b: Value, expression: str) -> Value:
    if b == 0:
        raise DiceError("division by zero", expression)
    result = Fraction(a) / b
    return result.numerator if result.denominator == 1 else result


_ARITHMETIC: dict[str, Callable[[Value, Value, str], Value]] = {
    "+": lambda a, b, e: a + b,
    "-": lambda a, b, e: a - b,
    "*": lambda a, b, e: a * b,
    "/": _divide,
}


def _binop(node: BinOp, expression: str) -> Roller:
    left, right = compile_node(node.left, expression), compile_node(node.right, expression)
    op = node.op
    if op == "+":  # the common case, without the table lookup
        return lambda rng, v: _new(Operation, ("+", (a := left(rng, v)), (b := right(rng, v)), a.value + b.value,
                                               "op"))
    apply = _ARITHMETIC[op]

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


FUNCTIONS: dict[str, Callable[..., Value]] = {
    "ceil": math.ceil, "floor": math.floor, "abs": abs, "max": max, "min": min,
}


def _call(node: Call, expression: str) -> Roller:
    args = [compile_node(a, expression) for a in node.args]
    fn, name = FUNCTIONS[node.name], node.name

    def roll(rng: DiceSource, variables: Variables) -> Node:
        values = tuple(a(rng, variables) for a in args)
        return Function(name, values, fn(*(x.value for x in values)))

    return roll


_COMPILERS: dict[type, Callable[..., Roller]] = {
    Num: _num, Var: _var, Dice: _dice, BinOp: _binop, Neg: _neg, Call: _call,
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


def _fast_general(node: Dice, expression: str) -> FastRoller:
    """Rerolls, minimums, worked-out counts and dice bound to variables."""
    keep, n, reroll, minimum = node.keep, node.keep_n, node.reroll, node.minimum
    if node.advantage:
        keep, n = ("kh" if node.advantage == "adv" else "kl"), 1

    def roll(rng: DiceSource, variables: Variables, out: Faces) -> Value:
        sides = counted_sides(node, variables, expression)
        count = group_count(node, variables, expression)
        faces = draw_rerolling(rng, sides, count, reroll)
        out += faces
        values = [faces[i] for i in standing(faces, reroll)] if reroll is not None else faces
        if minimum:
            values = [max(v, minimum) for v in values]
        if keep is None:
            return sum(values)
        ordered = sorted(values)
        if keep == "kh":
            return sum(ordered[len(ordered) - n:])
        if keep == "kl":
            return sum(ordered[:n])
        return sum(ordered[: count - n]) if keep == "dh" else sum(ordered[n:])

    return roll


def _fast_dice(node: Dice, expression: str) -> FastRoller:
    if node.count_expr is not None or node.reroll is not None or node.minimum is not None:
        return _fast_general(node, expression)
    count, keep, n = node.count, node.keep, node.keep_n
    if node.advantage:
        count, keep, n = 2, ("kh" if node.advantage == "adv" else "kl"), 1
    fixed = node.sides
    repeat = range(count)
    if fixed is not None and count == 1 and keep is None:
        sides = fixed

        def single(rng: DiceSource, variables: Variables, out: Faces) -> Value:
            face = int(rng.random() * sides) + 1 if type(rng) in FLOAT_SOURCES else _asked(rng, sides)  # type: ignore[attr-defined]
            out.append(face)
            return face

        return single

    def roll(rng: DiceSource, variables: Variables, out: Faces) -> Value:
        sides = fixed if fixed is not None else counted_sides(node, variables, expression)
        if type(rng) in FLOAT_SOURCES:
            r = rng.random  # type: ignore[attr-defined]
            faces = [int(r() * sides) + 1 for _ in repeat]
        else:
            faces = draw(rng, sides, count)
        out += faces
        if keep is None:
            return sum(faces)
        ordered = sorted(faces)  # only the total is needed here; the tree marks which dice were kept
        if keep == "kh":
            return sum(ordered[-n:])
        if keep == "kl":
            return sum(ordered[:n])
        return sum(ordered[: count - n]) if keep == "dh" else sum(ordered[n:])

    return roll


def _fast_binop(node: BinOp, expression: str) -> FastRoller:
    left, right = compile_fast(node.left, expression), compile_fast(node.right, expression)
    if node.op == "+":
        return lambda rng, v, out: left(rng, v, out) + right(rng, v, out)
    if node.op == "-":
        return lambda rng, v, out: left(rng, v, out) - right(rng, v, out)
    apply = _ARITHMETIC[node.op]
    return lambda rng, v, out: apply(left(rng, v, out), right(rng, v, out), expression)


def _fast_neg(node: Neg, expression: str) -> FastRoller:
    inner = compile_fast(node.operand, expression)
    return lambda rng, v, out: -inner(rng, v, out)


def _fast_call(node: Call, expression: str) -> FastRoller:
    args = [compile_fast(a, expression) for a in node.args]
    fn = FUNCTIONS[node.name]
    return lambda rng, v, out: fn(*[a(rng, v, out) for a in args])


_FAST_COMPILERS: dict[type, Callable[..., FastRoller]] = {
    Num: _fast_num, Var: _fast_var, Dice: _fast_dice, BinOp: _fast_binop, Neg: _fast_neg, Call: _fast_call,
}


def compile_fast(node: AnyNode, expression: str) -> FastRoller:
    return _FAST_COMPILERS[type(node)](node, expression)


# -- the natural d20, read from the faces as they fall ------------------------------------------------------
# The natural is the kept face of the first d20 group (when it keeps one die). Where that group's faces fall
# in the roll is known before rolling when every die before it has a fixed count and sides and no reroll, and
# no variable before it holds a die; then the natural is read from the faces at once, and otherwise (a rare
# expression) from the roll's tree.
ASK_TREE = -1          # a reader's answer when only the tree knows
NaturalReader = Callable[[list[int], Variables], int | None]


def _producers(node: AnyNode) -> list[Dice | Var]:
    """What may roll a die, left to right (the order the faces fall in)."""
    out: list[Dice | Var] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Dice | Var):
            out.append(item)
        else:
            stack += reversed(operands(item))
    return out


def _kept_one(node: Dice, at: int) -> Callable[[list[int]], int | None]:
    """The kept face of a d20 group whose faces start at `at`, when it keeps exactly one."""
    count, keep, n = node.count, node.keep, node.keep_n
    if node.advantage:
        count, keep, n = 2, ("kh" if node.advantage == "adv" else "kl"), 1
    kept = count if keep is None else (n if keep in ("kh", "kl") else count - n)
    if kept != 1:
        return lambda faces: None
    if keep is None:
        return lambda faces: faces[at]
    highest = keep in ("kh", "dl")      # keep the highest one, or drop all but the highest
    end = at + count
    return (lambda faces: max(faces[at:end])) if highest else (lambda faces: min(faces[at:end]))


def _no_natural(faces: list[int]) -> None:
    return None


def compile_natural(node: AnyNode) -> NaturalReader:
    """A reader of the natural d20 from a roll's faces and variables; it answers ASK_TREE when it cannot."""
    at, names = 0, []
    read: Callable[[list[int]], int | None]
    for item in _producers(node):
        if isinstance(item, Var):
            names.append(item.name)        # a number rolls nothing; a die would shift what follows
            continue
        fixed = item.sides is not None and item.count_expr is None and item.reroll is None
        if not fixed or (item.advantage and item.count != 1) or (item.sides == 20 and item.minimum is not None):
            return lambda faces, variables: ASK_TREE
        if item.sides == 20:
            read = _kept_one(item, at)
            break
        at += item.rolled
    else:
        read = _no_natural
    if not names:
        return lambda faces, variables: read(faces)
    return lambda faces, variables: (read(faces) if all(type(variables.get(v)) is int for v in names)
                                     else ASK_TREE)
