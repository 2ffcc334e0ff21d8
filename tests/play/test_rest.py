"""Rest (`furnace.play.rest`): short rest spends one Hit Die, long rest spends them all and refills the pool.

RULES.md F-REST-01, F-REST-02, F-HP-06 (pool size), AMB-13 (no CON, no floor, never above max), AMB-14 (long-rest
order), D-7 (any rest ends "until rest" effects), CF-32 (the healing model is an option).
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import CharacterError
from furnace.dice import ScriptedDice
from furnace.play.rest import long_rest, pool_size, rest, short_rest
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import fighter

RULES = load_ruleset()
SCORES = {"STR": 14, "DEX": 12, "CON": 16, "INT": 10, "WIS": 10, "CHA": 10}
HERO: dict[str, Any] = dict(level=3, scores=SCORES, hp_max=24, hp=5, hit_dice=3)   # a level-3 Fighter at 5 HP of 24


def test_F_REST_01_AMB_13_short_rest_spends_one_hit_die_without_con() -> None:
    """F-REST-01, AMB-13: a Fighter (d10) spends one Hit Die: face 7 → HP 5 → 12 (CON +2 is not added); the pool
    goes 3 → 2; exactly one die is rolled."""
    assert fighter(HERO).mod("CON") == 2 and fighter(HERO).hit_die(RULES) == "d10"
    dice = ScriptedDice([7])
    after, events = short_rest(fighter(HERO), dice, RULES)
    assert (after.hp, after.hit_dice) == (12, 2) and dice.remaining == 0
    assert events[0].kind == "hit_die" and (events[0].data["hp_before"], events[0].data["hp_after"]) == (5, 12)


def test_AMB_13_short_rest_is_capped_at_max_hp() -> None:
    """AMB-13: HP never pass the maximum: 20 + 7 → 24."""
    after, _ = short_rest(fighter(HERO, hp=20), ScriptedDice([7]), RULES)
    assert after.hp == 24 and after.hit_dice == 2


def test_F_REST_01_short_rest_with_an_empty_pool_heals_nothing() -> None:
    """F-HP-06, AMB-13: with no Hit Die left a short rest heals nothing and rolls no die."""
    dice = ScriptedDice([])
    after, _ = short_rest(fighter(HERO, hit_dice=0), dice, RULES)
    assert (after.hp, after.hit_dice) == (5, 0)


def test_D_7_short_rest_ends_until_rest_effects() -> None:
    """D-7, F-REST-01: any rest, short or long, ends the 'until rest' effects (injury rows 14-19, mishaps)."""
    after, events = short_rest(fighter(HERO, hp=24, until_rest=["every CHECK is HARD (injury 14)"]), ScriptedDice([]),
                               RULES)
    assert after.until_rest == [] and events[-1].kind == "rested"
    assert events[-1].data["ended"] == ["every CHECK is HARD (injury 14)"]
    after, _ = long_rest(fighter(HERO, until_rest=["Spell Depletion"]), ScriptedDice([1, 1, 1]), RULES)
    assert after.until_rest == []


def test_F_REST_02_AMB_14_long_rest_spends_all_then_refills_to_the_levels_pool() -> None:
    """F-REST-02, AMB-14, F-HP-06: a level-3 Fighter with 2 dice left rolls both (4 + 6: HP 5 → 15), then the
    pool refills to the level's 3."""
    dice = ScriptedDice([4, 6])
    after, events = long_rest(fighter(HERO, hit_dice=2), dice, RULES)
    assert (after.hp, after.hit_dice) == (15, 3) and dice.remaining == 0
    assert [e.kind for e in events] == ["hit_die", "hit_die", "pool_refilled"]
    assert (events[-1].data["before"], events[-1].data["after"]) == (0, 3)


def test_F_REST_02_long_rest_stops_spending_at_max_hp() -> None:
    """AMB-13/14: the dice are rolled only while HP are below max: 15 + 9 = 24 is full, the other two stay
    unrolled, and the pool is then full (3)."""
    dice = ScriptedDice([9])
    after, _ = long_rest(fighter(HERO, hp=15), dice, RULES)
    assert (after.hp, after.hit_dice) == (24, 3) and dice.remaining == 0


@pytest.mark.parametrize(("level", "pool"), [(0, 1), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 5), (10, 5)])
def test_F_HP_06_pool_size_by_level(level: int, pool: int) -> None:
    """F-HP-06, AMB-13: the pool holds 1 die at levels 0-1, then one per level up to 5 from level 5."""
    assert pool_size(fighter(HERO, level=level, char_class=None if level == 0 else "Fighter"), RULES) == pool


def test_F_REST_rests_raise_for_a_dead_character() -> None:
    """F-REST-01/02: the dead do not rest: CharacterError, for a short and for a long rest."""
    dead = fighter(HERO, dead="slain by a goblin")
    with pytest.raises(CharacterError):
        short_rest(dead, ScriptedDice([5]), RULES)
    with pytest.raises(CharacterError):
        long_rest(dead, ScriptedDice([5]), RULES)


def test_CF_32_rest_dispatches_on_the_healing_model() -> None:
    """CF-32: rest() uses the healing model in force: furnace short/long are the Hit Dice rests."""
    after, _ = rest(fighter(HERO), "short", ScriptedDice([7]), RULES)
    assert (after.hp, after.hit_dice) == (12, 2)
    after, _ = rest(fighter(HERO), "long", ScriptedDice([1, 1, 1]), RULES)
    assert (after.hp, after.hit_dice) == (8, 3)
