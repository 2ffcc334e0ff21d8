"""The Middle Sea rules inside the encounter engine (`furnace.houserules.middle_sea.fight`, `fight_grievous`).

RULES.md PART M in a fight: M-WPN-02..06 (a natural 1 damages the weapon; off-balance loses DEX and shield AC and
acts last or loses segments, AMB-99), M-ARM-01..03 with D-1, AMB-98, CF-40/41 (a natural 20 damages armor, counted
for the write-back), M-GRIEV-01..09 with D-4, AMB-91..94 (0 HP: the standalone grievous rule run on the
combatant, a helmet's save vs. death on a head or a skull), M-MOOK-01 (which NPCs roll) and CF-33 (the armor save
after a Furnace crit). Every number comes from scripted dice.
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import Character
from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.houserules.middle_sea import fight
from furnace.play import conditions as cond
from furnace.play.combatant import Combatant
from furnace.play.death import take_damage
from furnace.play.encounter import Action, take_turn
from furnace.play.marks import marks
from furnace.play.state import Encounter
from furnace.play.wear import wear
from furnace.render.story import tell_referee
from furnace.rules.ruleset import Ruleset, load_ruleset
from furnace.rules.tables import validate_table
from tests.helpers.factories import encounter, monster, pc, step

SEA = load_ruleset("middle-sea")
SCORES = {"STR": 12, "DEX": 12, "CON": 14, "INT": 10, "WIS": 10, "CHA": 10}
AC_MOD = cond.modifier_name("ac", "BONUS")
# a level-1 Fighter, CON SAVE +4 (the helmet's save vs. death, AMB-94), hit die d10, an arming sword
PC: dict[str, Any] = dict(side="party", hit_die="d10", scores=SCORES, saves={"CON": 4, "DEX": 1}, weapon="arming sword",
                          weapon_class="sharp")
FOE: dict[str, Any] = dict(side="foes", level=3, hd=3)   # a 3 HD monster of 50 HP


def turn(*combatants: Combatant, faces: list[int], rules: Ruleset = SEA) -> tuple[Encounter, list[Any], ScriptedDice]:
    """The first combatant attacks the second (one action, round 1)."""
    dice = ScriptedDice(faces)
    enc = encounter(*combatants)
    after, events = take_turn(enc, combatants[0].id, Action("attack", combatants[1].id), dice, rules)
    return after, events, dice


def held(c: Combatant) -> dict[str, tuple[str, int | None, int]]:
    return {h.name: (h.ending, h.until_round, h.value) for h in c.held}


# -- M-WPN-06, AMB-99: off-balance -------------------------------------------------------------------------------
def test_M_WPN_06_AMB_99_off_balance_loses_dex_and_shield_ac_and_acts_last() -> None:
    """A thrown dagger's natural 1: d20 3 + DEX score 16 = 19 < 20, off-balance until its next turn (round 2): no
    DEX +2 (boiled leather adds DEX) nor shield +2, so AC 16 → 12 (a held AC −4), and LAST_TO_ACT next round."""
    thrower = pc(PC, dex_score=16, armor_key="boiled-leather", armor_type="light", shield=True, ac=16,
                 weapon="dagger", weapon_class="hurled", ranged=True)
    after, events, dice = turn(thrower, monster(FOE), faces=[1, 3])
    a = after.get("a")
    assert held(a) == {"OFF_BALANCE": ("round", 2, 0), "LAST_TO_ACT": ("round", 2, 0), AC_MOD: ("round", 2, -4)}
    note = next(e for e in events if e.kind == "off_balance")
    assert (note.data["ac_lost"], note.data["segments_lost"], dice.remaining) == (4, None, 0)
    assert (note.data["ac_before"], note.data["ac_after"]) == (16, 12) and "AC 16 → 12" in tell_referee(note)


def test_M_WPN_06_AMB_99_off_balance_segments_option_loses_1d4_segments_instead() -> None:
    """Option off_balance_segments = segments: a 1d4 more (3): 3 segments lost, no LAST_TO_ACT; the AC is lost the
    same (AC −4)."""
    thrower = pc(PC, dex_score=16, armor_key="boiled-leather", armor_type="light", shield=True, ac=16,
                 weapon="dagger", weapon_class="hurled", ranged=True)
    after, events, dice = turn(thrower, monster(FOE), faces=[1, 3, 3],
                               rules=SEA.with_options({"off_balance_segments": "segments"}))
    assert held(after.get("a")) == {"OFF_BALANCE": ("round", 2, 0), AC_MOD: ("round", 2, -4)}
    note = next(e for e in events if e.kind == "off_balance")
    assert (note.data["segments_lost"], note.data["ac_lost"], dice.remaining) == (3, 4, 0)


@pytest.mark.parametrize(("kw", "parts"), [
    ({"armor_key": "boiled-leather", "armor_type": "light", "dex_score": 16, "shield": True}, (2, 2)),
    ({"armor_key": "chain-mail", "armor_type": "heavy", "dex_score": 16, "shield": True}, (0, 2)),
    ({"dex_score": 6}, (0, 0)),                                  # a DEX penalty is no bonus to lose
    ({"armor_type": "heavy", "dex_score": 18}, (0, 0)),          # a monster's heavy armor with no F-TAB-21 key
    ({"dex_score": 18, "shield": True}, (3, 2)),                 # unarmored: 10 + DEX
])
def test_M_WPN_06_the_dex_and_shield_ac_an_off_balance_fighter_loses(kw: dict[str, Any],
                                                                    parts: tuple[int, int]) -> None:
    assert fight.off_balance_ac(pc(PC, **kw), SEA) == parts


def test_M_WPN_06_unarmed_with_nothing_to_lose_holds_no_ac_modifier() -> None:
    """A fist (unarmed takes the hurled branch): d20 5 + DEX 12 = 17, off-balance; DEX 12 gives +0 and there is no
    shield, so no AC modifier is held."""
    after, _, dice = turn(pc(PC, weapon="fist", weapon_class="unarmed", damage="1"), monster(FOE), faces=[1, 5])
    assert set(held(after.get("a"))) == {"OFF_BALANCE", "LAST_TO_ACT"} and dice.remaining == 0


# -- M-WPN-02/04/05: the weapon's damage, counted for the write-back ---------------------------------------------------
def test_M_WPN_02_a_notch_is_counted_and_costs_one_to_hit_and_damage() -> None:
    """Sharp, metal saves on 10 (item_save_dc_metal): 9 fails: a notch, ATK +3 → +2, 1d8 → 1d8-1."""
    after, _, dice = turn(pc(PC), monster(FOE), faces=[1, 9])
    a = after.get("a")
    assert (wear(a).weapon_notches, a.attack_bonus, a.damage, dice.remaining) == (1, 2, "1d8-1", 0)


def test_M_WPN_05_a_haft_cracks_then_snaps_and_the_weapon_is_lost() -> None:
    """Pole, thick wood saves on 12 (item_save_dc_wood): 11 cracks it; cracked, the next natural 1 and 11 snap it:
    the spear is lost and she fights with her fists."""
    spear = pc(PC, weapon="spear", weapon_class="pole")
    once, _, _ = turn(spear, monster(FOE), faces=[1, 11])
    assert wear(once.get("a")).weapon_cracked and marks(once.get("a")).weapon_lost is None
    twice, _, dice = turn(once.get("a"), monster(FOE), faces=[1, 11])
    a = twice.get("a")
    assert (marks(a).weapon_lost, a.weapon, a.damage, dice.remaining) == ("spear", "fist", "1", 0)


def test_M_WPN_05_AMB_97_item_save_dc_wood_option_in_a_fight() -> None:
    """The haft saves on item_save_dc_wood: 12 holds it by default; with the option at 14 the same 12 cracks it."""
    spear = pc(PC, weapon="spear", weapon_class="pole")
    kept, _, _ = turn(spear, monster(FOE), faces=[1, 12])
    cracked, _, _ = turn(spear, monster(FOE), faces=[1, 12], rules=SEA.with_options({"item_save_dc_wood": 14}))
    assert (wear(kept.get("a")).weapon_cracked, wear(cracked.get("a")).weapon_cracked) == (False, True)


def house_saves(target: int) -> Ruleset:
    """A referee's item-save matrix (EXT-22) loaded as the table `house:ship-saves`: metal vs crushing blow on
    `target`."""
    matrix = validate_table({"id": "house:ship-saves", "name": "ship-saves", "title": "The referee's matrix",
                             "source": "DMG", "kind": "keyed",
                             "rows": [{"key": "metal/crushing_blow", "text": "metal", "data": {"target": target}}]},
                            "<referee>")
    return Ruleset(SEA.profile, SEA.values, SEA.tables.with_table(matrix, "referee.yaml"))


def test_M_WPN_02_AMB_97_EXT_22_item_save_table_option_names_the_referees_matrix() -> None:
    """item_save_model = table reads the table named by item_save_table: the referee's `house:ship-saves` puts
    metal on 15, so a blade's 12 (which holds on X-TAB-06's 10) gains a notch; the default name is not loaded."""
    rules = house_saves(15).with_options({"item_save_model": "table", "item_save_table": "house:ship-saves"})
    assert ms.item_save_target("metal", "crushing_blow", rules) == (15, "house:ship-saves metal/crushing_blow")
    held_on_10, _, _ = turn(pc(PC), monster(FOE), faces=[1, 12])
    notched, _, dice = turn(pc(PC), monster(FOE), faces=[1, 12], rules=rules)
    notches = (wear(held_on_10.get("a")).weapon_notches, wear(notched.get("a")).weapon_notches)
    assert (*notches, dice.remaining) == (0, 1, 0)
    with pytest.raises(ms.MiddleSeaError, match="house:item-saves"):
        ms.item_save_target("metal", "crushing_blow", house_saves(15).with_options({"item_save_model": "table"}))


# -- M-ARM-01..03: a natural 20 on armor, counted for the write-back ---------------------------------------------------
def crit_on(target: Combatant, faces: list[int], rules: Ruleset = SEA) -> tuple[Combatant, list[Any], ScriptedDice]:
    """A level-1 Fighter's natural 20 on `target` (damage 1d8)."""
    after, events, dice = turn(pc(PC), target, faces=faces, rules=rules)
    return after.get(target.id), events, dice


