"""The common dice groups with an operator, each rolled by one closure for the compiled roll (`compiled`).

`4d6rr1`, `4d6ro1kh3`, `10d6mi2`, `8d6e6`, `1d6e6`, `2d6ra6`, `4d6k>4`: one operator whose selectors look at
one face alone (`=`, `<`, `>`; not `h`/`l`), optionally followed — for `rr`, `ro`, `mi` and `ma`, which keep the
number of dice — by one keep or drop of the highest or lowest. Each closure draws exactly the faces the
general roller (`operators.roll_group`) draws, in the same order, and gives the same total: the differential
test of the two (tests/dice/test_compiled.py) holds them to it. A d20 group is left to the general roller, which
reads its natural.
"""

from __future__ import annotations

from collections.abc import Callable

from furnace.dice.ast import Dice
from furnace.dice.operators import simple_keep, too_many_rolls
from furnace.dice.roller import kept_sum

# (the source's random, the faces the roll may still draw for rerolls and explosions) → (total, faces drawn)
GroupRoll = Callable[[Callable[[], float], int], tuple[int, list[int]]]


def common_group(node: Dice, expression: str) -> GroupRoll | None:
    """The closure that rolls the group, or None when the general roller must."""
    if node.sides is None or node.count_expr is not None or node.sides == 20 or not node.ops:
        return None
    first, rest = node.ops[0], node.ops[1:]
    keep = simple_keep(rest) if rest else None
    if (rest and (keep is None or first.word not in ("rr", "ro", "mi", "ma"))) or \
            any(s.ranks for s in first.selectors):
        return None
    sides, count = node.sides, node.rolled
    match = frozenset(f for f in range(1, sides + 1) if any(s.matches(f) for s in first.selectors))
    mode, n = keep if keep is not None else (None, 0)
    make = _MAKERS.get(first.word)
    if make is None:
        return None
    return make(sides, count, match, first.selectors[-1].n, mode, n, expression)


def _reroll(sides: int, count: int, match: frozenset[int], _: int, mode: str | None, n: int,
            expression: str, once: bool = False) -> GroupRoll:
    repeat = range(count)

    def roll(r: Callable[[], float], room: int) -> tuple[int, list[int]]:
        faces = [int(r() * sides) + 1 for _ in repeat]
        todo = [i for i, f in enumerate(faces) if f in match]
        if not todo:
            return kept_sum(faces, mode, n), faces
        values = faces[:]      # `faces` goes on growing with every face drawn, in order
        while todo:
            if len(todo) > room:
                raise too_many_rolls(expression)
            room -= len(todo)
            for i in todo:
                face = int(r() * sides) + 1
                faces.append(face)
                values[i] = face
            todo = [] if once else [i for i in todo if values[i] in match]
        return kept_sum(values, mode, n), faces

    return roll


def _reroll_once(sides: int, count: int, match: frozenset[int], least: int, mode: str | None, n: int,
                 expression: str) -> GroupRoll:
    return _reroll(sides, count, match, least, mode, n, expression, once=True)


def _bound(sides: int, count: int, match: frozenset[int], limit: int, mode: str | None, n: int, expression: str,
           lowest: bool = True) -> GroupRoll:
    repeat = range(count)

    def roll(r: Callable[[], float], room: int) -> tuple[int, list[int]]:
        faces = [int(r() * sides) + 1 for _ in repeat]
        values = [f if f > limit else limit for f in faces] if lowest else [f if f < limit else limit for f in faces]
        return kept_sum(values, mode, n), faces

    return roll


def _most(sides: int, count: int, match: frozenset[int], limit: int, mode: str | None, n: int,
          expression: str) -> GroupRoll:
    return _bound(sides, count, match, limit, mode, n, expression, lowest=False)


def _explode(sides: int, count: int, match: frozenset[int], _: int, mode: str | None, n: int,
             expression: str) -> GroupRoll:
    repeat = range(count)

    def roll(r: Callable[[], float], room: int) -> tuple[int, list[int]]:
        faces = [int(r() * sides) + 1 for _ in repeat]
        total = sum(faces)
        more = len([f for f in faces if f in match])
        while more:       # one new die for each die that exploded in the round before
            if more > room:
                raise too_many_rolls(expression)
            room -= more
            fresh = [int(r() * sides) + 1 for _ in range(more)]
            faces += fresh
            total += sum(fresh)
            more = len([f for f in fresh if f in match])
        return total, faces

    return roll


def _add_one(sides: int, count: int, match: frozenset[int], _: int, mode: str | None, n: int,
             expression: str) -> GroupRoll:
    repeat = range(count)

    def roll(r: Callable[[], float], room: int) -> tuple[int, list[int]]:
        faces = [int(r() * sides) + 1 for _ in repeat]
        if any(f in match for f in faces):
            if room < 1:
                raise too_many_rolls(expression)
            faces.append(int(r() * sides) + 1)
        return sum(faces), faces

    return roll


def _keep(sides: int, count: int, match: frozenset[int], _: int, mode: str | None, n: int,
          expression: str, keep: bool = True) -> GroupRoll:
    repeat = range(count)

    def roll(r: Callable[[], float], room: int) -> tuple[int, list[int]]:
        faces = [int(r() * sides) + 1 for _ in repeat]
        return sum([f for f in faces if (f in match) is keep]), faces

    return roll


def _drop(sides: int, count: int, match: frozenset[int], _: int, mode: str | None, n: int,
          expression: str) -> GroupRoll:
    return _keep(sides, count, match, _, mode, n, expression, keep=False)


_MAKERS: dict[str, Callable[..., GroupRoll]] = {
    "rr": _reroll, "ro": _reroll_once, "mi": _bound, "ma": _most, "e": _explode, "ra": _add_one, "k": _keep,
    "p": _drop,
}
