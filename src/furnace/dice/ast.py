"""The parsed form of a dice expression: small immutable nodes."""

from dataclasses import dataclass
from typing import Literal, NamedTuple

Node = "Num | Var | Dice | BinOp | Neg | Call | Set | Note"

SelectorKind = Literal["=", "h", "l", "<", ">"]
OperatorWord = Literal["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]
BinaryOp = Literal["+", "-", "*", "/", "//", "%", "==", "!=", "<", ">", "<=", ">="]
COMPARISONS = ("==", "!=", "<=", ">=", "<", ">")


class Num(NamedTuple):
    value: int


class Var(NamedTuple):
    name: str


class Selector(NamedTuple):
    """Which dice (or set items) an operator acts on, as d20 selects them: `=` the ones showing `n`, `h`/`l` the
    `n` highest/lowest (the earliest of equal ones first), `<`/`>` the ones below/above `n`. (NamedTuples, as
    they cost a parse-free `import furnace.dice` less than dataclasses: a frozen dataclass is ~0.6 ms to make, a
    NamedTuple ~0.1 ms, and every command imports these; so are Num, Var, BinOp, Neg and Call.)"""

    kind: SelectorKind
    n: int

    def matches(self, value: object) -> bool:
        """For `=`, `<` and `>` (the selectors that look at one value alone)."""
        if self.kind == "=":
            return value == self.n
        if self.kind == "<":
            return value < self.n  # type: ignore[operator]
        return value > self.n  # type: ignore[operator]

    @property
    def ranks(self) -> bool:
        """True for `h`/`l`, which choose by comparing the dice with each other."""
        return self.kind in ("h", "l")


class Operator(NamedTuple):
    """One operator after a dice group or a set, with its selectors (d20 joins `k1k2` into one keep of both):
    `k` keep, `p` drop, `rr` reroll until none match, `ro` reroll once, `ra` reroll one and add, `e` explode,
    `mi`/`ma` the least/most each die counts as (their one selector is a number)."""

    word: OperatorWord
    selectors: tuple[Selector, ...]


@dataclass(frozen=True, slots=True)
class Dice:
    """`count` dice of `sides` faces (or of the die bound to `sides_var`), and the operators applied in order.

    `count_expr` is the count of `(LVL)d6`: an expression of numbers and variables, worked out before any
    die is rolled (`count` is then 0). `advantage` (`d20adv`, `d20dis`) rolls twice the dice; its keep is in
    `ops` like any other.
    """

    count: int
    sides: int | None = None          # 100 for d%
    sides_var: str | None = None      # 5HD: the die named by a variable
    text: str = ""
    count_expr: "AnyNode | None" = None
    ops: tuple[Operator, ...] = ()
    advantage: Literal["adv", "dis"] | None = None

    @property
    def rolled(self) -> int:
        """How many dice are rolled before any operator (0 for a count worked out at roll time)."""
        return self.count * 2 if self.advantage else self.count


class BinOp(NamedTuple):
    op: BinaryOp
    left: "AnyNode"
    right: "AnyNode"


class Neg(NamedTuple):
    operand: "AnyNode"


class Call(NamedTuple):
    name: Literal["ceil", "floor", "max", "min", "abs"]
    args: tuple["AnyNode", ...]


class Set(NamedTuple):
    """`(1d4, 2+2, 3d6kl1)kh1`: several expressions, each rolled, with keep/drop operators choosing among them
    by their totals (d20's set); `(1d6+1)kh1` is a set of one."""

    items: tuple["AnyNode", ...]
    ops: tuple[Operator, ...] = ()


class Note(NamedTuple):
    """`3d6 [fire]`: an annotation shown with the part it follows; it changes nothing."""

    operand: "AnyNode"
    text: str


AnyNode = Num | Var | Dice | BinOp | Neg | Call | Set | Note


def operands(node: AnyNode) -> tuple[AnyNode, ...]:
    """What an operator works on, left to right; none for a leaf (a Dice's count expression is not an operand:
    the walks that need it look at it themselves)."""
    if isinstance(node, BinOp):
        return (node.left, node.right)
    if isinstance(node, Neg | Note):
        return (node.operand,)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, Set):
        return node.items
    return ()


def simple_keep(ops: tuple[Operator, ...]) -> tuple[str, int] | None:
    """("kh"|"kl"|"dh"|"dl", n) when the operators are one keep or drop of the highest or lowest n, else None."""
    if len(ops) != 1 or ops[0].word not in ("k", "p") or len(ops[0].selectors) != 1:
        return None
    selector = ops[0].selectors[0]
    if not selector.ranks:
        return None
    return ("k" if ops[0].word == "k" else "d") + selector.kind, selector.n


def kept_by(mode: str, n: int, count: int) -> int:
    """How many of `count` dice a simple keep counts."""
    return min(n, count) if mode in ("kh", "kl") else count - min(n, count)
