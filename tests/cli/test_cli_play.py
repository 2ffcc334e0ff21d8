"""The play commands of the CLI (`furnace.cli.play`), run in-process: fight, crit, fumble.

RULES.md F-INIT-01 / F-CMBT-01..05 (a fight file resolved round by round and replayed from its seed),
F-CRIT-01/02 (F-TAB-30/31: the crit die d20+4 at level 7), F-FUMB-01/02 (F-TAB-35/36: the d12 in heavy armor).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from furnace.cli.app import main

FUNNEL = str(Path(__file__).resolve().parents[2] / "examples" / "funnel-vs-goblins.yaml")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.rule("F-INIT-01", "F-CMBT-05")
def test_F_INIT_01_fight_example_is_reproducible_with_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """F-INIT-01, F-CMBT-05: `fight FILE --seed 1` exits 0, prints the round-by-round log and a summary, and the
    same seed prints the same text again."""
    first = run(capsys, "fight", FUNNEL, "--seed", "1")
    again = run(capsys, "fight", FUNNEL, "--seed", "1")
    assert first == again
    code, out, err = first
    assert code == 0 and err == ""
    assert out.startswith("The root cellar (ROOM DC 10, profile furnace)")
    assert "== Round 1 ==" in out and "initiative: party: d6" in out and "After " in out


@pytest.mark.rule("F-CMBT-05")
def test_F_CMBT_05_fight_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    """F-CMBT-05: `--json` gives the winner, the rounds and every event with its rolls; the same seed gives the
    same JSON."""
    code, out, _ = run(capsys, "fight", FUNNEL, "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0
    assert {"winner", "rounds", "events", "over", "combatants"} <= set(data)
    assert data["over"] is True and data["winner"] in ("party", "monsters", None)
    assert isinstance(data["rounds"], int) and 1 <= data["rounds"] <= 20
    assert data["events"][0]["kind"] == "round" and data["events"][0]["data"]["round"] == 1
    assert all({"kind", "actor", "targets", "rolls", "data", "rules", "cast"} <= set(e) for e in data["events"])
    assert len(data["combatants"]) == 8 + 5
    assert json.loads(run(capsys, "fight", FUNNEL, "--seed", "1", "--json")[1]) == data


@pytest.mark.parametrize(("text", "field"), [
    ("room_dc: 12\nmonsters:\n  - {name: Goblin}\n", "party"),
    ("room_dc: 12\nparty:\n  - {file: x.json}\nmonsters:\n  - {name: Goblin, hp: 2d}\n", "monsters.0.hp"),
    ("room_dc: 12\nbogus: 1\nparty:\n  - {file: x.json}\nmonsters:\n  - {name: Goblin}\n", "bogus"),
])
def test_malformed_fight_file_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str,
                                                 field: str) -> None:
    """A malformed fight file (no party; a monster's hp '2d'; an unknown field) exits 2 with one line naming the
    file and the field."""
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "fight", str(path), "--seed", "1")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert f"field {field}:" in err and "bad.yaml" in err


def test_missing_fight_file_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A fight file that does not exist: one line, exit 2."""
    code, _, err = run(capsys, "fight", str(tmp_path / "nope.yaml"))
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.rule("F-CRIT-02", "F-CRIT-01", "F-TAB-30", "F-TAB-31")
def test_F_CRIT_02_crit_command_level_7_fighter_uses_d20_plus_4(capsys: pytest.CaptureFixture[str]) -> None:
    """F-CRIT-01/02, F-TAB-30/31: `crit --class Fighter --level 7 --seed 2 --json` rolls d20+4 on crit-fighter;
    the total is the face + 4 and names its row; the seed repeats."""
    code, out, _ = run(capsys, "crit", "--class", "Fighter", "--level", "7", "--seed", "2", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["table"] == "F-TAB-31" and data["die_reason"] == "d20+4 for level 7"
    roll = data["roll"]
    assert roll["expression"] == "d20+4" and roll["total"] == roll["faces"][0] + 4 and 5 <= roll["total"] <= 24
    row = data["row"]
    assert row["min"] <= roll["total"] and (row.get("max") is None or roll["total"] <= row["max"])
    assert run(capsys, "crit", "--class", "Fighter", "--level", "7", "--seed", "2", "--json")[1] == out


@pytest.mark.rule("F-CRIT-01", "F-TAB-32", "F-TAB-34", "F-TAB-31")
@pytest.mark.parametrize(("cls", "level", "table", "die"), [
    ("Cleric", "3", "F-TAB-32", "d10"), ("Magic-user", "1", "F-TAB-34", "d6"), ("0-level", "5", "F-TAB-34", "d4"),
    ("Fighter", "12", "F-TAB-31", "d20+10"),
])
def test_F_CRIT_01_crit_command_table_and_die(capsys: pytest.CaptureFixture[str], cls: str, level: str, table: str,
                                              die: str) -> None:
    """F-CRIT-01/02, AMB-24, AMB-26: Cleric → F-TAB-32; Magic-user and 0-level → F-TAB-34 (0-level with the d4
    whatever --level says); level 12 is capped at d20+10."""
    code, out, _ = run(capsys, "crit", "--class", cls, "--level", level, "--seed", "4", "--json")
    data = json.loads(out)
    assert code == 0 and data["table"] == table and data["roll"]["expression"] == die


@pytest.mark.rule("F-CRIT-01", "F-TAB-31")
def test_F_CRIT_01_crit_command_text(capsys: pytest.CaptureFixture[str]) -> None:
    """F-CRIT-01: the text form names the table and the die, then lists the row's effects; the rule id
    (F-TAB-31) only under --explain."""
    code, out, _ = run(capsys, "crit", "--class", "Fighter", "--level", "7", "--seed", "2")
    assert code == 0 and out.startswith("crit-fighter [d20+4 for level 7]: d20+4 → ")
    assert "  · " in out and "F-TAB-31" not in out
    code, out, _ = run(capsys, "crit", "--class", "Fighter", "--level", "7", "--seed", "2", "--explain")
    assert code == 0 and out.startswith("crit-fighter (F-TAB-31) [d20+4 for level 7]: d20+4 → ")
    assert run(capsys, "--explain", "crit", "--class", "Fighter", "--level", "7", "--seed", "2")[1] == out


@pytest.mark.rule("F-CRIT-01", "F-TAB-31", "F-TAB-30")
def test_F_CRIT_01_a_crit_row_rolls_the_dice_it_names(capsys: pytest.CaptureFixture[str]) -> None:
    """F-TAB-31 row 10 ("+2d10 DAM") at level 3 (a d10, F-TAB-30): faces 10, then 3 and 4 for the 2d10; with
    --no-roll the row's dice are shown as written and only the table's die is rolled."""
    code, out, _ = run(capsys, "crit", "--class", "Fighter", "--level", "3", "--faces", "10,3,4")
    assert code == 0 and out.splitlines() == ["crit-fighter [d10 for level 3]: d10 → [10] = 10 → 10: Savage blow: "
                                              "+2d10 DAM.", "  · 2d10 → [3, 4] = 7 damage"]
    code, out, _ = run(capsys, "crit", "--class", "Fighter", "--level", "3", "--faces", "10", "--no-roll")
    assert code == 0 and out.splitlines()[1] == "  · 2d10 damage"
    code, out, _ = run(capsys, "crit", "--class", "Fighter", "--level", "3", "--faces", "10,3,4", "--json")
    assert [(r["expression"], r["faces"], r["total"]) for r in json.loads(out)["effect_rolls"]] == [("2d10", [3, 4], 7)]


@pytest.mark.rule("F-FUMB-02", "F-TAB-36")
def test_F_FUMB_02_a_fumble_row_rolls_its_duration(capsys: pytest.CaptureFixture[str]) -> None:
    """F-TAB-36 row 10 in heavy armor (d12 face 10): armor joints lock, no moving for 1d4 rounds (face 3)."""
    code, out, _ = run(capsys, "fumble", "--armor", "heavy", "--faces", "10,3")
    assert code == 0 and out.splitlines()[1:] == ["  · The roller's armor is seized",
                                                  "  · The roller can't move for 1d4 → [3] = 3 rounds"]
    code, _, err = run(capsys, "fumble", "--armor", "heavy", "--faces", "10")
    assert code == 2 and "its 2nd die is a d4" in err


@pytest.mark.rule("F-FUMB-02", "F-FUMB-01", "F-TAB-35", "F-TAB-36")
@pytest.mark.parametrize(("armor", "die", "top"), [("heavy", "d12", 12), ("light", "d8", 8), ("none", "d4", 4)])
def test_F_FUMB_02_fumble_command_die_by_armor(capsys: pytest.CaptureFixture[str], armor: str, die: str,
                                               top: int) -> None:
    """F-FUMB-01/02, F-TAB-35/36: `fumble --armor heavy --json` rolls a d12 on the fumble table (light d8, none
    d4); the row covers the total."""
    code, out, _ = run(capsys, "fumble", "--armor", armor, "--seed", "5", "--json")
    data = json.loads(out)
    assert code == 0 and data["table"] == "F-TAB-36" and data["die_reason"] == f"{die} for armor {armor}"
    roll = data["roll"]
    assert roll["expression"] == die and 1 <= roll["total"] <= top
    assert data["row"]["min"] <= roll["total"] <= data["row"]["max"]


@pytest.mark.rule("F-FUMB-02")
def test_F_FUMB_02_fumble_command_needs_a_known_armor(capsys: pytest.CaptureFixture[str]) -> None:
    """F-FUMB-02: an armor type outside none/light/heavy is a usage error, exit 2."""
    code, _, _ = run(capsys, "fumble", "--armor", "plate")
    assert code == 2
