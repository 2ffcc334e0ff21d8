"""Standing answers that last between fights (issue 23, "standing answers, so play flows"): `furnace standing` keeps
each player's policy and the kinds not asked in the campaign, logged; every new fight starts from them; `encounter
standing` changes the fight alone; `campaign show` tells them; `encounter status` shows a question's time limit.
Dice are entered (`--faces`): the goblin hits Brakka (AC 14, HP 22, a shield) for 5."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import Run
from tests.cli.test_questions import _brakka, _brakka_now, _monsters_first


@pytest.fixture
def table(furnace: Run, tmp_path: Path) -> Run:
    """A campaign with Bo's Brakka (a shield), no fight yet."""
    assert furnace("campaign", "new", "keep")[0] == 0
    assert furnace("--campaign", "keep", "campaign", "join", _brakka(tmp_path, luck_dice=2), "--player", "Bo")[0] == 0

    def run(*args: str) -> tuple[int, str, str]:
        return furnace("--campaign", "keep", *args)

    return run


def _lasting(run: Run) -> dict[str, object]:
    code, out, err = run("standing", "--json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


@pytest.mark.rule("F-EQ-03")
def test_F_EQ_03_a_new_fight_starts_from_her_lasting_answer_never_asked_and_never_sundering(table: Run) -> None:
    code, out, err = table("standing", "--policy", "Bo=never", "--quiet", "sunder")
    assert code == 0, err
    assert "standing answers between fights: Bo=never; not asked: sunder" in out
    _monsters_first(table)
    code, out, _ = table("encounter", "next", "--faces", "18,5")      # the blow lands: nobody is asked
    assert code == 0 and "question" not in out
    brakka = _brakka_now(table)
    assert (brakka["hp"], brakka["ac"], brakka["shield"]) == (17, 14, True)   # the whole 5 taken, the shield kept


@pytest.mark.rule("F-EQ-03")
def test_F_EQ_03_a_lasting_always_sunders_halving_the_blow_rounded_up(table: Run) -> None:
    table("standing", "--policy", "Bo=always", "--quiet", "sunder")
    _monsters_first(table)
    code, out, _ = table("encounter", "next", "--faces", "18,5")
    assert code == 0 and "takes 3 of 5; the shield is destroyed, AC 14 → 12" in out   # ceil(5 / 2) = 3
    brakka = _brakka_now(table)
    assert (brakka["hp"], brakka["ac"], brakka["shield"]) == (19, 12, False)


@pytest.mark.rule("F-EQ-03")
def test_encounter_standing_changes_the_fight_alone(table: Run) -> None:
    table("standing", "--policy", "Bo=never", "--quiet", "sunder")
    _monsters_first(table)
    assert table("encounter", "standing", "--ask-all")[0] == 0          # this fight asks again
    code, out, _ = table("encounter", "next", "--faces", "18,5")
    assert code == 0 and "may sunder her shield against a blow of 5 at HP 22" in out and "(question q1)" in out
    assert _lasting(table) == {"policies": {"Bo": "never"}, "quiet": ["sunder"], "seconds": 0}   # unchanged
    table("encounter", "answer", "q1", "--no-sunder")
    assert table("encounter", "end")[0] == 0
    _monsters_first(table)                                               # the next fight: not asked again
    code, out, _ = table("encounter", "next", "--faces", "18,5")
    assert code == 0 and "question" not in out


def test_the_lasting_answers_are_logged_and_shown(table: Run) -> None:
    code, _, err = table("standing", "--policy", "Bo=dying", "--quiet", "luck", "--quiet", "rage", "--seconds", "90")
    assert code == 0, err
    code, out, _ = table("campaign", "log", "--json")
    facts = [e for e in json.loads(out) if e["kind"] == "standing_lasting"]
    assert [f["data"]["policies"] for f in facts] == [{"Bo": "dying"}] and facts[0]["data"]["seconds"] == 90
    code, out, _ = table("campaign", "show")
    assert "standing answers between fights: Bo=dying; not asked: luck, rage; time to answer in the console: 90 s" \
        in out
    code, out, _ = table("campaign", "show", "--json")
    shown = json.loads(out)
    assert (shown["standing"], shown["quiet"], shown["question_seconds"]) == ({"Bo": "dying"}, ["luck", "rage"], 90)
    assert table("standing", "--clear", "Bo", "--ask-all", "--seconds", "0")[0] == 0
    assert _lasting(table) == {"policies": {}, "quiet": [], "seconds": 0}
    code, out, _ = table("campaign", "show")
    assert "standing answers between fights" not in out


def test_a_lasting_answer_for_no_player_or_policy_is_refused(table: Run) -> None:
    code, _, err = table("standing", "--policy", "Zed=never")
    assert code == 2 and err.startswith("error: no player 'Zed'") and err.count("\n") == 1
    code, _, err = table("standing", "--policy", "Bo=reckless")
    assert code == 2 and err.startswith("error: unknown policy 'reckless'")
    assert _lasting(table) == {"policies": {}, "quiet": [], "seconds": 0}


@pytest.mark.rule("F-EQ-03")
def test_encounter_status_shows_the_time_limit_of_the_open_question(table: Run) -> None:
    table("standing", "--seconds", "60")
    _monsters_first(table)
    table("encounter", "next", "--faces", "18,5")
    code, out, _ = table("encounter", "status")
    assert code == 0 and "q1 waits until " in out and "(the time limit, 60 s); then the standing answer" in out
    code, out, _ = table("encounter", "status", "--json")
    due = json.loads(out)["encounter"]["deadline"]
    assert due["id"] == "q1" and due["default"] in ("yes", "no")
