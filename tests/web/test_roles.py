"""Every route × every role against the explicit allow matrix (`furnace.web.auth.ALLOW`): pages, API, SSE,
static files, and the routes left out of the OpenAPI document. An allowed pair is not refused (no 401/403, no
5xx); every other pair is refused; a route missing from the matrix fails the test (deny by default)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from furnace.campaign import access
from furnace.web.app import app_routes
from furnace.web.auth import ALLOW, CSRF_COOKIE, SESSION_COOKIE, WHO
from tests.web.conftest import C
from tests.web.live_server import running

T = "/api/campaigns/{campaign}"
BODIES: dict[str, Any] = {
    "POST /api/join": None,     # filled with a fresh invite
    "POST /api/campaigns": {"name": "another"},
    f"POST {T}/funnel": {"count": 1, "per_player": 1},
    f"POST {T}/promote": {"who": "bo2", "char_class": "Fighter"},
    f"POST {T}/encounter": {"monsters": "goblin"},
    f"POST {T}/encounter/act": {"who": "ann1", "action": "wait"},
    f"POST {T}/monsters/{{cid}}": {"revealed": True},
    f"POST {T}/table": {"health": "exact"},
    f"POST {T}/rest": {"kind": "short"},
    f"POST {T}/clock": {"amount": 1, "unit": "turn"},
    f"POST {T}/roll": {"expression": "d6"},
    f"POST {T}/characters/{{who}}/roll": {"kind": "check"},
    f"POST {T}/invites": {"role": "observer"},
    f"POST {T}/clock/timer": {"label": "patrol", "amount": "2"},
    f"POST {T}/clock/light": {"who": "ann1", "source": "torch"},
    f"POST {T}/clock/rations": {"who": "ann1", "rations": 2},
    f"POST {T}/clock/disease": {"who": "ann1", "disease": "Green River Fever"},
    f"POST {T}/characters/{{who}}/level-up": {"random": True},
    f"POST {T}/characters/{{who}}/cast": {"spell": "Fireball"},
    f"POST {T}/morale": {"room_dc": 12},
    f"POST {T}/tables/{{name}}/roll": {"armor": "none"},
    f"POST {T}/simulate": {"monsters": "goblin", "fights": 2, "seed": 1},
}


def _url(path: str, params: dict[str, str]) -> str:
    for key, value in params.items():
        path = path.replace("{" + key + "}", value)
    return path.replace("/static", "/static/console.css") if path == "/static" else path


def _client(app: Any, store: Any, role: str) -> TestClient:
    client = TestClient(app)
    client.cookies.set(CSRF_COOKIE, "csrf-token-for-the-test")
    client.headers["X-CSRF-Token"] = "csrf-token-for-the-test"
    if role != "anonymous":
        campaign = None if role == "referee" else "keep"
        token, _ = access.new_session(store, role, campaign, "Ann" if role == "player" else "")
        client.cookies.set(SESSION_COOKIE, token)
    return client


def test_every_route_is_in_the_matrix(app: Any) -> None:
    keys = {f"{method} {path}" for method, path in app_routes(app)}
    assert keys == set(ALLOW), f"missing from ALLOW: {keys - set(ALLOW)}; stale in ALLOW: {set(ALLOW) - keys}"


@pytest.fixture
def fight(table: dict[str, TestClient]) -> dict[str, str]:
    ref = table["referee"]
    ref.post(f"{C}/encounter", json={"monsters": "goblin x2"})
    hidden = ref.post(f"{C}/roll", json={"expression": "d6", "hidden": True}).json()["events"][0]["seq"]
    return {"campaign": "keep", "who": "ann1", "cid": "goblin-1", "seq": str(hidden), "entry": "1",
            "name": "fumble"}


def test_every_route_times_every_role(app: Any, fight: dict[str, str]) -> None:
    store = app.state.store
    failures: list[str] = []
    tried: set[tuple[str, str]] = set()
    for method, path in app_routes(app):
        key = f"{method} {path}"
        if path.endswith("/live"):
            continue   # the stream: test_live_stream_times_every_role
        for role in WHO:
            params = dict(fight, sid=str(access.new_session(store, "observer", "keep")[1].id),
                          token=access.create_invite(store, "keep", "observer"))
            body = BODIES.get(key)
            if key == "POST /api/join":
                body = {"token": access.create_invite(store, "keep", "observer")}
            if key == f"POST {T}/encounter":
                app.state.store.apply("keep", "end", lambda s: (s.model_copy(update={"encounter": None}), []))
            client = _client(app, store, role)
            answer = client.request(method, _url(path, params), json=body if method == "POST" else None)
            if key not in ALLOW:
                failures.append(f"{key}: missing from the allow matrix (deny by default: add its line)")
                continue
            allowed = role in ALLOW[key]
            refusal = 401 if role == "anonymous" else 403     # who are you, or: not you
            if answer.status_code >= 500 or (allowed and answer.status_code in (401, 403)) or (
                    not allowed and answer.status_code != refusal):
                failures.append(f"{key} as {role}: {'allowed' if allowed else 'denied'} but answered "
                                f"{answer.status_code} {answer.text[:120]}")
            tried.add((key, role))
    assert not failures, "\n".join(failures)
    live = {(f"GET {T}/live", role) for role in WHO}           # the stream: test_live_stream_times_every_role
    assert tried | live == {(key, role) for key in ALLOW for role in WHO}    # every pair of the matrix, tried


def test_a_route_missing_from_the_matrix_is_refused_to_everyone_and_fails_the_check(
        app: Any, table: dict[str, TestClient]) -> None:
    """Deny by default: a route added without its line in ALLOW answers no one, and the matrix check names it."""
    app.add_api_route("/api/forgotten", lambda: {"secret": 1}, methods=["GET"])
    assert "GET /api/forgotten" not in ALLOW
    keys = {f"{method} {path}" for method, path in app_routes(app)}
    assert keys - set(ALLOW) == {"GET /api/forgotten"}        # what test_every_route_is_in_the_matrix reports
    for role in WHO:
        answer = _client(app, app.state.store, role).get("/api/forgotten")
        assert answer.status_code == (401 if role == "anonymous" else 403) and "secret" not in answer.text, role


def test_live_stream_times_every_role(app: Any, table: dict[str, TestClient]) -> None:
    store = app.state.store
    with running(app) as base:
        for role in WHO:
            client = _client(app, store, role)
            cookies = dict(client.cookies.items())
            with httpx.Client(base_url=base, cookies=cookies, timeout=60) as http, \
                    http.stream("GET", f"{C}/live?since=0") as answer:
                assert (answer.status_code == 200) == (role in ALLOW[f"GET {T}/live"]), role


def test_another_campaign_is_refused_to_a_player(app: Any, table: dict[str, TestClient]) -> None:
    table["referee"].post("/api/campaigns", json={"name": "other"})
    ann = table["ann"]
    for url in ("/api/campaigns/other", "/api/campaigns/other/log", "/c/other/player"):
        assert ann.get(url).status_code == 403
