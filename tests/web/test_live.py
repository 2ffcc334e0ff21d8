"""The live log over SSE: event ids are the campaign's event numbers; a dropped connection that comes back
with Last-Event-ID gets every event after it exactly once, none missed, none repeated."""

from __future__ import annotations

import json
from typing import Any

import httpx
from fastapi.testclient import TestClient

from tests.web.conftest import C
from tests.web.live_server import running


def _events(stream: Any, until: int) -> list[tuple[int, dict[str, Any]]]:
    """(id, event) of the log events read from an SSE stream, until `until` of them have come."""
    out: list[tuple[int, dict[str, Any]]] = []
    seq: int | None = None
    for line in stream.iter_lines():
        if line.startswith("id: "):
            seq = int(line[4:])
        elif line.startswith("data: ") and seq is not None:
            out.append((seq, json.loads(line[6:])))
            seq = None
            if len(out) >= until:
                break
    return out


def test_a_player_reconnects_and_sees_each_roll_exactly_once(app: Any, table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    with running(app) as base, httpx.Client(base_url=base, cookies=dict(ann.cookies.items()), timeout=60) as http:
        with http.stream("GET", f"{C}/live") as stream:
            ref.post(f"{C}/roll", json={"expression": "d6", "label": "before the cut"})
            first = _events(stream, 1)
        assert first[0][1]["what"].startswith("rolls before the cut")
        last = first[0][0]
        for n in (1, 2, 3):        # made while the player's connection is down
            ref.post(f"{C}/roll", json={"expression": "d6", "label": f"roll {n} in the dark"})
        with http.stream("GET", f"{C}/live", headers={"Last-Event-ID": str(last)}) as stream:
            ref.post(f"{C}/roll", json={"expression": "d6", "label": "after the return"})
            again = _events(stream, 4)
    ids = [seq for seq, _ in again]
    assert ids == [last + 1, last + 2, last + 3, last + 4]
    labels = [e["what"].split(":")[0] for _, e in again]
    assert labels == ["rolls roll 1 in the dark", "rolls roll 2 in the dark", "rolls roll 3 in the dark",
                      "rolls after the return"]


def test_hidden_events_are_skipped_without_breaking_the_ids(app: Any, table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    with running(app) as base, httpx.Client(base_url=base, cookies=dict(ann.cookies.items()), timeout=60) as http, \
            http.stream("GET", f"{C}/live") as stream:
        ref.post(f"{C}/roll", json={"expression": "d6", "label": "secret", "hidden": True})
        ref.post(f"{C}/roll", json={"expression": "d6", "label": "public"})
        got = _events(stream, 1)
    assert "public" in got[0][1]["what"] and "secret" not in json.dumps(got)
