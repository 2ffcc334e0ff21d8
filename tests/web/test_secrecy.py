"""Hidden information never leaves the server for a player or an observer: not in pages, API answers, SSE or
error messages. A hidden roll's label and total, a concealed monster's name and HP stay with the referee; a
revealed monster shows its mask and its health as the referee sets it (hidden, a word, exact)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import C
from tests.web.live_server import running

NAME = "Zorgax Q7"
MONSTER = {"monsters": [{"id": "zorgax", "name": NAME, "hd": "9", "hp": "137"}]}


def _fight_with_secrets(app: Any, ref: TestClient) -> dict[str, Any]:
    """A concealed monster with a unique name and 137 HP, and a hidden roll with a unique label."""
    import yaml

    from furnace.campaign.encounters import begin
    from furnace.campaign.state import Override
    from furnace.dice import seeded

    def add_monster(state: Any) -> Any:
        o = Override(kind="monster", id="zorgax", text=yaml.safe_dump(MONSTER), source="secret.yaml")
        return state.model_copy(update={"overrides": {**state.overrides, "monster:zorgax": o}}), []

    app.state.store.apply("keep", "campaign override add", add_monster)
    app.state.store.apply("keep", "encounter start", begin(["all"], seeded(5), monsters="zorgax, goblin"))
    hidden = ref.post(f"{C}/roll", json={"expression": "d100+1000", "label": "crypt-label-5521",
                                         "hidden": True}).json()["events"][0]
    total = re.search(r": (\d+)$", hidden["what"])
    assert total is not None
    return {"label": "crypt-label-5521", "total": total.group(1), "seq": hidden["seq"]}


def _secret_in(text: str, secret: dict[str, Any]) -> list[str]:
    found = [s for s in (NAME, "zorgax", "Zorgax", secret["label"], secret["total"], "HP 137", "137/137")
             if s.lower() in text.lower()]
    return found


def _everything_a_player_reads(client: TestClient) -> str:
    parts = [client.get(url).text for url in (
        "/", "/c/keep", "/c/keep/player", "/c/keep/table", C, f"{C}/log?limit=2000",
        f"{C}/encounter/actions?who=ann1", f"{C}/encounter/actions")]
    parts.append(client.post(f"{C}/encounter/act", json={"who": "ann1", "action": "attack", "target": "zorgax"}).text)
    parts.append(client.post(f"{C}/encounter/act", json={"who": "zorgax", "action": "wait"}).text)
    parts.append(client.post(f"{C}/monsters/zorgax-q7", json={"revealed": True}).text)
    parts.append(client.post(f"{C}/rolls/1/show").text)
    return "\n".join(parts)


def test_nothing_hidden_reaches_a_player_or_an_observer(app: Any, table: dict[str, TestClient]) -> None:
    ref = table["referee"]
    secret = _fight_with_secrets(app, ref)
    assert _secret_in(str(ref.get(C).json()) + ref.get(f"{C}/log").text, secret)    # the referee sees them
    for who in ("ann", "tv"):
        assert _secret_in(_everything_a_player_reads(table[who]), secret) == [], who


def test_a_revealed_monster_shows_its_mask_and_its_health_as_set(app: Any, table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    secret = _fight_with_secrets(app, ref)
    ref.post(f"{C}/monsters/zorgax-q7", json={"revealed": True, "mask": "a shape in the dark"})
    seen = [c for c in ann.get(C).json()["encounter"]["combatants"] if c["kind"] == "monster"]
    assert [(c["name"], c["health"], c["hp"]) for c in seen] == [("a shape in the dark", "unhurt", None)]
    assert _secret_in(_everything_a_player_reads(ann), secret) == []
    ref.post(f"{C}/monsters/zorgax-q7", json={"mask": "", "health": "exact"})
    seen = [c for c in ann.get(C).json()["encounter"]["combatants"] if c["kind"] == "monster"]
    assert [(c["name"], c["hp"], c["hp_max"]) for c in seen] == [(NAME, 137, 137)]
    ref.post(f"{C}/monsters/zorgax-q7", json={"health": "hidden"})
    seen = [c for c in ann.get(C).json()["encounter"]["combatants"] if c["kind"] == "monster"]
    assert seen[0]["hp"] is None and seen[0]["health"] is None


def test_a_hidden_roll_shown_later_reaches_the_players(app: Any, table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    secret = _fight_with_secrets(app, ref)
    assert secret["label"] not in ann.get(f"{C}/log").text
    assert ref.post(f"{C}/rolls/{secret['seq']}/show").status_code == 200
    assert secret["label"] in ann.get(f"{C}/log").text


def test_the_live_stream_of_a_player_carries_no_secret(app: Any, table: dict[str, TestClient]) -> None:
    ann = table["ann"]
    with running(app) as base, httpx.Client(base_url=base, cookies=dict(ann.cookies.items()), timeout=60) as http, \
            http.stream("GET", f"{C}/live?since=0") as stream:
        secret = _fight_with_secrets(app, table["referee"])
        table["referee"].post(f"{C}/roll", json={"expression": "d4", "label": "the-end-marker"})
        received = []
        for line in stream.iter_lines():
            received.append(line)
            if "the-end-marker" in line:
                break
    text = "\n".join(received)
    assert "id: " in text and _secret_in(text, secret) == []


@pytest.mark.rule("F-OPT-07")
def test_F_OPT_07_a_timer_is_the_referees_until_she_shows_it(table: dict[str, TestClient]) -> None:
    """A timer's label, its length and its prompt stay with the referee, when set and when it runs out (in the
    log, the campaign view and the clock); shown on her word, the players read that one event."""
    ref, ann = table["referee"], table["ann"]
    set_ = ref.post(f"{C}/clock/timer", json={"label": "collapse-7731", "amount": "2", "unit": "turn",
                                               "prompt": "rocks-9912: DEX SAVE"})
    assert set_.status_code == 200, set_.text
    done = ref.post(f"{C}/clock", json={"amount": 3, "unit": "turn"})
    assert done.status_code == 200, done.text
    fired = [e for e in ref.get(f"{C}/log?limit=2000").json()["events"] if "runs out:" in e["what"]]
    assert len(fired) == 1 and fired[0]["hidden"] and "rocks-9912" in fired[0]["what"]
    for who in ("ann", "tv"):
        client = table[who]
        seen = client.get(f"{C}/log?limit=2000").text + client.get(C).text + client.get("/c/keep/player").text
        assert "collapse-7731" not in seen and "rocks-9912" not in seen, who
    assert ref.post(f"{C}/rolls/{fired[0]['seq']}/show").status_code == 200
    seen = ann.get(f"{C}/log?limit=2000").text
    assert "rocks-9912" in seen and seen.count("collapse-7731") == 1      # the line that shows it: the event
    # itself stays the referee's, so the players' numbering never changes under them
