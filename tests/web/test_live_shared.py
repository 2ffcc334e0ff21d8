"""The live log's work is shared (issue 24, the load goal): a new event is read from the database once per campaign
for every stream and audience of the process, then told to each audience in memory — the referee's hidden roll
to her alone; the events a command writes here are told to its answer without reading them back; an ended
session makes each other session be read once, not each of its streams; a quiet stream's keep-alive comes from
its own wait (no ping task), with no read."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from furnace.web import WebSettings, create_app, feed
from tests.web.conftest import UNLIMITED, C, seeded_dice
from tests.web.live_server import running
from tests.web.test_hardening_limits import Counted, _table, _wait, _watcher

STREAMS = 3          # each player's, and the referee's


@pytest.fixture
def console(tmp_path: Path) -> Any:
    return create_app(WebSettings(db=str(tmp_path / "web.db"), rng=seeded_dice(), poll=0.02, keepalive=60,
                                  streams_per_session=10, streams_per_address=100, **UNLIMITED))


class Reads:
    """Counts the log's reads of the database (`feed.Log.refresh`), whichever stream or request asks."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls, self.wrapped = 0, feed.Log.refresh
        self.lock = threading.Lock()
        reads = self

        def refresh(log: feed.Log, *args: Any) -> bool:
            with reads.lock:
                reads.calls += 1
            return reads.wrapped(log, *args)

        monkeypatch.setattr(feed.Log, "refresh", refresh)


def _told(stream: httpx.Response) -> Iterator[dict[str, Any]]:
    for line in stream.iter_lines():
        if line.startswith("data: {"):
            yield json.loads(line[6:])


def _streams(stack: ExitStack, base: str, clients: list[Any], each: int) -> list[httpx.Response]:
    out = []
    for client in clients:
        http = stack.enter_context(httpx.Client(base_url=base, cookies=dict(client.cookies.items()), timeout=60))
        out += [stack.enter_context(http.stream("GET", f"{C}/live")) for _ in range(each)]
    return out


def test_a_roll_is_read_once_for_every_audience_and_a_hidden_one_told_to_the_referee_alone(
        console: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table(console)
    reads = Reads(monkeypatch)
    with running(console) as base, ExitStack() as stack:
        ref, ann, bo = (_streams(stack, base, [table[who]], STREAMS) for who in ("referee", "ann", "bo"))
        _wait(lambda: _watcher(console).waiting == 3 * STREAMS)
        before = reads.calls
        table["referee"].post(f"{C}/roll", json={"expression": "d6", "label": "secret", "hidden": True})
        table["referee"].post(f"{C}/roll", json={"expression": "d6", "label": "public"})
        referee_told = [[next(lines)["what"].split(":")[0] for _ in range(2)] for lines in map(_told, ref)]
        players_told = [next(_told(s)) for s in ann + bo]
        # one read per change of the log, for the nine streams of three audiences (none for the answers)
        assert reads.calls - before <= 2
    assert referee_told == [["rolls secret", "rolls public"]] * STREAMS
    assert all(t["what"].startswith("rolls public") for t in players_told)
    assert "secret" not in json.dumps(players_told)


def test_a_command_written_here_is_told_to_its_answer_without_a_read(console: Any,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table(console)
    table["ann"].get(f"{C}/log")                         # her reading, up to now
    mine = next(m["id"] for m in table["referee"].get(f"{C}").json()["roster"] if m["player"] == "Ann")
    reads = Reads(monkeypatch)
    answer = table["ann"].post(f"{C}/characters/{mine}/roll", json={"kind": "check"})
    assert answer.status_code == 200 and answer.json()["events"][0]["kind"] == "sheet_roll"
    assert reads.calls == 0


def test_an_ended_session_makes_each_other_session_be_read_once_not_each_stream(
        console: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table(console)
    checks = Counted(monkeypatch, "_still_allowed")
    with running(console) as base, ExitStack() as stack:
        ann = _streams(stack, base, [table["ann"]], STREAMS)
        bo = _streams(stack, base, [table["bo"]], 1)
        _wait(lambda: _watcher(console).waiting == STREAMS + 1)
        before = checks.calls
        sessions = table["referee"].get("/api/sessions").json()["sessions"]
        gone = next(s["id"] for s in sessions if s["player"] == "Bo")
        assert table["referee"].post(f"/api/sessions/{gone}/revoke").status_code == 200
        assert "event: signed-out" in list(bo[0].iter_lines())
        table["referee"].post(f"{C}/roll", json={"expression": "d6", "label": "still here"})
        assert all(next(_told(s))["what"].startswith("rolls still here") for s in ann)
        assert checks.calls - before == 2                   # Ann's session once for her three streams, and Bo's


def test_a_quiet_stream_keeps_alive_from_its_own_wait_without_a_read(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    quick = create_app(WebSettings(db=str(tmp_path / "web.db"), rng=seeded_dice(), poll=0.02, keepalive=0.05,
                                   streams_per_session=10, streams_per_address=100, **UNLIMITED))
    table = _table(quick)
    reads, checks = Reads(monkeypatch), Counted(monkeypatch, "_still_allowed")
    with running(quick) as base, ExitStack() as stack:
        stream = _streams(stack, base, [table["ann"]], 1)[0]
        _wait(lambda: _watcher(quick).waiting == 1)
        before = (reads.calls, checks.calls)
        pings = 0
        for line in stream.iter_lines():
            pings += line.startswith(": ping")
            if pings == 3:
                break
        assert (reads.calls, checks.calls) == before
