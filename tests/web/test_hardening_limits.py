"""The load one player can put on the console, bounded (issue 24): live streams capped per session and per
address (429, and free again once closed); an idle stream does no work: it sleeps on the process's one watcher,
reads nothing and checks nothing until someone writes (the console, or the CLI in another process); a write reads
the log once per audience, not once per stream, and checks no session (ending one wakes its streams at once);
writes and log reads rate-limited per session (429 with Retry-After), and the log answered a page at a time."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from furnace import dice
from furnace.campaign import commands
from furnace.campaign.store import Store, resolve_url
from furnace.web import WebSettings, create_app, live, watch
from tests.web.conftest import CAMPAIGN, UNLIMITED, C, joined, seeded_dice, signed_in
from tests.web.live_server import running


@pytest.fixture
def limited(tmp_path: Path) -> Any:
    """A console with small stream caps and the rate limits of a real table."""
    return create_app(WebSettings(db=str(tmp_path / "web.db"), rng=seeded_dice(), poll=0.02, keepalive=30,
                                  streams_per_session=2, streams_per_address=3, write_burst=8, write_rate=0.001,
                                  log_burst=3, log_rate=0.001))


def _table(app: Any) -> dict[str, TestClient]:
    referee = TestClient(app)
    assert referee.get(f"/signin?token={app.state.settings.referee_token}").status_code == 200
    signed_in(referee)
    assert referee.post("/api/campaigns", json={"name": CAMPAIGN}).status_code == 200
    assert referee.post(f"{C}/funnel", json={"players": ["Ann", "Bo"], "per_player": 1}).status_code == 200
    return {"referee": referee, "ann": joined(app, referee, "player", "Ann"),
            "bo": joined(app, referee, "player", "Bo")}


def _open(stack: ExitStack, http: httpx.Client) -> httpx.Response:
    return stack.enter_context(http.stream("GET", f"{C}/live"))


def test_streams_are_capped_per_session_and_per_address_and_freed_when_closed(limited: Any) -> None:
    table = _table(limited)
    with running(limited) as base:
        ann = httpx.Client(base_url=base, cookies=dict(table["ann"].cookies.items()), timeout=60)
        bo = httpx.Client(base_url=base, cookies=dict(table["bo"].cookies.items()), timeout=60)
        with ExitStack() as stack:
            assert [_open(stack, ann).status_code for _ in range(2)] == [200, 200]
            third = ann.get(f"{C}/live")                     # her session's share is open
            assert third.status_code == 429 and "Retry-After" in third.headers
            assert _open(stack, bo).status_code == 200       # the address's third
            assert bo.get(f"{C}/live").status_code == 429    # the address's share is open
        _wait(lambda: limited.state.streams.open() == 0)
        with ExitStack() as stack:                           # closed: free again
            assert [_open(stack, ann).status_code for _ in range(2)] == [200, 200]
        ann.close()
        bo.close()


def _wait(condition: Any, polls: int = 6_000) -> None:
    """Poll until the condition holds: a wait, not a bound (the count of polls fails it, never the clock)."""
    for _ in range(polls):
        if condition():
            return
        time.sleep(0.01)
    pytest.fail(f"the condition never held in {polls} polls")


class Counted:
    """Counts the calls of a function of `live` (its log reads, its session checks)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
        self.calls, self.wrapped = 0, getattr(live, name)
        self.lock = threading.Lock()
        monkeypatch.setattr(live, name, self)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            self.calls += 1
        return self.wrapped(*args, **kwargs)


STREAMS = 12


@pytest.fixture
def many(tmp_path: Path) -> Any:
    return create_app(WebSettings(db=str(tmp_path / "web.db"), rng=seeded_dice(), poll=0.02, keepalive=60,
                                  streams_per_session=STREAMS, streams_per_address=10 * STREAMS, **UNLIMITED))


def _lines(stream: httpx.Response) -> Iterator[dict[str, Any]]:
    for line in stream.iter_lines():
        if line.startswith("data: "):
            yield json.loads(line[6:])


