"""Properties of the dice language (hypothesis): no text crashes the parser with anything but a DiceError,
every roll lands within bounds(), a seeded roll is reproducible, odds agree with the roller."""

from __future__ import annotations

import contextlib
import itertools
import math
import random
from collections import Counter
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from furnace import dice
from furnace.dice import ScriptedDice
from furnace.dice.result import dice_groups
from furnace.errors import DiceError
from tests.helpers.recorder import Recorder

FAST = settings(max_examples=200)
SLOW = settings(max_examples=60)

ALPHABET = "".join(sorted(set("0123456789d%+-*/()khldasvSTRceilfloor, ")))
TOKENS = ["d20", "d6", "4d6", "d%", "2", "10", "0", "kh", "kl", "dh", "dl", "k", "1", "3", "adv", "dis",
          "+", "-", "*", "/", "(", ")", "ceil(", "floor(", "max(", "min(", "abs(", ",", "STR", "HD", "5HD",
          "d", " ", "%", "1000d6", "d10000", "d10001"]


def try_everything(text: str) -> None:
    """Parse; if that works, roll, bound and explain (variables bound to 1). Only DiceError may escape."""
    try:
        expression = dice.parse(text)
    except DiceError:
        return
    variables = dict.fromkeys(expression.variables(), 1)
    try:
        result = expression.roll(random.Random(0), variables)
    except DiceError:
        return
    assert isinstance(result.total, int)
    assert isinstance(result.explain(), str)
    result.to_json()
    try:
        low, high = expression.bounds(variables)
    except DiceError:
        return
    assert low <= result.total <= high


@FAST
@given(st.text(max_size=300))
def test_any_text_parses_or_raises_a_dice_error(text: str) -> None:
    try_everything(text)


@FAST
@given(st.text(alphabet=ALPHABET, max_size=60))
def test_text_from_the_grammar_alphabet_parses_or_raises_a_dice_error(text: str) -> None:
    try_everything(text)


@FAST
@given(st.lists(st.sampled_from(TOKENS), max_size=25).map("".join))
def test_token_soup_parses_or_raises_a_dice_error(text: str) -> None:
    try_everything(text)


# -- well-formed expressions ----------------------------------------------------------------------------

@st.composite
def dice_terms(draw: st.DrawFn, max_count: int = 4, sides: tuple[int, ...] = (2, 3, 4, 6, 8, 10, 12, 20, 100)
               ) -> str:
    count = draw(st.integers(1, max_count))
    side = draw(st.sampled_from(sides))
    die = "%" if side == 100 and draw(st.booleans()) else str(side)
    prefix = "" if count == 1 and draw(st.booleans()) else str(count)
    suffixes = [""]
    if count == 1:
        suffixes += ["adv", "dis"]
    suffixes += [f"{word}{n}" for word in ("kh", "kl", "k") for n in range(1, count + 1)]
    suffixes += [f"{word}{n}" for word in ("dh", "dl") for n in range(count)]
    suffixes += ["kh", "kl"] + (["dh", "dl"] if count > 1 else [])
    return f"{prefix}{draw(st.sampled_from(['d', 'D']))}{die}{draw(st.sampled_from(suffixes))}"


def expressions(leaves: st.SearchStrategy[str], max_leaves: int) -> st.SearchStrategy[str]:
    space = st.sampled_from(["", " "])

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(inner, space, st.sampled_from("+-*/"), space, inner, st.booleans()).map(
            lambda t: f"({t[0]}{t[1]}{t[2]}{t[3]}{t[4]})" if t[5] else f"{t[0]}{t[1]}{t[2]}{t[3]}{t[4]}")
        unary = st.tuples(st.sampled_from(["-", "+"]), inner).map(lambda t: f"{t[0]}({t[1]})")
        one = st.tuples(st.sampled_from(["ceil", "floor", "abs"]), inner).map(lambda t: f"{t[0]}({t[1]})")
        two = st.tuples(st.sampled_from(["max", "min"]), inner, space, inner).map(
            lambda t: f"{t[0]}({t[1]},{t[2]}{t[3]})")
        return binary | unary | one | two

    return st.recursive(leaves, extend, max_leaves=max_leaves)


