"""The Hazards chapter's commands on a campaign (RULES.md PART H): poison and drugs, sleep, mapping,
languages, the scene the referee describes, and the surprise roll that a party's light spoils.

Each finds the member (by name or id), runs the chapter's rule under the campaign's rules and returns the facts
to log; what lasts goes on the campaign's clock (the hours a character sleeps are counted as each 24-hour period
closes, H-SLEEP-01). A drink is `campaign.saving.drinking`, which both chapters count. A switched-off module is
refused by the chapter's own rule (`OptionOffError`).

    poisoning   H-POIS-01, H-DRUG-01   a save vs. poison, or the toxin's one effect (a drug taken: no save)
    sleeping    H-SLEEP-01             how many hours a day she sleeps from now (−1 a day under 4)
    mapping     H-MAP-01               paper, ink and two free hands
    speaking    H-LANG-01..03          her starting tongues and literacy, then a language met in play
    describing  H-TRAV-04, H-MAP-02, H-LIGHT-01/04   the terrain, a room, how far the party sees
    surprising  F-SURP-01, H-LIGHT-03  the surprise roll, with the party's light read from the clock
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from furnace.campaign.commands import on_member, rules_of
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Command
from furnace.campaign.timekeeping import ClockFn, for_member
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.play.clock import Campaign as ClockView
from furnace.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from furnace.hazards.poison import Toxin

MAX_HOURS = 24
# she sleeps `hours` a day from now (the day's sleep is counted as it closes)
SLEEPS = declare("sleeps", hours="actor", example={"hours": 3})
# the surprise roll: each side's d6 (`party`, `enemies`: {roll, surprised, given_away}), the `chance` in 6, and
# the side that acts alone first (`free_turn`: party, enemies, or none)
SURPRISE = declare("surprise_roll", party="public", enemies="public", chance="public", free_turn="public",
                   example={"party": {"roll": 5, "surprised": False, "given_away": False},
                            "enemies": {"roll": None, "surprised": False, "given_away": True},
                            "chance": 2, "free_turn": None})


def poisoning(who: str, toxin: Toxin, rng: DiceSource, *, taken: bool = False) -> Command:
    """H-POIS-01: a save vs. poison or the toxin's whole effect; H-DRUG-01: a drug taken on purpose, no save."""
    from furnace.hazards.poison import poison

    return on_member(who, lambda c, rules: poison(c, toxin, rng, rules, intentional=taken))


def sleeping(who: str, hours: float) -> Command:
    """H-SLEEP-01: she sleeps `hours` in each 24-hour period from now; the day's close counts it (put on the
    clock now if nothing counts her needs yet)."""
    if isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 <= hours <= MAX_HOURS:
        raise CampaignError(f"she sleeps 0 to {MAX_HOURS} hours a day, not {hours!r}")
    return for_member(who, lambda name: _sleep(name, hours))


def _sleep(name: str, hours: float) -> ClockFn:
    from furnace.hazards.common import require
    from furnace.hazards.needs import record_needs, schedule_daily_needs

    def fn(view: ClockView, rules: Ruleset) -> tuple[ClockView, list[Event]]:
        require(rules, "hazards_sleep", "H-SLEEP-01", "sleep deprivation")
        character = record_needs(view.characters[name], slept_hours=hours)
        view = view.model_copy(update={"characters": {**view.characters, name: character}})
        events = [fact(SLEEPS, character, (), ("H-SLEEP-01",), hours=hours)]
        if not any(e.kind == "daily_needs" and e.owner == name for e in view.clock.entries):
            view, scheduled = schedule_daily_needs(view, name, rules)
            events += scheduled
        return view, events

    return fn


def mapping(who: str, held: Sequence[str] = ()) -> Command:
    """H-MAP-01: can she map, with her paper and ink (her items) and what fills her hands?"""
    from furnace.hazards.mapping import can_map

    def rule(c: Character, rules: Ruleset) -> tuple[Character, list[Event]]:
        return c, [can_map(c, held, rules).event()]

    return on_member(who, rule)


def speaking(who: str, language: str, kind: str, rng: DiceSource, local: str = "Common") -> Command:
    """H-LANG-01/02 the first time: her native tongue (and clan tongue) and literacy; then H-LANG-03: does she
    know the language met (one attempt, ever, kept on her)?"""
    from furnace.hazards.languages import know_language, native_tongues

    def rule(c: Character, rules: Ruleset) -> tuple[Character, list[Event]]:
        c, tongues = native_tongues(c, rules, local)
        c, met = know_language(c, language, kind, rng, rules)
        return c, tongues + met

    return on_member(who, rule)


def describing(tell: Callable[[ClockView, Ruleset], Event]) -> Command:
    """A fact of the scene (`furnace.hazards.scene`) from the campaign as it is, logged; nothing changes."""
    from furnace.campaign.timekeeping import clock_view

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        view, _ = clock_view(state)
        return state, [tell(view, rules_of(state))]

    return run


def surprising(rng: DiceSource, *, enemies_lit: bool = False) -> Command:
    """F-SURP-01 (D-3): each side's d6; H-LIGHT-03: a side whose light burns (the party's: a light on the clock)
    cannot surprise, so the other side's die is not rolled."""
    from furnace.hazards.light import party_lit
    from furnace.play.surprise import surprise

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        rules = rules_of(state)
        result = surprise(rng, rules, party_lit(state.clock_campaign()), enemies_lit=enemies_lit)
        sides = {"party": result.party, "enemies": result.enemies}
        data = {key: {"roll": s.roll.total if s.roll else None, "surprised": s.surprised, "given_away": s.roll is None}
                for key, s in sides.items()}
        turn = {result.party.side: "party", result.enemies.side: "enemies"}.get(result.free_turn or "")
        rolls = tuple(s.roll for s in sides.values() if s.roll is not None)
        cite = ("F-SURP-01", "D-3") + (("H-LIGHT-03", "CF-51") if len(rolls) < len(sides) else ())
        return state, [Event(SURPRISE, "", (), rolls, {**data, "chance": result.chance, "free_turn": turn}, cite)]

    return run
