"""The natural d20 of a roll is read as the dice fall, not replayed from the tree: it must always equal what the
tree says (the kept face of the first d20 group keeping one die; F-CRIT-01 and F-FUMB-01 read it)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from furnace import dice
from furnace.dice import ScriptedDice
from furnace.dice.result import natural_of
from furnace.errors import DiceError

EXPRESSIONS = [
    "d20", "1d20", "d20+5", "d20-2", "1d20+ATK", "ATK+d20", "d20+CON", "2d20kh1", "2d20kl1", "3d20kh1", "3d20dl2",
    "3d20dh2", "3d20kh2", "d20adv", "d20dis", "d20adv+3", "d6+d20", "2d6+d20kh1+1", "d20+d20", "4d6kh3", "3d6",
    "12d6", "1d6+STR", "d20ro1", "2d20ro1kh1", "d20mi5", "(LVL)d20", "(LVL)d6+d20", "HD+d20", "d20+HD", "5HD+d20",
    "max(d20, d20)", "min(d6, 3)+d20", "-d20+21", "ceil(d20/2)", "d%", "d20*2", "(d20+1)*(d6)", "d4adv+d20",
    "2d4ro1+d20", "d20+(LVL)d6", "1d20+1d20kh1",
]
DIE_VARIABLES: list[dict[str, int | str]] = [{"ATK": 3, "CON": -1, "STR": 2, "LVL": 2, "HD": "d8"},
                 {"ATK": 0, "CON": 0, "STR": 0, "LVL": 1, "HD": "d20"},
                 {"ATK": "d20", "CON": "d6", "STR": "d20", "LVL": 3, "HD": "d4"}]


def _rolled(text: str, rng: object, variables: dict[str, int | str]) -> dice.RollResult | None:
    expression = dice.parse(text)
    try:
        return expression.roll(rng, {k: v for k, v in variables.items() if k in expression.variables()})  # type: ignore[arg-type]
    except DiceError:       # a variable holding a die where a number must stand (a dice count)
        return None


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_natural_equals_the_tree_for_many_seeds(text: str) -> None:
    """F-CRIT-01, F-FUMB-01: the stored natural is the tree's, for every expression, variables and seed."""
    checked = 0
    for variables in DIE_VARIABLES:
        for seed in range(150):
            result = _rolled(text, random.Random(seed), variables)
            if result is None:
                continue
            assert result.natural == natural_of(result.tree), (text, variables, result.faces)
            checked += 1
    assert checked


def test_natural_of_scripted_faces() -> None:
    """The numbers: 2d20kh1 showing 3 and 17 has natural 17; d6+d20 showing 6 and 1 has natural 1 (a fumble);
    3d20kh2 keeps two dice, so no natural; 4d6kh3 rolls no d20."""
    assert dice.roll("2d20kh1+2", ScriptedDice([3, 17])).natural == 17
    assert dice.roll("2d20kl1", ScriptedDice([3, 17])).natural == 3
    assert dice.roll("d6+d20", ScriptedDice([6, 1])).natural == 1
    assert dice.roll("3d20kh2", ScriptedDice([3, 17, 20])).natural is None
    assert dice.roll("4d6kh3", ScriptedDice([6, 5, 3, 1])).natural is None
    assert dice.roll("d20ro1", ScriptedDice([1, 20])).natural == 20
    assert dice.roll("HD+d20", ScriptedDice([20, 4]), {"HD": "d20"}).natural == 20     # the die bound to HD is first


def test_natural_in_to_dict() -> None:
    assert dice.roll("d20+5", ScriptedDice([20])).to_dict()["natural"] == 20


PIECES = st.sampled_from(["d20", "d6", "2d20kh1", "2d20kl1", "3", "ATK", "HD", "d20adv", "(LVL)d20", "d20ro1",
                          "2d6", "3d20dl2", "d20mi2"])


@settings(max_examples=300)
@given(st.lists(PIECES, min_size=1, max_size=4), st.sampled_from(["+", "-", "*"]), st.integers(0, 10_000),
       st.sampled_from(DIE_VARIABLES))
def test_natural_equals_the_tree_for_any_sum(pieces: list[str], op: str, seed: int,
                                             variables: dict[str, int | str]) -> None:
    result = _rolled(op.join(pieces), random.Random(seed), variables)
    if result is not None:
        assert result.natural == natural_of(result.tree)
