"""The SPELLCHECK (`furnace.magic.spellcheck`): d20 + INT/WIS + PROF read on the Success Level table F-TAB-11.

RULES.md F-SPELL-02 (the roll; EASY/HARD move the DC), F-SPELL-03 (the bands), F-SPELL-04 (the ROOM DC gate,
AMB-17), F-SPELL-06 (1/2/4/7/11 Spell Dice), F-SPELL-08 (the crit, AMB-18 and the option
spell_nat20_autosuccess), F-SPELL-09 (Luck Dice move the SL by at most 1, AMB-19), F-SPELL-10 (a natural 1 is a
mishap whatever the total, AMB-16).

Dice are scripted: `ScriptedDice` raises when asked for one die too many, and `remaining == 0` proves the
rule asked for no fewer.
"""

from __future__ import annotations

import pytest

from furnace.dice import ScriptedDice
from furnace.magic.spellcheck import Spellcheck, dice_for_sl, spellcheck, success_level
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset()


def check_at(total: int, room_dc: int = 12, *, prof: int = 2, face: int = 10, **kw: object) -> Spellcheck:
    """A SPELLCHECK whose total is `total`: the d20 shows `face` (not 1, not 20), the modifier makes up the rest."""
    dice = ScriptedDice([face])
    check = spellcheck(dice, total - face - prof, prof, room_dc, RULES, **kw)  # type: ignore[arg-type]
    assert dice.remaining == 0 and check.roll.total == total
    return check


# -- F-SPELL-02/03: the success bands at their edges ---------------------------------------------------------
BANDS = [  # total, SL, Spell Dice (F-TAB-11, F-SPELL-06)
    (11, 0, 0), (12, 1, 1), (15, 1, 1), (16, 2, 2), (20, 2, 2), (21, 3, 4), (26, 3, 4),
    (27, 4, 7), (31, 4, 7), (32, 5, 11), (35, 5, 11), (36, 6, None),
]


@pytest.mark.parametrize(("total", "sl", "spell_dice"), BANDS)
def test_F_SPELL_03_success_level_table_edges(total: int, sl: int, spell_dice: int | None) -> None:
    """F-SPELL-03, F-SPELL-06: 2–11 Failure; 12–15 SL1 (1 die); 16–20 SL2 (2); 21–26 SL3 (4); 27–31 SL4 (7);
    32–35 SL5 (11); 36+ SL6, a WONDER with no budget (dice None)."""
    assert success_level(total, RULES) == (sl, spell_dice)


@pytest.mark.parametrize(("total", "sl", "spell_dice"), BANDS)
def test_F_SPELL_02_03_spellcheck_reads_the_band_from_the_total(total: int, sl: int, spell_dice: int | None) -> None:
    """F-SPELL-02/03: total = d20 + modifier + PROF, looked up on F-TAB-11 (ROOM DC 12 so only the band decides)."""
    check = check_at(total)
    assert check.total == total
    assert (check.sl, check.spell_dice, check.success) == (sl, spell_dice, sl > 0)
    assert not check.mishap and not check.crit


def test_F_SPELL_02_the_roll_is_d20_plus_modifier_plus_prof() -> None:
    """F-SPELL-02: d20 face 13 + INT 3 + PROF 2 = 18 → SL2; the roll names its parts."""
    check = spellcheck(ScriptedDice([13]), 3, 2, 12, RULES)
    assert check.roll.expression == "d20+INT+PROF"
    assert check.roll.variables == {"INT": 3, "PROF": 2}
    assert (check.natural, check.total, check.sl, check.spell_dice) == (13, 18, 2, 2)


def test_F_SPELL_02_divine_spellcheck_names_wis() -> None:
    """F-SPELL-02, F-CLR-03: a divine SPELLCHECK adds WIS instead of INT."""
    check = spellcheck(ScriptedDice([13]), 1, 2, 12, RULES, ability="WIS")
    assert check.roll.expression == "d20+WIS+PROF" and check.total == 16


