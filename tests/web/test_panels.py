"""The referee's panels over the campaign's own commands: physical dice entered (checked, marked, a player's only
when allowed), the clock (advance, timers, light, rations, diseases, what falls due), level-up with its choices,
spells from the sheet with their mishaps, enemy morale, the rules tables, and the simulation plot."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import C, joined

W = "/api/campaigns/wilds"


def _events(answer: Any) -> list[dict[str, Any]]:
    assert answer.status_code == 200, answer.text
    return list(answer.json()["events"])


# -- physical dice ----------------------------------------------------------------------------------------------
def test_the_referee_enters_her_dice_and_they_are_checked_and_marked(table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    got = _events(ref.post(f"{C}/roll", json={"expression": "d20+2", "label": "at the table", "faces": "14"}))
    assert got[0]["what"] == "rolls at the table: 16" and got[0]["rolls"] == ["at the table: d20+2 → [14] + 2 = 16"]
    assert got[0]["entered"] is True
    before = len(ref.get(f"{C}/log?limit=2000").json()["events"])
    refused = ref.post(f"{C}/roll", json={"expression": "d20", "faces": "21"})
    assert refused.status_code == 400 and "21" in refused.json()["error"]
    assert ref.post(f"{C}/roll", json={"expression": "d20", "faces": "3,4"}).status_code == 400   # one left over
    assert len(ref.get(f"{C}/log?limit=2000").json()["events"]) == before        # nothing logged
    seen = [e for e in ann.get(f"{C}/log").json()["events"] if "at the table" in e["what"]]
    assert seen and seen[0]["entered"] is True


def test_F_CHECK_a_player_enters_her_dice_only_when_the_referee_allows_it(table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    body = {"kind": "check", "ability": "STR", "dc": 10, "faces": "17"}
    refused = ann.post(f"{C}/characters/ann1/roll", json=body)
    assert refused.status_code == 400 and "not allowed players" in refused.json()["error"]
    assert ref.post(f"{C}/table", json={"players_dice": True}).status_code == 200
    got = _events(ann.post(f"{C}/characters/ann1/roll", json=body))
    assert got[0]["entered"] is True and "STR CHECK 17 +0 (STR) = 17 vs DC 10: succeeds" in got[0]["what"]
    assert any("[17]" in r for r in got[0]["rolls"])
    assert ann.post(f"{C}/characters/ann1/roll", json=dict(body, faces="0")).status_code == 400
    ref.post(f"{C}/table", json={"players_dice": False})
    assert ann.post(f"{C}/characters/ann1/roll", json=body).status_code == 400


# -- the clock ----------------------------------------------------------------------------------------------------
@pytest.mark.rule("F-OPT-07")
def test_F_OPT_07_a_timer_is_the_referees_and_runs_out_on_the_clock(table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    _events(ref.post(f"{C}/clock/timer", json={"label": "the ceiling gives way", "amount": "3", "unit": "turn",
                                               "prompt": "rocks fall: DEX SAVE"}))
    entries = ref.get(f"{C}/clock").json()["entries"]
    assert [(e["kind"], e["label"], e["left"]) for e in entries] == [("timer", "the ceiling gives way",
                                                                    "30 minutes")]
    assert "ceiling" not in ann.get(f"{C}/log").text                       # set in secret
    assert "ceiling" not in " ".join(e["what"] for e in _events(ref.post(f"{C}/clock", json={"amount": 2})))
    fired = _events(ref.post(f"{C}/clock", json={"amount": 1, "unit": "turn"}))
    assert any("rocks fall: DEX SAVE" in e["what"] for e in fired)
    assert ref.get(f"{C}/clock").json()["entries"] == []
    assert any("rocks fall" in p["what"] for p in ref.get(C).json()["prompts"])   # the referee's prompts


def _wilds(ref: TestClient) -> None:
    """A campaign on the Hazards profile (its clock rules on), with Ann's one peasant."""
    assert ref.post("/api/campaigns", json={"name": "wilds", "profile": "hazards"}).status_code == 200
    _events(ref.post(f"{W}/funnel", json={"players": ["Ann"], "per_player": 1}))


@pytest.mark.rule("H-LIGHT-02")
def test_H_LIGHT_02_a_torch_burns_out_and_a_timer_can_be_cancelled(referee: TestClient) -> None:
    ref, C = referee, W
    _wilds(ref)
    _events(ref.post(f"{C}/clock/light", json={"who": "ann1", "source": "torch"}))
    torch = ref.get(f"{C}/clock").json()["entries"][0]
    assert torch["kind"] == "light_out" and torch["left"] == "1 hour"           # 6 exploration turns
    _events(ref.post(f"{C}/clock/timer", json={"label": "patrol", "amount": "2", "unit": "hour"}))
    patrol = next(e for e in ref.get(f"{C}/clock").json()["entries"] if e["label"] == "patrol")
    _events(ref.post(f"{C}/clock/entries/{patrol['id']}/cancel"))
    assert [e["kind"] for e in ref.get(f"{C}/clock").json()["entries"]] == ["light_out"]
    burnt = _events(ref.post(f"{C}/clock", json={"amount": 6, "unit": "turn"}))
    assert any(e["kind"] == "light_out" or "burns out" in e["what"] for e in burnt), burnt


