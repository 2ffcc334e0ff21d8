"""What the house rules change in AD&D spells (RULES.md M.9): M-SPELLMOD-01 the Chromatic Orb's powers (the caster
levels are not given, REF-46; the spell is Unearthed Arcana's, EXT-24) and M-SPELLMOD-02 the levels of
Restoration and Energy Drain (every other level is the Players Handbook's, EXT-21).
"""

from __future__ import annotations

from furnace.houserules.middle_sea.common import ExternalRuleError, MiddleSeaError

HOUSE_SPELL_LEVELS = {"restoration": 5, "energy drain": 7}   # M-SPELLMOD-02 (clerical)
ORB_KEEPS = ("light", "blindness", "stinking cloud", "paralysis")   # M-SPELLMOD-01
ORB_REMOVED = ("fire", "magnetism", "save or die")
ORB_LIGHT_LEVEL = 2


def house_spell_level(spell: str) -> int:
    """M-SPELLMOD-02: Restoration is a 5th-level cleric spell, its reverse Energy Drain stays 7th."""
    key = spell.strip().lower()
    if key not in HOUSE_SPELL_LEVELS:
        raise ExternalRuleError(f"the level of {spell!r} is in the AD&D 1e Players Handbook (EXT-21); the house rules "
                                "change only Restoration (5) and Energy Drain (7)")
    return HOUSE_SPELL_LEVELS[key]


def chromatic_orb_power(power: str, caster_level: int) -> bool:
    """M-SPELLMOD-01: fire, magnetism and save-or-die are gone; light needs caster level 2. The level of each other
    kept power is not given (REF-46) and the spell itself is in Unearthed Arcana (EXT-24)."""
    key = power.strip().lower()
    if key in ORB_REMOVED:
        return False
    if key == "light":
        return caster_level >= ORB_LIGHT_LEVEL
    if key in ORB_KEEPS:
        raise ExternalRuleError(f"M-SPELLMOD-01: the caster level for the Chromatic Orb's {key} is not given (REF-46); "
                                "the base spell is in Unearthed Arcana (EXT-24)")
    raise MiddleSeaError(f"the Chromatic Orb keeps only {', '.join(ORB_KEEPS)}, not {power!r}")