@pytest.mark.parametrize(("total", "sl", "spell_dice"), [(0, 0, 0), (-4, 0, 0), (2, 0, 0)])
def test_AMB_16_totals_below_12_are_failure_not_mishap(total: int, sl: int, spell_dice: int) -> None:
    """AMB-16, F-SPELL-03: a total of 1 or less (negative modifiers) is Failure; only a natural 1 is a mishap."""
    assert success_level(total, RULES) == (sl, spell_dice)
    check = check_at(total, face=2)
    assert not check.mishap and not check.success and check.sl == 0


def test_F_SPELL_06_dice_for_sl_is_1_2_4_7_11_and_a_wonder() -> None:
    """F-SPELL-06: the budget per SL is 1, 2, 4, 7, 11; SL6 is a WONDER (None); Failure buys 0."""
    assert [dice_for_sl(sl, RULES) for sl in range(0, 7)] == [0, 1, 2, 4, 7, 11, None]


# -- F-SPELL-04 / AMB-17: the ROOM DC gate --------------------------------------------------------------------
def test_F_SPELL_04_AMB_17_room_dc_14_total_13_fails_though_sl1() -> None:
    """F-SPELL-04, AMB-17: ROOM DC 14, total 13 → fails, although 13 is in the SL1 band."""
    assert success_level(13, RULES) == (1, 1)
    check = check_at(13, room_dc=14)
    assert not check.success and check.sl == 0 and check.spell_dice == 0
    assert "SL1" in check.explain() and "F-SPELL-04" in check.explain()


def test_F_SPELL_04_AMB_17_room_dc_10_total_11_fails_below_12() -> None:
    """F-SPELL-04, AMB-17: ROOM DC 10, total 11 → fails (success needs total ≥ max(12, ROOM DC))."""
    check = check_at(11, room_dc=10)
    assert not check.success and check.sl == 0


def test_F_SPELL_04_total_equal_to_room_dc_succeeds() -> None:
    """F-SPELL-04: total ≥ ROOM DC: 14 against ROOM DC 14 is SL1."""
    check = check_at(14, room_dc=14)
    assert check.success and (check.sl, check.spell_dice) == (1, 1)


def test_F_SPELL_02_AMB_17_hard_moves_the_dc_not_the_sl() -> None:
    """F-SPELL-02, AMB-17: ROOM DC 14 HARD → DC 17. Total 16 (the SL2 band) fails; total 17 is SL2, not SL1."""
    fail = check_at(16, room_dc=14, hard=["HARD"])
    assert fail.dc.value == 17 and not fail.success
    ok = check_at(17, room_dc=14, hard=["HARD"])
    assert ok.success and (ok.sl, ok.spell_dice) == (2, 2)


def test_F_SPELL_02_AMB_17_easy_moves_the_dc_but_12_stays_the_floor() -> None:
    """F-SPELL-02, AMB-17: ROOM DC 14 EASY → DC 11: total 12 succeeds at SL1; total 11 still fails (< 12)."""
    ok = check_at(12, room_dc=14, easy=["EASY"])
    assert ok.dc.value == 11 and ok.success and ok.sl == 1
    assert not check_at(11, room_dc=14, easy=["EASY"]).success


# -- F-SPELL-08 / AMB-18: natural 20 --------------------------------------------------------------------------
def test_F_SPELL_08_natural_20_triple_prof_sl4_and_9_dice() -> None:
    """F-SPELL-08 (worked example): INT +3, PROF +2, natural 20 → 20 + 3 + 3 × 2 = 29 → SL4 (7d) + 2d = 9 dice."""
    dice = ScriptedDice([20])
    check = spellcheck(dice, 3, 2, 12, RULES)
    assert dice.remaining == 0
    assert check.crit and check.natural == 20
    assert (check.roll.total, check.total, check.sl, check.spell_dice, check.success) == (25, 29, 4, 9, True)


