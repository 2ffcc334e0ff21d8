"""Exact odds (icepool) against brute force, and bounds against the exact distribution."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import pytest

from furnace import dice
from furnace.dice import ScriptedDice
from furnace.errors import DiceError
from tests.helpers.recorder import Recorder


def brute_force(sides: Sequence[int], combine: Callable[..., int | Fraction]) -> dict[int, Fraction]:
    """Every equally likely tuple of faces, each mapped to a total (rounded down) by `combine`."""
    counts = Counter(math.floor(combine(*faces)) for faces in itertools.product(*(range(1, s + 1) for s in sides)))
    size = math.prod(sides)
    return {total: Fraction(n, size) for total, n in counts.items()}




def enumerate_rolls(text: str, variables: Mapping[str, int | str] | None = None) -> dict[int, Fraction]:
    """The distribution of `text` found by rolling it once with every possible tuple of faces."""
    recorder = Recorder()
    dice.roll(text, recorder, variables)
    expression = dice.parse(text)

    def total(*faces: int) -> int:
        return expression.roll(ScriptedDice(faces), variables).total

    return brute_force(recorder.sides, total)


# -- meet or beat ---------------------------------------------------------------------------------------

def test_check_meets_or_beats_the_dc() -> None:
    """F-BASE-02 / AMB-06: a CHECK succeeds when d20 + mods meets or beats the DC (ties succeed).

    d20+3 against DC 15 succeeds on a natural 12..20: 9 faces of 20.
    """
    p = dice.probability_at_least("d20+3", 15)
    assert p == Fraction(9, 20)
    assert isinstance(p, Fraction)
    assert dice.parse("d20+3").probability_at_least(15) == Fraction(9, 20)


@pytest.mark.parametrize(
    ("text", "dc", "variables", "expected"),
    [
        ("d20", 20, None, Fraction(1, 20)),
        ("d20", 1, None, Fraction(1)),
        ("d20", 0, None, Fraction(1)),
        ("d20", 21, None, Fraction(0)),
        ("d20+3", 23, None, Fraction(1, 20)),
        ("d20+3", 24, None, Fraction(0)),
        ("d20+STR+PROF", 15, {"STR": 2, "PROF": 1}, Fraction(9, 20)),
        ("d20+str", 10, {"STR": -1}, Fraction(10, 20)),
        ("d20adv", 20, None, Fraction(39, 400)),
        ("d20dis", 20, None, Fraction(1, 400)),
        ("d20adv+3", 15, None, 1 - Fraction(11, 20) ** 2),
        ("d20dis+3", 15, None, Fraction(9, 20) ** 2),
        ("2d6", 7, None, Fraction(21, 36)),
    ],
)
def test_probability_at_least(text: str, dc: int, variables: dict[str, int] | None, expected: Fraction) -> None:
    """F-BASE-02 / AMB-06: P(total ≥ DC), ties succeed."""
    assert dice.probability_at_least(text, dc, variables) == expected
    by_hand = sum((p for total, p in enumerate_rolls(text, variables).items() if total >= dc), Fraction(0))
    assert by_hand == expected


# -- distributions against brute force ------------------------------------------------------------------

def test_3d6_against_brute_force() -> None:
    expected = brute_force([6, 6, 6], lambda a, b, c: a + b + c)
    assert dice.parse("3d6").distribution() == expected
    assert expected[10] == Fraction(27, 216)


def test_4d6_keep_highest_3_against_brute_force() -> None:
    expected = brute_force([6] * 4, lambda *f: sum(sorted(f)[1:]))
    assert dice.parse("4d6kh3").distribution() == expected
    assert dice.parse("4d6dl1").distribution() == expected
    assert expected[18] == Fraction(21, 1296)
    assert expected[3] == Fraction(1, 1296)


def test_advantage_against_brute_force() -> None:
    advantage = brute_force([20, 20], max)
    disadvantage = brute_force([20, 20], min)
    assert dice.parse("2d20kh1").distribution() == advantage
    assert dice.parse("d20adv").distribution() == advantage
    assert dice.parse("2d20kl1").distribution() == disadvantage
    assert dice.parse("d20dis").distribution() == disadvantage
    assert advantage[20] == Fraction(39, 400)
    assert disadvantage[1] == Fraction(39, 400)


@pytest.mark.parametrize(
    ("text", "sides", "combine"),
    [
        ("d20+3", [20], lambda a: a + 3),
        ("4d6kl3", [6] * 4, lambda *f: sum(sorted(f)[:3])),
        ("4d6dh1", [6] * 4, lambda *f: sum(sorted(f)[:3])),
        ("5d4dh2", [4] * 5, lambda *f: sum(sorted(f)[:3])),
        ("3d8kh2", [8] * 3, lambda *f: sum(sorted(f)[1:])),
        ("d6/2", [6], lambda a: Fraction(a, 2)),
        ("-d6/2", [6], lambda a: Fraction(-a, 2)),
        ("ceil(3*d4/2)", [4], lambda a: math.ceil(Fraction(3 * a, 2))),
        ("d6/3+d6/3", [6, 6], lambda a, b: Fraction(a + b, 3)),
        ("d6-d6", [6, 6], lambda a, b: a - b),
        ("abs(d6-d8)", [6, 8], lambda a, b: abs(a - b)),
        ("max(d6, d8)", [6, 8], max),
        ("min(d6, d8)*2", [6, 8], lambda a, b: 2 * min(a, b)),
        ("(d6+1)/d4", [6, 4], lambda a, b: Fraction(a + 1, b)),
        ("d4*d4-d4", [4, 4, 4], lambda a, b, c: a * b - c),
        ("d%", [100], lambda a: a),
        ("floor(d10/3)", [10], lambda a: a // 3),
    ],
)
def test_distribution_against_brute_force(text: str, sides: list[int], combine: Callable[..., int]) -> None:
    distribution = dice.parse(text).distribution()
    assert distribution == brute_force(sides, combine)
    assert distribution == enumerate_rolls(text)
    assert sum(distribution.values()) == 1


@pytest.mark.parametrize("hd", ["d8", "D8"])
def test_counted_die_variable_distribution(hd: int | str) -> None:
    expected = brute_force([8, 8, 8], lambda *f: sum(f) + 2)
    assert dice.parse("3HD+CON").distribution({"HD": hd, "CON": 2}) == expected
    assert dice.parse("3HD+CON").distribution({"HD": hd, "CON": 2}) == dice.parse("3d8+2").distribution()


@pytest.mark.parametrize(
    "text",
    ["3d6", "4d6kh3", "d20adv", "d20dis", "2d20kl1", "d6/2", "ceil(3*d4/2)", "abs(d6-d6)", "d6*d6", "d20+3"],
)
def test_odds_agree_with_the_roller(text: str) -> None:
    """The exact distribution is what rolling every combination of faces gives."""
    assert dice.parse(text).distribution() == enumerate_rolls(text)


def test_odds_errors() -> None:
    with pytest.raises(DiceError, match="division by zero"):
        dice.parse("1/(d6-d6)").distribution()
    with pytest.raises(DiceError):
        dice.probability_at_least("d20+X", 10)


# -- bounds ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    [
        "d20", "3d6", "4d6kh3", "4d6dl1", "4d6dh1", "2d20kl1", "d20adv", "d20dis", "d%", "d20+5", "d20-5",
        "2d6*2", "d6/2", "-d6/2", "-d6", "d6-d6", "abs(d6-d6)", "abs(d6-10)", "max(d6, d8)", "min(d6, d8)",
        "max(d6, 3)", "ceil(3*d4/2)", "floor(d10/3)", "(d6+1)/d4", "d6*d6", "-d6*d4", "2d10*2-5", "7",
        "-3", "d20+2", "d20+4", "d20+6", "d20+8", "d20+10", "5d6dh2", "10/d4", "-10/d4", "d4-d8*2",
    ],
)
def test_bounds_match_the_distribution(text: str) -> None:
    expression = dice.parse(text)
    distribution = expression.distribution()
    assert expression.bounds() == (min(distribution), max(distribution))


def test_bounds_with_variables() -> None:
    assert dice.parse("5HD+3").bounds({"HD": "d8"}) == (8, 43)
    assert dice.parse("d20+STR+PROF").bounds({"STR": 2, "PROF": 1}) == (4, 23)
    assert dice.parse("ceil(3*STR/2)").bounds({"STR": 3}) == (5, 5)


def test_bounds_refuse_a_possible_zero_divisor() -> None:
    with pytest.raises(DiceError, match="zero"):
        dice.parse("1/(d6-d6)").bounds()
    with pytest.raises(DiceError, match="zero"):
        dice.parse("1/0").bounds()


# -- against icepool, an independent implementation -------------------------------------------------------

def _icepool(text: str) -> dict[int, Fraction]:
    import icepool

    def die(sides: int, reroll: int | None = None, minimum: int | None = None) -> icepool.Die:
        d = icepool.d(sides)
        if reroll is not None:
            d = d.reroll([reroll], depth=1)
        if minimum is not None:
            d = d.map(lambda face: max(face, minimum))
        return d

    cases = {
        "3d6": lambda: 3 @ die(6),
        "20d6": lambda: 20 @ die(6),
        "4d6kh3": lambda: die(6).pool(4).highest(3).sum(),
        "5d8kl2": lambda: die(8).pool(5).lowest(2).sum(),
        "12d10kh4": lambda: die(10).pool(12).highest(4).sum(),
        "d20adv": lambda: die(20).pool(2).highest(1).sum(),
        "2d6ro1": lambda: 2 @ die(6, reroll=1),
        "3d6mi2": lambda: 3 @ die(6, minimum=2),
        "4d6ro1mi2kh3": lambda: die(6, 1, 2).pool(4).highest(3).sum(),
        "6d4ro4dl2": lambda: die(4, reroll=4).pool(6).highest(4).sum(),
        "3d20ro1dh1": lambda: die(20, reroll=1).pool(3).lowest(2).sum(),
    }
    result = cases[text]()
    return {int(outcome): Fraction(quantity, result.denominator()) for outcome, quantity in result.items()}


@pytest.mark.parametrize("text", ["3d6", "20d6", "4d6kh3", "5d8kl2", "12d10kh4", "d20adv", "2d6ro1", "3d6mi2",
                                  "4d6ro1mi2kh3", "6d4ro4dl2", "3d20ro1dh1"])
def test_distribution_agrees_with_icepool(text: str) -> None:
    assert dice.parse(text).distribution() == _icepool(text)