def test_M_ARM_03_CF_40_boiled_leather_is_destroyed_by_one_failed_save() -> None:
    """Armored: normal damage (1d8 = 3, HP 50 → 47) and the leather saves on 12: 11 fails; its one point of
    protection (AC 11 − 10) is gone: destroyed, AC 13 → 12, armor_lost 1; the next natural 20 finds it unarmored,
    maximum damage 8 and nothing else (M-CRIT-01)."""
    leather = monster(FOE, armor_key="boiled-leather", armor_type="light", ac=13)
    t, events, dice = crit_on(leather, [20, 3, 11])
    assert (t.hp, t.ac, wear(t).armor_lost, t.armor_type, dice.remaining) == (47, 12, 1, "none", 0)
    assert any(e.data["result"] == "destroyed" and "M-ARM-03" in e.rules and "destroyed" in tell_referee(e)
               for e in events if e.kind == "armor_save")
    again, _, dice = crit_on(t, [20])
    assert (again.hp, again.ac, dice.remaining) == (39, 12, 0)


def test_M_ARM_03_CF_40_armor_damage_scale_literal_ac_in_a_fight() -> None:
    """Option armor_damage_scale = literal_ac: boiled leather holds its whole AC, 11 points; the failure takes one
    (10 of 11 left) and the armor stays on."""
    leather = monster(FOE, armor_key="boiled-leather", armor_type="light", ac=13)
    t, events, _ = crit_on(leather, [20, 3, 11], SEA.with_options({"armor_damage_scale": "literal_ac"}))
    assert (t.ac, wear(t).armor_lost, t.armor_type) == (12, 1, "light")
    assert any((e.data["left"], e.data["points"]) == (10, 11) and "10 of 11 left" in tell_referee(e)
               for e in events if e.kind == "armor_save")


