"""Rolling: exact totals with scripted dice, kept flags, the natural d20, rendering, labels, serialisation,
seeded reproducibility and the parse cache."""

from __future__ import annotations

import doctest
import json
import random

import pytest

import furnace.dice
from furnace import dice
from furnace.dice import DiceExpression, RollResult, ScriptedDice
from furnace.dice.source import ScriptExhausted
from furnace.errors import DiceError, FurnaceError

# -- totals and kept dice -------------------------------------------------------------------------------

def test_four_d6_keep_highest_three() -> None:
    result = dice.roll("4d6kh3", ScriptedDice([6, 5, 3, 1]))
    assert result.total == 14
    assert result.tree.faces == (6, 5, 3, 1)
    assert result.tree.kept == (True, True, True, False)
    assert list(result.faces) == [6, 5, 3, 1]
    assert isinstance(result, RollResult)
    assert type(result.total) is int


def test_every_scripted_face_is_used_in_order() -> None:
    source = ScriptedDice([4, 2, 19, 6])
    result = dice.roll("2d6+d20+d8", source)
    assert result.total == 31
    assert list(result.faces) == [4, 2, 19, 6]
    assert source.remaining == 0
    assert source.used == [(4, 6), (2, 6), (19, 20), (6, 8)]


@pytest.mark.parametrize(
    ("text", "faces", "variables", "expected"),
    [
        ("d20+STR+PROF", [14], {"STR": 2, "PROF": 3}, 19),
        ("d20+STR", [1], {"STR": -1}, 0),
        ("2d6+3", [6, 6], {}, 15),
        ("d8-1", [1], {}, 0),
        ("ceil(3*STR/2)+d10", [10], {"STR": 3}, 15),
        ("5HD+CON", [8, 7, 6, 5, 4], {"HD": "d8", "CON": 2}, 32),
        ("d%", [42], {}, 42),
        ("(d4+1)*2", [3], {}, 8),
        ("d20adv+STR", [2, 19], {"STR": 1}, 20),
        ("d20dis+STR", [2, 19], {"STR": 1}, 3),
    ],
)
def test_exact_totals(text: str, faces: list[int], variables: dict[str, int | str], expected: int) -> None:
    source = ScriptedDice(faces)
    assert dice.roll(text, source, variables).total == expected
    assert source.remaining == 0


def test_division_by_zero_is_a_dice_error() -> None:
    with pytest.raises(DiceError, match="division by zero"):
        dice.roll("d6/0", ScriptedDice([3]))
    with pytest.raises(DiceError, match="division by zero"):
        dice.roll("10/(d6-d6)", ScriptedDice([2, 2]))
    assert dice.roll("10/(d6-d6)", ScriptedDice([4, 2])).total == 5


# -- the natural d20 ------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "faces", "natural"),
    [
        ("d20", [20], 20),
        ("d20", [1], 1),
        ("1d20", [13], 13),
        ("d20+5", [13], 13),
        ("d20+STR+PROF", [7], 7),
        ("d20adv", [3, 17], 17),
        ("d20adv", [17, 3], 17),
        ("d20dis", [3, 17], 3),
        ("d20dis", [20, 1], 1),
        ("d20adv+4", [20, 20], 20),
        ("2d20kh1", [5, 11], 11),
        ("2d20kl1", [5, 11], 5),
        ("3d20kh1", [5, 11, 2], 11),
        ("d6+d20", [2, 13], 13),                 # the d20 need not come first
        ("2d6+d20+3", [6, 6, 9], 9),
        ("STR+d20", [18], 18),
        ("max(d6, d20)", [6, 2], 2),
        ("-d20", [4], 4),                        # the face, not the signed value
        ("d20+d20", [4, 15], 4),                 # the first d20
        ("X+1", [12], 12),                       # a variable bound to a d20
        ("3d6", [1, 2, 3], None),
        ("d12+4", [12], None),
        ("d%", [20], None),
        ("2d20", [5, 11], None),                 # two kept d20s: no single natural
        ("7", [], None),
    ],
)
def test_natural_d20(text: str, faces: list[int], natural: int | None) -> None:
    result = dice.roll(text, ScriptedDice(faces), {"STR": 2, "PROF": 1, "X": "d20"})
    assert result.natural == natural
    assert result.to_dict()["natural"] == natural


def test_natural_is_not_the_total() -> None:
    result = dice.roll("d20+10", ScriptedDice([1]))
    assert (result.natural, result.total) == (1, 11)


