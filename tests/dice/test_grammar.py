"""The dice grammar: every notation parses and evaluates as documented; every malformed text is refused
with a `DiceError` that says where and what was expected; the limits hold."""

from __future__ import annotations

import pytest

from furnace import dice
from furnace.dice import ScriptedDice
from furnace.dice.ast import BinOp, Call, Dice, Neg, Num, Operator, Selector, Var
from furnace.dice.grammar import MAX_DEPTH, MAX_SIDES
from furnace.errors import (
    DiceError,
    DiceLimitError,
    DiceSyntaxError,
    FurnaceError,
    UnboundVariableError,
)

OPERATOR = "an operator (+ - * / // % == != < > <= >=) or the end"


def total(text: str, faces: list[int] | None = None, **variables: int | str) -> int:
    """Roll `text` with the given faces (all of which must be used) and return the total."""
    source = ScriptedDice(faces or [])
    result = dice.roll(text, source, variables)
    assert source.remaining == 0, f"{text!r} left scripted faces unused: {source.faces}"
    return result.total


# -- dice notation --------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "faces", "expected"),
    [
        ("d20", [17], 17),
        ("1d20", [17], 17),
        ("D20", [17], 17),
        ("3d6", [1, 2, 3], 6),
        ("2d8", [8, 8], 16),
        ("d%", [73], 73),
        ("1d%", [100], 100),
        ("2d%", [1, 100], 101),
        ("d1", [1], 1),
        ("d10000", [10_000], 10_000),
        ("7", [], 7),
        ("0", [], 0),
        ("007", [], 7),
        ("d007", [7], 7),
    ],
)
def test_dice_notation(text: str, faces: list[int], expected: int) -> None:
    assert total(text, faces) == expected


@pytest.mark.parametrize(
    ("text", "count", "sides"),
    [("d20", 1, 20), ("4d6", 4, 6), ("d%", 1, 100), ("10d%", 10, 100), ("D8", 1, 8), ("1000d6", 1000, 6)],
)
def test_dice_node(text: str, count: int, sides: int) -> None:
    tree = dice.parse(text).tree
    assert isinstance(tree, Dice)
    assert (tree.count, tree.sides, tree.ops, tree.advantage) == (count, sides, (), None)


def test_dice_asks_the_source_for_the_right_die() -> None:
    source = ScriptedDice([3, 4, 50, 2])
    dice.roll("2d6+d%+d4", source)
    assert source.used == [(3, 6), (4, 6), (50, 100), (2, 4)]


# -- arithmetic -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "faces", "expected"),
    [
        ("d20+5", [10], 15),
        ("d20-5", [3], -2),
        ("2d6*2", [3, 4], 14),
        ("d6/2", [6], 3),
        ("1+2*3", [], 7),
        ("(1+2)*3", [], 9),
        ("10-2-3", [], 5),           # left-associative
        ("10-(2-3)", [], 11),
        ("12/2/3", [], 2),
        ("12/(2/3)", [], 18),
        ("2*3+4*5", [], 26),
        ("d6+d6+d6", [1, 2, 3], 6),
        ("-3", [], -3),
        ("--3", [], 3),
        ("+3", [], 3),
        ("-d6", [4], -4),
        ("-(2+3)", [], -5),
        ("2*-3", [], -6),
        ("2--3", [], 5),
        ("-2*-3", [], 6),
        ("d4-d4", [1, 4], -3),
    ],
)
def test_arithmetic(text: str, faces: list[int], expected: int) -> None:
    assert total(text, faces) == expected


@pytest.mark.parametrize(
    ("text", "faces", "expected"),
    [
        ("d6/2", [5], 2),            # 5/2 = 2.5, rounded down
        ("d6/2", [1], 0),
        ("7/2", [], 3),
        ("-7/2", [], -4),            # rounded down, not towards zero
        ("d6/2*2", [5], 5),          # exact: 5/2*2 is 5, not 4
        ("d6/3+d6/3", [2, 2], 1),    # 2/3 + 2/3 = 4/3, not 0 + 0
        ("1/3*3", [], 1),
        ("10/4*4", [], 10),
        ("(d6+1)/2", [4], 2),
    ],
)
def test_division_is_exact_and_the_total_is_rounded_down_at_the_end(
        text: str, faces: list[int], expected: int) -> None:
    assert total(text, faces) == expected


