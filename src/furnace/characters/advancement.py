"""Advancement: pure Hit Dice to level 5, flat $ after, PROF by level, +1 scores, archetype features.

F-HP-01…06, F-ADV-01…03, CF-09 (capped floor), CF-10 (flat after 5), AMB-11 (floor at level 1).

Before any die is rolled, the character's choices are checked against the lists in force
(`check_choices`: race, class, archetype, skills, saves), so a promotion or a level-up with a skill that
does not exist is refused naming the skills there are; numbers the class table gives (fixed HP, flat HP,
the pool) must be whole numbers in range or the table's file is named.
"""

from __future__ import annotations

from typing import Any

from furnace import dice
from furnace.characters.character import (
    MAX_HP,
    Character,
    CharacterError,
    HpGain,
    archetype_table,
    check_choices,
    clamp_natural,
)
from furnace.characters.facts import fact
from furnace.dice import DiceSource, RollResult
from furnace.errors import DataFileError
from furnace.events import Event, declare
from furnace.rules.effects import ABILITIES, Ability, shown
from furnace.rules.ruleset import Ruleset, load_ruleset

MAX_LEVEL = 10
# a level gained (`level`, HP `hp_before` → `hp_after`, `prof`) and how its HP came: `how` rolled on the `die`
# (`rolled`, with the `floor` when it applied), `fixed` at level 1 (the class's `base` + `con`) or `flat` after
# level 5, `gained` in all (the same values in a promotion's fact, `furnace.characters.funnel.PROMOTE`)
LEVEL_UP = declare("level_up", rolls="actor", level="public", hp_before="actor", hp_after="actor", prof="actor",
                   how="actor", gained="actor", die="actor", rolled="actor", floor="actor", base="actor", con="actor",
                   example={"level": 4, "how": "rolled", "die": "d8", "rolled": 3, "floor": 4, "hp_before": 20,
                            "hp_after": 24, "gained": 4, "prof": 2})
ABILITY_UP = declare("ability_up", ability="public", before="actor", after="actor",
                     example={"ability": "STR", "before": 12, "after": 13})
FEATURE = declare("feature", feature="public", at_level_1="public", example={"feature": "Rage", "at_level_1": False})


def _whole(data: dict[str, Any], key: str, where: str, lo: int, hi: int) -> int:
    """A whole number from a table row's data, in range, or a DataFileError naming the table and the field."""
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise DataFileError(where, f"data.{key}: {shown(value)} is not a whole number from {lo} to {hi}")
    return value


