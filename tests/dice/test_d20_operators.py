"""d20's operators in Furnace's dice (issue 25): what each does to the dice, in d20's order; what the natural d20
is under `mi`/`ma` and with ties; the bounds every reroll and explosion keeps (refused before rolling when it
could never end, refused at the face past the roll's limit); and the exact odds of each, equal to icepool's and
to every sequence of faces rolled through the roller.
"""

from __future__ import annotations

import random
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from furnace import dice
from furnace.dice import ScriptedDice
from furnace.dice.odds import EXPLOSION_DEPTH, distribution
from furnace.dice.values import MAX_DICE, MAX_ROLLS
from furnace.errors import DiceError, DiceLimitError, DiceSyntaxError
from tests.helpers.sequences import every_sequence


def explain(text: str, faces: list[int]) -> str:
    source = ScriptedDice(faces)
    result = dice.roll(text, source)
    assert source.remaining == 0, f"unused faces {source.faces}"
    assert result.faces == tuple(faces)          # the faces in the order they were drawn
    assert dice.roll(text, ScriptedDice(faces)).explain() == result.explain()
    return result.explain()


# -- what each operator does -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "faces", "explanation"), [
    # rr: round after round, until no kept die is chosen; the new faces drawn after every die of the group
    ("4d6rr1", [1, 3, 1, 5, 1, 2, 6], "4d6rr1 → [~~1~~→~~1~~→6, 3, ~~1~~→2, 5] = 16"),
    ("1d20rr<20", [3, 19, 20], "1d20rr<20 → [~~3~~→~~19~~→20] = 20"),
    ("2d6rr1rr2", [2, 4, 1, 3], "2d6rr1rr2 → [~~2~~→~~1~~→3, 4] = 7"),        # joined: 1s or 2s, until neither
    # ro: once; with h/l, the highest or lowest
    ("2d6ro<3", [1, 2, 6, 1], "2d6ro<3 → [~~1~~→6, ~~2~~→1] = 7"),
    ("1d6rol1", [2, 5], "1d6rol1 → [~~2~~→5] = 5"),
    ("3d6roh1", [2, 5, 3, 1], "3d6roh1 → [2, ~~5~~→1, 3] = 6"),
    # ra: one more die for the first chosen die, at most one
    ("2d6ra6", [6, 6, 3], "2d6ra6 → [6!, 6, 3] = 15"),
    ("1d1ra1", [1, 1], "1d1ra1 → [1!, 1] = 2"),
    ("3d6ral1", [4, 2, 2, 5], "3d6ral1 → [4, 2!, 2, 5] = 13"),
    # e: a new die for each chosen die, and for each new die chosen; the new dice after the others
    ("3d6e6", [6, 2, 4, 6, 1], "3d6e6 → [6!, 2, 4, 6!, 1] = 19"),
    ("2d6e>4", [5, 6, 1, 5, 2], "2d6e>4 → [5!, 6!, 1, 5!, 2] = 19"),
    ("1d6eh1", [3, 5, 5], "1d6eh1 → [3!, 5!, 5] = 13"),      # a new die explodes while it is the highest alone
    # mi, ma: what each kept die counts as, one after the other
    ("10d6mi10", [1, 2, 3, 4, 5, 6, 1, 2, 3, 4], "10d6mi10 → [" + ", ".join(
        f"{f} as 10" for f in [1, 2, 3, 4, 5, 6, 1, 2, 3, 4]) + "] = 100"),
    ("3d6ma0", [1, 6, 3], "3d6ma0 → [1 as 0, 6 as 0, 3 as 0] = 0"),
    ("2d6mi3ma4", [1, 6], "2d6mi3ma4 → [1 as 3, 6 as 4] = 7"),
    ("2d6mi2ro2", [1, 5, 6], "2d6mi2ro2 → [~~1 as 2~~→6, 5] = 11"),  # in order: mi2 makes the 1 a 2, ro2 rerolls it
    # k, p: keep or drop the chosen dice; a bare number counts dice (k3 is kh3, p1 is pl1); = chooses a face
    ("4d6k>4", [1, 5, 6, 2], "4d6k>4 → [~~1~~, 5, 6, ~~2~~] = 11"),
    ("4d6p<3", [1, 5, 6, 2], "4d6p<3 → [~~1~~, 5, 6, ~~2~~] = 11"),
    ("4d6k=3", [3, 5, 3, 2], "4d6k=3 → [3, ~~5~~, 3, ~~2~~] = 6"),
    ("4d6p1", [3, 5, 1, 2], "4d6p1 → [3, 5, ~~1~~, 2] = 10"),
    ("5d6kh1kl1", [3, 5, 1, 2, 6], "5d6kh1kl1 → [~~3~~, ~~5~~, 1, ~~2~~, 6] = 7"),   # joined: highest and lowest
    ("4d6kh9", [3, 5, 1, 2], "4d6kh9 → [3, 5, 1, 2] = 11"),                          # as d20: all there are
    ("10d6k1ph1", [1, 2, 1, 3, 4, 5, 6, 1, 2, 3], "10d6k1ph1 → [" + ", ".join(
        f"~~{f}~~" for f in [1, 2, 1, 3, 4, 5, 6, 1, 2, 3]) + "] = 0"),
    # the operators in order, the new dice of an explosion kept or dropped with the others
    ("4d6e6kh3", [6, 2, 3, 1, 5], "4d6e6kh3 → [6!, ~~2~~, 3, ~~1~~, 5] = 14"),
    ("4d6kh3rr1", [1, 1, 4, 5, 2], "4d6kh3rr1 → [~~1~~→2, ~~1~~, 4, 5] = 11"),      # the dropped 1 stays
])
def test_each_operator_as_d20_applies_it(text: str, faces: list[int], explanation: str) -> None:
    assert explain(text, faces) == explanation


