"""The console's panel of the campaign's rules (`furnace.web.rules`): the referee reads every option in force
with where its value comes from, the profile in force and each override, sets one option (the campaign command
`furnace campaign override set` runs) and takes it back; a bad setting changes nothing; players and the table
display are refused. The option set is applied: the Hazards light (H-LIGHT-02) by the numbers."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import C


def _options(client: TestClient) -> dict[str, dict[str, Any]]:
    answer = client.get(f"{C}/rules")
    assert answer.status_code == 200, answer.text
    return {o["name"]: o for o in answer.json()["options"]}


def _log_count(client: TestClient) -> int:
    return len(client.get(f"{C}/log?limit=2000").json()["events"])


@pytest.mark.rule("F-BASE-01")
def test_the_referee_reads_sets_and_takes_back_an_option(table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    before = _options(ref)["hazards_light"]
    assert (before["value"], before["source"], before["default"], before["set"]) == (False, "default", False, False)
    rules = ref.get(f"{C}/rules").json()
    assert (rules["profile"], rules["began"], rules["profile_override"], rules["overrides"]) == (
        "furnace", "furnace", None, [])

    answer = ref.post(f"{C}/rules", json={"option": "hazards_light", "value": True})
    assert answer.status_code == 200, answer.text
    assert answer.json()["events"][0]["what"] == ("the referee turns on the rule option “Hazards: light sources "
                                                 "burn down” (it was off, from the default)")
    now = _options(ref)["hazards_light"]
    assert (now["value"], now["source"], now["set"]) == (True, "campaign override set", True)
    assert ref.get(f"{C}/rules").json()["overrides"] == [
        {"key": "set:hazards_light", "kind": "set", "id": "hazards_light", "source": "", "value": True}]

    assert ref.post(f"{C}/rules", json={"option": "death_model", "value": "hazards"}).status_code == 200
    assert _options(ref)["death_model"]["value"] == "hazards"
    assert ref.post(f"{C}/rules/death_model/unset").status_code == 200
    assert (_options(ref)["death_model"]["value"], _options(ref)["death_model"]["source"]) == ("furnace", "default")
    named = ref.get(f"{C}/undo").json()
    assert ref.post(f"{C}/undo", json={"command": named["undo"]["command"]}).status_code == 200   # the unset back
    assert _options(ref)["death_model"]["source"] == "campaign override set"


@pytest.mark.parametrize(("body", "status", "says"), [
    ({"option": "hazards_light", "value": "maybe"}, 400, "'maybe' is not true or false"),
    ({"option": "hazard_light", "value": "true"}, 404, "unknown rule option 'hazard_light'"),
    ({"option": "disease_loss_per_failure", "value": -3}, 400, "disease_loss_per_failure"),
])
def test_a_bad_setting_is_refused_and_changes_nothing(table: dict[str, TestClient], body: dict[str, Any],
                                                      status: int, says: str) -> None:
    ref = table["referee"]
    before, count = ref.get(f"{C}/rules").json(), _log_count(ref)
    answer = ref.post(f"{C}/rules", json=body)
    assert answer.status_code == status and says in answer.json()["error"]
    assert ref.get(f"{C}/rules").json() == before and _log_count(ref) == count
    assert ref.post(f"{C}/rules/hazards_light/unset").status_code == 404        # nothing set to take back
    assert ref.post(f"{C}/rules", json={"option": "../x", "value": "1"}).status_code == 422


def test_players_and_the_table_neither_read_nor_set_the_rules(table: dict[str, TestClient]) -> None:
    for who in ("ann", "tv"):
        assert table[who].get(f"{C}/rules").status_code == 403
        assert table[who].post(f"{C}/rules", json={"option": "hazards_light", "value": True}).status_code == 403
    ref = table["referee"]
    assert ref.post(f"{C}/rules", json={"option": "monster_crits", "value": "true"}).status_code == 200
    seen = " ".join(e["what"] for e in table["ann"].get(f"{C}/log").json()["events"])
    assert "rule option" not in seen                                   # the referee's, as her override files


@pytest.mark.rule("F-BASE-01", "H-LIGHT-02")
def test_light_set_in_the_console_burns_a_torch_for_six_turns(table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    refused = ref.post(f"{C}/clock/light", json={"who": "ann1", "source": "torch"})
    assert refused.status_code == 400 and "hazards_light is off" in refused.json()["error"]
    assert ref.post(f"{C}/rules", json={"option": "hazards_light", "value": "on"}).status_code == 200
    assert ref.post(f"{C}/clock/light", json={"who": "ann1", "source": "torch"}).status_code == 200
    lights = [e for e in ref.get(f"{C}/clock").json()["entries"] if e["kind"] == "light_out"]
    assert [(e["left"], e["due"]) for e in lights] == [("1 hour", "day 1, 01:00")]      # 6 turns of 10 minutes
    assert ref.post(f"{C}/clock", json={"amount": 6, "unit": "turn"}).status_code == 200
    assert [e for e in ref.get(f"{C}/clock").json()["entries"] if e["kind"] == "light_out"] == []
