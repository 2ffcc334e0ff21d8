"""Hunger, thirst and sleep (H-STARV-01..05, H-SLEEP-01, H-TAB-06, AMB-75, AMB-76).

Each character's needs are kept in extensions["hazards"]["needs"] = {ate, drank, slept_hours}: how she is
living now, until the referee records otherwise (a missing record means fed, watered and rested). A daily
"daily_needs" entry on the clock closes each 24-hour period:

- no food: save vs. poison (D-5: CON) or CON −1 (H-STARV-02);
- no water: save vs. poison or CON halved, rounded down (H-STARV-03, option dehydration_rounding);
- the third failed thirst save kills (AMB-75; option deprivation_death_counts = all_deprivation counts the
  hunger saves too); the count runs until the lost CON has come back (H-STARV-05: 2 points a week);
- under 4 hours of sleep: −1 to all rolls, −1 more for each further day, until a night of 4+ hours
  (H-SLEEP-01, AMB-76). The day's saves are rolled with the penalty as it stood that morning.
"""

from __future__ import annotations

from typing import Any

from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.hazards.common import (
    about,
    counted,
    declare_save,
    hazard_save,
    member,
    require,
    ruleset,
    save_event,
    stamp,
    state,
    with_state,
)
from furnace.hazards.scores import kill, lose, set_score
from furnace.play.clock import DAY, Campaign, Fire, handler, schedule
from furnace.rules.ruleset import Ruleset

WELL = {"ate": True, "drank": True, "slept_hours": 8}
MIN_SLEEP = 4

# the facts of hunger, thirst and sleep, and who may know each value
NEEDS = declare("needs", entry="referee")
HUNGER_SAVE = declare_save("hunger_save")
THIRST_SAVE = declare_save("thirst_save")
SLEEP = declare("sleep", hours="actor", penalty_before="actor", penalty="actor", percent="actor",
                example={"hours": 3, "penalty_before": -1, "penalty": -2, "percent": -20})


def needs(character: Character) -> dict[str, Any]:
    return {**WELL, **state(character).get("needs", {})}


def record_needs(character: Character, *, ate: bool | None = None, drank: bool | None = None,
                 slept_hours: float | None = None) -> Character:
    """H-STARV-01: record how the character eats, drinks and sleeps from now on."""
    given = {"ate": ate, "drank": drank, "slept_hours": slept_hours}
    return with_state(character, needs={**needs(character), **{k: v for k, v in given.items() if v is not None}})


def food_counted(rules: Ruleset) -> None:
    """H-STARV-01/02: rations are counted only where the rules count hunger, so that a day without food always
    brings its save; under rules that do not (option hazards_starvation off) giving rations is refused, saying why."""
    require(rules, "hazards_starvation", "H-STARV-02", "Counting rations and hunger")


def schedule_daily_needs(campaign: Campaign, name: str, rules: Ruleset | None = None,
                         ) -> tuple[Campaign, list[Event]]:
    """Close every 24-hour period from now with the hunger, thirst and sleep rules."""
    ruleset(rules)
    member(campaign, name)
    campaign, entry = schedule(campaign, "daily_needs", after=DAY, owner=name, every=DAY,
                               label=f"{name}: food, water and sleep")
    return campaign, [about(NEEDS, campaign, name, (), ("H-STARV-01",), entry=entry)]


def daily_needs(character: Character, rng: DiceSource, rules: Ruleset | None = None,
                ) -> tuple[Character, list[Event]]:
    """One 24-hour period: hunger, then thirst, then sleep."""
    rules = ruleset(rules)
    events: list[Event] = []
    today = needs(character)
    if rules["hazards_starvation"]:
        if not today["ate"]:
            character, new = _deprived(character, "hunger", rng, rules)
            events += new
        if not today["drank"]:
            character, new = _deprived(character, "thirst", rng, rules)
            events += new
    if rules["hazards_sleep"] and character.alive:
        least = float(rules.tables.get("deprivation").lookup("no-sleep").data["minimum_sleep_hours"])
        character, new = _sleep(character, float(today["slept_hours"]), least)
        events += new
    return character, events


def _deprived(character: Character, want: str, rng: DiceSource, rules: Ruleset) -> tuple[Character, list[Event]]:
    if not character.alive:
        return character, []
    rule = "H-STARV-02" if want == "hunger" else "H-STARV-03"
    result = hazard_save(character, "poison", rng, rules, f"a day without {'food' if want == 'hunger' else 'water'}")
    events = [save_event(HUNGER_SAVE if want == "hunger" else THIRST_SAVE, character, result, "poison", rules,
                         (rule,))]
    character, luck_events = counted(character, result, rules)
    events += luck_events
    if result.success:
        return character, events
    character, lost = _cost(character, want, rules)
    events += lost
    failures = _count_failure(character, want, rules)
    character = with_state(character, failed_deprivation_saves=failures)
    limit = int(rules.tables.get("deprivation").lookup("third-failure").data["failed_saves"])
    if failures >= limit and character.alive:
        character, died = kill(character, "deprivation", ("H-STARV-04", "AMB-75"), failures=failures)
        events += died
    return character, events


def _cost(character: Character, want: str, rules: Ruleset) -> tuple[Character, list[Event]]:
    if want == "hunger":
        return lose(character, "CON", 1, rules, "a day without food", "deprivation", ("H-STARV-02",))
    con = character.scores["CON"]
    half = con // 2 if rules["dehydration_rounding"] == "floor" else -(-con // 2)
    return set_score(character, "CON", half, rules, "a day without water: halved", "deprivation", ("H-STARV-03",))


def _count_failure(character: Character, want: str, rules: Ruleset) -> int:
    """AMB-75: the failures that count toward death: thirst only, or both (deprivation_death_counts)."""
    so_far = int(state(character).get("failed_deprivation_saves", 0))
    counts = want == "thirst" or rules["deprivation_death_counts"] == "all_deprivation"
    return so_far + 1 if counts else so_far


def _sleep(character: Character, hours: float, least: float = MIN_SLEEP) -> tuple[Character, list[Event]]:
    days = int(state(character).get("short_sleep_days", 0))
    if hours >= least:
        if not days:
            return character, []
        return with_state(character, short_sleep_days=0), [fact(SLEEP, character, (), ("H-SLEEP-01",), hours=hours,
                                                                penalty_before=-days, penalty=0, percent=0)]
    after = with_state(character, short_sleep_days=days + 1)
    return after, [fact(SLEEP, character, (), ("H-SLEEP-01", "AMB-76"), hours=hours, penalty_before=-days,
                        penalty=-(days + 1), percent=-10 * (days + 1))]


@handler("daily_needs")
def _daily_needs(fire: Fire) -> None:
    character = fire.character()
    if not character.alive:
        fire.stop_repeating()
        return
    character, events = daily_needs(character, fire.rng, fire.rules)
    fire.put(character)
    stamp(fire, events)