def test_M_ARM_03_two_point_armor_counts_down_then_breaks() -> None:
    """Lamellar (metal, 2 points, saves on 10): 9 fails, 1 of 2 left; 9 again, destroyed: armor_lost 2, AC −2."""
    lamellar = monster(FOE, armor_key="lamellar-shirt", armor_type="light", ac=14)
    once, _, _ = crit_on(lamellar, [20, 3, 9])
    twice, _, dice = crit_on(once, [20, 3, 9])
    assert (wear(once).armor_lost, once.armor_type, wear(twice).armor_lost, twice.armor_type, twice.ac) == (
        1, "light", 2, "none", 12) and dice.remaining == 0


def test_M_ARM_01_AMB_98_helmet_hit_chance_option_in_a_fight() -> None:
    """Chain mail and a helmet, no shield: the d6 picks the piece, 1 in 6 the helmet by default. A 3 hits the armor
    (metal saves on 10: 5 fails, AC 15 → 14, armor_lost 1); with helmet_hit_chance 3 the same 3 hits the helmet,
    destroyed, AC unchanged."""
    mailed = monster(FOE, armor_key="chain-mail", armor_type="heavy", helmet=True, ac=15)
    armor, _, _ = crit_on(mailed, [20, 3, 3, 5])
    helmet, _, dice = crit_on(mailed, [20, 3, 3, 5], SEA.with_options({"helmet_hit_chance": 3}))
    assert (armor.ac, wear(armor).armor_lost, armor.helmet) == (14, 1, True)
    assert (helmet.ac, wear(helmet).armor_lost, helmet.helmet, dice.remaining) == (15, 0, False, 0)


