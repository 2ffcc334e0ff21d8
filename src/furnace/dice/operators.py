"""What d20's operators do to a group of dice (and keep/drop to a set), in d20's order and with d20's meaning.

A group's dice are all rolled first; then each operator in turn acts on the dice still kept, choosing them with
its selectors (`furnace.dice.ast.Selector`):

    k / p     keep the chosen dice and drop the others / drop the chosen dice
    rr        roll the chosen dice again, round after round, until none is chosen
    ro        roll each chosen die again, once
    ra        roll one more die for the first chosen die (one at most), keeping both
    e         roll one more die for each chosen die, and again for each new die chosen, until none is
    mi / ma   each kept die counts as at least / at most the number

New faces are drawn round by round, the chosen dice in the order they lie, a new die put after the others: the
order d20 draws them in, so the same faces give the same total. Among equal values the earliest die is chosen
first (by `h` and `l` alike), as d20 chooses.

Every roll is bounded: a reroll or explosion that would take a roll past `MAX_ROLLS` faces drawn refuses the
roll (`DiceLimitError`, as d20 raises TooManyRolls), and one that could never end — every face chosen again
(`1d6rr<7`, `1d1e1`), or `rr` with `h`/`l` — is refused before any die is rolled (`endless`).
"""

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import NamedTuple

from furnace.dice.ast import Operator, Selector
from furnace.dice.values import MAX_ROLLS
from furnace.errors import DiceLimitError

Draw = Callable[[int], list[int]]
Value = int | Fraction          # a die shows a whole number; a set's item may be a fraction


# -- choosing -----------------------------------------------------------------------------------------------------
def _pick(selector: Selector, kept: list[int], values: Sequence[Value]) -> list[int]:
    """The positions one selector chooses among the kept ones (sorted() is stable: equal values keep their order)."""
    kind, n = selector.kind, selector.n
    if kind == "h":
        return sorted(kept, key=values.__getitem__, reverse=True)[:n]
    if kind == "l":
        return sorted(kept, key=values.__getitem__)[:n]
    return [i for i in kept if selector.matches(values[i])]


def select(selectors: tuple[Selector, ...], values: Sequence[Value], kept: Sequence[bool],
           most: int | None = None) -> list[int]:
    """The positions chosen by any of the selectors (at most `most` of them), in the order they lie."""
    candidates = [i for i, k in enumerate(kept) if k]
    out: dict[int, None] = {}
    for selector in selectors:
        room = None if most is None else most - len(out)
        if room is not None and room <= 0:
            break
        picked = _pick(selector, candidates, values)
        out.update(dict.fromkeys(picked if room is None else picked[:room]))
    return sorted(out)


def keep_or_drop(op: Operator, values: Sequence[Value], kept: list[bool]) -> None:
    """`k` or `p` on a list of values (a group's dice or a set's items), in place."""
    chosen = set(select(op.selectors, values, kept))
    for i, k in enumerate(kept):
        if k and ((i not in chosen) if op.word == "k" else (i in chosen)):
            kept[i] = False


def marks(faces: Sequence[int], op: Operator) -> tuple[bool, ...]:
    """Which of the faces a keep or drop leaves counting."""
    kept = [True] * len(faces)
    keep_or_drop(op, faces, kept)
    return tuple(kept)


# -- a group's dice, die by die -------------------------------------------------------------------------------------
class Die:
    """One die of a group while it is rolled: every face it showed (the last one stands), what each face counts
    as (`mi`/`ma`), which faces exploded, and whether the die still counts. Lives only inside `roll_group`."""

    __slots__ = ("counts", "exploded", "faces", "kept")

    def __init__(self, face: int) -> None:
        self.faces = [face]
        self.counts = [face]
        self.exploded = [False]
        self.kept = True

    def reroll(self, face: int) -> None:
        self.faces.append(face)
        self.counts.append(face)
        self.exploded.append(False)


class _Rolls:
    """Draws the group's new faces, refusing the draw that would take the roll past MAX_ROLLS faces."""

    def __init__(self, draw: Draw, drawn: int, expression: str) -> None:
        self.draw, self.room, self.expression = draw, MAX_ROLLS - drawn, expression
        self.extra: list[int] = []

    def take(self, n: int) -> list[int]:
        if n > self.room:
            raise too_many_rolls(self.expression)
        self.room -= n
        faces = self.draw(n)
        self.extra += faces
        return faces


def too_many_rolls(expression: str) -> DiceLimitError:
    return DiceLimitError(f"more than {MAX_ROLLS:,} faces drawn in one roll (rerolls and explosions included)",
                          expression, expected="fewer dice, or a reroll or explosion that stops sooner")


def _reroll(pool: list[Die], chosen: list[int], rolls: _Rolls) -> None:
    for i, face in zip(chosen, rolls.take(len(chosen)), strict=True):
        pool[i].reroll(face)


def _add(pool: list[Die], chosen: list[int], rolls: _Rolls) -> None:
    """One more die for each chosen die, which is marked as exploded."""
    for i in chosen:
        pool[i].exploded[-1] = True
    pool += [Die(face) for face in rolls.take(len(chosen))]


def _chosen(op: Operator, pool: list[Die], most: int | None = None) -> list[int]:
    return select(op.selectors, [d.counts[-1] for d in pool], [d.kept for d in pool], most)


