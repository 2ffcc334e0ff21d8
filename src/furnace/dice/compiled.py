"""The common roll compiled once into one straight-line Python function, so rolling it costs little more than
drawing its dice.

Most expressions a game rolls are sums of plain dice groups and whole numbers (`1d20+5`, `4d6kh3`, `2d6+CHA`,
`d20adv+3`). For those, `compile_roll` writes the source of one function — each die one statement, the total
and the natural d20 as plain arithmetic — and compiles it. The function handles a `random.Random` (or
`SystemRandom`) source, a text label, and variables bound to whole numbers; anything else (a scripted source,
a variable holding a die, a bad value to refuse) goes to the general roller, which gives the same faces.

Faces are drawn exactly as the general roller draws them — `int(rng.random() * sides) + 1`, one call a die,
left to right — so a seed gives the same faces, totals and naturals on either path.

What is compiled, and what is not (the general roller takes these): division, modulo and comparisons,
sets and annotations, counts worked out from variables `(LVL)d6`, dice bound to variables `5HD`, and dice
groups with operators other than one keep or drop of the highest or lowest — but for the common ones
(`4d6rr1`, `8d6e6`, `10d6mi2` …, `furnace.dice.common_groups`), which the function calls as closures. The
explanation of a group with operators is always the general roller's. Only whole numbers taken from the
parsed tree and the grammar's own operators, keep/drop words and function names (checked by the parser against
fixed sets) are written into the source; the expression's text, its groups' texts, the variables' names and
the closures are handed to the function as values, never pasted into its code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import CodeType
from typing import Any, Protocol

from furnace.dice.ast import AnyNode, BinOp, Call, Dice, Neg, Num, Var, kept_by, simple_keep
from furnace.dice.kept_source import SCALAR_DICE, kept_total
from furnace.dice.plan import FUNCTIONS, DiceSource, variables_of
from furnace.dice.result import Const, Function, Negation, Node, Operation, Rolled, RollResult
from furnace.dice.roller import FLOAT_SOURCES, kept_sum
from furnace.dice.values import bindings


class RollFunction(Protocol):
    """`DiceExpression.roll`: a source, the variables (or None) and a label give a finished roll."""

    def __call__(self, rng: DiceSource, variables: Mapping[str, int | str] | None = None,
                 label: str = "") -> RollResult: ...


TreeFunction = Callable[[tuple[int, ...], Mapping[str, Any]], Node]


class _NotFlat(Exception):
    """The expression needs the general roller."""


class _Writer:
    """Walks the tree in the order its dice fall, writing one statement per die and per operation."""

    def __init__(self, expression: str) -> None:
        self.expression = expression
        self.lines: list[str] = []
        self.faces: list[str] = []          # the items of the faces tuple: "f0" or "*g3"
        self.natural: str | None = None     # the natural's expression, once the first d20 group is seen
        self.names: dict[str, str] = {}     # variable name → the local holding its (whole number) value
        self.constants: dict[str, object] = {}   # the common groups' chosen faces and closures: M0, G1 …
        self.drawn = 0                      # faces drawn so far whatever the dice show …
        self.grown: list[str] = []          # … and the groups whose number of faces the dice decide
        self.n = 0

    def local(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def assign(self, prefix: str, source: str) -> str:
        name = self.local(prefix)
        self.lines.append(f"    {name} = {source}")
        return name

    def value(self, node: AnyNode) -> str:
        """The name of a local (or a literal) holding the node's value, after writing what computes it."""
        if isinstance(node, Num):
            return repr(int(node.value))
        if isinstance(node, Var):
            return self.names.setdefault(node.name, f"v{len(self.names)}")
        if isinstance(node, Dice):
            return self.dice(node)
        if isinstance(node, Neg):
            return self.assign("t", f"-{self.value(node.operand)}")
        if isinstance(node, BinOp) and node.op in ("+", "-", "*"):
            left = self.value(node.left)
            right = self.value(node.right)
            return self.assign("t", f"{left} {node.op} {right}")
        if isinstance(node, Call):
            args = [self.value(a) for a in node.args]
            if node.name in ("ceil", "floor"):    # of a whole number (no division here): the number itself
                return args[0]
            return self.assign("t", f"{node.name}({', '.join(args)})")
        raise _NotFlat

    def dice(self, node: Dice) -> str:
        keep = simple_keep(node.ops)
        if node.sides is None or node.count_expr is not None or (node.ops and keep is None):
            return self.common(node)
        count = node.rolled
        mode, n = keep if keep is not None else ("kh", count)
        kept = kept_by(mode, n, count)
        highest = mode in ("kh", "dl")
        draw = f"int(r() * {int(node.sides)}) + 1"
        self.drawn += count
        if count <= SCALAR_DICE:
            faces = [self.assign("f", draw) for _ in range(count)]
            self.faces += faces
            every = ", ".join(faces)
            total = kept_total(faces, kept, highest)
            one = (faces[0] if count == 1 else f"{'max' if highest else 'min'}({every})") if faces else "None"
        else:
            group = self.assign("g", f"[{draw} for _ in range({count})]")
            self.faces.append(f"*{group}")
            total = (f"sum({group})" if kept == count else
                     f"sum(sorted({group})[{count - kept}:])" if highest else f"sum(sorted({group})[:{kept}])")
            one = f"{'max' if highest else 'min'}({group})"
        if node.sides == 20 and self.natural is None:     # the first d20 group gives the natural, or none
            self.natural = one if kept == 1 else "None"
        return self.assign("t", total)

    def common(self, node: Dice) -> str:
        """A common group with an operator, written by `common_groups` (loaded with the first such group)."""
        from furnace.dice.common_groups import write

        total = write(self, node, self.expression)
        if total is None:
            raise _NotFlat
        return total

    def constant(self, prefix: str, value: object) -> str:
        name = f"{prefix}{len(self.constants)}"
        self.constants[name] = value
        return name