def test_d6_halved_rounds_down() -> None:
    """F-TAB-23 / F-EQ-05 context: division is exact and only the total is rounded (down): d6/2 with a 5 is 2."""
    result = dice.roll("d6/2", ScriptedDice([5]))
    assert result.total == 2
    assert result.explain() == "d6/2 → [5] / 2 = 2"


@pytest.mark.parametrize(("strength", "bonus"), [(1, 2), (2, 3), (3, 5), (4, 6), (0, 0)])
def test_two_handed_str_bonus_rounds_up(strength: int, bonus: int) -> None:
    """F-TAB-23 / F-EQ-05: the two-handed damage bonus is ceil(1.5 × STR), written ceil(3*STR/2).

    The document's rows: STR 1 → +2, STR 2 → +3, STR 3 → +5, STR 4 → +6 (and STR 0 → +0, derived).
    This only works because 3*STR/2 stays exact (9/2 for STR 3) until ceil sees it.
    """
    assert total("ceil(3*STR/2)", STR=strength) == bonus
    assert dice.parse("ceil(3*STR/2)").bounds({"STR": strength}) == (bonus, bonus)


def test_two_handed_damage_with_the_str_bonus() -> None:
    """F-EQ-05: a two-handed martial weapon (1d10) with STR 3 deals 1d10+5."""
    assert total("1d10+ceil(3*STR/2)", [7], STR=3) == 12


# -- functions ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "faces", "expected"),
    [
        ("ceil(7/2)", [], 4),
        ("ceil(-7/2)", [], -3),
        ("ceil(3)", [], 3),
        ("floor(7/2)", [], 3),
        ("floor(-7/2)", [], -4),
        ("abs(-3)", [], 3),
        ("abs(d4-d6)", [1, 6], 5),
        ("abs(-7/2)", [], 3),          # abs(-3.5) = 3.5, rounded down at the end
        ("max(d6, d6)", [2, 5], 5),
        ("min(d6, d6)", [2, 5], 2),
        ("max(1, 2)", [], 2),
        ("min(1, 2)", [], 1),
        ("max(d20, 10)", [3], 10),
        ("min(d20, 10)", [13], 10),
        ("CEIL(7/2)", [], 4),          # function names ignore case
        ("Max(1,2)", [], 2),
        ("ceil ( 7 / 2 )", [], 4),
        ("max(ceil(d6/2), floor(d6/2))", [5, 6], 3),
        ("d20+max(STR, DEX)", [10], 13),
    ],
)
def test_functions(text: str, faces: list[int], expected: int) -> None:
    assert total(text, faces, STR=1, DEX=3) == expected


def test_function_node() -> None:
    assert dice.parse("max(d6, 3)").tree == Call("max", (Dice(count=1, sides=6, text="d6"), Num(3)))


# -- keep and drop --------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "faces", "expected", "kept"),
    [
        ("4d6kh3", [6, 5, 3, 1], 14, [True, True, True, False]),
        ("4d6kh3", [1, 3, 5, 6], 14, [False, True, True, True]),
        ("4d6k3", [2, 6, 4, 1], 12, [True, True, True, False]),
        ("4d6kl3", [6, 5, 3, 1], 9, [False, True, True, True]),
        ("4d6dl1", [6, 5, 3, 1], 14, [True, True, True, False]),
        ("4d6dh1", [6, 5, 3, 1], 9, [False, True, True, True]),
        ("4d6dl", [4, 1, 5, 2], 11, [True, False, True, True]),    # number defaults to 1
        ("4d6kh", [4, 1, 5, 2], 5, [False, False, True, False]),
        ("2d20kh1", [4, 17], 17, [False, True]),
        ("2d20kl1", [4, 17], 4, [True, False]),
        ("3d6dl0", [1, 2, 3], 6, [True, True, True]),
        ("3d6kh3", [1, 2, 3], 6, [True, True, True]),
        ("4d6kh3", [3, 3, 3, 3], 9, [True, True, True, False]),     # ties: one of the equal dice goes
        ("5d6dh2", [6, 1, 6, 2, 3], 6, [False, True, False, True, True]),
        ("4d%kh1", [10, 90, 50, 20], 90, [False, True, False, False]),
    ],
)
def test_keep_and_drop(text: str, faces: list[int], expected: int, kept: list[bool]) -> None:
    result = dice.roll(text, ScriptedDice(faces))
    assert result.total == expected
    assert result.tree.kept == tuple(kept)
    assert result.tree.faces == tuple(faces)


