"""Luck Dice (`furnace.play.luck`): earning, the cap, spending, and the Success Level limit.

RULES.md F.14 (F-LUCK-01 earning, F-LUCK-02 cap, F-LUCK-03 spending), F-SPELL-09, AMB-02, AMB-19 and the
options luck_counts, luck_die_size, luck_die_effect, luck_owner, luck_lifts_spell_failure.
"""

from __future__ import annotations

import json

import pytest

from furnace.dice import ScriptedDice
from furnace.events import Event
from furnace.play.luck import LuckError, LuckState, clamp_success_level, counts, owner, record, spend
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset()
NO_LUCK = LuckState()


def fail_times(n: int, state: LuckState = NO_LUCK, kind: str = "CHECK") -> tuple[LuckState, list[Event | None]]:
    events: list[Event | None] = []
    for _ in range(n):
        state, event = record(state, False, kind, RULES)
        events.append(event)
    return state, events


# -- F-LUCK-01 earning -----------------------------------------------------------------------------------------
def test_F_LUCK_01_second_failure_in_a_row_grants_the_first_die() -> None:
    """F-LUCK-01: the 1st failure gives nothing; the 2nd gives the first Luck Die, with an event."""
    state, events = fail_times(1)
    assert state == LuckState(dice=0, streak=1)
    assert events == [None]
    state, earned = record(state, False, "ATK", RULES)
    assert state == LuckState(dice=1, streak=2)
    assert earned == {"roll": "ATK", "streak": 2, "before": 0, "after": 1, "lost": False}


def test_F_LUCK_01_each_further_failure_grants_one_more() -> None:
    """F-LUCK-01: failures 2, 3 and 4 in a row grant 1, 2 and 3 dice."""
    assert [fail_times(n)[0].dice for n in range(1, 5)] == [0, 1, 2, 3]


def test_F_LUCK_01_a_success_resets_the_streak() -> None:
    """F-LUCK-01: fail, succeed, fail → no die; one more failure → the first die."""
    state, _ = fail_times(1)
    state, event = record(state, True, "SAVE", RULES)
    assert (state, event) == (LuckState(0, 0), None)
    state, _ = fail_times(1, state)
    assert state == LuckState(0, 1)
    state, _ = fail_times(1, state)
    assert state == LuckState(1, 2)
    # a success keeps the dice already held
    assert record(state, True, "CHECK", RULES)[0] == LuckState(1, 0)


def test_F_LUCK_01_only_d20_rolls_count_by_default() -> None:
    """F-LUCK-01, AMB-02 (luck_counts d20_rolls): CHECK/ATK/SAVE/SPELLCHECK count; damage and tables do not."""
    assert all(counts(kind, RULES) for kind in ("CHECK", "ATK", "SAVE", "SPELLCHECK", "check"))
    state, events = fail_times(3, kind="damage")
    assert (state, events) == (LuckState(), [None, None, None])
    # a table roll in between neither breaks nor builds the streak
    state, _ = fail_times(1)
    state, _ = record(state, True, "table", RULES)
    assert state == LuckState(0, 1)


def test_F_LUCK_01_any_roll_option_counts_every_failed_roll() -> None:
    """F-LUCK-01, AMB-02 alternative (luck_counts any_roll): two failed damage rolls grant a die."""
    rules = RULES.with_options({"luck_counts": "any_roll"})
    state, _ = record(LuckState(), False, "damage", rules)
    state, event = record(state, False, "table", rules)
    assert state == LuckState(1, 2) and event is not None


def test_F_LUCK_01_owner_is_the_player_by_default() -> None:
    """F-LUCK-01, AMB-02 (luck_owner): the player's streak by default; the character's with the option."""
    assert owner("Mia", "Ulf the Farmer", RULES) == "Mia"
    assert owner("Mia", "Ulf the Farmer", RULES.with_options({"luck_owner": "character"})) == "Ulf the Farmer"


# -- F-LUCK-02 the cap -----------------------------------------------------------------------------------------
def test_F_LUCK_02_five_failures_hold_three_dice() -> None:
    """F-LUCK-02: 5 failures in a row earn 4 dice, but at most 3 are held; the 4th is lost, with an event."""
    state, events = fail_times(5)
    assert state == LuckState(dice=3, streak=5)
    assert [(e["after"], e["lost"]) if e else None for e in events] == [None, (1, False), (2, False), (3, False),
                                                                        (3, True)]


