"""The encounter engine (`furnace.play.encounter`): attacks, crits, fumbles, Cleave, Sneak Attack, Rage, shield
sunder, initiative, surprise, conditions in play, one action a turn, illegal actions, the log and replay.

RULES.md F.13 (F-SURP-01, F-INIT-01/02, F-CMBT-01..03), F.15 (F-CRIT-01..03, F-FUMB-01/02), F-FTR-03 (Cleave,
AMB-01), F-ROG-04 (Sneak Attack, AMB-44), F-ARCH-02 (Rage, crit range), F-EQ-03 (shield sunder, AMB-36),
AMB-03 (durations), AMB-20/22 (conditions), AMB-26/27, AMB-48/49.

Dice are scripted (`ScriptedDice`): it raises when the engine asks for one die more than the test gave, and
`remaining == 0` proves it asked for no fewer — so each test also counts the rolls the rule makes.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from furnace.dice import ScriptedDice
from furnace.errors import IllegalActionError
from furnace.events import Event
from furnace.play.combatant import Combatant
from furnace.play.conditions import Held, modifier_name
from furnace.play.crit import crit_level, crit_table
from furnace.play.encounter import Action, act, attack, run_fight, run_round, start_turn, take_turn
from furnace.play.state import Encounter, Step
from furnace.render.story import log as log_text
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import encounter, example_fight, monster, pc, step
from tests.helpers.story import said

RULES = load_ruleset()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def only(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, f"expected one {kind!r} event, got {kinds(events)}"
    return found[0]


def held_names(c: Combatant) -> set[str]:
    return {h.name for h in c.held}


# -- F-CRIT-01/02: critical hits -------------------------------------------------------------------------------
def test_F_CRIT_01_02_level_7_fighter_natural_20_max_damage_and_crit_fighter_d20_plus_4() -> None:
    """F-CRIT-01/02, F-TAB-30/31: a natural 20 hits AC 30 anyway; DAM is the maximum of 1d8+3 = 11; the crit
    die of a level-7 Fighter is d20+4: face 17 → 21 → '+2d12 DAM; CON SAVE DC 15+PC LVL or PARALYSED', i.e.
    DC 22 against the foe's CON SAVE (+2 here): d20 face 10 → 12 fails → PARALYSED."""
    s, dice = step(pc(level=7, damage="1d8+3"), monster(ac=30), faces=[20, 17, 1, 1, 10])
    attack(s, "a", "b")
    hit = only(s.events, "hit")
    assert hit.data["crit"] is True and hit.data["total"] == 23          # 23 < AC 30, a hit all the same
    assert said(only(s.events, "damage_roll")) == "deals maximum 1d8+3 = 11"
    crit = only(s.events, "crit")
    assert crit.data["table"] == "F-TAB-31" and crit.data["row"] == "21"
    assert crit.rolls[0].expression == "d20+4" and crit.rolls[0].total == 21
    save = only(s.events, "save")
    assert said(save) == "CON SAVE 12 vs DC 22: failed"
    b = s.c("b")
    assert b.hp == 50 - 11 - 2                                            # max DAM, then the row's 2d12 (1+1)
    assert "PARALYSED" in held_names(b)
    assert "referee" in kinds(s.events)                                   # the row's missing duration, asked
    assert dice.remaining == 0


def test_F_CRIT_01_crit_row_save_that_holds_avoids_the_rider_only() -> None:
    """F-CRIT-01, F-TAB-31 row 21, AMB-25: CON SAVE d20+2 face 20 → 22 meets DC 22: no PARALYSED, but the
    +2d12 DAM still applies."""
    s, dice = step(pc(level=7, damage="1d8+3"), monster(ac=30), faces=[20, 17, 3, 4, 20])
    attack(s, "a", "b")
    assert said(only(s.events, "save")) == "CON SAVE 22 vs DC 22: saved"
    assert s.c("b").hp == 50 - 11 - 7 and "PARALYSED" not in held_names(s.c("b"))
    assert dice.remaining == 0


@pytest.mark.parametrize(("char_class", "level", "table", "die"), [
    ("Fighter", 1, "F-TAB-31", "d6"),
    ("Cleric", 1, "F-TAB-32", "d6"),
    ("Rogue", 3, "F-TAB-33", "d10"),
    ("Magic-user", 5, "F-TAB-34", "d20"),
    (None, 0, "F-TAB-34", "d4"),
    ("Fighter", 0, "F-TAB-34", "d4"),
])
def test_F_CRIT_01_02_crit_table_by_class_and_die_by_level(char_class: str | None, level: int, table: str,
                                                            die: str) -> None:
    """F-CRIT-01 / AMB-24: Fighter F-TAB-31, Cleric F-TAB-32 (crit-cleric), Rogue F-TAB-33, Magic-users and
    level-0 characters F-TAB-34 (crit-wizard); F-CRIT-02 / F-TAB-30: level 0 d4, 1 d6, 3 d10, 5 d20."""
    who = pc(level=level, char_class=char_class)
    assert RULES.tables.get(str(crit_table(who, RULES))).id == table
    s, _ = step(who, monster(), faces=[20] + [1] * 8)
    attack(s, "a", "b")
    crit = only(s.events, "crit")
    assert crit.data["table"] == table and crit.rolls[0].expression == die