def hp_floor(character: Character, rules: Ruleset) -> int:
    """The least a rolled level gives: min(1 + CON, HD/2) (capped, CF-09) or 1 + CON (uncapped)."""
    sides = dice.parse(character.hit_die(rules)).bounds()[1]     # d8 → 8
    floor = 1 + character.mod("CON", rules)
    return min(floor, sides // 2) if rules["hp_floor"] == "capped" else floor


def gain_hp(character: Character, level: int, rng: DiceSource, rules: Ruleset) -> tuple[HpGain, list[RollResult]]:
    """The HP a character gains on reaching `level` (the character already has its class, whose choices are
    checked first: `check_choices`)."""
    gain, rolls, _ = hp_gain(character, level, rng, rules)
    return gain, rolls


def hp_gain(character: Character, level: int, rng: DiceSource, rules: Ruleset,
            ) -> tuple[HpGain, list[RollResult], dict[str, Any]]:
    """`gain_hp`, and how the HP came as a fact's values (`HP_VALUES`)."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= MAX_LEVEL:
        raise CharacterError(f"level {shown(level)} is not a level from 1 to {MAX_LEVEL}")
    check_choices(character, rules)
    data = character.class_data(rules)
    where = rules.tables.source_of(rules.tables.get("classes").id)
    die = character.hit_die(rules)
    if level == 1 and rules["level1_hp"] == "fixed":
        base = _whole(data, "fixed_hp_1", where, 1, MAX_HP)
        con = character.mod("CON", rules)
        fixed = max(1, base + con)
        return (HpGain(level=1, gained=fixed, reason=f"fixed {base} + CON"), [],
                {"how": "fixed", "gained": fixed, "base": base, "con": con})
    if level > 5 and rules["hp_after_level_5"] == "flat":
        flat = _whole(data, "hp_after_5", where, 0, MAX_HP)
        return (HpGain(level=level, gained=flat, reason=f"flat +{flat} after level 5 (no roll)"), [],
                {"how": "flat", "gained": flat})
    roll = dice.parse(die).roll(rng, label="HP")
    floor = hp_floor(character, rules)
    use_floor = level > 1 or bool(rules["hp_floor_at_level_1"])
    gained = max(roll.total, floor) if use_floor else roll.total
    why = f"rolled {roll.total} on {die}" + (f", floor {floor} applies" if use_floor and floor > roll.total else "")
    floored = use_floor and floor > roll.total
    return (HpGain(level=level, gained=gained, die=die, rolled=roll.total, floor=floor if use_floor else None,
                   reason=why), [roll],
            {"how": "rolled", "gained": gained, "die": die, "rolled": roll.total, "floor": floor if floored else None})


def level_up(character: Character, rng: DiceSource, rules: Ruleset | None = None, *,
             ability: Ability | None = None, feature: str | None = None) -> tuple[Character, list[Event]]:
    """One level up: HP, the pool, +1 to a chosen score at 4/6/8/10, an archetype feature where due."""
    rules = rules or load_ruleset()
    if not character.alive:
        raise CharacterError(f"{character.name} is dead")
    if character.char_class is None:
        raise CharacterError(f"{character.name} is 0-level: promote the survivor to a class first")
    if character.level >= MAX_LEVEL:
        raise CharacterError(f"level {MAX_LEVEL} is the highest level")
    check_choices(character, rules)
    if ability is not None and ability not in ABILITIES:
        raise CharacterError(f"ability {shown(ability)} is not one of {', '.join(ABILITIES)}")
    level = character.level + 1
    row = rules.tables.get(str(rules["advancement_table"])).lookup(level).data
    features = list(row.get("features", []))
    update: dict[str, object] = {"level": level}
    events: list[Event] = []
    if "ability_score_plus_1" in features:
        if ability not in ABILITIES:
            raise CharacterError(f"level {level} gives +1 to an ability score: choose one of {', '.join(ABILITIES)}")
        scores = dict(character.scores)
        before = scores[ability]
        scores[ability] = max(before, clamp_natural(before + 1))  # stops at 18, never lowers a magical 19
        update["scores"] = scores
        events.append(fact(ABILITY_UP, character, (), ("F-ADV-03",), ability=ability, before=before,
                           after=scores[ability]))
    if "archetype_feature" in features:
        chosen = choose_feature(character, rules, feature)
        update["archetype_features"] = [*character.archetype_features, chosen]
        events.append(fact(FEATURE, character, (), ("F-ARCH-01",), feature=chosen, at_level_1=False))
    stepped = character.model_copy(update=update)
    gain, rolls, how = hp_gain(stepped, level, rng, rules)
    pool = _whole({"hd_pool": min(level, 5), **row}, "hd_pool", rules.tables.source_of(
        rules.tables.get(str(rules["advancement_table"])).id), 0, MAX_LEVEL)
    after = stepped.model_copy(update={
        "hp_max": character.hp_max + gain.gained, "hp": character.hp + gain.gained,
        "hit_dice": min(pool, character.hit_dice + (1 if level <= 5 else 0)),
        "hp_history": [*character.hp_history, gain]})
    events.insert(0, fact(LEVEL_UP, character, tuple(rolls), ("F-HP-01", "F-ADV-01"), level=level,
                          hp_before=character.hp_max, hp_after=after.hp_max, prof=after.prof(rules), **how))
    return after, events


def choose_feature(character: Character, rules: Ruleset, wanted: str | None) -> str:
    """The chosen archetype feature, or the first one not yet taken (AMB-46: the player chooses)."""
    assert character.archetype is not None
    table = archetype_table(rules, character.archetype)
    options = [str(r.key) for r in table.rows if r.data.get("part") == "feature"]
    free = [k for k in options if k not in character.archetype_features]
    if wanted is not None:
        if wanted not in free:
            raise CharacterError(f"feature {shown(wanted)} is not available; choose one of {', '.join(free)}")
        return wanted
    if not free:
        raise CharacterError(f"{character.name} has every {character.archetype} feature already")
    return free[0]