def test_the_tree_of_an_explosion() -> None:
    result = dice.roll("3d6e6", ScriptedDice([6, 2, 4, 6, 1]))
    assert result.to_dict()["tree"] == {"kind": "dice", "value": 19, "text": "3d6e6", "sides": 6,
                                        "faces": [6, 2, 4, 6, 1], "kept": [True] * 5,
                                        "exploded": [True, False, False, True, False]}


@pytest.mark.parametrize(("text", "faces", "explanation"), [
    ("(1d4, 2+2, 3d6kl1)kh1", [3, 6, 5, 2], "(1d4, 2+2, 3d6kl1)kh1 → (~~[3]~~, 2 + 2, ~~[~~6~~, ~~5~~, 2]~~) = 4"),
    ("((10d6kh5)kl2)kh1", [1, 2, 3, 4, 5, 6, 1, 2, 3, 4], "((10d6kh5)kl2)kh1 → [~~1~~, ~~2~~, ~~3~~, 4, ~~5~~, "
     "~~6~~, ~~1~~, ~~2~~, ~~3~~, ~~4~~] = 4"),
    ("(d20, d20)kh1+3", [4, 17], "(d20, d20)kh1+3 → (~~[4]~~, [17]) + 3 = 20"),
    ("(1d6+1)p1", [4], "(1d6+1)p1 → (~~[4] + 1~~) = 0"),
    ("()", [], "() → () = 0"),
    ("(1, 2, 3)", [], "(1, 2, 3) → (1, 2, 3) = 6"),
    ("3d6 [fire] + 1d4 [cold]", [1, 2, 3, 4], "3d6 [fire] + 1d4 [cold] → [1, 2, 3] [fire] + [4] [cold] = 10"),
    ("-(1d8 + 3) [healing]", [7], "-(1d8 + 3) [healing] → -([7] + 3) [healing] = -10"),
    ("1d20 >= 11", [11], "1d20 >= 11 → [11] >= 11 = 1"),
    ("1 + 2 == 3", [], "1 + 2 == 3 → 1 + 2 == 3 = 1"),
    ("1d100 % 10", [57], "1d100 % 10 → [57] % 10 = 7"),
    ("-7 // 2", [], "-7 // 2 → -7 // 2 = -4"),
])
def test_sets_annotations_comparisons_and_remainders(text: str, faces: list[int], explanation: str) -> None:
    assert explain(text, faces) == explanation


# -- the natural d20 under mi/ma and with ties (chosen as d20 reads a crit) --------------------------------------
@pytest.mark.parametrize(("text", "faces", "natural"), [
    ("d20mi5", [1], 5),               # what the kept die counts as: no fumble on a d20 that counts at least 5
    ("d20ma19", [20], 19),            # nor a crit on one that counts at most 19
    ("2d20mi10kh1", [3, 5], 10),      # tied after mi: the natural is 10 whichever die fell first …
    ("2d20mi10kh1", [5, 3], 10),      # … so the order the dice fell in does not change it
    ("2d20kh1", [7, 7], 7),
    ("d20rr1", [1, 20], 20),          # the face that stands
    ("1d20e20", [20, 4], None),       # two dice kept: no natural, as d20 sees no crit
    ("1d20e20", [19], 19),
    ("(d20, d20)kh1", [4, 17], 17),   # the first d20 that counts
    ("(d20, d20)kl1", [4, 17], 4),
    ("d20+2d20ra20", [12, 20, 3, 5], 12),
])
def test_the_natural_is_what_the_kept_d20_counts_as(text: str, faces: list[int], natural: int | None) -> None:
    result = dice.roll(text, ScriptedDice(faces))
    assert result.natural == natural
    assert dice.parse(text).roll_any(ScriptedDice(faces)).natural == natural