def test_F_CRIT_02_crit_level_is_capped_at_10() -> None:
    """F-CRIT-02, AMB-26: levels above 10 read the crit die at level 10, d20+10 (face 20 → 30, row 28+)."""
    assert crit_level(pc(level=12), RULES) == 10
    assert crit_level(pc(level=10), RULES) == 10 and crit_level(pc(level=9), RULES) == 9
    s, _ = step(pc(level=12), monster(), faces=[20, 20])
    attack(s, "a", "b")
    crit = only(s.events, "crit")
    assert crit.rolls[0].expression == "d20+10" and crit.rolls[0].total == 30 and crit.data["row"] == "28+"
    assert s.c("b").status == "dead"                                      # 28+: beheaded


@pytest.mark.parametrize(("level", "die"), [(0, "d4"), (1, "d6"), (2, "d8"), (3, "d10"), (4, "d12"), (5, "d20"),
                                            (6, "d20+2"), (7, "d20+4"), (8, "d20+6"), (9, "d20+8"),
                                            (10, "d20+10")])
def test_F_CRIT_02_F_TAB_30_crit_die_for_every_level(level: int, die: str) -> None:
    """F-CRIT-02 / F-TAB-30: the crit die for each level 0-10."""
    assert RULES.tables.die_for(RULES.tables.get("crit-fighter"), level)[0] == die


def test_F_CRIT_03_monster_natural_20_rolls_no_crit_table_by_default() -> None:
    """F-CRIT-03 / AMB-26: monsters crit only with the option monster_crits; by default a monster's natural
    20 hits and nothing is rolled on any crit table."""
    assert crit_table(monster(), RULES) is None
    s, _ = step(pc(hp=40, hp_max=40), monster(), faces=[20, 2])
    attack(s, "b", "a")
    assert "hit" in kinds(s.events) and "crit" not in kinds(s.events)


def test_F_CRIT_03_monster_natural_20_is_a_plain_hit_with_rolled_damage() -> None:
    """F-CRIT-03, AMB-26, option monster_crits (default false): 'a monster's natural 20 is a plain hit' — its
    1d6 DAM is rolled (face 2 → 2), not maximised (6)."""
    s, dice = step(pc(hp=40, hp_max=40), monster(), faces=[20, 2])
    attack(s, "b", "a")
    assert s.c("a").hp == 38
    assert dice.remaining == 0


def test_F_CRIT_03_monster_crits_option_uses_hd_as_level() -> None:
    """F-CRIT-03, AMB-26: with monster_crits on and a crit table that is rolled by level, a 3-HD monster reads
    the crit die at level 3 (d10)."""
    rules = load_ruleset(overrides={"monster_crits": True, "monster_crit_table": "F-TAB-31"})
    s, _ = step(pc(hp=40, hp_max=40), monster(level=3), faces=[20, 2, 1, 1, 1], rules=rules)
    attack(s, "b", "a")
    crit = only(s.events, "crit")
    assert crit.data["table"] == "F-TAB-31" and crit.rolls[0].expression == "d10"


def test_F_CRIT_03_monster_crits_default_table_F_TAB_38() -> None:
    """F-CRIT-03, CF-13/CF-52: with monster_crits on and every other option at its default, a monster's
    natural 20 rolls on F-TAB-38 (Lingering injuries) instead of raising."""
    rules = load_ruleset(overrides={"monster_crits": True})
    s, _ = step(pc(hp=40, hp_max=40), monster(level=3), faces=[20] + [10] * 6, rules=rules)
    attack(s, "b", "a")
    assert only(s.events, "crit").data["table"] == "F-TAB-38"


# -- F-FUMB-01/02: fumbles -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("armor", "die"), [("heavy", "d12"), ("light", "d8"), ("none", "d4")])
def test_F_FUMB_01_02_natural_1_misses_and_rolls_the_armor_fumble_die(armor: str, die: str) -> None:
    """F-FUMB-01: a natural 1 misses, even against AC 1; F-FUMB-02 / F-TAB-35: heavy armor d12, light d8, no
    armor d4, on F-TAB-36 (face 1: 'a wild miss, no other harm')."""
    s, dice = step(pc(armor_type=armor, attack_bonus=30), monster(ac=1), faces=[1, 1])
    attack(s, "a", "b")
    assert "hit" not in kinds(s.events) and s.c("b").hp == 50
    rolled = [e for e in s.events if e.kind == "fumble" and e.data.get("table") == "F-TAB-36"]
    assert len(rolled) == 1 and rolled[0].rolls[0].expression == die and rolled[0].data["row"] == "1"
    assert dice.remaining == 0


