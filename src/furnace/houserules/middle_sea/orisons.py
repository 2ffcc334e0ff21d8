"""Religion and orisons (RULES.md M.7, M-TAB-06): M-ORIS-01 who may use orisons (AMB-102), M-ORIS-02 one a day for
a priest without a class, M-ORIS-03 trading a 1st-level slot (needs middle_sea_magic, CF-42), M-ORIS-04 the free
daily orison, and M-REL-01 only a priest with a class casts (REF-48). Data queries only: the orisons themselves
are Dragon #108's (EXT-25, a plug-in point in `external`).
"""

from __future__ import annotations

from dataclasses import dataclass

from furnace.houserules.middle_sea.common import MiddleSeaError, _rules
from furnace.rules.ruleset import Ruleset

CLERICAL_OR_DRUIDIC = ("cleric", "druid", "paladin", "ranger")


@dataclass(frozen=True)
class OrisonAccess:
    caster: str
    orison_list: str
    excluded: tuple[str, ...]
    per_day: int
    reading: str | None = None


def orison_access(polytheist: bool = False, rules: Ruleset | None = None) -> OrisonAccess:
    """M-ORIS-01/02, AMB-102: a priest without a class — which list, what is excluded, one a day."""
    rules = _rules(rules)
    key = "non-classed-polytheist-priest" if polytheist else "non-classed-priest"
    data = rules.tables.get("orisons").lookup(key).data
    excluded, reading = list(data["excluded"]), data.get("reading")
    alternative = data.get("alternative") or {}
    if alternative and rules["druidic_orison_reading"] == alternative.get("reading"):
        excluded, reading = list(alternative["excluded"]), alternative["reading"]
    return OrisonAccess(key, str(data["list"]), tuple(excluded), int(data["per_day"]), reading)


def may_use_orison(orison: str, *, classed: bool = False, polytheist: bool = False,
                   rules: Ruleset | None = None) -> bool:
    """M-ORIS-01: a non-classed priest may not use the excluded (magical) orisons; a classed caster's list is
    Dragon #108's (EXT-25), which this module does not hold."""
    if classed:
        return True
    return orison.strip().lower() not in {o.lower() for o in orison_access(polytheist, rules).excluded}


def orisons_per_day(char_class: str | None = None, *, classed: bool = True, polytheist: bool = False,
                    slots_traded: int = 0, rules: Ruleset | None = None) -> int:
    """M-ORIS-02..04: 1 a day for a priest without a class; 1 free a day for Clerics, Paladins, Druids, Monks and
    Illusionists; 2 per 1st-level slot a clerical or druidic caster trades (needs middle_sea_magic, CF-42)."""
    rules = _rules(rules)
    if slots_traded < 0:
        raise MiddleSeaError("slots traded are 0 or more")
    if not classed:
        if slots_traded:
            raise MiddleSeaError("a priest without a class has no spell slots to trade (M-ORIS-03)")
        return orison_access(polytheist, rules).per_day
    table = rules.tables.get("orisons")
    free = table.lookup("free-orison").data
    cls = (char_class or "").strip().lower()
    count = int(free["free_per_day"]) if cls in {c.lower() for c in free["classes"]} else 0
    if slots_traded:
        if not rules["middle_sea_magic"]:
            raise MiddleSeaError("trading a 1st-level spell slot for orisons needs AD&D spell slots: turn on "
                                 "middle_sea_magic (CF-42, M-ORIS-03)")
        if cls not in CLERICAL_OR_DRUIDIC:
            raise MiddleSeaError(f"only clerical or druidic casters trade slots for orisons, not {char_class!r}")
        count += slots_traded * int(table.lookup("clerical-or-druidic-caster").data["orisons_per_first_level_slot"])
    return count


def priest_can_cast(classed: bool) -> bool:
    """M-REL-01, REF-48: only a priest with a class and level casts spells; don't assume any priest heals."""
    return classed