# -- rendering and labels -------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "faces", "explanation"),
    [
        ("4d6kh3", [6, 5, 3, 1], "4d6kh3 → [6, 5, 3, ~~1~~] = 14"),
        ("4d6dl1", [1, 5, 3, 6], "4d6dl1 → [~~1~~, 5, 3, 6] = 14"),
        ("d20adv", [3, 17], "d20adv → [~~3~~, 17] = 17"),
        ("d20dis", [3, 17], "d20dis → [3, ~~17~~] = 3"),
        ("d20+STR+PROF", [14], "d20+STR+PROF → [14] + 2 (STR) + 3 (PROF) = 19"),
        ("d6/2", [5], "d6/2 → [5] / 2 = 2"),
        ("ceil(3*STR/2)", [], "ceil(3*STR/2) → ceil(3 * 2 (STR) / 2) = 3"),
        ("  2d6 + 3 ", [1, 2], "2d6 + 3 → [1, 2] + 3 = 6"),
        ("(1+2)*3", [], "(1+2)*3 → (1 + 2) * 3 = 9"),
        ("1+2*3", [], "1+2*3 → 1 + 2 * 3 = 7"),
        ("1-(2-3)", [], "1-(2-3) → 1 - (2 - 3) = 2"),
        ("(1-2)-3", [], "(1-2)-3 → 1 - 2 - 3 = -4"),
        ("12/(2*3)", [], "12/(2*3) → 12 / (2 * 3) = 2"),
        ("-(d4+1)", [2], "-(d4+1) → -([2] + 1) = -3"),
        ("-d4", [2], "-d4 → -[2] = -2"),
        ("max(d6, d8)", [2, 7], "max(d6, d8) → max([2], [7]) = 7"),
        ("5HD", [1, 2, 3, 4, 5], "5HD → [1, 2, 3, 4, 5] = 15"),
        ("d%", [99], "d% → [99] = 99"),
    ],
)
def test_explain(text: str, faces: list[int], explanation: str) -> None:
    result = dice.roll(text, ScriptedDice(faces), {"STR": 2, "PROF": 3, "HD": "d8"})
    assert result.explain() == explanation
    assert str(result) == explanation
    assert dice.render(result.tree) == explanation.split(" → ")[1].rsplit(" = ", 1)[0]


def test_label_in_explain() -> None:
    result = dice.roll("4d6kh3", ScriptedDice([6, 5, 3, 1]), label="STR for a new character")
    assert result.label == "STR for a new character"
    assert result.explain() == "STR for a new character: 4d6kh3 → [6, 5, 3, ~~1~~] = 14"
    assert str(result) == result.explain()


def test_no_label_no_prefix() -> None:
    assert dice.roll("d20", ScriptedDice([9])).explain() == "d20 → [9] = 9"


# -- to_dict / to_json ----------------------------------------------------------------------------------

REQUIRED_KEYS = {"expression", "label", "total", "natural", "explanation", "tree"}


def test_to_dict_shape() -> None:
    result = dice.roll("4d6kh3", ScriptedDice([6, 5, 3, 1]), label="STR")
    data = result.to_dict()
    assert set(data) >= REQUIRED_KEYS
    assert {key: data[key] for key in REQUIRED_KEYS} == {
        "expression": "4d6kh3",
        "label": "STR",
        "total": 14,
        "natural": None,
        "explanation": "STR: 4d6kh3 → [6, 5, 3, ~~1~~] = 14",
        "tree": {"kind": "dice", "value": 14, "text": "4d6kh3", "sides": 6, "faces": [6, 5, 3, 1],
                 "kept": [True, True, True, False]},
    }


def test_to_dict_tree_of_every_node_kind() -> None:
    result = dice.roll("-d20adv+STR*2-max(3, d4/2)", ScriptedDice([4, 15, 3]), {"STR": 2})
    tree = result.to_dict()["tree"]
    assert result.total == -15 + 4 - 3
    assert tree == {
        "kind": "op", "op": "-", "value": -14,
        "left": {
            "kind": "op", "op": "+", "value": -11,
            "left": {"kind": "neg", "value": -15,
                     "operand": {"kind": "dice", "value": 15, "text": "d20adv", "sides": 20, "faces": [4, 15],
                                 "kept": [False, True]}},
            "right": {"kind": "op", "op": "*", "value": 4,
                      "left": {"kind": "var", "name": "STR", "value": 2},
                      "right": {"kind": "num", "value": 2}},
        },
        "right": {"kind": "call", "name": "max", "value": 3,
                  "args": [{"kind": "num", "value": 3},
                           {"kind": "op", "op": "/", "value": "3/2",
                            "left": {"kind": "dice", "value": 3, "text": "d4", "sides": 4, "faces": [3],
                                     "kept": [True]},
                            "right": {"kind": "num", "value": 2}}]},
    }
    assert result.natural == 15