def test_F_FUMB_01_fumble_row_lands_on_the_fumbler() -> None:
    """F-FUMB-01, F-TAB-36 row 5 (d12 in heavy armor): the fumbler falls PRONE (until it stands) and takes no
    action on its next turn; the foe is untouched."""
    s, dice = step(pc(armor_type="heavy"), monster(), faces=[1, 5])
    attack(s, "a", "b")
    a = s.c("a")
    assert {"PRONE", "CANT_ACT"} <= held_names(a)
    prone = next(h for h in a.held if h.name == "PRONE")
    cant = next(h for h in a.held if h.name == "CANT_ACT")
    assert prone.ending == "stands" and (cant.ending, cant.until_round) == ("round", 2)
    assert s.c("b").held == () and dice.remaining == 0


def test_F_FUMB_01_row_12_hits_yourself_for_normal_damage() -> None:
    """F-FUMB-01, F-TAB-36 row 12: heavy armor, d12 face 12 → the fumbler takes its own 1d8 DAM (face 5) with
    no ATK roll: HP 20 → 15."""
    s, dice = step(pc(armor_type="heavy", ac=16, hp=20, hp_max=20), monster(), faces=[1, 12, 5])
    act(s, "a", Action("attack", "b"))
    assert s.c("a").hp == 15
    assert dice.remaining == 0


def test_F_FUMB_01_row_11_attacks_a_random_ally() -> None:
    """F-FUMB-01, F-TAB-36 row 11: the fumbler ATKs a random ally (second of two: pick face 2) — d20+3 face 15
    = 18 vs its AC 12 hits for 1d8 (face 4)."""
    s, dice = step(pc(armor_type="heavy"), pc("x", hp=10), pc("y", hp=10), monster(), faces=[1, 11, 2, 15, 4])
    act(s, "a", Action("attack", "b"))
    assert s.c("y").hp == 6 and s.c("x").hp == 10 and s.c("b").hp == 50
    assert dice.remaining == 0


def test_F_FUMB_01_monsters_do_not_fumble_by_default() -> None:
    """F-FUMB-01, AMB-27, option monster_fumbles (default false): a monster's natural 1 is a plain miss; with
    the option on, it rolls the no-armor d4."""
    s, dice = step(pc(), monster(), faces=[1])
    attack(s, "b", "a")
    assert kinds(s.events) == ["fumble"] and s.events[0].data.get("table") is None and dice.remaining == 0
    s, dice = step(pc(), monster(), faces=[1, 1], rules=load_ruleset(overrides={"monster_fumbles": True}))
    attack(s, "b", "a")
    assert [e.rolls[0].expression for e in s.events if e.data.get("table") == "F-TAB-36"] == ["d4"]
    assert dice.remaining == 0


def test_F_FUMB_02_F_TAB_35_fumble_dice() -> None:
    """F-FUMB-02 / F-TAB-35: none d4, light d8, heavy d12."""
    fumble = RULES.tables.get("fumble")
    assert [RULES.tables.die_for(fumble, k)[0] for k in ("none", "light", "heavy")] == ["d4", "d8", "d12"]


# -- F-FTR-03 / AMB-01: Cleave ---------------------------------------------------------------------------------
def test_F_FTR_03_AMB_01_cleave_carries_the_excess_to_a_foe_in_close() -> None:
    """F-FTR-03, AMB-01: a 12-point blow (1d6+6, face 6) kills a 5-HP foe; 12 − 5 = 7 goes to a second foe
    CLOSE to it, with no roll."""
    s, dice = step(pc(damage="1d6+6", features=("Cleave",)), monster("b", hp=5, hp_max=5),
                   monster("c", hp=20, hp_max=20), faces=[15, 6])
    attack(s, "a", "b")
    assert s.c("b").status == "dead" and s.c("c").hp == 13
    assert only(s.events, "cleave").data["overflow"] == 7
    assert dice.remaining == 0


def test_AMB_01_nothing_carries_when_the_foe_dies_at_exactly_0() -> None:
    """AMB-01: a 5-HP foe struck for exactly 5 dies at 0; the remainder is 0 and nothing carries."""
    s, _ = step(pc(damage="5", features=("Cleave",)), monster("b", hp=5, hp_max=5), monster("c", hp=20, hp_max=20),
                faces=[15])
    attack(s, "a", "b")
    assert s.c("b").status == "dead" and s.c("c").hp == 20 and "cleave" not in kinds(s.events)


def test_AMB_01_cleave_does_not_chain() -> None:
    """AMB-01: one extra target only — 7 carried to a 2-HP foe kills it, and nothing goes on to a third."""
    s, _ = step(pc(damage="12", features=("Cleave",)), monster("b", hp=5, hp_max=5), monster("c", hp=2, hp_max=2),
                monster("d", hp=20, hp_max=20), faces=[15])
    attack(s, "a", "b")
    assert s.c("c").status == "dead" and s.c("c").hp == -5 and s.c("d").hp == 20
    assert len([e for e in s.events if e.kind == "cleave"]) == 1


