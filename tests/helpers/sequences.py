"""Brute force: the distribution of an expression found by rolling it with every sequence of faces it asks for."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction

from furnace import dice


class NeedMore(Exception):   # a signal to the enumeration, not an error
    def __init__(self, sides: int) -> None:
        self.sides = sides


class Prefix:
    """A dice source that shows the given faces, then asks for the next die's sides by raising."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces
        self.at = 0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if self.at == len(self.faces):
            raise NeedMore(start if stop is None else stop - start)
        self.at += 1
        return self.faces[self.at - 1] - 1


def every_sequence(text: str, most: int, *, cut: str = "refuse", variables: Mapping[str, int | str] | None = None,
                   limit: int = 300_000) -> dict[int, Fraction]:
    """Each total of `text` and its probability, over every sequence of up to `most` faces (each face 1/sides).

    A sequence that would need more faces is, by `cut`: "refuse" — a failure of the test (the roll is finite);
    "condition" — left out and the rest weighed up to 1 (exact for `rr`: the faces that stand do not depend on
    how many rerolls it took); "stand" — ended with the faces so far, the last die standing (an explosion followed
    to a depth, as icepool's `explode(depth=…)`: only for one die exploding first, whose total is then the sum of
    its faces)."""
    expression = dice.parse(text)
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    left_out = Fraction(0)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    seen = 0
    while stack:
        faces, p = stack.pop()
        seen += 1
        assert seen <= limit, "too many sequences to enumerate"
        try:
            out[expression.roll_any(Prefix(faces), variables).total] += p
        except NeedMore as more:
            if len(faces) < most:
                stack += [((*faces, f), p / more.sides) for f in range(1, more.sides + 1)]
            elif cut == "condition":
                left_out += p
            elif cut == "stand":
                out[sum(faces)] += p
            else:
                raise AssertionError(f"{text} needs more than {most} faces") from None
    return {total: p / (1 - left_out) for total, p in sorted(out.items()) if p}
