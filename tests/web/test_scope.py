"""A host serving many tables: the start link signs the host in (every campaign); a referee invite names the
campaigns its referee runs, and everything she reaches follows that scope — every route of another campaign is
refused (checked once, in `auth.guard`), her lists, her backup, the sessions she sees and ends, the invites she
makes; starting a campaign is the host's. Each attack a scoped referee could try is a test here.

The console runs in-process (tests/web/conftest.py); the CLI's links and sign-outs go through `furnace.cli.main` on
the console's own database.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient

from furnace.campaign import access, migrate
from furnace.campaign.store import Store
from furnace.cli.app import main
from furnace.web.auth import ALLOW, REF
from tests.web.conftest import joined, signed_in
from tests.web.live_server import running

KEEP, CRYPT = "keep", "crypt"


def _table(referee: TestClient, name: str, players: list[str]) -> None:
    assert referee.post("/api/campaigns", json={"name": name}).status_code == 200
    answer = referee.post(f"/api/campaigns/{name}/funnel", json={"players": players, "per_player": 1})
    assert answer.status_code == 200, answer.text


def _path(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


def _signed_in_by(app: Any, url: str) -> TestClient:
    client = TestClient(app)
    answer = client.get(_path(url))
    assert answer.status_code == 200, answer.text
    return signed_in(client)


def referee_of(app: Any, host: TestClient, *campaigns: str) -> TestClient:
    """A referee signed in by the host's referee invite naming `campaigns`."""
    answer = host.post("/api/referee-invites", json={"campaigns": list(campaigns)})
    assert answer.status_code == 200, answer.text
    assert answer.json()["campaigns"] == list(campaigns) and answer.json()["svg"].startswith("<svg")
    return _signed_in_by(app, answer.json()["url"])


@pytest.fixture
def tables(app: Any, referee: TestClient) -> dict[str, TestClient]:
    """Two tables on one console: `keep` (Ann) and `crypt` (Cy); the host, Kay the referee of the keep alone,
    and Ann's and Cy's phones."""
    _table(referee, KEEP, ["Ann"])
    _table(referee, CRYPT, ["Cy"])
    return {"host": referee, "kay": referee_of(app, referee, KEEP),
            "ann": joined(app, referee, "player", "Ann", KEEP), "cy": joined(app, referee, "player", "Cy", CRYPT)}


def _me(client: TestClient) -> dict[str, Any]:
    found: dict[str, Any] = client.get("/api/me").json()
    return found


# -- what she runs -------------------------------------------------------------------------------------------------
def test_the_start_link_signs_the_host_in_and_a_referee_invite_a_referee_of_its_campaigns(
        tables: dict[str, TestClient]) -> None:
    host, kay = tables["host"], tables["kay"]
    assert _me(host)["host"] is True and _me(kay)["host"] is False
    assert host.get("/api/campaigns").json() == {"campaigns": [CRYPT, KEEP], "host": True}
    assert kay.get("/api/campaigns").json() == {"campaigns": [KEEP], "host": False}


def _concrete(key: str, campaign: str) -> tuple[str, str]:
    method, path = key.split(" ", 1)
    values = {"campaign": campaign, "who": "cy1", "seq": "1", "qid": "q1", "cid": "goblin-1", "change": "hp",
              "entry": "1", "key": "set:x", "name": "F-TAB-36", "option": "x", "sid": "1"}
    for name, value in values.items():
        path = path.replace("{" + name + "}", value)
    return method, path


LIVE = "GET /api/campaigns/{campaign}/live"
REFEREE_CAMPAIGN_ROUTES = sorted(k for k, who in ALLOW.items() if "{campaign}" in k and REF in who and k != LIVE)


def test_every_route_of_a_campaign_outside_her_scope_is_refused(tables: dict[str, TestClient]) -> None:
    """One table set up, every route tried on it (a 403 changes nothing, so the tries do not disturb each other)."""
    let_through = []
    for key in REFEREE_CAMPAIGN_ROUTES:
        method, path = _concrete(key, CRYPT)
        answer = tables["kay"].request(method, path, json={} if method == "POST" else None)
        if answer.status_code != 403:
            let_through.append((key, answer.status_code, answer.text[:200]))
    assert len(REFEREE_CAMPAIGN_ROUTES) > 50
    assert not let_through


