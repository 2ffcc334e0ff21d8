"""Surprise (`furnace.play.surprise`): the optional surprise roll at the start of an encounter.

RULES.md F.13 (F-SURP-01 surprise), review decision D-3, AMB-50, CF-51, H-LIGHT-03.
"""

from __future__ import annotations

import pytest

from furnace.play.checks import OptionOffError
from furnace.play.surprise import surprise
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import dice

RULES = load_ruleset()
OPTIONAL = RULES.with_options({"surprise_roll": True})


# -- F-SURP-01 surprise (D-3, AMB-50, CF-51) -------------------------------------------------------------------
def test_F_SURP_01_surprise_is_2_in_6_per_side() -> None:
    """F-SURP-01, D-3: each side rolls 1d6, surprised on 1–2: party 2 (surprised), enemies 3 → enemies act first."""
    result = surprise(dice(2, 3), OPTIONAL)
    assert (result.party.surprised, result.enemies.surprised, result.free_turn) == (True, False, "the enemies")
    assert surprise(dice(3, 6), OPTIONAL).free_turn is None
    both = surprise(dice(1, 2), OPTIONAL)
    assert (both.party.surprised, both.enemies.surprised, both.free_turn) == (True, True, None)
    assert surprise(dice(4, 1), OPTIONAL).free_turn == "the party"


def test_F_SURP_01_surprise_chance_option() -> None:
    """F-SURP-01, D-3: surprise_chance 1 makes a 2 no longer a surprise."""
    rules = OPTIONAL.with_options({"surprise_chance": 1})
    assert not surprise(dice(2, 2), rules).party.surprised


def test_F_SURP_01_a_lit_party_cannot_surprise() -> None:
    """F-SURP-01, CF-51, H-LIGHT-03: with light_prevents_surprise on, a lit party's enemies are not surprised."""
    rules = OPTIONAL.with_options({"light_prevents_surprise": True})
    lit = surprise(dice(3), rules, lit=True)          # only the party's die is rolled
    assert (lit.enemies.surprised, lit.enemies.roll, lit.free_turn) == (False, None, None)
    assert "light" in lit.explain()
    # with the option off (Furnace), light changes nothing
    assert surprise(dice(3, 1), OPTIONAL, lit=True).enemies.surprised


def test_F_SURP_01_the_roll_needs_the_option() -> None:
    """F-SURP-01, D-3: surprise_roll off (default): the referee declares surprise, so rolling raises."""
    with pytest.raises(OptionOffError, match="surprise_roll"):
        surprise(dice(2, 3), RULES)
