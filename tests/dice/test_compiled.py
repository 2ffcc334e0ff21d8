"""The compiled roll (`furnace.dice.compiled`) gives exactly what the general roller gives: the same faces drawn
from the same seed, the same total, natural d20 and explanation tree, and the source left in the same state —
every seeded test, golden log and README example depends on it (F-CRIT-01 and F-FUMB-01 read the natural)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from furnace import dice
from furnace.dice import DiceValueError, ScriptedDice
from furnace.dice.result import natural_of
from furnace.errors import DiceError, DiceLimitError, FurnaceError

COMPILED = [
    "1d20+5", "3d6", "4d6kh3", "12d6", "d20", "d20-2", "d20adv+3", "d20dis", "2d20kh1", "2d20kl1", "3d20dl2",
    "3d20dh2", "3d20kh2", "d6+d20", "2d6+d20kh1+1", "d20+d20", "d%", "d20*2", "(d20+1)*(d6)", "-d20+21",
    "max(d20, d20)", "min(d6, 3)+d20", "abs(d6-4)", "ceil(d20)", "floor(2d6)+1", "0d6+2", "0d20+d20", "20d6",
    "40d6kh3", "40d6dl39", "17d20kl1", "1d1", "d10000", "3", "-(2d6)", "10d10kl3", "5d8dh2", "d20+ATK",
    "ATK+d20+PROF", "2d6+CHA", "d20-STR*2", "max(STR, d6)", "4d8+4", "9d8+18", "4d6kh0", "4d6kh9", "1d6p1",
    "3d6dh5", "2d6pl3+d20",
    # the common groups with an operator (furnace.dice.common_groups), each a closure the compiled roll calls
    "4d6rr1", "4d6rr<3", "3d6rr1rr6", "4d6ro1kh3", "2d6ro<3", "4d6ro6dl1", "2d6mi2", "10d6mi10", "10d6ma0",
    "10d6ma5", "4d6mi2kh3", "8d6e6", "1d6e6", "3d4e>2", "2d6e6+d20", "2d6ra6", "4d4ra<2", "4d6k>4", "6d6p<3",
    "4d6k=3", "d20+8d6e6+2d6rr1", "2d2e2+2d2e2", "0d6rr1",
    # more dice than are written one statement a die: drawn in a loop, the operator rolled by a closure
    "20d6rr1", "30d6e6", "17d6mi2kh5", "20d6k>4", "20d6ra6", "18d6ro<3dl2", "17d4ma2", "25d4p=2",
]
GENERAL = ["d20ro1", "(LVL)d6", "5HD+d20", "d6/2", "ceil(d20/2)", "2HD", "4d6rol1", "4d6e6kh3", "(d6, d6)kh1",
           "1d6 [fire]", "d6 > 3", "d6 % 3", "d6 // 2", "d20mi2", "4d6k>2kh2", "2d6rah1", "3d6rr1ro2"]
VARIABLES: list[dict[str, Any]] = [{"ATK": 3, "PROF": 2, "CHA": -1, "STR": 4}, {"ATK": "5", "PROF": "-2", "CHA": 0,
                                                                                "STR": "0"}]


def _both(text: str, seed: int, variables: dict[str, Any] | None = None, label: str = "") -> tuple[Any, Any]:
    expression = dice.parse(text)
    names = expression.variables()
    bound = {k: v for k, v in (variables or {}).items() if k in names} or None
    fast_rng, slow_rng = random.Random(seed), random.Random(seed)
    fast = expression.roll(fast_rng, bound, label)
    slow = expression.roll_any(slow_rng, bound, label)
    return (fast, fast_rng.random()), (slow, slow_rng.random())


@pytest.mark.parametrize("text", COMPILED)
def test_compiled_rolls_as_the_general_roller_does(text: str) -> None:
    """Faces, total, natural, tree and the source's next draw: equal for 300 seeds and two sets of variables."""
    expression = dice.parse(text)
    for variables in VARIABLES:
        for seed in range(300):
            (fast, fast_next), (slow, slow_next) = _both(text, seed, variables, "to hit" if seed % 2 else "")
            assert fast == slow
            assert fast.tree == slow.tree == expression.explain_faces(fast.faces, fast.variables)
            assert fast.natural == natural_of(fast.tree)
            assert fast.explain() == slow.explain()
            assert fast_next == slow_next
    assert expression.roll != expression.roll_any, "this expression should be compiled at its first roll"


