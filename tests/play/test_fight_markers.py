"""Markers the fight reads, the player's Luck Dice and the combatant hooks.

F-TAB-37a/b rows 14–19 ("every CHECK HARD" / at DISADVANTAGE until rest) make the holder's Medicine CHECK harder;
F-TAB-38 rows 4–5 (a maimed foot, MOVE_NEAR_ONLY: "move only NEAR") limit her moves; an open wound (F-TAB-38 rows
12–13) drains 1 HP a round and closes with any healing (AMB-34), and a lasting injury's markers last as it does.
F-LUCK-01/02 (AMB-02, option luck_owner): the PCs of one player share one streak and one pool, failed SAVEs too.
COMBATANT_HOOKS: what a chapter carries from a character into a fight; the engine's own entry carries the markers,
the injuries and the Rages an earlier fight left.
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import Character
from furnace.play import registry
from furnace.play.apply import apply_all
from furnace.play.combatant import Combatant, from_character
from furnace.play.conditions import Held, modifier_name
from furnace.play.encounter import Action, act, start_turn
from furnace.play.injuries import stabilise
from furnace.play.marks import marks
from furnace.play.state import Step
from furnace.rules.effects import parse_effect
from furnace.rules.ruleset import Ruleset, load_ruleset
from tests.helpers.factories import monster, pc, step

RULES = load_ruleset()
SCORES = {"STR": 12, "DEX": 12, "CON": 12, "INT": 12, "WIS": 12, "CHA": 12}
PC: dict[str, Any] = dict(scores=SCORES)   # a level-1 Fighter, 10 HP, scores 12
MON: dict[str, Any] = dict(saves={})   # no SAVE bonus


def effect(s: Step, spec: dict[str, Any], target: str = "a") -> None:
    apply_all(s, [parse_effect(spec)], actor=target, target=target)


def names(c: Combatant) -> set[str]:
    return {h.name for h in c.held}


CHECKS_HARD = Held(name=modifier_name("checks", "HARD"), source="checks HARD", ending="rest")
DYING = dict(status="dying", hp=-1, dying_turns=3)


# -- CHECKs HARD, at DISADVANTAGE ------------------------------------------------------------------------------------
def test_F_TAB_37b_14_19_a_healer_whose_checks_are_hard_needs_15_to_stabilise() -> None:
    """F-TAB-37b rows 14–19 (a held MOD:checks:HARD): her Medicine CHECK is against ROOM DC 12 + 3 = 15: face 13
    fails; without the marker face 13 stabilises (then the injury d20, face 18: every CHECK HARD)."""
    s, dice = step(pc(PC, held=(CHECKS_HARD,)), pc("d", PC, **DYING), faces=[13])
    stabilise(s, "a", "d")
    assert s.c("d").status == "dying" and s.events[-1].data["dc"] == 15 and dice.remaining == 0
    s, dice = step(pc(PC), pc("d", PC, **DYING), faces=[13, 18])
    stabilise(s, "a", "d")
    assert s.c("d").status == "stable" and dice.remaining == 0


def test_F_TAB_37a_14_19_checks_at_disadvantage_roll_two_d20_and_keep_the_lower() -> None:
    """F-TAB-37a rows 14–19 (MOD:checks:DISADVANTAGE): the Medicine CHECK rolls d20dis: faces 18 and 5 keep 5, a
    failure at ROOM DC 12."""
    marker = Held(name=modifier_name("checks", "DISADVANTAGE"), source="checks DISADVANTAGE", ending="rest")
    s, dice = step(pc(PC, held=(marker,)), pc("d", PC, **DYING), faces=[18, 5])
    stabilise(s, "a", "d")
    assert s.c("d").status == "dying" and s.events[-1].rolls[0].total == 5 and dice.remaining == 0


def test_F_INJ_01_the_injury_marker_is_held_until_rest() -> None:
    """F-TAB-37b rows 14–19: stabilised (face 15), the injury d20 face 14 leaves 'every CHECK HARD' held to rest."""
    s, _ = step(pc(PC), pc("d", PC, **DYING), faces=[15, 14])
    stabilise(s, "a", "d")
    marker = next(h for h in s.c("d").held if h.name == "MOD:checks:HARD")
    assert marker.ending == "rest"


# -- move only NEAR ---------------------------------------------------------------------------------------------------
FOOT = Held(name="MOVE_NEAR_ONLY", source="foot", ending="permanent")


def test_F_TAB_38_4_5_a_maimed_foot_cannot_close_from_ranged_in_one_move() -> None:
    """F-TAB-38 rows 4–5, CF-46: 'go NEAR and ATK' from RANGED with a maimed foot: she comes one zone closer (NEAR)
    and does not attack (no die); from NEAR she closes and attacks (d20+3 face 15 hits, 1d8 face 4: B 50 → 46)."""
    s, dice = step(pc(PC, zone="RANGED", held=(FOOT,)), monster(MON, zone="RANGED"), faces=[])
    act(s, "a", Action("move_attack", "b"))
    assert s.c("a").zone == "NEAR" and s.c("b").hp == 50 and "hit" not in [e.kind for e in s.events]
    s, dice = step(pc(PC, zone="NEAR", held=(FOOT,)), monster(MON, zone="NEAR"), faces=[15, 4])
    act(s, "a", Action("move_attack", "b"))
    assert s.c("a").zone == "CLOSE" and s.c("b").hp == 46 and dice.remaining == 0
    s, dice = step(pc(PC, zone="RANGED"), monster(MON, zone="RANGED"), faces=[15, 4])
    act(s, "a", Action("move_attack", "b"))
    assert s.c("a").zone == "CLOSE" and s.c("b").hp == 46 and dice.remaining == 0


def test_F_TAB_38_4_5_a_maimed_foot_leaves_close_only_to_near() -> None:
    """F-TAB-38 rows 4–5: going RANGED from CLOSE with a maimed foot, she gets only NEAR."""
    s, _ = step(pc(PC, held=(FOOT,)), monster(MON), faces=[])
    act(s, "a", Action("go_ranged"))
    assert s.c("a").zone == "NEAR"


def test_AMB_34_a_maimed_foot_is_held_for_good() -> None:
    """AMB-34: F-TAB-38 face 4 (foot): the lasting mark is noted and MOVE_NEAR_ONLY is held permanent, not only
    for this fight."""
    s, dice = step(pc(PC), faces=[4])
    effect(s, {"kind": "injury", "table": "F-TAB-38"})
    foot = next(h for h in s.c("a").held if h.name == "MOVE_NEAR_ONLY")
    assert foot.ending == "permanent" and "foot" in s.c("a").injuries and dice.remaining == 0


# -- the open wound (AMB-34) ---------------------------------------------------------------------------------------
def test_AMB_34_an_open_wound_drains_until_healed_and_any_healing_closes_it() -> None:
    """AMB-34, F-TAB-38 rows 12–13 (face 12): 1 HP at each of her turns (10 → 9); healing 2 (10 → … 11 capped at
    10) closes it: the drain and the wound are gone, and her next turn costs nothing."""
    s, dice = step(pc(PC), monster(MON), faces=[12])
    effect(s, {"kind": "injury", "table": "F-TAB-38"})
    assert "EVERY:damage" in names(s.c("a")) and "open wound" in s.c("a").injuries
    start_turn(s, "a")
    assert s.c("a").hp == 9
    effect(s, {"kind": "heal", "dice": "2", "target": "self"})
    a = s.c("a")
    assert a.hp == 10 and "EVERY:damage" not in names(a) and marks(a).healed_injuries == ("open wound",)
    assert not any(i.lower().startswith("open wound") for i in a.injuries)
    s.enc = s.enc.model_copy(update={"round": 2})
    start_turn(s, "a")
    assert s.c("a").hp == 10 and dice.remaining == 0


# -- Luck Dice of a player (F-LUCK-01) ---------------------------------------------------------------------------
ANN: dict[str, Any] = dict(player="Ann", saves={"CON": 0})   # a PC of Ann's, CON SAVE +0
SAVE = {"kind": "save", "ability": "CON", "dc": "12", "target": "self"}


def test_F_LUCK_01_a_players_failed_saves_share_one_streak() -> None:
    """F-LUCK-01: Ann's P1 fails a CON SAVE (3 vs 12), then her P2 (4): the player's second failure in a row earns a
    Luck Die, which both hold."""
    s, dice = step(pc("p1", PC, ANN), pc("p2", PC, ANN), monster(MON), faces=[3, 4])
    effect(s, SAVE, "p1")
    assert (s.enc.get("p2").luck_streak, s.enc.get("p2").luck_dice) == (1, 0)
    effect(s, SAVE, "p2")
    assert [(s.enc.get(p).luck_dice, s.enc.get(p).luck_streak) for p in ("p1", "p2")] == [(1, 2), (1, 2)]
    assert dice.remaining == 0


def test_F_LUCK_01_luck_owner_character_and_other_players_do_not_share() -> None:
    """F-LUCK-01, AMB-02: under luck_owner character, or for two players, each PC keeps her own streak of 1."""
    rules = RULES.with_options({"luck_owner": "character"})
    for first, second, r in ((pc("p1", PC, ANN), pc("p2", PC, ANN), rules),
                             (pc("p1", PC, ANN), pc("p2", PC, player="Bob"), RULES)):
        s, _ = step(first, second, monster(MON), faces=[3, 4], rules=r)
        effect(s, SAVE, "p1")
        effect(s, SAVE, "p2")
        assert [(s.enc.get(p).luck_dice, s.enc.get(p).luck_streak) for p in ("p1", "p2")] == [(0, 1), (0, 1)]


# -- combatant hooks ----------------------------------------------------------------------------------------------
def test_COMBATANT_HOOKS_a_chapters_hook_shapes_the_combatant(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chapter's hook (character, combatant, rules) -> combatant runs as `from_character` builds her."""
    def blessed(character: Character, c: Combatant, rules: Ruleset) -> Combatant:
        return c.model_copy(update={"attack_bonus": c.attack_bonus + 1})

    hero = Character(name="Ada", scores=SCORES, hp_max=4, hp=4)
    plain = from_character(hero, "a", RULES).attack_bonus
    monkeypatch.setitem(registry.COMBATANT_HOOKS._entries, "test:blessed", blessed)
    assert from_character(hero, "a", RULES).attack_bonus == plain + 1


def test_AMB_34_D_7_what_an_earlier_fight_left_comes_into_the_next() -> None:
    """The engine's own hook: a foot (condition MOVE_NEAR_ONLY), one eye kept as a lasting marker, 'every CHECK
    HARD' until rest, her injuries and her Rage used (rage_uses_per_long_rest 1: none left) come into the fight."""
    eye = Held(name=modifier_name("ranged_atk", "HARD"), source="one eye", ending="permanent")
    hero = Character(name="Ada", scores=SCORES, hp_max=4, hp=4, conditions=["MOVE_NEAR_ONLY"],
                     until_rest=["MOD:checks:HARD: checks HARD"], injuries=["foot", "one eye"],
                     extensions={"fight": {"held": [eye.model_dump(mode="json")], "rages_used": 1}})
    c = from_character(hero, "a", RULES)
    assert {"MOVE_NEAR_ONLY", "MOD:ranged_atk:HARD", "MOD:checks:HARD"} <= names(c)
    assert c.injuries == ("foot", "one eye") and c.rages_left == 0
    assert from_character(hero, "a", RULES.with_options({"rage_uses_per_long_rest": 3})).rages_left == 2
