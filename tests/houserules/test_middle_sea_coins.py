"""Middle Sea coin weight (`furnace.houserules.middle_sea.coins`).

RULES.md M-COIN-01, M-TAB-07, CF-44.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from furnace.houserules import middle_sea as ms
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset("middle-sea")


def test_M_COIN_01_100_coins_to_the_pound() -> None:
    """M-COIN-01, M-TAB-07, CF-44: 100 coins = 1 lb = 10 gpe; a gem weighs as a coin; 1000 coins = 10 lb = 100 gpe
    = 1 load."""
    one = ms.coin_weight(100, rules=RULES)
    assert (one.pounds, one.gpe) == (1, 10)
    many = ms.coin_weight(900, 100, RULES)
    assert (many.pounds, many.gpe, many.load) == (10, 100, 1)
    assert ms.coin_weight(1, rules=RULES).pounds == Fraction(1, 100)
    with pytest.raises(ms.MiddleSeaError):
        ms.coin_weight(-1, rules=RULES)
