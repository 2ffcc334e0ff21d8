"""The console asks the players (issue 23, "answered where the player is"): the open questions each viewer may see,
the answer by question id — a player her own only (403 otherwise), the referee anyone's, a second answer to the
same id refused with 409 and spending nothing — and no secret on a player's card."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace.campaign import luck
from tests.web.conftest import CAMPAIGN, C, joined

SPENT = re.compile(r"(\d+) → (\d+) \((\d+) left\)")


def _asked(app: Any, ref: TestClient, dice: str = "3") -> dict[str, Any]:
    """A fight against goblins in which Ann holds `dice` Luck Dice: played by the referee until a question is open
    (the console asks: it does not decide for her); the referee's card of it."""
    ann1 = next(m["id"] for m in ref.get(C).json()["roster"] if m["player"] == "Ann")
    app.state.store.apply(CAMPAIGN, "luck", luck.adjust(ann1, dice))
    assert ref.post(f"{C}/encounter", json={"monsters": "goblin x3"}).status_code == 200
    for _ in range(80):
        asked = ref.get(f"{C}/encounter/questions").json()["questions"]
        if asked:
            return dict(asked[0])
        enc = ref.get(C).json()["encounter"]
        assert not enc["over"], "the fight ended without a question"
        if any(c["id"] == enc["due"] and c["kind"] == "pc" for c in enc["combatants"]):
            menu = ref.get(f"{C}/encounter/actions").json()
            act = next(a for a in menu["actions"] if a["legal"] and a["targets"])      # attack, or move and attack
            ref.post(f"{C}/encounter/act",
                     json={"who": menu["who"], "action": act["kind"], "target": act["targets"][0]})
        else:
            ref.post(f"{C}/encounter/next")
    raise AssertionError("no question in 80 steps")


@pytest.mark.rule("F-LUCK-03")
def test_a_player_answers_her_own_luck_question_once(app: Any, table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    bo = joined(app, ref, "player", "Bo")
    q = _asked(app, ref)
    assert q["kind"] == "luck" and q["player"] == "Ann" and q["options"] == ["0", "1", "2", "3"]

    mine = ann.get(f"{C}/encounter/questions").json()["questions"]
    assert [c["id"] for c in mine] == [q["id"]]
    assert bo.get(f"{C}/encounter/questions").json()["questions"] == []        # not Bo's to see
    refused = bo.post(f"{C}/encounter/questions/{q['id']}", json={"answer": "3"})
    assert refused.status_code == 403, refused.text                           # nor his to answer
    assert ann.get(f"{C}/encounter/questions").json()["questions"] == mine     # still open: nothing spent

    count = app.state.store.count(CAMPAIGN)
    done = ann.post(f"{C}/encounter/questions/{q['id']}", json={"answer": "2"})
    assert done.status_code == 200, done.text
    spends = [e for e in done.json()["events"] if e["kind"] == "luck"]
    assert len(spends) == 1
    before, after, left = map(int, SPENT.search(spends[0]["what"]).groups())  # type: ignore[union-attr]
    faces = [int(r.rsplit("= ", 1)[1]) for r in spends[0]["rolls"]]
    assert before == q["about"]["total"] and len(faces) == 2 and all(1 <= f <= 6 for f in faces)
    assert after == before + sum(faces) and left == 1                          # F-LUCK-03: two d6 added, one left
    written = app.state.store.count(CAMPAIGN)
    assert written > count

    again = ann.post(f"{C}/encounter/questions/{q['id']}", json={"answer": "1"})   # the double tap
    assert again.status_code == 409, again.text
    assert app.state.store.count(CAMPAIGN) == written                          # nothing written, nothing spent


def test_the_referee_sees_every_question_and_answers_for_anyone(app: Any, table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    q = _asked(app, ref, "1")
    assert "default" in q and q["options"] == ["0", "1"]
    done = ref.post(f"{C}/encounter/questions/{q['id']}", json={"answer": "0"})
    assert done.status_code == 200, done.text
    assert any(e["kind"] == "answer" and "referee" in e["what"] for e in done.json()["events"])
    assert not any(e["kind"] == "luck" for e in done.json()["events"])         # no die spent on a 0
    assert ref.post(f"{C}/encounter/questions/{q['id']}", json={"answer": "1"}).status_code == 409


def test_an_answer_off_the_options_is_refused_and_changes_nothing(app: Any, table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    q = _asked(app, ref, "1")
    count = app.state.store.count(CAMPAIGN)
    assert ann.post(f"{C}/encounter/questions/{q['id']}", json={"answer": "3"}).status_code == 400
    assert ann.post(f"{C}/encounter/questions/q999", json={"answer": "1"}).status_code == 409
    assert app.state.store.count(CAMPAIGN) == count
    assert [c["id"] for c in ann.get(f"{C}/encounter/questions").json()["questions"]] == [q["id"]]


def test_a_players_card_tells_no_secret(app: Any, table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    q = _asked(app, ref)
    card = ann.get(f"{C}/encounter/questions")
    [seen] = card.json()["questions"]
    assert "default" not in seen and "quiet" not in card.json()
    assert set(seen["about"]) <= {"roll", "total", "natural", "held", "effect"}
    text = card.text.lower()
    assert "goblin" not in text and '"ac"' not in text and '"dc"' not in text and "needed" not in text
    assert seen["id"] == q["id"] and seen["name"] == q["name"]


def test_the_referee_switches_a_kind_off_and_the_standing_answer_decides(app: Any,
                                                                         table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    assert ref.post(f"{C}/encounter", json={"monsters": "goblin"}).status_code == 200
    assert ann.post(f"{C}/encounter/standing", json={"quiet": ["luck"]}).status_code == 403
    assert ref.post(f"{C}/encounter/standing", json={"quiet": ["luck"]}).status_code == 200
    assert ref.get(f"{C}/encounter/questions").json()["quiet"] == ["luck"]
    assert ref.post(f"{C}/encounter/standing", json={"quiet": []}).status_code == 200
    assert ref.get(f"{C}/encounter/questions").json()["quiet"] == []