def test_F_LUCK_02_a_state_above_the_cap_is_refused() -> None:
    """F-LUCK-02: a luck state holds 0 to 3 dice."""
    with pytest.raises(LuckError, match="0 to 3"):
        LuckState(dice=4)
    with pytest.raises(LuckError):
        LuckState(dice=1, streak=-1)


# -- F-LUCK-03 spending ----------------------------------------------------------------------------------------
def test_F_LUCK_03_spending_adds_the_die_to_the_total() -> None:
    """F-LUCK-03, AMB-02: 2 dice held; spend 1 on a total of 12: d6 shows 4 → 16, 1 die left."""
    state, spent = spend(LuckState(2, 0), ScriptedDice([4]), 12, RULES)
    assert state == LuckState(1, 0)
    assert (spent.original_total, spent.total, spent.spent) == (12, 16, 1)
    assert spent.rolls[0].expression == "d6"
    assert "12 + 4 = 16" in spent.explain()
    json.dumps(spent.to_dict())


def test_F_LUCK_03_several_dice_on_one_roll_and_the_natural_stays() -> None:
    """F-LUCK-03, AMB-02: 2 dice on a natural-1 total of 9: 9 + 5 + 3 = 17; the natural 1 is still a 1."""
    state, spent = spend(LuckState(2, 1), ScriptedDice([5, 3]), 9, RULES, n=2, natural=1)
    assert state == LuckState(0, 1)           # spending does not touch the streak
    assert (spent.total, spent.natural) == (17, 1)
    assert "natural 1 still stands" in spent.explain()


def test_F_LUCK_03_cannot_spend_dice_not_held() -> None:
    """F-LUCK-03: spending with no dice, or more than held, raises a FurnaceError and changes nothing."""
    with pytest.raises(LuckError, match="no Luck Dice held"):
        spend(LuckState(0, 1), ScriptedDice([4]), 12, RULES)
    with pytest.raises(LuckError, match="only 1 Luck Die held"):
        spend(LuckState(1, 0), ScriptedDice([4, 4]), 12, RULES, n=2)
    with pytest.raises(LuckError, match="at least 1"):
        spend(LuckState(1, 0), ScriptedDice([4]), 12, RULES, n=0)


def test_F_LUCK_03_die_size_option() -> None:
    """F-LUCK-03, AMB-02 (luck_die_size d8): the die is a d8: 12 + 8 = 20."""
    rules = RULES.with_options({"luck_die_size": "d8"})
    _, spent = spend(LuckState(1, 0), ScriptedDice([8]), 12, rules)
    assert (spent.total, spent.rolls[0].expression) == (20, "d8")


def test_F_LUCK_03_reroll_option_replaces_the_d20() -> None:
    """F-LUCK-03, AMB-02 alternative (luck_die_effect reroll): total 9 with natural 4 rerolls to 15 → 20."""
    rules = RULES.with_options({"luck_die_effect": "reroll"})
    _, spent = spend(LuckState(1, 0), ScriptedDice([15]), 9, rules, natural=4)
    assert (spent.total, spent.natural, spent.effect) == (20, 4, "reroll")
    with pytest.raises(LuckError, match="natural"):
        spend(LuckState(1, 0), ScriptedDice([15]), 9, rules)


# -- F-LUCK-03 / F-SPELL-09 the Success Level moves at most 1 (AMB-19) -----------------------------------------
@pytest.mark.parametrize(("original", "new", "result"), [
    (1, 3, 2),      # two bands up → one
    (2, 2, 2),      # no change
    (0, 2, 1),      # Failure is SL0: lifted to SL1 only
    (0, 1, 1),
    (5, 6, 6),
    (3, 1, 2),      # never more than one step down either
])
def test_F_LUCK_03_success_level_moves_at_most_one(original: int, new: int, result: int) -> None:
    """F-LUCK-03, F-SPELL-09, AMB-19: the final SL is the original SL ± 1 at most."""
    assert clamp_success_level(original, new, rules=RULES) == result


def test_F_LUCK_03_a_natural_1_mishap_cannot_be_cancelled() -> None:
    """F-LUCK-03, AMB-19: a natural 1 stays a mishap (SL0) whatever luck adds."""
    assert clamp_success_level(0, 2, natural=1, rules=RULES) == 0


def test_F_LUCK_03_luck_lifts_spell_failure_off() -> None:
    """F-LUCK-03, AMB-19 alternative (luck_lifts_spell_failure false): Failure stays; successes still move."""
    rules = RULES.with_options({"luck_lifts_spell_failure": False})
    assert clamp_success_level(0, 1, rules=rules) == 0
    assert clamp_success_level(1, 3, rules=rules) == 2
