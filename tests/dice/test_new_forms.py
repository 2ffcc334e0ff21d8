"""The forms the rules need: reroll once (`2d6ro1`, two_handed_style_ones=reroll_once), a per-die minimum
(`2d6mi2`, count_as_2), dice counts worked out from variables (`(LVL)d6`), `0d6`, and the refusal of a
number before a variable that holds a plain number (`2PROF`). Each rolls, explains itself, has exact odds
(checked against an enumeration of every way the dice can fall) and bounds, and respects the limits.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from furnace import dice
from furnace.dice import DiceValueError, ScriptedDice
from furnace.dice.ast import Dice, Num, Operator, Selector, Var
from furnace.dice.result import Rolled, dice_groups
from furnace.errors import DiceError, DiceLimitError, DiceSyntaxError, UnboundVariableError

SOME = settings(max_examples=150)


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


def enumerate_odds(text: str, variables: Mapping[str, int | str] | None = None,
                   limit: int = 20_000) -> dict[int, Fraction]:
    """The distribution of `text`, by following every sequence of faces the roll asks for (rerolls make the
    sequences of different lengths), each weighed 1/sides per face."""
    expression = dice.parse(text)
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    seen = 0
    while stack:
        faces, p = stack.pop()
        seen += 1
        assert seen <= limit, "too many sequences to enumerate"
        try:
            out[expression.roll(Prefix(faces), variables).total] += p
        except NeedMore as more:
            stack += [((*faces, f), p / more.sides) for f in range(1, more.sides + 1)]
    return {total: p for total, p in sorted(out.items()) if p}


def explain(text: str, faces: list[int], variables: Mapping[str, int | str] | None = None) -> str:
    source = ScriptedDice(faces)
    result = dice.roll(text, source, variables)
    assert source.remaining == 0, f"unused faces {source.faces}"
    replay = dice.roll(text, ScriptedDice(result.faces), variables)
    assert replay.explain() == result.explain() and replay.total == result.total
    return result.explain()


# -- reroll once: ro ------------------------------------------------------------------------------------
# As d20 rolls them: every die of the group first, then the rerolls, in the order the dice lie.

@pytest.mark.parametrize(
    ("text", "faces", "explanation"),
    [
        ("2d6ro1", [3, 4], "2d6ro1 → [3, 4] = 7"),
        ("2d6ro1", [1, 4, 3], "2d6ro1 → [~~1~~→3, 4] = 7"),
        ("2d6ro1", [1, 4, 1], "2d6ro1 → [~~1~~→1, 4] = 5"),            # once: the second 1 stands
        ("2d6ro1", [4, 1, 6], "2d6ro1 → [4, ~~1~~→6] = 10"),
        ("2d6ro1", [1, 1, 2, 1], "2d6ro1 → [~~1~~→2, ~~1~~→1] = 3"),
        ("d20ro1", [1, 17], "d20ro1 → [~~1~~→17] = 17"),
        ("3d6ro6", [6, 2, 5, 6], "3d6ro6 → [~~6~~→6, 2, 5] = 13"),    # any face, not only 1s
        ("4d6ro1kh3", [1, 5, 6, 3, 2], "4d6ro1kh3 → [~~1~~→~~2~~, 5, 6, 3] = 14"),
        ("d20ro1adv", [1, 12, 5], "d20ro1adv → [~~1~~→~~5~~, 12] = 12"),
        ("2d10ro1+3", [1, 10, 10], "2d10ro1+3 → [~~1~~→10, 10] + 3 = 23"),
    ],
)
def test_reroll_once(text: str, faces: list[int], explanation: str) -> None:
    assert explain(text, faces) == explanation


def test_reroll_node_and_tree() -> None:
    """The tree shows each die with its faces; the roll keeps the faces in the order they were drawn."""
    reroll = (Operator("ro", (Selector("=", 1),)),)
    assert dice.parse("2d6ro1").tree == Dice(count=2, sides=6, text="2d6ro1", ops=reroll)
    result = dice.roll("2d6ro1", ScriptedDice([1, 3, 4]))
    group = result.tree
    assert isinstance(group, Rolled)
    assert group.faces == (1, 4, 3) and result.faces == (1, 3, 4)
    assert group.rerolled == (True, False, False)
    assert group.kept == (False, True, True)
    assert result.to_dict()["tree"] == {"kind": "dice", "value": 7, "text": "2d6ro1", "sides": 6,
                                        "faces": [1, 4, 3], "kept": [False, True, True],
                                        "rerolled": [True, False, False]}


def test_the_natural_d20_is_the_face_that_stands() -> None:
    assert dice.roll("d20ro1", ScriptedDice([1, 20])).natural == 20
    assert dice.roll("d20ro1", ScriptedDice([1, 1])).natural == 1
    assert dice.roll("d20ro1+5", ScriptedDice([14])).natural == 14


def test_the_rule_option_reroll_once() -> None:
    """two_handed_style_ones=reroll_once: each damage die showing 1 is rolled again once; the new face
    stands. One die shows f with probability [f ≠ 1]/6 + 1/36."""
    one_die = dice.parse("d6ro1").distribution()
    assert one_die == {1: Fraction(1, 36), **{f: Fraction(1, 6) + Fraction(1, 36) for f in range(2, 7)}}
    assert dice.parse("2d6ro1").distribution() == enumerate_odds("2d6ro1")
    assert dice.probability_at_least("2d6ro1", 7) == Fraction(35, 48)
    assert dice.parse("2d6ro1").bounds() == (2, 12)


# -- a minimum per die: mi ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "faces", "explanation"),
    [
        ("2d6mi2", [1, 5], "2d6mi2 → [1 as 2, 5] = 7"),
        ("2d6mi2", [2, 5], "2d6mi2 → [2, 5] = 7"),
        ("3d6mi3", [1, 2, 6], "3d6mi3 → [1 as 3, 2 as 3, 6] = 12"),
        ("4d6mi2kh3", [1, 1, 4, 5], "4d6mi2kh3 → [1 as 2, ~~1 as 2~~, 4, 5] = 11"),
        ("2d6ro1mi2", [1, 4, 1], "2d6ro1mi2 → [~~1~~→1 as 2, 4] = 6"),
        ("2d6mi2ro1", [1, 4], "2d6mi2ro1 → [1 as 2, 4] = 6"),             # in order: after mi2 no die shows 1
        ("d20mi10", [3], "d20mi10 → [3 as 10] = 10"),
        ("d6mi1", [1], "d6mi1 → [1] = 1"),
    ],
)
def test_minimum(text: str, faces: list[int], explanation: str) -> None:
    assert explain(text, faces) == explanation


def test_minimum_node_and_tree() -> None:
    least = (Operator("mi", (Selector("=", 2),)),)
    assert dice.parse("2d6mi2").tree == Dice(count=2, sides=6, text="2d6mi2", ops=least)
    result = dice.roll("2d6mi2", ScriptedDice([1, 5]))
    assert result.tree.counts_as == (2, 5)  # type: ignore[union-attr]
    assert result.to_dict()["tree"]["counts_as"] == [2, 5]
    assert result.to_dict()["tree"]["faces"] == [1, 5]
    assert dice.roll("d20mi10", ScriptedDice([3])).natural == 10    # what the die counts as, as d20 reads a crit


def test_the_rule_option_count_as_2() -> None:
    """two_handed_style_ones=count_as_2: a 1 counts as 2."""
    assert dice.parse("d6mi2").distribution() == {2: Fraction(2, 6), **{f: Fraction(1, 6) for f in range(3, 7)}}
    assert dice.parse("2d6mi2").distribution() == enumerate_odds("2d6mi2")
    assert dice.parse("2d6mi2").bounds() == (4, 12)
    assert dice.parse("3d6mi3kh2").bounds() == (6, 12)


# -- the grammar of the suffixes -------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [
        ("d6ro", 4, "a selector such as ro3, ro<3, ro>4, roh1 or rol1"),
        ("d6mi", 4, "a number, e.g. mi2"),
        ("d6mi<2", 2, "a number, e.g. mi2"),
        ("d6ma>2", 2, "a number, e.g. ma2"),
    ],
)
def test_suffix_errors(text: str, position: int, expected: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        dice.parse(text)
    assert (info.value.position, info.value.expected) == (position, expected)


@pytest.mark.parametrize(("text", "faces", "total"), [
    ("d6ro7", [3], 3), ("d6mi0", [3], 3), ("d6mi7", [3], 7),        # as d20: choosing no die is no mistake
    ("2d6ro1ro2", [1, 2, 5, 6], 11),                                # d20 joins them: ro1 or 2, once
    ("4d6kh3ro1", [1, 2, 3, 4], 9),                                 # the dropped 1 is not rolled again
    ("d20advmi2", [1, 1], 2), ("4d6kh3kh2", [1, 2, 3, 4], 9),
])
def test_operators_in_any_order(text: str, faces: list[int], total: int) -> None:
    result = dice.roll(text, ScriptedDice(faces))
    assert result.total == total and result.faces == tuple(faces)


@pytest.mark.parametrize("text", ["2d6 ro1", "2d6ro 1", "2d6ro1 mi2", "2d6r o1", "(LVL) d6", "( LVL )d 6"])
def test_no_whitespace_inside_the_new_tokens(text: str) -> None:
    with pytest.raises(DiceSyntaxError):
        dice.parse(text)


@pytest.mark.parametrize("text", ["2D6RO1", "2d6Ro1", "2d6MI2", "4D6RO1MI2KH3"])
def test_suffixes_ignore_case(text: str) -> None:
    tree = dice.parse(text).tree
    assert isinstance(tree, Dice)
    assert tree.ops[0] == (Operator("ro", (Selector("=", 1),)) if "ro" in text.lower() else
                           Operator("mi", (Selector("=", 2),)))


def test_suffixes_in_order_all_together() -> None:
    tree = dice.parse("4d6ro1mi2kh3").tree
    assert tree == Dice(count=4, sides=6, text="4d6ro1mi2kh3", ops=(
        Operator("ro", (Selector("=", 1),)), Operator("mi", (Selector("=", 2),)), Operator("k", (Selector("h", 3),))))
    assert explain("4d6ro1mi2kh3", [1, 5, 2, 6, 1]) == "4d6ro1mi2kh3 → [~~1~~→1 as 2, 5, ~~2~~, 6] = 13"


# -- dice counts from variables: (LVL)d6 -----------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "faces", "variables", "explanation"),
    [
        ("(LVL)d6", [1, 2, 3], {"LVL": 3}, "(LVL)d6 → [1, 2, 3] = 6"),
        ("(LVL)d6", [], {"LVL": 0}, "(LVL)d6 → [] = 0"),
        ("(lvl)D6+1", [6], {"LVL": "1"}, "(lvl)D6+1 → [6] + 1 = 7"),
        ("(floor(LVL/2))d8", [4, 5], {"LVL": 5}, "(floor(LVL/2))d8 → [4, 5] = 9"),
        ("(LVL+1)d4kh2", [1, 4, 3], {"LVL": 2}, "(LVL+1)d4kh2 → [~~1~~, 4, 3] = 7"),
        ("(max(LVL, 1))d6ro1", [1, 5], {"LVL": 0}, "(max(LVL, 1))d6ro1 → [~~1~~→5] = 5"),
        ("(N)HD", [7, 8], {"N": 2, "HD": "d8"}, "(N)HD → [7, 8] = 15"),
        ("(2*3)d6", [1] * 6, None, "(2*3)d6 → [1, 1, 1, 1, 1, 1] = 6"),
    ],
)
def test_counts_from_variables(text: str, faces: list[int], variables: dict[str, int | str] | None,
                               explanation: str) -> None:
    assert explain(text, faces, variables) == explanation


def test_count_nodes() -> None:
    assert dice.parse("(LVL)d6").tree == Dice(count=0, sides=6, text="(LVL)d6", count_expr=Var("LVL"))
    assert dice.parse("(2*3)d6").tree == Dice(count=6, sides=6, text="(2*3)d6")   # worked out when parsed
    assert dice.parse("(LVL)d6+(N)HD").variables() == {"LVL", "N", "HD"}
    assert dice.parse("(LVL)d6").tree != dice.parse("(LVL)d8").tree


@pytest.mark.parametrize(
    ("text", "variables", "kind", "words"),
    [
        ("(LVL)d6", {"LVL": -1}, DiceValueError, "negative"),
        ("(LVL/2)d6", {"LVL": 3}, DiceValueError, "whole number"),
        ("(LVL)d6", {"LVL": "d4"}, DiceValueError, "cannot roll dice"),
        ("(LVL)d6rr<7", {"LVL": 2}, DiceLimitError, "forever"),
        ("(LVL)d6", {"LVL": 1001}, DiceLimitError, "1000"),
        ("(LVL)d6", {}, UnboundVariableError, "LVL"),
        ("(1/LVL)d6", {"LVL": 0}, DiceError, "division by zero"),
    ],
)
def test_bad_counts(text: str, variables: dict[str, int | str], kind: type[DiceError], words: str) -> None:
    for call in (lambda: dice.roll(text, ScriptedDice([1] * 3), variables),
                 lambda: dice.parse(text).bounds(variables),
                 lambda: dice.parse(text).distribution(variables)):
        with pytest.raises(kind, match=words.replace("(", r"\(")):
            call()


def test_a_keep_of_more_dice_than_rolled_keeps_them_all() -> None:
    """As d20: kh3 of 2 dice keeps both; dl1 of 1 die drops it (a count from a variable is no exception)."""
    assert dice.roll("(LVL)d6kh3", ScriptedDice([4, 5]), {"LVL": 2}).total == 9
    assert dice.roll("(LVL)d6dl1", ScriptedDice([4]), {"LVL": 1}).total == 0
    assert dice.parse("(LVL)d6kh3").bounds({"LVL": 2}) == (2, 12)


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [("(d4)d6", 0, "cannot itself roll dice"), ("(1+d4)d6", 0, "cannot itself roll dice"),
     ("(-1)d6", 0, "negative"), ("(3/2)d6", 0, "whole number"), ("(1/0)d6", 0, "division by zero"),
     ("(X)d20adv", 6, "one die"), ("d6+(2)max(1,2)", 3, "multiplies nothing")],
)
def test_count_syntax_errors(text: str, position: int, words: str) -> None:
    with pytest.raises(DiceSyntaxError, match=words) as info:
        dice.parse(text)
    assert info.value.position == position


def test_counts_odds_and_bounds() -> None:
    assert dice.parse("(LVL)d6").distribution({"LVL": 3}) == dice.parse("3d6").distribution()
    assert dice.parse("(LVL)d6+LVL").bounds({"LVL": 4}) == (8, 28)
    assert dice.parse("(LVL)d6kh2").bounds({"LVL": 4}) == (2, 12)
    assert dice.parse("(LVL)d6").distribution({"LVL": 0}) == {0: Fraction(1)}


def test_a_glued_count_names_a_variable_and_says_so() -> None:
    """`LVLd6` is one name (LVLD6); the error points at `(LVL)d6`."""
    assert dice.parse("LVLd6").variables() == {"LVLD6"}
    with pytest.raises(UnboundVariableError) as info:
        dice.roll("LVLd6", ScriptedDice([]), {"LVL": 3})
    assert info.value.expected is not None and "(LVL)d6" in info.value.expected


# -- 0d6 ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["0d6", "00d20", "0d%", "0HD", "(0)d6"])
def test_zero_dice_are_zero(text: str) -> None:
    source = ScriptedDice([])
    result = dice.roll(text, source, {"HD": "d8"})
    assert result.total == 0 and result.faces == ()
    assert result.explain() == f"{text} → [] = 0"
    assert result.natural is None
    assert dice.parse(text).bounds({"HD": "d8"}) == (0, 0)
    assert dice.parse(text).distribution({"HD": "d8"}) == {0: Fraction(1)}


def test_zero_dice_in_a_sum() -> None:
    assert explain("0d6+d4+3", [2]) == "0d6+d4+3 → [] + [2] + 3 = 5"
    assert dice.parse("0d6").tree == Dice(count=0, sides=6, text="0d6")


# -- a number before a variable that holds a number: 2PROF -----------------------------------------------

@pytest.mark.parametrize(
    ("text", "variables", "suggestion"),
    [("2PROF", {"PROF": 3}, "2*PROF"), ("2prof", {"PROF": "3"}, "2*prof"), ("5HD", {"HD": 8}, "5*HD"),
     ("5HD", {"HD": "8"}, "5*HD"), ("(LVL)PROF", {"LVL": 2, "PROF": 3}, "(LVL)*PROF"),
     ("d20+2PROF", {"PROF": 1}, "2*PROF")],
)
def test_a_count_before_a_number_variable_is_refused(text: str, variables: dict[str, int | str],
                                                     suggestion: str) -> None:
    """`2PROF` with PROF=3 is not 2d3: it is refused, suggesting `2*PROF`."""
    for call in (lambda: dice.roll(text, ScriptedDice([10, 1, 1]), variables),
                 lambda: dice.parse(text).bounds(variables),
                 lambda: dice.parse(text).distribution(variables)):
        with pytest.raises(DiceSyntaxError) as info:
            call()
        assert info.value.expected is not None and info.value.expected.startswith(suggestion)
        assert "not a die" in str(info.value)


def test_a_count_before_a_die_variable_still_rolls() -> None:
    assert explain("5HD", [1, 2, 3, 4, 8], {"HD": "d8"}) == "5HD → [1, 2, 3, 4, 8] = 18"
    assert dice.roll("2*PROF", ScriptedDice([]), {"PROF": 3}).total == 6
    assert dice.parse("3HD").distribution({"HD": "d4"}) == dice.parse("3d4").distribution()


# -- odds against the enumeration of every way the dice fall --------------------------------------------

@pytest.mark.parametrize(
    ("text", "variables"),
    [
        ("2d6ro1", None), ("d20ro1", None), ("3d4ro2", None), ("d1ro1", None), ("d2ro2", None), ("2d6mi2", None),
        ("3d6mi3", None), ("d6mi6", None), ("4d4ro1mi2kh3", None), ("3d6ro1kl2", None), ("d20ro1adv", None),
        ("d8ro8dis", None), ("3d3ro3mi2dl1", None), ("4d3ro1dh2", None), ("2d6ro1*2-d4mi2", None),
        ("max(2d4ro1, 2d4mi3)", None), ("(2d4ro1)/3", None), ("abs(d6ro1-d6mi2)", None), ("0d6+d4ro4", None),
        ("(N)d4ro1+N", {"N": 0}), ("(N)d4ro1+N", {"N": 1}), ("(N)d4ro1+N", {"N": 3}), ("(N)d6kh1", {"N": 3}),
        ("(N)HD", {"N": 2, "HD": "d6"}), ("(N-1)d4mi2kl1", {"N": 4}), ("2d10ro1+3", None), ("4d6ro1mi2kh3", None),
    ],
)
def test_new_forms_odds_match_the_enumeration(text: str, variables: dict[str, int | str] | None) -> None:
    distribution = dice.parse(text).distribution(variables)
    assert distribution == enumerate_odds(text, variables)
    assert sum(distribution.values()) == 1
    assert dice.parse(text).bounds(variables) == (min(distribution), max(distribution))


def test_the_enumeration_agrees_with_the_old_forms_too() -> None:
    for text in ("3d6", "4d6kh3", "d20adv", "d6/2", "max(d4, d6)-2"):
        assert dice.parse(text).distribution() == enumerate_odds(text)


@st.composite
def new_groups(draw: st.DrawFn) -> str:
    count = draw(st.integers(0, 3))
    sides = draw(st.sampled_from([1, 2, 3, 4, 6]))
    text = draw(st.sampled_from([f"{count}d{sides}", f"(N)d{sides}", f"(N+{count})d{sides}"]))
    if draw(st.booleans()):
        text += f"ro{draw(st.integers(1, sides))}"
    if draw(st.booleans()):
        text += f"mi{draw(st.integers(1, sides))}"
    keep = draw(st.sampled_from(["", "kh1", "kl1", "dh1", "dl1", "kh2", "adv", "dis"]))
    return text + keep


SMALL = st.recursive(new_groups() | st.integers(0, 4).map(str),
                     lambda inner: st.tuples(inner, st.sampled_from("+-*/"), inner).map(lambda t: "".join(t))
                     | st.tuples(st.sampled_from(["max(", "min("]), inner, inner).map(
                         lambda t: f"{t[0]}{t[1]},{t[2]})"),
                     max_leaves=3)


@SOME
@given(SMALL, st.integers(0, 3))
def test_odds_of_random_new_forms_match_the_enumeration(text: str, n: int) -> None:
    variables = {"N": n}
    try:
        distribution = dice.parse(text).distribution(variables)
    except DiceError:
        assume(False)
    sequences = 1    # at most: each die's sides, squared when it may be rolled again
    for group in dice_groups(dice.roll(text, random.Random(0), variables).tree):
        count = len(group.faces) - sum(group.rerolled)
        sequences *= group.sides ** (count * (2 if group.rerolled else 1))
    assume(sequences <= 5000)
    assert distribution == enumerate_odds(text, variables, limit=100_000)


@SOME
@given(SMALL, st.integers(0, 3), st.integers(0, 2**32))
def test_new_forms_roll_within_bounds_and_replay(text: str, n: int, seed: int) -> None:
    variables = {"N": n}
    try:
        expression = dice.parse(text)
        result = expression.roll(random.Random(seed), variables)
        low, high = expression.bounds(variables)
    except DiceError:
        assume(False)
    assert low <= result.total <= high
    replay = expression.roll(ScriptedDice(result.faces), variables)
    assert replay.explain() == result.explain()
    for group in dice_groups(result.tree):
        counts = group.counts_as or group.faces
        assert sum(c for c, k in zip(counts, group.kept, strict=True) if k) == group.value
        if group.rerolled:
            assert not any(k for k, r in zip(group.kept, group.rerolled, strict=True) if r)


def test_new_forms_respect_the_dice_limit() -> None:
    assert dice.parse("1000d6ro1").roll(random.Random(1)).total > 0     # a reroll is not a new die
    with pytest.raises(DiceLimitError):
        dice.parse("1001d6ro1")
    with pytest.raises(DiceLimitError):
        dice.parse("999d6mi2+(2)d6")
    assert isinstance(dice.parse("(2)d6").tree, Dice) and not isinstance(dice.parse("(2)").tree, Dice)
    assert dice.parse("(2)").tree == Num(2)
