"""Damage, dying, death and injuries (`furnace.play.death`) under the three death models.

RULES.md F.16: F-DEATH-01 (dying, the 1d4 timer, the natural 20), F-DEATH-02 (the threshold −(3+LVL+CON)),
F-DEATH-03 (knocked down twice, AMB-61), F-INJ-01/02 (stabilisation and the injury tables, AMB-28, AMB-29,
AMB-31, D-12), CF-50 (monsters at 0), H-DMG-02/03 (the Hazards model), M-GRIEV-01 and D-4 (the Middle Sea model).
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.events import Event
from furnace.play.conditions import modifier_name
from furnace.play.death import death_threshold, take_damage
from furnace.play.encounter import Action, act, start_turn
from furnace.play.injuries import roll_injury
from furnace.play.registry import DEATH_MODELS
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import monster, pc, step

RULES = load_ruleset()
SCORES = {"STR": 12, "DEX": 12, "CON": 12, "INT": 12, "WIS": 12, "CHA": 12}
PC: dict[str, Any] = dict(hp=3, hit_die="d10", scores=SCORES, saves={"CON": 0, "WIS": 2})   # a level-1 Fighter at 3 HP
MON: dict[str, Any] = dict(hp=3, hp_max=3, saves={})   # a level-1 monster of 3 HP, no SAVE bonus


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


# -- F-DEATH-02: the threshold -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("level", "con", "threshold"), [(3, 1, -7), (1, 0, -4), (0, 0, -3), (10, 3, -16),
                                                         (1, -1, -3)])
def test_F_DEATH_02_threshold(level: int, con: int, threshold: int) -> None:
    """F-DEATH-02 (3): dead at HP ≤ −(3 + LVL + CON): level 3 CON +1 → −7; level 1 CON 0 → −4."""
    assert death_threshold(pc(PC, level=level, con_mod=con)) == threshold


def test_F_DEATH_02_level_3_con_plus_1_dying_at_minus_6_dead_at_minus_7() -> None:
    """F-DEATH-02: level 3, CON +1, HP 4: a blow of 10 (HP −6) leaves her dying (1d4 timer rolled); a blow of 11
    (HP −7) kills her outright (no timer)."""
    s, dice = step(pc(PC, level=3, con_mod=1, hp=4), faces=[2])
    take_damage(s, "a", 10, "a blow")
    assert (s.c("a").hp, s.c("a").status, s.c("a").dying_turns) == (-6, "dying", 2) and dice.remaining == 0
    s, dice = step(pc(PC, level=3, con_mod=1, hp=4), faces=[])
    take_damage(s, "a", 11, "a blow")
    assert (s.c("a").hp, s.c("a").status) == (-7, "dead")


def test_F_DEATH_02_level_1_con_0_dead_at_minus_4() -> None:
    """F-DEATH-02: level 1, CON 0: HP −3 is dying, HP −4 is dead."""
    s, _ = step(pc(PC, hp=3), faces=[1])
    take_damage(s, "a", 6, "a blow")
    assert (s.c("a").hp, s.c("a").status) == (-3, "dying")
    s, _ = step(pc(PC, hp=3), faces=[])
    take_damage(s, "a", 7, "a blow")
    assert (s.c("a").hp, s.c("a").status) == (-4, "dead")


def test_F_DEATH_02_a_dying_character_hit_again() -> None:
    """F-DEATH-02: a dying character (HP −2) hit for 1 stays dying with the same timer (no new 1d4); hit for 2
    more (HP −4 at level 1, CON 0) she dies."""
    dying = pc(PC, hp=-2, status="dying", dying_turns=3, knocked_down=1)
    s, dice = step(dying, faces=[])
    take_damage(s, "a", 1, "a blow")
    assert (s.c("a").hp, s.c("a").status, s.c("a").dying_turns) == (-3, "dying", 3) and dice.remaining == 0
    take_damage(s, "a", 1, "a blow")
    assert s.c("a").status == "dead"


# -- F-DEATH-01: dying -----------------------------------------------------------------------------------------------
def test_F_DEATH_01_at_0_hp_a_pc_is_dying_with_a_1d4_timer() -> None:
    """F-DEATH-01: exactly 0 HP → unconscious and dying; 1d4 (face 3) turns to live; counted as a drop."""
    s, dice = step(pc(PC, hp=3), faces=[3])
    take_damage(s, "a", 3, "a blow")
    a = s.c("a")
    assert (a.hp, a.status, a.dying_turns, a.knocked_down, a.active) == (0, "dying", 3, 1, False)
    assert s.events[-1].kind == "dying" and s.events[-1].rolls[0].expression == "1d4" and dice.remaining == 0


def test_F_DEATH_01_AMB_31_natural_20_gets_up_with_1_hp_and_no_injury_roll() -> None:
    """F-DEATH-01, AMB-31: at her turn a dying PC rolls a d20; a natural 20 → up with 1 HP, the timer stops and no
    injury is rolled (exactly one die)."""
    s, dice = step(pc(PC, hp=-2, status="dying", dying_turns=2), faces=[20])
    assert start_turn(s, "a") is True
    a = s.c("a")
    assert (a.hp, a.status, a.dying_turns, a.injuries) == (1, "up", None, ()) and dice.remaining == 0


def test_F_DEATH_01_without_a_20_she_dies_on_the_timers_last_turn() -> None:
    """F-DEATH-01, F-DEATH-02 (1): timer 3 — d20 faces 5, 19, 5: dying after turns 1 and 2, dead at turn 3
    (a 19 is not a 20)."""
    s, dice = step(pc(PC, hp=-1, status="dying", dying_turns=3), faces=[5, 19, 5])
    for turn, expected in ((1, ("dying", 2)), (2, ("dying", 1))):
        s.enc = s.enc.model_copy(update={"round": turn})
        assert start_turn(s, "a") is False
        assert (s.c("a").status, s.c("a").dying_turns) == expected
    s.enc = s.enc.model_copy(update={"round": 3})
    assert start_turn(s, "a") is False
    assert s.c("a").status == "dead" and dice.remaining == 0


def test_F_DEATH_01_a_timer_of_1_dies_at_the_next_turn() -> None:
    """F-DEATH-01: a 1d4 of 1 → the first turn's d20 (face 2) is the last chance."""
    s, dice = step(pc(PC, hp=0, status="dying", dying_turns=1), faces=[2])
    start_turn(s, "a")
    assert s.c("a").status == "dead" and dice.remaining == 0


