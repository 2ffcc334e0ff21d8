"""The common dice groups with an operator, written into the compiled roll (`compiled`).

`4d6rr1`, `4d6ro1kh3`, `10d6mi2`, `8d6e6`, `1d6e6`, `2d6ra6`, `4d6k>4`: one operator whose selectors look at one
face alone (`=`, `<`, `>`; not `h`/`l`), optionally followed — for `rr`, `ro`, `mi` and `ma`, which keep the
number of dice — by one keep or drop of the highest or lowest. The compiled roll draws the group's dice one
statement a die, tests each face against the chosen faces (a frozenset handed to it as a value), and rolls the
rerolls round after round — the chosen dice in the order they lie — and the explosions' new dice after every
die of the group: the faces the general roller (`operators.roll_group`) draws, in the same order, to the same
total. The differential test of the two (tests/dice/test_compiled.py) holds them to it. A group of more than
SCALAR_DICE dice is rolled by a closure; a d20 group is left to the general roller, which reads its natural.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

from furnace.dice.ast import Dice, kept_by, simple_keep
from furnace.dice.kept_source import SCALAR_DICE, kept_total
from furnace.dice.operators import too_many_rolls
from furnace.dice.roller import kept_sum
from furnace.dice.values import MAX_ROLLS

Random = Callable[[], float]


class Writer(Protocol):
    """What the compiled roll's writer offers a group (`compiled._Writer`)."""

    lines: list[str]
    faces: list[str]
    grown: list[str]
    drawn: int

    def assign(self, prefix: str, source: str) -> str: ...

    def constant(self, prefix: str, value: object) -> str: ...


class CommonGroup(NamedTuple):
    word: str                       # the operator
    match: frozenset[int]           # the faces it chooses
    n: int                          # its number (mi, ma)
    keep: tuple[str, int] | None    # the keep or drop after it


def common_group(node: Dice) -> CommonGroup | None:
    """The group's operator for the compiled roll, or None when the general roller must roll it."""
    if node.sides is None or node.count_expr is not None or node.sides == 20 or not node.ops:
        return None
    first, rest = node.ops[0], node.ops[1:]
    keep = simple_keep(rest) if rest else None
    if (rest and (keep is None or first.word not in ("rr", "ro", "mi", "ma"))) or \
            any(s.ranks for s in first.selectors):
        return None
    match = frozenset(f for f in range(1, node.sides + 1) if any(s.matches(f) for s in first.selectors))
    return CommonGroup(first.word, match, first.selectors[-1].n, keep)


def chooses(match: frozenset[int], chosen: str) -> Callable[[str], str]:
    """The source that tests a face's local against the chosen faces: a comparison when they run unbroken (`== 6`,
    `>= 5`, `<= 2`), a look-up in the frozenset `chosen` otherwise."""
    if not match:
        return lambda f: "False"
    low, high = min(match), max(match)
    if len(match) != high - low + 1:
        return lambda f: f"{f} in {chosen}"
    if low == high:
        return lambda f: f"{f} == {low}"
    return lambda f: f"{f} >= {low}" if low > 1 else f"{f} <= {high}"


def write(w: Writer, node: Dice, expression: str) -> str | None:
    """Write the group into the compiled roll; the local holding its total, or None to leave it to the general
    roller. Faces past the roll's limit (`values.MAX_ROLLS`, counted as the general roller counts) refuse it."""
    group = common_group(node)
    if group is None or node.sides is None:
        return None
    count, sides = node.rolled, int(node.sides)
    if count == 0:
        return "0"
    draw = f"int(r() * {sides}) + 1"
    w.drawn += count
    chosen = w.constant("M", group.match)
    test = chooses(group.match, chosen) if count <= SCALAR_DICE else (lambda f: f"{f} in {chosen}")
    room = " - ".join([str(MAX_ROLLS - w.drawn), *(f"len({g})" for g in w.grown)])
    if count > SCALAR_DICE:
        return _write_loop(w, group, count, sides, chosen, room, expression)
    faces = [w.assign("f", draw) for _ in range(count)]
    w.faces += faces
    if group.word in ("mi", "ma", "k", "p"):
        return w.assign("t", _counted(w, group, faces, test))
    refuse = w.constant("L", _refusal(expression))
    extra = w.assign("x", "()")      # the new faces: a list once there is one
    w.faces.append(f"*{extra}")
    w.grown.append(extra)
    if group.word in ("rr", "ro"):
        return _write_rerolls(w, group, faces, draw, test, room, refuse, extra)
    total = w.assign("t", " + ".join(faces))
    if group.word == "ra":
        w.lines += [f"    if {' or '.join(test(f) for f in faces)}:", f"        if {room} < 1:",
                    f"            {refuse}()", f"        {extra} = [{draw}]", f"        {total} += {extra}[0]"]
    else:
        w.lines += _explosions_source(faces, draw, test, room, refuse, extra, total)
    return total


def _explosions_source(faces: list[str], draw: str, test: Callable[[str], str], room: str, refuse: str, extra: str,
                       total: str) -> list[str]:
    """e: round after round, one new die for each die that exploded in the round before."""
    return [f"    k = {' + '.join(f'({test(f)})' for f in faces)}",
            "    if k:",
            f"        {extra} = []",
            "        room = " + room,
            "        while k:",
            "            if k > room:",
            f"                {refuse}()",
            "            room -= k",
            "            for _ in range(k):",
            f"                y = {draw}",
            f"                {extra}.append(y)",
            f"                k += {test('y')}",
            "                k -= 1",
            f"        {total} += sum({extra})"]


