"""The host's hand on the console, in Chromium: the referee-invite form of the campaigns page makes a sign-in link
for the campaigns ticked and no other, and the new-character form of the referee's page sends what `furnace
character new` takes (archetype, kit, a Human's swap). The API tests (tests/web/test_scope.py,
test_scope_character_new.py) check the numbers; these check that the pages' forms reach them.

`furnace serve` runs as a subprocess (`tests/web/live_server.Served`).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.live_server import Served

pytestmark = pytest.mark.browser


def _host(browser: Any, served: Served, errors: list[str]) -> Any:
    """The host's page, signed in by the start link, its script errors gathered in `errors`."""
    page = browser.new_context().new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served.link)
    return page


def _new_campaign(page: Any, base: str, name: str) -> None:
    page.goto(base + "/")
    page.fill("#new-campaign input[name=name]", name)
    page.click("#new-campaign button")
    page.wait_for_url(re.compile(rf"/c/{name}/referee$"))


def test_a_referee_invite_made_on_the_page_runs_the_ticked_campaigns_only(served: Served, browser: Any) -> None:
    errors: list[str] = []
    host = _host(browser, served, errors)
    _new_campaign(host, served.base, "Keep")
    _new_campaign(host, served.base, "Moor")
    host.goto(served.base + "/")
    host.wait_for_selector("#referee-invite-campaigns input.scope >> nth=1")
    host.check("#referee-invite-campaigns input.scope[value=Keep]")
    host.fill("#referee-invite input[name=minutes]", "30")
    host.click("#referee-invite button")
    host.wait_for_selector("#referee-invite-out .invite-url")
    assert "Keep" in host.inner_text("#referee-invite-out") and "Moor" not in host.inner_text("#referee-invite-out")
    link = host.get_attribute("#referee-invite-out .invite-url", "href")
    assert link and link.startswith(served.base + "/signin?token=")
    qr = host.locator("#referee-invite-out svg").bounding_box()
    assert qr is not None and qr["width"] >= 100 and qr["height"] >= 100, qr          # drawn, not 0×0

    dee = browser.new_context().new_page()
    dee.on("pageerror", lambda e: errors.append(str(e)))
    dee.goto(link)
    dee.goto(served.base + "/")
    dee.wait_for_selector("#campaigns li")
    assert dee.locator("#campaigns li").all_inner_texts() == ["Keep"]
    assert dee.is_visible("#scoped-note") and dee.locator("#new-campaign").count() == 0   # the host starts them
    assert dee.goto(served.base + "/c/Keep/referee").status == 200
    assert dee.goto(served.base + "/c/Moor/referee").status == 403
    assert dee.request.get(served.base + "/api/campaigns/Moor").status == 403
    again = browser.new_context().new_page()
    again.goto(link)
    assert again.request.get(served.base + "/api/campaigns").status == 401              # the link worked once
    assert not errors, errors