def test_the_live_stream_of_a_campaign_outside_her_scope_is_refused(app: Any, tables: dict[str, TestClient]) -> None:
    """The stream, on a real server (a stream let through would never end in the in-process client)."""
    cookies = dict(tables["kay"].cookies.items())
    with running(app) as base, httpx.Client(base_url=base, cookies=cookies, timeout=60) as http:
        for campaign, status in ((CRYPT, 403), (KEEP, 200)):
            with http.stream("GET", f"/api/campaigns/{campaign}/live?since=0") as answer:
                assert answer.status_code == status, campaign


@pytest.mark.parametrize("campaign", [CRYPT, "no-such-campaign"])
def test_the_attacks_on_another_table_are_refused_and_change_nothing(campaign: str,
                                                                    tables: dict[str, TestClient]) -> None:
    """Roll, damage, export, a sheet, an invite: refused alike for another table and for one that does not exist
    (no answer tells her which campaigns are there)."""
    kay, host = tables["kay"], tables["host"]
    before = host.get(f"/api/campaigns/{CRYPT}/log").json()
    c = f"/api/campaigns/{campaign}"
    attempts = [kay.post(f"{c}/roll", json={"expression": "d6"}),
                kay.post(f"{c}/characters/cy1/damage", json={"amount": 3}),
                kay.get(f"{c}/export"),
                kay.get(f"{c}/characters/cy1/sheet"),
                kay.get(f"{c}/characters/cy1/sheet?format=json"),
                kay.post(f"{c}/invites", json={"role": "player", "player": "Kay"}),
                kay.get(f"{c}/sessions"),
                kay.get(c),
                kay.get(f"/c/{campaign}/referee")]
    assert [a.status_code for a in attempts] == [403] * len(attempts)
    assert not any("cy1" in a.text or "Cy" in a.text for a in attempts)
    assert host.get(f"/api/campaigns/{CRYPT}/log").json() == before


def test_her_own_table_answers_her_as_it_answers_the_host(tables: dict[str, TestClient]) -> None:
    kay = tables["kay"]
    c = f"/api/campaigns/{KEEP}"
    assert kay.post(f"{c}/roll", json={"expression": "d6"}).status_code == 200
    assert kay.post(f"{c}/characters/ann1/damage", json={"amount": 1}).status_code == 200
    assert json.loads(kay.get(f"{c}/export").text)["campaign"]["name"] == KEEP
    assert kay.get(f"{c}/characters/ann1/sheet?format=json").status_code == 200
    assert kay.post(f"{c}/invites", json={"role": "observer"}).status_code == 200
    assert kay.get(f"/c/{KEEP}/referee").status_code == 200


def test_her_backup_holds_only_her_campaigns_and_the_hosts_every_one(tables: dict[str, TestClient]) -> None:
    def held(client: TestClient) -> list[str]:
        answer = client.get("/api/backup")
        assert answer.status_code == 200
        return [c["campaign"]["name"] for c in answer.json()["campaigns"]]

    assert held(tables["kay"]) == [KEEP]
    assert held(tables["host"]) == [CRYPT, KEEP]


def test_only_the_host_starts_a_campaign(tables: dict[str, TestClient]) -> None:
    refused = tables["kay"].post("/api/campaigns", json={"name": "her-own"})
    assert refused.status_code == 403
    assert "her-own" not in tables["host"].get("/api/campaigns").json()["campaigns"]
    assert tables["host"].post("/api/campaigns", json={"name": "another"}).status_code == 200
    assert 'id="new-campaign"' not in tables["kay"].get("/").text
    assert 'id="new-campaign"' in tables["host"].get("/").text


