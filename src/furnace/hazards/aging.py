"""Aging (H-AGE-01..03, H-TAB-01, AMB-71, AMB-72).

From the race's starting age, and every `interval` years after, a character makes a save vs. paralysis
(D-5: the ability of save_vs_paralysis, CON) against hazard_save_dc, at −2 from the "−2" age and −4 from the
"−4" age (inclusive by default: option aging_thresholds). A failure lowers a random ability (1d6 over STR,
DEX, CON, INT, WIS, CHA) by 1 for good. Magical aging rolls at once every save whose age lies in (old, new].
A Half-orc uses the row named by the option half_orc_aging_race (CF-43).
"""

from __future__ import annotations

from typing import NamedTuple

from furnace import dice
from furnace.characters.character import Character, CharacterError
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
)
from furnace.hazards.scores import lose
from furnace.play.checks import Modifier
from furnace.play.clock import Campaign, Fire, handler, schedule, unit_seconds
from furnace.rules.effects import ABILITIES
from furnace.rules.ruleset import Ruleset

# the facts of aging, and who may know each value
AGING = declare("aging", before="actor", after="actor", magical="public", saves="actor", row="public", race="public",
                example={"before": 38, "after": 45, "magical": True, "saves": [40, 41], "row": "human",
                         "race": "Half-orc"})
AGING_SAVE = declare_save("aging_save", age="actor", penalty="actor",
                          example={"category": "paralysis", "age": 50, "penalty": -2, "total": 10,
                                   "modifiers": [{"value": 1, "source": "CON"}, {"value": -2, "source": "age 50"}]})
AGING_LOSS = declare("aging_loss", ability="public", example={"ability": "INT"})
AGING_SCHEDULED = declare("aging_scheduled", age="actor", race="public", entry="referee",
                          example={"age": 39, "race": "Human"})


class AgingRow(NamedTuple):
    race: str
    start: int
    minus_2: int
    minus_4: int
    interval: int


class AgingSave(NamedTuple):
    age: int
    penalty: int


def aging_row(race: str, rules: Ruleset) -> AgingRow:
    """The H-TAB-01 row for a race (a Half-orc: the row of half_orc_aging_race)."""
    key = str(rules["half_orc_aging_race"]) if race.lower() == "half-orc" else race
    row = rules.tables.get("aging").lookup(key)
    d = row.data
    return AgingRow(str(row.key), int(d["start"]), int(d["minus_2"]), int(d["minus_4"]), int(d["interval_years"]))


def penalty_at(row: AgingRow, age: int, rules: Ruleset) -> int:
    """AMB-71: 0 below the −2 age, −2 from it, −4 from the −4 age (exclusive: from the year after)."""
    inclusive = rules["aging_thresholds"] == "inclusive"

    def past(limit: int) -> bool:
        return age >= limit if inclusive else age > limit

    return -4 if past(row.minus_4) else -2 if past(row.minus_2) else 0


def saves_due(race: str, old_age: int, new_age: int, rules: Ruleset | None = None) -> list[AgingSave]:
    """The aging saves of the ages in (old_age, new_age]: start, start + interval … (AMB-71, AMB-72)."""
    rules = ruleset(rules)
    row = aging_row(race, rules)
    first = max(old_age + 1, row.start)
    return [AgingSave(age, penalty_at(row, age, rules)) for age in range(first, new_age + 1)
            if (age - row.start) % row.interval == 0]


def age_character(character: Character, years: int, rng: DiceSource, rules: Ruleset | None = None,
                  magical: bool = False) -> tuple[Character, list[Event]]:
    """Add `years` to the age and roll every aging save that falls due (H-AGE-01; all at once, H-AGE-03)."""
    rules = ruleset(rules)
    require(rules, "hazards_aging", "H-AGE-01", "aging saves")
    if character.age is None:
        raise CharacterError(f"{character.name} has no age; set it before aging her")
    if years < 0:
        raise CharacterError("aging goes forward only")
    old, new = character.age, character.age + years
    due = saves_due(character.race, old, new, rules)
    row = aging_row(character.race, rules).race
    cite = ("H-AGE-01", "AMB-72") + (("H-AGE-03",) if magical else ()) + \
        (("CF-43",) if row.lower() != character.race.lower() else ())
    events = [fact(AGING, character, (), cite, before=old, after=new, magical=magical, saves=[s.age for s in due],
                   row=row, race=character.race)]
    character = character.model_copy(update={"age": new})
    for save in due:
        character, rolled = aging_save(character, save, rng, rules)
        events += rolled
    return character, events


def aging_save(character: Character, save: AgingSave, rng: DiceSource, rules: Ruleset,
               ) -> tuple[Character, list[Event]]:
    """One save (H-AGE-01); a failure: 1d6 picks the ability that loses 1 point for good (H-AGE-02)."""
    if not character.alive:
        return character, []
    extra = [Modifier(save.penalty, f"age {save.age}")] if save.penalty else []
    result = hazard_save(character, "paralysis", rng, rules, f"aging at {save.age}", extra)
    cite = ("H-AGE-01", "H-TAB-01", "AMB-71") if save.penalty else ("H-AGE-01",)
    events = [save_event(AGING_SAVE, character, result, "paralysis", rules, cite, age=save.age, penalty=save.penalty)]
    character, luck_events = counted(character, result, rules)
    events += luck_events
    if result.success:
        return character, events
    pick = dice.roll("1d6", rng, label="ability")
    ability = ABILITIES[pick.total - 1]
    events.append(fact(AGING_LOSS, character, (pick,), ("H-AGE-02",), ability=ability))
    character, lost = lose(character, ability, 1, rules, "aging", "permanent", ("H-AGE-02",))
    return character, events + lost


def schedule_aging(campaign: Campaign, name: str, rules: Ruleset | None = None) -> tuple[Campaign, list[Event]]:
    """Put a yearly "aging" entry on the clock: each year the character is a year older and saves if due."""
    rules = ruleset(rules)
    require(rules, "hazards_aging", "H-AGE-01", "aging saves")
    character = member(campaign, name)
    if character.age is None:
        raise CharacterError(f"{name} has no age; set it before aging her")
    year = unit_seconds("year", rules)
    campaign, entry = schedule(campaign, "aging", after=year, owner=name, every=year, label=f"{name} ages a year")
    return campaign, [about(AGING_SCHEDULED, campaign, name, (), ("H-AGE-01",), entry=entry, age=character.age,
                            race=character.race)]


@handler("aging")
def _aging(fire: Fire) -> None:
    character = fire.character()
    if not character.alive or character.age is None or not fire.rules["hazards_aging"]:
        fire.stop_repeating()
        return
    character, events = age_character(character, 1, fire.rng, fire.rules)
    fire.put(character)
    stamp(fire, events)
