"""The rest of a session from the referee's page, in Chromium (web.session_more): she opens a character's sheet
(the CLI's printable page, in a frame), searches the bestiary, adds a monster from it and fights it out in one
quick fight; a player on a 390×844 phone opens her own character's sheet, and is offered only her own."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.live_server import Served
from tests.web.test_browser_phone import PHONE, _fits

pytestmark = pytest.mark.browser


def test_the_referee_plays_from_sheets_and_the_bestiary_and_a_player_reads_her_sheet(served: Served,
                                                                                     browser: Any) -> None:
    errors: list[str] = []
    page = browser.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served.link)
    page.fill("#new-campaign input[name=name]", "Keep")
    page.click("#new-campaign button")
    page.wait_for_url(re.compile(r"/c/Keep/referee$"))
    page.wait_for_selector("body[data-live='1']")
    page.fill("#funnel input[name=players]", "Ann, Bo")
    page.fill("#funnel input[name=per_player]", "2")
    page.click("#funnel button")
    page.wait_for_selector("#roster .member >> nth=3")

    # a sheet: the CLI's page, in its frame, with its print and Markdown
    page.wait_for_selector("#sheet-pick select[name=who] option >> nth=3", state="attached")
    page.select_option("#sheet-pick select[name=who]", "ann1")
    page.click("#sheet-pick button")
    sheet = page.frame_locator("#sheet-frame")
    assert sheet.locator("section.card h2").inner_text() == "Ann-1"
    assert sheet.locator(".score .ab").all_inner_texts() == ["STR", "DEX", "CON", "INT", "WIS", "CHA"]
    assert page.get_attribute("#sheet-md", "href").endswith("/characters/ann1/sheet?format=markdown&download=true")

    # the bestiary: a search, a monster added to the next fight's list, and that fight fought out at once
    page.fill("#bestiary-search input[name=q]", "goblin")
    page.click("#bestiary-search button")
    page.wait_for_selector("#bestiary-list [data-monster=goblin-boss]")
    # the whole bestiary was listed before the search (the ogre and the goblin boss among it): its answer is in
    # once the ogre has gone
    page.wait_for_selector("#bestiary-list [data-monster=ogre]", state="detached")
    assert page.locator("#bestiary-list [data-monster=ogre]").count() == 0
    page.fill("#bestiary-search input[name=count]", "2")
    page.click("#bestiary-list [data-add=goblin]")
    assert page.input_value("#quick-fight input[name=monsters]") == "goblin x2"
    page.click("#quick-fight button")
    page.wait_for_selector("#quick-out li.fight")
    page.wait_for_selector("#log li.fight")
    page.click("#recap-show")
    page.wait_for_selector("#campaign-out:has-text('since the campaign began')")

    # Ann on her phone: her own characters' sheets only, read whole
    page.fill("#invite input[name=player]", "Ann")
    page.click("#invite button")
    page.wait_for_selector("#invite-out .invite-url")
    invite = page.get_attribute(".invite-url", "href")
    ann = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    ann.on("pageerror", lambda e: errors.append(str(e)))
    ann.goto(invite)
    ann.tap("#join")
    ann.wait_for_url(re.compile(r"/c/Keep/player$"))
    ann.wait_for_selector("#sheet-pick select[name=who] option >> nth=1", state="attached")
    offered = ann.locator("#sheet-pick select[name=who] option").evaluate_all("(os) => os.map((o) => o.value)")
    assert sorted(offered) == ["ann1", "ann2"]
    ann.select_option("#sheet-pick select[name=who]", "ann2")
    ann.tap("#sheet-pick button")
    assert ann.frame_locator("#sheet-frame").locator("section.card h2").inner_text() == "Ann-2"
    assert ann.frame_locator("#sheet-frame").locator(".stat .lbl").first.inner_text() == "HP"
    _fits(ann, "the player's page with her sheet open")
    assert not errors, errors
