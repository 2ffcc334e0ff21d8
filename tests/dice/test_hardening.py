"""Hardening of the dice library: every bad input is one clear `FurnaceError` (a `DiceError`), refused before the
work starts (no die drawn, no step of the odds: counted by `tests.helpers.work`), and every piece of work has a
bound known before it starts (the odds' estimate, which the steps actually taken stay within).

One test (or parametrized case) per example of the hardening issue: `odds 1000d6 --dc 10` (a RecursionError),
`odds 100d100`, `10d10000kh5`, `d10000*d10000` and `5HD` with HD=d10000 (without end), `roll STR` with STR="²"
or a 5,000-digit number (ValueError), `probability_at_least('d20', 'x')` (TypeError), `roll('d6',
ScriptedDice([99]))` (ValueError). Then the questions that must keep working, the recursion-free evaluation of
long sums, and the checks at every public entry point.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import pytest

from furnace import dice
from furnace.dice import DiceValueError, ScriptedDice
from furnace.dice.ast import AnyNode, operands
from furnace.dice.odds import MAX_OUTCOMES, MAX_WORK, estimate
from furnace.dice.result import Const, Negation
from furnace.dice.source import ScriptedFaceError
from furnace.dice.values import MAX_VALUE
from furnace.errors import DiceError, DiceLimitError, DiceSyntaxError, FurnaceError
from tests.helpers.work import Work, counted


def ident(value: object) -> str:
    """A short test id, safe for a 5,000-digit number."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"int of {value.bit_length()} bits"
    try:
        return repr(value)[:20]
    except ValueError:            # a list holding a 5,000-digit number
        return type(value).__name__


def refused(call: Callable[[], object], kind: type[FurnaceError] = DiceError, *, faces: int = 0) -> FurnaceError:
    """Run `call`; it must raise `kind` (a FurnaceError) before the work starts: no step of the odds worked out
    and no die drawn (`faces`: the faces a test's own source is asked before it is found wrong). The error."""
    with counted() as work, pytest.raises(kind) as info:
        call()
    assert work.odds == 0 and work.dice == faces, f"refused after {work}"
    error = info.value
    assert isinstance(error, FurnaceError) and isinstance(error, DiceError)
    json.dumps(error.to_dict())
    return error


def answered(call: Callable[[], Any]) -> tuple[Any, Work]:
    """Run `call`; its exact odds take at most MAX_WORK steps, and no die is drawn. The answer and the work."""
    with counted() as work:
        result = call()
    assert work.odds <= MAX_WORK and work.dice == 0, str(work)
    return result, work


def parts(tree: AnyNode) -> int:
    """The nodes of an expression's tree."""
    count, stack = 0, [tree]
    while stack:
        count += 1
        stack += operands(stack.pop())
    return count


# -- the examples of the issue: exact odds that grew without end -----------------------------------------

@pytest.mark.parametrize(
    ("text", "variables", "why"),
    [
        ("1000d6", None, "steps"),                      # `furnace odds 1000d6 --dc 10`: a RecursionError
        ("100d100", None, "steps"),                     # ran without end
        ("10d10000kh5", None, "different totals"),      # ran without end
        ("d10000*d10000", None, "different totals"),    # grew to about 1 GB
        ("5HD", {"HD": "d10000"}, "different totals"),  # ran without end
    ],
)
def test_odds_past_the_limit_are_refused_at_once(text: str, variables: dict[str, str] | None, why: str) -> None:
    error = refused(lambda: dice.probability_at_least(text, 10, variables), DiceLimitError)
    message = str(error)
    assert why in message
    assert "fewer dice" in message
    assert f'furnace roll "{text}" --times' in message      # sampling is suggested, with the expression
    assert error.expression == text
    refused(lambda: dice.parse(text).distribution(variables), DiceLimitError)


def test_the_refusal_comes_before_the_work() -> None:
    """The estimate alone refuses: it visits each part of the expression once at most, however large the
    question, and works out no step of the odds."""
    for text in ("1000d6", "1000d10000", "1000d10000kh500", "d10000*d10000*d10000*d10000", "100d100kh50"):
        tree = dice.parse(text).tree
        with counted() as work, pytest.raises(DiceLimitError):
            estimate(tree, {}, text)
        assert 1 <= work.estimated <= parts(tree) and work.odds == 0 and work.dice == 0, (text, str(work))


