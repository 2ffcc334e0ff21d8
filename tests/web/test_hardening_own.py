"""Players get their own (issue 24): a player receives her own characters whole and everyone else's as name,
status and HP as the table's health setting shows them — on the roster, in the fight and on the table display —
and during a fight the HP shown is the fight's (one source)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import C

PRIVATE = ("scores", "spells", "luck_dice", "injuries", "occupation", "class", "level", "death", "conditions")


def _roster(client: TestClient) -> dict[str, dict[str, Any]]:
    return {m["id"]: m for m in client.get(C).json()["roster"]}


def test_a_player_gets_her_own_whole_and_others_as_the_table_sees_them(table: dict[str, TestClient]) -> None:
    ref, ann, tv = table["referee"], table["ann"], table["tv"]
    full = _roster(ref)
    seen = _roster(ann)
    assert set(seen) == set(full)
    for cid, m in seen.items():
        if full[cid]["player"] == "Ann":
            assert m["mine"] and m["scores"] == full[cid]["scores"] and m["hp"] == full[cid]["hp"]
        else:
            assert not m["mine"] and not set(PRIVATE) & set(m), m
            assert m["hp"] is None and m["health"] in ("unhurt", "bloodied", "near death", "down", "dead")
    bo = next(cid for cid, m in full.items() if m["player"] == "Bo")
    assert json.dumps(full[bo]["scores"]) not in ann.get(C).text
    for m in _roster(tv).values():                         # the table display: everyone is someone else's
        assert not set(PRIVATE) & set(m) and m["hp"] is None

    assert ref.post(f"{C}/table", json={"health": "exact"}).status_code == 200
    assert _roster(ann)[bo]["hp"] == full[bo]["hp"] and _roster(ann)[bo]["health"] is None
    assert ref.post(f"{C}/table", json={"health": "hidden"}).status_code == 200
    hidden = _roster(tv)[bo]
    assert hidden["hp"] is None and hidden["health"] is None


def test_in_a_fight_others_pcs_show_no_ac_and_hp_is_the_fights(table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    assert ref.post(f"{C}/encounter", json={"monsters": "goblin x2"}).status_code == 200
    fighters = {c["id"]: c for c in ann.get(C).json()["encounter"]["combatants"] if c["kind"] == "pc"}
    roster = _roster(ref)
    for cid, c in fighters.items():
        if roster[cid]["player"] == "Ann":
            assert c["ac"] is not None and c["hp"] is not None
        else:
            assert c["ac"] is None and c["hp"] is None and c["health"] is not None
    # one source of HP: the roster shows the fight's
    fight = {c["id"]: c for c in ref.get(C).json()["encounter"]["combatants"] if c["kind"] == "pc"}
    assert all(roster[cid]["hp"] == fight[cid]["hp"] for cid in fight)
    before = {cid: roster[cid]["hp"] for cid in fight}
    hurt = _fight_until_someone_is_hurt(ref, before)
    after = ref.get(C).json()
    by_fight = {c["id"]: c["hp"] for c in after["encounter"]["combatants"] if c["kind"] == "pc"}
    assert by_fight[hurt] < before[hurt]
    assert {m["id"]: m["hp"] for m in after["roster"] if m["id"] in by_fight} == by_fight     # the fight's HP


def _fight_until_someone_is_hurt(ref: TestClient, before: dict[str, int]) -> str:
    """Play the fight (each PC attacks, the goblins take their turns) until a PC has lost HP: her id."""
    for _ in range(60):
        enc = ref.get(C).json()["encounter"]
        hurt = [c["id"] for c in enc["combatants"] if c["kind"] == "pc" and c["hp"] < before[c["id"]]]
        if hurt or enc["over"]:
            break
        asked = ref.get(f"{C}/encounter/questions").json()["questions"]      # the console asks: the referee
        if asked:                                                              # answers as the standing answer
            ref.post(f"{C}/encounter/questions/{asked[0]['id']}", json={"answer": asked[0]["default"]})
        elif enc["due"] in before:
            menu = ref.get(f"{C}/encounter/actions").json()
            act = next((a for a in menu["actions"] if a["legal"] and a["targets"]), None) or next(
                a for a in menu["actions"] if a["legal"])
            ref.post(f"{C}/encounter/act", json={"who": menu["who"], "action": act["kind"],
                                                  "target": act["targets"][0] if act["targets"] else None})
        else:
            ref.post(f"{C}/encounter/next")
    assert hurt, "no PC was hurt in the fight"
    return str(hurt[0])
