"""What every Hazards rule shares: the ruleset, the module's state on a character, and the hazard SAVE.

A Hazards function that is given no ruleset uses the `hazards` profile. Each module of the chapter is
switched by its own option (`hazards_travel`, `hazards_disease` …); calling a switched-off rule raises
`OptionOffError`. State lives in `character.extensions["hazards"]` as plain JSON values and is copied,
never changed in place, so the public API stays immutable.

A hazard SAVE is a Furnace ability SAVE (D-5: save_vs_poison …), or, under save_mapping category_table, d20 ≥
the target number of the referee's category-save table named by save_category_table (none ships). That table
is keyed `<category>/<class>` (`level-0` for a 0-level character, `*` for any class) and each row's
`data.targets` maps a first level to its target number: `poison/Fighter: {targets: {1: 14, 3: 13}}`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource, RollResult
from furnace.errors import UnknownNameError
from furnace.events import Event, Knowledge, Part, declare
from furnace.play import luck
from furnace.play.checks import CheckError, CheckResult, Modifier, OptionOffError, check, plain_dc
from furnace.rules.effects import Ability
from furnace.rules.ruleset import Ruleset, load_ruleset
from furnace.rules.tables import Table

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


DRUNK, SHORT_OF_SLEEP = "drunk", "short of sleep"
# the rule behind each situational modifier, cited by the SAVE's fact
SITUATIONAL_RULES = {DRUNK: "H-DRUG-02", SHORT_OF_SLEEP: "H-SLEEP-01", "drunk: DEX modifier": "H-DRUG-02"}


def situational(character: Character) -> list[Modifier]:
    """What the character's state adds to every SAVE: drunk −2 (H-DRUG-02), short of sleep −N (H-SLEEP-01)."""
    mods = []
    if "DRUNK" in character.conditions:
        mods.append(Modifier(-2, DRUNK))
    if sleep_penalty(character):
        mods.append(Modifier(sleep_penalty(character), SHORT_OF_SLEEP))
    return mods


def save_ability(category: Category, rules: Ruleset) -> Ability:
    """D-5: 'save vs. X' is the Furnace ability SAVE named by the option save_vs_X."""
    ability = rules.save_vs(category)
    assert ability is not None, category       # a hazard's category is one of the four
    return ability


def _category_table(rules: Ruleset) -> Table:
    name = str(rules["save_category_table"])
    try:
        return rules.tables.get(name)
    except UnknownNameError:
        raise CheckError(f"save_mapping is category_table but no table {name!r} is loaded: load the referee's "
                         "category-save table (D-5) or set save_mapping: furnace_abilities") from None


def category_target(character: Character, category: Category, rules: Ruleset) -> tuple[int, str] | None:
    """D-5: under save_mapping category_table, the target number of the referee's category-save table and the
    row it comes from (the highest first level at or below the character's); None under furnace_abilities."""
    if rules["save_mapping"] != "category_table":
        return None
    table = _category_table(rules)
    who = character.char_class if character.level >= 1 and character.char_class else "level-0"
    wanted = (f"{category}/{who}".lower(), f"{category}/*")
    row = next((r for r in table.rows if str(r.key).lower() in wanted), None)
    if row is None:
        raise CheckError(f"{table.id} has no category-save row for {wanted[0]} (nor {wanted[1]})")
    try:
        targets = {int(k): int(v) for k, v in dict(row.data.get("targets") or {}).items()}
    except (TypeError, ValueError):
        raise CheckError(f"{table.id} {row.key}: data.targets maps a level to a target number") from None
    levels = [level for level in targets if level <= character.level]
    if not levels:
        raise CheckError(f"{table.id} {row.key} gives no target at level {character.level} or below")
    return targets[max(levels)], f"{table.id} {row.key} from level {max(levels)}"


