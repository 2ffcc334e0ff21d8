"""The house changes to AD&D spells (`furnace.houserules.middle_sea.spells`).

RULES.md M-SPELLMOD-01 (REF-46, EXT-24), M-SPELLMOD-02 (EXT-21).
"""

from __future__ import annotations

import pytest

from furnace.houserules import middle_sea as ms


def test_M_SPELLMOD_02_restoration_is_level_5_energy_drain_stays_7() -> None:
    """M-SPELLMOD-02: Restoration 5, Energy Drain 7; any other spell's level is in the AD&D PHB (EXT-21)."""
    assert ms.house_spell_level("Restoration") == 5 and ms.house_spell_level("energy drain") == 7
    with pytest.raises(ms.ExternalRuleError, match="EXT-21"):
        ms.house_spell_level("Cure Light Wounds")


def test_M_SPELLMOD_01_chromatic_orb_keeps_four_powers() -> None:
    """M-SPELLMOD-01: no fire, magnetism or save-or-die; light from caster level 2; the other thresholds are not
    given (REF-46, EXT-24)."""
    assert not ms.chromatic_orb_power("fire", 9)
    assert not ms.chromatic_orb_power("light", 1) and ms.chromatic_orb_power("light", 2)
    with pytest.raises(ms.ExternalRuleError, match="REF-46"):
        ms.chromatic_orb_power("paralysis", 5)
    with pytest.raises(ms.MiddleSeaError, match="keeps only"):
        ms.chromatic_orb_power("frost", 5)
