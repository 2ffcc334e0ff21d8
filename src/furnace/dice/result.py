"""Roll results: a frozen tree that explains itself (faces, kept dice, modifiers, total, natural d20).

Nodes are NamedTuples because a roll builds several of them and tuples are the cheapest immutable value.
"""

import math
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from furnace.dice.values import DiceValueError

if TYPE_CHECKING:
    from fractions import Fraction

Value: TypeAlias = "int | Fraction"     # (`furnace.dice.plan.Value`: no `fractions` to import for a whole roll)


class Const(NamedTuple):
    value: int
    kind: str = "num"


class Bound(NamedTuple):
    """A variable the caller bound, such as STR or PROF."""

    name: str
    value: int
    kind: str = "var"


class Rolled(NamedTuple):
    """One group of dice: `4d6kh3` rolled as faces (6, 5, 3, 1) keeping the first three.

    `faces` holds every face die by die, in the order the dice lie (a die's rerolled faces before the face that
    stands; the dice an explosion added after the others), which need not be the order the faces were drawn
    in (`RollResult.faces`): a reroll is drawn after every die of the group. `rerolled` marks the faces that
    were rolled again (empty when the group has no `rr`/`ro`); `counts_as` is what each face counts as after
    `mi`/`ma` (empty when the group has neither); `exploded` marks the faces that added a die (`e`, `ra`; empty
    without them); `kept`, which faces count.
    """

    text: str
    sides: int
    faces: tuple[int, ...]
    kept: tuple[bool, ...]
    value: int
    kind: str = "dice"
    counts_as: tuple[int, ...] = ()
    rerolled: tuple[bool, ...] = ()
    exploded: tuple[bool, ...] = ()


class Operation(NamedTuple):
    op: str
    left: "Node"
    right: "Node"
    value: Value
    kind: str = "op"


class Negation(NamedTuple):
    operand: "Node"
    value: Value
    kind: str = "neg"


class Function(NamedTuple):
    name: str
    args: tuple["Node", ...]
    value: Value
    kind: str = "call"


class Chosen(NamedTuple):
    """A set, `(1d4, 2+2, 3d6kl1)kh1`: each item's tree, which items count, and the total of those."""

    items: tuple["Node", ...]
    kept: tuple[bool, ...]
    value: Value
    kind: str = "set"


class Noted(NamedTuple):
    """A part with its annotation, `3d6 [fire]`: the annotation changes nothing."""

    operand: "Node"
    note: str
    value: Value
    kind: str = "note"


Node = Const | Bound | Rolled | Operation | Negation | Function | Chosen | Noted
_PRECEDENCE = {"==": 0, "!=": 0, "<": 0, ">": 0, "<=": 0, ">=": 0, "+": 1, "-": 1, "*": 2, "/": 2, "//": 2,
               "%": 2}


_KINDS = {"num": Const, "var": Bound, "dice": Rolled, "op": Operation, "neg": Negation, "call": Function,
          "set": Chosen, "note": Noted}
MAX_TREE_DEPTH = 600   # a parsed expression of 256 characters is at most 256 deep


