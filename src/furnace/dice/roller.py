"""Compile a parsed expression once into closures (a dispatch table by node type); roll them many times."""

from __future__ import annotations

import math
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
        return variables[name]
    except KeyError:
        for key, value in variables.items():
            if key.upper() == name:
                return value
        raise UnboundVariableError(f"variable {name} is not bound", expression,
                                   expected=f"a value for {name}, e.g. --var {name}=2") from None


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
        face = rng.randrange(sides) + 1
        return Rolled(f"{name}(d{sides})", sides, (face,), (True,), face)

    return roll


def _select(faces: list[int], keep: str, n: int) -> tuple[bool, ...]:
    order = sorted(range(len(faces)), key=faces.__getitem__, reverse=keep in ("kh", "dl"))
    chosen = set(order[:n] if keep in ("kh", "kl") else order[: len(faces) - n])
    return tuple(i in chosen for i in range(len(faces)))


def _dice(node: Dice, expression: str) -> Roller:
    count, text, keep, n = node.count, node.text, node.keep, node.keep_n
    if node.advantage:
        count, keep, n = 2, ("kh" if node.advantage == "adv" else "kl"), 1
    fixed = node.sides

    def roll(rng: DiceSource, variables: Variables) -> Node:
        sides = fixed if fixed is not None else die_sides(
            lookup(variables, node.sides_var or "", expression), node.sides_var or "", expression)
        rr = rng.randrange
        faces = [rr(sides) + 1 for _ in range(count)]
        if keep is None:
            return Rolled(text, sides, tuple(faces), (True,) * count, sum(faces))
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
