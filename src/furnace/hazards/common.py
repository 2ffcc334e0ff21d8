"""What every Hazards rule shares: the ruleset, the module's state on a character, and the hazard SAVE.

A Hazards function that is given no ruleset uses the `hazards` profile. Each module of the chapter is
switched by its own option (`hazards_travel`, `hazards_disease` …); calling a switched-off rule raises
`OptionOffError`. State lives in `character.extensions["hazards"]` as plain JSON values and is copied,
never changed in place, so the public API stays immutable.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from furnace.characters.character import Character
from furnace.dice import DiceSource
from furnace.errors import UnknownNameError
from furnace.events import Event
from furnace.play.checks import CheckResult, Modifier, OptionOffError, check, plain_dc
from furnace.rules.effects import Ability
from furnace.rules.ruleset import Ruleset, load_ruleset

if TYPE_CHECKING:
    from furnace.play.clock import Campaign, Fire

KEY = "hazards"
Category = Literal["poison", "paralysis", "death", "fear"]


@cache
def hazards_rules() -> Ruleset:
    """The `hazards` profile, loaded once."""
    return load_ruleset("hazards")


def ruleset(rules: Ruleset | None) -> Ruleset:
    return hazards_rules() if rules is None else rules


def require(rules: Ruleset, option: str, rule: str, what: str) -> None:
    if not rules[option]:
        raise OptionOffError(option, rule, what)


def member(campaign: Campaign, name: str) -> Character:
    """A character of the campaign, or an UnknownNameError naming those there are."""
    if name not in campaign.characters:
        raise UnknownNameError("character", name, sorted(campaign.characters))
    return campaign.characters[name]


# -- the module's state on a character ------------------------------------------------------------------------
def state(character: Character) -> dict[str, Any]:
    """A private copy of the character's Hazards state."""
    return copy.deepcopy(dict(character.extensions.get(KEY, {})))


def with_state(character: Character, **changes: Any) -> Character:
    new = {**state(character), **copy.deepcopy(changes)}
    return character.model_copy(update={"extensions": {**character.extensions, KEY: new}})


# -- saves outside an encounter (D-5, AMB-05, AMB-82) ----------------------------------------------------------
def sleep_penalty(character: Character) -> int:
    """H-SLEEP-01, AMB-76: −N to every roll after N days in a row with under 4 hours of sleep."""
    return -int(state(character).get("short_sleep_days", 0))


def situational(character: Character) -> list[Modifier]:
    """What the character's state adds to every SAVE: drunk −2 (H-DRUG-02), short of sleep −N (H-SLEEP-01)."""
    mods = []
    if "DRUNK" in character.conditions:
        mods.append(Modifier(-2, "drunk (H-DRUG-02)"))
    if sleep_penalty(character):
        mods.append(Modifier(sleep_penalty(character), "short of sleep (H-SLEEP-01)"))
    return mods


def save_ability(category: Category, rules: Ruleset) -> Ability:
    """D-5: 'save vs. X' is the Furnace ability SAVE named by the option save_vs_X."""
    ability: Ability = rules[f"save_vs_{category}"]
    return ability


def hazard_save(character: Character, category: Category, rng: DiceSource, rules: Ruleset, why: str,
                extra: Sequence[Modifier] = (), dc: int | None = None) -> CheckResult:
    """d20 + ability + PROF (if proficient) + situational modifiers vs hazard_save_dc (or the given DC)."""
    ability = save_ability(category, rules)
    mods = [Modifier(character.mod(ability), ability)]
    if ability in character.saves:
        mods.append(Modifier(character.prof(rules), "PROF"))
    if ability == "DEX" and state(character).get("drunk", {}).get("dex_mod"):
        mods.append(Modifier(-2, "drunk: DEX modifier (drunk_dex_penalty)"))
    mods += [*extra, *situational(character)]
    target = plain_dc(int(rules["hazard_save_dc"]) if dc is None else dc)
    label = f"{character.name} {ability} SAVE vs {category}: {why}"
    return check(rng, target, mods, kind="SAVE", label=label, rules=rules)


def save_event(kind: str, character: Character, result: CheckResult, what: str, **data: Any) -> Event:
    """An event for one SAVE, with its roll, its total, its DC and what it means."""
    verdict = "saves" if result.success else "fails"
    summary = {"total": result.total, "dc": result.dc.value, "success": result.success,
               "natural": result.natural, "modifiers": [m.to_dict() for m in result.modifiers],
               "explanation": result.explain()}
    mods = "".join(f" {m.explain()}" for m in result.modifiers)
    sums = f"d20 {result.natural}{mods} = {result.total} vs DC {result.dc.value}"
    return Event(kind, character.name, f"{verdict} the {what}: {sums}", (result.roll,), data={**data, "save": summary})


# -- events fired by the clock ----------------------------------------------------------------------------------
def stamp(fire: Fire, events: Iterable[Event]) -> None:
    """Add a handler's events to the clock's log, each with the moment it happened."""
    now = fire.campaign.clock.now
    for e in events:
        fire.events.append(replace(e, data={"time": fire.campaign.clock.describe(), "at": now, **e.data}))
