"""Religion and orisons (RULES.md M.7, M-TAB-06): M-ORIS-01 who may use orisons (AMB-102), M-ORIS-02 one a day for
a priest without a class, M-ORIS-03 trading a 1st-level slot (needs middle_sea_magic, CF-42), M-ORIS-04 the free
daily orison, and M-REL-01 only a priest with a class casts (REF-48). What each orison does is Dragon #108's
(EXT-25, a plug-in point in `external`): `perform` counts the orisons a character performs today (kept in her
Middle Sea state, `orisons`) and refuses one past her day's number; a new in-game day starts the count again
(`new_day`, from the campaign clock's day end).
"""

from __future__ import annotations

from dataclasses import dataclass

from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.events import Event, declare
from furnace.houserules.middle_sea.common import MiddleSeaError, _alive, _rules, state_of, with_state
from furnace.rules.ruleset import Ruleset

CLERICAL_OR_DRUIDIC = ("cleric", "druid", "paladin", "ranger")
# an orison performed: its name, the orisons performed today with it (`used`) of the day's number (`per_day`)
ORISON = declare("orison", orison="public", used="actor", per_day="actor",
                 example={"orison": "Bless", "used": 1, "per_day": 1})


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


def performed_today(character: Character) -> int:
    """The orisons she has performed since the day began (M-ORIS-02/04)."""
    return int(state_of(character).get("orisons", {}).get("used", 0))


PRIESTLY = ("Acolyte", "Wandering friar")      # the occupations (X-TAB-01) of a priest without a class


def perform(character: Character, orison: str, rules: Ruleset | None = None, *, polytheist: bool = False,
            slots_traded: int = 0, priest: bool = False) -> tuple[Character, list[Event]]:
    """She performs an orison: within her day's number (`orisons_per_day`: one for a priest without a class,
    M-ORIS-02; a classed caster's free one, M-ORIS-04, and two for each 1st-level slot she traded, M-ORIS-03), and
    one a priest without a class may use (M-ORIS-01). Without a class she must be a priest: an Acolyte or a wandering
    friar, or one the referee names (`priest`). Refused past the day's number, with the count."""
    rules = _rules(rules)
    _alive(character)
    name = orison.strip()
    if not name or len(name) > 60 or not name.isprintable():
        raise MiddleSeaError("an orison is named in one line of at most 60 characters")
    classed = character.char_class is not None
    occupation = character.occupation.name if character.occupation else ""
    if not classed and not priest and occupation not in PRIESTLY:
        raise MiddleSeaError(f"{character.name} has no class and is no priest: only a priest without a class performs "
                             "orisons (M-ORIS-02); the referee may say she is one (--priest)")
    if not may_use_orison(name, classed=classed, polytheist=polytheist, rules=rules):
        raise MiddleSeaError(f"{name} is a magical effect a priest without a class may not use (M-ORIS-01)")
    per_day = orisons_per_day(character.char_class, classed=classed, polytheist=polytheist,
                              slots_traded=slots_traded, rules=rules)
    used = performed_today(character)
    if used >= per_day:
        who = character.char_class or "a priest without a class"
        raise MiddleSeaError(f"{character.name} has performed {used} of {per_day} orison(s) today ({who}, "
                             "M-ORIS-02..04): the next comes with a new day")
    state = state_of(character)
    state["orisons"] = {"used": used + 1}
    ids = ("M-ORIS-04", *(("M-ORIS-03",) if slots_traded else ())) if classed else ("M-ORIS-01", "M-ORIS-02")
    return with_state(character, state), [fact(ORISON, character, (), ids, orison=name, used=used + 1,
                                               per_day=per_day)]


def new_day(character: Character) -> Character:
    """A new in-game day: the orisons are counted from none again."""
    state = state_of(character)
    if "orisons" not in state:
        return character
    state.pop("orisons")
    return with_state(character, state)
