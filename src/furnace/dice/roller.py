"""Compile a parsed expression once into closures (a dispatch table by node type); roll them many times."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Protocol

from furnace.dice.ast import AnyNode, BinOp, Call, Dice, Neg, Num, Var
from furnace.dice.result import Bound, Const, Function, Negation, Node, Operation, Rolled, Value
from furnace.errors import DiceError, UnboundVariableError


class DiceSource(Protocol):
    """Anything with `random.Random.randrange`: a seeded Random, `secrets.SystemRandom`, a script."""

    def randrange(self, start: int, stop: int | None = ..., step: int = ...) -> int: ...


Variables = Mapping[str, "int | str"]
Roller = Callable[[DiceSource, Variables], Node]


def lookup(variables: Variables, name: str, expression: str) -> int | str:
    try:
        return _number(variables[name])
    except KeyError:
        for key, value in variables.items():
            if key.upper() == name:
                return _number(value)
        raise UnboundVariableError(f"variable {name} is not bound", expression,
                                   expected=f"a value for {name}, e.g. --var {name}=2") from None


def _number(value: int | str) -> int | str:
    """A variable bound to "3" is the number 3; "d3" names a die."""
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return int(value)
    return value


def die_sides(value: int | str, name: str, expression: str) -> int:
    """A die-valued variable: HD bound to 'd8' (or to 8) gives 8 sides."""
    text = str(value).strip().lower()
    sides = text[1:] if text.startswith("d") else text
    if not sides.isdigit() or not 1 <= int(sides) <= 10_000:
        raise DiceError(f"variable {name} must name a die like d8, not {value!r}", expression)
    return int(sides)


def _num(node: Num, expression: str) -> Roller:
    leaf = Const(node.value)
    return lambda rng, variables: leaf


def _var(node: Var, expression: str) -> Roller:
    name = node.name

    def roll(rng: DiceSource, variables: Variables) -> Node:
        value = lookup(variables, name, expression)
        if isinstance(value, int) and not isinstance(value, bool):
            return Bound(name, value)
        sides = die_sides(value, name, expression)
        face = draw(rng, sides, 1)[0]
        return Rolled(f"{name}(d{sides})", sides, (face,), (True,), face)

    return roll


def _select(faces: list[int], keep: str, n: int) -> tuple[bool, ...]:
    order = sorted(range(len(faces)), key=faces.__getitem__, reverse=keep in ("kh", "dl"))
    chosen = set(order[:n] if keep in ("kh", "kl") else order[: len(faces) - n])
    return tuple(i in chosen for i in range(len(faces)))


# Sources whose random() is uniform on [0, 1): drawing int(random() * sides) + 1 costs a third of
# randrange. Any other source (a script) is asked through randrange, face by face.
FLOAT_SOURCES = (random.Random, random.SystemRandom)


def draw(rng: DiceSource, sides: int, count: int) -> list[int]:
    if type(rng) in FLOAT_SOURCES:
        r = rng.random  # type: ignore[attr-defined]
        return [int(r() * sides) + 1 for _ in range(count)]
    rr = rng.randrange
    return [rr(sides) + 1 for _ in range(count)]


def _dice(node: Dice, expression: str) -> Roller:
    count, text, keep, n = node.count, node.text, node.keep, node.keep_n
    if node.advantage:
        count, keep, n = 2, ("kh" if node.advantage == "adv" else "kl"), 1
    fixed = node.sides
    all_kept = (True,) * count

    def roll(rng: DiceSource, variables: Variables) -> Node:
        sides = fixed if fixed is not None else die_sides(
            lookup(variables, node.sides_var or "", expression), node.sides_var or "", expression)
        if type(rng) in FLOAT_SOURCES:
            r = rng.random  # type: ignore[attr-defined]
            faces = [int(r() * sides) + 1 for _ in range(count)]
        else:
            faces = draw(rng, sides, count)
        if keep is None:
            return Rolled(text, sides, tuple(faces), all_kept, sum(faces))
        kept = _select(faces, keep, n)
        total = sum(f for f, k in zip(faces, kept, strict=True) if k)
        return Rolled(text, sides, tuple(faces), kept, total)

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
        return lambda rng, v: Operation("+", (a := left(rng, v)), (b := right(rng, v)), a.value + b.value)
    apply = _ARITHMETIC[op]

    def roll(rng: DiceSource, variables: Variables) -> Node:
        a, b = left(rng, variables), right(rng, variables)
        return Operation(op, a, b, apply(a.value, b.value, expression))

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
        face = draw(rng, die_sides(value, name, expression), 1)[0]
        out.append(face)
        return face

    return roll


def _fast_dice(node: Dice, expression: str) -> FastRoller:
    count, keep, n = node.count, node.keep, node.keep_n
    if node.advantage:
        count, keep, n = 2, ("kh" if node.advantage == "adv" else "kl"), 1
    fixed, sides_var = node.sides, node.sides_var or ""
    repeat = range(count)
    if fixed is not None and count == 1 and keep is None:
        def single(rng: DiceSource, variables: Variables, out: Faces) -> Value:
            face = int(rng.random() * fixed) + 1 if type(rng) in FLOAT_SOURCES else draw(rng, fixed, 1)[0]  # type: ignore[attr-defined]
            out.append(face)
            return face

        return single

    def roll(rng: DiceSource, variables: Variables, out: Faces) -> Value:
        sides = fixed if fixed is not None else die_sides(lookup(variables, sides_var, expression),
                                                          sides_var, expression)
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