@pytest.mark.parametrize(("text", "faces", "kept"), [
    ("2d20kh1", [7, 7], (True, False)),        # keep the highest: the earliest of equal dice is kept …
    ("2d20kl1", [7, 7], (True, False)),
    ("2d20dl1", [7, 7], (False, True)),        # … drop the lowest: the earliest of equal dice is dropped (d20's pl1)
    ("3d6dh1", [5, 2, 5], (False, True, True)),
    ("4d6kh3", [3, 3, 3, 3], (True, True, True, False)),
])
def test_ties_choose_the_earliest_die_as_d20_does(text: str, faces: list[int], kept: tuple[bool, ...]) -> None:
    assert dice.roll(text, ScriptedDice(faces)).tree.kept == kept  # type: ignore[union-attr]


# -- bounded: refused before rolling, or at the face past the limit ----------------------------------------------
class Counting:
    """A dice source that counts the faces it is asked for."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.asked = 0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        self.asked += 1
        return self.rng.randrange(start)


@pytest.mark.parametrize("text", ["1d1rr1", "1d6rr<7", "1d20rr<21", "1d20e<21", "1d1e1", "1d6e>0", "4d6rrh1",
                                  "4d6rrl2", "(LVL)d6rr<7", "2d6rr1rr>1", "1d6mi2rr<7", "d20+1d4e=1e=2e=3e=4"])
def test_a_reroll_or_explosion_that_could_never_end_is_refused_before_rolling(text: str) -> None:
    source = Counting(1)
    with pytest.raises(DiceLimitError, match="forever"):
        dice.roll(text, source, {"LVL": 2})
    assert source.asked == 0


@pytest.mark.parametrize(("text", "total"), [("1d6mi7rr<7", 7), ("1d6p1rr<7", 0), ("0d6rrh1", 0), ("1d6rrh0", None),
                                             ("1d6eh1", None), ("1d6rr<6", 6)])
def test_a_reroll_that_can_end_is_rolled(text: str, total: int | None) -> None:
    """Every face chosen, but no kept die can be (mi7 lifts the die above 6, p1 drops it, there is none), or a
    face is left to stop on: d20 rolls these, and so does Furnace."""
    result = dice.roll(text, random.Random(3))
    assert total is None or result.total == total


def test_a_roll_past_the_limit_of_faces_is_refused_at_that_face() -> None:
    """1,000 d20s each rolled again until it shows 20 need about 20,000 faces: the face past 10,000 refuses the roll
    (d20 stops at 1,000 with TooManyRolls), and no face past the limit is drawn."""
    source = Counting(1)
    with pytest.raises(DiceLimitError, match="10,000 faces"):
        dice.roll("1000d20rr<20", source)
    assert 1000 < source.asked <= MAX_ROLLS
    source = Counting(2)
    with pytest.raises(DiceLimitError):
        dice.roll("500d20rr<20+500d20rr<20", source)     # the limit is the whole roll's, not a group's …
    assert source.asked <= MAX_ROLLS + MAX_DICE            # … (the dice themselves, counted before, not refused)
    assert dice.roll("1000d6ro1", random.Random(1)).total > 0    # rerolls within the limit are rolled


@pytest.mark.parametrize("text", ["10d6mil1", "10d6mi<3", "1d6ma>2", "2d6rr", "2d6e", "2d6k", "2d6p<", "(1,2)rr1",
                                  "(1,2)e6", "2d20advdis", "2d20adv"])
def test_what_d20_refuses_is_refused(text: str) -> None:
    with pytest.raises(DiceSyntaxError):
        dice.parse(text)


# -- exact odds: icepool, and every sequence of faces ----------------------------------------------------------
def _ice(die: icepool.Die) -> dict[int, Fraction]:
    return {int(outcome): Fraction(quantity, die.denominator()) for outcome, quantity in die.items() if quantity}


D6, D4, D8, D10, D20 = icepool.d6, icepool.d4, icepool.d8, icepool.d10, icepool.d20
ICEPOOL = {
    "4d6rr1": lambda: 4 @ D6.reroll([1], depth="inf"),
    "3d8rr<3": lambda: 3 @ D8.reroll([1, 2], depth="inf"),
    "2d10rr>8": lambda: 2 @ D10.reroll([9, 10], depth="inf"),
    "2d6ro1": lambda: 2 @ D6.reroll([1], depth=1),
    "3d6ro<3": lambda: 3 @ D6.reroll([1, 2], depth=1),
    "8d6e6": lambda: 8 @ D6.explode([6], depth=EXPLOSION_DEPTH),
    "1d6e6": lambda: D6.explode([6], depth=EXPLOSION_DEPTH),
    "3d4e>2": lambda: 3 @ D4.explode([3, 4], depth=EXPLOSION_DEPTH),
    "2d10e10": lambda: 2 @ D10.explode([10], depth=EXPLOSION_DEPTH),
    "2d6e6mi2": lambda: 2 @ D6.map(lambda x: max(x, 2)).explode([6], depth=EXPLOSION_DEPTH),
    "10d6mi10": lambda: 10 @ D6.map(lambda x: max(x, 10)),
    "4d6mi3": lambda: 4 @ D6.map(lambda x: max(x, 3)),
    "4d6ma4": lambda: 4 @ D6.map(lambda x: min(x, 4)),
    "10d6ma0": lambda: 10 @ D6.map(lambda x: 0),
    "4d6k>4": lambda: 4 @ D6.map(lambda x: x if x > 4 else 0),
    "4d6p<3": lambda: 4 @ D6.map(lambda x: x if x >= 3 else 0),
    "5d4k=2": lambda: 5 @ D4.map(lambda x: x if x == 2 else 0),
    "4d6kh3": lambda: D6.pool(4).highest(3).sum(),
    "5d6pl2": lambda: D6.pool(5).highest(3).sum(),
    "5d6ph2": lambda: D6.pool(5).lowest(3).sum(),
    "4d6p1": lambda: D6.pool(4).highest(3).sum(),
    "4d6rr1kh3": lambda: D6.reroll([1], depth="inf").pool(4).highest(3).sum(),
    "4d6ro1mi2kh3": lambda: D6.reroll([1], depth=1).map(lambda x: max(x, 2)).pool(4).highest(3).sum(),
    "4d6p<3kh2": lambda: D6.map(lambda x: x if x >= 3 else 0).pool(4).highest(2).sum(),
    "(d20, d20)kh1": lambda: D20.pool(2).highest(1).sum(),
    "(d6, d8)kh1": lambda: icepool.highest(D6, D8),
    "d20 >= 11": lambda: (D20 >= 11).map(lambda outcome: int(outcome)),
    "2d6 % 3": lambda: (2 @ D6) % 3,
    "2d6 // 3": lambda: (2 @ D6) // 3,
}


@pytest.mark.parametrize("text", ICEPOOL)
def test_exact_odds_equal_icepools(text: str) -> None:
    """Each operator's exact odds equal icepool's (explosions to icepool's default depth, 9, the depth Furnace's
    odds follow them to: then the last die stands)."""
    assert dice.parse(text).distribution() == _ice(ICEPOOL[text]())


@pytest.mark.parametrize(("text", "most"), [
    ("3d4ro1", 6), ("3d4ro<3kh2", 6), ("2d4ro1mi2kl1", 4), ("3d3ra3", 4), ("3d4ra<2", 4), ("3d4rah1", 4),
    ("2d4ral1", 3), ("2d4ra4mi3", 3), ("3d4mi2ra2", 4), ("2d4ma3ro3", 4), ("3d4k<3ph1", 3), ("2d4p<3kh1", 2),
    ("3d3k1", 3), ("3d3p1", 3), ("4d3k=2", 4), ("3d4k>1pl1", 3), ("(d4, d4, d6)kh2", 3), ("(d4, 2, d6)p<3", 2),
    ("(1d4+1, 3, 2d4kl1)kh1", 3), ("1d4 > 1d4", 2), ("1d6 % 4", 1), ("(2d4)kh1", 2),
])
def test_exact_odds_equal_every_sequence_of_faces(text: str, most: int) -> None:
    assert dice.parse(text).distribution() == every_sequence(text, most)


@pytest.mark.parametrize(("text", "most"), [("2d4rr1", 8), ("3d4rr>2", 9), ("2d4rr1kh1", 8), ("2d4rr<3mi3", 8)])
def test_exact_odds_of_rerolls_until_equal_every_sequence_of_faces(text: str, most: int) -> None:
    """`rr` on the faces as they fall has sequences of any length; those that stop within `most` faces give the odds
    exactly, weighed up to 1 (which face stands does not depend on how many rerolls it took)."""
    assert dice.parse(text).distribution() == every_sequence(text, most, cut="condition")


def test_exact_odds_of_rerolls_after_other_operators_by_hand() -> None:
    """Where a die's last face depends on how often it was rolled again, by hand. 2d4mi2rr2: a 1 or a 2 counts 2
    and is rolled until the face is not 2 (a new 1 stays 1): each die 1 (1/6), 3 or 4 (5/12). 2d4rr4ra1: two dice
    of 1-3, and one more d4 when either shows 1."""
    one = {1: Fraction(1, 6), 3: Fraction(5, 12), 4: Fraction(5, 12)}
    pairs: dict[int, Fraction] = {}
    for a, pa in one.items():
        for b, pb in one.items():
            pairs[a + b] = pairs.get(a + b, Fraction(0)) + pa * pb
    assert dice.parse("2d4mi2rr2").distribution() == pairs
    added: dict[int, Fraction] = {}
    for a in (1, 2, 3):
        for b in (1, 2, 3):
            for c, pc in ({1: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 4), 4: Fraction(1, 4)}.items()
                          if 1 in (a, b) else {0: Fraction(1)}.items()):
                added[a + b + c] = added.get(a + b + c, Fraction(0)) + Fraction(1, 9) * pc
    assert dice.parse("2d4rr4ra1").distribution() == dict(sorted(added.items()))


@pytest.mark.parametrize(("text", "depth"), [("1d4e4", 3), ("1d6e>4", 4), ("1d3e=1", 5), ("d2e2", 9)])
def test_exact_odds_of_an_explosion_to_a_depth_equal_every_sequence_of_faces(text: str, depth: int) -> None:
    """To a depth of n new dice, then the last die stands: every sequence of up to n + 1 faces."""
    expression = dice.parse(text)
    assert distribution(expression.tree, {}, text, depth=depth) == every_sequence(text, depth + 1, cut="stand")


@pytest.mark.parametrize("text", ["4d6rol1", "4d6e6kh3", "2d6ra6mi2ra1", "4d6kh3mi2", "4d6k>2kh2", "2d6eh1"])
def test_what_has_no_exact_odds_is_refused_at_once(text: str) -> None:
    with pytest.raises(DiceLimitError, match="no exact odds"):
        dice.parse(text).distribution()


EXACT_BOUNDS = ["4d6rr1", "3d8rr<3", "2d6ro1", "3d6ro<3", "10d6mi10", "4d6mi3", "4d6ma4", "10d6ma0", "4d6k>4",
                "4d6p<3", "5d4k=2", "4d6kh3", "5d6pl2", "5d6ph2", "4d6rr1kh3", "4d6ro1mi2kh3", "4d6p<3kh2",
                "(d20, d20)kh1", "(d6, d8)kh1", "(d6, d8)pl1", "2d4p<3kh1", "2d6ra6", "1d6e6"]


@pytest.mark.parametrize("text", [*ICEPOOL, *EXACT_BOUNDS, "3d4ra<2", "(d4, 2, d6)p<3", "2d6 % 3"])
def test_bounds_hold_the_distribution(text: str) -> None:
    """The bounds hold every roll: the distribution's lowest and highest total lie within them, and are them for the
    common forms (an explosion's highest aside: the odds follow it to depth 9, a roll as far as the limit lets it)."""
    low, high = dice.parse(text).bounds()
    totals = dice.parse(text).distribution()
    assert low <= min(totals) and high >= max(totals)
    if text in EXACT_BOUNDS:
        assert low == min(totals)
        assert high == max(totals) if "e" not in text else high > max(totals)


# -- any group with operators rolls within its bounds and explains itself --------------------------------------
_OPERATOR = st.builds(lambda word, kind, n: f"{word}{kind}{n}", st.sampled_from(["rr", "ro", "ra", "e", "k", "p"]),
                      st.sampled_from(["", "<", ">", "=", "h", "l"]), st.integers(0, 7)) | st.builds(
    lambda word, n: f"{word}{n}", st.sampled_from(["mi", "ma"]), st.integers(0, 8))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 8), st.sampled_from([1, 2, 3, 4, 6, 20]), st.lists(_OPERATOR, max_size=4), st.integers(0, 2**32))
def test_any_group_with_operators_rolls_within_bounds_and_replays(count: int, sides: int, ops: list[str],
                                                                  seed: int) -> None:
    text = f"{count}d{sides}{''.join(ops)}"
    try:
        expression = dice.parse(text)
        result = expression.roll(random.Random(seed))
    except DiceError:
        return
    low, high = expression.bounds()
    assert low <= result.total <= high
    assert dice.roll(text, ScriptedDice(result.faces)).explain() == result.explain()
    assert result.explain().endswith(f"= {result.total}")
    assert result == expression.roll_any(random.Random(seed))
