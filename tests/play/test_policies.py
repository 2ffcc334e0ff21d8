"""Standing answers (`furnace.play.policies`): the profile's default_policy and each named policy decide a player's
choices when nobody asks her — Luck on a failed ATK (F-LUCK-03), a shield sunder (F-EQ-03), Rage (F-ARCH-02)."""

from __future__ import annotations

import pytest

from furnace.play import answering
from furnace.play.attacks import attack
from furnace.play.encounter import Action
from furnace.play.questions import Asking
from furnace.play.turns import Turns
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import dice, encounter, monster, pc, step

RULES = load_ruleset()
POLICY = {"keen": RULES, "never": RULES.with_options({"default_policy": "never"}),
          "dying": RULES.with_options({"default_policy": "dying"}),
          "sunder": RULES.with_options({"default_policy": "sunder"}),
          "always": RULES.with_options({"default_policy": "always"})}


def _miss_by_4(policy: str) -> list[str]:
    """A (ATK +3, one Luck Die) rolls 5 against AC 12: 8, four short; a d6 Luck Die would show 4."""
    s, _ = step(pc(luck_dice=1), monster(), faces=[5, 4, 3], rules=POLICY[policy])
    attack(s, "a", "b")
    return [e.kind for e in s.events]


def test_keen_and_always_spend_a_luck_die_that_can_turn_the_miss_into_a_hit() -> None:
    assert _miss_by_4("keen")[:2] == ["luck", "hit"]
    assert _miss_by_4("always")[:2] == ["luck", "hit"]


def test_never_dying_and_sunder_keep_the_luck_die_on_an_atk() -> None:
    assert _miss_by_4("never")[:1] == ["miss"]
    assert _miss_by_4("dying")[:1] == ["miss"]
    assert _miss_by_4("sunder")[:1] == ["miss"]


@pytest.mark.parametrize(("policy", "hp_after", "shield"), [
    ("keen", 1, False), ("sunder", 1, False), ("always", 1, False), ("never", -1, True), ("dying", -1, True)])
def test_a_blow_that_would_drop_her(policy: str, hp_after: int, shield: bool) -> None:
    s, _ = step(monster(), pc("c", hp=4, shield=True, ac=14, side="a"), faces=[18, 5, 1],
                rules=POLICY[policy])
    attack(s, "b", "c")
    assert (s.c("c").hp, s.c("c").shield) == (hp_after, shield)      # sundered: ceil(5 / 2) = 3 taken


def test_only_always_sunders_a_blow_she_can_stand() -> None:
    for policy, shield in (("always", False), ("keen", True), ("sunder", True)):
        s, _ = step(monster(), pc("c", hp=10, shield=True, ac=14), faces=[18, 5],
                    rules=POLICY[policy])
        attack(s, "b", "c")
        assert s.c("c").shield is shield


def test_rage_is_the_keen_and_the_always_answer() -> None:
    for policy, rages in (("keen", True), ("always", True), ("never", False), ("dying", False)):
        s, _ = step(pc(features=("rage",)), monster(), faces=[15, 3],
                    rules=POLICY[policy])
        from furnace.play.attacks import rage

        rage(s, "a")
        assert any(h.name == "RAGING" for h in s.c("a").held) is rages


def test_a_players_own_policy_comes_before_her_side_and_the_default() -> None:
    policies = {"Bo": "never", "a": "always"}
    mine = pc(player="Bo", luck_dice=1)
    s, _ = step(mine, monster(), faces=[5, 3], rules=RULES, asking=Asking(policies=policies))
    attack(s, "a", "b")
    assert s.events[0].kind == "miss"                   # Bo's never, not the side's always


def test_a_step_that_asks_waits_and_replays_from_the_answer() -> None:
    """The step stops at the question (nothing changes), and the answer runs it again with the same dice."""
    enc = encounter(pc(luck_dice=1, player="Bo"), monster(), round=1, phases=(("a",), ("b",)))
    turns = Turns(encounter=enc, order=("a",))
    waiting, told = answering.take(turns, "a", Action("attack", "b"), dice(5), RULES)
    assert [e.kind for e in told] == ["question"] and waiting.encounter.combatants == enc.combatants
    (q,) = answering.open_questions(waiting)
    assert (q.id, q.owner, q.kind, q.options, q.default) == ("q1", "a", "luck", ("0", "1"), "1")
    assert "default" not in q.public()
    after, events = answering.answer(waiting, "q1", "1", dice(4, 3), RULES)
    assert [e.kind for e in events][:3] == ["answer", "luck", "hit"] and after.encounter.get("a").luck_dice == 0
    assert after.encounter.asking.asked == 1 and after.encounter.asking.waiting is None
