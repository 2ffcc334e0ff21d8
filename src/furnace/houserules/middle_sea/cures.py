"""Cures for what a grievous injury leaves (RULES.md M.3): Cure Serious or Critical Wounds stops a fatal wound
(M-GRIEV-07, AMB-92); cauterising, a tourniquet or Cure Critical (never Cure Serious) stops the bleeding of a
severed limb (M-GRIEV-08); else either spell mends one broken bone (M-BONE-02); Lay on Hands counts as Cure
Serious once the referee approves (CF-47). No cure gives back HP; a cure takes its entry off the clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.errors import UnknownNameError
from furnace.events import Event, declare
from furnace.houserules.middle_sea.common import (
    MiddleSeaError,
    _alive,
    _member,
    _put,
    _rules,
    for_referee,
    state_of,
    with_state,
)
from furnace.play.clock import Campaign, cancel
from furnace.rules.ruleset import Ruleset

CURE_WORDS = (("cure serious", "cure_serious"), ("cure critical", "cure_critical"), ("cauter", "cauterise"),
              ("tourniquet", "tourniquet"), ("lay on hands", "lay_on_hands"))
STOPS = {"cure_serious": ("fatal_wound",), "cure_critical": ("bleeding", "fatal_wound"),
         "cauterise": ("bleeding",), "tourniquet": ("bleeding",)}
MENDS_BONES = ("cure_serious", "cure_critical")
# a cure (`cure` one of STOPS' keys) stops a death timer (`timer` fatal_wound or bleeding) or mends a break at
# `location` (`left` breaks there after it); no HP come back
CURE = declare("wound_cure", cure="public", timer="public", location="public", left="actor",
               example={"cure": "cure_serious", "timer": "", "location": "R. Leg", "left": 1})
# CF-47: Lay on Hands stands in for Cure Serious Wounds once the referee approves (the referee's question)
CURE_APPROVAL = declare("wound_cure_approval", cure="referee", stands_for="referee",
                        example={"cure": "lay_on_hands", "stands_for": "cure_serious"})


def cure_kind(spell: str) -> str:
    """'Cure Serious Wounds', 'cure_critical', 'cauterize', 'tourniquet', 'lay on hands' → one cure kind."""
    key = " ".join(spell.lower().replace("_", " ").replace("-", " ").split())
    for prefix, kind in CURE_WORDS:
        if key.startswith(prefix):
            return kind
    raise MiddleSeaError(f"unknown cure {spell!r}: use cure serious, cure critical, cauterise, tourniquet or "
                         "lay on hands")


def cure(campaign: Campaign, name: str, spell: str, *, location: str | None = None, rules: Ruleset | None = None,
         approved: bool = False) -> tuple[Campaign, list[Event]]:
    """One cure, no HP: Cure Serious or Critical stops a fatal wound (M-GRIEV-07); cauterising, a tourniquet
    or Cure Critical (never Cure Serious) stops bleeding (M-GRIEV-08); else either spell mends one break, at
    `location` when given (M-BONE-02). Lay on Hands counts as Cure Serious once the referee approves (CF-47)."""
    rules = _rules(rules)
    c = _member(campaign, name)
    _alive(c)
    kind = cure_kind(spell)
    if kind == "lay_on_hands":
        if not rules["loh_counts_as_cure_serious"]:
            raise MiddleSeaError("Lay on Hands does not stand in for Cure Serious Wounds here "
                                 "(option loh_counts_as_cure_serious)")
        if not approved:
            return campaign, [for_referee(fact(CURE_APPROVAL, c, (), ("CF-47",), cure=kind,
                                               stands_for="cure_serious"))]
        kind = "cure_serious"
    state = state_of(c)
    timer = None if location else _first_timer(state, STOPS.get(kind, ()))
    if timer is not None:
        return _stop_timer(campaign, c, state, timer, kind)
    if kind in MENDS_BONES:
        return _mend(campaign, c, state, _break_to_mend(c, state, location), kind)
    raise MiddleSeaError(_nothing_to_cure(c, state, kind))


def _first_timer(state: dict[str, Any], kinds: Sequence[str]) -> dict[str, Any] | None:
    for kind in kinds:
        for t in state.get("timers", []):
            if t["kind"] == kind:
                return dict(t)
    return None


def _stop_timer(campaign: Campaign, c: Character, state: dict[str, Any], timer: dict[str, Any], kind: str,
                ) -> tuple[Campaign, list[Event]]:
    entry = timer.get("entry")
    if entry is not None and any(e.id == entry for e in campaign.clock.entries):
        campaign = cancel(campaign, entry)
    timers = state.get("timers", [])
    timers.remove(next(t for t in timers if t == timer))
    update: dict[str, Any] = {}
    if timer["kind"] == "bleeding":
        update["conditions"] = [x for x in c.conditions if x != "BLEEDING"]
    c = with_state(c.model_copy(update=update), state)
    ids = ("M-GRIEV-08",) if timer["kind"] == "bleeding" else ("M-GRIEV-07", "AMB-92")
    return _put(campaign, c), [fact(CURE, c, (), ids, cure=kind, timer=timer["kind"])]


def _break_to_mend(c: Character, state: dict[str, Any], location: str | None) -> str:
    breaks = state.get("breaks", {})
    if location is not None and location not in breaks:
        raise UnknownNameError(f"broken bone of {c.name}", location, sorted(breaks))
    if location is not None:
        return location
    if len(breaks) == 1:
        return str(next(iter(breaks)))
    if breaks:
        raise MiddleSeaError(f"{c.name} has breaks in {', '.join(sorted(breaks))}: name the location to mend")
    raise MiddleSeaError(_nothing_to_cure(c, state, "cure_serious"))


def _mend(campaign: Campaign, c: Character, state: dict[str, Any], location: str, kind: str,
          ) -> tuple[Campaign, list[Event]]:
    bone = state["breaks"][location]
    bone["count"] -= 1
    left = bone["count"]
    update: dict[str, Any] = {}
    if left <= 0:
        del state["breaks"][location]
        update["injuries"] = [i for i in c.injuries if i != bone.get("injury")]
        entry = bone.get("entry")
        if entry is not None and any(e.id == entry for e in campaign.clock.entries):
            campaign = cancel(campaign, entry)
    c = with_state(c.model_copy(update=update), state)
    return _put(campaign, c), [fact(CURE, c, (), ("M-BONE-02",), cure=kind, location=location, left=max(0, left))]


def _nothing_to_cure(c: Character, state: dict[str, Any], kind: str) -> str:
    if kind == "cure_serious" and _first_timer(state, ("bleeding",)):
        return ("Cure Serious Wounds does not stop the bleeding of a severed limb: cauterise it, apply a tourniquet "
                "or cast Cure Critical Wounds (M-GRIEV-08)")
    return f"{c.name} has no fatal wound, bleeding or broken bone that {kind.replace('_', ' ')} treats"
