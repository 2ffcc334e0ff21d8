"""A short session played entirely from the referee's page (issue 24's Done-when), in Chromium: the referee, on a
desktop screen, makes the campaign, rolls a funnel, invites three players, who join on 390×844 phones; she rolls
in the open and behind the screen (then shows it), deals damage and heals it, gives and equips a shield, awards
XP, and runs an encounter round in which each player acts (and answers any question) on her own phone. Every
change is a tap or a click on a page — the test only reads the campaign to know whose turn it is — and the phones
follow each change live; they neither scroll sideways nor offer a touch target under 44 px.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.live_server import Served
from tests.web.test_browser_phone import PHONE, _fits
from tests.web.test_browser_table import _api

pytestmark = pytest.mark.browser
K = "/api/campaigns/Keep"
PLAYERS = ("Ann", "Bo", "Cy")
POLLS = 600             # reads of the campaign while waiting for a change (a count, never a clock)


def _referee(browser: Any, served: Served) -> Any:
    page = browser.new_context(base_url=served.base, viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(served.link)
    page.fill("#new-campaign input[name=name]", "Keep")
    page.click("#new-campaign button")
    page.wait_for_url(re.compile(r"/c/Keep/referee$"))
    page.wait_for_selector("body[data-live='1']")
    return page


def _invited(browser: Any, referee: Any, served: Served, player: str) -> Any:
    """The referee makes the invite on her page; the player opens its link on her phone and joins."""
    referee.fill("#invite input[name=player]", player)
    referee.click("#invite button")
    referee.wait_for_selector(f"#invite-out:has-text('Invite for {player}')")
    link = referee.get_attribute("#invite-out .invite-url", "href")
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, base_url=served.base).new_page()
    phone.goto(link)
    phone.tap("#join")
    phone.wait_for_url(re.compile(r"/c/Keep/player$"))
    phone.wait_for_selector("body[data-live='1']")
    return phone


def _changed(referee: Any, before: Any) -> Any:
    """Read the fight until its turn is no longer `before` (the page's change has landed)."""
    for _ in range(POLLS):
        now = _turn(referee)
        if now != before:
            return now
        referee.wait_for_timeout(50)
    raise AssertionError(f"nothing changed from {before!r}")


def _turn(referee: Any) -> Any:
    """Where the fight stands: the round, who is due, whether it is over, and the questions open."""
    enc = _api(referee, "GET", K)["encounter"]
    asked = [q["id"] for q in _api(referee, "GET", K + "/encounter/questions")["questions"]]
    return None if enc is None else (enc["round"], enc["due"], enc["over"], asked)


def _play_a_round(referee: Any, phones: dict[str, Any], owner: dict[str, str]) -> set[str]:
    """The monsters' turns by the referee's button, each PC's by her player's tap on her phone (an open question
    answered there too), until the round is over or the fight ends: the players who acted."""
    acted: set[str] = set()
    first = _api(referee, "GET", K)["encounter"]["round"]
    for _ in range(40):
        asked = _api(referee, "GET", K + "/encounter/questions")["questions"]
        if asked:
            q = asked[0]
            before = _turn(referee)
            phones[q["player"]].locator(f"#questions [data-question='{q['id']}'] button").first.tap()
            _changed(referee, before)
            continue
        view = _api(referee, "GET", K)
        enc = view["encounter"]
        if enc["over"] or enc["round"] > first or enc["due"] is None:
            return acted
        due = next(c for c in enc["combatants"] if c["id"] == enc["due"])
        before = _turn(referee)
        if due["kind"] != "pc":
            referee.click("#next-turns")
        else:
            player = owner[due["id"]]
            phone = phones[player]
            button = phone.locator("#actions button[data-action=attack], #actions button[data-action=move_attack], "
                                   "#actions button[data-action=wait]").first
            button.wait_for()
            _fits(phone, f"{player}'s phone on her turn")
            button.tap()
            acted.add(player)
        _changed(referee, before)
    return acted


def test_a_short_session_is_played_from_the_referees_page_with_three_players_on_phones(
        browser: Any, served: Served) -> None:
    referee = _referee(browser, served)
    errors: list[str] = []
    referee.on("pageerror", lambda e: errors.append(f"referee: {e}"))

    # the funnel, from the page
    made = 0
    # (a 0-level of 1 HP dies of the blow dealt below, and about one in five has 1: until one of them has more,
    # the funnel is run again, one more each — about one run in ninety)
    while made == 0 or max(m["hp"] for m in _api(referee, "GET", K)["roster"] if m["player"] in PLAYERS) < 2:
        referee.fill("#funnel input[name=players]", ", ".join(PLAYERS))
        referee.fill("#funnel input[name=per_player]", "1")
        referee.click("#funnel button")
        made += len(PLAYERS)
        referee.wait_for_selector(f"#roster .member >> nth={made - 1}")

    # three players join by invite on their phones
    phones = {name: _invited(browser, referee, served, name) for name in PLAYERS}
    for name, phone in phones.items():
        phone.on("pageerror", lambda e, name=name: errors.append(f"{name}: {e}"))
        phone.wait_for_selector("#mine .member")
        _fits(phone, f"{name}'s phone, joined")
    roster = _api(referee, "GET", K)["roster"]
    owner = {m["id"]: m["player"] for m in roster}
    ann = next(m for m in roster if m["player"] == "Ann")

    # a roll in the open: every phone's log shows it
    referee.fill("#roll input[name=label]", "the die of fate")
    referee.click("#roll button")
    for phone in phones.values():
        phone.wait_for_selector("#log li:has-text('the die of fate')")

    # a roll behind the screen, then shown to the table with its button in the log
    referee.fill("#roll input[name=label]", "behind the screen")
    referee.check("#roll input[name=hidden]")
    referee.click("#roll button")
    referee.uncheck("#roll input[name=hidden]")
    referee.click("#log li.hidden:has-text('behind the screen') button.show-roll")
    phones["Bo"].wait_for_selector("#log li:has-text('behind the screen')")

    # damage, then healing, to the sturdiest character (one the blow cannot kill): her phone shows her HP fall and
    # come back
    hurt = max((m for m in roster if m["player"] in PLAYERS), key=lambda m: m["hp"])
    hp, top = hurt["hp"], hurt["hp_max"]
    card = f"#mine .member[data-id='{hurt['id']}'] .hp"
    referee.wait_for_selector(f"#hurt select[name=who] option[value='{hurt['id']}']", state="attached")
    referee.select_option("#hurt select[name=who]", hurt["id"])
    referee.fill("#hurt input[name=amount]", "1")
    referee.click("#hurt button[type=submit]")
    phones[hurt["player"]].wait_for_selector(f"{card}:has-text('HP {hp - 1}/{top}')")
    referee.click("#heal")
    phones[hurt["player"]].wait_for_selector(f"{card}:has-text('HP {hp}/{top}')")

    # a shield given and worn; XP for the party
    referee.select_option("#gear select[name=who]", ann["id"])
    referee.fill("#gear input[name=items]", "shield")
    referee.click("#gear button[type=submit]")
    referee.wait_for_selector("#log li.gear:has-text('shield')")
    referee.click("#gear button[data-gear=equip]")
    referee.wait_for_selector("#log li.equip:has-text('shield')")
    referee.fill("#xp input[name=amount]", "90")
    referee.click("#xp button")
    phones["Cy"].wait_for_selector("#log li.xp:has-text('90')")

    # an encounter: the referee starts it and shows the goblin; each player acts on her phone in the round
    referee.fill("#start-fight input[name=monsters]", "goblin")
    referee.click("#start-fight button")
    referee.wait_for_selector("#encounter table.fight")
    shown = "#encounter tr[data-id='goblin'] td.secret input[type=checkbox]"
    referee.check(shown)
    for phone in phones.values():
        phone.wait_for_selector("#encounter table.fight")
    acted = _play_a_round(referee, phones, owner)
    assert acted, "no player acted on her phone in the round"
    for name in acted:
        phones[name].wait_for_selector("#log li.hit, #log li.miss, #log li.fumble, #log li.wait, #log li.event")
    for name, phone in phones.items():
        _fits(phone, f"{name}'s phone in the fight")
    assert not errors, errors