def hazard_save(character: Character, category: Category, rng: DiceSource, rules: Ruleset, why: str,
                extra: Sequence[Modifier] = (), dc: int | None = None) -> CheckResult:
    """d20 + ability + PROF (if proficient) + situational modifiers vs hazard_save_dc (or the given DC); under
    save_mapping category_table, d20 + situational modifiers vs the table's target, which replaces both. The roll
    is labelled by its role ("CON SAVE"); `why` (what the SAVE is for) is told by the fact the caller records."""
    table = category_target(character, category, rules)
    if table is not None:
        number, _source = table
        return check(rng, plain_dc(number), [*extra, *situational(character)], kind="SAVE", label="SAVE",
                     rules=rules)
    ability = save_ability(category, rules)
    mods = [Modifier(character.mod(ability, rules), ability)]
    if ability in character.saves:
        mods.append(Modifier(character.prof(rules), "PROF"))
    if ability == "DEX" and state(character).get("drunk", {}).get("dex_mod"):
        mods.append(Modifier(-2, "drunk: DEX modifier"))
    mods += [*extra, *situational(character)]
    target = plain_dc(int(rules["hazard_save_dc"]) if dc is None else dc)
    return check(rng, target, mods, kind="SAVE", label=f"{ability} SAVE", rules=rules)


# -- the facts of a hazard's SAVE --------------------------------------------------------------------------------
SAVE_VALUES: dict[str, Knowledge] = {"ability": "public", "category": "public", "total": "actor", "dc": "public",
                                     "saved": "public", "natural": "actor", "modifiers": "actor"}
SAVE_EXAMPLE = {"ability": "CON", "category": "poison", "total": 8, "dc": 12, "saved": False, "natural": 9,
                "modifiers": [{"value": 1, "source": "CON"}, {"value": -2, "source": "not resting"}]}


def declare_save(kind: str, example: dict[str, Any] | None = None, **values: Knowledge) -> str:
    """A kind of hazard SAVE: the SAVE's own values (ability, total, DC, saved …) and the hazard's (`values`)."""
    known: dict[str, Any] = {**SAVE_VALUES, **values}
    return declare(kind, example={**SAVE_EXAMPLE, **(example or {})}, **known)


def save_event(kind: str, character: Character, result: CheckResult, category: Category, rules: Ruleset,
               cite: tuple[str, ...] = (), **data: Any) -> Event:
    """The fact of one SAVE: its roll, its total, its DC, saved or not, its modifiers, and the hazard's values.
    `ability` is the SAVE's (D-5; None under save_mapping category_table, whose target is the DC)."""
    ability = None if rules["save_mapping"] == "category_table" else save_ability(category, rules)
    extra = tuple(dict.fromkeys(SITUATIONAL_RULES[m.source] for m in result.modifiers
                                if m.source in SITUATIONAL_RULES))
    return fact(kind, character, (result.roll,), (*cite, "D-5", *extra), ability=ability, category=category,
                total=result.total, dc=result.dc.value, saved=result.success, natural=result.natural,
                modifiers=[m.to_dict() for m in result.modifiers], **data)


def about(kind: str, campaign: Campaign, name: str, rolls: tuple[RollResult, ...] = (), rules: tuple[str, ...] = (),
          **data: Any) -> Event:
    """A fact about a character of the campaign, by name (one no longer there: named as she was)."""
    character = campaign.characters.get(name)
    if character is not None:
        return fact(kind, character, rolls, rules, **data)
    return Event(kind, name, (), rolls, data, rules, {name: Part(name)} if name else {})


def counted(character: Character, result: CheckResult, rules: Ruleset) -> tuple[Character, list[Event]]:
    """F-LUCK-01, AMB-02: a hazard's SAVE is one of the player's d20 rolls: a failure builds her streak toward a
    Luck Die, a success ends it."""
    return luck.count(character, result.success, "SAVE", rules)


# -- events fired by the clock ----------------------------------------------------------------------------------
def stamp(fire: Fire, events: Iterable[Event]) -> None:
    """Add a handler's events to the clock's log, each with the moment it happened."""
    now = fire.campaign.clock.now
    for e in events:
        fire.events.append(replace(e, data={"time": fire.campaign.clock.describe(), "at": now, **e.data}))
