"""A referee-set time limit falls back to the standing answer (issue 23, "answered where the player is"): a question
left open longer than the campaign's `seconds` is answered by its standing answer when the questions are read, and
the answer fact says it was answered by time. The server's clock is the app's settable `now` (never the wall
clock): the test puts it a second before and a second after the deadline the referee's card gives."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace.render import story
from tests.web.conftest import CAMPAIGN, C
from tests.web.test_questions import _asked


def _set_clock(app: Any, at: datetime) -> None:
    app.state.now = lambda: at


@pytest.mark.rule("F-LUCK-03")
def test_a_question_past_its_time_falls_to_the_standing_answer(app: Any, table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    assert ann.post(f"{C}/standing", json={"seconds": 30}).status_code == 403      # the referee's alone
    assert ref.post(f"{C}/standing", json={"policies": {"Ann": "never"}, "seconds": 30}).status_code == 200
    q = _asked(app, ref)
    assert q["default"] == "0"                                   # `never`: no Luck Die spent
    card = ref.get(f"{C}/encounter/questions").json()
    due = datetime.fromisoformat(card["deadline"]["at"])
    assert card["deadline"]["id"] == q["id"] and card["deadline"]["seconds"] == 30

    _set_clock(app, due - timedelta(seconds=1))                  # not yet: she may still answer
    count = app.state.store.count(CAMPAIGN)
    assert [c["id"] for c in ann.get(f"{C}/encounter/questions").json()["questions"]] == [q["id"]]
    assert app.state.store.count(CAMPAIGN) == count              # nothing written

    _set_clock(app, due + timedelta(seconds=1))                  # her phone polls after the deadline
    assert ann.get(f"{C}/encounter/questions").json()["questions"] == []
    told = [e for e in app.state.store.events(CAMPAIGN, since=count) if e.kind == "answer"]
    assert [(e.data["id"], e.data["answer"], e.data["by"]) for e in told] == [(q["id"], "0", "time")]
    assert told[0].fact is not None and "time ran out" in story.tell(told[0].fact).text  # type: ignore[union-attr]
    assert not any(e.kind == "luck" for e in app.state.store.events(CAMPAIGN, since=count))   # nothing spent
    late = ann.post(f"{C}/encounter/questions/{q['id']}", json={"answer": "1"})
    assert late.status_code == 409, late.text                    # too late: answered by time


def test_without_a_limit_a_question_waits(app: Any, table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    q = _asked(app, ref)
    card = ref.get(f"{C}/encounter/questions").json()
    assert "deadline" not in card
    _set_clock(app, datetime.fromisoformat("2999-01-01T00:00:00+00:00"))
    assert [c["id"] for c in ref.get(f"{C}/encounter/questions").json()["questions"]] == [q["id"]]


def test_the_referee_sets_the_standing_answers_between_fights(app: Any, table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    assert ref.post(f"{C}/standing", json={"policies": {"Ann": "dying"}, "quiet": ["sunder"],
                                           "seconds": 45}).status_code == 200
    held = ref.get(f"{C}/standing").json()
    assert (held["policies"], held["quiet"], held["seconds"]) == ({"Ann": "dying"}, ["sunder"], 45)
    assert held["players"] == ["Ann", "Bo"] and "dying" in held["choices"]
    assert ref.post(f"{C}/standing", json={"policies": {"Zed": "never"}}).status_code == 400   # no such player
    assert ref.post(f"{C}/encounter", json={"monsters": "goblin"}).status_code == 200
    asking = ref.get(C).json()["encounter"]
    assert ref.get(f"{C}/encounter/questions").json()["quiet"] == ["sunder"]     # the fight starts from them
    assert asking is not None
    assert ref.post(f"{C}/standing", json={"clear": ["Ann"], "quiet": [], "seconds": 0}).status_code == 200
    held = ref.get(f"{C}/standing").json()
    assert (held["policies"], held["quiet"], held["seconds"]) == ({}, [], 0)
