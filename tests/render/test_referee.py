"""What the referee reads (issue 12): effects as sentences (never a repr), the dice a row names rolled and shown
with their totals, and rule ids taken out of the plain output (`--explain` keeps them)."""

from __future__ import annotations

import pytest

from furnace.dice import ScriptedDice
from furnace.render.referee import effect_lines
from furnace.rules.effects import effect_summary, parse_effect
from furnace.rules.ids import without_rule_ids
from furnace.rules.tables import TableSet


def test_F_TAB_18_a_save_with_what_a_failure_does_is_one_sentence() -> None:
    """F-TAB-18 row 2-3 (AMB-20): a DEX SAVE against the ROOM DC, or the caster falls PRONE until she stands."""
    row = TableSet.packaged().get("mishap").lookup(2)
    assert [effect_summary(e) for e in row.effects] == [
        "The roller makes a DEX SAVE against the ROOM DC; if it fails: the roller is PRONE until it stands"]


def test_F_TAB_31_row_8_sunder_reads_both_branches_with_their_dice_rolled() -> None:
    """F-TAB-31 row 8 (AMB-23): +1d10 with a weapon to sunder, 1d12 without; scripted faces 7 and 11."""
    row = TableSet.packaged().get("crit-fighter").lookup(8)
    lines, rolls = effect_lines(row.effects, ScriptedDice([7, 11]))
    assert lines[0].startswith("The target's weapon is sundered; with a weapon: 1d10 → [7] = 7 damage; without "
                               "one: 1d12 → [11] = 11 damage")
    assert [(r.expression, r.total) for r in rolls] == [("1d10", 7), ("1d12", 11)]
    assert effect_lines(row.effects)[0][0].startswith("The target's weapon is sundered; with a weapon: 1d10 damage")


def test_a_variable_or_a_number_is_not_rolled() -> None:
    """A DC of 10 + the PC's level (F-TAB-31) stays as written; only real dice take faces."""
    save = parse_effect({"kind": "save", "ability": "CON", "dc": "10+PC_LVL",
                         "on_fail": [{"kind": "condition", "name": "STUNNED", "duration": {"amount": "1d4"}}]})
    lines, rolls = effect_lines([save], ScriptedDice([2]))
    assert lines == ["The target makes a CON SAVE against 10 + the PC's level; if it fails: the target is STUNNED "
                     "for 1d4 → [2] = 2 rounds"]
    assert len(rolls) == 1


@pytest.mark.parametrize("table", [t.name for t in TableSet.packaged()])
def test_every_packaged_effect_reads_as_a_sentence(table: str) -> None:
    for row in TableSet.packaged().get(table).rows:
        for e in row.effects:
            text = effect_summary(e)
            assert not any(m in text for m in ("{'", "[{", "=[", "=None", "kind=", "(dice=")), text


@pytest.mark.parametrize(("text", "plain"), [
    ("Agna bleeds out in 1d4 turns (F-DEATH-01): 1d4 → [1] = 1", "Agna bleeds out in 1d4 turns: 1d4 → [1] = 1"),
    ("crit-fighter (F-TAB-31) [d20+4 for level 7]", "crit-fighter [d20+4 for level 7]"),
    ("heals in 13 weeks (M-GRIEV-06)", "heals in 13 weeks"),
    ("holds (16 vs 12 (X-TAB-06 leather/crushing_blow): saved)", "holds (16 vs 12 (leather/crushing_blow): saved)"),
    ("a (F-CRIT-01/02) b; c (AMB-03 / CF-14)", "a b; c"),
    ("(13 weeks, M-GRIEV-06)", "(13 weeks)"),
])
def test_rule_ids_are_taken_out_of_the_plain_output(text: str, plain: str) -> None:
    assert without_rule_ids(text) == plain


def test_a_name_that_looks_like_a_rule_id_is_kept() -> None:
    """Player D's first peasant is D-1, as D-1 is a decision of RULES.md: the name stays, the rule id goes."""
    text = "D-1 bleeds out (F-DEATH-01); p4 (D-1) is due (D-7)"
    assert without_rule_ids(text, keep={"D-1"}) == "D-1 bleeds out; p4 (D-1) is due"
