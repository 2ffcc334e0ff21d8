"""More of the console in a real headless Chromium (Debian's /usr/bin/chromium through Playwright): a player
attacks on her turn and the referee's log shows it live; a player's live stream is cut (the server goes down),
three rolls are logged meanwhile (by another process, as the CLI would), and when the browser reconnects by itself
(Last-Event-ID) she gets each exactly once; a name that is HTML renders as text on every page that shows names.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.web.live_server import Served
from tests.web.test_browser import PHONE

pytestmark = pytest.mark.browser
XSS = "<img src=x onerror=alert(1)>"


def _api(page: Any, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A call from the page's own context (its cookies, its CSRF token), as its script makes them. A 429 (the
    session's write bucket spent by a test's quick run of calls: the served console keeps its real limits) is
    refused before any work, so it is waited out as its Retry-After says and sent again, as a client should."""
    token = next((c["value"] for c in page.context.cookies() if c["name"] == "furnace_csrf"), "")
    for _ in range(20):
        answer = page.request.fetch(path, method=method, data=body or {}, headers={"X-CSRF-Token": token})
        if answer.status != 429:
            break
        time.sleep(float(answer.headers.get("retry-after", "1")))
    assert answer.ok, answer.text()
    return answer.json()


def _referee_at_keep(browser: Any, served: Served, players: str) -> Any:
    page = browser.new_context(base_url=served.base).new_page()
    page.goto(served.link)
    page.fill("#new-campaign input[name=name]", "Keep")
    page.click("#new-campaign button")
    page.wait_for_url(re.compile(r"/c/Keep/referee$"))
    page.wait_for_selector("body[data-live='1']")
    page.fill("#funnel input[name=players]", players)
    page.fill("#funnel input[name=per_player]", "3")
    page.click("#funnel button")
    page.wait_for_selector("#roster .member >> nth=2")
    return page


def _player(browser: Any, referee: Any, served: Served, name: str) -> Any:
    made = _api(referee, "POST", "/api/campaigns/Keep/invites", {"role": "player", "player": name})
    page = browser.new_context(viewport=PHONE, is_mobile=True, base_url=served.base).new_page()
    page.goto(made["url"])
    page.click("#join")
    page.wait_for_url(re.compile(r"/c/Keep/player$"))
    page.wait_for_selector("body[data-live='1']")
    return page


def test_a_player_attacks_on_her_turn_and_the_referee_sees_it_live(browser: Any, served: Served) -> None:
    referee = _referee_at_keep(browser, served, "Ann, Bo")
    ann = _player(browser, referee, served, "Ann")
    errors: list[str] = []
    ann.on("pageerror", lambda e: errors.append(str(e)))
    for _ in range(12):                  # a fight in which one of Ann's is due, every monster shown
        _api(referee, "POST", "/api/campaigns/Keep/encounter", {"monsters": "goblin"})
        _api(referee, "POST", "/api/campaigns/Keep/monsters/goblin", {"revealed": True})
        view = _due_to_ann(referee)
        if view is not None:
            break
        _api(referee, "POST", "/api/campaigns/Keep/encounter/end")
    else:
        pytest.fail("no fight came to Ann's turn")
    attack = ann.locator("#actions button[data-action=attack], #actions button[data-action=move_attack]").first
    try:
        attack.wait_for()
    except Exception:
        pytest.fail(f"no attack for Ann: {_api(ann, 'GET', '/api/campaigns/Keep/encounter/actions')}")
    assert "Goblin" in attack.inner_text()
    attack.click()
    referee.wait_for_selector("#log li.hit, #log li.miss, #log li.fumble")
    assert not errors, errors


def _due_to_ann(referee: Any) -> dict[str, Any] | None:
    """Play the monsters' turns and let Bo's characters wait until one of Ann's is due (None: the fight ended)."""
    for _ in range(20):
        view = _api(referee, "GET", "/api/campaigns/Keep")
        enc = view["encounter"]
        if enc is None or enc["over"] or enc["due"] is None:
            return None
        due = next(c for c in enc["combatants"] if c["id"] == enc["due"])
        if due["kind"] != "pc":
            _api(referee, "POST", "/api/campaigns/Keep/encounter/next")
        elif due["id"].startswith("ann"):
            return dict(view)
        else:
            _api(referee, "POST", "/api/campaigns/Keep/encounter/act", {"who": due["id"], "action": "wait"})
    return None


def test_a_cut_stream_comes_back_with_each_roll_exactly_once(browser: Any, served: Served) -> None:
    from furnace.campaign.commands import roll
    from furnace.campaign.store import Store, resolve_url
    from furnace.dice import seeded

    referee = _referee_at_keep(browser, served, "Ann")
    ann = _player(browser, referee, served, "Ann")
    ann.evaluate("() => { window.got = []; Furnace.source.addEventListener('log', "
                 "(m) => window.got.push(m.lastEventId)); }")
    _api(referee, "POST", "/api/campaigns/Keep/roll", {"expression": "d6", "label": "before the cut"})
    ann.wait_for_selector("#log li:has-text('before the cut')")
    served.stop()                                                   # the connection drops
    ann.wait_for_selector("body[data-live='0']")
    store = Store(resolve_url(str(served.db)))
    for n in (1, 2, 3):                                             # logged while she is away
        store.apply("Keep", "roll", roll("d6", seeded(n), label=f"dark-roll-{n}"))
    store.close()
    served.start()                                                  # the browser reconnects by itself
    for n in (1, 2, 3):
        ann.wait_for_selector(f"#log li:has-text('dark-roll-{n}')")
    _api(referee, "POST", "/api/campaigns/Keep/roll", {"expression": "d6", "label": "after the return"})
    ann.wait_for_selector("#log li:has-text('after the return')")
    got = ann.evaluate("() => window.got")
    assert len(got) == len(set(got)) == 5, got                     # no roll missed, none repeated
    for n in (1, 2, 3):
        assert ann.locator(f"#log li:has-text('dark-roll-{n}')").count() == 1


def test_a_name_that_is_html_renders_as_text_everywhere(browser: Any, served: Served) -> None:
    referee = _referee_at_keep(browser, served, XSS)
    alerts: list[str] = []
    pages = [referee, _player(browser, referee, served, XSS)]
    tv = browser.new_context(base_url=served.base).new_page()
    made = _api(referee, "POST", "/api/campaigns/Keep/invites", {"role": "observer"})
    tv.goto(made["url"])
    tv.click("#join")
    tv.wait_for_url(re.compile(r"/c/Keep/table$"))
    pages.append(tv)
    def told(dialog: Any) -> None:
        alerts.append(dialog.message)
        dialog.dismiss()

    for page in pages:
        page.on("dialog", told)
        page.reload()
        page.wait_for_selector("body[data-live='1']")
        page.wait_for_selector(".member, #log li")
        assert XSS in page.inner_text("main"), page.url
        assert page.locator("main img").count() == 0, page.url
    assert not alerts