def test_F_FTR_03_cleave_needs_a_second_foe_in_close_and_the_feature() -> None:
    """F-FTR-03: the second foe must be CLOSE; and only a Fighter with Cleave cleaves."""
    s, _ = step(pc(damage="12", features=("Cleave",)), monster("b", hp=5, hp_max=5),
                monster("c", hp=20, hp_max=20, zone="NEAR"), faces=[15])
    attack(s, "a", "b")
    assert s.c("c").hp == 20
    s, _ = step(pc(damage="12"), monster("b", hp=5, hp_max=5), monster("c", hp=20, hp_max=20), faces=[15])
    attack(s, "a", "b")
    assert s.c("c").hp == 20 and "cleave" not in kinds(s.events)


# -- F-ROG-04: Sneak Attack ------------------------------------------------------------------------------------
def test_F_ROG_04_sneak_attack_is_easy_and_a_hit_is_a_crit() -> None:
    """F-ROG-04, AMB-44: EASY (AC 15 − 3 = 12): d20+0 face 12 hits and is a crit — maximum 1d8 = 8 and a roll
    on the Rogue crit table (F-TAB-33) with the level-1 d6."""
    rogue = pc(char_class="Rogue", attack_bonus=0, features=("Sneak Attack",))
    s, _ = step(rogue, monster(ac=15), faces=[12, 2, 1])
    attack(s, "a", "b", sneak=True)
    hit = only(s.events, "hit")
    assert hit.data["crit"] is True and "vs AC 12" in said(hit)
    assert said(only(s.events, "damage_roll")) == "deals maximum 1d8 = 8"
    crit = only(s.events, "crit")
    assert crit.data["table"] == "F-TAB-33" and crit.rolls[0].expression == "d6"
    assert s.c("b").hp == 50 - 8 - 1


def test_F_ROG_04_AMB_44_a_sneak_attack_that_misses_is_no_crit() -> None:
    """F-ROG-04, AMB-44: d20+0 face 5 against AC 15 − 3 = 12 misses; no damage, no crit table."""
    rogue = pc(char_class="Rogue", attack_bonus=0, features=("Sneak Attack",))
    s, _ = step(rogue, monster(ac=15), faces=[5, 1, 1])
    attack(s, "a", "b", sneak=True)
    assert "miss" in kinds(s.events) and "crit" not in kinds(s.events)
    assert s.c("b").hp == 50


def test_F_ROG_04_sneak_without_the_feature_is_only_easy() -> None:
    """F-ROG-04: without the Sneak Attack feature the EASY still applies, but a hit is no crit."""
    s, dice = step(pc(attack_bonus=0), monster(ac=15), faces=[12, 3])
    attack(s, "a", "b", sneak=True)
    assert only(s.events, "hit").data["crit"] is False and s.c("b").hp == 47 and dice.remaining == 0


# -- F-ARCH-02: Barbarian ----------------------------------------------------------------------------------------
def test_F_ARCH_02_rage_on_first_attack_plus_prof_damage_minus_prof_ac() -> None:
    """F-ARCH-02, AMB-46: a Barbarian with 'rage' rages as she first attacks: AC 14 − PROF 2 = 12, DAM 1d8 + 2
    (face 5 → 7); a second attack does not rage again."""
    s, dice = step(pc(ac=14, prof=2, features=("rage",)), monster(), faces=[15, 5])
    act(s, "a", Action("attack", "b"))
    a = s.c("a")
    assert a.ac == 12 and "RAGING" in held_names(a)
    assert s.c("b").hp == 43 and dice.remaining == 0
    s2 = Step(s.enc, ScriptedDice([15, 5]), RULES)
    act(s2, "a", Action("attack", "b"))
    assert s2.c("a").ac == 12 and "rage" not in kinds(s2.events) and s2.c("b").hp == 36


def test_F_ARCH_02_no_rage_without_the_feature() -> None:
    """F-ARCH-02: without the feature, no rage: AC and DAM unchanged."""
    s, _ = step(pc(ac=14), monster(), faces=[15, 5])
    act(s, "a", Action("attack", "b"))
    assert s.c("a").ac == 14 and s.c("b").hp == 45


def test_F_ARCH_02_crit_range_19_in_melee_only() -> None:
    """F-ARCH-02, F-CRIT-01: crit_range 19 — a natural 19 on a melee ATK is a crit (max 1d8 = 8); on a
    ranged ATK it is an ordinary hit (1d8 rolled, face 3)."""
    s, _ = step(pc(crit_range=19), monster(ac=30), faces=[19, 1, 1, 1])
    attack(s, "a", "b")
    assert only(s.events, "hit").data["crit"] is True and "crit" in kinds(s.events)
    s, dice = step(pc(crit_range=19, ranged=True), monster(ac=10), faces=[19, 3])
    attack(s, "a", "b")
    assert only(s.events, "hit").data["crit"] is False and s.c("b").hp == 47 and dice.remaining == 0


