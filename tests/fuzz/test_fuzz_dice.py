"""Fuzzing the dice language: hostile expressions and hostile variable bindings.

The expressions come from five sources, mixed: a soup of the grammar's tokens (every operator, function,
suffix — ro and mi included — variable, and junk such as "²", "ⅾ6", "1e5" and NUL), well-formed
expressions of every form (keep/drop, adv/dis, ro, mi, `(LVL)d6`, `0d6`, `5HD`, functions), the same
MUTATED (a character inserted, deleted or replaced, a slice doubled, wrapped in parentheses, glued to
another), huge numbers and counts (`99999999999999999999d6`, `1000d10000kh500`, `d10000*d10000`), and deep
or long nests (`((((…`, `----…`, `ceil(ceil(…`, `1+1+…+1` up to and past 256 characters). The variables
are bound to good and hostile values: numbers at and past ±10**9, a 5,000-digit number, "²", "d0",
"d10001", "2d6", None, 2.5, True, lists, names that are not words, the same name twice.

The property, for every input: the library answers or raises a `FurnaceError`, within the bound of
`bounded`. Target "dice" parses, rolls (seeded, or from a script), explains, serialises and bounds;
target "odds" asks for the exact distribution and P(total ≥ DC) with a DC that may be hostile too. "deep"
counts the inputs that parsed.

Shares of the budget: dice 0.15, odds 0.1.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from furnace import dice
from furnace.errors import FurnaceError
from tests.fuzz.conftest import bounded, fuzz_settings, record

NAMES = ["STR", "PROF", "HD", "LVL", "N", "X", "ROOM_DC", "EXCESS"]
TOKENS = [
    "d", "D", "%", "d20", "d6", "d%", "D8", "d1", "d10000", "d10001", "d0", "4d6", "0d6", "1000d6", "5HD", "2PROF",
    "(LVL)d6", "(N)HD", "LVLd6", "kh", "kl", "dh", "dl", "k", "kh3", "dl1", "adv", "dis", "ro", "mi", "ro1", "mi2",
    "ro0", "mi99", "+", "-", "*", "/", "(", ")", ",", "ceil(", "floor(", "max(", "min(", "abs(", "ceil", "max",
    " ", "\t", "0", "1", "2", "3", "7", "20", "99", "1000", "10000", "99999999999999999999", "9" * 60,
    *NAMES, "str", "Hd", "²", "٣", "ⅾ6", "é", "\x00", "1e5", "3.5", ".", "#", "!", "^", "=", "'", '"', "\n",
    # d20's operators, selectors, sets, comparisons and annotations
    "rr", "ra", "e", "ma", "p", "h", "l", "<", ">", "==", "!=", "<=", ">=", "//", "[", "]", "[fire]", "rr1", "e6",
    "ra6", "k>4", "p<3", "k=3", "kh1kl1", "(1,2,3)kh1", "()", "(d20,d20)kh1", "e>0", "rr<7", "rrh1", "eh1", "mi10",
    "ma0", "１", "٦",
]
JUNK = "²٣ⅾé\x00\n#!^=.'\"e_x"


# -- well-formed expressions of every form -----------------------------------------------------------------

@st.composite
def groups(draw: st.DrawFn) -> str:
    """One dice group of any form, well formed (or nearly: counts and keeps may not fit)."""
    sides = draw(st.sampled_from(["2", "3", "4", "6", "8", "10", "12", "20", "%", "100", "1000", "10000", "1"]))
    count = draw(st.sampled_from(["", "0", "1", "2", "3", "4", "10", "100", "999", "1000", "(LVL)", "(N)",
                                  "(N+1)", "(floor(LVL/2))", "(2*3)", "(max(N, 1))"]))
    if draw(st.integers(0, 9)) == 0:
        return f"{count if count not in ('', '0') else '5'}{draw(st.sampled_from(['HD', 'hd', 'PROF', 'X']))}"
    text = f"{count}{draw(st.sampled_from(['d', 'D']))}{sides}"
    top = 100 if sides == "%" else int(sides)
    if draw(st.booleans()):
        text += f"ro{draw(st.integers(1, top))}"
    if draw(st.booleans()):
        text += f"mi{draw(st.integers(1, top))}"
    text += draw(st.sampled_from(["", "", "kh", "kl", "dh", "dl", "kh1", "kl2", "k3", "dh1", "dl2", "kh500",
                                  "adv", "dis"]))
    for _ in range(draw(st.integers(0, 2))):     # d20's operators with any selector, in any order
        word = draw(st.sampled_from(["rr", "ro", "ra", "e", "mi", "ma", "k", "p"]))
        text += f"{word}{draw(st.sampled_from(['', '', '<', '>', '=', 'h', 'l']))}{draw(st.integers(0, top + 1))}"
    return text


LEAVES = groups() | st.integers(0, 30).map(str) | st.sampled_from(NAMES) | st.sampled_from(["-3", "10000"])


def _tree(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    space = st.sampled_from(["", " "])
    binary = st.tuples(inner, space, st.sampled_from(["+", "-", "*", "/", "//", "%", "==", "<", ">="]), space,
                       inner).map("".join)
    wrapped = inner.map(lambda t: f"({t})")
    unary = st.tuples(st.sampled_from("-+"), inner).map(lambda t: f"{t[0]}({t[1]})")
    one = st.tuples(st.sampled_from(["ceil", "floor", "abs"]), inner).map(lambda t: f"{t[0]}({t[1]})")
    two = st.tuples(st.sampled_from(["max", "min"]), inner, inner).map(lambda t: f"{t[0]}({t[1]}, {t[2]})")
    chosen = st.tuples(inner, inner, st.sampled_from(["kh1", "kl1", "p1", "k>3", ""])).map(
        lambda t: f"({t[0]}, {t[1]}){t[2]}")
    noted = inner.map(lambda t: f"{t} [note]")
    return binary | wrapped | unary | one | two | chosen | noted


WELL_FORMED = st.recursive(LEAVES, _tree, max_leaves=10)


# -- hostile expressions ---------------------------------------------------------------------------------

@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A well-formed expression with one to three edits."""
    text = draw(WELL_FORMED)
    for _ in range(draw(st.integers(1, 3))):
        edit = draw(st.sampled_from(["insert", "delete", "replace", "double", "wrap", "glue", "token"]))
        at = draw(st.integers(0, len(text)))
        if edit == "insert":
            text = text[:at] + draw(st.sampled_from("0123456789dD%+-*/(),khlro mi" + JUNK)) + text[at:]
        elif edit == "delete" and text:
            text = text[:at] + text[at + 1:]
        elif edit == "replace" and at < len(text):
            text = text[:at] + draw(st.sampled_from("0123456789dD%+-*/()," + JUNK)) + text[at + 1:]
        elif edit == "double":
            end = draw(st.integers(at, len(text)))
            text = text[:end] + text[at:end] + text[end:]
        elif edit == "wrap":
            depth = draw(st.integers(1, 45))
            text = "(" * depth + text + ")" * depth
        elif edit == "glue":
            text = text + draw(st.sampled_from(["", "+", "*", "d6", "kh1", "ro1", "mi2"])) + draw(WELL_FORMED)
        else:
            text = text[:at] + draw(st.sampled_from(TOKENS)) + text[at:]
    return text