@pytest.mark.parametrize("text", GENERAL)
def test_what_the_compiled_roll_leaves_to_the_general_roller(text: str) -> None:
    expression = dice.parse(text)
    expression.roll(random.Random(1), {"LVL": 2, "HD": "d8"})
    assert expression.roll == expression.roll_any


def test_parsing_alone_compiles_nothing() -> None:
    """Checking a data file's dice parses them; only a roll compiles (a few hundred microseconds each)."""
    expression = dice.DiceExpression("2d6+3")
    assert expression.roll == expression._first_roll
    first = expression.roll(random.Random(5))
    assert expression.roll != expression._first_roll
    assert first == expression.roll_any(random.Random(5))


def test_the_natural_of_a_compiled_roll() -> None:
    """F-CRIT-01: 2d20kh1 keeps the higher d20 as the natural; a d6 before it does not shift it; 3d20kh2 has none."""
    for seed in range(200):
        rng = random.Random(seed)
        faces = [int(rng.random() * 20) + 1 for _ in range(2)]
        assert dice.roll("2d20kh1+2", random.Random(seed)).natural == max(faces)
        assert dice.roll("d20dis", random.Random(seed)).natural == min(faces)
        assert dice.roll("3d20kh2", random.Random(seed)).natural is None
        assert dice.roll("d6+d20", random.Random(seed)).natural == dice.roll("d6+d20", random.Random(seed)).faces[1]


def test_what_the_compiled_roll_hands_to_the_general_roller() -> None:
    """A script, a variable holding a die, a missing or bad variable, a bad label or source: the general roller
    answers (and refuses what it always refused)."""
    expression = dice.parse("d20+ATK")
    assert expression.roll(ScriptedDice([17]), {"ATK": 2}).total == 19
    assert expression.roll(random.Random(1), {"ATK": "d6"}).faces == dice.parse("d20+ATK").roll_any(
        random.Random(1), {"ATK": "d6"}).faces
    with pytest.raises(DiceError):
        expression.roll(random.Random(1))
    with pytest.raises(DiceValueError):
        expression.roll(random.Random(1), {"ATK": 2.5})  # type: ignore[dict-item]
    with pytest.raises(DiceValueError):
        dice.parse("d20").roll(random.Random(1), label=3)  # type: ignore[arg-type]
    with pytest.raises(DiceValueError):
        dice.parse("d20").roll(object())  # type: ignore[arg-type]
    with pytest.raises(DiceValueError):
        dice.parse("d20").roll(random.Random(1), [])  # type: ignore[arg-type]
    unused = dice.parse("d20").roll(random.Random(1), {"STR": 2})
    assert unused.variables == {"STR": 2}
    with pytest.raises(DiceValueError):
        dice.parse("d20").roll(random.Random(1), {"STR": None})  # type: ignore[dict-item]


def test_a_compiled_explanation_refuses_faces_its_dice_cannot_show() -> None:
    result = dice.roll("4d6kh3+2", random.Random(3))
    with pytest.raises(FurnaceError):
        result._replace(faces=(9, 1, 1, 1)).explain()
    with pytest.raises(FurnaceError):
        result._replace(faces=(1, 1, 1)).explain()


def test_a_large_group_is_rolled_in_a_loop_the_same() -> None:
    """1,000 dice (the limit): one loop, not a thousand statements; the same faces."""
    (fast, _), (slow, _) = _both("1000d6", 7)
    assert fast == slow and len(fast.faces) == 1000


