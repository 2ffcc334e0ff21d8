"""The console in-process: an app on a temp SQLite store with seeded dice, a signed-in referee, invited players."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace import dice
from furnace.web import WebSettings, create_app
from furnace.web.auth import CSRF_COOKIE
from tests.helpers.chromium import chromium
from tests.web.live_server import Served

CAMPAIGN = "keep"
# the rate limits out of the way of tests that send many requests on one session (tests/web/test_hardening_*.py
# test the limits themselves)
UNLIMITED: dict[str, Any] = {"write_burst": 10**6, "log_burst": 10**6}
C = f"/api/campaigns/{CAMPAIGN}"


def seeded_dice() -> Any:
    counter = itertools.count(1)
    return lambda: dice.seeded(next(counter))


@pytest.fixture
def settings(tmp_path: Path) -> WebSettings:
    return WebSettings(db=str(tmp_path / "web.db"), rng=seeded_dice(), poll=0.02, keepalive=1, **UNLIMITED)


@pytest.fixture
def app(settings: WebSettings) -> Any:
    return create_app(settings)


def signed_in(client: TestClient) -> TestClient:
    """Send the CSRF cookie back in its header, as the page's script does."""
    client.get("/")
    client.headers["X-CSRF-Token"] = client.cookies.get(CSRF_COOKIE) or ""
    return client


@pytest.fixture
def referee(app: Any, settings: WebSettings) -> Iterator[TestClient]:
    with TestClient(app) as client:
        assert client.get(f"/signin?token={settings.referee_token}").status_code == 200
        yield signed_in(client)


def invite(referee: TestClient, role: str, player: str = "", campaign: str = CAMPAIGN) -> str:
    answer = referee.post(f"/api/campaigns/{campaign}/invites", json={"role": role, "player": player})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["url"]).rsplit("/", 1)[-1]


def joined(app: Any, referee: TestClient, role: str, player: str = "", campaign: str = CAMPAIGN) -> TestClient:
    token = invite(referee, role, player, campaign)
    client = TestClient(app)
    assert client.get(f"/join/{token}").status_code == 200
    client.headers["X-CSRF-Token"] = client.cookies.get(CSRF_COOKIE) or ""
    answer = client.post("/api/join", json={"token": token})
    assert answer.status_code == 200, answer.text
    client.headers["X-CSRF-Token"] = client.cookies.get(CSRF_COOKIE) or ""     # a new one at sign-in
    return client


def made_table(app: Any, referee: TestClient) -> dict[str, TestClient]:
    """The campaign `keep` with a funnel for Ann and Bo, Ann's phone and the table display signed in."""
    assert referee.post("/api/campaigns", json={"name": CAMPAIGN}).status_code == 200
    assert referee.post(f"{C}/funnel", json={"players": ["Ann", "Bo"], "per_player": 2}).status_code == 200
    return {"referee": referee, "ann": joined(app, referee, "player", "Ann"),
            "tv": joined(app, referee, "observer")}


@pytest.fixture
def table(app: Any, referee: TestClient) -> dict[str, TestClient]:
    """The campaign `keep` with a funnel for Ann and Bo, Ann's phone and the table display signed in."""
    return made_table(app, referee)


@contextmanager
def console(db: Path) -> Iterator[tuple[Any, TestClient]]:
    """An app on its own store (as `app`) and its referee signed in (as `referee`), for a module's fixtures."""
    made = WebSettings(db=str(db), rng=seeded_dice(), poll=0.02, keepalive=1, **UNLIMITED)
    app = create_app(made)
    with TestClient(app) as client:
        assert client.get(f"/signin?token={made.referee_token}").status_code == 200
        yield app, signed_in(client)


@pytest.fixture(scope="module")
def still_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, TestClient]]:
    """`table`, made once for a module's tests that change nothing (each sends what must be refused): a campaign
    and a funnel per test were most of their time."""
    with console(tmp_path_factory.mktemp("still") / "web.db") as (app, referee):
        yield made_table(app, referee)


# -- the browser (tests/web/test_browser*.py) ---------------------------------------------------------------
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path / "console.db")
    server.start()
    try:
        yield server
    finally:
        server.stop()