@pytest.mark.parametrize(
    ("text", "word", "kind", "n"),
    [("4d6kh3", "k", "h", 3), ("4d6k3", "k", "h", 3), ("2d20kl1", "k", "l", 1), ("4d6dl1", "p", "l", 1),
     ("4d6dh2", "p", "h", 2), ("4d6dl", "p", "l", 1), ("4d6p1", "p", "l", 1), ("4d6pl1", "p", "l", 1),
     ("4d6ph2", "p", "h", 2), ("4d6k=3", "k", "=", 3), ("4d6k>4", "k", ">", 4), ("4d6p<3", "p", "<", 3)],
)
def test_keep_node(text: str, word: str, kind: str, n: int) -> None:
    """Furnace's kh/kl/dh/dl are d20's kh/kl/ph/pl; a bare number after k or p counts dice (k3 is kh3, p1 is pl1)."""
    tree = dice.parse(text).tree
    assert isinstance(tree, Dice)
    assert tree.ops == (Operator(word, (Selector(kind, n),)),)  # type: ignore[arg-type]


def test_bare_k_needs_a_number() -> None:
    with pytest.raises(DiceSyntaxError):
        dice.parse("4d6k")


# -- advantage and disadvantage -------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "faces", "expected", "kept"),
    [
        ("d20adv", [3, 17], 17, (False, True)),
        ("d20adv", [17, 3], 17, (True, False)),
        ("d20dis", [3, 17], 3, (True, False)),
        ("d20dis", [17, 3], 3, (False, True)),
        ("1d20adv", [20, 20], 20, (True, False)),
        ("d20adv+5", [8, 12], 17, None),
        ("d6adv", [2, 5], 5, (False, True)),
    ],
)
def test_advantage_rolls_two_and_keeps_one(text: str, faces: list[int], expected: int,
                                           kept: tuple[bool, ...] | None) -> None:
    source = ScriptedDice(faces)
    result = dice.roll(text, source)
    assert source.remaining == 0
    assert result.total == expected
    if kept is not None:
        assert result.tree.kept == kept


def test_advantage_node() -> None:
    tree = dice.parse("d20adv").tree
    assert isinstance(tree, Dice)
    assert (tree.count, tree.sides, tree.advantage, tree.rolled) == (1, 20, "adv", 2)
    assert dice.parse("d20dis").tree.advantage == "dis"