# -- F-DEATH-03: knocked down twice (optional) ----------------------------------------------------------------------
TWICE = load_ruleset(overrides={"knocked_down_twice": True})


def test_F_DEATH_03_off_by_default() -> None:
    """F-DEATH-03: optional — by default a second drop only rolls the 1d4 timer."""
    s, dice = step(pc(PC, hp=2, knocked_down=1), faces=[2])
    take_damage(s, "a", 4, "a blow")
    assert s.c("a").status == "dying" and s.c("a").knocked_down == 2 and dice.remaining == 0


def test_F_DEATH_03_second_drop_failed_con_save_kills() -> None:
    """F-DEATH-03, AMB-61: the second drop in the encounter asks a CON SAVE vs ROOM DC 12: d20+1 face 10 = 11
    fails → dead."""
    s, dice = step(pc(PC, hp=2, knocked_down=1, saves={"CON": 1}), faces=[2, 10], rules=TWICE)
    take_damage(s, "a", 4, "a blow")
    assert s.c("a").status == "dead" and dice.remaining == 0


def test_F_DEATH_03_second_drop_saved_stays_dying() -> None:
    """F-DEATH-03: d20+1 face 11 = 12 meets ROOM DC 12 → she is only dying."""
    s, dice = step(pc(PC, hp=2, knocked_down=1, saves={"CON": 1}), faces=[2, 11], rules=TWICE)
    take_damage(s, "a", 4, "a blow")
    assert (s.c("a").status, s.c("a").dying_turns) == ("dying", 2) and dice.remaining == 0