def test_the_cli_refuses_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from furnace.cli.app import main

    with counted() as work:
        code = main(["odds", "1000d6", "--dc", "10"])
    assert work.odds == 0 and work.dice == 0, str(work)
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: no exact odds: 1000d6") and err.count("\n") == 1


# -- the examples of the issue: variable values ----------------------------------------------------------

@pytest.mark.parametrize("value", ["²", "9" * 5000, 10**5000, -(10**5000), "٣", "1e5", "3.5", "", "  ", "x"],
                         ids=ident)
def test_junk_and_huge_variable_values_are_refused(value: object) -> None:
    """`furnace roll STR --var STR=²` (and a 5,000-digit number) was a ValueError traceback."""
    error = refused(lambda: dice.roll("STR", random.Random(1), {"STR": value}), DiceValueError)
    assert "STR" in str(error)
    assert len(str(error)) < 300      # the 5,000 digits are not repeated back


def test_the_cli_refuses_junk_variables(capsys: pytest.CaptureFixture[str]) -> None:
    from furnace.cli.app import main

    for value in ("²", "9" * 5000):
        assert main(["roll", "STR", "--var", f"STR={value}"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: variable STR") and err.count("\n") == 1


# -- the examples of the issue: wrong types at the public entry points -----------------------------------

@pytest.mark.parametrize("dc", ["x", 2.5, None, True, [10], 10**10, -(10**10), 10**5000], ids=ident)
def test_a_dc_must_be_a_whole_number(dc: object) -> None:
    """`dice.probability_at_least('d20', 'x')` was a TypeError."""
    refused(lambda: dice.probability_at_least("d20", dc), DiceValueError)  # type: ignore[arg-type]
    refused(lambda: dice.parse("d20").probability_at_least(dc), DiceValueError)  # type: ignore[arg-type]


def test_a_scripted_face_the_die_cannot_show() -> None:
    """`dice.roll('d6', ScriptedDice([99]))` was a bare ValueError: now a DiceError (and still a ValueError)."""
    error = refused(lambda: dice.roll("d6", ScriptedDice([99])), ScriptedFaceError, faces=1)
    assert isinstance(error, ValueError)
    assert "99" in str(error) and "d6" in str(error)


# -- what must keep working --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "dc", "variables", "expected"),
    [
        ("d20+5", 15, None, Fraction(11, 20)),
        ("d20+STR+PROF", 15, {"STR": 2, "PROF": 1}, Fraction(9, 20)),
        ("3d6+EXCESS", 15, {"EXCESS": 4}, Fraction(1, 2)),     # 3d6 ≥ 11: half of 216
        ("4d6kh3", 18, None, Fraction(21, 1296)),
        ("20d6", 70, None, None),
        ("d20adv", 20, None, Fraction(39, 400)),
    ],
)
def test_legitimate_questions_keep_working(text: str, dc: int, variables: dict[str, int] | None,
                                           expected: Fraction | None) -> None:
    p, _ = answered(lambda: dice.probability_at_least(text, dc, variables))
    if expected is not None:
        assert p == expected
    assert 0 <= p <= 1


@pytest.mark.parametrize("text", ["20d6", "100d6", "300d6", "50d100", "2d10000", "40d6kh20", "20d20kh10",
                                  "d100*d100", "d20/d20/d20", "1000d6kh1", "8d6+8d6", "ceil(30d6/7)+d20"])
def test_big_but_bounded_questions_are_answered_within_their_estimate(text: str) -> None:
    """The steps the odds really take stay within the estimate made before them, itself within MAX_WORK."""
    distribution, work = answered(lambda: dice.parse(text).distribution())
    assert sum(distribution.values()) == 1
    assert len(distribution) <= MAX_OUTCOMES
    assert 0 < work.odds <= estimate(dice.parse(text).tree, {}, text) <= MAX_WORK, str(work)


def test_the_sum_of_many_dice_is_exact() -> None:
    distribution, _ = answered(lambda: dice.parse("300d6").distribution())
    assert distribution[300] == Fraction(1, 6**300)
    assert distribution[1050] == max(distribution.values())


# -- recursion-free evaluation ----------------------------------------------------------------------------

LONG_SUM = "1" + "+1" * 127                          # 255 characters, 127 additions deep
LONG_DICE = "d2" + "+d2" * 84                        # 254 characters, 85 dice groups
LONG_MIX = "1" + "-1*1" * 63                         # 253 characters


@contextmanager
def shallow_stack(frames: int) -> Iterator[None]:
    """Run with only `frames` more frames than the caller has: bounded-depth code must fit."""
    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back  # type: ignore[assignment]
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


@pytest.mark.parametrize("text", [LONG_SUM, LONG_DICE, LONG_MIX, "1000d6", "500d6+500d6"])
def test_long_sums_evaluate_without_deep_recursion(text: str) -> None:
    expression = dice.parse(text)
    with shallow_stack(400):
        result = expression.roll(random.Random(3))
        assert result.explain().endswith(f"= {result.total}")
        json.dumps(result.to_dict())
        low, high = expression.bounds()
        assert low <= result.total <= high
        try:
            distribution = expression.distribution()
        except DiceLimitError:
            assert text in ("1000d6", "500d6+500d6")
        else:
            assert sum(distribution.values()) == 1


def test_the_long_sum_has_one_total() -> None:
    assert dice.parse(LONG_SUM).distribution() == {128: Fraction(1)}
    assert dice.probability_at_least(LONG_SUM, 128) == 1


def test_parsing_a_long_sum_fits_a_shallow_stack() -> None:
    text = "2" + "+2" * 127
    with shallow_stack(400):
        assert dice.DiceExpression(text).roll(random.Random(1)).total == 256


# -- the limits on typed expressions still hold ---------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "kind"),
    [("1" * 257, DiceLimitError), ("1001d6", DiceLimitError), ("d10001", DiceLimitError),
     ("(" * 41 + "1" + ")" * 41, DiceLimitError), ("(1001)d6", DiceLimitError), ("(2*501)d6", DiceLimitError)],
)
def test_typed_limits(text: str, kind: type[DiceError]) -> None:
    refused(lambda: dice.parse(text), kind)