FILENAME = "<furnace.dice.compiled>"     # the code's file name (`furnace.dice.compile_source` makes it)


def _source(writer: _Writer, total: str, explainer: str) -> str:
    head = ["def roll(rng, variables=None, label=''):",
            "    if type(rng) not in FLOAT_SOURCES or type(label) is not str:",
            "        return general_roll(rng, variables, label)"]
    if writer.names:
        head += ["    bound = bindings(variables, TEXT)"]
        for i, local in enumerate(writer.names.values()):     # NAMES holds the names in this order
            head += [f"    {local} = bound.get(NAMES[{i}])",
                     f"    if type({local}) is not int:",
                     "        return general_roll(rng, variables, label)"]
        head += ["    kept = dict(variables) if variables else NO_VARIABLES"]
    else:
        head += ["    if variables is not None and (type(variables) is not dict or variables):",
                 "        return general_roll(rng, variables, label)",
                 "    kept = NO_VARIABLES"]
    if writer.faces:
        head += ["    r = rng.random"]
    faces = f"({', '.join(writer.faces)},)" if writer.faces else "()"
    tail = [f"    return new(RollResult, (TEXT, {total}, {faces}, label, kept, {explainer}, {writer.natural}))"]
    return "\n".join(head + writer.lines + tail) + "\n"


