"""`furnace clock …` on the campaign chosen (no state file): light, advance, infect, travel, timer, edit, cancel,
status, join — in-process on a campaign in a temporary SQLite file, the stored numbers read back; `--state FILE`
still works on an old state file; `--faces` checked die by die.

RULES.md: H-LIGHT-02 (a torch burns 6 exploration turns, 10 minutes each), H-DIS-04/05 (a disease's first save
after its incubation, −2 when not resting), H-TRAV-02 (a day of travel at a time, the lost roll hidden),
F-OPT-07 (the referee's timers).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from furnace.hazards.light import light_source
from furnace.rules.ruleset import load_ruleset
from tests.cli.conftest import Run
from tests.helpers.factories import reopened

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"
AGUE = "name: Marsh Ague\nincubation: 1 day\ninterval: 1 day\ninfection: 3 days\neffect: {ability: INT}\n"


@pytest.fixture
def keep(furnace: Run) -> Run:
    """A hazards campaign in use, with Agna (CON 13, INT 14) and Brakka."""
    assert furnace("campaign", "new", "keep", "--profile", "hazards")[0] == 0
    assert furnace("campaign", "use", "keep")[0] == 0
    for stem in ("agna", "brakka"):
        assert furnace("clock", "join", str(EXAMPLES / f"{stem}.json"))[0] == 0
    return furnace


def ok(furnace: Run, *args: str) -> str:
    code, out, err = furnace(*args)
    assert code == 0 and err == "", err
    return out


def refused(furnace: Run, *args: str) -> str:
    code, _, err = furnace(*args)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    return err


@pytest.mark.rule("H-LIGHT-02")
def test_H_LIGHT_02_a_torch_lit_burns_out_after_6_turns(keep: Run, tmp_path: Path) -> None:
    rules = load_ruleset("hazards")
    assert (light_source("torch", rules).turns, rules["exploration_turn_minutes"]) == (6, 10)
    assert "lights a torch: 30' radius, burns 6 exploration turns (60 minutes)" in ok(keep, "clock", "light",
                                                                                       "Agna", "torch")
    out = ok(keep, "clock", "advance", "5", "turns")
    assert "burns out" not in out and "now day 1, 00:50" in out
    status = json.loads(ok(keep, "clock", "status", "--json"))
    assert [(e["kind"], e["owner"], e["in_minutes"]) for e in status["entries"]] == [("light_out", "Agna", 10)]
    assert "[day 1, 01:00] Agna: the torch burns out" in ok(keep, "clock", "advance", "1", "turn")
    state = reopened(tmp_path / "campaigns.db")
    assert state.clock.now == 6 * 600 and state.clock.entries == ()


def test_a_snuffed_torch_keeps_its_turns(keep: Run, tmp_path: Path) -> None:
    ok(keep, "clock", "light", "agna1", "torch")
    ok(keep, "clock", "advance", "2", "turns")
    assert "4 turns left to burn" in ok(keep, "clock", "snuff", "1")
    assert "burns 4 exploration turns" in ok(keep, "clock", "light", "Agna", "torch", "--turns", "4")
    assert reopened(tmp_path / "campaigns.db").clock.entries[0].at == 1200 + 2400


@pytest.mark.rule("H-DIS-04")
def test_H_DIS_04_a_disease_save_after_a_day_with_faces(keep: Run, tmp_path: Path) -> None:
    """Incubation 1 day: after a day, the save (d20 5 + CON 1 − 2 not resting = 4 vs DC 12) fails: INT 14 → 13."""
    ague = tmp_path / "ague.yaml"
    ague.write_text(AGUE, encoding="utf-8")
    assert "infected with Marsh Ague: after 1 day, 3 saves" in ok(keep, "clock", "infect", "Agna", str(ague))
    version = reopened(tmp_path / "campaigns.db")
    assert "left over" in refused(keep, "clock", "advance", "1", "day", "--faces", "5,7")
    assert "the 1st face entered, 25, cannot come up on the d20" in refused(keep, "clock", "advance", "1", "day",
                                                                            "--faces", "25")
    assert "needs more than the 1 face(s) entered (d20 5): its 2nd die is a d20" in refused(
        keep, "clock", "advance", "2", "days", "--faces", "5")
    assert reopened(tmp_path / "campaigns.db") == version                  # refused faces changed nothing
    out = json.loads(ok(keep, "clock", "advance", "1", "day", "--faces", "5", "--json"))
    save = next(e for e in out if e["kind"] == "disease_save")
    assert save["data"]["entered"] is True and save["data"]["total"] == 4
    state = reopened(tmp_path / "campaigns.db")
    assert state.roster["agna1"].character.scores["INT"] == 13 and state.clock.now == 86400
    assert "cured of Marsh Ague" in ok(keep, "clock", "cure", "Agna", "Marsh Ague")
    assert reopened(tmp_path / "campaigns.db").clock.entries == ()


@pytest.mark.rule("H-DIS-03")
def test_H_DIS_03_exposed_only_a_save_decides(keep: Run, tmp_path: Path) -> None:
    out = ok(keep, "clock", "infect", "Agna", "Green River Fever", "--exposed", "--faces", "18")
    assert "saves against exposure to Green River Fever" in out
    assert reopened(tmp_path / "campaigns.db").clock.entries == ()


@pytest.mark.rule("H-TRAV-02")
def test_H_TRAV_02_travel_a_day_at_a_time_with_faces(keep: Run, tmp_path: Path) -> None:
    out = ok(keep, "clock", "travel", "--days", "2", "--heading", "S", "--faces", "4,5")
    assert out.count("[referee only]") == 3 and "believes it heads S; on course" in out
    state = reopened(tmp_path / "campaigns.db")
    assert state.clock.now == 2 * 86400 and state.flags["travel"]["day"] == 2


@pytest.mark.rule("F-OPT-07")
def test_F_OPT_07_timer_edit_cancel_on_the_campaign(keep: Run, tmp_path: Path) -> None:
    assert "runs out in 3 turns" in ok(keep, "clock", "timer", "the ceiling", "--in", "1d4", "turns", "--faces", "3")
    assert reopened(tmp_path / "campaigns.db").clock.entries[0].at == 1800
    ok(keep, "clock", "edit", "1", "--in", "2", "turns")
    assert reopened(tmp_path / "campaigns.db").clock.entries[0].at == 1200
    assert "the ceiling' runs out" in ok(keep, "clock", "advance", "2", "turns")
    ok(keep, "clock", "timer", "rocks", "--in", "1", "hour")
    assert "is off the clock" in ok(keep, "clock", "cancel", "2")
    assert reopened(tmp_path / "campaigns.db").clock.entries == ()
    assert "unknown clock entry" in refused(keep, "clock", "cancel", "7")
    assert "--profile goes with --state" in refused(keep, "clock", "advance", "1", "turn", "--profile", "furnace")
    assert "--faces and --seed" in refused(keep, "clock", "advance", "1", "turn", "--faces", "1", "--seed", "1")


def test_clock_status_names_the_roster(keep: Run) -> None:
    out = ok(keep, "clock", "status")
    assert out.startswith("day 1, 00:00 · characters: Agna (agna1), Brakka (brak1)")


def test_the_old_state_file_still_works(furnace: Run, tmp_path: Path) -> None:
    state = tmp_path / "old.json"
    ok(furnace, "clock", "join", str(EXAMPLES / "brakka.json"), "--state", str(state))
    ok(furnace, "clock", "timer", "drip", "--in", "2", "turns", "--state", str(state))
    assert "drip' runs out" in ok(furnace, "clock", "advance", "3", "turns", "--state", str(state))
    data = json.loads(state.read_text(encoding="utf-8"))
    assert data["clock"]["now"] == 1800 and "Brakka" in data["characters"]
    assert "needs a campaign" in refused(furnace, "clock", "status")
