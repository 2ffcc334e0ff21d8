"""Issue 21's leaks, as a player meets them in a real Chromium: during a fight with a concealed ogre the player's
page (log, roster, fight, action menu) never names it, its weapon, its AC or its count, never says "something
unseen" on its turn, numbers her log without gaps, and a guessed name is answered the same whether it hides in
the campaign or not."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.live_server import Served
from tests.web.test_browser_table import _api, _player, _referee_at_keep

pytestmark = pytest.mark.browser
C = "/api/campaigns/Keep"


def test_a_players_page_never_names_a_concealed_monster(browser: Any, served: Served) -> None:
    referee = _referee_at_keep(browser, served, "Ann, Bo")
    ann = _player(browser, referee, served, "Ann")
    _api(referee, "POST", C + "/encounter", {"monsters": "goblin, ogre", "name": "the ogre's larder"})
    _api(referee, "POST", C + "/monsters/goblin", {"revealed": True})
    _api(referee, "POST", C + "/roll", {"expression": "d20", "label": "ogre ambush", "hidden": True})
    for _ in range(6):                               # the monsters' turns, the ogre's among them
        view = _api(referee, "GET", C)["encounter"]
        if view is None or view["over"]:
            break
        _api(referee, "POST", C + "/encounter/next")
    _api(referee, "POST", C + "/roll", {"expression": "d4", "label": "end marker"})
    ann.wait_for_selector("#log li:has-text('end marker')", timeout=20_000)
    ann.reload()
    ann.wait_for_selector("#log li:has-text('end marker')", timeout=20_000)
    text = ann.evaluate("() => document.body.innerText")
    for secret in ("Ogre", "ogre", "great club", "ambush", "m2", "something unseen ("):
        assert secret not in text, (secret, text[:2000])
    numbers = sorted(int(n) for n in re.findall(r"^\[(\d+)\]", text, re.M))
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), numbers   # her own numbering
    guessed = {name: ann.request.fetch(f"{C}/characters/{name}/roll", method="POST", data={"kind": "check"},
                                       headers={"X-CSRF-Token": _csrf(ann)}).text()
               for name in ("Ogre", "Troll", "ogre")}
    assert len(set(guessed.values())) == 1, guessed


def _csrf(page: Any) -> str:
    return next((c["value"] for c in page.context.cookies() if c["name"] == "furnace_csrf"), "")
