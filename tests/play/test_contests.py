"""Contests (`furnace.play.contests`): opposed roll-under CHECKs.

RULES.md F.17 (F-OPT-02 contested CHECKs), AMB-53.
"""

from __future__ import annotations

import pytest

from furnace.play.checks import OptionOffError
from furnace.play.contests import contested
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import dice

RULES = load_ruleset()
OPTIONAL = RULES.with_options({"contested_checks": True})


# -- F-OPT-02 contested roll-under CHECKs (AMB-53) -------------------------------------------------------------
def test_F_OPT_02_is_refused_when_the_option_is_off() -> None:
    """F-OPT-02: contested_checks off (default) raises."""
    with pytest.raises(OptionOffError, match="contested_checks"):
        contested(dice(5, 5), 12, 10, rules=RULES)


@pytest.mark.parametrize(("faces", "scores", "winner", "reroll"), [
    ((9, 11), (12, 10), "A", ""),          # A under (9 ≤ 12), B over (11 > 10)
    ((8, 10), (12, 10), "B", ""),          # both under: the higher roll (10) wins
    ((7, 7), (12, 10), "A", ""),           # both under, equal rolls: the higher score wins
    ((7, 7), (12, 12), None, "now"),       # equal rolls and scores: roll again
    ((15, 12), (12, 10), "B", ""),         # both over, closest: B is 2 over, A 3 over
    ((15, 13), (12, 10), "A", ""),         # equally close (3 over): the higher score wins
])
def test_F_OPT_02_contested_roll_under(faces: tuple[int, int], scores: tuple[int, int], winner: str | None,
                                       reroll: str) -> None:
    """F-OPT-02, AMB-53: d20 ≤ score succeeds; both succeed → higher roll, then higher score; both fail → closest."""
    result = contested(dice(*faces), *scores, rules=OPTIONAL)
    assert (result.winner, result.reroll) == (winner, reroll)
    assert result.explain()


def test_F_OPT_02_both_fail_reroll_option() -> None:
    """F-OPT-02, AMB-53 alternative (contested_both_fail: reroll): both over → roll again next turn."""
    rules = OPTIONAL.with_options({"contested_both_fail": "reroll"})
    result = contested(dice(15, 12), 12, 10, a_label="Ulf", b_label="Ogre", rules=rules)
    assert (result.winner, result.reroll) == (None, "next turn")
    assert not result.a.success and not result.b.success