def check_tree(node: object) -> None:
    """Refuse anything but a roll's tree (of bounded depth) at the door of `render` and `to_dict`."""
    stack: list[tuple[object, int]] = [(node, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            raise DiceValueError(f"a roll's tree is at most {MAX_TREE_DEPTH} deep")
        kind = getattr(item, "kind", None)
        if not isinstance(kind, str) or type(item) is not _KINDS.get(kind):
            raise DiceValueError(f"not a node of a roll's tree: {type(item).__name__}")
        if kind == "op":
            stack += [(item.left, depth + 1), (item.right, depth + 1)]  # type: ignore[attr-defined]
        elif kind in ("neg", "note"):
            stack.append((item.operand, depth + 1))  # type: ignore[attr-defined]
        elif kind == "call":
            stack += [(a, depth + 1) for a in item.args]  # type: ignore[attr-defined]
        elif kind == "set":
            stack += [(a, depth + 1) for a in item.items]  # type: ignore[attr-defined]


def _dice_text(node: Rolled) -> str:
    """`[~~1~~→3, 1 as 2, ~~5~~, 6!]`: struck out faces do not count; a rerolled face points at its reroll; an
    exploded face is followed by a `!`."""
    if not node.rerolled and not node.counts_as and not node.exploded:   # the common group
        if all(node.kept):
            return "[" + ", ".join(map(str, node.faces)) + "]"
        return "[" + ", ".join([str(f) if k else f"~~{f}~~" for f, k in zip(node.faces, node.kept, strict=True)]) + "]"
    parts: list[str] = []
    glue = ""
    for i, (face, kept) in enumerate(zip(node.faces, node.kept, strict=True)):
        bang = "!" if node.exploded and node.exploded[i] else ""
        shown = f"{face} as {node.counts_as[i]}" if node.counts_as and node.counts_as[i] != face else str(face)
        if node.rerolled and node.rerolled[i]:
            glue += f"~~{shown}{bang}~~→"
            continue
        parts.append(glue + (shown + bang if kept else f"~~{shown}{bang}~~"))
        glue = ""
    if glue:
        parts.append(glue.removesuffix("→"))
    return "[" + ", ".join(parts) + "]"


def render(node: Node, parent: int = 0, right_side: bool = False) -> str:
    """The tree as one readable line: `[6, 5, 3, ~~1~~] + 2 (STR)`."""
    check_tree(node)
    return _render(node, parent, right_side)


def _render(node: Node, parent: int = 0, right_side: bool = False) -> str:
    kind = node.kind
    if kind == "dice":
        return _dice_text(node)  # type: ignore[arg-type]
    if kind == "num":
        return str(node.value)
    if kind == "var":
        return f"{node.value} ({node.name})"  # type: ignore[union-attr]
    if kind == "neg":
        return "-" + _render(node.operand, 3)  # type: ignore[union-attr]
    if kind == "call":
        return f"{node.name}(" + ", ".join(_render(a) for a in node.args) + ")"  # type: ignore[union-attr]
    if kind == "set":
        pairs = zip(node.items, node.kept, strict=True)  # type: ignore[union-attr]
        return "(" + ", ".join(_render(a) if k else f"~~{_render(a)}~~" for a, k in pairs) + ")"
    if kind == "note":
        return f"{_render(node.operand, parent, right_side)} {node.note}"  # type: ignore[union-attr]
    op = node.op  # type: ignore[union-attr]
    right = node.right  # type: ignore[union-attr]
    if op in "+-" and right.kind in ("num", "var") and right.value < 0:   # "+ -1 (STR)" reads as "- 1 (STR)"
        flipped = "-" if op == "+" else "+"
        shown = str(-right.value) + (f" ({right.name})" if right.kind == "var" else "")  # type: ignore[union-attr]
        text = f"{_render(node.left, 1)} {flipped} {shown}"  # type: ignore[union-attr]
        return f"({text})" if parent > 1 or (right_side and parent == 1) else text
    mine = _PRECEDENCE[op]
    text = f"{_render(node.left, mine)} {op} {_render(node.right, mine, True)}"  # type: ignore[union-attr]
    needs = mine < parent or (right_side and mine == parent)
    return f"({text})" if needs else text


def to_dict(node: Node) -> dict[str, Any]:
    check_tree(node)
    return _to_dict(node)


def _to_dict(node: Node) -> dict[str, Any]:
    kind = node.kind
    value = node.value
    if not isinstance(value, int) and value.denominator == 1:       # a Fraction that is whole
        value = value.numerator
    out: dict[str, Any] = {"kind": kind, "value": value if isinstance(value, int) else str(value)}
    if kind == "dice":
        out.update(text=node.text, sides=node.sides, faces=list(node.faces),  # type: ignore[union-attr]
                   kept=list(node.kept))  # type: ignore[union-attr]
        if node.counts_as:  # type: ignore[union-attr]
            out["counts_as"] = list(node.counts_as)  # type: ignore[union-attr]
        if node.rerolled:  # type: ignore[union-attr]
            out["rerolled"] = list(node.rerolled)  # type: ignore[union-attr]
        if node.exploded:  # type: ignore[union-attr]
            out["exploded"] = list(node.exploded)  # type: ignore[union-attr]
    elif kind == "var":
        out["name"] = node.name  # type: ignore[union-attr]
    elif kind == "op":
        out.update(op=node.op, left=_to_dict(node.left), right=_to_dict(node.right))  # type: ignore[union-attr]
    elif kind == "neg":
        out["operand"] = _to_dict(node.operand)  # type: ignore[union-attr]
    elif kind == "call":
        out.update(name=node.name, args=[_to_dict(a) for a in node.args])  # type: ignore[union-attr]
    elif kind == "set":
        out.update(items=[_to_dict(a) for a in node.items], kept=list(node.kept))  # type: ignore[union-attr]
    elif kind == "note":
        out.update(note=node.note, operand=_to_dict(node.operand))  # type: ignore[union-attr]
    return out


def dice_groups(node: Node, counting: bool = False) -> list[Rolled]:
    """Every dice group in the tree, left to right (with `counting`, not those of a set's dropped items)."""
    groups: list[Rolled] = []
    stack: list[Node] = [node]
    while stack:
        item = stack.pop()
        kind = item.kind
        if kind == "dice":
            groups.append(item)  # type: ignore[arg-type]
        elif kind == "op":
            stack += [item.right, item.left]  # type: ignore[union-attr]
        elif kind in ("neg", "note"):
            stack.append(item.operand)  # type: ignore[union-attr]
        elif kind == "call":
            stack += reversed(item.args)  # type: ignore[union-attr]
        elif kind == "set":
            stack += reversed([a for a, k in zip(item.items, item.kept, strict=True)  # type: ignore[union-attr]
                               if k or not counting])
    return groups


def natural_of(node: Node) -> int | None:
    """What the kept die of the first d20 group counts as (after `mi`/`ma`, as d20 reads a crit), when the group
    keeps exactly one die; the groups of a set's dropped items are passed over."""
    for group in dice_groups(node, counting=True):
        if group.sides == 20:
            values = group.counts_as or group.faces
            kept = [v for v, k in zip(values, group.kept, strict=True) if k]
            return kept[0] if len(kept) == 1 else None
    return None


class RollResult(NamedTuple):
    """A finished roll: what was rolled, why, every die face, and the total (rounded down).

    A roll records only its faces; `tree` replays them through the expression to explain the roll
    (each group's faces, kept and dropped dice, each modifier), so rolling stays cheap. `natural` is the kept
    face of the first d20 group of the roll (when it keeps one die): crits, fumbles, mishaps; it is read as the
    dice fall (`natural_of` of the tree gives the same).
    """

    expression: str
    total: int
    faces: tuple[int, ...]
    label: str = ""
    variables: Mapping[str, int | str] = MappingProxyType({})
    explainer: Callable[[tuple[int, ...], Mapping[str, int | str]], Node] | None = None
    natural: int | None = None

    @property
    def tree(self) -> Node:
        if self.explainer is None:
            return Const(self.total)
        return self.explainer(self.faces, self.variables)

    def explain(self) -> str:
        line = f"{self.expression} → {_render(self.tree)} = {self.total}"
        return f"{self.label}: {line}" if self.label else line

    def __str__(self) -> str:
        return self.explain()

    def to_dict(self) -> dict[str, Any]:
        return {"expression": self.expression, "label": self.label, "total": self.total,
                "natural": self.natural, "faces": list(self.faces), "variables": dict(self.variables),
                "explanation": self.explain(), "tree": _to_dict(self.tree)}

    def to_json(self) -> str:
        import json  # here: a roll printed as text loads no JSON encoder

        return json.dumps(self.to_dict())


def floor_value(value: Value) -> int:
    return value if type(value) is int else math.floor(value)


def tree_from_dict(raw: Mapping[str, Any]) -> Node:
    """A tree written by `to_dict` (a stored roll's `tree`), read back."""
    kind, value = raw["kind"], raw["value"]
    from fractions import Fraction

    number: Value = value if isinstance(value, int) else Fraction(str(value))
    if kind == "dice":
        return Rolled(str(raw["text"]), int(raw["sides"]), tuple(raw["faces"]), tuple(raw["kept"]), int(number),
                      counts_as=tuple(raw.get("counts_as", ())), rerolled=tuple(raw.get("rerolled", ())))
    if kind == "var":
        return Bound(str(raw["name"]), int(number))
    if kind == "op":
        return Operation(str(raw["op"]), tree_from_dict(raw["left"]), tree_from_dict(raw["right"]), number)
    if kind == "neg":
        return Negation(tree_from_dict(raw["operand"]), number)
    if kind == "call":
        return Function(str(raw["name"]), tuple(tree_from_dict(a) for a in raw["args"]), number)
    return Const(int(number))


def roll_from_dict(raw: Mapping[str, Any]) -> RollResult:
    """A roll written by `RollResult.to_dict` (the log keeps them so), read back: it explains itself as before."""
    tree = tree_from_dict(raw["tree"]) if isinstance(raw.get("tree"), Mapping) else Const(int(raw["total"]))
    return RollResult(str(raw["expression"]), int(raw["total"]), tuple(int(f) for f in raw.get("faces", ())),
                      str(raw.get("label", "")), MappingProxyType(dict(raw.get("variables") or {})),
                      lambda _faces, _vars: tree, raw.get("natural"))
