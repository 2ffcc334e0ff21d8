"""`furnace odds`: an expression (the default form), one attack, a dying character. F-BASE-03 (meet or beat),
F-CRIT-01/02, F-FUMB-01, F-DEATH-01."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from furnace.cli.app import main

CHARACTERS = Path(__file__).resolve().parents[2] / "examples" / "characters"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.rule("F-BASE-03")
def test_F_BASE_03_the_expression_form_stays_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (("odds", "d20+3", "--dc", "15"), ("odds", "dice", "d20+3", "--dc", "15"),
                 ("odds", "--var", "X=3", "d20+X", "--dc", "15")):
        code, out, err = run(capsys, *args)
        assert code == 0, err
        assert "≥ 15) = 9/20" in out


@pytest.mark.rule("F-BASE-03")
def test_F_BASE_03_the_dc_is_read_off_the_one_distribution(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The DC's probability costs no second computation of the odds."""
    from furnace.dice import odds as dice_odds

    calls: list[str] = []
    real = dice_odds.distribution

    def counted(*args: object) -> object:
        calls.append("distribution")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(dice_odds, "distribution", counted)
    code, out, _ = run(capsys, "odds", "4d6kh3", "--dc", "12", "--json")
    assert code == 0 and calls == ["distribution"]
    import icepool

    peer = icepool.d6.highest(4, 3) >= 12
    assert json.loads(out)["p_at_least_dc"] == str(Fraction(peer.quantity(True), peer.denominator()))


@pytest.mark.rule("F-CRIT-01", "F-TAB-34")
def test_F_CRIT_01_02_odds_attack(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", "attack", "--atk", "d20+3", "--ac", "14", "--damage", "1d8+2",
                         "--class", "fighter", "--level", "3")
    assert code == 0, err
    assert "hits 50.00% (1/2), of which crits 5.00% (1/20)" in out
    assert "3.680 on average (92/25)" in out and "crit-fighter" in out and "Savage blow" in out
    code, out, _ = run(capsys, "odds", "attack", "--atk", "d20+3", "--ac", "14", "--damage", "1d8+2", "--json")
    data = json.loads(out)
    assert data["p_hit"] == "1/2" and data["crit_die"] == "d4"          # a 0-level character: F-TAB-34, d4


@pytest.mark.rule("F-CRIT-01")
def test_F_CRIT_01_odds_attack_from_a_character(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", "attack", "--character", str(CHARACTERS / "brakka.json"), "--ac", "12")
    assert code == 0, err
    assert "Brakka, level" in out


@pytest.mark.parametrize("args", [
    ("odds", "attack", "--ac", "12"),
    ("odds", "attack", "--atk", "2d20", "--ac", "12", "--damage", "1d6"),
    ("odds", "attack", "--atk", "d20", "--ac", "12", "--damage", "1d6", "--class", "bard", "--level", "2"),
    ("odds", "dying", "--profile", "middle-sea"),
    ("odds", "d20+"),
])
def test_bad_odds_are_one_line(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.rule("F-DEATH-01")
def test_F_DEATH_01_odds_dying(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "dying")
    assert code == 0 and "11.89% (76099/640000)" in out
    code, out, _ = run(capsys, "odds", "dying", "--json")
    assert json.loads(out)["p_gets_up"] == "76099/640000"
