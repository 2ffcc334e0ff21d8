"""A roll from her sheet in the console: her failures in a row earn Luck Dice (F-LUCK-01), and when her Luck Dice
could change a roll she has seen, the roll waits for her answer (F-LUCK-03) — the engine spends none for her.

Every die is entered as a player's own (the referee allows it), so each number is worked from its face: a STR
CHECK is d20 + her STR modifier, a Luck Die is a d6 added (luck_die_size d6, luck_die_effect add).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace.play import luck
from tests.web.conftest import CAMPAIGN, C

Clients = dict[str, TestClient]


def _kinds(answer: Any) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [e["kind"] for e in answer.json()["events"]]


def _data(app: Any, kind: str) -> dict[str, Any]:
    """The newest fact of this kind in the campaign's log."""
    return dict(next(e for e in reversed(app.state.store.events(CAMPAIGN)) if e.kind == kind).data)


def _check(client: TestClient, who: str, face: int, dc: int) -> Any:
    return client.post(f"{C}/characters/{who}/roll", json={"kind": "check", "ability": "STR", "dc": dc,
                                                           "faces": str(face)})


def _anns(table: Clients) -> str:
    assert table["referee"].post(f"{C}/table", json={"players_dice": True}).status_code == 200
    return str(next(m["id"] for m in table["ann"].get(C).json()["roster"] if m["mine"] and m["status"] == "alive"))


def _pool(app: Any, who: str) -> luck.LuckState:
    return luck.held_by(app.state.store.open(CAMPAIGN).member(who).character)


@pytest.mark.rule("F-LUCK-01", "F-LUCK-03")
def test_two_failures_earn_a_die_and_the_third_roll_waits_for_her_answer(app: Any, table: Clients) -> None:
    ann = table["ann"]
    who = _anns(table)
    first = _check(ann, who, 1, 20)
    assert _kinds(first) == ["sheet_roll"]                     # she holds none: nothing to ask, logged at once
    mod = _data(app, "sheet_roll")["total"] - 1
    assert _kinds(_check(ann, who, 1, 20)) == ["sheet_roll", "luck_die"]      # the second failure in a row: a die
    assert _pool(app, who) == luck.LuckState(1, 2)

    dc = 2 + mod + 4                                           # 2 + mod fails; with a Luck Die of 6 it succeeds
    seen = _check(ann, who, 2, dc)
    assert _kinds(seen) == ["luck_asked"]
    asked = _data(app, "luck_asked")
    told = seen.json()["events"][0]["what"]
    assert f"STR CHECK {2 + mod} vs DC {dc}: fails so far" in told and "(1 Luck Die held)" in told
    assert (asked["total"], asked["dc"], asked["success"], asked["held"]) == (2 + mod, dc, False, 1)
    assert ann.get(C).json()["luck_asked"] == {who: 1}
    assert table["tv"].get(C).json()["luck_asked"] == {}       # hers, and the referee's, to see
    assert _pool(app, who) == luck.LuckState(1, 2)             # nothing spent, no streak built while she decides
    again = _check(ann, who, 20, dc)                           # a roll seen is never rolled again
    assert again.status_code == 400 and "waits for her Luck Dice" in again.json()["error"]

    spent = ann.post(f"{C}/characters/{who}/luck", json={"dice": 1, "faces": "6"})
    assert _kinds(spent)[0] == "sheet_roll"
    rolled = _data(app, "sheet_roll")
    assert (rolled["luck_before"], rolled["luck_dice"], rolled["total"], rolled["success"]) == (2 + mod, 1,
                                                                                                8 + mod, True)
    assert rolled["natural"] == 2                              # the same d20, seen before
    assert _pool(app, who) == luck.LuckState(0, 0)             # the die spent; the success ends the streak
    assert ann.get(C).json()["luck_asked"] == {}


@pytest.mark.rule("F-LUCK-03")
def test_no_luck_spent_rolls_on_and_the_failure_counts(app: Any, table: Clients) -> None:
    ann, referee = table["ann"], table["referee"]
    who = _anns(table)
    for _ in range(2):
        _check(ann, who, 1, 20)
    assert _kinds(_check(ann, who, 1, 20)) == ["luck_asked"]
    too_many = ann.post(f"{C}/characters/{who}/luck", json={"dice": 2})
    assert too_many.status_code == 400 and "holds 1 Luck Die" in too_many.json()["error"]
    assert ann.get(C).json()["luck_asked"] == {who: 1}         # refused, nothing changed

    bo = next(m["id"] for m in referee.get(C).json()["roster"] if m["player"] == "Bo")
    theirs = ann.post(f"{C}/characters/{bo}/luck", json={"dice": 0})
    assert theirs.status_code == 400 and "not your character" in theirs.json()["error"]

    answered = referee.post(f"{C}/characters/{who}/luck", json={"dice": 0})   # the referee may answer for her
    assert _kinds(answered) == ["sheet_roll", "luck_die"]      # a third failure in a row: another die
    assert _data(app, "sheet_roll")["success"] is False and "luck_before" not in _data(app, "sheet_roll")
    assert _pool(app, who) == luck.LuckState(2, 3)
    none = ann.post(f"{C}/characters/{who}/luck", json={"dice": 0})
    assert none.status_code == 400 and "no roll" in none.json()["error"]


@pytest.mark.rule("F-LUCK-01")
def test_a_success_is_logged_at_once_and_ends_the_streak(app: Any, table: Clients) -> None:
    ann = table["ann"]
    who = _anns(table)
    _check(ann, who, 1, 20)
    assert _pool(app, who) == luck.LuckState(0, 1)
    assert _kinds(_check(ann, who, 20, 5)) == ["sheet_roll"]
    assert _pool(app, who) == luck.LuckState(0, 0)


@pytest.mark.rule("F-LUCK-03")
def test_her_answer_given_ahead_is_not_asked_again(app: Any, table: Clients) -> None:
    """As the CLI's `--luck N | --no-luck`: the roll is logged at once with what she gave ahead."""
    ann = table["ann"]
    who = _anns(table)
    for _ in range(2):
        _check(ann, who, 1, 20)
    ahead = ann.post(f"{C}/characters/{who}/roll", json={"kind": "check", "ability": "STR", "dc": 20, "faces": "1",
                                                         "luck": 0})
    assert _kinds(ahead) == ["sheet_roll", "luck_die"]          # no Luck spent: a third failure, a second die
    assert _pool(app, who) == luck.LuckState(2, 3) and ann.get(C).json()["luck_asked"] == {}
    spent = ann.post(f"{C}/characters/{who}/roll", json={"kind": "check", "ability": "STR", "dc": 20,
                                                         "faces": "1,6", "luck": 1})
    assert _kinds(spent)[:2] == ["sheet_roll", "luck"]
    assert _data(app, "sheet_roll")["luck_dice"] == 1 and _pool(app, who).dice == 2   # spent 1, earned 1 (failed)
