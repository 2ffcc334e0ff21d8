"""The engine's own actions sit in `registry.ACTIONS` beside the chapters' (`furnace.play.encounter.EngineAction`),
and the step finds a Fighter's Protection among the few who hold one (`Step.allies_holding`), not the whole field.

Dice are scripted (`ScriptedDice`): `remaining == 0` proves the rule rolled every die it was given.
"""

from __future__ import annotations

from furnace.play import registry
from furnace.play.conditions import modifier_name
from furnace.play.encounter import ENGINE_ACTIONS, Action, EngineAction, act, chapter_action, chapter_actions
from furnace.play.turns import ENGINE_ACTIONS as MENU
from tests.helpers.factories import monster, pc, step

PROTECTION = {"Protection": {"name": "Protection", "protects": "HARD"}}


def test_every_engine_action_is_registered_as_an_action_and_the_menu_keeps_its_order() -> None:
    for kind in ENGINE_ACTIONS:
        rule = registry.ACTIONS.get(kind)
        assert isinstance(rule, EngineAction) and rule.kind == kind and not chapter_action(kind)
    assert MENU == ENGINE_ACTIONS == ("attack", "move_attack", "go_ranged", "dodge", "disengage", "stabilise",
                                      "wait", "free")
    chapters = [name for name, _ in chapter_actions()]
    assert chapters == ["cast", "lay_on_hands", "use"] and all(chapter_action(k) for k in chapters)


def test_a_dodge_through_the_registry_is_the_dodge_of_act() -> None:
    """A DODGE run as a chapter runs hers (`ACTIONS.get("dodge").run`) holds ATK-against HARD until round 2, as the
    same action through `act` does; no die is rolled."""
    ran, dice = step(pc(), monster(), faces=[])
    registry.ACTIONS.get("dodge").run(ran, "a", "b", None)
    acted, _ = step(pc(), monster(), faces=[])
    act(acted, "a", Action("dodge"))
    for s in (ran, acted):
        held = s.c("a").held
        assert [(h.name, h.source, h.until_round) for h in held] == [
            (modifier_name("atk_against", "HARD"), "DODGE", 2)]
        assert [e.kind for e in s.events] == ["dodge"]
    assert dice.remaining == 0


def test_an_unknown_action_kind_waits_as_before() -> None:
    s, _ = step(pc(), monster(), faces=[])
    act(s, "a", Action("juggle"))
    assert [(e.kind, e.data["why"]) for e in s.events] == [("wait", "")]


def test_protection_is_offered_by_the_target_s_allies_holding_it_alone() -> None:
    """Only a standing ally of the target's, not the target herself nor a foe, and only one who holds Protection."""
    guard = pc("g", powers=PROTECTION)
    fallen = pc("f", powers=PROTECTION, status="dying")
    target = pc("t", powers=PROTECTION)
    plain = pc("p")
    foe = monster("m", powers=PROTECTION)
    s, _ = step(target, plain, guard, fallen, foe, faces=[])
    assert [c.id for c in s.allies_holding(s.c("t"), "protects")] == ["g"]
    s.update("g", powers={})                 # spent: she holds it no more
    assert s.allies_holding(s.c("t"), "protects") == []
