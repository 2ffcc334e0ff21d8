"""Cleave asked on the console (F-FTR-03: "you CAN deal the remaining DAM to a second target in CLOSE"): Ann's
Fighter, her blow lethal, is asked on her own phone whether to cleave and into which foe CLOSE; the card names the
foes (never their AC or HP); Bo can neither see nor answer it; her pick takes the remaining damage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace.campaign import commands
from furnace.characters.character import Character
from tests.web.conftest import CAMPAIGN, C, joined

BRAKKA = Path(__file__).parents[2] / "examples" / "characters" / "brakka.json"


def _cleave_asked(ref: TestClient) -> dict[str, Any]:
    """Goblins against Brakka, the referee playing her, until a lethal blow asks her to cleave (other questions: the
    standing answer)."""
    for _ in range(6):
        assert ref.post(f"{C}/encounter", json={"monsters": "goblin x4"}).status_code == 200
        for _ in range(80):
            asked = ref.get(f"{C}/encounter/questions").json()["questions"]
            if asked and asked[0]["kind"] == "cleave":
                return dict(asked[0])
            if asked:
                ref.post(f"{C}/encounter/questions/{asked[0]['id']}", json={"answer": asked[0]["default"]})
                continue
            enc = ref.get(C).json()["encounter"]
            if enc["over"]:
                break
            if any(c["id"] == enc["due"] and c["kind"] == "pc" for c in enc["combatants"]):
                menu = ref.get(f"{C}/encounter/actions").json()
                act = next(a for a in menu["actions"] if a["legal"] and a["targets"])
                ref.post(f"{C}/encounter/act", json={"who": menu["who"], "action": act["kind"],
                                                     "target": act["targets"][0]})
            else:
                ref.post(f"{C}/encounter/next")
        ref.post(f"{C}/encounter/end")
    raise AssertionError("no cleave question in six fights")


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_ann_picks_the_foe_she_cleaves_into_on_her_phone(app: Any, referee: TestClient) -> None:
    assert referee.post("/api/campaigns", json={"name": CAMPAIGN}).status_code == 200
    brakka = Character.model_validate({**json.loads(BRAKKA.read_text()), "hp": 200, "hp_max": 200, "player": "Ann"})
    app.state.store.apply(CAMPAIGN, "join", commands.join(brakka, "Ann"))
    ann, bo = joined(app, referee, "player", "Ann"), joined(app, referee, "player", "Bo")
    q = _cleave_asked(referee)
    assert q["player"] == "Ann" and q["owner"] == "brak1"

    mine = ann.get(f"{C}/encounter/questions").json()["questions"]
    assert [c["id"] for c in mine] == [q["id"]]
    card = mine[0]
    assert card["options"][-1] == "no" and set(card["options"][:-1]) == set(card["about"]["foes"])
    assert set(card["about"]) == {"killed", "overflow", "new_attack", "foes"}         # no AC, no HP
    assert bo.get(f"{C}/encounter/questions").json()["questions"] == []
    assert bo.post(f"{C}/encounter/questions/{q['id']}", json={"answer": "no"}).status_code == 403

    pick = card["options"][-2]                                # the last foe CLOSE, not the standing answer's first
    hp = {c["id"]: c["hp"] for c in referee.get(C).json()["encounter"]["combatants"]}[pick]
    done = ann.post(f"{C}/encounter/questions/{q['id']}", json={"answer": pick})
    assert done.status_code == 200, done.text
    after = {c["id"]: c["hp"] for c in referee.get(C).json()["encounter"]["combatants"]}[pick]
    assert after == hp - card["about"]["overflow"]            # F-FTR-03: the remaining damage, on her pick
    assert ann.post(f"{C}/encounter/questions/{q['id']}", json={"answer": pick}).status_code == 409