@pytest.mark.parametrize("text", ["2d20adv", "2d20dis", "3d20adv"])
def test_advantage_on_several_dice_is_an_error(text: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        dice.parse(text)
    assert info.value.position == len(text) - 3


@pytest.mark.parametrize("text", ["d20adv1", "d20dis2"])
def test_advantage_takes_no_number(text: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        dice.parse(text)
    assert info.value.position == 3


# -- variables ------------------------------------------------------------------------------------------

def test_variables_add_bound_values() -> None:
    assert total("d20+STR+PROF", [11], STR=2, PROF=3) == 16
    assert dice.parse("d20+STR+PROF").variables() == {"STR", "PROF"}


@pytest.mark.parametrize("key", ["STR", "str", "Str", "sTr"])
@pytest.mark.parametrize("text", ["d20+STR", "d20+str", "d20+Str"])
def test_variable_lookup_ignores_case(text: str, key: str) -> None:
    assert dice.roll(text, ScriptedDice([10]), {key: 4}).total == 14


def test_variable_names_are_upper_cased() -> None:
    assert dice.parse("d20+str").tree == BinOp("+", Dice(count=1, sides=20, text="d20"), Var("STR"))


def test_variables_are_whole_identifiers() -> None:
    assert dice.parse("ROOM_DC+1").variables() == {"ROOM_DC"}
    assert total("10+PC_LVL", PC_LVL=3) == 13
    assert total("d20+DEX", [1], DEX=2) == 3     # DEX is a name, not a die


@pytest.mark.parametrize("hd", ["d8", "D8", " d8 "])
def test_counted_dice_of_a_die_variable(hd: int | str) -> None:
    """5HD with HD bound to d8 rolls five d8 (HD bound to the plain number 8 is refused: see test_new_forms)."""
    source = ScriptedDice([1, 2, 3, 4, 8])
    result = dice.roll("5HD", source, {"HD": hd})
    assert result.total == 18
    assert source.used == [(1, 8), (2, 8), (3, 8), (4, 8), (8, 8)]
    assert dice.parse("5HD").tree == Dice(count=5, sides_var="HD", text="5HD")


def test_counted_dice_plus_modifier_and_lower_case_name() -> None:
    source = ScriptedDice([6, 6])
    assert dice.roll("2hd+3", source, {"Hd": "d6"}).total == 15
    assert source.used == [(6, 6), (6, 6)]


def test_a_plain_variable_bound_to_a_die_rolls_it() -> None:
    source = ScriptedDice([7])
    assert dice.roll("HD+1", source, {"HD": "d8"}).total == 8
    assert source.used == [(7, 8)]


@pytest.mark.parametrize(("text", "name"), [("d20+STR", "STR"), ("d20+str+PROF", "STR"), ("5HD", "HD"),
                                            ("ceil(3*str/2)", "STR"), ("max(d6, ROOM_DC)", "ROOM_DC")])
def test_unbound_variable(text: str, name: str) -> None:
    with pytest.raises(UnboundVariableError) as info:
        dice.roll(text, ScriptedDice([1] * 6), {"PROF": 1})
    error = info.value
    assert isinstance(error, DiceError)
    assert isinstance(error, FurnaceError)
    assert name in str(error)
    assert error.expected is not None and name in error.expected
    assert error.expression == text


def test_unbound_variable_in_bounds_and_odds() -> None:
    expression = dice.parse("d20+STR")
    with pytest.raises(UnboundVariableError, match="STR"):
        expression.bounds()
    with pytest.raises(UnboundVariableError, match="STR"):
        expression.distribution()
    with pytest.raises(UnboundVariableError, match="STR"):
        dice.probability_at_least("d20+STR", 10)


def test_parsing_does_not_need_variables() -> None:
    assert dice.parse("d20+STR+PROF+5HD").variables() == {"STR", "PROF", "HD"}


@pytest.mark.parametrize("value", ["x", "d0", "d", "2d6", "d10001", "-3", ""])
def test_a_die_variable_must_name_a_die(value: str) -> None:
    with pytest.raises(DiceError, match="HD"):
        dice.roll("5HD", ScriptedDice([1] * 5), {"HD": value})


# -- crit dice ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("level", "text", "low", "high"),
    [
        (0, "d4", 1, 4), (1, "d6", 1, 6), (2, "d8", 1, 8), (3, "d10", 1, 10), (4, "d12", 1, 12),
        (5, "d20", 1, 20), (6, "d20+2", 3, 22), (7, "d20+4", 5, 24), (8, "d20+6", 7, 26),
        (9, "d20+8", 9, 28), (10, "d20+10", 11, 30),
    ],
)
def test_crit_dice_by_level(level: int, text: str, low: int, high: int) -> None:
    """F-CRIT-02: the crit die by level, d4 at level 0 up to d20+10 at level 10, parses and rolls."""
    expression = dice.parse(text)
    assert expression.bounds() == (low, high)
    sides = int(text[1:].split("+")[0])
    bonus = int(text.split("+")[1]) if "+" in text else 0
    result = expression.roll(ScriptedDice([sides]), label=f"crit die, level {level}")
    assert result.total == sides + bonus == high
    assert result.natural == (20 if sides == 20 else None)


# -- whitespace and parentheses -------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    ["d20+5", " d20+5", "d20+5 ", "d20 + 5", "  d20   +   5  ", "\td20\n+\t5\n", "(d20)+5", "(d20+5)",
     "((d20))+(5)", "( d20 + 5 )", "d20+(5)"],
)
def test_whitespace_and_parentheses(text: str) -> None:
    assert total(text, [10]) == 15


def test_whitespace_does_not_change_the_tree() -> None:
    assert dice.parse(" 4d6kh3 + STR ").tree == dice.parse("4d6kh3+STR").tree
    assert dice.parse(" d20 ").text == "d20"


