"""The console's JSON API in-process: sign-in, cookies, CSRF, CSP, and the campaign commands it runs.

The web layer calls the campaign's own commands (the CLI's): a funnel, a promotion, a fight, a rest, the clock,
a roll, undo — each one logged command, as `furnace campaign log` shows it.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from furnace.web.auth import CSRF_COOKIE, SESSION_COOKIE
from furnace.web.config import CSP
from tests.web.conftest import C, joined

JSON = dict[str, Any]


def test_signin_link_sets_an_httponly_lax_session_cookie(app: Any, settings: Any) -> None:
    with TestClient(app) as client:
        answer = client.get(f"/signin?token={settings.referee_token}", follow_redirects=False)
        assert answer.status_code == 303
        cookie = answer.headers["set-cookie"]
        assert SESSION_COOKIE in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert "Secure" not in cookie
        assert client.get("/api/me").json()["role"] == "referee"


def test_cookie_is_secure_behind_an_https_proxy(app: Any, settings: Any) -> None:
    with TestClient(app) as client:
        answer = client.get(f"/signin?token={settings.referee_token}", follow_redirects=False,
                            headers={"X-Forwarded-Proto": "https"})
        assert "Secure" in answer.headers["set-cookie"]


def test_a_wrong_signin_token_is_refused(app: Any) -> None:
    with TestClient(app) as client:
        assert client.get("/signin?token=guess").status_code == 400
        assert client.get("/api/me").json()["role"] == "anonymous"
        assert client.get("/api/campaigns").status_code == 401


def test_every_answer_has_a_csp_without_inline_script(referee: TestClient) -> None:
    for path in ("/", "/api/me", "/static/console.js", "/nowhere"):
        csp = referee.get(path).headers["content-security-policy"]
        assert csp == CSP and "script-src 'self'" in csp and "unsafe-inline" not in csp
    page = referee.get("/").text
    assert "<script>" not in page and "onclick=" not in page and "style=" not in page


def test_a_change_without_its_csrf_token_is_refused(referee: TestClient) -> None:
    token = referee.headers.pop("X-CSRF-Token")
    assert referee.post("/api/campaigns", json={"name": "keep"}).status_code == 403
    assert referee.post("/api/campaigns", json={"name": "keep"}, headers={"X-CSRF-Token": "forged"}).status_code == 403
    assert referee.post("/api/campaigns", json={"name": "keep"}, headers={"X-CSRF-Token": token}).status_code == 200
    assert referee.cookies.get(CSRF_COOKIE) == token


def test_a_change_from_another_origin_is_refused(referee: TestClient) -> None:
    answer = referee.post("/api/campaigns", json={"name": "keep"}, headers={"Origin": "https://evil.example"})
    assert answer.status_code == 403


def test_funnel_promote_fight_rest_clock_roll_and_undo_are_logged_commands(table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    view: JSON = ref.get(C).json()
    assert [m["name"] for m in view["roster"]] == ["Ann-1", "Ann-2", "Bo-1", "Bo-2"]
    promoted = ref.post(f"{C}/promote", json={"who": "ann2", "char_class": "Fighter", "name": "Mirela"})
    assert promoted.status_code == 200, promoted.text
    assert any(m["name"] == "Mirela" and m["level"] == 1 for m in ref.get(C).json()["roster"])
    assert ref.post(f"{C}/encounter", json={"monsters": "goblin x2"}).status_code == 200
    fight = ref.get(C).json()["encounter"]
    assert fight["due"] and len(fight["combatants"]) == 5      # Ann-1 stays home: Ann plays on with Mirela
    menu = ref.get(f"{C}/encounter/actions").json()
    legal = next(a for a in menu["actions"] if a["legal"] and a["targets"])
    acted = ref.post(f"{C}/encounter/act", json={"who": menu["who"], "action": legal["kind"],
                                                  "target": legal["targets"][0]})
    assert acted.status_code == 200, acted.text
    assert ref.post(f"{C}/encounter/end").status_code == 200
    assert ref.get(C).json()["encounter"] is None
    assert ref.post(f"{C}/rest", json={"kind": "short"}).status_code == 200
    before = ref.get(C).json()["clock"]
    assert ref.post(f"{C}/clock", json={"amount": 2, "unit": "hour"}).status_code == 200
    assert ref.get(C).json()["clock"] != before
    rolled = ref.post(f"{C}/roll", json={"expression": "3d6", "label": "wandering monsters"}).json()["events"]
    assert rolled[0]["kind"] == "roll" and "wandering monsters" in rolled[0]["what"]
    for taken in ("roll", "clock advance 2 hour"):      # undo names the command it takes back: the roll first
        shown = ref.get(f"{C}/undo").json()["undo"]
        assert shown["name"] == taken
        undone = ref.post(f"{C}/undo", json={"command": shown["command"]}).json()["events"]
        assert undone[0]["kind"] == "undo"
    assert ref.get(C).json()["clock"] == before
    commands = [e["command"] for e in ref.get(f"{C}/log?limit=2000").json()["events"]]
    for command in ("funnel", "character promote", "encounter start", "encounter end", "rest short",
                    "clock advance 2 hour", "roll", "undo"):
        assert command in commands


def test_a_player_rolls_for_her_own_character_only(table: dict[str, TestClient]) -> None:
    ann = table["ann"]
    mine = [m["id"] for m in ann.get(C).json()["roster"] if m["mine"]]
    assert mine == ["ann1", "ann2"]
    for kind in ("check", "save", "attack"):
        answer = ann.post(f"{C}/characters/ann1/roll", json={"kind": kind, "ability": "DEX", "dc": 12})
        assert answer.status_code == 200, answer.text
        event = answer.json()["events"][0]
        assert event["kind"] == "sheet_roll" and event["who"] == "Ann-1" and event["rolls"]
    refused = ann.post(f"{C}/characters/bo1/roll", json={"kind": "check"})
    assert refused.status_code == 400 and "not your character" in refused.json()["error"]
    assert ann.post(f"{C}/characters/ann1/roll", json={"kind": "check", "total": 20}).status_code == 422


def test_a_player_acts_on_her_own_turn_by_handles(table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    ref.post(f"{C}/encounter", json={"monsters": "goblin", "party": ["ann1"]})
    goblin = next(c for c in ref.get(C).json()["encounter"]["combatants"] if c["kind"] == "monster")
    menu = ann.get(f"{C}/encounter/actions?who=ann1").json()
    assert all(not a["targets"] for a in menu["actions"])          # the goblin is concealed: no target
    ref.post(f"{C}/monsters/{goblin['id']}", json={"revealed": True, "mask": "a shape in the dark"})
    menu = ann.get(f"{C}/encounter/actions?who=ann1").json()
    attack = next(a for a in menu["actions"] if a["legal"] and a["targets"])
    assert attack["targets"] == ["m1"]
    acted = ann.post(f"{C}/encounter/act", json={"who": "ann1", "action": attack["kind"], "target": "m1"})
    assert acted.status_code == 200, acted.text
    assert ann.post(f"{C}/encounter/act", json={"who": "ann1", "action": "attack",
                                                "target": goblin["id"]}).status_code in (400, 409)


def test_invites_are_single_use_and_carry_a_qr_code(app: Any, table: dict[str, TestClient]) -> None:
    made = table["referee"].post(f"{C}/invites", json={"role": "observer"}).json()
    assert made["svg"].startswith("<svg") and "<script" not in made["svg"]
    token = made["url"].rsplit("/", 1)[-1]
    with TestClient(app) as client:
        client.get(f"/join/{token}")
        client.headers["X-CSRF-Token"] = client.cookies.get(CSRF_COOKIE) or ""
        assert client.post("/api/join", json={"token": token}).status_code == 200
        assert client.post("/api/join", json={"token": token}).status_code == 403
    assert TestClient(app).get(f"/join/{token}").status_code == 403


def test_a_revoked_session_opens_nothing(app: Any, table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    bo = joined(app, ref, "player", "Bo")
    sid = max(s["id"] for s in ref.get(f"{C}/sessions").json()["sessions"] if s["player"] == "Bo")
    assert ref.post(f"{C}/sessions/{sid}/revoke").status_code == 200
    assert bo.get(C).status_code == 401


def test_odds_of_an_expression(table: dict[str, TestClient]) -> None:
    odds = table["referee"].get(f"{C}/odds?expression=d20%2B3&dc=15").json()
    assert odds["p_at_least_dc"] == 0.45 and len(odds["bars"]) == 20


def test_openapi_documents_the_api(referee: TestClient) -> None:
    paths = referee.get("/api/openapi.json").json()["paths"]
    assert "/api/campaigns/{campaign}/encounter/act" in paths and "/api/campaigns/{campaign}/roll" in paths


def test_xss_name_is_text_in_the_api_and_never_markup_in_pages(table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    evil = "<img src=x onerror=alert(1)>"
    assert ref.post(f"{C}/promote", json={"who": "bo1", "char_class": "Rogue", "name": evil}).status_code == 200
    assert any(m["name"] == evil for m in ref.get(C).json()["roster"])
    for page in (f"/c/{'keep'}/referee", "/c/keep/table"):
        assert evil not in ref.get(page).text