def test_F_DEATH_03_first_drop_asks_no_save() -> None:
    """F-DEATH-03: the first drop asks nothing but the timer."""
    s, dice = step(pc(PC, hp=2), faces=[2], rules=TWICE)
    take_damage(s, "a", 4, "a blow")
    assert s.c("a").status == "dying" and dice.remaining == 0


def test_AMB_61_later_drops_also_ask_unless_switched_off() -> None:
    """AMB-61: the 3rd drop also asks the save (knocked_down_every_later_drop, default true); switched off, it
    does not."""
    s, dice = step(pc(PC, hp=2, knocked_down=2), faces=[2, 1], rules=TWICE)
    take_damage(s, "a", 4, "a blow")
    assert s.c("a").status == "dead" and dice.remaining == 0
    only_second = TWICE.with_options({"knocked_down_every_later_drop": False})
    s, dice = step(pc(PC, hp=2, knocked_down=2), faces=[2], rules=only_second)
    take_damage(s, "a", 4, "a blow")
    assert s.c("a").status == "dying" and dice.remaining == 0


# -- monsters (CF-50) -------------------------------------------------------------------------------------------------
def test_CF_50_monsters_die_at_0() -> None:
    """CF-50, AMB-01: a monster at 0 HP dies (no timer); at 1 HP it fights on."""
    s, dice = step(monster(MON), faces=[])
    take_damage(s, "b", 2, "a blow")
    assert s.c("b").status == "up"
    take_damage(s, "b", 1, "a blow")
    assert (s.c("b").hp, s.c("b").status) == (0, "dead") and dice.remaining == 0


def test_CF_50_monster_zero_hp_out_of_fight() -> None:
    """CF-50, M-MOOK-01: with monster_zero_hp out_of_fight a monster at 0 is out of the fight, not dead."""
    s, _ = step(monster(MON), faces=[], rules=load_ruleset(overrides={"monster_zero_hp": "out_of_fight"}))
    take_damage(s, "b", 5, "a blow")
    assert s.c("b").status == "out" and not s.c("b").in_fight


# -- the Hazards model (H-DMG-02/03) ---------------------------------------------------------------------------------
HAZARDS = load_ruleset("hazards")


def test_H_DMG_02_hazards_unconscious_at_0_without_a_timer() -> None:
    """H-DMG-02, CF-30/31: under death_model hazards a PC at 0 or −2 is unconscious, with no 1d4 timer."""
    assert HAZARDS["death_model"] == "hazards" and "hazards" in DEATH_MODELS
    for blow, hp in ((3, 0), (5, -2)):
        s, dice = step(pc(PC, hp=3), faces=[], rules=HAZARDS)
        take_damage(s, "a", blow, "a blow")
        a = s.c("a")
        assert (a.hp, a.status, a.dying_turns) == (hp, "unconscious", None) and dice.remaining == 0


def test_H_DMG_03_hazards_dead_at_minus_3() -> None:
    """H-DMG-03: dead at −3 HP, whatever the level (a level-5 PC too)."""
    s, _ = step(pc(PC, hp=3, level=5, con_mod=2), faces=[], rules=HAZARDS)
    take_damage(s, "a", 6, "a blow")
    assert (s.c("a").hp, s.c("a").status) == (-3, "dead")


# -- the Middle Sea model (M-GRIEV-01, D-4) ---------------------------------------------------------------------------
MIDDLE_SEA = load_ruleset("middle-sea")