@pytest.mark.parametrize(("text", "variables"),
                         [("(N)d6", {"N": 1001}), ("(N)d6+(N)d6", {"N": 501}), ("900d6+(N)d6", {"N": 101}),
                          ("(N)HD", {"N": 1001, "HD": "d6"}), ("(N*N)d6", {"N": 40})])
def test_a_count_from_variables_is_limited_before_any_die_is_rolled(text: str, variables: dict[str, int]) -> None:
    source = ScriptedDice([1] * 5)
    refused(lambda: dice.roll(text, source, variables), DiceLimitError)
    assert source.remaining == 5, "no die was rolled"
    refused(lambda: dice.parse(text).bounds(variables), DiceLimitError)
    refused(lambda: dice.parse(text).distribution(variables), DiceLimitError)


# -- variables are checked wherever they come in ------------------------------------------------------

GOOD_VALUES: list[tuple[object, int | None]] = [
    (3, 3), (-2, -2), (0, 0), (MAX_VALUE, MAX_VALUE), (-MAX_VALUE, -MAX_VALUE), ("3", 3), (" -2 ", -2),
    ("+4", 4), ("007", 7), ("1000000000", MAX_VALUE),
]
BAD_VALUES: list[object] = [
    MAX_VALUE + 1, -MAX_VALUE - 1, "1000000001", "-1000000001", True, False, None, 2.5, float("nan"), [1],
    {"a": 1}, (), b"3", object(), "²", "٣", "1e5", "3.5", "0x10", "1_000", "", "2d6", "d", "d0", "d10001",
    "d-6", "ⅾ6", "3 4", "9" * 5000,
]


@pytest.mark.parametrize(("value", "number"), GOOD_VALUES)
def test_good_variable_values(value: object, number: int) -> None:
    assert dice.roll("STR", random.Random(1), {"STR": value}).total == number  # type: ignore[dict-item]
    assert dice.parse("STR+1").bounds({"STR": value}) == (number + 1, number + 1)  # type: ignore[dict-item]


@pytest.mark.parametrize("value", BAD_VALUES, ids=ident)
def test_bad_variable_values_are_refused_everywhere(value: object) -> None:
    variables: Any = {"STR": value}
    expression = dice.parse("d20+STR")
    refused(lambda: expression.roll(random.Random(1), variables), DiceValueError)
    refused(lambda: expression.bounds(variables), DiceValueError)
    refused(lambda: expression.distribution(variables), DiceValueError)
    refused(lambda: expression.probability_at_least(10, variables), DiceValueError)
    refused(lambda: expression.explain_faces((4,), variables), DiceValueError)
    refused(lambda: dice.roll("d20", random.Random(1), variables), DiceValueError)   # bound, even if unused