@pytest.mark.parametrize("text", ["4 d6", "4d 6", "4d6 kh3", "4d6k h3", "d20 adv", "ce il(1)"])
def test_no_whitespace_inside_a_token(text: str) -> None:
    with pytest.raises(DiceSyntaxError):
        dice.parse(text)


def test_precedence_in_the_tree() -> None:
    assert dice.parse("1+2*3").tree == BinOp("+", Num(1), BinOp("*", Num(2), Num(3)))
    assert dice.parse("1-2-3").tree == BinOp("-", BinOp("-", Num(1), Num(2)), Num(3))
    assert dice.parse("-(1+2)").tree == Neg(BinOp("+", Num(1), Num(2)))
    assert dice.parse("+1").tree == Num(1)


# -- errors ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [
        ("", 0, "a number, a die or a variable"),
        ("   ", 0, "a number, a die or a variable"),
        ("d", 1, "a number or '%'"),
        ("4d", 2, "a number or '%'"),
        ("d+1", 1, "a number or '%'"),
        ("d20+", 4, "a number, a die, a variable or '('"),
        ("d20 +", 5, "a number, a die, a variable or '('"),
        ("+", 1, "a number, a die, a variable or '('"),
        ("*3", 0, "a number, a die, a variable or '('"),
        ("d20+*3", 4, "a number, a die, a variable or '('"),
        ("d20 + * 3", 6, "a number, a die, a variable or '('"),
        ("(d20", 4, "')'"),
        ("((d20)", 6, "')'"),
        ("d20)", 3, OPERATOR),
        ("d20 5", 4, OPERATOR),
        ("d20d6", 3, OPERATOR),
        ("4d6x", 3, OPERATOR),
        ("3.5", 1, OPERATOR),
        ("d20^2", 3, OPERATOR),
        ("d20+5!", 5, OPERATOR),
        ("%", 0, "a number, a die, a variable or '('"),
        ("#", 0, "a number, a die, a variable or '('"),
        ("d20+é", 4, "a number, a die, a variable or '('"),
        ("ceil", 4, "'('"),
        ("ceil 3", 5, "'('"),
        ("max(1 2)", 6, "')' or ','"),
        ("ceil(1", 6, "')' or ','"),
        ("4d6k", 4, "a selector such as k3, k<3, k>4, kh1 or kl1"),
        ("4d6p<", 5, "a selector such as p3, p<3, p>4, ph1 or pl1"),
        ("4d6dh<2", 3, "e.g. dh1"),
        ("10d6mil1", 4, "a number, e.g. mi1"),
        ("1d6ma", 5, "a number, e.g. ma2"),
        ("٣d6", 0, "the digits 0-9"),
        ("１d６", 0, "the digits 0-9"),
        ("1d٦", 2, "a number or '%'"),
        ("(1 2)", 3, "',' or ')'"),
        ("2d20adv", 4, None),
        ("d20adv1", 3, None),
    ],
)
def test_syntax_errors(text: str, position: int | None, expected: str | None) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        dice.parse(text)
    error = info.value
    assert isinstance(error, DiceError)
    assert isinstance(error, FurnaceError)
    assert error.position == position
    assert error.expected == expected
    assert error.expression == text
    if text:  # the message of an empty expression names neither text nor position
        assert f"at position {position}" in str(error)
    if expected is not None:
        assert f"(expected {expected})" in str(error)
    assert error.to_dict() == {"error": "DiceSyntaxError", "code": "dice_syntax", "message": str(error),
                               "expression": text, "position": position, "expected": expected}


@pytest.mark.parametrize(("text", "count"), [("max(1)", 1), ("min(1,2,3)", 3), ("abs(1,2)", 2),
                                             ("ceil(1,2)", 2), ("floor(1,2)", 2)])
def test_wrong_number_of_arguments(text: str, count: int) -> None:
    with pytest.raises(DiceSyntaxError, match=f"got {count}") as info:
        dice.parse(text)
    assert info.value.position == len(text)


@pytest.mark.parametrize("text", ["d20++", "((", ")(", "d20d20adv", "d20advdis", "(1,,2)", "(,)", "1 [x",
                                  "d20 rr1", "STR STR", "5 5", "d20,5",
                                  "max(,)", "max(1,)", "ceil()", "1/", "-", "d%%", "d-6", "d20.5"])
