"""The Hazards commands of the CLI (`furnace.cli.hazards`), run in-process.

RULES.md H-TRAV-01/02 (travel: the hidden lost roll, none on a trail), H-FALL-01 (fall: 20d6 at 250'), H-DIS-06
(disease: Green River Fever's 18 saves; a referee's file), H-LIGHT-02 (light: radius and burn time), H-LANG-03
(language: the chance in 6), H-AGE-03 (age: 38 → 45 makes 6 saves).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from furnace.cli.app import main

COMMANDS = ("travel", "fall", "disease", "light", "language", "age")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def as_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0 and err == ""
    data: dict[str, object] = json.loads(out)
    return data


@pytest.mark.parametrize("command", COMMANDS)
def test_H_help_has_an_example(capsys: pytest.CaptureFixture[str], command: str) -> None:
    """PART H commands: each has --help with an Example: line, --json and --seed."""
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "Example: furnace " + command in out and "--json" in out and "--seed" in out


@pytest.mark.rule("H-TRAV-02")
def test_H_TRAV_02_travel_hides_the_lost_roll(capsys: pytest.CaptureFixture[str]) -> None:
    """H-TRAV-02: 30 days from a seed: one lost roll a day until lost, each marked hidden; the same seed gives the
    same JSON; the text marks the referee's lines."""
    data = as_json(capsys, "travel", "--days", "30", "--heading", "S", "--seed", "5")
    events = data["events"]
    assert isinstance(events, list)
    checks = [e for e in events if e["kind"] == "lost_check"]
    assert len(checks) == 30 and all(e["data"]["hidden"] for e in checks)
    assert data == as_json(capsys, "travel", "--days", "30", "--heading", "S", "--seed", "5")
    code, out, _ = run(capsys, "travel", "--days", "2", "--seed", "5")
    assert code == 0 and "[referee only]" in out


@pytest.mark.rule("H-TRAV-01")
def test_H_TRAV_01_no_lost_roll_on_a_trail(capsys: pytest.CaptureFixture[str]) -> None:
    """H-TRAV-01: --trail rolls nothing and the party stays on course."""
    data = as_json(capsys, "travel", "--days", "10", "--trail", "--seed", "1")
    assert data["lost"] is False and all(not e["rolls"] for e in data["events"])  # type: ignore[union-attr]


@pytest.mark.rule("H-FALL-01")
def test_H_FALL_01_250_feet_is_20d6(capsys: pytest.CaptureFixture[str]) -> None:
    """H-FALL-01: `fall 250` rolls 20d6; `fall 9` does no damage."""
    data = as_json(capsys, "fall", "250", "--seed", "2")
    roll = data["roll"]
    assert data["dice"] == "20d6" and isinstance(roll, dict) and len(roll["faces"]) == 20
    assert 20 <= int(str(data["damage"])) <= 120
    assert as_json(capsys, "fall", "9")["damage"] == 0
    code, out, _ = run(capsys, "fall", "100", "--seed", "2")
    assert code == 0 and "10d6" in out


@pytest.mark.rule("H-DIS-06")
def test_H_DIS_06_disease_lists_18_saves(capsys: pytest.CaptureFixture[str]) -> None:
    """H-DIS-06: Green River Fever lists 18 saves, from day 8 00:00 every 4 hours; --days rolls them."""
    data = as_json(capsys, "disease", "Green River Fever")
    saves = data["saves"]
    assert isinstance(saves, list) and len(saves) == 18
    assert saves[0]["due"] == "day 8, 00:00" and saves[-1]["hours_after_infection"] == 168 + 68
    rolled = as_json(capsys, "disease", "green-river-fever", "--days", "10", "--seed", "3", "--resting")
    events = rolled["events"]
    assert isinstance(events, list)
    numbers = [e["data"]["number"] for e in events if e["kind"] == "disease_save"]
    died = any(e["kind"] == "death" for e in events)
    assert numbers == list(range(1, len(numbers) + 1)) and (len(numbers) == 18 or died)
    code, out, _ = run(capsys, "disease", "Green River Fever")
    assert code == 0 and "18 saves" in out and "save 18: day 10, 20:00" in out