def _apply(op: Operator, pool: list[Die], rolls: _Rolls) -> None:
    word = op.word
    if word in ("mi", "ma"):
        n = op.selectors[-1].n
        for die in pool:
            if die.kept and (die.counts[-1] < n if word == "mi" else die.counts[-1] > n):
                die.counts[-1] = n
    elif word in ("k", "p"):
        kept = [d.kept for d in pool]
        keep_or_drop(op, [d.counts[-1] for d in pool], kept)
        for die, k in zip(pool, kept, strict=True):
            die.kept = k
    elif word == "rr":
        while chosen := _chosen(op, pool):
            _reroll(pool, chosen, rolls)
    elif word == "ro":
        _reroll(pool, _chosen(op, pool), rolls)
    elif word == "ra":
        _add(pool, _chosen(op, pool, most=1), rolls)
    else:   # e: a die exploded once is not chosen again
        done: set[int] = set()
        while chosen := [i for i in _chosen(op, pool) if i not in done]:
            _add(pool, chosen, rolls)
            done.update(chosen)


def roll_group(faces: list[int], ops: tuple[Operator, ...], draw: Draw, drawn: int,
               expression: str) -> tuple[list[Die], list[int]]:
    """The group's dice after its operators, from its first faces; and the new faces drawn, in order.

    `draw(n)` gives n new faces; `drawn` is how many faces the roll has drawn so far (these included)."""
    pool = [Die(face) for face in faces]
    rolls = _Rolls(draw, drawn, expression)
    for op in ops:
        _apply(op, pool, rolls)
    return pool, rolls.extra


def total_of(pool: list[Die]) -> int:
    return sum(d.counts[-1] for d in pool if d.kept)


# -- what a group can show, worked out before rolling ---------------------------------------------------------------
class Reach(NamedTuple):
    """What the kept dice of a group can count as, and how few and how many dice are kept (None: no bound known
    before rolling, for an explosion)."""

    values: frozenset[int]
    least: int
    most: int | None


def _matching(selectors: tuple[Selector, ...], values: frozenset[int]) -> frozenset[int]:
    return frozenset(v for v in values if any(not s.ranks and s.matches(v) for s in selectors))


def _keep_reach(op: Operator, reach: Reach) -> Reach:
    values, least, most = reach
    ranked = sum(s.n for s in op.selectors if s.ranks)
    has_ranked = any(s.ranks for s in op.selectors)
    matched = _matching(op.selectors, values)
    if op.word == "k":
        everything = matched == values
        kept_values = values if has_ranked else matched
        widest = max((s.n for s in op.selectors if s.ranks), default=0)   # two ranked choices may be one die
        new_least = least if everything else min(least, widest)
        new_most = most if matched else (ranked if most is None else min(most, ranked))
        return Reach(kept_values, new_least if kept_values else 0, new_most if kept_values else 0)
    left = values if has_ranked else values - matched
    new_least = 0 if matched else max(0, least - ranked)
    widest = max((s.n for s in op.selectors if s.ranks), default=0)   # the union drops at least this many
    new_most = None if most is None else max(0, most - widest)
    return Reach(left, new_least if left else 0, new_most if left else 0)


def step(op: Operator, reach: Reach, sides: int, depth: int | None) -> Reach:
    """The reach after one operator; explosions followed to `depth` new dice a die (as the exact odds follow
    them), or with no bound (None) but the roll's limit."""
    values, least, most = reach
    faces = frozenset(range(1, sides + 1))
    if op.word in ("mi", "ma"):
        n = op.selectors[-1].n
        return Reach(frozenset(max(v, n) if op.word == "mi" else min(v, n) for v in values), least, most)
    if op.word in ("k", "p"):
        return _keep_reach(op, reach)
    if not values or most == 0:
        return reach
    chosen = _matching(op.selectors, values)
    if op.word == "rr":
        return Reach((values - chosen) | (faces - _matching(op.selectors, faces)) if chosen else values, least, most)
    grown = values | faces
    if op.word == "ro":
        return Reach(grown, least, most)
    if op.word == "ra":
        return Reach(grown, least, None if most is None else most + 1)
    ranked = sum(s.n for s in op.selectors if s.ranks)   # e with h/l: at most n new dice a round, sides rounds
    if most is None or depth is None:
        return Reach(grown, least, None)
    return Reach(grown, least, most * (depth + 1) + ranked * sides)


def reach(sides: int, count: int | None, ops: tuple[Operator, ...], depth: int | None) -> Reach:
    """What the group's kept dice can count as, and how many are kept; `count` None when worked out at roll time."""
    out = Reach(frozenset(range(1, sides + 1)), count or 0, count)
    for op in ops:
        out = step(op, out, sides, depth)
    return out


def endless(sides: int, count: int | None, ops: tuple[Operator, ...]) -> str | None:
    """Why a reroll or explosion of the group could go on forever (every face chosen again), or None."""
    faces = frozenset(range(1, sides + 1))
    now = Reach(faces, count or 0, count)
    for op in ops:
        may_choose = bool(now.values) and now.most != 0
        if op.word == "rr" and may_choose and any(s.ranks and s.n > 0 for s in op.selectors):
            return f"'{_shown(op)}' chooses a die every time, so it would be rolled again forever"
        if op.word in ("rr", "e") and may_choose and _matching(op.selectors, now.values) and \
                _matching(op.selectors, faces) == faces:
            again = "rolled again" if op.word == "rr" else "exploded"
            return f"every face of a d{sides} is chosen by '{_shown(op)}', so the dice would be {again} forever"
        now = step(op, now, sides, 0)
    return None


def _shown(op: Operator) -> str:
    return op.word + "".join(("" if s.kind == "=" else s.kind) + str(s.n) for s in op.selectors)
