"""furnace.play.countdown: the dying's countdown after a fight no referee goes on with (F-DEATH-01, AMB-28):
the winning party stabilises its dying by the `stabilize_methods` option's means; after a lost fight nobody
does, and each dying character rolls her d20s until her timer runs out or a natural 20 gets her up."""

from __future__ import annotations

from typing import Any

from furnace.dice import ScriptedDice
from furnace.play.countdown import count_down, helpers
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import encounter, monster, pc

RULES = load_ruleset()
DYING: dict[str, Any] = dict(status="dying", hp=-1, dying_turns=2)


def test_F_DEATH_01_after_a_lost_fight_the_timer_runs_out() -> None:
    """Monsters won: nobody helps; her two turns roll d20s 5 and 7 (no natural 20): dead, bled out, at round 5."""
    lost = encounter(pc("d", DYING), monster(), round=3, over=True, winner="b")
    dice = ScriptedDice([5, 7])
    after, events = count_down(lost, dice, RULES)
    assert dice.remaining == 0
    assert after.get("d").status == "dead" and after.get("d").cause_of_death == "bled_out"
    assert [e.kind for e in events] == ["still_dying", "death"] and after.round == 5


def test_F_DEATH_01_a_natural_20_gets_her_up_after_the_fight() -> None:
    lost = encounter(pc("d", DYING), monster(), round=3, over=True, winner="b")
    after, _ = count_down(lost, ScriptedDice([20]), RULES)
    assert (after.get("d").status, after.get("d").hp) == ("up", 1)


def test_AMB_28_the_winning_party_stabilises_by_medicine() -> None:
    """The party won: A (up) makes a Medicine CHECK (face 15 ≥ ROOM DC 12) on D before D's own turn, then D rolls
    the Injuries table (face 17: every CHECK HARD until rest) and lives."""
    won = encounter(pc(), pc("d", DYING), monster(status="dead", hp=0), round=3, over=True, winner="a")
    assert helpers(won, RULES) == {"a"}
    dice = ScriptedDice([15, 17])
    after, events = count_down(won, dice, RULES)
    assert dice.remaining == 0 and after.get("d").status == "stable"
    assert [e.kind for e in events if e.kind in ("stabilise", "injury")] == ["stabilise", "injury"]


def test_AMB_28_healing_only_and_referee_only_leave_the_timer_to_run() -> None:
    """Under healing_only or referee_only the simple tactic heals nobody and no referee speaks: D's d20s decide."""
    won = encounter(pc(), pc("d", DYING), monster(status="dead", hp=0), round=3, over=True, winner="a")
    for method in ("healing_only", "referee_only"):
        rules = RULES.with_options({"stabilize_methods": method})
        assert helpers(won, rules) == frozenset()
        dice = ScriptedDice([4, 9])
        after, _ = count_down(won, dice, rules)
        assert after.get("d").status == "dead" and dice.remaining == 0


def test_a_wound_timer_falls_due_with_no_die() -> None:
    """A crit's 'dies in 1d4 rounds' (due at round 9) runs to its end: no cure is cast after the fight."""
    lost = encounter(pc("d", status="unconscious", hp=0, doomed_round=9), monster(), round=3, over=True, winner="b")
    after, events = count_down(lost, ScriptedDice([]), RULES)
    assert after.get("d").status == "dead" and after.round == 9
    assert [(e.kind, e.data["cause"]) for e in events] == [("death", "wound_timer")]


def test_a_fight_at_the_round_limit_is_left_as_it_is() -> None:
    unfinished = encounter(pc("d", DYING), monster(), round=20)
    assert count_down(unfinished, ScriptedDice([]), RULES) == (unfinished, [])