@pytest.mark.parametrize("value", ["d8", "D12", " d6 ", "d%", "d1", "d10000"])
def test_die_values(value: str) -> None:
    result = dice.roll("HD", random.Random(1), {"HD": value})
    assert result.tree.kind == "dice"


@pytest.mark.parametrize("variables", [[("STR", 1)], "STR=1", 5, {1: 2}, {"": 1}, {"A B": 1}, {"1X": 1},
                                       {b"STR": 1}, {"STR": 1, "str": 1}],
                         ids=ident)
def test_bad_variable_mappings(variables: object) -> None:
    refused(lambda: dice.roll("d20", random.Random(1), variables), DiceValueError)  # type: ignore[arg-type]
    refused(lambda: dice.parse("d20").distribution(variables), DiceValueError)  # type: ignore[arg-type]


def test_an_unbound_count_variable_hints_at_parentheses() -> None:
    error = refused(lambda: dice.roll("LVLd6", random.Random(1), {"LVL": 3}))
    assert "(LVL)d6" in str(error)


# -- the other entry points --------------------------------------------------------------------------------

class Broken:
    """Dice sources that answer randrange wrongly."""

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def randrange(self, *args: int) -> object:
        return self.answer


class NoArguments:
    def randrange(self) -> int:
        return 0


@pytest.mark.parametrize("source", [None, 5, "d6", object(), Broken(6), Broken(-1), Broken(2.0), Broken("1"),
                                    Broken(None), Broken(True), NoArguments()],
                         ids=lambda s: type(s).__name__ + repr(getattr(s, "answer", ""))[:10])
def test_bad_dice_sources(source: object) -> None:
    for text in ("d6", "3d6", "4d6kh3", "2d6ro1", "(N)d6", "HD"):
        refused(lambda text=text: dice.roll(text, source, {"N": 2, "HD": "d6"}),  # type: ignore[misc, arg-type]
                DiceValueError)


@pytest.mark.parametrize("faces", [5, "123", b"1", None, ["a"], [0], [-1], [2.0], [True], [10**5000], [10_001]],
                         ids=ident)
def test_bad_scripts(faces: object) -> None:
    refused(lambda: ScriptedDice(faces), DiceValueError)  # type: ignore[arg-type]


@pytest.mark.parametrize("label", [None, 5, b"x", ["label"]])
def test_a_label_is_text(label: object) -> None:
    refused(lambda: dice.roll("d6", random.Random(1), label=label), DiceValueError)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [2.5, [1], object()])
def test_a_seed_is_a_number_or_text(seed: object) -> None:
    refused(lambda: dice.seeded(seed), DiceValueError)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [None, 5, b"d6", ["d6"]])
def test_an_expression_is_text(text: object) -> None:
    refused(lambda: dice.parse(text), DiceSyntaxError)  # type: ignore[arg-type]
    refused(lambda: dice.DiceExpression(text), DiceSyntaxError)  # type: ignore[arg-type]
    refused(lambda: dice.probability_at_least(text, 10), DiceSyntaxError)  # type: ignore[arg-type]


def test_render_takes_only_a_tree() -> None:
    for junk in (None, "x", 5, (1, 2), Const("3")._replace(kind="bogus")):
        refused(lambda junk=junk: dice.render(junk), DiceValueError)  # type: ignore[misc, arg-type]
    deep: Any = Const(1)
    for _ in range(5000):
        deep = Negation(deep, 0)
    refused(lambda: dice.render(deep), DiceValueError)
    assert dice.render(Negation(Const(1), -1)) == "-1"


def test_explain_faces_checks_its_faces() -> None:
    expression = dice.parse("2d6")
    refused(lambda: expression.explain_faces((7, 1), {}), ScriptedFaceError, faces=1)   # the 7 is asked, and refused
    refused(lambda: expression.explain_faces(("a",), {}), DiceValueError)  # type: ignore[arg-type]
    with pytest.raises(FurnaceError):
        expression.explain_faces((1,), {})        # too few faces: ScriptExhausted
