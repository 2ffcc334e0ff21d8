"""Concealment is how a player's view of any event is drawn, not where the fight began: a fight fought from the
CLI (`furnace fight --party … --monsters …`) or played with `furnace encounter start/next/end` keeps its monsters'
names from players in pages, API answers and the live stream, during the fight and after it. And "something
unseen" is said once for a group: players do not learn how many there are from the log."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from furnace.campaign.table import UNSEEN
from furnace.cli.app import main
from tests.web.conftest import C
from tests.web.live_server import running

OGRE = re.compile(r"\bogre\b", re.IGNORECASE)   # not the "ogre" of "in progress"


def cli(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> str:
    code = main(["--db", db, "--campaign", "keep", *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def _player_reads(client: TestClient) -> tuple[str, list[dict[str, Any]]]:
    """Every page and API answer a player reads, and the log's events as she gets them."""
    events = client.get(f"{C}/log?limit=2000").json()["events"]
    pages = [client.get(url).text for url in ("/", "/c/keep", "/c/keep/player", "/c/keep/table", C,
                                               f"{C}/encounter/actions")]
    return "\n".join(pages) + json.dumps(events), events


def _streamed(app: Any, client: TestClient, referee: TestClient, marker: str = "the-end-marker"
              ) -> list[dict[str, Any]]:
    """The live stream from the first event, until a marker roll the referee makes."""
    out: list[dict[str, Any]] = []
    with running(app) as base, httpx.Client(base_url=base, cookies=dict(client.cookies.items()), timeout=60) as http, \
            http.stream("GET", f"{C}/live?since=0") as stream:
        referee.post(f"{C}/roll", json={"expression": "d4", "label": marker})
        for line in stream.iter_lines():
            if line.startswith("data: ") and line != "data: {}":
                out.append(json.loads(line[6:]))
                if marker in line:
                    break
    return out


def _told_once_per_group(events: list[dict[str, Any]]) -> None:
    for e in events:
        assert f"{e['who']} {e['what']}".count(UNSEEN) <= 1, e
    opening = [e for e in events if e["kind"] == "encounter"]        # the fight begins: not a word of who
    assert opening and all(UNSEEN not in e["what"] and "against" not in e["what"] for e in opening), opening


def test_a_fight_fought_from_the_cli_keeps_its_monsters_unseen(app: Any, table: dict[str, TestClient], settings: Any,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    ref = table["referee"]
    told = cli(capsys, str(settings.db), "fight", "--party", "all", "--monsters", "goblin x3", "--seed", "2")
    assert "Goblin 2" in told and "Goblin 2" in ref.get(f"{C}/log?limit=2000").text   # the referee knows
    for who in ("ann", "tv"):
        text, events = _player_reads(table[who])
        assert "goblin" not in text.lower() and "x3" not in text, who
        _told_once_per_group(events)
        streamed = _streamed(app, table[who], ref, f"marker-for-{who}")
        assert "goblin" not in json.dumps(streamed).lower(), [e for e in streamed if "oblin" in json.dumps(e)]
        assert [e["seq"] for e in streamed[:-1]] == [e["seq"] for e in events]
        _told_once_per_group(streamed)


def test_an_unseen_monsters_doings_that_touch_no_one_are_not_told(table: dict[str, TestClient], settings: Any,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Each unseen goblin's own "deals 5", "waits", "goes NEAR" would count them: only what touches the party."""
    cli(capsys, str(settings.db), "fight", "--party", "all", "--monsters", "goblin x3", "--seed", "2")
    _, events = _player_reads(table["ann"])
    party = ("Ann-1", "Ann-2", "Bo-1", "Bo-2")
    unseen = [e for e in events if e["who"] == UNSEEN]
    assert unseen and all(any(p in e["what"] for p in party) for e in unseen), unseen
    assert not [e for e in events if e["what"] in ("waits", "deals 5", "deals 4", "deals 6")]


def test_a_fight_played_from_the_cli_stays_unseen_during_and_after(app: Any, table: dict[str, TestClient],
                                                                   settings: Any,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    ref, db = table["referee"], str(settings.db)
    cli(capsys, db, "encounter", "start", "--party", "all", "--monsters", "ogre, goblin x2", "--seed", "3")
    cli(capsys, db, "encounter", "next", "--seed", "4")
    during, events = _player_reads(table["ann"])
    assert not OGRE.search(during) and "goblin" not in during.lower()
    _told_once_per_group(events)
    cli(capsys, db, "encounter", "end")
    after, events = _player_reads(table["ann"])
    assert not OGRE.search(after) and "goblin" not in after.lower()
    _told_once_per_group(events)
    streamed = _streamed(app, table["tv"], ref)
    assert not OGRE.search(json.dumps(streamed)) and "goblin" not in json.dumps(streamed).lower()


def test_a_reveal_made_on_the_console_holds_after_the_cli_ends_the_fight(table: dict[str, TestClient],
                                                                         settings: Any,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The referee shows one goblin (plainly) and masks the ogre; the CLI ends the fight: players keep the
    goblin's name and the ogre's mask, and the other goblin stays unseen."""
    ref, db = table["referee"], str(settings.db)
    cli(capsys, db, "encounter", "start", "--party", "all", "--monsters", "ogre, goblin x2", "--seed", "3")
    assert ref.post(f"{C}/monsters/goblin-1", json={"revealed": True}).status_code == 200
    assert ref.post(f"{C}/monsters/ogre", json={"revealed": True, "mask": "a hulking shape"}).status_code == 200
    cli(capsys, db, "encounter", "next", "--seed", "4")
    cli(capsys, db, "encounter", "end")
    text, _ = _player_reads(table["ann"])
    assert "Goblin 1" in text and "Goblin 2" not in text and not OGRE.search(text)
    assert "a hulking shape" in text
    last = ref.get(f"{C}/undo").json()["undo"]["command"]
    assert ref.post(f"{C}/undo", json={"command": last}).status_code == 200   # the end undone: the fight is on again
    text, _ = _player_reads(table["ann"])
    assert "Goblin 2" not in text and not OGRE.search(text)


def test_a_revealed_monster_of_one_fight_is_unseen_again_in_the_next(table: dict[str, TestClient], settings: Any,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    ref, db = table["referee"], str(settings.db)
    cli(capsys, db, "encounter", "start", "--party", "all", "--monsters", "goblin", "--seed", "3")
    ref.post(f"{C}/monsters/goblin", json={"revealed": True})
    cli(capsys, db, "encounter", "end")
    assert "Goblin" in table["ann"].get(f"{C}/log").text
    cli(capsys, db, "fight", "--party", "all", "--monsters", "goblin", "--seed", "5")
    events = table["ann"].get(f"{C}/log?limit=2000").json()["events"]
    second = max(e["seq"] for e in events if e["kind"] == "encounter")
    assert not [e for e in events if e["seq"] >= second and "Goblin" in json.dumps(e)]
    assert [e for e in events if e["seq"] < second and "Goblin" in json.dumps(e)]   # the first fight's, as shown