@pytest.mark.rule("F-RACE-02")
def test_the_new_character_form_sends_archetype_kit_and_swap(served: Served, browser: Any) -> None:
    errors: list[str] = []
    page = _host(browser, served, errors)
    _new_campaign(page, served.base, "Keep")
    page.wait_for_selector("body[data-live='1']")
    form = "#new-character"
    page.fill(f"{form} input[name=player]", "Cy")
    page.fill(f"{form} input[name=name]", "Hrolf")
    page.select_option(f"{form} select[name=char_class]", "Fighter")
    page.fill(f"{form} input[name=archetype]", "Barbarian")
    page.select_option(f"{form} select[name=race]", "Human")
    page.fill(f"{form} input[name=style]", "Defense")          # her style with a shield (not the dice's 2H)
    page.select_option(f"{form} select[name=save]", "CON")
    page.fill(f"{form} input[name=kit]", "shield")
    page.fill(f"{form} input[name=swap]", "none")
    skill = "Athletics"                 # one: a Human Fighter chooses at least one (F-CHAR-04)
    for _ in range(3):                  # her occupation may hold it already (AMB-43): the referee picks one it names
        page.fill(f"{form} input[name=skills]", skill)
        with page.expect_response(lambda r: r.url.endswith("/api/campaigns/Keep/characters")) as made:
            page.click(f"{form} button")
        if made.value.status != 400 or made.value.json().get("choice") != "skill":
            break
        skill = made.value.json()["allowed"][0]
    assert made.value.status == 200, made.value.text()
    sent = made.value.request.post_data_json
    assert (sent["archetype"], sent["kit"], sent["swap"], sent["char_class"]) == ("Barbarian", ["shield"], "none",
                                                                                   "Fighter")
    assert (sent["race"], sent["style"], sent["skills"], sent["save"]) == ("Human", "Defense",
                                                                           [skill], "CON")
    page.wait_for_selector("#roster .member:has-text('Hrolf')")
    (hrolf,) = [m for m in page.request.get(served.base + "/api/campaigns/Keep").json()["roster"]
                if m["name"] == "Hrolf"]
    assert (hrolf["player"], hrolf["class"], hrolf["level"]) == ("Cy", "Fighter", 1)
    from furnace.campaign.store import Store, resolve_url

    made_sheet = Store(resolve_url(str(served.db))).open("Keep").member(hrolf["id"]).character
    assert (made_sheet.race, made_sheet.fighting_style, made_sheet.shield) == ("Human", "Defense", True)
    assert skill in made_sheet.skills                        # her choice; the dice chose the rest

    page.fill(f"{form} input[name=player]", "Cy")
    page.fill(f"{form} input[name=name]", "Twin")
    page.fill(f"{form} input[name=swap]", "STR,STR")                          # no two scores: refused in words
    with page.expect_response(lambda r: r.url.endswith("/api/campaigns/Keep/characters")) as refused:
        page.click(f"{form} button")
    assert refused.value.status == 400 and "swap" in refused.value.json()["error"]
    assert not [m for m in page.request.get(served.base + "/api/campaigns/Keep").json()["roster"]
                if m["name"] == "Twin"]
    assert not errors, errors


@pytest.mark.rule("F-LUCK-01", "F-LUCK-03")
def test_ann_is_asked_for_her_luck_dice_on_a_roll_from_her_sheet(served: Served, browser: Any) -> None:
    """Out of a fight: two failed CHECKs from her phone earn her a Luck Die; the third failure waits, a card on
    her phone, until she taps how many she spends — the same d20, a d6 added (her own dice, entered)."""
    from tests.web.test_browser_table import _api, _player, _referee_at_keep

    referee = _referee_at_keep(browser, served, "Ann")
    _api(referee, "POST", "/api/campaigns/Keep/table", {"players_dice": True})
    ann = _player(browser, referee, served, "Ann")
    errors: list[str] = []
    ann.on("pageerror", lambda e: errors.append(str(e)))
    ann.wait_for_selector("#faces-label:visible")
    ann.fill("#sheet input[name=dc]", "30")
    for face in ("1", "1", "2"):
        ann.fill("#sheet input[name=faces]", face)
        with ann.expect_response(lambda r: r.url.endswith("/roll")):
            ann.click("[data-roll=check]")
    card = "#luck-asked .luck-asked"
    ann.wait_for_selector(card)
    assert "(1 held)" in ann.inner_text(card)
    assert ann.locator(f"{card} button").all_inner_texts() == ["No Luck", "Spend 1"]
    referee.wait_for_selector(card)                          # the referee sees it too, and may answer for her
    ann.fill("#sheet input[name=faces]", "")
    with ann.expect_response(lambda r: r.url.endswith("/luck")) as spent:
        ann.click(f"{card} button[data-luck='1']")
    assert spent.value.status == 200, spent.value.text()
    ann.wait_for_selector(card, state="detached")
    told = [e["what"] for e in _api(referee, "GET", "/api/campaigns/Keep/log?limit=50")["events"]
            if e["kind"] in ("luck_asked", "sheet_roll", "luck")]
    assert "fails so far" in told[-3] and "Luck Die" in told[-1], told
    assert _api(ann, "GET", "/api/campaigns/Keep")["luck_asked"] == {}
    assert not errors, errors