def test_F_SPELL_08_AMB_18_natural_20_is_not_an_automatic_success() -> None:
    """AMB-18: no automatic success. INT −8, PROF +1, natural 20 → 20 − 8 + 3 = 15 against ROOM DC 18: fails,
    and no +2 dice."""
    check = spellcheck(ScriptedDice([20]), -8, 1, 18, RULES)
    assert check.crit and check.total == 15
    assert not check.success and check.sl == 0 and check.spell_dice == 0


def test_AMB_18_option_spell_nat20_autosuccess() -> None:
    """AMB-18, option spell_nat20_autosuccess (default false): when on, the same natural 20 (total 15 vs ROOM DC 18)
    succeeds at SL1 with 1 + 2 dice."""
    assert RULES["spell_nat20_autosuccess"] is False
    rules = load_ruleset(overrides={"spell_nat20_autosuccess": True})
    check = spellcheck(ScriptedDice([20]), -8, 1, 18, rules)
    assert check.success and (check.sl, check.spell_dice) == (1, 3)


def test_F_SPELL_08_a_crit_into_a_wonder_has_no_dice_to_add() -> None:
    """F-SPELL-08, F-SPELL-06: natural 20 + INT 4 + 3 × PROF 4 = 36 → SL6, a WONDER: no budget (None)."""
    check = spellcheck(ScriptedDice([20]), 4, 4, 12, RULES)
    assert check.total == 36 and check.success and (check.sl, check.spell_dice) == (6, None)


# -- F-SPELL-10 / AMB-16: natural 1 ---------------------------------------------------------------------------
@pytest.mark.parametrize("mod", [0, 10, 30])
def test_F_SPELL_10_natural_1_is_a_mishap_whatever_the_total(mod: int) -> None:
    """F-SPELL-10, AMB-16: a natural 1 fails with a mishap even when the total (up to 33, the SL5 band) is high."""
    check = spellcheck(ScriptedDice([1]), mod, 2, 12, RULES)
    assert check.total == 1 + mod + 2
    assert check.mishap and not check.success and check.sl == 0 and check.spell_dice == 0
    assert "F-SPELL-10" in check.explain()


# -- F-SPELL-09 / AMB-19: Luck Dice ---------------------------------------------------------------------------
def test_F_SPELL_09_two_luck_dice_move_the_sl_by_one_only() -> None:
    """F-SPELL-09: total 12 (SL1) + two Luck Dice (d6 6 + 6) = 24, the SL3 band, but the SL moves only to SL2
    (2 dice)."""
    dice = ScriptedDice([10, 6, 6])
    check = spellcheck(dice, 0, 2, 12, RULES, luck_dice=2)
    assert dice.remaining == 0
    assert check.total == 24 and success_level(24, RULES)[0] == 3
    assert check.success and (check.sl, check.spell_dice) == (2, 2)


def test_F_SPELL_09_AMB_19_luck_lifts_failure_to_sl1() -> None:
    """AMB-19: Failure counts as SL0: total 11 + Luck Die 6 = 17 (SL2 band) → SL1, 1 die."""
    check = spellcheck(ScriptedDice([9, 6]), 0, 2, 12, RULES, luck_dice=1)
    assert check.total == 17 and check.success and (check.sl, check.spell_dice) == (1, 1)


def test_F_SPELL_09_one_step_within_the_next_band() -> None:
    """F-SPELL-09: total 15 (SL1) + Luck Die 3 = 18 (SL2): one step is allowed in full."""
    check = spellcheck(ScriptedDice([13, 3]), 0, 2, 12, RULES, luck_dice=1)
    assert check.total == 18 and (check.sl, check.spell_dice) == (2, 2)


def test_AMB_19_luck_never_cancels_a_natural_1_mishap() -> None:
    """AMB-19, F-SPELL-10: a natural 1 stays a mishap whatever the Luck Dice add."""
    check = spellcheck(ScriptedDice([1, 6, 6]), 10, 2, 12, RULES, luck_dice=2)
    assert check.mishap and not check.success and check.sl == 0