@pytest.mark.rule("H-DIS-02")
def test_H_DIS_02_disease_from_a_file_and_a_malformed_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """H-DIS-02: a referee's YAML disease; a malformed one exits 2 with one line naming the field."""
    good = tmp_path / "rot.yaml"
    good.write_text("name: Marsh Rot\nincubation: 1 day\ninterval: 6 hours\ninfection_time: 1 day\n"
                    "effect: {ability: CON}\n", encoding="utf-8")
    assert len(as_json(capsys, "disease", str(good))["saves"]) == 4  # type: ignore[arg-type]
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: X\nincubation: 1 day\ninfection_time: 1 day\neffect: {ability: CON}\n", encoding="utf-8")
    code, out, err = run(capsys, "disease", str(bad))
    assert code == 2 and out == "" and err.startswith("error:") and "interval" in err and err.count("\n") == 1


@pytest.mark.rule("H-LIGHT-02")
def test_H_LIGHT_02_light_burn_time_and_radius(capsys: pytest.CaptureFixture[str]) -> None:
    """H-LIGHT-02: a lantern 30' for 24 turns a flask, a candle 10' for 12; a torch is out after 6 turns."""
    lantern = as_json(capsys, "light", "lantern")
    assert (lantern["radius_ft"], lantern["turns"], lantern["minutes"]) == (30, 24, 240)
    assert (as_json(capsys, "light", "candle")["radius_ft"], as_json(capsys, "light", "candle")["turns"]) == (10, 12)
    torch = as_json(capsys, "light", "torch", "--turns", "6")
    assert torch["lit_after"] is False and [e["kind"] for e in torch["events"]][-1] == "light_out"  # type: ignore
    assert as_json(capsys, "light", "lantern", "--turns", "30", "--flasks", "1")["lit_after"] is True
    code, out, _ = run(capsys, "light", "torch")
    assert code == 0 and "30' radius" in out and "6 exploration turns" in out


@pytest.mark.rule("H-LANG-03")
def test_H_LANG_03_language_chance(capsys: pytest.CaptureFixture[str]) -> None:
    """H-LANG-03, AMB-78: INT +2 exotic → 1 in 6; INT +3 local → 4 in 6; magical: never, nothing rolled."""
    assert as_json(capsys, "language", "--int", "2", "--kind", "exotic", "--seed", "1")["chance_in_6"] == 1
    assert as_json(capsys, "language", "--int", "3", "--kind", "local", "--seed", "1")["chance_in_6"] == 4
    magic = as_json(capsys, "language", "--int", "4", "--kind", "magical")
    assert magic["chance_in_6"] is None and magic["known"] is False


@pytest.mark.rule("H-AGE-03")
def test_H_AGE_03_age_38_to_45_makes_6_saves(capsys: pytest.CaptureFixture[str]) -> None:
    """H-AGE-03, AMB-72: `age --race Human --from 38 --to 45` rolls 6 aging saves (40..45); the same seed agrees."""
    data = as_json(capsys, "age", "--race", "Human", "--from", "38", "--to", "45", "--con", "1", "--seed", "4")
    saves = [e for e in data["events"] if e["kind"] == "aging_save"]  # type: ignore[union-attr]
    assert [e["data"]["age"] for e in saves] == list(range(40, 46))
    assert data == as_json(capsys, "age", "--race", "Human", "--from", "38", "--to", "45", "--con", "1",
                           "--seed", "4")


@pytest.mark.parametrize("args", [
    ("age", "--race", "Gnome", "--from", "1", "--to", "2"),
    ("age", "--race", "Human", "--from", "50", "--to", "40"),
    ("disease", "the common cold"),
    ("light", "glowstone"),
    ("travel", "--heading", "up"),
    ("travel", "--profile", "furnace"),
])
def test_H_bad_input_is_one_error_line(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    """PART H commands: bad input (an unknown race, disease or light, a bad heading, a module switched off) exits 2
    with one `error:` line."""
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and err.startswith("error:") and err.count("\n") == 1