# -- F-EQ-03 / AMB-36: shield sunder --------------------------------------------------------------------------------
def test_F_EQ_03_AMB_36_shield_sunders_to_soak_a_dropping_blow() -> None:
    """F-EQ-03, AMB-36: a blow of 7 would drop a 5-HP PC with a shield; she takes ceil(7/2) = 4 (HP 1), the
    shield is destroyed and her AC falls by 2 (14 → 12)."""
    s, dice = step(pc(hp=5, hp_max=5, ac=14, shield=True), monster(damage="1d8"), faces=[15, 7])
    attack(s, "b", "a")
    a = s.c("a")
    assert (a.hp, a.shield, a.ac, a.status) == (1, False, 12, "up")
    assert "sunder" in kinds(s.events) and dice.remaining == 0


def test_F_EQ_03_no_sunder_when_the_blow_would_not_drop_her() -> None:
    """F-EQ-03: a 3-point blow on 5 HP leaves the shield whole (HP 2, AC 14)."""
    s, _ = step(pc(hp=5, hp_max=5, ac=14, shield=True), monster(damage="1d8"), faces=[15, 3])
    attack(s, "b", "a")
    a = s.c("a")
    assert (a.hp, a.shield, a.ac) == (2, True, 14) and "sunder" not in kinds(s.events)


# -- F-INIT-01 / F-INIT-02 / F-SURP-01 ------------------------------------------------------------------------------
DUEL = (pc(damage="1d6"), monster(hp=3, hp_max=3, damage="1d6"))     # the combatants of a duel to the death


def test_F_INIT_01_higher_side_acts_first() -> None:
    """F-INIT-01: each side rolls d6 (a 5, b 2); a acts first, kills B (1d6 face 6 vs 3 HP), and B never acts."""
    dice = ScriptedDice([5, 2, 15, 6])
    enc, events = run_round(encounter(*DUEL, round=0), dice, RULES)
    assert enc.phases == (("a",), ("b",))
    assert [r.expression for r in only(events, "initiative").rolls] == ["d6", "d6"]
    assert enc.get("b").status == "dead" and enc.get("a").hp == 10
    assert enc.over and enc.winner == "a" and dice.remaining == 0


def test_F_INIT_01_lower_side_acts_second() -> None:
    """F-INIT-01: a rolls 2, b rolls 5: B attacks first (d20+2 face 10 hits AC 12, 1d6 face 4), then A."""
    dice = ScriptedDice([2, 5, 10, 4, 15, 1])
    enc, events = run_round(encounter(*DUEL, round=0), dice, RULES)
    assert enc.phases == (("b",), ("a",))
    hitters = [e.who for e in events if e.kind == "hit"]
    assert hitters == ["B", "A"] and enc.get("a").hp == 6 and dice.remaining == 0


def test_F_INIT_01_AMB_48_tie_acts_together_and_the_fallen_still_strikes() -> None:
    """F-INIT-01, AMB-48: a tie (3, 3) acts together; A kills B first, yet B's declared blow still lands
    (d20+2 face 15, 1d6 face 4): mutual kills are possible."""
    dice = ScriptedDice([3, 3, 15, 6, 15, 4])
    enc, events = run_round(encounter(*DUEL, round=0), dice, RULES)
    assert [e.who for e in events if e.kind == "hit"] == ["A", "B"]
    assert enc.phases == (("a", "b"),)
    assert enc.get("b").status == "dead" and enc.get("a").hp == 6
    assert enc.winner == "a" and dice.remaining == 0


def test_F_INIT_01_AMB_48_initiative_is_rolled_once_by_default() -> None:
    """AMB-48: initiative is rolled once per encounter (round 1); round 2 keeps the order and rolls no d6."""
    enc = Encounter(room_dc=12, combatants=(pc(), monster(hp=50, hp_max=50)))
    enc, _ = run_round(enc, ScriptedDice([5, 2, 2, 2]), RULES)        # both miss
    dice = ScriptedDice([2, 2])
    enc, events = run_round(enc, dice, RULES)
    assert enc.round == 2 and "initiative" not in kinds(events) and dice.remaining == 0


def test_F_INIT_02_ranged_phase_before_melee() -> None:
    """F-INIT-02: ranged attacks first, then melee — the ranged PC acts before the melee monster listed first."""
    archer = pc(ranged=True, zone="RANGED", damage="1d6")
    brute = monster(hp=50, hp_max=50, zone="CLOSE")
    dice = ScriptedDice([15, 2, 10, 3])
    enc, events = run_round(Encounter(room_dc=12, initiative="simultaneous", combatants=(brute, archer)), dice,
                            RULES)
    assert enc.phases == (("ranged",), ("melee",))
    assert [e.who for e in events if e.kind == "hit"] == ["A", "B"] and dice.remaining == 0