# -- any plain expression ------------------------------------------------------------------------------------
_SELECTORS = st.builds(lambda kind, n: f"{kind}{n}", st.sampled_from(["", "<", ">", "="]), st.integers(0, 7))
_OPERATED = st.one_of(   # one operator (a common group), or one before a keep of the highest or lowest
    st.builds(lambda n, s, op, sel: f"{n}d{s}{op}{sel}", st.integers(0, 20), st.sampled_from([2, 4, 6, 8, 12]),
              st.sampled_from(["rr", "ro", "ra", "e", "k", "p"]), _SELECTORS),
    st.builds(lambda n, s, op, m, keep, k: f"{n}d{s}{op}{m}{keep}{k}", st.integers(0, 20),
              st.sampled_from([4, 6, 10]), st.sampled_from(["rr", "ro", "mi", "ma"]), st.integers(0, 3),
              st.sampled_from(["kh", "kl", "dh", "dl"]), st.integers(0, 13)),
    st.builds(lambda n, s, op, m: f"{n}d{s}{op}{m}", st.integers(0, 12), st.sampled_from([4, 6, 10]),
              st.sampled_from(["mi", "ma"]), st.integers(0, 12)),
)
_GROUPS = st.one_of(
    st.builds(lambda n, s: f"{n}d{s}", st.integers(0, 20), st.sampled_from([1, 4, 6, 20, 100])),
    _OPERATED,
    st.builds(lambda n, s, k, m: f"{n}d{s}{k}{min(m, n - 1) if k in ('dh', 'dl') else min(m, n)}",
              st.integers(1, 20), st.sampled_from([6, 20]), st.sampled_from(["kh", "kl", "dh", "dl"]),
              st.integers(1, 20)),
    st.sampled_from(["d20adv", "d20dis", "d%", "ATK", "PROF"]),
    st.integers(0, 30).map(str),
)


def _combine(parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(lambda a, op, b: f"{a}{op}{b}", parts, st.sampled_from(["+", "-", "*"]), parts),
        st.builds(lambda a: f"-({a})", parts),
        st.builds(lambda f, a, b: f"{f}({a}, {b})", st.sampled_from(["max", "min"]), parts, parts),
        st.builds(lambda f, a: f"{f}({a})", st.sampled_from(["abs", "ceil", "floor"]), parts),
    )


@settings(max_examples=300)
@given(st.recursive(_GROUPS, _combine, max_leaves=8), st.integers(0, 2**32))
def test_any_plain_expression_rolls_as_the_general_roller_does(text: str, seed: int) -> None:
    """Plain groups, keep/drop and the common groups with an operator, in any arithmetic: the compiled roll and the
    general roller give the same faces, total, natural and tree (or both refuse the roll, past the roll limit)."""
    try:
        expression = dice.parse(text)
    except DiceError:
        return
    try:
        (fast, fast_next), (slow, slow_next) = _both(text, seed, {"ATK": 3, "PROF": -2})
    except DiceLimitError:
        _refused_by_both(text, seed)
        return
    assert (fast, fast.tree, fast_next) == (slow, slow.tree, slow_next)
    assert fast.natural == natural_of(fast.tree)
    assert expression.roll != expression.roll_any


def _refused_by_both(text: str, seed: int) -> None:
    expression = dice.parse(text)
    with pytest.raises(DiceLimitError):
        expression.roll(random.Random(seed), {"ATK": 3, "PROF": -2})
    with pytest.raises(DiceLimitError):
        expression.roll_any(random.Random(seed), {"ATK": 3, "PROF": -2})


def test_the_roll_limit_refuses_the_same_roll_on_both_paths() -> None:
    """More than 10,000 faces drawn (rerolls and explosions included) refuses the roll, compiled or not, as d20
    raises TooManyRolls; the count is of the whole roll, not of one group."""
    text = "1000d20rr<20"    # 1,000 dice each rolled about 20 times
    for seed in range(3):
        _refused_by_both(text, seed)
    for seed in range(50):   # 600 dice explode about 120 times: well within the limit, on both paths
        (fast, _), (slow, _) = _both("600d6e6", seed)
        assert fast == slow and len(fast.faces) > 600