def _counted(w: Writer, group: CommonGroup, faces: list[str], test: Callable[[str], str]) -> str:
    """The total of `mi`, `ma`, `k` or `p` on the faces, with the keep after `mi`/`ma`."""
    n = int(group.n)
    values_of: dict[str, Callable[[str], str]] = {
        "mi": lambda f: f"({f} if {f} > {n} else {n})", "ma": lambda f: f"({f} if {f} < {n} else {n})",
        "k": lambda f: f"({f} if {test(f)} else 0)", "p": lambda f: f"(0 if {test(f)} else {f})"}
    value = values_of[group.word]
    if group.keep is None:
        return " + ".join(value(f) for f in faces) or "0"
    mode, k = group.keep
    values = [w.assign("v", value(f)) for f in faces]
    return kept_total(values, kept_by(mode, k, len(values)), mode in ("kh", "dl"))


def _write_rerolls(w: Writer, group: CommonGroup, faces: list[str], draw: str, test: Callable[[str], str],
                   room: str, refuse: str, extra: str) -> str:
    """rr and ro: round after round (one round for ro), each die still chosen rolled again, in the order they lie."""
    values = [w.assign("v", f) for f in faces]
    chosen_count = " + ".join(f"({test(v)})" for v in values)
    body = ["    k = " + chosen_count,
            "    if k:",
            f"        {extra} = []",
            "        room = " + room,
            "        while k:" if group.word == "rr" else "        if k:",
            "            if k > room:",
            f"                {refuse}()",
            "            room -= k"]
    for v in values:
        body += [f"            if {test(v)}:", f"                {v} = {draw}", f"                {extra}.append({v})"]
    if group.word == "rr":
        body.append("            k = " + chosen_count)
    w.lines += body
    mode, n = group.keep if group.keep is not None else ("kh", len(values))
    return w.assign("t", kept_total(values, kept_by(mode, n, len(values)), mode in ("kh", "dl")))


def _write_loop(w: Writer, group: CommonGroup, count: int, sides: int, chosen: str, room: str,
                expression: str) -> str:
    """A group of more dice than SCALAR_DICE: drawn in a loop, its operator rolled by a closure."""
    listed = w.assign("g", f"[int(r() * {sides}) + 1 for _ in range({count})]")
    w.faces.append(f"*{listed}")
    mode, n = group.keep if group.keep is not None else ("kh", count)
    if group.word in ("mi", "ma", "k", "p"):
        value = {"mi": f"(f if f > {int(group.n)} else {int(group.n)})",
                 "ma": f"(f if f < {int(group.n)} else {int(group.n)})",
                 "k": f"(f if f in {chosen} else 0)", "p": f"(0 if f in {chosen} else f)"}[group.word]
        return w.assign("t", f"kept_sum([{value} for f in {listed}], {mode if group.keep else None!r}, {int(n)})")
    roll = w.constant("G", _closure(group, sides, expression))
    total, extra = w.assign("t", "0"), w.assign("x", "[]")
    w.lines.append(f"    {total}, {extra} = {roll}(r, {room}, {listed})")
    w.faces.append(f"*{extra}")
    w.grown.append(extra)
    return total


def _refusal(expression: str) -> Callable[[], None]:
    def refuse() -> None:
        raise too_many_rolls(expression)

    return refuse


def _explosions(sides: int, match: frozenset[int], expression: str) -> Callable[[Random, int, int],
                                                                                tuple[int, list[int]]]:
    """The new dice of `more` exploded dice, round after round: what they add and their faces."""
    def explode(r: Random, room: int, more: int) -> tuple[int, list[int]]:
        drawn: list[int] = []
        while more:
            if more > room:
                raise too_many_rolls(expression)
            room -= more
            fresh = [int(r() * sides) + 1 for _ in range(more)]
            drawn += fresh
            more = len([f for f in fresh if f in match])
        return sum(drawn), drawn

    return explode


def _closure(group: CommonGroup, sides: int, expression: str) -> Callable[[Random, int, list[int]],
                                                                           tuple[int, list[int]]]:
    """rr, ro, ra or e on a long group: (random, room, its first faces) → (total, the new faces in order)."""
    match, once = group.match, group.word == "ro"
    mode, n = group.keep if group.keep is not None else (None, 0)
    explode = _explosions(sides, match, expression)

    def roll(r: Random, room: int, faces: list[int]) -> tuple[int, list[int]]:
        if group.word in ("e", "ra"):
            more = len([f for f in faces if f in match])
            if group.word == "e" or not more:
                added, drawn = explode(r, room, more) if more else (0, [])
                return sum(faces) + added, drawn
            if room < 1:
                raise too_many_rolls(expression)
            face = int(r() * sides) + 1
            return sum(faces) + face, [face]
        values = list(faces)
        todo = [i for i, f in enumerate(values) if f in match]
        drawn = []
        while todo:
            if len(todo) > room:
                raise too_many_rolls(expression)
            room -= len(todo)
            for i in todo:
                values[i] = int(r() * sides) + 1
                drawn.append(values[i])
            todo = [] if once else [i for i in todo if values[i] in match]
        return kept_sum(values, mode, n), drawn

    return roll
