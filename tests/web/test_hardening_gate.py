"""The attacks of issue 24 on the console's door, as regression tests: a body over the limit (declared or
chunked) refused 413 before the sign-in check; numbers that are no numbers, integers past 64 bits and lone
surrogates refused 4xx before any command; a 422 that never echoes what was sent; a request naming another host
refused (DNS rebinding); invite links made of the public URL, never of Host; a sign-in link that works once and
a CSRF cookie new at sign-in; sessions listed and ended, sign-out; undo and redo that must name their command."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace.web import WebSettings, create_app
from furnace.web.auth import CSRF_COOKIE, SESSION_COOKIE
from tests.web.conftest import UNLIMITED, C, seeded_dice

JSON = dict[str, Any]


# -- the body ----------------------------------------------------------------------------------------------------
def test_a_body_over_the_limit_is_refused_before_the_signin_check(app: Any) -> None:
    with TestClient(app) as anonymous:
        big = b"x" * (256 * 1024 + 1)
        answer = anonymous.post("/api/campaigns", content=big, headers={"Content-Type": "application/json"})
        assert answer.status_code == 413 and len(answer.content) < 500        # not 401: the body came first
        lied = anonymous.post("/api/join", content=b"{}", headers={"Content-Length": "999999999999"})
        assert lied.status_code == 413


def test_a_chunked_body_is_cut_off_at_the_limit(app: Any) -> None:
    sent: list[int] = []

    def chunks() -> Iterator[bytes]:
        for _ in range(64):                 # 4 MB offered, 64 KB at a time
            sent.append(1)
            yield b"y" * 65536

    with TestClient(app) as anonymous:
        answer = anonymous.post("/api/join", content=chunks(), headers={"Content-Type": "application/json"})
    assert answer.status_code == 413


def test_a_body_within_the_limit_still_works(table: dict[str, TestClient]) -> None:
    label = "n" * 200
    assert table["referee"].post(f"{C}/roll", json={"expression": "1d6", "label": label}).status_code == 200


# -- odd input ----------------------------------------------------------------------------------------------------
ODD_BODIES = [
    ("/api/join", b'{"token": NaN}'),
    ("/api/join", b'{"token": "0123456789abcdef", "x": Infinity}'),
    (f"{C}/characters/ann1/roll", b'{"kind": "check", "dc": NaN}'),
    (f"{C}/characters/ann1/roll", b'{"kind": "check", "dc": -Infinity}'),
    (f"{C}/characters/ann1/roll", b'{"kind": "check", "dc": 99999999999999999999999999}'),
    (f"{C}/invites", b'{"role": "player", "hours": NaN}'),
    (f"{C}/invites", b'{"role": "player", "hours": 1e400}'),
    (f"{C}/clock/light", b'{"who": "ann1", "source": "torch", "turns": Infinity}'),
    (f"{C}/roll", b'{"expression": "1d6", "label": "\\ud800"}'),
    (f"{C}/clock/timer", b'{"label": "\\udfff", "amount": 1, "unit": "turn"}'),
]


@pytest.mark.parametrize(("path", "body"), ODD_BODIES)
def test_odd_numbers_and_strings_in_a_body_are_a_4xx(still_table: dict[str, TestClient], path: str,
                                                      body: bytes) -> None:
    for who in ("referee", "ann"):
        answer = still_table[who].post(path, content=body, headers={"Content-Type": "application/json"})
        assert 400 <= answer.status_code < 500, (who, path, answer.status_code, answer.text)


NINES = "9" * 25


@pytest.mark.parametrize("path", [f"{C}/log?since={NINES}", f"{C}/rolls/{NINES}/show", f"{C}/log?limit={NINES}",
                                  f"{C}/sessions/{NINES}/revoke", f"{C}/odds?expression=1d6&dc={NINES}",
                                  f"{C}/log?since=-{NINES}"])
def test_an_integer_past_64_bits_in_a_path_or_query_is_a_4xx(still_table: dict[str, TestClient], path: str) -> None:
    method = "POST" if path.endswith(("show", "revoke")) else "GET"
    answer = still_table["referee"].request(method, path)
    assert 400 <= answer.status_code < 500, (path, answer.status_code)


def test_an_odd_last_event_id_is_read_as_none(app: Any, table: dict[str, TestClient]) -> None:
    for value in (NINES, "-1", "abc", "1e9"):
        with table["ann"].stream("GET", f"{C}/live", headers={"Last-Event-ID": value}) as stream:
            assert stream.status_code == 200


def test_an_unknown_skill_is_refused_by_name(table: dict[str, TestClient]) -> None:
    answer = table["ann"].post(f"{C}/characters/ann1/roll", json={"kind": "check", "skill": "Troll"})
    assert answer.status_code == 400 and "Troll" in answer.json()["error"]


def test_a_422_never_echoes_what_was_sent(table: dict[str, TestClient]) -> None:
    token = "T" * 200_000
    answer = table["ann"].post("/api/join", json={"token": token})
    assert answer.status_code == 422 and len(answer.content) < 1000 and "TTTT" not in answer.text
    unknown = table["referee"].post(f"{C}/roll", json={"expression": "1d6", "K" * 5000: 1})
    assert unknown.status_code == 422 and "KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK" not in unknown.text


# -- hosts and origins ----------------------------------------------------------------------------------------------
@pytest.fixture
def lan(tmp_path: Path) -> Any:
    """A console bound to every interface, reached at its LAN address."""
    return create_app(WebSettings(db=str(tmp_path / "lan.db"), rng=seeded_dice(), public_url="http://192.168.1.20:8000",
                                  hosts=("127.0.0.1", "localhost", "192.168.1.20"), **UNLIMITED))


def test_a_request_naming_another_host_is_refused(lan: Any) -> None:
    with TestClient(lan, base_url="http://evil.example:8000") as rebound:
        assert rebound.get("/").status_code == 421
        assert rebound.get("/api/me").status_code == 421
    with TestClient(lan, base_url="http://192.168.1.20:8000") as phone:
        assert phone.get("/api/me").status_code == 200


def test_invites_are_made_of_the_public_url_never_of_host(lan: Any) -> None:
    settings = lan.state.settings
    with TestClient(lan, base_url="http://127.0.0.1:8000") as client:
        client.get(f"/signin?token={settings.referee_token}")
        client.headers["X-CSRF-Token"] = client.cookies.get(CSRF_COOKIE) or ""
        client.headers["Origin"] = "http://192.168.1.20:8000"
        assert client.post("/api/campaigns", json={"name": "keep"}).status_code == 200
        made = client.post(f"{C}/invites", json={"role": "player", "player": "Ann"}).json()
        assert made["url"].startswith("http://192.168.1.20:8000/join/")
        assert 'xmlns="http://www.w3.org/2000/svg"' in made["svg"]
        client.headers["Origin"] = "http://evil.example:8000"
        assert client.post(f"{C}/invites", json={"role": "player"}).status_code == 403


# -- sign-in, sessions, sign-out ------------------------------------------------------------------------------------
def test_the_signin_link_works_once_and_the_csrf_cookie_is_new_at_signin(app: Any, settings: Any) -> None:
    with TestClient(app) as client:
        client.get("/")
        before = client.cookies.get(CSRF_COOKIE)
        assert client.get(f"/signin?token={settings.referee_token}").status_code == 200
        assert client.get("/api/me").json()["role"] == "referee"
        assert client.cookies.get(CSRF_COOKIE) not in (None, before)
    with TestClient(app) as again:
        assert again.get(f"/signin?token={settings.referee_token}").status_code == 400
        assert again.get("/api/me").json()["role"] == "anonymous"


def test_every_session_is_listed_and_ended_and_signout_ends_ones_own(app: Any, table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    listed = ref.get("/api/sessions").json()["sessions"]
    assert sorted((s["role"], s["player"]) for s in listed) == [("observer", ""), ("player", "Ann"), ("referee", "")]
    assert [s["yours"] for s in listed if s["role"] == "referee"] == [True]
    ann = next(s["id"] for s in listed if s["player"] == "Ann")
    assert ref.post(f"/api/sessions/{ann}/revoke").json() == {"revoked": ann}
    assert table["ann"].get(C).status_code == 401
    assert ref.post(f"/api/sessions/{ann}/revoke").status_code == 403        # ended already
    assert table["tv"].post("/api/signout").status_code == 200
    assert table["tv"].get(C).status_code == 401
    assert [s["role"] for s in ref.get("/api/sessions").json()["sessions"]] == ["referee"]
    signed_out = ref.post("/api/signout")
    assert signed_out.status_code == 200 and SESSION_COOKIE in signed_out.headers["set-cookie"]
    assert ref.get("/api/sessions").status_code == 401


def test_players_may_not_list_or_end_sessions(table: dict[str, TestClient]) -> None:
    assert table["ann"].get("/api/sessions").status_code == 403
    assert table["ann"].post("/api/sessions/1/revoke").status_code == 403


# -- undo and redo ------------------------------------------------------------------------------------------------
def test_undo_must_name_the_command_on_top_and_a_roll_in_between_is_not_undone(app: Any,
                                                                              table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    assert ref.post(f"{C}/rest", json={"kind": "short"}).status_code == 200
    shown = ref.get(f"{C}/undo").json()["undo"]
    assert shown["name"] == "rest short"
    assert ann.post(f"{C}/characters/ann1/roll", json={"kind": "check"}).status_code == 200     # in between
    late = ref.post(f"{C}/undo", json={"command": shown["command"]})
    assert late.status_code == 409 and "roll check" in late.json()["error"]
    top = ref.get(f"{C}/undo").json()["undo"]
    assert top["name"] == "roll check"
    assert ref.post(f"{C}/undo", json={"command": top["command"]}).status_code == 200
    again = ref.get(f"{C}/undo").json()
    assert again["undo"]["name"] == "rest short" and again["redo"]["name"].startswith("undo of roll check")


def test_redo_puts_back_a_funnel_with_the_same_people(table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    before = [m["name"] for m in ref.get(C).json()["roster"]]
    funnel = ref.get(f"{C}/undo").json()["undo"]
    assert funnel["name"] == "funnel"
    ref.post(f"{C}/undo", json={"command": funnel["command"]})
    assert ref.get(C).json()["roster"] == []
    redo = ref.get(f"{C}/undo").json()["redo"]
    assert redo is not None and ref.post(f"{C}/redo", json={"command": redo["command"]}).status_code == 200
    assert [m["name"] for m in ref.get(C).json()["roster"]] == before
    assert ref.get(f"{C}/undo").json()["redo"] is None


def test_undo_without_a_command_id_is_refused(table: dict[str, TestClient]) -> None:
    assert table["referee"].post(f"{C}/undo", json={}).status_code == 422