def test_M_GRIEV_01_hp_stop_at_0_and_3d6_plus_excess_21_is_death() -> None:
    """M-GRIEV-01, M-TAB-01: HP 2 hit for 5 → HP stop at 0, excess 3; 3d6 (6, 6, 6) + 3 = 21 → instant death."""
    s, dice = step(pc(PC, hp=2), faces=[6, 6, 6], rules=MIDDLE_SEA)
    take_damage(s, "a", 5, "a blow")
    grievous = next(e for e in s.events if e.kind == "grievous")
    assert grievous.rolls[0].total == 21 and grievous.data["table"] == "M-TAB-01"
    assert (s.c("a").hp, s.c("a").status) == (0, "dead") and dice.remaining == 0


def test_M_GRIEV_01_second_wind_row() -> None:
    """M-GRIEV-01/02, M-TAB-01 rows 4-6: 3d6 (1, 1, 1) + excess 3 = 6 → Second Wind: one hit die (d10 face 6) +
    floor(LVL 5 / 2) = 8 HP, from 0."""
    s, dice = step(pc(PC, hp=2, level=5), faces=[1, 1, 1, 6], rules=MIDDLE_SEA)
    take_damage(s, "a", 5, "a blow")
    assert (s.c("a").hp, s.c("a").status) == (8, "up") and dice.remaining == 0


def test_D_4_middle_sea_exactly_0_is_knocked_down_without_a_roll() -> None:
    """D-4: a blow that leaves exactly 0 HP makes no roll: conscious at 0 and KNOCKED_DOWN until she stands."""
    s, dice = step(pc(PC, hp=3), faces=[], rules=MIDDLE_SEA)
    take_damage(s, "a", 3, "a blow")
    a = s.c("a")
    assert (a.hp, a.status) == (0, "up") and [(h.name, h.ending) for h in a.held] == [("KNOCKED_DOWN", "stands")]
    assert dice.remaining == 0


def test_M_MOOK_01_middle_sea_monsters_are_out_at_0() -> None:
    """M-MOOK-01, CF-50: the middle-sea profile sets monster_zero_hp out_of_fight."""
    s, _ = step(monster(MON), faces=[], rules=MIDDLE_SEA)
    take_damage(s, "b", 3, "a blow")
    assert s.c("b").status == "out"


# -- F-INJ-01/02: stabilisation and injuries -------------------------------------------------------------------------
DYING_PAIR = (pc("healer", PC, hp=10), pc(PC, hp=-2, status="dying", dying_turns=2))   # a healer by a dying PC


def test_F_INJ_01_AMB_28_stabilise_stops_the_timer_and_rolls_injuries_row_1_is_death() -> None:
    """F-INJ-01, AMB-28: Medicine CHECK d20 + WIS 12 (+0; no Medicine proficiency, and not the WIS SAVE's +2) face
    12 = 12 vs ROOM DC 12 stabilises (timer gone), then d20 on the injury table named by the option injury_table
    (F-TAB-37b): face 1 → 'false hope', dead (AMB-29)."""
    s, dice = step(*DYING_PAIR, faces=[12, 1])
    act(s, "healer", Action("stabilise", "a"))
    injury = next(e for e in s.events if e.kind == "injury")
    assert injury.data["table"] == "F-TAB-37b" and injury.rolls[0].expression == "d20"
    assert s.c("a").status == "dead" and dice.remaining == 0


def test_F_INJ_01_stabilised_without_injury_death() -> None:
    """F-INJ-01: stabilised (timer stopped); injury face 2 → Strength −1d6 (face 3): 12 → 9; still at −2 HP."""
    s, dice = step(*DYING_PAIR, faces=[15, 2, 3])
    act(s, "healer", Action("stabilise", "a"))
    a = s.c("a")
    assert (a.status, a.dying_turns, a.hp, a.scores["STR"]) == ("stable", None, -2, 9)
    assert a.injuries == ("Strength score -1d6.",) and dice.remaining == 0


@pytest.mark.parametrize(("face", "ability"), [(2, "STR"), (3, "DEX"), (4, "CON"), (5, "INT"), (6, "WIS"),
                                               (7, "CHA")])
