"""furnace.dice.odds helpers over finished distributions: a DC read off the distribution once (at_least), sums
(convolve) and mixtures, checked against icepool."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from furnace import dice
from furnace.dice.odds import at_least, convolve, mean, mixture


def peer(die: icepool.Die) -> dict[int, Fraction]:
    return {int(k): Fraction(n, die.denominator()) for k, n in die.items()}


@pytest.mark.parametrize(("text", "dc"), [("d20+3", 15), ("4d6kh3", 12), ("2d20kl1", 11), ("3d6", 19)])
def test_F_BASE_03_at_least_meets_or_beats_as_icepool(text: str, dc: int) -> None:
    dist = dice.parse(text).distribution()
    assert at_least(dist, dc) == dice.parse(text).probability_at_least(dc)
    assert mean(dist) == sum(k * p for k, p in dist.items())


def test_convolve_and_mixture_agree_with_icepool() -> None:
    a, b = dice.parse("1d8+2").distribution(), dice.parse("2d6").distribution()
    assert convolve(a, b) == peer(icepool.d8 + 2 + 2 @ icepool.d6)
    mixed = mixture([(Fraction(1, 4), a), (Fraction(3, 4), b)])
    assert mixed == peer(icepool.d4.map(lambda r: icepool.d8 + 2 if r == 1 else 2 @ icepool.d6))
    assert mixture([(Fraction(1, 2), {3: Fraction(1)})]) == {3: Fraction(1, 2)}
