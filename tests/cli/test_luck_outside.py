"""Luck Dice outside fights (F-LUCK-03: the player may spend them on any roll after seeing it; F-SPELL-09: on a
SPELLCHECK the SL moves at most one step): `save`, `check --who` and `spellcheck --who` take `--luck N | --no-luck`;
without either (and no terminal to ask at) her lasting standing answer decides. The dice come out of her player's
pool, shared by all her characters (F-LUCK-01), and are logged. Dice are entered with `--faces`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.cli.conftest import Run
from tests.cli.fight_table import sheet as _file


@pytest.fixture
def table(furnace: Run, tmp_path: Path) -> Run:
    """Bo plays Brakka (CON SAVE +0, STR +1) and Wren, one pool of 2 Luck Dice; Cy plays Maelis (Magic-user 3,
    SPELLCHECK d20 − 1 INT + 2 PROF) with 3."""
    assert furnace("campaign", "new", "keep")[0] == 0
    for name, player, held in (("brakka", "Bo", 2), ("wren", "Bo", 2), ("maelis", "Cy", 3)):
        code, _, err = furnace("--campaign", "keep", "campaign", "join", _file(tmp_path, name, luck_dice=held),
                               "--player", player)
        assert code == 0, err

    def run(*args: str) -> tuple[int, str, str]:
        return furnace("--campaign", "keep", *args)

    return run


def _facts(run: Run, *args: str) -> list[dict[str, object]]:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return [{"kind": e["kind"], **e["data"]} for e in json.loads(out)]


def _pools(run: Run) -> dict[str, int]:
    code, out, err = run("campaign", "show", "--json")
    assert code == 0, err
    return {m["character"]["name"]: m["character"]["luck_dice"] for m in json.loads(out)["roster"].values()}


@pytest.mark.rule("F-LUCK-03", "F-LUCK-01")
def test_F_LUCK_03_a_luck_die_on_a_failed_save_out_of_her_players_pool(table: Run) -> None:
    facts = _facts(table, "save", "Brakka", "CON", "--dc", "8", "--luck", "1", "--faces", "5,4")
    roll, spent = facts
    assert (roll["kind"], roll["luck_before"], roll["total"], roll["saved"]) == ("save_roll", 5, 9, True)  # 5 + 4
    assert (spent["kind"], spent["before"], spent["after"], spent["left"]) == ("luck", 5, 9, 1)
    assert _pools(table) == {"Brakka": 1, "Wren": 1, "Maelis": 3}        # Bo's one pool, both her characters
    code, out, _ = table("save", "Brakka", "CON", "--dc", "8", "--luck", "1", "--faces", "2,3")
    assert code == 0 and "CON SAVE 2 +0 (CON SAVE) = 2, 1 Luck Die → 5 vs DC 8: failed" in out
    assert "spends a Luck Die: 2 → 5 (0 left)" in out


@pytest.mark.rule("F-LUCK-03")
def test_F_LUCK_03_no_luck_leaves_the_failure_and_the_pool(table: Run) -> None:
    [roll] = _facts(table, "save", "Brakka", "CON", "--dc", "8", "--no-luck", "--faces", "5")
    assert (roll["total"], roll["saved"]) == (5, False) and "luck_before" not in roll
    assert _pools(table)["Brakka"] == 2
    code, _, err = table("save", "Brakka", "CON", "--luck", "1", "--no-luck", "--faces", "5")
    assert code == 2 and err.startswith("error: --luck N or --no-luck, not both")


@pytest.mark.rule("F-LUCK-03")
def test_F_LUCK_03_without_an_answer_her_lasting_standing_answer_decides(table: Run) -> None:
    [roll] = _facts(table, "save", "Brakka", "CON", "--dc", "8", "--faces", "5")   # keen: Luck on an ATK only
    assert roll["saved"] is False and _pools(table)["Brakka"] == 2
    assert table("standing", "--policy", "Bo=always")[0] == 0
    roll, spent = _facts(table, "save", "Brakka", "CON", "--dc", "8", "--faces", "5,3")
    assert (roll["total"], roll["saved"], spent["left"]) == (8, True, 1)          # one die: 5 + 3 = 8 meets DC 8
    [roll] = _facts(table, "save", "Brakka", "CON", "--dc", "15", "--faces", "5")  # one d6 cannot make 15
    assert roll["saved"] is False and _pools(table)["Brakka"] == 1


@pytest.mark.rule("F-LUCK-03", "F-DEATH-03")
def test_F_LUCK_03_the_dying_policy_spends_on_a_save_against_death_only(table: Run) -> None:
    table("standing", "--policy", "Bo=dying")
    [roll] = _facts(table, "save", "Brakka", "CON", "--dc", "8", "--faces", "5")
    assert roll["saved"] is False and _pools(table)["Brakka"] == 2
    roll, spent = _facts(table, "save", "Brakka", "death", "--dc", "8", "--faces", "5,6")
    assert (roll["against"], roll["total"], roll["saved"], spent["left"]) == ("death", 11, True, 1)


@pytest.mark.rule("F-LUCK-03")
def test_F_LUCK_03_a_check_from_her_sheet_takes_luck_dice(table: Run) -> None:
    roll, spent = _facts(table, "check", "--who", "Brakka", "--ability", "STR", "--dc", "12", "--luck", "2",
                         "--faces", "6,3,2")
    assert (roll["kind"], roll["roll"], roll["luck_before"], roll["total"], roll["success"]) == (
        "sheet_roll", "check", 7, 12, True)                                   # 6 + 1 STR = 7, + 3 + 2 = 12
    assert spent["left"] == 0 and _pools(table)["Wren"] == 0
    code, _, err = table("check", "STR=1", "--who", "Brakka", "--faces", "6")
    assert code == 2 and err.startswith("error: with --who her sheet gives the modifiers")
    code, _, err = table("check", "STR=1", "--luck", "1", "--faces", "6")
    assert code == 2 and "add --who" in err


@pytest.mark.rule("F-LUCK-03", "F-SPELL-09")
def test_F_SPELL_09_luck_dice_on_a_spellcheck_move_the_sl_one_step_at_most(table: Run) -> None:
    [alone] = [json.loads(table("spellcheck", "--mod", "10", "--prof", "2", "--faces", "14", "--json")[1])]
    assert alone["total"] == 26 and alone["sl"] >= 3                          # 26 rolled outright: SL 3 or more
    roll, spent = _facts(table, "spellcheck", "--who", "Maelis", "--dc", "12", "--luck", "2", "--faces", "13,6,6")
    assert (roll["luck_before"], roll["total"], roll["sl_before"], roll["sl"]) == (14, 26, 1, 2)   # one step
    assert (spent["before"], spent["after"], spent["left"]) == (14, 26, 1)
    assert _pools(table)["Maelis"] == 1
    code, out, _ = table("spellcheck", "--who", "Maelis", "--dc", "12", "--no-luck", "--faces", "7")
    assert code == 0 and "SPELLCHECK 8 vs DC 12: fails" in out and _pools(table)["Maelis"] == 1


class _Terminal(io.StringIO):
    """Standard input as an interactive terminal that types the player's answer."""

    def isatty(self) -> bool:
        return True


