"""The parsed form of a dice expression: small immutable nodes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Node = "Num | Var | Dice | BinOp | Neg | Call"


@dataclass(frozen=True, slots=True)
class Num:
    value: int


@dataclass(frozen=True, slots=True)
class Var:
    name: str


@dataclass(frozen=True, slots=True)
class Dice:
    """`count` dice of `sides` faces (or of the die bound to `sides_var`), with keep/drop and advantage.

    `count_expr` is the count of `(LVL)d6`: an expression of numbers and variables, worked out before any
    die is rolled (`count` is then 0). `reroll` is the face of `ro1` (a die showing it is rolled again once,
    and the new face stands); `minimum` that of `mi2` (each die counts as at least 2).
    """

    count: int
    sides: int | None = None          # 100 for d%
    sides_var: str | None = None      # 5HD: the die named by a variable
    keep: Literal["kh", "kl", "dh", "dl"] | None = None
    keep_n: int = 0
    advantage: Literal["adv", "dis"] | None = None
    text: str = ""
    count_expr: AnyNode | None = None
    reroll: int | None = None
    minimum: int | None = None

    @property
    def rolled(self) -> int:
        """How many dice are rolled (not counting rerolls; 0 for a count worked out at roll time)."""
        return self.count * 2 if self.advantage else self.count


@dataclass(frozen=True, slots=True)
class BinOp:
    op: Literal["+", "-", "*", "/"]
    left: AnyNode
    right: AnyNode


@dataclass(frozen=True, slots=True)
class Neg:
    operand: AnyNode


@dataclass(frozen=True, slots=True)
class Call:
    name: Literal["ceil", "floor", "max", "min", "abs"]
    args: tuple[AnyNode, ...]


AnyNode = Num | Var | Dice | BinOp | Neg | Call


def operands(node: AnyNode) -> tuple[AnyNode, ...]:
    """What an operator works on, left to right; none for a leaf (a Dice's count expression is not an operand:
    the walks that need it look at it themselves)."""
    if isinstance(node, BinOp):
        return (node.left, node.right)
    if isinstance(node, Neg):
        return (node.operand,)
    if isinstance(node, Call):
        return node.args
    return ()