def test_M_ARM_01_D_1_CF_41_the_shield_takes_the_blow_and_saves_on_item_save_dc_wood() -> None:
    """D-1: the shield takes the blow first (no piece roll); thick wood saves on item_save_dc_wood 12: 13 holds;
    with the option at 14 the same 13 fails and the shield is destroyed, AC 17 → 15."""
    shielded = monster(FOE, armor_key="chain-mail", armor_type="heavy", shield=True, ac=17)
    kept, _, _ = crit_on(shielded, [20, 3, 13])
    lost, _, dice = crit_on(shielded, [20, 3, 13], SEA.with_options({"item_save_dc_wood": 14}))
    assert (kept.shield, kept.ac) == (True, 17) and (lost.shield, lost.ac, dice.remaining) == (False, 15, 0)


def test_M_ARM_03_CF_41_one_point_shield_option_in_a_fight() -> None:
    """middle_sea_shield_save_failure = one_point: the first failed save (wood on 12: 11) costs the shield a point,
    AC 17 → 16, the shield kept; the second destroys it, AC 16 → 15."""
    rules = SEA.with_options({"middle_sea_shield_save_failure": "one_point"})
    shielded = monster(FOE, armor_key="chain-mail", armor_type="heavy", shield=True, ac=17)
    once, _, _ = crit_on(shielded, [20, 3, 11], rules)
    assert (once.shield, once.ac, fight.off_balance_ac(once, rules)) == (True, 16, (0, 1))
    twice, _, dice = crit_on(once, [20, 3, 11], rules)
    assert (twice.shield, twice.ac, dice.remaining) == (False, 15, 0)


def test_M_ARM_01_CF_33_the_armor_save_after_a_furnace_crit_is_the_chapters() -> None:
    """CF-33 (furnace_crits_damage_armor): the engine calls the chapter's `middle-sea:armor-hit` entry: the
    struck boiled leather saves on 12; 11 destroys it."""
    s, dice = step(pc(PC), monster(FOE, armor_key="boiled-leather", armor_type="light", ac=13), faces=[11], rules=SEA)
    fight.armor_after_crit(s, "a", "b")
    assert (s.c("b").ac, wear(s.c("b")).armor_lost, dice.remaining) == (12, 1, 0)


# -- M-GRIEV-01, D-4: 0 HP in a fight ----------------------------------------------------------------------------------
def test_M_GRIEV_01_hp_stop_at_0_and_the_excess_is_rolled() -> None:
    """HP 2, a blow of 7: HP stop at 0 (not −5); 3d6 (2, 2, 2) + 5 = 11: STUNNED 1 round (until round 2)."""
    s, dice = step(pc(PC, hp=2), faces=[2, 2, 2], rules=SEA)
    take_damage(s, "a", 7, "a blow")
    assert (s.c("a").hp, held(s.c("a")), dice.remaining) == (0, {"STUNNED": ("round", 2, 0)}, 0)


def test_M_GRIEV_04_with_a_helmet_knocked_down_instead() -> None:
    s, _ = step(pc(PC, hp=2, helmet=True), faces=[2, 2, 2], rules=SEA)
    take_damage(s, "a", 7, "a blow")
    assert held(s.c("a")) == {"KNOCKED_DOWN": ("stands", None, 0)}