def test_F_INIT_02_a_melee_creature_killed_in_the_ranged_phase_does_not_strike() -> None:
    """F-INIT-02: killed by an arrow in the ranged phase, the brute never reaches the melee phase."""
    archer = pc(ranged=True, zone="RANGED", damage="1d6")
    dice = ScriptedDice([15, 6])
    enc, _ = run_round(encounter(archer, monster(hp=3, hp_max=3), round=0, initiative="simultaneous"), dice, RULES)
    assert enc.get("b").status == "dead" and enc.get("a").hp == 10 and dice.remaining == 0


def test_F_INIT_02_AMB_49_killed_melee_creature_strikes_when_its_total_is_not_lower() -> None:
    """F-INIT-02, AMB-49: A kills B with ATK total 15 (d20+5 face 10); B's total is 15 too (d20+0 face 15):
    not lower, so B's blow still resolves (1d6 face 3: A's HP 10 → 7)."""
    dice = ScriptedDice([10, 6, 15, 3])
    enc, events = run_round(encounter(pc(attack_bonus=5, damage="1d6"), monster(hp=3, hp_max=3, attack_bonus=0),
                                      round=0, initiative="simultaneous"), dice, RULES)
    assert enc.get("b").status == "dead" and enc.get("a").hp == 7
    assert "lost" not in kinds(events) and dice.remaining == 0


def test_F_INIT_02_AMB_49_killed_melee_creature_with_lower_total_loses_its_blow() -> None:
    """F-INIT-02, AMB-49: A kills B with ATK total 20 (d20+5 face 15); B's total 12 (d20+0 face 12) would hit
    A's AC 12 but is lower than 20: the blow is lost and A keeps all 10 HP."""
    dice = ScriptedDice([15, 6, 12, 3])
    enc, events = run_round(encounter(pc(attack_bonus=5, damage="1d6"), monster(hp=3, hp_max=3, attack_bonus=0),
                                      round=0, initiative="simultaneous"), dice, RULES)
    assert "lost" in kinds(events)
    assert enc.get("a").hp == 10


def test_F_SURP_01_surprised_side_does_not_act_in_round_1() -> None:
    """F-SURP-01: side b is surprised: even winning initiative (6 vs 1) it does not act in round 1; in round
    2 it acts (first, per the kept order)."""
    enc = Encounter(room_dc=12, combatants=(pc(), monster(hp=50, hp_max=50)), surprised=("b",))
    dice = ScriptedDice([1, 6, 15, 3])
    enc, events = run_round(enc, dice, RULES)
    assert [e.who for e in events if e.kind in ("hit", "miss")] == ["A"] and dice.remaining == 0
    dice = ScriptedDice([10, 4, 15, 3])
    enc, events = run_round(enc, dice, RULES)
    assert [e.who for e in events if e.kind in ("hit", "miss")] == ["B", "A"] and enc.get("a").hp == 6
    assert dice.remaining == 0


# -- F-CMBT-01: one action, illegal actions ------------------------------------------------------------------------
def test_F_CMBT_01_one_action_a_turn() -> None:
    """F-CMBT-01: a turn's attack is one ATK roll and one DAM roll, no more."""
    enc = Encounter(room_dc=12, combatants=(pc(), monster()))
    dice = ScriptedDice([15, 3])
    after, events = take_turn(enc, "a", Action("attack", "b"), dice, RULES)
    assert kinds(events).count("hit") == 1 and after.get("b").hp == 47 and dice.remaining == 0
    assert enc.get("b").hp == 50                                          # the input encounter is untouched


@pytest.mark.parametrize(("who", "action"), [
    ("dead", Action("attack", "b")),
    ("a", Action("attack", "nobody")),
    ("a", Action("attack")),
    ("a", Action("move_attack")),
    ("a", Action("attack", "ally")),
    ("a", Action("stabilise")),
])
def test_F_CMBT_01_illegal_actions_raise_and_leave_the_encounter_unchanged(who: str, action: Action) -> None:
    """F-CMBT-01: a dead combatant acting, an unknown target, an attack with no target, an attack on one's own
    side, stabilising nobody: IllegalActionError, and the encounter is unchanged."""
    enc = Encounter(room_dc=12, combatants=(pc(), pc("ally"), pc("dead", status="dead", hp=-9), monster()))
    before = enc.model_dump()
    with pytest.raises(IllegalActionError):
        take_turn(enc, who, action, ScriptedDice([10] * 6), RULES)
    assert enc.model_dump() == before


def test_F_CMBT_01_a_finished_fight_takes_no_more_rounds() -> None:
    """F-CMBT-01: run_round on an encounter that is over raises IllegalActionError."""
    enc = Encounter(room_dc=12, combatants=(pc(), monster()), over=True, winner="a")
    with pytest.raises(IllegalActionError):
        run_round(enc, ScriptedDice([]), RULES)


