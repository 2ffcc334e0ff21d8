"""Cleave asked on the console, in Chromium (F-FTR-03): Ann's Fighter has killed a goblin, and the card on Ann's phone
asks whether to cleave, one button per foe CLOSE (by name) and "no"; Bo's phone shows it not and his answer is
refused (403); Ann's tap on the last foe carries the remaining damage to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.live_server import Served
from tests.web.test_browser_table import _api, _player, _referee_at_keep

pytestmark = pytest.mark.browser
K = "/api/campaigns/Keep"
BRAKKA = Path(__file__).parents[2] / "examples" / "characters" / "brakka.json"


def _until_cleave(referee: Any) -> dict[str, Any]:
    """Fights against goblins, the referee acting for everyone and answering other questions by their standing
    answer, until Brakka is asked to cleave: the referee's card of it."""
    for _ in range(8):
        _api(referee, "POST", K + "/encounter", {"monsters": "goblin x4"})
        for _ in range(80):
            asked = _api(referee, "GET", K + "/encounter/questions")["questions"]
            if asked and asked[0]["kind"] == "cleave":
                return dict(asked[0])
            if asked:
                _api(referee, "POST", K + f"/encounter/questions/{asked[0]['id']}", {"answer": asked[0]["default"]})
                continue
            enc = _api(referee, "GET", K)["encounter"]
            if enc["over"] or enc["due"] is None:
                break
            due = next(c for c in enc["combatants"] if c["id"] == enc["due"])
            if due["kind"] != "pc":
                _api(referee, "POST", K + "/encounter/next")
                continue
            menu = _api(referee, "GET", K + "/encounter/actions")
            act = next((a for a in menu["actions"] if a["legal"] and a["targets"]), None)
            _api(referee, "POST", K + "/encounter/act", {"who": menu["who"], "action": act["kind"] if act else "wait",
                                                         "target": act["targets"][0] if act else None})
        _api(referee, "POST", K + "/encounter/end")
    raise AssertionError("no cleave question in eight fights")


def _hp_once_settled(referee: Any, who: str) -> int:
    """Her HP once the step her answer resumed has ended: a question the step asks after it (the server's dice may
    bring one) is answered by its standing answer, as the table would let it fall."""
    for _ in range(10):
        asked = _api(referee, "GET", K + "/encounter/questions")["questions"]
        if not asked:
            break
        _api(referee, "POST", K + f"/encounter/questions/{asked[0]['id']}", {"answer": asked[0]["default"]})
    return int({c["id"]: c["hp"] for c in _api(referee, "GET", K)["encounter"]["combatants"]}[who])


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_ann_taps_the_foe_she_cleaves_into_and_bo_cannot(browser: Any, served: Served) -> None:
    from furnace.campaign import commands
    from furnace.campaign.store import Store, resolve_url
    from furnace.characters.character import Character

    referee = _referee_at_keep(browser, served, "Ann, Bo")
    brakka = Character.model_validate({**json.loads(BRAKKA.read_text()), "hp": 200, "hp_max": 200, "player": "Ann"})
    Store(resolve_url(str(served.db))).apply("Keep", "join", commands.join(brakka, "Ann"))
    ann, bo = _player(browser, referee, served, "Ann"), _player(browser, referee, served, "Bo")
    errors: list[str] = []
    for page in (referee, ann, bo):
        page.on("pageerror", lambda e: errors.append(str(e)))
    q = _until_cleave(referee)
    assert q["player"] == "Ann" and q["options"][-1] == "no", q

    card = f"#questions [data-question={q['id']}]"
    ann.wait_for_selector(card)
    shown = ann.inner_text(card)
    assert "Cleave into another foe?" in shown
    for foe, name in q["about"]["foes"].items():          # a button per foe, told by name
        assert ann.inner_text(f"{card} button[data-answer='{foe}']") == name
    bo.reload()
    bo.wait_for_selector("body[data-live='1']")
    assert bo.locator("#questions [data-question]").count() == 0
    token = next((c["value"] for c in bo.context.cookies() if c["name"] == "furnace_csrf"), "")
    refused = bo.request.fetch(K + f"/encounter/questions/{q['id']}", method="POST", data={"answer": "no"},
                               headers={"X-CSRF-Token": token})
    assert refused.status == 403, refused.text()

    pick = q["options"][-2]
    hp = {c["id"]: c["hp"] for c in _api(referee, "GET", K)["encounter"]["combatants"]}[pick]
    ann.click(f"{card} button[data-answer='{pick}']")      # one tap
    ann.wait_for_selector(card, state="detached")
    assert _hp_once_settled(referee, pick) == hp - q["about"]["overflow"]
    assert not errors, errors
