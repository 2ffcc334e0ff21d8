"""d20's own test cases, run against Furnace's dice.

The cases are those of avrae/d20 v1.1.2 (the `d20` dev dependency): every expression and expected result of its
tests/test_dice.py, and the dice notation of its tests/test_arguments.py and tests/test_utils.py. They are listed
here as data (d20's code is not copied). Each case passes, except those that fall under a row of the README's
table of deliberate differences ("## The dice language"): `DIFFERENCE` names the row, a test checks the README
has it, and another that each such case really differs (so the table is never stale). The checks of d20's
Python API that no expression can express (its stringifier's Markdown, AST utilities, `allow_comments=True`,
the `advantage=` argument) are listed in `API` under their row.

Beside each expected result, every case that rolls dice is rolled by d20 itself on the same faces (d20's
`random` swapped for a seeded source that draws as Furnace draws, `int(random() * sides) + 1`): the totals
must be equal.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import d20
import pytest

from furnace import dice
from furnace.dice.result import Node
from furnace.errors import DiceError, DiceLimitError, DiceSyntaxError

README = Path(__file__).resolve().parents[2] / "README.md"
ROLLS = 300        # d20 rolls its range checks 1,000 times; 300 seeds here, each the same on every run

# The rows of the README's table of deliberate differences (the text of their first column).
PERCENT = "`d%`"
DECIMAL = "`1.5`, `.5`"
COUNT = "`k3`, `p3`"
COMMENT = "`1d20 foo bar`"
API = "d20's Python API"


@dataclass(frozen=True)
class Case:
    where: str                              # d20's test that holds it
    text: str
    check: Callable[[int], bool] | None     # on the total of each roll; None: the roll must be refused
    refused: type[DiceError] = DiceError    # what a refusal must be (d20's TooManyRolls: a DiceLimitError)
    difference: str | None = None           # the README row it falls under, if any
    dice: bool = True                       # it rolls dice (compared with d20 on the same faces)
    alike: bool = True                      # d20 reads it as Furnace does (not so: k1 counts dice in Furnace)


def equal(value: int) -> Callable[[int], bool]:
    return lambda total: total == value


def between(low: int, high: int) -> Callable[[int], bool]:
    return lambda total: low <= total <= high


def among(*values: int) -> Callable[[int], bool]:
    return lambda total: total in values


def rolls(total: int) -> bool:
    return isinstance(total, int)


def case(where: str, text: str, check: Callable[[int], bool] | None, refused: type[DiceError] = DiceError,
         difference: str | None = None) -> Case:
    counted = re.search(r"[kp][0-9]", text) is not None   # k3, p1: a count in Furnace, a face in d20
    return Case(where, text, check, refused, difference, dice=bool(re.search(r"d[0-9%]", text)), alike=not counted)


STANDARD = ["1d20", "1d%", "1+1", "4d6kh3", "(1)", "(1,)", "((1d6))", "4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)",
            "(1d4, 2+2, 3d6kl1)kh1", "((10d6kh5)kl2)kh1"]
COMPARISON = [("1 == 1", 1), ("1 == 2", 0), ("1 > 1", 0), ("2 > 1", 1), ("1 < 1", 0), ("1 < 2", 1), ("1 >= 1", 1),
              ("1 >= 2", 0), ("1 <= 1", 1), ("2 <= 1", 0), ("1 != 1", 0), ("1 != 2", 1)]
SET5 = "(1, 2, 3, 4, 5)"

CASES: list[Case] = [
    *(case("test_rolls_dont_error", text, rolls) for text in STANDARD),
    *(case("test_roll_types", text, rolls) for text in STANDARD),
    case("test_sane_totals", "1d20", between(1, 20)),
    case("test_sane_totals", "1d%", between(0, 90), difference=PERCENT),
    case("test_sane_totals", "1d%", lambda t: 0 <= t % 10 <= 9),
    case("test_sane_totals", "1d%", lambda t: t % 10 == 0, difference=PERCENT),
    case("test_sane_totals", "4d6kh3", between(3, 18)),
    case("test_sane_totals", "(((1d6)))", between(1, 6)),
    case("test_sane_totals", "(1d4, 2+2, 3d6kl1)kh1", between(4, 6)),
    case("test_sane_totals", "((10d6kh5)kl2)kh1", between(1, 6)),
    case("test_pemdas", "1 + 3 * 6", equal(19)),
    case("test_pemdas", "1 + (3 * 6)", equal(19)),
    case("test_pemdas", "(1 + 3) * 6", equal(24)),
    case("test_pemdas", "1 + 2 + 3", equal(6)),
    case("test_pemdas", "(1 + 2) + 3", equal(6)),
    case("test_pemdas", "1 + (2 + 3)", equal(6)),
    case("test_pemdas", "1 + 2 == 2", equal(0)),
    case("test_pemdas", "1 + (2 == 2)", equal(2)),
    case("test_invalid_rolls", "1001d6", None, DiceLimitError),
    case("test_invalid_rolls", "6d0", None),
    case("test_invalid_rolls", "10d6mil1", None),
    case("test_chaining_operators", "10d6k1k2k3", between(0, 30)),
    case("test_chaining_operators", "10d6k1ph1", between(0, 9)),
    case("test_chaining_operators", "(1, 2, 3)k1k2", equal(3), difference=COUNT),
    case("test_literal", "1", equal(1)),
    case("test_literal", "10000", equal(10000)),
    case("test_literal", "1.5", equal(1), difference=DECIMAL),
    case("test_literal", "0.5", equal(0), difference=DECIMAL),
    case("test_literal", ".5", equal(0), difference=DECIMAL),
    case("test_dice", "0d6", equal(0)),
    case("test_dice", "d6", between(1, 6)),
    case("test_dice", "1d6", between(1, 6)),
    case("test_dice", "2d6", between(2, 12)),
    case("test_dice", "0d%", equal(0)),
    case("test_dice", "d%", between(0, 90), difference=PERCENT),
    case("test_dice", "1d%", between(0, 90), difference=PERCENT),
    case("test_dice", "2d%", between(0, 180), difference=PERCENT),
    case("test_set", "(1)", equal(1)),
    case("test_set", "(1,)", equal(1)),
    case("test_set", "(1, 1)", equal(2)),
    case("test_unop", "1", equal(1)),
    case("test_unop", "+1", equal(1)),
    case("test_unop", "-1", equal(-1)),
    case("test_unop", "--1", equal(1)),
    case("test_unop", "-+-++---+1", equal(-1)),
    case("test_binop", "2 + 2", equal(4)),
    case("test_binop", "2 - 2", equal(0)),
    case("test_binop", "2 * 5", equal(10)),
    case("test_binop", "15 / 2", equal(7)),
    case("test_binop", "15 // 2", equal(7)),
    case("test_binop", "13 % 2", equal(1)),
    case("test_binop_dice", "2 + 1d6", between(3, 8)),
    case("test_binop_dice", "2 * 1d6", between(2, 12)),
    case("test_binop_dice", "60 / 1d6", among(60, 30, 20, 15, 12, 10)),
    case("test_binop_dice", "60 // 1d6", among(60, 30, 20, 15, 12, 10)),
    case("test_binop_dice", "1d100 % 10", lambda t: t <= 10),
    case("test_binop_dice", "1d% % 10", lambda t: t <= 10),
    case("test_div_zero", "10 / 0", None),
    case("test_div_zero", "10 // 0", None),
    case("test_div_zero", "10 % 0", None),
    *(case("test_comparison", text, equal(value)) for text, value in COMPARISON),
    case("test_selectors", f"{SET5}k3", equal(3), difference=COUNT),
    case("test_selectors", f"{SET5}k<3", equal(3)),
    case("test_selectors", f"{SET5}k>3", equal(9)),
    case("test_selectors", f"{SET5}kl2", equal(3)),
    case("test_selectors", f"{SET5}kh2", equal(9)),
    case("test_selectors", "(1)k1", equal(1)),
    case("test_selectors", "(1)k2", equal(0), difference=COUNT),
    case("test_k_op", f"{SET5}k3", equal(3), difference=COUNT),
    case("test_k_op", f"{SET5}k1k2", equal(3), difference=COUNT),
    case("test_k_op", f"{SET5}kh1kl1", equal(6)),
    case("test_p_op", f"{SET5}p3", equal(12), difference=COUNT),
    case("test_p_op", f"{SET5}p1p2", equal(12)),
    case("test_p_op", f"{SET5}ph1pl1", equal(9)),
    case("test_rr_op", "1d20rr<20", equal(20)),
    case("test_rr_op", "1d20rr>1", equal(1)),
    case("test_rr_op", "1d20rr<21", None, DiceLimitError),
    case("test_rr_op", "1d1rr1", None, DiceLimitError),
    case("test_ro_op", "1d1ro1", equal(1)),
    case("test_ro_op", "1d6rol1", between(1, 6)),
    case("test_ra_op", "1d1ra1", equal(2)),
    case("test_ra_op", "1d6ral1", between(2, 12)),
    case("test_e_op", "1d2e2", lambda t: t % 2 == 1),
    case("test_e_op", "1d20e<21", None, DiceLimitError),
    case("test_e_op", "1d1e1", None, DiceLimitError),
    case("test_mi_op", "10d6mi6", equal(60)),
    case("test_mi_op", "10d6mi10", equal(100)),
    case("test_mi_op", "10d6mi2", between(20, 60)),
    case("test_ma_op", "10d6ma1", equal(10)),
    case("test_ma_op", "10d6ma0", equal(0)),
    case("test_ma_op", "10d6ma5", between(10, 50)),
    case("test_correct_results", "1+2+3", equal(6)),
    # tests/test_arguments.py: text after the expression is refused, as d20 refuses it without allow_comments
    *(case("test_comments", text, None, DiceSyntaxError) for text in (
        "1d20 foo bar", "1d20 keep something", "1d20 damage", "1d20 **bold**",
        "1d20 please save me from this parsing weirdness")),
    *(case("test_comments", text, between(1, 20), difference=COMMENT) for text in (
        "1d20 foo bar", "1d20 keep something", "1d20 damage", "1d20 **bold**",
        "1d20 please save me from this parsing weirdness")),
    case("test_advantage", "1d20", between(1, 20)),
    case("test_rolling_ast", "1d20", between(1, 20)),
    # tests/test_utils.py: the expressions its utilities are tried on, and the totals it expects of them
    *(case("test_ast_adv_copy", text, rolls) for text in ("1d20", "1d20+1", "d20-1d4", "1", "1d6", "1+1", "1d20ro1")),
    case("test_annotation_simplify", "1 [a] + 2 + 3 [b] + 4", equal(10)),
    case("test_annotation_simplify", "1 [a] + 2 + 3 [a] + 4", equal(10)),
    case("test_parenthetical_annotation", "(1 [a])", equal(1)),
    case("test_simplify", "1 [a] + 2 + 3", equal(6)),
    case("test_simplify", "1 + 2 + 3 + 4", equal(10)),
    case("test_simplify", "8d6", between(8, 48)),
    case("test_simplify", "8d6 [fire]", between(8, 48)),
    case("test_tree_map", "1d20 + 4d6 + 3", between(8, 47)),
    case("test_tree_map", "(1d6, 1d6)kh1", between(1, 6)),
    case("test_tree_map", "(1, 2, 3)", equal(6)),
    case("test_tree_map", "(1, 2, 3) + (4, 5, 6)", equal(21)),
    case("test_dfs", "-1d8 + 4 - (3, 1d4)kh1", between(-8, 0)),
]

# d20's checks of its Python API, which no expression expresses: Furnace's equivalents are in the README's row.
API_CHECKS = [
    "test_roll_types: result.ast is a d20.ast.Node, result.expr a d20.Expression",
    "test_correct_results: result.result == '1 + 2 + 3 = `6`' (Markdown), and the total after editing result.expr",
    "test_advantage: roll('1d20', advantage=ADV / DIS) reads '2d20kh1' / '2d20kl1'; a d6 is left alone",
    "test_comments: result.comment",
    "test_utils: ast_adv_copy, simplify_expr_annotations, simplify_expr, tree_map, leftmost, rightmost, dfs",
]


def _rolled(text: str, seed: int) -> int:
    return dice.roll(text, random.Random(seed)).total


def _passes(c: Case) -> bool:
    """The case as d20's test states it, on Furnace: refused as it says, or every roll's total as it says."""
    if c.check is None:
        try:
            dice.roll(c.text, random.Random(0))
        except c.refused:
            return True
        except DiceError:
            return False
        return False
    try:
        return all(c.check(_rolled(c.text, seed)) for seed in range(ROLLS if c.dice else 1))
    except DiceError:
        return False


@pytest.mark.parametrize("c", [c for c in CASES if c.difference is None], ids=lambda c: f"{c.where}:{c.text}")
def test_the_d20_case_passes(c: Case) -> None:
    assert _passes(c)


@pytest.mark.parametrize("c", [c for c in CASES if c.difference is not None], ids=lambda c: f"{c.where}:{c.text}")
def test_the_d20_case_differs_as_the_readme_says(c: Case) -> None:
    assert not _passes(c), f"{c.text} now passes: take it off the README's table ({c.difference})"


def _difference_rows() -> list[str]:
    section = README.read_text(encoding="utf-8").split("## The dice language")[1].split("\n## ")[0]
    return [line for line in section.splitlines() if line.startswith("| ")]


@pytest.mark.parametrize("row", [PERCENT, DECIMAL, COUNT, COMMENT, API, "`/`"])
def test_the_readme_lists_each_difference_beside_d20s_meaning(row: str) -> None:
    """A row of the table: the notation, d20's meaning, Furnace's, and why (flooring division among them)."""
    found = [line for line in _difference_rows() if line.startswith(f"| {row} |")]
    assert len(found) == 1, row
    cells = [cell.strip() for cell in found[0].strip().strip("|").split("|")]
    assert len(cells) == 4 and all(cells), found[0]


def test_the_cases_are_all_of_d20s() -> None:
    """Every expression d20's tests roll is here (the count is of the checks: one expression may be checked more
    than once, as d20 checks it)."""
    texts = {c.text for c in CASES}
    assert len(CASES) == 152 and len(API_CHECKS) == 5
    assert all(text in texts for text in STANDARD)


# -- on the same faces as d20 ------------------------------------------------------------------------------------
class _SameFaces:
    """d20's `random`, drawing from a seeded Random as Furnace's roller draws: int(random() * sides) + 1."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is None, "d% draws differently in d20"
        return int(self.rng.random() * start)