HUGE = st.sampled_from([
    "99999999999999999999d6", "1000d10000kh500", "1000d10000", "1000d6", "100d100", "10d10000kh5",
    "d10000*d10000", "d10000*d10000*d10000*d10000*d10000", "1000d6kh999", "500d6+500d6", "999d6+(N)d6",
    "1000d10000ro1mi5000kl3", "(LVL)d10000", "(LVL*LVL)d6", "(10000000000)d6", "9" * 250, "9" * 120 + "*" + "9" * 120,
    "d20/(d6-d6)", "1/(LVL-LVL)", "X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X*X", "5HD*5HD*5HD",
    "(N)d6kh1000", "70d100", "300d6", "2d10000", "40d6kh20", "20d20kh10", "d100/d100/d100", "ceil(300d6/7)+d20",
])


@st.composite
def nested(draw: st.DrawFn) -> str:
    """Deep nests and long flat chains, at and past the limits (depth 40, 256 characters)."""
    depth = draw(st.integers(1, 130))
    core = draw(st.sampled_from(["1", "d6", "2d6ro1", "(N)d4", "HD", "STR", "0d6"]))
    shape = draw(st.sampled_from(["parens", "negs", "calls", "sum", "product", "mixed", "max"]))
    if shape == "parens":
        return "(" * depth + core + ")" * depth
    if shape == "negs":
        return "-" * depth + core
    if shape == "calls":
        return "ceil(" * depth + core + ")" * depth
    if shape == "sum":
        return "+".join([core] * depth)
    if shape == "product":
        return "*".join([core] * depth)
    if shape == "max":
        return "max(" * depth + core + "".join(f",{core})" for _ in range(depth))
    return "".join(draw(st.sampled_from(["1+", "d2-", "2*", "(", "-", "3/"])) for _ in range(depth)) + core