NUMBERS = st.integers(0, 30).map(str)
WELL_FORMED = expressions(NUMBERS | dice_terms(), max_leaves=8).filter(
    lambda text: len(text) <= dice.MAX_EXPRESSION_LENGTH)


@FAST
@given(WELL_FORMED, st.integers(0, 2**32))
def test_well_formed_expressions_roll_within_bounds(text: str, seed: int) -> None:
    expression = dice.parse(text)
    assert expression.variables() == set()
    try:
        low, high = expression.bounds()
    except DiceError:  # a divisor that can be zero: the roll may divide by zero, and must say so
        with contextlib.suppress(DiceError):
            expression.roll(random.Random(seed))
        return
    result = expression.roll(random.Random(seed))
    assert low <= result.total <= high, (text, result.explain(), (low, high))


@FAST
@given(WELL_FORMED, st.integers(0, 2**32))
def test_a_seeded_roll_is_reproducible(text: str, seed: int) -> None:
    try:
        first = dice.roll(text, random.Random(seed), label="again")
    except DiceError:
        assume(False)
    second = dice.roll(text, random.Random(seed), label="again")
    third = dice.parse(text).roll(dice.seeded(seed), label="again")
    assert first.to_dict() == second.to_dict() == third.to_dict()
    assert first.explain() == second.explain()


@FAST
@given(WELL_FORMED, st.integers(0, 2**32))
def test_the_explanation_agrees_with_the_total(text: str, seed: int) -> None:
    try:
        result = dice.roll(text, random.Random(seed))
    except DiceError:
        assume(False)
    tree = result.tree
    assert math.floor(tree.value) == result.total
    assert result.explain().endswith(f" = {result.total}")
    groups = dice_groups(tree)
    assert [face for group in groups for face in group.faces] == list(result.faces)
    for group in groups:
        assert all(1 <= face <= group.sides for face in group.faces)
        kept = [face for face, keep in zip(group.faces, group.kept, strict=True) if keep]
        dropped = [face for face, keep in zip(group.faces, group.kept, strict=True) if not keep]
        assert sum(kept) == group.value
        if dropped and kept:  # kept dice are all highest or all lowest: nothing dropped sits between
            assert max(dropped) <= min(kept) or min(dropped) >= max(kept)


@FAST
@given(WELL_FORMED, st.integers(0, 2**32))
def test_scripted_replay_gives_the_same_roll(text: str, seed: int) -> None:
    try:
        result = dice.roll(text, random.Random(seed))
    except DiceError:
        assume(False)
    replay = dice.roll(text, ScriptedDice(result.faces))
    assert replay.total == result.total
    assert list(replay.faces) == list(result.faces)
    assert replay.explain() == result.explain()
    assert replay.natural == result.natural


# -- odds against the roller ----------------------------------------------------------------------------



SMALL = expressions(st.integers(0, 6).map(str) | dice_terms(max_count=3, sides=(2, 3, 4, 6)), max_leaves=3)


@SLOW
@given(SMALL)
def test_exact_odds_match_every_roll(text: str) -> None:
    """The icepool distribution equals rolling every combination of faces, and lies within bounds()."""
    recorder = Recorder()
    try:
        dice.roll(text, recorder)
        distribution = dice.parse(text).distribution()
        low, high = dice.parse(text).bounds()
    except DiceError:
        assume(False)
    assume(math.prod(recorder.sides) <= 2000)
    expression = dice.parse(text)
    counts: Counter[int] = Counter()
    for faces in itertools.product(*(range(1, s + 1) for s in recorder.sides)):
        try:
            counts[expression.roll(ScriptedDice(faces)).total] += 1
        except DiceError:  # a division by zero the odds did not see: report it as a mismatch
            counts[None] += 1  # type: ignore[index]
    size = math.prod(recorder.sides)
    assert distribution == {total: Fraction(n, size) for total, n in counts.items()}
    assert sum(distribution.values()) == 1
    assert low <= min(distribution) and max(distribution) <= high
