"""The engine's own actions sit in `registry.ACTIONS` beside the chapters' (`furnace.play.encounter.EngineAction`),
and the step finds a Fighter's Protection among the few who hold one (`Step.allies_holding`), not the whole field;
a hook is called only under the rules it acts under, a chapter's actions are asked again only when her kit changes,
and a simulation's monsters are made once (#27).

Dice are scripted (`ScriptedDice`): `remaining == 0` proves the rule rolled every die it was given.
"""

from __future__ import annotations

from pathlib import Path

from furnace import dice
from furnace.magic.state import with_magic
from furnace.play import registry
from furnace.play.conditions import modifier_name
from furnace.play.encounter import ENGINE_ACTIONS, Action, EngineAction, _hers, act, chapter_action, chapter_actions
from furnace.play.fightfile import load_fight, rolled, rolling, roster
from furnace.play.turns import ENGINE_ACTIONS as MENU
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import monster, pc, step

PROTECTION = {"Protection": {"name": "Protection", "protects": "HARD"}}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


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


def test_who_held_a_power_is_found_once_and_an_attack_asks_nobody_when_none_did() -> None:
    """`Step.holding`: the ids of those whose powers named the key as the encounter was set (a fight spends powers,
    never gains one) — none, and an ATK skips Protection without asking the field; spending it leaves her named
    there, while `allies_holding` asks her as she is now."""
    s, _ = step(pc("a"), monster("m"), faces=[])
    assert s.holding("protects") == ()
    s, _ = step(pc("t"), pc("g", powers=PROTECTION), monster("m"), faces=[])
    assert s.holding("protects") == ("g",)
    s.update("g", powers={})
    assert s.holding("protects") == ("g",) and s.allies_holding(s.c("t"), "protects") == []


def test_a_hook_that_does_nothing_under_the_rules_is_never_called() -> None:
    """A chapter's hook names the rules it acts under (`Registry.add(…, when=…)`): a fight under others never
    calls it. The Middle Sea's extra ATKs against mooks act only under mook_extra_attacks (M-MOOK-02), its cracked
    haft only under fumble_model middle-sea (M-WPN-05); flipping each option brings its hook back."""
    from furnace.houserules.middle_sea.fight import cracked_haft, fighter_against_mooks

    plain = load_ruleset()
    assert step(pc(), monster(), faces=[])[0].hooks(registry.ATTACKS_PER_ACTION) == ()
    assert step(pc(), monster(), faces=[])[0].hooks(registry.AFTER_ATTACK) == ()
    mooks = plain.with_options({"mook_extra_attacks": True}, "override")
    assert step(pc(), monster(), faces=[], rules=mooks)[0].hooks(registry.ATTACKS_PER_ACTION) == (
        fighter_against_mooks,)
    cracking = plain.with_options({"fumble_model": "middle-sea"}, "override")
    assert step(pc(), monster(), faces=[], rules=cracking)[0].hooks(registry.AFTER_ATTACK) == (cracked_haft,)
    assert registry.ATTACKS_PER_ACTION.acting(plain) == () and len(registry.ATTACKS_PER_ACTION.acting(mooks)) == 1


def test_a_chapter_s_actions_are_asked_again_when_her_kit_changes_and_only_then() -> None:
    """`details` reads her kit alone (`combatant.KIT`): a blow that changes her HP keeps the answer found; a spell
    she comes to know makes casting hers."""
    s, _ = step(pc(), monster(), faces=[])
    found = _hers(s, s.c("a"))
    assert found == ()
    s.update("a", hp=1)
    assert _hers(s, s.c("a")) is found
    s.update("a", **with_magic(s.c("a"), spells=("Magic Missile",)))
    assert [kind for kind, _ in _hers(s, s.c("a"))] == ["cast"]


def test_a_simulation_s_monsters_are_the_fight_file_s_rolled_on_the_same_dice() -> None:
    """`fightfile.rolling` (made once, only the HP rolled at each fight) gives the monsters `rolled` gives, and
    leaves the dice where `rolled` leaves them."""
    fight = load_fight(str(EXAMPLES / "funnel-vs-goblins.yaml"))
    monsters, rules = roster(fight, set()), load_ruleset()
    roll = rolling(monsters, fight.room_dc, rules)
    for seed in range(5):
        slow, fast = dice.seeded(seed), dice.seeded(seed)
        assert roll(fast) == rolled(monsters, fight.room_dc, slow, rules)
        assert fast.random() == slow.random()
