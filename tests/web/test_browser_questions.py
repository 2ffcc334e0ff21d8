"""The console asks the player, in Chromium: a choice the fight gives Ann (Luck Dice on the ATK she has just seen,
F-LUCK-03) is a card on her own phone, answered with one tap, and on the referee's page; Bo's phone shows it not
and his answer to it is refused (403). `furnace serve` runs as a subprocess (`tests/web/live_server.Served`)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.live_server import Served
from tests.web.test_browser_table import _api, _player, _referee_at_keep

pytestmark = pytest.mark.browser
K = "/api/campaigns/Keep"
SPENT = re.compile(r"(-?\d+) → (-?\d+) \((\d+) left\)")   # a 0-level's total may be below 0


def _until_asked(referee: Any) -> dict[str, Any]:
    """Fights against goblins, the referee acting for everyone: each player character's ATK rolled with the faces
    she enters, a natural 2 (a miss that Ann's Luck Dice could change, so her first ATK asks her; nobody's ATK fells
    a goblin before she acts), the monsters' turns on the server's dice, resting between fights, until a question
    is open: the referee's card of it."""
    for _ in range(8):
        _api(referee, "POST", K + "/encounter", {"monsters": "goblin x2"})
        for _ in range(60):
            asked = _api(referee, "GET", K + "/encounter/questions")["questions"]
            if any(q["player"] == "Ann" for q in asked):
                return dict(next(q for q in asked if q["player"] == "Ann"))
            for other in asked:          # the server's dice asked Bo first (his pool too): the referee spends none
                _api(referee, "POST", K + f"/encounter/questions/{other['id']}", {"answer": "0"})
            if asked:
                continue
            enc = _api(referee, "GET", K)["encounter"]
            if enc["over"] or enc["due"] is None:
                break
            due = next(c for c in enc["combatants"] if c["id"] == enc["due"])
            if due["kind"] != "pc":
                _api(referee, "POST", K + "/encounter/next")
                continue
            menu = _api(referee, "GET", K + "/encounter/actions")
            legal = [a for a in menu["actions"] if a["legal"] and a["targets"]]
            act = next((a for a in legal if a["kind"] in ("attack", "move_attack")), None)   # an ATK asks
            body = {"who": menu["who"], "action": act["kind"] if act else "wait",
                    "target": act["targets"][0] if act else None, "faces": "2" if act else None}
            _api(referee, "POST", K + "/encounter/act", body)
        _api(referee, "POST", K + "/encounter/end")
        _api(referee, "POST", K + "/rest", {"kind": "long"})   # the server's dice may drop peasants: the rest heals
    raise AssertionError("no question came up in eight fights")


@pytest.mark.rule("F-LUCK-03")
def test_ann_answers_her_luck_question_on_her_phone_and_bo_cannot(browser: Any, served: Served) -> None:
    from furnace.campaign import luck
    from furnace.campaign.store import Store, resolve_url

    referee = _referee_at_keep(browser, served, "Ann, Bo")
    ann, bo = _player(browser, referee, served, "Ann"), _player(browser, referee, served, "Bo")
    errors: list[str] = []
    for page in (referee, ann, bo):
        page.on("pageerror", lambda e: errors.append(str(e)))
    Store(resolve_url(str(served.db))).apply("Keep", "luck", luck.adjust("ann1", "3"))    # Ann's pool: 3 dice
    q = _until_asked(referee)
    assert q["kind"] == "luck" and q["player"] == "Ann", q

    card = f"#questions [data-question={q['id']}]"
    ann.wait_for_selector(card)
    referee.wait_for_selector(card)                                  # every open question on the referee's page
    assert "Spend Luck Dice?" in ann.inner_text(card)
    bo.wait_for_selector("body[data-live='1']")
    bo.reload()
    bo.wait_for_selector("body[data-live='1']")
    assert bo.locator("#questions [data-question]").count() == 0     # not on Bo's phone
    token = next((c["value"] for c in bo.context.cookies() if c["name"] == "furnace_csrf"), "")
    refused = bo.request.fetch(K + f"/encounter/questions/{q['id']}", method="POST", data={"answer": "3"},
                               headers={"X-CSRF-Token": token})
    assert refused.status == 403, refused.text()                     # nor his to answer

    ann.click(f"{card} button[data-answer='1']")                     # one tap
    ann.wait_for_selector(card, state="detached")
    referee.wait_for_selector("#log li.luck")
    spent = next(e for e in _api(referee, "GET", K + "/log?limit=2000")["events"] if e["kind"] == "luck")
    before, after, left = map(int, SPENT.search(spent["what"]).groups())  # type: ignore[union-attr]
    die = int(spent["rolls"][0].rsplit("= ", 1)[1])
    assert before == q["about"]["total"] and after == before + die and left == 2   # one d6 added, two left
    assert not errors, errors
