"""A session ended from the CLI (`furnace signout ID`) reaches every worker at once: the revocation's transaction
notifies PostgreSQL's channel, as one ended on a worker does, so a player's stream on either worker ends before
the next roll is sent to it (not at its next periodic check). On the test PostgreSQL, as tests/web/test_workers.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from furnace.cli.app import main
from tests.store.conftest import clean_postgres, postgres_url
from tests.web.test_workers import WAIT, Stream, Workers, on_worker, streams, table

C = "/api/campaigns/keep"


@pytest.fixture
def database(request: pytest.FixtureRequest) -> str:
    url = postgres_url(request.node.nodeid)
    clean_postgres(url)
    return url


@pytest.fixture
def workers(database: str, tmp_path: Path) -> Iterator[Workers]:
    served = Workers(database, 2, tmp_path)
    try:
        yield served
    finally:
        served.stop()


@pytest.mark.postgres
def test_a_session_signed_out_by_the_cli_ends_its_stream_on_every_worker_before_the_next_roll(
        workers: Workers, database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    referee, ann = table(workers)
    phone, first = on_worker(workers.base, ann.cookies)
    other, _ = on_worker(workers.base, referee.cookies, other_than=first)
    mine = next(s["id"] for s in other.get("/api/sessions").json()["sessions"] if s["role"] == "player")
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "cli-config"))
    with streams() as stack:
        live = Stream(phone, stack)
        assert main(["--db", database, "signout", str(mine)]) == 0
        assert other.post(f"{C}/roll", json={"expression": "d6", "label": "after the sign-out"}).status_code == 200
        assert live.ended.wait(WAIT)
    assert not any("after the sign-out" in json.dumps(e) for e in list(live.events.queue))
    assert phone.get(C).status_code == 401