def test_idle_streams_do_no_work_and_a_write_is_read_once_per_audience(many: Any,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table(many)
    reads, checks = Counted(monkeypatch, "feed"), Counted(monkeypatch, "_still_allowed")
    with running(many) as base, ExitStack() as stack:
        http = httpx.Client(base_url=base, cookies=dict(table["ann"].cookies.items()), timeout=60)
        stack.callback(http.close)
        streams = [_open(stack, http) for _ in range(STREAMS)]
        watcher = _watcher(many)
        _wait(lambda: watcher.waiting == STREAMS)             # every stream asleep on the one watcher
        before = (reads.calls, checks.calls, watcher.looks)
        while watcher.looks < before[2] + 20:                 # the watcher looks at the database twenty times …
            time.sleep(0.01)
        assert (reads.calls, checks.calls) == before[:2]      # … and no stream reads or checks anything
        assert watcher.waiting == STREAMS

        table["referee"].post(f"{C}/roll", json={"expression": "d6", "label": "wake up"})
        told = [next(_lines(s)) for s in streams]
        assert all(t["what"].startswith("rolls wake up") for t in told)
        assert reads.calls - before[0] <= 2              # once per generation (the bell, the commit), not per stream
        assert checks.calls == before[1]                 # no session was ended: none is read again


def test_a_write_from_another_process_reaches_a_sleeping_stream(many: Any) -> None:
    table = _table(many)
    elsewhere = Store(resolve_url(many.state.settings.db))       # the CLI's own store: no bell of this console
    with running(many) as base, httpx.Client(base_url=base, cookies=dict(table["ann"].cookies.items()),
                                             timeout=60) as http, http.stream("GET", f"{C}/live") as stream:
        _wait(lambda: _watcher(many).waiting == 1)
        elsewhere.apply(CAMPAIGN, "roll", commands.roll("d6", dice.seeded(3), label="from the CLI"))
        assert next(_lines(stream))["what"].startswith("rolls from the CLI")
    elsewhere.close()


def test_an_ended_session_ends_its_sleeping_stream_at_once(many: Any) -> None:
    table = _table(many)
    ref = table["referee"]
    with running(many) as base, httpx.Client(base_url=base, cookies=dict(table["ann"].cookies.items()),
                                             timeout=60) as http, http.stream("GET", f"{C}/live") as stream:
        _wait(lambda: _watcher(many).waiting == 1)
        ann = next(s["id"] for s in ref.get("/api/sessions").json()["sessions"] if s["player"] == "Ann")
        assert ref.post(f"/api/sessions/{ann}/revoke").status_code == 200
        assert "event: signed-out" in list(stream.iter_lines())


def _watcher(app: Any) -> watch.Watcher:
    found = list(watch._watchers.get(app.state.store, {}).values())
    while not found:
        time.sleep(0.01)
        found = list(watch._watchers.get(app.state.store, {}).values())
    return found[0]


def test_writes_and_log_reads_are_rate_limited_per_session(limited: Any) -> None:
    table = _table(limited)        # the referee spent 4 of her 8 writes: the campaign, the funnel, two invites
    ref, ann = table["referee"], table["ann"]
    answers = [ref.post(f"{C}/roll", json={"expression": "d6"}).status_code for _ in range(5)]
    assert answers == [200, 200, 200, 200, 429]
    refused = ref.post(f"{C}/roll", json={"expression": "d6"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert ann.post(f"{C}/characters/ann1/roll", json={"kind": "check"}).status_code == 200     # her own bucket
    assert [ann.get(f"{C}/log").status_code for _ in range(4)] == [200, 200, 200, 429]
    assert ann.get(C).status_code == 200                  # other reads are not counted


def test_the_log_comes_a_page_at_a_time(table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    for n in range(5):
        ref.post(f"{C}/roll", json={"expression": "d6", "label": f"page {n}"})
    first = ref.get(f"{C}/log", params={"limit": 3}).json()
    assert len(first["events"]) == 3 and first["more"] is True
    seen, page = list(first["events"]), first
    while page["more"]:
        page = ref.get(f"{C}/log", params={"since": seen[-1]["seq"], "limit": 3}).json()
        seen += page["events"]
    assert [e["seq"] for e in seen] == sorted({e["seq"] for e in seen})
    assert seen[-1]["what"].startswith("rolls page 4")
    assert ref.get(f"{C}/log", params={"limit": 2001}).status_code == 422