# -- the sessions she sees and ends ------------------------------------------------------------------------------------
def _sessions(client: TestClient) -> dict[int, dict[str, Any]]:
    answer = client.get("/api/sessions")
    assert answer.status_code == 200
    return {s["id"]: s for s in answer.json()["sessions"]}


def test_she_sees_and_ends_only_the_sessions_of_her_campaigns(tables: dict[str, TestClient]) -> None:
    host, kay = tables["host"], tables["kay"]
    every = _sessions(host)
    ids = {(s["role"], s["host"], s["campaign"] or ",".join(s["campaigns"])): i for i, s in every.items()}
    host_id, kay_id = ids[("referee", True, "")], ids[("referee", False, KEEP)]
    ann_id, cy_id = ids[("player", False, KEEP)], ids[("player", False, CRYPT)]
    hers = _sessions(kay)
    assert set(hers) == {kay_id, ann_id} and hers[kay_id]["yours"] and hers[kay_id]["campaigns"] == [KEEP]
    for other in (host_id, cy_id):                       # the host's and another table's: neither seen nor ended
        assert kay.post(f"/api/sessions/{other}/revoke").status_code == 403
    assert set(_sessions(host)) == set(every)
    assert tables["cy"].get(f"/api/campaigns/{CRYPT}").status_code == 200
    assert kay.post(f"/api/sessions/{ann_id}/revoke").status_code == 200
    assert tables["ann"].get(f"/api/campaigns/{KEEP}").status_code == 401
    assert host.post(f"/api/sessions/{kay_id}/revoke").status_code == 200     # the host ends hers
    assert kay.get(f"/api/campaigns/{KEEP}").status_code == 401


def test_a_referee_of_more_campaigns_oversees_one_scoped_within_hers_but_not_the_reverse(
        app: Any, tables: dict[str, TestClient]) -> None:
    both = referee_of(app, tables["host"], KEEP, CRYPT)
    kay_id = next(i for i, s in _sessions(tables["kay"]).items() if s["yours"])
    both_id = next(i for i, s in _sessions(both).items() if s["yours"])
    assert kay_id in _sessions(both) and both_id not in _sessions(tables["kay"])
    assert tables["kay"].post(f"/api/sessions/{both_id}/revoke").status_code == 403


# -- the invites she makes -------------------------------------------------------------------------------------------
def test_she_invites_referees_and_players_only_to_her_campaigns(app: Any, tables: dict[str, TestClient]) -> None:
    kay = tables["kay"]
    for names in ([CRYPT], [KEEP, CRYPT], ["no-such-campaign"]):
        answer = kay.post("/api/referee-invites", json={"campaigns": names})
        assert answer.status_code == 403, names
    assert kay.post(f"/api/campaigns/{CRYPT}/invites", json={"role": "observer"}).status_code == 403
    made = kay.post("/api/referee-invites", json={"campaigns": [KEEP]})
    assert made.status_code == 200
    co = _signed_in_by(app, made.json()["url"])
    assert co.get("/api/campaigns").json()["campaigns"] == [KEEP]
    assert co.get(f"/api/campaigns/{CRYPT}").status_code == 403


def test_a_referee_invite_works_once(app: Any, referee: TestClient) -> None:
    _table(referee, KEEP, ["Ann"])
    url = referee.post("/api/referee-invites", json={"campaigns": [KEEP]}).json()["url"]
    _signed_in_by(app, url)
    again = TestClient(app).get(_path(url))
    assert again.status_code == 400


@pytest.mark.parametrize("body", [{"campaigns": []}, {"campaigns": ["x"] * 101}, {"campaigns": [KEEP], "minutes": 0},
                                  {"campaigns": [KEEP], "minutes": 1441}, {"campaigns": [""]},
                                  {"campaigns": [KEEP], "minutes": "NaN"}])
def test_a_referee_invite_out_of_bounds_is_refused_before_anything_is_made(body: dict[str, Any],
                                                                           referee: TestClient) -> None:
    _table(referee, KEEP, ["Ann"])
    assert referee.post("/api/referee-invites", json=body).status_code == 422


