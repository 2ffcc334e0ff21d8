"""Recovery of hit points (RULES.md M.2): M-HEAL-01 post-combat recovery, M-HEAL-02 hourly rest below half,
M-HEAL-03 a full day of rest at or above half (AMB-90; D-7 ends the 'until rest' effects).

Importing the module registers the `middle-sea` healing model of `furnace.play.rest`: post_combat, hour, day
(CF-32).
"""

from __future__ import annotations

import math
from fractions import Fraction

from furnace import dice
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource, RollResult
from furnace.events import Event, declare
from furnace.houserules.middle_sea.common import MiddleSeaError, _alive, _rules, state_of, with_state
from furnace.play.rest import HEALING_MODELS, rest_ends
from furnace.rules.ruleset import Ruleset

# a recovery of HP by M-HEAL-01..03: `how` post_combat (a hit die up to the HP she entered the combat with,
# `start`), hour (below half, an hour's hit die), day (a full day at or above half); or, with no roll, no_loss (she
# lost no HP in the combat) or at_half (an hour at or above half heals nothing)
RECOVERY = declare("middle_sea_recovery", how="public", amount="actor", hp_before="actor", hp_after="actor",
                   hp_max="actor", cap="actor", start="actor",
                   example={"how": "post_combat", "amount": 7, "hp_before": 10, "hp_after": 17, "hp_max": 40, "cap": 25,
                            "start": 25})
RECOVERY_RULES = {"post_combat": ("M-HEAL-01", "AMB-90"), "no_loss": ("M-HEAL-01",), "hour": ("M-HEAL-02", "AMB-90"),
                  "at_half": ("M-HEAL-03",), "day": ("M-HEAL-03",)}


def half_hp(character: Character, rules: Ruleset) -> int:
    """'At least half' the hit points (option half_hp_rounding, AMB-90): ceil or floor of max / 2."""
    half = Fraction(character.hp_max, 2)
    return math.ceil(half) if rules["half_hp_rounding"] == "ceil" else math.floor(half)


def _hit_die(character: Character, rng: DiceSource, rules: Ruleset) -> RollResult:
    return dice.roll(character.hit_die(rules), rng, label="Hit Die")


def _healed(character: Character, roll: RollResult, cap: int, how: str, **more: int) -> tuple[Character, Event]:
    """Heal the roll up to `cap` (no CON, AMB-90 d); HP already above the cap are not taken away."""
    hp = max(character.hp, min(cap, max(character.hp, 0) + roll.total))
    event = fact(RECOVERY, character, (roll,), RECOVERY_RULES[how], how=how, amount=roll.total, hp_before=character.hp,
                 hp_after=hp, hp_max=character.hp_max, cap=cap, **more)
    return character.model_copy(update={"hp": hp}), event


def enter_combat(character: Character) -> Character:
    """Record the HP a character has as a combat begins: the post-combat roll stops there (AMB-90 a)."""
    return with_state(character, {**state_of(character), "hp_at_combat_start": character.hp})


def post_combat(character: Character, rng: DiceSource, rules: Ruleset | None = None,
                hp_at_start: int | None = None) -> tuple[Character, list[Event]]:
    """M-HEAL-01: after a combat in which it lost HP, one hit-die roll, capped at the HP it entered with."""
    rules = _rules(rules)
    _alive(character)
    state = state_of(character)
    recorded = state.pop("hp_at_combat_start", None)
    start = hp_at_start if hp_at_start is not None else recorded
    if start is None:
        raise MiddleSeaError(f"{character.name}: no HP recorded at the start of the combat; call enter_combat "
                             "when it begins or pass hp_at_start (M-HEAL-01)")
    after = with_state(character, state)
    if character.hp >= start:
        return after, [fact(RECOVERY, character, (), RECOVERY_RULES["no_loss"], how="no_loss",
                            hp_before=character.hp, hp_after=character.hp, start=start)]
    roll = _hit_die(character, rng, rules)
    after, event = _healed(after, roll, min(start, character.hp_max), "post_combat", start=start)
    return after, [event]


def _hour(character: Character, rng: DiceSource, rules: Ruleset, half: int) -> tuple[Character, Event]:
    cap = character.hp_max if rules["middle_sea_hourly_cap"] == "max_hp" else half
    roll = _hit_die(character, rng, rules)
    return _healed(character, roll, cap, "hour")


def _end_of_rest(character: Character, events: list[Event], rng: DiceSource, rules: Ruleset, *, full_day: bool,
                 ) -> tuple[Character, list[Event]]:
    """The Furnace rest's own ends (`furnace.play.rest.rest_ends`): an hour is a short rest (its 'until rest'
    effects end only under until_rest_ends_at any_rest, D-7); a full day a long one, a day toward the torso wound
    (D-8) with the long-rest hooks."""
    return rest_ends(character, rng, rules, events, long=full_day, days=1 if full_day else 0), events


def rest_hour(character: Character, rng: DiceSource, rules: Ruleset | None = None,
              ) -> tuple[Character, list[Event]]:
    """M-HEAL-02: below half HP, an hour of rest gives one more hit-die roll; it may overshoot half (AMB-90)."""
    rules = _rules(rules)
    _alive(character)
    half = half_hp(character, rules)
    if character.hp >= half:
        events = [fact(RECOVERY, character, (), RECOVERY_RULES["at_half"], how="at_half", hp_before=character.hp,
                       hp_after=character.hp, hp_max=character.hp_max)]
    else:
        character, event = _hour(character, rng, rules, half)
        events = [event]
    return _end_of_rest(character, events, rng, rules, full_day=False)


def rest_day(character: Character, rng: DiceSource, rules: Ruleset | None = None,
             ) -> tuple[Character, list[Event]]:
    """M-HEAL-03: at or above half HP, a full day of rest gives one hit-die roll, capped at the maximum.

    A day begun below half is spent in hourly rests (M-HEAL-02) until half is reached; the daily roll
    starts with the next day (the day was not spent at half)."""
    rules = _rules(rules)
    _alive(character)
    half = half_hp(character, rules)
    events: list[Event] = []
    if character.hp < half:
        for _ in range(24):
            character, event = _hour(character, rng, rules, half)
            events.append(event)
            if character.hp >= half:
                break
    elif character.hp < character.hp_max:
        roll = _hit_die(character, rng, rules)
        character, event = _healed(character, roll, character.hp_max, "day")
        events.append(event)
    return _end_of_rest(character, events, rng, rules, full_day=True)


HEALING_MODELS.add("middle-sea", {"post_combat": post_combat, "hour": rest_hour, "day": rest_day})