@pytest.mark.rule("F-LUCK-03")
def test_F_LUCK_03_at_a_terminal_she_is_asked_after_seeing_the_roll(table: Run, monkeypatch: pytest.MonkeyPatch,
                                                                     ) -> None:
    monkeypatch.setattr("sys.stdin", _Terminal("1\n"))
    code, out, err = table("save", "Brakka", "CON", "--dc", "8", "--faces", "5,4")
    assert code == 0, err
    seen, asked = out.index("CON SAVE 5 +0 (CON SAVE) = 5 vs DC 8: failed"), out.index("spend Luck Dice on it (2 held)")
    assert seen < asked                                                   # the roll first, then the question
    assert "= 5, 1 Luck Die → 9 vs DC 8: saved" in out[asked:]           # the same d20, then her die: 5 + 4
    assert _pools(table)["Brakka"] == 1
    code, out, _ = table("campaign", "log", "--json")
    assert [e["kind"] for e in json.loads(out)].count("save_roll") == 1     # the roll seen first is not logged twice


@pytest.mark.rule("F-LUCK-01", "F-LUCK-02")
def test_F_LUCK_01_failed_rolls_in_a_row_out_of_a_fight_earn_her_player_a_die(table: Run) -> None:
    """Bo's pool holds 2. Brakka fails a CON SAVE (5 vs 8), then Wren (the same player's streak) fails a STR CHECK
    from her sheet: the second failure in a row earns a die (3). A third failure earns one more, lost at the most
    she may hold (F-LUCK-02); a success ends the streak."""
    assert [f["kind"] for f in _facts(table, "save", "Brakka", "CON", "--dc", "8", "--no-luck", "--faces", "5")] \
        == ["save_roll"]
    facts = _facts(table, "check", "--who", "Wren", "--ability", "STR", "--dc", "20", "--no-luck", "--faces", "2")
    assert [f["kind"] for f in facts] == ["sheet_roll", "luck_die"]
    assert (facts[1]["streak"], facts[1]["before"], facts[1]["after"], facts[1]["lost"]) == (2, 2, 3, False)
    assert _pools(table) == {"Brakka": 3, "Wren": 3, "Maelis": 3}
    [_, lost] = _facts(table, "save", "Brakka", "CON", "--dc", "8", "--no-luck", "--faces", "1")
    assert (lost["streak"], lost["after"], lost["lost"]) == (3, 3, True)
    assert [f["kind"] for f in _facts(table, "save", "Brakka", "CON", "--dc", "8", "--no-luck", "--faces", "20")] \
        == ["save_roll"]
    assert [f["kind"] for f in _facts(table, "save", "Brakka", "CON", "--dc", "8", "--no-luck", "--faces", "1")] \
        == ["save_roll"]                           # after the success, one failure earns nothing yet