def test_a_player_makes_no_referee_invite(tables: dict[str, TestClient]) -> None:
    assert tables["ann"].post("/api/referee-invites", json={"campaigns": [KEEP]}).status_code == 403


# -- her campaigns gone, her scope is empty, never everything ---------------------------------------------------
def _cli(settings: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
         *args: str) -> tuple[int, str]:
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "cli-config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "cli-data"))
    monkeypatch.delenv("FURNACE_PUBLIC_URL", raising=False)
    code = main(["--db", settings.db, *args])
    return code, capsys.readouterr().out


def test_a_referee_whose_campaigns_are_deleted_runs_none(tables: dict[str, TestClient], settings: Any,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert _cli(settings, monkeypatch, capsys, tmp_path, "campaign", "delete", KEEP, "--yes")[0] == 0
    kay = tables["kay"]
    assert kay.get("/api/campaigns").json()["campaigns"] == []
    assert kay.get(f"/api/campaigns/{CRYPT}").status_code == 403
    assert kay.get("/api/backup").json()["campaigns"] == []
    assert [s["id"] for s in kay.get("/api/sessions").json()["sessions"]] == [next(
        i for i, s in _sessions(tables["host"]).items() if not s["host"] and s["role"] == "referee")]


# -- the CLI ---------------------------------------------------------------------------------------------------------
def test_the_cli_makes_a_referee_invite_that_works_once(app: Any, tables: dict[str, TestClient], settings: Any,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out = _cli(settings, monkeypatch, capsys, tmp_path, "signin-link", "--campaign", CRYPT)
    assert code == 0 and out.startswith("http://127.0.0.1:8000/signin?token=")
    url = out.strip()
    cyra = _signed_in_by(app, url)
    assert cyra.get("/api/campaigns").json() == {"campaigns": [CRYPT], "host": False}
    assert cyra.get(f"/api/campaigns/{KEEP}").status_code == 403
    assert TestClient(app).get(_path(url)).status_code == 400
    code, out = _cli(settings, monkeypatch, capsys, tmp_path, "signin-link")         # the host's
    assert code == 0 and _me(_signed_in_by(app, out.strip()))["host"] is True


def test_the_cli_refuses_a_referee_invite_to_a_campaign_that_is_not_there(
        tables: dict[str, TestClient], settings: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "cli-config"))
    code = main(["--db", settings.db, "signin-link", "--campaign", "nowhere"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error:") and len(err.strip().splitlines()) == 1


def test_the_cli_lists_the_sessions_and_signs_one_out(tables: dict[str, TestClient], settings: Any,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out = _cli(settings, monkeypatch, capsys, tmp_path, "sessions", "--json")
    listed = json.loads(out)["sessions"]
    assert code == 0 and len(listed) == 4
    kay = next(s for s in listed if s["role"] == "referee" and not s["host"])
    assert kay["campaigns"] == [KEEP]
    code, _ = _cli(settings, monkeypatch, capsys, tmp_path, "signout", str(kay["id"]))
    assert code == 0
    assert tables["kay"].get(f"/api/campaigns/{KEEP}").status_code == 401
    assert _cli(settings, monkeypatch, capsys, tmp_path, "signout", str(kay["id"]))[0] == 2    # once


# -- the schema: the referee sessions made before the scope were every campaign's ---------------------------------
def test_referee_sessions_made_before_the_scope_become_the_hosts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = Store(url, migrate=False)
    try:
        migrate.upgrade(old, "0003")
        with old.engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO web_sessions (token_hash, role, campaign_id, player, created_at, expires_at) VALUES "
                f"('{access.hash_token('old-referee')}', 'referee', NULL, '', '2026-01-01', '2999-01-01')")
    finally:
        old.close()
    store = Store(url)                                  # opening it upgrades it
    try:
        found = access.session_for(store, "old-referee")
        assert found is not None and found.host and found.runs == ()
        migrate.downgrade(store, "0003")
        migrate.upgrade(store)
        again = access.session_for(store, "old-referee")
        assert again is not None and again.host
    finally:
        store.close()