def test_F_INJ_01_rows_2_to_7_ability_loss(face: int, ability: str) -> None:
    """F-INJ-01, F-TAB-37b rows 2-7: STR, DEX, CON, INT, WIS, CHA −1d6 (face 6): 12 → 6."""
    s, dice = step(pc(PC, hp=-1, status="stable"), faces=[face, 6])
    roll_injury(s, "a")
    assert s.c("a").scores[ability] == 6 and dice.remaining == 0


def test_F_INJ_01_ability_loss_to_0_kills() -> None:
    """F-INJ-01, F-ABIL-05: WIS 4 − 1d6 (face 5) → 0 → dead."""
    s, _ = step(pc(PC, hp=-1, status="stable", scores={**SCORES, "WIS": 4}), faces=[6, 5])
    roll_injury(s, "a")
    assert s.c("a").scores["WIS"] == 0 and s.c("a").status == "dead"


@pytest.mark.parametrize("face", [8, 13])
def test_F_INJ_02_rows_8_to_13_roll_lingering_injuries(face: int) -> None:
    """F-INJ-01/02, CF-13: F-TAB-37b rows 8-13 roll on the Lingering Injuries table F-TAB-38 (d20 face 17 → minor
    scar); both results are noted."""
    s, dice = step(pc(PC, hp=-1, status="stable"), faces=[face, 17])
    roll_injury(s, "a")
    assert s.c("a").injuries == ("Roll on the Lingering Injuries table.", "Minor scar: no effect.")
    assert dice.remaining == 0


def test_F_INJ_01_rows_14_to_19_checks_hard_until_rest() -> None:
    """F-INJ-01, F-TAB-37b rows 14-19, D-7: every CHECK is HARD until the next rest."""
    s, _ = step(pc(PC, hp=-1, status="stable"), faces=[14])
    roll_injury(s, "a")
    held = [h for h in s.c("a").held if h.name == modifier_name("checks", "HARD")]
    assert len(held) == 1 and held[0].ending == "rest"


def test_D_12_injury_row_20_level_0_heals_1d4() -> None:
    """F-INJ-01, AMB-33, D-12: row 20 heals one Hit Die, 1d4 at level 0 (face 3): HP −2 → 3, up."""
    s, dice = step(pc(PC, level=0, char_class=None, hit_die="d4", hp=-2, status="stable"), faces=[20, 3])
    roll_injury(s, "a")
    assert (s.c("a").hp, s.c("a").status) == (3, "up") and dice.remaining == 0


def test_F_INJ_01_injury_table_option_F_TAB_37a() -> None:
    """CF-02, option injury_table: set to F-TAB-37a, the Death-section version is rolled."""
    rules = load_ruleset(overrides={"injury_table": "F-TAB-37a"})
    s, _ = step(pc(PC, hp=-1, status="stable"), faces=[17], rules=rules)
    roll_injury(s, "a")
    assert next(e for e in s.events if e.kind == "injury").data["table"] == "F-TAB-37a"


def test_AMB_28_a_failed_medicine_check_leaves_her_dying() -> None:
    """AMB-28: d20+2 face 9 = 11 < ROOM DC 12: still dying, timer kept, no injury roll."""
    s, dice = step(*DYING_PAIR, faces=[9])
    act(s, "healer", Action("stabilise", "a"))
    assert (s.c("a").status, s.c("a").dying_turns) == ("dying", 2) and "injury" not in kinds(s.events)
    assert dice.remaining == 0


def test_AMB_28_stabilising_someone_not_dying_rolls_nothing() -> None:
    """AMB-28: only a dying character is stabilised; anyone else: no CHECK, no injury."""
    s, dice = step(pc("healer", PC, hp=10), pc(PC, hp=5), faces=[])
    act(s, "healer", Action("stabilise", "a"))
    assert s.c("a").status == "up" and dice.remaining == 0
