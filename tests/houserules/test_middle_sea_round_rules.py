"""Middle Sea weapon rules that reach past one attack, in the encounter engine: off-balance's "acts last" really
moves the fighter to the end of the next round (M-WPN-06, AMB-99, option off_balance_segments), a cracked haft
saves every round it is used (M-WPN-05), and a notched weapon's −1s come with the character into the next fight
(M-WPN-02). Every number comes from scripted dice."""

from __future__ import annotations

from typing import Any

from furnace.characters.character import Weapon
from furnace.dice import ScriptedDice
from furnace.play.combatant import Combatant, from_character
from furnace.play.encounter import Action, run_round, take_turn
from furnace.play.marks import marks
from furnace.play.state import Encounter
from furnace.play.turns import run_tactic, start
from furnace.play.wear import wear
from furnace.render import story
from furnace.rules.ruleset import Ruleset, load_ruleset
from tests.helpers.factories import encounter, fighter, monster, pc

SEA = load_ruleset("middle-sea")
FURNACE = load_ruleset()


# round 1: initiative party 6, foes 2; A's natural 1, d20 3 + DEX 16 = 19: off-balance; B's d20 5 + 2 misses.
# round 2: B first (A acts last): d20 5 misses; then A: d20 10 + 3 = 13 hits AC 12, 1d8 4.
FACES = [6, 2, 1, 3, 5, 5, 10, 4]
# a level-1 Fighter, CON SAVE +4, DEX SAVE +1, hit die d10, an arming sword
PC: dict[str, Any] = dict(side="party", hit_die="d10", saves={"CON": 4, "DEX": 1}, weapon="arming sword",
                          weapon_class="sharp")
THROWER: dict[str, Any] = dict(dex_score=16, weapon="dagger", weapon_class="hurled", ranged=True)   # DEX 16, a dagger
FOE: dict[str, Any] = dict(side="foes", level=3, hd=3)   # a 3 HD monster of 50 HP


def order(events: list[Any], round_no: int) -> list[str]:
    """Who struck in the round, in turn order (a fumble logs twice: the miss and the weapon's fate)."""
    who = [e.who for e in events if e.data.get("round") == round_no and e.kind in ("hit", "miss", "fumble")]
    return [w for i, w in enumerate(who) if i == 0 or who[i - 1] != w]


def test_M_WPN_06_AMB_99_the_off_balance_fighter_acts_last_in_the_next_round() -> None:
    """Option off_balance_segments last_to_act: A's side won initiative, yet in round 2 B strikes before A."""
    dice = ScriptedDice(FACES)
    enc = Encounter(room_dc=12, combatants=(pc(PC, THROWER), monster(FOE)))
    one, first = run_round(enc, dice, SEA)
    two, second = run_round(one, dice, SEA)
    assert order(first, 1) == ["A", "B"] and order(second, 2) == ["B", "A"]
    assert two.last == ("a",) and two.get("b").hp == 46 and dice.remaining == 0
    assert any(e.kind == "acts_last" and e.actor == "a" for e in second)
    assert "all: A acts last this round" in story.lines(second)


def test_M_WPN_06_AMB_99_turn_by_turn_the_same_order() -> None:
    """The table's turn-by-turn play (`furnace.play.turns`) keeps the same order: B, then A, in round 2."""
    dice = ScriptedDice(FACES)
    turns, events = start(Encounter(room_dc=12, combatants=(pc(PC, THROWER), monster(FOE))), dice, SEA)
    turns, played = run_tactic(turns, dice, SEA, until=lambda c: dice.remaining == 0)
    assert order([*events, *played], 2) == ["B", "A"] and turns.encounter.get("b").hp == 46


def test_M_WPN_06_segments_option_keeps_the_initiative_order() -> None:
    """Under off_balance_segments segments (a 1d4, 2, of segments lost) nothing acts last: A goes first again."""
    rules = SEA.with_options({"off_balance_segments": "segments"})
    dice = ScriptedDice([6, 2, 1, 3, 2, 5, 10, 4, 5])
    one, _ = run_round(Encounter(room_dc=12, combatants=(pc(PC, THROWER), monster(FOE))), dice, rules)
    _, second = run_round(one, dice, rules)
    assert order(second, 2) == ["A", "B"] and dice.remaining == 0


