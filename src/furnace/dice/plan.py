"""What a roll works out before its first die falls: the variables looked up, the counts of `(LVL)d6` and the
sides of `5HD`, the dice counted against the limit, the reroll or explosion that could never end refused; and the
arithmetic every evaluation shares (the roller, the counts, the odds).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeAlias

from furnace.dice.ast import AnyNode, BinOp, Call, Dice, Neg, Note, Num, Set, Var, operands
from furnace.dice.values import MAX_DICE, Binding, Bindings, DiceValueError, DieValue
from furnace.errors import DiceError, DiceLimitError, DiceSyntaxError, UnboundVariableError

if TYPE_CHECKING:
    from fractions import Fraction

# a value is whole, or a Fraction made by a division: `fractions` (and the `decimal` it imports, ~3 ms) is imported
# by the first division, not by every command that rolls
Value: TypeAlias = "int | Fraction"
Variables = Bindings
_GLUED = re.compile(r"([A-Z_][A-Z0-9_]*?)D([0-9]+)")


class DiceSource(Protocol):
    """Anything with `random.Random.randrange`: a seeded Random, `secrets.SystemRandom`, a script."""

    def randrange(self, start: int, stop: int | None = ..., step: int = ...) -> int: ...


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


# -- arithmetic ---------------------------------------------------------------------------------------------------
def _divide(a: Value, b: Value, expression: str) -> Value:
    if b == 0:
        raise DiceError("division by zero", expression)
    from fractions import Fraction

    result = Fraction(a) / b
    return result.numerator if result.denominator == 1 else result


def _floor_divide(a: Value, b: Value, expression: str) -> Value:
    if b == 0:
        raise DiceError("division by zero", expression)
    from fractions import Fraction

    return math.floor(Fraction(a) / b)


def _modulo(a: Value, b: Value, expression: str) -> Value:
    if b == 0:
        raise DiceError("modulo by zero", expression)
    from fractions import Fraction

    result = Fraction(a) % b
    return result.numerator if result.denominator == 1 else result


ARITHMETIC: dict[str, Callable[[Value, Value, str], Value]] = {
    "+": lambda a, b, e: a + b,
    "-": lambda a, b, e: a - b,
    "*": lambda a, b, e: a * b,
    "/": _divide,
    "//": _floor_divide,
    "%": _modulo,
    "==": lambda a, b, e: int(a == b),
    "!=": lambda a, b, e: int(a != b),
    "<": lambda a, b, e: int(a < b),
    ">": lambda a, b, e: int(a > b),
    "<=": lambda a, b, e: int(a <= b),
    ">=": lambda a, b, e: int(a >= b),
}
FUNCTIONS: dict[str, Callable[..., Value]] = {
    "ceil": math.ceil, "floor": math.floor, "abs": abs, "max": max, "min": min,
}


def chosen_total(node: Set, values: list[Value]) -> tuple[list[bool], Value]:
    """Which items of a set count after its keep/drop operators, and their total."""
    from furnace.dice.operators import keep_or_drop  # loaded with the first set rolled

    kept = [True] * len(values)
    for op in node.ops:
        keep_or_drop(op, values, kept)
    return kept, sum((v for v, k in zip(values, kept, strict=True) if k), 0)


# -- counts worked out before rolling ------------------------------------------------------------------------------
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
        return ARITHMETIC[node.op](_pure(node.left, variables, expression),
                                   _pure(node.right, variables, expression), expression)
    if isinstance(node, Neg):
        return -_pure(node.operand, variables, expression)
    if isinstance(node, Note):
        return _pure(node.operand, variables, expression)
    if isinstance(node, Call):
        return FUNCTIONS[node.name](*(_pure(a, variables, expression) for a in node.args))
    if isinstance(node, Set):
        return chosen_total(node, [_pure(a, variables, expression) for a in node.items])[1]
    raise DiceSyntaxError("a dice count cannot itself roll dice", expression)


def count_value(node: AnyNode, variables: Variables, expression: str) -> int:
    """The count of `(LVL)d6`: a whole number from 0 to 1,000, or a `DiceError` saying why not."""
    value = _pure(node, variables, expression)
    if not isinstance(value, int):       # a Fraction
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
        else:
            stack += operands(item)
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
    """How many dice the group rolls before its operators (twice the count for adv/dis)."""
    if node.count_expr is None:
        return node.rolled
    return count_value(node.count_expr, variables, expression)