def test_more_malformed_expressions(text: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        dice.parse(text)
    assert info.value.position is not None
    assert 0 <= info.value.position <= len(text)


def test_bytes_are_refused() -> None:
    with pytest.raises(DiceSyntaxError, match="text, not bytes"):
        dice.parse(b"d20")  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [5, None, 2.5, ["d20"]])
def test_non_text_is_a_dice_error(value: object) -> None:
    """parse_tree refuses non-text with DiceSyntaxError, but DiceExpression calls text.strip() before it
    (and lru_cache hashes the argument first), so the guard is never reached."""
    with pytest.raises(DiceSyntaxError):
        dice.parse(value)  # type: ignore[arg-type]


# -- limits ---------------------------------------------------------------------------------------------

def test_length_limit() -> None:
    fits = "1" + "+1" * 127 + " "          # 256 characters
    assert len(fits) == dice.MAX_EXPRESSION_LENGTH == 256
    assert dice.parse(fits).roll(ScriptedDice([])).total == 128
    too_long = fits + "1"
    with pytest.raises(DiceLimitError) as info:
        dice.parse(too_long)
    assert info.value.position == 256
    assert isinstance(info.value, DiceError) and isinstance(info.value, FurnaceError)
    assert "256" in str(info.value)


def test_length_limit_counts_whitespace() -> None:
    with pytest.raises(DiceLimitError):
        dice.parse("d20" + " " * 254)


@pytest.mark.parametrize("text", ["1000d6", "500d6+500d6", "999d6+d20", "998d6+d20adv", "1000d6kh1",
                                  "10d6*100", "500d6-250d6-250d6"])
def test_up_to_a_thousand_dice(text: str) -> None:
    expression = dice.parse(text)
    assert expression.roll(dice.seeded(1)).total is not None


@pytest.mark.parametrize(
    ("text", "position"),
    [("1001d6", 0), ("600d6+600d6", 6), ("999d6+d20adv", 6), ("1000d6+d4", 7), ("2000d6kh1", 0),
     ("99999999999999999999d6", 0), ("300d6+300d6+300d6+300d6", 18), ("max(600d6, 600d6)", 11)],
)
def test_more_than_a_thousand_dice(text: str, position: int) -> None:
    with pytest.raises(DiceLimitError) as info:
        dice.parse(text)
    assert info.value.position == position
    assert "1000" in str(info.value)
    assert isinstance(info.value, DiceError)


def test_more_than_a_thousand_counted_dice() -> None:
    with pytest.raises(DiceLimitError):
        dice.parse("1001HD")
    with pytest.raises(DiceLimitError):
        dice.parse("600HD+600d6")
    assert dice.parse("1000HD").variables() == {"HD"}


@pytest.mark.parametrize(("text", "position"), [("d10001", 0), ("2d99999", 0), ("d20+3d10001", 4),
                                                ("d0", 0), ("1d0", 0), ("d20+d0", 4)])
def test_sides_limit(text: str, position: int) -> None:
    assert MAX_SIDES == 10_000
    with pytest.raises(DiceLimitError) as info:
        dice.parse(text)
    assert info.value.position == position


def test_nesting_limit() -> None:
    deep = MAX_DEPTH - 1
    assert dice.parse("(" * deep + "d6" + ")" * deep).roll(ScriptedDice([4])).total == 4
    assert dice.parse("-" * deep + "3").roll(ScriptedDice([])).total == (-3 if deep % 2 else 3)
    assert dice.parse("ceil(" * (deep - 1) + "1" + ")" * (deep - 1)).roll(ScriptedDice([])).total == 1
    for text in ("(" * 41 + "1" + ")" * 41, "-" * 41 + "1", "(" * 100 + "1" + ")" * 100,
                 "ceil(" * 45 + "1" + ")" * 45, "(" * 200):
        with pytest.raises(DiceLimitError) as info:
            dice.parse(text)
        assert info.value.position is not None
        assert "nested" in str(info.value) or "longer" in str(info.value)


def test_long_flat_expressions_are_fine() -> None:
    """A flat chain is not nesting: 85 terms compile, roll and render without recursion trouble."""
    text = "+".join(["d6"] * 85)
    assert len(text) <= 256
    result = dice.roll(text, ScriptedDice([1] * 85))
    assert result.total == 85
    assert result.explain().endswith("= 85")