def test_M_GRIEV_01_D_4_middle_sea_zero_hp_option_in_a_fight() -> None:
    """D-4, AMB-91 a: a blow to exactly 0 HP rolls nothing. knocked_down (default): conscious, KNOCKED_DOWN until she
    stands, still active; unconscious: UNCONSCIOUS, out of the fight's actions; conscious_limited: INCAPACITATED,
    up but unable to act."""
    results = {}
    for rules in (SEA, SEA.with_options({"middle_sea_zero_hp": "unconscious"}),
                  SEA.with_options({"middle_sea_zero_hp": "conscious_limited"})):
        s, dice = step(pc(PC, hp=3), faces=[], rules=rules)
        take_damage(s, "a", 3, "a blow")
        a = s.c("a")
        results[rules["middle_sea_zero_hp"]] = (a.hp, a.status, a.active, cond.can_act(a.held), set(held(a)))
        assert dice.remaining == 0
    assert results == {
        "knocked_down": (0, "up", True, True, {"KNOCKED_DOWN"}),
        "unconscious": (0, "up", False, False, {"UNCONSCIOUS"}),
        "conscious_limited": (0, "up", True, False, {"INCAPACITATED"}),
    }


def test_M_SEVER_01_AMB_94_a_helmet_save_turns_a_severed_head_into_stunned() -> None:
    """HP 2, a blow of 19: 3d6 (1, 1, 1) + 17 = 20, a severed limb; d12 11, the head. Without a helmet: dead. With
    one, a save vs. death: the CON SAVE d20 8 + 4 = 12 vs ROOM DC 12 holds: STUNNED 1 round, no limb lost, no
    bleeding; 7 + 4 = 11 fails: dead. The fight's numbers are the standalone rule's (`ms.grievous`)."""
    bare, dice = step(pc(PC, hp=2), faces=[1, 1, 1, 11], rules=SEA)
    take_damage(bare, "a", 19, "a blow")
    assert bare.c("a").status == "dead" and dice.remaining == 0
    saved, dice = step(pc(PC, hp=2, helmet=True), faces=[1, 1, 1, 11, 8], rules=SEA)
    take_damage(saved, "a", 19, "a blow")
    a = saved.c("a")
    assert (a.status, a.hp, held(a), a.doomed_round, dice.remaining) == ("up", 0, {"STUNNED": ("round", 2, 0)},
                                                                          None, 0)
    failed, _ = step(pc(PC, hp=2, helmet=True), faces=[1, 1, 1, 11, 7], rules=SEA)
    take_damage(failed, "a", 19, "a blow")
    assert failed.c("a").status == "dead"
    hero = Character(name="A", scores=dict(SCORES), hp_max=10, hp=2, helmet=True)
    alone = ms.grievous(hero, 17, ScriptedDice([1, 1, 1, 11, 8]), SEA, room_dc=12, save_bonus=lambda ability: 4)
    assert alone.character.alive and [(c.name, c.amount) for c in alone.conditions] == [("STUNNED", 1)]


def test_M_BONE_01_AMB_94_a_helmet_save_ignores_a_broken_skull_in_a_fight() -> None:
    """3d6 (1, 1, 1) + 12 = 15, a broken bone; d10 10, the skull: with a helmet the CON SAVE 8 + 4 = 12 ignores it
    (no fatal wound, no healing weeks rolled); the save counts toward her Luck Dice (one success)."""
    s, dice = step(pc(PC, hp=2, helmet=True), faces=[1, 1, 1, 10, 8], rules=SEA)
    take_damage(s, "a", 14, "a blow")
    a = s.c("a")
    assert (a.status, a.doomed_round, a.held, dice.remaining) == ("up", None, (), 0)
    assert [e.data["saved"] for e in s.events if e.kind == "save"] == [True]


def test_M_GRIEV_06_a_broken_leg_holds_its_effects_in_the_fight() -> None:
    """15 → d10 1, the right leg: KNOCKED_DOWN until she stands, the lasting injury 'broken right leg' with its
    CANT_MOVE until healed; it heals in 2d4 (2, 2) + 9 = 13 weeks."""
    s, dice = step(pc(PC, hp=2), faces=[1, 1, 1, 1, 2, 2], rules=SEA)
    take_damage(s, "a", 14, "a blow")
    a = s.c("a")
    assert held(a)["KNOCKED_DOWN"] == ("stands", None, 0) and held(a)["CANT_MOVE"][0] == "cured"
    assert "broken right leg" in a.injuries and dice.remaining == 0
    assert [e.data["weeks"] for e in s.events if e.kind == "broken_bone"] == [13]