# -- conditions (AMB-03, AMB-20, AMB-22), DODGE, DISENGAGE --------------------------------------------------------
def test_AMB_03_a_one_round_condition_ends_at_the_holders_turn_next_round() -> None:
    """AMB-03: STUNNED 'for 1 round' applied in round 2 holds until round 3 and ends at the start of its
    holder's turn in round 3."""
    from furnace.play.apply import apply_all
    from furnace.rules.effects import parse_effect

    s, _ = step(pc(), monster(), faces=[], round=2)
    apply_all(s, [parse_effect({"kind": "condition", "name": "STUNNED", "duration": {"amount": "1", "unit": "round"}})],
              actor="a", target="b")
    held = next(h for h in s.c("b").held if h.name == "STUNNED")
    assert (held.ending, held.until_round) == ("round", 3)
    assert start_turn(s, "b") is False                                  # still round 2: stunned, no action
    s3 = Step(s.enc.model_copy(update={"round": 3}), ScriptedDice([]), RULES)
    assert start_turn(s3, "b") is True
    assert "STUNNED" not in held_names(s3.c("b")) and "expire" in kinds(s3.events)


def test_AMB_20_prone_stands_at_turn_start_and_cannot_move_to_attack() -> None:
    """AMB-20/22: PRONE (until it stands) ends at the start of its holder's turn; standing takes the turn's
    movement, so a NEAR creature cannot go CLOSE and attack that turn (no ATK roll)."""
    prone = Held(name="PRONE", ending="stands")
    s, dice = step(pc(zone="NEAR", held=(prone,)), monster(zone="NEAR"), faces=[])
    assert start_turn(s, "a") is True and "PRONE" not in held_names(s.c("a"))
    act(s, "a", Action("move_attack", "b"))
    assert kinds(s.events)[-1] == "wait" and "cannot move" in said(s.events[-1])
    assert s.c("a").zone == "NEAR" and "_stood_up" not in s.c("a").features and dice.remaining == 0


def test_AMB_20_prone_in_close_can_still_attack_after_standing() -> None:
    """AMB-20: standing up costs movement, not the action: in CLOSE she attacks."""
    s, dice = step(pc(held=(Held(name="PRONE", ending="stands"),)), monster(), faces=[15, 3])
    assert start_turn(s, "a") is True
    act(s, "a", Action("attack", "b"))
    assert s.c("b").hp == 47 and dice.remaining == 0


@pytest.mark.parametrize("condition", ["STUNNED", "PARALYSED"])
def test_AMB_22_stunned_or_paralysed_skips_the_action(condition: str) -> None:
    """AMB-22: a STUNNED or PARALYSED creature takes no action: in the round only B attacks (and EASY, against
    AC 12 − 3 = 9: d20+2 face 7 = 9 hits)."""
    enc = Encounter(room_dc=12, combatants=(
        pc(held=(Held(name=condition, ending="round", until_round=5),)), monster(hp=50, hp_max=50)))
    dice = ScriptedDice([5, 2, 7, 3])
    enc, events = run_round(enc, dice, RULES)
    assert [e.who for e in events if e.kind in ("hit", "miss")] == ["B"]
    assert "vs AC 9" in said(only(events, "hit")) and enc.get("a").hp == 7 and dice.remaining == 0


@pytest.mark.parametrize("condition", ["PRONE", "STUNNED"])
def test_AMB_22_attacks_against_prone_or_stunned_are_easy(condition: str) -> None:
    """AMB-22, F-BASE-04: ATK against a PRONE or STUNNED target is EASY — AC 12 − 3 = 9: d20+0 face 9 hits,
    face 8 misses."""
    target = monster(held=(Held(name=condition, ending="encounter"),))
    s, _ = step(pc(attack_bonus=0), target, faces=[9, 1])
    attack(s, "a", "b")
    assert "vs AC 9" in said(only(s.events, "hit"))
    s, _ = step(pc(attack_bonus=0), target, faces=[8])
    attack(s, "a", "b")
    assert only(s.events, "miss").data["total"] == 8


def test_AMB_22_ranged_attacks_against_prone_are_not_easy() -> None:
    """AMB-22: PRONE helps only attackers at hand: a ranged ATK against PRONE stays at AC 12."""
    s, _ = step(pc(attack_bonus=0, ranged=True), monster(held=(Held(name="PRONE", ending="stands"),)), faces=[9])
    attack(s, "a", "b")
    assert "miss" in kinds(s.events)


def test_AMB_22_blinded_attacker_is_hard() -> None:
    """AMB-22, F-BASE-04: a BLINDED attacker's ATK is HARD — AC 12 + 3 = 15: face 14 misses, face 15 hits."""
    blind = pc(attack_bonus=0, held=(Held(name="BLINDED", ending="encounter"),))
    s, _ = step(blind, monster(), faces=[14])
    attack(s, "a", "b")
    assert "(14 vs AC 15: AC 12, HARD as the attacker is BLINDED)" in said(only(s.events, "miss"))
    s, _ = step(blind, monster(), faces=[15, 1])
    attack(s, "a", "b")
    assert "vs AC 15" in said(only(s.events, "hit"))


