"""The clock commands (in-process): timer, status, advance, edit, cancel, join — a campaign file between runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from furnace.cli.app import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.rule("F-OPT-07")
def test_F_OPT_07_timer_runs_out_on_the_clock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """F-OPT-07, AMB-03: a timer of 3 exploration turns fires after 30 minutes, not before; the state persists."""
    state = str(tmp_path / "c.json")
    assert run(capsys, "clock", "timer", "the ceiling gives way", "--in", "3", "turns", "--state", state)[0] == 0
    code, out, _ = run(capsys, "clock", "advance", "2", "turns", "--state", state, "--seed", "1")
    assert code == 0 and "runs out" not in out and "00:20" in out
    code, out, _ = run(capsys, "clock", "advance", "1", "turn", "--state", state, "--seed", "1")
    assert "the ceiling gives way" in out and "runs out" in out


@pytest.mark.rule("F-CMBT-05")
def test_F_CMBT_05_edit_and_cancel_what_remains(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """F-CMBT-05 (continual time): the referee sees and edits what remains, or takes it off the clock."""
    state = str(tmp_path / "c.json")
    run(capsys, "clock", "timer", "torch", "--in", "6", "turns", "--state", state)
    assert run(capsys, "clock", "edit", "1", "--in", "2", "turns", "--state", state)[0] == 0
    code, out, _ = run(capsys, "clock", "status", "--state", state, "--json")
    assert json.loads(out)["entries"][0]["in_minutes"] == 20
    assert run(capsys, "clock", "cancel", "1", "--state", state)[0] == 0
    code, out, _ = run(capsys, "clock", "status", "--state", state, "--json")
    assert json.loads(out)["entries"] == []
    code, _, err = run(capsys, "clock", "cancel", "7", "--state", state)
    assert code == 2 and err.startswith("error: unknown clock entry")


def test_clock_join_and_bad_state_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "c.json"
    assert run(capsys, "clock", "join", str(EXAMPLES / "brakka.json"), "--state", str(state))[0] == 0
    assert "Brakka" in json.loads(state.read_text())["characters"]
    state.write_text('{"clock": {"now": "soon"}}')
    code, _, err = run(capsys, "clock", "status", "--state", str(state))
    assert code == 2 and "clock.now" in err
    code, _, err = run(capsys, "clock", "advance", "-1", "day", "--state", str(tmp_path / "d.json"))
    assert code == 2
