"""Roll results: a frozen tree that explains itself (faces, kept dice, modifiers, total, natural d20).

Nodes are NamedTuples because a roll builds several of them and tuples are the cheapest immutable value.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, NamedTuple

Value = int | Fraction


class Const(NamedTuple):
    value: int
    kind: str = "num"


class Bound(NamedTuple):
    """A variable the caller bound, such as STR or PROF."""

    name: str
    value: int
    kind: str = "var"


class Rolled(NamedTuple):
    """One group of dice: `4d6kh3` rolled as faces (6, 5, 3, 1) keeping the first three."""

    text: str
    sides: int
    faces: tuple[int, ...]
    kept: tuple[bool, ...]
    value: int
    kind: str = "dice"


class Operation(NamedTuple):
    op: str
    left: Node
    right: Node
    value: Value
    kind: str = "op"


class Negation(NamedTuple):
    operand: Node
    value: Value
    kind: str = "neg"


class Function(NamedTuple):
    name: str
    args: tuple[Node, ...]
    value: Value
    kind: str = "call"


Node = Const | Bound | Rolled | Operation | Negation | Function
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def render(node: Node, parent: int = 0, right_side: bool = False) -> str:
    """The tree as one readable line: `[6, 5, 3, ~~1~~] + 2 (STR)`."""
    kind = node.kind
    if kind == "dice":
        faces = ", ".join(str(f) if k else f"~~{f}~~" for f, k in zip(node.faces, node.kept, strict=True))  # type: ignore[union-attr]
        return f"[{faces}]"
    if kind == "num":
        return str(node.value)
    if kind == "var":
        return f"{node.value} ({node.name})"  # type: ignore[union-attr]
    if kind == "neg":
        return "-" + render(node.operand, 3)  # type: ignore[union-attr]
    if kind == "call":
        return f"{node.name}(" + ", ".join(render(a) for a in node.args) + ")"  # type: ignore[union-attr]
    op = node.op  # type: ignore[union-attr]
    right = node.right  # type: ignore[union-attr]
    if op in "+-" and right.kind in ("num", "var") and right.value < 0:   # "+ -1 (STR)" reads as "- 1 (STR)"
        flipped = "-" if op == "+" else "+"
        shown = str(-right.value) + (f" ({right.name})" if right.kind == "var" else "")  # type: ignore[union-attr]
        text = f"{render(node.left, 1)} {flipped} {shown}"  # type: ignore[union-attr]
        return f"({text})" if parent > 1 or (right_side and parent == 1) else text
    mine = _PRECEDENCE[op]
    text = f"{render(node.left, mine)} {op} {render(node.right, mine, True)}"  # type: ignore[union-attr]
    needs = mine < parent or (right_side and mine == parent)
    return f"({text})" if needs else text


def to_dict(node: Node) -> dict[str, Any]:
    kind = node.kind
    value = node.value
    if isinstance(value, Fraction) and value.denominator == 1:
        value = value.numerator
    out: dict[str, Any] = {"kind": kind, "value": value if isinstance(value, int) else str(value)}
    if kind == "dice":
        out.update(text=node.text, sides=node.sides, faces=list(node.faces),  # type: ignore[union-attr]
                   kept=list(node.kept))  # type: ignore[union-attr]
    elif kind == "var":
        out["name"] = node.name  # type: ignore[union-attr]
    elif kind == "op":
        out.update(op=node.op, left=to_dict(node.left), right=to_dict(node.right))  # type: ignore[union-attr]
    elif kind == "neg":
        out["operand"] = to_dict(node.operand)  # type: ignore[union-attr]
    elif kind == "call":
        out.update(name=node.name, args=[to_dict(a) for a in node.args])  # type: ignore[union-attr]
    return out


def dice_groups(node: Node) -> list[Rolled]:
    """Every dice group in the tree, left to right."""
    kind = node.kind
    if kind == "dice":
        return [node]  # type: ignore[list-item]
    if kind == "op":
        return dice_groups(node.left) + dice_groups(node.right)  # type: ignore[union-attr]
    if kind == "neg":
        return dice_groups(node.operand)  # type: ignore[union-attr]
    if kind == "call":
        return [g for a in node.args for g in dice_groups(a)]  # type: ignore[union-attr]
    return []


class RollResult(NamedTuple):
    """A finished roll: what was rolled, why, every die face, and the total (rounded down).

    A roll records only its faces; `tree` replays them through the expression to explain the roll
    (each group's faces, kept and dropped dice, each modifier), so rolling stays cheap.
    """

    expression: str
    total: int
    faces: tuple[int, ...]
    label: str = ""
    variables: Mapping[str, int | str] = MappingProxyType({})
    explainer: Callable[[tuple[int, ...], Mapping[str, int | str]], Node] | None = None

    @property
    def tree(self) -> Node:
        if self.explainer is None:
            return Const(self.total)
        return self.explainer(self.faces, self.variables)

    @property
    def natural(self) -> int | None:
        """The kept face of the first d20 group of the roll (when it keeps one die): crits, fumbles, mishaps."""
        for group in dice_groups(self.tree):
            if group.sides == 20:
                kept = [f for f, k in zip(group.faces, group.kept, strict=True) if k]
                return kept[0] if len(kept) == 1 else None
        return None

    def explain(self) -> str:
        line = f"{self.expression} → {render(self.tree)} = {self.total}"
        return f"{self.label}: {line}" if self.label else line

    def __str__(self) -> str:
        return self.explain()

    def to_dict(self) -> dict[str, Any]:
        return {"expression": self.expression, "label": self.label, "total": self.total,
                "natural": self.natural, "faces": list(self.faces), "variables": dict(self.variables),
                "explanation": self.explain(), "tree": to_dict(self.tree)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())


def floor_value(value: Value) -> int:
    return value if type(value) is int else math.floor(value)