def test_F_CMBT_02_dodge_makes_attacks_hard_until_the_dodgers_next_turn() -> None:
    """F-CMBT-02, AMB-03: B DODGEs in round 1; A's ATK against it is HARD (AC 12 + 3 = 15: d20+3 face 11 = 14
    misses); at B's turn in round 2 the dodge ends."""
    enc = Encounter(room_dc=12, round=1, combatants=(pc(), monster()))
    enc, events = take_turn(enc, "b", Action("dodge"), ScriptedDice([]), RULES)
    assert modifier_name("atk_against", "HARD") in held_names(enc.get("b")) and kinds(events)[0] == "dodge"
    enc, events = take_turn(enc, "a", Action("attack", "b"), ScriptedDice([11]), RULES)
    assert "(14 vs AC 15: AC 12, HARD as attacks against it are HARD)" in said(only(events, "miss"))
    s = Step(enc.model_copy(update={"round": 2}), ScriptedDice([]), RULES)
    start_turn(s, "b")
    assert s.c("b").held == ()


def test_F_CMBT_03_disengage_moves_to_near() -> None:
    """F-CMBT-03: DISENGAGE takes the creature out of CLOSE to NEAR, with no roll."""
    enc = Encounter(room_dc=12, combatants=(pc(), monster()))
    after, events = take_turn(enc, "b", Action("disengage"), ScriptedDice([]), RULES)
    assert after.get("b").zone == "NEAR" and kinds(events)[0] == "disengage"


# -- the log and replay ------------------------------------------------------------------------------------------
def test_F_CMBT_05_funnel_fight_ends_and_replays_exactly_from_its_seed() -> None:
    """F-CMBT-05, F-INIT-01: the funnel example fight ends; the same seed gives the same events; the log reads
    round by round."""
    rng = random.Random(1)
    enc, events = run_fight(example_fight("funnel-vs-goblins", rng), rng, RULES)
    rng = random.Random(1)
    again, events_again = run_fight(example_fight("funnel-vs-goblins", rng), rng, RULES)
    assert enc.over and enc.winner in ("party", "monsters", None) and 1 <= enc.round <= 20
    assert [e.to_dict() for e in events] == [e.to_dict() for e in events_again]
    assert enc.model_dump() == again.model_dump()
    text = log_text(events)
    assert "== Round 1 ==" in text and f"== Round {enc.round} ==" in text
    assert log_text(events, rolls=False).count("\n    ") == 0            # no dice lines in the quiet log


def test_F_CMBT_05_a_fight_replays_exactly_from_its_seed_and_actions() -> None:
    """F-CMBT-05 / the log: rounds and chosen actions replay to the same events from the same seed."""
    import random as _random

    from furnace.play.encounter import Action as _Action
    from furnace.play.encounter import run_round, take_turn
    from furnace.play.fightfile import build as _build
    from furnace.play.fightfile import load_fight as _load
    from furnace.play.recorded import Recorded, replay

    rules = load_ruleset()
    path = Path(__file__).resolve().parents[2] / "examples" / "funnel-vs-goblins.yaml"
    start = _build(_load(path), path.parent, _random.Random(5), rules)
    rng = _random.Random(11)
    enc, events = run_round(start, rng, rules)
    fighter = next(c for c in enc.combatants if c.side == "party" and c.active)
    foe = next(c for c in enc.combatants if c.side == "monsters" and c.active)
    enc, more = take_turn(enc, fighter.id, _Action("attack", foe.id), rng, rules)
    steps = [Recorded(), Recorded(fighter.id, _Action("attack", foe.id))]
    again, replayed = replay(start, 11, steps, rules)
    assert [e.to_dict() for e in replayed] == [e.to_dict() for e in events + more]
    assert again.model_dump() == enc.model_dump()


def test_F_ROG_04_F_SURP_01_a_rogue_sneak_attacks_the_surprised_in_round_one() -> None:
    """F-ROG-04, F-SURP-01: the surprised side does not act in round 1 and is unaware: the Rogue's tactic
    makes a Sneak Attack (EASY, and a hit is a crit)."""
    from furnace.play.encounter import tactic_attack_nearest
    from furnace.play.state import Encounter as _Encounter

    rogue = Combatant(id="r", name="Wren", side="party", kind="pc", level=3, prof=2, char_class="Rogue", hp=12,
                      hp_max=12, ac=13, attack_bonus=4, damage="1d8+2", zone="CLOSE", features=("Sneak Attack",))
    foe = Combatant(id="g", name="Goblin", side="goblins", hp=6, hp_max=6, ac=12, attack_bonus=2, zone="CLOSE")
    enc = _Encounter(room_dc=12, combatants=(rogue, foe), surprised=("goblins",), round=1)
    assert tactic_attack_nearest(enc, rogue).sneak
    assert not tactic_attack_nearest(enc.model_copy(update={"round": 2}), rogue).sneak
    assert not tactic_attack_nearest(enc.model_copy(update={"surprised": ()}), rogue).sneak
