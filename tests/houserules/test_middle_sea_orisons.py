"""Middle Sea orisons and who casts (`furnace.houserules.middle_sea.orisons`).

RULES.md M-ORIS-01..04 (M-TAB-06), M-REL-01, AMB-102, CF-42, REF-48.
"""

from __future__ import annotations

import pytest

from furnace.houserules import middle_sea as ms
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset("middle-sea")


def test_M_ORIS_01_AMB_102_non_classed_priests_and_their_exclusions() -> None:
    """M-ORIS-01, AMB-102: a priest without a class may not use Candle, Find a Stray or Ripen; a polytheist one
    may not use Candle, Find a Stray or Ceremony: Oath (option druidic_orison_reading exclude_oath), or with
    add_oath Ripen instead."""
    assert ms.orison_access(rules=RULES).excluded == ("Candle", "Find a Stray", "Ripen")
    assert not ms.may_use_orison("ripen", rules=RULES) and ms.may_use_orison("Ripen", polytheist=True, rules=RULES)
    assert not ms.may_use_orison("Ceremony: Oath", polytheist=True, rules=RULES)
    other = RULES.with_options({"druidic_orison_reading": "add_oath"})
    assert ms.orison_access(True, other).excluded == ("Candle", "Find a Stray", "Ripen")
    assert ms.may_use_orison("Ripen", classed=True, rules=RULES)


def test_M_ORIS_02_to_04_orisons_per_day() -> None:
    """M-ORIS-02: 1 a day without a class; M-ORIS-04: 1 free for Clerics, Paladins, Druids, Monks and Illusionists
    only; M-ORIS-03 / CF-42: trading a 1st-level slot (2 orisons) needs middle_sea_magic."""
    assert ms.orisons_per_day(classed=False, rules=RULES) == 1
    assert [ms.orisons_per_day(c, rules=RULES) for c in ("Cleric", "Illusionist", "Magic-user", "Ranger")] == [1, 1,
                                                                                                               0, 0]
    with pytest.raises(ms.MiddleSeaError, match="middle_sea_magic"):
        ms.orisons_per_day("Cleric", slots_traded=1, rules=RULES)
    magic = RULES.with_options({"middle_sea_magic": True})
    assert ms.orisons_per_day("Cleric", slots_traded=1, rules=magic) == 3
    assert ms.orisons_per_day("Ranger", slots_traded=1, rules=magic) == 2
    with pytest.raises(ms.MiddleSeaError, match="clerical or druidic"):
        ms.orisons_per_day("Magic-user", slots_traded=1, rules=magic)


def test_M_REL_01_only_classed_priests_cast() -> None:
    """M-REL-01, REF-48: a priest needs a class and level to cast; don't assume any priest can heal."""
    assert ms.priest_can_cast(True) and not ms.priest_can_cast(False)