def test_H_STARV_rations_and_H_DIS_a_disease_go_on_the_clock(referee: TestClient) -> None:
    ref = referee
    _wilds(ref)
    _events(ref.post(f"{W}/clock/rations", json={"who": "ann1", "rations": 2}))
    _events(ref.post(f"{W}/clock/disease", json={"who": "ann1", "disease": "Green River Fever"}))
    kinds = {e["kind"] for e in ref.get(f"{W}/clock").json()["entries"]}
    assert {"rations", "daily_needs", "disease_save"} <= kinds, kinds
    _events(ref.post(f"{W}/clock/disease", json={"who": "ann1", "disease": "Green River Fever", "cure": True}))
    assert "disease_save" not in {e["kind"] for e in ref.get(f"{W}/clock").json()["entries"]}
    path = ref.post(f"{W}/clock/disease", json={"who": "ann1", "disease": "/etc/passwd"})
    assert path.status_code == 422          # a disease of the table, never a file on the server


# -- the roster: level-up with choices, spells ------------------------------------------------------------------
def test_a_level_up_refused_names_what_is_open_and_then_goes_through(table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    _events(ref.post(f"{C}/promote", json={"who": "ann1", "char_class": "Fighter", "random": True}))
    missing = ref.post(f"{C}/characters/ann1/level-up", json={})
    assert missing.status_code == 400 and missing.json().get("allowed"), missing.json()
    _events(ref.post(f"{C}/characters/ann1/level-up", json={"random": True}))
    assert [m["level"] for m in ref.get(C).json()["roster"] if m["id"] == "ann1"] == [2]


@pytest.mark.rule("F-SPELL-10", "F-TAB-19")
def test_F_SPELL_10_a_caster_casts_from_her_sheet_and_the_log_tells_it(table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    _events(ref.post(f"{C}/promote", json={"who": "bo1", "char_class": "Magic-user", "random": True}))
    spell = next(m for m in ref.get(C).json()["roster"] if m["id"] == "bo1")["spells"][0]
    assert any(s["name"] == spell for s in ref.get("/api/spells").json()["spells"])
    cast = _events(ref.post(f"{C}/characters/bo1/cast", json={"spell": spell, "dc": 12, "faces": "1,3,5"}))
    text = " ".join([e["what"] for e in cast] + [r for e in cast for r in e["rolls"]])
    assert "d20+INT+PROF → [1]" in text and "natural 1: a mishap" in text, text
    assert "mishap: d6 → [3] = 3" in text and any(e["entered"] for e in cast)     # the mishap, shown


# -- morale, the rules tables, the simulation ----------------------------------------------------------------------
@pytest.mark.rule("F-OPT-04")
def test_F_OPT_04_enemy_morale_is_the_referees_secret(table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    got = _events(ref.post(f"{C}/morale", json={"room_dc": 12, "faces": "3,2"}))
    assert got[0]["rolls"] == ["enemy morale: 2d6 → [3, 2] = 5"], got
    assert "5 against morale 6" in got[0]["what"] and got[0]["hidden"] is True
    assert "morale" not in ann.get(f"{C}/log").text


@pytest.mark.rule("F-FUMB-01", "F-TAB-36", "F-TAB-35")
def test_F_FUMB_01_a_rules_table_is_listed_and_rolled(table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    listed = ref.get("/api/tables").json()["tables"]
    assert {"F-TAB-36", "F-TAB-35"} <= {t["id"] for t in listed}
    got = _events(ref.post(f"{C}/tables/fumble/roll", json={"armor": "none", "faces": "1"}))
    assert "A wild miss, no other harm." in got[0]["what"] and got[0]["entered"] is True
    assert ref.post(f"{C}/tables/no-such-table/roll", json={}).status_code in (400, 404)


def test_the_simulation_plot_of_a_planned_fight_is_bounded(table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    got = ref.post(f"{C}/simulate", json={"monsters": "goblin x2", "fights": 20, "seed": 1})
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["fights"] == 20 and body["svg"].startswith("<svg") and 0 <= body["p_victory"] <= 1
    assert ref.post(f"{C}/simulate", json={"monsters": "goblin", "fights": 501}).status_code == 422
    again = ref.post(f"{C}/simulate", json={"monsters": "goblin x2", "fights": 20, "seed": 1}).json()
    assert again["p_victory"] == body["p_victory"]                  # one seed, one answer
    assert ref.get(f"{C}/log?limit=2000").json()["events"][-1]["kind"] != "encounter"   # nothing written


def test_a_player_casts_only_for_her_own_character(app: Any, table: dict[str, TestClient]) -> None:
    ann = table["ann"]
    refused = ann.post(f"{C}/characters/bo1/cast", json={"spell": "anything"})
    assert refused.status_code == 400 and "not your character" in refused.json()["error"]
    bo = joined(app, table["referee"], "player", "Bo")
    assert bo.post(f"{C}/morale", json={"room_dc": 12}).status_code == 403