def test_to_dict_exact_fraction_is_a_string() -> None:
    tree = dice.roll("d6/2", ScriptedDice([5])).to_dict()["tree"]
    assert tree["value"] == "5/2"
    assert dice.roll("d6/2", ScriptedDice([4])).to_dict()["tree"]["value"] == 2


def test_to_dict_integral_value_is_an_int() -> None:
    tree = dice.roll("d6/2*2", ScriptedDice([5])).to_dict()["tree"]
    assert tree["value"] == 5


def test_to_json_round_trips() -> None:
    result = dice.roll("d20+STR", ScriptedDice([20]), {"STR": 3}, label="Attack → goblin")
    data = json.loads(result.to_json())
    assert data == result.to_dict()
    assert set(data) >= REQUIRED_KEYS
    assert data["explanation"] == "Attack → goblin: d20+STR → [20] + 3 (STR) = 23"
    assert data["natural"] == 20
    assert data["total"] == 23
    assert data["label"] == "Attack → goblin"


# -- determinism and sources ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["4d6kh3", "d20adv+STR", "3d6*2-d%", "5HD+3", "ceil(3*d6/2)"])
def test_same_seed_same_rolls(text: str) -> None:
    variables = {"STR": 2, "HD": "d8"}
    first = [dice.roll(text, random.Random(1234), variables).to_dict() for _ in range(3)]
    rng_a, rng_b = random.Random(99), random.Random(99)
    a = [dice.roll(text, rng_a, variables).to_dict() for _ in range(20)]
    b = [dice.roll(text, rng_b, variables).to_dict() for _ in range(20)]
    assert first[0] == first[1] == first[2]
    assert a == b
    assert dice.roll(text, dice.seeded(99), variables) == dice.roll(text, random.Random(99), variables)


def test_different_seeds_differ() -> None:
    rolls = {tuple(dice.roll("10d20", random.Random(seed)).faces) for seed in range(20)}
    assert len(rolls) == 20


def test_fixture_rng_is_seeded(rng: random.Random) -> None:
    assert dice.roll("10d20", rng).faces == dice.roll("10d20", random.Random(20261129)).faces


def test_seeded_source_covers_every_face() -> None:
    rng = random.Random(5)
    faces = {dice.roll("d6", rng).total for _ in range(200)}
    assert faces == {1, 2, 3, 4, 5, 6}


def test_system_source_rolls() -> None:
    result = dice.roll("3d6", dice.system())
    assert 3 <= result.total <= 18


def test_module_docstring_example() -> None:
    tests = doctest.DocTestFinder(recurse=False).find(furnace.dice)
    assert tests and tests[0].examples
    for test in tests:
        doctest.DebugRunner(optionflags=doctest.ELLIPSIS).run(test, out=lambda _text: None)


def test_scripted_dice_refuse_impossible_faces_and_running_out() -> None:
    with pytest.raises(ValueError, match="d6") as face:   # still a ValueError, as rule tests expect …
        dice.roll("d6", ScriptedDice([7]))
    assert isinstance(face.value, DiceError)             # … and a DiceError, as every bad input is
    with pytest.raises(ScriptExhausted) as info:
        dice.roll("2d6", ScriptedDice([1]))
    assert isinstance(info.value, FurnaceError)


# -- parse once, roll many ------------------------------------------------------------------------------

def test_parse_cache_returns_the_same_object() -> None:
    assert dice.parse("4d6kh3+2") is dice.parse("4d6kh3+2")
    expression = dice.parse("d20+STR")
    assert isinstance(expression, DiceExpression)
    assert dice.parse("d20+STR") is expression
    assert repr(expression) == "DiceExpression('d20+STR')"


def test_expressions_compare_by_tree() -> None:
    assert dice.parse("d20 + 5") == dice.parse("d20+5")
    assert hash(dice.parse("d20 + 5")) == hash(dice.parse("d20+5"))
    assert dice.parse("d20+5") != dice.parse("d20+6")
    assert dice.parse("d20+5") != "d20+5"


def test_a_parsed_expression_rolls_many_times() -> None:
    expression = dice.parse("2d6")
    source = ScriptedDice([1, 2, 3, 4, 5, 6])
    assert [expression.roll(source).total for _ in range(3)] == [3, 7, 11]
    assert dice.roll("2d6", ScriptedDice([6, 6])) == expression.roll(ScriptedDice([6, 6]))


def test_results_are_immutable() -> None:
    result = dice.roll("d20", ScriptedDice([5]))
    with pytest.raises(AttributeError):
        result.total = 20  # type: ignore[misc]
