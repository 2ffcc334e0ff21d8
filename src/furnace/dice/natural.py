"""The natural d20, read from a roll's faces as they fall.

The natural is what the kept die of the first d20 group counts as (when the group keeps exactly one die).
Where that group's faces fall in the roll is known before rolling when every die before it has a fixed count
and sides and no operator but one keep or drop, no variable before it holds a die, and no set is rolled; then
the natural is read from the faces at once, and otherwise (a rare expression) from the roll's tree.
"""

from __future__ import annotations

from collections.abc import Callable

from furnace.dice.ast import AnyNode, Dice, Set, Var, kept_by, operands, simple_keep
from furnace.dice.plan import Variables

ASK_TREE = -1          # a reader's answer when only the tree knows
NaturalReader = Callable[[list[int], Variables], int | None]


def _producers(node: AnyNode) -> list[Dice | Var] | None:
    """What may roll a die, left to right (the order the faces fall in); None when a set is rolled."""
    out: list[Dice | Var] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Set):
            return None
        if isinstance(item, Dice | Var):
            out.append(item)
        else:
            stack += reversed(operands(item))
    return out


def _kept_one(node: Dice, at: int) -> Callable[[list[int]], int | None]:
    """The kept face of a d20 group whose faces start at `at`, when it keeps exactly one."""
    count = node.rolled
    keep = simple_keep(node.ops)
    kept = count if keep is None else kept_by(*keep, count)
    if kept != 1:
        return lambda faces: None
    if keep is None:
        return lambda faces: faces[at]
    highest = keep[0] in ("kh", "dl")      # keep the highest one, or drop all but the highest
    end = at + count
    return (lambda faces: max(faces[at:end])) if highest else (lambda faces: min(faces[at:end]))


def _no_natural(faces: list[int]) -> None:
    return None


def _ask_tree(faces: list[int], variables: Variables) -> int:
    return ASK_TREE


def compile_natural(node: AnyNode) -> NaturalReader:
    """A reader of the natural d20 from a roll's faces and variables; it answers ASK_TREE when it cannot."""
    at, names = 0, []
    read: Callable[[list[int]], int | None]
    producers = _producers(node)
    if producers is None:
        return _ask_tree
    for item in producers:
        if isinstance(item, Var):
            names.append(item.name)        # a number rolls nothing; a die would shift what follows
            continue
        fixed = item.sides is not None and item.count_expr is None and (not item.ops or simple_keep(item.ops))
        if not fixed:
            return _ask_tree
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
