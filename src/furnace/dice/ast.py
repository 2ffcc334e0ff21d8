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
    """`count` dice of `sides` faces (or of the die bound to `sides_var`), with keep/drop and advantage."""

    count: int
    sides: int | None = None          # 100 for d%
    sides_var: str | None = None      # 5HD: the die named by a variable
    keep: Literal["kh", "kl", "dh", "dl"] | None = None
    keep_n: int = 0
    advantage: Literal["adv", "dis"] | None = None
    text: str = ""

    @property
    def rolled(self) -> int:
        """How many dice are physically rolled."""
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