@pytest.mark.rule("F-LUCK-01", "F-LUCK-03")
def test_the_referee_rolls_for_ann_with_her_luck_asked_or_given_ahead(served: Served, browser: Any) -> None:
    """The referee's "Roll for" form: a CHECK for Ann's character rolled on the referee's screen. Left to "asked
    once seen", a roll her Luck Dice could change waits for her answer on her phone; given ahead (1 die), it is
    rolled and spent at once, no one asked. Every die entered, so each total is worked from its faces. Then Ann
    rolls a CHECK of a skill from her phone."""
    from furnace.campaign.store import Store, resolve_url
    from tests.web.test_browser_table import _api, _player, _referee_at_keep

    referee = _referee_at_keep(browser, served, "Ann")
    ann = _player(browser, referee, served, "Ann")
    errors: list[str] = []
    for page in (referee, ann):
        page.on("pageerror", lambda e: errors.append(str(e)))
    store = Store(resolve_url(str(served.db)))
    who = next(k for k, m in store.open("Keep").roster.items() if m.character.player == "Ann")
    form = "#call-roll"
    referee.select_option(f"{form} select[name=who]", who)
    referee.select_option(f"{form} select[name=ability]", "STR")

    def roll(faces: str, dc: int, luck: str) -> None:
        referee.fill(f"{form} input[name=faces]", faces)
        referee.fill(f"{form} input[name=dc]", str(dc))
        referee.select_option(f"{form} select[name=luck]", luck)
        with referee.expect_response(lambda r: r.url.endswith("/roll")) as sent:
            referee.click(f"{form} button[type=submit]")
        assert sent.value.status == 200, sent.value.text()

    def newest(kind: str) -> dict[str, Any]:
        return dict(next(e for e in reversed(store.events("Keep")) if e.kind == kind).data)

    roll("1", 30, "")
    roll("1", 30, "")                                       # two failures in a row: a Luck Die (F-LUCK-01)
    mod = newest("sheet_roll")["total"] - 1
    dc = 2 + mod + 4                                        # a 2 fails; a Luck Die of 6 makes it
    roll("2,6", dc, "1")                                    # her answer given ahead: spent at once
    given = newest("sheet_roll")
    assert (given["luck_before"], given["luck_dice"], given["total"], given["success"]) == (2 + mod, 1, 8 + mod,
                                                                                             True)
    assert not [e for e in store.events("Keep") if e.kind == "luck_asked"]
    roll("1", 30, "")
    roll("1", 30, "")                                       # another die earned
    roll("2", dc, "")                                       # asked once seen: her phone shows the card
    card = "#luck-asked .luck-asked"
    ann.wait_for_selector(card)
    assert newest("luck_asked")["total"] == 2 + mod
    with ann.expect_response(lambda r: r.url.endswith("/luck")) as spent:
        ann.click(f"{card} button[data-luck='0']")
    assert spent.value.status == 200, spent.value.text()
    rolled = newest("sheet_roll")                           # no Luck spent: the 2 stands, and fails
    assert (rolled["natural"], rolled["total"], rolled.get("luck_dice", 0), rolled["success"]) == (2, 2 + mod, 0,
                                                                                                  False)
    assert _api(ann, "GET", "/api/campaigns/Keep")["luck_asked"] == {}
    ann.fill("#sheet input[name=skill]", "Stealth")         # her own phone: a CHECK of a skill
    with ann.expect_response(lambda r: r.url.endswith("/roll")) as sent:
        ann.click("[data-roll=check]")
    assert sent.value.status == 200, sent.value.text()
    assert sent.value.request.post_data_json["skill"] == "Stealth"
    rolled = next(e for e in reversed(store.events("Keep")) if e.kind in ("sheet_roll", "luck_asked"))
    assert rolled.data["skill"] == "Stealth"                # rolled, or waiting for her Luck Dice if they could
    assert not errors, errors
