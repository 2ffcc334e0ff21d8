"""A sunder asked on the console (F-EQ-03, AMB-36): the bearer of a shield, struck, is asked after the damage is
rolled; her yes halves the damage (rounded up) and destroys the shield, her AC back by its bonus."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace.campaign import gear
from tests.web.conftest import CAMPAIGN, C

TAKES = re.compile(r"takes (\d+)\b.*HP (-?\d+) → (-?\d+)")


def _sunder_asked(ref: TestClient) -> dict[str, Any]:
    """Goblins against the party until the shield's bearer is asked whether to sunder (other questions: the
    standing answer)."""
    assert ref.post(f"{C}/encounter", json={"monsters": "goblin x4"}).status_code == 200
    for _ in range(200):
        asked = ref.get(f"{C}/encounter/questions").json()["questions"]
        if asked and asked[0]["kind"] == "sunder":
            return dict(asked[0])
        if asked:
            ref.post(f"{C}/encounter/questions/{asked[0]['id']}", json={"answer": asked[0]["default"]})
            continue
        enc = ref.get(C).json()["encounter"]
        assert not enc["over"], "the fight ended without a sunder question"
        if any(c["id"] == enc["due"] and c["kind"] == "pc" for c in enc["combatants"]):
            ref.post(f"{C}/encounter/act", json={"who": enc["due"], "action": "dodge"})
        else:
            ref.post(f"{C}/encounter/next")
    raise AssertionError("no sunder question in 200 steps")


@pytest.mark.rule("F-EQ-03")
def test_the_bearer_sunders_on_her_phone_and_the_blow_is_halved(app: Any, table: dict[str, TestClient]) -> None:
    ref, ann = table["referee"], table["ann"]
    for who in ("ann1", "ann2"):
        app.state.store.apply(CAMPAIGN, "give", gear.give(who, ["shield"]))
        app.state.store.apply(CAMPAIGN, "equip", gear.equip(who, "shield"))
    q = _sunder_asked(ref)
    assert q["player"] == "Ann" and q["options"] == ["yes", "no"]
    ac = {c["id"]: c["ac"] for c in ref.get(C).json()["encounter"]["combatants"]}[q["owner"]]
    amount, hp = q["about"]["amount"], q["about"]["hp"]
    assert q["about"]["halved"] == -(-amount // 2)                       # half, rounded up (bearer_ceil)
    done = ann.post(f"{C}/encounter/questions/{q['id']}", json={"answer": "yes"})
    assert done.status_code == 200, done.text
    after = {c["id"]: c for c in ref.get(C).json()["encounter"]["combatants"]}[q["owner"]]
    assert after["hp"] == hp - -(-amount // 2)                            # F-EQ-03: the halved blow
    assert after["ac"] == ac - 2                                          # the shield gone, its +2 with it
    assert ann.post(f"{C}/encounter/questions/{q['id']}", json={"answer": "yes"}).status_code == 409