# -- M-WPN-05: a cracked haft saves each round it is used --------------------------------------------------------
def swing(attacker: Combatant, faces: list[int], rules: Ruleset = SEA) -> tuple[Combatant, list[Any], ScriptedDice]:
    dice = ScriptedDice(faces)
    after, events = take_turn(encounter(attacker, monster(FOE), round=2), "a",
                              Action("attack", "b"), dice, rules)
    return after.get("a"), events, dice


def test_M_WPN_05_a_cracked_haft_snaps_on_a_failed_round_save() -> None:
    """The cracked spear hits (d20 10 + 3 = 13, 1d8 4), then saves as thick wood (12, item_save_dc_wood): 11
    fails, the haft snaps, the spear is lost and she fights on with her fists."""
    a, events, dice = swing(pc(PC, weapon="spear", weapon_class="pole", weapon_cracked=True), [10, 4, 11])
    assert (marks(a).weapon_lost, a.weapon, a.damage, dice.remaining) == ("spear", "fist", "1", 0)
    assert any(e.data.get("outcome") == "snapped" and "M-WPN-05" in e.rules
               and "snaps: the weapon is unusable" in story.tell_referee(e) for e in events)


def test_M_WPN_05_a_cracked_haft_that_saves_holds_another_round() -> None:
    a, _, dice = swing(pc(PC, weapon="spear", weapon_class="pole", weapon_cracked=True), [10, 4, 12])
    assert (marks(a).weapon_lost, a.weapon, wear(a).weapon_cracked, dice.remaining) == (None, "spear", True, 0)


def test_M_WPN_05_no_round_save_under_the_furnace_fumble_model() -> None:
    """fumble_model furnace: a crack is the Middle Sea's; the same blow makes no save (two dice only)."""
    a, _, dice = swing(pc(PC, weapon="spear", weapon_class="pole", weapon_cracked=True), [10, 4], FURNACE)
    assert (a.weapon, dice.remaining) == ("spear", 0)


def test_M_WPN_05_the_round_it_cracks_makes_no_second_save() -> None:
    """A natural 1 that cracks the haft (11 fails) is this round's save: no other one follows."""
    a, _, dice = swing(pc(PC, weapon="spear", weapon_class="pole"), [1, 11])
    assert wear(a).weapon_cracked and dice.remaining == 0


# -- M-WPN-02: notches carried into the next fight -----------------------------------------------------------------
RIA: dict[str, Any] = dict(name="Ria", STR=14)   # a level-1 Fighter, STR 14, 10 HP


def test_M_WPN_02_a_notched_weapon_carries_its_penalty_into_the_next_fight() -> None:
    """STR 14 (+1 on the Middle Sea's table) + PROF 1 = ATK +2 and 1d8+1 with a clean sword; two notches, −1 each
    to hit and damage: ATK +0 and 1d8-1."""
    sword = Weapon(name="arming sword", category="martial", damage="1d8", weapon_class="sharp")
    clean = from_character(fighter(RIA, weapons=[sword]), "party", SEA)
    notched = from_character(fighter(RIA, weapons=[sword.model_copy(update={"notches": 2})]), "party", SEA)
    assert (clean.attack_bonus, clean.damage) == (2, "1d8+1")
    assert (notched.attack_bonus, notched.damage) == (0, "1d8-1")


def test_M_WPN_05_a_cracked_or_broken_weapon_comes_into_the_fight_as_it_is() -> None:
    """A cracked spear is still the weapon (cracked, so it saves each round); a broken one is not: the fist."""
    spear = Weapon(name="spear", damage="1d6", weapon_class="pole", cracked=True)
    assert wear(from_character(fighter(RIA, weapons=[spear]), "party", SEA)).weapon_cracked
    broken = from_character(fighter(RIA, weapons=[spear.model_copy(update={"broken": True})]), "party", SEA)
    assert broken.weapon == "fist"