def test_M_GRIEV_07_AMB_92_a_fatal_wound_dies_in_exploration_turns_or_rounds() -> None:
    """17: UNCONSCIOUS until healed and death in 1d6 (4) exploration turns = 40 rounds (60-second rounds); with
    fatal_wound_timer_unit = round, in 4 rounds."""
    s, dice = step(pc(PC, hp=2), faces=[5, 5, 5, 4], rules=SEA)
    take_damage(s, "a", 4, "a blow")
    assert (s.c("a").doomed_round, s.c("a").active, dice.remaining) == (41, False, 0)
    quick, _ = step(pc(PC, hp=2), faces=[5, 5, 5, 4], rules=SEA.with_options({"fatal_wound_timer_unit": "round"}))
    take_damage(quick, "a", 4, "a blow")
    assert quick.c("a").doomed_round == 5


def test_M_GRIEV_08_a_severed_hand_bleeds_2d6_rounds_one_roll() -> None:
    """19 → d12 5, the right hand: INCAPACITATED, BLEEDING and death in the same 2d6 (2, 3) = 5 rounds."""
    s, dice = step(pc(PC, hp=2), faces=[1, 1, 1, 5, 2, 3], rules=SEA)
    take_damage(s, "a", 18, "a blow")
    a = s.c("a")
    assert (held(a)["BLEEDING"], a.doomed_round, dice.remaining) == (("round", 6, 0), 6, 0)
    assert "lost right hand" in a.injuries and "INCAPACITATED" in held(a)


def test_M_GRIEV_09_instant_death_in_a_fight() -> None:
    s, dice = step(pc(PC, hp=2), faces=[6, 6, 6], rules=SEA)
    take_damage(s, "a", 5, "a blow")
    assert (s.c("a").status, s.c("a").cause_of_death, dice.remaining) == ("dead", "slain outright", 0)


# -- M-MOOK-01, AMB-91 g: which NPCs roll ------------------------------------------------------------------------------
DOWN: dict[str, Any] = dict(hp=3, hd=5, level=5)   # a 5 HD monster at 3 HP


def monster_down(foe: Combatant, rules: Ruleset, faces: list[int]) -> tuple[bool, Combatant, ScriptedDice]:
    """The monster (id "b") takes 4: the chapter's hook decides whether it rolls (True) or the engine puts it out of
    the fight (False)."""
    s, dice = step(pc(PC), foe, faces=faces, rules=rules)
    s.update("b", hp=-1)
    rolled = fight.npc_at_zero(s, s.c("b"), 4)
    return rolled, s.c("b"), dice


def test_M_MOOK_01_npc_grievous_named_only_a_named_monster_rolls() -> None:
    """named_only (default): the named monster rolls 3d6 (1, 1, 1) + 1 = 4, Second Wind: one of its Hit Dice (d8 = 6)
    + floor(5 / 2) = 8 HP (AMB-91 c); an unnamed one does not roll."""
    rolled, b, dice = monster_down(monster(FOE, DOWN, features=("named",)), SEA, [1, 1, 1, 6])
    assert (rolled, b.hp, dice.remaining) == (True, 8, 0)
    unnamed, b, dice = monster_down(monster(FOE, DOWN), SEA, [])
    assert (unnamed, b.hp, dice.remaining) == (False, -1, 0)


def test_M_MOOK_01_npc_grievous_all_and_none() -> None:
    """all: an unnamed monster rolls too (3d6 (2, 2, 2) + 1 = 7: knocked down at 0 HP); none: not even a named one."""
    rolled, b, dice = monster_down(monster(FOE, DOWN), SEA.with_options({"npc_grievous": "all"}), [2, 2, 2])
    assert (rolled, b.hp, held(b), dice.remaining) == (True, 0, {"KNOCKED_DOWN": ("stands", None, 0)}, 0)
    never, b, dice = monster_down(monster(FOE, DOWN, features=("named",)), SEA.with_options({"npc_grievous": "none"}),
                                  [])
    assert (never, b.hp, dice.remaining) == (False, -1, 0)