SOUP = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
EXPRESSIONS = st.one_of(WELL_FORMED, mutated(), SOUP, HUGE, nested(), st.text(max_size=300),
                        st.text(alphabet="0123456789dD%+-*/(),khlroimadvs " + JUNK, max_size=80))


# -- hostile bindings ------------------------------------------------------------------------------------

GOOD_VALUES = st.one_of(st.integers(-20, 20), st.sampled_from(["d4", "d6", "d8", "D12", "d20", "d%", " d6 ", "3",
                                                               "-2", "+4", 10**9, -(10**9), "d1", "d10000"]))
BAD_VALUES = st.sampled_from([
    10**9 + 1, -(10**9) - 1, 10**100, 10**5000, "9" * 5000, "1000000001", "²", "٣", "ⅾ6", "1e5", "3.5", "", "  ",
    "d0", "d10001", "2d6", "d", "d-6", "x", None, 2.5, float("inf"), True, False, [1], {"a": 1}, b"3", (),
])
BAD_KEYS = st.sampled_from([1, "", "A B", "1X", b"STR", None, "é", "str"])


@st.composite
def bindings(draw: st.DrawFn, names: set[str]) -> Any:
    """Mostly good values for the names the expression uses, sometimes hostile ones, odd keys or no mapping."""
    kind = draw(st.integers(0, 19))
    if kind == 0:
        return draw(st.sampled_from([None, [], [("STR", 1)], "STR=1", 5, {}]))
    values = st.one_of(GOOD_VALUES, BAD_VALUES) if kind < 6 else GOOD_VALUES
    out: dict[Any, Any] = {name: draw(values) for name in sorted(names) if draw(st.integers(0, 15))}
    if kind == 1:
        out[draw(BAD_KEYS)] = draw(GOOD_VALUES)
    if kind == 2:
        out[draw(st.sampled_from(NAMES)).lower()] = draw(GOOD_VALUES)
    return out


def sources(draw: st.DataObject) -> Any:
    kind = draw.draw(st.integers(0, 9), label="source")
    if kind == 0:
        return dice.ScriptedDice(draw.draw(st.lists(st.integers(1, 20), max_size=12), label="script"))
    if kind == 1:
        return dice.system()
    return random.Random(draw.draw(st.integers(0, 2**32), label="seed"))


DCS = st.one_of(st.integers(-5, 40), st.sampled_from([10**9, -(10**9), 10**10, 10**5000, "x", 2.5, None, True]))


# -- the targets ---------------------------------------------------------------------------------------

@fuzz_settings(0.15)
@given(EXPRESSIONS, st.data())
def test_dice_parse_roll_explain(text: str, data: st.DataObject) -> None:
    with bounded("dice"):
        expression = dice.parse(text)
        record("dice", "deep")
        variables = data.draw(bindings(expression.variables()), label="variables")
        result = expression.roll(sources(data), variables, label=data.draw(st.sampled_from(["", "fuzz"])))
        assert isinstance(result.total, int)
        explanation = result.explain()
        assert explanation.endswith(f"= {result.total}")
        json.dumps(result.to_dict())
        low, high = expression.bounds(variables)
        assert low <= result.total <= high


@fuzz_settings(0.1)
@given(EXPRESSIONS, st.data())
def test_odds(text: str, data: st.DataObject) -> None:
    with bounded("odds"):
        expression = dice.parse(text)
        record("odds", "deep")
        variables = data.draw(bindings(expression.variables()), label="variables")
        dc = data.draw(DCS, label="dc")
        distribution = expression.distribution(variables)
        assert sum(distribution.values()) == 1
        chance = expression.probability_at_least(dc, variables)
        assert 0 <= chance <= 1
        assert chance == dice.probability_at_least(text, dc, variables)


def test_the_strategies_reach_every_form() -> None:
    """The well-formed leaves parse and roll, with every suffix and count form among them."""
    for text in ("4d6ro1mi2kh3", "(LVL)d6", "0d6", "5HD", "d20adv", "(N)HD", "max(d6, d8)", "(floor(LVL/2))d8"):
        result = dice.parse(text).roll(random.Random(1), {"LVL": 2, "HD": "d8", "N": 1})
        assert result.explain().endswith(f"= {result.total}")
    for text in TOKENS:
        try:
            dice.parse(text)
        except FurnaceError:
            continue