SAME_FACES = sorted({c.text for c in CASES if c.dice and c.check is not None and c.difference is None
                     and c.alike and "%" not in c.text})


@pytest.mark.parametrize("text", SAME_FACES)
def test_furnace_and_d20_give_the_same_total_on_the_same_faces(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(100):
        monkeypatch.setattr(d20.expression, "random", _SameFaces(seed))
        theirs = d20.roll(text)
        ours = dice.roll(text, random.Random(seed))
        assert ours.total == theirs.total, (seed, ours.explain(), theirs.result)
        if text.startswith("1d20") and ours.natural in (1, 20) and text.count("d") == 1:
            assert theirs.crit == (d20.CritType.CRIT if ours.natural == 20 else d20.CritType.FAIL)


def test_the_crit_cases() -> None:
    """test_crit: a 1d20 showing 20 is a crit, 1 a fumble, anything else neither — Furnace's natural."""
    naturals = {dice.roll("1d20", random.Random(seed)).natural for seed in range(ROLLS)}
    assert {1, 20} <= naturals and naturals <= set(range(1, 21))
    for seed in range(ROLLS):
        result = dice.roll("1d20", random.Random(seed))
        assert result.natural == result.total


def test_the_types_of_a_result() -> None:
    """test_roll_types: a result has its text, a whole-number total and the tree that explains it."""
    for text in STANDARD:
        result = dice.roll(text, random.Random(1))
        assert isinstance(result.explain(), str) and isinstance(result.total, int)
        assert isinstance(result.tree, Node.__args__)  # type: ignore[attr-defined]