# -- the explanation: the roll's tree rebuilt from its faces ----------------------------------------------------
class _TreeWriter:
    """Writes the function that rebuilds a roll's tree from its faces, node for node as the general roller
    builds it; faces its dice cannot show (or too many, too few) go to the general explainer, which says why."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.constants: dict[str, object] = {}
        self.at = 0            # the next face to take
        self.n = 0

    def local(self, prefix: str, source: str) -> str:
        self.n += 1
        name = f"{prefix}{self.n}"
        self.lines.append(f"    {name} = {source}")
        return name

    def constant(self, value: object) -> str:
        name = f"K{len(self.constants)}"
        self.constants[name] = value
        return name

    def node(self, node: AnyNode) -> tuple[str, str]:
        """The locals holding the node's tree and its value."""
        if isinstance(node, Num):
            return self.constant(Const(node.value)), repr(int(node.value))
        if isinstance(node, Dice):
            return self.dice(node)
        if isinstance(node, Neg):
            inner, value = self.node(node.operand)
            total = self.local("t", f"-{value}")
            return self.local("n", f"new(Negation, ({inner}, {total}, 'neg'))"), total
        if isinstance(node, BinOp) and node.op in ("+", "-", "*"):
            (left, a), (right, b) = self.node(node.left), self.node(node.right)
            total = self.local("t", f"{a} {node.op} {b}")
            return self.local("n", f"new(Operation, ({node.op!r}, {left}, {right}, {total}, 'op'))"), total
        if isinstance(node, Call):
            args = [self.node(a) for a in node.args]
            fn = self.constant(FUNCTIONS[node.name])
            total = self.local("t", f"{fn}({', '.join(v for _, v in args)})")
            nodes = "".join(f"{n}, " for n, _ in args)
            return self.local("n", f"new(Function, ({node.name!r}, ({nodes}), {total}, 'call'))"), total
        raise _NotFlat

    def dice(self, node: Dice) -> tuple[str, str]:
        keep = simple_keep(node.ops)
        if node.sides is None or node.count_expr is not None or (node.ops and keep is None):
            raise _NotFlat
        count = node.rolled
        sides = int(node.sides)
        faces = self.local("g", f"faces[{self.at}:{self.at + count}]")
        self.at += count
        if count:
            self.lines += [f"    if min({faces}) < 1 or max({faces}) > {sides}:",
                           "        return general_tree(faces, variables)"]
        if keep is None:
            marks, total = self.constant((True,) * count), self.local("t", f"sum({faces})")
        else:
            op = self.constant(node.ops[0])
            from furnace.dice.operators import marks as keep_marks  # which dice a keep leaves (ties as d20)

            marks = self.local("m", f"{self.constant(keep_marks)}({faces}, {op})")
            total = self.local("t", f"sum([f for f, k in zip({faces}, {marks}) if k])")
        text = self.constant(node.text)
        return (self.local("n", f"new(Rolled, ({text}, {sides}, {faces}, {marks}, {total}, 'dice', (), (), ()))"),
                total)


def _tree_source(tree: AnyNode) -> tuple[str, dict[str, object]] | None:
    if variables_of(tree):
        return None
    writer = _TreeWriter()
    try:
        top, _ = writer.node(tree)
    except _NotFlat:
        return None
    head = ["def tree(faces, variables):",
            f"    if variables is not NO_VARIABLES or type(faces) is not tuple or len(faces) != {writer.at}:",
            "        return general_tree(faces, variables)"]
    return "\n".join([*head, *writer.lines, f"    return {top}"]) + "\n", writer.constants


def compile_expression(tree: AnyNode, text: str, general_roll: RollFunction, general_tree: TreeFunction,
                       no_variables: Mapping[str, Any], compile_source: Callable[[str, str], CodeType],
                       ) -> tuple[RollFunction | None, TreeFunction | None]:
    """The roll of `tree` and the rebuilder of a roll's tree from its faces, each doing what `general_roll` and
    `general_tree` do (same faces, total, natural, tree); None for either one that the expression cannot have.

    Both are written into one source and made code together by `compile_source` (compiling costs a few hundred
    microseconds, so a `DiceExpression` compiles at its first roll, not when parsed)."""
    writer = _Writer(text)
    try:
        total: str | None = writer.value(tree)
    except _NotFlat:
        total = None
    tree_part = _tree_source(tree)
    if total is None and tree_part is None:
        return None, None
    source, constants = tree_part or ("", {})
    if total is not None:
        writer.natural = writer.natural or "None"
        source += _source(writer, total, "tree" if tree_part else "general_tree")
    namespace: dict[str, Any] = {
        **constants, "FLOAT_SOURCES": FLOAT_SOURCES, "general_roll": general_roll, "general_tree": general_tree,
        "bindings": bindings, "TEXT": text, "NO_VARIABLES": no_variables, "new": tuple.__new__,
        "RollResult": RollResult, "NAMES": tuple(writer.names), "Negation": Negation, "Operation": Operation,
        "Function": Function, "Rolled": Rolled,
        "kept_sum": kept_sum, **writer.constants,
    }
    exec(compile_source(source, FILENAME), namespace)
    return namespace.get("roll"), namespace.get("tree")
